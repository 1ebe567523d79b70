"""Years printed above a statement's first section label, or right under a paragraph, head the table.

American Express prints its cash flow statement as "Years Ended December 31 (Millions)  2022  2021  2020",
then "Cash Flows from Operating Activities" alone over the first column (no colon), then the ruled rows.
The label ended the headings read upwards from the rows, so the years stayed a line of text above a table
whose amounts had no year. Its tax note prints "(Millions)  2022  2021" right under the sentence that
introduces the table, and the heading line was read as that paragraph's last line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402
from semantic_json.rules.patterns import is_quantity, is_year  # noqa: E402
from pdf_factory import statement_body, statement_line  # noqa: E402

WIDTHS = [220, 70, 70, 70]
BODY = [
    ["Net income", "$ 7,514", "$ 8,060", "$ 3,135"],
    ["Provisions for credit losses", "2,182", "(1,419)", "4,730"],
    ["Depreciation and amortization", "1,626", "1,695", "1,543"],
    ["Net cash provided by operating activities", "21,079", "14,645", "5,591"],
]


def _line(cells: list[str], bold: bool = False):
    """One unruled line of cells over the body's columns."""
    return statement_line(cells, WIDTHS, bold_first=bold)


def _ruled_body():
    return statement_body(BODY, WIDTHS)


def _cash_flows(path: Path) -> Path:
    """A title, the years line, a section label with no colon, then the ruled body."""
    story = [Paragraph("Consolidated Statements of Cash Flows", getSampleStyleSheet()["Heading3"]), Spacer(1, 6),
             _line(["Years Ended December 31 (Millions)", "2022", "2021", "2020"]),
             _line(["Cash Flows from Operating Activities", "", "", ""], bold=True), _ruled_body()]
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    return path


def _table_under_paragraph(path: Path, heading: list[str]) -> Path:
    """A sentence that ends in a colon set close above the ``heading`` line and the ruled body."""
    style = ParagraphStyle("body", fontName="Helvetica", fontSize=8, leading=9.5)
    sentence = "The significant components of the cash provided by operating activities were as follows:"
    story = [Paragraph(sentence, style), _line(heading), _ruled_body()]
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    return path


@pytest.fixture(scope="module")
def cash_flows(tmp_path_factory) -> Path:
    return _cash_flows(tmp_path_factory.mktemp("sections") / "cash_flows.pdf")


def _texts(row) -> list[str]:
    return [c.text for c in row]


def test_years_above_a_section_label_without_colon_head_the_table(cash_flows):
    (table,) = LiteParser().parse(cash_flows).document.tables
    grid = table.data.grid
    assert _texts(grid[0]) == ["Years Ended December 31 (Millions)", "2022", "2021", "2020"]
    assert all(c.column_header for c in grid[0][1:])
    assert _texts(grid[1])[0] == "Cash Flows from Operating Activities"
    assert not any(c.column_header for c in grid[1])
    assert _texts(grid[2]) == BODY[0]


def test_every_amount_under_the_label_reads_with_its_year(cash_flows):
    (eu,) = EvidenceChunker(parser="lite").chunk(cash_flows)
    rows = " / ".join(eu.flattened_rows)
    assert "Net income | 2022: $ 7,514; 2021: $ 8,060; 2020: $ 3,135" in rows
    texts = [t.text for t in LiteParser().parse(cash_flows).document.texts]
    assert not any("2022" in t for t in texts)


# years over the value columns, or dates (AMCOR: "($ in millions)  June 30, 2023  June 30, 2022" under
# "... classified as held for sale were as follows:")
@pytest.mark.parametrize("heading", [["(Millions)", "2022", "2021", "2020"],
                                     ["(Millions)", "Dec 31, 2022", "Dec 31, 2021", "Dec 31, 2020"]])
def test_a_heading_line_right_under_a_paragraph_is_not_its_last_line(tmp_path, heading):
    doc = LiteParser().parse(_table_under_paragraph(tmp_path / "under.pdf", heading)).document
    (table,) = doc.tables
    assert _texts(table.data.grid[0]) == heading
    assert all(c.column_header for c in table.data.grid[0][1:])
    assert any(t.text.startswith("The significant components") for t in doc.texts)


@pytest.mark.parametrize("label", ["Designated as Cash Flow Hedging Instruments",
                                   "Designated as Cash Flow Hedging Instruments:"])
def test_figures_above_a_section_label_are_not_taken_as_headings(tmp_path, label):
    """The last row of a table above (an amount in each column) is not a heading line for the next one."""
    story = [Paragraph("Gains (losses) on derivative instruments", getSampleStyleSheet()["Heading3"]),
             _line(["Hedged items", "38", "108", "53"]), _line([label, "", "", ""], bold=True), _ruled_body()]
    path = tmp_path / "hedges.pdf"
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    tables = LiteParser().parse(path).document.tables
    heads = [c.text for t in tables for c in t.data.table_cells if c.column_header and c.text]
    assert not any(is_quantity(text) and not is_year(text) for text in heads)
    body = next(t for t in tables if any(c.text == "$ 7,514" for c in t.data.table_cells))
    assert _texts(body.data.grid[-1]) == BODY[-1]
