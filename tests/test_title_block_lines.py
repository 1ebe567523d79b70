"""A unit printed on its own line above a table travels with the table, and only there (a real PDF)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402
from reportlab.platypus import Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.corpus import ConsumedStats, build_corpus_parsed  # noqa: E402


def _benefits_page(path: Path) -> Path:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica", 10)
    c.drawString(72, 720, "We made no discretionary contribution to our qualified pension plans during the year,")
    c.drawString(72, 707, "and we expect no qualified pension plan contributions in the coming year either.")
    c.setFont("Helvetica-Bold", 12)
    c.drawString(72, 680, "Estimated Future Benefit Payments")
    c.setFont("Helvetica", 10)
    c.drawString(72, 662, "The benefit payments to retirees are expected to be paid as follows:")
    c.drawRightString(540, 646, "(dollars in millions)")
    data = [["Year", "Pension Benefits", "Health Care and Life"], ["2022", "$ 2,049", "$ 906"],
            ["2023", "1,648", "883"], ["2024", "1,097", "862"], ["2025", "1,066", "838"]]
    table = Table(data, colWidths=[168, 150, 150], rowHeights=16)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                               ("FONT", (0, 0), (-1, -1), "Helvetica", 9), ("ALIGN", (1, 0), (-1, -1), "RIGHT")]))
    table.wrapOn(c, 468, 200)
    table.drawOn(c, 72, 640 - 16 * len(data))
    c.showPage()
    c.save()
    return path


def test_the_unit_line_is_in_the_tables_text_and_not_a_record_of_its_own(tmp_path):
    chunker = EvidenceChunker(parser="lite")
    parsed = chunker.parse(_benefits_page(tmp_path / "benefits.pdf"))
    units = chunker.chunk_parsed(parsed)
    [eu] = [u for u in units if "2,049" in u.text]
    assert eu.unit == "dollars in millions" and eu.title_refs
    assert eu.text.splitlines()[0] == "Estimated Future Benefit Payments · (dollars in millions)"
    stats = ConsumedStats()
    corpus = build_corpus_parsed(parsed, units, stats=stats)
    texts = [record.text for record in corpus if record.metadata["kind"] == "text"]
    assert not any("dollars in millions" in text for text in texts), texts
    assert any("discretionary contribution" in text for text in texts)  # the paragraph above stays text
    assert stats.by_caption >= 1
