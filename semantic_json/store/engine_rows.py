"""The rows of the engine's tables for one document, and reading them back.

The engine (a store's tables, store/base.py) holds a document's postings by key (one row per key and
document: the units that hold the key and their field weights), its term counts by key (the document
prior), and its anchor vectors by unit (one row per unit). A query reads the rows of its own keys and the
vectors of the units it scores. What a document added to the key statistics is kept with it (DocumentKeys),
so that removing or replacing it takes exactly that back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..index import SparseVectors
from ..search.lexical import Postings, TermCounts
from .packed_arrays import pack_arrays, smallest_uint, unpack_arrays

#: First bytes of a document's key statistics (DocumentKeys).
KEYS_MAGIC = b"SJTK\x01"
#: First byte of a postings row: every unit with one weight (the weight, then the units), or a weight per unit
#: (the units, then the weights). A unit holds a key at one of a few field weights (lexical.unit_fields), so
#: most rows are of one weight: two bytes an entry instead of six.
ONE_WEIGHT, WEIGHT_EACH = b"1", b"w"
#: First byte of a unit's vector row: its non-zero entries (dimensions as uint8 when the embedding has at most
#: 256 dimensions, else uint16; then float32 values), or the whole float32 vector.
SPARSE_BYTE, SPARSE_VECTOR, DENSE_VECTOR = b"b", b"s", b"d"


def unit_dtype(n_units: int) -> np.dtype:
    """The dtype of unit positions in a document of ``n_units`` units (postings rows)."""
    return np.dtype(np.uint16) if n_units <= np.iinfo(np.uint16).max + 1 else np.dtype(np.uint32)


@dataclass
class DocumentKeys:
    """What one document adds to the engine's key statistics: per key id (sorted), how many of its units
    hold the key and how often its units' terms count it (0 for a key the document prior does not count)."""

    key_ids: np.ndarray  # int64
    units: np.ndarray  # int64
    counts: np.ndarray  # int64

    def encode(self) -> bytes:
        """Sorted key ids as their gaps, each array zlib-compressed (read only to remove the document)."""
        gaps = np.diff(self.key_ids, prepend=0)
        return pack_arrays({"key_gaps": smallest_uint(gaps), "units": smallest_uint(self.units),
                            "counts": smallest_uint(self.counts)}, {}, frozenset({"key_gaps", "units", "counts"}),
                           KEYS_MAGIC)

    @classmethod
    def decode(cls, data: bytes) -> DocumentKeys:
        arrays, _ = unpack_arrays(bytes(data), KEYS_MAGIC)
        return cls(np.cumsum(arrays["key_gaps"].astype(np.int64)), arrays["units"].astype(np.int64),
                   arrays["counts"].astype(np.int64))


def posting_rows(postings: Postings, counts: TermCounts, n_units: int) -> tuple[list[tuple[int, bytes]], DocumentKeys]:
    """(key id, entries) of every key of ``postings`` (see ONE_WEIGHT), and the document's DocumentKeys
    (postings and term counts by key)."""
    keys = np.asarray(postings.keys, dtype=np.int64)
    key_ids, starts, unit_counts = np.unique(keys, return_index=True, return_counts=True)
    units = np.asarray(postings.units).astype(unit_dtype(n_units))
    weights = np.asarray(postings.weights, dtype=np.float32)
    rows = []
    for key_id, start, count in zip(key_ids.tolist(), starts.tolist(), unit_counts.tolist()):
        held, weight = units[start : start + count], weights[start : start + count]
        if (weight == weight[0]).all():
            rows.append((key_id, ONE_WEIGHT + weight[:1].tobytes() + held.tobytes()))
        else:
            rows.append((key_id, WEIGHT_EACH + held.tobytes() + weight.tobytes()))
    counted = dict(zip(np.asarray(counts.keys, dtype=np.int64).tolist(), np.asarray(counts.counts).tolist()))
    all_keys = np.union1d(key_ids, np.asarray(counts.keys, dtype=np.int64))
    held_by = dict(zip(key_ids.tolist(), unit_counts.tolist()))
    return rows, DocumentKeys(all_keys, np.asarray([held_by.get(k, 0) for k in all_keys.tolist()], dtype=np.int64),
                              np.asarray([counted.get(k, 0) for k in all_keys.tolist()], dtype=np.int64))


