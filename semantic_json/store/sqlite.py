"""A SemanticRepository on disk: one SQLite file holding, per document, its search record and the document.

Each document is written in one transaction (its search record and its compiled document, see records.py),
so a process killed mid-ingest leaves every earlier document intact and the file readable. Opening the file
reads the search records only; a document's text is read when a search returns one of its regions. The
file records the embedder that made the vectors; opening it with another embedder is refused.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import weakref
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from itertools import chain
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import EmbedderMismatchError
from ..model import SemanticDocument
from .base import (REBUILD_HINT, document_changed, STORE_SCHEMA_VERSION, TOTALS_KEY, IndexFileError, ReadOnlyIndexError,
                   StoredDocument, StoredVocabulary, document_fingerprint, Totals, read_documents, read_record,
                   read_source, read_whole_document, version_error, DamagedIndexError)
from .wal import unshared_connection
from .engine_rows import DocumentKeys, pack_vectors, posting_rows
from .records import SearchRecord, StoredSource, UnitLayout, encode_document, encode_record

log = logging.getLogger(__name__)

#: Seconds a writer waits for another writer's lock before giving up.
BUSY_TIMEOUT_S = 30.0
#: Keys per SQL statement when looking keys up (below SQLite's limit on bound parameters).
KEYS_PER_STATEMENT = 500
#: Page size of a new index file: SQLite's largest, so that a search record (hundreds of KB to MB) lies on
#: few overflow pages and opening the index reads them about twice as fast as with the 4 KiB default.
PAGE_SIZE = 65536

_TABLES = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS documents (
    document_id  TEXT PRIMARY KEY,
    fingerprint  TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    source_uri   TEXT,
    n_units      INTEGER NOT NULL,
    dim          INTEGER NOT NULL,
    length       INTEGER NOT NULL,
    info_json    TEXT NOT NULL,
    added_at     REAL NOT NULL,
    seq          INTEGER NOT NULL UNIQUE,
    derived      TEXT NOT NULL,
    record       BLOB NOT NULL,
    keys         BLOB NOT NULL,
    document     BLOB NOT NULL
);
-- what opening reads of every document, without the pages of its large columns
CREATE INDEX IF NOT EXISTS documents_held ON documents (seq, document_id, n_units, dim, length, info_json, fingerprint, derived);
CREATE TABLE IF NOT EXISTS vocabulary (
    key  TEXT PRIMARY KEY,
    id   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS postings (
    key_id   INTEGER NOT NULL,
    doc      INTEGER NOT NULL,
    entries  BLOB NOT NULL,
    PRIMARY KEY (key_id, doc)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS doc_terms (
    key_id  INTEGER NOT NULL,
    doc     INTEGER NOT NULL,
    count   INTEGER NOT NULL,
    PRIMARY KEY (key_id, doc)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS key_stats (
    key_id  INTEGER PRIMARY KEY,
    units   INTEGER NOT NULL,
    docs    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS doc_vectors (
    doc      INTEGER PRIMARY KEY,
    vectors  BLOB NOT NULL
);
"""
#: Meta key holding the next free key id of the vocabulary.
NEXT_KEY_ID = "next_key_id"
#: The path of an index held in memory (SQLite's own name for it).
MEMORY = ":memory:"


#: Tables of our layout; a file holding any other table belongs to another application and is refused.
OUR_TABLES = frozenset({"meta", "documents", "vocabulary", "postings", "doc_terms", "key_stats", "doc_vectors"})


@contextmanager
def _guard(path: Path, action: str):
    """Turn SQLite's errors (a damaged page, a file that is not a database) into IndexFileError."""
    try:
        yield
    except sqlite3.ProgrammingError as exc:
        if "closed" not in str(exc):
            raise
        raise IndexFileError(f"{path}: cannot {action}: the index was closed; open it again") from exc
    except sqlite3.OperationalError as exc:
        if "readonly" in str(exc) or "read-only" in str(exc):
            raise ReadOnlyIndexError(
                f"{path}: cannot write to the index: the file or its folder is read-only (search, verify, show "
                "and diagnose still work on it)"
            ) from exc
        raise IndexFileError(f"{path}: cannot {action} ({exc})") from exc
    except sqlite3.DatabaseError as exc:
        raise DamagedIndexError(f"{path}: the index file is damaged ({exc}); {REBUILD_HINT}") from exc


