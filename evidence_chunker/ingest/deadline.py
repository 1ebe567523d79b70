"""The per-document time limit (``--document-timeout``): work on one document that runs past it stops with
DocumentTimeoutError naming the file, so a batch reports that document as failed and goes on.

The limit is a wall-clock alarm (SIGALRM) in the process that does the work: the CLI's own process, or each
ingest worker. A handler can only run between Python bytecodes, so a long call inside a C library (one
pdfium page, one model forward pass) finishes before the document is stopped.
"""

from __future__ import annotations

import signal
import threading
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..errors import DocumentTimeoutError


def deadline_supported() -> bool:
    """True where a time limit can be kept here: a platform with SIGALRM, in the main thread of the process."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def document_deadline(seconds: float | None, path: str | Path) -> Iterator[None]:
    """Within the block, DocumentTimeoutError for ``path`` once ``seconds`` have passed (None or 0: no
    limit). Where no limit can be kept (see ``deadline_supported``) the block runs without one, with a
    warning. The previous SIGALRM handler and timer are restored when the block ends."""
    if not seconds:
        yield
        return
    if not deadline_supported():
        warnings.warn(f"{path}: no document timeout here (it needs SIGALRM in a process's main thread); "
                      "the document runs without a limit", RuntimeWarning, stacklevel=3)
        yield
        return

    def expire(signum, frame):
        raise DocumentTimeoutError(path, seconds)

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
