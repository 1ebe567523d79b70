"""Field-weighted BM25 over anchors: the row that states the figure outranks headings and passing mentions."""

from __future__ import annotations

import pytest

from semantic_json import SemanticRepository, compile


def _document(document_id: str, parts: list[tuple[str, str, str | None]]):
    """A document from (kind, text, title) blocks, with one segment per block as the PDF bridge writes them."""
    text, segments = "", []
    for kind, block, title in parts:
        if text:
            text += "\n\n"
        start = len(text)
        text += block
        segment = {"start_char": start, "end_char": len(text), "kind": kind, "chunk_id": f"c{len(segments)}"}
        if title:
            segment["title"] = title
        segments.append(segment)
    return compile(text, document_id, segments=segments)


STATEMENT_TITLE = "CONSOLIDATED BALANCE SHEETS · As of December 31 · (in thousands)"
REPORT = [
    ("text", "Earnings per Share", None),
    ("text", "Other non-current liabilities include the lease financing obligation and unrecognized tax benefits; "
             "interest and penalties are recorded in other non-current liabilities on the consolidated balance sheets.", None),
    ("table", "\n".join([STATEMENT_TITLE, "2017 | 2016",
                         "Current liabilities > Accrued expenses | 2017: 315,094; 2016: 197,632",
                         "Current liabilities > Total current liabilities | 2017: 5,466,312; 2016: 4,586,657",
                         "Other non-current liabilities | 2017: 135,246; 2016: 61,188"]), STATEMENT_TITLE),
    ("table", "\n".join(["Earnings per share · Years ended December 31", "2023 | 2022",
                         "Basic earnings per share | 2023: 2.10; 2022: 1.95",
                         "Diluted earnings per share | 2023: 2.05; 2022: 1.90"]), "Earnings per share · Years ended December 31"),
]


def _search(query: str):
    repo = SemanticRepository()
    repo.add(_document("report", REPORT))
    return repo.search(query, k=3)


def test_the_row_with_the_figure_outranks_a_heading_that_repeats_the_question():
    result = _search("What was basic earnings per share in 2023?")
    assert "Basic earnings per share | 2023: 2.10" in result[0].text


def test_a_phrase_match_outranks_a_paragraph_that_shares_only_its_words():
    result = _search("total current liabilities on the balance sheet")
    assert "Total current liabilities | 2017: 5,466,312" in result[0].text
    assert result[0].source.table_title == STATEMENT_TITLE


def test_rows_inherit_their_tables_title_so_the_statement_name_reaches_them():
    result = _search("balance sheets accrued expenses")
    assert "Accrued expenses | 2017: 315,094" in result[0].text


def _key_stats(repo: SemanticRepository, key: str) -> tuple[int, int]:
    """(units, documents) holding ``key`` in the repository's engine ((0, 0) when none)."""
    key_id = repo._key_id(key)
    return (0, 0) if key_id is None else repo._store.key_stats([key_id]).get(key_id, (0, 0))


def test_idf_counts_units_not_documents():
    repo = SemanticRepository()
    repo.add(compile("rare word here.\n\nrevenue grew.\n\nrevenue fell.\n\nrevenue was flat.", "d"))
    assert _key_stats(repo, "rare") == (1, 1)
    assert _key_stats(repo, "revenue") == (3, 1)
    assert _key_stats(repo, "absent") == (0, 0)


def test_removing_a_document_forgets_its_units():
    repo = SemanticRepository()
    repo.add(compile("revenue grew.", "a"))
    repo.add(compile("revenue fell.\n\ncosts rose.", "b"))
    assert repo._store.totals().units == 3 and _key_stats(repo, "revenue") == (2, 2)
    repo.remove("b")
    assert repo._store.totals().units == 1 and _key_stats(repo, "cost") == (0, 0)
    assert [region.document_id for region in repo.search("revenue", k=5)] == ["a"]


