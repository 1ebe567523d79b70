"""The report-text rules (semantic_json.rules.patterns, the one module both packages read) against one table of
examples, English and Korean."""

from __future__ import annotations

import pytest

from evidence_chunker.units import captions, tables, titles
from semantic_json.rules import patterns

LONG_CAPTION = "Table 3: " + "x" * 391  # 400 characters: the longest a caption may be

#: (rule, input, answer). A rule is a function of semantic_json.rules.patterns.
EXAMPLES: list[tuple[str, str, object]] = [
    # figures as printed: sign, parentheses, currency, unit, footnote mark, nil marks
    ("is_number", "1,234", True),
    ("is_number", "(1,234)", True),
    ("is_number", "（1,234）", True),
    ("is_number", "-3.5%", True),
    ("is_number", "+0.6%p", True),
    ("is_number", "12.5pp", True),
    ("is_number", "25bps", True),
    ("is_number", "1.2x", True),
    ("is_number", "$12", True),
    ("is_number", "$ (565)", True),
    ("is_number", "(3)%", True),
    ("is_number", "USD 12", True),
    ("is_number", "US$12", True),
    ("is_number", "₩50,000", True),
    ("is_number", "KRW 1,000", True),
    ("is_number", "12bn", True),
    ("is_number", "3.5M", True),
    ("is_number", "50.000", True),
    ("is_number", "1 234 567", True),
    ("is_number", "007", True),
    ("is_number", "1,234†", True),
    ("is_number", "56*", True),
    ("is_number", "≥ 5", True),
    ("is_number", "< 1%", True),
    ("is_number", "-", True),
    ("is_number", "—", True),
    ("is_number", "n/a", True),
    ("is_number", "N/A", True),
    ("is_number", "nm", True),
    ("is_number", "n.m.", True),
    ("is_number", "2024", True),
    ("is_number", "1,234백만원", True),
    ("is_number", "3억", True),
    ("is_number", "5.2배", True),
    ("is_number", "120명", True),
    ("is_number", "2.1:1", True),  # a current ratio as the MD&A prints it
    ("is_number", "1 : 1.5", True),
    ("is_number", "Ratio 2:1", False),
    ("is_number", "Revenue", False),
    ("is_number", "USD", False),
    ("is_number", "2023 2022", False),
    ("is_number", "1.2.3", False),
    ("is_number", "12 months", False),
    ("is_number", "", False),
    ("is_number", "매출액", False),
    # year labels
    ("is_year", "2024", True),
    ("is_year", "FY2023", True),
    ("is_year", "FY 2023", True),
    ("is_year", "2024E", True),
    ("is_year", "Q1 2024", True),
    ("is_year", "'23", True),
    ("is_year", "2024년", True),
    ("is_year", "2023년도", True),
    ("is_year", "1,234", False),
    ("is_year", "2024년 12월", False),
    ("is_year", "제26기", False),
    # quantities: figures that are data, not year labels
    ("is_quantity", "(1,234)", True),
    ("is_quantity", "12.5%", True),
    ("is_quantity", "2024", False),
    ("is_quantity", "2024년", False),
    ("is_quantity", "Total", False),
    # currency printed on its own
    ("is_currency", "$", True),
    ("is_currency", "₩", True),
    ("is_currency", "USD", True),
    ("is_currency", "$12", False),
    # unit statements
    ("find_unit", "(in millions, except per share amounts)", "in millions, except per share amounts"),
    ("find_unit", "Dollars in thousands", "Dollars in thousands"),
    ("find_unit", "(단위: 백만원)", "단위: 백만원"),
    ("find_unit", "Revenue by segment", None),
    ("strip_unit", "($ in Millions, except EPS) 2023", "2023"),
    ("strip_unit", "(단위: 백만원) 제26기", "제26기"),
    # captions
    ("is_caption", "Table 3: Revenue by segment", True),
    ("is_caption", "TABLE 3.", True),
    ("is_caption", "Tab. 2 Margins", True),
    ("is_caption", "Table A-1 Terms", True),
    ("is_caption", "Table 3 (continued)", True),
    ("is_caption", "Table 3 continued", True),
    ("is_caption", "Exhibit 4", True),
    ("is_caption", "Appendix Table 2", True),
    ("is_caption", "Figure 1: Revenue by region", True),
    ("is_caption", "Fig. 2", True),
    ("is_caption", "Graph 3:", True),
    ("is_caption", "Chart 4", True),
    ("is_caption", "표 2. 재무상태", True),
    ("is_caption", "표 1 매출 현황", True),
    ("is_caption", "<표 1> B기업 주요 재무지표", True),
    ("is_caption", "[표 4]", True),
    ("is_caption", "(표 5)", True),
    ("is_caption", "〈표 1〉", True),
    ("is_caption", "《표 1》", True),
    ("is_caption", "<표 1 매출 현황>", True),
    ("is_caption", "[그림 2] 매출 추이", True),
    ("is_caption", "도표 3.", True),
    ("is_caption", LONG_CAPTION, True),
    ("is_caption", LONG_CAPTION + "x", False),
    ("is_caption", "Table 3 shows revenue by segment.", False),
    ("is_caption", "Table 2-2 shows a comparison", False),
    ("is_caption", "표 3은 매출을 보여준다.", False),
    ("is_caption", "Tables 3 and 4", False),
    ("is_caption", "Table of contents", False),
    ("is_caption", "Figures in millions", False),
    ("is_caption", "표준 재무제표", False),
    ("is_table_caption", "Table 3: Revenue", True),
    ("is_table_caption", "《표 1》", True),
    ("is_table_caption", "Schedule 13D", True),
    ("is_table_caption", "Figure 1: Revenue", False),
    ("is_table_caption", "Graph 3:", False),
    ("is_table_caption", "Table 3 shows revenue", False),
    ("is_figure_caption", "Figure 1: Revenue", True),
    ("is_figure_caption", "Figure: market share", True),
    ("is_figure_caption", "<그림 2>", True),
    ("is_figure_caption", "Graph 3:", True),
    ("is_figure_caption", "Figures in millions", False),
    ("is_figure_caption", "Chart of accounts", False),
    ("is_figure_caption", "Table 3:", False),
    ("table_label", "Table 3: Revenue", "3"),
    ("table_label", "<표 2.1> 차입금", "2.1"),
    ("table_label", "Table A-1 Terms", "A-1"),
    ("table_label", "Figure 3: Revenue", None),
    ("referenced_tables", "As Table 3 and <표 4> show", {"3", "4"}),
    ("referenced_tables", "No table here", set()),
    # list markers
    ("is_list_item", "• Revenue grew", True),
    ("is_list_item", "- Revenue grew", True),
    ("is_list_item", "1. Overview", True),
    ("is_list_item", "(1) 개요", True),
    ("is_list_item", "(a) Leases", True),
    ("is_list_item", "iv. Other", True),
    ("is_list_item", "가. 사업의 개요", True),
    ("is_list_item", "(가) 매출", True),
    ("is_list_item", "① 유동자산", True),
    ("is_list_item", "▷ 주요 내용", True),
    ("is_list_item", "■ 사업 개요", True),
    ("is_list_item", "-12%", False),
    ("is_list_item", "2024. Revenue", False),
    ("is_list_item", "Revenue grew", False),
    ("is_list_item", "•", False),
    ("is_list_item", "© 2022 Copyright held by the authors", False),
    ("is_list_item", "☐ Yes", True),  # a symbol glyph
    ("is_list_item", "\uf0b7 Item", True),  # a symbol font's bullet, mapped to a private-use code point
    ("split_marker", "• Revenue grew", ("•", "Revenue grew")),
    ("split_marker", "(가) 매출", ("(가)", "매출")),
    ("split_marker", "Revenue grew", ("", "Revenue grew")),
]


