"""Evidence Units on real Docling output (the reference corpus in ../shared)."""

from __future__ import annotations

import pytest
from docling_core.types.doc import TableItem

from repo_paths import corpus_jsons, requires_corpus
from evidence_chunker import EvidenceChunker, ParsedDoc, count_eu_tokens
from evidence_chunker.build import reading_order
from evidence_chunker.tables import analyse_table, clean_cell_text, plain_table_data

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
def test_pieces_fit_the_limit_unless_left_for_summary(chunked, path):
    _, units, oversized = chunked[path]
    for eu in units:
        assert count_eu_tokens(eu) <= 512 or (eu.eu_id in oversized and not eu.is_split), eu.eu_id


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
            for cell in data.table_cells:
                value = clean_cell_text(cell.text)
                if value and cell.start_row_offset_idx >= header:
                    assert value in text, (table_ref, value)


def _has_duplicate_rows_in_source(pieces, tables) -> bool:
    """Some tables really repeat a row (the cvat fixture 014 is about that)."""
    grid_rows = [tuple(c.text for c in row) for ref in pieces[0].source_refs for row in tables[ref].data.grid]
    return len(grid_rows) != len(set(grid_rows))
