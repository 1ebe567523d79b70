"""The `mcp` and `serve` subcommands are registered without importing their heavy stacks."""

from __future__ import annotations

import subprocess
import sys

# (Pillow is not listed: `import evidence_chunker` already loads it.)
SERVING_STACK = ("mcp", "starlette", "jinja2", "uvicorn", "selenium", "pypdfium2")


def test_building_the_cli_and_its_help_loads_no_server_stack():
    code = (
        "import sys, contextlib, io\n"
        "from evidence_chunker.cli import make_parser\n"
        "parser = make_parser()\n"
        "for command in ([], ['mcp'], ['serve']):\n"
        "    with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n"
        "        parser.parse_args(command + ['--help'])\n"
        f"print(','.join(m for m in {SERVING_STACK!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
