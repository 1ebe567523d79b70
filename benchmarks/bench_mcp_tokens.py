"""What a model reads from `sjt mcp` search: cl100k tokens of the tool's text content against the tokens of the
evidence text it carries, on real filings of the FinQA dev set.

The smallest ``--filings`` PDFs of finqa_dev that have questions are ingested with the lite parser into one
index; `sjt mcp` is started on it (the SDK's stdio client) and every question of those filings is searched at
``--k``. Per question: tokens of the text content, of the regions' own text (the sum over regions), their
ratio, and for comparison the tokens of the transport as pretty-printed JSON (the structured content) and of
``SearchResult.to_text()``. Tokens are counted by the library's own counter (evidence_chunker/tokens.py).

    PYTHONPATH=. python benchmarks/bench_mcp_tokens.py [--filings 3] [--k 5] [--index out/finqa3.sqlite]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections import Counter
from pathlib import Path

from paths import FINQA, FINQA_PDFS

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evidence_chunker.tokens import count_tokens  # noqa: E402

#: The issue's target: text content at most this many times the evidence text's own tokens.
TARGET_RATIO = 1.2


def filings_with_questions(count: int) -> tuple[list[Path], list[dict]]:
    """The ``count`` smallest finqa_dev PDFs that have questions, and those questions."""
    rows = [json.loads(line) for line in (FINQA / "questions.jsonl").read_text(encoding="utf-8").splitlines() if line]
    asked = Counter(row["pdf"] for row in rows)
    pdfs = sorted((FINQA_PDFS / name for name in asked if (FINQA_PDFS / name).is_file()), key=lambda p: p.stat().st_size)
    chosen = pdfs[:count]
    names = {pdf.name for pdf in chosen}
    return chosen, [row for row in rows if row["pdf"] in names]


def build_index(pdfs: list[Path], index: Path) -> None:
    from evidence_chunker.cli import main as sjt

    folder = index.parent / "pdfs"
    folder.mkdir(exist_ok=True)
    for pdf in pdfs:
        link = folder / pdf.name
        if not link.exists():
            link.symlink_to(pdf)
    if sjt(["ingest", str(folder), "--index", str(index), "--parser", "lite", "--no-progress"]):
        raise SystemExit("ingest failed")


def measure(index: Path, questions: list[dict], k: int) -> list[dict]:
    """Per question: the token counts of one MCP search."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    from semantic_json import SearchResult

    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "import sys; from evidence_chunker.cli import main; sys.exit(main())", "mcp", "--index", str(index)],
        env={"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
    )
    rows: list[dict] = []

    async def run() -> None:
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                for question in questions:
                    # camelCase field names: the same on mcp 1.x and 2.x
                    result = (await session.call_tool("search", {"query": question["question"], "k": k})
                              ).model_dump(by_alias=True)
                    assert not result.get("isError"), result["content"]
                    transport = result["structuredContent"]
                    regions = [r for d in transport["documents"] for r in d["regions"]]
                    rows.append({
                        "pdf": question["pdf"],
                        "question": question["question"],
                        "regions": len(regions),
                        "text_content": count_tokens(result["content"][0]["text"]),
                        "evidence": sum(count_tokens(r["text"]) for r in regions),
                        "pretty_json": count_tokens(json.dumps(transport, ensure_ascii=False, indent=2)),
                        "to_text": count_tokens(SearchResult.from_json(transport).to_text()),
                    })

    anyio.run(run)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--filings", type=int, default=3, help="how many of the smallest finqa_dev filings (default 3)")
    ap.add_argument("--k", type=int, default=5, help="regions per search (default 5)")
    ap.add_argument("--index", type=Path, default=None, help="keep the index here (default: a temporary folder)")
    args = ap.parse_args()
    if not FINQA_PDFS.is_dir():
        print(f"skipped: {FINQA_PDFS} is absent (the shared corpus is not beside the repository)")
        return 0
    pdfs, questions = filings_with_questions(args.filings)
    with tempfile.TemporaryDirectory(prefix="sjt-mcp-tokens-") as tmp:
        index = args.index or Path(tmp) / "index.sqlite"
        index.parent.mkdir(parents=True, exist_ok=True)
        if not index.is_file():
            build_index(pdfs, index)
        rows = measure(index, questions, args.k)
    print(f"finqa_dev, {len(pdfs)} filing(s): {', '.join(p.stem for p in pdfs)}; {len(rows)} question(s); "
          f"MCP search k={args.k}; cl100k tokens")
    print(f"{'filing':<22} {'regions':>7} {'text':>6} {'evidence':>8} {'ratio':>6} {'json':>6} {'to_text':>7}  question")
    for row in rows:
        print(f"{row['pdf'][:-4]:<22} {row['regions']:>7} {row['text_content']:>6} {row['evidence']:>8} "
              f"{row['text_content'] / max(row['evidence'], 1):>6.3f} {row['pretty_json']:>6} {row['to_text']:>7}  "
              f"{row['question'][:60]}")
    total = {key: sum(row[key] for row in rows) for key in ("text_content", "evidence", "pretty_json", "to_text")}
    ratio = total["text_content"] / max(total["evidence"], 1)
    print(f"{'all':<22} {sum(r['regions'] for r in rows):>7} {total['text_content']:>6} {total['evidence']:>8} "
          f"{ratio:>6.3f} {total['pretty_json']:>6} {total['to_text']:>7}")
    print(f"text content / evidence = {ratio:.3f} (target <= {TARGET_RATIO}); pretty JSON / evidence = "
          f"{total['pretty_json'] / max(total['evidence'], 1):.3f}; to_text / evidence = "
          f"{total['to_text'] / max(total['evidence'], 1):.3f}")
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    raise SystemExit(main())
