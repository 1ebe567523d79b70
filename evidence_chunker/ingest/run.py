"""Ingest: PDF → parse → Evidence Units + Text Chunks → SemanticDocument → a persistent repository.

Parsing, chunking and compiling run in worker processes when ``workers > 1``; the repository (one SQLite
file, one writer) embeds and stores in the main process, one transaction per document. A PDF already in
the index with the same sha256 is skipped before it is parsed, so a rerun after a crash resumes.

With workers, documents are handed out in order, a few more than there are workers at a time. When fewer
PDFs are left than workers (one large report alone, the last ones of a run), the lite parser's pages of a
PDF are read in batches by several workers, and one of them then analyses the whole document.

Document ids come from file names and are unique per source path: a second PDF whose name is taken by
another file gets ``{stem}-{8 hex digits of its path's sha256}``, with a warning (never a silent merge).
Workers die with the main process, however it ends (SIGKILL included: the kernel's parent-death signal on
Linux, a watchdog thread elsewhere); on SIGTERM the main process stops its workers and raises
IngestTerminated, keeping every document stored so far.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from .batch import Failure, check_input_file, failure_text, progress_bar
from ..errors import EvidenceChunkerError
from ..parsing.pdf_file import file_sha256
from .prepare import _chunker, document_id_for
from .workers import _prepared, _sigterm_raises, _stderr

log = logging.getLogger(__name__)

#: Hex digits of the path hash that make a clashing file name's document id unique.
ID_SUFFIX_HEX = 8


@dataclass
class IngestSummary:
    """What an ingest run did; ``as_text()`` is the summary line the CLI prints. ``pages`` counts every
    document's pages, unchanged ones included; ``new_pages`` only those (re-)indexed by this run."""

    files: int = 0
    indexed: int = 0
    skipped: int = 0
    pages: int = 0
    new_pages: int = 0
    units: int = 0
    chunks: int = 0
    anchors: int = 0
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0
    #: Files whose name was taken by another file, with the document id they were given instead.
    renamed: dict[Path, str] = field(default_factory=dict)

    def as_text(self) -> str:
        rate = self.new_pages / self.seconds if self.seconds else 0.0
        renamed = f", renamed {len(self.renamed)}" if self.renamed else ""
        return (
            f"files {self.files} (indexed {self.indexed}, unchanged {self.skipped}, failed {len(self.failures)}"
            f"{renamed}) | "
            f"pages {self.pages} ({self.new_pages} indexed now) | evidence units {self.units} | chunks {self.chunks} | "
            f"anchors {self.anchors} | {self.seconds:.1f} s ({rate:.1f} pages/s indexed)"
        )


def unique_document_id(path: Path) -> str:
    """The id of a PDF whose file name is taken by another file: the stem plus a hash of its resolved path,
    so it is the same on every run."""
    digest = hashlib.sha256(_source(path).encode("utf-8", "surrogateescape")).hexdigest()
    return f"{path.stem}-{digest[:ID_SUFFIX_HEX]}"


def _source(path: Path) -> str:
    """The absolute path with symbolic links resolved (as recorded in a document's info); a link that loops
    stays as it is (it is reported as a bad input, not raised here)."""
    return os.path.realpath(path)


def assign_document_ids(paths: Iterable[Path], repo) -> dict[Path, tuple[str, str | None]]:
    """Document id of every path, unique per resolved source path and stable across runs, with the holder
    of the plain id when the file name was taken (else None).

    The plain id (file stem) goes to the first file of this run that claims it, unless the index holds it
    for another source: another PDF that still exists, or a document added without a PDF. A PDF recorded
    at a path that no longer exists hands its id to the file now claiming it (a moved file).
    """
    claimed: dict[str, str] = {}
    out: dict[Path, tuple[str, str | None]] = {}
    for path in paths:
        source = _source(path)
        plain = document_id_for(path)
        holder = claimed.get(plain)
        if holder is None and plain in repo:
            recorded = repo.document_info(plain).get("pdf_path")
            if not recorded:
                holder = f"a document added without a PDF ({plain!r})"
            elif recorded != source and Path(recorded).exists():
                holder = recorded
        if holder is None or holder == source:
            claimed[plain] = source
            out[path] = (plain, None)
        else:
            out[path] = (unique_document_id(path), holder)
    return out


