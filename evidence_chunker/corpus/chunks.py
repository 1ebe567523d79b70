"""What a retrieval chunk is: the RetrievalChunk protocol and TextChunk, the plain-text chunk.

EvidenceUnit (tables) and TextChunk (everything else) both satisfy ``RetrievalChunk``, so a corpus is a
list of either and every exporter reads only the protocol's six attributes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Protocol, runtime_checkable

from semantic_json import PageBox, box_pages

from ..dict_records import DictRecord

#: ``metadata["kind"]`` of a TextChunk; EvidenceUnits say "table".
KIND_TEXT = "text"
KIND_TABLE = "table"
#: Joins the parts of a TextChunk, and headings to text in ``retrieval_text`` (docling-core's delimiter).
CHUNK_DELIM = "\n"
_NO_BBOX = (0.0, 0.0, 0.0, 0.0)
#: Metadata keys whose values are always JSON-encoded strings in vector-store metadata (even when
#: empty), so every document has the same type under the key.
JSON_ENCODED_KEYS = frozenset({"page_boxes"})


@runtime_checkable
class RetrievalChunk(Protocol):
    """Anything a retrieval corpus holds: an EvidenceUnit, a TextChunk or a record read from JSONL.

    ``text`` goes to the LLM, ``retrieval_text`` is what to embed, ``retrieval_units`` are the small
    pieces for small-to-big retrieval (one piece when ``is_atomic``), ``metadata`` is flat and JSON-safe
    and always holds ``chunk_id``, ``doc_id`` and ``kind``.
    """

    @property
    def chunk_id(self) -> str: ...

    @property
    def is_atomic(self) -> bool: ...

    @property
    def text(self) -> str: ...

    @property
    def retrieval_text(self) -> str: ...

    @property
    def retrieval_units(self) -> list[str]: ...

    @property
    def metadata(self) -> dict[str, Any]: ...


@dataclass
class ChunkPart(DictRecord):
    """A stretch of a TextChunk's text and the doc items it came from.

    Normally one item (``refs`` has one docling self_ref); several when docling serialised them together
    (a code block with its caption) or when the chunk could not be taken apart item by item.
    ``page_boxes`` are absolute (points, BOTTOMLEFT); ``bbox`` is the first box normalised to 0..1.
    ``to_dict``/``from_dict`` come from :class:`DictRecord` (keys besides the fields are ignored).
    """

    refuse_unknown_keys: ClassVar[bool] = False

    refs: list[str] = field(default_factory=list)
    text: str = ""
    page_boxes: list[PageBox] = field(default_factory=list)
    bbox: tuple[float, float, float, float] = _NO_BBOX


@dataclass
class TextChunk(DictRecord):
    """A chunk of the document's non-table text, made by docling-core's HybridChunker.

    ``chunk_id`` is ``{doc_id}-t{n}`` (n counts chunks in reading order from 1, before any filtering);
    ``headings`` are the section headings above it, outermost first; ``page_span`` holds 1-based pages;
    ``page_boxes`` are absolute boxes (points, BOTTOMLEFT); ``item_refs`` are the docling self_refs of the
    doc items it holds; ``bbox`` is its first box normalised to 0..1 (BOTTOMLEFT, t > b; zeros when
    unknown); ``parts`` say which stretch of ``text`` came from which items, so a chunk can be rebuilt
    without some of them (see ``filter_consumed_paragraphs``). ``filing`` names the document, as its cover
    does (see ``EvidenceUnit.filing``); ``ocr_pages`` and ``ocr_confidence`` say which of its pages OCR read
    (see ``EvidenceUnit.ocr_pages``). ``to_dict``/``from_dict`` come from :class:`DictRecord`.
    """

    chunk_id: str
    doc_id: str
    text: str = ""
    headings: list[str] = field(default_factory=list)
    page_span: set[int] = field(default_factory=set)
    page_boxes: list[PageBox] = field(default_factory=list)
    item_refs: list[str] = field(default_factory=list)
    bbox: tuple[float, float, float, float] = _NO_BBOX
    parts: list[ChunkPart] = field(default_factory=list)
    filing: str | None = None
    ocr_pages: list[int] = field(default_factory=list)
    ocr_confidence: float | None = None

    @classmethod
    def from_parts(cls, chunk_id: str, doc_id: str, headings: list[str], parts: list[ChunkPart]) -> "TextChunk":
        """A chunk whose text, pages, boxes and refs are those of ``parts`` (parts with no text add boxes only)."""
        boxes: list[PageBox] = []
        seen_boxes: set[tuple[int, tuple[float, ...]]] = set()
        refs: list[str] = []
        for part in parts:
            for box in part.page_boxes:
                key = (box.page, tuple(box.bbox))
                if key not in seen_boxes:
                    seen_boxes.add(key)
                    boxes.append(box)
            refs.extend(ref for ref in part.refs if ref not in refs)
        first_box = next((part.bbox for part in parts if part.page_boxes), _NO_BBOX)
        return cls(
            chunk_id=chunk_id,
            doc_id=doc_id,
            text=CHUNK_DELIM.join(part.text for part in parts if part.text),
            headings=list(headings),
            page_span=set(box_pages(boxes)),
            page_boxes=boxes,
            item_refs=refs,
            bbox=first_box,
            parts=list(parts),
        )

    # --- the RetrievalChunk contract -------------------------------------------------------
    @property
    def is_atomic(self) -> bool:
        """Always True: a text chunk is retrieved whole."""
        return True

    @property
    def retrieval_text(self) -> str:
        """Headings then text, one per line: what HybridChunker counted against the token limit."""
        return CHUNK_DELIM.join([*self.headings, self.text])

    @property
    def retrieval_units(self) -> list[str]:
        return [self.text]

    @property
    def metadata(self) -> dict[str, Any]:
        """Flat, JSON-safe metadata for LangChain/LlamaIndex documents and JSONL records."""
        pages = sorted(self.page_span)
        return {
            "chunk_id": self.chunk_id,
            "doc_id": self.doc_id,
            "kind": KIND_TEXT,
            "page_no": pages[0] if pages else None,
            "page_span": pages,
            "bbox": list(self.bbox),
            "page_boxes": [box.to_dict() for box in self.page_boxes],
            "headings": list(self.headings),
            "filing": self.filing,
            "ocr_pages": list(self.ocr_pages),
            "ocr_confidence": self.ocr_confidence,
            "item_refs": list(self.item_refs),
        }


def chunk_kind(chunk: RetrievalChunk) -> str:
    """"table" or "text": the chunk's ``metadata["kind"]``, else judged by ``is_atomic``."""
    kind = chunk.metadata.get("kind")
    if isinstance(kind, str) and kind:
        return kind
    return KIND_TEXT if chunk.is_atomic else KIND_TABLE


