"""Is a page's text layer usable? Scans often carry a layer that is garbage: fonts without a Unicode map
read as shifted codes ("7KH &RPSDQ\\" for "The Company"), UTF-8 read as Latin-1 ("ì‚¬ì—…"), private-use
glyph codes, or an earlier OCR's noise. Such a page is read again by OCR.

The test is a share of plausible words: a word (glyphs between spaces, punctuation around it stripped)
is plausible when it reads as a word of the expected scripts: Latin letters in one of the cases a word
takes (lower, Capitalised, UPPER), Hangul syllables or Han characters, a number, or a code of letters
and digits as filings print them ("10-K", "Q3", "FY2024", "1.6배"). A shifted code can still spell
word-like strings ("rsmuyq" for "12,480"), so a page with enough Latin letters is also tested on their
frequencies: in English and the other languages written in Latin letters the twelve letters
:data:`COMMON_LETTERS` make up about four fifths of all letters, in shifted text about half. The
thresholds are :class:`.lite_settings.LiteSettings` fields; docs/parsers.md gives the shares measured on
born-digital filings and on garbled layers.
"""

from __future__ import annotations

import re
import string
from functools import lru_cache
from typing import NamedTuple, Sequence

__all__ = ["COMMON_LETTERS", "TextLayerCheck", "check_text_layer", "common_letter_share", "plausible_word",
           "split_words"]

#: Punctuation a word may carry at either end ("(1,234)", "Inc.,", "“Company”", "$", "₩").
_EDGE_PUNCTUATION = "()[]{}<>.,;:!?'\"“”‘’`«»·•‧…-–—/\\|*#%$€£¥₩&@^~+=_"
#: Letters of the expected scripts: Latin (with Latin-1 and Latin Extended-A accents), Hangul syllables
#: and compatibility jamo, Han characters.
_LATIN = r"A-Za-zÀ-ÖØ-öø-ſ"
_HANGUL_HAN = r"\uac00-\ud7a3\u3131-\u318e\u4e00-\u9fff"
#: A word in one of the cases words take; inner apostrophes, hyphens and dots ("don't", "non-GAAP", "U.S.").
_LATIN_WORD_RE = re.compile(
    rf"(?:[{_LATIN}][a-zß-öø-ÿ]*|[A-ZÀ-ÖØ-Þ]+(?:s)?)(?:['’.\-&/][{_LATIN}]+)*\.?"
)
#: Hangul or Han, with digits or Latin as filings mix them ("2024년", "제15회", "1.6배", "BBB+등급").
_CJK_WORD_RE = re.compile(rf"[0-9{_LATIN}.,%+\-]*[{_HANGUL_HAN}]+(?:[0-9{_LATIN}.,%+\-]*[{_HANGUL_HAN}]*)*[0-9.,%+\-]*")
#: Numbers as printed: "12,480", "(7,362)", "24.0%", "2024.03.15", "3/14", "1st", "2Q24".
_NUMBER_RE = re.compile(r"[+\-]?\d[\d,.:/\-]*(?:%|st|nd|rd|th|x|bp|bps|bn|mn|[KMBTkmp])?")
#: Codes of letters and digits: "10-K", "Q3", "FY2024", "A-", "BBB+", "S&P", "iPhone", "eBay".
_CODE_RE = re.compile(
    r"(?:[A-Z]{1,4}\d{1,4}[A-Z]?|\d{1,4}-[A-Z]{1,2}|\d{1,2}[A-Z]|\d[A-Z]\d{2,4}|[A-Z]{1,4}[+\-]{1,2}|[A-Z]&[A-Z]|[a-z][A-Z][a-z]+"
    r"|[A-Z][a-z]+[A-Z][a-z]+)"
)
#: Vowels: a Latin word this long without one is a shifted code ("RPSDQ", "ZKLFK"), not a word.
_VOWELS = frozenset("aeiouyAEIOUYàáâãäåæèéêëìíîïòóôõöøùúûüýÀÁÂÃÄÅÆÈÉÊËÌÍÎÏÒÓÔÕÖØÙÚÛÜÝ")
_VOWELLESS_LETTERS = 4
#: A UTF-8 lead byte read as Latin-1/cp1252 followed by a continuation byte read the same way: mojibake.
_MOJIBAKE_RE = re.compile("[\u00c2-\u00f4][\u0080-\u00bf\u2018-\u203a\u0152-\u0178\u02c6\u02dc\u20ac\u2122]")


