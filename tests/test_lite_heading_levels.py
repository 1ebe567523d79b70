"""Heading levels in the lite parser: a filing's cover names no section of the report, and a bare number
at the start of a line is no section number."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from docling_core.types.doc import DocItemLabel, SectionHeaderItem  # noqa: E402
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

BODY = [
    "Net sales increased in every segment during the year, led by demand for services and",
    "subscriptions in the Americas, while costs of sales grew more slowly than revenue did.",
    "Cash from operations funded the dividend and the share repurchase program in full.",
]


def _filing(path: Path, pages: int) -> Path:
    """A cover in large type (form name, a '(Mark One)' label, the filer's address), then one section per
    page under a bold heading, with a body line that opens with a bare number."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Helvetica-Bold", 20)
    c.drawCentredString(letter[0] / 2, 700, "FORM 10-K")
    c.setFont("Helvetica", 12)
    c.drawCentredString(letter[0] / 2, 660, "(Mark One)")
    c.setFont("Helvetica-Bold", 16)
    c.drawCentredString(letter[0] / 2, 620, "1 Water Street, Camden, NJ 08102-1658 (Address of principal offices)")
    c.showPage()
    for page in range(2, pages + 1):
        c.setFont("Helvetica-Bold", 13)
        c.drawString(72, 700, f"Section {page}: Results of the Year")
        c.setFont("Helvetica", 10)
        y = 670
        for line in BODY:
            c.drawString(72, y, line)
            y -= 13
        y -= 20
        c.setFont("Helvetica-Bold", 10)
        c.drawString(72, y, "17 of our Notes to Consolidated Financial Statements for geographical data.")
        c.showPage()
    c.save()
    return path


def _labels_of_page(path: Path, lines: list[tuple[str, int, int, str]]) -> dict[str, DocItemLabel]:
    """Draw one page of ``(font, size, y, text)`` lines at the left margin and return the lite parser's label
    of each text item."""
    c = canvas.Canvas(str(path), pagesize=letter)
    for font, size, y, text in lines:
        c.setFont(font, size)
        c.drawString(72, y, text)
    c.showPage()
    c.save()
    return {item.text: item.label for item in LiteParser().parse(path).document.texts}


def _headers(doc) -> dict[str, tuple[int, int]]:
    return {item.text: (item.prov[0].page_no, item.level) for item in doc.texts if isinstance(item, SectionHeaderItem)}


def test_a_long_filings_cover_heads_no_section_of_the_report(tmp_path):
    pdf = _filing(tmp_path / "filing.pdf", pages=12)
    parser = LiteParser()
    headers = _headers(parser.parse(pdf).document)
    address = "1 Water Street, Camden, NJ 08102-1658 (Address of principal offices)"
    assert headers["FORM 10-K"] == (1, 6) and headers[address] == (1, 6)
    assert headers["Section 5: Results of the Year"] == (5, 1)  # the body's largest headers are its top level
    corpus = EvidenceChunker(parser="lite").build_corpus(pdf)
    later = [chunk for chunk in corpus if min(chunk.metadata["page_span"]) > 1]
    for chunk in later:
        assert chunk.metadata["headings"] == [f"Section {min(chunk.metadata['page_span'])}: Results of the Year"]
    assert later
    assert not any("FORM 10-K" in chunk.text or "Water Street" in chunk.text for chunk in later)


def test_a_short_documents_first_page_headings_stay_its_top_level(tmp_path):
    doc = LiteParser().parse(_filing(tmp_path / "brief.pdf", pages=3)).document
    assert _headers(doc)["FORM 10-K"] == (1, 1)


def test_a_line_opening_with_a_bare_number_and_a_lower_case_word_is_text(tmp_path):
    doc = LiteParser().parse(_filing(tmp_path / "filing.pdf", pages=12)).document
    lines = [item for item in doc.texts if item.text.startswith("17 of our Notes")]
    assert len(lines) == 11 and all(item.label == DocItemLabel.TEXT for item in lines)


def test_a_unit_statement_set_in_bold_is_no_heading(tmp_path):
    # Microsoft sets "(In millions)" in bold above its tables: the table's unit, not a section.
    labels = _labels_of_page(tmp_path / "unit.pdf", [
        ("Helvetica-Bold", 12, 720, "Results of Operations"),
        ("Helvetica-Bold", 10, 690, "(In millions)"),
        ("Helvetica-Bold", 10, 640, "Segment Results"),
        ("Helvetica", 10, 670, BODY[0]),
        *(("Helvetica", 10, 620 - 13 * i, line) for i, line in enumerate(BODY[1:])),
    ])
    assert labels["(In millions)"] == DocItemLabel.TEXT
    assert labels["Results of Operations"] == labels["Segment Results"] == DocItemLabel.SECTION_HEADER


def test_numbered_clauses_and_run_in_headings_that_read_on_as_sentences_are_text(tmp_path):
    # Exhibits set an agreement's numbered clauses in bold; the clause "16. This Agreement shall be governed
    # …" became a top-level heading over every later section of the filing.
    labels = _labels_of_page(tmp_path / "exhibit.pdf", [
        ("Helvetica-Bold", 10, 720, "2. Summary of Significant Accounting Policies"),
        ("Helvetica-Bold", 10, 680, "16. This Agreement shall be governed by the laws of Delaware, without giving"),
        ("Helvetica-Bold", 10, 667, "effect to its choice of law provisions."),
        ("Helvetica-Bold", 10, 630, "5. Effectiveness. This Second Amendment shall become effective as of October 17."),
        ("Helvetica-Bold", 10, 590, "1. I have reviewed this annual report on Form 10-K of Example Industries, Inc.;"),
        ("Helvetica-Bold", 10, 550, "Johnson & Johnson Corp. Consolidated Statements of Earnings"),
        *(("Helvetica", 10, 510 - 13 * i, line) for i, line in enumerate(BODY)),
    ])
    clause = ("16. This Agreement shall be governed by the laws of Delaware, without giving effect to its choice of "
              "law provisions.")
    assert labels[clause] == DocItemLabel.TEXT
    assert labels["5. Effectiveness. This Second Amendment shall become effective as of October 17."] == DocItemLabel.TEXT
    assert labels["1. I have reviewed this annual report on Form 10-K of Example Industries, Inc.;"] == DocItemLabel.TEXT
    assert labels["2. Summary of Significant Accounting Policies"] == DocItemLabel.SECTION_HEADER
    assert labels["Johnson & Johnson Corp. Consolidated Statements of Earnings"] == DocItemLabel.SECTION_HEADER


def test_a_bold_start_of_a_sentence_that_the_next_lines_continue_is_text(tmp_path):
    opening = "(ix) Grantee acknowledges that all original works of authorship (solely or jointly)"
    labels = _labels_of_page(tmp_path / "grant.pdf", [
        ("Helvetica-Bold", 10, 720, "Vesting Schedule"),
        ("Helvetica-Bold", 10, 690, opening),
        ("Helvetica", 10, 677, "within the scope of Grantee's employment are works made for hire under the Act."),
        ("Helvetica", 10, 650, "The Company may file and prosecute any application for patents for such works."),
    ])
    assert labels[opening] == DocItemLabel.TEXT
    assert labels["Vesting Schedule"] == DocItemLabel.SECTION_HEADER
