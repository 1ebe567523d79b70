"""compile(): units with exact spans, entities, terms, segments, serialisation and bad input."""

from __future__ import annotations

import hashlib

import pytest

from semantic_json import GRAMMAR_VERSION, SemanticDocument, compile, errors
from semantic_json.json_schemas import validate_document

REPORT = """# 1. 개요

B기업은 현재까지 원리금을 정상적으로 상환하고 있다.
다만 주요 거래계약이 내년에 만료될 예정이며,
중장기적으로 현재의 상환능력이 유지된다고 단정하기는 어렵다.

<표 1> B기업 주요 재무지표
구분 | 2022 | 2023
매출액 | 1,200 | 1,350
영업이익 | 80 | 95

- 부채비율은 120%로 하락함
- 이자보상배율은 3.5배임

Acme Holdings Inc. reported revenue of $3.5 million. Later, Acme Holdings said its debt ratio fell.
"""


@pytest.fixture(scope="module")
def report() -> SemanticDocument:
    return compile(REPORT, "report_1", source_uri="file:///r/report_1.txt")


def test_every_unit_text_is_the_exact_slice_of_the_original(report: SemanticDocument) -> None:
    assert report.units
    for unit in report.units:
        assert REPORT[unit.start_char : unit.end_char] == unit.text
        assert unit.text == unit.text.strip()


def test_unit_ids_are_sequential_and_lines_are_one_based(report: SemanticDocument) -> None:
    assert [u.id for u in report.units] == [f"P{i}" for i in range(1, len(report.units) + 1)]
    first = report.units[0]
    assert (first.kind, first.text, first.start_line) == ("heading", "# 1. 개요", 1)
    assert report.line_starts[:3] == [0, 8, 9]


def test_document_declares_grammar_and_hash(report: SemanticDocument) -> None:
    assert report.grammar_version == GRAMMAR_VERSION == "0.1"
    assert report.document_sha256 == hashlib.sha256(REPORT.encode("utf-8")).hexdigest()
    assert report.char_count == len(REPORT)


def test_unit_kinds_follow_layout(report: SemanticDocument) -> None:
    kinds = {u.text: u.kind for u in report.units}
    assert kinds["<표 1> B기업 주요 재무지표"] == "caption"
    assert kinds["매출액 | 1,200 | 1,350"] == "table_row"
    assert kinds["- 부채비율은 120%로 하락함"] == "list_item"
    assert kinds["B기업은 현재까지 원리금을 정상적으로 상환하고 있다."] == "proposition"
    header = next(u for u in report.units if u.text == "구분 | 2022 | 2023")
    assert header.is_header and header.kind == "table_row"


def test_caveat_is_its_own_proposition_across_wrapped_lines(report: SemanticDocument) -> None:
    caveat = next(u for u in report.units if u.text.startswith("다만"))
    assert caveat.text.endswith("단정하기는 어렵다.")
    assert (caveat.start_line, caveat.end_line) == (4, 5)


def test_letter_named_and_generic_companies_get_canonical_ids(report: SemanticDocument) -> None:
    ids = {e.id for e in report.entities}
    assert {"B_CORP", "ACME_HOLDINGS"} <= ids
    acme = next(e for e in report.entities if e.id == "ACME_HOLDINGS")
    assert "Acme Holdings Inc." in acme.surface_forms
    assert len(acme.units) == 2  # the bare name "Acme Holdings" is the same entity


@pytest.mark.parametrize(
    ("text", "entity"),
    [
        ("B기업의 매출이 늘었다.", "B_CORP"),
        ("A기업은 상환하였다.", "A_CORP"),
        ("Company B repaid its loan.", "B_CORP"),
        ("B Corp repaid its loan.", "B_CORP"),
        ("Acme Holdings Inc. repaid its loan.", "ACME_HOLDINGS"),
        ("Hanbit Electronics Co., Ltd. repaid its loan.", "HANBIT_ELECTRONICS"),
        ("㈜한빛전자는 대출을 상환하였다.", "한빛전자"),
    ],
)
def test_entity_surface_forms_map_to_one_canonical_id(text: str, entity: str) -> None:
    doc = compile(text, "e")
    assert doc.units[0].entities == [entity]


def test_korean_particles_are_stripped_from_terms() -> None:
    doc = compile("B기업은 성장했다. B기업의 매출. B기업이 상환하였다.", "p")
    assert all("b기업" in u.terms for u in doc.units)
    assert not any(t.startswith("b기업") and t != "b기업" for u in doc.units for t in u.terms)


def test_units_carry_lexicon_concepts_in_both_languages() -> None:
    doc = compile("B기업의 상환능력은 양호하다. Company B's repayment capacity is sound.", "c")
    assert all("REPAYMENT_CAPACITY" in u.concepts for u in doc.units)