def _private_use(ch: str) -> bool:
    code = ord(ch)
    return 0xE000 <= code <= 0xF8FF or code >= 0xF0000 or code in (0xFFFD, 0xFFFE, 0xFFFF) or code < 0x20


#: Words seen again are judged once (a page's words repeat across the pages of a document).
_WORD_CACHE = 1 << 16


@lru_cache(maxsize=_WORD_CACHE)
def plausible_word(word: str) -> bool | None:
    """True when ``word`` reads as a word of the expected scripts, False when it is garbage, None when
    there is nothing to judge (punctuation only)."""
    if word.isascii() and word.isalpha() and word.islower():  # most words of a page: no pattern needed
        return len(word) < _VOWELLESS_LETTERS or any(ch in _VOWELS for ch in word)
    if any(_private_use(ch) for ch in word):
        return False
    core = word.strip(_EDGE_PUNCTUATION)
    if not core:
        return None
    if _MOJIBAKE_RE.search(core):
        return False
    if _LATIN_WORD_RE.fullmatch(core):
        letters = [ch for ch in core if ch.isalpha()]
        return len(letters) < _VOWELLESS_LETTERS or any(ch in _VOWELS for ch in letters)
    return bool(_NUMBER_RE.fullmatch(core) or _CJK_WORD_RE.fullmatch(core) or _CODE_RE.fullmatch(core))


def split_words(text: str, starts: Sequence[bool]) -> list[str]:
    """The words of a page's glyphs: ``text`` holds one character a glyph, ``starts[k]`` says a space
    came before glyph ``k``."""
    words: list[str] = []
    current: list[str] = []
    for ch, start in zip(text, starts):
        if start and current:
            words.append("".join(current))
            current = []
        current.append(ch)
    if current:
        words.append("".join(current))
    return words


#: The twelve most frequent letters of English text ("etaoin shrdlu" and c), about 80% of its letters.
COMMON_LETTERS = frozenset("etaoinshrdlc")


def common_letter_share(words: Sequence[str]) -> tuple[float, int]:
    """The share of the words' Latin letters (a to z, either case) that are :data:`COMMON_LETTERS`, and
    how many Latin letters there are."""
    text = " ".join(words).lower()
    letters = sum(text.count(ch) for ch in string.ascii_lowercase)
    if not letters:
        return 0.0, 0
    return sum(text.count(ch) for ch in COMMON_LETTERS) / letters, letters


class TextLayerCheck(NamedTuple):
    """How a text layer reads: words judged, the share of them that are plausible (0..1), the share of
    its Latin letters that are common ones (0..1) and how many there are, and whether the layer is usable
    under the thresholds it was checked with."""

    words: int
    plausible_share: float
    common_letters: float
    letters: int
    usable: bool


def check_text_layer(words: Sequence[str], min_words: int, min_plausible: float,
                     min_letters: int, min_common: float) -> TextLayerCheck:
    """Judge a page's words: with fewer than ``min_words`` that can be judged the layer is kept (usable)
    unless it has none; else usable when at least ``min_plausible`` of them are plausible and, with at
    least ``min_letters`` Latin letters, at least ``min_common`` of those are common letters."""
    verdicts = [v for v in (plausible_word(w) for w in words) if v is not None]
    share = sum(verdicts) / len(verdicts) if verdicts else 0.0
    common, letters = common_letter_share(words)
    if not words:
        return TextLayerCheck(0, 0.0, common, letters, False)
    if len(verdicts) < min_words:
        return TextLayerCheck(len(verdicts), share, common, letters, True)
    usable = share >= min_plausible and (letters < min_letters or common >= min_common)
    return TextLayerCheck(len(verdicts), share, common, letters, usable)
