"""``sjt`` subcommands that build and use corpora and indexes: corpus (more join as they land)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .batch import BatchRun, atomic_output, collect_inputs


def register(sub) -> None:
    from .cli import _add_parser_choice

    corpus = sub.add_parser(
        "corpus",
        help="PDFs → a retrieval corpus (Evidence Units + Text Chunks) as JSONL, one record per chunk",
        description="Build the retrieval corpus of each PDF (or DoclingDocument JSON): table Evidence Units "
        "(split under 512 tokens) plus the Text Chunks they did not absorb, in reading order. One JSON "
        "record per chunk (schema evidence-chunker/corpus-record/v1, see docs/corpus_format.md), ready for "
        "any vector store. The output file is written atomically; a failing input is reported by name and "
        "skipped (exit status 1).",
        epilog="example:\n  sjt corpus sample_pdfs/ -o corpus.jsonl",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    corpus.add_argument("inputs", nargs="+", metavar="FILE_OR_DIR", help="PDF files, DoclingDocument JSONs or folders")
    _add_parser_choice(corpus)
    corpus.add_argument("-o", "--output", metavar="FILE", help="JSONL file to write (default: stdout)")
    corpus.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    corpus.set_defaults(func=cmd_corpus)


def cmd_corpus(args: argparse.Namespace) -> int:
    from .cli import load_parsed, make_chunker
    from .export.corpus import chunk_to_record

    chunker = make_chunker(args)
    inputs = collect_inputs(args.inputs)
    if not inputs:
        print("error: no PDF or JSON files found in the given paths", file=sys.stderr)
        return 2
    run = BatchRun(inputs, lambda path: chunker.build_corpus_parsed(load_parsed(path, chunker)),
                   progress=not args.no_progress, desc="corpus")
    counts = {"table": 0, "text": 0}
    with atomic_output(args.output) as out:
        for _path, chunks in run:
            for chunk in chunks:
                record = chunk_to_record(chunk)
                counts[record["kind"]] = counts.get(record["kind"], 0) + 1
                out.write(json.dumps(record, ensure_ascii=False) + "\n")
    print(
        f"{len(run.report.done)} file(s): {counts['table']} table chunk(s), {counts['text']} text chunk(s); "
        f"{len(run.report.failures)} failed",
        file=sys.stderr,
    )
    return 1 if run.report.failures else 0
