"""Writing an output file so a reader never sees half of it: a temporary file renamed into place."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


@contextmanager
def atomic_output(path: str | Path | None, mode: str = "w") -> Iterator[IO]:
    """A handle that writes to ``path`` through a temporary file renamed into place on success.

    A crash or an exception leaves any earlier file at ``path`` untouched. ``None`` or "-" is stdout.
    """
    if path is None or str(path) == "-":
        yield sys.stdout
        return
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, mode, encoding="utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, _default_file_mode())  # mkstemp makes 0600; the result is an ordinary output file
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _default_file_mode() -> int:
    """0666 less the process umask: the mode open() would have given a new file."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask
