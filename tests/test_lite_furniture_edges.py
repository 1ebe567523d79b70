"""Running headers and footers are a page's outermost lines: a statement's headings under its title are not.

Amcor's 10-Q prints "Amcor plc and Subsidiaries" over each statement, with "Part I - Financial Information"
above it on the first. Each statement's title differs, but its period headings, years and first rows sit
where the next statement's do ("Three Months Ended December 31,", "2022 2021"), so they were read as a
running header continued from the company's name, and the income statement lost its headings and its
first two rows. A line is furniture now only when no line left unmarked stands between it and the edge, and
a block of running lines ends at a line printing figures (on the next page, the statement's rows were read as
the running header continued).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402

HEIGHT = letter[1]
YEARS = ["2022", "2021", "2022", "2021"]
VALUE_RIGHTS = [300, 370, 450, 520]
INCOME = [("Net sales", ["$ 3,642", "$ 3,507", "$ 7,354", "$ 6,927"]),
          ("Cost of sales", ["(2,980)", "(2,862)", "(6,024)", "(5,632)"]),
          ("Gross profit", ["662", "645", "1,330", "1,295"]),
          ("Operating income", ["559", "322", "901", "618"]),
          ("Net income", ["$ 461", "$ 229", "$ 695", "$ 432"])]
COMPREHENSIVE = [("Net income", ["$ 461", "$ 229", "$ 695", "$ 432"]),
                 ("Net gains on cash flow hedges", ["4", "(1)", "3", "2"]),
                 ("Foreign currency translation", ["144", "(21)", "(17)", "(116)"]),
                 ("Total other comprehensive income", ["147", "(20)", "(14)", "(112)"]),
                 ("Comprehensive income", ["$ 608", "$ 209", "$ 681", "$ 320"])]


def _statement(c: canvas.Canvas, lines_above: list[str], title: str, rows) -> None:
    """One page: the lines above the title, the title, the period headings and the rows, 9 pt, 11 pt apart."""
    y = 44.0
    c.setFont("Times-Bold", 9)
    for text in [*lines_above, title]:
        c.drawCentredString(306, HEIGHT - y, text)
        y += 11
    c.drawCentredString(335, HEIGHT - y, "Three Months Ended December 31,")
    c.drawCentredString(485, HEIGHT - y, "Six Months Ended December 31,")
    y += 11
    c.drawString(50, HEIGHT - y, "($ in millions)")
    for right, year in zip(VALUE_RIGHTS, YEARS):
        c.drawRightString(right, HEIGHT - y, year)
    c.setFont("Times-Roman", 9)
    for label, values in rows:
        y += 11
        c.drawString(50, HEIGHT - y, label)
        for right, value in zip(VALUE_RIGHTS, values):
            c.drawRightString(right, HEIGHT - y, value)
    c.showPage()


@pytest.fixture(scope="module")
def units(tmp_path_factory):
    path = tmp_path_factory.mktemp("furniture") / "statements.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    _statement(c, ["Part I - Financial Information", "Acme plc and Subsidiaries"],
               "Condensed Consolidated Statements of Income", INCOME)
    _statement(c, ["Acme plc and Subsidiaries"], "Condensed Consolidated Statements of Comprehensive Income",
               COMPREHENSIVE)
    c.save()
    return EvidenceChunker(parser="lite").chunk(Path(path))


def test_a_statement_under_a_line_of_its_own_keeps_its_title_years_and_first_rows(units):
    income = units[0]
    assert income.caption_text.endswith("Condensed Consolidated Statements of Income")
    assert income.header_rows[-1] == "2022 | 2021 | 2022 | 2021"
    assert income.flattened_rows[0] == "Net sales | 2022: $ 3,642; 2021: $ 3,507; 2022: $ 7,354; 2021: $ 6,927"
    assert income.flattened_rows[1].startswith("Cost of sales | 2022: (2,980);")


def test_a_running_header_does_not_run_on_into_a_tables_rows(units):
    rows = [row for unit in units for row in unit.flattened_rows]
    # the second page's company name and title repeat as a header, but its figures are a table's rows
    assert any(row.startswith("Net income | 2022: $ 461;") for row in rows)
    assert any(row.startswith("Net gains on cash flow hedges | 2022: 4;") for row in rows)
