"""Column gutters of a borderless table for the lite parser: the vertical strips of whitespace that few lines'
phrases cross, found with amounts taken from their left edge and again from past a currency sign that opens
them, and the lines that define them. Coordinates in points, top-down (:mod:`.text`)."""

from __future__ import annotations

import statistics
from typing import Sequence

from semantic_json.rules.patterns import is_currency, is_quantity
from .headings import is_short
from .settings import LiteSettings
from .text import Line, Phrase


def gutter_basis(core: list[Line]) -> list[Line]:
    """The lines that define a table's columns: its rows of quantities when there are a few (headings
    above them may span columns), else all its table-like lines."""
    data = [ln for ln in core if is_data_line(ln)]
    return data if len(data) >= 3 else core


def crosses_gutter(line: Line, gutters: list[tuple[float, float]], settings: LiteSettings) -> bool:
    """True when a long phrase of ``line`` runs through a column gutter (prose, not a cell)."""
    for p in line.phrases:
        if is_short(p, settings):
            continue
        if any(p.x0 < a and p.x1 > b for a, b in gutters):
            return True
    return False


def is_data_line(line: Line) -> bool:
    return any(is_quantity(p.text) for p in line.phrases[1:])


def _figure_x0(phrase: Phrase) -> float:
    """Where ``phrase``'s amount starts: past a currency sign that opens it."""
    words = phrase.words
    return words[1].x0 if len(words) > 1 and is_currency(words[0].text) else phrase.x0


def column_gutters(lines: Sequence[Line], settings: LiteSettings) -> list[tuple[float, float]]:
    """Vertical strips crossed by few lines' phrases: the gaps between columns, as (x_start, x_end).

    A statement sets each "$" at the left edge of its amount's column; where the columns are set close,
    the signs leave no strip free between two columns. Strips found with the amounts taken from past
    their signs are then added where they overlap no strip found with the signs.
    """
    gutters = _free_strips(lines, settings, lambda p: p.x0)
    if any(_figure_x0(p) != p.x0 for ln in lines for p in ln.phrases):
        gutters += [g for g in _free_strips(lines, settings, _figure_x0)
                    if not any(g[0] < b and a < g[1] for a, b in gutters)]
        gutters.sort()
    return gutters


def _free_strips(lines: Sequence[Line], settings: LiteSettings, start_of) -> list[tuple[float, float]]:
    """The strips of :func:`column_gutters`, each phrase taken from ``start_of(phrase)`` to its end."""
    lo = min(ln.x0 for ln in lines)
    hi = max(ln.x1 for ln in lines)
    n_bins = int(hi - lo) + 2
    counts = [0] * (n_bins + 1)
    for ln in lines:
        for p in ln.phrases:
            a = int(start_of(p) - lo)
            b = int(p.x1 - lo) + 1
            counts[a] += 1
            counts[b] -= 1
    allowed = int(settings.span_tolerance * len(lines))
    size = statistics.median(ln.size for ln in lines)
    gutters = []
    running = 0
    start = None
    for k in range(n_bins):
        running += counts[k]
        free = running <= allowed
        if free and start is None:
            start = k
        elif not free and start is not None:
            if k - start >= settings.min_gutter * size and start > 0:
                gutters.append((lo + start, lo + k))
            start = None
    return gutters
