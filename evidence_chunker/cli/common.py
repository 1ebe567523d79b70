"""What every ``sjt`` command shares: the one error path (``error: what: why``, exit 2), how a subcommand
and its common options (inputs, ``--index``, ``-o``, ``--no-progress``, ``--parser``) are declared, argument
types, and the chunker loop of ``chunk`` and ``corpus``."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from ..batch import BatchReport, BatchRun, atomic_output, collect_inputs
from ..errors import CliError


#: Exit status of a run stopped by SIGTERM (128 + the signal number, as a shell reports it).
EXIT_TERMINATED = 143
#: The help of ``--index`` for the commands that take a SQLite file or a PostgreSQL server.
INDEX_HELP = "the index: a SQLite file (created by ingest) or a postgresql:// URL (the postgres extra)"


def add_command(sub, name: str, func, *, help: str, description: str, epilog: str | None = None,
                formatter_class: type[argparse.HelpFormatter] = argparse.RawDescriptionHelpFormatter,
                ) -> argparse.ArgumentParser:
    """Subcommand ``name`` of ``sub`` that runs ``func(args)``; by default its description and examples
    print as written."""
    parser = sub.add_parser(name, help=help, description=description, epilog=epilog,
                            formatter_class=formatter_class)
    parser.set_defaults(func=func)
    return parser


def add_inputs(p: argparse.ArgumentParser, help: str, metavar: str = "FILE_OR_DIR") -> None:
    """The positional ``inputs``: one or more files or folders."""
    p.add_argument("inputs", nargs="+", metavar=metavar, help=help)


def add_index(p: argparse.ArgumentParser, help: str = INDEX_HELP) -> None:
    """The required ``--index FILE``."""
    p.add_argument("--index", required=True, metavar="FILE", help=help)


def add_output(p, help: str, metavar: str = "FILE", required: bool = False) -> None:
    """``-o/--output`` on a parser or a mutually exclusive group."""
    p.add_argument("-o", "--output", required=required, metavar=metavar, help=help)


def add_no_progress(p: argparse.ArgumentParser) -> None:
    """``--no-progress``: no progress bar on stderr."""
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


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


def add_parser_choice(p: argparse.ArgumentParser) -> None:
    """``--parser`` and ``--artifacts-path``: which PDF parser, and where Docling's models are."""
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
    p.add_argument(
        "--ocr-languages", default=None, metavar="LANGS",
        help='Tesseract languages for pages without a usable text layer, joined by "+" (default: kor+eng)',
    )
    p.add_argument("--no-ocr", action="store_true",
                   help="never OCR: a PDF without a text layer fails instead of being read by Tesseract")


def ocr_options(args: argparse.Namespace):
    """The OcrOptions that ``--ocr-languages`` and ``--no-ocr`` ask for."""
    from ..parsing.ocr import DEFAULT_OCR_LANGUAGES, OcrOptions
    from ..parsing.lite_settings import LiteSettings

    languages = getattr(args, "ocr_languages", None) or DEFAULT_OCR_LANGUAGES
    try:
        LiteSettings(ocr_languages=languages)
    except ValueError as exc:
        raise CliError(f"--ocr-languages: {exc}") from None
    return OcrOptions(enabled=not getattr(args, "no_ocr", False), languages=languages)


def load_parsed(path: Path, chunker):
    """A ParsedDoc from a PDF (with the chunker's parser) or from a DoclingDocument JSON."""
    from ..parsing import ParsedDoc

    if path.suffix.lower() == ".json":
        return ParsedDoc.from_docling_json(path)
    return chunker.parse(path)


def make_chunker(args: argparse.Namespace):
    from ..chunker import EvidenceChunker

    return EvidenceChunker(
        parser=args.parser,
        artifacts_path=args.artifacts_path,
        bbox_threshold=getattr(args, "bbox_threshold", 300.0),
        sim_threshold=getattr(args, "sim_threshold", 0.0),
        ocr=ocr_options(args),
    )


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


def error_message(exc: BaseException) -> str | None:
    """The ``what: why`` of an expected failure (bad input, a damaged or foreign index, an unwritable
    file), or None for an unexpected one. Every command's failures go through here: one error path."""
    import sqlite3

    from semantic_json.errors import SemanticJsonError

    from ..errors import EvidenceChunkerError

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


def version() -> str:
    from .. import __version__

    return __version__

