"""Number grounding: a number in a sentence must appear in the text of a region the sentence cites."""

from __future__ import annotations

import hashlib
from decimal import Decimal

import pytest

from semantic_json.citations import find_numbers, validate_cited_answer
from semantic_json.citations.numbers import figure_lines
from semantic_json.transport import TRANSPORT_SCHEMA_ID


def one_region(text: str) -> dict:
    sha = hashlib.sha256(text.encode()).hexdigest()
    source = {
        "document_id": "report",
        "uri": None,
        "start_char": 0,
        "end_char": len(text),
        "start_line": 1,
        "end_line": 1,
        "document_sha256": sha,
    }
    region = {"region_id": "report:R1", "score": 1.0, "entities": [], "source": source, "anchors": [], "text": text}
    return {
        "schema": TRANSPORT_SCHEMA_ID,
        "query": "q",
        "region_count": 1,
        "document_count": 1,
        "documents": [{"document_id": "report", "source_uri": None, "document_sha256": sha, "regions": [region]}],
    }


def ungrounded(sentence: str, region_text: str) -> list[str]:
    """Numbers of `sentence` that its one cited region (holding `region_text`) does not ground."""
    report = validate_cited_answer(
        {"statements": [{"sentence": sentence, "citation_ids": ["report:R1"]}]}, one_region(region_text),
        strict_numbers=False,
    )
    return report.accepted[0].ungrounded_numbers


@pytest.mark.parametrize(
    ("sentence", "region_text"),
    [
        ("매출액은 1,234억원이다.", "매출액 1,234억원"),
        ("Revenue was 1,234.", "Revenue 1234 in total"),  # thousands separators
        ("영업손실은 (56)이다.", "영업이익 -56"),  # "(56)" ↔ "-56"
        ("Operating income was -56.", "Operating income (56)"),
        ("영업손실은 △56이다.", "영업이익 (56)"),
        ("영업손실은 56억원이다.", "영업이익 (56)"),  # prose carries the sign in words
        ("The margin was 3.5%.", "margin 3.5 %"),
        ("이익률은 3.5%이다.", "이익률 3.5％"),  # full-width percent
        ("The margin was 3.5%.", "margin (%) 3.5"),  # unit in a header
        ("2024년 실적이다.", "FY 2024 results"),
        ("In 2024 revenue grew.", "2024년 매출"),
        ("매출은 1,200억원이다.", "매출 1,200억 원"),  # 억원 vs 억 원
        ("매출은 1,200억 원이다.", "매출 1,200 억원"),
        ("매출은 １，２００억원이다.", "매출 1,200억원"),  # full-width digits and comma
        ("매출은 1,200억원이다.", "매출 120,000,000,000원"),
        ("매출은 1,200억원이다.", "(단위: 억원) 매출 | 1,200 | 1,100"),  # table with the unit in its header
        ("매출은 1,200이다.", "매출 1,200억원"),  # the sentence drops the unit
        ("총자산은 3조 2,000억원이다.", "총자산 3조 2,000억원"),
        ("총자산은 3.2조원이다.", "총자산 3조 2,000억원"),
        ("총자산은 3조 2,000억원이다.", "총자산 3,200,000백만원"),
        ("차입금은 1억 2천만원이다.", "차입금 120,000,000원"),
        ("순이익은 350.5억원이다.", "순이익 350.50억원"),
        ("부채비율은 2.3배이다.", "부채비율 2.3 배"),
        ("Leverage was 2.3x.", "부채비율 2.3배"),
        ("Revenue was $1.2 billion.", "Revenue 1,200 million"),
        ("Margin fell 1.5%p.", "margin -1.5%p"),
        ("기준일은 2024년 3월 31일이다.", "기준일 2024.03.31"),
        ("As of 2024-03-31.", "기준일 2024.03.31"),
        ("Sentence with a marker [1] and 7 units.", "7 units"),  # "[1]" is a citation marker, not a claim
        ("B기업은 원리금을 정상 상환하고 있다.", "B기업은 현재까지 원리금을 정상적으로 상환하고 있다."),  # no number
        ("COVID-19 hit Q3 sales in FY2024.", "COVID-19"),  # letter-prefixed codes are words, not claims
    ],
)
def test_number_is_grounded(sentence, region_text):
    assert ungrounded(sentence, region_text) == []