class SqliteStore:
    """Documents and vectors in one SQLite file (WAL journal, full sync: a commit survives a crash).

    `read_only=True` opens an existing file without writing to it (SQLite may add empty `-wal`/`-shm` files
    beside it when the folder is writable), so an index on a read-only file system or folder can be searched; writes then raise ReadOnlyIndexError. It
    never serves a state older than the last commit: a WAL holding commits in a folder it cannot write is read from
    a private temporary copy of the index and its WAL (IndexFileError saying what to do when none can be made). A file that is an
    SQLite database of another application (tables other than ours) is refused, never altered.
    """

    def __init__(self, path: str | Path, read_only: bool = False):
        self.path = Path(path)
        self.read_only = read_only
        #: An index in this process's memory (path ``:memory:``): what SemanticRepository() searches.
        self.in_memory = str(path) == MEMORY
        #: Removes the private copy a read-only index with a pending WAL is read from (None: no copy).
        self._cleanup: weakref.finalize | None = None
        if self.in_memory:
            self._conn = sqlite3.connect(MEMORY, isolation_level=None)
            self._check_and_prepare()
            return
        if self.path.exists() and self.path.is_dir():
            raise IndexFileError(f"{self.path}: is a directory, not an index file")
        if read_only and not self.path.is_file():
            raise IndexFileError(f"{self.path}: index file not found")
        if not read_only:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise IndexFileError(f"{self.path}: cannot create its folder ({exc.strerror or exc})") from exc
        self._conn = self._connect()
        try:
            self._check_and_prepare()
        except BaseException:
            self.close()
            raise

    def _check_and_prepare(self) -> None:
        """Refuse a foreign, damaged or other-version file; make a new file an index (not when read-only)."""
        read_only = self.read_only
        with _guard(self.path, "read the index file"):
            tables = {row[0] for row in self._conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            version = self.get_meta("store_schema_version") if "meta" in tables else None
        # Our tables without a version: an index whose creation was interrupted (older layouts created the
        # tables and the version in two steps); a writer completes it, a reader cannot.
        if version is None and (not tables <= OUR_TABLES or read_only):
            foreign = ", ".join(sorted(tables - OUR_TABLES)) or "no index tables"
            raise IndexFileError(
                f"{self.path}: not a semantic-json-transport index (an SQLite file with {foreign}); it was left "
                "unchanged: choose another --index file"
            )
        if version is not None and version != str(STORE_SCHEMA_VERSION):
            raise version_error(str(self.path), version)
        if not read_only:
            with _guard(self.path, "open the index for writing"):
                if not tables:  # a new file: the page size holds only until the first table is written
                    self._conn.execute(f"PRAGMA page_size = {PAGE_SIZE}")
                self._conn.execute("PRAGMA journal_mode=WAL")
                self._conn.execute("PRAGMA synchronous=FULL")
        if version is None:
            # One transaction: another process sees either no tables or our tables with their version.
            with _guard(self.path, "create the index"):
                self._conn.executescript(
                    f"BEGIN IMMEDIATE;{_TABLES}INSERT OR IGNORE INTO meta (key, value) VALUES "
                    f"('store_schema_version', '{STORE_SCHEMA_VERSION}');COMMIT;"
                )

    def _connect(self) -> sqlite3.Connection:
        """A connection: read-write (WAL, full sync), or read-only (see `_connect_read_only`)."""
        try:
            if not self.read_only:
                # journal_mode is set only once the file is known to be ours: it rewrites the file header
                return sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
            return self._connect_read_only()
        except sqlite3.OperationalError as exc:
            if "readonly" in str(exc) or "unable to open" in str(exc):
                raise IndexFileError(
                    f"{self.path}: cannot open the index for writing ({exc}); a read-only index can be searched, "
                    "verified and shown but not extended"
                ) from exc
            raise IndexFileError(f"{self.path}: not a readable index file ({exc})") from exc
        except sqlite3.DatabaseError as exc:
            raise IndexFileError(f"{self.path}: not a readable index file ({exc}); {REBUILD_HINT}") from exc

    def _connect_read_only(self) -> sqlite3.Connection:
        """A read-only connection that sees every committed transaction.

        SQLite reads a WAL only through its shared-memory file (``-shm``); in a folder this process cannot
        write, with no ``-shm`` left beside the index, it cannot make one. Then an index whose WAL holds no
        frame is opened `immutable` (the main file is the whole state); one whose WAL holds frames (commits
        not yet copied into the main file) is read from a private copy of both files in a temporary folder
        (removed on close), never in `immutable` mode, which would ignore those commits."""
        uri = self.path.resolve().as_uri()
        conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        try:
            conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            return conn
        except sqlite3.OperationalError:
            conn.close()
        conn, self._cleanup = unshared_connection(self, self.path, BUSY_TIMEOUT_S)
        return conn

    # -------------------------------------------------------------- metadata

    def get_meta(self, key: str) -> str | None:
        with _guard(self.path, "read the index metadata"):
            row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self._writable("write metadata")
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise ValueError(f"meta value for {key!r} is not valid UTF-8 text ({exc.reason})") from None
        with _guard(self.path, "write metadata"):
            self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def bind_embedder(self, name: str, dim: int) -> None:
        """Record the embedder of a new file, or refuse one that differs from the recorded one."""
        recorded = self.get_meta("embedder_name")
        if recorded is None:
            if self.read_only:
                return  # an index with no document yet: nothing to compare with
            with _guard(self.path, "record the embedder"), self._transaction():
                self.set_meta("embedder_name", name)
                self.set_meta("embedder_dim", str(dim))
            return
        raw_dim = self.get_meta("embedder_dim")
        try:
            recorded_dim = int(raw_dim or "")
        except ValueError:
            raise IndexFileError(
                f"{self.path}: the index file is damaged (embedder_dim {raw_dim!r} is not a number); {REBUILD_HINT}"
            ) from None
        if recorded != name or recorded_dim != dim:
            raise EmbedderMismatchError(
                f"{self.path} was built with embedder {recorded!r} (dim {recorded_dim}); it cannot be searched or "
                f"extended with {name!r} (dim {dim}). Open it with the same embedder, or build a new index."
            )

    def _writable(self, action: str) -> None:
        if self.read_only:
            raise ReadOnlyIndexError(f"{self.path}: cannot {action}: the index was opened read-only")

    # -------------------------------------------------------------- vocabulary

    def vocabulary(self) -> StoredVocabulary:
        """The key vocabulary that the search records' postings are numbered by."""
        return StoredVocabulary(self._lookup_keys, self._create_keys)

    def _lookup_keys(self, keys: Sequence[str]) -> dict[str, int]:
        found: dict[str, int] = {}
        with _guard(self.path, "read the index vocabulary"):
            for start in range(0, len(keys), KEYS_PER_STATEMENT):
                batch = keys[start : start + KEYS_PER_STATEMENT]
                found.update(self._conn.execute(f"SELECT key, id FROM vocabulary WHERE key IN ({','.join('?' * len(batch))})", batch))
        return found

    def _create_keys(self, keys: Sequence[str]) -> dict[str, int]:
        """Ids of ``keys``, the missing ones added (one transaction: ids are never given twice)."""
        self._writable("add a document")
        with _guard(self.path, "write the index vocabulary"), self._transaction():
            found = self._lookup_keys(keys)
            missing = list(dict.fromkeys(k for k in keys if k not in found))
            if missing:
                first = int(self.get_meta(NEXT_KEY_ID) or 0)
                new = dict(zip(missing, range(first, first + len(missing))))
                self._conn.executemany("INSERT INTO vocabulary (key, id) VALUES (?, ?)", new.items())
                self.set_meta(NEXT_KEY_ID, str(first + len(missing)))
                found.update(new)
        return found

    # -------------------------------------------------------------- documents

    def fingerprint(self, document_id: str) -> str | None:
        with _guard(self.path, "read the index"):
            row = self._conn.execute("SELECT fingerprint FROM documents WHERE document_id = ?", (document_id,)).fetchone()
        return row[0] if row else None

    def put(self, doc: SemanticDocument, record: SearchRecord, info: dict[str, Any] | None = None,
            fingerprint: str | None = None, derived: str = "") -> int:
        """Write (or replace) one document in a single transaction: its row, its postings, term counts and
        unit vectors in the engine's tables, and the key statistics; returns the document's number (seq)."""
        self._writable("add a document")
        record_bytes = encode_record(record)
        document_bytes = encode_document(doc)
        postings, keys = posting_rows(record.postings, record.counts, len(doc.units))
        fingerprint = fingerprint or document_fingerprint(doc)
        with _guard(self.path, "write a document"), self._transaction():
            self._remove(doc.document_id)
            seq = self._conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM documents").fetchone()[0]
            self._conn.execute(
                "INSERT INTO documents (document_id, fingerprint, sha256, source_uri, n_units, dim, length, info_json,"
                " added_at, seq, derived, record, keys, document) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (doc.document_id, fingerprint, doc.document_sha256, doc.source_uri, len(doc.units), record.dim,
                 int(record.counts.length),
                 json.dumps(info or {}, ensure_ascii=False, sort_keys=True), time.time(), seq, derived, record_bytes,
                 keys.encode(), document_bytes),
            )
            self._conn.executemany("INSERT INTO postings (key_id, doc, entries) VALUES (?, ?, ?)",
                                   ((key_id, seq, entries) for key_id, entries in postings))
            self._conn.executemany("INSERT INTO doc_terms (key_id, doc, count) VALUES (?, ?, ?)",
                                   ((k, seq, c) for k, c in zip(keys.key_ids.tolist(), keys.counts.tolist()) if c))
            self._conn.executemany(
                "INSERT INTO key_stats (key_id, units, docs) VALUES (?, ?, ?) ON CONFLICT (key_id) DO UPDATE SET "
                "units = units + excluded.units, docs = docs + excluded.docs",
                ((k, u, int(c > 0)) for k, u, c in zip(keys.key_ids.tolist(), keys.units.tolist(), keys.counts.tolist())))
            self._conn.execute("INSERT INTO doc_vectors (doc, vectors) VALUES (?, ?)", (seq, pack_vectors(record.vectors)))
            self._add_totals(Totals.of(record), 1)
        return seq

    def _remove(self, document_id: str) -> bool:
        """Delete a document and everything the engine keeps of it (inside the caller's transaction)."""
        row = self._conn.execute("SELECT seq, keys, record, n_units, dim FROM documents WHERE document_id = ?",
                                 (document_id,)).fetchone()
        if row is None:
            return False
        seq, keys_bytes, record_bytes, n_units, dim = row
        keys = DocumentKeys.decode(keys_bytes)
        pairs = [(k, seq) for k in keys.key_ids.tolist()]
        self._conn.executemany("DELETE FROM postings WHERE key_id = ? AND doc = ?", pairs)
        self._conn.executemany("DELETE FROM doc_terms WHERE key_id = ? AND doc = ?", pairs)
        self._conn.executemany("UPDATE key_stats SET units = units - ?, docs = docs - ? WHERE key_id = ?",
                               ((u, int(c > 0), k) for k, u, c in
                                zip(keys.key_ids.tolist(), keys.units.tolist(), keys.counts.tolist())))
        self._conn.execute("DELETE FROM doc_vectors WHERE doc = ?", (seq,))
        self._conn.execute("DELETE FROM documents WHERE document_id = ?", (document_id,))
        self._add_totals(Totals.of(read_record(self.path, document_id, record_bytes, n_units, dim)), -1)
        return True

    def _add_totals(self, totals: Totals, sign: int) -> None:
        now = Totals.parse(self.get_meta(TOTALS_KEY)).plus(totals, sign)
        self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (TOTALS_KEY, now.dump()))

    def delete(self, document_id: str) -> bool:
        self._writable("remove a document")
        with _guard(self.path, "remove a document"), self._transaction():
            return self._remove(document_id)

    def info(self, document_id: str) -> dict[str, Any] | None:
        with _guard(self.path, "read the index"):
            row = self._conn.execute("SELECT info_json FROM documents WHERE document_id = ?", (document_id,)).fetchone()
        return self._parse_info(document_id, row[0]) if row else None

    def infos(self) -> dict[str, dict[str, Any]]:
        """Caller-supplied info of every document, in the order they were added."""
        with _guard(self.path, "read the index"):
            rows = self._conn.execute("SELECT document_id, info_json FROM documents ORDER BY seq").fetchall()
        return {document_id: self._parse_info(document_id, info) for document_id, info in rows}

    def _parse_info(self, document_id: str, text: str) -> dict[str, Any]:
        try:
            info = json.loads(text)
        except (ValueError, RecursionError, TypeError) as exc:
            raise IndexFileError(
                f"{self.path}: the info of document {document_id!r} is damaged ({exc}); {REBUILD_HINT}"
            ) from None
        if not isinstance(info, dict):
            raise IndexFileError(f"{self.path}: the info of document {document_id!r} is damaged (not an object)")
        return info

    def documents(self) -> tuple[list[StoredDocument], dict[str, str]]:
        """Every readable document's row (id, number, units, dimension, info, fingerprint), in the order they
        were added, and the damaged ones (document id → what is wrong), which are left out."""
        with _guard(self.path, "read the documents"):
            rows = self._conn.execute("SELECT document_id, seq, n_units, dim, length, info_json, fingerprint, derived"
                                      " FROM documents ORDER BY seq").fetchall()
        return read_documents(rows, self._parse_info)

    def record(self, document_id: str, fingerprint: str) -> SearchRecord:
        """The search record of ``document_id`` as read at open (``fingerprint``); IndexFileError when it
        changed since, DamagedDocumentError when it cannot be read."""
        with _guard(self.path, "read a search record"):
            row = self._conn.execute("SELECT record, n_units, dim, fingerprint FROM documents WHERE document_id = ?", (document_id,)).fetchone()
        if row is None or row[3] != fingerprint:
            raise document_changed(self.path, document_id)
        return read_record(self.path, document_id, row[0], row[1], row[2])

    def totals(self) -> Totals:
        """The corpus totals BM25 and the document prior read (units, their length, documents, their length)."""
        return Totals.parse(self.get_meta(TOTALS_KEY))

    def key_stats(self, key_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
        """Per key id of ``key_ids``: (units holding it, documents counting it); absent keys left out."""
        return dict((k, (u, d)) for k, u, d in self._many("SELECT key_id, units, docs FROM key_stats WHERE key_id IN ({})",
                                                            key_ids, "read the key statistics"))

    def document_counts(self, key_ids: Sequence[int], docs: Sequence[int] | None = None) -> np.ndarray:
        """(key id, document number, count) of every document (of ``docs``, sorted; None: all) counting a key of
        ``key_ids`` (sorted), as the rows of an int64 array, by key then document."""
        if docs is None or len(docs) > KEYS_PER_STATEMENT:
            rows = self._many("SELECT key_id, doc, count FROM doc_terms WHERE key_id IN ({}) ORDER BY key_id, doc",
                              key_ids, "read the term counts", flat=True).reshape(-1, 3)
            return rows if docs is None else rows[np.isin(rows[:, 1], docs)]
        return self._many(f"SELECT key_id, doc, count FROM doc_terms WHERE key_id IN ({{}}) AND doc IN ({','.join('?' * len(docs))})"
                          " ORDER BY key_id, doc", key_ids, "read the term counts", tuple(docs), flat=True).reshape(-1, 3)

    def postings(self, key_ids: Sequence[int], docs: Sequence[int]) -> list[tuple[int, int, bytes]]:
        """(key id, document number, entries) of the postings of ``key_ids`` in the documents ``docs``."""
        # in no order (a sort less): a search finds each row by its key and document
        return self._many(f"SELECT key_id, doc, entries FROM postings WHERE key_id IN ({{}}) AND doc IN ({','.join('?' * len(docs))})",
                          key_ids, "read the postings", tuple(docs)) if docs else []

    def vectors(self, document_id: str, fingerprint: str) -> bytes:
        """The vector block of ``document_id`` as read at open (``fingerprint``); IndexFileError when changed."""
        with _guard(self.path, "read the vectors"):
            row = self._conn.execute("SELECT d.fingerprint, v.vectors FROM documents d LEFT JOIN doc_vectors v ON v.doc = d.seq"
                                     " WHERE d.document_id = ?", (document_id,)).fetchone()
        if row is None or row[0] != fingerprint:
            raise document_changed(self.path, document_id)
        return row[1] if row[1] is not None else b""  # no block: damaged (a 0-byte block)

    def vector_blocks(self, documents: Sequence[tuple[str, str]]) -> Generator[bytes, None, None]:
        """The vector blocks of ``documents`` (id, fingerprint), one after the other as ``vectors`` reads each, in one
        read transaction (ended when the generator is closed); a block is megabytes: drop each before the next."""
        with _guard(self.path, "read the vectors"), self._transaction("DEFERRED"):
            yield from (self.vectors(document_id, fingerprint) for document_id, fingerprint in documents)

    def _many(self, sql: str, values: Sequence[int], action: str, extra: tuple = (), flat: bool = False) -> Any:
        """Rows of ``sql`` with its ``{}`` filled by ``values`` in batches (SQLite's limit on bound parameters),
        ``extra`` parameters after each batch: a list of tuples, or (``flat``) the integers of every row in
        one int64 array (tens of thousands of rows at a million pages: no tuple each)."""
        out: list = []
        values = list(values)
        with _guard(self.path, action):
            for start in range(0, len(values), KEYS_PER_STATEMENT):
                batch = values[start : start + KEYS_PER_STATEMENT]
                rows = self._conn.execute(sql.format(",".join("?" * len(batch))), (*batch, *extra))
                out.append(np.fromiter(chain.from_iterable(rows), dtype=np.int64)) if flat else out.extend(rows)
        return np.concatenate([np.zeros(0, dtype=np.int64), *out]) if flat else out

    def source(self, document_id: str, layout: UnitLayout, fingerprint: str) -> StoredSource:
        """The stored document ``document_id`` as its search record (``layout``, ``fingerprint``) was read:
        what a search result shows of it, the whole document by its ``document()``; IndexFileError when it
        has changed since, DamagedDocumentError when it cannot be read."""
        with _guard(self.path, "read a document"):
            row = self._conn.execute("SELECT document, fingerprint FROM documents WHERE document_id = ?", (document_id,)).fetchone()
        return read_source(self.path, document_id, row, layout, fingerprint)

    def size_bytes(self) -> int:
        """Bytes on disk, WAL included (0 for an index in memory)."""
        if self.in_memory:
            return 0
        wal = self.path.with_name(self.path.name + "-wal")
        return self.path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)

    def check_file(self, full: bool = False) -> list[str]:
        """What SQLite's own check of the file finds wrong (``PRAGMA quick_check``: every page and b-tree; with
        ``full``, ``integrity_check``, which also compares each index with its table); [] when nothing."""
        pragma = "integrity_check" if full else "quick_check"
        with _guard(self.path, "check the index file"):
            found = [row[0] for row in self._conn.execute(f"PRAGMA {pragma}")]
        return [] if found == ["ok"] else [f"{pragma}: {line}" for text in found for line in text.splitlines()
                                           if not line.startswith("***")]

    def read_whole(self, document_id: str, fingerprint: str) -> None:
        """Read and decode every part of one document (base.read_whole_document, with its row's key list)."""
        with _guard(self.path, "read a document"):
            row = self._conn.execute("SELECT keys FROM documents WHERE document_id = ?", (document_id,)).fetchone()
        read_whole_document(self, document_id, fingerprint, row[0] if row else None)

    def close(self) -> None:
        self._conn.close()
        if self._cleanup is not None:
            self._cleanup()  # the private copy of a read-only index with a pending WAL

    # -------------------------------------------------------------- helpers

    @contextmanager
    def _transaction(self, mode: str = "IMMEDIATE"):
        """BEGIN ``mode`` … COMMIT, or ROLLBACK on any exception (DEFERRED: a read transaction)."""
        self._conn.execute(f"BEGIN {mode}")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        self._conn.execute("COMMIT")
