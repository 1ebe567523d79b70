"""Tables of contents without dot leaders ("Index to Financial Statements | Page"), from PDF to search.

10-Ks list their statements and the pages they start on in a table. The lite parser labels such a table
``document_index`` (as Docling does), its Evidence Unit says ``is_contents``, the bridge writes it as a
"contents" segment, and lexical scoring damps its rows: a question about the income statement finds the
statement, not the line of the index that names it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from docling_core.types.doc import DocItemLabel  # noqa: E402
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402
from reportlab.platypus import PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.export.semantic import corpus_to_semantic_document  # noqa: E402
from evidence_chunker.parsing.lite.found_tables import Cell, FoundTable  # noqa: E402
from evidence_chunker.parsing.lite.toc import is_page_index  # noqa: E402
from evidence_chunker.units.evidence_unit import EvidenceUnit  # noqa: E402
from semantic_json import SemanticRepository  # noqa: E402

INDEX = [
    ("Income Statements", "52"),
    ("Comprehensive Income Statements", "53"),
    ("Balance Sheets", "54"),
    ("Cash Flows Statements", "55"),
    ("Stockholders' Equity Statements", "56"),
    ("Notes to Financial Statements", "57"),
]
STATEMENT = [
    ("", "2016", "2015"),
    ("Revenue", "85,320", "93,580"),
    ("Cost of revenue", "32,780", "33,038"),
    ("Gross margin", "52,540", "60,542"),
    ("Net income", "16,798", "12,193"),
]


def build_report(path: Path) -> Path:
    """Page 1: the index (a borderless table of titles and pages under "Page"); page 2: the statement."""
    styles = getSampleStyleSheet()
    index = Table([["Index to Financial Statements", "Page"], *INDEX], colWidths=[300, 60])
    index.setStyle(TableStyle([("ALIGN", (1, 0), (1, -1), "RIGHT"), ("FONTSIZE", (0, 0), (-1, -1), 9)]))
    statement = Table([list(row) for row in STATEMENT], colWidths=[220, 80, 80])
    statement.setStyle(TableStyle([("ALIGN", (1, 0), (-1, -1), "RIGHT"), ("FONTSIZE", (0, 0), (-1, -1), 9),
                                   ("LINEBELOW", (1, 0), (-1, 0), 0.5, "black")]))
    story = [
        Paragraph("Item 8. Financial Statements and Supplementary Data", styles["Heading2"]), Spacer(1, 6), index,
        PageBreak(),
        Paragraph("INCOME STATEMENTS (In millions)", styles["Heading3"]), Spacer(1, 6), statement,
    ]
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    return path


@pytest.fixture(scope="module")
def parsed(tmp_path_factory):
    pdf = build_report(tmp_path_factory.mktemp("contents") / "report.pdf")
    return EvidenceChunker(parser="lite").parse(pdf)


def test_an_index_of_titles_and_pages_is_labelled_document_index(parsed):
    labels = [t.label for t in parsed.document.tables]
    assert labels == [DocItemLabel.DOCUMENT_INDEX, DocItemLabel.TABLE]


def test_its_evidence_unit_says_it_is_a_table_of_contents(parsed):
    units = [c for c in EvidenceChunker(parser="lite").build_corpus_parsed(parsed, doc_id="r")
             if isinstance(c, EvidenceUnit)]
    assert [u.is_contents for u in units] == [True, False]
    assert units[0].metadata["is_contents"] is True
    assert EvidenceUnit.from_dict(units[0].to_dict()).is_contents is True


def test_a_question_about_the_statement_finds_the_statement_first(parsed):
    corpus = EvidenceChunker(parser="lite").build_corpus_parsed(parsed, doc_id="r")
    document = corpus_to_semantic_document(corpus, "r")
    assert {s.kind for s in document.segments} >= {"contents", "table"}
    repo = SemanticRepository()
    repo.add(document)
    regions = repo.search("What was the revenue in the income statements for 2016?", k=3)
    assert "85,320" in regions[0].text and regions[0].pages == [2]
    contents = [r for r in regions if r.source.kind == "contents"]
    assert all(r.score < regions[0].score for r in contents)


def _table(rows: list[tuple[str, ...]]) -> FoundTable:
    cells = [Cell(r, c, 1, 1, 0.0, 0.0, 1.0, 1.0, text) for r, row in enumerate(rows) for c, text in enumerate(row)]
    return FoundTable(0.0, 0.0, 1.0, 1.0, len(rows), max(len(r) for r in rows), cells, "aligned")


@pytest.mark.parametrize("rows, answer", [
    ([("Index", "Page"), *INDEX[:3]], True),  # three rows are enough under a "Page" heading
    (INDEX[:3], False),  # ... but not without one
    (INDEX, True),
    ([("Item 1.", "Business", "3"), ("Item 1A.", "Risk Factors", "17"), ("Item 7.", "MD&A", "F-2 – F-4"),
      ("Item 8.", "Financial Statements", "F-5"), ("Item 9.", "Changes", "F-40"), ("Item 15.", "Exhibits", "F-41")],
     True),
    ([("Segment", "Stores"), ("North", "120"), ("South", "95"), ("East", "310"), ("West", "45")], False),  # not forward
    ([("", "Page"), ("Revenue", "85,320"), ("Cost", "32,780"), ("Margin", "52,540")], False),  # amounts, not pages
    ([("", "Page"), ("2021", "12"), ("2022", "14"), ("2023", "18")], False),  # first cells are not titles
    # an index printed on one grid with the exhibit list after it (Item 15 of a 10-K)
    ([*INDEX, ("Exhibit Number", "Exhibit Description", "Form"), ("3.1", "Articles of Incorporation", "8-K"),
      ("4.1", "Indenture", "S-3"), ("10.1", "Stock Plan", "10-Q"), ("10.2", "Deferred Compensation Plan", "10-K"),
      ("21", "Subsidiaries", "10-K"), ("23", "Consent of Auditors", "10-K")], True),
    # ... but a run of five title-and-number rows before other rows is not enough
    ([*INDEX[:5], ("Exhibit Number", "Exhibit Description", "Form"), ("3.1", "Articles of Incorporation", "8-K"),
      ("4.1", "Indenture", "S-3"), ("10.1", "Stock Plan", "10-Q")], False),
])
def test_is_page_index(rows, answer):
    assert is_page_index(_table(rows)) is answer


def test_rows_of_a_contents_segment_score_below_the_same_rows_of_a_table():
    from semantic_json import compile

    text = "Index to Financial Statements | Page\n" + "\n".join(f"{title} | {page}" for title, page in INDEX)
    repo = SemanticRepository()
    for kind in ("table", "contents"):
        repo.add(compile(text, kind, segments=[{"start_char": 0, "end_char": len(text), "kind": kind}]))
    regions = repo.search("cash flows statements", k=2)
    assert [r.source.kind for r in regions] == ["table", "contents"]
    assert all("Cash Flows Statements | 55" in r.text for r in regions)
    assert regions[1].score < regions[0].score
