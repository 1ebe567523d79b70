"""How a store keeps one document: a search record read when a search routes to it, the document itself
read when a search returns one of its regions.

The **search record** holds what stage 2 of a search reads of a document, as NumPy arrays: the unit layout
that entity filtering and region assembly walk, and each unit's BM25 length and damping. Reading it back is
a few array views: no JSON, no tokenising, no re-embedding. The postings, term counts and anchor vectors are
the engine's rows (engine_rows.py), read by key and by document.

The **document** (its canonical text, segments, entities, the units' sections, terms and concepts) is read
only for the documents whose regions a search returns, and then only the text and the segments the regions
cover (text_pieces.py); each part is compressed apart. Nothing is kept twice: a unit's text is its slice of
the document text, its layout comes from the search record, and line starts are recomputed from the text
(kept only when they differ).

Both stores (SQLite, PostgreSQL) keep the same bytes; every decoding error is a ValueError, so a damaged
row is left out and named rather than failing the whole index.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from operator import itemgetter
from typing import Any

import numpy as np

from ..index import SparseVectors
from ..search.lexical import Postings, TermCounts, figure_flags
from ..errors import DocumentIntegrityError
from ..search.region_layout import announces, continuation_flags, is_page_furniture
from ..search.statements import primary_statements
from ..token_cost import unit_costs
from .text_pieces import TEXT_PIECE_CHARS, Damaged, PiecedSegments, PiecedText, piece_parts, segment_parts
from .packed_arrays import pack_arrays, pack_floats, pack_lists, smallest_uint, unpack_arrays, unpack_floats
from ..model import UNIT_KINDS, Entity, Segment, SemanticDocument, line_starts_of, unit_constructor

DOCUMENT_MAGIC = b"SJTD\x01"
#: Unit fields the layout holds (the rest of a unit is in the stored document).
LAYOUT_FIELDS = ("kind", "start_char", "end_char", "start_line", "end_line", "block", "sentence", "segment",
                 "is_header", "entities", "context_entities", "id")
#: Parts of a stored document, each zlib-compressed apart so that a region reads only what it shows.
#: (text_pieces.py adds the pieces of its text and segments).
DOCUMENT_PARTS = frozenset({"entities", "units", "line_starts"})


# ------------------------------------------------------------------ layout


class _LayoutUnit(tuple):
    """One unit as the layout holds it: the attributes entity filtering and region assembly read (a tuple,
    so that making one costs little)."""

    __slots__ = ()


for _n, _name in enumerate(LAYOUT_FIELDS):
    setattr(_LayoutUnit, _name, property(itemgetter(_n), doc=f"The unit's {_name}."))


class UnitLayout:
    """Where every unit of a document lies and what it is about, without its text (see module docstring).

    ``units`` is a sequence of objects with the layout's attributes (id, kind, start_char, end_char,
    start_line, end_line, block, sentence, segment, is_header, entities, context_entities), which is all that
    regions.assemble and the repository's entity filter read of a unit: they take a UnitLayout where they
    would take a SemanticDocument. A unit is made from the arrays when first read.
    """

    def __init__(self, document_id: str, arrays: dict[str, np.ndarray], entity_names: list[str],
                 unit_ids: list[str] | None = None) -> None:
        self.document_id = document_id
        self._arrays = arrays
        self._names = entity_names
        #: Unit ids when they are not the compiler's P1, P2, ... (None: they are).
        self.unit_ids = unit_ids
        self._columns: list | None = None
        #: What search code derives from the layout and keeps with it (search.region_layout.RegionLayout.of).
        self.derived: dict[str, Any] = {}
        # made by a function of the arrays, not a method of the layout: a layout in no reference cycle is
        # freed as soon as the record cache drops it, not at the next full garbage collection
        self.units = _Lazy(len(arrays["kind"]), partial(_make_unit, arrays, entity_names, unit_ids))

    def __len__(self) -> int:
        return len(self._arrays["kind"])

    @classmethod
    def from_document(cls, doc: SemanticDocument) -> UnitLayout:
        """The layout of a compiled document."""
        units = doc.units
        kind_code = {kind: code for code, kind in enumerate(UNIT_KINDS)}
        arrays: dict[str, np.ndarray] = {"kind": np.fromiter((kind_code[u.kind] for u in units), np.uint8, len(units))}
        for name in ("start_char", "end_char", "start_line", "end_line", "block", "sentence"):
            arrays[name] = smallest_uint(np.fromiter((getattr(u, name) for u in units), np.int64, len(units)))
        arrays["segment"] = smallest_uint(np.fromiter((u.segment + 1 if u.segment is not None else 0 for u in units),
                                                       np.int64, len(units)))
        arrays["is_header"] = np.fromiter((u.is_header for u in units), np.uint8, len(units))
        # region assembly reads the flag of a unit that ends its block only (what a lead-in announces follows it)
        ends_block = [a.block != b.block for a, b in zip(units, units[1:])] + [True]
        arrays["lead_in"] = np.fromiter((end and announces(u, doc.text) for u, end in zip(units, ends_block)),
                                        np.uint8, len(units))
        arrays["continues"] = np.fromiter(continuation_flags(doc), np.uint8, len(units))
        arrays["page_number"] = np.fromiter((is_page_furniture(u, doc.text) for u in units), np.uint8, len(units))
        arrays["statement"] = np.fromiter(primary_statements(doc), np.uint8, len(units))
        arrays["figure"] = np.fromiter(figure_flags(doc), np.uint8, len(units))
        arrays["tokens"] = smallest_uint(np.asarray(unit_costs(units, doc.text), dtype=np.int64))
        names: dict[str, int] = {}
        lists: dict[str, np.ndarray] = {}
        pack_lists("entity", [u.entities for u in units], names, lists)
        pack_lists("context", [u.context_entities for u in units], names, lists)
        arrays.update(lists)
        ids = [u.id for u in units]
        return cls(doc.document_id, arrays, list(names), None if ids == _default_ids(len(units)) else ids)

    @property
    def arrays(self) -> dict[str, np.ndarray]:
        """The layout's arrays, by name (what a store writes)."""
        return self._arrays

    @property
    def entity_names(self) -> list[str]:
        return self._names

    @property
    def lead_in_flags(self) -> np.ndarray | None:
        """1 for a unit that ends its block and announces what follows (regions.announces), per unit;
        None for a layout stored before the flags were (its regions take no announced table)."""
        return self._arrays["lead_in"] if "lead_in" in self._arrays else None

    @property
    def continuation_flags(self) -> np.ndarray | None:
        """1 for the first unit of a table that continues the table right before it (regions.continuation_flags),
        per unit; None for a layout stored before the flags were (its regions keep the parts apart)."""
        return self._arrays["continues"] if "continues" in self._arrays else None

    @property
    def page_number_flags(self) -> np.ndarray | None:
        """1 for a unit that is a page number alone (regions.is_page_furniture), per unit; None for a layout
        stored before the flags were (a lead-in there takes no table over a page number)."""
        return self._arrays.get("page_number")

    @property
    def statement_codes(self) -> np.ndarray | None:
        """Per unit, the code of the primary statement it lies in (statements.primary_statements, 0: none);
        None for a layout stored before the codes were (no statement is lifted in its document)."""
        return self._arrays.get("statement")

    @property
    def figure_flags(self) -> np.ndarray | None:
        """1 for a unit that prints a figure (lexical.figure_flags), per unit; None for a layout stored before
        the flags were (no unit of its document is damped for printing none)."""
        return self._arrays.get("figure")

    @property
    def token_costs(self) -> np.ndarray | None:
        """Per unit, its text's estimated cl100k tokens (token_cost.estimated_tokens); None for a layout stored
        before the costs were (its regions count four characters a token)."""
        return self._arrays.get("tokens")

    def columns(self) -> list:
        """The layout as Python lists, one per LAYOUT_FIELDS entry (entity lists as their offsets and ids)."""
        if self._columns is None:
            a = self._arrays
            self._columns = [
                [UNIT_KINDS[code] for code in a["kind"].tolist()],
                *(a[name].tolist() for name in ("start_char", "end_char", "start_line", "end_line", "block", "sentence")),
                [s - 1 if s else None for s in a["segment"].tolist()],
                [bool(h) for h in a["is_header"].tolist()],
                (a["entity_offsets"].tolist(), a["entity_ids"].tolist()),
                (a["context_offsets"].tolist(), a["context_ids"].tolist()),
                self.unit_ids,
            ]
        return self._columns

    def first_context_holds(self, positions: np.ndarray, test: Callable[[str], bool]) -> np.ndarray:
        """Per unit at ``positions`` (an int array), whether it has a context entity and ``test`` holds for the
        first one's name (each name tested once: what the entity filter of a search reads of its candidates)."""
        offsets = self._arrays["context_offsets"]
        starts = offsets[positions]
        held = offsets[positions + 1] > starts
        out = np.zeros(len(positions), dtype=bool)
        if held.any():
            firsts = self._arrays["context_ids"][starts[held]]
            holds = np.zeros(len(self._names), dtype=bool)
            for n in np.unique(firsts).tolist():
                holds[n] = test(self._names[n])
            out[held] = holds[firsts]
        return out


