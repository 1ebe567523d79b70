"""Corpus records with their embeddings, written into a vector store a RAG stack already queries.

Targets: ``lancedb://PATH`` (LanceDB, embedded: a folder of Lance tables) and ``postgresql://...``
(PostgreSQL with pgvector: one table with a ``vector(dim)`` column under an HNSW cosine index). One row per
corpus chunk, with the columns of ``VECTOR_COLUMNS``: the corpus record's texts and metadata (pages, boxes,
chunk kind, eu_id ...) as columns, the whole metadata as JSON, the embedding of ``retrieval_text`` and the
name of the embedder that made it. Writing a document replaces its earlier rows (one transaction per
document on PostgreSQL), so re-running an export neither duplicates nor leaves stale chunks.

Needs the ``lancedb`` or the ``postgres`` extra. The default embedder is semantic_json's LiteEmbedder (no
model download); a query must be embedded by the same embedder (``embed_query``).
"""

from __future__ import annotations

import json
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import VectorStoreError
from ..corpus.chunks import RetrievalChunk, vector_store_metadata
from ..corpus.assemble import chunk_to_record

#: Table written when the caller names none.
DEFAULT_TABLE = "sjt_corpus"
LANCEDB_SCHEME = "lancedb://"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")
#: Seconds to wait for a PostgreSQL server when connecting.
CONNECT_TIMEOUT_S = 10
#: pgvector's HNSW index takes `vector` columns of at most this many dimensions.
HNSW_MAX_DIM = 2000

#: Every row's columns, in order: (name, meaning).
VECTOR_COLUMNS = (
    ("chunk_id", "stable chunk id (primary key)"),
    ("doc_id", "document id"),
    ("kind", "table or text"),
    ("eu_id", "Evidence Unit id of a table chunk (null for text)"),
    ("text", "the chunk text for the LLM"),
    ("retrieval_text", "the text that was embedded"),
    ("page_no", "first page, 1-based"),
    ("page_span", "every page the chunk touches"),
    ("bbox", "[l, t, r, b] normalised 0..1, BOTTOMLEFT origin (null when absent)"),
    ("page_boxes", "JSON list of {page, bbox, coord_origin, unit} in PDF points"),
    ("caption_text", "table caption (null when none)"),
    ("caption_confidence", "direct, inferred or none"),
    ("metadata", "the corpus record's whole metadata, as JSON"),
    ("embedder", "name of the embedder that made `vector`"),
    ("vector", "float32 embedding of retrieval_text"),
)


def vector_rows(chunks: Sequence[RetrievalChunk], embedder) -> list[dict[str, Any]]:
    """One row per chunk (columns of VECTOR_COLUMNS), embeddings made by ``embedder`` in one batch."""
    records = [chunk_to_record(chunk) for chunk in chunks]
    if not records:
        return []
    vectors = np.asarray(embedder.embed_documents([r["retrieval_text"] for r in records]), dtype=np.float32)
    rows = []
    for record, vector in zip(records, vectors):
        meta = record["metadata"]
        flat = vector_store_metadata(meta)
        rows.append({
            "chunk_id": record["chunk_id"],
            "doc_id": record["doc_id"],
            "kind": record["kind"],
            "eu_id": meta.get("eu_id"),
            "text": record["text"],
            "retrieval_text": record["retrieval_text"],
            "page_no": meta.get("page_no"),
            "page_span": [int(p) for p in meta.get("page_span") or []],
            "bbox": [float(v) for v in meta["bbox"]] if meta.get("bbox") else None,
            "page_boxes": flat.get("page_boxes", "[]"),
            "caption_text": meta.get("caption_text"),
            "caption_confidence": meta.get("caption_confidence"),
            "metadata": json.dumps(meta, ensure_ascii=False, sort_keys=True, default=str),
            "embedder": embedder.name,
            "vector": vector,
        })
    return rows


def open_vector_store(target: str, table: str = DEFAULT_TABLE, embedder=None):
    """A writer for ``target`` (``lancedb://PATH`` or ``postgresql://...``); use it as a context manager."""
    if embedder is None:
        from semantic_json import LiteEmbedder

        embedder = LiteEmbedder()
    if target.startswith(LANCEDB_SCHEME):
        return LanceDBWriter(target[len(LANCEDB_SCHEME):], table, embedder)
    if target.lower().startswith(POSTGRES_SCHEMES):
        return PostgresWriter(target, table, embedder)
    raise VectorStoreError(f"{target}: unknown vector store; use lancedb://PATH or postgresql://user@host/db")


def _check_table_name(table: str) -> str:
    if not table.replace("_", "").isalnum() or table[0].isdigit():
        raise VectorStoreError(f"table name {table!r}: use letters, digits and _ only, not starting with a digit")
    return table


