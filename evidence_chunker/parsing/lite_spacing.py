"""Words rebuilt across glyph spacing: a letter the PDF set apart from the rest of its word ("Consolidated
Statement of Incom e", "C ompany") joins it again.

A PDF may place a word's last (or first) glyph a word space away: a kerning or justification adjustment,
or a space the generator typed. The gap alone cannot tell such a letter from a one-letter word: on
finqa_dev's filings the gap before a real "a" ("of a", "If a") is often *narrower* than the line's other
word gaps (kerning after "f"), while a split letter often sits exactly a word space away. So a letter
joins its neighbour when the two agree in style, the gap between them is no wider than the phrase's
usual word gap, and the document itself says the joined word is a word: it prints it whole several
times, and more often than the fragment ("income" against "incom"). A one-letter word ("a", "I", "A")
stays apart because its join ("ofa", "Ia") is not a word of the document.

Works on the phrases of every page of a document before layout analysis (headings, tables), so titles,
row labels and headers read whole words.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from typing import Iterable, Sequence

from .lite_settings import LiteSettings
from .lite_text import Phrase, Word

__all__ = ["join_letter_fragments"]

_LETTERS = re.compile(r"[^\W\d_]+")


def _runs(text: str) -> list[str]:
    """The runs of letters in ``text``, casefolded ("(Incom" → ["incom"])."""
    return [run.casefold() for run in _LETTERS.findall(text)]


def word_uses(phrases: Iterable[Phrase]) -> Counter:
    """How often each run of letters is printed in the words of ``phrases``, casefolded."""
    uses: Counter = Counter()
    for phrase in phrases:
        for word in phrase.words:
            uses.update(_runs(word.text))
    return uses


def _fragment(left: str, right: str) -> tuple[str, str] | None:
    """``(joined, fragment)`` when ``left`` and ``right`` have the shape of a word split off one letter:
    a lowercase letter after a word ending in a letter ("Incom" "e"), or one letter before a word going
    on in lowercase ("C" "ompany"); else None. Joined and fragment are casefolded letter runs."""
    if len(right) == 1 and right.isalpha() and right.islower() and left[-1:].isalpha():
        stem = _runs(left)[-1]
        return stem + right.casefold(), stem
    if len(left) == 1 and left.isalpha() and right[:1].isalpha() and right[:1].islower():
        stem = _runs(right)[0]
        return left.casefold() + stem, stem
    return None


def _usual_gap(gaps: Sequence[float], skip: int) -> float | None:
    """The median of ``gaps`` other than the one at ``skip`` (None when there is no other)."""
    others = [gap for k, gap in enumerate(gaps) if k != skip]
    return statistics.median(others) if others else None


def _joined(left: Word, right: Word) -> Word:
    return Word(left.text + right.text, min(left.x0, right.x0), min(left.top, right.top), max(left.x1, right.x1),
                max(left.bottom, right.bottom), left.size if len(left.text) >= len(right.text) else right.size,
                left.bold, left.font if len(left.text) >= len(right.text) else right.font, left.orientation)


def join_in_phrase(phrase: Phrase, uses: Counter, settings: LiteSettings) -> int:
    """Join the split letters of one phrase (see module docstring); returns how many were joined."""
    words = phrase.words
    if len(words) < 2:
        return 0
    gaps = [b.x0 - a.x1 for a, b in zip(words, words[1:])]
    joined = 0
    k = 0
    while k < len(words) - 1:
        left, right = words[k], words[k + 1]
        shape = _fragment(left.text, right.text)
        usual = _usual_gap(gaps, k) if shape else None
        if (shape and left.bold == right.bold
                and abs(left.size - right.size) <= settings.size_jump * min(left.size, right.size)
                and gaps[k] >= -settings.backtrack * max(left.size, right.size)
                and (usual is None or gaps[k] <= settings.letter_gap_ratio * usual)
                and uses[shape[0]] >= settings.letter_min_uses
                and uses[shape[0]] > settings.letter_fragment_ratio * uses[shape[1]]):
            words[k:k + 2] = [_joined(left, right)]
            del gaps[k]
            joined += 1
            continue
        k += 1
    if joined:
        phrase.refresh()
    return joined


def join_letter_fragments(pages: Sequence[Sequence[Phrase]], settings: LiteSettings) -> int:
    """Join the split letters in the phrases of every page of one document, in place (the pages' lines hold
    the same phrases); returns how many letters were joined."""
    uses = word_uses(phrase for page in pages for phrase in page)
    return sum(join_in_phrase(phrase, uses, settings) for page in pages for phrase in page)
