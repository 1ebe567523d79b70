"""The ``sjt`` command: chunk, corpus, ingest, search, show, verify, check-answer, diagnose, mcp, serve."""

from __future__ import annotations

import argparse
import json
from collections import Counter
import sys
import warnings
from pathlib import Path

from .batch import BatchReport, BatchRun, atomic_output, collect_inputs

EPILOG = """\
examples:
  sjt chunk sample_pdfs/ -o units.jsonl            every table of every PDF as Evidence Units
  sjt chunk report.pdf --format text               read the units of one PDF
  sjt chunk docling_output.json                    units from a DoclingDocument JSON saved by Docling
"""


class CliError(Exception):
    """Unusable input to a command (a missing or unreadable file, a bad option): printed as
    ``error: …`` on stderr, exit status 2."""


#: Exit status of a run stopped by SIGTERM (128 + the signal number, as a shell reports it).
EXIT_TERMINATED = 143


def check_output_path(path: str | None) -> None:
    """CliError, before any work is done, when ``path`` (an ``-o`` file; None or "-" is stdout) cannot be
    written: a folder, under a file, or in a folder this user may not write to."""
    import os

    if path is None or str(path) == "-":
        return
    target = Path(path)
    if target.is_dir():
        raise CliError(f"{path}: is a folder; name the file to write")
    parent = target.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise CliError(f"{path}: cannot be created: {parent} is not a folder")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise CliError(f"{path}: cannot be written: folder {parent} is not writable")


