"""A ruled statement that draws its row rules under one column only (Pfizer's income statement rules the
current year's column): the other columns hold one label or value per row, not one tall cell each."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

ROWS = [
    ("Revenues", "81,288", "41,651", "40,905"),
    ("Cost of sales", "30,821", "8,484", "8,054"),
    ("Research and development expenses", "13,829", "9,393", "8,385"),
    ("Amortization of intangible assets", "3,700", "3,348", "4,429"),
    ("Income before taxes", "24,311", "7,036", "11,321"),
    ("Net income", "22,980", "9,159", "16,026"),
]
COLUMNS = [72, 300, 380, 460, 540]  # label, 2021 (ruled), 2020, 2019
TOP, ROW_H = 650, 16


def _statement(path: Path) -> Path:
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica", 9)
    bottom = TOP - ROW_H * (len(ROWS) + 1)
    for x in COLUMNS:  # column rules over the whole table
        c.line(x, TOP, x, bottom)
    c.line(COLUMNS[0], TOP, COLUMNS[-1], TOP)
    c.line(COLUMNS[0], bottom, COLUMNS[-1], bottom)
    for i, label in enumerate(["(Millions)", "2021", "2020", "2019"]):
        c.drawString(COLUMNS[i] + 4, TOP - ROW_H + 5, label)
    for r, row in enumerate(ROWS, start=1):
        y = TOP - ROW_H * (r + 1) + 5
        c.line(COLUMNS[1], TOP - ROW_H * r, COLUMNS[2], TOP - ROW_H * r)  # a row rule under 2021 only
        for i, text in enumerate(row):
            c.drawString(COLUMNS[i] + 4, y, text)
    c.showPage()
    c.save()
    return path


def test_rows_ruled_under_one_column_are_rows_in_every_column(tmp_path):
    doc = LiteParser().parse(_statement(tmp_path / "statement.pdf")).document
    assert len(doc.tables) == 1
    grid = [[cell.text for cell in row] for row in doc.tables[0].data.grid]
    assert grid[1:] == [list(row) for row in ROWS]
    assert all(cell.row_span == 1 for cell in doc.tables[0].data.table_cells)


def test_a_heading_wrapped_over_the_two_rows_of_a_split_header_stays_one_cell(tmp_path):
    # "Segment / name" sits in both header rows, which only the rule under the spanning "Net sales" divides.
    path = tmp_path / "header.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica", 9)
    xs, top, h = [72, 250, 330, 410], 650, 16
    bottom = top - h * 5
    for x in xs:
        c.line(x, top, x, bottom)
    for y in (top, top - 2 * h, bottom):
        c.line(xs[0], y, xs[-1], y)
    c.line(xs[1], top - h, xs[3], top - h)  # under the spanning heading only
    c.drawString(xs[0] + 4, top - h + 5, "Segment")
    c.drawString(xs[0] + 4, top - 2 * h + 5, "name")
    c.drawCentredString((xs[1] + xs[3]) / 2, top - h + 5, "Net sales")
    c.drawString(xs[1] + 4, top - 2 * h + 5, "2021")
    c.drawString(xs[2] + 4, top - 2 * h + 5, "2020")
    regions = [("Americas", "1,200", "1,100"), ("Europe", "800", "750"), ("Asia", "400", "380")]
    for r, (name, a, b) in enumerate(regions):
        y = top - h * (r + 3) + 5
        for x, text in zip(xs, (name, a, b)):
            c.drawString(x + 4, y, text)
    c.showPage()
    c.save()
    doc = LiteParser().parse(path).document
    assert len(doc.tables) == 1
    heading = [cell for cell in doc.tables[0].data.table_cells
               if cell.start_col_offset_idx == 0 and cell.start_row_offset_idx == 0]
    assert [(cell.text, cell.row_span) for cell in heading] == [("Segment name", 2)]
