"""The citation oracle: cited-answer schema, validation of an LLM's answer, rendering.

Real search results come from compile() + SemanticRepository().search(); hand-built transports are used
where a test needs exact region texts or ids, and they are checked against the shipped transport schema.
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import jsonschema
import pydantic
import pytest

from sj_support import ENGLISH_NEIGHBOURS_TEXT, KOREAN_NEIGHBOURS_TEXT

from semantic_json import SemanticRepository, compile
from semantic_json.citations import (
    DEFAULT_TOOL_NAME,
    CitedAnswer,
    CitedAnswerInputError,
    CitedAnswerTypeError,
    CitedStatement,
    ValidationReport,
    as_anthropic_tool,
    as_openai_response_format,
    as_openai_tool,
    cited_answer_schema,
    render_answer,
    result_region_ids,
    validate_cited_answer,
)
from semantic_json.errors import TransportFormatError
from semantic_json.transport import TRANSPORT_SCHEMA_ID, SearchResult, citation_id
from semantic_json.json_schemas import load_schema, validate_transport

# ------------------------------------------------------------------------------------------------ helpers


def make_transport(regions: list[tuple[str, str]], *, pages: dict[str, list[int]] | None = None) -> dict[str, Any]:
    """A valid v1 transport holding `regions` ((region_id, text) pairs), grouped by the id's document part."""
    documents: dict[str, dict[str, Any]] = {}
    offset = 0
    for n, (region_id, text) in enumerate(regions):
        document_id = region_id.rsplit(":", 1)[0]
        sha = hashlib.sha256(document_id.encode()).hexdigest()
        entry = documents.setdefault(
            document_id,
            {"document_id": document_id, "source_uri": f"file:///{document_id}.txt", "document_sha256": sha, "regions": []},
        )
        source = {
            "document_id": document_id,
            "uri": f"file:///{document_id}.txt",
            "start_char": offset,
            "end_char": offset + len(text),
            "start_line": n + 1,
            "end_line": n + 2,
            "document_sha256": sha,
        }
        if pages and region_id in pages:
            source["pages"] = pages[region_id]
        entry["regions"].append(
            {"region_id": region_id, "score": 1.0 - n / 100, "entities": [], "source": source, "anchors": ["P1"], "text": text}
        )
        offset += len(text) + 1
    payload = {
        "schema": TRANSPORT_SCHEMA_ID,
        "query": "test",
        "region_count": len(regions),
        "document_count": len(documents),
        "documents": list(documents.values()),
    }
    validate_transport(payload)
    return payload


def cid(transport: dict[str, Any], region_id: str) -> str:
    """The citation id of the region with `region_id` in `transport` (what a model is asked to cite)."""
    for document in transport["documents"]:
        for region in document["regions"]:
            if region["region_id"] == region_id:
                source = region["source"]
                return citation_id(source["document_id"], source["start_char"], source["end_char"],
                                   source["document_sha256"])
    raise KeyError(region_id)


def answer(*statements: tuple[str, list[str]]) -> dict[str, Any]:
    return {"statements": [{"sentence": s, "citation_ids": ids} for s, ids in statements]}


def search(text: str, document_id: str, query: str, **compile_kwargs: Any) -> SearchResult:
    repo = SemanticRepository()
    repo.add(compile(text, document_id=document_id, source_uri=f"file:///credit/{document_id}.txt", **compile_kwargs))
    return repo.search(query)


def region_with(result: SearchResult, needle: str) -> str:
    """Id of the result's region whose text contains `needle`."""
    matches = [region.region_id for region in result if needle in region.text]
    assert matches, f"no region of {[r.text for r in result]} contains {needle!r}"
    return matches[0]


def object_nodes(schema: Any) -> list[dict[str, Any]]:
    """Every schema node of type object inside `schema`."""
    found: list[dict[str, Any]] = []
    if isinstance(schema, dict):
        if schema.get("type") == "object":
            found.append(schema)
        for value in schema.values():
            found.extend(object_nodes(value))
    elif isinstance(schema, list):
        for value in schema:
            found.extend(object_nodes(value))
    return found