def test_context_entities_carry_through_the_paragraph(report: SemanticDocument) -> None:
    caveat = next(u for u in report.units if u.text.startswith("다만"))
    assert caveat.entities == [] and caveat.context_entities == ["B_CORP"]


def test_compiled_document_round_trips_through_json(report: SemanticDocument) -> None:
    again = SemanticDocument.from_json(report.to_json())
    assert again == report
    assert again.to_json() == report.to_json()


def test_compiled_document_validates_against_shipped_schema(report: SemanticDocument) -> None:
    validate_document(report.to_dict())


def test_schema_rejects_a_document_without_units() -> None:
    payload = compile("본문이다.", "x").to_dict()
    del payload["units"]
    with pytest.raises(errors.SchemaValidationError, match="units"):
        validate_document(payload)


def test_from_json_refuses_a_document_whose_text_was_changed(report: SemanticDocument) -> None:
    payload = report.to_dict()
    payload["text"] = payload["text"].replace("정상적으로", "비정상적으로")
    with pytest.raises(errors.DocumentIntegrityError, match="report_1"):
        SemanticDocument.from_json(payload)


def test_table_segment_lines_become_whole_rows_with_caption() -> None:
    text = "Intro paragraph about Company B.\n\nTable 2: Debt\nItem | 2022 | 2023\nBorrowings | 10 | 12\n"
    table_start = text.index("Table 2")
    segments = [
        {"start_char": 0, "end_char": table_start - 2, "chunk_id": "c1", "kind": "text", "page_span": [1]},
        {"start_char": table_start, "end_char": len(text), "chunk_id": "c2", "kind": "table", "page_span": [2]},
    ]
    doc = compile(text, "seg", segments=segments)
    kinds = [(u.kind, u.text, u.segment) for u in doc.units]
    assert kinds[-3:] == [
        ("caption", "Table 2: Debt", 1),
        ("table_row", "Item | 2022 | 2023", 1),
        ("table_row", "Borrowings | 10 | 12", 1),
    ]
    assert doc.segments[1].chunk_id == "c2"


def test_table_segment_rows_without_separators_are_still_rows() -> None:
    text = "매출액 1,200 1,350\n영업이익 80 95"
    doc = compile(text, "t", segments=[{"start_char": 0, "end_char": len(text), "kind": "table"}])
    assert [u.kind for u in doc.units] == ["table_row", "table_row"]


@pytest.mark.parametrize("text", ["", "   \n\t  "])
def test_empty_text_raises_naming_the_document(text: str) -> None:
    with pytest.raises(errors.EmptyDocumentError, match="doc_empty") as info:
        compile(text, "doc_empty")
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", [None, b"bytes", 42])
def test_non_string_text_raises_type_error_naming_the_document(text: object) -> None:
    with pytest.raises(errors.DocumentTypeError, match="doc_bad") as info:
        compile(text, "doc_bad")  # type: ignore[arg-type]
    assert isinstance(info.value, TypeError)


@pytest.mark.parametrize("document_id", ["", "  ", None, " padded "])
def test_invalid_document_id_is_rejected(document_id: object) -> None:
    with pytest.raises(errors.InvalidDocumentIdError):
        compile("본문이다.", document_id)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "segments",
    [
        [{"start_char": 0, "end_char": 999}],
        [{"start_char": 5, "end_char": 5}],
        [{"start_char": 0, "end_char": 6}, {"start_char": 4, "end_char": 8}],
        [{"start_char": 0, "end_char": 4, "boxes": [{"page": 1, "bbox": [0, 1, 2]}]}],
    ],
)
def test_segments_that_do_not_fit_the_text_are_rejected(segments: list[dict]) -> None:
    with pytest.raises(errors.InvalidSegmentError, match="doc_seg"):
        compile("0123456789", "doc_seg", segments=segments)


def test_ten_megabyte_document_compiles_whole() -> None:
    # Speed is measured by benchmarks/bench_semantic.py, never asserted here (a loaded machine is slower).
    paragraph = (
        "B기업은 2023년 매출액이 3.5% 증가하였으나, 다만 영업이익률은 하락하였다. "
        "Acme Holdings Inc. reported net income of $1.2 million; however, its debt ratio rose.\n\n"
    )
    text = paragraph * (10 * 1024 * 1024 // len(paragraph.encode("utf-8")) + 1)
    assert len(text.encode("utf-8")) >= 10 * 1024 * 1024
    doc = compile(text, "big")
    assert len(doc.units) > 100_000
    assert doc.units[-1].end_char == len(text.rstrip())
