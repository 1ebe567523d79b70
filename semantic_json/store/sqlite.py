"""A SemanticRepository on disk: one SQLite file holding compiled documents and their anchor vectors.

Each document is written in one transaction (its compiled JSON, zlib-compressed, and its float32 vectors),
so a process killed mid-ingest leaves every earlier document intact and the file readable. The file
records the embedder that made the vectors; opening it with another embedder is refused.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time
import zlib
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import EmbedderMismatchError, SemanticJsonError
from ..model import SemanticDocument

#: Version of the table layout below; a file with another version is refused with a clear error.
STORE_SCHEMA_VERSION = 1
#: zlib level for document JSON (the text compresses about 4x).
COMPRESSION_LEVEL = 6
#: Seconds a writer waits for another writer's lock before giving up.
BUSY_TIMEOUT_S = 30.0

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
    doc_json     BLOB NOT NULL,
    vectors      BLOB NOT NULL,
    info_json    TEXT NOT NULL,
    added_at     REAL NOT NULL,
    seq          INTEGER NOT NULL
);
"""


class IndexFileError(SemanticJsonError, ValueError):
    """The index file is not a semantic-json-transport index, is damaged, or is of another version."""


class ReadOnlyIndexError(IndexFileError):
    """A write (add, remove, note) to an index opened read-only."""


#: Tables of our layout; a file holding any other table belongs to another application and is refused.
OUR_TABLES = frozenset({"meta", "documents"})
#: What a damaged file's error message tells the user to do.
REBUILD_HINT = "rebuild it: `sjt ingest PDFS --index NEW_FILE` into a new file (the PDFs are the source)"


@contextmanager
def _guard(path: Path, action: str):
    """Turn SQLite's errors (a damaged page, a file that is not a database) into IndexFileError."""
    try:
        yield
    except sqlite3.OperationalError as exc:
        if "readonly" in str(exc) or "read-only" in str(exc):
            raise ReadOnlyIndexError(
                f"{path}: cannot write to the index: the file or its folder is read-only (search, verify, show "
                "and diagnose still work on it)"
            ) from exc
        raise IndexFileError(f"{path}: cannot {action} ({exc})") from exc
    except sqlite3.DatabaseError as exc:
        raise IndexFileError(f"{path}: the index file is damaged ({exc}); {REBUILD_HINT}") from exc


@dataclass
class StoredDocument:
    """One document as held on disk: the compiled document, its vectors and caller-supplied info."""

    document: SemanticDocument
    vectors: np.ndarray
    info: dict[str, Any]
    fingerprint: str


def document_fingerprint(doc: SemanticDocument) -> str:
    """sha256 of the compiled document's canonical JSON: equal fingerprints mean nothing to re-index."""
    return hashlib.sha256(doc.to_json().encode("utf-8")).hexdigest()


