"""Page numbers printed away from the margin band are page furniture when they run with the pages."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from docling_core.types.doc import DocItemLabel, TextItem  # noqa: E402
from docling_core.types.doc.document import ContentLayer  # noqa: E402
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

PARAGRAPH = [
    "Net sales increased in every segment during the year, led by demand for services.",
    "Operating margin improved as the mix shifted toward software subscriptions.",
    "Cash from operations funded the dividend and the share repurchase program.",
]
#: 130 points above the bottom edge of a 792-point page: well outside the 8 % margin band (63 points).
FOLIO_Y = 130


def _texts(doc, layer) -> list[TextItem]:
    return [item for item, _ in doc.iterate_items(included_content_layers={layer}) if isinstance(item, TextItem)]


def _report(path: Path, folios: list[str], last_lines: dict[int, str] | None = None) -> Path:
    """One page per folio: a paragraph, an optional last line of body text, the folio centred below it."""
    c = canvas.Canvas(str(path), pagesize=letter)
    for index, folio in enumerate(folios):
        c.setFont("Helvetica", 10)
        y = 700
        for line in PARAGRAPH:
            c.drawString(72, y, line)
            y -= 13
        if last_lines and index in last_lines:
            c.drawString(72, FOLIO_Y + 40, last_lines[index])
        if folio:
            c.drawCentredString(letter[0] / 2, FOLIO_Y, folio)
        c.showPage()
    c.save()
    return path


def test_page_numbers_that_run_with_the_pages_are_footers(tmp_path):
    doc = LiteParser().parse(_report(tmp_path / "folios.pdf", ["63", "64", "65", "66"])).document
    footers = [t for t in _texts(doc, ContentLayer.FURNITURE) if t.label == DocItemLabel.PAGE_FOOTER]
    assert [(t.prov[0].page_no, t.text) for t in footers] == [(1, "63"), (2, "64"), (3, "65"), (4, "66")]
    body = [t.text for t in _texts(doc, ContentLayer.BODY)]
    assert not any(text.strip() in {"63", "64", "65", "66"} for text in body)


def test_prefixed_page_numbers_run_too(tmp_path):
    doc = LiteParser().parse(_report(tmp_path / "f_pages.pdf", ["F-2", "F-3", "F-4"])).document
    footers = [t.text for t in _texts(doc, ContentLayer.FURNITURE) if t.label == DocItemLabel.PAGE_FOOTER]
    assert footers == ["F-2", "F-3", "F-4"]


def test_numbers_that_do_not_keep_pace_with_the_pages_stay_text(tmp_path):
    # The same figure at the foot of every page, and a run too short to be a sequence, are body text.
    doc = LiteParser().parse(_report(tmp_path / "flat.pdf", ["2024", "2024", "2024", "2024"])).document
    assert [t.text for t in _texts(doc, ContentLayer.FURNITURE)] == []
    assert [t.text for t in _texts(doc, ContentLayer.BODY)].count("2024") == 4

    doc = LiteParser().parse(_report(tmp_path / "short.pdf", ["8", "9"])).document
    assert [t.text for t in _texts(doc, ContentLayer.FURNITURE)] == []


def test_only_the_outermost_line_can_be_a_page_number(tmp_path):
    # A lone figure above the folio is the page's text; the folio under it is still found.
    last = {index: f"{index + 41}" for index in range(4)}
    doc = LiteParser().parse(_report(tmp_path / "above.pdf", ["7", "8", "9", "10"], last_lines=last)).document
    footers = [t.text for t in _texts(doc, ContentLayer.FURNITURE) if t.label == DocItemLabel.PAGE_FOOTER]
    assert footers == ["7", "8", "9", "10"]
    body = [t.text for t in _texts(doc, ContentLayer.BODY)]
    assert all(f"{index + 41}" in body for index in range(4))
