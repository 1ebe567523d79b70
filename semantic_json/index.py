"""An anchor index in memory: one float32 embedding matrix plus a row → (document, unit) map.

What SemanticRepository.index returns (every anchor vector, read from the engine) and from_parts() takes: for
saving, exporting and inspecting an index's vectors. Search itself reads the vectors of its candidates from
the engine (semantic_json.search.candidates).

Vectors are stored transposed (dim × capacity, C order), so each embedding dimension is one contiguous
row. A query whose vector is mostly zeros (the LiteEmbedder's hashed features) is scored from only its
non-zero dimensions; a dense query (a neural model) uses one matrix-vector product. Either way the score is
the dot product, i.e. the cosine for L2-normalised vectors.

The state needed to save and restore an index is `embedder_name`, `dim`, `matrix` (rows × dim float32)
and `keys()` (row → (document_id, unit_position)); `VectorIndex.from_arrays` rebuilds one from them.
SparseVectors holds a matrix by its non-zero entries (the LiteEmbedder's hashed vectors are mostly zeros).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from .errors import EmbedderMismatchError

#: Initial number of rows allocated.
INITIAL_CAPACITY = 1024
#: Capacity grows by this factor when full (bounds unused rows to a quarter of the matrix).
GROWTH_FACTOR = 1.25
#: A query with at most this fraction of non-zero dimensions is scored from those dimensions only
#: (summing a few contiguous rows beats a full matrix-vector product until about half are used).
SPARSE_QUERY_MAX_FRACTION = 0.5
#: Decimals that scores are rounded to, so that ranking and JSON are identical across BLAS builds.
SCORE_DECIMALS = 6
#: Extra rows kept below the cut-off score before rounding (float32 summation-order differences).
ROUNDING_MARGIN = 1e-5


@dataclass
class SparseVectors:
    """A (rows, dim) float32 matrix by its non-zero entries, dimension by dimension (the order of the index's
    transposed store): how many entries each dimension has, their rows and values.

    Exact: an entry is kept unless its bits are all zero, so to_dense() gives back the same bits (-0.0
    included).
    """

    counts: np.ndarray  # entries per dimension, shape (dim,)
    rows: np.ndarray  # row of each entry, dimension-major
    values: np.ndarray  # float32 value of each entry
    n_rows: int

    @classmethod
    def from_dense(cls, matrix: np.ndarray) -> SparseVectors:
        """The non-zero entries of a (rows, dim) float32 matrix."""
        matrix = np.ascontiguousarray(matrix, dtype=np.float32)
        columns = np.ascontiguousarray(matrix.T)
        dims, rows = np.nonzero(columns.view(np.uint32))
        return cls(np.bincount(dims, minlength=matrix.shape[1]), rows, columns[dims, rows], matrix.shape[0])

    @property
    def dim(self) -> int:
        return len(self.counts)

    def __len__(self) -> int:
        return self.n_rows

    def to_dense(self) -> np.ndarray:
        """The (rows, dim) float32 matrix."""
        matrix = np.zeros((self.n_rows, self.dim), dtype=np.float32)
        matrix[self.rows, np.repeat(np.arange(self.dim), self.counts)] = self.values
        return matrix


class VectorIndex:
    """Append/remove/search over L2-normalised float32 vectors keyed by (document_id, unit_position)."""

    def __init__(self, dim: int, embedder_name: str = "") -> None:
        self.dim = int(dim)
        self.embedder_name = embedder_name
        self._columns = np.zeros((self.dim, INITIAL_CAPACITY), dtype=np.float32)
        self._doc_slot = np.zeros(INITIAL_CAPACITY, dtype=np.int32)
        self._unit_pos = np.zeros(INITIAL_CAPACITY, dtype=np.int32)
        self._size = 0
        self._slot_of: dict[str, int] = {}
        self._doc_of_slot: list[str | None] = []

    # ------------------------------------------------------------------ state

    def __len__(self) -> int:
        return self._size

    @property
    def matrix(self) -> np.ndarray:
        """The stored vectors as a (rows, dim) float32 view (row i belongs to keys()[i])."""
        return self._columns[:, : self._size].T

    @property
    def nbytes(self) -> int:
        """Bytes allocated for vectors and row keys, spare capacity included."""
        return self._columns.nbytes + self._doc_slot.nbytes + self._unit_pos.nbytes

    def keys(self) -> list[tuple[str, int]]:
        """(document_id, unit_position) of every row, in row order."""
        docs = self._doc_of_slot
        return [(docs[s], int(u)) for s, u in zip(self._doc_slot[: self._size], self._unit_pos[: self._size])]  # type: ignore[misc]

    def document_ids(self) -> list[str]:
        """Documents with at least one row, in insertion order."""
        return [d for d in self._doc_of_slot if d is not None]

    @classmethod
    def from_arrays(cls, matrix: np.ndarray, keys: Sequence[tuple[str, int]], embedder_name: str = "") -> VectorIndex:
        """An index holding `matrix` (rows × dim) with row keys `keys` (as saved from `matrix` / `keys()`)."""
        matrix = np.asarray(matrix, dtype=np.float32)
        index = cls(matrix.shape[1], embedder_name)
        by_doc: dict[str, list[int]] = {}
        for row, (document_id, _) in enumerate(keys):
            by_doc.setdefault(document_id, []).append(row)
        for document_id, rows in by_doc.items():
            index.add(document_id, [keys[r][1] for r in rows], matrix[rows])
        return index

    # --------------------------------------------------------------- changes

    def _reserve(self, extra: int) -> None:
        needed = self._size + extra
        capacity = self._columns.shape[1]
        if needed <= capacity:
            return
        while capacity < needed:
            capacity = int(capacity * GROWTH_FACTOR) + 1
        columns = np.zeros((self.dim, capacity), dtype=np.float32)
        columns[:, : self._size] = self._columns[:, : self._size]
        self._columns = columns
        for name in ("_doc_slot", "_unit_pos"):
            old = getattr(self, name)
            new = np.zeros(capacity, dtype=np.int32)
            new[: self._size] = old[: self._size]
            setattr(self, name, new)

    def add(self, document_id: str, unit_positions: Sequence[int], vectors: np.ndarray) -> None:
        """Append one row per unit of `document_id`; `vectors` has shape (len(unit_positions), dim)."""
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.ndim != 2 or vectors.shape != (len(unit_positions), self.dim):
            raise EmbedderMismatchError(
                f"expected vectors of shape ({len(unit_positions)}, {self.dim}) for document {document_id!r}, "
                f"got {vectors.shape}; was the repository built with another embedder?"
            )
        if document_id in self._slot_of:
            self.remove(document_id)
        self._reserve(len(unit_positions))
        self._columns[:, self._size : self._size + len(unit_positions)] = vectors.T
        self._place(document_id, np.asarray(unit_positions, dtype=np.int32))

    def _place(self, document_id: str, unit_positions: np.ndarray) -> None:
        """Key the rows just written after the last one (space reserved) to `document_id`'s units."""
        slot = len(self._doc_of_slot)
        self._slot_of[document_id] = slot
        self._doc_of_slot.append(document_id)
        end = self._size + len(unit_positions)
        self._doc_slot[self._size : end] = slot
        self._unit_pos[self._size : end] = unit_positions
        self._size = end

    def remove(self, document_id: str) -> int:
        """Drop every row of `document_id`; returns the number of rows removed (0 if unknown)."""
        slot = self._slot_of.pop(document_id, None)
        if slot is None:
            return 0
        self._doc_of_slot[slot] = None
        keep = np.flatnonzero(self._doc_slot[: self._size] != slot)
        removed = self._size - len(keep)
        if removed:
            self._columns[:, : len(keep)] = self._columns[:, keep]
            self._doc_slot[: len(keep)] = self._doc_slot[keep]
            self._unit_pos[: len(keep)] = self._unit_pos[keep]
            self._size = len(keep)
        return removed

    # ---------------------------------------------------------------- search

    def scores(self, query: np.ndarray) -> np.ndarray:
        """Dot product of `query` (dim,) with every row, float32, shape (rows,)."""
        query = np.asarray(query, dtype=np.float32).reshape(-1)
        if query.shape[0] != self.dim:
            raise EmbedderMismatchError(f"query vector has {query.shape[0]} dimensions, the index has {self.dim}")
        nonzero = np.flatnonzero(query)
        dense = len(nonzero) > SPARSE_QUERY_MAX_FRACTION * self.dim
        columns = self._columns[:, : self._size]
        if dense:
            return query @ columns
        # Sum only the dimensions the query uses; each is one contiguous row of the transposed store.
        scores = np.zeros(self._size, dtype=np.float32)
        scratch = np.empty(self._size, dtype=np.float32)
        for dimension in nonzero:
            np.multiply(columns[dimension], query[dimension], out=scratch)
            scores += scratch
        return scores

    def search(self, query: np.ndarray, top_n: int, min_score: float = 0.0) -> list[tuple[str, int, float]]:
        """Up to `top_n` rows scoring above `min_score`, as (document_id, unit_position, score), best first.

        Ties are broken by row order, so the result does not depend on partition order.
        """
        if self._size == 0 or top_n <= 0:
            return []
        return self.best_rows(self.scores(query), top_n, min_score)

    def best_rows(self, raw: np.ndarray, top_n: int, min_score: float = 0.0,
                  document_ids: Iterable[str] | None = None) -> list[tuple[str, int, float]]:
        """``search`` over scores already computed by ``scores()``, optionally of `document_ids` only."""
        if self._size == 0 or top_n <= 0:
            return []
        eligible = raw > min_score
        if document_ids is not None:
            slots = [self._slot_of[d] for d in document_ids if d in self._slot_of]
            eligible &= np.isin(self._doc_slot[: self._size], slots)
        candidates = np.flatnonzero(eligible)
        if len(candidates) > top_n:
            best = candidates[np.argpartition(-raw[candidates], top_n - 1)[:top_n]]
            # keep every row within rounding of the weakest kept score, so rounding cannot reorder the cut
            candidates = candidates[raw[candidates] >= raw[best].min() - ROUNDING_MARGIN]
        scores = np.round(raw[candidates].astype(np.float64), SCORE_DECIMALS)
        order = np.lexsort((candidates, -scores))[:top_n]
        docs = self._doc_of_slot
        return [
            (docs[self._doc_slot[candidates[i]]], int(self._unit_pos[candidates[i]]), float(scores[i]))  # type: ignore[misc]
            for i in order
        ]

    def document_rows(self, document_id: str) -> np.ndarray:
        """Row numbers of `document_id`'s units, indexed by unit position (empty for an unknown document)."""
        slot = self._slot_of.get(document_id)
        if slot is None:
            return np.zeros(0, dtype=np.int64)
        # A document's rows are one block, and blocks lie in slot order: add() appends a new slot's rows
        # after all others and remove() closes gaps in order. So two binary searches find them.
        slots = self._doc_slot[: self._size]
        start = int(slots.searchsorted(np.int32(slot), side="left"))
        end = int(slots.searchsorted(np.int32(slot), side="right"))
        ordered = np.empty(end - start, dtype=np.int64)
        ordered[self._unit_pos[start:end]] = np.arange(start, end)
        return ordered

    def rows_of(self, document_ids: Iterable[str]) -> int:
        """Number of rows held for `document_ids`."""
        slots = [self._slot_of[d] for d in document_ids if d in self._slot_of]
        return int(np.isin(self._doc_slot[: self._size], slots).sum()) if slots else 0
