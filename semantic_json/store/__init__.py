"""Persistent stores for a SemanticRepository: one SQLite file (the embedded default) or a PostgreSQL server."""

from .base import IndexStore, is_server_url, open_store
from .sqlite import STORE_SCHEMA_VERSION, IndexFileError, ReadOnlyIndexError, SqliteStore, StoredDocument

__all__ = ["STORE_SCHEMA_VERSION", "IndexFileError", "IndexStore", "ReadOnlyIndexError", "SqliteStore", "StoredDocument",
           "is_server_url", "open_store"]
