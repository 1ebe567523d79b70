"""The retrieval corpus of one document (EUs + Text Chunks in reading order) and its JSONL format.

One JSON object per line, keys in a fixed order (see ``docs/corpus_format.md``)::

    {"schema", "chunk_id", "kind", "doc_id", "text", "retrieval_text", "retrieval_units", "metadata"}

``write_jsonl`` writes a file atomically (a temporary file in the same folder, then a rename), so a
crash never leaves half a corpus behind; ``read_jsonl`` gives back ``CorpusRecord`` objects, which are
RetrievalChunks themselves and go straight into the LangChain/LlamaIndex exporters.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import IO, Any, Iterable, Sequence

from ..output_files import atomic_output
from ..units.build import reading_order
from ..errors import CorpusFormatError
from ..parsing.parsed import ParsedDoc
from ..dict_records import to_json
from ..tokens import DEFAULT_TOKEN_LIMIT
from .chunks import KIND_TABLE, RetrievalChunk, chunk_kind
from .consumed import DEFAULT_MIN_SUBSTRING_LEN, ConsumedStats, filter_consumed_paragraphs
from .text_chunks import make_text_chunks

#: Schema id written into every record; a breaking change of the record bumps the version.
CORPUS_SCHEMA = "evidence-chunker/corpus-record/v1"
#: Top-level keys of a record, in the order they are written.
RECORD_KEYS = ("schema", "chunk_id", "kind", "doc_id", "text", "retrieval_text", "retrieval_units", "metadata")
#: Metadata keys every record has (None / [] where they do not apply), written first and in this order;
#: kind-specific keys follow in the chunk's own order.
COMMON_METADATA_KEYS = (
    "chunk_id",
    "doc_id",
    "kind",
    "page_no",
    "page_span",
    "bbox",
    "page_boxes",
    "caption_text",
    "caption_confidence",
    "headings",
    "filing",
)
_METADATA_DEFAULTS: dict[str, Any] = {
    "page_no": None,
    "page_span": [],
    "bbox": None,
    "page_boxes": [],
    "caption_text": None,
    "caption_confidence": "none",
    "headings": [],
    "filing": None,
}


def build_corpus_parsed(
    parsed: ParsedDoc,
    units: Sequence[Any],
    doc_id: str | None = None,
    token_limit: int = DEFAULT_TOKEN_LIMIT,
    *,
    min_substring_len: int = DEFAULT_MIN_SUBSTRING_LEN,
    stats: ConsumedStats | None = None,
    filing: dict[str, str] | None = None,
) -> list[RetrievalChunk]:
    """The corpus of one parsed document: ``units`` (its Evidence Units, already split) and Text Chunks
    of everything else, without the paragraphs the units absorbed, merged in reading order.

    ``doc_id`` defaults to ``parsed.default_doc_id`` and must be the units' ``doc_id``. Text Chunks are
    at most ``token_limit`` cl100k tokens (headings included). Every chunk's ``filing`` is the document's
    cover line (``filing_profile(parsed.document)["profile"]``, or that of ``filing`` when the caller has
    read it already; None without a cover). ``stats`` receives the filter's counts.
    """
    from ..units.filing import filing_profile

    doc_id = doc_id or parsed.default_doc_id
    foreign = sorted({u.doc_id for u in units if u.doc_id != doc_id})
    if foreign:
        raise ValueError(f"units belong to doc_id {foreign}, not {doc_id!r}; build them with the same doc_id")
    profile = (filing if filing is not None else filing_profile(parsed.document)).get("profile") or None
    tables = {ref for unit in units for ref in unit.source_refs}
    text_chunks = make_text_chunks(parsed, doc_id, token_limit=token_limit, tables=tables)
    kept = filter_consumed_paragraphs(text_chunks, units, min_substring_len=min_substring_len, stats=stats)
    if profile:
        units = [replace(unit, filing=profile) for unit in units]
        kept = [replace(chunk, filing=profile) for chunk in kept]
    return merge_in_reading_order(parsed, mark_ocr(list(units), parsed.ocr_pages), mark_ocr(kept, parsed.ocr_pages))


def mark_ocr(chunks: list[Any], ocr_pages: dict[int, float]) -> list[Any]:
    """``chunks`` (EvidenceUnits or TextChunks) with ``ocr_pages`` and ``ocr_confidence`` set from the
    document's OCR pages (page → mean word confidence): the chunk's pages OCR read, their mean confidence."""
    if not ocr_pages:
        return chunks
    out = []
    for chunk in chunks:
        pages = sorted(p for p in chunk.page_span if p in ocr_pages)
        confidence = round(sum(ocr_pages[p] for p in pages) / len(pages), 4) if pages else None
        out.append(replace(chunk, ocr_pages=pages, ocr_confidence=confidence) if pages else chunk)
    return out


def merge_in_reading_order(parsed: ParsedDoc, units: list[Any], text_chunks: list[RetrievalChunk]) -> list[RetrievalChunk]:
    """EUs and Text Chunks interleaved by the reading-order position of each one's first item.

    An EU sits at its table (all pieces of a split table stay together, in order); a Text Chunk at its
    first item. A chunk none of whose items is in the reading order keeps the place of the chunk
    before it in its own list.
    """
    position = {item.self_ref: index for index, item in enumerate(reading_order(parsed.document))}

    def keyed(chunks: list[Any], refs_of: Any, rank: int) -> list[tuple[tuple[int, int, int], Any]]:
        out = []
        last = -1
        for order, chunk in enumerate(chunks):
            found = [position[ref] for ref in refs_of(chunk) if ref in position]
            last = min(found) if found else last
            out.append(((last, rank, order), chunk))
        return out

    keyed_all = keyed(units, lambda u: getattr(u, "source_refs", ()) or (), 0) + keyed(
        text_chunks, lambda c: getattr(c, "item_refs", ()) or (), 1
    )
    keyed_all.sort(key=lambda pair: pair[0])
    return [chunk for _key, chunk in keyed_all]


# --- JSONL records ---------------------------------------------------------------------------------


@dataclass
class CorpusRecord:
    """One corpus record read back from JSONL; satisfies RetrievalChunk."""

    chunk_id: str
    kind: str
    doc_id: str
    text: str
    retrieval_text: str
    retrieval_units: list[str] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)
    schema: str = CORPUS_SCHEMA

    @property
    def is_atomic(self) -> bool:
        """Tables can be taken apart into ``retrieval_units``; text chunks cannot."""
        return self.kind != KIND_TABLE

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> "CorpusRecord":
        """A record dict as ``chunk_to_record`` makes it; raises CorpusFormatError otherwise."""
        if not isinstance(record, dict):
            raise CorpusFormatError(f"a corpus record is a JSON object, got {type(record).__name__}")
        schema = record.get("schema")
        if schema != CORPUS_SCHEMA:
            raise CorpusFormatError(f"record schema is {schema!r}, this version reads {CORPUS_SCHEMA!r}")
        missing = [key for key in RECORD_KEYS if key not in record]
        if missing:
            raise CorpusFormatError(f"record {record.get('chunk_id')!r} lacks {missing}")
        return cls(
            chunk_id=record["chunk_id"],
            kind=record["kind"],
            doc_id=record["doc_id"],
            text=record["text"],
            retrieval_text=record["retrieval_text"],
            retrieval_units=list(record["retrieval_units"]),
            metadata=dict(record["metadata"]),
            schema=schema,
        )


def chunk_to_record(chunk: RetrievalChunk) -> dict[str, Any]:
    """The JSONL record of a chunk: schema id, identity, the three texts and normalised metadata."""
    source = to_json(chunk.metadata)
    kind = chunk_kind(chunk)
    doc_id = source.get("doc_id") or getattr(chunk, "doc_id", None)
    metadata: dict[str, Any] = {"chunk_id": chunk.chunk_id, "doc_id": doc_id, "kind": kind}
    for key in COMMON_METADATA_KEYS[3:]:
        metadata[key] = source.get(key, _METADATA_DEFAULTS[key])
    for key, value in source.items():
        if key not in metadata:
            metadata[key] = value
    return {
        "schema": CORPUS_SCHEMA,
        "chunk_id": chunk.chunk_id,
        "kind": kind,
        "doc_id": doc_id,
        "text": chunk.text,
        "retrieval_text": chunk.retrieval_text,
        "retrieval_units": list(chunk.retrieval_units),
        "metadata": metadata,
    }


def write_jsonl(chunks: Iterable[RetrievalChunk], path_or_handle: str | os.PathLike[str] | IO[str]) -> int:
    """Write one record per chunk (UTF-8, one line each); return how many were written.

    To a path: atomically, through a temporary file in the same folder renamed over the target. To an
    open text handle: every record is serialised first, then written in one call.
    """
    lines = [json.dumps(chunk_to_record(chunk), ensure_ascii=False) + "\n" for chunk in chunks]
    payload = "".join(lines)
    if hasattr(path_or_handle, "write"):
        path_or_handle.write(payload)  # type: ignore[union-attr]
        return len(lines)
    with atomic_output(Path(path_or_handle)) as handle:  # type: ignore[arg-type]
        handle.write(payload)
    return len(lines)


def read_jsonl(path_or_handle: str | os.PathLike[str] | IO[str]) -> list[CorpusRecord]:
    """The records of a corpus JSONL file (blank lines skipped); CorpusFormatError names a bad line."""
    if hasattr(path_or_handle, "read"):
        name = getattr(path_or_handle, "name", "<stream>")
        lines = path_or_handle.read().splitlines()  # type: ignore[union-attr]
    else:
        name = str(path_or_handle)
        lines = Path(path_or_handle).read_text(encoding="utf-8").splitlines()  # type: ignore[arg-type]
    records: list[CorpusRecord] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            records.append(CorpusRecord.from_record(json.loads(line)))
        except json.JSONDecodeError as exc:
            raise CorpusFormatError(f"{name}:{number}: invalid JSON ({exc.msg})") from exc
        except CorpusFormatError as exc:
            raise CorpusFormatError(f"{name}:{number}: {exc}") from exc
    return records
