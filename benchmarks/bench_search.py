"""Search on a large index: start-up from process start, index size, latency (prints figures, never asserts).

    python benchmarks/bench_search.py --index out/finqa.sqlite --build --cache out/parse_cache
    python benchmarks/bench_search.py --index out/finqa.sqlite [--cli 5] [--save DIR]

``--build`` ingests every PDF of ``--pdf-dir`` (default ``../shared/corpus/finqa_dev/pdfs``: 53 SEC filings,
9,044 pages) into a fresh SQLite index at ``--index`` with the lite parser on ``--workers`` processes,
taking parses from the parse cache ``--cache`` (benchmarks/parse_cache.py) so that only the first build
parses; everything after the parser (Evidence Units, corpus, compile, embed, store) is the library's own
``ingest`` and runs every time.

Then, on the index:

* **size**: bytes of the index file (WAL included) per page (pages as recorded by ingest);
* **start-up**: ``sjt search QUESTION --index INDEX`` run as a fresh process, wall time from process start
  to exit and its CPU seconds, for the first ``--cli`` questions: once as this environment runs Python, once
  with compiled modules cached (as an installed package has them; PYTHONDONTWRITEBYTECODE otherwise makes
  every run compile this checkout again);
* **latency**: the index reopened in this process (the reopen timed), then every question of
  ``--questions`` searched over the whole corpus after ``WARMUP`` untimed ones: p50 / p95 in ms.

``--save DIR`` writes each question's transport (JSON) there, the in-process ones as ``NNN.json`` and the
``sjt search`` ones as ``cli-NNN.json``: comparing two such folders (``diff -r``) shows whether a change
altered any hit, score or region. The 1-minute load average is printed before and after each part: the
machine is shared, so wall times are noisy and CPU seconds are printed beside them.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench_ingest import _env, sjt  # noqa: E402  (the CLI of this checkout, as bench_ingest runs it)
from paths import FINQA, FINQA_PDFS, REPO  # noqa: E402

sys.path.insert(0, str(REPO))

#: Questions searched untimed before the latency is measured (first-query caches).
WARMUP = 3
#: Regions per search (the CLI default).
K = 5
KIB = 1024


def _load() -> str:
    return f"{os.getloadavg()[0]:.1f}"


def _cpu_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _prepare_from_cache(job: tuple[Path, str, str]):
    """``ingest.prepare_document`` for one PDF, its parse taken from the parse cache (runs in a worker)."""
    from parse_cache import cached_parse

    from evidence_chunker.ingest import prepare as ingest_module

    path, doc_id, cache = job
    chunker = ingest_module._chunker("lite", None)
    # the chunker ingest uses in this process parses from the cache: every step after the parser is unchanged
    chunker.parse = lambda pdf: cached_parse(Path(pdf), Path(cache), "lite")
    return ingest_module.prepare_document(path, "lite", None, doc_id=doc_id)


def build(index: Path, pdfs: list[Path], cache: Path, workers: int) -> None:
    """A fresh index at ``index`` from ``pdfs`` through the library's ingest, parses from ``cache``."""
    from evidence_chunker.ingest.run import ingest
    from semantic_json import SemanticRepository

    for stale in index.parent.glob(index.name + "*"):
        stale.unlink()

    def prepared(todo, parser, artifacts_path):
        with ProcessPoolExecutor(max_workers=workers) as pool:
            yield from pool.map(_prepare_from_cache, [(path, doc_id, str(cache)) for path, doc_id in todo])

    print(f"build: {len(pdfs)} PDFs into {index} (load average {_load()})", flush=True)
    started, cpu = time.perf_counter(), time.process_time() + _cpu_children()
    repo = SemanticRepository.open(index)
    try:
        summary = ingest(pdfs, repo, parser="lite", progress=False, prepared=prepared)
    finally:
        repo.close()
    print(f"build: {summary.as_text()}; {time.perf_counter() - started:.0f} s wall, "
          f"{time.process_time() + _cpu_children() - cpu:.0f} CPU s (load average {_load()})", flush=True)