def _names_of(names: list[str], ids: np.ndarray, start: int, end: int) -> tuple[str, ...]:
    # a tuple of strings: the garbage collector stops tracking it, and a search keeps thousands
    return tuple([names[i] for i in ids[start:end].tolist()]) if end > start else ()


def _default_ids(count: int) -> list[str]:
    """The unit ids the compiler gives: P1, P2, ..."""
    return [f"P{n}" for n in range(1, count + 1)]


def _make_unit(arrays: dict[str, np.ndarray], names: list[str], unit_ids: list[str] | None,
               position: int) -> _LayoutUnit:
    """The unit at ``position`` of a layout's arrays (a search reads a few hundred units of a document:
    converting whole columns would cost more)."""
    placed = arrays["segment"].item(position)
    entity_offsets, context_offsets = arrays["entity_offsets"], arrays["context_offsets"]
    return tuple.__new__(_LayoutUnit, (
        UNIT_KINDS[arrays["kind"].item(position)], arrays["start_char"].item(position),
        arrays["end_char"].item(position), arrays["start_line"].item(position), arrays["end_line"].item(position),
        arrays["block"].item(position), arrays["sentence"].item(position),
        placed - 1 if placed else None, bool(arrays["is_header"].item(position)),
        _names_of(names, arrays["entity_ids"], entity_offsets.item(position), entity_offsets.item(position + 1)),
        _names_of(names, arrays["context_ids"], context_offsets.item(position), context_offsets.item(position + 1)),
        unit_ids[position] if unit_ids is not None else f"P{position + 1}",
    ))


