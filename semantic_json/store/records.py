"""How a store keeps one document: a search record read at open, the document itself read when asked for.

Opening an index reads every document's **search record**: what search needs and nothing else, as NumPy
arrays (anchor vectors by their non-zero entries, BM25 postings, the counts of the document prior, and the
unit layout that entity filtering and region assembly walk). Reading it back is a few array views per
document: no JSON, no tokenising, no re-embedding.

The **document** (its canonical text, unit ids, terms and concepts, entities, segments) is zlib JSON read
only for the documents whose regions a search returns. Nothing is kept twice: a unit's text is its slice of
the document text, its layout comes from the search record, and line starts are recomputed from the text
(kept only when they differ).

Both stores (SQLite, PostgreSQL) keep the same bytes; every decoding error is a ValueError, so a damaged
row is left out and named rather than failing the whole index.
"""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, get_args

import numpy as np

from ..index import SparseVectors
from ..lexical import Postings, TermCounts
from ..model import Entity, Segment, SemanticDocument, UnitKind, line_starts_of, unit_constructor

#: First bytes of a search record (the format's version is its last byte).
RECORD_MAGIC = b"SJTR\x01"
#: zlib level for the document JSON and the compressed arrays of a search record.
COMPRESSION_LEVEL = 6
#: Arrays of a search record kept zlib-compressed: small ones, or ones that shrink a lot. The rest are
#: stored raw, so that opening an index copies them without inflating them.
COMPRESSED_ARRAYS = frozenset({
    "layout.kind", "layout.start_char", "layout.end_char", "layout.start_line", "layout.end_line",
    "layout.block", "layout.sentence", "layout.segment", "layout.is_header", "layout.entity_offsets",
    "layout.entity_ids", "layout.context_offsets", "layout.context_ids", "counts.keys", "counts.counts",
    "postings.key_ids", "postings.key_counts",
})
#: Array offsets inside a record are multiples of this (NumPy reads aligned arrays faster).
ALIGNMENT = 8
#: A float32 array with at most this many distinct values is stored as one-byte codes into a table.
MAX_TABLE_VALUES = 256
#: Unit kinds by their code in a record's layout.
UNIT_KINDS: tuple[str, ...] = get_args(UnitKind)
#: Unit fields the layout holds (the rest of a unit is in the document JSON).
LAYOUT_FIELDS = ("kind", "start_char", "end_char", "start_line", "end_line", "block", "sentence", "segment",
                 "is_header", "entities", "context_entities")


# ------------------------------------------------------------------ arrays


def _smallest_uint(values: np.ndarray) -> np.ndarray:
    """``values`` (non-negative integers) in the narrowest unsigned dtype that holds them."""
    top = int(values.max()) if len(values) else 0
    for dtype in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dtype).max:
            return values.astype(dtype)
    return values.astype(np.uint64)


def _pack(arrays: dict[str, np.ndarray], meta: dict[str, Any]) -> bytes:
    """One record: magic, header length, JSON header (meta and where each array lies), aligned array bytes."""
    table = []
    chunks: list[bytes] = []
    offset = 0
    for name, array in arrays.items():
        array = np.ascontiguousarray(array)
        data = array.tobytes()
        compressed = name in COMPRESSED_ARRAYS
        if compressed:
            data = zlib.compress(data, COMPRESSION_LEVEL)
        pad = -offset % ALIGNMENT
        chunks.append(b"\0" * pad)
        offset += pad
        table.append([name, array.dtype.str, list(array.shape), offset, len(data), compressed])
        chunks.append(data)
        offset += len(data)
    header = json.dumps({"meta": meta, "arrays": table}, ensure_ascii=False).encode("utf-8")
    start = len(RECORD_MAGIC) + 4 + len(header)
    lead = -start % ALIGNMENT
    return RECORD_MAGIC + struct.pack("<I", len(header) + lead) + header + b" " * lead + b"".join(chunks)


