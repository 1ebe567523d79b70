"""The transport: SearchResult, EvidenceRegion and SourceSpan, and the `semantic-json-transport/context/v1` JSON.

A SearchResult is a sequence of EvidenceRegions (index it, iterate it, take its len) ordered as in the
transport: documents by their best region, regions by score within a document. `to_dict()` / `to_json()`
give the canonical transport; `from_json()` parses it back; `to_text()` is the plain-text inspection view.
A region's coordinates (`source`) are the canonical reference; `text` is the slice they select.

Every region has two ids. `citation_id` is stable: the document id, the region's character span and the
first characters of the document's SHA-256 (``AMCOR_2023Q2_10Q@c730-1921.3fa2b1c9``), so it names the same
text in every search and every process, and a repository resolves it from its index alone. `region_id`
(``AMCOR_2023Q2_10Q:R1``) is the region's position within one transport, kept for v1 readers.
"""

from __future__ import annotations

import json
import re
from collections.abc import Hashable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, overload

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from .errors import SchemaValidationError, TransportFormatError

#: Schema id written into every transport and required when parsing one.
TRANSPORT_SCHEMA_ID = "semantic-json-transport/context/v1"
#: Source keys that are written only when present (regions of PDF-derived text).
OPTIONAL_SOURCE_KEYS = ("pages", "boxes", "chunk_ids", "kind", "pdf_sha256", "table_title", "unit", "period", "headings",
                        "ocr_pages", "ocr_confidence")
#: Characters of a SHA-256 shown in the plain-text view.
TEXT_VIEW_HASH_CHARS = 12
#: Hex characters of the document's SHA-256 a citation id carries (enough to tell a changed document).
CITATION_ID_HASH_CHARS = 8
_CITATION_ID_RE = re.compile(r"(?P<document_id>.+)@c(?P<start>\d+)-(?P<end>\d+)\.(?P<sha>[0-9a-f]{%d})"
                             % CITATION_ID_HASH_CHARS)


class CitationRef(NamedTuple):
    """A citation id taken apart: document id, character span [start_char, end_char), SHA-256 prefix."""

    document_id: str
    start_char: int
    end_char: int
    sha256_prefix: str


def citation_id(document_id: str, start_char: int, end_char: int, document_sha256: str) -> str:
    """The stable id of the text [start_char, end_char) of a document with this SHA-256."""
    return f"{document_id}@c{start_char}-{end_char}.{document_sha256[:CITATION_ID_HASH_CHARS]}"


def parse_citation_id(text: str) -> CitationRef | None:
    """The parts of a citation id, or None when `text` is not one (e.g. a positional ``DOC:R1`` id)."""
    match = _CITATION_ID_RE.fullmatch(text) if isinstance(text, str) else None
    if match is None:
        return None
    start, end = int(match["start"]), int(match["end"])
    if end <= start:
        return None
    return CitationRef(match["document_id"], start, end, match["sha"])


def region_id_problem(region_id: str, document_id: str | None, start_char: int | None, end_char: int | None,
                      document_sha256: str | None) -> str | None:
    """Why ``region_id`` is not an id of the region whose source is given, or None when it is: a citation id
    must be the source's own (its document, span and hash), a positional id (``DOC:R1``) must name the
    source's document."""
    ref = parse_citation_id(region_id)
    if ref is not None:
        own = (citation_id(document_id, start_char, end_char, document_sha256)
               if None not in (document_id, start_char, end_char, document_sha256) else None)
        if region_id == own:
            return None
        return (f"region id {region_id!r} cites characters {ref.start_char}-{ref.end_char} of document "
                f"{ref.document_id!r}, its source is {own or document_id!r}")
    if document_id is not None and not region_id.startswith(f"{document_id}:"):
        return f"region id {region_id!r} does not name its source's document {document_id!r} ({document_id}:R<n>)"
    return None


def repeated_ids(regions: Iterable[tuple[Iterable[str], Hashable]]) -> dict[str, int]:
    """The ids that name more than one region (id → how many), given each region's ids (its region id and
    citation id) and what it is (a key equal for equal regions: an exact copy is the same region): an id
    that names two regions names none."""
    named: dict[str, set] = {}
    for ids, key in regions:
        for region_id in ids:
            named.setdefault(region_id, set()).add(key)
    return {region_id: len(keys) for region_id, keys in named.items() if len(keys) > 1}