class _Lazy(Sequence):
    """A sequence of ``count`` items, each made by ``make(position)`` when first read and kept."""

    def __init__(self, count: int, make: Callable[[int], Any]) -> None:
        self._make = make
        self._made: list[Any] = [None] * count

    def __len__(self) -> int:
        return len(self._made)

    def __getitem__(self, position):  # type: ignore[override]
        if position.__class__ is slice:
            return [self[p] for p in range(*position.indices(len(self._made)))]
        made = self._made[position]
        if made is None:
            if position < 0:
                position += len(self._made)
            made = self._made[position] = self._make(position)
        return made


# ------------------------------------------------------------------ search record


@dataclass
class UnitWeights:
    """Per unit of a document, what BM25 reads besides the postings: its field-weighted length and its
    damping (lexical.Postings.lengths and .damping)."""

    lengths: np.ndarray  # float32
    damping: np.ndarray  # float32


@dataclass
class SearchRecord:
    """What search needs of one document: its anchor vectors, BM25 postings, term counts and unit layout
    (postings and counts numbered by the store's key vocabulary).

    Written whole (put); read back from a store it holds what stage 2 reads of a document: ``vectors`` is
    None (the engine reads the vectors of candidate units), ``postings`` a UnitWeights and ``counts`` the
    document's length only (the engine reads the postings of the query's keys)."""

    vectors: np.ndarray | SparseVectors | None
    postings: Postings | UnitWeights
    counts: TermCounts
    layout: UnitLayout
    dim: int = 0

    def __post_init__(self) -> None:
        if self.vectors is not None and not self.dim:
            vectors = self.vectors
            self.dim = vectors.dim if isinstance(vectors, SparseVectors) else int(vectors.shape[1])

    @property
    def n_units(self) -> int:
        return len(self.layout)


