"""A row of group headings above the column labels, each heading centred over the group of value
columns it heads ("Level 1 Level 2 Level 3" over "2022 2021" pairs, "Three Months Ended Six Months Ended"
over the years), and the last line of a heading wrapped over two lines joined to it
(:func:`join_heading_tails`): used above borderless tables and ruled grids. Geometry is in PDF points."""

from __future__ import annotations

from typing import Sequence

from .settings import LiteSettings
from .text import Phrase


#: A group heading stays within this share of the group's printed width of the group's centre (it is
#: centred over the columns' cells; amounts set flush right in them shift the print rightwards).
GROUP_SLACK = 0.25
#: A heading wraps only when it fills its columns: its line is at least this share of their width.
TAIL_FILL = 0.75


def centre_over_groups(
    row: list[tuple[int, int, list]], extents: list[tuple[float, float]], labelled: set[int],
    below: Sequence[Phrase], settings: LiteSettings,
) -> list[tuple[int, int, list]]:
    """A heading row with each heading centred over a group of value columns spanning that group.

    A level of headings above the column labels ("Level 1 Level 2 Level 3" over "2022 2021" pairs,
    "Three Months Ended Six Months Ended" over the years) prints each heading centred over the columns
    it heads: over the gutter in the middle of an even group, so a short one reaches over none of them
    far enough to span them by overlap. ``row`` holds ``(first, last, pieces)`` left to right, the
    pieces having x0, x1 and size; ``labelled`` are the columns that a heading of the rows below labels
    alone, and ``below`` the pieces of the next row of headings down. In a row of two or more headings
    over the values:

    * a heading whose centre falls in the gutter between two labelled columns (within
      ``align_tolerance`` em: a ruled grid's columns abut) spans the group it stands in the middle of:
      those two, and as many more on each side as the headings beside it leave free, while the group
      stays labelled and centred on it (within :data:`GROUP_SLACK` of its width);
    * one that stands over a column without being centred on it spans the widest group centred on it
      (within ``align_tolerance`` em): over an odd group it stands over the middle column;
    * one whose centre stands over a heading ``below`` it is that heading's first line ("Gross" over
      "Unrealized Losses"), not a group's, unless it reaches past the labelled column it is centred in
      on both sides ("Year Ended December 31," over the middle one of three years, between "2022 vs.
      2021" groups, whether read into that column alone or into the "$" columns beside it too).

    A "$" column and its amounts are one labelled column, not a group.
    """
    out = list(row)
    if sum(1 for first, _, _ in row if first > 0) < 2:
        return out  # a lone heading: widen_lone_headings
    names = {c: b.text for b in below for c in labelled if extents[c][0] <= (b.x0 + b.x1) / 2 <= extents[c][1]}
    for k, (first, last, pieces) in enumerate(row):
        lo, hi = min(p.x0 for p in pieces), max(p.x1 for p in pieces)
        centre = (lo + hi) / 2
        tol = settings.align_tolerance * max(p.size for p in pieces)
        # the labelled column the heading's centre stands in, when it reaches past it on both sides
        under = next((c for c in range(first, last + 1) if c in labelled and extents[c][0] <= centre <= extents[c][1]),
                     first if first == last else None)
        wider = under is not None and lo < extents[under][0] - tol and hi > extents[under][1] + tol
        if first == 0 or (not wider and any(b.x0 <= centre <= b.x1 for b in below)):
            continue
        floor = out[k - 1][1] + 1 if k > 0 else 1
        ceiling = row[k + 1][0] - 1 if k + 1 < len(row) else len(extents) - 1
        group = _centred_group(centre, tol, first, last, extents, labelled, floor, ceiling, wider, names)
        if group is not None:
            out[k] = (group[0], group[1], pieces)
    return out