@pytest.fixture(scope="module")
def korean_result() -> SearchResult:
    return search(KOREAN_NEIGHBOURS_TEXT, "credit_ko", "B기업의 중장기 채무상환능력은 어떤가?")


@pytest.fixture(scope="module")
def english_result() -> SearchResult:
    return search(ENGLISH_NEIGHBOURS_TEXT, "credit_en", "What is Company B's medium-term repayment capacity?")


@pytest.fixture(scope="module")
def two_documents() -> dict[str, Any]:
    return make_transport(
        [
            ("company_b:R1", "B기업은 현재까지 원리금을 정상적으로 상환하고 있다."),
            ("company_b:R2", "주요 거래계약이 내년에 만료될 예정이다."),
            ("annual_2024:R1", "Revenue rose 3.5% to KRW 1,200 billion in 2024."),
        ],
        pages={"annual_2024:R1": [3, 4]},
    )


# ------------------------------------------------------------------------------------------------- schema


def test_schema_enum_is_the_results_region_ids_sorted_and_deduplicated(two_documents):
    doubled = copy.deepcopy(two_documents)
    doubled["documents"][0]["regions"].append(copy.deepcopy(doubled["documents"][0]["regions"][0]))
    definition = cited_answer_schema(doubled)
    items = definition["parameters"]["properties"]["statements"]["items"]["properties"]["citation_ids"]["items"]
    expected = sorted(cid(two_documents, r) for r in ("annual_2024:R1", "company_b:R1", "company_b:R2"))
    assert items == {"type": "string", "enum": expected}
    assert all("@c" in item for item in expected)
    assert definition["name"] == DEFAULT_TOOL_NAME == "generate_cited_answer"
    assert definition["strict"] is True


def test_schema_enum_of_a_real_search_equals_its_region_ids(korean_result):
    definition = cited_answer_schema(korean_result)
    enum = definition["parameters"]["properties"]["statements"]["items"]["properties"]["citation_ids"]["items"]["enum"]
    assert enum == sorted({region.citation_id for region in korean_result})
    assert enum == result_region_ids(korean_result)


def test_schema_is_shaped_for_strict_structured_output(two_documents):
    parameters = cited_answer_schema(two_documents)["parameters"]
    nodes = object_nodes(parameters)
    assert len(nodes) == 2  # the answer and a statement
    for node in nodes:
        assert node["additionalProperties"] is False
        assert sorted(node["required"]) == sorted(node["properties"])
    # Keywords strict modes reject are absent.
    text = json.dumps(parameters)
    for keyword in ("minLength", "maxLength", "pattern", "$schema", "$id", "format", "minItems"):
        assert f'"{keyword}"' not in text


def test_schema_name_and_description_can_be_changed(two_documents):
    definition = cited_answer_schema(two_documents, name="answer_with_sources", description="출처와 함께 답한다.")
    assert definition["name"] == "answer_with_sources"
    assert definition["description"] == "출처와 함께 답한다."


def test_good_payload_validates_against_the_generated_parameters(two_documents):
    parameters = cited_answer_schema(two_documents)["parameters"]
    jsonschema.Draft202012Validator.check_schema(parameters)
    good = answer(("B기업은 원리금을 정상 상환하고 있다.", [cid(two_documents, "company_b:R1")]),
                  ("Revenue rose 3.5%.", [cid(two_documents, "annual_2024:R1")]))
    jsonschema.validate(good, parameters)
    for bad in (
        answer(("B기업은 원리금을 정상 상환하고 있다.", ["company_b:R9"])),  # id outside the enum
        answer(("B기업은 원리금을 정상 상환하고 있다.", ["company_b:R1"])),  # the positional alias is not offered
        {"statements": [{"sentence": "x", "citation_ids": "company_b:R1"}]},  # string instead of array
        {"statements": [{"sentence": "x", "citation_ids": [], "confidence": 1}]},  # extra key
        {"statements": [{"sentence": "x"}]},  # missing key
    ):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, parameters)


