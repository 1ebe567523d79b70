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
import signal
import sys
import threading
import time
from collections import Counter, deque
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .batch import Failure, check_input_file, failure_text, page_bar, progress_bar
from .errors import EvidenceChunkerError, IngestTerminated, WorkerDiedError
from .parsing.pdf_file import file_sha256

if TYPE_CHECKING:  # pragma: no cover
    from semantic_json import SemanticDocument

log = logging.getLogger(__name__)

#: Key under which ingest records what it did for a document (see ``document_stats``).
INFO_KIND = "pdf"
#: Hex digits of the path hash that make a clashing file name's document id unique.
ID_SUFFIX_HEX = 8
#: Seconds between a worker's checks that its parent is still alive (where no parent-death signal exists).
WATCHDOG_INTERVAL_S = 1.0
#: Seconds a stopped worker gets to exit after SIGTERM before it is killed.
WORKER_STOP_GRACE_S = 2.0
#: Seconds the main thread waits for a worker's result at a time (a SIGTERM that came meanwhile acts after it).
POLL_S = 0.2
#: Linux prctl option that makes the kernel signal a process when its parent dies.
_PR_SET_PDEATHSIG = 1


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


@dataclass
class PreparedDocument:
    """A PDF made ready for the repository in a worker: its compiled document and stored info.

    The document travels between processes pickled, which is cheaper than JSON both ways."""

    path: Path
    document: "SemanticDocument"
    info: dict[str, Any]

    @property
    def document_json(self) -> str:
        """The compiled document as JSON (``SemanticDocument.to_json``)."""
        return self.document.to_json()


def document_id_for(path: Path) -> str:
    """The id a PDF gets in the index when its file name is free: the name without the extension."""
    return path.stem


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


def prepare_document(path: Path, parser: str = "lite", artifacts_path: str | None = None,
                     doc_id: str | None = None, pages: list | None = None, page_range=None,
                     on_page=None, ocr=None) -> PreparedDocument:
    """Parse, chunk and compile one PDF (or DoclingDocument JSON); runs in a worker process. ``pages``:
    the PDF's pages already read by the lite parser (:meth:`LiteParser.read_pages`), in batches; else
    ``page_range`` (a PageRange) limits the pages parsed and ``on_page(done, total)`` reports them; ``ocr``
    is the parser's OcrOptions."""
    from .corpus.chunks import chunk_kind
    from .corpus.consumed import ConsumedStats
    from .corpus.assemble import build_corpus_parsed
    from .export.semantic import corpus_to_semantic_document, pdf_uri
    from .filing import filing_profile, filing_subject
    from .titles import CAPTION_SOURCES, dropped_running_lines
    from semantic_json.textnorm import text_language

    chunker = _chunker(parser, artifacts_path, ocr)
    if pages is not None:
        parsed = chunker.parser.parse(path, pages=pages)
    else:
        parsed = chunker.parse(path, page_range=page_range, on_page=on_page)
    doc_id = doc_id or document_id_for(path)
    units = chunker.chunk_parsed(parsed, doc_id=doc_id)
    consumed = ConsumedStats()
    filing = filing_profile(parsed.document)
    corpus = build_corpus_parsed(parsed, units, doc_id, token_limit=chunker.token_limit, stats=consumed, filing=filing)
    document = corpus_to_semantic_document(corpus, doc_id, pdf_uri(path), parsed.sha256)
    tables = {eu.eu_id.rsplit("-s", 1)[0]: eu for eu in units}
    info = {
        "kind": INFO_KIND,
        "pdf_path": str(path.resolve()),
        "pdf_sha256": parsed.sha256 or file_sha256(path),
        "parser": parsed.parser,
        "pages": parsed.page_count,
        "units": len(units),
        "chunks": len(corpus),
        "text_chunks": sum(1 for c in corpus if chunk_kind(c) == "text"),
        "tables": len(tables),
        "captions": {conf: sum(1 for eu in tables.values() if eu.caption_confidence == conf)
                     for conf in ("direct", "inferred", "none")},
        "caption_sources": {source: sum(1 for eu in tables.values() if eu.caption_source == source)
                            for source in CAPTION_SOURCES},
        "filing": {key: value for key, value in filing.items() if key != "profile"},
        "dropped_lines": _dropped_summary(dropped_running_lines(parsed.document, units)),
        "profile": filing.get("profile", ""),
        "subject": filing_subject(filing),
        "language": text_language(document.text),
        "split_tables": len({eu.eu_id.rsplit("-s", 1)[0] for eu in units if eu.is_split}),
        "oversized_units": list(chunker.last_split_stats.oversized_ids),
        "context_paragraphs": sum(len(eu.context_before) + len(eu.context_after) for eu in units),
        "text_chunks_dropped": consumed.dropped,
        "text_chunks_rebuilt": consumed.rebuilt,
        "ocr_pages": sorted(parsed.ocr_pages),
        "ocr_confidence": parsed.ocr_confidence,
        "ocr_timeouts": list(parsed.ocr_timeouts),
        **({"page_range": str(page_range)} if page_range is not None else {}),
    }
    return PreparedDocument(path=path, document=document, info=info)


