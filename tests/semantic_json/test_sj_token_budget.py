"""Region bounds are token budgets: a Korean table costs an LLM about four times an English one of the same
length in characters, so it is taken whole only while its tokens, not its characters, fit."""

from __future__ import annotations

from evidence_chunker.tokens import count_tokens
from semantic_json import SemanticRepository, compile
from semantic_json.search.regions import TABLE_WHOLE_MAX_TOKENS
from semantic_json.store.records import UnitLayout
from semantic_json.token_cost import estimated_tokens

KO_ROWS = ["매출채권회전율", "재고자산회전율", "총자산회전율", "유형자산회전율", "매입채무회전율", "순운전자본비율",
           "영업현금흐름비율", "차입금의존도", "순차입금비율", "이자보상배율", "유동비율", "자기자본비율", "부채비율",
           "총자본회전율", "당좌비율"]
EN_ROWS = ["Receivables turnover", "Inventory turnover", "Total asset turnover", "Fixed asset turnover",
           "Payables turnover", "Net working capital ratio", "Operating cash flow ratio", "Debt dependence",
           "Net debt ratio", "Interest coverage", "Current ratio", "Equity ratio", "Debt ratio",
           "Total capital turnover", "Quick ratio"]


def table(caption: str, header: str, rows: list[str], note: str) -> str:
    body = "\n".join(f"{row} {note} | {n}.{n % 7} | {n + 1}.{n % 5}" for n, row in enumerate(rows, start=1))
    return f"{caption}\n{header}\n{body}\n"


KOREAN = table("<표 3> 주요 재무비율", "구분 | 2023년 | 2024년", KO_ROWS, "(연결 기준, 기말 잔액 대비 연평균 회수)")
ENGLISH = table("<Table 3> Key ratios", "Item | 2023 | 2024", EN_ROWS, "(consolidated, average balance, times)")


def test_the_estimate_follows_cl100k_in_both_scripts():
    for text in (KOREAN, ENGLISH):
        exact = count_tokens(text)
        assert 0.75 * exact <= estimated_tokens(text) <= 1.25 * exact


def test_a_table_is_taken_whole_only_while_its_tokens_fit():
    korean, english = KOREAN, ENGLISH
    # the Korean table is the shorter in characters and the costlier in tokens
    assert len(korean) < len(english)
    assert estimated_tokens(english) <= TABLE_WHOLE_MAX_TOKENS < estimated_tokens(korean)
    repo = SemanticRepository()
    repo.add(compile(korean, "ko"))
    repo.add(compile(english, "en"))
    en_region = repo.search("receivables turnover", documents=["en"])[0]
    assert all(f"\n{row} (" in en_region.text for row in EN_ROWS)  # whole: the rows beside the asked one
    ko_region = repo.search("매출채권회전율", documents=["ko"])[0]
    assert ko_region.text.startswith("<표 3> 주요 재무비율\n구분 | 2023년 | 2024년")
    assert "\n매출채권회전율 (" in ko_region.text
    assert "당좌비율" not in ko_region.text  # not the whole table: the asked row, not the rows after it
    assert count_tokens(ko_region.text) < count_tokens(korean) / 2


def test_a_stored_layout_carries_each_units_cost():
    doc = compile(KOREAN, "ko")
    layout = UnitLayout.from_document(doc)
    assert list(layout.token_costs) == [estimated_tokens(doc.text[u.start_char:u.end_char]) for u in doc.units]
