"""``sjt chunk`` and ``sjt corpus``: PDFs (or Docling JSONs) to Evidence Units, or to a retrieval corpus
written as JSONL or into a vector store."""

from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path

from ..ingest.batch import collect_inputs
from .common import (
    CliError,
    add_command,
    add_document_timeout,
    add_embedder,
    add_inputs,
    add_no_progress,
    add_output,
    add_page_range,
    add_parser_choice,
    check_inputs_exist,
    load_parsed,
    make_chunker,
    make_embedder,
    say,
    write_items,
)

EPILOG = """\
examples:
  sjt chunk sample_pdfs/ -o units.jsonl            every table of every PDF as Evidence Units
  sjt chunk report.pdf --format text               read the units of one PDF
  sjt chunk docling_output.json                    units from a DoclingDocument JSON saved by Docling
  sjt chunk filing.pdf --page-range 40-60 -q       the units of pages 40 to 60 only, no progress bars
"""
INPUTS_HELP = "PDF files, DoclingDocument JSONs or folders"


def register(sub) -> None:
    """Add ``chunk`` and ``corpus`` to the subcommands ``sub``."""
    chunk = add_command(
        sub, "chunk", cmd_chunk,
        help="PDFs (or Docling JSONs) → Evidence Units, one per table (split under the token limit)",
        description="Parse PDFs and write one Evidence Unit per table (row-wise pieces for tables over "
        "the token limit). Directories are searched for *.pdf and *.json (DoclingDocument exports). "
        "A file that fails is reported by name and skipped; the exit status is 1 if any failed.",
        epilog=EPILOG,
    )
    add_inputs(chunk, INPUTS_HELP)
    add_parser_choice(chunk)
    chunk.add_argument("--format", choices=("jsonl", "text"), default="jsonl",
                       help="jsonl: one EvidenceUnit JSON per line; text: a readable listing (default: jsonl)")
    add_output(chunk, "write here (atomically) instead of stdout", metavar="OUT")
    chunk.add_argument("--bbox-threshold", type=float, default=300.0, metavar="PT",
                       help="reach of context paragraphs above/below a table, in points (default: 300)")
    chunk.add_argument("--sim-threshold", type=float, default=0.0, metavar="COS",
                       help="minimum cosine similarity for a context paragraph (default: 0.0)")
    add_page_range(chunk)
    add_document_timeout(chunk)
    add_no_progress(chunk)

    corpus = add_command(
        sub, "corpus", cmd_corpus,
        help="PDFs → a retrieval corpus (Evidence Units + Text Chunks) as JSONL, one record per chunk",
        description="Build the retrieval corpus of each PDF (or DoclingDocument JSON): table Evidence Units "
        "(split under 512 tokens) plus the Text Chunks they did not absorb, in reading order. One JSON "
        "record per chunk (schema evidence-chunker/corpus-record/v1, see docs/corpus_format.md), ready for "
        "any vector store. The output file is written atomically; a failing input is reported by name and "
        "skipped (exit status 1).",
        epilog="examples:\n  sjt corpus sample_pdfs/ -o corpus.jsonl\n"
        "  sjt corpus sample_pdfs/ --store lancedb://out/vectors\n"
        "  sjt corpus sample_pdfs/ --store postgresql://user@localhost/rag --table reports --embedder e5",
    )
    add_inputs(corpus, INPUTS_HELP)
    add_parser_choice(corpus)
    target = corpus.add_mutually_exclusive_group()
    add_output(target, "JSONL file to write (default: stdout)")
    target.add_argument("--store", metavar="URL",
                        help="write the records with their embeddings into a vector store instead: "
                        "lancedb://PATH (the lancedb extra) or postgresql://... with pgvector (the postgres extra); "
                        "a document's earlier rows are replaced (see docs/vector_stores.md)")
    target.add_argument("--to", dest="store_alias", metavar="URL", help="deprecated spelling of --store")
    corpus.add_argument("--table", default=None, metavar="NAME",
                        help="table to write with --store (default: sjt_corpus)")
    add_embedder(corpus, "Used with --store; each row records the embedder's name in its `embedder` column "
                 "(default: lite)")
    add_page_range(corpus)
    add_document_timeout(corpus)
    add_no_progress(corpus)


