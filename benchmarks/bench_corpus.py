"""Corpus build time per page from parsed documents (the reference corpus's Docling JSONs).

Splits the work into its stages: EU building (tables → units, split to the token limit), text chunking
(HybridChunker over the non-table content), the consumed-paragraph filter, and the reading-order merge.
Parsing (loading the JSON) is shown apart; it is not part of corpus building. Prints, never asserts.

    PYTHONPATH=. .venv/bin/python benchmarks/bench_corpus.py [--repeat 5] [--corpus PATH]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from paths import DOCLING_GT as DEFAULT_CORPUS
from paths import corpus_doc_id as doc_id_of
from paths import corpus_jsons

STAGES = ("eu_build", "text_chunk", "filter", "merge")


def time_once(parsed, doc_id: str) -> tuple[dict[str, float], dict[str, int]]:
    """Seconds per stage for one corpus build, and what it produced."""
    from evidence_chunker import EvidenceChunker
    from evidence_chunker.corpus import ConsumedStats, filter_consumed_paragraphs, make_text_chunks, merge_in_reading_order

    seconds: dict[str, float] = {}
    start = time.perf_counter()
    units = EvidenceChunker().chunk_parsed(parsed, doc_id)
    seconds["eu_build"] = time.perf_counter() - start

    start = time.perf_counter()
    tables = {ref for unit in units for ref in unit.source_refs}
    text_chunks = make_text_chunks(parsed, doc_id, tables=tables)
    seconds["text_chunk"] = time.perf_counter() - start

    start = time.perf_counter()
    stats = ConsumedStats()
    kept = filter_consumed_paragraphs(text_chunks, units, stats=stats)
    seconds["filter"] = time.perf_counter() - start

    start = time.perf_counter()
    corpus = merge_in_reading_order(parsed, units, kept)
    seconds["merge"] = time.perf_counter() - start
    counts = {"units": len(units), "text_made": len(text_chunks), "text_kept": len(kept), "corpus": len(corpus),
              "dropped": stats.dropped, "rebuilt": stats.rebuilt}
    return seconds, counts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5, help="builds per document; the median is reported")
    args = parser.parse_args(argv)
    paths = corpus_jsons(args.corpus)
    if not paths:
        print(f"no Docling JSONs under {args.corpus}; nothing to measure")
        return 0

    start = time.perf_counter()
    from evidence_chunker.parsing.parsed import ParsedDoc

    import_seconds = time.perf_counter() - start
    first = ParsedDoc.from_docling_json(paths[0])
    start = time.perf_counter()
    time_once(first, doc_id_of(paths[0]))  # cold: docling-core's chunker modules and the BPE file load here
    cold_seconds = time.perf_counter() - start

    header = f"{'document':46} {'pages':>5} {'parse':>8} " + " ".join(f"{s:>10}" for s in STAGES) + \
        f" {'total':>8} {'ms/page':>8}  units text(kept/made)"
    print(f"median of {args.repeat} builds per document; times in ms")
    print(header)
    print("-" * len(header))
    totals = {stage: 0.0 for stage in STAGES}
    pages_total = 0
    parse_total = 0.0
    for path in paths:
        start = time.perf_counter()
        parsed = ParsedDoc.from_docling_json(path)
        parse = time.perf_counter() - start
        runs = [time_once(parsed, doc_id_of(path)) for _ in range(max(args.repeat, 1))]
        median = {stage: statistics.median(run[0][stage] for run in runs) for stage in STAGES}
        counts = runs[0][1]
        pages = max(parsed.page_count, 1)
        total = sum(median.values())
        pages_total += pages
        parse_total += parse
        for stage in STAGES:
            totals[stage] += median[stage]
        print(f"{doc_id_of(path)[:46]:46} {pages:>5} {parse * 1e3:>8.1f} "
              + " ".join(f"{median[s] * 1e3:>10.1f}" for s in STAGES)
              + f" {total * 1e3:>8.1f} {total * 1e3 / pages:>8.1f}  {counts['units']:>5} "
              f"{counts['text_kept']}/{counts['text_made']}")
    print("-" * len(header))
    grand = sum(totals.values())
    print(f"{'all documents':46} {pages_total:>5} {parse_total * 1e3:>8.1f} "
          + " ".join(f"{totals[s] * 1e3:>10.1f}" for s in STAGES)
          + f" {grand * 1e3:>8.1f} {grand * 1e3 / pages_total:>8.1f}")
    print("per page (ms): " + ", ".join(f"{s} {totals[s] * 1e3 / pages_total:.1f}" for s in STAGES)
          + "; share of build: " + ", ".join(f"{s} {totals[s] / grand:.0%}" for s in STAGES))
    print(f"one-off costs: import evidence_chunker {import_seconds:.2f} s; first build (loads docling-core's "
          f"chunker, and transformers/torch when installed, plus the cl100k file) {cold_seconds:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
