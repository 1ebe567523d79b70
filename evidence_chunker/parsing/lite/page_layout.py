"""Page layout for the lite parser: page zones, reading order (recursive XY-cut) and paragraphs with their
labels (page furniture, the running headers and footers, is found in :mod:`.lite_furniture`).

Coordinates are PDF points in a top-down frame ``(x0, top, x1, bottom)``, ``top < bottom``; lengths
called "em" are multiples of the font size of the text concerned.
"""

from __future__ import annotations

import bisect
import re
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, NamedTuple, Sequence

from semantic_json.rules.patterns import is_unit_alone
from .settings import LiteSettings
from .text import (
    FOOTNOTE_RE,
    HEADING_NUMBER_RE,
    Line,
    Phrase,
    Run,
    is_caption,
    is_list_item,
    join_lines,
    runs_on,
    same_baseline,
)

#: Label/value rows: this share of the labels are short and this share have a value on their baseline.
_LABEL_ROWS_SHARE = 0.6
#: Line height (points) assumed for a region holding only tables.
_DEFAULT_LINE_HEIGHT = 10.0
#: A line may start this many em above the end of the line before it and still follow it (overlap).
_LINE_OVERLAP_EM = 0.5
#: A line shorter than this share of the next one ends its paragraph (a short last line).
_SHORT_LAST_LINE = 0.85
#: A rule parts two lines when it runs, within this many em, under the whole width they share.
_RULE_SLACK_EM = 0.5


#: The deepest heading level the parser gives (docling section headers go from 1 to 6 here).
INNERMOST_LEVEL = 6
#: A heading's number: "2.1.6", "4." or a bare "17" (group 2 holds the trailing dot).
_SECTION_NUMBER_RE = re.compile(r"^\s*(\d{1,2}(?:\.\d{1,2}){0,4})(\.?)\s")
#: A line continues the one above when the gap between them is at most this share of the type size (a
#: paragraph's line spacing); a heading stands further apart.
_RUN_ON_GAP = 0.6


@dataclass
class Paragraph(Run):
    """Consecutive lines of one text block, with the DocItemLabel name the parser will give it."""

    lines: list[Line]
    label: str = "text"
    level: int = 1

    @property
    def parts(self) -> list[Line]:
        return self.lines

    @property
    def text(self) -> str:
        return join_lines([ln.text for ln in self.lines])


@dataclass
class Block:
    """An atomic item for reading order: a phrase of text, or a table region (``table`` is its index)."""

    x0: float
    top: float
    x1: float
    bottom: float
    phrase: Phrase | None = None
    table: int | None = None


# --------------------------------------------------------------------------------------------
# Reading order (recursive XY-cut over phrases and table boxes)
# --------------------------------------------------------------------------------------------


def uncovered(intervals: list[tuple[float, float]], lo: float, hi: float) -> list[tuple[float, float]]:
    """Uncovered stretches of [lo, hi] given covered intervals, as (start, end), the ends left out."""
    gaps = []
    cursor = lo
    for a, b in sorted(intervals):
        if a > cursor:
            gaps.append((cursor, a))
        cursor = max(cursor, b)
    if cursor < hi:
        gaps.append((cursor, hi))
    return [(a, b) for a, b in gaps if a > lo and b < hi]


def _vertical_cut(blocks: list[Block], min_gap: float) -> float | None:
    """x of the widest vertical whitespace gap of at least ``min_gap`` through all blocks, if any."""
    lo = min(b.x0 for b in blocks)
    hi = max(b.x1 for b in blocks)
    gaps = [g for g in uncovered([(b.x0, b.x1) for b in blocks], lo, hi) if g[1] - g[0] >= min_gap]
    if not gaps:
        return None
    a, b = max(gaps, key=lambda g: g[1] - g[0])
    return (a + b) / 2


def _masked_vertical_cut(blocks: list[Block], min_gap: float, wide_ratio: float) -> float | None:
    """A vertical gap that exists once blocks wider than ``wide_ratio`` of the region are ignored."""
    lo = min(b.x0 for b in blocks)
    hi = max(b.x1 for b in blocks)
    narrow = [b for b in blocks if b.x1 - b.x0 <= wide_ratio * (hi - lo)]
    if len(narrow) < 4 or len(narrow) == len(blocks):
        return None
    cut = _vertical_cut(narrow, min_gap)
    if cut is None:
        return None
    left = sum(1 for b in narrow if b.x1 <= cut)
    right = len(narrow) - left
    return cut if left >= 2 and right >= 2 else None


def _horizontal_gaps(blocks: list[Block]) -> list[float]:
    """y positions of every horizontal whitespace gap through all blocks."""
    lo = min(b.top for b in blocks)
    hi = max(b.bottom for b in blocks)
    return [(a + b) / 2 for a, b in uncovered([(b.top, b.bottom) for b in blocks], lo, hi)]


def _structural_cut(blocks: list[Block], ys: list[float], min_gap: float) -> float | None:
    """The widest horizontal gap below or above which the blocks fall into columns, if any.

    Cutting at every gap would read two columns with aligned baselines line by line; this finds the
    gap that separates, say, a full-width title from the two columns under it.
    """
    gaps = []
    for y in ys:
        above = max((b.bottom for b in blocks if b.bottom <= y), default=y)
        below = min((b.top for b in blocks if b.top >= y), default=y)
        gaps.append((below - above, y))
    for _, y in sorted(gaps, key=lambda g: -g[0]):
        upper = [b for b in blocks if (b.top + b.bottom) / 2 < y]
        lower = [b for b in blocks if (b.top + b.bottom) / 2 >= y]
        for part in (upper, lower):
            if len(part) >= 4 and _vertical_cut(part, min_gap) is not None and _column_sides(part, min_gap):
                return y
    return None


def _column_sides(blocks: list[Block], min_gap: float) -> bool:
    """True when a vertical cut leaves at least two lines of text on each side (real columns)."""
    cut = _vertical_cut(blocks, min_gap)
    if cut is None:
        return False
    left = sum(1 for b in blocks if b.x1 <= cut)
    return left >= 2 and len(blocks) - left >= 2


def _label_value_rows(left: list[Block], right: list[Block], settings: LiteSettings) -> bool:
    """True when the two sides of a gutter pair up line by line with short text on the left: labels
    and their values, read across rather than down."""
    labels = [b for b in left if b.phrase is not None]
    if len(labels) < 2 or len(labels) < len(left) - 1:
        return False
    short = sum(1 for b in labels if not is_prose(b.phrase, settings))
    paired = sum(
        1 for b in labels
        if any(r.phrase is not None and same_baseline(b.top, b.bottom, r.top, r.bottom, settings.line_overlap) for r in right)
    )
    return short >= _LABEL_ROWS_SHARE * len(labels) and paired >= _LABEL_ROWS_SHARE * len(labels)


def is_prose(phrase: Phrase, settings: LiteSettings) -> bool:
    """A long phrase: more words or wider (em) than a table cell or a label usually is."""
    return len(phrase.words) > settings.short_phrase_words or phrase.x1 - phrase.x0 > settings.short_phrase_width * phrase.size


def reading_order(blocks: list[Block], settings: LiteSettings, depth: int = 0) -> list[Block]:
    """Order blocks for reading: columns left to right, each top to bottom (recursive XY-cut).

    A vertical cut (a column gutter through the whole region) is preferred; when wide items such as a
    full-width heading or table bridge the gutter, the region is first cut above and below them.
    """
    if len(blocks) <= 1 or depth > 60:
        return list(blocks)
    size = statistics.median(b.bottom - b.top for b in blocks if b.table is None) if any(
        b.table is None for b in blocks
    ) else _DEFAULT_LINE_HEIGHT
    cut = _vertical_cut(blocks, settings.gutter * size)
    if cut is not None:
        left = [b for b in blocks if (b.x0 + b.x1) / 2 < cut]
        right = [b for b in blocks if (b.x0 + b.x1) / 2 >= cut]
        if left and right and not _label_value_rows(left, right, settings):
            return reading_order(left, settings, depth + 1) + reading_order(right, settings, depth + 1)
    masked = _masked_vertical_cut(blocks, settings.gutter * size, settings.wide_block)
    ys = _horizontal_gaps(blocks)
    if masked is not None and ys:
        bridging = [b for b in blocks if b.x0 < masked < b.x1]
        keep = set()
        for b in bridging:
            above = [y for y in ys if y <= b.top]
            below = [y for y in ys if y >= b.bottom]
            if above:
                keep.add(max(above))
            if below:
                keep.add(min(below))
        if keep:
            ys = sorted(keep)
    if not ys:
        return sorted(blocks, key=lambda b: (b.top, b.x0))
    if masked is None and len(ys) > 1:
        structural = _structural_cut(blocks, ys, settings.gutter * size)
        if structural is not None:
            ys = [structural]
    strips: list[list[Block]] = [[] for _ in range(len(ys) + 1)]
    for b in blocks:
        mid = (b.top + b.bottom) / 2
        strips[sum(1 for y in ys if y < mid)].append(b)
    out: list[Block] = []
    for strip in strips:
        if strip:
            out.extend(reading_order(strip, settings, depth + 1) if len(strip) < len(blocks) else sorted(
                strip, key=lambda b: (b.top, b.x0)))
    return out


# --------------------------------------------------------------------------------------------
# Paragraphs and their labels
# --------------------------------------------------------------------------------------------