def encode_record(record: SearchRecord) -> bytes:
    """The bytes a store keeps of a search record besides what its engine tables keep (posting_rows,
    unit_vector_rows): the units' BM25 lengths and damping, the document's length and its unit layout."""
    arrays: dict[str, np.ndarray] = {"units.lengths": np.asarray(record.postings.lengths, dtype=np.float32)}
    pack_floats("units.damping", record.postings.damping, arrays)
    arrays.update({f"layout.{name}": array for name, array in record.layout.arrays.items()})
    meta = {"units": record.n_units, "dim": record.dim, "length": int(record.counts.length),
            "entities": record.layout.entity_names, "unit_ids": record.layout.unit_ids}
    return pack_arrays(arrays, meta)


def decode_record(document_id: str, data: bytes, n_units: int, dim: int) -> SearchRecord:
    """A search record from its bytes; ValueError when it is damaged or does not match ``n_units`` × ``dim``."""
    arrays, meta = unpack_arrays(bytes(data))
    if meta["units"] != n_units or meta["dim"] != dim:
        raise ValueError(f"search record of {meta['units']} × {meta['dim']} for a row of {n_units} × {dim}")
    weights = UnitWeights(np.array(arrays["units.lengths"], dtype=np.float32), unpack_floats("units.damping", arrays))
    if len(weights.lengths) != n_units or len(weights.damping) != n_units:
        raise ValueError("unit weights do not match the units")
    counts = TermCounts(keys=np.zeros(0, np.int32), counts=np.zeros(0, np.int32), length=int(meta["length"]))
    layout = UnitLayout(document_id, {name[len("layout."):]: arrays[name] for name in arrays.names()
                                      if name.startswith("layout.")}, list(meta["entities"]), meta["unit_ids"])
    if len(layout) != n_units or (layout.unit_ids is not None and len(layout.unit_ids) != n_units):
        raise ValueError("unit layout does not match the units")
    return SearchRecord(None, weights, counts, layout, dim)


# ------------------------------------------------------------------ document


def _json_part(value: Any) -> np.ndarray:
    return np.frombuffer(json.dumps(value, ensure_ascii=False).encode("utf-8"), dtype=np.uint8)


def encode_document(doc: SemanticDocument) -> bytes:
    """The document as a store keeps it: its text, segments, entities and the units' sections, concepts and
    terms, each compressed apart; nothing the search record or the text already hold (unit spans and text,
    line starts unless they differ from the text's)."""
    units = doc.units
    parts, compressed = piece_parts(doc.text)
    segments, segment_names = segment_parts(
        [json.dumps(segment.model_dump(mode="json"), ensure_ascii=False).encode("utf-8") for segment in doc.segments])
    parts.update(segments)
    parts["entities"] = _json_part([entity.model_dump(mode="json") for entity in doc.entities])
    parts["units"] = _json_part({"section": [u.section for u in units], "concepts": [u.concepts for u in units],
                                 "terms": [u.terms for u in units]})
    if doc.line_starts != line_starts_of(doc.text):
        parts["line_starts"] = np.asarray(doc.line_starts, dtype=np.int64)
    meta = {"grammar_version": doc.grammar_version, "document_id": doc.document_id, "source_uri": doc.source_uri,
            "document_sha256": doc.document_sha256, "char_count": len(doc.text), "text_piece_chars": TEXT_PIECE_CHARS}
    return pack_arrays(parts, meta, DOCUMENT_PARTS | frozenset(compressed + segment_names), DOCUMENT_MAGIC)


def _integrity_error(document_id: str, why: str) -> DocumentIntegrityError:
    return DocumentIntegrityError(f"document {document_id!r}: {why}")


