"""Running a step over many input files: collect inputs, report failures by name, keep going."""

from __future__ import annotations

import errno
import logging
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from .deadline import document_deadline
from ..errors import EvidenceChunkerError, NotARegularFileError

#: File suffixes a directory walk picks up: PDFs and saved DoclingDocument JSONs.
INPUT_SUFFIXES = (".pdf", ".json")

log = logging.getLogger(__name__)

T = TypeVar("T")


def collect_inputs(paths: Iterable[str | Path], suffixes: tuple[str, ...] = INPUT_SUFFIXES) -> list[Path]:
    """Files given directly, plus files under given directories with one of ``suffixes``, sorted.

    A path that does not exist is kept, so the step reports it as a failure by name.
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found.extend(sorted(p for p in path.rglob("*") if p.is_file() and p.suffix.lower() in suffixes))
        else:
            found.append(path)
    return found


def check_input_file(path: Path) -> None:
    """NotARegularFileError for an input named directly that exists but cannot be read as a file: a FIFO,
    a device or a socket (reading one would block or never end), or a symbolic link loop. A missing file is
    left to the parser, which reports it as not found."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotARegularFileError(path, "a symbolic link that loops") from None
        return
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else \
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file"
        if not stat.S_ISDIR(mode):
            raise NotARegularFileError(path, kind)


@dataclass
class Failure:
    path: Path
    error: str


@dataclass
class BatchReport:
    done: list[Path] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures


class BatchRun:
    """Apply ``step`` to each input while iterating, yielding ``(path, result)``.

    Expected errors (bad PDFs, bad JSON, OS errors, a document past its ``timeout`` in seconds) are
    reported on stderr by file name, recorded in ``report.failures`` and skipped; programming errors
    propagate. A progress bar goes to stderr when there is more than one input; with ``pages``, ``step``
    is called as ``step(path, on_page)`` and ``on_page(done, total)`` moves a bar of that file's pages.
    """

    def __init__(self, inputs: list[Path], step: Callable[..., T], progress: bool = True, desc: str = "files",
                 timeout: float | None = None, pages: bool = False):
        self.inputs = inputs
        self.step = step
        self.progress = progress
        self.desc = desc
        self.timeout = timeout
        self.pages = pages
        self.report = BatchReport()

    def __iter__(self) -> Iterator[tuple[Path, T]]:
        bar = progress_bar(len(self.inputs), self.desc) if self.progress and len(self.inputs) > 1 else None
        try:
            for path in self.inputs:
                started = time.perf_counter()
                try:
                    check_input_file(path)
                    with document_deadline(self.timeout, path), \
                            page_bar(path.name, enabled=self.pages and self.progress) as on_page:
                        result = self.step(path, on_page) if self.pages else self.step(path)
                except (EvidenceChunkerError, OSError, ValueError) as exc:
                    self.report.failures.append(Failure(path, str(exc)))
                    text = str(exc)
                    _echo(f"error: {text}" if str(path) in text else f"error: {path}: {text}", bar)
                else:
                    self.report.done.append(path)
                    log.info("%s: done in %.1f s", path, time.perf_counter() - started)
                    yield path, result
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()


def progress_bar(total: int, desc: str):
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a core dependency
        return None
    return tqdm(total=total, desc=desc, unit="file", file=sys.stderr)


@contextmanager
def page_bar(name: str, enabled: bool = True) -> Iterator[Callable[[int, int], None] | None]:
    """``on_page(done, total)`` moving a bar of one document's pages on stderr (below a bar of the files;
    cleared when the document is done), or None when not ``enabled``."""
    if not enabled:
        yield None
        return
    bar = None

    def on_page(done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            from tqdm import tqdm

            bar = tqdm(total=total, desc=name, unit="page", leave=False, file=sys.stderr)
        bar.update(done - bar.n)

    try:
        yield on_page
    finally:
        if bar is not None:
            bar.close()


def _echo(message: str, bar) -> None:
    if bar is not None:
        bar.write(message, file=sys.stderr)
    else:
        print(message, file=sys.stderr)