def posting_entries(data: bytes, n_units: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit positions and float32 weights of one postings row; ValueError when damaged."""
    data = bytes(data)
    dtype = unit_dtype(n_units)
    kind, body = data[:1], data[1:]
    if kind == ONE_WEIGHT and len(body) > 4 and (len(body) - 4) % dtype.itemsize == 0:
        units = np.frombuffer(body, dtype=dtype, offset=4)
        weights = np.full(len(units), np.frombuffer(body, dtype=np.float32, count=1)[0], dtype=np.float32)
    elif kind == WEIGHT_EACH and len(body) % (dtype.itemsize + 4) == 0:
        count = len(body) // (dtype.itemsize + 4)
        units = np.frombuffer(body, dtype=dtype, count=count)
        weights = np.frombuffer(body, dtype=np.float32, offset=count * dtype.itemsize)
    else:
        raise ValueError(f"postings row of {len(data)} bytes is not a whole number of entries")
    if len(units) and int(units.max()) >= n_units:
        raise ValueError("postings row names units past the document's end")
    return units.astype(np.int64), weights


def unit_vector_rows(vectors: np.ndarray | SparseVectors) -> list[tuple[int, bytes]]:
    """(unit position, stored row) of every unit: its non-zero entries when that is smaller than the whole
    float32 vector (see SPARSE_BYTE), else the whole vector."""
    dense = vectors.to_dense() if isinstance(vectors, SparseVectors) else np.ascontiguousarray(vectors, dtype=np.float32)
    dim = dense.shape[1] if dense.ndim == 2 else 0
    kind, dims_dtype = (SPARSE_BYTE, np.uint8) if dim <= 256 else (SPARSE_VECTOR, np.uint16)
    width = np.dtype(dims_dtype).itemsize + 4
    out = []
    for position, row in enumerate(dense):
        nonzero = np.flatnonzero(row.view(np.uint32))
        if len(nonzero) * width < row.nbytes and dim <= np.iinfo(np.uint16).max + 1:
            out.append((position, kind + nonzero.astype(dims_dtype).tobytes() + row[nonzero].tobytes()))
        else:
            out.append((position, DENSE_VECTOR + row.tobytes()))
    return out


def unit_vector(data: bytes, dim: int) -> np.ndarray:
    """The float32 vector (``dim``,) of a stored unit row; ValueError when damaged."""
    vector = np.zeros(dim, dtype=np.float32)
    kind, body = bytes(data[:1]), bytes(data[1:])
    if kind == DENSE_VECTOR and len(body) == 4 * dim:
        return np.frombuffer(body, dtype=np.float32).copy()
    width = {SPARSE_BYTE: 1, SPARSE_VECTOR: 2}.get(kind)
    if width is None or len(body) % (width + 4):
        raise ValueError(f"vector row of {len(data)} bytes for {dim} dimensions")
    count = len(body) // (width + 4)
    dims = np.frombuffer(body, dtype=np.uint8 if width == 1 else np.uint16, count=count)
    if count and int(dims.max()) >= dim:
        raise ValueError(f"vector row names dimension {int(dims.max())} of {dim}")
    vector[dims] = np.frombuffer(body, dtype=np.float32, offset=width * count)
    return vector


def unit_dots(rows: Sequence[bytes], query: np.ndarray) -> np.ndarray:
    """The dot products (float32) of stored unit rows with the float32 vector ``query``, read all at once
    (a search reads hundreds of rows: one NumPy pass, not a vector per row); ValueError when a row is
    damaged."""
    dim = len(query)
    count = len(rows)
    out = np.zeros(count, dtype=np.float32)
    if not count:
        return out
    lengths = np.fromiter((len(row) for row in rows), dtype=np.int64, count=count)
    joined = np.frombuffer(b"".join(rows), dtype=np.uint8)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    kinds = joined[starts]
    dense = kinds == DENSE_VECTOR[0]
    if (lengths[dense] != 1 + 4 * dim).any():
        raise ValueError(f"a vector row of the wrong size for {dim} dimensions")
    if dense.any():
        at = starts[dense][:, None] + 1 + np.arange(4 * dim)
        out[dense] = np.ascontiguousarray(joined[at]).view("<f4").reshape(-1, dim) @ query
    known = dense.copy()
    for kind, width in ((SPARSE_BYTE, 1), (SPARSE_VECTOR, 2)):
        sparse = kinds == kind[0]
        known |= sparse
        if not sparse.any():
            continue
        if ((lengths[sparse] - 1) % (width + 4)).any():
            raise ValueError(f"a vector row of the wrong size for {dim} dimensions")
        entries = (lengths[sparse] - 1) // (width + 4)
        if not entries.sum():
            continue
        first = starts[sparse] + 1
        within = np.arange(int(entries.sum())) - np.repeat(np.cumsum(entries) - entries, entries)
        at = np.repeat(first, entries) + width * within
        dims = joined[at].astype(np.int64)
        if width == 2:
            dims |= joined[at + 1].astype(np.int64) << 8
        if int(dims.max()) >= dim:
            raise ValueError(f"vector row names dimension {int(dims.max())} of {dim}")
        at = np.repeat(first + width * entries, entries) + 4 * within
        values = np.ascontiguousarray(joined[at[:, None] + np.arange(4)]).view("<f4").reshape(-1)
        held = entries > 0
        sums = np.add.reduceat(query[dims] * values, (np.cumsum(entries) - entries)[held])
        out[np.flatnonzero(sparse)[held]] = sums
    if not known.all():
        raise ValueError("a vector row of an unknown kind")
    return out
