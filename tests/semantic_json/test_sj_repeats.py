"""Regions that repeat an earlier region of the same document (repeats.py), and cross-references, which are
damped like headings (patterns.is_cross_reference, lexical damping)."""

from __future__ import annotations

import pytest

from semantic_json import SemanticRepository, compile
from semantic_json.rules.patterns import is_cross_reference
from semantic_json.search.repeats import Repeats

DIVIDEND = ("During 2022, 2021 and 2020, the quarterly cash dividend was $0.55, $0.50 and $0.50 per share, "
            "respectively. In December 2022, the Board authorized a 10% increase in the quarterly cash dividend "
            "to $0.605 per share effective in 2023.")
# the same facts, printed again in a note with a few words changed
DIVIDEND_AGAIN = ("During 2022, 2021 and 2020 the quarterly cash dividend was $0.55, $0.50 and $0.50 per share, "
                  "respectively. In December 2022, the Board of Directors authorized a 10% increase in the quarterly "
                  "cash dividend to $0.605 per share effective in 2023.")
FIVE_YEAR = ("Effective May 26, 2023, the Company terminated the $3,800,000,000 five year unsecured revolving "
             "credit agreement, dated as of May 27, 2022, among the Company, as borrower, and the lenders.")
NEW_364 = ("On May 26, 2023, the Company entered into a new $4,200,000,000 364 day unsecured revolving credit "
           "agreement among the Company, as borrower, and the lenders.")
OLD_364 = ("Effective May 26, 2023, the Company terminated the $3,800,000,000 364 day unsecured revolving "
           "credit agreement, dated as of May 27, 2022, among the Company, as borrower, and the lenders.")

#: Paragraphs about nothing asked, so that BM25 has a collection to weigh terms in.
FILLER = [f"Segment {k} sold {k} thousand units of product line {k} in the period." for k in range(20)]


def test_a_passage_printed_again_with_the_same_figures_repeats() -> None:
    said = Repeats()
    assert not said.repeats("a", DIVIDEND)
    assert said.repeats("a", DIVIDEND)  # word for word
    assert said.repeats("a", DIVIDEND_AGAIN)  # reworded, nothing new
    assert said.repeats("a", DIVIDEND[:120])  # a part of it
    assert not said.repeats("b", DIVIDEND)  # another document is another source


def test_a_parallel_sentence_about_other_facts_is_kept() -> None:
    said = Repeats()
    assert not said.repeats("a", FIVE_YEAR)
    # most words are shared, a figure is not: a different agreement
    assert not said.repeats("a", FIVE_YEAR.replace("$3,800,000,000", "$4,100,000,000"))
    assert not said.repeats("a", NEW_364)
    # every word and figure of the terminated 364-day agreement is in the two kept ones, but in neither alone
    assert not said.repeats("a", OLD_364)


def _filing(*paragraphs: str) -> tuple[str, list[dict]]:
    text = "\n\n".join(paragraphs)
    segments, at = [], 0
    for n, part in enumerate(paragraphs):
        segments.append({"start_char": at, "end_char": at + len(part), "chunk_id": f"c{n}", "kind": "text",
                         "page_span": [10 * (n + 1)]})
        at += len(part) + 2
    return text, segments


def test_search_returns_a_passage_the_filing_prints_twice_once() -> None:
    text, segments = _filing(DIVIDEND, *FILLER[:10], DIVIDEND_AGAIN, *FILLER[10:],
                             "The Company has paid cash dividends every quarter since becoming a public company.")
    repo = SemanticRepository()
    repo.add(compile(text, "filing", segments=segments))
    regions = repo.search("What quarterly cash dividend per share did the Board pay in 2022?", k=3)
    texts = [r.text for r in regions]
    assert sum("$0.605" in t for t in texts) == 1, texts
    assert any("every quarter since" in t for t in texts), texts  # the place goes to the next region


@pytest.mark.parametrize("text, pointer", [
    ("See Note 12 ‘‘Shareholders’ Equity’’ included in Item 8 of this 10-K for information regarding the "
     "Company’s dividends.", True),
    ("Refer to Business Segment Results on page 18 for discussion of revenue sharing.", True),
    ("For additional information, see Note 5.", True),
    ("(See Note 7)", True),
    ("The information required by this Item is incorporated herein by reference to the Proxy Statement.", True),
    ("자세한 내용은 주석 12를 참조하시기 바랍니다.", True),
    ("(주석 12 참조)", True),
    # a lead-in, or a sentence with something of its own
    ("See the table below.", False),
    ("Revenue increased 5% to $3.2 billion. See Note 3.", False),
    ("Sales were $5 million (see Note 4).", False),
    ("매출은 3,000억원이다(주석 5 참조).", False),
    ("We refer to these employees as colleagues.", False),
])
def test_a_cross_reference_is_a_sentence_that_only_points_elsewhere(text: str, pointer: bool) -> None:
    assert is_cross_reference(text) is pointer