def unchanged(repo, path: Path, doc_id: str | None = None, page_range=None) -> bool:
    """True when ``path`` is already in ``repo`` (as ``doc_id``, default its file stem) from the same file
    with the same PDF bytes and the same page range (nothing to redo)."""
    doc_id = doc_id or document_id_for(path)
    if doc_id not in repo:
        return False
    info = repo.document_info(doc_id)
    return (info.get("pdf_path") == str(path.resolve()) and info.get("pdf_sha256") == file_sha256(path)
            and info.get("page_range") == (str(page_range) if page_range is not None else None))


def ingest(paths: Iterable[Path], repo, parser: str = "lite", artifacts_path: str | None = None,
           workers: int = 1, progress: bool = True, prepared=None, page_range=None,
           document_timeout: float | None = None, ocr=None) -> IngestSummary:
    """Add every PDF of ``paths`` to ``repo`` (a SemanticRepository, usually opened on a file).

    A failing PDF is reported on stderr by name and recorded in the summary; the others go on, as do
    the others when one runs past ``document_timeout`` seconds. ``page_range`` (a PageRange) indexes only
    those pages of every PDF. With one worker, ``progress`` also shows the pages of the PDF being parsed.
    ``ocr`` (an OcrOptions) is the parsers' OCR choice (default: on, Korean and English).
    ``prepared(paths, parser, artifacts_path, **limits)``, when given, replaces the local worker processes
    as the source of prepared documents (ray_ingest.py sends them to a Ray cluster); ``limits`` holds
    ``page_range``, ``document_timeout`` and ``ocr`` when they are set.
    """
    started = time.perf_counter()
    summary = IngestSummary()
    if parser == "auto":  # decide once, here, so the fallback warning is printed once
        parser = _chunker(parser, artifacts_path, ocr).parser.name
    unique: dict[str, Path] = {}
    for path in paths:  # one file named twice (a folder and a file in it) is indexed once
        unique.setdefault(_source(path), path)
    paths = list(unique.values())
    ids = assign_document_ids(paths, repo)
    todo: list[tuple[Path, str]] = []
    for path in paths:
        summary.files += 1
        doc_id, holder = ids[path]
        try:
            check_input_file(path)  # before hashing: reading a FIFO would never end
            if unchanged(repo, path, doc_id, page_range):
                summary.skipped += 1
                summary.pages += int(repo.document_info(doc_id).get("pages", 0))
                continue
        except (EvidenceChunkerError, OSError) as exc:
            summary.failures.append(Failure(path, failure_text(path, exc)))
            print(f"error: {failure_text(path, exc)}", file=sys.stderr)
            continue
        if holder is not None:
            summary.renamed[path] = doc_id
            print(f"warning: {path}: document id {document_id_for(path)!r} is taken by {holder}; "
                  f"indexed as {doc_id!r}", file=sys.stderr)
        todo.append((path, doc_id))

    bar = progress_bar(len(todo), "ingest") if progress and len(todo) > 1 else None
    limits = {key: value for key, value in (("page_range", page_range), ("document_timeout", document_timeout),
                                            ("ocr", ocr)) if value}
    outcomes = (prepared(todo, parser, artifacts_path, **limits) if prepared is not None
                else _prepared(todo, parser, artifacts_path, workers, page_progress=progress, **limits))
    with _sigterm_raises():
        try:
            for outcome in outcomes:
                if isinstance(outcome, Failure):
                    summary.failures.append(outcome)
                    message = outcome.error if str(outcome.path) in outcome.error else f"{outcome.path}: {outcome.error}"
                    (bar.write if bar is not None else _stderr)(f"error: {message}")
                else:
                    document = outcome.document
                    document.check_integrity()
                    repo.add(document, info=outcome.info)
                    summary.indexed += 1
                    summary.pages += outcome.info["pages"]
                    summary.new_pages += outcome.info["pages"]
                    summary.units += outcome.info["units"]
                    summary.chunks += outcome.info["chunks"]
                    summary.anchors += len(document.units)
                    log.info("%s: indexed as %r: %d page(s), %d unit(s), %d anchor(s)", outcome.path,
                             document.document_id, outcome.info["pages"], outcome.info["units"], len(document.units))
                if bar is not None:
                    bar.update(1)
        finally:
            outcomes.close()  # stops the workers at once when the loop ended early
            if bar is not None:
                bar.close()
    summary.seconds = time.perf_counter() - started
    return summary


