"""Suite-wide reporting: how many example blocks of the documentation ran (tests/test_docs_run.py)."""

from __future__ import annotations

DOC_TEST = "test_docs_run.py::test_doc_example["


def pytest_terminal_summary(terminalreporter):
    reports = [r for outcome in ("passed", "failed", "skipped") for r in terminalreporter.stats.get(outcome, [])
               if DOC_TEST in r.nodeid and r.when == "call"]
    if not reports:
        return
    from docs_run import PAGES, parse_page

    blocks = [b for page in PAGES for b in parse_page(page)]
    marked = sum(1 for b in blocks if b.kind == "illustration")
    passed = sum(1 for r in reports if r.passed)
    terminalreporter.write_line(
        f"docs-run: {len(reports)} example block(s) of README.md and docs/**/*.md run ({passed} passed); "
        f"{marked} of {len(blocks)} blocks marked illustration-only, the rest are outputs or files they use")
