"""A unit alone over the label column ("(In millions)") is that column's heading, not the table's title.

American Water Works prints "For the Years Ended December 31," and "2021  2020  2019" over the value
columns, then "(In millions)" alone in bold over the row labels, then the ruled rows. A bold label alone
over the first column ended the headings as a title, so the years stayed lines of text above a table whose
amounts had no year. Boeing prints "(Dollars in millions)" alone above its first line "Years ended
December 31,  2018  2017  2016" (not bold), and it was joined into the corner heading: a unit line alone
is no heading row; it stays above the table as its unit.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402
from pdf_factory import statement_body, statement_line  # noqa: E402

WIDTHS = [220, 70, 70, 70]
BODY = [
    ["Operating revenues", "$ 3,930", "$ 3,777", "$ 3,610"],
    ["Operation and maintenance", "1,777", "1,622", "1,544"],
    ["Depreciation and amortization", "636", "604", "582"],
    ["Operating income", "1,196", "1,248", "1,214"],
]


def _line(cells: list[str], bold_first: bool = False):
    """One unruled line of cells over the body's columns, set close to the next."""
    return statement_line(cells, WIDTHS, bold_first=bold_first, tight=True)


def _build(path: Path, body: Table, *lines: Table) -> Path:
    story = [Paragraph("Consolidated Results of Operations", getSampleStyleSheet()["Heading3"]), Spacer(1, 6),
             *lines, body]
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    return path


def _ruled(rows: list[list[str]]):
    return statement_body(rows, WIDTHS)


def _unruled(rows: list[list[str]]):
    return statement_body(rows, WIDTHS, ruled=False, tight=True)


def test_years_over_a_unit_alone_over_the_labels_head_a_ruled_table(tmp_path):
    path = _build(tmp_path / "results.pdf", _ruled(BODY), _line(["", "2021", "2020", "2019"]),
                  _line(["(In millions)", "", "", ""], bold_first=True))
    (table,) = LiteParser().parse(path).document.tables
    headers = [c for c in table.data.table_cells if c.column_header]
    assert {c.text for c in headers} >= {"2021", "2020", "2019", "(In millions)"}
    assert [c.text for c in table.data.grid[-len(BODY)]] == BODY[0]
    (eu,) = EvidenceChunker(parser="lite").chunk(path)
    assert "Operating revenues | 2021: $ 3,930; 2020: $ 3,777; 2019: $ 3,610" in eu.flattened_rows
    assert eu.unit == "In millions"


def test_a_unit_alone_above_a_table_is_its_unit_not_a_heading_row(tmp_path):
    path = _build(tmp_path / "revenues.pdf", _unruled([["Years ended December 31,", "2018", "2017", "2016"], *BODY]),
                  _line(["(Dollars in millions)", "", "", ""]))
    doc = LiteParser().parse(path).document
    (table,) = doc.tables
    assert [c.text for c in table.data.grid[0]] == ["Years ended December 31,", "2018", "2017", "2016"]
    assert not any("millions" in c.text for c in table.data.table_cells)
    assert any(t.text == "(Dollars in millions)" for t in doc.texts)
    (eu,) = EvidenceChunker(parser="lite").chunk(path)
    assert eu.unit == "Dollars in millions" and eu.period == "Years ended December 31"
