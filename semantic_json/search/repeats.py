"""Regions that repeat what an earlier region of the same document already says.

A filing prints some passages twice, word for word or nearly: the MD&A repeats a note's paragraph, a
dividend sentence stands in Item 5 and again in the equity note, a lead-in region holds the list item that
also ranks on its own. Two such regions in one result say one thing and take two of its places. A region
repeats when most of its word shingles (runs of SHINGLE_WORDS words, case and punctuation ignored) are
already in a region kept before it from the same document, and it prints no figure that one does not; exact
duplicates are the limiting case. Parallel sentences about different facts share as many words ("... a new
$4,200,000,000 five year unsecured revolving credit agreement ..." and "... 364 day ...") but not their
figures, and are kept.

A region can also say all that a kept one says and more: the same paragraph printed again with a sentence
or a figure added. It then takes the kept one's place (``supersedes``), so the result holds the passage once,
in its fuller form, where the shorter one ranked.

The same passage in two documents (this year's filing and last year's) is two sources and is kept.
"""

from __future__ import annotations

import re

#: Words per shingle: long enough that common phrases ("in millions, except per share") rarely make a match
#: on their own, short enough that a reworded clause leaves most of a repeated paragraph's shingles intact.
SHINGLE_WORDS = 5
#: Share of a region's shingles already kept that makes it a repeat (when it adds no figure). On finqa_dev a
#: passage printed twice with some words changed keeps 0.7-0.8 of its shingles; parallel sentences about
#: different facts reach 0.6-0.7 as well, and only their figures tell them apart.
REPEAT_SHARE = 0.6

_WORD = re.compile(r"\w+")
_FIGURE = re.compile(r"\d+(?:[.,]\d+)*")


def shingles(text: str) -> set[tuple[str, ...]]:
    """The runs of SHINGLE_WORDS words of ``text`` (lower case, punctuation dropped); one run of all its
    words when it has fewer."""
    words = _WORD.findall(text.lower())
    if len(words) <= SHINGLE_WORDS:
        return {tuple(words)} if words else set()
    return {tuple(words[i : i + SHINGLE_WORDS]) for i in range(len(words) - SHINGLE_WORDS + 1)}


def figures(text: str) -> set[str]:
    """The numbers ``text`` prints, as printed ("4,200,000,000", "0.55", "2022")."""
    return set(_FIGURE.findall(text))


class Repeats:
    """What the regions kept so far say, per document; ``repeats`` tells whether a new one adds anything,
    ``supersedes`` which kept ones it says all of."""

    def __init__(self, read: dict[str, tuple[set[tuple[str, ...]], set[str]]] | None = None) -> None:
        #: per document: the shingles, figures and caller's key of each region kept
        self._kept: dict[str, list[tuple[set[tuple[str, ...]], set[str], object]]] = {}
        #: the shingles and figures of each text read, by text (``read``: shared with other Repeats)
        self._read = {} if read is None else read

    def _read_text(self, text: str) -> tuple[set[tuple[str, ...]], set[str]]:
        """The shingles and figures of ``text``, found once for each text."""
        found = self._read.get(text)
        if found is None:
            found = self._read[text] = (shingles(text), figures(text))
        return found

    def repeats(self, document_id: str, text: str, key: object = None) -> bool:
        """True when ``text`` says what one kept region of this document already says (REPEAT_SHARE of its
        shingles, and none of its figures new); otherwise it is kept under ``key``, to be compared with the
        ones after it.

        One region at a time, not all kept ones together: a sentence whose words and figures are spread over
        two kept regions ("terminated the $3,800,000,000 364 day agreement", after a terminated five-year
        one and a new 364-day one) says something neither does."""
        own, numbers = self._read_text(text)
        kept = self._kept.setdefault(document_id, [])
        if own and any(_says(own, numbers, words, printed) for words, printed, _ in kept):
            return True
        kept.append((own, numbers, key))
        return False

    def supersedes(self, document_id: str, text: str, key: object) -> list[object]:
        """The keys of the other regions kept for this document that ``text`` (kept under ``key`` by
        ``repeats``) says all of, by the rule of ``repeats`` the other way round, in the order they were
        kept; they are forgotten."""
        own, numbers = self._read_text(text)
        kept = self._kept.get(document_id, [])
        covered = [n for n, (words, printed, other) in enumerate(kept)
                   if other != key and words and _says(words, printed, own, numbers)]
        if covered:
            self._kept[document_id] = [entry for n, entry in enumerate(kept) if n not in covered]
        return [kept[n][2] for n in covered]


def _says(words: set[tuple[str, ...]], numbers: set[str], other_words: set[tuple[str, ...]], other_numbers: set[str]) -> bool:
    """True when a text of ``words`` and ``numbers`` says nothing another (``other_words``, ``other_numbers``)
    does not: REPEAT_SHARE of its shingles are the other's and all its figures."""
    return len(words & other_words) >= REPEAT_SHARE * len(words) and numbers <= other_numbers
