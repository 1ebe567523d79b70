"""LiteParser on statements printed in shaded bands, and the rule coverage its ruled-table finder measures.

EDGAR renders many statements (NIKE's, for one) with every other row shaded: each cell of a shaded row
is a filled rectangle, so the edges of the fills draw the column boundaries on the shaded rows only, and
the years stand in lines above the first band. Read as a ruled grid, the unshaded rows had no column
boundaries and came out as one cell per half row ("Cost of sales 20,441"); they are read as aligned
text instead, with the years as column headings and the currency signs joined to their amounts.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from docling_core.types.doc import TableItem  # noqa: E402
from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402
from evidence_chunker.parsing.lite.found_tables import Edge, rule_share  # noqa: E402

ROWS = [
    ("Revenues", "$", "36,397", "$", "34,350", "$", "32,376"),
    ("Cost of sales", "", "20,441", "", "19,038", "", "17,405"),
    ("Gross profit", "", "15,956", "", "15,312", "", "14,971"),
    ("Demand creation expense", "", "3,577", "", "3,341", "", "3,278"),
    ("Operating overhead expense", "", "7,934", "", "7,222", "", "7,191"),
    ("Total selling and administrative expense", "", "11,511", "", "10,563", "", "10,469"),
    ("Interest expense (income), net", "", "54", "", "59", "", "19"),
    ("Income before income taxes", "", "4,325", "", "4,886", "", "4,623"),
    ("NET INCOME", "$", "1,933", "$", "4,240", "$", "3,760"),
]
WIDTHS = [200, 12, 60, 12, 60, 12, 60]


def build_banded_statement(path: Path) -> Path:
    """An income statement whose odd body rows are shaded cell by cell, joined by a hairline down the
    first "$" column; the years in a line above."""
    styles = getSampleStyleSheet()
    heading = Table([["(In millions)", "", "2018", "", "2017", "", "2016"]], colWidths=WIDTHS)
    heading.setStyle(TableStyle([("ALIGN", (2, 0), (-1, 0), "RIGHT"), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    body = Table([list(row) for row in ROWS], colWidths=WIDTHS)
    style = [("ALIGN", (2, 0), (-1, -1), "RIGHT"), ("FONTSIZE", (0, 0), (-1, -1), 8)]
    for r in range(0, len(ROWS), 2):
        style += [("BACKGROUND", (c, r), (c, r), colors.HexColor("#cceeff")) for c in range(len(WIDTHS))]
    # a hairline down the first "$" column, as NIKE's statements have: it joins the bands into one drawing
    style.append(("LINEBEFORE", (1, 0), (1, -1), 0.25, colors.HexColor("#cceeff")))
    body.setStyle(TableStyle(style))
    story = [Paragraph("Consolidated Statements of Income", styles["Heading3"]), Spacer(1, 6), heading, body]
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    return path


@pytest.fixture(scope="module")
def table(tmp_path_factory) -> TableItem:
    pdf = build_banded_statement(tmp_path_factory.mktemp("banded") / "banded.pdf")
    doc = LiteParser().parse(pdf).document
    assert len(doc.tables) == 1
    return doc.tables[0]


def _row(table: TableItem, label: str) -> list[str]:
    for row in table.data.grid:
        if row[0].text == label:
            return [c.text for c in row]
    raise AssertionError(f"no row {label!r} in {[r[0].text for r in table.data.grid]}")


def test_unshaded_rows_keep_their_columns(table):
    assert _row(table, "Cost of sales") == ["Cost of sales", "20,441", "19,038", "17,405"]
    assert _row(table, "Gross profit") == ["Gross profit", "15,956", "15,312", "14,971"]


def test_shaded_rows_join_the_currency_sign_to_its_amount(table):
    assert _row(table, "Revenues") == ["Revenues", "$ 36,397", "$ 34,350", "$ 32,376"]


def test_the_years_above_the_bands_are_the_column_headings(table):
    headings = [c.text for c in table.data.grid[0]]
    assert headings[1:] == ["2018", "2017", "2016"]
    assert all(c.column_header for c in table.data.grid[0][1:])
    assert not any(c.column_header for c in table.data.grid[1])


def test_rule_share_counts_only_rules_inside_the_span():
    rules = [Edge(100.0, 10.0, 100.0, 20.0), Edge(100.0, 30.0, 100.0, 40.0), Edge(100.0, 50.0, 100.0, 60.0)]
    # only the first rule lies in [10, 21]: the rules below it cover nothing of it (no negative share)
    assert rule_share(rules, 100.0, 10.0, 21.0, False, 1.0) == pytest.approx(10.0 / 11.0)
    assert rule_share(rules, 100.0, 10.0, 40.0, False, 1.0) == pytest.approx(20.0 / 30.0)
    assert rule_share(rules, 100.0, 20.0, 30.0, False, 1.0) == 0.0
