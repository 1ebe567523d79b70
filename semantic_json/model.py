"""The Semantic JSON Grammar v0.1 data model: SemanticDocument, its units, entities and segments.

A SemanticDocument is what `compile()` produces and what a repository indexes. It carries the original
text, so every unit's span can be checked (``text[unit.start_char:unit.end_char] == unit.text``) and every
region assembled from it can be verified against the document's SHA-256. Offsets are Python string indices
(Unicode code points); lines are 1-based.
"""

from __future__ import annotations

import bisect
import hashlib
import json
from collections.abc import Iterable
from typing import Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from .errors import DocumentIntegrityError

#: Version of the grammar that compile() writes and that SemanticDocument declares.
GRAMMAR_VERSION = "0.1"

UnitKind = Literal["heading", "proposition", "list_item", "table_row", "caption"]
#: Unit kinds by their code in a stored layout (store/records.py).
UNIT_KINDS: tuple[str, ...] = get_args(UnitKind)
CoordOrigin = Literal["BOTTOMLEFT", "TOPLEFT"]
BoxUnit = Literal["points", "normalized", "pixels"]


def sha256_text(text: str) -> str:
    """Hex SHA-256 of the UTF-8 encoding of `text`."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def line_starts_of(text: str) -> list[int]:
    """Character offset of the start of every line of `text` (the first is 0; a final newline opens none)."""
    starts = [0]
    find = text.find
    pos = find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = find("\n", pos + 1)
    if starts[-1] == len(text) and len(starts) > 1:
        starts.pop()  # a final newline does not open a line
    return starts


class PageBox(BaseModel):
    """A box on one PDF page, the one box type of both packages (segments, Evidence Units, Text Chunks, the
    transport's boxes): ``bbox`` is ``(l, t, r, b)`` in ``unit`` measured from ``coord_origin`` (by default
    PDF points from the BOTTOMLEFT corner, t > b); ``page`` is 1-based. Immutable, so a box can be shared."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    page: int = Field(ge=1)
    bbox: tuple[float, float, float, float]
    coord_origin: CoordOrigin = "BOTTOMLEFT"
    unit: BoxUnit = "points"

    @property
    def top(self) -> float:
        return self.bbox[1]

    @property
    def bottom(self) -> float:
        return self.bbox[3]

    def to_dict(self) -> dict[str, Any]:
        """The box as JSON data: ``{"page", "bbox", "coord_origin", "unit"}``."""
        return self.model_dump(mode="json")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PageBox:
        """A box from its JSON dict; keys that name no field are ignored (a transport's boxes also carry
        their ``chunk_id``, vector-store metadata whatever it adds)."""
        return cls.model_validate({key: value for key, value in data.items() if key in cls.model_fields})


def box_pages(boxes: Iterable[PageBox]) -> list[int]:
    """The pages ``boxes`` lie on, in order, each once: a span's pages computed from its boxes."""
    return sorted({box.page for box in boxes})


class Segment(BaseModel):
    """A provenance segment: the [start_char, end_char) part of the text that came from one source chunk.

    The PDF bridge passes one segment per chunk of the canonical document text. Lines inside a segment of
    kind "table" are compiled as table rows, and so are those of kind "contents" (a table of contents, whose
    rows lexical scoring damps: they point at evidence without holding it); pages are 1-based.
    """

    model_config = ConfigDict(extra="forbid")

    start_char: int = Field(ge=0)
    end_char: int = Field(ge=0)
    chunk_id: str | None = None
    kind: str = "text"
    page_span: list[int] = Field(default_factory=list)
    boxes: list[PageBox] = Field(default_factory=list)
    pdf_sha256: str | None = None
    #: A table's title line (caption, period, unit, section); a table segment opening with it compiles it as
    #: the caption, whose words the rows inherit.
    title: str | None = None
    unit: str | None = None
    period: str | None = None
    headings: list[str] | None = None
    #: Pages of the segment whose text was read by OCR (the PDF had no usable text layer there), and the
    #: mean confidence of the OCR words of its chunk (0..1); empty and None for text from a text layer.
    ocr_pages: list[int] = Field(default_factory=list)
    ocr_confidence: float | None = Field(default=None, ge=0, le=1)

    @model_validator(mode="after")
    def _ordered(self) -> Segment:
        if self.end_char <= self.start_char:
            raise ValueError(f"segment end_char {self.end_char} must be greater than start_char {self.start_char}")
        return self


class Entity(BaseModel):
    """An entity of the document: canonical id, type, the surface forms seen, and the units that mention it."""

    model_config = ConfigDict(extra="forbid")

    id: str
    type: str = "organization"
    surface_forms: list[str] = Field(default_factory=list)
    units: list[str] = Field(default_factory=list)