def test_result_without_regions_allows_no_citation_and_is_not_strict():
    empty = make_transport([])
    definition = cited_answer_schema(empty)
    citation_ids = definition["parameters"]["properties"]["statements"]["items"]["properties"]["citation_ids"]
    assert citation_ids["maxItems"] == 0
    assert citation_ids["items"] == {"type": "string"}
    assert "enum" not in json.dumps(definition)
    assert definition["strict"] is False
    jsonschema.Draft202012Validator.check_schema(definition["parameters"])
    jsonschema.validate(answer(("Nothing was found.", [])), definition["parameters"])
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(answer(("Nothing was found.", ["x:R1"])), definition["parameters"])
    assert "strict" not in as_anthropic_tool(empty, strict=True)
    assert as_openai_tool(empty)["function"]["strict"] is False


def test_openai_tool_wraps_the_function_definition(two_documents):
    tool = as_openai_tool(two_documents)
    assert tool["type"] == "function"
    assert tool["function"] == cited_answer_schema(two_documents)
    assert tool["function"]["strict"] is True
    assert set(tool["function"]) == {"name", "description", "parameters", "strict"}


def test_openai_response_format_is_a_strict_json_schema(two_documents):
    response_format = as_openai_response_format(two_documents)
    assert response_format["type"] == "json_schema"
    inner = response_format["json_schema"]
    assert inner["name"] == "generate_cited_answer"
    assert inner["strict"] is True
    assert inner["schema"] == cited_answer_schema(two_documents)["parameters"]


def test_anthropic_tool_has_name_description_and_input_schema(two_documents):
    tool = as_anthropic_tool(two_documents)
    assert set(tool) == {"name", "description", "input_schema"}
    assert tool["input_schema"] == cited_answer_schema(two_documents)["parameters"]
    assert as_anthropic_tool(two_documents, strict=True)["strict"] is True


def test_generated_definitions_are_fresh_copies(two_documents):
    first = cited_answer_schema(two_documents)
    first["parameters"]["properties"].clear()
    assert cited_answer_schema(two_documents)["parameters"]["properties"]


def test_shipped_schema_file_is_the_static_part_of_the_parameters(two_documents):
    static = load_schema("cited_answer.schema.json")
    jsonschema.Draft202012Validator.check_schema(static)
    generated = cited_answer_schema(two_documents)["parameters"]
    generated["properties"]["statements"]["items"]["properties"]["citation_ids"]["items"].pop("enum")
    shipped = {key: value for key, value in static.items() if key not in ("$schema", "$id", "title", "description")}
    assert generated == shipped


# ---------------------------------------------------------------------------------------- pydantic models


def test_models_accept_a_well_formed_answer():
    parsed = CitedAnswer.model_validate(answer(("B기업은 원리금을 정상 상환하고 있다.", ["company_b:R1"])))
    assert parsed.statements == [CitedStatement(sentence="B기업은 원리금을 정상 상환하고 있다.", citation_ids=["company_b:R1"])]
    assert CitedAnswer.model_validate_json(json.dumps(parsed.model_dump())) == parsed


@pytest.mark.parametrize(
    "statement",
    [
        {"sentence": "x", "citation_ids": "company_b:R1"},  # would become a list of characters if coerced
        {"sentence": "x", "citation_ids": [1]},
        {"sentence": 5, "citation_ids": []},
        {"sentence": "   ", "citation_ids": []},
        {"sentence": "x", "citation_ids": [], "note": "extra"},
        {"sentence": "x", "citation_ids": ("company_b:R1",)},
        {"sentence": "x"},
    ],
)
def test_models_reject_anything_not_of_the_schema_shape(statement):
    with pytest.raises(pydantic.ValidationError):
        CitedAnswer.model_validate({"statements": [statement]})
    if not isinstance(statement.get("citation_ids"), tuple):  # a tuple has no JSON form of its own
        with pytest.raises(pydantic.ValidationError):
            CitedAnswer.model_validate_json(json.dumps({"statements": [statement]}))


# ------------------------------------------------------------------------------------------- validation


