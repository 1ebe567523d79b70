"""Named NumPy arrays packed into one byte string and read back as views: offsets aligned, small integer arrays
in the smallest unsigned type, float arrays with few distinct values as one-byte codes, chosen arrays
zlib-compressed. The format of a search record and of a stored document's parts (records.py)."""

from __future__ import annotations

import json
import struct
import zlib
from collections.abc import Sequence
from typing import Any

import numpy as np



#: First bytes of a search record and of a stored document (the format's version is the last byte).
RECORD_MAGIC = b"SJTR\x02"


#: zlib level for the document JSON and the compressed arrays of a search record.
COMPRESSION_LEVEL = 6


#: Array offsets inside a record are multiples of this (NumPy reads aligned arrays faster).
ALIGNMENT = 8


#: A float32 array with at most this many distinct values is stored as one-byte codes into a table.
MAX_TABLE_VALUES = 256


def smallest_uint(values: np.ndarray) -> np.ndarray:
    """``values`` (non-negative integers) in the narrowest unsigned dtype that holds them."""
    top = int(values.max()) if len(values) else 0
    for dtype in (np.uint8, np.uint16, np.uint32):
        if top <= np.iinfo(dtype).max:
            return values.astype(dtype)
    return values.astype(np.uint64)


def pack_arrays(arrays: dict[str, np.ndarray], meta: dict[str, Any], compressed_names: frozenset[str] = frozenset(),
          magic: bytes = RECORD_MAGIC) -> bytes:
    """One record: magic, header length, JSON header (meta and where each array lies), aligned array bytes
    (those named in ``compressed_names`` zlib-compressed)."""
    table = []
    chunks: list[bytes] = []
    offset = 0
    for name, array in arrays.items():
        array = np.ascontiguousarray(array)
        data = array.tobytes()
        compressed = name in compressed_names
        if compressed:
            data = zlib.compress(data, COMPRESSION_LEVEL)
        pad = -offset % ALIGNMENT
        chunks.append(b"\0" * pad)
        offset += pad
        table.append([name, array.dtype.str, list(array.shape), offset, len(data), compressed])
        chunks.append(data)
        offset += len(data)
    header = json.dumps({"meta": meta, "arrays": table}, ensure_ascii=False).encode("utf-8")
    start = len(magic) + 4 + len(header)
    lead = -start % ALIGNMENT
    return magic + struct.pack("<I", len(header) + lead) + header + b" " * lead + b"".join(chunks)


def unpack_arrays(record: bytes, magic: bytes = RECORD_MAGIC) -> tuple[_Arrays, dict[str, Any]]:
    """The arrays and meta of a record written by _pack (a compressed array is inflated when first read);
    ValueError for anything else."""
    if not record.startswith(magic):
        raise ValueError("not a record of this version")
    (size,) = struct.unpack_from("<I", record, len(magic))
    start = len(magic) + 4
    if start + size > len(record):
        raise ValueError("search record truncated in its header")
    header = json.loads(record[start : start + size])
    base = start + size
    view = memoryview(record)
    arrays = _Arrays()
    for name, dtype, shape, offset, length, compressed in header["arrays"]:
        data = view[base + offset : base + offset + length]
        if len(data) != length:
            raise ValueError(f"search record truncated in array {name!r}")
        if compressed:
            arrays.packed[name] = (data, np.dtype(dtype), shape)
        else:
            arrays[name] = np.frombuffer(data, dtype=np.dtype(dtype)).reshape(shape)
    return arrays, header["meta"]


class _Arrays(dict):
    """A record's arrays by name; a compressed one is inflated when first read (``packed`` until then)."""

    def __init__(self) -> None:
        super().__init__()
        self.packed: dict[str, tuple[memoryview, np.dtype, list[int]]] = {}

    def __missing__(self, name: str) -> np.ndarray:
        data, dtype, shape = self.packed.pop(name)  # KeyError for a name the record lacks
        array = self[name] = np.frombuffer(zlib.decompress(data), dtype=dtype).reshape(shape)
        return array

    def __contains__(self, name: object) -> bool:
        return super().__contains__(name) or name in self.packed

    def names(self) -> list[str]:
        """Every array's name, inflated or not."""
        return [*self, *self.packed]


def pack_floats(name: str, values: np.ndarray, arrays: dict[str, np.ndarray]) -> None:
    """float32 ``values`` as one-byte codes into a table when they take few distinct values, else raw."""
    values = np.ascontiguousarray(values, dtype=np.float32)
    table, codes = np.unique(values.view(np.uint32), return_inverse=True)  # by bits: exact, -0.0 kept apart
    if len(table) <= MAX_TABLE_VALUES:
        arrays[f"{name}.table"] = table.view(np.float32)
        arrays[f"{name}.codes"] = codes.astype(np.uint8).reshape(-1)
    else:
        arrays[name] = values


def unpack_floats(name: str, arrays: dict[str, np.ndarray]) -> np.ndarray:
    if name in arrays:
        return np.array(arrays[name], dtype=np.float32)  # a copy: the record's bytes need not stay alive
    return arrays[f"{name}.table"][arrays[f"{name}.codes"]]


def pack_lists(name: str, lists: Sequence[Sequence[str]], names: dict[str, int], arrays: dict[str, np.ndarray]) -> None:
    """Lists of strings as offsets into one array of ids into ``names`` (shared by the record)."""
    offsets = np.zeros(len(lists) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(items) for items in lists])
    ids = np.fromiter((names.setdefault(item, len(names)) for items in lists for item in items), dtype=np.int64,
                      count=int(offsets[-1]))
    arrays[f"{name}_offsets"] = smallest_uint(offsets)
    arrays[f"{name}_ids"] = smallest_uint(ids)
