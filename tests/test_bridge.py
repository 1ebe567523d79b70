"""The PDF bridge: a corpus becomes one SemanticDocument whose table segments name their table."""

from __future__ import annotations

from docbuilder import DocBuilder, table_data
from evidence_chunker import EvidenceChunker
from evidence_chunker.export.semantic import corpus_to_semantic_document
from semantic_json import SemanticRepository

GRID = [["(in millions)", "2024", "2023"], ["Revenue", "12,345", "11,000"], ["Operating income", "3,210", "2,950"]]
SHARED = "Both tables below are prepared on the same basis as the audited statements of the prior year."


def two_tables() -> DocBuilder:
    b = DocBuilder()
    b.text("Consolidated Statement of Income", page=1, top=800, height=12)
    b.text("Years ended December 31", page=1, top=786, height=12)
    b.table(table_data(GRID, header_rows=1, row_header_cols=1), page=1, top=770, height=60)
    b.text(SHARED, page=1, top=700, height=30)
    other = [["(in millions)", "2024", "2023"], ["Segment assets", "40,100", "38,000"], ["Capital expenditure", "1,200", "900"]]
    b.table(table_data(other, header_rows=1, row_header_cols=1), page=1, top=660, height=60)
    return b


def document():
    chunker = EvidenceChunker(parser="lite")
    parsed = two_tables().parsed()
    return corpus_to_semantic_document(chunker.build_corpus_parsed(parsed, doc_id="rep"), "rep")


def test_a_paragraph_that_explains_two_tables_is_written_once():
    units = EvidenceChunker(parser="lite").chunk_parsed(two_tables().parsed(), doc_id="rep")
    assert SHARED in units[0].context_after and SHARED in units[1].context_before
    assert document().text.count(SHARED) == 1


def test_table_segments_carry_title_unit_and_period_into_the_transport():
    doc = document()
    table = next(s for s in doc.segments if s.kind == "table")
    assert table.title == "Consolidated Statement of Income · Years ended December 31 · (in millions)"
    assert (table.unit, table.period) == ("in millions", "Years ended December 31")
    caption = next(u for u in doc.units if u.kind == "caption")
    assert caption.text == table.title
    row = next(u for u in doc.units if u.text.startswith("Operating income"))
    assert {"consolidated", "income"} <= set(row.terms)  # inherited from the title line
    repo = SemanticRepository()
    repo.add(doc)
    region = repo.search("operating income in the income statement", k=1)[0]
    assert region.source.table_title == table.title
    assert (region.source.unit, region.source.period) == ("in millions", "Years ended December 31")
    assert "Operating income | 2024: 3,210" in region.text


def test_a_long_table_is_written_in_even_blocks_each_under_its_title_and_header():
    from evidence_chunker.export.semantic import TABLE_SEGMENT_MAX_ROWS

    rows = 2 * TABLE_SEGMENT_MAX_ROWS + 3  # two full blocks would leave three rows for a third
    grid = [["(in millions)", "2024", "2023"]] + [[f"Line item {i}", f"{i},100", f"{i},000"] for i in range(rows)]
    b = DocBuilder()
    b.text("Consolidated Statement of Income", page=1, top=800, height=12)
    b.table(table_data(grid, header_rows=1, row_header_cols=1), page=1, top=780, height=700)
    corpus = EvidenceChunker(parser="lite").build_corpus_parsed(b.parsed(), doc_id="rep")
    doc = corpus_to_semantic_document(corpus, "rep")
    blocks = [doc.text[s.start_char:s.end_char].split("\n") for s in doc.segments if s.kind == "table"]
    sizes = [sum(line.startswith("Line item") for line in block) for block in blocks]
    assert sum(sizes) == rows and len(sizes) == 3 and max(sizes) - min(sizes) <= 1
    assert all(block[0].startswith("Consolidated Statement of Income") and "2024" in block[1] for block in blocks)
