"""Properties that hold for any text: exact, ordered unit spans; regions that verify."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantic_json import SemanticRepository, compile

_PIECES = st.sampled_from(
    [
        "B기업은", "A기업의", "Company B", "Acme Holdings Inc.", "원리금을", "상환하고", "있다.", "다만", "그러나,",
        "however,", "but", "3.5%", "U.S.", "No.", "매출이", "증가함.", "repayment capacity", "|", "\t", "\n", "\n\n",
        "- ", "1. ", "# ", "<표 1>", "Table 2:", "?", "!", "…", " ", "  ", ".", "부채비율", "(주)", "㈜한빛",
    ]
)
_TEXTS = st.lists(_PIECES, min_size=1, max_size=60).map(" ".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXTS)
def test_units_are_exact_ordered_non_overlapping_slices(text: str) -> None:
    if not text.strip():
        return
    doc = compile(text, "prop")
    previous_end = 0
    for unit in doc.units:
        assert text[unit.start_char : unit.end_char] == unit.text
        assert unit.text and unit.text == unit.text.strip()
        assert unit.start_char >= previous_end
        assert 1 <= unit.start_line <= unit.end_line <= len(doc.line_starts)
        previous_end = unit.end_char
    visible = "".join(text.split())
    covered = "".join("".join(u.text.split()) for u in doc.units)
    assert set(covered) <= set(visible)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXTS, query=st.sampled_from(["B기업 상환능력", "Company B repayment capacity", "부채비율", "Acme"]))
def test_every_region_verifies_against_its_document(text: str, query: str) -> None:
    if not text.strip():
        return
    repo = SemanticRepository()
    repo.add(compile(text, "prop"))
    for region in repo.search(query):
        assert repo.verify_source(region)
        assert text[region.start_char : region.end_char] == region.text
