"""Do tables in real filings know what they are? Titles, units and periods on finqa_dev.

    python benchmarks/bench_titles.py [--pdf-dir ../shared/corpus/finqa_dev/pdfs] [--cache out/parse_cache]

Prints, for the finqa_dev filings (data: ../shared/corpus/finqa_dev, real 10-K/10-Q/8-K PDFs):

1. the share of table units (split pieces counted once) that have a title, and their caption sources
   (direct / caption / title block / running title / heading / none);
2. the primary financial statements written down by hand in tests/data/finqa_statements.json (page,
   printed name, unit, period): how many carry their statement name as title, and the right unit and period.

Parses with the lite parser (``--cache`` keeps the parses, see parse_cache.py).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from parse_cache import cached_parse  # noqa: E402

from evidence_chunker import EvidenceChunker, EvidenceUnit  # noqa: E402
from evidence_chunker.units.titles import CAPTION_SOURCES, SOURCE_NONE  # noqa: E402

from paths import FINQA_PDFS, REPO  # noqa: E402

STATEMENTS_FILE = REPO / "tests" / "data" / "finqa_statements.json"


def _fold(text: str | None) -> str:
    return " ".join((text or "").replace("’", "'").casefold().split())


def whole_tables(units: list[EvidenceUnit]) -> list[EvidenceUnit]:
    """One unit per table: the first piece of a split table."""
    return [u for u in units if not u.is_split or u.split_index == 1]


def statement_table(units: list[EvidenceUnit], page: int) -> EvidenceUnit | None:
    """The table the statement on ``page`` became: the one with the most rows starting on that page."""
    on_page = [u for u in whole_tables(units) if u.page_no == page]
    return max(on_page, key=lambda u: (u.total_splits or 1, len(u.flattened_rows)), default=None)


def check_statement(units: list[EvidenceUnit], entry: dict) -> dict[str, bool]:
    """Whether the statement of ``entry`` (page, title, unit, period) has its name as title, and its unit
    and period (an entry without a unit or period passes that check)."""
    table = statement_table(units, entry["page"])
    if table is None:
        return {"found": False, "title": False, "unit": False, "period": False}
    return {
        "found": True,
        "title": _fold(entry["title"]) in _fold(table.caption_text),
        "unit": entry["unit"] is None or _fold(entry["unit"]) in _fold(table.unit),
        "period": entry["period"] is None or _fold(entry["period"]) in _fold(table.period),
    }


def load_statements(path: Path = STATEMENTS_FILE) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["statements"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pdf-dir", type=Path, default=FINQA_PDFS)
    ap.add_argument("--cache", type=Path, default=None, help="parse cache folder (benchmarks/parse_cache.py)")
    ap.add_argument("--statements-only", action="store_true", help="parse only the filings of the statement list")
    args = ap.parse_args(argv)
    statements = load_statements()
    wanted = {e["pdf"] for e in statements}
    pdfs = sorted(args.pdf_dir.glob("*.pdf"))
    if args.statements_only:
        pdfs = [p for p in pdfs if p.name in wanted]
    chunker = EvidenceChunker(parser="lite")
    sources: Counter[str] = Counter()
    checks: list[dict[str, bool]] = []
    for pdf in pdfs:
        units = chunker.chunk_parsed(cached_parse(pdf, args.cache), doc_id=pdf.stem)
        sources.update(u.caption_source for u in whole_tables(units))
        for entry in (e for e in statements if e["pdf"] == pdf.name):
            outcome = check_statement(units, entry)
            checks.append(outcome)
            if not all(outcome.values()):
                table = statement_table(units, entry["page"])
                got = (table.caption_text, table.unit, table.period) if table else None
                print(f"  miss {pdf.name} p{entry['page']}: {outcome} got {got}")
    tables = sum(sources.values())
    titled = tables - sources[SOURCE_NONE]
    print(f"{len(pdfs)} filings, {tables} tables: {titled / max(tables, 1):.1%} titled")
    print("  by source: " + ", ".join(f"{s} {sources[s]}" for s in CAPTION_SOURCES))
    if checks:
        n = len(checks)
        print(f"primary statements ({n} written down by hand, {len(wanted)} filings): "
              + ", ".join(f"{key} {sum(c[key] for c in checks)}/{n}" for key in ("found", "title", "unit", "period")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