class _Writer(ABC):
    """Writes documents' chunks as rows; a context manager that closes the store."""

    embedder: Any

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def write_document(self, doc_id: str, chunks: Sequence[RetrievalChunk]) -> int:
        """Replace the rows of ``doc_id`` with ``chunks``; returns the rows written."""
        rows = vector_rows(chunks, self.embedder)
        self._replace(doc_id, rows)
        return len(rows)

    @abstractmethod
    def _replace(self, doc_id: str, rows: list[dict[str, Any]]) -> None:
        """Delete the rows of ``doc_id`` and insert ``rows``."""

    def close(self) -> None:
        pass


class LanceDBWriter(_Writer):
    """Rows in the LanceDB table ``table`` of the database folder ``path`` (created if missing)."""

    def __init__(self, path: str, table: str, embedder) -> None:
        try:
            import lancedb
            import pyarrow as pa
        except ImportError as exc:
            raise VectorStoreError(
                f"lancedb://{path}: needs lancedb ({exc.name} is not installed); "
                "pip install 'semantic-json-transport[lancedb]'"
            ) from exc
        if not path:
            raise VectorStoreError("lancedb://: give the database folder, e.g. lancedb://out/vectors")
        self.embedder = embedder
        self.schema = pa.schema([
            ("chunk_id", pa.string()), ("doc_id", pa.string()), ("kind", pa.string()), ("eu_id", pa.string()),
            ("text", pa.string()), ("retrieval_text", pa.string()), ("page_no", pa.int32()),
            ("page_span", pa.list_(pa.int32())), ("bbox", pa.list_(pa.float64())), ("page_boxes", pa.string()),
            ("caption_text", pa.string()), ("caption_confidence", pa.string()), ("metadata", pa.string()),
            ("embedder", pa.string()), ("vector", pa.list_(pa.float32(), embedder.dim)),
        ])
        self._pa = pa
        try:
            self.db = lancedb.connect(path)
            self.table = self.db.create_table(_check_table_name(table), schema=self.schema, exist_ok=True)
        except (OSError, ValueError) as exc:
            raise VectorStoreError(f"lancedb://{path}: cannot open table {table!r} ({exc})") from exc

    def _replace(self, doc_id: str, rows: list[dict[str, Any]]) -> None:
        self.table.delete(f"doc_id = '{doc_id.replace(chr(39), chr(39) * 2)}'")
        if rows:
            self.table.add(self._pa.Table.from_pylist(rows, schema=self.schema))


class PostgresWriter(_Writer):
    """Rows in the PostgreSQL table ``table`` (created with an HNSW cosine index if missing)."""

    def __init__(self, url: str, table: str, embedder) -> None:
        from semantic_json.store import redact

        self.where = redact(url)
        try:
            import psycopg
            from pgvector.psycopg import register_vector
        except ImportError as exc:
            raise VectorStoreError(
                f"{self.where}: needs psycopg and pgvector ({exc.name} is not installed); "
                "pip install 'semantic-json-transport[postgres]'"
            ) from exc
        self.embedder = embedder
        self.table = _check_table_name(table)
        try:
            self.conn = psycopg.connect(url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S)
            self.conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            register_vector(self.conn)
            self.conn.execute(
                f"CREATE TABLE IF NOT EXISTS {self.table} (chunk_id TEXT PRIMARY KEY, doc_id TEXT NOT NULL,"
                " kind TEXT NOT NULL, eu_id TEXT, text TEXT NOT NULL, retrieval_text TEXT NOT NULL, page_no INTEGER,"
                " page_span INTEGER[] NOT NULL, bbox DOUBLE PRECISION[], page_boxes JSONB NOT NULL,"
                " caption_text TEXT, caption_confidence TEXT, metadata JSONB NOT NULL, embedder TEXT NOT NULL,"
                f" vector vector({int(embedder.dim)}) NOT NULL)"
            )
            self.conn.execute(f"CREATE INDEX IF NOT EXISTS {self.table}_doc_id ON {self.table} (doc_id)")
            if embedder.dim <= HNSW_MAX_DIM:
                self.conn.execute(
                    f"CREATE INDEX IF NOT EXISTS {self.table}_hnsw ON {self.table} USING hnsw (vector vector_cosine_ops)"
                )
        except psycopg.Error as exc:
            raise VectorStoreError(f"{self.where}: cannot write table {self.table!r} ({str(exc).strip().splitlines()[0]})") from exc

    def _replace(self, doc_id: str, rows: list[dict[str, Any]]) -> None:
        columns = [name for name, _ in VECTOR_COLUMNS]
        with self.conn.transaction():
            self.conn.execute(f"DELETE FROM {self.table} WHERE doc_id = %s", (doc_id,))
            with self.conn.cursor() as cursor:
                cursor.executemany(
                    f"INSERT INTO {self.table} ({', '.join(columns)}) VALUES ({', '.join(['%s'] * len(columns))})",
                    [tuple(row[c] for c in columns) for row in rows],
                )

    def close(self) -> None:
        self.conn.close()