class SourceSpan(BaseModel):
    """Where a region's text lives: [start_char, end_char) of the document, 1-based lines, and hash.

    `pages` (1-based), `boxes`, `chunk_ids`, `kind` and `pdf_sha256` are present for text that came through
    provenance segments (e.g. from a PDF); `table_title`, `unit` and `period` for a region in a table that
    states them, `headings` for a region under section headings; `ocr_pages` and `ocr_confidence` for text
    that OCR read (pages without a usable text layer) and the mean confidence of its words (0..1).
    """

    # v1 consumers must ignore keys they do not know (later v1 revisions may add some).
    model_config = ConfigDict(extra="ignore")

    document_id: str
    uri: str | None = None
    start_char: int = Field(ge=0)
    end_char: int = Field(ge=0)
    start_line: int = Field(ge=1)
    end_line: int = Field(ge=1)
    document_sha256: str
    pages: list[int] | None = None
    boxes: list[dict[str, Any]] | None = None
    chunk_ids: list[str] | None = None
    kind: str | None = None
    pdf_sha256: str | None = None
    table_title: str | None = None
    unit: str | None = None
    period: str | None = None
    headings: list[str] | None = None
    ocr_pages: list[int] | None = None
    ocr_confidence: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """The transport form: required keys always (uri may be null), optional keys only when set."""
        data = self.model_dump(mode="json")
        for key in OPTIONAL_SOURCE_KEYS:
            if data.get(key) is None:
                data.pop(key, None)
        return data


class EvidenceRegion(BaseModel):
    """A query-time region of original text, assembled around matching anchors."""

    # v1 consumers must ignore keys they do not know (later v1 revisions may add some).
    model_config = ConfigDict(extra="ignore")

    region_id: str
    document_id: str
    score: float
    entities: list[str] = Field(default_factory=list)
    source: SourceSpan
    anchors: list[str] = Field(default_factory=list)
    text: str

    @property
    def start_char(self) -> int:
        return self.source.start_char

    @property
    def end_char(self) -> int:
        return self.source.end_char

    @property
    def start_line(self) -> int:
        return self.source.start_line

    @property
    def end_line(self) -> int:
        return self.source.end_line

    @property
    def uri(self) -> str | None:
        return self.source.uri

    @property
    def document_sha256(self) -> str:
        return self.source.document_sha256

    @property
    def pages(self) -> list[int] | None:
        """1-based PDF pages of the region, when its text came from provenance segments."""
        return self.source.pages

    @property
    def citation_id(self) -> str:
        """The region's stable id (document, span, document hash): what an answer cites."""
        source = self.source
        return citation_id(source.document_id, source.start_char, source.end_char, source.document_sha256)

    def to_dict(self) -> dict[str, Any]:
        """The region as it appears inside a transport document entry."""
        return {
            "region_id": self.region_id,
            "citation_id": self.citation_id,
            "score": self.score,
            "entities": list(self.entities),
            "source": self.source.to_dict(),
            "anchors": list(self.anchors),
            "text": self.text,
        }


def _validate_transport(payload: dict[str, Any]) -> None:
    from .json_schemas import validate_transport

    try:
        validate_transport(payload)
    except SchemaValidationError as exc:
        raise TransportFormatError(f"not a valid {TRANSPORT_SCHEMA_ID} transport: {exc}") from exc
    except RecursionError:
        raise TransportFormatError(f"not a valid {TRANSPORT_SCHEMA_ID} transport: nested too deeply") from None


