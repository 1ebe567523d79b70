"""A cache of parsed PDFs for the benchmarks: parse a real filing once, measure chunking and ranking many times.

    python benchmarks/parse_cache.py ../shared/corpus/finqa_dev/pdfs --cache out/parse_cache [--workers 1]

A cached entry is the DoclingDocument JSON the parser produced, keyed by the PDF's sha256 and a fingerprint
of the parser's own source files (``evidence_chunker/parsing/`` and the text rules it reads,
``semantic_json/rules/patterns.py``), so any change to the parser misses the cache instead of serving a stale
parse. Downstream code (units, corpus, bridge, ranking) is never cached.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from evidence_chunker.parsing.parsed import ParsedDoc  # noqa: E402
from evidence_chunker.parsing.pdf_file import file_sha256  # noqa: E402

PARSING_SOURCES = Path(__file__).resolve().parents[1] / "evidence_chunker" / "parsing"
#: Modules outside ``parsing/`` that the parser reads: what a figure, a caption, a year is.
PARSER_RULES = (Path(__file__).resolve().parents[1] / "semantic_json" / "rules" / "patterns.py",)
#: Characters of a hash kept in a cache file name.
KEY_CHARS = 16


def parser_fingerprint(parser: str) -> str:
    """A hash of the parser name, every source file of ``evidence_chunker/parsing`` and PARSER_RULES."""
    digest = hashlib.sha256(parser.encode())
    for path in [*sorted(PARSING_SOURCES.rglob("*.py")), *PARSER_RULES]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:KEY_CHARS]


def cache_path(pdf: Path, cache_dir: Path, parser: str = "lite", page_range=None) -> Path:
    """Where the parse of ``pdf`` (only ``page_range``'s pages, a PageRange, when given) by the current
    ``parser`` source is (or would be) cached."""
    pages = "" if page_range is None else f"-p{page_range.first}-{page_range.last or ''}"
    return cache_dir / f"{pdf.stem}-{file_sha256(pdf)[:KEY_CHARS]}-{parser_fingerprint(parser)}{pages}.json"


def cached_parse(pdf: Path, cache_dir: Path | None, parser: str = "lite", page_range=None) -> ParsedDoc:
    """The ParsedDoc of ``pdf`` (only the pages of ``page_range``, a PageRange, when given): from the cache
    when the PDF and the parser are unchanged, else parsed and saved."""
    from evidence_chunker.chunker import EvidenceChunker

    if cache_dir is None:
        return EvidenceChunker(parser=parser).parse(pdf, page_range)
    target = cache_path(pdf, cache_dir, parser, page_range)
    if target.is_file():
        loaded = ParsedDoc.from_docling_json(target)
        return ParsedDoc(loaded.document, pdf, file_sha256(pdf), parser, loaded.page_count)
    parsed = EvidenceChunker(parser=parser).parse(pdf, page_range)
    cache_dir.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".part")
    partial.write_text(json.dumps(parsed.document.export_to_dict()), encoding="utf-8")
    os.replace(partial, target)  # a killed run leaves no half-written entry
    return parsed


def filing_arguments(description: str, default_dir: Path) -> argparse.ArgumentParser:
    """The options of a benchmark that reads every PDF of a folder through the cache: ``--pdf-dir``
    (default ``default_dir``), ``--cache`` and ``--limit`` (the N smallest PDFs)."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--pdf-dir", type=Path, default=default_dir, help=f"folder of PDFs (default: {default_dir})")
    ap.add_argument("--cache", type=Path, default=None, help="parse cache folder (see benchmarks/parse_cache.py)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N PDFs, smallest first")
    return ap


def filing_pdfs(args: argparse.Namespace) -> list[Path]:
    """The PDFs :func:`filing_arguments` name, smallest first."""
    return sorted(args.pdf_dir.glob("*.pdf"), key=lambda p: p.stat().st_size)[: args.limit]


def _warm(args: tuple[Path, Path, str]) -> tuple[str, int, float]:
    pdf, cache_dir, parser = args
    started = time.perf_counter()
    parsed = cached_parse(pdf, cache_dir, parser)
    return pdf.name, parsed.page_count, time.perf_counter() - started


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pdf_dir", type=Path)
    ap.add_argument("--cache", type=Path, required=True, help="cache folder")
    ap.add_argument("--parser", default="lite")
    ap.add_argument("--workers", type=int, default=1)
    args = ap.parse_args(argv)
    pdfs = sorted(args.pdf_dir.glob("*.pdf"), key=lambda p: p.stat().st_size)
    jobs = [(p, args.cache, args.parser) for p in pdfs]
    started = time.perf_counter()
    pages = 0
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for name, count, seconds in pool.map(_warm, jobs):
            pages += count
            print(f"{name}: {count} pages in {seconds:.1f} s", flush=True)
    print(f"{len(pdfs)} PDFs, {pages} pages in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