class SqliteStore:
    """Documents and vectors in one SQLite file (WAL journal, full sync: a commit survives a crash).

    `read_only=True` opens an existing file without writing to it (SQLite may add empty `-wal`/`-shm` files
    beside it when the folder is writable), so an index on a read-only file system or folder can be searched; writes then raise ReadOnlyIndexError. A file that is an
    SQLite database of another application (tables other than ours) is refused, never altered.
    """

    def __init__(self, path: str | Path, read_only: bool = False):
        self.path = Path(path)
        self.read_only = read_only
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
            self._conn.close()
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
            raise IndexFileError(
                f"{self.path}: index file layout version {version}; this version reads {STORE_SCHEMA_VERSION}"
            )
        if not read_only:
            with _guard(self.path, "open the index for writing"):
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
        """A connection: read-write (WAL, full sync), or read-only; read-only falls back to `immutable`
        when SQLite cannot make its shared-memory file (a WAL file in a read-only folder)."""
        try:
            if not self.read_only:
                # journal_mode is set only once the file is known to be ours: it rewrites the file header
                return sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
            uri = self.path.resolve().as_uri()
            conn = sqlite3.connect(f"{uri}?mode=ro", uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
            try:
                conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
            except sqlite3.OperationalError:
                conn.close()
                conn = sqlite3.connect(f"{uri}?immutable=1", uri=True, isolation_level=None)
            return conn
        except sqlite3.OperationalError as exc:
            if "readonly" in str(exc) or "unable to open" in str(exc):
                raise IndexFileError(
                    f"{self.path}: cannot open the index for writing ({exc}); a read-only index can be searched, "
                    "verified and shown but not extended"
                ) from exc
            raise IndexFileError(f"{self.path}: not a readable index file ({exc})") from exc
        except sqlite3.DatabaseError as exc:
            raise IndexFileError(f"{self.path}: not a readable index file ({exc}); {REBUILD_HINT}") from exc

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

    # -------------------------------------------------------------- documents

    def fingerprint(self, document_id: str) -> str | None:
        with _guard(self.path, "read the index"):
            row = self._conn.execute("SELECT fingerprint FROM documents WHERE document_id = ?", (document_id,)).fetchone()
        return row[0] if row else None

    def put(self, doc: SemanticDocument, vectors: np.ndarray, info: dict[str, Any] | None = None,
            fingerprint: str | None = None) -> None:
        """Write (or replace) one document and its vectors in a single transaction."""
        self._writable("add a document")
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        payload = zlib.compress(doc.to_json().encode("utf-8"), COMPRESSION_LEVEL)
        with _guard(self.path, "write a document"), self._transaction():
            seq = self._conn.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM documents").fetchone()[0]
            self._conn.execute("DELETE FROM documents WHERE document_id = ?", (doc.document_id,))
            self._conn.execute(
                "INSERT INTO documents (document_id, fingerprint, sha256, source_uri, n_units, dim, doc_json, vectors,"
                " info_json, added_at, seq) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    doc.document_id,
                    fingerprint or document_fingerprint(doc),
                    doc.document_sha256,
                    doc.source_uri,
                    int(vectors.shape[0]),
                    int(vectors.shape[1]) if vectors.ndim == 2 else 0,
                    payload,
                    vectors.tobytes(),
                    json.dumps(info or {}, ensure_ascii=False, sort_keys=True),
                    time.time(),
                    seq,
                ),
            )

    def delete(self, document_id: str) -> bool:
        self._writable("remove a document")
        with _guard(self.path, "remove a document"), self._transaction():
            cursor = self._conn.execute("DELETE FROM documents WHERE document_id = ?", (document_id,))
        return cursor.rowcount > 0

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

    def load(self) -> tuple[list[StoredDocument], dict[str, str]]:
        """Every readable document with its vectors, in the order they were added, and the damaged ones
        (document id → what is wrong), which are left out so the rest of the file stays usable."""
        out: list[StoredDocument] = []
        damaged: dict[str, str] = {}
        with _guard(self.path, "read the documents"):
            rows = self._conn.execute(
                "SELECT document_id, n_units, dim, doc_json, vectors, info_json, fingerprint FROM documents ORDER BY seq"
            ).fetchall()
        for document_id, n_units, dim, doc_json, vectors, info, fingerprint in rows:
            try:
                doc = SemanticDocument.from_json(zlib.decompress(doc_json))
                matrix = np.frombuffer(vectors, dtype=np.float32).reshape(n_units, dim)
                if doc.document_id != document_id or len(doc.units) != n_units:
                    raise ValueError("row does not match its document")
                parsed_info = self._parse_info(document_id, info)
            except Exception as exc:  # zlib, JSON, pydantic, integrity or shape errors: the row is damaged
                damaged[document_id] = f"{exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                continue
            out.append(StoredDocument(doc, matrix, parsed_info, fingerprint))
        return out, damaged

    def size_bytes(self) -> int:
        """Bytes on disk, WAL included."""
        wal = self.path.with_name(self.path.name + "-wal")
        return self.path.stat().st_size + (wal.stat().st_size if wal.exists() else 0)

    def close(self) -> None:
        self._conn.close()

    # -------------------------------------------------------------- helpers

    def _transaction(self):
        return _Transaction(self._conn)


class _Transaction:
    """BEGIN IMMEDIATE … COMMIT, or ROLLBACK on any exception."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn

    def __enter__(self):
        self.conn.execute("BEGIN IMMEDIATE")
        return self.conn

    def __exit__(self, exc_type, exc, tb):
        self.conn.execute("ROLLBACK" if exc_type else "COMMIT")
        return False
