"""A change column keeps its "Change" heading: printed under the table's caption, over a heading that
spans the change's amount and percent.

American Express prints "TABLE 2: TOTAL REVENUES ..." and right under it "Years Ended December 31,  Change",
then "2022 vs. 2021" over the change in dollars and in percent. The heading line was read as the tail of a
paragraph ending with the caption, so the change columns read "2022 vs. 2021: 875" with no word of a
change; and a heading over a heading that spans two columns stood over one of them only ("Change" over
the percent). A caption is no paragraph, and a heading heads every column of the heading under it. CVS
wraps its label column's heading, and the years and "$ %" stand beside its second line, which read as the
tail of a paragraph: a line of several short labels after its first phrase is a row of column labels.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402

HEIGHT = letter[1]
#: Column edges: the labels, two years, the change in dollars and in percent.
EDGES = [50, 300, 360, 420, 480, 530]
BODY = [("Discount revenue", "30,739", "24,563", "6,176", "25 %"), ("Net card fees", "6,070", "5,195", "875", "17"),
        ("Processed revenue", "1,637", "1,556", "81", "5"), ("Total revenues", "52,862", "42,380", "10,482", "25 %")]


def _ruled_body(c: canvas.Canvas, top: float) -> None:
    """BODY as a ruled grid from ``top`` (points from the page top); its headings are printed above it."""
    for k, row in enumerate(BODY):
        y = top + 12 * k
        c.line(EDGES[0], HEIGHT - y, EDGES[-1], HEIGHT - y)
        c.drawString(52, HEIGHT - y - 9, row[0])
        for right, value in zip(EDGES[2:], row[1:]):
            c.drawRightString(right - 4, HEIGHT - y - 9, value)
    bottom = top + 12 * len(BODY)
    c.line(EDGES[0], HEIGHT - bottom, EDGES[-1], HEIGHT - bottom)
    for x in EDGES:
        c.line(x, HEIGHT - top, x, HEIGHT - bottom)


def _revenue_summary(path: Path) -> Path:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setLineWidth(0.5)
    c.setFont("Times-Bold", 9)
    c.drawString(50, HEIGHT - 60, "TABLE 2: TOTAL REVENUES NET OF INTEREST EXPENSE SUMMARY")
    c.setFont("Times-Roman", 8)
    change = (EDGES[3] + EDGES[5]) / 2
    c.drawString(50, HEIGHT - 72, "Years Ended December 31,")
    c.drawCentredString(change, HEIGHT - 72, "Change")
    c.drawString(50, HEIGHT - 82, "(Millions, except percentages)")
    for right, year in zip(EDGES[2:4], ("2022", "2021")):
        c.drawRightString(right - 4, HEIGHT - 82, year)
    c.drawCentredString(change, HEIGHT - 82, "2022 vs. 2021")
    _ruled_body(c, 86)
    c.save()
    return path


def test_a_change_heading_under_the_caption_heads_both_change_columns(tmp_path):
    (unit,) = EvidenceChunker(parser="lite").chunk(_revenue_summary(tmp_path / "revenues.pdf"))
    fees = next(row for row in unit.flattened_rows if row.startswith("Net card fees |"))
    assert fees.endswith("; Change / 2022 vs. 2021: 875; Change / 2022 vs. 2021: 17")


def _change_over_a_spanning_cell(path: Path) -> Path:
    """A ruled grid whose second heading row holds "2022 vs. 2021" in one cell over the change's two
    columns, and whose first holds "Change" in the cell over the percent column only."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setLineWidth(0.5)
    c.setFont("Times-Bold", 10)
    c.drawString(50, HEIGHT - 50, "Revenues")
    c.setFont("Times-Roman", 8)
    top, rows = 64, len(BODY) + 2
    for k in range(rows + 1):
        c.line(EDGES[0], HEIGHT - top - 12 * k, EDGES[-1], HEIGHT - top - 12 * k)
    for x in EDGES:
        if x == EDGES[4]:  # no rule between the change's two columns in the second heading row
            c.line(x, HEIGHT - top, x, HEIGHT - top - 12)
            c.line(x, HEIGHT - top - 24, x, HEIGHT - top - 12 * rows)
        else:
            c.line(x, HEIGHT - top, x, HEIGHT - top - 12 * rows)
    c.drawRightString(EDGES[5] - 4, HEIGHT - top - 9, "Change")
    c.drawString(52, HEIGHT - top - 21, "(Millions)")
    for right, year in zip(EDGES[2:4], ("2022", "2021")):
        c.drawRightString(right - 4, HEIGHT - top - 21, year)
    c.drawCentredString((EDGES[3] + EDGES[5]) / 2, HEIGHT - top - 21, "2022 vs. 2021")
    for k, row in enumerate(BODY, start=2):
        y = top + 12 * k
        c.drawString(52, HEIGHT - y - 9, row[0])
        for right, value in zip(EDGES[2:], row[1:]):
            c.drawRightString(right - 4, HEIGHT - y - 9, value)
    c.save()
    return path


def test_a_heading_over_a_spanning_heading_heads_all_its_columns(tmp_path):
    (unit,) = EvidenceChunker(parser="lite").chunk(_change_over_a_spanning_cell(tmp_path / "revenues.pdf"))
    fees = next(row for row in unit.flattened_rows if row.startswith("Net card fees |"))
    assert fees == "Net card fees | 2022: 6,070; 2021: 5,195; Change / 2022 vs. 2021: 875; Change / 2022 vs. 2021: 17"


def _wrapped_label_heading(path: Path) -> Path:
    """CVS: the label column's heading wrapped over two lines, its second line beside the column labels
    ("points (bps)  2022  2021  $  %") printed above a ruled body."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setLineWidth(0.5)
    c.setFont("Times-Bold", 10)
    c.drawString(50, HEIGHT - 50, "Health Care Benefits Segment")
    c.setFont("Times-Roman", 8)
    c.drawString(50, HEIGHT - 72, "In millions, except percentages and basis")
    c.drawString(50, HEIGHT - 81, "points (bps)")
    for right, label in zip(EDGES[2:], ("2022", "2021", "$", "%")):
        c.drawRightString(right - 4, HEIGHT - 81, label)
    _ruled_body(c, 86)
    c.save()
    return path


def test_column_labels_beside_a_wrapped_label_heading_are_not_a_paragraph_tail(tmp_path):
    (unit,) = EvidenceChunker(parser="lite").chunk(_wrapped_label_heading(tmp_path / "segment.pdf"))
    fees = next(row for row in unit.flattened_rows if row.startswith("Net card fees |"))
    assert fees == "Net card fees | 2022: 6,070; 2021: 5,195; $: 875; %: 17"