def _centred_group(
    centre: float, tol: float, first: int, last: int, extents: list[tuple[float, float]], labelled: set[int],
    floor: int, ceiling: int, wider: bool = False, names: dict[int, str] | None = None,
) -> tuple[int, int] | None:
    """The group of columns a heading over columns ``first``..``last``, centred at ``centre``, is centred on
    within ``tol`` (see :func:`centre_over_groups`), within ``floor``..``ceiling``, or None. A heading
    ``wider`` than the one column it stands over, reaching past it on both sides, is no label of that
    column alone: centred on it, it heads the odd group around it. A group ends with a labelled column
    and holds no label of ``names`` (the labels under the columns) twice."""

    def labels(a: int, b: int) -> bool:
        return len(labelled.intersection(range(a, b + 1))) >= 2

    def distinct(a: int, b: int) -> bool:
        under = [names[c] for c in range(a, b + 1) if c in (names or {})]
        return len(set(under)) == len(under)

    def centred(a: int, b: int, slack: float) -> bool:
        lo, hi = extents[a][0], extents[b][1]
        return abs(centre - (lo + hi) / 2) <= max(tol, slack * (hi - lo))

    gutter = next((g for g in range(max(1, floor), min(ceiling, len(extents) - 1))
                   if extents[g][1] - tol <= centre <= extents[g + 1][0] + tol), None)
    if gutter is None:
        # over an odd group the heading stands over the middle column: only a centre that matches the
        # group's, and not that column's, tells it apart from the column's own label
        if not wider and any(abs(centre - (lo + hi) / 2) <= tol for lo, hi in extents[1:]):
            return None
        # a "$" column left of an amount column is that amount's; the years of the next group repeat
        groups = [(i, j) for i in range(floor, first + 1) for j in range(max(last, i + 1), ceiling + 1)
                  if centred(i, j, 0.0) and labels(i, j) and j in labelled and distinct(i, j)]
        return max(groups, key=lambda g: g[1] - g[0], default=None)
    i, j = min(gutter, first), max(gutter + 1, last)
    if i < floor or j > ceiling or not centred(i, j, GROUP_SLACK):
        return None
    while i - 1 >= floor and j + 1 <= ceiling and {i - 1, j + 1} <= labelled and centred(i - 1, j + 1, GROUP_SLACK):
        i, j = i - 1, j + 1
    return (i, j) if labels(i, j) else None


def join_heading_tails(rows: list[list[tuple[int, int, list]]], extents: list[tuple[float, float]],
                       settings: LiteSettings) -> list[list[tuple[int, int, list]]]:
    """Heading ``rows`` (placed, top down; ``extents``: the columns' extents) with the last line of a
    heading wrapped over two lines joined to it: a phrase alone under a heading that spans several
    columns and fills them (TAIL_FILL), centred under it a wrap's gap below ("Gain / (Loss) Recognized
    in Income for Derivatives Not Designated as Hedging" over "Instruments"), is that heading's tail,
    not a heading of the fewer columns it stands over; not when it labels a column of its own
    (:func:`_labels_column`), nor when its line labels value columns that no heading of the line above
    stands over ("2021  2020  2019" under "Year Ended December 31," over the middle year only). Rows left
    empty are dropped."""
    out = [list(row) for row in rows]
    for r in range(len(out) - 1):
        for k, (first, last, pieces) in enumerate(out[r]):
            if first == 0 or first == last:
                continue
            inside = [entry for entry in out[r + 1] if entry[0] <= last and entry[1] >= first]
            if len(inside) != 1 or len(inside[0][2]) != 1 or not first <= inside[0][0] <= inside[0][1] <= last:
                continue
            if not all(any(a <= e_last and e_first <= b for a, b, _ in out[r])
                       for e_first, e_last, _ in out[r + 1] if e_first > 0):
                continue  # the line below labels columns no heading of this line stands over: a level of its own
            tail = inside[0][2][0]
            size = max(p.size for p in pieces)
            upper = (min(p.x0 for p in pieces) + max(p.x1 for p in pieces)) / 2
            tol = settings.align_tolerance * size
            centre = (tail.x0 + tail.x1) / 2
            width = max(p.x1 for p in pieces) - min(p.x0 for p in pieces)
            if (
                width < TAIL_FILL * (extents[last][1] - extents[first][0])
                or abs(centre - upper) > tol
                or tail.top - max(p.bottom for p in pieces) > settings.wrap_gap * size
                or _labels_column(tail, inside[0], extents, tol)
            ):
                continue
            out[r][k] = (first, last, [*pieces, tail])
            out[r + 1].remove(inside[0])
    return [row for row in out if row]


def _labels_column(phrase: Phrase, placed: tuple[int, int, list], extents: list[tuple[float, float]], tol: float) -> bool:
    """True when ``phrase``, placed over columns ``placed`` (first, last, pieces), stands over one column
    of ``extents``, centred on it within ``tol`` and no wider than it: that column's label."""
    first, last, _ = placed
    lo, hi = extents[first]
    return (first == last and abs((phrase.x0 + phrase.x1 - lo - hi) / 2) <= tol
            and phrase.x0 >= lo - tol and phrase.x1 <= hi + tol)