def format_unit_text(eu) -> str:
    """A readable block for one unit: id, pages, caption, abstract, context and rows."""
    lines = [
        f"== {eu.eu_id}  pages {sorted(eu.page_span)}  caption ({eu.caption_confidence}): {eu.caption_text or '-'}",
    ]
    if eu.is_split:
        lines[0] += f"  [piece {eu.split_index}/{eu.total_splits}]"
    if eu.table_abstract:
        lines.append(f"   abstract: {eu.table_abstract}")
    for para in eu.context_before:
        lines.append(f"   before: {para}")
    for row in eu.flattened_rows:
        if row:
            lines.append(f"   row: {row}")
    for para in eu.context_after:
        lines.append(f"   after: {para}")
    return "\n".join(lines)


def cmd_chunk(args: argparse.Namespace) -> int:
    def render(eu) -> str:
        if args.format == "jsonl":
            return json.dumps(eu.to_dict(), ensure_ascii=False) + "\n"
        return format_unit_text(eu) + "\n\n"

    report, kinds = write_items(args, "chunk", lambda chunker, parsed: chunker.chunk_parsed(parsed), render,
                                lambda eu: "unit")
    say(args, f"chunked {len(report.done)} file(s) into {kinds['unit']} evidence unit(s); {len(report.failures)} failed")
    return 1 if report.failures else 0


def cmd_corpus(args: argparse.Namespace) -> int:
    if args.store_alias:
        warnings.warn("--to is deprecated and will be removed: write --store URL", DeprecationWarning, stacklevel=2)
        args.store = args.store_alias
    if args.store:
        return _corpus_to_vector_store(args)
    if args.table:
        raise CliError("--table: only used with --store")
    if args.embedder:
        raise CliError("--embedder: only used with --store (JSONL records carry no vectors; embed them in your "
                       "vector store with evidence_chunker.export.embeddings, see docs/vector_stores.md)")
    from ..corpus.assemble import chunk_to_record

    def render(chunk) -> str:
        return json.dumps(chunk_to_record(chunk), ensure_ascii=False) + "\n"

    report, kinds = write_items(args, "corpus", lambda chunker, parsed: chunker.build_corpus_parsed(parsed),
                                render, lambda chunk: chunk.metadata.get("kind", "text"))
    say(args, f"{len(report.done)} file(s): {kinds['table']} table chunk(s), {kinds['text']} text chunk(s); "
        f"{len(report.failures)} failed")
    return 1 if report.failures else 0


def _corpus_to_vector_store(args: argparse.Namespace) -> int:
    from collections import Counter

    from ..ingest.batch import BatchRun
    from ..corpus.chunks import chunk_kind
    from ..export.vectorstores import DEFAULT_TABLE, VectorStoreError, open_vector_store

    check_inputs_exist(args.inputs)
    inputs = collect_inputs(args.inputs)
    if not inputs:
        raise CliError("no PDF or JSON files found in the given paths")
    try:
        store = open_vector_store(args.store, table=args.table or DEFAULT_TABLE, embedder=make_embedder(args.embedder))
    except VectorStoreError as exc:
        raise CliError(f"{exc}") from exc
    chunker = make_chunker(args)

    def corpus_of(path: Path, on_page):
        parsed = load_parsed(path, chunker, args.page_range, on_page)
        return parsed.default_doc_id, chunker.build_corpus_parsed(parsed)

    run = BatchRun(inputs, corpus_of, progress=not args.no_progress, desc="corpus", timeout=args.document_timeout,
                   pages=True)
    kinds: Counter = Counter()
    with store:
        for _path, (doc_id, chunks) in run:
            store.write_document(doc_id, chunks)
            kinds.update(chunk_kind(chunk) for chunk in chunks)
    say(args, f"{len(run.report.done)} file(s) into {args.store} table {args.table or DEFAULT_TABLE} "
        f"({store.embedder.name}): {kinds['table']} table chunk(s), {kinds['text']} text chunk(s); "
        f"{len(run.report.failures)} failed")
    return 1 if run.report.failures else 0