@pytest.mark.parametrize(
    ("sentence", "region_text", "expected"),
    [
        ("Revenue was 1,234.", "Revenue 11,234", ["1,234"]),  # token boundary: 11,234 does not hold 1,234
        ("Revenue was 1,234.", "Revenue 1,2345", ["1,234"]),
        ("Revenue was 234.", "Revenue 11,234", ["234"]),
        ("Revenue was 1,234.", "Revenue 1,234.5", ["1,234"]),
        ("Revenue was 12.", "Revenue 12.5", ["12"]),
        ("The margin was 3.5%.", "margin 13.5%", ["3.5%"]),
        ("The margin was 3.5%.", "leverage 3.5배", ["3.5%"]),  # different kinds of figure
        ("매출은 1,200억원이다.", "매출 1,200조원", ["1,200억원"]),  # different unit
        ("매출은 1,200억원이다.", "매출 12,000억원", ["1,200억원"]),
        ("총자산은 3조 2,000억원이다.", "총자산 3조원, 부채 2,000억원", ["3조 2,000억원"]),
        ("Operating income was -56.", "Operating income 56", ["-56"]),  # an explicit sign must match
        ("영업손실은 (56)이다.", "영업이익 56", ["(56)"]),
        ("In 2025 revenue grew.", "2024년 매출", ["2025"]),
        ("In 2024 revenue grew.", "20245", ["2024"]),
        ("Revenue 7.", "", ["7"]),
        ("매출은 1,200억원, 이익은 300억원이다.", "매출 1,200억원", ["300억원"]),
    ],
)
def test_number_is_ungrounded(sentence, region_text, expected):
    assert ungrounded(sentence, region_text) == expected


def test_parenthesised_year_is_not_negative():
    (year,) = find_numbers("(2024)")
    assert not year.negative and year.value == Decimal(2024)
    (amount,) = find_numbers("(2,024)")
    assert amount.negative and amount.surface == "(2,024)"


def test_korean_units_are_multiplied_out():
    values = [m.value for m in find_numbers("1,200억원, 3조 2,000억원, 1억 2천만원, 5천명, 3백만원")]
    assert values == [Decimal(120_000_000_000), Decimal(3_200_000_000_000), Decimal(120_000_000), Decimal(5000), Decimal(3_000_000)]


def test_words_beginning_with_a_unit_syllable_are_not_units():
    kinds = [(m.surface, m.kind, m.has_unit) for m in find_numbers("주당 500원 배당, 2배율, 3 만기")]
    assert kinds == [("500원", "number", False), ("2", "number", False), ("3", "number", False)]


def test_amounts_separated_by_a_currency_word_stay_separate():
    assert [m.surface for m in find_numbers("3조원 2,000억원")] == ["3조원", "2,000억원"]


def test_version_strings_and_dotted_numbers_are_not_read_as_decimals():
    assert find_numbers("v1.2.3") == []
    assert [m.kind for m in find_numbers("2024.03.31")] == ["date"]


def test_ungrounded_numbers_are_listed_once_in_sentence_order():
    assert ungrounded("7, 8, 7 and 9.", "9") == ["7", "8"]


def judged(sentence: str, region_text: str, unit: str | None = None, **options) -> tuple[bool, list[str]]:
    """(accepted, ungrounded numbers) for `sentence` citing one region, by default rules unless `options`."""
    transport = one_region(region_text)
    if unit is not None:
        transport["documents"][0]["regions"][0]["source"]["unit"] = unit
    report = validate_cited_answer(
        {"statements": [{"sentence": sentence, "citation_ids": ["report:R1"]}]}, transport, **options
    )
    if report.accepted:
        return True, report.accepted[0].ungrounded_numbers
    return False, report.rejected[0].ungrounded_numbers


