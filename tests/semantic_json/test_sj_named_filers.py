"""A question that names its filer ("3M's operating margin", "JnJ's financials") searches that filer's
documents in a corpus: Profiles.named and the repository's narrowing."""

from __future__ import annotations

import pytest

from semantic_json import SemanticRepository, compile
from semantic_json.search.priors import Profiles

SUBJECTS = {
    "mmm": "3M COMPANY MMM",
    "pep": "PepsiCo, Inc. PEP",
    "axp": "American Express Company AXP",
    "awk": "AMERICAN WATER WORKS COMPANY, INC. AWK",
    "jnj": "JOHNSON & JOHNSON JNJ",
    "adbe16": "ADOBE SYSTEMS INCORPORATED",
    "adbe22": "ADOBE INC. ADBE",
    "bby": "BEST BUY CO., INC.",
    "amcr": "AMCOR PLC",  # no symbol: a legal form in capitals is not one
}


@pytest.fixture(scope="module")
def profiles() -> Profiles:
    profiles = Profiles()
    for document_id, subject in SUBJECTS.items():
        profiles.set(document_id, f"{subject} · FORM 10-K", subject)
    return profiles


@pytest.mark.parametrize("query, named", [
    ("What drove operating margin change as of FY2022 for 3M?", {"mmm"}),
    ("Are JnJ's FY2022 financials that of a high growth company?", {"jnj"}),  # the trading symbol
    ("Has Pepsico reported any legal battles?", {"pep"}),
    # one company's names over the years ("Adobe Systems Incorporated", "Adobe Inc.") share the first word
    ("Does Adobe have an improving operating margin profile?", {"adbe16", "adbe22"}),
    # two companies' names start with "American": the second word tells them apart
    ("Which debt securities are registered under American Express' name?", {"axp"}),
    ("Does American Water Works have positive working capital?", {"awk"}),
    ("What was American Airlines' revenue?", set()),
    ("What is the FY2019 total amount of inventories for Best Buy?", {"bby"}),
    ("What industry does AMCOR primarily operate in?", {"amcr"}),
    ("Which PLC reported the most revenue?", set()),
])
def test_a_capitalised_name_or_symbol_names_the_filer(profiles: Profiles, query: str, named: set[str]) -> None:
    assert profiles.named(query) == named


@pytest.mark.parametrize("query", [
    "Best practices for liquidity",  # a capital that starts a sentence names nothing
    "What are the best general and administrative expenses?",  # lower case names nothing
    "Has the company paid dividends?",  # "Has" is no trading symbol (HAS), a title-case word
])
def test_ordinary_words_name_no_filer(profiles: Profiles, query: str) -> None:
    assert profiles.named(query) == set()


def _filing(document_id: str, sentence: str):
    return compile(f"Operating margin. {sentence}", document_id)


@pytest.fixture(scope="module")
def corpus() -> SemanticRepository:
    repo = SemanticRepository()
    # the other companies' sentences match the wording of the question better than 3M's own
    repo.add(_filing("mmm", "3M's operating income margin declined by 1.7 points in 2022."),
             info={"profile": "3M COMPANY · MMM · FORM 10-K · FY2022", "subject": "3M COMPANY MMM"})
    repo.add(_filing("pep", "What drove operating margin change in FY2022: operating margin fell on higher costs."),
             info={"profile": "PepsiCo, Inc. · PEP · FORM 10-K · FY2022", "subject": "PepsiCo, Inc. PEP"})
    repo.add(_filing("unknown", "Operating margin change in FY2022 was driven by pricing."), info={})
    return repo


def test_a_corpus_search_that_names_its_filer_keeps_to_it(corpus: SemanticRepository) -> None:
    result = corpus.search("What drove operating margin change as of FY2022 for 3M?", k=3)
    # 3M's filing, and the one whose filer is not known (it may be 3M's); never PepsiCo's
    assert {r.document_id for r in result} == {"mmm", "unknown"}


def test_a_corpus_search_that_names_no_filer_searches_every_document(corpus: SemanticRepository) -> None:
    result = corpus.search("What drove operating margin change as of FY2022?", k=3)
    assert {r.document_id for r in result} == {"mmm", "pep", "unknown"}


def test_documents_named_by_the_caller_are_not_narrowed(corpus: SemanticRepository) -> None:
    result = corpus.search("What drove operating margin change as of FY2022 for 3M?", k=3, documents=["pep"])
    assert [r.document_id for r in result] == ["pep"]


@pytest.mark.parametrize("text, terms", [
    ("3M Company", ["3m", "company"]),  # a digit-led name is one word, as its filer writes it
    ("Item 1A and 5G networks", ["item", "1a", "5g", "network"]),
    ("FY2022 2024E 2,345.6 3.5%", ["2022", "2024", "2,345.6", "3.5%"]),  # four digits stay a year
    ("FY22 and fiscal 2021", ["2022", "fiscal", "2021"]),  # an analyst's fiscal year is the year printed
    ("2024년 3분기 실적", ["2024", "2024q3", "실적"]),  # a period is its year and one canonical term
    ("2024년 3개 분기", ["2024", "년", "3", "개", "분기"]),  # Hangul after digits is not a Latin name
])
def test_digit_led_names_are_one_term(text: str, terms: list[str]) -> None:
    from semantic_json.rules.textnorm import normalized_terms

    assert normalized_terms(text) == terms


