"""End-to-end ingest and search on a persisted index (prints figures, never asserts).

    python benchmarks/bench_ingest.py [--samples sample_pdfs] [--corpus ../shared/corpus/docling_gt] [--workers 2]

For each PDF set: ingest pages/s with the lite parser into a fresh SQLite index, index size on disk per
page, and search latency (p50/p95) over a fixed list of questions on the reopened index.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from evidence_chunker.batch import collect_inputs  # noqa: E402
from evidence_chunker.ingest import ingest  # noqa: E402
from semantic_json import SemanticRepository  # noqa: E402

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
#: Times each question is asked (after one warm-up round).
ROUNDS = 5


def measure(name: str, pdfs: list[Path], workers: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index.sqlite"
        repo = SemanticRepository.open(index)
        started = time.perf_counter()
        summary = ingest(pdfs, repo, parser="lite", workers=workers, progress=False)
        seconds = time.perf_counter() - started
        repo.close()
        size = index.stat().st_size + sum(p.stat().st_size for p in Path(tmp).glob("index.sqlite-*"))
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
    print(f"\n== {name}: {len(pdfs)} PDFs, {summary.pages} pages, workers={workers}")
    print(f"ingest: {seconds:.2f} s = {summary.pages / seconds:.2f} pages/s "
          f"({summary.indexed} indexed, {len(summary.failures)} failed)")
    for failure in summary.failures:
        print(f"  failed: {failure.path.name}: {failure.error[:120]}")
    print(f"units: {summary.units} evidence units, {summary.chunks} chunks, {summary.anchors} anchors")
    print(f"index on disk: {size / 1024:.0f} KiB = {size / pages / 1024:.1f} KiB/page; reopen {open_s * 1000:.0f} ms")
    print(f"search (k=5, {len(timings)} queries): p50 {statistics.median(timings):.2f} ms, "
          f"p95 {timings[int(0.95 * (len(timings) - 1))]:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=Path, default=REPO / "sample_pdfs")
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus" / "docling_gt")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    measure("sample_pdfs", collect_inputs([args.samples], suffixes=(".pdf",)), args.workers)
    if args.corpus.is_dir():
        measure("shared corpus", collect_inputs([args.corpus], suffixes=(".pdf",)), args.workers)
    else:
        print(f"\n(shared corpus not found at {args.corpus}: skipped)")


if __name__ == "__main__":
    main()
