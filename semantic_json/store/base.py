"""What a SemanticRepository needs from a persistent store, and what both stores share.

A location is a path (the embedded default: one SQLite file) or a ``postgresql://`` URL (a shared server
index). Both stores hold the same things and are the search engine's stage 1 (semantic_json.search):

- per document a row: its search record (unit layout and BM25 lengths, read when a search needs that
  document), the compiled document (read when a search returns one of its regions), caller info, and
  what it added to the key statistics (so that removing it takes that back);
- the engine's tables: postings by (key, document), the document prior's term counts by (key, document),
  per key how many units and documents hold it, the corpus totals, and each document's anchor vectors in
  one block;
- the key vocabulary the postings are numbered by, and meta strings.

Opening an index reads one small row per document; a search reads the rows of its own keys, the vector
blocks and the records of the documents it routes to. A process's memory is then what its
searches hold, not the corpus. Both stores return the same bytes, so the same questions give the same
regions from either.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
import hashlib
import json
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from ..errors import SemanticJsonError
from ..model import SemanticDocument
from .engine_rows import DocumentKeys, block_vectors
from .records import SearchRecord, StoredSource, UnitLayout, decode_record, decode_source

#: URL schemes that name a PostgreSQL server index (the forms libpq and psycopg accept).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: Version of the stores' layout (tables and record format); an index of another version is refused with
#: IndexVersionError. 5: a document's vectors are one block (engine_rows.pack_vectors), read in one go by a
#: search that routes to it, and what opening needs of its info (profile keys, filter fields) is kept
#: worked out (``derived``: opening re-tokenises nothing); 4: periods are keyed as canonical terms
#: (textnorm.PERIOD_RE: "2025.9월말" and "2025년 9월 말" are one key); 3: the engine's tables (postings by key, term counts, key statistics,
#: vectors by unit) beside each document's record; 2: search records read whole at open; 1: documents as JSON.
STORE_SCHEMA_VERSION = 5


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


class DamagedIndexError(IndexFileError):
    """The engine cannot read the index file itself (SQLite's own error on a damaged page): damage, unlike an
    error of the connection or the server, which says nothing about the documents."""


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
class StoredDocument:
    """One document as opening an index reads it: its id, its number in the engine's tables (seq), units,
    embedding dimension, caller info and fingerprint. Its search record is read when a search needs it."""

    document_id: str
    seq: int
    n_units: int
    dim: int
    #: The document's total term count (the document prior's length).
    length: int
    info: dict[str, Any]
    fingerprint: str
    #: What was worked out of the info when the document was added, as JSON: its profile keys and filter fields
    #: (repository._kept; "": none kept).
    derived: str = ""


@dataclass(frozen=True)
class Totals:
    """What BM25 and the document prior read of the whole corpus: units, the sum of their field-weighted
    lengths, documents, and the sum of the documents' term counts. Kept by the store, updated with every
    document written or removed."""

    units: int = 0
    length: float = 0.0
    documents: int = 0
    document_length: int = 0

    @classmethod
    def of(cls, record: SearchRecord) -> Totals:
        """What one document adds."""
        return cls(record.n_units, float(np.asarray(record.postings.lengths, dtype=np.float64).sum()), 1,
                   int(record.counts.length))

    def plus(self, other: Totals, sign: int = 1) -> Totals:
        return Totals(self.units + sign * other.units, self.length + sign * other.length,
                      self.documents + sign * other.documents, self.document_length + sign * other.document_length)

    def dump(self) -> str:
        return json.dumps([self.units, self.length, self.documents, self.document_length])

    @classmethod
    def parse(cls, text: str | None) -> Totals:
        if not text:
            return cls()
        units, length, documents, document_length = json.loads(text)
        return cls(int(units), float(length), int(documents), int(document_length))


class StoredVocabulary:
    """A store's key vocabulary (lexical key → id) as a KeyVocabulary (semantic_json.search.lexical): a key is looked
    up in the store when first asked for (``look_up``: many in one query) and remembered; ``ids`` adds the keys
    the store lacks.

    ``lookup(keys)`` and ``create(keys)`` give the ids the store holds for ``keys`` (``create`` after adding
    the missing ones); a key absent from ``lookup``'s answer is not in the store.
    """

    def __init__(self, lookup: Callable[[Sequence[str]], dict[str, int]],
                 create: Callable[[Sequence[str]], dict[str, int]]) -> None:
        self._lookup = lookup
        self._create = create
        self._known: dict[str, int | None] = {}

    def look_up(self, keys: Iterable[str]) -> dict[str, int]:
        """The ids of those of ``keys`` the store holds (a key it lacks is absent); the keys not asked for
        before are fetched in one query and remembered, so a search's keys cost one round trip, not one each."""
        keys = list(dict.fromkeys(keys))
        missing = [key for key in keys if key not in self._known]
        if missing:
            found = self._lookup(missing)
            self._known.update((key, None if key not in found else np.int32(found[key])) for key in missing)
        return {key: self._known[key] for key in keys if self._known[key] is not None}

    def get(self, key: str, default: int | None = None) -> int | None:
        if key not in self._known:
            self.look_up([key])
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
    def damaged(why: str) -> DamagedDocumentError:  # a piece of its text or segments, when first read
        return DamagedDocumentError(where, document_id, why)

    try:
        return decode_source(row[0], layout, damaged)
    except DamagedDocumentError:
        raise
    except Exception as exc:  # zlib, JSON, pydantic or integrity errors
        raise DamagedDocumentError(where, document_id, damage(exc)) from None


def whole_document(where: str | Path, source: StoredSource) -> SemanticDocument:
    """The whole compiled document of a stored one; DamagedDocumentError when it cannot be read."""
    try:
        return source.document()
    except DamagedDocumentError:
        raise
    except Exception as exc:  # JSON, pydantic or integrity errors
        raise DamagedDocumentError(where, source.document_id, damage(exc)) from None


def read_record(where: str | Path, document_id: str, data: bytes, n_units: int, dim: int) -> SearchRecord:
    """The search record of a stored row; DamagedDocumentError when it cannot be read."""
    try:
        return decode_record(document_id, data, n_units, dim)
    except Exception as exc:  # zlib, JSON or shape errors: the row is damaged
        raise DamagedDocumentError(where, document_id, damage(exc)) from None


def read_whole_document(store: IndexStore, document_id: str, fingerprint: str, keys: bytes | None = None) -> None:
    """Read every part a store keeps of one document (its search record, the stored document, its unit
    vectors, and its row's key list ``keys`` when given) and decode each; DamagedDocumentError (or
    IndexFileError) when a part cannot be read."""
    record = store.record(document_id, fingerprint)
    whole_document(store.path, store.source(document_id, record.layout, fingerprint))
    vectors = store.vectors(document_id, fingerprint)
    try:
        block_vectors(vectors, record.n_units, record.dim)
        if keys is not None:
            DocumentKeys.decode(keys)
    except Exception as exc:  # shape or zlib errors: the row is damaged
        raise DamagedDocumentError(store.path, document_id, damage(exc)) from None


def read_documents(rows: Iterable[tuple[str, int, int, int, int, Any, str, str]],
                   parse_info: Callable[[str, Any], dict[str, Any]]) -> tuple[list[StoredDocument], dict[str, str]]:
    """The documents of ``rows`` (document id, seq, units, dim, length, info, fingerprint, derived) in the order given, and
    those whose info cannot be read (document id → what is wrong), which are left out so that the rest of
    the index stays usable."""
    out: list[StoredDocument] = []
    damaged: dict[str, str] = {}
    for document_id, seq, n_units, dim, length, info, fingerprint, derived in rows:
        try:
            parsed_info = parse_info(document_id, info)
        except Exception as exc:  # JSON or type errors: the row is damaged
            damaged[document_id] = damage(exc)
            continue
        out.append(StoredDocument(document_id, int(seq), int(n_units), int(dim), int(length), parsed_info, fingerprint,
                                  derived or ""))
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
            fingerprint: str | None = None, derived: str = "") -> int: ...

    def delete(self, document_id: str) -> bool: ...

    def info(self, document_id: str) -> dict[str, Any] | None: ...

    def infos(self) -> dict[str, dict[str, Any]]: ...

    def documents(self) -> tuple[list[StoredDocument], dict[str, str]]: ...

    def record(self, document_id: str, fingerprint: str) -> SearchRecord: ...

    def totals(self) -> Totals: ...

    def key_stats(self, key_ids: Sequence[int]) -> dict[int, tuple[int, int]]: ...

    def document_counts(self, key_ids: Sequence[int], docs: Sequence[int] | None = None) -> np.ndarray: ...

    def postings(self, key_ids: Sequence[int], docs: Sequence[int]) -> list[tuple[int, int, bytes]]: ...

    def vectors(self, document_id: str, fingerprint: str) -> bytes: ...

    def vector_blocks(self, documents: Sequence[tuple[str, str]]) -> Generator[bytes, None, None]: ...

    def source(self, document_id: str, layout: UnitLayout, fingerprint: str) -> StoredSource: ...

    def size_bytes(self) -> int: ...

    def check_file(self, full: bool = False) -> list[str]: ...

    def read_whole(self, document_id: str, fingerprint: str) -> None: ...

    def close(self) -> None: ...


def is_server_url(location: str | Path) -> bool:
    """True when ``location`` names a PostgreSQL server index rather than a file."""
    return isinstance(location, str) and location.lower().startswith(POSTGRES_SCHEMES)


def redact(url: str) -> str:
    """``url`` without its password, for messages and ``path``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[-1]}"))


#: Meta key holding the corpus totals (Totals), in either store.
TOTALS_KEY = "totals"


def document_fingerprint(doc: SemanticDocument) -> str:
    """sha256 of the compiled document's canonical JSON: equal fingerprints mean nothing to re-index."""
    return hashlib.sha256(doc.to_json().encode("utf-8")).hexdigest()
