"""Real 10-K statements (finqa_dev) carry their printed name as title, with their unit and period.

The list in tests/data/finqa_statements.json was written down by reading each PDF page. The PDFs stay in
../shared/corpus/finqa_dev (research licence): the test skips where they are absent.
"""

from __future__ import annotations

import sys

import pytest

from evidence_chunker import EvidenceChunker

from repo_paths import BENCHMARKS

sys.path.insert(0, str(BENCHMARKS))

from bench_titles import FINQA_PDFS, check_statement, load_statements  # noqa: E402

STATEMENTS = load_statements()
FILINGS = sorted({entry["pdf"] for entry in STATEMENTS})

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not FINQA_PDFS.is_dir(), reason=f"finqa_dev PDFs not found at {FINQA_PDFS}"),
]


def test_the_list_covers_at_least_thirty_statements_in_ten_filings():
    assert len(STATEMENTS) >= 30 and len(FILINGS) >= 10


@pytest.mark.parametrize("pdf", FILINGS)
def test_primary_statements_are_titled_with_unit_and_period(pdf):
    units = EvidenceChunker(parser="lite").chunk(FINQA_PDFS / pdf)
    entries = [e for e in STATEMENTS if e["pdf"] == pdf]
    outcomes = {e["page"]: check_statement(units, e) for e in entries}
    assert all(o["found"] for o in outcomes.values()), outcomes
    assert all(o["title"] and o["unit"] and o["period"] for o in outcomes.values()), outcomes
