"""Splitting a sentence into propositions at discourse connectives.

A contrastive or topic-shifting connective inside a sentence (다만, 그러나, 한편, 반면 …; however, but,
while, whereas …) starts a new proposition: "…상환하고 있으나, 다만 계약이 만료된다" → ["…있으나,",
"다만 계약이 만료된다"]. English connectives count only after a comma, semicolon, colon or dash (so "not
only … but also" and "while maintaining" stay whole); Korean ones after any whitespace. A split that
would leave a piece shorter than MIN_PROPOSITION_CHARS is skipped.
"""

from __future__ import annotations

import re

#: Shortest proposition (in characters) that a connective split may leave on either side.
MIN_PROPOSITION_CHARS = 8

#: Korean connectives that open a new proposition.
KOREAN_CONNECTIVES: tuple[str, ...] = (
    "그럼에도 불구하고",
    "그럼에도",
    "그렇지만",
    "그러나",
    "하지만",
    "그런데",
    "반면에",
    "반면",
    "다만",
    "한편",
)
#: English connectives that open a new proposition (after , ; : or a dash).
ENGLISH_CONNECTIVES: tuple[str, ...] = (
    "on the other hand",
    "in contrast",
    "nevertheless",
    "nonetheless",
    "meanwhile",
    "conversely",
    "although",
    "however",
    "whereas",
    "though",
    "while",
    "but",
    "yet",
)

_KO = re.compile(r"(?<=\s)(?:" + "|".join(KOREAN_CONNECTIVES) + r")(?=[\s,])")
_EN = re.compile(
    r"(?<=[,;:\u2013\u2014]\s)(?:" + "|".join(c.replace(" ", r"\s+") for c in ENGLISH_CONNECTIVES) + r")\b(?!\s+also\b)",
    re.IGNORECASE,
)


def connective_starts(text: str, start: int, end: int) -> list[int]:
    """Offsets inside (start, end) where a connective opens a new proposition."""
    hits = {m.start() for m in _KO.finditer(text, start, end)}
    hits.update(m.start() for m in _EN.finditer(text, start, end))
    return sorted(h for h in hits if h > start)


def split_propositions(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Proposition spans of the sentence text[start:end] (trimmed, in order, covering the sentence)."""
    spans: list[tuple[int, int]] = []
    piece_start = start
    for cut in connective_starts(text, start, end):
        left_end = cut
        while left_end > piece_start and text[left_end - 1].isspace():
            left_end -= 1
        if left_end - piece_start < MIN_PROPOSITION_CHARS or end - cut < MIN_PROPOSITION_CHARS:
            continue
        spans.append((piece_start, left_end))
        piece_start = cut
    spans.append((piece_start, end))
    return spans
