"""Parts of one statement set apart by section labels and space stay one table with its column headings.

Walmart prints its balance sheet as one statement with space and bold labels between its parts ("Total
assets ..." / "LIABILITIES AND EQUITY" / "Current liabilities:" / "Short-term borrowings ..."). The
borderless finder reads each part apart and joins parts of one table across space of up to
``section_gap`` lines; it counted the labels' own height as space, so the liabilities and the equity were
read as two tables of their own, without the years over their columns. A sentence between two tables still
keeps them apart. JPMorgan draws an earnings-per-share table's headings as a grid and prints a label
wrapped over two lines under it ("Basic earnings per" / "share"): lines set that close overlap by their
descenders, and the grid was left as a table of headings alone over rows without a year. Where the first
row's own label wraps up toward the grid ("Federal funds sold and securities purchased" over "under resale
agreements  $ (145)"), its first line is that row's, not a text of its own. Rows indented under a section
label ("Numerator") widen the table to the label's left side, so the heading line above, which starts
there, is the table's heading and not a line beside it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.lib.styles import ParagraphStyle  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402
from pdf_factory import statement_body, statement_line  # noqa: E402

WIDTHS = [220, 70, 70]
EPS_WIDTHS = [150, 55, 55, 55, 55]
#: The body's row labels are indented under the section labels, as statements print them.
INDENT = 17
ASSETS = [["Cash and cash equivalents", "$ 6,756", "$ 6,867"], ["Receivables, net", "5,614", "5,835"],
          ["Total assets", "$ 204,522", "$ 198,825"]]
LIABILITIES = [["Short-term borrowings", "$ 5,257", "$ 1,099"], ["Accounts payable", "46,092", "41,433"],
               ["Total current liabilities", "78,521", "66,928"]]


def _line(cells: list[str], bold_first: bool = False) -> Table:
    return statement_line(cells, WIDTHS, bold_first=bold_first, tight=True)


def _rows(rows: list[list[str]]) -> Table:
    """Body rows, their labels indented past the section labels."""
    widths = [INDENT, WIDTHS[0] - INDENT, *WIDTHS[1:]]
    body = statement_body([["", *row] for row in rows], widths, ruled=False, tight=True)
    body.setStyle(TableStyle([("ALIGN", (1, 0), (1, -1), "LEFT")]))  # the labels, past the indent
    return body


def _balance_sheet(path: Path, *between: Table) -> Path:
    """Headings, the assets, a space wider than the rows' spacing, ``between``, then the liabilities."""
    story = [_line(["", "As of January 31,", ""]), _line(["(Amounts in millions)", "2018", "2017"]),
             _rows(ASSETS), Spacer(1, 20), *between, _rows(LIABILITIES)]
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    return path


def _texts(row) -> list[str]:
    return [c.text for c in row]


def test_section_labels_and_space_between_parts_keep_one_table(tmp_path):
    path = _balance_sheet(tmp_path / "balance.pdf", _line(["LIABILITIES AND EQUITY", "", ""], bold_first=True),
                          _line(["Current liabilities:", "", ""], bold_first=True))
    (table,) = LiteParser().parse(path).document.tables
    grid = table.data.grid
    labels = [row[0].text for row in grid]
    assert labels.index("Total assets") < labels.index("LIABILITIES AND EQUITY") < labels.index("Current liabilities:")
    assert _texts(grid[-1]) == ["Total current liabilities", "78,521", "66,928"]
    (eu,) = EvidenceChunker(parser="lite").chunk(path)
    assert any("Accounts payable |" in row and "2018: 46,092" in row for row in eu.flattened_rows)


def test_headings_reach_left_of_rows_indented_under_their_section_label(tmp_path):
    """Walmart's EPS note: "(Amounts in millions, except per share data)  2020  2019" over "Numerator" over
    rows indented under it. The heading line reached left of the rows and was not taken as a heading."""
    path = tmp_path / "eps_note.pdf"
    story = [_line(["(Amounts in millions, except per share data)", "2020", "2019"]),
             _line(["Numerator", "", ""], bold_first=True),
             _rows([["Consolidated net income", "$ 15,201", "$ 7,179"],
                    ["Consolidated net income attributable to Walmart", "$ 14,881", "$ 6,670"]])]
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    (table,) = LiteParser().parse(path).document.tables
    grid = table.data.grid
    assert _texts(grid[0]) == ["(Amounts in millions, except per share data)", "2020", "2019"]
    assert all(c.column_header for c in grid[0])
    assert _texts(grid[1]) == ["Numerator", "", ""]
    assert _texts(grid[2]) == ["Consolidated net income", "$ 15,201", "$ 7,179"]


