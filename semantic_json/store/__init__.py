"""Persistent stores for a SemanticRepository (the embedded default: one SQLite file)."""

from .sqlite import STORE_SCHEMA_VERSION, IndexFileError, ReadOnlyIndexError, SqliteStore, StoredDocument

__all__ = ["STORE_SCHEMA_VERSION", "IndexFileError", "ReadOnlyIndexError", "SqliteStore", "StoredDocument"]
