"""Evidence Unit throughput (prints figures, never asserts).

    python benchmarks/bench_units.py [--samples sample_pdfs] [--corpus ../shared/corpus/docling_gt] [--rounds 5]

1. PDF → EUs with the lite parser: pages/s and EUs/s on sample_pdfs and on the shared corpus PDFs.
2. EU building from an already parsed document (captions, context, rows, abstract, splits): tables/s on the
   reference Docling JSONs and on the parsed sample PDFs. Target on a 2-core machine: ≥ 200 tables/s.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from paths import DOCLING_GT, REPO, SAMPLE_PDFS  # noqa: E402

sys.path.insert(0, str(REPO))

from evidence_chunker import EvidenceChunker, ParsedDoc  # noqa: E402


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=Path, default=SAMPLE_PDFS)
    parser.add_argument("--corpus", type=Path, default=DOCLING_GT)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()

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
