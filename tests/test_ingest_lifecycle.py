"""Ingest: unique document ids for same-named files, and workers that never outlive the main process."""

from __future__ import annotations

import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from evidence_chunker.cli import main as sjt
from evidence_chunker.ingest.run import unique_document_id
from repo_paths import REPO, SAMPLE_PDFS
from semantic_json import SemanticRepository, compile

#: Seconds to wait for workers to start, and for orphaned workers to be gone (a liveness bound, not a speed
#: target: the kernel kills them at once, the watchdog within a second).
START_TIMEOUT_S = 120.0
GONE_TIMEOUT_S = 20.0
#: Copies of a sample PDF, so that an ingest with two workers is still running when it is killed.
COPIES = 16

linux_only = pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads process trees from /proc (Linux)")


def _ingest(pdfs: Path, index: Path, capsys, *extra: str) -> str:
    code = sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress", *extra])
    err = capsys.readouterr().err
    assert code == 0, err
    return err


def test_same_file_name_in_two_folders_gives_two_documents_with_stable_ids(tmp_path, capsys):
    pdfs = tmp_path / "pdfs"
    (pdfs / "a").mkdir(parents=True)
    (pdfs / "b").mkdir()
    shutil.copy(SAMPLE_PDFS / "mixed_brief.pdf", pdfs / "a" / "report.pdf")
    shutil.copy(SAMPLE_PDFS / "credit_review_ko.pdf", pdfs / "b" / "report.pdf")
    index = tmp_path / "i.sqlite"
    second_id = unique_document_id(pdfs / "b" / "report.pdf")
    err = _ingest(pdfs, index, capsys)
    assert "indexed 2" in err and "renamed 1" in err
    assert f"warning: {pdfs / 'b' / 'report.pdf'}: document id 'report' is taken by {pdfs / 'a' / 'report.pdf'}; " \
           f"indexed as '{second_id}'" in err
    repo = SemanticRepository.open(index, read_only=True)
    assert sorted(repo.documents) == sorted(["report", second_id])
    assert repo.document_info("report")["pdf_path"] == str((pdfs / "a" / "report.pdf").resolve())
    assert repo.document_info(second_id)["pdf_path"] == str((pdfs / "b" / "report.pdf").resolve())
    repo.close()
    for _ in range(2):  # reruns: nothing swaps, nothing is redone
        assert "indexed 0, unchanged 2" in _ingest(pdfs, index, capsys)
    repo = SemanticRepository.open(index, read_only=True)
    assert sorted(repo.documents) == sorted(["report", second_id])
    repo.close()


def test_a_name_held_by_a_document_added_from_python_is_not_overwritten(tmp_path, capsys):
    index = tmp_path / "i.sqlite"
    repo = SemanticRepository.open(index)
    repo.add(compile("Notes typed by hand about revenue.", "mixed_brief"))
    repo.close()
    err = _ingest(SAMPLE_PDFS / "mixed_brief.pdf", index, capsys)
    assert "document id 'mixed_brief' is taken by a document added without a PDF" in err
    repo = SemanticRepository.open(index, read_only=True)
    assert repo.get_document("mixed_brief").text == "Notes typed by hand about revenue."
    assert len(repo) == 2
    repo.close()


def test_a_moved_pdf_keeps_its_id(tmp_path, capsys):
    old = tmp_path / "old"
    old.mkdir()
    shutil.copy(SAMPLE_PDFS / "mixed_brief.pdf", old / "brief.pdf")
    index = tmp_path / "i.sqlite"
    _ingest(old, index, capsys)
    new = tmp_path / "new"
    old.rename(new)
    err = _ingest(new, index, capsys)
    assert "taken" not in err
    repo = SemanticRepository.open(index, read_only=True)
    assert repo.documents == ["brief"] and repo.document_info("brief")["pdf_path"] == str((new / "brief.pdf").resolve())
    repo.close()