class SearchResult(Sequence):
    """The regions found for one query; a list of EvidenceRegion with a canonical JSON form."""

    def __init__(self, query: str, regions: Sequence[EvidenceRegion]) -> None:
        self.query = query
        self._regions: list[EvidenceRegion] = list(regions)

    # --------------------------------------------------------- list behaviour

    @overload
    def __getitem__(self, index: int) -> EvidenceRegion: ...

    @overload
    def __getitem__(self, index: slice) -> list[EvidenceRegion]: ...

    def __getitem__(self, index: int | slice) -> EvidenceRegion | list[EvidenceRegion]:
        return self._regions[index]

    def __iter__(self) -> Iterator[EvidenceRegion]:
        return iter(self._regions)

    def __len__(self) -> int:
        return len(self._regions)

    def __repr__(self) -> str:
        return f"SearchResult(query={self.query!r}, region_count={len(self)}, document_count={self.document_count})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, SearchResult):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    @property
    def regions(self) -> list[EvidenceRegion]:
        """The regions (a copy of the list), in transport order."""
        return list(self._regions)

    @property
    def document_ids(self) -> list[str]:
        """Documents with at least one region, in transport order."""
        return list(dict.fromkeys(r.document_id for r in self._regions))

    @property
    def region_count(self) -> int:
        return len(self._regions)

    @property
    def document_count(self) -> int:
        return len(self.document_ids)

    # --------------------------------------------------------------- export

    def to_dict(self) -> dict[str, Any]:
        """The canonical `semantic-json-transport/context/v1` payload."""
        documents: dict[str, dict[str, Any]] = {}
        for region in self._regions:
            entry = documents.get(region.document_id)
            if entry is None:
                entry = documents[region.document_id] = {
                    "document_id": region.document_id,
                    "source_uri": region.source.uri,
                    "document_sha256": region.source.document_sha256,
                    "regions": [],
                }
            entry["regions"].append(region.to_dict())
        return {
            "schema": TRANSPORT_SCHEMA_ID,
            "query": self.query,
            "region_count": len(self._regions),
            "document_count": len(documents),
            "documents": list(documents.values()),
        }

    def to_json(self, indent: int | None = 2) -> str:
        """The transport as JSON text (non-ASCII characters kept as written)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_json(cls, data: str | bytes | dict[str, Any]) -> SearchResult:
        """Parse a transport (JSON text or dict); TransportFormatError if it is not valid v1."""
        try:
            payload = json.loads(data) if isinstance(data, (str, bytes)) else data
        except json.JSONDecodeError as exc:
            raise TransportFormatError(f"transport is not JSON: {exc}") from exc
        except UnicodeDecodeError as exc:
            raise TransportFormatError(f"transport is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
        except RecursionError:
            raise TransportFormatError("transport is nested too deeply to be a v1 transport") from None
        if not isinstance(payload, dict):
            raise TransportFormatError(f"transport must be a JSON object, got {type(payload).__name__}")
        _validate_transport(payload)
        regions: list[EvidenceRegion] = []
        try:
            for document in payload["documents"]:
                for region in document["regions"]:
                    # citation_id is not read: it is a function of source, which verification checks
                    regions.append(
                        EvidenceRegion(
                            region_id=region["region_id"],
                            document_id=document["document_id"],
                            score=region["score"],
                            entities=region["entities"],
                            source=SourceSpan.model_validate(region["source"]),
                            anchors=region["anchors"],
                            text=region["text"],
                        )
                    )
        except ValidationError as exc:
            raise TransportFormatError(f"transport region is malformed: {exc}") from exc
        result = cls(payload["query"], regions)
        if result.region_count != payload["region_count"] or result.document_count != payload["document_count"]:
            raise TransportFormatError(
                f"transport declares {payload['region_count']} regions in {payload['document_count']} documents "
                f"but holds {result.region_count} in {result.document_count}"
            )
        return result

    def to_text(self) -> str:
        """Plain-text view for people and plain-text LLM context: per region its coordinates, score,
        anchors, entities and the original text."""
        lines = [
            f"Query: {self.query}",
            f"{self.region_count} region(s) in {self.document_count} document(s) [{TRANSPORT_SCHEMA_ID}]",
        ]
        if not self._regions:
            lines.append("(no evidence found)")
        current = None
        for region in self._regions:
            if region.document_id != current:
                current = region.document_id
                uri = f" <{region.uri}>" if region.uri else ""
                lines.append("")
                lines.append(
                    f"=== Document {region.document_id}{uri} sha256={region.document_sha256[:TEXT_VIEW_HASH_CHARS]}… ==="
                )
            where = f"lines {region.start_line}-{region.end_line}, chars {region.start_char}-{region.end_char}"
            if region.pages:
                where += ", pages " + ",".join(str(p) for p in region.pages)
            if region.source.ocr_pages:
                confidence = region.source.ocr_confidence
                where += ", read by OCR from page(s) " + ",".join(str(p) for p in region.source.ocr_pages)
                where += f" (confidence {confidence:.2f})" if confidence is not None else ""
            lines.append("")
            lines.append(f"--- {region.citation_id} | score {region.score:.4f} | {where} ---")
            lines.append(
                f"anchors: {', '.join(region.anchors) or '-'} | entities: {', '.join(region.entities) or '-'}"
            )
            lines.append(region.text)
        return "\n".join(lines) + "\n"
