"""build_corpus_parsed on real Docling output, and the JSONL corpus format."""

from __future__ import annotations

import io
import json
import os
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import pytest
from docling_core.types.doc import DocItemLabel, TextItem

from evidence_chunker import EvidenceChunker, EvidenceUnit
from evidence_chunker.units.build import reading_order
from evidence_chunker.corpus import (
    CORPUS_SCHEMA,
    ConsumedStats,
    CorpusFormatError,
    TextChunk,
    build_corpus_parsed,
    chunk_to_record,
    read_jsonl,
    table_refs,
    write_jsonl,
)
from evidence_chunker.corpus.consumed import carried_context, normalise_text
from evidence_chunker.parsing.parsed import ParsedDoc
from evidence_chunker.tokens import count_tokens

from repo_paths import SHARED_CORPUS, corpus_doc_id as doc_id_of, corpus_params

CORPUS = SHARED_CORPUS
HEADING_LABELS = (DocItemLabel.SECTION_HEADER, DocItemLabel.TITLE)
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason=f"reference corpus not found at {CORPUS}")


class Built:
    def __init__(self, path: Path):
        self.parsed = ParsedDoc.from_docling_json(path)
        self.doc_id = doc_id_of(path)
        self.units = EvidenceChunker().chunk_parsed(self.parsed, self.doc_id)
        self.stats = ConsumedStats()
        self.corpus = build_corpus_parsed(self.parsed, self.units, self.doc_id, stats=self.stats)
        self.texts = [c for c in self.corpus if isinstance(c, TextChunk)]
        self.context_refs = {ref for u in self.units for ref in (carried_context(u)[1] or ())}
        self.captions = {normalise_text(u.safe_caption) for u in self.units if u.safe_caption}


@lru_cache(maxsize=None)
def built(path: Path) -> Built:
    return Built(path)


@pytest.mark.parametrize("path", corpus_params())
def test_no_paragraph_is_both_in_an_eu_context_and_in_a_text_chunk(path):
    b = built(path)
    in_text = {ref for c in b.texts for ref in c.item_refs}
    assert not in_text & b.context_refs
    paragraphs = {normalise_text(p) for u in b.units for p in (*u.context_before, *u.context_after)}
    for chunk in b.texts:
        for part in chunk.parts:
            assert normalise_text(part.text) not in paragraphs, (chunk.chunk_id, part.refs)


@pytest.mark.parametrize("path", corpus_params())
def test_every_body_text_item_outside_tables_reaches_the_corpus(path):
    b = built(path)
    doc = b.parsed.document
    in_text = {ref for c in b.texts for ref in c.item_refs}
    tables = table_refs(doc, {ref for u in b.units for ref in u.source_refs})
    lost = [
        (item.self_ref, item.text[:40])
        for item in reading_order(doc)
        if isinstance(item, TextItem) and item.text.strip() and item.label not in HEADING_LABELS
        and item.self_ref not in tables and item.self_ref not in in_text and item.self_ref not in b.context_refs
        and normalise_text(item.text) not in b.captions
    ]
    assert lost == []


@pytest.mark.parametrize("path", corpus_params())
def test_a_heading_missing_from_text_chunks_has_no_text_of_its_own_left(path):
    # headings travel as TextChunk.headings; one vanishes only when its section holds nothing but
    # tables, paragraphs an EU absorbed, or other headings
    b = built(path)
    doc = b.parsed.document
    headings = {h for c in b.texts for h in c.headings}
    in_text = {ref for c in b.texts for ref in c.item_refs}
    items = reading_order(doc)
    for index, item in enumerate(items):
        if item.label not in HEADING_LABELS or item.text in headings or normalise_text(item.text) in b.captions:
            continue
        section = []
        for other in items[index + 1 :]:
            if other.label in HEADING_LABELS:
                break
            section.append(other)
        assert not any(other.self_ref in in_text for other in section), item.text


@pytest.mark.parametrize("path", corpus_params())
def test_corpus_is_units_then_text_in_reading_order(path):
    b = built(path)
    position = {item.self_ref: i for i, item in enumerate(reading_order(b.parsed.document))}
    # the corpus's units are the units built, each given the document's filing line
    assert [replace(c, filing=None) for c in b.corpus if isinstance(c, EvidenceUnit)] == b.units
    assert len({c.filing for c in b.corpus}) <= 1
    firsts = []
    for chunk in b.corpus:
        refs = chunk.source_refs if isinstance(chunk, EvidenceUnit) else chunk.item_refs
        found = [position[r] for r in refs if r in position]
        if found:
            firsts.append(min(found))
    assert firsts == sorted(firsts)
    assert all(count_tokens(c.retrieval_text) <= 512 for c in b.texts)