def test_korean_statement_citing_the_right_region_is_accepted_with_provenance(korean_result):
    region_id = region_with(korean_result, "원리금을 정상적으로 상환")
    report = validate_cited_answer(answer(("B기업은 원리금을 정상 상환하고 있다.", [region_id])), korean_result)
    assert report.ok
    assert report.counts == {
        "statements": 1, "accepted": 1, "rejected": 0, "unsupported": 0, "invalid_citation": 0, "ungrounded_number": 0,
    }
    (statement,) = report.accepted
    assert statement.sentence == "B기업은 원리금을 정상 상환하고 있다."
    assert statement.flags == []
    (source,) = statement.sources
    region = next(r for r in korean_result if r.region_id == region_id)
    assert source.region_id == region_id
    assert source.document_id == "credit_ko"
    assert source.uri == "file:///credit/credit_ko.txt"
    assert (source.start_char, source.end_char) == (region.start_char, region.end_char)
    assert (source.start_line, source.end_line) == (region.start_line, region.end_line)
    assert KOREAN_NEIGHBOURS_TEXT[source.start_char : source.end_char] == region.text
    assert source.document_sha256 == region.document_sha256
    assert source.pages is None and "pages" not in report.to_dict()["accepted"][0]["sources"][0]


def test_english_statement_citing_the_right_region_is_accepted(english_result):
    region_id = region_with(english_result, "repaid principal and interest")
    report = validate_cited_answer(
        answer(("Company B has repaid principal and interest on schedule.", [region_id])), english_result
    )
    assert report.ok
    assert [s.citation_ids for s in report.accepted] == [[region_id]]
    assert report.accepted[0].sources[0].document_id == "credit_en"


def test_statement_without_citation_is_dropped_as_unsupported(korean_result):
    region_id = region_with(korean_result, "원리금")
    report = validate_cited_answer(
        answer(("B기업은 원리금을 정상 상환하고 있다.", [region_id]), ("B기업의 신용등급은 AA이다.", [])), korean_result
    )
    assert not report.ok
    assert [s.index for s in report.accepted] == [0]
    (rejected,) = report.rejected
    assert (rejected.index, rejected.reason, rejected.sentence) == (1, "unsupported", "B기업의 신용등급은 AA이다.")
    assert report.counts["unsupported"] == 1


def test_statement_citing_an_id_never_retrieved_is_rejected_as_invalid_citation(korean_result):
    region_id = region_with(korean_result, "원리금")
    report = validate_cited_answer(
        answer(("B기업은 원리금을 정상 상환하고 있다.", [region_id, "credit_ko:R99", "[Doc1_Chunk2]"])), korean_result
    )
    assert report.accepted == []
    (rejected,) = report.rejected
    assert rejected.reason == "invalid_citation"
    assert rejected.unknown_ids == ["credit_ko:R99", "[Doc1_Chunk2]"]
    assert "credit_ko:R99" in rejected.detail
    assert report.counts["invalid_citation"] == 1 and not report.ok


def test_strip_policy_keeps_a_statement_with_a_valid_id_and_records_what_was_stripped(two_documents):
    report = validate_cited_answer(
        answer(("B기업은 원리금을 정상 상환하고 있다.", ["company_b:R7", "company_b:R1"])), two_documents, policy="strip"
    )
    assert report.ok
    (statement,) = report.accepted
    assert statement.citation_ids == ["company_b:R1"]
    assert statement.stripped_ids == ["company_b:R7"]
    assert statement.flags == ["stripped_citation"]
    assert [s.region_id for s in statement.sources] == ["company_b:R1"]
    assert report.flag_counts == {"ungrounded_number": 0, "stripped_citation": 1}


def test_strip_policy_rejects_a_statement_whose_ids_are_all_unknown(two_documents):
    report = validate_cited_answer(answer(("B기업은 상환하고 있다.", ["company_b:R7"])), two_documents, policy="strip")
    assert [r.reason for r in report.rejected] == ["invalid_citation"]
    assert report.rejected[0].unknown_ids == ["company_b:R7"]


def test_duplicate_ids_within_a_statement_are_collapsed(two_documents):
    report = validate_cited_answer(
        answer(("B기업은 상환하고 있으나 계약이 만료된다.", ["company_b:R2", "company_b:R1", "company_b:R2", "company_b:R1"])),
        two_documents,
    )
    assert report.accepted[0].citation_ids == ["company_b:R2", "company_b:R1"]
    assert len(report.accepted[0].sources) == 2


