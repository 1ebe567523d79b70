"""A block of headings that opens under a lead-in sentence and over a section label starts a block.

Netflix prints its tax rate reconciliation ("Year Ended December 31," over three years) and, a sentence
later ("The components of deferred tax assets ... were as follows:"), its deferred taxes under "As of
December 31," over two years, the first rows under the label "Deferred tax assets:". Aligned alike, the two
read as one grid, and the deferred taxes were filed under the reconciliation's headings ("Year Ended
December 31, / 2016: 149,367" for a 2017 balance). The lower headings (a row with one heading over a row
of years) head the rows under them even when a section label comes first, and the heading that stands
alone over the years, read into one of their columns, heads every year it is centred over.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402

HEIGHT = letter[1]
RIGHTS = [400, 480, 560]  # the value columns' right edges


def _tax_note(path: Path) -> Path:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 11)
    c.drawString(50, HEIGHT - 50, "Income Taxes")
    c.setFont("Times-Bold", 8)
    c.drawCentredString((RIGHTS[0] - 30 + RIGHTS[-1]) / 2, HEIGHT - 80, "Year Ended December 31,")
    for right, year in zip(RIGHTS, ("2017", "2016", "2015")):
        c.drawRightString(right, HEIGHT - 91, year)
    c.setFont("Times-Roman", 8)
    upper = [("Expected tax expense", "169,860", "91,179", "49,658"), ("State income taxes", "6,404", "7,261", "4,783"),
             ("Other", "(3,679)", "1,894", "2,294"), ("Provision for income taxes", "(73,608)", "73,829", "19,244")]
    y = 104
    for label, *values in upper:
        c.drawString(50, HEIGHT - y, label)
        for right, value in zip(RIGHTS, values):
            c.drawRightString(right, HEIGHT - y, value)
        y += 12
    c.drawString(50, HEIGHT - y - 6, "The components of deferred tax assets and liabilities were as follows:")
    y += 24
    c.setFont("Times-Bold", 8)
    c.drawCentredString((RIGHTS[1] - 30 + RIGHTS[2]) / 2, HEIGHT - y, "As of December 31,")
    for right, year in zip(RIGHTS[1:], ("2017", "2016")):
        c.drawRightString(right, HEIGHT - y - 11, year)
    c.setFont("Times-Roman", 8)
    c.drawString(50, HEIGHT - y - 24, "Deferred tax assets:")
    y += 36
    lower = [("Stock-based compensation", "149,367", "188,458"), ("Accruals and reserves", "34,170", "29,231"),
             ("Net deferred tax assets", "478,266", "227,248")]
    for label, *values in lower:
        c.drawString(60, HEIGHT - y, label)
        for right, value in zip(RIGHTS[1:], values):
            c.drawRightString(right, HEIGHT - y, value)
        y += 12
    c.save()
    return path


def test_headings_under_a_lead_in_sentence_head_the_rows_below_them(tmp_path):
    units = EvidenceChunker(parser="lite").chunk(_tax_note(tmp_path / "taxes.pdf"))
    rows = [row for eu in units for row in eu.flattened_rows]
    accruals = next(row for row in rows if "Accruals and reserves |" in row)
    head, _, values = accruals.partition(" | ")
    assert head == "Deferred tax assets > Accruals and reserves"
    assert "Year Ended" not in values
    assert values == "As of December 31, / 2017: 34,170; As of December 31, / 2016: 29,231"



def test_a_value_wrapped_over_lines_with_rates_does_not_start_a_block():
    """American Water: "graded from / 6.25% in 2021 / to 5.00% in 2026+" wraps over three rows of the last
    columns, then a section label and more rates follow, all under one set of headings."""
    from docbuilder import table_data
    from evidence_chunker.units.tables import analyse_table, header_blocks

    rows = [["", "2020", "2019", "2018"],
            ["Discount rate", "2.74%", "3.44%", "4.38%"],
            ["Medical trend", "graded from", "graded from", "graded from"],
            ["", "6.25% in 2021", "6.50% in 2020", "6.75% in 2019"],
            ["", "to 5.00% in 2026+", "to 5.00% in 2026+", "to 5.00% in 2026+"],
            ["Used to determine net periodic cost:", "", "", ""],
            ["Discount rate", "3.44%", "4.38%", "3.75%"]]
    layout = analyse_table(table_data(rows, header_rows=1, row_header_cols=1))
    assert header_blocks(layout) == [(0, 1, len(rows))]
