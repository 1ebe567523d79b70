"""Property-based tests of the citation oracle: whatever the model sends, the validator either reports or
raises CitedAnswerTypeError, and it never accepts a citation of a region the search did not return."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pydantic
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from semantic_json.citations import (
    CitedAnswer,
    CitedAnswerTypeError,
    ValidationReport,
    find_numbers,
    render_answer,
    validate_cited_answer,
)
from semantic_json.transport import TRANSPORT_SCHEMA_ID

FUZZ_SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20)
json_values = st.recursive(
    json_scalars,
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=25,
)
region_ids = st.from_regex(r"[a-z]{1,6}:R[1-9][0-9]?", fullmatch=True)
#: Ids a model might invent: near misses of real ids, other formats, empty strings.
foreign_ids = region_ids | st.sampled_from(["", "[Doc1_Chunk2]", "R1", "company_b:R0", " company_b:R1"]) | st.text(max_size=8)
number_text = st.lists(
    st.sampled_from(
        ["1,234", "11,234", "(56)", "-56", "3.5%", "2024", "1,200억원", "1,200억 원", "3조 2,000억원", "350.5", "2.3배",
         "１，２００", "△7", "2024.03.31", " ", "매출", "revenue", "[1]", "원", ".", ",", "(", ")", "-"]
    ),
    max_size=12,
).map("".join)


def transport_of(ids: list[str], texts: list[str]) -> dict[str, Any]:
    regions = []
    for n, (region_id, text) in enumerate(zip(ids, texts)):
        document_id = region_id.split(":")[0]
        sha = hashlib.sha256(document_id.encode()).hexdigest()
        source = {"document_id": document_id, "uri": None, "start_char": 0, "end_char": len(text), "start_line": 1,
                  "end_line": 1, "document_sha256": sha}
        regions.append(
            (document_id, sha, {"region_id": region_id, "score": 1.0 / (n + 1), "entities": [], "source": source,
                                "anchors": [], "text": text})
        )
    documents: dict[str, dict[str, Any]] = {}
    for document_id, sha, region in regions:
        documents.setdefault(
            document_id, {"document_id": document_id, "source_uri": None, "document_sha256": sha, "regions": []}
        )["regions"].append(region)
    return {"schema": TRANSPORT_SCHEMA_ID, "query": "q", "region_count": len(regions),
            "document_count": len(documents), "documents": list(documents.values())}


@st.composite
def results_and_answers(draw: st.DrawFn) -> tuple[dict[str, Any], set[str], dict[str, Any]]:
    """A transport with random region ids and texts, and a well-formed answer citing real and invented ids."""
    ids = draw(st.lists(region_ids, max_size=6, unique=True))
    texts = draw(st.lists(number_text, min_size=len(ids), max_size=len(ids)))
    cite = st.sampled_from(ids) | foreign_ids if ids else foreign_ids
    statements = draw(
        st.lists(
            st.fixed_dictionaries(
                {"sentence": number_text.filter(lambda s: s.strip()) | st.text(min_size=1).filter(str.strip),
                 "citation_ids": st.lists(cite, max_size=4)}
            ),
            max_size=6,
        )
    )
    return transport_of(ids, texts), set(ids), {"statements": statements}


def check_report(report: ValidationReport, known: set[str], answer: dict[str, Any]) -> None:
    statements = answer["statements"]
    assert report.counts["statements"] == len(statements) == len(report.accepted) + len(report.rejected)
    assert sorted([s.index for s in report.accepted] + [s.index for s in report.rejected]) == list(range(len(statements)))
    for statement in report.accepted:
        raw = statements[statement.index]["citation_ids"]
        assert statement.citation_ids, "an accepted statement cites something"
        assert set(statement.citation_ids) <= known, "never accept a citation outside the result"
        assert [s.region_id for s in statement.sources] == statement.citation_ids
        assert len(set(statement.citation_ids)) == len(statement.citation_ids)
        if report.policy == "reject":
            assert set(raw) <= known
        assert set(statement.stripped_ids) == set(raw) - known
    for statement in report.rejected:
        raw = set(statements[statement.index]["citation_ids"])
        if not raw:
            expected = "unsupported"
        elif (raw - known if report.policy == "reject" else not raw & known):
            expected = "invalid_citation"
        else:
            expected = "ungrounded_number"
            assert report.strict_numbers and statement.ungrounded_numbers
        assert statement.reason == expected
    assert report.ok == (not report.rejected)


@FUZZ_SETTINGS
@given(json_values, st.lists(region_ids, max_size=5, unique=True), st.booleans())
def test_any_json_value_gives_a_report_or_a_type_error(payload, ids, as_text):
    result = transport_of(ids, ["x"] * len(ids))
    try:
        report = validate_cited_answer(json.dumps(payload) if as_text else payload, result)
    except CitedAnswerTypeError:
        return
    assert isinstance(payload, dict) and list(payload) == ["statements"]
    check_report(report, set(ids), payload)


@FUZZ_SETTINGS
@given(st.binary(max_size=64) | st.text(max_size=64))
def test_any_bytes_or_text_gives_a_report_or_a_type_error(payload):
    try:
        validate_cited_answer(payload, transport_of(["a:R1"], ["1"]))
    except CitedAnswerTypeError:
        pass


@FUZZ_SETTINGS
@given(results_and_answers(), st.sampled_from(["reject", "strip"]), st.booleans())
def test_accepted_statements_cite_only_regions_of_the_result(case, policy, strict_numbers):
    result, known, answer = case
    report = validate_cited_answer(answer, result, policy=policy, strict_numbers=strict_numbers)
    check_report(report, known, answer)
    for fmt in ("text", "markdown", "html"):
        rendered = render_answer(report, fmt)
        assert isinstance(rendered, str)


@FUZZ_SETTINGS
@given(json_values)
def test_the_pydantic_model_and_the_validator_agree_on_the_shape(payload):
    try:
        validate_cited_answer(payload, transport_of([], []))
        shape_ok = True
    except CitedAnswerTypeError:
        shape_ok = False
    try:
        CitedAnswer.model_validate(payload)
        model_ok = True
    except pydantic.ValidationError:
        model_ok = False
    assert shape_ok == model_ok


@FUZZ_SETTINGS
@given(number_text | st.text(max_size=40))
def test_a_region_grounds_every_number_of_its_own_text(text):
    find_numbers(text)  # never raises
    report = validate_cited_answer(
        {"statements": [{"sentence": text + " x", "citation_ids": ["doc:R1"]}]}, transport_of(["doc:R1"], [text])
    )
    assert report.accepted[0].ungrounded_numbers == []
