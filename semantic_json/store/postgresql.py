"""A SemanticRepository on a PostgreSQL server: documents, anchors and pgvector vectors shared by many readers.

Same contract as the SQLite file (store/sqlite.py): one transaction per document, the embedder recorded
once and enforced, damaged rows left out and named. Each document row keeps its search record and the
compiled document (exactly the bytes the SQLite file keeps, see records.py); opening the index reads the
search records only. Each anchor is also a row with its float32 vector in a pgvector ``vector(dim)`` column
under an HNSW cosine index, so other tools (and ``nearest``) can query the anchors on the server; its text
is the document's slice (position → the unit's span). Search itself runs in memory over what ``load``
returns, which is why both stores give the same results.

Concurrency: readers load one consistent snapshot (REPEATABLE READ); two writers of the same document
serialise on its row (INSERT ... ON CONFLICT takes the row lock first), so the last commit wins whole and
no anchor is lost or duplicated. Tables live in the connection's schema (choose one with
``?options=-csearch_path%3Dname`` in the URL). Needs the ``postgres`` extra (psycopg 3, pgvector).
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import numpy as np

from ..errors import EmbedderMismatchError
from ..model import SemanticDocument
from .base import (STORE_SCHEMA_VERSION, IndexFileError, StoredRecord, StoredVocabulary, read_source, read_records,
                   version_error)
from .records import (SearchRecord, StoredSource, UnitLayout, decode_record, encode_document, encode_record,
                      vector_rows)
from .sqlite import document_fingerprint

#: Seconds to wait for the server when connecting.
CONNECT_TIMEOUT_S = 10
#: pgvector indexes `vector` columns of at most this many dimensions with HNSW.
HNSW_MAX_DIM = 2000
#: HNSW build parameters (pgvector defaults, named here so the index definition says them).
HNSW_M = 16
HNSW_EF_CONSTRUCTION = 64
#: pgvector's default and largest ``hnsw.ef_search`` (the candidate list of one HNSW query).
HNSW_MIN_EF_SEARCH = 40
HNSW_MAX_EF_SEARCH = 1000
#: Advisory-lock key that serialises creating the tables and binding the embedder (an arbitrary constant).
SCHEMA_LOCK_KEY = 0x534A54  # "SJT"

_META_TABLE = """
CREATE EXTENSION IF NOT EXISTS vector;
CREATE TABLE IF NOT EXISTS sjt_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""
_TABLES = """
CREATE SEQUENCE IF NOT EXISTS sjt_documents_seq;
CREATE TABLE IF NOT EXISTS sjt_documents (
    document_id  TEXT PRIMARY KEY,
    fingerprint  TEXT NOT NULL,
    sha256       TEXT NOT NULL,
    source_uri   TEXT,
    n_units      INTEGER NOT NULL,
    dim          INTEGER NOT NULL,
    info_json    JSONB NOT NULL,
    added_at     DOUBLE PRECISION NOT NULL,
    seq          BIGINT NOT NULL,
    record       BYTEA NOT NULL,
    document     BYTEA NOT NULL
);
CREATE SEQUENCE IF NOT EXISTS sjt_keys_seq AS INTEGER MINVALUE 0 START 0;
CREATE TABLE IF NOT EXISTS sjt_keys (
    key  TEXT PRIMARY KEY,
    id   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sjt_vectors (
    dim          INTEGER NOT NULL,
    document_id  TEXT NOT NULL REFERENCES sjt_documents (document_id) ON DELETE CASCADE,
    fingerprint  TEXT NOT NULL,
    entries      BYTEA NOT NULL,
    PRIMARY KEY (dim, document_id)
);
"""


#: The anchors' HNSW cosine index (drop it before a large first load and run this after: see docs/scale.md).
HNSW_INDEX_SQL = (
    "CREATE INDEX IF NOT EXISTS sjt_anchors_hnsw ON sjt_anchors USING hnsw (embedding vector_cosine_ops)"
    f" WITH (m = {HNSW_M}, ef_construction = {HNSW_EF_CONSTRUCTION})"
)


