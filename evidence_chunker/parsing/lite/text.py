"""Text geometry for the lite parser: glyphs → words → phrases (made in :mod:`.phrases`) → lines, and the
patterns of headings, footnotes and page numbers (captions and list markers are :mod:`semantic_json.rules.patterns`'s).

Coordinates are PDF points in a top-down frame ``(x0, top, x1, bottom)``, ``top < bottom``, relative
to the page's crop box: pdfplumber's convention. The parser converts to BOTTOMLEFT when it builds
the DoclingDocument. Lengths called "em" are multiples of the font size of the text concerned.
"""

from __future__ import annotations

import re
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple, Sequence

import numpy as np

from semantic_json.rules.patterns import is_caption, is_list_item  # noqa: F401  (lite_layout imports them from here)
from .settings import LiteSettings


class Char(NamedTuple):
    """One printed glyph; ``space_before`` says a space (real or pdfium-generated) preceded it,
    ``printed_space`` that a space character of the page's text did."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    font: str
    bold: bool
    space_before: bool
    printed_space: bool = False


@dataclass(slots=True)
class Word:
    """Glyphs with no space between them, on one baseline."""

    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    bold: bool
    font: str
    #: Reading direction relative to the page's main text: 0, or 90/180/270 degrees counter-clockwise.
    orientation: int = 0


@dataclass(slots=True)
class Phrase:
    """Words on one baseline separated by ordinary word spacing: the unit of layout and of table cells."""

    words: list[Word]
    x0: float = 0.0
    top: float = 0.0
    x1: float = 0.0
    bottom: float = 0.0

    def __post_init__(self) -> None:
        self.refresh()

    def refresh(self) -> None:
        """Recompute the box from the words."""
        self.x0 = min(w.x0 for w in self.words)
        self.x1 = max(w.x1 for w in self.words)
        self.top = min(w.top for w in self.words)
        self.bottom = max(w.bottom for w in self.words)

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def size(self) -> float:
        return max(w.size for w in self.words)

    @property
    def bold(self) -> bool:
        letters = [w for w in self.words if any(ch.isalnum() for ch in w.text)] or self.words
        return sum(len(w.text) for w in letters if w.bold) * 2 > sum(len(w.text) for w in letters)

    @property
    def font(self) -> str:
        return Counter(w.font for w in self.words).most_common(1)[0][0]

    @property
    def height(self) -> float:
        return self.bottom - self.top

    @property
    def mid_y(self) -> float:
        return (self.top + self.bottom) / 2


class Run:
    """Parts set one after the other (a line's phrases, a paragraph's lines): the box they span, the median
    of their type sizes, and bold when every part is. A subclass names its parts in ``parts``."""

    __slots__ = ()
    parts: Sequence[Any]  # a subclass's property over its own field

    @property
    def x0(self) -> float:
        return min(p.x0 for p in self.parts)

    @property
    def x1(self) -> float:
        return max(p.x1 for p in self.parts)

    @property
    def top(self) -> float:
        return min(p.top for p in self.parts)

    @property
    def bottom(self) -> float:
        return max(p.bottom for p in self.parts)

    @property
    def box(self) -> tuple[float, float, float, float]:
        return self.x0, self.top, self.x1, self.bottom

    @property
    def size(self) -> float:
        return statistics.median(p.size for p in self.parts)

    @property
    def bold(self) -> bool:
        return all(p.bold for p in self.parts)


@dataclass(slots=True)
class Line(Run):
    """Phrases sharing a baseline band, left to right."""

    phrases: list[Phrase]

    @property
    def parts(self) -> list[Phrase]:
        return self.phrases

    @property
    def text(self) -> str:
        return " ".join(p.text for p in self.phrases)


# --------------------------------------------------------------------------------------------
# Patterns
# --------------------------------------------------------------------------------------------

#: Fonts whose glyphs are pictograms (their "r" or "l" is a bullet or a box).
SYMBOL_FONT_RE = re.compile(r"wingding|dingbat|symbol|webding|marlett", re.IGNORECASE)


#: Numbering typical of section headings: "1.", "1.2.3", "Item 7.", "제1장", "II.", "가.", "(1)", "Chapter 3";
#: not before a lower-case word, which makes it a line of a sentence ("17 of our Notes", "2. within 74 days").
HEADING_NUMBER_RE = re.compile(
    r"^\s*(?:(?:Item|Part|Chapter|Section|Note|Article)\s+[\dIVXivx]+[A-Za-z]?[.:]?"
    r"|제\s*\d+\s*[장절조항편]"
    r"|\d{1,2}(?:\.\d{1,2}){0,4}\.?"
    r"|\(\d{1,2}\)|[①-⑳]"
    r"|[IVX]{1,4}\."
    r"|[가-하]\.)(?:\s+(?![\sa-z])|$)"
)
#: How a footnote starts: "1)", "(1)", "*", "†", "※", "주:", "자료:", "Note:", "Source:", "¹".
FOOTNOTE_RE = re.compile(
    r"^\s*(?:\d{1,3}\)|\(\d{1,3}\)|\*{1,3}|[†‡§¹²³⁴⁵⁶⁷⁸⁹]|※|주\s*[:)]|자료\s*[:)]|출처\s*[:)]"
    r"|Notes?\s*:|Sources?\s*:)"
)
#: A page number as printed alone: "12", "- 12 -", "Page 3", "3 of 18", "iii".
PAGE_NUMBER_RE = re.compile(
    r"^\s*(?:page\s*)?[-–—(\[]?\s*(?:\d{1,4}|[ivxlcdm]{1,6})\s*[-–—)\]]?"
    r"(?:\s*(?:of|/)\s*\d{1,4})?\s*$",
    re.IGNORECASE,
)


def join_lines(texts: Sequence[str]) -> str:
    """Join the lines of a paragraph or cell with single spaces; hyphens at line ends stay as printed."""
    return " ".join(t.strip() for t in texts if t.strip())


# --------------------------------------------------------------------------------------------
# Chars → words → phrases → lines
# --------------------------------------------------------------------------------------------


#: Heights below this (points) count as this in overlap ratios (zero-height glyph boxes).
_MIN_HEIGHT = 1e-3


def horizontal_overlap(a: Any, b: Any) -> float:
    """Width two boxes with ``x0``/``x1`` share; negative: the gap between them."""
    return min(a.x1, b.x1) - max(a.x0, b.x0)


def vertical_overlap(a_top: float, a_bottom: float, b_top: float, b_bottom: float) -> float:
    """Length of the overlap of two vertical extents (0 when disjoint)."""
    return max(0.0, min(a_bottom, b_bottom) - max(a_top, b_top))


def stacked_on(upper: Line, lower: Line, gap: float, tol: float) -> bool:
    """True when ``upper`` ends at most ``gap`` above ``lower`` and each of its phrases stands over one of
    ``lower``'s, centred or right-aligned with it within ``tol``: the upper lines of headings wrapped over
    both ("Previous" over "Accounting" over "Principle", each over its own column)."""
    return lower.top - upper.bottom <= gap and all(
        any(abs(p.x0 + p.x1 - q.x0 - q.x1) <= 2 * tol or abs(p.x1 - q.x1) <= tol for q in lower.phrases)
        for p in upper.phrases
    )


def same_baseline(a_top: float, a_bottom: float, b_top: float, b_bottom: float, ratio: float) -> bool:
    """True when two extents overlap by at least ``ratio`` of the smaller height."""
    smaller = max(min(a_bottom - a_top, b_bottom - b_top), _MIN_HEIGHT)
    return vertical_overlap(a_top, a_bottom, b_top, b_bottom) >= ratio * smaller


@dataclass(slots=True)
class Glyphs:
    """A page's glyphs column by column, in content-stream order: what :class:`Char` holds for one glyph,
    as NumPy arrays (one element a glyph) so that words are cut in whole-array passes.

    ``text`` holds one character a glyph; ``font`` indexes ``fonts``. ``printed_space`` matters only
    for a ")" or "%" (see :func:`words_from_glyphs`); pdfium is asked for it only there.
    """

    text: str
    x0: np.ndarray
    top: np.ndarray
    x1: np.ndarray
    bottom: np.ndarray
    size: np.ndarray
    bold: np.ndarray
    font: np.ndarray
    fonts: list[str]
    space_before: np.ndarray
    printed_space: np.ndarray

    def __len__(self) -> int:
        return len(self.text)

    @classmethod
    def from_chars(cls, chars: Sequence[Char]) -> "Glyphs":
        """The columns of some glyph records."""
        fonts: dict[str, int] = {}
        font = [fonts.setdefault(ch.font, len(fonts)) for ch in chars]
        column = lambda k, dtype: np.array([ch[k] for ch in chars], dtype=dtype)  # noqa: E731
        return cls(
            "".join(ch.text for ch in chars), column(1, float), column(2, float), column(3, float),
            column(4, float), column(5, float), column(7, bool), np.array(font, dtype=np.intp), list(fonts),
            column(8, bool), column(9, bool),
        )

    def take(self, order: np.ndarray) -> "Glyphs":
        """The glyphs at the positions ``order`` (an index array), in that order."""
        text = self.text
        return Glyphs(
            "".join([text[k] for k in order.tolist()]), self.x0[order], self.top[order], self.x1[order],
            self.bottom[order], self.size[order], self.bold[order], self.font[order], self.fonts,
            self.space_before[order], self.printed_space[order],
        )


def words_from_chars(chars: Sequence[Char], settings: LiteSettings) -> list[Word]:
    """Cut a content-stream sequence of glyphs into words at spaces, gaps, line changes and backtracks."""
    return words_from_glyphs(Glyphs.from_chars(chars), settings)


def words_from_glyphs(glyphs: Glyphs, settings: LiteSettings) -> list[Word]:
    """:func:`words_from_chars` over columns: a glyph starts a new word when a space precedes it, its
    gap to the glyph before exceeds ``settings.word_gap`` em, it backtracks, or it leaves the baseline.

    The box of a word spans its glyphs; its size is the upper median of theirs, its font that of its
    middle glyph, and it is bold when most of its glyphs are.
    """
    n = len(glyphs)
    if not n:
        return []
    x0, top, x1, bottom, size = glyphs.x0, glyphs.top, glyphs.x1, glyphs.bottom, glyphs.size
    size_pair = np.maximum(size[:-1], size[1:])
    gap = x0[1:] - x1[:-1]
    apart = glyphs.space_before[1:] | (gap > settings.word_gap * size_pair)
    backtracks = x0[1:] < x0[:-1] - settings.backtrack * size_pair
    smaller = np.maximum(np.minimum(bottom[:-1] - top[:-1], bottom[1:] - top[1:]), _MIN_HEIGHT)
    shared = np.maximum(0.0, np.minimum(bottom[:-1], bottom[1:]) - np.maximum(top[:-1], top[1:]))
    off_line = ~(shared >= settings.line_overlap * smaller)
    cut = apart | backtracks | off_line  # cut[k]: a word starts at glyph k + 1
    text = glyphs.text
    marks = [k for k in _mark_positions(text) if k]
    if marks:
        maybe = apart & ~glyphs.printed_space[1:] & (gap >= 0) & (gap <= settings.mark_gap * size_pair)
        for k in marks:  # in order: a mark's word starts where the cuts decided before it say
            if maybe[k - 1]:
                start = k - 1
                while start and not cut[start - 1]:
                    start -= 1
                if closes_amount(text[start:k], text[k]):
                    cut[k - 1] = backtracks[k - 1] or off_line[k - 1]
    starts = np.concatenate(([0], np.flatnonzero(cut) + 1))
    lengths = np.diff(np.append(starts, n))
    x0s = np.minimum.reduceat(x0, starts).tolist()
    tops = np.minimum.reduceat(top, starts).tolist()
    x1s = np.maximum.reduceat(x1, starts).tolist()
    bottoms = np.maximum.reduceat(bottom, starts).tolist()
    bolds = (np.add.reduceat(glyphs.bold.astype(np.intp), starts) * 2 > lengths).tolist()
    middles = starts + lengths // 2
    fonts = [glyphs.fonts[f] for f in glyphs.font[middles].tolist()]
    sizes = size[middles]
    mixed = np.flatnonzero(np.minimum.reduceat(size, starts) != np.maximum.reduceat(size, starts))
    sizes = sizes.tolist()
    bounds = starts.tolist() + [n]
    for w in mixed.tolist():  # the upper median of a word whose glyphs differ in size
        a, b = bounds[w], bounds[w + 1]
        sizes[w] = sorted(size[a:b].tolist())[(b - a) // 2]
    return [
        Word(text[a:b], *values)
        for a, b, values in zip(bounds, bounds[1:], zip(x0s, tops, x1s, bottoms, sizes, bolds, fonts))
    ]


#: Glyphs that may close an amount set apart from it: "(565" and ")", "12.5" and "%".
AMOUNT_MARKS = ")%"


def _mark_positions(text: str) -> list[int]:
    """Positions of ")" and "%" in a string, in order."""
    out: list[int] = []
    for mark in AMOUNT_MARKS:
        at = text.find(mark)
        while at >= 0:
            out.append(at)
            at = text.find(mark, at + 1)
    return sorted(out)


def closes_amount(text: str, mark: str) -> bool:
    """True when ``mark`` is a ")" or "%" that ends the amount ``text`` though set apart from it
    without a printed space (pdfium may report one for the gap). EDGAR renders "(565" and ")", "12.5"
    and "%" in table cells of their own; they read "(565)" and "12.5%". A ")" counts only when it
    closes a "(" of the amount."""
    if mark not in AMOUNT_MARKS:
        return False
    if not any(c.isdigit() for c in text):
        return False
    if mark == ")":
        return (text[-1].isdigit() or text[-1] == "%") and text.count("(") > text.count(")")
    return text[-1].isdigit() or text[-1] == ")"


def group_lines(phrases: Iterable[Phrase], settings: LiteSettings) -> list[Line]:
    """Group phrases into lines by vertical overlap, top to bottom; phrases in a line run left to right."""
    lines: list[Line] = []
    bands: list[tuple[float, float, list[Phrase]]] = []
    for phrase in sorted(phrases, key=lambda p: (p.top, p.x0)):
        placed = False
        for i in range(len(bands) - 1, max(-1, len(bands) - 4), -1):
            top, bottom, members = bands[i]
            larger = max(bottom - top, phrase.height, 1e-3)
            overlap = vertical_overlap(top, bottom, phrase.top, phrase.bottom)
            if overlap >= settings.line_overlap * larger and (
                top <= phrase.mid_y <= bottom or phrase.top <= (top + bottom) / 2 <= phrase.bottom
            ):
                members.append(phrase)
                bands[i] = (min(top, phrase.top), max(bottom, phrase.bottom), members)
                placed = True
                break
        if not placed:
            bands.append((phrase.top, phrase.bottom, [phrase]))
    for _, _, members in bands:
        lines.append(Line(sorted(members, key=lambda p: p.x0)))
    lines.sort(key=lambda ln: (ln.top, ln.x0))
    return lines


#: A sentence ends and the next one runs on: a word's full stop, a capitalised word and three more words
#: ("Effectiveness. This Second Amendment shall …", "EMPLOYMENT . Unless otherwise provided …"). Not
#: after a short abbreviation ("Inc.", "U.S.") or one of ``_ABBREVIATIONS``; a colon ("Note 3: Revenue
#: Recognition") is no sentence end.
_RUN_ON_RE = re.compile(r"\b([A-Za-z]{4,}) ?\.\s+[A-Z][\w’'-]*(?:\s+\S+){3}")
_ABBREVIATIONS = frozenset({"Corp", "Bros", "Intl", "Dept", "Assn", "Govt", "Natl"})
#: A numbered line ending in a full stop with at least this many words, most of them lower-case, is a
#: sentence ("16. This Agreement shall be governed by the laws of Delaware, …").
_SENTENCE_MIN_WORDS = 10


def runs_on(text: str) -> bool:
    """True for a paragraph's opening set in bold or numbered that reads on as a sentence, so it names no
    section: a run-in heading and the first sentence of its paragraph ("5. Effectiveness. This Second
    Amendment shall become effective …", "Section 5.8 Normal Form of Retirement Income. The normal form of
    retirement income shall be …"), a numbered clause of an agreement ("16. This Agreement shall be
    governed by the laws of Delaware, without giving effect to its choice of law provisions."), an item of
    a certification ("1. I have reviewed this annual report on Form 10-K of NIKE, Inc.;"), a Korean numbered
    sentence ("1. 당사는 … 있습니다."). A heading in capitals is a heading however it reads."""
    number = HEADING_NUMBER_RE.match(text)
    rest = text[number.end():].strip() if number else text.strip()
    latin = [ch for ch in rest if ch.isascii() and ch.isalpha()]
    if latin and all(ch.isupper() for ch in latin):
        return False
    if any(m.group(1) not in _ABBREVIATIONS for m in _RUN_ON_RE.finditer(rest)):
        return True
    if not number:
        return False
    if rest.endswith((",", ";")) or rest.endswith("다."):
        return True
    words = rest.split()
    lower = sum(1 for w in words if w[0].islower())
    return rest.endswith(".") and len(words) >= _SENTENCE_MIN_WORDS and lower * 2 > len(words)
