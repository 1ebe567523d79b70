"""An index whose last commits are still in its WAL, in a folder the reader cannot write.

SQLite reads a WAL only with a `-shm` file beside it, which it cannot create in a read-only folder; its
immutable mode would read the main file alone and serve a state older than the last commit. The reader
takes a private copy of the index and its WAL instead (sqlite.SqliteStore opens that, read-only).
"""

from __future__ import annotations

import logging
import shutil
import sqlite3
import tempfile
import weakref
from pathlib import Path

from .base import IndexFileError

log = logging.getLogger(__name__)

#: Bytes of a WAL file's header: a longer `-wal` file holds frames (commits not yet in the main file).
WAL_HEADER_BYTES = 32
#: Attempts at a consistent private copy of an index and its WAL (a writer elsewhere may be changing them).
COPY_ATTEMPTS = 3


def wal_path(path: Path) -> Path:
    """The WAL file SQLite keeps beside the index file ``path``."""
    return path.with_name(path.name + "-wal")


def pending_wal(path: Path) -> bool:
    """True when the WAL beside ``path`` holds frames: commits that a reader of the main file alone misses."""
    try:
        return wal_path(path).stat().st_size > WAL_HEADER_BYTES
    except FileNotFoundError:
        return False


def _signature(*paths: Path) -> tuple:
    return tuple((s.st_size, s.st_mtime_ns) for s in (p.stat() for p in paths))


def private_copy(path: Path) -> Path:
    """A new temporary folder holding a copy of the index ``path`` and its WAL, taken while neither changed
    (the caller removes the folder); IndexFileError saying what to do when no such copy can be made."""
    wal = wal_path(path)
    problem = "the files kept changing while they were copied"
    for _ in range(COPY_ATTEMPTS):
        try:
            folder = Path(tempfile.mkdtemp(prefix="sjt-index-"))
        except OSError as exc:
            problem = f"no temporary folder: {exc.strerror or exc}"
            break
        try:
            before = _signature(path, wal)
            shutil.copyfile(wal, folder / wal.name)  # the WAL first: a checkpoint after it only repeats its pages
            shutil.copyfile(path, folder / path.name)
            if _signature(path, wal) == before:
                return folder
        except OSError as exc:
            shutil.rmtree(folder, ignore_errors=True)
            problem = f"{exc.filename or 'copy'}: {exc.strerror or exc}"
            break
        shutil.rmtree(folder, ignore_errors=True)
    raise IndexFileError(
        f"{path}: its last commits are still in {wal.name}, which SQLite reads only with a {path.name}-shm file "
        f"that it cannot create in this read-only folder, and a private copy failed ({problem}); make the folder "
        f"writable, or copy {path.name} and {wal.name} together into a writable folder and use that copy"
    )


def unshared_connection(owner: object, path: Path, timeout: float) -> tuple[sqlite3.Connection, weakref.finalize | None]:
    """A read-only connection to the index ``path`` that SQLite cannot open in place (no `-shm`, folder not
    writable): `immutable` when its WAL holds no frame (the main file is the whole state), else to a private
    copy of both files in a temporary folder, with the finalizer that removes the folder (run on close, or
    when ``owner`` is collected)."""
    if not pending_wal(path):
        return sqlite3.connect(f"{path.resolve().as_uri()}?immutable=1", uri=True, isolation_level=None), None
    folder = private_copy(path)
    cleanup = weakref.finalize(owner, shutil.rmtree, folder, ignore_errors=True)
    log.info("%s: its WAL holds commits and its folder is read-only: reading a private copy in %s", path, folder)
    copy = (folder / path.name).as_uri()
    return sqlite3.connect(f"{copy}?mode=ro", uri=True, timeout=timeout, isolation_level=None), cleanup
