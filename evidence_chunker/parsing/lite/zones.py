"""Page zones for the lite parser: where a page's text columns are, so tables are looked for in each.

A gutter of whitespace with prose on both sides parts two zones: text columns, the two pages of a spread,
and, in a band of the page between full-width lines, two tables set side by side in two columns.
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from typing import Sequence

from semantic_json.rules.patterns import is_quantity
from .page_layout import is_prose, uncovered
from .settings import LiteSettings
from .text import Phrase, group_lines


def page_zones(phrases: list[Phrase], body_size: float, settings: LiteSettings) -> list[list[Phrase]]:
    """Split a page's phrases at whitespace gutters with prose on both sides (text columns, the two pages
    of a spread); tables are looked for within each zone, so two tables set side by side in two text
    columns are not read as one.

    A gutter runs through all the text, or through a band of it: where full-width lines (wider than
    ``wide_block`` of the text) bridge the columns, the page is cut into bands above and below them,
    and each band is split on its own. Bands that split into no columns stay one zone with the lines
    around them.
    """
    if len(phrases) < 2 * settings.zone_min_prose:
        return [phrases]
    zones = _column_zones(phrases, body_size, settings)
    if len(zones) > 1:
        return zones
    lo, hi = min(p.x0 for p in phrases), max(p.x1 for p in phrases)
    spans: list[list[float]] = []  # the rows of full-width lines, merged, top down
    for p in sorted((p for p in phrases if p.x1 - p.x0 > settings.wide_block * (hi - lo)), key=lambda p: p.top):
        if spans and p.top <= spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], p.bottom)
        else:
            spans.append([p.top, p.bottom])
    if not spans:
        return zones
    groups: dict[int, list[Phrase]] = defaultdict(list)  # 2k: the band above span k; 2k + 1: span k
    tops = [a for a, _ in spans]
    for p in phrases:
        mid = (p.top + p.bottom) / 2
        k = bisect.bisect_right(tops, mid) - 1
        groups[2 * k + 1 if k >= 0 and mid <= spans[k][1] else 2 * k + 2].append(p)
    out: list[list[Phrase]] = []
    run: list[Phrase] = []
    for key in sorted(groups):
        group = groups[key]
        banded = key % 2 == 0 and len(group) >= 2 * settings.zone_min_prose
        split = _column_zones(group, body_size, settings, running=True) if banded else [group]
        if len(split) > 1:
            out += ([run] if run else []) + split
            run = []
        else:
            run += group
    return (out + [run]) if run else out


def _column_zones(phrases: list[Phrase], body_size: float, settings: LiteSettings,
                  running: bool = False) -> list[list[Phrase]]:
    """The zones of :func:`page_zones` cut at gutters through all of ``phrases``. With ``running`` (a
    band of the page, short enough to hold only a table and the text around it), the prose on each side
    must be lines of running text, more words than a cell holds (a table's label column is as wide as a
    column of text: "Foreign exchange forwards and options" beside "Other expense (income), net"), and
    most lines with figures must keep them to one side: a row with figures on both is a table's."""
    lo = min(p.x0 for p in phrases)
    hi = max(p.x1 for p in phrases)
    cuts = [
        (a + b) / 2
        for a, b in uncovered([(p.x0, p.x1) for p in phrases], lo, hi)
        if b - a >= settings.zone_gutter * body_size
    ]
    zones: list[list[Phrase]] = [phrases]
    for cut in cuts:
        last = zones.pop()
        left = [p for p in last if p.x1 <= cut]
        right = [p for p in last if p.x0 >= cut]
        if _prose_count(left, settings, running) >= settings.zone_min_prose \
                and _prose_count(right, settings, running) >= settings.zone_min_prose \
                and not (running and _rows_across(last, cut, settings)):
            zones += [left, right]
        else:
            zones.append(last)
    return zones


def _rows_across(phrases: list[Phrase], cut: float, settings: LiteSettings) -> bool:
    """True when most lines of ``phrases`` that print a figure print one on each side of ``cut``."""
    figured = across = 0
    for line in group_lines(phrases, settings):
        sides = {p.x0 >= cut for p in line.phrases if is_quantity(p.text)}
        figured += bool(sides)
        across += len(sides) == 2
    return 2 * across > figured


def _prose_count(phrases: Sequence[Phrase], settings: LiteSettings, running: bool = False) -> int:
    if running:
        return sum(1 for p in phrases if len(p.words) > settings.short_phrase_words)
    return sum(1 for p in phrases if is_prose(p, settings))