def test_words_that_name_the_documents_subject_do_not_pick_units_inside_it():
    parts = [
        ("text", "Acme Express and Acme Scan bring Acme revenue from Acme creators on Acme mobile devices.", None),
        ("table", "Income statement · (in millions)\n2024 | 2023\nRevenue | 2024: 17,606; 2023: 15,785", "Income statement · (in millions)"),
    ]
    repo = SemanticRepository()
    repo.add(_document("acme", parts), info={"profile": "ACME INC. · FORM 10-K · FY2024", "subject": "ACME INC."})
    repo.add(_document("other", [("text", "Other company revenue grew in 2024 as expected by analysts.", None)]))
    result = repo.search("What was Acme's revenue?", k=2, documents=["acme"])
    assert "Revenue | 2024: 17,606" in result[0].text


def test_priors_never_tie_the_best_anchors_of_a_corpus_search():
    acme = _document("acme", [
        ("text", "Revenue growth was strong: revenue growth reached 9% in FY2024 on new orders.", None),
        ("text", "Other matters", None),
        ("text", "Revenue growth was slower in the services business in FY2024.", None),
    ])
    other = _document("other", [("text", "Shipping volumes fell in FY2024 as expected by analysts.", None)])
    repo = SemanticRepository()
    repo.add(acme, info={"profile": "ACME INC. · FORM 10-K · FY2024", "subject": "ACME INC."})
    repo.add(other, info={"profile": "OTHER CORP. · FORM 10-K · FY2024", "subject": "OTHER CORP."})
    result = repo.search("ACME FY2024 revenue growth", k=3)
    scores = [region.score for region in result]
    assert [r.document_id for r in result[:2]] == ["acme", "acme"]
    assert all(0.0 <= s <= 1.0 for s in scores)
    assert scores[0] > scores[1]  # the priors lift both; a clamp at 1.0 would tie them


def test_a_metric_question_reaches_the_rows_the_metric_is_computed_from():
    # reports print a ratio's inputs, not the ratio: the lexicon names them (QUICK_RATIO → CASH,
    # RECEIVABLES, CURRENT_LIABILITIES, BALANCE_SHEET)
    result = _search("How healthy is the quick ratio?")
    assert "Total current liabilities | 2017: 5,466,312" in result[0].text


def test_metric_inputs_weigh_less_than_what_the_query_names_itself():
    from semantic_json.search.lexical import INPUT_CONCEPT_WEIGHT, query_keys

    keys = query_keys("quick ratio and cash", ["QUICK_RATIO", "CASH"], [], inputs=["CASH", "RECEIVABLES"])
    assert keys["QUICK_RATIO"] == keys["CASH"] == 1.0
    assert keys["RECEIVABLES"] == INPUT_CONCEPT_WEIGHT < 1.0


def test_how_to_answer_words_leave_the_query_and_what_to_find_stays():
    from semantic_json.rules.textnorm import query_content

    query = ("What is the FY2020 free cash flow? Answer in USD millions, round to one decimal place and "
             "base your judgment primarily on the cash provided by operating activities.")
    assert query_content(query) == ("What is the FY2020 free cash flow? in USD millions, to one place and "
                                    "base your on the cash provided by operating activities.")
    assert query_content("2023년 영업이익률을 소수점 첫째 자리까지 반올림하여 답하시오") == "2023년 영업이익률을 첫째 자리까지"
    assert query_content("roundabout answering") == "roundabout answering"  # whole English words only
    assert query_content("What is the useful life of buildings?") == "What is the useful life of buildings?"


@pytest.mark.parametrize("query, content", [
    ("Does the company have positive working capital based on FY2022 data? If working capital is not a useful "
     "or relevant metric for this company, then please state that and explain why.",
     "Does the company have positive working capital based on FY2022 data?"),
    ("Calculate inventory turnover for FY2022; if conventional inventory management is not meaningful for the "
     "company then state that and explain why.", "inventory turnover for FY2022;"),
    ("What were restructuring costs in FY2022? If restructuring costs are not explicitly outlined then state 0.",
     "What were restructuring costs in FY2022?"),
    ("Is the quick ratio healthy? If the quick ratio is not relevant to measure liquidity, please say so.",
     "Is the quick ratio healthy?"),
    # a condition that is part of what is asked stays
    ("If the firm liquidated all of its assets, how much could each shareholder get?",
     "If the firm liquidated all of its assets, how much could each shareholder get?"),
    ("What happens if the notes are not repaid by 2025?", "What happens if the notes are not repaid by 2025?"),
    ("Was goodwill impaired in 2022? If so, state the amount of the impairment charge.",
     "Was goodwill impaired in 2022? If so, state the amount of the impairment charge."),
])
def test_a_conditional_instruction_leaves_the_query(query, content):
    from semantic_json.rules.textnorm import query_content

    assert query_content(query) == content


