"""Benchmark of semantic_json: compile throughput, anchor embedding rate, search latency, memory.

Prints figures; asserts nothing. Run: python benchmarks/bench_semantic.py [--quick]

Targets on a 2-core machine: compile >= 1 MB/s, >= 20k anchors/s embedded, search p50 <= 10 ms at 100k
anchors, <= 300 MB for a repository of 100k anchors. The text is generated (mixed Korean/English credit
report prose with headings, bullets and tables) from a fixed seed, so runs are comparable.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from semantic_json import LiteEmbedder, SemanticRepository, compile  # noqa: E402

SEED = 20240601
#: Size of the text used for the compile throughput figure.
COMPILE_MB = 4.0
#: Anchor counts at which search latency is measured.
SEARCH_SIZES = (10_000, 100_000)
#: Queries timed per size.
SEARCH_QUERIES = 200
#: Units embedded for the embedding-rate figure.
EMBED_UNITS = 50_000

_KO_METRICS = ["매출액", "영업이익", "당기순이익", "부채비율", "유동비율", "이자보상배율", "차입금", "현금흐름", "자기자본", "신용등급"]
_EN_METRICS = ["revenue", "operating income", "net income", "debt ratio", "current ratio", "interest coverage", "borrowings", "cash flow", "equity", "credit rating"]
_KO_TEMPLATES = [
    "{c}기업의 {y}년 {m}은 전년 대비 {p}% {d}하였다.",
    "{c}기업은 현재까지 원리금을 정상적으로 상환하고 있다.",
    "다만 주요 거래계약이 {y}년에 만료될 예정이며, 중장기적으로 {m} 유지 여부는 불확실하다.",
    "{c}기업의 {m}은 업종 평균을 {d2}하는 수준으로 판단됨.",
    "한편 {c}기업은 {y}년 {q}분기에 {n}억원 규모의 회사채를 발행하였다.",
    "동사는 {m} 개선을 위해 비핵심 자산 매각을 검토하고 있으나, 시장 여건에 따라 지연될 수 있다.",
]
_EN_TEMPLATES = [
    "Company {c} reported {m} of {n}.{k} million in {y}, {d3} {p}% year on year.",
    "Company {c} has repaid principal and interest on schedule.",
    "However, its key supply contract expires in {y}, so its repayment capacity over the medium term is uncertain.",
    "{org} Holdings Inc. disclosed that its {m} {d3} to {p}.{k}% at the end of Q{q}.",
    "The rating agency affirmed the credit rating of Company {c}, while noting weaker liquidity.",
]
_ORGS = ["Acme", "Hanbit", "Daesung", "Northwind", "Bluestone", "Orion", "Seoul Marine", "Pacific Grain"]


def generate_report(rng: random.Random, target_chars: int) -> str:
    """Mixed Korean/English report text of about `target_chars` characters."""
    parts: list[str] = []
    size = 0
    section = 0
    while size < target_chars:
        section += 1
        company = rng.choice("ABCDEFGH")
        block = [f"## {section}. {company}기업 신용 분석 / Company {company} credit review\n"]
        for _ in range(rng.randint(2, 5)):
            sentences = []
            for _ in range(rng.randint(2, 5)):
                ko = rng.random() < 0.6
                template = rng.choice(_KO_TEMPLATES if ko else _EN_TEMPLATES)
                sentences.append(
                    template.format(
                        c=company, y=rng.randint(2015, 2026), m=rng.choice(_KO_METRICS if ko else _EN_METRICS),
                        p=rng.randint(1, 99), d=rng.choice(["증가", "감소"]), d2=rng.choice(["상회", "하회"]),
                        d3=rng.choice(["up", "down"]), q=rng.randint(1, 4), n=rng.randint(10, 9999),
                        k=rng.randint(0, 9), org=rng.choice(_ORGS),
                    )
                )
            block.append(" ".join(sentences) + "\n")
        if rng.random() < 0.5:
            block.append(f"- {company}기업 {rng.choice(_KO_METRICS)} {rng.randint(50, 300)}%로 하락함\n")
            block.append(f"- Company {company} {rng.choice(_EN_METRICS)} improved\n")
        if rng.random() < 0.4:
            rows = [f"<표 {section}> {company}기업 주요 재무지표", "구분 | 2023 | 2024"]
            rows += [f"{m} | {rng.randint(1, 9999):,} | {rng.randint(1, 9999):,}" for m in rng.sample(_KO_METRICS, 4)]
            block.append("\n".join(rows) + "\n")
        chunk = "\n".join(block) + "\n"
        parts.append(chunk)
        size += len(chunk)
    return "".join(parts)


def _rss_mb() -> float:
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def bench_compile(rng: random.Random, megabytes: float) -> None:
    text = generate_report(rng, int(megabytes * 1024 * 1024 / 2.2))
    size_mb = len(text.encode("utf-8")) / 1e6
    started = time.perf_counter()
    doc = compile(text, "bench_compile")
    elapsed = time.perf_counter() - started
    print(f"compile: {size_mb:.2f} MB, {len(doc.units):,} units in {elapsed:.2f} s -> {size_mb / elapsed:.2f} MB/s")


def bench_embed(rng: random.Random, units: int) -> None:
    texts: list[str] = []
    doc_number = 0
    while len(texts) < units:
        doc_number += 1
        texts.extend(u.text for u in compile(generate_report(rng, 400_000), f"e{doc_number}").units)
    texts = texts[:units]
    embedder = LiteEmbedder()
    embedder.embed_documents(texts[:1000])  # warm caches the way a long-running process has them
    fresh = LiteEmbedder()
    started = time.perf_counter()
    fresh.embed_documents(texts)
    elapsed = time.perf_counter() - started
    print(f"embed (LiteEmbedder dim={fresh.dim}, cold caches): {units:,} anchors in {elapsed:.2f} s -> {units / elapsed:,.0f} anchors/s")


def build_repository(rng: random.Random, anchors: int) -> tuple[SemanticRepository, float, float]:
    """A repository of about `anchors` anchors; returns it, seconds spent in add(), and the MB of process
    memory (RSS) that the compiled documents plus the repository hold."""
    gc.collect()
    rss_before = _rss_mb()
    docs = []
    total = 0
    n = 0
    while total < anchors:
        n += 1
        doc = compile(generate_report(rng, 300_000), f"doc{n:04d}", source_uri=f"file:///bench/doc{n:04d}.txt")
        docs.append(doc)
        total += len(doc.units)
    started = time.perf_counter()
    repo = SemanticRepository()
    for doc in docs:
        repo.add(doc)
    elapsed = time.perf_counter() - started
    del docs
    gc.collect()
    return repo, elapsed, _rss_mb() - rss_before


def repository_memory_mb(seed: int, anchors: int) -> tuple[int, float]:
    """Compile and add documents of about `anchors` anchors to a repository in memory; returns the anchor
    count and how much the process's RSS grew (the engine is an SQLite database in memory, which
    tracemalloc does not see)."""
    rng = random.Random(seed)
    gc.collect()
    before = _rss_mb()
    repo = SemanticRepository()
    n = 0
    while repo.anchor_count < anchors:
        n += 1
        repo.add(compile(generate_report(rng, 300_000), f"doc{n:04d}", source_uri=f"file:///bench/doc{n:04d}.txt"))
    gc.collect()
    return repo.anchor_count, _rss_mb() - before


def bench_search(rng: random.Random, anchors: int, queries: int) -> None:
    repo, build_s, repo_rss_mb = build_repository(rng, anchors)
    questions = [
        f"{rng.choice('ABCDEFGH')}기업의 중장기 채무상환능력은 어떤가?" if i % 2 == 0 else
        f"What is the {rng.choice(_EN_METRICS)} of Company {rng.choice('ABCDEFGH')}?"
        for i in range(queries)
    ]
    repo.search(questions[0])
    timings = []
    for question in questions:
        started = time.perf_counter()
        repo.search(question)
        timings.append((time.perf_counter() - started) * 1000)
    timings.sort()
    p50 = statistics.median(timings)
    p95 = timings[int(len(timings) * 0.95) - 1]
    print(
        f"search @ {repo.anchor_count:,} anchors ({len(repo)} docs): p50 {p50:.2f} ms, p95 {p95:.2f} ms; "
        f"add() {build_s:.1f} s ({repo.anchor_count / build_s:,.0f} anchors/s)"
    )
    print(f"  RSS growth while compiling + adding: {repo_rss_mb:.0f} MB; process RSS {_rss_mb():.0f} MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a smoke run)")
    args = parser.parse_args()
    rng = random.Random(SEED)
    compile_mb = 1.0 if args.quick else COMPILE_MB
    sizes = (10_000,) if args.quick else SEARCH_SIZES
    print(f"python {sys.version.split()[0]}; seed {SEED}")
    bench_compile(rng, compile_mb)
    bench_embed(rng, 10_000 if args.quick else EMBED_UNITS)
    for size in sizes:
        bench_search(rng, size, 50 if args.quick else SEARCH_QUERIES)
        gc.collect()
    count, held = repository_memory_mb(SEED, sizes[-1])
    print(f"memory @ {count:,} anchors: the process grew by {held:.0f} MB (documents + the engine in memory)")


if __name__ == "__main__":
    main()
