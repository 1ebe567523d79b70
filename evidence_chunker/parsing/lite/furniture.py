"""Page furniture for the lite parser: the running headers and footers and the page numbers of a document.

Coordinates are PDF points in a top-down frame ``(x0, top, x1, bottom)``, ``top < bottom``; lengths
called "em" are multiples of the font size of the text concerned.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Sequence

from semantic_json.rules.patterns import is_quantity
from .settings import LiteSettings
from .text import PAGE_NUMBER_RE, Line, horizontal_overlap

_DIGITS_RE = re.compile(r"\d+")
_SPACE_RE = re.compile(r"\s+")


#: A line continues a header (footer) block when the two overlap by this share of the narrower one...
_FURNITURE_OVERLAP = 0.5
#: ...or start within this many em of each other, sit at most this many em apart...
_FURNITURE_INDENT = 2
_FURNITURE_GAP = 0.6
#: ...and differ in size by at most this share.
_FURNITURE_SIZE_SHARE = 0.1
#: A line with this many figures ("Net income $ 461 $ 229") is a table's row, never a running line.
_ROW_FIGURES = 2


def _furniture_key(text: str) -> str:
    """Text with digits and spacing blurred, so "Page 3" and "Page 4" compare equal."""
    return _SPACE_RE.sub(" ", _DIGITS_RE.sub("#", text)).strip().lower()


def find_furniture(
    pages: Sequence[list[Line]],
    heights: Sequence[float],
    body_size: float,
    settings: LiteSettings,
) -> list[dict[int, str]]:
    """For each page, the lines (by index) that are page headers or footers: ``{index: "page_header"}``.

    A line qualifies when it lies in the top or bottom margin band and either repeats (digits blurred)
    on other pages in the same band, looks like a page number, or is the outermost line printed
    smaller than the body text.
    """
    candidates: list[list[tuple[int, str, str]]] = []
    key_pages: dict[tuple[str, str], set[int]] = defaultdict(set)
    for page_no, (lines, height) in enumerate(zip(pages, heights)):
        found = []
        top_limit = settings.margin_band * height
        bottom_limit = (1 - settings.margin_band) * height
        for i, line in enumerate(lines):
            if line.bottom <= top_limit:
                zone = "page_header"
            elif line.top >= bottom_limit:
                zone = "page_footer"
            else:
                continue
            found.append((i, zone, line.text))
            for phrase in line.phrases:
                key_pages[(zone, _furniture_key(phrase.text))].add(page_no)
            key_pages[(zone, _furniture_key(line.text))].add(page_no)
        candidates.append(found)
    repeat_min = 2 if len(pages) > 1 else 10**9
    out: list[dict[int, str]] = []
    for page_no, found in enumerate(candidates):
        lines = pages[page_no]
        marks: dict[int, str] = {}
        zone_lines = {"page_header": [i for i, z, _ in found if z == "page_header"],
                      "page_footer": [i for i, z, _ in found if z == "page_footer"]}
        for i, zone, text in found:
            line = lines[i]
            repeated = len(key_pages[(zone, _furniture_key(text))]) >= repeat_min or all(
                len(key_pages[(zone, _furniture_key(p.text))]) >= repeat_min or PAGE_NUMBER_RE.match(p.text)
                for p in line.phrases
            )
            outermost = (zone == "page_header" and i == min(zone_lines[zone], key=lambda k: lines[k].top)) or (
                zone == "page_footer" and i == max(zone_lines[zone], key=lambda k: lines[k].bottom)
            )
            # a page number sits alone or beside a running title at the very edge of the page
            page_number = outermost and len(line.phrases) <= 3 and any(PAGE_NUMBER_RE.match(p.text) for p in line.phrases)
            small = line.size < settings.furniture_size_ratio * body_size
            if repeated or page_number or (outermost and small):
                marks[i] = zone
        _keep_edge_blocks(lines, marks, zone_lines)
        _extend_furniture_blocks(lines, marks, heights[page_no], settings)
        out.append(marks)
    _mark_numbered_pages(pages, out)
    return out


#: A page number as printed alone, with an optional letter prefix: "65", "- 65 -", "Page 78", "F-12", "A-3".
_FOLIO_RE = re.compile(
    r"^\s*(?:page\s*)?[-–—(\[]?\s*(?:([a-z]{1,2})\s*[-–]\s*)?(\d{1,4})\s*[-–—)\]]?\s*$", re.IGNORECASE
)
#: Pages whose folios must share one offset from the page's index before any of them counts as a folio.
_FOLIO_RUN = 3


def _keep_edge_blocks(lines: Sequence[Line], marks: dict[int, str], zone_lines: dict[str, list[int]]) -> None:
    """Unmark the lines of a margin band that a line not marked stands outside of: running headers and
    footers are the page's outermost lines. The headings of a statement printed right under its title
    repeat on the next statement's page ("Three Months Ended December 31,", "($ in millions) 2022 2021"),
    and so do its first rows, but the title above them ("Condensed Consolidated Statements of Income")
    does not."""
    for zone, indices in zone_lines.items():
        free = [lines[j] for j in indices if j not in marks]
        for i in indices:
            if marks.get(i) != zone:
                continue
            line = lines[i]
            if any(f.bottom <= line.top if zone == "page_header" else f.top >= line.bottom for f in free):
                del marks[i]


def _mark_numbered_pages(pages: Sequence[list[Line]], marks: list[dict[int, str]]) -> None:
    """Mark the page numbers printed away from the margin band (10-K pages made from HTML often print
    theirs a sixth of the page up from the bottom edge).

    A candidate is the lowest (or highest) line of a page not already marked, reading as a page number
    alone ("65", "Page 78", "F-12"). It counts when at least ``_FOLIO_RUN`` pages' candidates in the same
    place (foot or head) with the same prefix equal their page's index plus one shared offset: numbers
    that run with the pages. A table's last figure or a lone year does not keep pace with the page index.
    """
    found: dict[tuple[str, str, int], list[tuple[int, int]]] = defaultdict(list)
    for page_no, lines in enumerate(pages):
        free = [i for i in range(len(lines)) if i not in marks[page_no]]
        if not free:
            continue
        ends = {"page_footer": max(free, key=lambda i: lines[i].bottom),
                "page_header": min(free, key=lambda i: lines[i].top)}
        for zone, i in ends.items():
            match = _FOLIO_RE.match(lines[i].text)
            if match:
                prefix = (match.group(1) or "").lower()
                found[(zone, prefix, int(match.group(2)) - page_no)].append((page_no, i))
    for (zone, _, _), hits in found.items():
        if len(hits) >= _FOLIO_RUN:
            for page_no, i in hits:
                marks[page_no].setdefault(i, zone)


def _extend_furniture_blocks(lines: Sequence[Line], marks: dict[int, str], height: float, settings: LiteSettings) -> None:
    """Add the lines that continue a header (below it) or footer (above it) block in the same style,
    reaching at most twice the margin band into the page; a line printing ``_ROW_FIGURES`` figures or more
    is a table's row and ends the block."""
    order = sorted(range(len(lines)), key=lambda i: lines[i].top)
    for zone, step in (("page_header", 1), ("page_footer", -1)):
        seq = order if step == 1 else order[::-1]
        for pos, i in enumerate(seq[:-1]):
            if marks.get(i) != zone:
                continue
            j = seq[pos + 1]
            if j in marks:
                continue
            a, b = lines[i], lines[j]
            gap = (b.top - a.bottom) if step == 1 else (a.top - b.bottom)
            inside = b.bottom <= 2 * settings.margin_band * height if step == 1 else b.top >= (1 - 2 * settings.margin_band) * height
            overlap = horizontal_overlap(a, b)
            aligned = overlap >= _FURNITURE_OVERLAP * min(a.x1 - a.x0, b.x1 - b.x0) or abs(a.x0 - b.x0) <= _FURNITURE_INDENT * a.size
            figures = sum(1 for q in b.phrases if is_quantity(q.text))  # a table's row, not a running line
            if inside and 0 <= gap <= _FURNITURE_GAP * a.size and abs(a.size - b.size) <= _FURNITURE_SIZE_SHARE * a.size and aligned \
                    and figures < _ROW_FIGURES:
                marks[j] = zone
