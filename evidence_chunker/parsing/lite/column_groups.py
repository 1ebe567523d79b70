"""Group headings over repeated column labels: each heading spans one repetition of the labels under it.

Reports set measures side by side over the same periods ("Assets | Depreciation & Amortization | Capital
Expenditures" over "2022 2021 | 2022 2021 2020 | 2022 2021 2020"; "Pension Benefits | Other Benefits"
over "2020 2019 2018" twice; a quarter over "2018 2017" four times). Each group heading is printed
centred over its group, and over an odd group it stands over the middle column only, or a ruled cell
cuts it short of the group's first column (the "$" printed apart from the first amount): read by where
its words fall, the group's first column then has no heading at all ("2022: $ 512" instead of "Capital
Expenditures / 2022: $ 512"). The labels tell the groups apart better than the ink: a group ends where
a label of the row below repeats. When the headings of a row are as many as those groups, each over
its own group, every heading spans its whole group.

Headings nest: a heading over a heading that spans several columns heads all of them ("Change" over
"2022 vs. 2021", which spans the "$" and "%" columns), however narrowly its words stand over one.

In a ruled grid a heading centred over its column and columns beside it that have no heading of their
own heads them all (:func:`centre_ruled_headings`): Amcor prints each year over an amount and its
percent of sales, and the grid puts the year in the cell of the one its words' centre falls in.
"""

from __future__ import annotations

import re

from .found_tables import Cell, FoundTable
from .settings import LiteSettings

#: A footnote mark after a label ("2018 (1)", "2017*", "2016ᵃ"): the same label as without it.
_NOTE_MARK = re.compile(r"(?:\s*(?:\(\w{1,2}\)|\*+|[⁽⁾⁰¹²³⁴⁵⁶⁷⁸⁹ᵃᵇᶜᵈ]+))+$")


def label_groups(labels: list[str]) -> list[list[int]]:
    """Runs of column positions, a new run starting where a label already seen in the current run comes
    again (an empty label stays in the run it follows; a footnote mark does not tell labels apart):
    ["2022", "2021", "2022", "2021", "2020"] gives [[0, 1], [2, 3, 4]]."""
    groups: list[list[int]] = []
    seen: set[str] = set()
    for k, label in enumerate(labels):
        key = " ".join(_NOTE_MARK.sub("", label).split()).casefold()
        if not groups or (key and key in seen):
            groups.append([])
            seen = set()
        groups[-1].append(k)
        if key:
            seen.add(key)
    return groups


def mostly_within(columns, group: list[int], groups: list[list[int]]) -> bool:
    """True when more of ``columns`` (a heading's) lie in ``group`` than in any other of ``groups``: a
    heading whose words reach a column into the next group still heads its own."""
    inside = [sum(1 for c in columns if c in g) for g in groups]
    own = inside[groups.index(group)]
    return own > 0 and all(own > n for g, n in zip(groups, inside) if g is not group)


def span_group_headings(table: FoundTable) -> FoundTable:
    """``table`` with each group heading widened (or narrowed) to the group of value columns it heads
    (see the module docstring). A heading row is changed only when its value-column headings are as many
    as the groups of the lowest heading row's labels (at least two, a label repeating), each heading
    stands mostly over its own group (:func:`mostly_within`) and no cell of the row spans rows; its texts
    and the other rows stay as they are."""
    header_rows = sorted({c.row for c in table.cells if c.column_header})
    if len(header_rows) >= 2:
        for row in reversed(header_rows[:-1]):
            _span_over_wider(table, row)
    if len(header_rows) < 2 or table.n_cols < 4:
        return table
    lowest = header_rows[-1]
    labels = []
    for col in range(1, table.n_cols):
        over = [c for c in table.cells if c.row <= lowest < c.end_row and c.col <= col < c.end_col]
        labels.append(over[0].text if len(over) == 1 and over[0].col_span == 1 and over[0].row == lowest else "")
    groups = [[1 + k for k in group] for group in label_groups(labels)]
    if len(groups) < 2 or not any(labels):
        return table
    for row in header_rows[:-1]:
        _span_row(table, row, groups)
    return table


