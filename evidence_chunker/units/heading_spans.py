"""Headings widened over the columns they head, in a table's derived grid (any parser's tables).

A parser reads a heading into the columns its words stand over; a group heading centred over its group
and a lone heading centred over the labels under it head more. Only the derived grid (texts and start
positions per position) changes; the cells, and the HTML made from them, stay as read.
"""

from __future__ import annotations

from docling_core.types.doc import TableCell

from ..parsing.lite.column_groups import label_groups, mostly_within

#: A heading alone in its header row spans the labelled columns under it whose printed labels it is
#: centred over, within this share of their width.
LONE_HEADING_SLACK = 0.2
#: A label of the lowest header row stands under a heading above only when it is level with the labels
#: of the heading's own columns: its middle within this share of their height. A label printed higher,
#: centred on the whole header block ("점포명", "소재지" beside "순매출액(억원)" over "2025년 2024년"), heads its
#: column alone.
LEVEL_LABEL_SLACK = 0.5


def span_group_levels(grid: list[list[str]], origin: list[list[tuple[int, int]]], header_rows: int,
                      first_value_col: int) -> None:
    """Widen each group heading over the group of value columns it heads, in place in the derived grid.

    The lowest header row's labels fall into groups where a label repeats ("2022 2021 | 2022 2021 2020";
    see :func:`.parsing.lite_column_groups.label_groups`). A header row above with as many headings over the
    value columns as there are groups (at least two), each standing mostly over its own, has every heading
    cover its whole group: "Capital Expenditures" printed over the middle of three years, or cut short of
    the first, names all three. Only the derived grid changes; the cells (and the HTML) stay as read."""
    if header_rows < 2 or first_value_col >= len(grid[0]):
        return
    lowest = header_rows - 1
    cols = list(range(first_value_col, len(grid[0])))
    labels = [grid[lowest][c] if origin[lowest][c] == (lowest, c) else "" for c in cols]
    groups = [[cols[k] for k in group] for group in label_groups(labels)]
    if len(groups) < 2:
        return
    for r in range(lowest):
        spans: dict[tuple[int, int], list[int]] = {}
        for c in cols:
            if grid[r][c]:
                spans.setdefault(origin[r][c], []).append(c)
        if len(spans) != len(groups) or any(start[0] != r for start in spans):
            continue
        heads = sorted(spans.items(), key=lambda item: item[1][0])
        if not all(mostly_within(columns, group, groups) for (_, columns), group in zip(heads, groups)):
            continue
        for (start, columns), group in zip(heads, groups):
            text = grid[r][columns[0]]
            for c in group:
                grid[r][c], origin[r][c] = text, start


def span_lone_headings(grid: list[list[str]], origin: list[list[tuple[int, int]]],
                       cells: list[list[TableCell | None]], header_rows: int, first_value_col: int) -> None:
    """Widen a heading that stands alone over the value columns of a header row to the labelled columns
    of the lowest header row it is centred over, in place in the derived grid.

    "Year Ended December 31, 2019" centred over four quarters is read into the two middle columns,
    "As of December 31," over two years into the second: by where it is printed it heads them all.
    Of the runs of the lowest row's labels that take in the heading's columns, the widest whose printed
    labels (cell boxes) the heading's box is centred on within LONE_HEADING_SLACK of their width; none
    without boxes. Only the derived grid changes."""
    if header_rows < 2 or first_value_col >= len(grid[0]):
        return
    lowest = header_rows - 1
    cols = range(first_value_col, len(grid[0]))
    labels = [c for c in cols if grid[lowest][c] and origin[lowest][c] == (lowest, c) and cells[lowest][c] is not None
              and cells[lowest][c].col_span == 1 and cells[lowest][c].bbox is not None]
    if len(labels) < 2:
        return
    for r in range(lowest):
        starts = {origin[r][c] for c in cols if grid[r][c]}
        if len(starts) != 1:
            continue
        start = next(iter(starts))
        heading = cells[start[0]][start[1]]
        own = [c for c in cols if origin[r][c] == start]
        if heading is None or heading.bbox is None or start[0] != r or start[1] < first_value_col:
            continue
        centre = (heading.bbox.l + heading.bbox.r) / 2
        level = _level_with(cells[lowest], labels, own)
        best = None
        for i in labels:
            for j in labels:
                if i > own[0] or j < own[-1] or (best and j - i <= best[1] - best[0]):
                    continue
                if not all(level[c] for c in labels if i <= c <= j):
                    continue
                if any(_headed_apart(grid, origin, r, lowest, c, own) for c in range(i, j + 1) if c not in own):
                    continue
                lo, hi = cells[lowest][i].bbox.l, cells[lowest][j].bbox.r
                if abs(centre - (lo + hi) / 2) <= LONE_HEADING_SLACK * (hi - lo):
                    best = (i, j)
        if best is None or (best[0] >= own[0] and best[1] <= own[-1]):
            continue
        for c in range(best[0], best[1] + 1):
            grid[r][c], origin[r][c] = grid[r][own[0]], start


def _headed_apart(grid: list[list[str]], origin: list[list[tuple[int, int]]], r: int, lowest: int, col: int, own: list[int]) -> bool:
    """True when column ``col`` has a heading of its own between header row ``r`` and the lowest one, one
    that reaches none of the ``own`` columns: a column headed by its own lines ("Location of Gain / (Loss)"
    over "Reclassified from AOCI" beside the period headings) is not under a lone heading above them."""
    return any(grid[k][col] and origin[k][col][0] == k and not any(origin[k][c] == origin[k][col] for c in own)
               for k in range(r + 1, lowest))


def _level_with(row: list[TableCell | None], labels: list[int], own: list[int]) -> dict[int, bool]:
    """Per labelled column, whether its label is level with the labels under the heading's own columns
    (LEVEL_LABEL_SLACK); every label is level when none stands under them."""
    def middle(c: int) -> float:
        box = row[c].bbox
        return (box.t + box.b) / 2

    under = [c for c in labels if own[0] <= c <= own[-1]]
    if not under:
        return dict.fromkeys(labels, True)
    reference = sum(middle(c) for c in under) / len(under)
    height = sum(abs(row[c].bbox.t - row[c].bbox.b) for c in under) / len(under)
    return {c: abs(middle(c) - reference) <= LEVEL_LABEL_SLACK * height for c in labels}
