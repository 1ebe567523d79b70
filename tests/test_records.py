"""EvidenceUnit, TextChunk, ChunkPart and PageBox are written to JSON and read back from their fields:
the same keys in the same order, and a wrong value named by its field."""

from __future__ import annotations

import json

import pytest

from evidence_chunker.corpus.chunks import ChunkPart, TextChunk
from evidence_chunker.errors import CorpusFormatError
from evidence_chunker.units.evidence_unit import EvidenceUnit, PageBox

BOX = {"page": 2, "bbox": [50.0, 700.0, 300.0, 680.0], "coord_origin": "BOTTOMLEFT", "unit": "points"}


def _unit() -> EvidenceUnit:
    return EvidenceUnit(eu_id="rep-p2-1", doc_id="rep", page_no=2, page_span={3, 2}, caption_text="Table 3: Debt",
                        caption_confidence="inferred", flattened_rows=["Loans | 2024: 10"], bbox=(0.1, 0.9, 0.5, 0.8),
                        page_boxes=[PageBox.from_dict(BOX)], context_before_boxes=[[PageBox.from_dict(BOX)]],
                        table_data={"num_rows": 1, "grid": [[{"text": "10"}]]}, body_row_range=(0, 1))


def test_unit_dict_lists_every_field_in_declaration_order_with_sets_sorted():
    data = _unit().to_dict()
    assert list(data)[:6] == ["eu_id", "doc_id", "page_no", "page_span", "caption_text", "caption_confidence"]
    assert list(data)[-2:] == ["table_data", "body_row_range"]
    assert data["page_span"] == [2, 3] and data["bbox"] == [0.1, 0.9, 0.5, 0.8] and data["body_row_range"] == [0, 1]
    assert data["page_boxes"] == [BOX] and data["context_before_boxes"] == [[BOX]]
    assert data["split_index"] is None and data["unit"] is None
    assert EvidenceUnit.from_dict(json.loads(json.dumps(data))) == _unit()


def test_text_chunk_reads_none_and_absent_lists_as_empty():
    chunk = TextChunk.from_dict({"chunk_id": "rep-t1", "doc_id": "rep", "text": None, "headings": None,
                                 "parts": [{"refs": ["#/texts/1"], "text": "Revenue rose.", "page_boxes": [BOX]}]})
    assert chunk.text == "" and chunk.headings == [] and chunk.page_span == set()
    assert chunk.parts == [ChunkPart(refs=["#/texts/1"], text="Revenue rose.", page_boxes=[PageBox.from_dict(BOX)])]
    assert list(chunk.to_dict()) == ["chunk_id", "doc_id", "text", "headings", "page_span", "page_boxes",
                                     "item_refs", "bbox", "parts", "filing", "ocr_pages", "ocr_confidence"]


@pytest.mark.parametrize("change, message", [
    ({"page_no": "2"}, r"EvidenceUnit\.page_no: expected a whole number, got str '2'"),
    ({"page_span": [2, "x"]}, r"EvidenceUnit\.page_span\[1\]: expected a whole number"),
    ({"caption_confidence": "maybe"}, r"EvidenceUnit\.caption_confidence: expected one of \['direct', 'inferred', 'none'\]"),
    ({"bbox": [0.1, 0.9, 0.5]}, r"EvidenceUnit\.bbox: expected an array of 4 items"),
    ({"page_boxes": [{"page": 2, "bbox": "0 0 1 1"}]}, r"EvidenceUnit\.page_boxes\[0\]\.bbox: expected a JSON array"),
    ({"context_after_boxes": [[{"bbox": [1, 2, 3, 4]}]]}, r"EvidenceUnit\.context_after_boxes\[0\]\[0\]\.page: missing"),
    ({"is_split": 1}, r"EvidenceUnit\.is_split: expected true or false, got int 1"),
    ({"table_data": [1]}, r"EvidenceUnit\.table_data: expected a JSON object, got list"),
    ({"colour": "red"}, r"EvidenceUnit: unknown fields \['colour'\]"),
])
def test_a_wrong_unit_value_is_named_by_its_field(change, message):
    data = {**_unit().to_dict(), **change}
    with pytest.raises(CorpusFormatError, match=message):
        EvidenceUnit.from_dict(data)


def test_a_missing_id_or_a_wrong_part_is_named_by_its_field():
    with pytest.raises(CorpusFormatError, match=r"TextChunk\.doc_id: missing"):
        TextChunk.from_dict({"chunk_id": "rep-t1"})
    with pytest.raises(CorpusFormatError, match=r"TextChunk\.parts\[0\]\.refs: expected a JSON array, got str"):
        TextChunk.from_dict({"chunk_id": "rep-t1", "doc_id": "rep", "parts": [{"refs": "#/texts/1"}]})
    with pytest.raises(CorpusFormatError, match=r"TextChunk: expected a JSON object, got list"):
        TextChunk.from_dict([])


def test_a_box_ignores_keys_it_does_not_hold():
    assert PageBox.from_dict({**BOX, "label": "table"}) == PageBox(page=2, bbox=(50.0, 700.0, 300.0, 680.0))
    assert PageBox.from_dict({"page": 1, "bbox": [0, 10, 5, 0]}).bbox == (0.0, 10.0, 5.0, 0.0)