#: Distinct dropped running lines named in a document's info (the most frequent first).
DROPPED_EXAMPLES = 5


def _dropped_summary(lines: list[tuple[int, str]]) -> dict[str, Any]:
    """How many running lines reached no record, and the most frequent of them."""
    counts = Counter(text for _page, text in lines)
    return {"count": len(lines), "examples": [text for text, _n in counts.most_common(DROPPED_EXAMPLES)]}


@lru_cache(maxsize=4)
def _chunker(parser: str, artifacts_path: str | None, ocr=None):
    """One chunker per process, parser and OCR choice: Docling's converter loads its models once."""
    from .chunker import EvidenceChunker

    return EvidenceChunker(parser=parser, artifacts_path=artifacts_path, ocr=ocr)


def _prepare_safely(args: tuple, pages: list | None = None, on_page=None) -> PreparedDocument | Failure:
    """``prepare_document`` of a job ``(path, parser, artifacts_path, doc_id[, page_range, document_timeout,
    ocr])`` within its time limit, or the Failure that names the file."""
    from .deadline import document_deadline

    path, parser, artifacts_path, doc_id, *limits = args
    page_range, timeout, ocr = (*limits, None, None, None)[:3]
    try:
        with document_deadline(timeout, path):
            return prepare_document(path, parser, artifacts_path, doc_id=doc_id, pages=pages, page_range=page_range,
                                    on_page=on_page, ocr=ocr)
    except (EvidenceChunkerError, OSError, ValueError) as exc:
        return Failure(path, failure_text(path, exc))


def _read_pages_safely(path: Path, start: int, stop: int, ocr=None):
    """Pages ``start`` to ``stop - 1`` of a PDF read by the lite parser (a PageBatch), or a Failure."""
    try:
        return _chunker("lite", None, ocr).parser.read_pages(path, start, stop)
    except (EvidenceChunkerError, OSError, ValueError) as exc:
        return Failure(path, failure_text(path, exc))


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


class _sigterm_raises:
    """In the main thread, SIGTERM raises IngestTerminated (so workers are stopped and the summary of
    stored documents stands) instead of ending the process on the spot; the old handler is restored.

    Not while the main thread runs the process pool's own code (``_pool_code``): raised there, between two
    of its lock operations (``concurrent.futures.wait`` takes every future's lock in turn), the exception
    could leave a future's lock held, and the pool's thread, which the interpreter waits for at exit, would
    wait for that lock for ever. There the signal is noted, and raised as the block ends."""

    #: The guard of the ingest running in this process, if any (signal handlers are per process).
    active: "_sigterm_raises | None" = None

    def __enter__(self):
        self.previous = None
        self.deferring = 0
        self.noted = False
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGTERM, self._handle)
            _sigterm_raises.active = self
        return self

    def _handle(self, signum, frame):
        if self.deferring:
            self.noted = True
        else:
            raise self.error()

    @staticmethod
    def error() -> IngestTerminated:
        return IngestTerminated("ingest stopped by SIGTERM; its workers were stopped and every document stored so "
                                "far is kept: rerun the same command to resume")

    def __exit__(self, *exc):
        if self.previous is not None:
            signal.signal(signal.SIGTERM, self.previous)
            _sigterm_raises.active = None
        return False


@contextmanager
def _pool_code() -> Iterator[None]:
    """A block of the main thread's calls into the process pool, which SIGTERM must not interrupt (see
    ``_sigterm_raises``): a SIGTERM that arrives meanwhile raises IngestTerminated as the block ends."""
    guard = _sigterm_raises.active
    if guard is None or threading.current_thread() is not threading.main_thread():
        yield
        return
    guard.deferring += 1
    try:
        yield
    finally:
        guard.deferring -= 1
        if guard.noted and not guard.deferring:
            guard.noted = False
            raise guard.error()


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


