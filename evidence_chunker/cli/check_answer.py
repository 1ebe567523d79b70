"""`sjt check-answer`: check a model's cited answer against the search result it was given.

    sjt check-answer (--result result.json | --index INDEX) answer.json [--strict] [--lenient-numbers]
                     [--policy reject|strip] [--format text|markdown|html|json]

The answer is checked against the search result the model was given (``--result``), or against an index
(``--index``: every cited citation id is resolved from the index alone, no result file needed). A statement
whose figure none of its cited regions prints is rejected unless ``--lenient-numbers`` (then it is flagged).
The rendered answer (or, with ``--format json``, the full report) goes to stdout; one line per rejected or
flagged statement goes to stderr. Exit status: 0 when nothing was rejected, 1 when a statement was rejected
(or, with ``--strict``, flagged), 2 when an input file cannot be read or is not of its expected shape.
``answer.json`` may be ``-`` for standard input.

Register it in another argparse program with `add_check_answer_arguments(subparser)` and call
`run_check_answer(args)`; `check_answer_main(argv)` runs it stand-alone (also ``python -m
evidence_chunker.cli.check_answer``).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Optional, Sequence

from semantic_json.citations import POLICIES, POLICY_REJECT, RENDER_FORMATS
from semantic_json.errors import CheckAnswerInputError, CitedAnswerTypeError, TransportFormatError

if TYPE_CHECKING:  # pragma: no cover
    from semantic_json.citations import ValidationReport

PROG = "sjt check-answer"
EXIT_OK = 0
EXIT_REJECTED = 1
EXIT_INPUT_ERROR = 2
#: Output formats: the three renderings plus the JSON report.
OUTPUT_FORMATS: tuple[str, ...] = (*RENDER_FORMATS, "json")
#: The file name used in messages for an answer read from standard input.
STDIN_NAME = "<stdin>"


def add_check_answer_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add check-answer's arguments to `parser` (a subcommand parser); returns it."""
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument(
        "--result",
        metavar="RESULT_JSON",
        help="the search result the model was given (semantic-json-transport/context/v1 JSON)",
    )
    source.add_argument(
        "--index",
        metavar="INDEX",
        help="an index (SQLite file or postgresql:// URL) that resolves the answer's citation ids "
        "(DOC@c<start>-<end>.<hash>) without a result file",
    )
    parser.add_argument(
        "answer",
        metavar="ANSWER_JSON",
        help='the model\'s cited answer {"statements": [{"sentence", "citation_ids"}]} ("-" for stdin)',
    )
    parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 on any flag as well (a stripped citation, a small count the regions do not print)",
    )
    parser.add_argument(
        "--lenient-numbers",
        action="store_true",
        help="keep a statement whose figure its cited regions do not print (flag it instead of rejecting it)",
    )
    parser.add_argument(
        "--policy",
        choices=POLICIES,
        default=POLICY_REJECT,
        help="reject statements citing unknown ids (default), or strip those ids and keep the statement",
    )
    parser.add_argument(
        "--format",
        choices=OUTPUT_FORMATS,
        default="text",
        help="stdout: the accepted answer as text (default), markdown or html, or the full JSON report",
    )
    return parser


def _read_bytes(name: str) -> bytes:
    if name == "-":
        return sys.stdin.buffer.read()
    return Path(name).read_bytes()




def _open_index(index: str):
    """The repository of an existing index; CheckAnswerInputError naming it when it cannot be opened."""
    from semantic_json.errors import SemanticJsonError
    from semantic_json import SemanticRepository
    from semantic_json.store import is_server_url

    if not is_server_url(index) and not Path(index).is_file():
        raise CheckAnswerInputError(f"{index}: index file not found")
    try:
        return SemanticRepository.open(index, read_only=True)
    except SemanticJsonError as exc:
        raise CheckAnswerInputError(f"{index}: {exc}") from exc


def _diagnostics(report: ValidationReport, answer_name: str) -> list[str]:
    """One line per rejected or flagged statement, then a summary."""
    lines = [
        f"{answer_name}: statements[{s.index}] rejected ({s.reason}): {s.detail}" for s in report.rejected
    ]
    for s in report.flagged:
        notes = []
        if s.ungrounded_numbers:
            notes.append(f"ungrounded_number: {', '.join(s.ungrounded_numbers)}")
        if s.stripped_ids:
            notes.append(f"stripped_citation: {', '.join(s.stripped_ids)}")
        lines.append(f"{answer_name}: statements[{s.index}] flagged ({'; '.join(notes)})")
    counts = report.counts
    lines.append(
        f"{answer_name}: {counts['accepted']} of {counts['statements']} statement(s) accepted, "
        f"{counts['rejected']} rejected, {len(report.flagged)} flagged"
    )
    return lines


def run_check_answer(args: argparse.Namespace) -> int:
    """Run check-answer for parsed `args`; returns the exit status (0 ok, 1 rejected/flagged). Unusable input
    raises CheckAnswerInputError naming the file (`sjt` and `check_answer_main` print it, exit status 2)."""
    from semantic_json.citations import render_answer, validate_cited_answer  # the models load only when an answer is checked

    answer_name = STDIN_NAME if args.answer == "-" else args.answer
    result_bytes = None
    if args.result is not None:
        try:
            result_bytes = _read_bytes(args.result)
        except OSError as exc:
            raise CheckAnswerInputError(f"{args.result}: cannot read the result file ({exc.strerror or exc})") from exc
    try:
        answer_bytes = _read_bytes(args.answer)
    except OSError as exc:
        raise CheckAnswerInputError(f"{answer_name}: cannot read the answer file ({exc.strerror or exc})") from exc
    repository = _open_index(args.index) if args.index is not None else None
    try:
        report = validate_cited_answer(
            answer_bytes, result_bytes, policy=args.policy, strict_numbers=not args.lenient_numbers,
            repository=repository,
        )
    except TransportFormatError as exc:
        raise CheckAnswerInputError(f"{args.result}: {exc}") from exc
    except CitedAnswerTypeError as exc:
        raise CheckAnswerInputError(f"{answer_name}: {exc}") from exc
    finally:
        if repository is not None:
            repository.close()

    if args.format == "json":
        sys.stdout.write(report.to_json() + "\n")
    else:
        sys.stdout.write(render_answer(report, args.format))
    for line in _diagnostics(report, answer_name):
        print(line, file=sys.stderr)
    if report.rejected or (args.strict and report.flagged):
        return EXIT_REJECTED
    return EXIT_OK


def check_answer_main(argv: Optional[Sequence[str]] = None) -> int:
    """Stand-alone entry point: parse `argv` (default sys.argv[1:]) and run check-answer."""
    parser = argparse.ArgumentParser(
        prog=PROG, description="Check an LLM's cited answer against the search result it was given."
    )
    add_check_answer_arguments(parser)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits on --help (0) and on usage errors (2)
        return exc.code if isinstance(exc.code, int) else EXIT_INPUT_ERROR
    try:
        return run_check_answer(args)
    except CheckAnswerInputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_INPUT_ERROR


if __name__ == "__main__":
    sys.exit(check_answer_main())