def test_a_rare_instruction_word_in_the_report_does_not_pick_its_paragraph():
    repo = SemanticRepository()
    repo.add(_document("report", REPORT + [
        ("text", "We round each amount to one decimal place; an exact figure may differ.", None)]))
    result = repo.search("What were earnings per share in 2023? Round to one decimal place, exact answer.", k=3)
    assert "Basic earnings per share | 2023: 2.10" in result[0].text


def test_a_table_holding_two_of_the_asked_figures_outranks_tables_holding_one():
    sheet = "CONSOLIDATED BALANCE SHEETS · (in millions)"
    assets = "Total current assets | 2023: 16,525; 2022: 15,025"
    liabilities = "Total current liabilities | 2023: 10,730; 2022: 9,674"
    tables = [[assets, "Goodwill | 2023: 1,000; 2022: 990"], [liabilities, "Goodwill | 2023: 1,000; 2022: 990"],
              [assets, liabilities]]  # each row twice: the best anchor of every table scores alike
    repo = SemanticRepository()
    repo.add(_document("report", [("table", "\n".join([sheet, "2023 | 2022", *rows]), sheet) for rows in tables]))
    result = repo.search("What were total current assets and total current liabilities?", k=3)
    assert assets in result[0].text and liabilities in result[0].text


def test_a_second_anchor_raises_a_regions_score_toward_one_never_past_it():
    from semantic_json.search.fusion import region_score

    assert region_score([0.6]) == 0.6
    assert 0.6 < region_score([0.6, 0.5]) < region_score([0.6, 0.6]) < 1.0
    assert region_score([0.6, 0.5, 0.1]) == region_score([0.5, 0.6])  # the best two count
    assert region_score([1.0, 1.0]) == 1.0


def test_a_year_in_a_table_row_weighs_as_its_column_label_not_as_its_own_word():
    from semantic_json.search.lexical import INHERITED_WEIGHT, unit_fields

    doc = _document("years", [("table", "\n".join(["Revenue · Years ended December 31", "2023 | 2022",
                                                   "Net sales | 2023: 14,694; 2022: 14,544"]), None),
                              ("text", "Net sales grew in 2023 in every region.", None)])
    row = next(u for u in doc.units if u.kind == "table_row" and "14,694" in doc.text[u.start_char:u.end_char])
    sentence = next(u for u in doc.units if u.kind != "table_row" and "grew" in doc.text[u.start_char:u.end_char])
    assert unit_fields(row)["2023"] == INHERITED_WEIGHT and unit_fields(row)["net"] == 1.0
    assert unit_fields(sentence)["2023"] == 1.0



REPORT_WORDING = [
    ("text", "Item 3. Legal Proceedings. The Company is a party to several lawsuits described in Note 16.", None),
    ("text", "We operate in four geographic areas: the United States, EMEA, APAC and LACC.", None),
    ("table", "\n".join(["Worldwide Sales Change · Year ended December 31, 2022", "Organic sales | Divestitures | Translation",
                         "Consumer | Organic sales: (0.9); Divestitures: (0.4); Translation: (2.6)",
                         "Health Care | Organic sales: 3.2; Divestitures: (1.4); Translation: (3.8)"]),
     "Worldwide Sales Change · Year ended December 31, 2022"),
    ("text", "Revenue growth was strong in every quarter of the year and we expect it to continue.", None),
]


