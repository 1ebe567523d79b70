"""Persistent stores for a SemanticRepository: one SQLite file (the embedded default) or a PostgreSQL server."""

from __future__ import annotations

from pathlib import Path

from .base import (REBUILD_HINT, STORE_SCHEMA_VERSION, DamagedDocumentError, IndexFileError, IndexStore,
                   IndexVersionError, ReadOnlyIndexError, StoredDocument, is_server_url, redact)
from .sqlite import SqliteStore

__all__ = ["REBUILD_HINT", "STORE_SCHEMA_VERSION", "DamagedDocumentError", "IndexFileError", "IndexStore", "IndexVersionError",
           "ReadOnlyIndexError", "SqliteStore", "StoredDocument", "is_server_url", "open_store", "redact"]


def open_store(location: str | Path, read_only: bool = False) -> IndexStore:
    """The store at ``location``: a PostgresStore for a ``postgresql://`` URL, else a SqliteStore file
    (opened read-only when ``read_only``; a server's permissions are the server's)."""
    if is_server_url(location):
        from .postgresql import PostgresStore  # psycopg is an optional extra: imported only when asked for

        return PostgresStore(str(location))
    return SqliteStore(location, read_only=read_only)
