"""RetrievalChunk, TextChunk and ChunkPart: the data model of the corpus."""

from __future__ import annotations

import json

from evidence_chunker import EvidenceUnit, PageBox
from evidence_chunker.corpus import (
    ChunkPart,
    CorpusRecord,
    RetrievalChunk,
    TextChunk,
    chunk_kind,
    chunk_to_record,
    vector_store_metadata,
)


def make_chunk() -> TextChunk:
    parts = [
        ChunkPart(refs=["#/texts/4"], text="Revenue rose 12% in 2023.",
                  page_boxes=[PageBox(page=2, bbox=(50.0, 700.0, 300.0, 680.0))], bbox=(0.1, 0.9, 0.5, 0.86)),
        ChunkPart(refs=["#/texts/5"], text="Costs were flat.",
                  page_boxes=[PageBox(page=3, bbox=(50.0, 600.0, 300.0, 580.0))], bbox=(0.1, 0.8, 0.5, 0.76)),
    ]
    return TextChunk.from_parts("rep-t1", "rep", ["2 Results", "2.1 Revenue"], parts)


def test_text_chunk_from_parts_derives_text_pages_boxes_and_refs():
    chunk = make_chunk()
    assert chunk.text == "Revenue rose 12% in 2023.\nCosts were flat."
    assert chunk.page_span == {2, 3}
    assert [b.page for b in chunk.page_boxes] == [2, 3]
    assert chunk.item_refs == ["#/texts/4", "#/texts/5"]
    assert chunk.bbox == (0.1, 0.9, 0.5, 0.86)


def test_text_chunk_retrieval_text_is_headings_then_text():
    chunk = make_chunk()
    assert chunk.retrieval_text == "2 Results\n2.1 Revenue\nRevenue rose 12% in 2023.\nCosts were flat."
    assert chunk.retrieval_units == [chunk.text]
    assert chunk.is_atomic is True


def test_text_chunk_metadata_is_flat_json_with_sorted_pages():
    meta = make_chunk().metadata
    assert meta["chunk_id"] == "rep-t1" and meta["doc_id"] == "rep" and meta["kind"] == "text"
    assert meta["page_span"] == [2, 3] and meta["page_no"] == 2
    assert meta["page_boxes"][0] == {"page": 2, "bbox": [50.0, 700.0, 300.0, 680.0],
                                     "coord_origin": "BOTTOMLEFT", "unit": "points"}
    assert meta["headings"] == ["2 Results", "2.1 Revenue"]
    assert json.loads(json.dumps(meta)) == meta


def test_text_chunk_to_dict_round_trips():
    chunk = make_chunk()
    data = json.loads(json.dumps(chunk.to_dict()))
    assert TextChunk.from_dict(data) == chunk


def test_text_chunk_can_be_built_by_hand_without_parts():
    chunk = TextChunk(chunk_id="d-t1", doc_id="d", text="Plain text.", page_span={1}, item_refs=["#/texts/0"])
    assert chunk.metadata["page_span"] == [1]
    assert chunk.parts == []


def test_evidence_units_text_chunks_and_records_all_satisfy_the_protocol():
    eu = EvidenceUnit(eu_id="rep-p1-1", doc_id="rep", page_no=1, page_span={1}, flattened_rows=["a | b: 1"])
    record = CorpusRecord.from_record(chunk_to_record(eu))
    for chunk in (eu, make_chunk(), record):
        assert isinstance(chunk, RetrievalChunk)
    assert [chunk_kind(c) for c in (eu, make_chunk(), record)] == ["table", "text", "table"]
    assert record.is_atomic is False


def test_vector_store_metadata_drops_none_keeps_lists_and_encodes_nested_values():
    flat = vector_store_metadata(
        {"chunk_id": "x", "caption_text": None, "page_span": [1, 2], "bbox": [0.1, 0.9, 0.5, 0.8],
         "page_boxes": [{"page": 1, "bbox": [1.0, 2.0, 3.0, 0.5]}], "is_split": False}
    )
    assert "caption_text" not in flat
    assert flat["page_span"] == [1, 2] and flat["bbox"] == [0.1, 0.9, 0.5, 0.8] and flat["is_split"] is False
    assert isinstance(flat["page_boxes"], str)
    assert json.loads(flat["page_boxes"]) == [{"page": 1, "bbox": [1.0, 2.0, 3.0, 0.5]}]