def test_number_missing_from_the_cited_region_rejects_the_statement_by_default(two_documents):
    report = validate_cited_answer(
        answer(("Revenue rose 4.5% to KRW 1,200 billion in 2024.", ["annual_2024:R1"])), two_documents
    )
    (rejected,) = report.rejected
    assert rejected.reason == "ungrounded_number" and rejected.ungrounded_numbers == ["4.5%"]
    assert report.strict_numbers is True


def test_number_missing_from_the_cited_region_is_flagged_and_kept_when_lenient(two_documents):
    report = validate_cited_answer(
        answer(("Revenue rose 4.5% to KRW 1,200 billion in 2024.", ["annual_2024:R1"])), two_documents,
        strict_numbers=False,
    )
    assert report.ok
    (statement,) = report.accepted
    assert statement.flags == ["ungrounded_number"]
    assert statement.ungrounded_numbers == ["4.5%"]
    assert report.flag_counts["ungrounded_number"] == 1
    assert report.flagged == [statement]


def test_strict_numbers_drops_a_statement_with_an_ungrounded_number(two_documents):
    report = validate_cited_answer(
        answer(
            ("Revenue rose 3.5% to KRW 1,200 billion in 2024.", ["annual_2024:R1"]),
            ("Revenue rose 4.5% to KRW 1,300 billion.", ["annual_2024:R1"]),
        ),
        two_documents,
        strict_numbers=True,
    )
    assert [s.index for s in report.accepted] == [0]
    (rejected,) = report.rejected
    assert rejected.reason == "ungrounded_number"
    assert rejected.ungrounded_numbers == ["4.5%", "1,300 billion"]
    assert report.counts["ungrounded_number"] == 1 and not report.ok


def test_numbers_are_checked_against_the_cited_regions_only(two_documents):
    # 3.5% is in annual_2024:R1, but the statement cites company_b:R1.
    report = validate_cited_answer(answer(("Revenue rose 3.5%.", ["company_b:R1"])), two_documents)
    assert report.rejected[0].ungrounded_numbers == ["3.5%"]


def test_numbers_of_a_real_korean_region_ground_a_statement():
    text = (
        "B기업의 2024년 매출액은 1,200억 원으로 전년 대비 3.5% 증가하였다.\n"
        "영업손실은 (56)억원이며 부채비율은 2.3배이다.\n"
        "총자산은 3조 2,000억원이다.\n"
    )
    result = search(text, "company_b", "B기업의 매출액과 부채비율")
    ids = [region.region_id for region in result]
    report = validate_cited_answer(
        answer(
            ("B기업의 2024년 매출액은 1,200억원으로 3.5% 늘었다.", ids),
            ("부채비율은 2.3배이고 총자산은 3.2조원이다.", ids),
            ("매출액은 1,300억원이다.", ids),
        ),
        result,
    )
    assert "1,200억 원" in " ".join(r.text for r in result)
    assert [s.ungrounded_numbers for s in report.accepted] == [[], []]
    assert [(s.index, s.ungrounded_numbers) for s in report.rejected] == [(2, ["1,300억원"])]


def test_counts_cover_every_reason_and_ok_means_nothing_rejected(two_documents):
    report = validate_cited_answer(
        answer(
            ("B기업은 원리금을 정상 상환하고 있다.", ["company_b:R1"]),
            ("근거 없는 문장이다.", []),
            ("없는 출처를 인용한다.", ["nowhere:R1"]),
            ("Revenue rose 9.9%.", ["annual_2024:R1"]),
        ),
        two_documents,
        strict_numbers=True,
    )
    assert report.counts == {
        "statements": 4, "accepted": 1, "rejected": 3, "unsupported": 1, "invalid_citation": 1, "ungrounded_number": 1,
    }
    assert [r.index for r in report.rejected] == [1, 2, 3]
    assert report.ok is False
    empty = validate_cited_answer({"statements": []}, two_documents)
    assert empty.ok and empty.counts["statements"] == 0