# --------------------------------------------------------------------------- workers


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            text = (task / "children").read_text()
            found.update(int(c) for c in text.split())
    except (FileNotFoundError, ProcessLookupError):
        pass
    return found


def _alive(pid: int) -> bool:
    """Running (a zombie waiting for its reaper counts as gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except FileNotFoundError:
        return False
    return fields[0] not in ("Z", "X")


def _start_ingest(tmp_path: Path) -> tuple[subprocess.Popen, Path, set[int]]:
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    for n in range(COPIES):
        shutil.copy(SAMPLE_PDFS / "annual_report_en.pdf", pdfs / f"{n:02d}_annual.pdf")
    index = tmp_path / "i.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "evidence_chunker.cli", "ingest", str(pdfs), "--index", str(index),
                             "--parser", "lite", "--no-progress", "--workers", "2"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(REPO)})
    deadline = time.monotonic() + START_TIMEOUT_S
    workers: set[int] = set()
    while time.monotonic() < deadline and proc.poll() is None:
        workers = {pid for pid in _children(proc.pid) if _alive(pid)}
        if len(workers) >= 2 and _stored(index) >= 1:
            break
        time.sleep(0.1)
    assert proc.poll() is None and len(workers) >= 2, "the ingest did not start two workers"
    return proc, index, workers


def _stored(index: Path) -> int:
    try:
        with sqlite3.connect(f"file:{index}?mode=ro", uri=True, timeout=1) as conn:
            return conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
    except sqlite3.Error:
        return 0


def _wait_gone(pids: set[int]) -> set[int]:
    deadline = time.monotonic() + GONE_TIMEOUT_S
    while time.monotonic() < deadline:
        left = {pid for pid in pids if _alive(pid)}
        if not left:
            return left
        time.sleep(0.1)
    return {pid for pid in pids if _alive(pid)}


@linux_only
def test_workers_die_when_the_main_process_is_killed(tmp_path):
    proc, index, workers = _start_ingest(tmp_path)
    proc.kill()  # SIGKILL: no handler runs in the main process
    proc.wait()
    left = _wait_gone(workers)
    for pid in left:  # do not leave them behind for the rest of the suite
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {sorted(left)} outlived their killed parent"
    repo = SemanticRepository.open(index, read_only=True)
    assert repo.damaged == {} and len(repo) >= 1
    repo.close()


@linux_only
def test_sigterm_stops_the_workers_and_keeps_what_was_stored(tmp_path):
    proc, index, workers = _start_ingest(tmp_path)
    proc.send_signal(signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=GONE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.communicate()
        err = b"<the main process did not exit after SIGTERM>"
    left = _wait_gone(workers)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, f"workers {sorted(left)} outlived SIGTERM to their parent"
    assert proc.returncode == 143
    assert b"error: ingest stopped by SIGTERM" in err and b"Traceback" not in err
    repo = SemanticRepository.open(index, read_only=True)
    stored = len(repo)
    assert repo.damaged == {} and 1 <= stored <= COPIES
    repo.close()


def test_one_file_named_twice_is_indexed_once(tmp_path, capsys):
    index = tmp_path / "i.sqlite"
    pdf = SAMPLE_PDFS / "mixed_brief.pdf"
    assert sjt(["ingest", str(pdf), str(pdf), str(SAMPLE_PDFS), "--index", str(index), "--parser", "lite",
                "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "files 3 (indexed 3, unchanged 0, failed 0)" in err  # mixed_brief once, plus the other two samples
    repo = SemanticRepository.open(index, read_only=True)
    assert sorted(repo.documents) == ["annual_report_en", "credit_review_ko", "mixed_brief"]
    repo.close()


def test_one_pdf_read_by_two_workers_is_indexed_as_by_one(tmp_path, monkeypatch):
    import evidence_chunker.ingest.run as ingest_module
    import evidence_chunker.ingest.workers as ingest_workers

    pdf = SAMPLE_PDFS / "annual_report_en.pdf"
    monkeypatch.setattr(ingest_workers, "MIN_PAGES_PER_BATCH", 2)  # its 6 pages in two batches of 3
    assert ingest_workers._page_batches((pdf, "lite", None, "annual_report_en"), 2) == [(0, 3), (3, 6)]
    documents = []
    for workers in (1, 2):
        repo = SemanticRepository.open(tmp_path / f"w{workers}.sqlite")
        summary = ingest_module.ingest([pdf], repo, parser="lite", workers=workers, progress=False)
        assert summary.indexed == 1 and not summary.failures
        documents.append((repo.get_document("annual_report_en").to_json(), repo.document_info("annual_report_en")))
        repo.close()
    assert documents[0] == documents[1]


def test_stopping_the_workers_leaves_nothing_of_the_pool_running(capfd):
    """An ingest stopped early (SIGTERM, an error while storing) returns only once the process pool's own
    threads are done: none may run on into the interpreter's exit, which then waited for ever on a thread
    reading the result of a worker stopped while sending it, or met a pipe closed under another thread."""
    import threading
    from concurrent.futures.process import _ExecutorManagerThread

    from evidence_chunker.ingest.workers import _prepared

    todo = [(SAMPLE_PDFS / "annual_report_en.pdf", f"copy{n}") for n in range(6)]
    for _ in range(4):
        outcomes = _prepared(todo, "lite", None, workers=2)
        assert next(outcomes).document.document_id == "copy0"
        outcomes.close()
        left = [t.name for t in threading.enumerate()
                if isinstance(t, _ExecutorManagerThread) or t.name == "QueueFeederThread"]
        assert left == []
    assert "Traceback" not in capfd.readouterr().err


def test_sigterm_while_the_pool_takes_its_locks_is_raised_once_it_is_done(tmp_path, monkeypatch):
    """A SIGTERM that arrives while ``concurrent.futures.wait`` takes the futures' locks in turn waits until
    the pool's code is done. Raised inside it, it left a future's lock held: the pool's thread then waited
    for that lock for ever, and the interpreter's exit waited for the thread (an ingest that ignored
    SIGTERM)."""
    import concurrent.futures._base as futures_base
    import threading
    from concurrent.futures.process import _ExecutorManagerThread

    from evidence_chunker.errors import IngestTerminated
    from evidence_chunker.ingest.run import ingest

    taken: list = []
    enter = futures_base._AcquireFutures.__enter__

    def take_locks_with_a_sigterm_between(self):
        if taken or len(self.futures) < 2:
            return enter(self)
        first, *rest = self.futures
        first._condition.acquire()
        taken.append(first)
        os.kill(os.getpid(), signal.SIGTERM)  # its handler runs here, before the next lock is taken
        for future in rest:
            future._condition.acquire()

    monkeypatch.setattr(futures_base._AcquireFutures, "__enter__", take_locks_with_a_sigterm_between)
    pdfs = [tmp_path / f"{n:02d}.pdf" for n in range(COPIES)]
    for pdf in pdfs:
        shutil.copy(SAMPLE_PDFS / "annual_report_en.pdf", pdf)
    repo = SemanticRepository.open(tmp_path / "i.sqlite")
    try:
        with pytest.raises(IngestTerminated):
            ingest(pdfs, repo, parser="lite", workers=2, progress=False)
        assert taken, "no SIGTERM was sent: wait() never had two futures"
        left = [t.name for t in threading.enumerate() if isinstance(t, _ExecutorManagerThread)]
        assert left == [], "the pool's thread outlived the ingest"
        assert not taken[0]._condition._is_owned()
        assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL
    finally:
        for future in taken:  # a failed run must not leave the suite's exit waiting for the pool's thread
            while future._condition._is_owned():
                future._condition.release()
        repo.close()
