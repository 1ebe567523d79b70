"""The rows of the engine's tables for one document, and reading them back.

The engine (a store's tables, store/base.py) holds a document's postings by key (one row per key and
document: the units that hold the key and their field weights), its term counts by key (the document
prior), and its anchor vectors in one block (one row per document). A query reads the rows of its own keys
and the vector blocks of the documents it routes to. What a document added to the key statistics is kept
with it (DocumentKeys), so that removing or replacing it takes exactly that back.
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
#: First byte of a document's vector block: its units' non-zero entries (after BLOCK_PAD, each unit's first
#: entry as uint32 and one past the last; the float32 values; their dimensions as uint8 when the embedding has
#: at most 256 dimensions, else uint16), or the whole float32 matrix (one row per unit).
SPARSE_BYTE, SPARSE_VECTOR, DENSE_VECTOR = b"b", b"s", b"d"
#: Bytes after a block's first, so that its arrays start on 4-byte boundaries.
BLOCK_PAD = b"\x00\x00\x00"
#: The largest entry position a 32-bit index holds (block_dots gathers by 32-bit positions below it).
INT32_MAX = 2**31 - 1


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


def document_entries(rows: Sequence[bytes], n_units: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every entry of a document's postings ``rows`` at once (what posting_entries gives of each row, one
    after the other): unit positions (int64), float32 weights, and each row's number of entries; ValueError
    when a row is damaged."""
    dtype = unit_dtype(n_units)
    size = dtype.itemsize
    units: list[bytes] = []
    weights: list[bytes] = []
    counts: list[int] = []
    for data in rows:
        kind, length = data[:1], len(data)
        if kind == ONE_WEIGHT and length > 5 and (length - 5) % size == 0:
            count = (length - 5) // size
            units.append(data[5:])
            weights.append(bytes(data[1:5]) * count)  # the row's one weight, once an entry
        elif kind == WEIGHT_EACH and (length - 1) % (size + 4) == 0:
            count = (length - 1) // (size + 4)
            units.append(data[1 : 1 + count * size])
            weights.append(data[1 + count * size :])
        else:
            raise ValueError(f"postings row of {length} bytes is not a whole number of entries")
        counts.append(count)
    # joined, each array starts where a bytes object's data does: aligned for its dtype
    found = np.frombuffer(b"".join(units), dtype=dtype)
    if len(found) and int(found.max()) >= n_units:
        raise ValueError("postings row names units past the document's end")
    return found.astype(np.int64), np.frombuffer(b"".join(weights), dtype=np.float32), np.asarray(counts, dtype=np.int64)


def pack_vectors(vectors: np.ndarray | SparseVectors) -> bytes:
    """One document's unit vectors as one stored block (see SPARSE_BYTE): every unit's non-zero entries when
    that is smaller than the whole float32 matrix, else the matrix. A search reads a routed document's block
    in one read and scores the units it needs from it."""
    dense = vectors.to_dense() if isinstance(vectors, SparseVectors) else np.ascontiguousarray(vectors, dtype=np.float32)
    dense = dense if dense.ndim == 2 else dense.reshape(len(dense), -1)
    dim = dense.shape[1]
    units, dims = np.nonzero(dense.view(np.uint32))
    kind, dims_dtype = (SPARSE_BYTE, np.uint8) if dim <= 256 else (SPARSE_VECTOR, np.uint16)
    width = np.dtype(dims_dtype).itemsize + 4
    if len(units) * width + 4 * (len(dense) + 1) >= dense.nbytes or dim > np.iinfo(np.uint16).max + 1:
        return DENSE_VECTOR + BLOCK_PAD + dense.tobytes()
    starts = np.searchsorted(units, np.arange(len(dense) + 1)).astype("<u4")
    # float32 values before the dimensions: every array of the block starts on a 4-byte boundary
    return kind + BLOCK_PAD + starts.tobytes() + dense[units, dims].astype("<f4").tobytes() + dims.astype(dims_dtype).tobytes()


