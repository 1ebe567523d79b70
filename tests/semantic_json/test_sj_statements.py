"""A filing's primary statements (statements.py) and the lift a query naming one gives their rows."""

from __future__ import annotations

import pytest

from semantic_json import SemanticRepository, compile
from semantic_json.search.statements import STATEMENT_KINDS, primary_statements, query_statements, statement_kind

BALANCE = STATEMENT_KINDS.index("BALANCE_SHEET") + 1
INCOME = STATEMENT_KINDS.index("INCOME_STATEMENT") + 1


@pytest.mark.parametrize("caption, kind", [
    ("CONSOLIDATED BALANCE SHEETS · (In thousands, except share data)", BALANCE),
    ("Condensed Consolidated Balance Sheets (Unaudited)", BALANCE),
    ("Consolidated Statements of Financial Position · (Dollars in millions)", BALANCE),
    ("3M Company and Subsidiaries Consolidated Statement of Income · Years ended December 31", INCOME),
    ("Consolidated Statements of Earnings", INCOME),
    ("연결 재무상태표 · (단위: 백만원)", BALANCE),
    ("연결재무상태표", BALANCE),  # Korean writes the qualifier and the title as one word too
    ("요약 손익계산서", INCOME),
    # the caption's own label before the title
    ("Table 1: Consolidated Statement of Income (in millions of USD) · Year ended December 31", INCOME),
    ("<표 2> 요약 연결손익계산서 · 제 28 기; 제 27 기", INCOME),
    ("Exhibit 99.1 Condensed Consolidated Balance Sheets", BALANCE),
    ("Table 4: Segment information", 0),
    ("Table 3 shows the statement of income", 0),
    # the text layer's "INTERNATIONALAND", a running header of Part II, Item 8 read into the caption
    ("MGM RESORTS INTERNATIONALAND SUBSIDIARIES CONSOLIDATED BALANCE SHEETS", BALANCE),
    ("PART II Item 8 ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA INCOME STATEMENTS", INCOME),
    ("Item 7. Analysis of the Balance Sheet", 0),
    ("Condensed Consolidating Balance Sheets", 0),  # the guarantors' columns, not the filer's statement
    # another entity's statement, an extract, a label of rows in selected data
    ("CITYCENTER HOLDINGS, LLC CONSOLIDATED BALANCE SHEETS · (In thousands)", 0),
    ("Key Balance Sheet Data", 0),
    ("Statements of Operations:", 0),
    ("Other Current Liabilities", 0),
])
def test_a_caption_titles_a_statement_only_when_it_opens_with_the_title(caption: str, kind: int) -> None:
    assert statement_kind(caption) == kind


COVER = "UNITED STATES SECURITIES AND EXCHANGE COMMISSION Form 10-K SQUARE, INC. (Exact name of registrant as " \
        "specified in its charter) JPMorgan Chase & Co."


@pytest.mark.parametrize("caption, kind", [
    ("SQUARE, INC. CONSOLIDATED BALANCE SHEETS · (In thousands, except share and per share data)", BALANCE),
    ("JPMorgan Chase & Co. Consolidated statements of income (unaudited)", INCOME),
    # a name the cover does not print, one without a legal form, the filer's name without a title after it
    ("CITYCENTER HOLDINGS, LLC CONSOLIDATED BALANCE SHEETS", 0),
    ("PARENT COMPANY – CONDENSED BALANCE SHEETS", 0),
    ("SQUARE Selected Balance Sheet Data", 0),
    ("SQUARE, INC. Key Balance Sheet Data", 0),
])
def test_a_title_may_follow_the_filers_own_name_as_its_cover_prints_it(caption: str, kind: int) -> None:
    from semantic_json.search.statements import _normalized

    assert statement_kind(caption, _normalized(COVER)) == kind
    assert statement_kind(caption) == 0  # without the cover, no name is the filer's


def test_the_filers_named_statement_is_primary_and_a_subsidiarys_is_not() -> None:
    parts = [
        "FORM 10-K\nNORTHWIND TRADING, INC.\n(Exact name of registrant as specified in its charter)",
        "NORTHWIND TRADING, INC. CONSOLIDATED BALANCE SHEETS\nDecember 31 | 2023 | 2022\n" + "\n".join(_rows(14)),
        "HARBOR HOLDINGS, LLC CONSOLIDATED BALANCE SHEETS\nDecember 31 | 2023 | 2022\n" + "\n".join(_rows(20)),
    ]
    text = "\n\n".join(parts)
    segments, at = [], 0
    for n, (part, kind) in enumerate(zip(parts, ["text", "table", "table"])):
        segments.append({"start_char": at, "end_char": at + len(part), "chunk_id": f"c{n}", "kind": kind,
                         "page_span": [1 + 40 * n]})
        at += len(part) + 2
    pages = _pages_coded(compile(text, "filing", segments=segments))
    assert pages[BALANCE] == {41}
    assert 81 in pages[0]