def _prepared(todo: list[tuple[Path, str]], parser: str, artifacts_path: str | None, workers: int,
              page_range=None, document_timeout: float | None = None,
              page_progress: bool = False, ocr=None) -> Iterator[PreparedDocument | Failure]:
    """Prepared documents in input order, from a process pool when ``workers > 1`` (else here, with a bar
    of each PDF's pages when ``page_progress``). Closing the generator early (an exception in the caller,
    SIGTERM) stops the workers without waiting for their current file."""
    jobs = [(path, parser, artifacts_path, doc_id, page_range, document_timeout, ocr) for path, doc_id in todo]
    if workers <= 1 or not jobs:
        for job in jobs:
            with page_bar(job[0].name, enabled=page_progress) as on_page:
                outcome = _prepare_safely(job, on_page=on_page)
            yield outcome
        return
    with _pool_code():
        pool = ProcessPoolExecutor(max_workers=workers, initializer=_worker_started, initargs=(os.getpid(),))
        stopping = _quiet_when_stopping(pool)
    finished = False
    try:
        yield from _scheduled(pool, jobs, workers)
        finished = True
    except BrokenProcessPool as exc:
        raise WorkerDiedError(f"a worker process died during the ingest ({exc}); documents stored so far are kept: "
                              "rerun to resume, with fewer --workers if memory is short") from None
    finally:
        with _pool_code():
            if finished:
                pool.shutdown(wait=True)
            else:
                _stop_workers(pool, stopping)


#: Documents waiting in the pool's queue, per worker, beyond the one it works on: a worker that finishes
#: while the main process stores documents starts the next at once.
QUEUED_PER_WORKER = 4
#: Finished documents the main process may hold per worker while it waits for an earlier, slower one
#: (documents are stored in input order); past that, no more are handed out until it is in.
READY_PER_WORKER = 4
#: A PDF is read in page batches by several workers only with at least this many pages per batch...
MIN_PAGES_PER_BATCH = 16
#: ...a page without text (read by OCR, seconds where a text page takes milliseconds) counting as this many.
OCR_PAGE_WEIGHT = MIN_PAGES_PER_BATCH


class _InFlight:
    """A document handed to the pool: one task, or page batches read by several workers followed by the
    task that analyses the whole document (submitted once the batches are in)."""

    def __init__(self, pool: ProcessPoolExecutor, job: tuple, batches: list[tuple[int, int]] | None):
        self.job = job
        self.batches = [pool.submit(_read_pages_safely, job[0], start, stop, job[6]) for start, stop in batches or []]
        self.result = None if self.batches else pool.submit(_prepare_safely, job)
        self.failure: Failure | None = None

    def pending(self) -> list:
        """The futures still running."""
        return [f for f in ([self.result] if self.result is not None else self.batches) if not f.done()]

    def advance(self, pool: ProcessPoolExecutor) -> None:
        """Submit the analysis once every page batch is read (or settle on the first batch's failure)."""
        if self.result is not None or self.failure is not None or not all(f.done() for f in self.batches):
            return
        pages = [f.result() for f in self.batches]
        self.batches = []
        failed = [p for p in pages if isinstance(p, Failure)]
        if failed:
            self.failure = failed[0]
        else:
            self.result = pool.submit(_prepare_safely, self.job, pages)

    def done(self) -> bool:
        return self.failure is not None or (self.result is not None and self.result.done())

    def outcome(self) -> PreparedDocument | Failure:
        return self.failure if self.failure is not None else self.result.result()