@pytest.mark.parametrize("path", corpus_params())
def test_corpus_is_the_same_on_every_run(path):
    again = Built(path)
    assert [chunk_to_record(c) for c in again.corpus] == [chunk_to_record(c) for c in built(path).corpus]


@pytest.mark.parametrize("path", corpus_params())
def test_jsonl_round_trip_gives_back_every_record(path, tmp_path):
    b = built(path)
    target = tmp_path / "corpus.jsonl"
    assert write_jsonl(b.corpus, target) == len(b.corpus)
    records = read_jsonl(target)
    assert [chunk_to_record(r) for r in records] == [chunk_to_record(c) for c in b.corpus]
    for line in target.read_text(encoding="utf-8").splitlines():
        record = json.loads(line)
        assert list(record) == ["schema", "chunk_id", "kind", "doc_id", "text", "retrieval_text",
                                "retrieval_units", "metadata"]
        assert record["schema"] == CORPUS_SCHEMA
        assert list(record["metadata"])[:10] == ["chunk_id", "doc_id", "kind", "page_no", "page_span", "bbox",
                                                 "page_boxes", "caption_text", "caption_confidence", "headings"]


@needs_corpus
def test_table_record_carries_caption_pages_and_boxes():
    b = built(CORPUS / "docling" / "groundtruth" / "2305.03393v1-pg9.json")
    record = chunk_to_record(b.units[0])
    meta = record["metadata"]
    assert record["kind"] == "table" and record["chunk_id"].startswith("2305.03393v1-pg9-p1-1")
    assert meta["caption_text"].startswith("Table 1.") and meta["caption_confidence"] == "direct"
    assert meta["page_span"] == [1] and meta["page_boxes"][0]["coord_origin"] == "BOTTOMLEFT"
    assert record["text"] == b.units[0].text and record["retrieval_units"] == b.units[0].retrieval_units


@needs_corpus
def test_units_of_another_document_are_refused():
    b = built(CORPUS / "docling" / "groundtruth" / "2305.03393v1-pg9.json")
    with pytest.raises(ValueError, match="doc_id"):
        build_corpus_parsed(b.parsed, b.units, "some-other-id")


def test_write_jsonl_to_a_handle_and_read_it_back():
    eu = EvidenceUnit(eu_id="d-p1-1", doc_id="d", page_no=1, page_span={1}, caption_text="표 1. 매출",
                      caption_confidence="inferred", flattened_rows=["A | 2023: 50.000"])
    text = TextChunk(chunk_id="d-t1", doc_id="d", text="본문 문단입니다.", headings=["1. 개요"], page_span={1})
    handle = io.StringIO()
    assert write_jsonl([eu, text], handle) == 2
    assert "매출" in handle.getvalue()  # UTF-8 text, not \\u escapes
    records = read_jsonl(io.StringIO(handle.getvalue()))
    assert [r.chunk_id for r in records] == ["d-p1-1", "d-t1"]
    assert records[0].metadata["caption_text"] == "표 1. 매출" and "50.000" in records[0].retrieval_text
    assert records[1].metadata["headings"] == ["1. 개요"] and records[1].metadata["caption_confidence"] == "none"


class Exploding:
    chunk_id = "boom"
    is_atomic = True
    text = retrieval_text = "x"
    retrieval_units = ["x"]

    @property
    def metadata(self):
        raise RuntimeError("metadata failed")


def test_a_failed_write_leaves_the_previous_corpus_whole(tmp_path, monkeypatch):
    target = tmp_path / "corpus.jsonl"
    good = TextChunk(chunk_id="d-t1", doc_id="d", text="kept")
    write_jsonl([good], target)
    before = target.read_bytes()
    with pytest.raises(RuntimeError):
        write_jsonl([good, Exploding()], target)
    monkeypatch.setattr(os, "replace", lambda *a: (_ for _ in ()).throw(OSError("disk full")))
    with pytest.raises(OSError):
        write_jsonl([good, good], target)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["corpus.jsonl"]  # no temporary file left behind


def test_read_jsonl_names_the_bad_line(tmp_path):
    target = tmp_path / "corpus.jsonl"
    good = json.dumps(chunk_to_record(TextChunk(chunk_id="d-t1", doc_id="d", text="ok")))
    target.write_text(good + "\n\n" + good.replace(CORPUS_SCHEMA, "something/else") + "\n", encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=r"corpus\.jsonl:3: .*something/else"):
        read_jsonl(target)
    target.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(CorpusFormatError, match=r":1: invalid JSON"):
        read_jsonl(target)