def test_a_query_names_statements_through_the_lexicon() -> None:
    assert query_statements(["BALANCE_SHEET", "WORKING_CAPITAL"]) == {BALANCE}
    assert query_statements(["WORKING_CAPITAL"]) == frozenset()
    # a line item: the statement that prints it; an item printed as often elsewhere names none
    assert query_statements(["OPERATING_INCOME"]) == {INCOME}
    assert query_statements(["CURRENT_ASSETS", "OPERATING_CASH_FLOW"]) == {BALANCE, STATEMENT_KINDS.index("CASH_FLOW_STATEMENT") + 1}
    assert query_statements(["REVENUE"]) == frozenset()


def _rows(n: int, start: int = 0) -> list[str]:
    return [f"Other asset line {k} | {100 + k} | {90 + k}" for k in range(start, start + n)]


CURRENT = ["Total current assets | 5,100 | 4,800", "Total current liabilities | 2,400 | 2,300"]


def _filing() -> tuple[str, list[dict]]:
    """An MD&A extract on page 20, a titled two-line extract on page 30, the balance sheet on pages 40-41, a
    subsidiary's balance sheet on page 90 and a note restating the balance sheet with more lines on page 95
    (each a table under its caption)."""
    parts = [
        ("Key Balance Sheet Data\nDecember 31 | 2023 | 2022\n" + "\n".join(CURRENT), "table", 20),
        ("Liquidity is discussed below.", "text", 20),
        ("Consolidated Balance Sheets\nDecember 31 | 2023 | 2022\n" + "\n".join(_rows(2)), "table", 30),
        ("Consolidated Balance Sheets\nDecember 31 | 2023 | 2022\n" + "\n".join(_rows(12) + CURRENT[:1] + _rows(6, 12)),
         "table", 40),
        ("Consolidated Balance Sheets (continued)\nDecember 31 | 2023 | 2022\n" + "\n".join(CURRENT[1:] + _rows(8, 18)),
         "table", 41),
        ("Harbor Holdings, LLC Consolidated Balance Sheets\nDecember 31 | 2023 | 2022\n" + "\n".join(CURRENT),
         "table", 90),
        ("Consolidated Balance Sheets\nAs reported | Adjustment | As restated\n" + "\n".join(_rows(36)), "table", 95),
    ]
    text = "\n\n".join(part for part, _, _ in parts)
    segments, at = [], 0
    for n, (part, kind, page) in enumerate(parts):
        segments.append({"start_char": at, "end_char": at + len(part), "chunk_id": f"c{n}", "kind": kind,
                         "page_span": [page]})
        at += len(part) + 2
    return text, segments


def _pages_coded(doc) -> dict[int, set[int]]:
    pages: dict[int, set[int]] = {}
    for unit, code in zip(doc.units, primary_statements(doc)):
        pages.setdefault(code, set()).update(doc.segments[unit.segment].page_span)
    return pages


def test_the_primary_balance_sheet_is_the_first_full_titled_page_and_its_continuation() -> None:
    text, segments = _filing()
    doc = compile(text, "filing", segments=segments)
    pages = _pages_coded(doc)
    assert pages[BALANCE] == {40, 41}
    assert {20, 30, 90, 95} <= pages[0]


QUESTION = "what were total current assets and total current liabilities at the end of 2023?"


def test_a_query_naming_the_balance_sheet_gets_the_filings_own_first(tmp_path) -> None:
    text, segments = _filing()
    repo = SemanticRepository()
    repo.add(compile(text, "filing", segments=segments))
    # without the statement's name the short extract matches best; named, the balance sheet comes first
    assert repo.search(QUESTION, k=1)[0].source.chunk_ids == ["c0"]
    named = repo.search("Based on the balance sheet, " + QUESTION, k=2)
    assert named[0].source.chunk_ids[0] in ("c3", "c4")
    stored = SemanticRepository.open(tmp_path / "index.sqlite")
    stored.add(compile(text, "filing", segments=segments))
    stored.close()
    reopened = SemanticRepository.open(tmp_path / "index.sqlite", read_only=True)
    assert [r.source.chunk_ids for r in reopened.search("Based on the balance sheet, " + QUESTION, k=2)] == [
        r.source.chunk_ids for r in named]


def test_a_metric_computed_from_a_statement_reaches_its_rows_among_many_closer_matches() -> None:
    """"Working capital" is computed from the balance sheet (its lexicon inputs name it): the balance sheet's
    rows compete, and come first, though 300 paragraphs that define working capital outscore them by cosine
    and by BM25."""
    text, segments = _filing()
    paragraphs = [f"Working capital of region {k}: its current assets less its current liabilities, region {k}."
                  for k in range(300)]
    at = len(text) + 2
    for n, paragraph in enumerate(paragraphs):
        segments.append({"start_char": at, "end_char": at + len(paragraph), "chunk_id": f"w{n}", "kind": "text",
                         "page_span": [100 + n // 10]})
        at += len(paragraph) + 2
    text = "\n\n".join([text, *paragraphs])
    repo = SemanticRepository()
    repo.add(compile(text, "filing", segments=segments))
    first = repo.search("Does the company have positive working capital?", k=5)[0]
    assert set(first.source.chunk_ids) <= {"c3", "c4"}