def test_a_sentence_between_two_tables_keeps_them_apart(tmp_path):
    """A note's title, the sentence that introduces its table and the unit: the next table, not a part."""
    between = [_line(["Note 13 - Income Taxes", "", ""], bold_first=True),
               _line(["The components of the provision for income taxes were as follows:", "", ""]),
               _line(["(In millions)", "", ""])]
    path = _balance_sheet(tmp_path / "two.pdf", *between)
    first, second = LiteParser().parse(path).document.tables
    assert _texts(first.data.grid[-1]) == ["Total assets", "$ 204,522", "$ 198,825"]
    assert _texts(second.data.grid[0]) == ["Short-term borrowings", "$ 5,257", "$ 1,099"]


def _eps_grid() -> Table:
    """A ruled grid of headings: the periods over two years each."""
    grid = Table([["", "Three months ended", "", "Six months ended", ""],
                  ["(in millions)", "2023", "2022", "2023", "2022"]], colWidths=EPS_WIDTHS, hAlign="LEFT")
    grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("SPAN", (1, 0), (2, 0)),
                              ("SPAN", (3, 0), (4, 0)), ("ALIGN", (1, 0), (-1, -1), "CENTER"),
                              ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    return grid


def test_a_label_wrapped_under_a_grid_of_headings_is_one_row_of_the_table(tmp_path):
    path = tmp_path / "eps.pdf"
    # leading equal to the font size: the two lines' boxes overlap by their descenders
    wrapped = ParagraphStyle("label", fontName="Helvetica-Bold", fontSize=8, leading=8)
    label = Table([[Paragraph("Basic earnings per share", wrapped)]], colWidths=[75], hAlign="LEFT")
    label.setStyle(TableStyle([("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]))
    body = statement_body([["Net income", "$ 14,472", "$ 8,649", "$ 27,094", "$ 16,931"],
                           ["Less: Preferred stock dividends", "373", "410", "729", "807"],
                           ["Net income per share", "$ 4.76", "$ 2.77", "$ 8.86", "$ 5.40"]],
                          EPS_WIDTHS, ruled=False)
    SimpleDocTemplate(str(path), pagesize=letter).build([_eps_grid(), label, body])
    doc = LiteParser().parse(path).document
    (table,) = doc.tables
    rows = table.data.grid
    assert _texts(rows[1]) == ["(in millions)", "2023", "2022", "2023", "2022"]
    assert all(c.column_header for c in rows[1])
    assert _texts(rows[2]) == ["Basic earnings per share", "", "", "", ""]
    assert _texts(rows[-1]) == ["Net income per share", "$ 4.76", "$ 2.77", "$ 8.86", "$ 5.40"]
    assert "Basic earnings per share" not in [t.text for t in doc.texts]


def test_a_first_row_label_wrapped_up_toward_the_grid_is_whole(tmp_path):
    """JPMorgan sets a long row label over two lines with the amounts on the second: the first line stood
    between the grid and the rows, apart from its row."""
    path = tmp_path / "fair_value_option.pdf"
    label = ParagraphStyle("label", fontName="Helvetica", fontSize=8, leading=9)
    body = Table([[Paragraph("Federal funds sold and securities purchased under resale agreements", label),
                   "$ (145)", "$ —", "$ (2)", "$ —"],
                  ["Securities borrowed", "(101)", "—", "(27)", "—"]], colWidths=EPS_WIDTHS, hAlign="LEFT")
    body.setStyle(TableStyle([("ALIGN", (1, 0), (-1, -1), "RIGHT"), ("FONTSIZE", (0, 0), (-1, -1), 8),
                              ("VALIGN", (0, 0), (-1, -1), "BOTTOM")]))
    SimpleDocTemplate(str(path), pagesize=letter).build([_eps_grid(), body])
    doc = LiteParser().parse(path).document
    (table,) = doc.tables
    assert _texts(table.data.grid[2]) == ["Federal funds sold and securities purchased under resale agreements",
                                          "$ (145)", "$ —", "$ (2)", "$ —"]
    assert not doc.texts


def test_a_grid_of_words_below_a_table_does_not_head_it(tmp_path):
    """American Water Works prints its credit ratings as a small ruled grid of words under its liquidity
    table: a grid that could be headings, but below the rows, not above them."""
    path = tmp_path / "ratings.pdf"
    # the liquidity table's headings are a line above its ruled rows, as EDGAR prints them
    liquidity = statement_body([["Available liquidity as of December 31, 2021", "$ 116", "$ 1,590"],
                                ["Available liquidity as of December 31, 2020", "547", "1,388"]], WIDTHS)
    ratings = statement_body([["Rating outlook", "Stable", "Stable"], ["Senior unsecured debt", "Baa1", "A"],
                              ["Commercial paper", "P-2", "A-1"]], WIDTHS)
    SimpleDocTemplate(str(path), pagesize=letter).build(
        [_line(["(In millions)", "Cash", "Credit facility"]), liquidity, Spacer(1, 4), ratings])
    tables = LiteParser().parse(path).document.tables
    heads = {c.text for t in tables for c in t.data.table_cells if c.column_header}
    assert not heads & {"Rating outlook", "Senior unsecured debt", "Baa1"}
    rows = [[c.text for c in row] for t in tables for row in t.data.grid]
    assert ["Commercial paper", "P-2", "A-1"] in rows