def _unpack(record: bytes) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and meta of a record written by _pack; ValueError for anything else."""
    if not record.startswith(RECORD_MAGIC):
        raise ValueError("not a search record of this version")
    (size,) = struct.unpack_from("<I", record, len(RECORD_MAGIC))
    start = len(RECORD_MAGIC) + 4
    if start + size > len(record):
        raise ValueError("search record truncated in its header")
    header = json.loads(record[start : start + size])
    base = start + size
    view = memoryview(record)
    arrays = {}
    for name, dtype, shape, offset, length, compressed in header["arrays"]:
        data = view[base + offset : base + offset + length]
        if len(data) != length:
            raise ValueError(f"search record truncated in array {name!r}")
        buffer = zlib.decompress(data) if compressed else data
        arrays[name] = np.frombuffer(buffer, dtype=np.dtype(dtype)).reshape(shape)
    return arrays, header["meta"]


def _pack_floats(name: str, values: np.ndarray, arrays: dict[str, np.ndarray]) -> None:
    """float32 ``values`` as one-byte codes into a table when they take few distinct values, else raw."""
    values = np.ascontiguousarray(values, dtype=np.float32)
    table, codes = np.unique(values.view(np.uint32), return_inverse=True)  # by bits: exact, -0.0 kept apart
    if len(table) <= MAX_TABLE_VALUES:
        arrays[f"{name}.table"] = table.view(np.float32)
        arrays[f"{name}.codes"] = codes.astype(np.uint8).reshape(-1)
    else:
        arrays[name] = values


def _unpack_floats(name: str, arrays: dict[str, np.ndarray]) -> np.ndarray:
    if name in arrays:
        return np.array(arrays[name], dtype=np.float32)  # a copy: the record's bytes need not stay alive
    return arrays[f"{name}.table"][arrays[f"{name}.codes"]]


def _pack_lists(name: str, lists: Sequence[Sequence[str]], names: dict[str, int], arrays: dict[str, np.ndarray]) -> None:
    """Lists of strings as offsets into one array of ids into ``names`` (shared by the record)."""
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(items) for items in lists])
    ids = np.fromiter((names.setdefault(item, len(names)) for items in lists for item in items), dtype=np.int64,
                      count=int(offsets[-1]))
    arrays[f"{name}_offsets"] = _smallest_uint(offsets)
    arrays[f"{name}_ids"] = _smallest_uint(ids)


# ------------------------------------------------------------------ layout


class _LayoutUnit:
    """One unit as the layout holds it: the attributes entity filtering and region assembly read."""

    __slots__ = LAYOUT_FIELDS

    def __init__(self, values: tuple) -> None:
        for name, value in zip(LAYOUT_FIELDS, values):
            setattr(self, name, value)


class UnitLayout:
    """Where every unit of a document lies and what it is about, without its text (see module docstring).

    ``units`` is a sequence of objects with the layout's attributes (kind, start_char, end_char, start_line,
    end_line, block, sentence, segment, is_header, entities, context_entities), which is all that
    regions.assemble and the repository's entity filter read of a unit: they take a UnitLayout where they
    would take a SemanticDocument. Units are made from the arrays when first read.
    """

    def __init__(self, document_id: str, arrays: dict[str, np.ndarray], entity_names: list[str]) -> None:
        self.document_id = document_id
        self._arrays = arrays
        self._names = entity_names
        self._columns: list[list] | None = None
        self._made: dict[int, _LayoutUnit] = {}
        self.units = _LayoutUnits(self)

    def __len__(self) -> int:
        return len(self._arrays["kind"])

    @classmethod
    def from_document(cls, doc: SemanticDocument) -> UnitLayout:
        """The layout of a compiled document."""
        units = doc.units
        kind_code = {kind: code for code, kind in enumerate(UNIT_KINDS)}
        arrays: dict[str, np.ndarray] = {"kind": np.fromiter((kind_code[u.kind] for u in units), np.uint8, len(units))}
        for name in ("start_char", "end_char", "start_line", "end_line", "block", "sentence"):
            arrays[name] = _smallest_uint(np.fromiter((getattr(u, name) for u in units), np.int64, len(units)))
        arrays["segment"] = _smallest_uint(np.fromiter((u.segment + 1 if u.segment is not None else 0 for u in units),
                                                       np.int64, len(units)))
        arrays["is_header"] = np.fromiter((u.is_header for u in units), np.uint8, len(units))
        names: dict[str, int] = {}
        lists: dict[str, np.ndarray] = {}
        _pack_lists("entity", [u.entities for u in units], names, lists)
        _pack_lists("context", [u.context_entities for u in units], names, lists)
        arrays.update(lists)
        return cls(doc.document_id, arrays, list(names))

    @property
    def arrays(self) -> dict[str, np.ndarray]:
        """The layout's arrays, by name (what a store writes)."""
        return self._arrays

    @property
    def entity_names(self) -> list[str]:
        return self._names

    def unit(self, position: int) -> _LayoutUnit:
        made = self._made.get(position)
        if made is None:
            if self._columns is None:
                self._columns = self._read_columns()
            *scalars, (entity_offsets, entity_ids), (context_offsets, context_ids) = self._columns
            names = self._names
            made = self._made[position] = _LayoutUnit((
                *(column[position] for column in scalars),
                [names[i] for i in entity_ids[entity_offsets[position] : entity_offsets[position + 1]]],
                [names[i] for i in context_ids[context_offsets[position] : context_offsets[position + 1]]],
            ))
        return made

    def _read_columns(self) -> list:
        """The arrays as Python lists, one per layout field (entity lists as their offsets and ids)."""
        a = self._arrays
        return [
            [UNIT_KINDS[code] for code in a["kind"].tolist()],
            *(a[name].tolist() for name in ("start_char", "end_char", "start_line", "end_line", "block", "sentence")),
            [s - 1 if s else None for s in a["segment"].tolist()],
            [bool(h) for h in a["is_header"].tolist()],
            (a["entity_offsets"].tolist(), a["entity_ids"].tolist()),
            (a["context_offsets"].tolist(), a["context_ids"].tolist()),
        ]