def _block_arrays(data: bytes, n_units: int, dim: int) -> tuple[np.ndarray, np.ndarray, np.ndarray] | np.ndarray:
    """A stored block's float32 matrix (dense), or its (unit starts, values, dimensions) (sparse); ValueError
    when damaged."""
    kind, head = bytes(data[:1]), len(BLOCK_PAD) + 1
    if kind == DENSE_VECTOR:
        if len(data) != head + 4 * n_units * dim:
            raise ValueError(f"vector block of {len(data)} bytes for {n_units} units of {dim} dimensions")
        return np.frombuffer(data, dtype="<f4", offset=head).reshape(n_units, dim)
    width = {SPARSE_BYTE: 1, SPARSE_VECTOR: 2}.get(kind)
    if width is None or len(data) < head + 4 * (n_units + 1):
        raise ValueError(f"vector block of {len(data)} bytes for {n_units} units")
    starts = np.frombuffer(data, dtype="<u4", count=n_units + 1, offset=head).astype(np.int64)
    entries = int(starts[-1])
    if starts[0] != 0 or (np.diff(starts) < 0).any() or len(data) != head + 4 * (n_units + 1) + (4 + width) * entries:
        raise ValueError(f"vector block of {len(data)} bytes does not hold its {n_units} units' entries")
    at = head + 4 * (n_units + 1)
    values = np.frombuffer(data, dtype="<f4", count=entries, offset=at)
    dims = np.frombuffer(data, dtype=np.uint8 if width == 1 else "<u2", count=entries, offset=at + 4 * entries)
    return starts, values, dims


def block_vectors(data: bytes, n_units: int, dim: int) -> np.ndarray:
    """The float32 matrix (``n_units``, ``dim``) of a stored vector block; ValueError when damaged."""
    arrays = _block_arrays(data, n_units, dim)
    if isinstance(arrays, np.ndarray):
        return arrays.copy()
    starts, values, dims = arrays
    if len(dims) and int(dims.max()) >= dim:
        raise ValueError(f"vector block names dimension {int(dims.max())} of {dim}")
    matrix = np.zeros((n_units, dim), dtype=np.float32)
    matrix[np.repeat(np.arange(n_units), np.diff(starts)), dims.astype(np.int64)] = values
    return matrix


def block_dots(data: bytes, n_units: int, query: np.ndarray, units: np.ndarray | None = None) -> np.ndarray:
    """The dot products (float32) of the float32 vector ``query`` with the vectors of ``units`` (positions;
    all when None) of a stored vector block, one NumPy pass; ValueError when damaged."""
    dim = len(query)
    arrays = _block_arrays(data, n_units, dim)
    wanted = np.arange(n_units) if units is None else np.asarray(units, dtype=np.int64)
    if len(wanted) and (int(wanted.min()) < 0 or int(wanted.max()) >= n_units):
        raise ValueError(f"a unit outside the document's {n_units}")
    if isinstance(arrays, np.ndarray):
        return arrays[wanted] @ query
    starts, values, dims = arrays
    first, counts = starts[wanted], starts[wanted + 1] - starts[wanted]
    out = np.zeros(len(wanted), dtype=np.float32)
    total = int(counts.sum())
    if not total:
        return out
    offsets = np.cumsum(counts) - counts
    # the entries of the wanted units, gathered by 32-bit positions (half the bytes of 64-bit ones to move)
    at_dtype = np.int32 if len(values) <= INT32_MAX else np.int64
    at = np.repeat((first - offsets).astype(at_dtype), counts) + np.arange(total, dtype=at_dtype)
    picked = dims.take(at).astype(np.intp)
    if (dims.dtype.itemsize > 1 or dim < 256) and int(picked.max()) >= dim:  # uint8 dimensions of 256 fit always
        raise ValueError(f"vector block names dimension {int(picked.max())} of {dim}")
    held = counts > 0
    out[held] = np.add.reduceat(query[picked] * values.take(at), offsets[held])
    return out
