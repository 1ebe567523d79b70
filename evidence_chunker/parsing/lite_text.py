"""Text geometry for the lite parser: glyphs → words → phrases → lines, and the patterns of headings,
footnotes and page numbers (captions and list markers are :mod:`evidence_chunker.patterns`'s).

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

from ..patterns import BULLETS, ENUMERATOR_RE
from ..patterns import is_caption, is_list_item  # noqa: F401  (lite_layout imports them from here)
from .lite_settings import LiteSettings


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


#: Numbering typical of section headings: "1.", "1.2.3", "Item 7.", "제1장", "II.", "가.", "(1)", "Chapter 3".
HEADING_NUMBER_RE = re.compile(
    r"^\s*(?:(?:Item|Part|Chapter|Section|Note|Article)\s+[\dIVXivx]+[A-Za-z]?[.:]?"
    r"|제\s*\d+\s*[장절조항편]"
    r"|\d{1,2}(?:\.\d{1,2}){0,4}\.?"
    r"|\(\d{1,2}\)|[①-⑳]"
    r"|[IVX]{1,4}\."
    r"|[가-하]\.)(?:\s|$)"
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


def _word(chars: Sequence[Char]) -> Word:
    """The word of some glyphs: their joined text and box, median size, majority boldness."""
    texts, x0s, tops, x1s, bottoms, sizes, fonts, bolds, _, _ = zip(*chars)
    middle = len(chars) // 2
    return Word(
        text="".join(texts), x0=min(x0s), top=min(tops), x1=max(x1s), bottom=max(bottoms),
        size=sorted(sizes)[middle], bold=sum(bolds) * 2 > len(chars), font=fonts[middle],
    )


def words_from_chars(chars: Sequence[Char], settings: LiteSettings) -> list[Word]:
    """Cut a content-stream sequence of glyphs into words at spaces, gaps, line changes and backtracks."""
    words: list[Word] = []
    current: list[Char] = []
    word_gap, mark_gap, backtrack, overlap = settings.word_gap, settings.mark_gap, settings.backtrack, settings.line_overlap
    for ch in chars:
        if current:
            prev = current[-1]
            gap = ch.x0 - prev.x1
            size = max(prev.size, ch.size)
            apart = ch.space_before or gap > word_gap * size
            if apart and not ch.printed_space and 0 <= gap <= mark_gap * size and _closes_amount(current, ch):
                apart = False
            # same_baseline(prev, ch), written out: this runs once per glyph
            smaller = max(min(prev.bottom - prev.top, ch.bottom - ch.top), _MIN_HEIGHT)
            shared = max(0.0, min(prev.bottom, ch.bottom) - max(prev.top, ch.top))
            if apart or ch.x0 < prev.x0 - backtrack * size or not shared >= overlap * smaller:
                words.append(_word(current))
                current = []
        current.append(ch)
    if current:
        words.append(_word(current))
    return words


def _closes_amount(current: Sequence[Char], ch: Char) -> bool:
    """True when ``ch`` is a ")" or "%" that ends the amount in ``current`` though set apart from it
    without a printed space (pdfium may report one for the gap). EDGAR renders "(565" and ")", "12.5"
    and "%" in table cells of their own; they read "(565)" and "12.5%". A ")" counts only when it
    closes a "(" of the amount."""
    if ch.text not in (")", "%"):
        return False
    text = "".join(c.text for c in current)
    if not any(c.isdigit() for c in text):
        return False
    if ch.text == ")":
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
    phrases: list[Phrase] = []
    bands: dict[int, dict[int, Phrase]] = {}  # band -> open phrases whose last word covers it, by rank
    filed: list[range] = []  # rank -> the bands its phrase is filed under
    ends: list[tuple[float, int]] = []  # (x1 when pushed, rank): a min-heap of open phrases' right ends
    for word in sorted(words, key=lambda w: (w.x0, w.top)):
        covered = range(int(word.top // _BAND), int(word.bottom // _BAND) + 1)
        candidates: dict[int, Phrase] = {}
        for band in covered:
            members = bands.get(band)
            if members:
                candidates.update(members)
        best = None
        best_rank = best_gap = None
        for rank in sorted(candidates):
            phrase = candidates[rank]
            last = phrase.words[-1]
            gap = word.x0 - last.x1
            size = max(last.size, word.size)
            if gap > settings.phrase_gap * size or gap < -settings.backtrack * size:
                continue
            if not same_baseline(last.top, last.bottom, word.top, word.bottom, settings.line_overlap):
                continue
            if abs(word.size - last.size) > settings.size_jump * min(word.size, last.size) and gap > _STYLE_BREAK_GAP * size:
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
            best.top = min(best.top, word.top)
            best.bottom = max(best.bottom, word.bottom)
        _unfile(bands, filed[best_rank], best_rank)
        for band in covered:
            bands.setdefault(band, {})[best_rank] = best
        filed[best_rank] = covered
        # phrases ending far to the left can no longer grow (a pushed end older than the phrase's
        # current one is stale and skipped)
        limit = word.x0 - settings.phrase_gap * word.size * _OPEN_REACH
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
    justified lines stay whole.
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
        if marker.words[0].text in _DASHES and _AMOUNT_RE.match(best.text):
            continue  # a dash standing for nil in a table, then the next column's amount or "$"
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
