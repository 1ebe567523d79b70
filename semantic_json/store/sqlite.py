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
    """Documents and vectors in one SQLite file (WAL journal, full sync: a commit survives a crash)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        if self.path.exists() and self.path.is_dir():
            raise IndexFileError(f"{self.path}: is a directory, not an index file")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._conn = sqlite3.connect(str(self.path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.executescript(_TABLES)
        except sqlite3.DatabaseError as exc:
            raise IndexFileError(f"{self.path}: not a readable index file ({exc})") from exc
        version = self.get_meta("store_schema_version")
        if version is None:
            self.set_meta("store_schema_version", str(STORE_SCHEMA_VERSION))
        elif version != str(STORE_SCHEMA_VERSION):
            raise IndexFileError(
                f"{self.path}: index file layout version {version}; this version reads {STORE_SCHEMA_VERSION}"
            )

    # -------------------------------------------------------------- metadata

    def get_meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self._conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    def bind_embedder(self, name: str, dim: int) -> None:
        """Record the embedder of a new file, or refuse one that differs from the recorded one."""
        recorded = self.get_meta("embedder_name")
        if recorded is None:
            with self._transaction():
                self.set_meta("embedder_name", name)
                self.set_meta("embedder_dim", str(dim))
            return
        recorded_dim = int(self.get_meta("embedder_dim") or 0)
        if recorded != name or recorded_dim != dim:
            raise EmbedderMismatchError(
                f"{self.path} was built with embedder {recorded!r} (dim {recorded_dim}); it cannot be searched or "
                f"extended with {name!r} (dim {dim}). Open it with the same embedder, or build a new index."
            )

    # -------------------------------------------------------------- documents

    def fingerprint(self, document_id: str) -> str | None:
        row = self._conn.execute("SELECT fingerprint FROM documents WHERE document_id = ?", (document_id,)).fetchone()
        return row[0] if row else None

    def put(self, doc: SemanticDocument, vectors: np.ndarray, info: dict[str, Any] | None = None,
            fingerprint: str | None = None) -> None:
        """Write (or replace) one document and its vectors in a single transaction."""
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        payload = zlib.compress(doc.to_json().encode("utf-8"), COMPRESSION_LEVEL)
        with self._transaction():
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
        with self._transaction():
            cursor = self._conn.execute("DELETE FROM documents WHERE document_id = ?", (document_id,))
        return cursor.rowcount > 0

    def info(self, document_id: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT info_json FROM documents WHERE document_id = ?", (document_id,)).fetchone()
        return json.loads(row[0]) if row else None

    def infos(self) -> dict[str, dict[str, Any]]:
        """Caller-supplied info of every document, in the order they were added."""
        rows = self._conn.execute("SELECT document_id, info_json FROM documents ORDER BY seq")
        return {document_id: json.loads(info) for document_id, info in rows}

    def load(self) -> tuple[list[StoredDocument], dict[str, str]]:
        """Every readable document with its vectors, in the order they were added, and the damaged ones
        (document id → what is wrong), which are left out so the rest of the file stays usable."""
        out: list[StoredDocument] = []
        damaged: dict[str, str] = {}
        try:
            rows = self._conn.execute(
                "SELECT document_id, n_units, dim, doc_json, vectors, info_json, fingerprint FROM documents ORDER BY seq"
            ).fetchall()
        except sqlite3.DatabaseError as exc:
            raise IndexFileError(f"{self.path}: cannot read documents ({exc})") from exc
        for document_id, n_units, dim, doc_json, vectors, info, fingerprint in rows:
            try:
                doc = SemanticDocument.from_json(zlib.decompress(doc_json))
                matrix = np.frombuffer(vectors, dtype=np.float32).reshape(n_units, dim)
                if doc.document_id != document_id or len(doc.units) != n_units:
                    raise ValueError("row does not match its document")
            except Exception as exc:  # zlib, JSON, pydantic, integrity or shape errors: the row is damaged
                damaged[document_id] = f"{exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
                continue
            out.append(StoredDocument(doc, matrix, json.loads(info), fingerprint))
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
