"""Throughput of the citation oracle: statements validated per second.

A synthetic search result of 1,000 regions (financial sentences with amounts, percentages and years) and a
1,000-statement answer, each statement citing 1–3 regions; 5% cite an unknown id and 5% cite nothing.
Timed with and without the number check (the check runs when a statement has valid citations; "without"
uses sentences that carry no number, so only the citation checks run), plus JSON parsing of the payload.

    PYTHONPATH=. python benchmarks/bench_citations.py [--regions 1000] [--statements 1000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time
from typing import Any, Callable

from semantic_json.citations import cited_answer_schema, render_answer, validate_cited_answer
from semantic_json.transport import TRANSPORT_SCHEMA_ID

#: Regions per synthetic document.
REGIONS_PER_DOCUMENT = 10
#: Share of statements that cite an id the result does not hold / that cite nothing.
INVALID_SHARE = 0.05
UNSUPPORTED_SHARE = 0.05
SEED = 20240331


def region_text(n: int) -> str:
    return (
        f"B{n}기업의 2024년 매출액은 {1000 + n:,}억 원으로 전년 대비 {n % 10}.{n % 7}% 증가하였으며, "
        f"영업손실은 ({n % 90 + 10})억원, 부채비율은 {n % 5}.{n % 3}배이다. Revenue rose to KRW {n * 13:,} million."
    )


def make_result(region_count: int) -> dict[str, Any]:
    documents: list[dict[str, Any]] = []
    for n in range(region_count):
        document_id = f"report_{n // REGIONS_PER_DOCUMENT:04d}"
        if not documents or documents[-1]["document_id"] != document_id:
            sha = hashlib.sha256(document_id.encode()).hexdigest()
            documents.append({"document_id": document_id, "source_uri": f"file:///{document_id}.txt",
                              "document_sha256": sha, "regions": []})
        text = region_text(n)
        k = len(documents[-1]["regions"])
        documents[-1]["regions"].append({
            "region_id": f"{document_id}:R{k + 1}",
            "score": 1.0,
            "entities": [f"B{n}_CORP"],
            "source": {"document_id": document_id, "uri": f"file:///{document_id}.txt", "start_char": k * 400,
                       "end_char": k * 400 + len(text), "start_line": k * 3 + 1, "end_line": k * 3 + 2,
                       "document_sha256": documents[-1]["document_sha256"], "pages": [k + 1]},
            "anchors": ["P1", "P2"],
            "text": text,
        })
    return {"schema": TRANSPORT_SCHEMA_ID, "query": "bench", "region_count": region_count,
            "document_count": len(documents), "documents": documents}


def make_answer(result: dict[str, Any], statement_count: int, with_numbers: bool) -> dict[str, Any]:
    rng = random.Random(SEED)
    regions = [(r["region_id"], r["text"]) for d in result["documents"] for r in d["regions"]]
    statements = []
    for _ in range(statement_count):
        cited = rng.sample(regions, rng.randint(1, 3))
        n = int(cited[0][1][1 : cited[0][1].index("기업")])
        if with_numbers:
            sentence = f"B{n}기업의 2024년 매출액은 {1000 + n:,}억원이며 부채비율은 {n % 5}.{n % 3}배이다."
        else:
            sentence = f"B{n}기업의 매출액은 전년 대비 증가하였다."
        ids = [region_id for region_id, _ in cited]
        roll = rng.random()
        if roll < INVALID_SHARE:
            ids.append("report_9999:R1")
        elif roll < INVALID_SHARE + UNSUPPORTED_SHARE:
            ids = []
        statements.append({"sentence": sentence, "citation_ids": ids})
    return {"statements": statements}


def best_of(repeat: int, run: Callable[[], Any]) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--regions", type=int, default=1000)
    parser.add_argument("--statements", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    result = make_result(args.regions)
    print(f"citation oracle: {args.statements} statements against {args.regions} regions (best of {args.repeat})")
    schema_seconds = best_of(args.repeat, lambda: cited_answer_schema(result))
    print(f"  cited_answer_schema (enum of {args.regions} ids): {schema_seconds * 1000:8.2f} ms")
    for label, with_numbers, policy in (
        ("citations only (no numbers)", False, "reject"),
        ("citations + number check", True, "reject"),
        ("citations + number check, policy=strip", True, "strip"),
    ):
        answer = make_answer(result, args.statements, with_numbers)
        text = json.dumps(answer, ensure_ascii=False)
        report = validate_cited_answer(text, result, policy=policy)
        seconds = best_of(args.repeat, lambda: validate_cited_answer(text, result, policy=policy))
        print(
            f"  {label:<40} {args.statements / seconds:>10,.0f} statements/s  ({seconds * 1000:7.2f} ms; "
            f"{report.counts['accepted']} accepted, {report.counts['rejected']} rejected, "
            f"{report.flag_counts['ungrounded_number']} flagged)"
        )
    render_seconds = best_of(args.repeat, lambda: render_answer(report, "html"))
    print(f"  render_answer html ({report.counts['accepted']} statements):  {render_seconds * 1000:8.2f} ms")


if __name__ == "__main__":
    main()
