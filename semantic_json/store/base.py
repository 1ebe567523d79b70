"""What a SemanticRepository needs from a persistent store, and what both stores share.

A location is a path (the embedded default: one SQLite file) or a ``postgresql://`` URL (a shared server
index with pgvector). Both stores hold the same things (per document its search record and the compiled
document, see records.py; caller info; meta strings; the key vocabulary the records' postings are numbered
by) and load them back bit for bit, so search, which runs in memory over what the store loads, gives the
same results from either. Opening reads the search records only; a document is read when asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..errors import SemanticJsonError
from ..model import SemanticDocument
from .records import SearchRecord, StoredSource, StoredVectors, UnitLayout, decode_record, decode_source

#: URL schemes that name a PostgreSQL server index (the forms libpq and psycopg accept).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: Version of the stores' layout (tables and record format); an index of another version is refused with
#: IndexVersionError. 2: search records and documents apart, a key vocabulary; 1: documents as JSON.
STORE_SCHEMA_VERSION = 2


class IndexFileError(SemanticJsonError, ValueError):
    """The index file is not a semantic-json-transport index, is damaged, or is of another version."""


class ReadOnlyIndexError(IndexFileError):
    """A write (add, remove, note) to an index opened read-only."""


class DamagedDocumentError(IndexFileError):
    """A document's stored bytes cannot be read back (found when the document is first read)."""

    def __init__(self, where: str | Path, document_id: str, why: str):
        super().__init__(f"{where}: document {document_id!r} is damaged ({why}); {REBUILD_HINT}")
        self.document_id = document_id
        self.why = why


class IndexVersionError(IndexFileError):
    """The index was written by a version of this package with another layout: it must be built again."""


#: What a damaged file's error message tells the user to do.
REBUILD_HINT = "rebuild it: `sjt ingest PDFS --index NEW_FILE` into a new file (the PDFs are the source)"


def document_changed(where: str | Path, document_id: str) -> IndexFileError:
    """The error for a document that another writer replaced or removed after the index was opened."""
    return IndexFileError(f"{where}: document {document_id!r} was replaced or removed since the index was "
                          "opened; open the index again")


def version_error(where: str | Path, version: str) -> IndexVersionError:
    """The error for an index of layout ``version``, saying how to get one this version reads."""
    return IndexVersionError(
        f"{where}: index layout version {version}; this version of semantic-json-transport reads version "
        f"{STORE_SCHEMA_VERSION} only: re-ingest the PDFs into a new index (`sjt ingest PDFS --index NEW_INDEX`)"
    )


@dataclass
class StoredRecord:
    """One document as opening an index reads it: its search record, caller info and fingerprint."""

    document_id: str
    record: SearchRecord
    info: dict[str, Any]
    fingerprint: str


class StoredVocabulary:
    """A store's key vocabulary (lexical key → id) as a KeyVocabulary (semantic_json.lexical): a key is looked
    up in the store when first asked for and remembered; ``ids`` adds the keys the store lacks.

    ``lookup(keys)`` and ``create(keys)`` give the ids the store holds for ``keys`` (``create`` after adding
    the missing ones); a key absent from ``lookup``'s answer is not in the store.
    """

    def __init__(self, lookup: Callable[[Sequence[str]], dict[str, int]],
                 create: Callable[[Sequence[str]], dict[str, int]]) -> None:
        self._lookup = lookup
        self._create = create
        self._known: dict[str, int | None] = {}

    def get(self, key: str, default: int | None = None) -> int | None:
        if key not in self._known:
            found = self._lookup([key]).get(key)
            self._known[key] = None if found is None else np.int32(found)
        found = self._known[key]
        return default if found is None else found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and self.get(key) is not None

    def __getitem__(self, key: str) -> int:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def ids(self, keys: Sequence[str]) -> list[int]:
        """The id of every key of ``keys``, adding to the store those it lacks."""
        created = {key: np.int32(key_id) for key, key_id in self._create(list(keys)).items()}
        # Only keys asked for before are remembered (those asked for in vain now have an id): adding
        # documents never grows what a search remembers.
        self._known.update((key, key_id) for key, key_id in created.items() if key in self._known)
        return [created[key] for key in keys]


def damage(exc: Exception) -> str:
    """What is wrong with a stored row, from the error that reading it raised (one line)."""
    return f"{exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"


