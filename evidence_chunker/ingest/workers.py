"""The worker processes of an ingest: documents handed out a few per worker, a PDF's pages read in batches by
several workers when few PDFs are left, workers that die with the main process (the kernel's parent-death
signal on Linux, a watchdog thread elsewhere), and SIGTERM turned into IngestTerminated."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from .batch import Failure, failure_text, page_bar
from ..errors import EvidenceChunkerError, IngestTerminated, WorkerDiedError
from .prepare import PreparedDocument, _chunker, prepare_document


#: Seconds between a worker's checks that its parent is still alive (where no parent-death signal exists).
WATCHDOG_INTERVAL_S = 1.0


#: Seconds a stopped worker gets to exit after SIGTERM before it is killed.
WORKER_STOP_GRACE_S = 2.0


#: Seconds the main thread waits for a worker's result at a time (a SIGTERM that came meanwhile acts after it).
POLL_S = 0.2


#: Linux prctl option that makes the kernel signal a process when its parent dies.
_PR_SET_PDEATHSIG = 1


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
    from ..parsing.lite.ocr_pages import textless_pages

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