def test_payload_may_be_text_bytes_a_dict_or_a_cited_answer(two_documents):
    data = answer(("B기업은 원리금을 정상 상환하고 있다.", ["company_b:R1"]), ("근거 없음.", []))
    text = json.dumps(data, ensure_ascii=False)
    reports = [
        validate_cited_answer(payload, two_documents)
        for payload in (data, text, text.encode("utf-8"), b"\xef\xbb\xbf" + text.encode(), CitedAnswer.model_validate(data))
    ]
    assert all(report == reports[0] for report in reports)


def test_result_may_be_a_search_result_its_dict_its_json_or_its_regions(korean_result):
    region_id = korean_result[0].region_id
    data = answer(("B기업은 원리금을 정상 상환하고 있다.", [region_id]))
    forms = (korean_result, korean_result.to_dict(), korean_result.to_json(), korean_result.to_json().encode(), list(korean_result))
    reports = [validate_cited_answer(data, form) for form in forms]
    assert all(report == reports[0] for report in reports)
    assert reports[0].accepted[0].sources[0].region_id == region_id


def test_report_round_trips_through_json(two_documents):
    report = validate_cited_answer(
        answer(("Revenue rose 3.5% in 2024.", ["annual_2024:R1"]), ("근거 없음.", [])), two_documents
    )
    data = json.loads(report.to_json())
    assert data == report.to_dict()
    assert data["accepted"][0]["sources"][0]["pages"] == [3, 4]
    assert ValidationReport.model_validate(data) == report
    assert report.accepted_answer() == CitedAnswer.model_validate(answer(("Revenue rose 3.5% in 2024.", ["annual_2024:R1"])))


# -------------------------------------------------------------------------------------------- type errors


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ("not json", "$: not valid JSON (Expecting value at line 1 column 1)"),
        ('{"statements": [}', "$: not valid JSON"),
        ("[]", '$: expected an object {"statements": [...]}, got an array'),
        ("null", '$: expected an object {"statements": [...]}, got null'),
        ({}, "statements: missing"),
        ({"answer": []}, "statements: missing"),
        ({"statements": [], "model": "x"}, "$: unexpected key 'model'"),
        ({"statements": {"sentence": "x"}}, "statements: expected an array of statements, got an object"),
        ({"statements": ["B기업은 상환하고 있다."]}, "statements[0]: expected a statement object, got a string"),
        ({"statements": [{"citation_ids": []}]}, "statements[0].sentence: missing"),
        ({"statements": [{"sentence": "x"}]}, "statements[0].citation_ids: missing"),
        ({"statements": [{"sentence": None, "citation_ids": []}]}, "statements[0].sentence: expected a string, got null"),
        ({"statements": [{"sentence": " \n", "citation_ids": []}]}, "statements[0].sentence: empty"),
        (
            {"statements": [{"sentence": "x", "citation_ids": ["a:R1"], "confidence": 0.9}]},
            "statements[0]: unexpected key 'confidence'",
        ),
        (
            {"statements": [{"sentence": "x", "citation_ids": ["a:R1", 2]}]},
            "statements[0].citation_ids[1]: expected a string, got a number",
        ),
        (
            {"statements": [{"sentence": "x", "citation_ids": [["a:R1"]]}]},
            "statements[0].citation_ids[0]: expected a string, got an array",
        ),
        ('{"statements": [], "statements": []}', "$: duplicate key 'statements'"),
        ('{"statements": [{"sentence": "x", "citation_ids": [NaN]}]}', "$: NaN is not valid JSON"),
        (b"\xff\xfe{}", "$: not UTF-8 text"),
        ('{"statements": [{"sentence": "x\\ud800", "citation_ids": []}]}', "statements[0].sentence: contains an unpaired"),
    ],
)
def test_payload_not_of_the_schema_shape_is_rejected_whole_with_its_json_path(two_documents, payload, message):
    with pytest.raises(CitedAnswerTypeError) as caught:
        validate_cited_answer(payload, two_documents)
    assert str(caught.value).startswith(message)
    assert isinstance(caught.value, ValueError)


def test_citation_ids_given_as_a_string_names_the_statement(two_documents):
    data = answer(("a", ["company_b:R1"]), ("b", ["company_b:R1"]))
    data["statements"].append({"sentence": "c", "citation_ids": "company_b:R1"})
    with pytest.raises(CitedAnswerTypeError) as caught:
        validate_cited_answer(json.dumps(data), two_documents)
    assert str(caught.value) == "statements[2].citation_ids: expected an array of strings, got a string"
    assert caught.value.path == "statements[2].citation_ids"


