"""Sentence and proposition splitting."""

from __future__ import annotations

import pytest

from semantic_json.compilation.propositions import split_propositions
from semantic_json.compilation.sentences import MAX_SENTENCE_CHARS, split_sentences


def sentences(text: str) -> list[str]:
    return [text[s:e] for s, e in split_sentences(text)]


def propositions(text: str) -> list[str]:
    return [text[s:e] for s, e in split_propositions(text, 0, len(text))]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Revenue grew 3.5% in 2023. Margins held.", ["Revenue grew 3.5% in 2023.", "Margins held."]),
        (
            "Acme Holdings Inc. reported a loss. Its U.S. market share fell.",
            ["Acme Holdings Inc. reported a loss.", "Its U.S. market share fell."],
        ),
        ("See No. 5 for details. Dr. Kim agreed.", ["See No. 5 for details.", "Dr. Kim agreed."]),
        ("매출이 증가함. 부채비율은 하락함. 영업이익 개선 중임.", ["매출이 증가함.", "부채비율은 하락함.", "영업이익 개선 중임."]),
        ("B기업은 상환하고 있다.다만 계약이 만료된다.", ["B기업은 상환하고 있다.", "다만 계약이 만료된다."]),
        ("1. 매출이 3.5% 증가함.", ["1. 매출이 3.5% 증가함."]),
        ("매출이 증가함\n부채가 감소하였다\n다만 전망은 불확실", ["매출이 증가함", "부채가 감소하였다", "다만 전망은 불확실"]),
        ("Is it sound? Yes! It is.", ["Is it sound?", "Yes!", "It is."]),
        ('He said "It is done." Then left.', ['He said "It is done."', "Then left."]),
        ("J. Smith joined Acme Corp. The firm grew.", ["J. Smith joined Acme Corp.", "The firm grew."]),
        ("Company B. However, it fell.", ["Company B.", "However, it fell."]),
    ],
)
def test_sentence_splitter_cases(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


def test_sentence_spans_are_exact_and_trimmed() -> None:
    text = "  첫 문장이다.   Second one.\n\n  세 번째임.  "
    spans = split_sentences(text)
    assert [text[s:e] for s, e in spans] == ["첫 문장이다.", "Second one.", "세 번째임."]
    assert all(not text[s].isspace() and not text[e - 1].isspace() for s, e in spans)


def test_run_on_text_is_cut_at_whitespace_below_the_limit() -> None:
    text = ("word " * 1000).strip()
    spans = split_sentences(text)
    assert len(spans) > 1
    assert all(e - s <= MAX_SENTENCE_CHARS for s, e in spans)
    assert " ".join(text[s:e] for s, e in spans) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "B기업은 원리금을 상환하고 있으나, 다만 주요 계약이 내년에 만료된다.",
            ["B기업은 원리금을 상환하고 있으나,", "다만 주요 계약이 내년에 만료된다."],
        ),
        (
            "매출은 증가하였다 그러나 영업이익은 감소하였다.",
            ["매출은 증가하였다", "그러나 영업이익은 감소하였다."],
        ),
        (
            "Company B has repaid on schedule, but its key supply contract expires next year.",
            ["Company B has repaid on schedule,", "but its key supply contract expires next year."],
        ),
        (
            "Revenue rose sharply; however, margins fell sharply this year.",
            ["Revenue rose sharply;", "however, margins fell sharply this year."],
        ),
        ("Not only revenue but also profit grew strongly.", ["Not only revenue but also profit grew strongly."]),
        ("Revenue rose while maintaining margins.", ["Revenue rose while maintaining margins."]),
    ],
)
def test_connective_starts_a_new_proposition(text: str, expected: list[str]) -> None:
    assert propositions(text) == expected