@pytest.fixture(scope="module")
def years() -> Profiles:
    profiles = Profiles()
    for year in (2018, 2020, 2022):
        profiles.set(f"acme{year}", f"ACME INC. · FORM 10-K · For the fiscal year ended December 31, {year} · "
                                    f"FY{year}", "ACME INC.")
    profiles.set("brief", "ACME Korea investor brief", "ACME Korea")  # no period read from it
    return profiles


@pytest.mark.parametrize("query, period", [
    ("What is the FY2018 - FY2020 3 year average capex as a % of revenue for ACME?", {"acme2020"}),  # the latest
    ("As of FY 2021 and FY2022, how much did ACME expect to pay retirees in 2024?", {"acme2022"}),
    ("How much did ACME expect to pay in 2024, as of 2020?", {"acme2020"}),  # 2024: no filing of that year
    ("Did ACME pay dividends in FY18?", {"acme2018"}),
    ("Did ACME pay dividends?", set()),
])
def test_the_period_a_query_names_is_the_latest_year_a_filing_holds(years: Profiles, query: str,
                                                                     period: set[str]) -> None:
    assert years.of_period(query, ["acme2018", "acme2020", "acme2022"]) == period
    # a document whose period is not known may be of the year asked for: it is never left behind
    with_brief = years.of_period(query, ["acme2018", "acme2020", "acme2022", "brief"])
    assert with_brief == (period | {"brief"} if period else set())


def test_of_a_years_filings_a_quarter_asked_for_keeps_the_quarterly_report() -> None:
    profiles = Profiles()
    profiles.set("annual", "AMCOR PLC · FORM 10-K · For the fiscal year ended June 30, 2023 · FY2023", "AMCOR PLC")
    profiles.set("q2", "AMCOR PLC · FORM 10-Q · For the quarterly period ended December 31, 2022 · FY2023", "AMCOR PLC")
    both = ["annual", "q2"]
    assert profiles.of_period("What is AMCOR's restructuring liability as of Q2 of FY2023?", both) == {"q2"}
    assert profiles.of_period("AMCOR's second quarter of fiscal 2023 sales?", both) == {"q2"}
    assert profiles.of_period("Has AMCOR's quick ratio improved between FY2023 and FY2022?", both) == {"annual"}
    # a year with one filing keeps it, whichever it is
    assert profiles.of_period("What is AMCOR's restructuring liability as of Q2 of FY2023?", ["annual"]) == {"annual"}
    profiles.set("q2", "")
    assert profiles.quarterly == set()


def test_a_corpus_search_prefers_the_filing_of_the_year_asked_for() -> None:
    repo = SemanticRepository()
    # the FY2022 filing's sentence names the year asked for and says more than the FY2018 filing's own
    for year, sentence in ((2022, "Dividends paid per common share were $0.50 in 2022 and $0.40 in 2018."),
                           (2018, "Dividends paid per share were $0.40.")):
        repo.add(compile(f"Dividends. {sentence}", f"acme{year}"),
                 info={"profile": f"ACME INC. · FORM 10-K · FY{year}", "subject": "ACME INC."})
    result = repo.search("How much were ACME's dividends per share in FY2018?", k=2)
    assert [r.document_id for r in result] == ["acme2018", "acme2022"]


@pytest.mark.parametrize("a, b", [
    ("2025년 9월 말", "2025.9월말"),
    ("2025년 9월 말", "(2025.09.30)"),
    ("2025-09-30", "2025/09/30"),
    ("2025년 3분기", "2025.3Q"),
    ("3Q25", "Q3 2025"),
])
def test_a_period_printed_two_ways_is_one_term(a: str, b: str) -> None:
    from semantic_json.rules.textnorm import normalized_terms

    assert normalized_terms(a) == normalized_terms(b) and len(normalized_terms(a)) == 2


@pytest.mark.parametrize("text", ["2,025.9", "2025.9", "2025 revenue 3", "20253Q"])
def test_numbers_that_are_not_periods_stay_numbers(text: str) -> None:
    from semantic_json.rules.textnorm import normalized_terms

    assert not any("-" in t or "q" in t for t in normalized_terms(text))


def test_a_korean_question_names_a_filer_by_the_korean_words_of_its_name() -> None:
    profiles = Profiles()
    profiles.set("brief", "Kestrel Dynamics Korea Co., Ltd. · 케스트럴다이내믹스코리아",
                 "Kestrel Dynamics Korea Co., Ltd. 케스트럴다이내믹스코리아")
    profiles.set("rating", "은가람캐피탈", "은가람캐피탈")
    profiles.set("annual", "Kestrel Dynamics, Inc. · FORM 10-K", "Kestrel Dynamics, Inc.")
    assert profiles.named("케스트럴다이내믹스코리아의 2024년 임직원 수는 몇 명인가?") == {"brief"}
    assert profiles.named("은가람캐피탈의 부동산PF 잔액은?") == {"rating"}
    assert profiles.named("캐피탈 업계의 부동산PF 잔액은?") == set()  # a part of a name is not the name