@pytest.mark.parametrize("payload", [{"statements"}, object(), ("statements", []), 3 + 4j])
def test_payload_of_another_python_type_is_an_input_error(two_documents, payload):
    with pytest.raises(CitedAnswerInputError, match="JSON text .* a dict or a CitedAnswer"):
        validate_cited_answer(payload, two_documents)


@pytest.mark.parametrize(
    "result",
    [
        "not json",
        {"schema": "other/v9", "documents": []},
        {"schema": TRANSPORT_SCHEMA_ID},
        {"documents": [{"regions": [{"text": "no id"}]}]},
        42,
    ],
)
def test_result_that_is_not_a_transport_raises_transport_format_error(result):
    with pytest.raises(TransportFormatError):
        validate_cited_answer(answer(("x", [])), result)


def test_unknown_policy_is_refused(two_documents):
    with pytest.raises(ValueError, match="policy must be one of 'reject', 'strip'"):
        validate_cited_answer(answer(("x", [])), two_documents, policy="drop")  # type: ignore[arg-type]


# -------------------------------------------------------------------------------------------- rendering


@pytest.fixture(scope="module")
def rendered_report(two_documents) -> ValidationReport:
    b1, b2, annual = (cid(two_documents, r) for r in ("company_b:R1", "company_b:R2", "annual_2024:R1"))
    return validate_cited_answer(
        answer(
            ("B기업은 원리금을 정상 상환하고 있다.", [b1]),
            ("Revenue rose 3.5% in 2024.", [annual, "company_b:R1"]),  # the positional alias of b1
            ("근거 없는 문장.", []),
            ("다만 계약이 내년에 만료된다.", [b2]),
        ),
        two_documents,
    )


def test_text_rendering_numbers_sources_in_order_of_first_citation(rendered_report, two_documents):
    text = render_answer(rendered_report)
    paragraph, _, sources = text.partition("\n\nSources:\n")
    assert paragraph == (
        "B기업은 원리금을 정상 상환하고 있다. [1] Revenue rose 3.5% in 2024. [2][1] 다만 계약이 내년에 만료된다. [3]"
    )
    assert "근거 없는" not in text
    b1, b2, annual = (cid(two_documents, r) for r in ("company_b:R1", "company_b:R2", "annual_2024:R1"))
    assert sources.splitlines() == [
        f"[1] company_b, lines 1–2 (file:///company_b.txt) [{b1}]",
        f"[2] annual_2024, pp. 3–4, lines 3–4 (file:///annual_2024.txt) [{annual}]",
        f"[3] company_b, lines 2–3 (file:///company_b.txt) [{b2}]",
    ]


def test_markdown_rendering_links_badges_to_citation_ids(rendered_report, two_documents):
    b1, annual = (cid(two_documents, r) for r in ("company_b:R1", "annual_2024:R1"))
    markdown = render_answer(rendered_report, "markdown")
    assert f"B기업은 원리금을 정상 상환하고 있다. [\\[1\\]](#{b1})" in markdown
    assert f"Revenue rose 3.5% in 2024. [\\[2\\]](#{annual})[\\[1\\]](#{b1})" in markdown
    assert f"2. **annual\\_2024**, pp. 3–4, lines 3–4 <file:///annual_2024.txt> `{cid(two_documents, 'annual_2024:R1')}`" in markdown


def test_html_rendering_links_badges_to_citation_ids(rendered_report, two_documents):
    b1, annual = (cid(two_documents, r) for r in ("company_b:R1", "annual_2024:R1"))
    page = render_answer(rendered_report, "html")
    assert f'<a href="#{b1}" data-region-id="{b1}">[1]</a>' in page
    assert f'<a href="#{annual}" data-region-id="{annual}">[2]</a>' in page
    assert f'<li id="{annual}" data-region-id="{annual}"><strong>annual_2024</strong>, pp. 3–4' in page
    assert page.count("<li ") == 3


