"""A table whose last rows are printed after a blank page still runs on under its headings.

Filings laid out for print sometimes leave a page with nothing but its folio between a statement and its
last rows (Block's cash flow statement ends two pages on, under no heading). Read as a table of its own,
those rows carried figures under no column header; the blank page has nothing in the body, so the rows
continue the statement as on the next page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from pdf_factory import statement_body  # noqa: E402

WIDTHS = [220, 70, 70, 70]
HEAD = [["", "2016", "2015", "2014"]]
FIRST = [[f"Operating item {i}", f"{i},100", f"{i},200", f"{i},300"] for i in range(1, 9)]
LAST = [["Net increase in cash", "(9,299)", "239,014", "56,139"],
        ["Cash, end of the year", "452,030", "461,329", "222,315"]]


def _folio(canvas, doc) -> None:
    canvas.setFont("Helvetica", 9)
    canvas.drawCentredString(306, 30, str(doc.page))


def _statement(path: Path, blank_pages: int) -> Path:
    title = Paragraph("Consolidated Statements of Cash Flows", getSampleStyleSheet()["Heading3"])
    story = [title, Spacer(1, 6), statement_body(HEAD + FIRST, WIDTHS), PageBreak()]
    story += [Spacer(1, 1), PageBreak()] * blank_pages
    story.append(statement_body(LAST, WIDTHS))
    SimpleDocTemplate(str(path), pagesize=letter).build(story, onFirstPage=_folio, onLaterPages=_folio)
    return path


def _rows_on(units, page: int) -> list[str]:
    return [row for eu in units if page in eu.page_span for row in eu.flattened_rows
            if row.startswith(("Net increase", "Cash, end"))]


def test_rows_printed_after_a_blank_page_keep_the_statement_headings(tmp_path):
    units = EvidenceChunker(parser="lite").chunk(_statement(tmp_path / "cash.pdf", blank_pages=1))
    assert _rows_on(units, 3) == ["Net increase in cash | 2016: (9,299); 2015: 239,014; 2014: 56,139",
                                  "Cash, end of the year | 2016: 452,030; 2015: 461,329; 2014: 222,315"]


def test_rows_printed_after_two_blank_pages_stand_alone(tmp_path):
    units = EvidenceChunker(parser="lite").chunk(_statement(tmp_path / "cash.pdf", blank_pages=2))
    assert _rows_on(units, 4) == ["Net increase in cash | (9,299); 239,014; 56,139",
                                  "Cash, end of the year | 452,030; 461,329; 222,315"]
