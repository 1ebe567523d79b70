"""A SemanticRepository on a PostgreSQL server: documents, anchors and pgvector vectors shared by many readers.

Same contract and the same tables as the SQLite file (store/sqlite.py, store/base.py): one transaction per
document, the embedder recorded once and enforced, damaged rows left out and named, the same bytes in every
row, so both stores give the same results. Stage 1 of a search runs on the server: the rows of the query's
keys (``sjt_postings``, ``sjt_doc_terms``, ``sjt_key_stats``, each under its primary key) and the vector
blocks of the documents routed to (``sjt_doc_vectors``); a reader's memory is its candidates, and many
readers share one server. Each anchor is also a row with its float32 vector in a pgvector ``vector(dim)``
column under an HNSW cosine index, so other tools (and ``nearest``) can query the anchors on the server.

Concurrency: writers serialise on the totals row of ``sjt_meta`` (each takes it first), so the key
statistics and totals add up and the last commit of a document wins whole; a reader sees each document
whole (its rows are written in one transaction) and checks a record it reads against the fingerprint read
at open. Tables live in the connection's schema (choose one with
``?options=-csearch_path%3Dname`` in the URL). Needs the ``postgres`` extra (psycopg 3, pgvector).
"""

from __future__ import annotations

import json
import time
from collections.abc import Generator, Sequence
from typing import Any

import numpy as np

from ..errors import EmbedderMismatchError
from ..model import SemanticDocument
from .base import (STORE_SCHEMA_VERSION, TOTALS_KEY, IndexFileError, StoredDocument, StoredVocabulary, Totals,
                   document_changed, document_fingerprint, redact, read_documents, read_record, read_source,
                   read_whole_document, version_error)