def vector_store_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    """Metadata most vector stores accept: None values dropped, scalars and lists of scalars kept,
    anything nested, and ``page_boxes`` always, JSON-encoded into a string."""
    flat: dict[str, Any] = {}
    for key, value in metadata.items():
        if value is None:
            continue
        if key in JSON_ENCODED_KEYS:
            flat[key] = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_json_default)
        elif isinstance(value, (str, int, float, bool)):
            flat[key] = value
        elif isinstance(value, (list, tuple, set, frozenset)) and all(
            isinstance(v, (str, int, float, bool)) for v in value
        ):
            flat[key] = sorted(value) if isinstance(value, (set, frozenset)) else list(value)
        else:
            flat[key] = json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=_json_default)
    return flat


def _json_default(value: Any) -> Any:
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if hasattr(value, "to_dict"):
        return value.to_dict()
    raise TypeError(f"{type(value).__name__} is not JSON serialisable")


def first_per_key(results: Sequence[Any], metadata_of: Callable[[Any], dict[str, Any] | None],
                  k: int | None = None, key: str = "chunk_id") -> list[Any]:
    """The first result per ``metadata_of(result)[key]`` of a best-first list, stopping at ``k`` distinct.

    Results without the key are each kept as distinct. The exporters' ``dedupe_by_chunk_id`` are this,
    with the metadata read the LangChain or the LlamaIndex way.
    """
    kept: list[Any] = []
    seen: set[Any] = set()
    for result in results:
        if k is not None and len(kept) >= k:
            break
        value = (metadata_of(result) or {}).get(key)
        if value is not None:
            if value in seen:
                continue
            seen.add(value)
        kept.append(result)
    return kept