def ordered_lines(phrases: Sequence[Phrase], settings: LiteSettings) -> list[Line]:
    """Group phrases that arrive in reading order into lines (consecutive phrases on one baseline)."""
    lines: list[Line] = []
    for phrase in phrases:
        if lines:
            last = lines[-1].phrases[-1]
            if same_baseline(last.top, last.bottom, phrase.top, phrase.bottom, settings.line_overlap) and (
                phrase.x0 >= last.x1 - settings.backtrack * phrase.size
            ):
                lines[-1].phrases.append(phrase)
                continue
        lines.append(Line([phrase]))
    return lines


@dataclass(frozen=True)
class BodyStyle:
    """The document's running text: the font size (points) and font name carrying most characters."""

    size: float = 10.0
    font: str = ""


def body_style(phrases: Iterable[Phrase]) -> BodyStyle:
    """The BodyStyle of some phrases (defaults when there is no text)."""
    by_size: dict[float, int] = {}  # characters per font size (rounded), per font
    by_font: dict[str, int] = {}
    rounded: dict[float, float] = {}
    for p in phrases:
        for w in p.words:
            n = len(w.text)
            size = rounded.get(w.size)
            if size is None:
                size = rounded[w.size] = round(w.size, 1)
            by_size[size] = by_size.get(size, 0) + n
            by_font[w.font] = by_font.get(w.font, 0) + n
    if not by_size:
        return BodyStyle()
    # the most characters; of equal counts the first met (as Counter.most_common picks)
    return BodyStyle(max(by_size.items(), key=_count)[0], max(by_font.items(), key=_count)[0])


def _count(item: tuple) -> int:
    return item[1]


_SENTENCE_END_RE = re.compile(r"[.!?。:;)\]」』”\"']$")


def _line_font(line: Line) -> str:
    weights: Counter[str] = Counter()
    for p in line.phrases:
        for w in p.words:
            weights[w.font] += len(w.text)
    return weights.most_common(1)[0][0]


class _LineLook(NamedTuple):
    """What decides whether a line continues a paragraph, read once per line."""

    text: str
    size: float
    bold: bool
    font: str
    x0: float
    x1: float
    top: float
    bottom: float


def _look(line: Line) -> _LineLook:
    return _LineLook(line.text, line.size, line.bold, _line_font(line), line.x0, line.x1, line.top, line.bottom)


def _starts_block(first: _LineLook, prev: _LineLook, line: _LineLook, body: BodyStyle, settings: LiteSettings) -> bool:
    """True when ``line`` cannot continue the paragraph that starts with ``first`` and ends with ``prev``."""
    size = max(prev.size, line.size)
    gap = line.top - prev.bottom
    if gap < -_LINE_OVERLAP_EM * size or gap > settings.paragraph_gap * size:
        return True
    if abs(line.size - prev.size) > settings.size_jump * min(line.size, prev.size):
        return True
    if prev.bold != line.bold:
        return True
    if prev.font != line.font and body.font in (prev.font, line.font):
        return True
    if is_list_item(line.text) or is_caption(line.text) or FOOTNOTE_RE.match(line.text):
        return True
    if line.x0 > prev.x1 or line.x1 < prev.x0:  # no horizontal overlap: another column or block
        return True
    if line.x0 - prev.x0 > settings.indent * size:  # an indented line
        hanging = bool(is_list_item(first.text) or FOOTNOTE_RE.match(first.text))
        ended = bool(_SENTENCE_END_RE.search(prev.text)) or prev.x1 - prev.x0 < _SHORT_LAST_LINE * (line.x1 - prev.x0)
        if not hanging and ended:
            return True
    return False


class PageRules:
    """A page's horizontal rules by their height on the page, to ask which run between two lines (made
    once per page: :func:`build_paragraphs` runs once for every stretch of text between two tables)."""

    def __init__(self, edges: Iterable) -> None:
        rules = sorted((e for e in edges if e.horizontal), key=lambda e: e.top)
        self._tops = [e.top for e in rules]
        self._rules = rules

    def part(self, prev: _LineLook, line: _LineLook) -> bool:
        """True when a rule runs between the middles of ``prev`` and ``line`` under all the width they
        share ("BUSINESS SEGMENT RESULTS" over a rule, then its paragraph)."""
        lo, hi = (prev.top + prev.bottom) / 2, (line.top + line.bottom) / 2
        start, end = bisect.bisect_right(self._tops, lo), bisect.bisect_left(self._tops, hi)
        if start >= end:
            return False
        slack = _RULE_SLACK_EM * max(prev.size, line.size)
        left, right = max(prev.x0, line.x0), min(prev.x1, line.x1)
        return any(r.x0 <= left + slack and r.x1 >= right - slack for r in self._rules[start:end])


