"""What every ``sjt`` command shares: the one error path (``error: what: why``, exit 2), how a subcommand
and its common options (inputs, ``--index``, ``-o``, ``-q``/``-v``, ``--no-progress``, ``--parser``,
``--page-range``, ``--document-timeout``, ``--embedder``) are declared, argument types, and the chunker loop
of ``chunk`` and ``corpus``."""

from __future__ import annotations

import argparse
import logging
import math
import sys
from collections import Counter
from pathlib import Path

from ..ingest.batch import BatchReport, BatchRun, collect_inputs
from ..output_files import atomic_output
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
    add_verbosity(parser)
    return parser


def add_verbosity(p: argparse.ArgumentParser) -> None:
    """``-v``/``--verbose`` (repeatable) and ``-q``/``--quiet``, as Docling's CLI has them."""
    p.add_argument("-v", "--verbose", action="count", default=0,
                   help="log what is done on stderr: -v each file as it is done, -vv debug detail (libraries too)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="no progress bars and no closing summary: warnings and errors only")


#: Loggers ``-v`` turns up: this package's, semantic_json's, and Docling's (its pipeline says what it loads).
LOGGERS = ("evidence_chunker", "semantic_json", "docling")
#: Environment variable that turns off huggingface_hub's (and so transformers') progress bars.
QUIET_HF_ENV = "HF_HUB_DISABLE_PROGRESS_BARS"


class verbosity:
    """While a command runs: its log lines on stderr at the level ``-v``/``-q`` chose (default: warnings), and
    ``-q`` turns progress bars off. The loggers' levels are restored when it ends."""

    def __init__(self, args: argparse.Namespace):
        self.level = logging.ERROR if getattr(args, "quiet", False) else \
            {0: logging.WARNING, 1: logging.INFO}.get(getattr(args, "verbose", 0), logging.DEBUG)
        if getattr(args, "quiet", False) and hasattr(args, "no_progress"):
            args.no_progress = True

    def __enter__(self):
        import os

        # -q also silences the model-loading bars of Hugging Face libraries (read as they are first imported)
        self.saved_env = os.environ.get(QUIET_HF_ENV)
        if self.level >= logging.ERROR:
            os.environ[QUIET_HF_ENV] = "1"
        self.handler = logging.StreamHandler(sys.stderr)
        self.handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        self.saved = [(logger, logger.level) for logger in map(logging.getLogger, LOGGERS)]
        for logger, _level in self.saved:
            logger.setLevel(self.level)
            logger.addHandler(self.handler)
        return self

    def __exit__(self, *exc) -> None:
        import os

        for logger, level in self.saved:
            logger.removeHandler(self.handler)
            logger.setLevel(level)
        if self.saved_env is None:
            os.environ.pop(QUIET_HF_ENV, None)
        else:
            os.environ[QUIET_HF_ENV] = self.saved_env


def say(args: argparse.Namespace, text: str) -> None:
    """A closing summary line on stderr, unless ``-q``."""
    if not getattr(args, "quiet", False):
        print(text, file=sys.stderr)


def check_inputs_exist(paths: list[str]) -> None:
    """CliError naming the first input path that does not exist, before anything is opened or created."""
    for raw in paths:
        if not Path(raw).exists() and not Path(raw).is_symlink():  # a symbolic link loop is reported per file
            raise CliError(f"{raw}: no such file or folder")


def add_page_range(p: argparse.ArgumentParser) -> None:
    """``--page-range FIRST-LAST``: parse only those pages of every PDF."""
    p.add_argument("--page-range", type=page_range, default=None, metavar="FIRST-LAST",
                   help="parse only these pages of every PDF (1-based, inclusive: 3-7, 5- to the end, or one "
                   "page: 4); page numbers in ids and metadata stay the PDF's own. A PDF shorter than FIRST fails")


def page_range(text: str):
    """argparse type: a PageRange from ``FIRST-LAST``, ``FIRST-`` or ``N``."""
    from ..errors import PageRangeError
    from ..parsing.pages import PageRange

    try:
        return PageRange.parse(text)
    except PageRangeError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_document_timeout(p: argparse.ArgumentParser) -> None:
    """``--document-timeout SECONDS``: a time limit per document."""
    p.add_argument("--document-timeout", type=positive_seconds, default=None, metavar="SECONDS",
                   help="stop work on a document after this many seconds: it is reported as failed, by name, "
                   "and the others go on (default: no limit)")


def positive_seconds(text: str) -> float:
    """argparse type: a finite number of seconds above 0."""
    return finite_above_zero(text, "a number of seconds", "a number of seconds above 0")


def finite_above_zero(text: str, expected: str, must_be: str, most: float = math.inf) -> float:
    """``text`` as a finite number above 0 and at most ``most``; else an argparse error ``expected <expected>``
    (not a number) or ``must be <must_be>`` (out of range), each quoting ``text``."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
    if not (0.0 < value <= most and value != math.inf):  # also false for nan
        raise argparse.ArgumentTypeError(f"must be {must_be}, got {text}")
    return value


def add_embedder(p: argparse.ArgumentParser, default_help: str) -> None:
    """``--embedder NAME``: which embedder makes the vectors (the choices installed here are listed)."""
    from semantic_json.embedder_choice import choices_help, installed_choices

    p.add_argument("--embedder", type=embedder_choice, default=None, metavar="NAME",
                   help=f"the embedder that makes the vectors ({choices_help()}). Installed here: "
                   f"{', '.join(installed_choices())}. {default_help}")


def embedder_choice(text: str) -> str:
    """argparse type: an embedder choice this installation can build (nothing is loaded yet)."""
    from semantic_json.embedder_choice import check_choice
    from semantic_json.errors import MissingExtraError, UnknownEmbedderError

    try:
        return check_choice(text)
    except (UnknownEmbedderError, MissingExtraError) as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def make_embedder(spec: str | None):
    """The embedder ``--embedder`` names (None: LiteEmbedder)."""
    from semantic_json.embedder_choice import LITE
    from semantic_json.embedder_choice import make_embedder as build

    return build(spec or LITE)


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
    """``--no-progress``: no progress bars (files, and the pages of the file being parsed) on stderr."""
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bars on stderr (of the files, and of the pages of the file being parsed)")


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
    from ..parsing.lite.settings import LiteSettings

    languages = getattr(args, "ocr_languages", None) or DEFAULT_OCR_LANGUAGES
    try:
        LiteSettings(ocr_languages=languages)
    except ValueError as exc:
        raise CliError(f"--ocr-languages: {exc}") from None
    return OcrOptions(enabled=not getattr(args, "no_ocr", False), languages=languages)


def load_parsed(path: Path, chunker, page_range=None, on_page=None):
    """A ParsedDoc from a PDF (with the chunker's parser) or from a DoclingDocument JSON: the pages of
    ``page_range`` (all by default), reported to ``on_page(done, total)``."""
    return chunker.parse(path, page_range=page_range, on_page=on_page)


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
    check_inputs_exist(args.inputs)
    chunker = make_chunker(args)
    inputs = collect_inputs(args.inputs)
    if not inputs:
        raise CliError("no PDF or JSON files found in the given paths")
    run = BatchRun(inputs, lambda path, on_page: produce(chunker, load_parsed(path, chunker, args.page_range, on_page)),
                   progress=not args.no_progress, desc=desc, timeout=args.document_timeout, pages=True)
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