def positive_int(text: str) -> int:
    """argparse type: an integer of at least 1."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


def _add_parser_choice(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--parser",
        choices=("auto", "docling", "lite"),
        default="auto",
        help="auto: Docling's models when present or downloadable, else the model-free lite parser "
        "(with a warning); docling: never fall back; lite: no model weights (default: auto)",
    )
    p.add_argument(
        "--artifacts-path",
        metavar="DIR",
        help="folder of Docling models made by `docling-tools models download` (air-gapped use)",
    )


def make_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sjt",
        description="Turn table-heavy report PDFs into verifiable evidence for LLMs.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    chunk = sub.add_parser(
        "chunk",
        help="PDFs (or Docling JSONs) → Evidence Units, one per table (split under the token limit)",
        description="Parse PDFs and write one Evidence Unit per table (row-wise pieces for tables over "
        "the token limit). Directories are searched for *.pdf and *.json (DoclingDocument exports). "
        "A file that fails is reported by name and skipped; the exit status is 1 if any failed.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    chunk.add_argument("inputs", nargs="+", metavar="FILE_OR_DIR", help="PDF files, DoclingDocument JSONs or folders")
    _add_parser_choice(chunk)
    chunk.add_argument("--format", choices=("jsonl", "text"), default="jsonl",
                       help="jsonl: one EvidenceUnit JSON per line; text: a readable listing (default: jsonl)")
    chunk.add_argument("-o", "--output", metavar="OUT", help="write here (atomically) instead of stdout")
    chunk.add_argument("--bbox-threshold", type=float, default=300.0, metavar="PT",
                       help="reach of context paragraphs above/below a table, in points (default: 300)")
    chunk.add_argument("--sim-threshold", type=float, default=0.0, metavar="COS",
                       help="minimum cosine similarity for a context paragraph (default: 0.0)")
    chunk.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    chunk.set_defaults(func=cmd_chunk)

    for register in _extra_commands():
        register(sub)
    return parser


def _register_check_answer(sub) -> None:
    from semantic_json.citations_cli import add_check_answer_arguments, run_check_answer

    p = sub.add_parser(
        "check-answer",
        help="validate an LLM's cited answer (statements + citation ids) against a saved search result",
        description="Check a cited answer against the transport it was generated from: type integrity, "
        "every citation id must be a retrieved region, statements without citations are dropped, numbers "
        "must appear in the cited regions. Exit status 0 when nothing was rejected, 1 when something "
        "was (or was flagged under --strict), 2 for unreadable input.",
    )
    add_check_answer_arguments(p)
    p.set_defaults(func=run_check_answer)


def _extra_commands():
    """Subcommands that live in other modules (each adds its own parser)."""
    from .audit.command import register as register_serve
    from .cli_index import register as register_index
    from .mcp_server import register as register_mcp

    return [register_index, _register_check_answer, register_mcp, register_serve]


def _version() -> str:
    from . import __version__

    return __version__


def load_parsed(path: Path, chunker):
    """A ParsedDoc from a PDF (with the chunker's parser) or from a DoclingDocument JSON."""
    from .parsing import ParsedDoc

    if path.suffix.lower() == ".json":
        return ParsedDoc.from_docling_json(path)
    return chunker.parse(path)


def make_chunker(args: argparse.Namespace):
    from .chunker import EvidenceChunker

    return EvidenceChunker(
        parser=args.parser,
        artifacts_path=args.artifacts_path,
        bbox_threshold=getattr(args, "bbox_threshold", 300.0),
        sim_threshold=getattr(args, "sim_threshold", 0.0),
    )


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
        lines.append(f"   row: {row}")
    for para in eu.context_after:
        lines.append(f"   after: {para}")
    return "\n".join(lines)


def write_items(args: argparse.Namespace, desc: str, produce, render, kind_of) -> tuple[BatchReport, Counter]:
    """The loop of ``chunk`` and ``corpus``: for every input, ``produce(chunker, parsed)`` gives items, each
    written as ``render(item)`` to ``-o`` (atomically) or stdout. Returns the batch report and a count of
    items by ``kind_of(item)``; CliError when no input file was found. When every input fails, an existing
    ``-o`` file is left untouched."""
    check_output_path(args.output)
    chunker = make_chunker(args)
    inputs = collect_inputs(args.inputs)
    if not inputs:
        raise CliError("no PDF or JSON files found in the given paths")
    run = BatchRun(inputs, lambda path: produce(chunker, load_parsed(path, chunker)),
                   progress=not args.no_progress, desc=desc)
    kinds: Counter = Counter()
    try:
        with atomic_output(args.output) as out:
            for _path, items in run:
                for item in items:
                    kinds[kind_of(item)] += 1
                    out.write(render(item))
            if not run.report.done and args.output not in (None, "-"):
                raise _NothingWritten  # every input failed: an earlier output file is worth more than none
    except _NothingWritten:
        print(f"warning: {args.output}: every input failed; the file was left as it was", file=sys.stderr)
    return run.report, kinds


class _NothingWritten(Exception):
    """Abandons an atomic output (its temporary file is removed, the target is untouched)."""


def cmd_chunk(args: argparse.Namespace) -> int:
    def render(eu) -> str:
        if args.format == "jsonl":
            return json.dumps(eu.to_dict(), ensure_ascii=False) + "\n"
        return format_unit_text(eu) + "\n\n"

    report, kinds = write_items(args, "chunk", lambda chunker, parsed: chunker.chunk_parsed(parsed), render,
                                lambda eu: "unit")
    print(f"chunked {len(report.done)} file(s) into {kinds['unit']} evidence unit(s); {len(report.failures)} failed",
          file=sys.stderr)
    return 1 if report.failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = make_parser()
    args = parser.parse_args(argv)
    with warnings.catch_warnings():
        warnings.simplefilter("default")
        warnings.formatwarning = lambda message, category, *a, **k: f"warning: {message}\n"  # type: ignore[assignment]
        try:
            return int(args.func(args) or 0)
        except BrokenPipeError:
            return 0
        except KeyboardInterrupt:
            print("interrupted", file=sys.stderr)
            return 130
        except Exception as exc:
            message = error_message(exc)
            if message is None:
                raise  # a programming error: its traceback is the useful report
            print(f"error: {message}", file=sys.stderr)
            return EXIT_TERMINATED if isinstance(exc, _terminated_types()) else 2


def _terminated_types() -> tuple[type, ...]:
    from .ingest import IngestTerminated

    return (IngestTerminated,)


def error_message(exc: BaseException) -> str | None:
    """The ``what: why`` of an expected failure (bad input, a damaged or foreign index, an unwritable
    file), or None for an unexpected one. Every command's failures go through here: one error path."""
    import sqlite3

    from semantic_json.errors import SemanticJsonError

    from .errors import EvidenceChunkerError

    if isinstance(exc, (CliError, SemanticJsonError, EvidenceChunkerError)):  # IngestTerminated included
        return str(exc)
    if isinstance(exc, OSError):
        where = exc.filename if exc.filename is not None else "file"
        return f"{where}: {exc.strerror or exc}"
    if isinstance(exc, sqlite3.DatabaseError):
        return f"index: {exc}; rebuild it with `sjt ingest PDFS --index NEW_FILE`"
    if isinstance(exc, (RecursionError, MemoryError)):
        return f"input: too large or too deeply nested to process ({exc.__class__.__name__})"
    return None


if __name__ == "__main__":  # pragma: no cover
    # `python -m evidence_chunker.cli`: run the imported module's main, so that its CliError is the class the
    # subcommand modules raise (this file is also loaded as __main__, with classes of its own).
    from evidence_chunker.cli import main as _main

    sys.exit(_main())
