"""Text geometry for the lite parser: glyphs → words → phrases → lines, and the patterns of headings,
footnotes and page numbers (captions and list markers are :mod:`semantic_json.rules.patterns`'s).

Coordinates are PDF points in a top-down frame ``(x0, top, x1, bottom)``, ``top < bottom``, relative
to the page's crop box: pdfplumber's convention. The parser converts to BOTTOMLEFT when it builds
the DoclingDocument. Lengths called "em" are multiples of the font size of the text concerned.
"""

from __future__ import annotations

import heapq
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, NamedTuple, Sequence

import numpy as np

from semantic_json.rules.patterns import BULLETS, ENUMERATOR_RE, is_currency, is_number
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


@dataclass(slots=True)
class Line:
    """Phrases sharing a baseline band, left to right."""

    phrases: list[Phrase]

    @property
    def x0(self) -> float:
        return min(p.x0 for p in self.phrases)

    @property
    def x1(self) -> float:
        return max(p.x1 for p in self.phrases)

    @property
    def top(self) -> float:
        return min(p.top for p in self.phrases)

    @property
    def bottom(self) -> float:
        return max(p.bottom for p in self.phrases)

    @property
    def text(self) -> str:
        return " ".join(p.text for p in self.phrases)

    @property
    def size(self) -> float:
        return statistics.median(p.size for p in self.phrases)

    @property
    def bold(self) -> bool:
        return all(p.bold for p in self.phrases)


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


def vertical_overlap(a_top: float, a_bottom: float, b_top: float, b_bottom: float) -> float:
    """Length of the overlap of two vertical extents (0 when disjoint)."""
    return max(0.0, min(a_bottom, b_bottom) - max(a_top, b_top))


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


#: Height (points) of the horizontal bands open phrases are filed under, so a word is compared only
#: with phrases whose last word shares a band with it (same result as comparing it with all of them).
_BAND = 4.0
#: Words in another size join a phrase only across a gap below this many em (a superscript, a
#: footnote mark).
_STYLE_BREAK_GAP = 0.3
#: Open phrases ending further left than this many phrase gaps before a word can no longer grow.
_OPEN_REACH = 2


