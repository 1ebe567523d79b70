"""Ingest on a local Ray cluster (ray.init(num_cpus=2) started here): every good PDF indexed, a corrupt one
named, a worker killed mid-run retried by Ray, a rerun skipping what is indexed."""

from __future__ import annotations

import os
import shutil
import signal
import threading
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install 'semantic-json-transport[ray]')")
psutil = pytest.importorskip("psutil", reason="psutil is needed to find a Ray worker to kill")

from evidence_chunker.cli import main as sjt  # noqa: E402
from evidence_chunker.ingest.prepare import prepare_document  # noqa: E402
from evidence_chunker.ingest.ray_ingest import TASK_NAME, ray_ingest  # noqa: E402
from pdf_factory import corrupt_pdf  # noqa: E402
from repo_paths import SAMPLE_PDFS  # noqa: E402
from semantic_json import SemanticDocument, SemanticRepository  # noqa: E402

#: CPUs of the local test cluster (the machine has two cores).
CLUSTER_CPUS = 2
#: Smallest object store Ray accepts; the tasks return a few hundred kB each.
OBJECT_STORE_BYTES = 80 * 1024 * 1024
#: Seconds the killer waits for a running task before giving up.
KILL_WAIT_S = 120.0
KILL_POLL_S = 0.02


@pytest.fixture(scope="module")
def cluster():
    ray.init(num_cpus=CLUSTER_CPUS, include_dashboard=False, object_store_memory=OBJECT_STORE_BYTES,
             log_to_driver=False)
    yield
    ray.shutdown()


@pytest.fixture
def batch(tmp_path) -> Path:
    """The sample PDFs and one corrupt PDF in one folder."""
    folder = tmp_path / "reports"
    folder.mkdir()
    for pdf in SAMPLE_PDFS.glob("*.pdf"):
        shutil.copy(pdf, folder / pdf.name)
    corrupt_pdf(folder / "broken.pdf")
    return folder


class WorkerKiller(threading.Thread):
    """Kills (SIGKILL) the first Ray worker process seen running a prepare task."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.killed: int | None = None
        self.stop = threading.Event()

    def run(self) -> None:
        deadline = time.monotonic() + KILL_WAIT_S
        while not self.stop.is_set() and time.monotonic() < deadline:
            for proc in psutil.process_iter(["pid", "cmdline"]):
                if any(f"ray::{TASK_NAME}" in part for part in (proc.info["cmdline"] or [])):
                    os.kill(proc.info["pid"], signal.SIGKILL)
                    self.killed = proc.info["pid"]
                    return
            time.sleep(KILL_POLL_S)


def test_ray_ingest_indexes_every_good_pdf_despite_a_killed_worker_and_names_the_bad_one(cluster, batch, tmp_path, capsys):
    pdfs = sorted(batch.glob("*.pdf"))
    repo = SemanticRepository.open(tmp_path / "index.sqlite")
    killer = WorkerKiller()
    killer.start()
    summary = ray_ingest(pdfs, repo, parser="lite", progress=False)
    killer.stop.set()
    killer.join()
    assert killer.killed is not None, "no worker was seen running a task"
    assert summary.indexed == 3 and summary.files == 4
    assert [f.path.name for f in summary.failures] == ["broken.pdf"]
    assert "broken.pdf" in capsys.readouterr().err
    assert sorted(repo.documents) == ["annual_report_en", "credit_review_ko", "mixed_brief"]
    # what the workers prepared is what a local ingest prepares
    local = prepare_document(batch / "annual_report_en.pdf", "lite")
    assert repo.get_document("annual_report_en").to_json() == SemanticDocument.from_json(local.document_json).to_json()
    repo.close()

    again = SemanticRepository.open(tmp_path / "index.sqlite")
    rerun = ray_ingest(pdfs, again, parser="lite", progress=False)
    assert rerun.skipped == 3 and rerun.indexed == 0  # resume rule: nothing indexed twice
    assert [f.path.name for f in rerun.failures] == ["broken.pdf"]
    assert len(again) == 3 and again.anchor_count == summary.anchors
    again.close()


def test_cli_ingest_with_ray_uses_the_running_cluster(cluster, batch, tmp_path, capsys):
    index = tmp_path / "cli.sqlite"
    code = sjt(["ingest", str(batch), "--index", str(index), "--parser", "lite", "--ray", "--no-progress"])
    err = capsys.readouterr().err
    assert code == 1  # one PDF failed
    assert "broken.pdf" in err and "indexed 3" in err and "failed 1" in err
    repo = SemanticRepository.open(index)
    result = repo.search("diluted EPS Q3 2019", k=1)
    assert result[0].document_id == "annual_report_en" and repo.verify_source(result[0])
    repo.close()
