"""Evidence Unit throughput and the token limit (prints figures, never asserts).

    python benchmarks/bench_units.py [--samples sample_pdfs] [--corpus ../shared/corpus/docling_gt] [--rounds 5]
        [--finqa ../shared/corpus/finqa_dev/pdfs] [--cache PARSE_CACHE] [--limit N]

1. PDF → EUs with the lite parser: pages/s and EUs/s on sample_pdfs and on the shared corpus PDFs.
2. EU building from an already parsed document (captions, context, rows, abstract, splits): tables/s on the
   reference Docling JSONs and on the parsed sample PDFs. Target on a 2-core machine: ≥ 200 tables/s.
3. The token limit: Evidence Units and Text Chunks over 512 cl100k tokens in the corpus of every document
   (``build_corpus``) of the reference corpus (Docling JSON), sample_pdfs and the shared corpus PDFs (lite),
   and finqa_dev's filings (lite, through the parse cache of ``--cache``, default $SJT_BENCH_PARSE_CACHE;
   ``--finqa ''`` skips them). Target: 0 everywhere.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from paths import DOCLING_GT, FINQA_PDFS, REPO, SAMPLE_PDFS  # noqa: E402

sys.path.insert(0, str(REPO))

from evidence_chunker import EvidenceChunker, ParsedDoc  # noqa: E402
from evidence_chunker.corpus.chunks import KIND_TABLE, chunk_kind  # noqa: E402
from evidence_chunker.tokens import DEFAULT_TOKEN_LIMIT, count_tokens  # noqa: E402
from parse_cache import cached_parse  # noqa: E402


def pdf_to_units(name: str, pdfs: list[Path]) -> list[ParsedDoc]:
    chunker = EvidenceChunker(parser="lite")
    parsed_docs, units, pages = [], 0, 0
    started = time.perf_counter()
    for pdf in pdfs:
        parsed = chunker.parse(pdf)
        units += len(chunker.chunk_parsed(parsed))
        pages += parsed.page_count
        parsed_docs.append(parsed)
    seconds = time.perf_counter() - started
    print(f"{name:<34} {len(pdfs):>4} PDFs {pages:>5} pages {units:>5} EUs   "
          f"{pages / seconds:7.1f} pages/s {units / seconds:7.1f} EUs/s")
    return parsed_docs


def building(name: str, docs: list[ParsedDoc], rounds: int) -> None:
    chunker = EvidenceChunker(parser="lite")
    tables = sum(len(d.document.tables) for d in docs)
    for doc in docs:  # warm-up: imports, tokenizer, HTML serializer
        chunker.chunk_parsed(doc)
    started = time.perf_counter()
    units = 0
    for _ in range(rounds):
        for doc in docs:
            units += len(chunker.chunk_parsed(doc))
    seconds = time.perf_counter() - started
    print(f"{name:<34} {tables:>5} tables x {rounds} rounds: {tables * rounds / seconds:8.1f} tables/s "
          f"({units // rounds} EUs per round, {seconds / rounds * 1000:.0f} ms per round)")


def over_limit(name: str, docs) -> None:
    """Units and Text Chunks over the token limit in the corpus of every document of ``docs`` (an iterable
    of ParsedDoc), with the worst of each kind."""
    chunker = EvidenceChunker(parser="lite")
    counts = {"units": [0, 0], "text chunks": [0, 0]}
    worst: list[tuple[int, str]] = []
    for parsed in docs:
        for chunk in chunker.build_corpus_parsed(parsed):
            tokens = count_tokens(chunk.text)
            kind = "units" if chunk_kind(chunk) == KIND_TABLE else "text chunks"
            counts[kind][0] += 1
            if tokens > DEFAULT_TOKEN_LIMIT:
                counts[kind][1] += 1
                worst.append((tokens, chunk.chunk_id))
    print(f"{name:<34} " + "   ".join(f"{over:>4} of {total:>6} {kind} over {DEFAULT_TOKEN_LIMIT} tokens"
                                        for kind, (total, over) in counts.items()))
    for tokens, chunk_id in sorted(worst, reverse=True)[:5]:
        print(f"    {tokens:>6} tokens  {chunk_id}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=Path, default=SAMPLE_PDFS)
    parser.add_argument("--corpus", type=Path, default=DOCLING_GT)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--finqa", default=str(FINQA_PDFS), help="folder of finqa_dev PDFs ('' skips them)")
    parser.add_argument("--cache", type=Path, default=os.environ.get("SJT_BENCH_PARSE_CACHE"),
                        help="parse cache folder for the finqa_dev PDFs (benchmarks/parse_cache.py)")
    parser.add_argument("--limit", type=int, default=None, help="only the N smallest finqa_dev PDFs")
    parser.add_argument("--limits-only", action="store_true", help="only section 3 (the token limit)")
    args = parser.parse_args()
    if not args.limits_only:
        throughput(args)
    print(f"\nThe token limit ({DEFAULT_TOKEN_LIMIT} cl100k tokens) over every document's corpus")
    jsons = sorted(args.corpus.glob("docling/groundtruth/*.json")) + sorted(args.corpus.glob("docling-cvat-tools/*/expected.json"))
    if jsons:
        over_limit("reference corpus (Docling JSON)", (ParsedDoc.from_docling_json(p) for p in jsons))
    lite = EvidenceChunker(parser="lite")
    over_limit("sample_pdfs (lite)", (lite.parse(p) for p in sorted(args.samples.glob("*.pdf"))))
    corpus_pdfs = sorted(args.corpus.glob("docling/pdf/*.pdf")) + sorted(args.corpus.glob("docling-cvat-tools/*/input.pdf"))
    if corpus_pdfs:
        over_limit("reference corpus PDFs (lite)", (lite.parse(p) for p in corpus_pdfs))
    finqa = Path(args.finqa) if args.finqa else None
    if finqa and finqa.is_dir():
        pdfs = sorted(finqa.glob("*.pdf"), key=lambda p: p.stat().st_size)[: args.limit]
        over_limit(f"finqa_dev ({len(pdfs)} filings, lite)", (cached_parse(p, args.cache) for p in pdfs))
    elif finqa:
        print(f"(finqa_dev not found at {finqa}: skipped)")


def throughput(args: argparse.Namespace) -> None:
    print("PDF → Evidence Units (lite parser, one process)")
    samples = pdf_to_units("sample_pdfs", sorted(args.samples.glob("*.pdf")))
    corpus_pdfs = sorted(args.corpus.glob("docling/pdf/*.pdf")) + sorted(args.corpus.glob("docling-cvat-tools/*/input.pdf"))
    if corpus_pdfs:
        pdf_to_units("shared corpus", corpus_pdfs)

    print("\nEU building from a parsed document")
    building("sample_pdfs (lite-parsed)", samples, args.rounds)
    jsons = sorted(args.corpus.glob("docling/groundtruth/*.json")) + sorted(args.corpus.glob("docling-cvat-tools/*/expected.json"))
    if jsons:
        building("shared corpus (Docling JSON)", [ParsedDoc.from_docling_json(p) for p in jsons], args.rounds)
    else:
        print(f"(shared corpus not found at {args.corpus}: skipped)")


if __name__ == "__main__":
    main()
