"""Running a step over many input files: collect inputs, report failures by name, keep going."""

from __future__ import annotations

import errno
import os
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
from ..errors import EvidenceChunkerError, NotARegularFileError, PdfNotFoundError, UnreadableFileError, UnreadableFolderError

#: File suffixes a directory walk picks up: PDFs and saved DoclingDocument JSONs.
INPUT_SUFFIXES = (".pdf", ".json")

log = logging.getLogger(__name__)

T = TypeVar("T")


def collect_inputs(paths: Iterable[str | Path], suffixes: tuple[str, ...] = INPUT_SUFFIXES) -> list[Path]:
    """Files given directly, plus files under given folders with one of ``suffixes``, sorted.

    A path that does not exist is kept, so the step reports it as a failure by name. So is every entry of a
    walked folder that has one of ``suffixes`` but is no readable file (a symbolic link that loops or leads
    nowhere, a FIFO, a device, a socket, a file without read permission; see `check_input_file`), every
    sub-folder that cannot be listed and every link back to a folder that holds it: a walk skips nothing
    silently. A link to another folder is followed, each folder walked once.
    """
    found: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            real = os.path.realpath(path)
            found.extend(sorted(_walk(path, suffixes, (real,), {real})))
        else:
            found.append(path)
    return found


def _walk(folder: Path, suffixes: tuple[str, ...], holders: tuple[str, ...], seen: set[str]) -> Iterator[Path]:
    """Entries under ``folder`` with one of ``suffixes``, and the folders that cannot be walked (see
    `collect_inputs`); ``holders`` are the real paths of the folders being walked, ``seen`` all walked."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        yield folder  # cannot be listed: check_input_file says why
        return
    for entry in entries:
        path = Path(entry.path)
        try:
            is_dir = entry.is_dir()  # follows a link; False for a link that loops or leads nowhere
        except OSError:
            is_dir = False
        if not is_dir:
            if path.suffix.lower() in suffixes:
                yield path
            continue
        real = os.path.realpath(path)
        if real in holders:
            yield path  # a link back to a folder that holds it: check_input_file says so
        elif real not in seen:  # a folder reached by two ways is walked once: its files are all found
            seen.add(real)
            yield from _walk(path, suffixes, (*holders, real), seen)


def check_input_file(path: Path) -> None:
    """PdfError naming an input that cannot be read as a file: a FIFO, a device or a socket (reading one would
    block or never end), a symbolic link that loops or leads nowhere, a file without read permission, or a
    folder (a walk keeps those it cannot list and links back to a folder that holds them). A missing file is
    left to the parser, which reports it as not found."""
    try:
        mode = path.stat().st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotARegularFileError(path, "a symbolic link that loops") from None
        if exc.errno == errno.EACCES:
            raise UnreadableFileError(path, describe_os_error(exc)) from None
        if path.is_symlink():
            raise PdfNotFoundError(path, f"a symbolic link to {os.readlink(path)}, which does not exist") from None
        return
    if stat.S_ISDIR(mode):
        _check_walked_folder(path)
    if not stat.S_ISREG(mode):
        kind = "a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode) else \
            "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "not a file"
        raise NotARegularFileError(path, kind)
    try:
        with open(path, "rb"):
            pass
    except OSError as exc:
        raise UnreadableFileError(path, describe_os_error(exc)) from None


def _check_walked_folder(path: Path) -> None:
    """Why a walk kept the folder ``path``: a link back to a folder that holds it, or a folder it cannot list."""
    if path.is_symlink() and Path(os.path.realpath(path.parent)).is_relative_to(os.path.realpath(path)):
        raise NotARegularFileError(path, f"a symbolic link that loops back to {os.readlink(path)}, a folder that "
                                   "holds it")
    try:
        with os.scandir(path):
            pass
    except OSError as exc:
        raise UnreadableFolderError(path, describe_os_error(exc)) from None
    raise NotARegularFileError(path, "a folder")


def describe_os_error(exc: OSError) -> str:
    """What the system said, as the detail of a `FILE: why` line ("permission denied")."""
    text = exc.strerror or str(exc)
    return text[:1].lower() + text[1:]


def failure_text(path: Path, exc: BaseException) -> str:
    """The `FILE: why` line of an input that failed with ``exc`` (an OSError's ``[Errno 13] …`` made readable)."""
    if isinstance(exc, OSError) and not isinstance(exc, EvidenceChunkerError):
        where = exc.filename if exc.filename is not None else path
        return f"{where}: {UnreadableFileError.problem} ({describe_os_error(exc)})"
    text = str(exc)
    return text if str(path) in text else f"{path}: {text}"


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
                    text = failure_text(path, exc)
                    self.report.failures.append(Failure(path, text))
                    _echo(f"error: {text}", bar)
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