class _LayoutUnits(Sequence):
    """The units of a UnitLayout, by position."""

    def __init__(self, layout: UnitLayout) -> None:
        self._layout = layout

    def __len__(self) -> int:
        return len(self._layout)

    def __getitem__(self, position):  # type: ignore[override]
        if isinstance(position, slice):
            return [self._layout.unit(p) for p in range(*position.indices(len(self)))]
        if position < 0:
            position += len(self)
        if not 0 <= position < len(self):
            raise IndexError(position)
        return self._layout.unit(position)


# ------------------------------------------------------------------ search record


@dataclass
class SearchRecord:
    """What search needs of one document: its anchor vectors, BM25 postings, term counts and unit layout
    (postings and counts numbered by the store's key vocabulary)."""

    vectors: np.ndarray | SparseVectors
    postings: Postings
    counts: TermCounts
    layout: UnitLayout

    @property
    def n_units(self) -> int:
        return len(self.layout)

    @property
    def dim(self) -> int:
        return self.vectors.dim if isinstance(self.vectors, SparseVectors) else int(self.vectors.shape[1])


def encode_record(record: SearchRecord) -> bytes:
    """The bytes a store keeps for a search record."""
    arrays: dict[str, np.ndarray] = {}
    vectors = record.vectors
    dense = vectors.to_dense() if isinstance(vectors, SparseVectors) else np.ascontiguousarray(vectors, dtype=np.float32)
    n, dim = dense.shape
    sparse = vectors if isinstance(vectors, SparseVectors) else SparseVectors.from_dense(dense)
    row_bytes = _smallest_uint(np.asarray([n])).itemsize
    if len(sparse.values) * (row_bytes + 4) + 4 * dim < dense.nbytes:
        arrays["vectors.counts"] = _smallest_uint(np.asarray(sparse.counts))
        arrays["vectors.rows"] = _smallest_uint(np.asarray(sparse.rows))
        arrays["vectors.values"] = np.asarray(sparse.values, dtype=np.float32)
    else:
        arrays["vectors.dense"] = dense
    postings = record.postings
    key_ids, key_counts = np.unique(postings.keys, return_counts=True)
    arrays["postings.key_ids"] = key_ids.astype(np.int32)
    arrays["postings.key_counts"] = _smallest_uint(key_counts)
    arrays["postings.units"] = _smallest_uint(postings.units.astype(np.int64))
    _pack_floats("postings.weights", postings.weights, arrays)
    arrays["postings.lengths"] = np.asarray(postings.lengths, dtype=np.float32)
    _pack_floats("postings.damping", postings.damping, arrays)
    arrays["counts.keys"] = np.asarray(record.counts.keys, dtype=np.int32)
    arrays["counts.counts"] = _smallest_uint(np.asarray(record.counts.counts, dtype=np.int64))
    arrays.update({f"layout.{name}": array for name, array in record.layout.arrays.items()})
    meta = {"units": n, "dim": dim, "length": int(record.counts.length), "entities": record.layout.entity_names}
    return _pack(arrays, meta)