def read_source(where: str | Path, document_id: str, row: tuple[bytes, str] | None, layout: UnitLayout,
                fingerprint: str) -> StoredSource:
    """The stored document of a row (its bytes, its fingerprint) as the search record read at open
    (``layout``, ``fingerprint``) describes it; IndexFileError when it changed since, DamagedDocumentError
    when it cannot be read."""
    if row is None or row[1] != fingerprint:
        raise document_changed(where, document_id)
    try:
        return decode_source(row[0], layout)
    except Exception as exc:  # zlib, JSON, pydantic or integrity errors
        raise DamagedDocumentError(where, document_id, damage(exc)) from None


def whole_document(where: str | Path, source: StoredSource) -> SemanticDocument:
    """The whole compiled document of a stored one; DamagedDocumentError when it cannot be read."""
    try:
        return source.document()
    except Exception as exc:  # JSON, pydantic or integrity errors
        raise DamagedDocumentError(where, source.document_id, damage(exc)) from None


def read_vectors(where: str | Path, rows: Iterable[tuple[str, int, str, bytes]],
                 held: Mapping[str, tuple[StoredVectors, str]], dimensions: Sequence[int]
                 ) -> Iterator[tuple[str, int, np.ndarray, np.ndarray]]:
    """(document id, dimension, unit positions, values) of the stored vector ``rows`` (as vector_entries
    gives them) of the documents ``held`` (document id → its StoredVectors and fingerprint, as read at
    open); rows of other documents are passed over. IndexFileError when a document changed since it was
    read, DamagedDocumentError when its row of one of ``dimensions`` is damaged or missing."""
    seen: set[tuple[str, int]] = set()
    for document_id, dimension, fingerprint, data in rows:
        found = held.get(document_id)
        if found is None:
            continue
        vectors, expected = found
        if fingerprint != expected:
            raise document_changed(where, document_id)
        try:
            positions, values = vectors.entries_of(dimension, data)
        except ValueError as exc:
            raise DamagedDocumentError(where, document_id, damage(exc)) from None
        seen.add((document_id, dimension))
        yield document_id, dimension, positions, values
    for document_id, (vectors, _) in held.items():
        for dimension in dimensions:
            if vectors.counts[dimension] and (document_id, dimension) not in seen:
                raise DamagedDocumentError(where, document_id, f"its vectors of dimension {dimension} are missing")


def read_records(rows: Iterable[tuple[str, int, int, bytes, Any, str, int]],
                 parse_info: Callable[[str, Any], dict[str, Any]]) -> tuple[list[StoredRecord], dict[str, str]]:
    """The readable documents of ``rows`` (document id, units, dim, search record bytes, info, fingerprint,
    order of addition), in the order they were added, and the damaged ones (document id → what is wrong),
    which are left out so that the rest of the index stays usable. ``parse_info`` turns a row's info into a
    dict or raises. (Rows are put in order here: a database sorting them would copy every record.)"""
    out: list[StoredRecord] = []
    damaged: dict[str, str] = {}
    for document_id, n_units, dim, record, info, fingerprint, _seq in sorted(rows, key=lambda row: row[6]):
        try:
            decoded = decode_record(document_id, record, n_units, dim)
            parsed_info = parse_info(document_id, info)
        except Exception as exc:  # zlib, JSON, shape or info errors: the row is damaged
            damaged[document_id] = damage(exc)
            continue
        out.append(StoredRecord(document_id, decoded, parsed_info, fingerprint))
    return out, damaged


class IndexStore(Protocol):
    """Documents and vectors kept outside the process; every write is one transaction per document."""

    #: Where the store lives: the file path, or the server URL without its password.
    path: Path | str

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def bind_embedder(self, name: str, dim: int) -> None: ...

    def vocabulary(self) -> StoredVocabulary: ...

    def fingerprint(self, document_id: str) -> str | None: ...

    def put(self, doc: SemanticDocument, record: SearchRecord, info: dict[str, Any] | None = None,
            fingerprint: str | None = None) -> SearchRecord: ...

    def delete(self, document_id: str) -> bool: ...

    def info(self, document_id: str) -> dict[str, Any] | None: ...

    def infos(self) -> dict[str, dict[str, Any]]: ...

    def load(self) -> tuple[list[StoredRecord], dict[str, str]]: ...

    def vector_entries(self, dimensions: Sequence[int]) -> list[tuple[str, int, str, bytes]]: ...

    def source(self, document_id: str, layout: UnitLayout, fingerprint: str) -> StoredSource: ...

    def size_bytes(self) -> int: ...

    def close(self) -> None: ...


def is_server_url(location: str | Path) -> bool:
    """True when ``location`` names a PostgreSQL server index rather than a file."""
    return isinstance(location, str) and location.lower().startswith(POSTGRES_SCHEMES)