def _scheduled(pool: ProcessPoolExecutor, jobs: list[tuple], workers: int) -> Iterator[PreparedDocument | Failure]:
    """Outcomes of ``jobs`` in input order. Documents are handed out as long as each worker has at most
    ``QUEUED_PER_WORKER`` waiting besides the one it works on, and at most ``READY_PER_WORKER`` finished
    ones per worker wait for an earlier one: a long document does not leave the other workers idle. A
    PDF handed out while fewer are left than workers is read in page batches."""
    in_flight: deque[_InFlight] = deque()
    unfinished = (1 + QUEUED_PER_WORKER) * workers
    held = unfinished + READY_PER_WORKER * workers
    waiting = deque(jobs)
    while waiting or in_flight:
        outcome = None
        with _pool_code():
            for doc in in_flight:  # page batches all read: their analysis goes in the queue now
                doc.advance(pool)
            while waiting and len(in_flight) < held and sum(not doc.done() for doc in in_flight) < unfinished:
                job = waiting.popleft()
                in_flight.append(_InFlight(pool, job,
                                           _page_batches(job, workers) if len(waiting) + 1 < workers else None))
            if in_flight[0].done():
                outcome = in_flight.popleft().outcome()
            else:  # with a timeout, so that a SIGTERM noted meanwhile is raised soon
                wait([f for doc in in_flight for f in doc.pending()], timeout=POLL_S, return_when=FIRST_COMPLETED)
        if outcome is not None:
            yield outcome


def _page_batches(job: tuple, workers: int) -> list[tuple[int, int]] | None:
    """Page ranges ``(start, stop)`` for reading a PDF in ``workers`` batches with the lite parser, or None
    when it is not worth it (few pages, another parser, not a readable PDF: left to the one-task path,
    which reports what is wrong)."""
    path, parser = job[0], job[1]
    if parser != "lite" or path.suffix.lower() != ".pdf" or any(job[4:6]):  # a page range or a time limit: one task
        return None
    from .parsing.lite_ocr import textless_pages

    try:
        textless = textless_pages(path)
    except Exception:  # noqa: BLE001 - any trouble opening it is reported by the one-task path
        return None
    pages = len(textless)
    weights = [OCR_PAGE_WEIGHT if t else 1 for t in textless]  # a page without characters is read by OCR
    total = sum(weights)
    count = min(workers, total // MIN_PAGES_PER_BATCH, pages)
    if count < 2:
        return None
    bounds, reached = [0], 0
    for i, weight in enumerate(weights):  # cut where the running weight passes each equal share
        reached += weight
        if len(bounds) < count and reached >= len(bounds) * total / count and i + 1 < pages:
            bounds.append(i + 1)
    return list(zip(bounds, bounds[1:] + [pages]))


def _quiet_when_stopping(pool: ProcessPoolExecutor) -> threading.Event:
    """An event that, once set, silences the pool's call-queue thread: stopping the workers breaks the pipe it
    writes jobs to (CPython's pool then also closes that pipe's reading end), and the thread would print the
    error's traceback. Must run before the first job is submitted: the thread takes its error handler when
    it starts."""
    stopping = threading.Event()
    call_queue = getattr(pool, "_call_queue", None)
    if call_queue is not None:
        report = call_queue._on_queue_feeder_error

        def on_error(exc: Exception, obj: object) -> None:
            if not stopping.is_set():
                report(exc, obj)

        call_queue._on_queue_feeder_error = on_error
    return stopping


def _stop_workers(pool: ProcessPoolExecutor, stopping: threading.Event) -> None:
    """Cancel queued jobs and end the workers now: SIGTERM, then SIGKILL after WORKER_STOP_GRACE_S. Returns once
    the pool's own thread has cleaned up (it finds the workers gone, fails their futures, closes its queues),
    so that nothing of the pool runs on while the interpreter exits."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    results = getattr(pool, "_result_queue", None)
    stopping.set()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()
    deadline = time.monotonic() + WORKER_STOP_GRACE_S
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))
        if process.is_alive():
            process.kill()
            process.join()
    if results is not None:
        # A worker stopped while it sent a result leaves the pool's thread waiting for the rest of that message
        # for ever (this process holds the pipe's other writing end), and the interpreter's exit then waits
        # for that thread: closing this last writing end ends the wait, and the pool finds itself broken.
        results._writer.close()
    if manager is not None:
        manager.join(WORKER_STOP_GRACE_S)


def _worker_started(parent_pid: int) -> None:
    """Pool initializer: make this worker die with its parent, however the parent ends."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C reaches the whole group: the parent decides
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    parent = os.getppid()
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watchdog below still ends the worker
    if parent != parent_pid and parent == 1:
        os._exit(1)  # the parent died before the death signal was armed
    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watchdog", daemon=True).start()


def _watch_parent(parent: int) -> None:
    """End this process once it has been re-parented (its parent died)."""
    while True:
        time.sleep(WATCHDOG_INTERVAL_S)
        if os.getppid() != parent:
            os._exit(1)
