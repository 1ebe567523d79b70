"""What a SemanticRepository needs from a persistent store, and the choice of store by location.

A location is a path (the embedded default: one SQLite file) or a ``postgresql://`` URL (a shared server
index with pgvector). Both stores hold the same things (compiled documents, their anchor vectors, caller
info, meta strings) and load them back bit for bit, so search, which runs in memory over what the store
loads, gives the same results from either.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Protocol

import numpy as np

from ..model import SemanticDocument

#: URL schemes that name a PostgreSQL server index (the forms libpq and psycopg accept).
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class IndexStore(Protocol):
    """Documents and vectors kept outside the process; every write is one transaction per document."""

    #: Where the store lives: the file path, or the server URL without its password.
    path: Path | str

    def get_meta(self, key: str) -> str | None: ...

    def set_meta(self, key: str, value: str) -> None: ...

    def bind_embedder(self, name: str, dim: int) -> None: ...

    def fingerprint(self, document_id: str) -> str | None: ...

    def put(self, doc: SemanticDocument, vectors: np.ndarray, info: dict[str, Any] | None = None,
            fingerprint: str | None = None) -> None: ...

    def delete(self, document_id: str) -> bool: ...

    def info(self, document_id: str) -> dict[str, Any] | None: ...

    def infos(self) -> dict[str, dict[str, Any]]: ...

    def load(self) -> tuple[list, dict[str, str]]: ...

    def size_bytes(self) -> int: ...

    def close(self) -> None: ...


def is_server_url(location: str | Path) -> bool:
    """True when ``location`` names a PostgreSQL server index rather than a file."""
    return isinstance(location, str) and location.lower().startswith(POSTGRES_SCHEMES)


def open_store(location: str | Path, read_only: bool = False) -> IndexStore:
    """The store at ``location``: a PostgresStore for a ``postgresql://`` URL, else a SqliteStore file
    (opened read-only when ``read_only``; a server's permissions are the server's)."""
    if is_server_url(location):
        from .postgresql import PostgresStore  # psycopg is an optional extra: imported only when asked for

        return PostgresStore(str(location))
    from .sqlite import SqliteStore

    return SqliteStore(location, read_only=read_only)