def _span_over_wider(table: FoundTable, row: int) -> None:
    """Widen each heading of header row ``row`` standing over part of a wider heading of the row below
    to that heading's columns, where the cells it takes over are empty and span no rows."""
    cells = sorted((c for c in table.cells if c.row == row and c.row_span == 1), key=lambda c: c.col)
    under = [c for c in table.cells if c.row <= row + 1 < c.end_row and c.column_header and c.text.strip()
             and c.col_span > 1]
    drop: set[int] = set()
    for heading in cells:
        if not heading.text.strip() or heading.col < 1:
            continue
        wider = next((u for u in under if u.col <= heading.col and heading.end_col <= u.end_col
                      and u.col_span > heading.col_span), None)
        if wider is None:
            continue
        taken = [c for c in table.cells if c is not heading and c.end_row > row >= c.row
                 and c.col < wider.end_col and c.end_col > wider.col]
        if any(c.text.strip() or c.row_span > 1 or c.col < wider.col or c.end_col > wider.end_col for c in taken):
            continue
        drop.update(id(c) for c in taken)
        heading.x0, heading.x1 = min(heading.x0, wider.x0), max(heading.x1, wider.x1)
        heading.col, heading.col_span = wider.col, wider.col_span
    if drop:
        table.cells = [c for c in table.cells if id(c) not in drop]


def _span_row(table: FoundTable, row: int, groups: list[list[int]]) -> None:
    """Set the value-column cells of heading row ``row`` to one cell per group when its headings match the
    groups one to one."""
    cells = [c for c in table.cells if c.row <= row < c.end_row]
    if any(c.row_span > 1 for c in cells):
        return
    values = sorted((c for c in cells if c.end_col > 1), key=lambda c: c.col)
    headings = [c for c in values if c.text.strip()]
    if len(headings) != len(groups) or any(c.col < 1 for c in values):
        return
    for heading, group in zip(headings, groups):
        if not mostly_within(range(heading.col, heading.end_col), group, groups):
            return  # a heading over another group: the groups are not what the headings head
    if all(h.col == g[0] and h.end_col == g[-1] + 1 for h, g in zip(headings, groups)):
        return
    drop = {id(c) for c in values}
    kept = [c for c in table.cells if id(c) not in drop]
    for heading, group in zip(headings, groups):
        covered = [c for c in values if c.col <= group[-1] and c.end_col > group[0]] or [heading]
        kept.append(Cell(
            row=row, col=group[0], row_span=1, col_span=len(group),
            x0=min(c.x0 for c in covered), top=heading.top, x1=max(c.x1 for c in covered), bottom=heading.bottom,
            text=heading.text, bold=heading.bold, font=heading.font, column_header=True,
        ))
    table.cells = sorted(kept, key=lambda c: (c.row, c.col))


def centre_ruled_headings(table: FoundTable, settings: LiteSettings) -> FoundTable:
    """``table`` with each heading of a ruled grid's header rows widened over the empty heading cells
    beside it (of one row and column each, up to the next heading) when its printed words are centred
    (within ``align_tolerance`` em) over those columns and its own together, and not over its own
    columns alone: the widest such run."""
    if table.kind != "ruled":
        return table
    for heading in [c for c in table.cells if c.column_header and c.ink and c.text.strip() and c.col > 0]:
        row = {c.col: c for c in table.cells if c.row == heading.row and c.row_span == 1 and c.col_span == 1
               and c.column_header and not c.text.strip() and c.col > 0}
        lo, hi, size = heading.ink
        centre, tol = (lo + hi) / 2, settings.align_tolerance * size
        if abs(centre - (heading.x0 + heading.x1) / 2) <= tol:
            continue
        left = [heading.col]
        while left[-1] - 1 in row:
            left.append(left[-1] - 1)
        right = [heading.end_col - 1]
        while right[-1] + 1 in row:
            right.append(right[-1] + 1)
        runs = [(a, b) for a in left for b in right
                if abs(centre - ((row[a].x0 if a in row else heading.x0) + (row[b].x1 if b in row else heading.x1)) / 2) <= tol]
        if not runs:
            continue
        first, last = max(runs, key=lambda run: run[1] - run[0])
        taken = [row[k] for k in range(first, last + 1) if k in row]
        heading.x0, heading.x1 = min(heading.x0, *(c.x0 for c in taken)), max(heading.x1, *(c.x1 for c in taken))
        heading.col, heading.col_span = first, last - first + 1
        table.cells = [c for c in table.cells if all(c is not t for t in taken)]
    return table