from .engine_rows import DocumentKeys, pack_vectors, posting_rows
from .records import SearchRecord, StoredSource, UnitLayout, encode_document, encode_record

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
    length       BIGINT NOT NULL,
    info_json    JSONB NOT NULL,
    added_at     DOUBLE PRECISION NOT NULL,
    seq          BIGINT NOT NULL UNIQUE,
    derived      TEXT NOT NULL,
    record       BYTEA NOT NULL,
    keys         BYTEA NOT NULL,
    document     BYTEA NOT NULL
);
CREATE SEQUENCE IF NOT EXISTS sjt_keys_seq AS INTEGER MINVALUE 0 START 0;
CREATE TABLE IF NOT EXISTS sjt_keys (
    key  TEXT PRIMARY KEY,
    id   INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sjt_postings (
    key_id   INTEGER NOT NULL,
    doc      BIGINT NOT NULL,
    entries  BYTEA NOT NULL,
    PRIMARY KEY (key_id, doc)
);
CREATE TABLE IF NOT EXISTS sjt_doc_terms (
    key_id  INTEGER NOT NULL,
    doc     BIGINT NOT NULL,
    count   BIGINT NOT NULL,
    PRIMARY KEY (key_id, doc)
);
CREATE TABLE IF NOT EXISTS sjt_key_stats (
    key_id  INTEGER PRIMARY KEY,
    units   BIGINT NOT NULL,
    docs    BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS sjt_doc_vectors (
    doc      BIGINT PRIMARY KEY,
    vectors  BYTEA NOT NULL
);
INSERT INTO sjt_meta (key, value) VALUES ('totals', '[0, 0.0, 0, 0]') ON CONFLICT (key) DO NOTHING;
"""
#: Columns a search reads whole: stored out of line as they are, not compressed by TOAST (pglz), which every
#: read would undo on the server's CPU (the library zlib-compresses what gains most itself). Set once, when
#: the tables are created.
EXTERNAL_COLUMNS = (("sjt_documents", "record"), ("sjt_documents", "keys"), ("sjt_documents", "document"),
                    ("sjt_doc_vectors", "vectors"))
#: The tables of the index (what size_bytes counts).
TABLES = ("sjt_meta", "sjt_documents", "sjt_anchors", "sjt_keys", "sjt_postings", "sjt_doc_terms", "sjt_key_stats",
          "sjt_doc_vectors")


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
                    created = self._conn.execute("SELECT to_regclass('sjt_documents') IS NULL").fetchone()[0]
                    for statement in _statements(_TABLES):
                        self._conn.execute(statement)
                    for table, column in EXTERNAL_COLUMNS if created else ():  # ALTER locks: new tables only
                        self._conn.execute(f"ALTER TABLE {table} ALTER COLUMN {column} SET STORAGE EXTERNAL")
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
            fingerprint: str | None = None, derived: str = "") -> int:
        """Write (or replace) one document in a single transaction: its row, its postings, term counts, unit
        vectors and anchors, and the key statistics; returns the document's number (seq)."""
        vectors = record.vectors.to_dense() if hasattr(record.vectors, "to_dense") else record.vectors
        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        fingerprint = fingerprint or document_fingerprint(doc)
        postings, keys = posting_rows(record.postings, record.counts, len(doc.units))
        with self._conn.transaction():
            # Writers take the totals row first: they serialise there, so key statistics and totals add up
            # and no two writers wait for each other in a circle.
            totals = Totals.parse(self._conn.execute(
                "SELECT value FROM sjt_meta WHERE key = %s FOR UPDATE", (TOTALS_KEY,)).fetchone()[0])
            totals = self._remove(doc.document_id, totals)
            seq = self._conn.execute(
                "INSERT INTO sjt_documents (document_id, fingerprint, sha256, source_uri, n_units, dim, length,"
                " info_json, added_at, seq, derived, record, keys, document) VALUES (%s, %s, %s, %s, %s, %s, %s, %s,"
                " %s, nextval('sjt_documents_seq'), %s, %s, %s, %s) RETURNING seq",
                (doc.document_id, fingerprint, doc.document_sha256, doc.source_uri, len(doc.units), record.dim,
                 int(record.counts.length), json.dumps(info or {}, ensure_ascii=False, sort_keys=True), time.time(),
                 derived, encode_record(record), keys.encode(), encode_document(doc)),
            ).fetchone()[0]
            with self._conn.cursor() as cursor:
                with cursor.copy("COPY sjt_postings (key_id, doc, entries) FROM STDIN") as copy:
                    for key_id, entries in postings:
                        copy.write_row((key_id, seq, entries))
                with cursor.copy("COPY sjt_doc_terms (key_id, doc, count) FROM STDIN") as copy:
                    for key_id, count in zip(keys.key_ids.tolist(), keys.counts.tolist()):
                        if count:
                            copy.write_row((key_id, seq, count))
                with cursor.copy(
                    "COPY sjt_anchors (document_id, position, embedding) FROM STDIN WITH (FORMAT BINARY)"
                ) as copy:
                    copy.set_types(["text", "int4", "vector"])
                    for position in range(len(doc.units)):
                        copy.write_row((doc.document_id, position, vectors[position]))
            self._conn.execute("INSERT INTO sjt_doc_vectors (doc, vectors) VALUES (%s, %s)", (seq, pack_vectors(vectors)))
            self._conn.execute(
                "INSERT INTO sjt_key_stats (key_id, units, docs) SELECT * FROM unnest(%s::int[], %s::bigint[],"
                " %s::bigint[]) ON CONFLICT (key_id) DO UPDATE SET units = sjt_key_stats.units + EXCLUDED.units,"
                " docs = sjt_key_stats.docs + EXCLUDED.docs",
                (keys.key_ids.tolist(), keys.units.tolist(), (keys.counts > 0).astype(int).tolist()))
            self._set_totals(totals.plus(Totals.of(record)))
        return int(seq)

    def _remove(self, document_id: str, totals: Totals) -> Totals:
        """Delete a document and what the engine keeps of it (inside the caller's transaction, which holds
        the totals row); the totals without it (the same object when there was no such document)."""
        row = self._conn.execute("SELECT seq, keys, record, n_units, dim FROM sjt_documents WHERE document_id = %s",
                                 (document_id,)).fetchone()
        if row is None:
            return totals
        seq, keys_bytes, record_bytes, n_units, dim = row
        keys = DocumentKeys.decode(keys_bytes)
        key_ids = keys.key_ids.tolist()
        self._conn.execute("DELETE FROM sjt_postings WHERE key_id = ANY(%s) AND doc = %s", (key_ids, seq))
        self._conn.execute("DELETE FROM sjt_doc_terms WHERE key_id = ANY(%s) AND doc = %s", (key_ids, seq))
        self._conn.execute(
            "UPDATE sjt_key_stats AS s SET units = s.units - d.units, docs = s.docs - d.docs FROM unnest(%s::int[],"
            " %s::bigint[], %s::bigint[]) AS d (key_id, units, docs) WHERE s.key_id = d.key_id",
            (key_ids, keys.units.tolist(), (keys.counts > 0).astype(int).tolist()))
        self._conn.execute("DELETE FROM sjt_doc_vectors WHERE doc = %s", (seq,))
        self._conn.execute("DELETE FROM sjt_documents WHERE document_id = %s", (document_id,))
        return totals.plus(Totals.of(read_record(self.path, document_id, record_bytes, n_units, dim)), -1)

    def _set_totals(self, totals: Totals) -> None:
        self._conn.execute("UPDATE sjt_meta SET value = %s WHERE key = %s", (totals.dump(), TOTALS_KEY))

    def delete(self, document_id: str) -> bool:
        with self._conn.transaction():
            totals = Totals.parse(self._conn.execute(
                "SELECT value FROM sjt_meta WHERE key = %s FOR UPDATE", (TOTALS_KEY,)).fetchone()[0])
            after = self._remove(document_id, totals)
            self._set_totals(after)
        return after is not totals

    def info(self, document_id: str) -> dict[str, Any] | None:
        row = self._conn.execute("SELECT info_json FROM sjt_documents WHERE document_id = %s", (document_id,)).fetchone()
        return row[0] if row else None

    def infos(self) -> dict[str, dict[str, Any]]:
        """Caller-supplied info of every document, in the order they were (last) added."""
        rows = self._conn.execute("SELECT document_id, info_json FROM sjt_documents ORDER BY seq")
        return {document_id: info for document_id, info in rows}

    def documents(self) -> tuple[list[StoredDocument], dict[str, str]]:
        """Every readable document's row (id, number, units, dimension, length, info, fingerprint), in the
        order they were (last) added, and the damaged ones (document id → what is wrong), left out."""
        rows = self._read("SELECT document_id, seq, n_units, dim, length, info_json, fingerprint, derived"
                          " FROM sjt_documents ORDER BY seq", (), "read documents")
        return read_documents(rows, _checked_info)

    def record(self, document_id: str, fingerprint: str) -> SearchRecord:
        """As SqliteStore.record."""
        rows = self._read("SELECT record, n_units, dim, fingerprint FROM sjt_documents WHERE document_id = %s",
                          (document_id,), "read a search record")
        if not rows or rows[0][3] != fingerprint:
            raise document_changed(self.path, document_id)
        return read_record(self.path, document_id, rows[0][0], rows[0][1], rows[0][2])

    def totals(self) -> Totals:
        """As SqliteStore.totals."""
        return Totals.parse(self.get_meta(TOTALS_KEY))

    def key_stats(self, key_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
        """As SqliteStore.key_stats."""
        rows = self._read("SELECT key_id, units, docs FROM sjt_key_stats WHERE key_id = ANY(%s)",
                          (list(key_ids),), "read the key statistics")
        return {k: (int(u), int(d)) for k, u, d in rows}

    def document_counts(self, key_ids: Sequence[int], docs: Sequence[int] | None = None) -> np.ndarray:
        """As SqliteStore.document_counts."""
        if docs is None:
            rows = self._read("SELECT key_id, doc, count FROM sjt_doc_terms WHERE key_id = ANY(%s) ORDER BY key_id, doc",
                              (list(key_ids),), "read the term counts")
        else:
            rows = self._read("SELECT key_id, doc, count FROM sjt_doc_terms WHERE key_id = ANY(%s) AND doc = ANY(%s)"
                              " ORDER BY key_id, doc", (list(key_ids), list(docs)), "read the term counts")
        return np.asarray(rows, dtype=np.int64).reshape(-1, 3)

    def postings(self, key_ids: Sequence[int], docs: Sequence[int]) -> list[tuple[int, int, bytes]]:
        """As SqliteStore.postings."""
        if not docs or not key_ids:
            return []
        return self._read("SELECT key_id, doc, entries FROM sjt_postings WHERE key_id = ANY(%s) AND doc = ANY(%s)",
                          (list(key_ids), list(docs)), "read the postings")

    def vectors(self, document_id: str, fingerprint: str) -> bytes:
        """As SqliteStore.vectors."""
        rows = self._read("SELECT d.fingerprint, v.vectors FROM sjt_documents d LEFT JOIN sjt_doc_vectors v ON v.doc = d.seq"
                          " WHERE d.document_id = %s", (document_id,), "read the vectors")
        if not rows or rows[0][0] != fingerprint:
            raise document_changed(self.path, document_id)
        return bytes(rows[0][1]) if rows[0][1] is not None else b""  # no block: damaged (a 0-byte block)

    def vector_blocks(self, documents: Sequence[tuple[str, str]]) -> Generator[bytes, None, None]:
        """As SqliteStore.vector_blocks (each block its own query: one held at a time)."""
        yield from (self.vectors(document_id, fingerprint) for document_id, fingerprint in documents)

    def check_file(self, full: bool = False) -> list[str]:
        """Nothing to check here: the server keeps its own pages (its checksums and `amcheck` are its tools)."""
        return []

    def read_whole(self, document_id: str, fingerprint: str) -> None:
        """As SqliteStore.read_whole."""
        rows = self._read("SELECT keys FROM sjt_documents WHERE document_id = %s", (document_id,), "read a document")
        read_whole_document(self, document_id, fingerprint, bytes(rows[0][0]) if rows else None)

    def _read(self, sql: str, params: tuple, action: str) -> list[tuple]:
        """The rows of a query, in the binary protocol: a vector block or a record comes as its bytes, not
        as hex text twice their size."""
        try:
            return self._conn.execute(sql, params, binary=True).fetchall()
        except self._psycopg.Error as exc:
            raise IndexFileError(f"{self.path}: cannot {action} ({_first_line(exc)})") from exc

    def source(self, document_id: str, layout: UnitLayout, fingerprint: str) -> StoredSource:
        """The stored document ``document_id`` as its search record (``layout``, ``fingerprint``) was read:
        what a search result shows of it, the whole document by its ``document()``; IndexFileError when it
        has changed since, DamagedDocumentError when it cannot be read."""
        try:
            row = self._conn.execute("SELECT document, fingerprint FROM sjt_documents WHERE document_id = %s",
                                     (document_id,), binary=True).fetchone()
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
            " WHERE c.relname = ANY(%s) AND pg_table_is_visible(c.oid)", (list(TABLES),)
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
