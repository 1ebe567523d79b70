"""The ``sjt`` command: chunk, corpus, ingest, search, show, verify, check-answer, diagnose, mcp, serve.

``common`` holds what every command shares (the one error path: ``error: what: why``, exit status 2);
``chunking`` the chunk and corpus commands; ``index`` the commands over an index. Each command module adds
its own subparsers; this module assembles them and runs one.
"""

from __future__ import annotations

import argparse
import sys
import warnings

from . import chunking, index_commands
from ..errors import IngestTerminated
from .common import EXIT_TERMINATED, CliError, add_command, error_message, verbosity, version

__all__ = ["CliError", "EXIT_TERMINATED", "error_message", "main", "make_parser"]


def make_parser() -> argparse.ArgumentParser:
    """The ``sjt`` argument parser with every subcommand registered."""
    parser = argparse.ArgumentParser(
        prog="sjt",
        description="Turn table-heavy report PDFs into verifiable evidence for LLMs.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for register in _registrations():
        register(sub)
    return parser


def _register_check_answer(sub) -> None:
    from evidence_chunker.cli.check_answer import add_check_answer_arguments, run_check_answer

    p = add_command(
        sub, "check-answer", run_check_answer,
        help="validate an LLM's cited answer (statements + citation ids) against a saved search result",
        description="Check a cited answer against the transport it was generated from: type integrity, "
        "every citation id must be a retrieved region, statements without citations are dropped, numbers "
        "must appear in the cited regions. Exit status 0 when nothing was rejected, 1 when something "
        "was (or was flagged under --strict), 2 for unreadable input.",
        formatter_class=argparse.HelpFormatter,  # a description without examples: wrapped to the terminal
    )
    add_check_answer_arguments(p)


def _registrations():
    """Every subcommand's ``register(sub)``, in the order ``sjt --help`` lists them."""
    from ..serve.audit.command import register as register_serve
    from ..serve.mcp_server import register as register_mcp

    return [chunking.register, index_commands.register, _register_check_answer, register_mcp, register_serve]


def main(argv: list[str] | None = None) -> int:
    """Run one ``sjt`` command; its exit status (0 ok, 1 some input failed, 2 unusable input, 130 interrupted,
    143 terminated). Warnings print as ``warning: …`` while it runs; the caller's warning settings and
    ``warnings.formatwarning`` are restored when it returns; so are the log levels ``-q``/``-v`` set."""
    parser = make_parser()
    args = parser.parse_args(argv)
    saved_format = warnings.formatwarning
    with warnings.catch_warnings(), verbosity(args):
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
            return EXIT_TERMINATED if isinstance(exc, IngestTerminated) else 2
        finally:
            warnings.formatwarning = saved_format  # type: ignore[assignment]
