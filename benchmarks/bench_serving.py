"""Latency of `sjt mcp` and `sjt serve` on an index of sample_pdfs/ and its question set.

MCP: the time from spawning `sjt mcp` to an initialised session (the SDK's stdio client), then per tool
the median and worst latency over every question (search k=5, get_region and verify of the first region,
check_answer of a one-statement answer). Audit page (Starlette's TestClient, in process): the median and
worst time of a search page (which verifies every region, PDF hash included), a page image drawn cold and
served from the cache.

    PYTHONPATH=. python benchmarks/bench_serving.py [--index out/index.sqlite] [--k 5]
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

from paths import SAMPLE_PDFS
from paths import SAMPLE_QUESTIONS as QUESTIONS


def questions() -> list[str]:
    return [json.loads(line)["question"] for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]


def ms(seconds: list[float]) -> str:
    return f"median {statistics.median(seconds) * 1000:7.1f} ms, max {max(seconds) * 1000:7.1f} ms"


def bench_mcp(index: Path, k: int) -> None:
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "import sys; from evidence_chunker.cli import main; sys.exit(main())", "mcp", "--index", str(index)],
        env={"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
    )
    timings: dict[str, list[float]] = {"search": [], "get_region": [], "verify": [], "check_answer": []}

    async def timed(session, name, arguments):
        start = time.perf_counter()
        result = (await session.call_tool(name, arguments)).model_dump(by_alias=True)  # mcp 1.x and 2.x alike
        timings[name].append(time.perf_counter() - start)
        assert not result.get("isError"), result["content"]
        return result["structuredContent"]

    async def run() -> float:
        start = time.perf_counter()
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                started = time.perf_counter() - start
                for question in questions():
                    transport = await timed(session, "search", {"query": question, "k": k})
                    first = transport["documents"][0]["regions"][0]["citation_id"]
                    await timed(session, "get_region", {"region_id": first})
                    await timed(session, "verify", {"region_ids": [first]})
                    await timed(session, "check_answer", {"answer": {"statements": [
                        {"sentence": "The answer is in the cited region.", "citation_ids": [first]}]}})
        return started

    started = anyio.run(run)
    print(f"sjt mcp: spawn to initialised session {started * 1000:.0f} ms ({len(questions())} questions, k={k})")
    for name, seconds in timings.items():
        print(f"  {name:<13} {ms(seconds)}")


def bench_audit(index: Path, k: int) -> None:
    import re
    from html import unescape

    from starlette.testclient import TestClient

    from evidence_chunker.serve.audit.app import create_app

    pages: list[float] = []
    cold: list[float] = []
    cached: list[float] = []
    with TestClient(create_app(index, allowed_hosts=["testserver"])) as client:
        for question in questions():
            start = time.perf_counter()
            page = client.get("/search", params={"q": question, "k": k})
            pages.append(time.perf_counter() - start)
            match = re.search(r'class="badge show" href="([^"]+)"', page.text)
            if not match:
                continue
            url = unescape(match.group(1))
            for bucket in (cold, cached):
                start = time.perf_counter()
                image = client.get(url)
                bucket.append(time.perf_counter() - start)
                assert image.status_code == 200
    print(f"sjt serve (TestClient, {len(pages)} questions, k={k}):")
    print(f"  search page   {ms(pages)}")
    print(f"  page image    cold {ms(cold)}; cached {ms(cached)} ({len(cold)} images)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, help="an index of sample_pdfs/ (default: built in a temporary folder)")
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        index = args.index
        if index is None:
            from evidence_chunker.cli import main as sjt

            index = Path(tmp) / "index.sqlite"
            if sjt(["ingest", str(SAMPLE_PDFS), "--index", str(index), "--parser", "lite", "--no-progress"]):
                raise SystemExit("ingest failed")
        bench_mcp(index, args.k)
        bench_audit(index, args.k)


if __name__ == "__main__":
    main()
