"""Ingest on a Ray cluster: one PDF a task (parse → units → corpus → compile on the workers), finished
documents streamed to the single index writer in the driver, in the order they finish.

Same contract as ``ingest`` (it is ``ingest`` with Ray as the source of prepared documents): PDFs already
indexed with the same bytes are skipped before any task is sent, a bad PDF is reported by name and the
others go on, and embedding and storing stay in the driver, one transaction per document, so the index has
one writer. A task whose worker dies is retried by Ray (``TASK_RETRIES`` times); a PDF whose task still
fails is reported like a bad PDF, never lost silently. Workers read the PDFs at the driver's paths, so on a
multi-machine cluster the folder must be shared (NFS, a mounted bucket) and ``semantic-json-transport``
installed on every node. Needs the ``ray`` extra.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from .batch import Failure
from ..errors import RayUnavailableError
from .prepare import PreparedDocument
from .run import IngestSummary, ingest
from .workers import _prepare_safely

#: Times Ray re-runs a task whose worker process died (killed, out of memory) before reporting it failed.
TASK_RETRIES = 3
#: Tasks submitted per cluster CPU before the driver waits for results (keeps every worker busy while
#: the driver writes, without queueing the whole batch).
TASKS_IN_FLIGHT_PER_CPU = 2
#: Ray's name for the remote function; worker processes show it as ``ray::prepare_pdf`` while they run it.
TASK_NAME = "prepare_pdf"


def _ray():
    try:
        import ray
    except ImportError as exc:
        raise RayUnavailableError(
            f"--ray needs Ray ({exc}); pip install 'semantic-json-transport[ray]'"
        ) from exc
    return ray


def connect(address: str | None = None, num_cpus: int | None = None) -> bool:
    """Join the Ray cluster at ``address`` ("auto", "host:6379", "ray://host:10001"), or start a local one
    with ``num_cpus`` workers when ``address`` is None. Returns True when this call started Ray (and so
    should shut it down). An already initialised Ray (``ray.init`` done by the caller) is used as it is."""
    ray = _ray()
    if ray.is_initialized():
        return False
    try:
        if address is None:
            ray.init(num_cpus=num_cpus, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        where = address or "a local cluster"
        raise RayUnavailableError(f"cannot start or join Ray at {where}: {exc}") from exc
    return True


def ray_prepared(todo: list[tuple[Path, str]], parser: str, artifacts_path: str | None, page_range=None,
                 document_timeout: float | None = None, ocr=None) -> Iterator[PreparedDocument | Failure]:
    """Prepared documents (or failures by file) from Ray tasks, each yielded as soon as its task finishes;
    ``page_range`` and ``document_timeout`` as for ``ingest`` (the time limit is kept in each task), ``ocr``
    the parsers' OcrOptions."""
    ray = _ray()
    task = ray.remote(max_retries=TASK_RETRIES, retry_exceptions=False)(_prepare_safely).options(name=TASK_NAME)
    # a bounded number of tasks in flight: finished documents wait in the object store only as long as the
    # one writer needs, however many PDFs the batch holds
    window = max(1, int(ray.cluster_resources().get("CPU", 1)) * TASKS_IN_FLIGHT_PER_CPU)
    queue = iter(todo)
    pending: dict = {}
    while True:
        for path, doc_id in queue:
            pending[task.remote((path, parser, artifacts_path, doc_id, page_range, document_timeout, ocr))] = path
            if len(pending) >= window:
                break
        if not pending:
            return
        done, _ = ray.wait(list(pending), num_returns=1)
        for ref in done:
            path = pending.pop(ref)
            try:
                yield ray.get(ref)
            except ray.exceptions.RayError as exc:  # the worker died on every retry, or the task itself crashed
                yield Failure(path, f"{path}: Ray task failed after {TASK_RETRIES} retries ({_first_line(exc)})")


def ray_ingest(paths: Iterable[Path], repo, parser: str = "lite", artifacts_path: str | None = None,
               address: str | None = None, num_cpus: int | None = None, progress: bool = True,
               page_range=None, document_timeout: float | None = None, ocr=None) -> IngestSummary:
    """Add every PDF of ``paths`` to ``repo`` with the parsing spread over a Ray cluster (see ``connect`` for
    ``address`` and ``num_cpus``; ``ocr`` the parsers' OcrOptions); returns the same summary as ``ingest``.
    Ray started here is shut down at the end."""
    if parser == "auto":
        # each worker would decide on its own (and warn on its own); decide once, here, like ``ingest``
        from .prepare import _chunker

        parser = _chunker(parser, artifacts_path, ocr).parser.name
    started = connect(address, num_cpus)
    try:
        return ingest(paths, repo, parser=parser, artifacts_path=artifacts_path, progress=progress,
                      prepared=ray_prepared, page_range=page_range, document_timeout=document_timeout, ocr=ocr)
    finally:
        if started:
            _ray().shutdown()


def _first_line(exc: Exception) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else exc.__class__.__name__
