"""Korean keys (a compound word is found by its parts, which do not lengthen the unit) and names with a
qualifier ("Kestrel Dynamics Korea" is not "Kestrel Dynamics")."""

from __future__ import annotations

from semantic_json import SemanticRepository, compile
from semantic_json.search.lexical import SUBWORD_PREFIX, hangul_pairs, query_keys, unit_fields

STATEMENT = (
    "<표 2> 요약 연결손익계산서 (단위: 백만원)\n"
    "과 목 | 2025년 3분기 누적 | 2024년 3분기 누적\n"
    "보험수익 | 3,812,440 | 3,655,120\n"
    "재보험손익 | (58,615) | (55,240)\n"
    "영업이익 | 500,506 | 462,000\n"
)
PROSE = "당사는 재보험 거래를 통해 위험을 분산하고 있으며, 재보험사의 신용도를 정기적으로 점검합니다.\n"


def test_a_korean_word_is_also_keyed_by_its_syllable_pairs():
    assert hangul_pairs("재보험손익") == [f"{SUBWORD_PREFIX}{p}" for p in ("재보", "보험", "험손", "손익")]
    assert hangul_pairs("revenue") == [] and hangul_pairs("손") == []
    keys = query_keys("재보험 거래에서 본 손익은?", [], [])
    assert keys[f"{SUBWORD_PREFIX}손익"] == 1.0 and "손익" in keys


def test_syllable_pairs_do_not_lengthen_a_unit():
    doc = compile(STATEMENT, "ins")
    row = next(u for u in doc.units if "재보험손익" in u.text)
    fields = unit_fields(row)
    assert fields[f"{SUBWORD_PREFIX}손익"] > 0
    words = {k: w for k, w in fields.items() if not k.startswith(SUBWORD_PREFIX)}
    assert words and all(not k.startswith(SUBWORD_PREFIX) for k in words)


def test_a_compound_row_is_found_by_a_question_that_names_its_parts():
    repo = SemanticRepository()
    repo.add(compile(PROSE + "\n" + STATEMENT, "dodam"))
    found = repo.search("재보험에서 난 손익은 얼마인가?", k=2)  # 재보험 … 손익: the row says 재보험손익
    assert any("(55,240)" in region.text for region in found)


def test_a_question_about_the_parent_does_not_take_its_subsidiarys_figures():
    brief = ("Kestrel Dynamics Korea, the Korean subsidiary of Kestrel Dynamics, Inc., closed fiscal 2024 with "
             "revenue of KRW 2,236 hundred million. Operating income rose to KRW 203 hundred million.\n")
    report = ("Kestrel Dynamics, Inc. closed fiscal 2024 with revenue of USD 12,480 million. Operating income was "
              "USD 1,938 million in 2024.\n")
    repo = SemanticRepository()
    repo.add(compile(brief, "brief"))
    repo.add(compile(report, "report"))
    parent = repo.search("What was Kestrel Dynamics' operating income in 2024?", k=3)
    assert parent[0].document_id == "report" and all(r.document_id == "report" for r in parent)
    subsidiary = repo.search("What was Kestrel Dynamics Korea's operating income in 2024?", k=1)
    assert subsidiary[0].document_id == "brief"


def test_a_fiscal_ordinal_is_keyed_as_the_year_the_report_pairs_it_with():
    from semantic_json.rules.textnorm import ordinal_period_terms, ordinal_year_offset

    report = ("<표 1> 요약 재무상태표\n구 분 | 제 28 기 3분기말 (2025.09.30) | 제 27 기말 (2024.12.31)\n"
              "자산총계 | 29,084,930 | 26,448,704\n\n"
              "<표 2> 요약 손익계산서\n과 목 | 제 28 기 3분기 누적 | 제 27 기 3분기 누적\n"
              "재보험손익 | 제 28 기 3분기 누적: (41,285); 제 27 기 3분기 누적: (55,240)\n")
    assert ordinal_year_offset(report) == 1997
    assert ordinal_period_terms("제 27 기 3분기 누적", 1997) == ["2024", "2024q3"]
    assert ordinal_period_terms("제 27 기 3분기 누적", None) == []
    # no date beside any ordinal, or pairs that disagree: no year is guessed
    assert ordinal_year_offset("구 분 | 제 19 기 (당기) | 제 18 기 (전기)") is None
    assert ordinal_year_offset("제 5 기말 (2020.12.31)\n제 9 기말 (2020.12.31)") is None
    doc = compile(report, "ins")
    row = next(u for u in doc.units if "재보험손익" in u.text)
    assert {"2024q3", "2025q3"} <= set(row.terms)
    # a question in calendar terms meets the column printed as an ordinal
    repo = SemanticRepository()
    repo.add(doc)
    assert "재보험손익" in repo.search("2024년 3분기 누적 재보험손익")[0].text


def test_a_period_spelled_out_gives_no_word_pairs():
    from semantic_json.rules.textnorm import term_bigrams

    # "2025년 9월 말" and "2025.9월말" are one period (normalized_terms: "2025-09"); its words pair with nothing
    assert term_bigrams("2025년 9월 말 영업자산에서 비중이 가장 큰 부문은?") == [
        "영업자산 비중", "비중 가장", "가장 큰", "큰 부문"]
    assert term_bigrams("제 27 기 3분기 누적 재보험손익") == ["누적 재보험손익"]
    assert term_bigrams("total current liabilities") == ["total current", "current liability"]
    # so the row that spells the question's date like the question does not outrank the table asked about
    report = ("<표 2> 영업자산 구성 (단위: 억원, %)\n구 분 | 2024 | 2025.9월말 | 비중(%)\n"
              "신차 할부·리스 | 29,870 | 30,945 | 40.0\n중고차금융 | 10,385 | 11,120 | 14.4\n\n"
              "<표 4> 유동성 대응 현황\n구 분 | 2025년 9월 말\n현금 및 현금성자산 | 3,185\n"
              "3개월 내 회수 예정 영업자산 | 7,620\n")
    repo = SemanticRepository()
    repo.add(compile(report, "credit"))
    assert "비중" in repo.search("2025년 9월 말 영업자산에서 비중이 가장 큰 부문은?", k=1)[0].text


def test_a_period_printed_as_a_fiscal_ordinal_is_the_rows_own_term():
    from semantic_json.search.lexical import INHERITED_WEIGHT

    report = ("<표 1> 요약 재무상태표\n구 분 | 제 28 기 3분기말 (2025.09.30) | 제 27 기말 (2024.12.31)\n"
              "자산총계 | 29,084,930 | 26,448,704\n\n"
              "<표 2> 요약 손익계산서\n과 목 | 제 28 기 3분기 누적 | 제 27 기 3분기 누적\n"
              "재보험손익 | 제 28 기 3분기 누적: (41,285) | 제 27 기 3분기 누적: (55,240)\n")
    doc = compile(report, "ins")
    row = next(u for u in doc.units if u.kind == "table_row" and u.text.startswith("재보험손익"))
    # as own as "2024년 3분기 누적" printed in a cell would be; without the report's offset only inherited
    assert unit_fields(row, 1997)["2024q3"] == 1.0
    assert unit_fields(row)["2024q3"] == INHERITED_WEIGHT
