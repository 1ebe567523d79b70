"""Evidence Units on real Docling output (the reference corpus in ../shared)."""

from __future__ import annotations

import pytest
from docling_core.types.doc import TableItem

from repo_paths import corpus_jsons, requires_corpus
from evidence_chunker import EvidenceChunker, ParsedDoc, count_eu_tokens
from evidence_chunker.units.build import reading_order
from evidence_chunker.units.leaders import collapse_cell_leaders
from evidence_chunker.units.table_data import plain_table_data
from evidence_chunker.units.tables import analyse_table, clean_cell_text

pytestmark = requires_corpus
JSONS = corpus_jsons()


@pytest.fixture(scope="module")
def chunked():
    chunker = EvidenceChunker(parser="lite")
    out = {}
    for path in JSONS:
        parsed = ParsedDoc.from_docling_json(path)
        units = chunker.chunk_parsed(parsed, doc_id="d")
        out[path] = (parsed, units, set(chunker.last_split_stats.oversized_ids))
    return out


@pytest.mark.parametrize("path", JSONS, ids=lambda p: p.parent.name if p.name == "expected.json" else p.stem)
def test_every_table_gives_at_least_one_unit(chunked, path):
    parsed, units, _ = chunked[path]
    tables = [t for t in reading_order(parsed.document) if isinstance(t, TableItem) and t.data.num_rows]
    covered = {ref for eu in units for ref in eu.source_refs}
    assert {t.self_ref for t in tables} <= covered


@pytest.mark.parametrize("path", JSONS, ids=lambda p: p.parent.name if p.name == "expected.json" else p.stem)
def test_direct_captions_equal_the_documents(chunked, path):
    parsed, units, _ = chunked[path]
    doc = parsed.document
    by_ref = {t.self_ref: t for t in doc.tables}
    for eu in units:
        table = by_ref[eu.source_refs[0]]
        if table.captions:
            assert eu.caption_confidence == "direct"
            assert eu.caption_text == " ".join(table.caption_text(doc).split())
        else:
            assert eu.caption_confidence in ("inferred", "none")


@pytest.mark.parametrize("path", JSONS, ids=lambda p: p.parent.name if p.name == "expected.json" else p.stem)
def test_every_unit_fits_the_limit(chunked, path):
    _, units, oversized = chunked[path]
    assert not oversized
    assert [eu.eu_id for eu in units if count_eu_tokens(eu) > 512] == []


def test_a_docling_table_of_contents_is_split_by_rows_without_its_dot_leaders():
    """redp5110_sampled, page 2: 42 lines of a table of contents, 2,047 tokens with the leaders as printed."""
    [path] = [p for p in JSONS if p.stem == "redp5110_sampled"]
    parsed = ParsedDoc.from_docling_json(path)
    pieces = [eu for eu in EvidenceChunker(parser="lite").chunk_parsed(parsed, doc_id="r") if eu.is_contents]
    assert len(pieces) > 1 and all(count_eu_tokens(p) <= 512 and p.header_row_count == 0 for p in pieces)
    rows = [row for p in pieces for row in p.flattened_rows]
    assert len(rows) == 42 and rows[0] == "Notices | vii" and not any(". . ." in p.text for p in pieces)
    assert ". . . . ." in pieces[0].table_html  # the cells keep the text as printed


@pytest.mark.parametrize("path", JSONS, ids=lambda p: p.parent.name if p.name == "expected.json" else p.stem)
def test_rows_cover_every_body_cell_and_pieces_tile_the_rows(chunked, path):
    parsed, units, _ = chunked[path]
    doc = parsed.document
    tables = {t.self_ref: t for t in doc.tables}
    by_table: dict[str, list] = {}
    for eu in units:
        by_table.setdefault(eu.source_refs[0], []).append(eu)
    for pieces in by_table.values():
        if len(pieces) > 1:
            ranges = [piece.body_row_range for piece in pieces]
            assert ranges[0][0] == 0 and all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
            assert ranges[-1][1] == sum(len(p.flattened_rows) for p in pieces)
        rows = [row for piece in pieces for row in piece.flattened_rows]
        assert len(rows) == len(set(rows)) or _has_duplicate_rows_in_source(pieces, tables)
        text = "\n".join(rows)
        for n, table_ref in enumerate(pieces[0].source_refs):
            data = plain_table_data(tables[table_ref].data, doc)
            header = pieces[0].header_row_count if n == 0 else analyse_table(data).header_rows
            read = collapse_cell_leaders([cell.text for cell in data.table_cells])  # as an LLM reads them
            for cell, cell_text in zip(data.table_cells, read):
                value = clean_cell_text(cell_text)
                if value and cell.start_row_offset_idx >= header:
                    assert value in text, (table_ref, value)


def _has_duplicate_rows_in_source(pieces, tables) -> bool:
    """Some tables really repeat a row (the cvat fixture 014 is about that)."""
    grid_rows = [tuple(c.text for c in row) for ref in pieces[0].source_refs for row in tables[ref].data.grid]
    return len(grid_rows) != len(set(grid_rows))