def _anchor_table(dim: int) -> str:
    # wider vectors are still stored and loaded; the server just cannot index them with HNSW
    index = HNSW_INDEX_SQL + ";" if dim <= HNSW_MAX_DIM else ""
    return (
        "CREATE TABLE IF NOT EXISTS sjt_anchors ("
        " document_id TEXT NOT NULL REFERENCES sjt_documents (document_id) ON DELETE CASCADE,"
        " position INTEGER NOT NULL,"
        f" embedding vector({int(dim)}) NOT NULL,"
        " PRIMARY KEY (document_id, position));" + index
    )


def redact(url: str) -> str:
    """``url`` without its password, for messages and ``path``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{netloc[-1]}"))


class PostgresStore:
    """Documents and anchor vectors in PostgreSQL + pgvector at ``url`` (``postgresql://user@host:port/db``)."""

    def __init__(self, url: str):
        self.url = url
        self.path = redact(url)
        try:
            import psycopg
            from pgvector.psycopg import register_vector
        except ImportError as exc:
            raise IndexFileError(
                f"{self.path}: a PostgreSQL index needs psycopg and pgvector ({exc.name} is not installed); "
                "pip install 'semantic-json-transport[postgres]'"
            ) from exc
        self._psycopg = psycopg
        try:
            self._conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
        except psycopg.Error as exc:
            raise IndexFileError(f"{self.path}: cannot connect to the PostgreSQL server ({_first_line(exc)})") from exc
        try:
            with self._conn.transaction():
                self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
                for statement in _statements(_META_TABLE):
                    self._conn.execute(statement)
                version = self.get_meta("store_schema_version")
                if version is None or version == str(STORE_SCHEMA_VERSION):
                    for statement in _statements(_TABLES):
                        self._conn.execute(statement)
                    if version is None:
                        self.set_meta("store_schema_version", str(STORE_SCHEMA_VERSION))
            register_vector(self._conn)
        except psycopg.Error as exc:
            raise IndexFileError(
                f"{self.path}: cannot create the index tables ({_first_line(exc)}); the server needs the pgvector "
                "extension and a user allowed to create tables"
            ) from exc
        if version is not None and version != str(STORE_SCHEMA_VERSION):
            self._conn.close()
            raise version_error(self.path, version)

    # -------------------------------------------------------------- metadata

    def get_meta(self, key: str) -> str | None:
        row = self._conn.execute("SELECT value FROM sjt_meta WHERE key = %s", (key,)).fetchone()
        return row[0] if row else None

    def set_meta(self, key: str, value: str) -> None:
        self._conn.execute(
            "INSERT INTO sjt_meta (key, value) VALUES (%s, %s) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            (key, value),
        )

    def bind_embedder(self, name: str, dim: int) -> None:
        """Record the embedder of a new index (and create the anchor table for its dim), or refuse another."""
        with self._conn.transaction():
            self._conn.execute("SELECT pg_advisory_xact_lock(%s)", (SCHEMA_LOCK_KEY,))
            recorded = self.get_meta("embedder_name")
            if recorded is None:
                self.set_meta("embedder_name", name)
                self.set_meta("embedder_dim", str(dim))
                for statement in _statements(_anchor_table(dim)):
                    self._conn.execute(statement)
                return
        recorded_dim = int(self.get_meta("embedder_dim") or 0)
        if recorded != name or recorded_dim != dim:
            raise EmbedderMismatchError(
                f"{self.path} was built with embedder {recorded!r} (dim {recorded_dim}); it cannot be searched or "
                f"extended with {name!r} (dim {dim}). Open it with the same embedder, or build a new index."
            )

    # -------------------------------------------------------------- vocabulary

    def vocabulary(self) -> StoredVocabulary:
        """The key vocabulary that the search records' postings are numbered by."""
        return StoredVocabulary(self._lookup_keys, self._create_keys)

    def _lookup_keys(self, keys: Sequence[str]) -> dict[str, int]:
        rows = self._conn.execute("SELECT key, id FROM sjt_keys WHERE key = ANY(%s)", (list(keys),)).fetchall()
        return dict(rows)

    def _create_keys(self, keys: Sequence[str]) -> dict[str, int]:
        """Ids of ``keys``, the missing ones added; concurrent writers agree on one id per key (the primary
        key), and only missing keys draw ids from the sequence. Keys go in sorted: two writers adding some of
        the same new keys then wait for each other in one order, never in a circle (a deadlock)."""
        with self._conn.transaction():
            self._conn.execute(
                "INSERT INTO sjt_keys (key, id) SELECT k, nextval('sjt_keys_seq') FROM unnest(%s::text[]) AS k"
                " WHERE NOT EXISTS (SELECT 1 FROM sjt_keys WHERE key = k) ON CONFLICT (key) DO NOTHING",
                (sorted(set(keys)),),
            )
        return self._lookup_keys(keys)

    # -------------------------------------------------------------- documents

    def fingerprint(self, document_id: str) -> str | None:
        row = self._conn.execute(
            "SELECT fingerprint FROM sjt_documents WHERE document_id = %s", (document_id,)
        ).fetchone()
        return row[0] if row else None

    def put(self, doc: SemanticDocument, record: SearchRecord, info: dict[str, Any] | None = None,
            fingerprint: str | None = None) -> SearchRecord:
        """Write (or replace) one document, its search record and its anchors in a single transaction; the
        search record as a reader of the server gets it back."""
        vectors = record.vectors.to_dense() if hasattr(record.vectors, "to_dense") else record.vectors
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        fingerprint = fingerprint or document_fingerprint(doc)
        record_bytes = encode_record(record)
        row = (
            doc.document_id,
            fingerprint,
            doc.document_sha256,
            doc.source_uri,
            len(doc.units),
            record.dim,
            json.dumps(info or {}, ensure_ascii=False, sort_keys=True),
            time.time(),
            record_bytes,
            encode_document(doc),
        )
        with self._conn.transaction():
            # The upsert takes the document row's lock first: a second writer of this document waits here
            # until the first commits, then replaces its anchors whole.
            self._conn.execute(
                "INSERT INTO sjt_documents (document_id, fingerprint, sha256, source_uri, n_units, dim, info_json,"
                " added_at, seq, record, document) VALUES (%s, %s, %s, %s, %s, %s, %s, %s,"
                " nextval('sjt_documents_seq'), %s, %s)"
                " ON CONFLICT (document_id) DO UPDATE SET fingerprint = EXCLUDED.fingerprint,"
                " sha256 = EXCLUDED.sha256, source_uri = EXCLUDED.source_uri, n_units = EXCLUDED.n_units,"
                " dim = EXCLUDED.dim, info_json = EXCLUDED.info_json, added_at = EXCLUDED.added_at,"
                " seq = EXCLUDED.seq, record = EXCLUDED.record, document = EXCLUDED.document",
                row,
            )
            self._conn.execute("DELETE FROM sjt_vectors WHERE document_id = %s", (doc.document_id,))
            with self._conn.cursor() as cursor:
                with cursor.copy("COPY sjt_vectors (dim, document_id, fingerprint, entries) FROM STDIN") as copy:
                    for dim, entries in vector_rows(vectors):
                        copy.write_row((dim, doc.document_id, fingerprint, entries))
            self._conn.execute("DELETE FROM sjt_anchors WHERE document_id = %s", (doc.document_id,))
            with self._conn.cursor() as cursor:
                with cursor.copy(
                    "COPY sjt_anchors (document_id, position, embedding) FROM STDIN WITH (FORMAT BINARY)"
                ) as copy:
                    copy.set_types(["text", "int4", "vector"])
                    for position in range(len(doc.units)):
                        copy.write_row((doc.document_id, position, vectors[position]))
        return decode_record(doc.document_id, record_bytes, len(doc.units), record.dim)

    def delete(self, document_id: str) -> bool:
        cursor = self._conn.execute("DELETE FROM sjt_documents WHERE document_id = %s", (document_id,))
        return cursor.rowcount > 0

    def info(self, document_id: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT info_json FROM sjt_documents WHERE document_id = %s", (document_id,)).fetchone()
        return row[0] if row else None

    def infos(self) -> dict[str, dict[str, Any]]:
        """Caller-supplied info of every document, in the order they were (last) added."""
        rows = self._conn.execute("SELECT document_id, info_json FROM sjt_documents ORDER BY seq")
        return {document_id: info for document_id, info in rows}

    def load(self) -> tuple[list[StoredRecord], dict[str, str]]:
        """Every readable document's search record, in the order they were (last) added, from one
        snapshot, and the damaged ones (document id → what is wrong), which are left out."""
        try:
            with self._conn.transaction():
                self._conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
                rows = self._conn.execute(
                    "SELECT document_id, n_units, dim, record, info_json, fingerprint, seq FROM sjt_documents"
                ).fetchall()
        except self._psycopg.Error as exc:
            raise IndexFileError(f"{self.path}: cannot read documents ({_first_line(exc)})") from exc
        return read_records(rows, _checked_info)

    def vector_entries(self, dimensions: Sequence[int]) -> list[tuple[str, int, str, bytes]]:
        """(document id, dimension, fingerprint, stored row) of every document's vectors in ``dimensions``."""
        try:
            return self._conn.execute(
                "SELECT document_id, dim, fingerprint, entries FROM sjt_vectors WHERE dim = ANY(%s)",
                (list(dimensions),)).fetchall()
        except self._psycopg.Error as exc:
            raise IndexFileError(f"{self.path}: cannot read the vectors ({_first_line(exc)})") from exc

    def source(self, document_id: str, layout: UnitLayout, fingerprint: str) -> StoredSource:
        """The stored document ``document_id`` as its search record (``layout``, ``fingerprint``) was read:
        what a search result shows of it, the whole document by its ``document()``; IndexFileError when it
        has changed since, DamagedDocumentError when it cannot be read."""
        try:
            row = self._conn.execute(
                "SELECT document, fingerprint FROM sjt_documents WHERE document_id = %s", (document_id,)).fetchone()
        except self._psycopg.Error as exc:
            raise IndexFileError(f"{self.path}: cannot read document {document_id!r} ({_first_line(exc)})") from exc
        return read_source(self.path, document_id, row, layout, fingerprint)

    def nearest(self, query_vector: np.ndarray, k: int) -> list[tuple[str, int, float]]:
        """The ``k`` anchors nearest to ``query_vector`` by the server's HNSW index, as
        (document id, unit position, cosine similarity), best first. Approximate, as HNSW is."""
        if not self._has_anchor_table():
            return []
        vector = np.ascontiguousarray(query_vector, dtype=np.float32)
        with self._conn.transaction():
            # HNSW returns at most ef_search rows: widen the search list to k for this query only
            search_list = min(max(int(k), HNSW_MIN_EF_SEARCH), HNSW_MAX_EF_SEARCH)
            self._conn.execute(f"SET LOCAL hnsw.ef_search = {search_list}")
            rows = self._conn.execute(
                "SELECT document_id, position, 1 - (embedding <=> %s) FROM sjt_anchors ORDER BY embedding <=> %s"
                " LIMIT %s",
                (vector, vector, int(k)),
            ).fetchall()
        return [(document_id, position, float(similarity)) for document_id, position, similarity in rows]

    def size_bytes(self) -> int:
        """Bytes the index tables take on the server, indexes and TOAST included."""
        row = self._conn.execute(
            "SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) FROM pg_class c"
            " WHERE c.relname IN ('sjt_meta', 'sjt_documents', 'sjt_anchors', 'sjt_keys', 'sjt_vectors')"
            " AND pg_table_is_visible(c.oid)"
        ).fetchone()
        return int(row[0])

    def close(self) -> None:
        self._conn.close()

    # -------------------------------------------------------------- helpers

    def _has_anchor_table(self) -> bool:
        row = self._conn.execute("SELECT to_regclass('sjt_anchors') IS NOT NULL").fetchone()
        return bool(row[0])


def _checked_info(document_id: str, info: Any) -> dict[str, Any]:
    """A row's info (jsonb arrives as a dict); ValueError for anything else."""
    if not isinstance(info, dict):
        raise ValueError(f"the info of document {document_id!r} is not an object")
    return info


def _statements(script: str) -> list[str]:
    return [statement.strip() for statement in script.split(";") if statement.strip()]


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else exc.__class__.__name__
