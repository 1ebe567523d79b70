"""Tables of shaded bands drawn as rules: EDGAR fills the shaded rows of a table and leaves the white
rows between them unruled, so the rules of one table fall into several grids, and a white row has no
column boundary drawn across it. :func:`join_bands` joins the grids, :func:`open_boundaries` finds the
boundaries a white row of figures lacks. Geometry is in PDF points, top-down."""

from __future__ import annotations

from typing import Sequence

from semantic_json.rules.patterns import is_quantity
from .found_tables import Edge, FoundTable, rule_share
from .settings import LiteSettings
from .text import Word

#: Two grids of rules with the same sides are one table of bands when the unruled band between them is
#: at most this many ems (of its text) high: a row of one or two lines.
BAND_GAP_EMS = 3.0


def join_bands(grids: list[tuple[tuple[list[Edge], list[Edge]], FoundTable]], words: Sequence[Word],
               tolerance: float) -> list[list[tuple[tuple[list[Edge], list[Edge]], FoundTable]]]:
    """``grids`` (a group of rules, horizontal and vertical, with the table it draws) in groups to be read
    as one table, top to bottom: EDGAR draws the shaded rows of a table and not the white ones between,
    so a white row (label and figures, no rule across it but the shaded rows' edges) cuts the table in two
    grids. Two grids join when they have the same sides (within ``tolerance`` points) and the band
    between them, at most BAND_GAP_EMS high, holds a figure and no word outside their sides."""
    out: list[list[tuple[tuple[list[Edge], list[Edge]], FoundTable]]] = []
    for grid in sorted(grids, key=lambda g: g[1].top):
        if out:
            upper, lower = out[-1][-1][1], grid[1]
            band = [w for w in words if upper.bottom < (w.top + w.bottom) / 2 < lower.top
                    and w.x1 > upper.x0 and w.x0 < upper.x1]
            if (
                band
                and abs(upper.x0 - lower.x0) <= tolerance and abs(upper.x1 - lower.x1) <= tolerance
                and 0 < lower.top - upper.bottom <= BAND_GAP_EMS * max(w.size for w in band)
                and all(w.x0 >= upper.x0 - tolerance and w.x1 <= upper.x1 + tolerance for w in band)
                and any(is_quantity(w.text) for w in band)
            ):
                out[-1].append(grid)
                continue
        out.append([grid])
    return out


def open_boundaries(xs: list[float], ys: list[float], vs: list[Edge], soft_x: set[float], words: Sequence[Word],
                    settings: LiteSettings) -> set[tuple[int, float]]:
    """The (row, x) pairs of a grid (column boundaries ``xs``, row boundaries ``ys``, vertical rules
    ``vs``; the text-derived boundaries ``soft_x``) where a drawn column boundary is not drawn across a
    row holding a figure but is drawn across a row above it and one below it: a white band between
    shaded ones, whose cells the shaded rows' boundaries still part."""
    tol = settings.snap_tolerance
    hard = [x for x in xs[1:-1] if x not in soft_x]
    rows = list(zip(ys, ys[1:]))
    drawn = {x: [rule_share(vs, x, lo, hi, False, tol) >= settings.rule_coverage for lo, hi in rows] for x in hard}
    out = set()
    for r, (lo, hi) in enumerate(rows):
        if not any(is_quantity(w.text) for w in words if lo <= (w.top + w.bottom) / 2 < hi and w.x0 >= xs[1]):
            continue
        out.update((r, x) for x in hard if not drawn[x][r] and any(drawn[x][:r]) and any(drawn[x][r + 1:]))
    return out
