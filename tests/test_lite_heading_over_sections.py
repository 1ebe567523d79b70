"""A borderless table of sections under a long period heading stays one table, headed by that heading.

Walmart's five-year summary prints "As of and for the Fiscal Years Ended January 31," centred over the
years, then sections ("Operating results", "Financial position", ...) apart by a blank band. The heading
is a heading line however many words it has, since it is centred over the value columns; the sections
are read apart and joined again, and the join, rebuilding the table from its first line, read that
heading as a line of the table: it crossed every gutter and ended the table there, so the sections stayed
two tables, the lower one with no column headings at all.

A table with a single row of figures under four lines of headings (Johnson & Johnson's hedged liability)
has those lines as its heading rows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.platypus import SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.found_tables import Cell, FoundTable  # noqa: E402
from evidence_chunker.parsing.lite.settings import LiteSettings  # noqa: E402
from evidence_chunker.parsing.lite.table_headers import mark_headers  # noqa: E402

YEARS = ["2018", "2017", "2016", "2015", "2014"]
OPERATING = [["Total revenues", "$ 500,343", "$ 485,873", "$ 482,130", "$ 485,651", "$ 476,294"],
             ["Net sales", "495,761", "481,317", "478,614", "482,229", "473,076"],
             ["Operating income", "20,437", "22,764", "24,105", "27,147", "26,872"],
             ["Dividends declared per common share", "2.04", "2.00", "1.96", "1.92", "1.88"]]
POSITION = [["Inventories", "$ 43,783", "$ 43,046", "$ 44,469", "$ 45,141", "$ 44,858"],
            ["Total assets", "204,522", "198,825", "199,581", "203,490", "204,541"],
            ["Total shareholders' equity", "77,869", "77,798", "80,546", "81,394", "76,255"]]


def _summary(path: Path) -> Path:
    rows = [["", "As of and for the Fiscal Years Ended January 31,", "", "", "", ""],
            ["(Amounts in millions, except per share data)", *YEARS], ["Operating results", "", "", "", "", ""],
            *OPERATING, ["", "", "", "", "", ""], ["", "", "", "", "", ""], ["Financial position", "", "", "", "", ""],
            *POSITION]
    grid = Table(rows, colWidths=[200, 70, 70, 70, 70, 70])
    grid.setStyle(TableStyle([
        ("FONTSIZE", (0, 0), (-1, -1), 8), ("ALIGN", (1, 1), (-1, -1), "RIGHT"), ("ALIGN", (1, 0), (-1, 0), "CENTER"),
        ("SPAN", (1, 0), (-1, 0)), ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        # centred over the printed figures (set flush right), not over the cells
        ("LEFTPADDING", (1, 0), (1, 0), 28),
    ]))
    SimpleDocTemplate(str(path), pagesize=letter).build([Spacer(1, 20), grid])
    return path


def test_sections_under_a_long_period_heading_stay_one_headed_table(tmp_path):
    units = EvidenceChunker(parser="lite").chunk(_summary(tmp_path / "summary.pdf"))
    rows = {line.split(" | ")[0].split(" > ")[-1]: line.split(" | ", 1)[1]
            for eu in units for line in eu.flattened_rows if " | " in line}
    heading = "As of and for the Fiscal Years Ended January 31,"
    assert rows["Net sales"].startswith(f"{heading} / 2018: 495,761; ")
    assert rows["Total assets"].startswith(f"{heading} / 2018: 204,522; ")
    assert len(units) == 1


def _cell(row: int, col: int, text: str) -> Cell:
    return Cell(row=row, col=col, row_span=1, col_span=1, x0=100.0 * col, top=10.0 * row, x1=100.0 * col + 90,
                bottom=10.0 * row + 9, text=text)


def test_four_heading_lines_over_a_single_row_of_figures_are_its_header_rows():
    texts = [["", "", "", "Cumulative Amount of Fair Value Hedging", ""],
             ["Line item in the balance sheet in", "", "", "Adjustment Included in the Carrying Amount of", ""],
             ["which the hedged item is included", "Carrying Amount of the Hedged Liability", "", "the Hedged Liability", ""],
             ["(Dollars in Millions)", "January 1, 2023", "January 2, 2022", "January 1, 2023", "January 2, 2022"],
             ["Long-term Debt", "$ 8,665", "$ 9,793", "$ (1,435)", "$ (142)"]]
    table = FoundTable(0.0, 0.0, 500.0, 50.0, 5, 5, [_cell(r, c, t) for r, row in enumerate(texts) for c, t in enumerate(row)],
                       "aligned")
    mark_headers(table, set(), LiteSettings())
    assert {c.row for c in table.cells if c.column_header} == {0, 1, 2, 3}


def test_rows_of_ranges_over_a_single_row_of_figures_are_no_headings():
    texts = [["Risk-free interest rate", "1.77-2.66%", "2.79-3.01%"], ["Expected life of option grants", "7 years", "5-6 years"],
             ["Expected volatility of underlying stock", "49.48-106.16%", "45.64-46.18%"],
             ["Dividends assumption", "$ --", "$ --"]]
    table = FoundTable(0.0, 0.0, 300.0, 40.0, 4, 3, [_cell(r, c, t) for r, row in enumerate(texts) for c, t in enumerate(row)],
                       "aligned")
    mark_headers(table, set(), LiteSettings())
    assert not any(c.column_header for c in table.cells)