def questions(path: Path) -> list[str]:
    """The questions of a JSONL question file, in file order."""
    return [json.loads(line)["question"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def index_figures(index: Path) -> int:
    """Print the index's size per page; the number of pages."""
    from semantic_json.store import open_store

    store = open_store(index, read_only=True)
    try:
        infos = store.infos()
    finally:
        store.close()
    pages = sum(int(info.get("pages", 0)) for info in infos.values())
    size = sum(p.stat().st_size for p in index.parent.glob(index.name + "*") if not p.name.endswith(".json"))
    print(f"index: {len(infos)} documents, {pages} pages, {size / KIB / KIB:.1f} MB = {size / max(pages, 1) / KIB:.1f} "
          f"KB/page")
    return pages


def cli_figures(index: Path, asked: list[str], save: Path | None, bytecode: Path | None = None) -> None:
    """``sjt search`` as a fresh process per question: wall time from process start and CPU seconds.

    With ``bytecode`` (a folder), Python keeps compiled modules there, as an installed package has them,
    and one untimed run fills it first; without, Python runs as this environment sets it (with
    PYTHONDONTWRITEBYTECODE every run compiles this checkout's modules again)."""
    env = _env()
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
        subprocess.run(sjt("search", asked[0], "--index", str(index)), capture_output=True, check=True, env=env)
    walls, cpus = [], []
    load_before = _load()
    for n, question in enumerate(asked):
        cpu = _cpu_children()
        started = time.perf_counter()
        out = subprocess.run(sjt("search", question, "--index", str(index), "-k", str(K)), capture_output=True,
                             text=True, check=True, env=env)
        walls.append(time.perf_counter() - started)
        cpus.append(_cpu_children() - cpu)
        if save is not None:
            (save / f"cli-{n:03d}.json").write_text(out.stdout, encoding="utf-8")
    how = "compiled modules cached" if bytecode is not None else (
        "modules compiled every run" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "Python's own bytecode cache")
    print(f"sjt search from process start, {how} ({len(asked)} questions, load average {load_before} before, "
          f"{_load()} after): wall median {statistics.median(walls):.2f} s, max {max(walls):.2f} s; "
          f"CPU median {statistics.median(cpus):.2f} s")


def latency_figures(index: Path, asked: list[str], save: Path | None) -> None:
    """Reopen the index in this process, then time every question (after WARMUP untimed ones)."""
    from semantic_json import SemanticRepository

    load_before = _load()
    started, cpu = time.perf_counter(), time.process_time()
    repo = SemanticRepository.open(index, read_only=True)
    print(f"reopen in process: {time.perf_counter() - started:.2f} s wall, {time.process_time() - cpu:.2f} CPU s; "
          f"{repo.anchor_count} anchors")
    try:
        for question in asked[:WARMUP]:
            repo.search(question, k=K)
        timings = []
        for n, question in enumerate(asked):
            t0 = time.perf_counter()
            result = repo.search(question, k=K)
            timings.append((time.perf_counter() - t0) * 1000)
            if save is not None:
                (save / f"{n:03d}.json").write_text(result.to_json(indent=2), encoding="utf-8")
    finally:
        repo.close()
    timings.sort()
    print(f"search over the corpus, k={K} ({len(timings)} questions, load average {load_before} before, "
          f"{_load()} after): p50 {statistics.median(timings):.1f} ms, "
          f"p95 {timings[int(0.95 * (len(timings) - 1))]:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--index", type=Path, required=True, help="the SQLite index (built by --build)")
    parser.add_argument("--build", action="store_true", help="build a fresh index at --index first")
    parser.add_argument("--pdf-dir", type=Path, default=FINQA_PDFS)
    parser.add_argument("--cache", type=Path, default=None, help="parse cache folder (benchmarks/parse_cache.py)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--questions", type=Path, default=FINQA / "questions.jsonl")
    parser.add_argument("--cli", type=int, default=3, help="questions asked with `sjt search` (0: none)")
    parser.add_argument("--save", type=Path, default=None, help="write each question's transport JSON here")
    args = parser.parse_args()
    print(f"machine: {os.cpu_count()} logical cores, Python {sys.version.split()[0]}")
    if args.build:
        if args.cache is None:
            parser.error("--build needs --cache (a parse cache folder; it is filled on the first build)")
        build(args.index, sorted(args.pdf_dir.glob("*.pdf")), args.cache, args.workers)
    if args.save is not None:
        args.save.mkdir(parents=True, exist_ok=True)
    asked = questions(args.questions)
    index_figures(args.index)
    if args.cli:
        cli_figures(args.index, asked[: args.cli], args.save)
        with tempfile.TemporaryDirectory() as bytecode:
            cli_figures(args.index, asked[: args.cli], None, Path(bytecode))
    latency_figures(args.index, asked, args.save)


if __name__ == "__main__":
    main()
