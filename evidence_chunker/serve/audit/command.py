"""The ``serve`` subcommand: argument parsing only, so `sjt --help` never imports the web stack."""

from __future__ import annotations

import argparse
import sys

#: Loopback only by default: the page shows the index's documents to whoever can reach it.
DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8765


def register(sub) -> None:
    """Add the ``serve`` subcommand."""
    p = sub.add_parser(
        "serve",
        help="a local web page to search the index and audit cited answers against the PDF pages",
        description="Serve an audit page for the index: a search box, results as regions with score, pages "
        "and verification status, and a cited answer (pasted JSON, or the JSON report of `sjt check-answer`) "
        "shown with a citation badge per statement; a badge opens the PDF page with the region's boxes "
        "drawn. Listens on 127.0.0.1 unless --host says otherwise. Needs the extra `serve`.",
        epilog="example:\n  sjt serve --index out/index.sqlite --port 8765   # then open http://127.0.0.1:8765/",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--index", required=True, metavar="FILE", help="the index file (SQLite; created by ingest)")
    p.add_argument("--host", default=DEFAULT_HOST, help=f"address to listen on (default: {DEFAULT_HOST})")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port to listen on (default: {DEFAULT_PORT})")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    """Run the audit page until interrupted."""
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        print(f"error: sjt serve needs the `serve` extra ({exc.name} is missing): "
              "pip install 'semantic-json-transport[serve]'", file=sys.stderr)
        return 2
    from ..serving import ServingError, open_repository

    try:
        open_repository(args.index).close()  # refuse an unusable index now, not inside the server's start-up
    except ServingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not 0 < args.port < 65536:
        print(f"error: --port: must be between 1 and 65535, got {args.port}", file=sys.stderr)
        return 2
    app = create_app(args.index, allowed_hosts=[args.host, DEFAULT_HOST, "localhost"])
    print(f"sjt serve: http://{args.host}:{args.port}/ (index {args.index}); Ctrl-C stops", file=sys.stderr)
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
