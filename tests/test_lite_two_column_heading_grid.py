"""A grid of headings heads the rows below it on a page set in two columns.

JPMorgan's 10-Q opens with "Financial performance of JPMorgan Chase" in the left column of the page: a
ruled grid of headings ("Three months ended March 31," over "2021 | 2020 | Change"), a section label
("Selected income statement data") and the rows, prose under them, while the right column runs prose on the
same baselines.
The label's line joined the prose beside it into one line, which no longer read as a label alone over the
rows, so the grid was left as a table of headings alone and every figure of the rows had no column header.
Only what stands within the rows' sides counts between the grid and the rows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402

ROWS = [("Total net revenue", "$ 32,266", "$ 28,286", "14 %"), ("Total noninterest expense", "18,725", "16,791", "12"),
        ("Pre-provision profit", "13,541", "11,495", "18"), ("Net income", "14,300", "2,865", "399")]
PROSE = ["• Noninterest expense was $18.7 billion, up 12%,", "predominantly driven by higher volume- and",
         "revenue-related expense and continued investments", "in the businesses. The increase in expense also",
         "included a $550 million contribution to the Foundation.", "• The provision for credit losses was a net",
         "benefit of $4.2 billion driven by net reductions in the", "allowance for credit losses of $5.2 billion."]
#: The left column's prose under the table.
LEFT_PROSE = ["JPMorgan Chase reported net income of $14.3 billion for the first",
              "quarter of 2021, or $4.50 per share, on net revenue of $32.3 billion.",
              "The Firm reported ROE of 23% and ROTCE of 29%. The results for the",
              "first quarter included a reduction in the allowance for credit losses."]
#: Right edges of the value columns, and the grid's column dividers (points).
RIGHTS = (205, 255, 300)
DIVIDERS = (50, 160, 210, 260, 305)


def _two_column_page(path: Path) -> Path:
    c = canvas.Canvas(str(path), pagesize=(612, 792), invariant=1)
    top, mid, bottom = 700, 686, 672
    for y in (top, mid, bottom):
        c.line(DIVIDERS[0], y, DIVIDERS[-1], y)
    for x in (DIVIDERS[0], DIVIDERS[1], DIVIDERS[-1]):
        c.line(x, top, x, bottom)
    for x in DIVIDERS[2:-1]:
        c.line(x, mid, x, bottom)
    c.setFont("Helvetica", 7)
    c.drawCentredString((DIVIDERS[1] + DIVIDERS[-1]) / 2, 690, "Three months ended March 31,")
    c.drawString(54, 676, "(in millions)")
    for right, text in zip(RIGHTS, ("2021", "2020", "Change")):
        c.drawRightString(right, 676, text)
    c.setFont("Helvetica-Bold", 7)
    c.drawString(54, 662, "Selected income statement data")
    c.setFont("Helvetica", 7)
    for i, (label, *values) in enumerate(ROWS):
        y = 650 - 12 * i
        c.drawString(54, y, label)
        for right, text in zip(RIGHTS, values):
            c.drawRightString(right, y, text)
    c.setFont("Helvetica", 9)
    for i, line in enumerate(PROSE):
        c.drawString(360, 698 - 12 * i, line)
    for i, line in enumerate(LEFT_PROSE):
        c.drawString(50, 580 - 12 * i, line)
    c.showPage()
    c.save()
    return path


def test_rows_under_a_grid_of_headings_read_under_its_headings_beside_prose(tmp_path):
    units = EvidenceChunker(parser="lite").chunk(_two_column_page(tmp_path / "overview.pdf"))
    rows = [row for eu in units for row in eu.flattened_rows]
    net_income = next(row for row in rows if "Net income |" in row)
    assert "Three months ended March 31, / 2021: 14,300" in net_income
    assert "Three months ended March 31, / 2020: 2,865" in net_income
    assert "Three months ended March 31, / Change: 399" in net_income