def _restyled(prev: _LineLook, line: _LineLook) -> bool:
    """True when two lines differ in font or in size (by less than parts them on its own when
    :func:`_starts_block` has kept them together)."""
    return prev.font != line.font or round(prev.size, 1) != round(line.size, 1)


def build_paragraphs(lines: Sequence[Line], body: BodyStyle, settings: LiteSettings,
                     rules: PageRules | None = None) -> list[Paragraph]:
    """Merge consecutive lines into paragraphs by spacing, font and indentation; then label each.

    Two lines in different styles are also parted by a rule between them (``rules``: the page's),
    as a heading is ruled off from its text. Lines in one style are not: some filings draw an unseen
    rule between every two lines of a paragraph.
    """
    paragraphs: list[Paragraph] = []
    first = prev = None
    rules = rules if rules is not None else PageRules(())
    for line in lines:
        look = _look(line)
        if paragraphs and not _starts_block(first, prev, look, body, settings) and not (
            _restyled(prev, look) and rules.part(prev, look)
        ):
            paragraphs[-1].lines.append(line)
        else:
            paragraphs.append(Paragraph([line]))
            first = look
        prev = look
    previous = "text"
    for paragraph in paragraphs:
        paragraph.label = classify(paragraph, body, settings)
        if previous == "footnote" and paragraph.label == "text" and paragraph.size <= settings.footnote_size * body.size:
            paragraph.label = "footnote"  # the next note of a block of notes, or one continued
        previous = paragraph.label
    for paragraph, after in zip(paragraphs, paragraphs[1:]):
        if paragraph.label == "section_header" and after.label == "text" and after.text[:1].islower() \
                and not paragraph.text.rstrip().endswith((".", "!", "?", ":", ";", "。")) \
                and after.lines[0].top - paragraph.lines[-1].bottom <= _RUN_ON_GAP * paragraph.size:
            paragraph.label = "text"  # a sentence set in bold at its start, which the next line continues
    return paragraphs


def _is_heading_like(paragraph: Paragraph, body: BodyStyle, settings: LiteSettings) -> bool:
    """Short text set apart from the body: larger, bold, or in another font at body size or above."""
    text = paragraph.text
    if len(paragraph.lines) > settings.heading_max_lines or len(text) > settings.heading_max_chars:
        return False
    if paragraph.size >= settings.heading_size * body.size:
        return True
    if paragraph.bold:
        return True
    fonts = {_line_font(ln) for ln in paragraph.lines}
    return body.font not in fonts and paragraph.size >= body.size and bool(HEADING_NUMBER_RE.match(text))


def classify(paragraph: Paragraph, body: BodyStyle, settings: LiteSettings) -> str:
    """The DocItemLabel value for a paragraph: caption, footnote, list_item, section_header or text."""
    text = paragraph.text
    if is_caption(text) and len(text) <= settings.caption_max_chars:
        return "caption"
    if FOOTNOTE_RE.match(text) and paragraph.size <= settings.footnote_size * body.size:
        return "footnote"
    heading_like = _is_heading_like(paragraph, body, settings)
    if is_list_item(text) and not (HEADING_NUMBER_RE.match(text) and heading_like):
        return "list_item"
    # a unit alone set in bold is the unit of the table below, not a heading every later paragraph sits under
    if heading_like and any(ch.isalpha() for ch in text) and not is_unit_alone(text) and not runs_on(text):
        if not text.rstrip().endswith((".", ",", ";")) or HEADING_NUMBER_RE.match(text):
            return "section_header"
    return "text"


def heading_levels(paragraphs: Sequence[Paragraph], cover: Sequence[Paragraph] = ()) -> None:
    """Set ``level`` on section headers: the depth of a dotted number ("2.1.6" → 3, "4." → 1), or else the
    rank of the font size among the body's headers. A bare number opens many lines that are no section's
    number ("1 Water Street", "17 of our Notes"), so it sets no level. The headers of ``cover`` (the
    paragraphs of a cover page) take the innermost level: the first heading after the cover ends them, so
    they name no section of the report."""
    on_cover = {id(p) for p in cover}
    headers = [p for p in paragraphs if p.label == "section_header"]
    sizes = sorted({round(p.size) for p in headers if id(p) not in on_cover}, reverse=True)
    for p in headers:
        match = _SECTION_NUMBER_RE.match(p.text)
        if id(p) in on_cover:
            p.level = INNERMOST_LEVEL
        elif match and (match.group(2) or "." in match.group(1)):
            p.level = min(match.group(1).count(".") + 1, INNERMOST_LEVEL)
        else:
            p.level = min(sizes.index(round(p.size)) + 1, INNERMOST_LEVEL) if sizes else 1