def test_a_wrong_figure_rejects_the_statement_by_default():
    assert judged("Adjusted EBIT was $999 million.", "Adjusted EBIT 399 (in millions)") == (False, ["999 million"])


def test_lenient_numbers_keep_the_statement_and_flag_the_figure():
    assert judged("Adjusted EBIT was $999 million.", "Adjusted EBIT 399", strict_numbers=False) == (
        True, ["999 million"])


@pytest.mark.parametrize(
    ("sentence", "region_text", "unit"),
    [
        ("Net sales were $3.6 billion.", "Net sales 3,642 2,980", "in millions"),
        ("Net sales were $3,642 million.", "(Dollars in millions) Net sales 3,642 2,980", None),
        ("Net sales were $3.64 billion.", "(in millions) Net sales 3,642", None),
        ("매출은 1,200억원이다.", "(단위: 백만원) 매출 120,000", None),
        ("매출은 1.2조원이다.", "매출 1,200,000", "단위: 백만원"),
        ("Margin was 12.3%.", "Margin 12.34%", None),
    ],
)
def test_scaled_and_rounded_figures_are_grounded(sentence, region_text, unit):
    assert judged(sentence, region_text, unit) == (True, [])


@pytest.mark.parametrize(
    ("sentence", "region_text", "unit"),
    [
        ("Net sales were $999 million.", "Net sales 999", "in thousands"),  # the scale says thousands
        ("Net sales were $3.7 billion.", "Net sales 3,642", "in millions"),  # rounds to 3.6
        ("Net sales were $4 billion.", "Net sales 3,642", "in millions"),  # one significant digit: no rounding
        ("Net sales were $3,600 million.", "Net sales 3,642", "in millions"),  # written exact, not equal
        ("매출은 1,200억원이다.", "(단위: 천원) 매출 120,000", None),
    ],
)
def test_figures_that_do_not_match_the_stated_scale_are_rejected(sentence, region_text, unit):
    accepted, numbers = judged(sentence, region_text, unit)
    assert not accepted and numbers


def test_a_small_count_or_a_year_the_region_does_not_print_is_flagged_not_rejected():
    assert judged("Revenue rose 12% over 3 quarters.", "Revenue growth 12%") == (True, ["3"])
    assert judged("Operating income was $1,938 million in 2024.", "Operating income: 1,938 (in millions)") == (
        True, ["2024"])
    assert judged("Operating income was $1,938 million in 2,024.", "Operating income: 1,938 (in millions)")[0] is False


STATEMENT_OF_INCOME = "\n".join([
    "Table 1: Consolidated Statement of Income (in millions of USD)",
    "2024 | 2023",
    "Revenue | 2024: 12,480; 2023: 11,652; Change (%): 7.1%",
    "Cost of sales | 2024: (7,362); 2023: (6,991); Change (%): 5.3%",
    "Operating income | 2024: 1,938; 2023: 1,681; Change (%): 15.3%",
    "Income tax expense | 2024: (388); 2023: (313); Change (%): 24.0%",
    "Net income | 2024: 1,375; 2023: 1,109; Change (%): 24.0%",
])


@pytest.mark.parametrize("sentence, lines", [
    # the year grounds every row but is no figure: only the row printing 1,938 is named
    ("Operating income was USD 1,938 million in 2024.", [(4, ["1,938"])]),
    ("Operating income was USD 1.9 billion in 2024.", [(4, ["1,938"])]),  # the table's scale, rounded
    ("Cost of sales was 7,362 [1].", [(3, ["(7,362)"])]),  # printed with its parentheses
    ("Both tax and net income grew 24.0%.", [(5, ["24.0%"]), (6, ["24.0%"])]),
    ("Revenue of 12,480 and net income of 1,375.", [(2, ["12,480"]), (6, ["1,375"])]),
    ("Operating income rose in 2024.", []),  # no figure
    ("Operating income was USD 1,938 thousand.", []),  # not at the table's scale
])
def test_figure_lines_name_the_rows_that_print_a_statements_figures(sentence, lines):
    found = figure_lines(sentence, STATEMENT_OF_INCOME)
    assert [(number, [m.surface for m in printed]) for number, printed in found] == lines
