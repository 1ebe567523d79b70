"""Text Chunks from docling-core's HybridChunker on real Docling output: no tables, ≤ 512 tokens, stable ids."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest
from docling_core.types.doc import DocItemLabel, DoclingDocument, ProvenanceItem, TableItem
from docling_core.types.doc.base import BoundingBox, CoordOrigin, Size
from docling_core.types.doc.document import TableCell, TableData

from evidence_chunker.corpus import TextChunk, make_text_chunks, table_refs
from evidence_chunker.parsing.parsed import ParsedDoc
from evidence_chunker.tokens import count_tokens

from repo_paths import SHARED_CORPUS, corpus_doc_id as doc_id_of, corpus_params

CORPUS = SHARED_CORPUS


@lru_cache(maxsize=None)
def load(path: Path) -> ParsedDoc:
    return ParsedDoc.from_docling_json(path)


@lru_cache(maxsize=None)
def chunks_of(path: Path) -> tuple[TextChunk, ...]:
    return tuple(make_text_chunks(load(path), doc_id_of(path)))


@pytest.mark.parametrize("path", corpus_params())
def test_text_chunks_hold_no_table_caption_footnote_or_cell(path):
    parsed = load(path)
    excluded = table_refs(parsed.document)
    chunks = chunks_of(path)
    for chunk in chunks:
        assert not set(chunk.item_refs) & excluded, chunk.chunk_id
    texts = "\n".join(c.text for c in chunks)
    for table in parsed.document.tables:
        if table.data is None or table.data.num_rows == 0:
            continue
        caption = table.caption_text(parsed.document).strip()
        if len(caption) >= 20:  # short captions ("Table 1") may well be quoted in the body text
            assert caption not in texts
        assert not has_cell_triplets(table, texts)


def has_cell_triplets(table: TableItem, texts: str) -> bool:
    """True when ``texts`` hold a cell of ``table`` the way docling's chunking serializer writes one
    ("row header, column header = value"); only cells long enough not to occur by chance are tried."""
    cells = [c.text.strip() for c in table.data.table_cells if len(c.text.strip()) > 8]
    return any(f"= {cell}" in texts for cell in cells)


@pytest.mark.parametrize("path", corpus_params())
def test_every_text_chunk_fits_512_cl100k_tokens_with_its_headings(path):
    for chunk in chunks_of(path):
        assert count_tokens(chunk.retrieval_text) <= 512, chunk.chunk_id
        assert chunk.text.strip()


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"reference corpus not found at {CORPUS}")
def test_a_smaller_token_limit_gives_more_and_smaller_chunks():
    path = CORPUS / "docling" / "groundtruth" / "2206.01062.json"
    parsed = load(path)
    small = make_text_chunks(parsed, "dln", token_limit=128)
    assert len(small) > len(make_text_chunks(parsed, "dln"))
    assert max(count_tokens(c.retrieval_text) for c in small) <= 128


@pytest.mark.parametrize("path", corpus_params())
def test_text_chunk_ids_are_stable_and_numbered_in_reading_order(path):
    first = chunks_of(path)
    again = make_text_chunks(ParsedDoc.from_docling_json(path), doc_id_of(path))
    assert [c.chunk_id for c in first] == [f"{doc_id_of(path)}-t{n}" for n in range(1, len(first) + 1)]
    assert [c.to_dict() for c in first] == [c.to_dict() for c in again]


@pytest.mark.parametrize("path", corpus_params())
def test_parts_account_for_the_whole_chunk_text_and_carry_pages(path):
    parsed = load(path)
    for chunk in chunks_of(path):
        assert chunk.text == "\n".join(p.text for p in chunk.parts if p.text)
        assert chunk.item_refs and all(p.refs for p in chunk.parts)
        assert chunk.page_span <= set(parsed.document.pages)
        l, t, r, b = chunk.bbox
        assert 0.0 <= l <= r <= 1.0 and 0.0 <= b <= t <= 1.0


@pytest.mark.skipif(not CORPUS.is_dir(), reason=f"reference corpus not found at {CORPUS}")
def test_a_table_no_unit_holds_is_chunked_as_text():
    path = CORPUS / "docling" / "groundtruth" / "2305.03393v1-pg9.json"
    parsed = load(path)
    table = parsed.document.tables[0]
    with_table = "\n".join(c.text for c in make_text_chunks(parsed, "pg9", tables=[]))
    without = "\n".join(c.text for c in make_text_chunks(parsed, "pg9"))
    caption = table.caption_text(parsed.document)
    assert caption in with_table and has_cell_triplets(table, with_table)
    assert caption not in without and not has_cell_triplets(table, without)


def test_special_token_strings_in_a_document_are_plain_text():
    doc = DoclingDocument(name="special")
    doc.add_page(page_no=1, size=Size(width=600, height=800))
    prov = ProvenanceItem(page_no=1, bbox=BoundingBox(l=10, t=700, r=500, b=680, coord_origin=CoordOrigin.BOTTOMLEFT),
                          charspan=(0, 10))
    doc.add_text(label=DocItemLabel.TEXT, text="The model stops at <|endoftext|> by design.", prov=prov)
    data = TableData(num_rows=1, num_cols=1, table_cells=[TableCell(text="x", start_row_offset_idx=0,
                     end_row_offset_idx=1, start_col_offset_idx=0, end_col_offset_idx=1)])
    doc.add_table(data=data, prov=prov)
    [chunk] = make_text_chunks(doc, "special")
    assert isinstance(chunk, TextChunk)
    assert "<|endoftext|>" in chunk.text and chunk.page_span == {1}


def test_token_limit_must_be_positive():
    with pytest.raises(ValueError, match="token_limit"):
        make_text_chunks(DoclingDocument(name="empty"), "e", token_limit=0)
