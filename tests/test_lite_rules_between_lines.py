"""A rule between two lines in different styles parts them; lines in one style stay one paragraph.

JPMorgan's 10-Qs set a section's heading ("BUSINESS SEGMENT RESULTS", 12 pt) over a rule and its first
paragraph (10 pt) close under it. The sizes differ by exactly the share that parts two styles on its own,
so the heading ran into the paragraph and no table under it read as part of that section. Some filings
(AMD's exhibits) draw an unseen rule between every two lines of a paragraph: those lines stay one.
The PDFs are drawn with reportlab's canvas.
"""

from __future__ import annotations

import pytest

pytest.importorskip("reportlab")
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

PARAGRAPH = (
    "The Firm is managed on a line of business basis. There are four major",
    "reportable business segments and a Corporate segment, which are determined",
    "based on the products and services provided, or the type of customer served.",
)


def _items(path):
    return [(item.label.value, item.text) for item, _ in LiteParser().parse(path).document.iterate_items()]


def test_a_heading_ruled_off_from_its_paragraph_is_a_section_header(tmp_path):
    path = tmp_path / "segments.pdf"
    page = canvas.Canvas(str(path))
    page.setFont("Helvetica", 12)
    page.drawString(50, 700, "BUSINESS SEGMENT RESULTS")
    page.setLineWidth(0.5)
    page.line(50, 696, 560, 696)
    page.setFont("Helvetica", 10)
    for k, line in enumerate(PARAGRAPH):
        page.drawString(50, 686 - 12 * k, line)
    page.save()
    items = _items(path)
    assert items[0] == ("section_header", "BUSINESS SEGMENT RESULTS")
    assert items[1] == ("text", " ".join(PARAGRAPH))


def test_unseen_rules_between_the_lines_of_a_paragraph_leave_it_whole(tmp_path):
    path = tmp_path / "exhibit.pdf"
    page = canvas.Canvas(str(path))
    page.setStrokeColorRGB(1, 1, 1)  # white on white, as the exhibit draws them
    page.setFont("Helvetica", 10)
    for k, line in enumerate(PARAGRAPH):
        page.drawString(50, 686 - 12 * k, line)
        page.line(40, 683 - 12 * k, 560, 683 - 12 * k)
    page.save()
    assert _items(path) == [("text", " ".join(PARAGRAPH))]