def _first_region(query: str, *paragraphs: str):
    """The first region for ``query`` in a document of ``paragraphs``, each a text segment of its own."""
    text, segments = _filing(*paragraphs)
    repo = SemanticRepository()
    repo.add(compile(text, "filing", segments=segments))
    return repo.search(query, k=2)[0]


def test_a_cross_reference_does_not_outrank_the_evidence_it_points_to() -> None:
    """Undamped, the pointer scores above the sentence it points to (it has more of the query's words)."""
    pointer = ("See Note 12 included in Item 8 of this report for information regarding dividends paid to "
               "shareholders in 2022.")
    evidence = "In 2022 the Company paid a quarterly cash dividend of $0.55 per share, 2,900 million for the year."
    first = _first_region("Has the Company paid dividends to shareholders in 2022?",
                          *FILLER[:10], pointer, *FILLER[10:], evidence)
    assert "$0.55" in first.text, first.text


@pytest.mark.parametrize("text, boilerplate", [
    ("Indicate by check mark whether the registrant is a shell company (as defined in Rule 12b-2 of the Act).", True),
    ("If an emerging growth company, indicate by check mark if the registrant has elected not to use the "
     "extended transition period.", True),
    ("Large accelerated filer | ☑ | Accelerated filer | ☐", True),
    ("Emerging growth company | ☐", True),
    ("Sales grew 1.3% in 2022, a year of low growth for the company.", False),
    ("□ 주요 사업의 내용", False),  # a bullet, not a check box
    ("■ Revenue grew 5% to $3.2 billion", False),
    ("Title of each class | Trading Symbol | Name of each exchange on which registered", False),
])
def test_a_forms_instructions_and_check_boxes_are_boilerplate(text: str, boilerplate: bool) -> None:
    from semantic_json.rules.patterns import is_form_boilerplate

    assert is_form_boilerplate(text) is boilerplate


def test_a_cover_check_box_does_not_outrank_the_figure_asked_for() -> None:
    """Undamped, the cover's check box matches "growth company" better than the sentence on sales growth."""
    cover = "Emerging growth company | ☐ | Smaller reporting company | ☐"
    evidence = "Worldwide sales grew 1.3% in 2022, which is low growth for the Company."
    first = _first_region("Are the Company's 2022 financials those of a high growth company?", cover, *FILLER, evidence)
    assert "1.3%" in first.text, first.text


AUCTION = ("In February 2021, the FCC concluded Auction 107 for C-Band wireless spectrum. The Company paid $45.5 "
           "billion for the licenses it won. We expect to continue to make clearing payments through 2024.")
# the same paragraph printed again in a note, with a sentence and a figure more
AUCTION_FULLER = AUCTION + " In accordance with the FCC order, the clearing must be completed by December 2025."


def test_a_passage_that_says_all_a_kept_one_says_and_more_supersedes_it() -> None:
    said = Repeats()
    assert not said.repeats("a", AUCTION, key="short")
    assert not said.repeats("a", AUCTION_FULLER, key="full")  # it prints a figure the kept one does not
    assert said.supersedes("a", AUCTION_FULLER, key="full") == ["short"]
    assert said.repeats("a", AUCTION, key="again")  # what is kept now is the fuller one
    # a parallel sentence about another agreement says neither all of the other nor its figures
    said = Repeats()
    said.repeats("a", FIVE_YEAR, key="five")
    said.repeats("a", NEW_364, key="new")
    assert said.supersedes("a", NEW_364, key="new") == []
    assert said.supersedes("b", AUCTION_FULLER, key="x") == []  # another document's regions are not its own


def test_search_returns_a_passage_printed_twice_once_in_its_fuller_form_at_the_better_place() -> None:
    text, segments = _filing(AUCTION, *FILLER[:10], AUCTION_FULLER, *FILLER[10:],
                             "Clearing payments for the spectrum licenses were $1.3 billion in 2021.")
    repo = SemanticRepository()
    repo.add(compile(text, "filing", segments=segments))
    query = "How much does the Company expect to pay for clearing the C-Band spectrum licenses through 2024?"
    regions = repo.search(query, k=3)
    texts = [r.text for r in regions]
    assert sum("Auction 107" in t for t in texts) == 1, texts
    first = next(r for r in regions if "Auction 107" in r.text)
    assert "December 2025" in first.text  # the fuller one, in the place of the shorter
    assert any("$1.3 billion" in t for t in texts), texts  # the place it frees goes to the next region
    assert [r.score for r in regions] == sorted((r.score for r in regions), reverse=True)