def decode_record(document_id: str, data: bytes, n_units: int, dim: int) -> SearchRecord:
    """A search record from its bytes; ValueError when it is damaged or does not match ``n_units`` × ``dim``."""
    arrays, meta = _unpack(bytes(data))
    if meta["units"] != n_units or meta["dim"] != dim:
        raise ValueError(f"search record of {meta['units']} × {meta['dim']} for a row of {n_units} × {dim}")
    if "vectors.dense" in arrays:
        vectors: np.ndarray | SparseVectors = arrays["vectors.dense"]
        if vectors.shape != (n_units, dim):
            raise ValueError("vectors do not match the units")
    else:
        vectors = SparseVectors(arrays["vectors.counts"], arrays["vectors.rows"], arrays["vectors.values"], n_units)
        entries = len(vectors.values)
        if vectors.dim != dim or not int(vectors.counts.sum()) == entries == len(vectors.rows) or (
                entries and int(vectors.rows.max()) >= n_units):
            raise ValueError("vector entries do not match the units")
    postings = Postings(
        keys=np.repeat(arrays["postings.key_ids"], arrays["postings.key_counts"]),
        units=arrays["postings.units"].astype(np.int32),
        weights=_unpack_floats("postings.weights", arrays),
        lengths=np.array(arrays["postings.lengths"], dtype=np.float32),
        damping=_unpack_floats("postings.damping", arrays),
    )
    if len(postings.lengths) != n_units or len(postings.units) != len(postings.keys):
        raise ValueError("postings do not match the units")
    counts = TermCounts(keys=arrays["counts.keys"], counts=arrays["counts.counts"].astype(np.int32),
                        length=int(meta["length"]))
    layout = UnitLayout(document_id, {name[len("layout."):]: array for name, array in arrays.items()
                                      if name.startswith("layout.")}, list(meta["entities"]))
    if len(layout) != n_units:
        raise ValueError("unit layout does not match the units")
    return SearchRecord(vectors, postings, counts, layout)


# ------------------------------------------------------------------ document


def encode_document(doc: SemanticDocument) -> bytes:
    """The document as a store keeps it: zlib JSON without what the search record or the text already hold."""
    data = doc.to_dict()
    text = data["text"]
    units = data.pop("units")
    default_ids = all(u["id"] == f"P{n}" for n, u in enumerate(units, start=1))
    data["units"] = {
        "count": len(units),
        "id": None if default_ids else [u["id"] for u in units],
        "section": [u["section"] for u in units],
        "concepts": [u["concepts"] for u in units],
        "terms": [u["terms"] for u in units],
    }
    if data["line_starts"] == line_starts_of(text):
        data["line_starts"] = None
    del data["char_count"]
    return zlib.compress(json.dumps(data, ensure_ascii=False).encode("utf-8"), COMPRESSION_LEVEL)


def decode_document(data: bytes, layout: UnitLayout) -> SemanticDocument:
    """The compiled document from its stored bytes and its layout; ValueError (DocumentIntegrityError
    included) when they are damaged or do not agree."""
    payload = json.loads(zlib.decompress(data))
    text = payload["text"]
    stored = payload.pop("units")
    if stored["count"] != len(layout):
        raise ValueError(f"document of {stored['count']} units for a layout of {len(layout)}")
    ids = stored["id"] or [f"P{n}" for n in range(1, stored["count"] + 1)]
    construct = unit_constructor()
    units = []
    for position, (unit_id, section, concepts, terms) in enumerate(
            zip(ids, stored["section"], stored["concepts"], stored["terms"])):
        placed = layout.units[position]
        values = {name: getattr(placed, name) for name in LAYOUT_FIELDS}
        units.append(construct(
            id=unit_id, kind=values["kind"], text=text[values["start_char"] : values["end_char"]],
            start_char=values["start_char"], end_char=values["end_char"], start_line=values["start_line"],
            end_line=values["end_line"], block=values["block"], sentence=values["sentence"], section=section,
            segment=values["segment"], is_header=values["is_header"], entities=list(values["entities"]),
            context_entities=list(values["context_entities"]), concepts=concepts, terms=terms,
        ))
    doc = SemanticDocument.model_construct(
        grammar_version=payload["grammar_version"],
        document_id=payload["document_id"],
        source_uri=payload["source_uri"],
        document_sha256=payload["document_sha256"],
        char_count=len(text),
        line_starts=payload["line_starts"] if payload["line_starts"] is not None else line_starts_of(text),
        text=text,
        units=units,
        entities=[Entity.model_validate(e) for e in payload["entities"]],
        segments=[Segment.model_validate(s) for s in payload["segments"]],
    )
    doc.check_integrity()
    return doc