def test_html_rendering_escapes_sentences_ids_and_uris():
    result = make_transport([('evil"doc:R1', "Revenue was 5.")])
    result["documents"][0]["source_uri"] = result["documents"][0]["regions"][0]["source"]["uri"] = "javascript:alert(1)"
    report = validate_cited_answer(answer(('<script>alert("x")</script> Revenue was 5 & more.', ['evil"doc:R1'])), result)
    assert cid(result, 'evil"doc:R1').startswith('evil"doc@c')
    page = render_answer(report, "html")
    assert "<script>" not in page
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; Revenue was 5 &amp; more." in page
    assert 'data-region-id="evil&quot;doc@c' in page
    assert 'href="javascript' not in page
    markdown = render_answer(report, "markdown")
    assert "\\<script\\>" in markdown


def test_pdf_pages_of_a_real_search_appear_in_the_source_list():
    text = "B기업은 현재까지 원리금을 정상적으로 상환하고 있다.\n주요 거래계약이 내년에 만료될 예정이다.\n"
    first_line = text.index("\n") + 1
    segments = [
        {"start_char": 0, "end_char": first_line, "chunk_id": "rep-p7-0", "page_span": [7]},
        {"start_char": first_line, "end_char": len(text), "chunk_id": "rep-p8-0", "page_span": [8]},
    ]
    result = search(text, "report", "B기업 원리금 상환", segments=segments)
    region_id = region_with(result, "원리금")
    report = validate_cited_answer(answer(("B기업은 원리금을 정상 상환하고 있다.", [region_id])), result)
    pages = report.accepted[0].sources[0].pages
    assert pages and 7 in pages
    assert ("p. 7" if pages == [7] else "pp. 7–8") in render_answer(report)


def test_nothing_accepted_renders_empty(two_documents):
    report = validate_cited_answer(answer(("근거 없음.", [])), two_documents)
    assert render_answer(report) == ""
    assert render_answer(report, "markdown") == ""
    assert render_answer(report, "html") == '<div class="cited-answer">\n</div>\n'


def test_unknown_render_format_is_refused(rendered_report):
    with pytest.raises(ValueError, match="format must be one of 'text', 'markdown', 'html'"):
        render_answer(rendered_report, "pdf")  # type: ignore[arg-type]


def test_quickstart_round_trip_from_schema_to_rendered_answer(quickstart_text):
    result = search(quickstart_text, "company_b", "B기업의 중장기 채무상환능력은 어떤가?")
    tool = as_openai_tool(result)
    region_ids = tool["function"]["parameters"]["properties"]["statements"]["items"]["properties"]["citation_ids"]["items"]["enum"]
    # What a model calling the tool would send back: a JSON arguments string.
    arguments = json.dumps(
        answer(
            ("B기업은 원리금을 정상 상환하고 있다.", [region_ids[0]]),
            ("다만 중장기 상환능력 유지는 단정하기 어렵다.", [region_ids[0]]),
        ),
        ensure_ascii=False,
    )
    report = validate_cited_answer(arguments, result)
    assert report.ok
    assert render_answer(report).startswith(
        "B기업은 원리금을 정상 상환하고 있다. [1] 다만 중장기 상환능력 유지는 단정하기 어렵다. [1]\n\nSources:\n[1] company_b, lines "
    )


def test_reasons_are_one_str_enum_and_reports_carry_plain_strings():
    from semantic_json.citations import REASONS, Reason

    assert REASONS == ("unsupported", "invalid_citation", "ungrounded_number")
    assert [reason.value for reason in Reason] == list(REASONS)
    transport = make_transport([("d:R1", "Revenue was 10.")])
    report = validate_cited_answer(answer(("No source here.", []), ("Bad id.", ["d:R9"])), transport)
    assert [r.reason for r in report.rejected] == [Reason.UNSUPPORTED, Reason.INVALID_CITATION]
    data = json.loads(report.to_json())
    assert [r["reason"] for r in data["rejected"]] == ["unsupported", "invalid_citation"]
    assert {reason: data["counts"][reason] for reason in REASONS} == {
        "unsupported": 1, "invalid_citation": 1, "ungrounded_number": 0}