def _id(example: tuple[str, str, object]) -> str:
    rule, text, _ = example
    return f"{rule}({text[:30]!r})"


@pytest.mark.parametrize("rule, text, answer", EXAMPLES, ids=[_id(e) for e in EXAMPLES])
def test_report_text_rules_answer_the_examples(rule, text, answer):
    assert getattr(patterns, rule)(text) == answer


def test_the_old_homes_of_the_rules_still_import_them():
    assert tables.is_numeric is patterns.is_number
    assert tables.is_year is patterns.is_year
    assert captions.is_table_caption is patterns.is_table_caption
    assert captions.is_figure_caption is patterns.is_figure_caption
    assert titles.find_unit is patterns.find_unit
    assert titles.strip_unit is patterns.strip_unit


@pytest.mark.parametrize("text, answer", [
    ("Sales by major product were:", True),
    ("The benefit payments to retirees are expected to be paid as follows:", True),
    ("The components of the provision are summarized below.", True),
    ("주요 차입금 내역은 다음과 같습니다.", True),
    ("연결실체의 매출 구성은 아래와 같습니다", True),
    ("Revenue grew 4% in 2023.", False),
    ("The ratio was 3:2", False),
])
def test_a_lead_in_announces_what_follows(text, answer):
    assert patterns.is_lead_in(text) is answer