class StoredSource:
    """What a search result reads of a stored document, read without the rest of it: its identity, the text
    pieces and segments its regions cover (text_pieces.py; each checked when first read), line numbers, and
    its units as the layout holds them.

    regions.to_region and the repository take it where they would take a SemanticDocument: ``text_between``
    reads a slice, ``text`` the whole text (checked against the document's sha256). A piece found damaged
    raises what ``damaged`` makes of the reason (by default a DocumentIntegrityError naming the document).
    """

    def __init__(self, data: bytes, layout: UnitLayout, damaged: Damaged | None = None) -> None:
        parts, meta = unpack_arrays(bytes(data), DOCUMENT_MAGIC)
        self.document_id: str = meta["document_id"]
        if damaged is None:
            damaged = partial(_integrity_error, self.document_id)  # not a closure over self: no reference cycle
        self.source_uri: str | None = meta["source_uri"]
        self.document_sha256: str = meta["document_sha256"]
        self.grammar_version: str = meta["grammar_version"]
        self._text = PiecedText(parts, meta, damaged)
        self.char_count = self._text.char_count
        self.units = layout.units
        self.layout = layout
        # each segment is parsed and validated when first read: a region reads a few of thousands
        pieces = PiecedSegments(parts, damaged)
        self.segments = _Lazy(len(pieces), lambda n: Segment.model_validate_json(pieces.json(n)))
        self._parts = parts

    @property
    def text(self) -> str:
        """The whole text (every piece read), checked against the document's sha256."""
        return self._text.whole()

    def text_between(self, start: int, end: int) -> str:
        """``text[start:end]`` (0 <= start <= end), read from the pieces it covers."""
        return self._text.between(start, end)

    @property
    def line_starts(self) -> list[int]:
        """Character offset of the start of every line (model.line_starts_of, or as stored)."""
        return self._text.line_starts()

    def line_of(self, char: int) -> int:
        """1-based line number of character offset `char` (clamped to the text), as SemanticDocument.line_of."""
        return self._text.line_of(char)

    def document(self) -> SemanticDocument:
        """The whole compiled document (ValueError, DocumentIntegrityError included, when damaged)."""
        stored = json.loads(self._parts["units"].tobytes())
        (kinds, starts, ends, start_lines, end_lines, blocks, sentences, segments, headers,
         (entity_offsets, entity_ids), (context_offsets, context_ids), ids) = self.layout.columns()
        count = len(kinds)
        if not len(stored["section"]) == len(stored["concepts"]) == len(stored["terms"]) == count:
            raise ValueError(f"document of {len(stored['terms'])} units for a layout of {count}")
        ids = ids or _default_ids(count)
        names = self.layout.entity_names
        text = self.text
        construct = unit_constructor()
        units = [
            construct(
                id=ids[p], kind=kinds[p], text=text[starts[p] : ends[p]], start_char=starts[p], end_char=ends[p],
                start_line=start_lines[p], end_line=end_lines[p], block=blocks[p], sentence=sentences[p],
                section=stored["section"][p], segment=segments[p], is_header=headers[p],
                entities=[names[i] for i in entity_ids[entity_offsets[p] : entity_offsets[p + 1]]],
                context_entities=[names[i] for i in context_ids[context_offsets[p] : context_offsets[p + 1]]],
                concepts=stored["concepts"][p], terms=stored["terms"][p],
            )
            for p in range(count)
        ]
        doc = SemanticDocument.model_construct(
            grammar_version=self.grammar_version, document_id=self.document_id, source_uri=self.source_uri,
            document_sha256=self.document_sha256, char_count=self.char_count, line_starts=self.line_starts,
            text=text, units=units,
            entities=[Entity.model_validate(e) for e in json.loads(self._parts["entities"].tobytes())],
            segments=[self.segments[n] for n in range(len(self.segments))],
        )
        doc.check_integrity()
        return doc


def decode_source(data: bytes, layout: UnitLayout, damaged: Damaged | None = None) -> StoredSource:
    """What a search result reads of a stored document; ValueError when it is damaged (what ``damaged``
    makes of the reason for a piece found damaged when first read)."""
    source = StoredSource(data, layout, damaged)
    if source.document_id != layout.document_id:
        raise ValueError(f"stored document {source.document_id!r} under the id {layout.document_id!r}")
    return source


def decode_document(data: bytes, layout: UnitLayout) -> SemanticDocument:
    """The compiled document from its stored bytes and its layout; ValueError (DocumentIntegrityError
    included) when they are damaged or do not agree."""
    return decode_source(data, layout).document()