@pytest.mark.parametrize("question, expected, k", [
    ("Has the company reported any materially important ongoing legal battles?", "Legal Proceedings", 1),
    ("What are the geographies that the company primarily operates in?", "geographic areas", 1),
    # growth "excluding M&A" is what the report calls organic: the table's column, not a word of the question
    ("If we exclude the impact of M&A, which segment dragged down growth?", "Organic sales: (0.9)", 2),
])
def test_a_question_in_analysts_words_reaches_the_reports_wording(question: str, expected: str, k: int) -> None:
    repo = SemanticRepository()
    repo.add(_document("wording", REPORT_WORDING))
    assert any(expected in region.text for region in repo.search(question, k=k))


INCOME_TITLE = "CONSOLIDATED STATEMENTS OF INCOME · Years ended · (In millions)"
MARGIN_REPORT = [
    ("text", "The determination of the fair value involves significant judgment on future revenue growth, "
             "operating margins and discount rates.", None),
    ("text", "The cost of undertaking these security efforts could reduce our operating margins.", None),
    *[("text", f"Product line {k} shipped to customers in region {k} during the year.", None) for k in range(12)],
    ("table", "\n".join([INCOME_TITLE, "2022 | 2021",
                         "Total revenue | 2022: 17,606; 2021: 15,785",
                         "Cost of revenue | 2022: 2,165; 2021: 1,865",
                         "Operating income | 2022: 6,098; 2021: 5,802",
                         "Net income | 2022: 4,756; 2021: 4,822"]), INCOME_TITLE),
]
MARGIN_QUESTION = "Does the company have an improving operating margin profile as of FY2022?"


def test_a_metric_question_gets_the_figures_before_sentences_that_only_name_the_metric(tmp_path):
    """Operating margin is computed from revenue and operating income: the sentences that name "operating
    margins" without a figure match its words best, the statement's rows hold its value."""
    repo = SemanticRepository()
    repo.add(_document("report", MARGIN_REPORT))
    assert "Operating income | 2022: 6,098" in repo.search(MARGIN_QUESTION, k=3)[0].text
    stored = SemanticRepository.open(tmp_path / "index.sqlite")  # the flags are kept in the index file
    stored.add(_document("report", MARGIN_REPORT))
    stored.close()
    reopened = SemanticRepository.open(tmp_path / "index.sqlite", read_only=True)
    assert "Operating income | 2022: 6,098" in reopened.search(MARGIN_QUESTION, k=3)[0].text


def test_a_sentence_without_a_figure_still_answers_what_it_alone_says():
    repo = SemanticRepository()
    repo.add(_document("report", MARGIN_REPORT))
    first = repo.search("What security efforts could reduce operating margins?", k=3)[0]
    assert "security efforts could reduce" in first.text


@pytest.mark.parametrize("text, figure", [
    ("Operating income | 2022: 6,098", True), ("margin of 34.6%", True), ("(90)", True), ("2.1:1", True),
    ("In 2022, operating margins declined.", False), ("FY2022 and 2020-2021", False), ("operating margins", False),
])
def test_a_figure_is_a_number_other_than_a_year(text, figure):
    from semantic_json.rules.patterns import prints_figure

    assert prints_figure(text) is figure


def test_a_year_weighs_fully_as_a_rows_label_and_less_as_a_column_label():
    """"2024 | Pension benefits: 1,097" is the row of 2024; in "Operating income | 2024: 6,098" the year
    labels a column that every row of the table prints."""
    from semantic_json.search.lexical import INHERITED_WEIGHT, unit_fields

    title = "Estimated Future Benefit Payments · (dollars in millions)"
    doc = _document("report", [("table", "\n".join([
        title, "Year | Pension Benefits | Health Care",
        "2023 | Pension Benefits: 1,648; Health Care: 883",
        "2024 | Pension Benefits: 1,097; Health Care: 862",
        "Operating income | 2024: 6,098; 2023: 5,802"]), title)])
    rows = {doc.text[u.start_char:u.end_char].split(" |")[0]: u for u in doc.units if u.kind == "table_row"}
    assert unit_fields(rows["2024"])["2024"] == 1.0
    assert unit_fields(rows["2024"]).get("2023", 0.0) == 0.0
    assert unit_fields(rows["Operating income"])["2024"] == INHERITED_WEIGHT
