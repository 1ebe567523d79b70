"""Ingest and search figures on real report pages and on the sample PDFs (prints figures, never asserts).

    python benchmarks/bench_ingest.py [--real DIR] [--one NAME] [--big NAME] [--limit N] [--workers 2]
                                      [--samples DIR] [--skip ...]

Real pages come from ``--real`` (default ``../shared/corpus/finqa_dev/pdfs`` next to the repository: 53
SEC filings, 9,044 pages), read in place. Every figure comes from ``sjt`` run as a subprocess with the
lite parser into a fresh SQLite index, the way a user runs it:

* ``one``: ``sjt ingest`` of one 10-K (``--one``, default 3M_2022_10K) on one process: pages/s and
  peak RSS.
* ``big``: the same for the largest report (``--big``, default PEPSICO_2021_10K, 549 pages): peak RSS;
  then with ``--workers N``, its pages read in batches by the workers: wall time and each process's RSS.
* ``all``: ``sjt ingest --workers N`` over every PDF of ``--real`` (or the first ``--limit`` by name):
  wall time, pages/s, peak RSS of the main process and of the largest worker, KB of index per page,
  then ``sjt search`` wall time from process start (median of a few questions) on that index.
* ``samples``: in-process ingest of ``--samples`` (default sample_pdfs) with search latency p50/p95.

RSS is sampled from /proc every ``SAMPLE_S`` seconds per process (the main process and its workers
apart); the whole run's peak (getrusage of the children) is printed too. CPU seconds (user + system,
all processes of the run) are printed beside wall time, and the 1-minute load average before and after
each run: other jobs on the machine slow wall-clock figures down, CPU seconds much less.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from paths import FINQA_PDFS, REPO, SAMPLE_PDFS  # noqa: E402

sys.path.insert(0, str(REPO))

#: Seconds between two RSS samples of the process tree.
SAMPLE_S = 0.2
#: Questions timed with ``sjt search`` (each a fresh process).
CLI_QUESTIONS = ["net cash provided by operating activities", "total debt maturities", "diluted earnings per share"]
QUESTIONS = [
    "What was operating income in 2024?",
    "net cash provided by operating activities",
    "total liabilities and equity",
    "diluted EPS in the third quarter",
    "B기업의 중장기 채무상환능력은 어떤가?",
    "2026년 원리금 상환 합계",
    "부채비율 추이",
    "table structure recognition accuracy",
    "layout analysis dataset statistics",
    "revenue by region",
]
#: Times each question is asked (after one warm-up round) in the in-process sample measurement.
ROUNDS = 5
KIB = 1024


def sjt(*args: str) -> list[str]:
    """The command line running this checkout's CLI with the venv's Python."""
    return [sys.executable, "-c", "from evidence_chunker.cli import main; main()", *args]


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
    return env


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _children(pid: int) -> list[int]:
    try:
        return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


class RssSampler(threading.Thread):
    """Peak RSS (KiB) of a process and, apart, of the largest of its descendants, sampled from /proc."""

    def __init__(self, pid: int):
        super().__init__(daemon=True)
        self.pid = pid
        self.main_peak = 0
        self.worker_peak = 0
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.is_set():
            self.main_peak = max(self.main_peak, _rss_kib(self.pid))
            stack = _children(self.pid)
            while stack:
                child = stack.pop()
                self.worker_peak = max(self.worker_peak, _rss_kib(child))
                stack.extend(_children(child))
            self.done.wait(SAMPLE_S)


def run_sjt(*args: str) -> tuple[float, RssSampler, str]:
    """Run ``sjt args``; wall seconds, the RSS sampler and the last line of stdout (the summary)."""
    started = time.perf_counter()
    proc = subprocess.Popen(sjt(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env())
    sampler = RssSampler(proc.pid)
    sampler.start()
    out, err = proc.communicate()
    seconds = time.perf_counter() - started
    sampler.done.set()
    sampler.join()
    if proc.returncode not in (0, 1):
        raise SystemExit(f"sjt {' '.join(args)} failed ({proc.returncode}):\n{err[-2000:]}")
    lines = out.strip().splitlines() or err.strip().splitlines()
    return seconds, sampler, lines[-1] if lines else ""


def _pages(pdfs: list[Path]) -> int:
    import pypdfium2 as pdfium

    total = 0
    for path in pdfs:
        pdf = pdfium.PdfDocument(str(path))
        total += len(pdf)
        pdf.close()
    return total


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def _index_bytes(index: Path) -> int:
    return sum(p.stat().st_size for p in index.parent.glob(index.name + "*"))


def ingest_figures(name: str, pdfs: list[Path], workers: int, search: bool) -> None:
    """One ``sjt ingest`` run into a fresh index, then (``search``) ``sjt search`` from process start."""
    pages = _pages(pdfs)
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index.sqlite"
        load_before = _load()
        args = ["ingest", *map(str, pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]
        if workers > 1:
            args += ["--workers", str(workers)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        seconds, rss, summary = run_sjt(*args)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        peak = after.ru_maxrss
        size = _index_bytes(index)
        print(f"\n== {name}: {len(pdfs)} PDFs, {pages} pages, workers={workers} "
              f"(load average {load_before} before, {_load()} after)")
        print(f"ingest: {seconds:.1f} s wall = {pages / seconds:.2f} pages/s; CPU {cpu:.1f} s in all processes "
              f"= {pages / cpu:.2f} pages per CPU-second")
        print(f"peak RSS: main process {rss.main_peak / KIB:.0f} MB, largest worker "
              f"{rss.worker_peak / KIB:.0f} MB (sampled); largest process of all runs so far {peak / KIB:.0f} MB")
        print(f"index: {size / KIB / KIB:.1f} MB = {size / pages / KIB:.1f} KB/page")
        print(f"sjt: {summary}")
        if search:
            timings = []
            for question in CLI_QUESTIONS:
                started = time.perf_counter()
                subprocess.run(sjt("search", question, "--index", str(index)), capture_output=True, check=True,
                               env=_env())
                timings.append(time.perf_counter() - started)
            print(f"sjt search from process start: median {statistics.median(timings):.2f} s, "
                  f"max {max(timings):.2f} s over {len(timings)} questions")


def sample_figures(name: str, pdfs: list[Path], workers: int) -> None:
    """In-process ingest of a small set and search latency on the reopened index."""
    from evidence_chunker.ingest.run import ingest
    from semantic_json import SemanticRepository

    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index.sqlite"
        repo = SemanticRepository.open(index)
        started = time.perf_counter()
        summary = ingest(pdfs, repo, parser="lite", workers=workers, progress=False)
        seconds = time.perf_counter() - started
        repo.close()
        size = _index_bytes(index)
        opened = time.perf_counter()
        repo = SemanticRepository.open(index)
        open_s = time.perf_counter() - opened
        for q in QUESTIONS:
            repo.search(q, k=5)
        timings = []
        for _ in range(ROUNDS):
            for q in QUESTIONS:
                t0 = time.perf_counter()
                repo.search(q, k=5)
                timings.append((time.perf_counter() - t0) * 1000)
        repo.close()
    timings.sort()
    pages = max(summary.pages, 1)
    print(f"\n== {name}: {len(pdfs)} PDFs, {summary.pages} pages, workers={workers} (load average {_load()})")
    print(f"ingest: {seconds:.2f} s = {summary.pages / seconds:.2f} pages/s "
          f"({summary.indexed} indexed, {len(summary.failures)} failed)")
    print(f"units: {summary.units} evidence units, {summary.chunks} chunks, {summary.anchors} anchors")
    print(f"index on disk: {size / KIB:.0f} KiB = {size / pages / KIB:.1f} KiB/page; reopen {open_s * 1000:.0f} ms")
    print(f"search (k=5, {len(timings)} queries): p50 {statistics.median(timings):.2f} ms, "
          f"p95 {timings[int(0.95 * (len(timings) - 1))]:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--real", type=Path, default=FINQA_PDFS)
    parser.add_argument("--one", default="3M_2022_10K", help="the 10-K timed on one process")
    parser.add_argument("--big", default="PEPSICO_2021_10K", help="the large report whose peak RSS is measured")
    parser.add_argument("--limit", type=int, default=0, help="only the first N PDFs of --real by name (0: all)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--samples", type=Path, default=SAMPLE_PDFS)
    parser.add_argument("--skip", nargs="*", default=[], choices=["one", "big", "all", "samples"])
    args = parser.parse_args()
    from evidence_chunker.ingest.batch import collect_inputs

    print(f"machine: {os.cpu_count()} logical cores, Python {sys.version.split()[0]}")
    if "samples" not in args.skip:
        sample_figures("sample_pdfs", collect_inputs([args.samples], suffixes=(".pdf",)), args.workers)
    if not args.real.is_dir():
        print(f"\n(real reports not found at {args.real}: skipped)")
        return
    real = collect_inputs([args.real], suffixes=(".pdf",))
    if "one" not in args.skip:
        ingest_figures(f"one 10-K ({args.one})", [args.real / f"{args.one}.pdf"], 1, search=False)
    if "big" not in args.skip:
        ingest_figures(f"largest report ({args.big})", [args.real / f"{args.big}.pdf"], 1, search=False)
        if args.workers > 1:
            ingest_figures(f"largest report ({args.big}), pages across workers", [args.real / f"{args.big}.pdf"],
                           args.workers, search=False)
    if "all" not in args.skip:
        chosen = sorted(real, key=lambda p: p.name)[: args.limit] if args.limit else real
        label = f"first {args.limit} finqa_dev PDFs by name" if args.limit else f"all {len(chosen)} finqa_dev PDFs"
        ingest_figures(label, chosen, args.workers, search=True)


if __name__ == "__main__":
    main()