def phrases_from_words(words: Sequence[Word], settings: LiteSettings) -> list[Phrase]:
    """Join words on one baseline whose gap is below ``settings.phrase_gap`` em into phrases.

    Words are taken left to right; each joins the open phrase on its baseline that ends just before it
    (the nearest; of equally near ones the first opened). A phrase is closed for good once a word
    starts more than two phrase gaps right of its end. Open phrases are filed by the bands their last
    word covers and closed through a heap of their right ends, so each word meets only its neighbours.
    """
    phrase_gap, backtrack, overlap, size_jump = settings.phrase_gap, settings.backtrack, settings.line_overlap, settings.size_jump
    phrases: list[Phrase] = []
    bands: dict[int, dict[int, Phrase]] = {}  # band -> open phrases whose last word covers it, by rank
    filed: list[range] = []  # rank -> the bands its phrase is filed under
    ends: list[tuple[float, int]] = []  # (x1 when pushed, rank): a min-heap of open phrases' right ends
    for word in sorted(words, key=lambda w: (w.x0, w.top)):
        x0, top, bottom, word_size = word.x0, word.top, word.bottom, word.size
        covered = range(int(top // _BAND), int(bottom // _BAND) + 1)
        if len(covered) == 1:
            candidates = bands.get(covered.start) or {}
        else:
            candidates = {}
            for band in covered:
                members = bands.get(band)
                if members:
                    candidates.update(members)
        best = None
        best_rank = best_gap = None
        for rank in sorted(candidates) if len(candidates) > 1 else candidates:
            phrase = candidates[rank]
            last = phrase.words[-1]
            gap = x0 - last.x1
            last_size = last.size
            size = max(last_size, word_size)
            if gap > phrase_gap * size or gap < -backtrack * size:
                continue
            # same_baseline(last, word), written out: this runs once per word and candidate
            smaller = max(min(last.bottom - last.top, bottom - top), _MIN_HEIGHT)
            if not max(0.0, min(last.bottom, bottom) - max(last.top, top)) >= overlap * smaller:
                continue
            if abs(word_size - last_size) > size_jump * min(word_size, last_size) and gap > _STYLE_BREAK_GAP * size:
                continue
            if best_gap is None or gap < best_gap:
                best, best_rank, best_gap = phrase, rank, gap
        if best is None:
            best, best_rank = Phrase([word]), len(phrases)
            phrases.append(best)
            filed.append(range(0))
            heapq.heappush(ends, (best.x1, best_rank))
        else:
            best.words.append(word)
            if word.x1 > best.x1:
                best.x1 = word.x1
                heapq.heappush(ends, (best.x1, best_rank))
            best.top = min(best.top, top)
            best.bottom = max(best.bottom, bottom)
        if filed[best_rank] != covered:
            _unfile(bands, filed[best_rank], best_rank)
            for band in covered:
                members = bands.get(band)
                if members is None:
                    bands[band] = {best_rank: best}
                else:
                    members[best_rank] = best
            filed[best_rank] = covered
        # phrases ending far to the left can no longer grow (a pushed end older than the phrase's
        # current one is stale and skipped)
        limit = x0 - phrase_gap * word_size * _OPEN_REACH
        while ends and ends[0][0] < limit:
            x1, rank = heapq.heappop(ends)
            if x1 == phrases[rank].x1:
                _unfile(bands, filed[rank], rank)
                filed[rank] = range(0)
    return phrases


def _unfile(bands: dict[int, dict[int, Phrase]], covered: range, rank: int) -> None:
    for band in covered:
        members = bands[band]
        del members[rank]
        if not members:
            del bands[band]


def split_phrases(phrases: list[Phrase], settings: LiteSettings) -> list[Phrase]:
    """Split phrases at word gaps much wider than their usual spacing (dense table columns).

    A gap splits when it exceeds ``settings.split_gap`` em and ``settings.split_ratio`` times the
    phrase's median word gap (the page's median when the phrase has few gaps), so evenly stretched
    justified lines stay whole. A phrase of figures only is then split into its values
    (:func:`split_values`).
    """
    all_gaps = [
        (b.x0 - a.x1) / max(a.size, b.size)
        for p in phrases for a, b in zip(p.words, p.words[1:])
    ]
    if not all_gaps:
        return phrases
    page_gap = statistics.median(all_gaps)
    out: list[Phrase] = []
    for phrase in phrases:
        words = phrase.words
        if len(words) < 2:
            out.append(phrase)
            continue
        gaps = [(b.x0 - a.x1) / max(a.size, b.size) for a, b in zip(words, words[1:])]
        usual = statistics.median(gaps) if len(gaps) >= settings.split_min_gaps else min(page_gap, statistics.median(gaps))
        limit = max(settings.split_gap, settings.split_ratio * usual)
        start = 0
        for k, gap in enumerate(gaps):
            if gap > limit:
                out.append(Phrase(words[start:k + 1]))
                start = k + 1
        out.append(Phrase(words[start:]) if start else phrase)
    return split_values(out)


#: A number printed with a space between its thousands ("1 234"): two words that are one value.
_THOUSANDS_SPLIT_RE = re.compile(r"^[(\-−–]?[$€£¥₩]?\d{1,3}\s\d{3}(?:[.,]\d+)?\)?%?$")


def _value_word(text: str) -> bool:
    return is_currency(text) or text == "%" or (any(ch.isdigit() for ch in text) and is_number(text))


def split_values(phrases: list[Phrase]) -> list[Phrase]:
    """Split a phrase of figures only into one phrase per value: "(420.9) (449.9)" and "2022 2021" are
    two cells of a dense table set closer than a phrase gap, "104.4 $ 92.7 $" two amounts and the next
    one's sign. A value is a figure with the currency sign before it and a "%" after it; a phrase with
    a word that is no figure, or a nil mark ("-", "NM"), stays whole.
    """
    out: list[Phrase] = []
    for phrase in phrases:
        words = phrase.words
        texts = [w.text for w in words]
        if len(words) < 2 or not all(_value_word(t) for t in texts):
            out.append(phrase)
            continue
        figure = [any(ch.isdigit() for ch in t) for t in texts]
        if sum(figure) < 2:
            out.append(phrase)
            continue
        start = 0
        for k in range(1, len(words)):
            opens = is_currency(texts[k]) or (figure[k] and not is_currency(texts[k - 1]))
            if opens and not _THOUSANDS_SPLIT_RE.match(f"{texts[k - 1]} {texts[k]}"):
                out.append(Phrase(words[start:k]))
                start = k
        out.append(Phrase(words[start:]) if start else phrase)
    return out


_DASHES = "-–—−"
#: A lone amount or currency sign, as printed in a table cell: "$", "1,234", "(565)", "12.5%".
_AMOUNT_RE = re.compile(r"^(?:[$€£¥₩]|[(\-−–]?[$€£¥₩]?\s?\d[\d,.]*\)?%?)$")


def attach_list_markers(phrases: list[Phrase], settings: LiteSettings) -> list[Phrase]:
    """Merge a phrase that is only a bullet or enumerator into the phrase right after it on its line;
    a dash followed by an amount or a currency sign is a table's nil value and stays alone."""
    markers = [p for p in phrases if len(p.words) == 1 and _is_marker(p.words[0].text, p.words[0].font)]
    if not markers:
        return phrases
    merged: set[int] = set()
    for marker in markers:
        best = None
        for other in phrases:
            if other is marker or id(other) in merged:
                continue
            gap = other.x0 - marker.x1
            if 0 <= gap <= settings.marker_gap * marker.size and same_baseline(
                marker.top, marker.bottom, other.top, other.bottom, settings.line_overlap
            ):
                if best is None or other.x0 < best.x0:
                    best = other
        if best is None or _is_marker(best.words[0].text, best.words[0].font):
            continue
        if (marker.words[0].text in _DASHES or _AMOUNT_RE.match(marker.words[0].text)) and _AMOUNT_RE.match(best.text):
            # a dash standing for nil, or an amount in parentheses ("(22)"), then the next column's
            # amount or "$": two cells of a table row
            continue
        best.words[:0] = marker.words
        best.refresh()
        merged.add(id(marker))
    return [p for p in phrases if id(p) not in merged]


def _is_marker(text: str, font: str = "") -> bool:
    """A bullet glyph (any single glyph of a symbol font counts) or an enumerator such as "1." or "(a)"."""
    if len(text) == 1 and (text in BULLETS or SYMBOL_FONT_RE.search(font)):
        return True
    return bool(ENUMERATOR_RE.match(text))


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