class SemanticUnit(BaseModel):
    """A small source-grounded unit (an anchor): text == document.text[start_char:end_char].

    `block` numbers the paragraph / list item / table / heading the unit belongs to (0-based); `sentence`
    numbers sentences (propositions of one sentence share it); `section` is the id of the governing heading;
    `segment` indexes SemanticDocument.segments. `entities` are mentioned in the unit; `context_entities`
    are the ones it is about (its own, else carried from earlier units of the block or from the heading).
    """

    model_config = ConfigDict(extra="forbid")

    id: str
    kind: UnitKind
    text: str
    start_char: int = Field(ge=0)
    end_char: int = Field(ge=0)
    start_line: int = Field(ge=1)
    end_line: int = Field(ge=1)
    block: int = Field(ge=0)
    sentence: int = Field(ge=0)
    section: str | None = None
    segment: int | None = None
    is_header: bool = False
    entities: list[str] = Field(default_factory=list)
    context_entities: list[str] = Field(default_factory=list)
    concepts: list[str] = Field(default_factory=list)
    terms: list[str] = Field(default_factory=list)


class SemanticDocument(BaseModel):
    """A compiled document (Semantic JSON Grammar v0.1): text, hash, line index, units, entities, segments."""

    model_config = ConfigDict(extra="forbid")

    grammar_version: Literal["0.1"] = GRAMMAR_VERSION
    document_id: str
    source_uri: str | None = None
    document_sha256: str
    char_count: int = Field(ge=0)
    line_starts: list[int]
    text: str
    units: list[SemanticUnit]
    entities: list[Entity] = Field(default_factory=list)
    segments: list[Segment] = Field(default_factory=list)

    @field_validator("line_starts")
    @classmethod
    def _line_starts_sorted(cls, value: list[int]) -> list[int]:
        if not value or value[0] != 0 or any(b <= a for a, b in zip(value, value[1:])):
            raise ValueError("line_starts must start at 0 and increase strictly")
        return value

    # ----------------------------------------------------------------- lookup

    def text_between(self, start: int, end: int) -> str:
        """``text[start:end]`` (what a stored document reads from the pieces of its text it covers)."""
        return self.text[start:end]

    def line_of(self, char: int) -> int:
        """1-based line number of character offset `char` (clamped to the text)."""
        char = min(max(char, 0), max(self.char_count - 1, 0))
        return bisect.bisect_right(self.line_starts, char)

    def unit(self, unit_id: str) -> SemanticUnit:
        """The unit with id `unit_id` (P1, P2, ...); KeyError if absent."""
        index = self.unit_index(unit_id)
        return self.units[index]

    def unit_index(self, unit_id: str) -> int:
        """Position of unit `unit_id` in `units`; KeyError if absent."""
        if unit_id.startswith("P") and unit_id[1:].isdigit():
            index = int(unit_id[1:]) - 1
            if 0 <= index < len(self.units) and self.units[index].id == unit_id:
                return index
        for index, unit in enumerate(self.units):
            if unit.id == unit_id:
                return index
        raise KeyError(f"document {self.document_id!r} has no unit {unit_id!r}")

    # ------------------------------------------------------------ integrity

    def check_integrity(self) -> None:
        """Raise DocumentIntegrityError unless the hash, length and every unit span match the text."""
        if sha256_text(self.text) != self.document_sha256:
            raise DocumentIntegrityError(
                f"document {self.document_id!r}: text does not match document_sha256 (the text was changed)"
            )
        if len(self.text) != self.char_count:
            raise DocumentIntegrityError(f"document {self.document_id!r}: char_count differs from the text length")
        for unit in self.units:
            if self.text[unit.start_char : unit.end_char] != unit.text:
                raise DocumentIntegrityError(
                    f"document {self.document_id!r}: unit {unit.id} text differs from its span "
                    f"[{unit.start_char}, {unit.end_char})"
                )

    # ---------------------------------------------------------------- export

    def to_dict(self) -> dict[str, Any]:
        """The document as a JSON-ready dict (the form validated by semantic_document.schema.json)."""
        return self.model_dump(mode="json")

    def to_json(self, indent: int | None = None) -> str:
        """The document as JSON text (UTF-8 characters kept, not escaped)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_json(cls, data: str | bytes | dict[str, Any]) -> SemanticDocument:
        """Parse a document written by to_json()/to_dict(); checks that text, hash and unit spans agree."""
        payload = json.loads(data) if isinstance(data, (str, bytes)) else data
        doc = cls.model_validate(payload)
        doc.check_integrity()
        return doc


def unit_constructor() -> Any:
    """A fast constructor of already-valid SemanticUnit instances, for units built from checked spans (the
    compiler) or read back from an index file written by this package.

    pydantic's model_construct() costs ~15 µs per instance, which dominates compiling large documents;
    this sets the same instance state directly.
    """
    # Every field is set, so all units can share one fields-set (pydantic only ever adds names that are
    # already in it); a set per unit would cost ~700 bytes each.
    fields_set = set(SemanticUnit.model_fields)
    new = SemanticUnit.__new__
    set_attr = object.__setattr__

    def construct(**values: Any) -> SemanticUnit:
        unit = new(SemanticUnit)
        set_attr(unit, "__dict__", values)
        set_attr(unit, "__pydantic_fields_set__", fields_set)
        set_attr(unit, "__pydantic_extra__", None)
        set_attr(unit, "__pydantic_private__", None)
        return unit

    return construct
