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
from ..lexical import Postings, TermCounts
from .records import pack_arrays, smallest_uint, unpack_arrays

#: First bytes of a document's key statistics (DocumentKeys).
KEYS_MAGIC = b"SJTK\x01"

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
        return pack_arrays({"key_ids": self.key_ids.astype(np.int32), "units": smallest_uint(self.units),
                      "counts": smallest_uint(self.counts)}, {}, magic=KEYS_MAGIC)

    @classmethod
    def decode(cls, data: bytes) -> DocumentKeys:
        arrays, _ = unpack_arrays(bytes(data), KEYS_MAGIC)
        return cls(arrays["key_ids"].astype(np.int64), arrays["units"].astype(np.int64),
                   arrays["counts"].astype(np.int64))


def posting_rows(postings: Postings, counts: TermCounts, n_units: int) -> tuple[list[tuple[int, bytes]], DocumentKeys]:
    """(key id, entries) of every key of ``postings`` (entries: unit positions in unit_dtype, then float32
    weights), and the document's DocumentKeys (postings and term counts by key)."""
    keys = np.asarray(postings.keys, dtype=np.int64)
    key_ids, starts, unit_counts = np.unique(keys, return_index=True, return_counts=True)
    units = np.asarray(postings.units).astype(unit_dtype(n_units))
    weights = np.asarray(postings.weights, dtype=np.float32)
    rows = [(int(k), units[s : s + c].tobytes() + weights[s : s + c].tobytes())
            for k, s, c in zip(key_ids.tolist(), starts.tolist(), unit_counts.tolist())]
    counted = dict(zip(np.asarray(counts.keys, dtype=np.int64).tolist(), np.asarray(counts.counts).tolist()))
    all_keys = np.union1d(key_ids, np.asarray(counts.keys, dtype=np.int64))
    held = dict(zip(key_ids.tolist(), unit_counts.tolist()))
    return rows, DocumentKeys(all_keys, np.asarray([held.get(k, 0) for k in all_keys.tolist()], dtype=np.int64),
                              np.asarray([counted.get(k, 0) for k in all_keys.tolist()], dtype=np.int64))


def posting_entries(data: bytes, n_units: int) -> tuple[np.ndarray, np.ndarray]:
    """Unit positions and float32 weights of one postings row; ValueError when damaged."""
    dtype = unit_dtype(n_units)
    width = dtype.itemsize + 4
    if len(data) % width:
        raise ValueError(f"postings row of {len(data)} bytes is not a whole number of entries")
    count = len(data) // width
    units = np.frombuffer(data, dtype=dtype, count=count)
    if count and int(units.max()) >= n_units:
        raise ValueError("postings row names units past the document's end")
    return units.astype(np.int64), np.frombuffer(data, dtype=np.float32, offset=count * dtype.itemsize)


#: First byte of a unit's vector row: its non-zero entries (dimensions, then values) or the whole vector.
SPARSE_VECTOR, DENSE_VECTOR = b"s", b"d"


def unit_vector_rows(vectors: np.ndarray | SparseVectors) -> list[tuple[int, bytes]]:
    """(unit position, stored row) of every unit: its non-zero entries (uint16 dimensions, float32 values)
    when that is smaller than the whole float32 vector, else the whole vector."""
    dense = vectors.to_dense() if isinstance(vectors, SparseVectors) else np.ascontiguousarray(vectors, dtype=np.float32)
    out = []
    for position, row in enumerate(dense):
        nonzero = np.flatnonzero(row.view(np.uint32))
        if len(nonzero) * 6 < row.nbytes and row.shape[0] <= np.iinfo(np.uint16).max + 1:
            out.append((position, SPARSE_VECTOR + nonzero.astype(np.uint16).tobytes() + row[nonzero].tobytes()))
        else:
            out.append((position, DENSE_VECTOR + row.tobytes()))
    return out


def unit_vector(data: bytes, dim: int) -> np.ndarray:
    """The float32 vector (``dim``,) of a stored unit row; ValueError when damaged."""
    data = bytes(data)
    body = data[1:]
    if data[:1] == DENSE_VECTOR and len(body) == 4 * dim:
        return np.frombuffer(body, dtype=np.float32).copy()
    if data[:1] == SPARSE_VECTOR and len(body) % 6 == 0:
        count = len(body) // 6
        dims = np.frombuffer(body, dtype=np.uint16, count=count)
        if count and int(dims.max()) >= dim:
            raise ValueError(f"vector row names dimension {int(dims.max())} of {dim}")
        vector = np.zeros(dim, dtype=np.float32)
        vector[dims] = np.frombuffer(body, dtype=np.float32, offset=2 * count)
        return vector
    raise ValueError(f"vector row of {len(data)} bytes for {dim} dimensions")


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
    sparse = kinds == SPARSE_VECTOR[0]
    if not (dense | sparse).all() or (lengths[dense] != 1 + 4 * dim).any() or ((lengths[sparse] - 1) % 6).any():
        raise ValueError(f"a vector row of the wrong kind or size for {dim} dimensions")
    if dense.any():
        at = starts[dense][:, None] + 1 + np.arange(4 * dim)
        out[dense] = np.ascontiguousarray(joined[at]).view("<f4").reshape(-1, dim) @ query
    entries = (lengths[sparse] - 1) // 6
    if entries.sum():
        first = starts[sparse] + 1
        within = np.arange(int(entries.sum())) - np.repeat(np.cumsum(entries) - entries, entries)
        at = np.repeat(first, entries) + 2 * within
        dims = joined[at].astype(np.int64) | (joined[at + 1].astype(np.int64) << 8)
        if int(dims.max()) >= dim:
            raise ValueError(f"vector row names dimension {int(dims.max())} of {dim}")
        at = np.repeat(first + 2 * entries, entries) + 4 * within
        values = np.ascontiguousarray(joined[at[:, None] + np.arange(4)]).view("<f4").reshape(-1)
        products = query[dims] * values
        held = entries > 0
        sums = np.add.reduceat(products, (np.cumsum(entries) - entries)[held])
        out[np.flatnonzero(sparse)[held]] = sums
    return out
