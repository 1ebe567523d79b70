"""A stored document keeps its text and segments in pieces: a slice, a line number or a segment reads only
the pieces it covers, a damaged piece is found when read (and leaves its document out of a search), and a
document stored before pieces still reads."""

from __future__ import annotations

import json
import random
import sqlite3

import numpy as np
import pytest

from semantic_json import SemanticRepository, compile
from semantic_json.errors import DocumentIntegrityError
from semantic_json.store.packed_arrays import pack_arrays
from semantic_json.store.records import DOCUMENT_MAGIC, UnitLayout, decode_source, encode_document
from semantic_json.store.text_pieces import SEGMENTS_PER_PIECE, TEXT_PIECE_CHARS

#: A long report in two scripts: some 5 text pieces, with multi-byte characters across piece boundaries.
SECTIONS = [
    f"## 제{n}장 Section {n}\n\nB기업의 {n}번째 문단: revenue of {n * 17:,} million won — “quoted” {'가나다' * (n % 7)}.\n"
    f"| item | 2024 | 2023 |\n| --- | --- | --- |\n| Revenue {n} | {n * 3} | {n * 2} |"
    for n in range(1, 700)
]
LONG_TEXT = "\n\n".join(SECTIONS)


def _segments(sections: list[str]) -> list[dict]:
    """One provenance segment a section, on page n // 3 + 1."""
    segments, start = [], 0
    for n, section in enumerate(sections):
        segments.append({"start_char": start, "end_char": start + len(section), "chunk_id": f"c{n}",
                         "page_span": [n // 3 + 1]})
        start += len(section) + 2
    return segments


@pytest.fixture(scope="module")
def long_doc():
    doc = compile(LONG_TEXT, "long", segments=_segments(SECTIONS))
    assert len(doc.text) > 4 * TEXT_PIECE_CHARS
    return doc


def _read(doc, data=None):
    return decode_source(encode_document(doc) if data is None else data, UnitLayout.from_document(doc))


def test_slices_and_line_numbers_read_from_pieces_equal_the_compiled_documents(long_doc):
    source = _read(long_doc)
    text, size = long_doc.text, len(long_doc.text)
    edges = [n * TEXT_PIECE_CHARS + d for n in range(1, size // TEXT_PIECE_CHARS + 1) for d in (-2, -1, 0, 1)]
    rng = random.Random(7)
    spans = [(a, b) for a in edges for b in (a, a + 1, a + 40, a + TEXT_PIECE_CHARS + 3)]
    spans += [tuple(sorted(rng.sample(range(size + 1), 2))) for _ in range(300)] + [(0, size), (size - 5, size + 9)]
    for start, end in spans:
        assert source.text_between(start, end) == text[start:end]
    for char in [-3, 0, size - 1, size, size + 10, *edges, *rng.sample(range(size), 300)]:
        assert source.line_of(char) == long_doc.line_of(char)
    assert source.text == text and source.line_starts == long_doc.line_starts


def test_a_region_reads_only_the_pieces_it_covers(long_doc):
    source = _read(long_doc)
    start = 2 * TEXT_PIECE_CHARS + 100
    assert source.text_between(start, start + 50) == long_doc.text[start : start + 50]
    source.line_of(start)
    assert set(source._text._pieces) == {2}
    assert [source.segments[n] for n in (0, 1)] == long_doc.segments[:2]
    assert len(source.segments) == len(long_doc.segments) > SEGMENTS_PER_PIECE
    assert source.segments[SEGMENTS_PER_PIECE + 1] == long_doc.segments[SEGMENTS_PER_PIECE + 1]
    assert source.document().model_dump() == long_doc.model_dump()


def test_a_damaged_text_piece_is_an_integrity_error_naming_it_when_read(long_doc):
    source = _read(long_doc)
    # piece 1's stored SHA-256 changed: the piece no longer matches it
    source._text._parts["text.sha256"] = np.array(source._text._parts["text.sha256"])
    source._text._parts["text.sha256"][1, 0] ^= 0xFF
    assert source.text_between(10, 20) == long_doc.text[10:20]  # other pieces still read
    with pytest.raises(DocumentIntegrityError, match=r"document 'long': text piece 1 does not match its sha256"):
        source.text_between(TEXT_PIECE_CHARS + 5, TEXT_PIECE_CHARS + 9)
    with pytest.raises(DocumentIntegrityError, match="text piece 1"):
        source.text  # noqa: B018


def _before_pieces(doc, text: str) -> bytes:
    """``doc`` stored as before pieces (one text part, one segments part), with ``text`` as its text."""
    segments = [json.dumps(s.model_dump(mode="json")).encode() for s in doc.segments]
    units = {"section": [u.section for u in doc.units], "concepts": [u.concepts for u in doc.units],
             "terms": [u.terms for u in doc.units]}
    parts = {
        "text": np.frombuffer(text.encode("utf-8"), dtype=np.uint8),
        "segments": np.frombuffer(b"".join(segments), dtype=np.uint8),
        "segment_offsets": np.concatenate(([0], np.cumsum([len(s) for s in segments]))).astype(np.int64),
        "entities": np.frombuffer(json.dumps([e.model_dump(mode="json") for e in doc.entities]).encode(), np.uint8),
        "units": np.frombuffer(json.dumps(units).encode(), dtype=np.uint8),
    }
    meta = {"grammar_version": doc.grammar_version, "document_id": doc.document_id, "source_uri": None,
            "document_sha256": doc.document_sha256}
    return pack_arrays(parts, meta, frozenset({"text", "segments", "segment_offsets", "entities", "units"}),
                       DOCUMENT_MAGIC)


def test_a_document_stored_before_pieces_still_reads(long_doc):
    source = _read(long_doc, _before_pieces(long_doc, long_doc.text))
    start = 3 * TEXT_PIECE_CHARS - 7
    assert source.text_between(start, start + 30) == long_doc.text[start : start + 30]
    assert source.line_of(start) == long_doc.line_of(start)
    assert source.segments[SEGMENTS_PER_PIECE + 3] == long_doc.segments[SEGMENTS_PER_PIECE + 3]
    assert source.document().model_dump() == long_doc.model_dump()
    with pytest.raises(DocumentIntegrityError, match="does not match document_sha256"):
        _read(long_doc, _before_pieces(long_doc, long_doc.text.replace("B기업의 1번째", "C기업의 1번째")))


def test_a_search_leaves_out_a_document_whose_text_piece_is_damaged(long_doc, tmp_path):
    path = tmp_path / "index.sqlite"
    repo = SemanticRepository.open(path)
    repo.add(long_doc)
    other = [section.replace("B기업", "C기업") for section in SECTIONS]
    repo.add(compile("\n\n".join(other), "other", segments=_segments(other)))
    repo.close()
    query = "Revenue 650 2024"
    expected = [region.text for region in SemanticRepository.open(path, read_only=True).search(query, k=3)]
    assert any("650" in text for text in expected)
    # damage the piece of 'long' that its best region lies in: one byte of that piece's compressed bytes
    with sqlite3.connect(path) as conn:
        (blob,) = conn.execute("SELECT document FROM documents WHERE document_id = 'long'").fetchone()
        piece = long_doc.text.index("| Revenue 650 |") // TEXT_PIECE_CHARS
        start = len(DOCUMENT_MAGIC) + 4
        base = start + int.from_bytes(blob[len(DOCUMENT_MAGIC) : start], "little")
        header = json.loads(blob[start:base])
        (offset, length) = next((o, n) for name, _, _, o, n, _ in header["arrays"] if name == f"text.{piece}")
        damaged = bytearray(blob)
        damaged[base + offset + length // 2] ^= 0x55
        conn.execute("UPDATE documents SET document = ? WHERE document_id = 'long'", (bytes(damaged),))
    repo = SemanticRepository.open(path, read_only=True)
    found = repo.search(query, k=3)
    assert found and {region.document_id for region in found} == {"other"}
    assert "long" in repo.damaged and f"text piece {piece}" in repo.damaged["long"]
