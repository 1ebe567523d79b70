"""Ruled statements whose "$", ")" and "%" stand in grid cells of their own.

EDGAR renders a statement's amounts over three table cells: "$" at the left of the value column, the
digits, and ")" or "%" after them. Read cell by cell, "Net sales | $ | 14,694" made the sign a value of its
own column, so the row's amounts no longer lined up with the years above them. The lite parser joins such
columns to the amounts they belong to, keeping the printed characters.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from evidence_chunker.parsing.lite.found_tables import Cell, FoundTable, join_value_mark_columns

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

ROWS = [
    ["(In millions)", "", "2023", "", "", "2022", ""],
    ["Net sales", "$", "14,694", "", "$", "14,544", ""],
    ["Cost of sales", "", "(11,969", ")", "", "(11,724", ")"],
    ["Gross profit", "", "2,725", "", "", "2,820", ""],
    ["Gross margin", "", "18.5", "%", "", "19.4", "%"],
    ["Net income", "$", "1,048", "", "$", "805", ""],
]
WIDTHS = [170, 12, 60, 10, 12, 60, 10]


def _table(rows: list[list[str]]) -> FoundTable:
    cells = [Cell(row=r, col=c, row_span=1, col_span=1, x0=c * 10.0, top=r * 10.0, x1=c * 10.0 + 10, bottom=r * 10.0 + 10, text=t)
             for r, row in enumerate(rows) for c, t in enumerate(row)]
    return FoundTable(0, 0, 10.0 * len(rows[0]), 10.0 * len(rows), len(rows), len(rows[0]), cells, "ruled")


def _rows(table: FoundTable) -> list[list[str]]:
    grid = [[""] * table.n_cols for _ in range(table.n_rows)]
    for c in table.cells:
        grid[c.row][c.col] = c.text
    return grid


def test_sign_and_mark_columns_join_their_amounts():
    table = join_value_mark_columns(_table(ROWS))
    assert table.n_cols == 3
    assert _rows(table) == [
        ["(In millions)", "2023", "2022"],
        ["Net sales", "$ 14,694", "$ 14,544"],
        ["Cost of sales", "(11,969)", "(11,724)"],
        ["Gross profit", "2,725", "2,820"],
        ["Gross margin", "18.5%", "19.4%"],
        ["Net income", "$ 1,048", "$ 805"],
    ]
    assert all(c.col_span == 1 for c in table.cells)


def test_a_mark_that_closes_no_amount_keeps_its_column():
    # "—" and "%" are two printed values, not one amount: nothing to join
    rows = [["Organic sales", "1.2", "—", "%"], ["Translation", "(0.3)", "2.6", "%"]]
    table = join_value_mark_columns(_table(rows))
    assert _rows(table) == rows


def test_a_column_of_words_is_never_joined():
    rows = [["Item", "Form", "Page"], ["Revenues", "10-K", "33"], ["Expenses", "10-Q", "34"]]
    assert _rows(join_value_mark_columns(_table(rows))) == rows


def test_a_spacer_column_between_value_columns_is_dropped():
    rows = [["Gross profit", "$", "2,725", "", "$", "2,820"], ["Share of sales", "", "18.5%", "", "", "19.4%"]]
    assert _rows(join_value_mark_columns(_table(rows))) == [
        ["Gross profit", "$ 2,725", "$ 2,820"], ["Share of sales", "18.5%", "19.4%"]]


def test_a_cell_already_spanning_sign_and_amount_keeps_its_text():
    table = _table([["Net sales", "$", "14,694"], ["Cost of sales", "(11,969)", ""]])
    table.cells = [c for c in table.cells if not (c.row == 1 and c.col == 2)]
    spanning = next(c for c in table.cells if c.text == "(11,969)")
    spanning.col_span = 2
    join_value_mark_columns(table)
    assert _rows(table) == [["Net sales", "$ 14,694"], ["Cost of sales", "(11,969)"]]
    assert table.n_cols == 2 and spanning.col == 1 and spanning.col_span == 1


@pytest.fixture(scope="module")
def statement_pdf(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("marks") / "ruled_statement.pdf"
    grid = Table(ROWS, colWidths=WIDTHS)
    grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
                              ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    SimpleDocTemplate(str(path), pagesize=letter).build([grid])
    return path


def test_ruled_statement_reads_one_value_per_year(statement_pdf):
    parsed = LiteParser().parse(statement_pdf)
    (table,) = parsed.document.tables
    texts = [[cell.text for cell in row] for row in table.data.grid]
    assert table.data.num_cols == 3
    assert ["Net sales", "$ 14,694", "$ 14,544"] in texts
    assert ["Cost of sales", "(11,969)", "(11,724)"] in texts
    assert ["Gross margin", "18.5%", "19.4%"] in texts


def test_flattened_rows_pair_each_amount_with_its_year(statement_pdf):
    (eu,) = EvidenceChunker(parser="lite").chunk(statement_pdf)
    rows = " / ".join(eu.flattened_rows)
    assert "2023: $ 14,694" in rows and "2022: $ 14,544" in rows
    assert "2023: (11,969)" in rows
    assert "$;" not in rows and "| $ |" not in rows


def _headed(rows: list[list[str]]) -> FoundTable:
    table = _table(rows)
    for cell in table.cells:
        cell.column_header = cell.row == 0
    return table


def test_a_percentage_in_a_cell_of_its_own_joins_the_value_column_it_is_printed_in():
    # EDGAR's MD&A tables: the amount and the share of sales under it sit in different table cells of one
    # printed column, the second without a heading of its own.
    rows = [["", "2022", "", "2021", ""],
            ["Net sales", "$ 14,189", "", "$ 14,082", ""],
            ["(as a % of net sales)", "", "32%", "", "36%"],
            ["Effective tax rate", "", "23%", "", "20%"]]
    assert _rows(join_value_mark_columns(_headed(rows))) == [
        ["", "2022", "2021"],
        ["Net sales", "$ 14,189", "$ 14,082"],
        ["(as a % of net sales)", "32%", "36%"],
        ["Effective tax rate", "23%", "20%"]]


def test_columns_with_headings_of_their_own_stay_apart_however_their_figures_alternate():
    rows = [["Account", "Debit", "Credit"], ["Cash", "1,200", ""], ["Revenue", "", "1,200"]]
    assert _rows(join_value_mark_columns(_headed(rows))) == rows
    # nor does a headless column join one whose figures share its rows
    rows = [["", "2022", ""], ["Net sales", "14,189", "1%"], ["Gross margin", "4,506", "(11%)"]]
    assert _rows(join_value_mark_columns(_headed(rows))) == rows
    # nor a column of years (dates split over two cells), nor one beside a column without a heading
    rows = [["", "As of", ""], ["Notes due", "Dec 31, 2021", ""], ["Notes due", "", "2022"]]
    assert _rows(join_value_mark_columns(_headed(rows))) == rows
    rows = [["", "", ""], ["Net sales", "14,189", ""], ["(as a % of sales)", "", "32%"]]
    assert _rows(join_value_mark_columns(_headed(rows))) == rows


MDA_ROWS = [
    ["", "2022", "", "2021", ""],
    ["Net sales", "$ 14,189", "", "$ 14,082", ""],
    ["(as a % of net sales)", "", "32%", "", "36%"],
    ["Provision for income taxes", "$ 411", "", "$ 491", ""],
    ["Effective tax rate", "", "23%", "", "20%"],
]


def test_an_mda_table_reads_each_percentage_under_its_year(tmp_path):
    path = tmp_path / "mda.pdf"
    grid = Table(MDA_ROWS, colWidths=[170, 60, 30, 60, 30])
    grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                              ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    SimpleDocTemplate(str(path), pagesize=letter).build([grid])
    (eu,) = EvidenceChunker(parser="lite").chunk(path)
    assert "Effective tax rate | 2022: 23%; 2021: 20%" in eu.flattened_rows
    assert "Net sales | 2022: $ 14,189; 2021: $ 14,082" in eu.flattened_rows
