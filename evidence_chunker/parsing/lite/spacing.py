"""Words rebuilt across glyph spacing: a letter the PDF set apart from the rest of its word ("Consolidated
Statement of Incom e", "C ompany") joins it again.

A PDF may place a word's last (or first) glyph a word space away: a kerning or justification adjustment,
or a space the generator typed. The gap alone cannot tell such a letter from a one-letter word: on
finqa_dev's filings the gap before a real "a" ("of a", "If a") is often *narrower* than the line's other
word gaps (kerning after "f"), while a split letter often sits exactly a word space away. A letter that
touches its word (a gap under a fiftieth of an em: drawn apart in the content stream, as Verizon's
"comprehensiv" + "e" and Microsoft's "S" + "atya", and cut from it by the order of the glyphs) joins it;
on finqa_dev the narrowest gap before a real one-letter word is about 0.06 em. Any other letter
joins its neighbour when the two agree in style, the gap between them is no wider than the phrase's
usual word gap, and the document itself says the joined word is a word and the two halves are not both
words: it prints the joined word whole several times, and more often than the fragment ("income" against
"incom") and at least as often as the letter alone, while the letter or the fragment is not a word it
prints ("incom"). A one-letter word stays apart: "of a" because "ofa" is no word of the document, "a
broad" because "a" and "broad" both are (though "abroad" is too), "a rise" because the filing prints "a"
far more often than "arise".

Works on the phrases of every page of a document before layout analysis (headings, tables), so titles,
row labels and headers read whole words.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from typing import Iterable, Sequence

from .settings import LiteSettings
from .text import Phrase, Word

__all__ = ["is_split_word", "join_letter_fragments"]

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


def _fragment(left: str, right: str) -> tuple[str, str, str] | None:
    """``(joined, fragment, letter)`` when ``left`` and ``right`` have the shape of a word split off one
    letter: a lowercase letter after a word ending in a letter ("Incom" "e"), or one letter before a word
    going on in lowercase ("C" "ompany"); else None. All three are casefolded letter runs."""
    if len(right) == 1 and right.isalpha() and right.islower() and left[-1:].isalpha():
        stem = _runs(left)[-1]
        return stem + right, stem, right
    if len(left) == 1 and left.isalpha() and right[:1].isalpha() and right[:1].islower():
        stem = _runs(right)[0]
        return left.casefold() + stem, stem, left.casefold()
    return None


def is_split_word(joined: str, fragment: str, letter: str, uses: Counter, min_uses: int, ratio: float) -> bool:
    """True when the document's word counts (``uses``, casefolded letter runs) read ``fragment`` and
    ``letter`` as one word: ``joined`` is printed at least ``min_uses`` times, more than ``ratio`` times as
    often as ``fragment`` and at least as often as ``letter`` alone (a filing prints "a" far more often than
    "arise": "a rise" stays two words, though "rise" is printed there once), and the letter and the
    fragment are not both words it prints ("a broad")."""
    return (uses[joined] >= min_uses and uses[joined] > ratio * uses[fragment] and uses[joined] >= uses[letter]
            and not (uses[letter] >= min_uses and uses[fragment] >= min_uses))


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
                and (gaps[k] <= settings.letter_touch_gap * max(left.size, right.size)
                     or ((usual is None or gaps[k] <= settings.letter_gap_ratio * usual)
                         and is_split_word(*shape, uses, settings.letter_min_uses, settings.letter_fragment_ratio)))):
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
