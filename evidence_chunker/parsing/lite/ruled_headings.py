"""Column headings printed above a ruled grid, as lines or as a grid of their own.

EDGAR draws the rules (or cell fills) of a statement's body only and prints its column headings, the
years ("2023 2022 2021") or the period ("Year ended December 31,"), as plain lines just above them. Read
as a grid alone, every row came out without the year its amounts belong to ("Net sales | $ 14,694;
$ 14,544"), and the heading line stood apart as a text item. :func:`take_headings_above` makes those lines
the grid's header rows, each heading over the columns it stands above, with the same tests the
borderless finder applies to the lines above its tables (:func:`.lite_headings.header_lines_above`).
Where the headings are drawn as a ruled grid of their own right above the body, ruled or printed as
aligned lines (JPMorgan's shaded heading cells over unruled rows), :func:`stack_heading_grids` makes that
grid's rows the body's header rows the same way, and :func:`runs_between_grids` keeps the lines above such
a grid from being read as one table with the lines below it. A section label printed between the
headings and the body ("Revenue", "Card Member loans") becomes the body's first row. Aligned rows that
continue a ruled grid with the same columns (Corning's shaded bands under a ruled first row) join it
(:func:`join_continuations`).
Geometry is in PDF points, top-down, as in :mod:`.lite_text`.
"""

from __future__ import annotations

from typing import Sequence

from semantic_json.rules.patterns import is_quantity
from .heading_groups import centre_over_groups, join_heading_tails
from .headings import (
    Reach, column_span, header_lines_above, split_heading_line, unit_label, widen_lone_headings,
)
from .settings import LiteSettings
from .table_headers import mark_headers
from .found_tables import Cell, FoundTable
from .text import Line, Phrase, Word

#: Half the width (points) of the gutter given for a drawn column boundary.
_RULE_GUTTER = 0.5
#: A line above a grid may reach this many points below the grid's top rule (its descenders).
_TOP_SLACK = 1.0
#: A grid of headings stands at most this many points above the body grid it heads, and within its
#: sides but for this many points.
HEADING_GRID_GAP = 6.0
#: A grid of headings has at most this many rows.
HEADING_GRID_MAX_ROWS = 4
#: Aligned rows continue a ruled grid that ends at most this many of their row heights above them.
CONTINUATION_ROWS = 1.5
#: At most this many label lines ("Revenue") stand between a grid of headings and the aligned rows it heads.
HEADING_GRID_MAX_LABELS = 2


def _column_geometry(table: FoundTable) -> tuple[list[float], list[tuple[float, float]]] | None:
    """The grid's column boundaries and each column's extent, from its one-column cells; None when a
    column has no cell of its own to measure."""
    extents: list[tuple[float, float] | None] = [None] * table.n_cols
    for c in table.cells:
        if c.col_span == 1:
            lo, hi = extents[c.col] or (c.x0, c.x1)
            extents[c.col] = (min(lo, c.x0), max(hi, c.x1))
    if any(e is None for e in extents):
        return None
    measured = [e for e in extents if e is not None]
    bounds = [measured[0][0]] + [(a[1] + b[0]) / 2 for a, b in zip(measured, measured[1:])] + [measured[-1][1]]
    return bounds, measured


def _lines_above(table: FoundTable, lines: Sequence[Line]) -> list[Line]:
    """The lines that end above the table's top and reach into its width, top to bottom."""
    return sorted((ln for ln in lines if ln.bottom <= table.top + _TOP_SLACK and ln.x1 > table.x0 and ln.x0 < table.x1),
                  key=lambda ln: ln.top)


def _heading_row(pieces: Sequence[Phrase | Cell], bounds: list[float],
                 extents: list[tuple[float, float]]) -> list[tuple[int, int, list]]:
    """Headings of one row (a line's phrases, or a heading grid's cells, left to right) placed over the
    columns their boxes stand above, as (first, last, pieces); pieces whose columns overlap share one
    heading cell."""
    placed: list[tuple[int, int, list]] = []
    for piece in pieces:
        lo, hi = column_span(Reach(piece.x0, piece.x1), bounds, extents)
        if placed and lo <= placed[-1][1]:
            first, last, members = placed[-1]
            placed[-1] = (first, max(last, hi), members + [piece])
        else:
            placed.append((lo, hi, [piece]))
    return placed


def _insert_heading_rows(table: FoundTable, rows: list[list[tuple[int, int, list]]], bounds: list[float]) -> None:
    """Put ``rows`` of placed headings ((first, last, pieces) with pieces that have text, top, bottom,
    bold and font) above the table's rows as header cells; columns no heading covers get empty ones."""
    taken = len(rows)
    for cell in table.cells:
        cell.row += taken
    for r, row in enumerate(rows):
        covered: set[int] = set()
        for first, last, pieces in row:
            table.cells.append(Cell(
                row=r, col=first, row_span=1, col_span=last - first + 1, x0=bounds[first], top=min(p.top for p in pieces),
                x1=bounds[last + 1], bottom=max(p.bottom for p in pieces), text=" ".join(p.text for p in pieces),
                bold=all(p.bold for p in pieces), font=pieces[0].font, column_header=True, ink=_ink(pieces),
            ))
            covered.update(range(first, last + 1))
        row_top = min(p.top for _, _, pieces in row for p in pieces)
        row_bottom = max(p.bottom for _, _, pieces in row for p in pieces)
        for k in range(table.n_cols):
            if k not in covered:
                table.cells.append(Cell(row=r, col=k, row_span=1, col_span=1, x0=bounds[k], top=row_top,
                                        x1=bounds[k + 1], bottom=row_bottom, text="", column_header=True))
    table.cells.sort(key=lambda c: (c.row, c.col))
    table.n_rows += taken


def _ink(pieces: Sequence[Phrase | Cell]) -> tuple[float, float, float] | None:
    """Where ``pieces`` (a line's phrases, or a heading grid's cells) print their text: (x0, x1, size)."""
    inks = [p.ink if isinstance(p, Cell) else (p.x0, p.x1, p.size) for p in pieces]
    if any(ink is None for ink in inks):
        return None
    return min(i[0] for i in inks), max(i[1] for i in inks), max(i[2] for i in inks)


def repeats_labels(table: FoundTable) -> bool:
    """True when two value columns of ``table`` read the same through its header rows from different
    heading cells ("2022 2021 2022 2021" under "Level 1" and "Level 2" printed outside the grid): the
    header lacks the level that tells those columns apart."""
    paths: dict[tuple[str, ...], int] = {}
    for col in range(1, table.n_cols):
        heads = sorted((c for c in table.cells if c.column_header and c.text and c.col <= col < c.end_col),
                       key=lambda c: c.row)
        if not heads:
            continue
        path = tuple(c.text for c in heads)
        leaf = id(heads[-1])
        if paths.setdefault(path, leaf) != leaf:
            return True
    return False


def tells_columns_apart(table: FoundTable) -> bool:
    """True when a header row of ``table`` labels some of its value columns and not others: a grid whose
    only heading cells span every value column ("(in thousands, except per share data)", "(unaudited)" in
    a shaded band) has no column headings yet, and the quarters printed above it are its own."""
    heads = [c for c in table.cells if c.column_header and c.text.strip() and c.end_col > 1]
    if not heads:
        return False
    return table.n_cols <= 2 or any(c.col > 1 or c.end_col < table.n_cols for c in heads)


def take_headings_above(table: FoundTable, lines: Sequence[Line], settings: LiteSettings) -> list[Line]:
    """Make the heading lines just above a ruled ``table`` its (upper) header rows: the grid has no
    header row that tells its value columns apart (:func:`tells_columns_apart`), or its header rows label
    two value columns alike (:func:`repeats_labels`).

    The lines (text outside every table, grouped into lines) are read upwards from the grid's top as the
    borderless finder reads them, and taken from the grid up while each has a heading over a value
    column (a line over the label column alone, a title, ends them). The table grows upwards over them.
    Returns the lines taken (empty when none is).
    """
    if table.kind != "ruled" or table.n_cols < 2:
        return []
    if tells_columns_apart(table) and not repeats_labels(table):
        return []
    geometry = _column_geometry(table)
    above = _lines_above(table, lines)
    if geometry is None or not above:
        return []
    bounds, extents = geometry
    if _join_corner_heading(table, above[-1], bounds, settings):
        above = above[:-1]
        if not above:
            return []
    size = above[-1].size
    # the grid's top edge stands for its first row: the headings are read upwards from it
    top_edge = Line([Phrase([Word("", table.x0, table.top, table.x1, table.top + size, size, False, "")])])
    gutters = [(b - _RULE_GUTTER, b + _RULE_GUTTER) for b in bounds[1:-1]]
    headings = header_lines_above([*above, top_edge], len(above), table.x0, table.x1, gutters, settings,
                                  bounds=bounds, extents=extents)
    rows = [_heading_row(split_heading_line(line, bounds, extents, settings).phrases, bounds, extents)
            for line in headings]
    # each line's headings over the columns the lines below it (and the grid's own header rows) label
    labelled = {cell.col for cell in table.cells
                if cell.column_header and cell.text and cell.col > 0 and cell.col_span == 1}
    for r in range(len(rows) - 1, -1, -1):
        row = rows[r]
        below = [p for _, _, pieces in rows[r + 1] for p in pieces] if r + 1 < len(rows) else []
        rows[r] = centre_over_groups(row, extents, labelled, below, settings)
        labelled |= {first for first, last, _ in row if 0 < first == last}
    # right above the grid, up to HEADING_GRID_MAX_LABELS section labels ("Card Member loans") the
    # grid's rows open with; above them, lines with a heading over a value column, where a line over the
    # label column alone (the table's title, the tail of a paragraph) ends them
    end = len(rows)
    while end > max(0, len(rows) - HEADING_GRID_MAX_LABELS) and all(first == 0 for first, _, _ in rows[end - 1]) \
            and not unit_label(headings[end - 1], gutters):
        end -= 1
    # a unit alone over the label column ("(In millions)") under the headings is the label column's heading
    units = end
    while units > 0 and unit_label(headings[units - 1], gutters):
        units -= 1
    keep = units
    while keep > 0 and any(first > 0 for first, _, _ in rows[keep - 1]):
        keep -= 1
    if keep == units:
        return []
    labels, headings, rows = headings[end:], headings[keep:], rows[keep:end]
    _insert_label_rows(table, _unwrapped(labels), bounds)
    # a lone heading ("Year ended December 31,") spans the columns it is centred over, as above borderless tables
    rows = join_heading_tails(rows, extents, settings)
    placed = [{first: (last, phrases) for first, last, phrases in row} for row in rows]
    widen_lone_headings(placed, len(placed), extents, settings)
    rows = [[(first, last, phrases) for first, (last, phrases) in sorted(row.items())] for row in placed]
    _insert_heading_rows(table, rows, bounds)
    table.top = min(table.top, min(line.top for line in headings))
    return [*headings, *labels]


def _join_corner_heading(table: FoundTable, line: Line, bounds: list[float], settings: LiteSettings) -> bool:
    """Join ``line``, right above the grid, to the label column's heading in the grid's first row when it
    is that heading's first line: over the label column alone, set flush with it and a wrap's gap above
    ("In millions, except percentages and basis" over "points ("bps")"). Read as a line above the grid,
    it ended the headings there as a title, and the period and "Change" headings above it were lost.
    True when joined (the table grows over the line)."""
    corner = next((c for c in table.cells if c.row == 0 and c.col == 0 and c.column_header and c.text.strip()), None)
    if (
        corner is None
        or len(line.phrases) != 1
        or line.x1 > bounds[1]
        or abs(line.x0 - corner.x0) > line.size
        or corner.top - line.bottom > settings.wrap_gap * line.size
    ):
        return False
    corner.text = f"{line.text} {corner.text}"
    corner.top = table.top = min(corner.top, line.top)
    return True


def is_heading_grid(table: FoundTable) -> bool:
    """True when ``table`` is a ruled grid that can only be headings: a few rows, no figure but years.
    Such a grid heads the body below it; it has no value column for lines above it to head."""
    return (
        table.kind == "ruled"
        and table.n_rows <= HEADING_GRID_MAX_ROWS
        and not any(is_quantity(c.text) for c in table.cells)
    )


def runs_between_grids(lines: Sequence[Line], tables: Sequence[FoundTable]) -> list[list[Line]]:
    """``lines`` (top to bottom) cut where a ruled grid reaching into their width stands between two of
    them: the rows above a grid and those below it are not one borderless table (a grid of headings
    heads the rows under it, not those over it)."""
    runs: list[list[Line]] = [[]]
    for prev, line in zip([None, *lines], lines):
        if prev is not None and any(
            t.kind == "ruled"
            and prev.bottom <= t.top + _TOP_SLACK
            and t.bottom <= line.top + _TOP_SLACK
            and t.x0 < max(prev.x1, line.x1)
            and t.x1 > min(prev.x0, line.x0)
            for t in tables
        ):
            runs.append([])
        runs[-1].append(line)
    return [run for run in runs if run]


def _heads(upper: FoundTable, lower: FoundTable, lines: Sequence[Line]) -> list[Line] | None:
    """The label lines between ``upper`` and ``lower`` when ``upper`` is a grid of headings
    (:func:`is_heading_grid`) standing right above ``lower`` within its sides, and ``lower`` a body without
    header rows: a ruled grid, or the aligned rows a report prints under heading cells it draws as a grid
    (JPMorgan's statements). Between the two may stand up to ``HEADING_GRID_MAX_LABELS`` lines (of
    ``lines``, the text outside every table) that are a label alone in the label column ("Revenue"), the
    section the aligned rows open with. None when ``upper`` does not head ``lower``."""
    if not (
        is_heading_grid(upper)
        and lower.kind in ("ruled", "aligned")
        and upper.x0 >= lower.x0 - HEADING_GRID_GAP
        and upper.x1 <= lower.x1 + HEADING_GRID_GAP
        and any(is_quantity(c.text) for c in lower.cells)
        and not any(c.column_header for c in lower.cells)
    ):
        return None
    values_from = min((c.x0 for c in lower.cells if c.col > 0 and c.text), default=lower.x1)
    # a line between the two by its middle: the first line of a label the rows' first row wraps ("Federal
    # funds sold and securities purchased" over "under resale agreements | $ (145)") may reach into that row
    # of a line, only what stands within the body's sides: on a page set in two columns the text beside the
    # table shares the label's baseline ("Selected income statement data" | "• The provision for ...")
    within = (_within(ln, lower.x0, lower.x1) for ln in lines)
    between = sorted((ln for ln in within if ln is not None
                      and upper.bottom - _TOP_SLACK <= (ln.top + ln.bottom) / 2 <= lower.top + _TOP_SLACK),
                     key=lambda ln: ln.top)
    if (lower.kind != "aligned" and between) or len(between) > HEADING_GRID_MAX_LABELS:
        return None
    if any(len(ln.phrases) > 1 or ln.x1 > values_from or is_quantity(ln.text) for ln in between):
        return None
    # the rows below the grid, with no wider space than HEADING_GRID_GAP from the grid over the labels to
    # them (a label wrapped over two lines, "Basic earnings per / share", has its lines overlap by their
    # descenders)
    if lower.top < upper.bottom - _TOP_SLACK:
        return None
    tops, bottoms = [*(ln.top for ln in between), lower.top], [upper.bottom, *(ln.bottom for ln in between)]
    if any(top - bottom > HEADING_GRID_GAP for top, bottom in zip(tops, bottoms)):
        return None
    return between


def _within(line: Line, x0: float, x1: float) -> Line | None:
    """The phrases of ``line`` that overlap ``x0``..``x1`` (points), as a line; None when there are none."""
    phrases = [p for p in line.phrases if p.x1 > x0 and p.x0 < x1]
    if len(phrases) == len(line.phrases):
        return line
    return Line(phrases) if phrases else None


def _insert_label_rows(table: FoundTable, labels: Sequence[Line], bounds: list[float]) -> None:
    """Put ``labels`` (lines of one label each, see :func:`_unwrapped`) above the table's rows as section
    rows: the label in the first column, the other columns empty."""
    for cell in table.cells:
        cell.row += len(labels)
    labelled = any(c.row_header for c in table.cells)
    for r, line in enumerate(labels):
        table.cells.append(Cell(row=r, col=0, row_span=1, col_span=1, x0=line.x0, top=line.top, x1=bounds[1],
                                bottom=line.bottom, text=line.text, bold=line.bold, font=line.phrases[0].font,
                                row_header=labelled, row_section=labelled))
        table.cells.extend(Cell(row=r, col=k, row_span=1, col_span=1, x0=bounds[k], top=line.top, x1=bounds[k + 1],
                                bottom=line.bottom, text="") for k in range(1, table.n_cols))
    table.cells.sort(key=lambda c: (c.row, c.col))
    table.n_rows += len(labels)


def _unwrapped(labels: Sequence[Line]) -> list[Line]:
    """``labels`` with each line that opens in lower case joined to the line above it: a label wrapped over
    two lines ("Basic earnings per" / "share") is one label."""
    out: list[Line] = []
    for line in labels:
        if out and line.text[:1].islower():
            out[-1] = Line([*out[-1].phrases, *line.phrases])
        else:
            out.append(line)
    return out


def _open_first_row(table: FoundTable, labels: list[Line]) -> list[Line]:
    """``labels`` without the last one when the table's first row continues it: a label wrapped over the
    first row ("Federal funds sold and securities purchased" / "under resale agreements | $ (145)", the
    row's label in lower case) opens that row's label."""
    first = next((c for c in table.cells if c.row == 0 and c.col == 0), None)
    if not labels or first is None or not first.text[:1].islower():
        return labels
    label = labels[-1]
    first.text = f"{label.text} {first.text}"
    first.x0, first.top = min(first.x0, label.x0), min(first.top, label.top)
    return labels[:-1]


def stack_heading_grids(tables: list[FoundTable], lines: Sequence[Line] = ()) -> list[FoundTable]:
    """The tables with each ruled grid of headings merged, as header rows, into the body right below it
    (see :func:`_heads`; ``lines``: the text lines outside every table); a heading cell goes over the body
    columns its box covers, and label lines between the two become the body's first rows."""
    out: list[FoundTable] = []
    merged: set[int] = set()
    for upper in tables:
        lower, labels = next(((t, found) for t in tables if t is not upper and id(t) not in merged
                              and (found := _heads(upper, t, lines)) is not None), (None, []))
        geometry = _column_geometry(lower) if lower is not None else None
        if lower is None or geometry is None:
            out.append(upper)
            continue
        bounds, extents = geometry
        rows = [_heading_row(sorted((c for c in upper.cells if c.row == r and c.text), key=lambda c: c.x0),
                             bounds, extents) for r in range(upper.n_rows)]
        rows = [row for row in rows if row]
        if not any(first > 0 for row in rows for first, _, _ in row):
            out.append(upper)
            continue
        _insert_label_rows(lower, _open_first_row(lower, _unwrapped(labels)), bounds)
        _insert_heading_rows(lower, rows, bounds)
        lower.top = min(lower.top, upper.top)
        merged.add(id(upper))
    return [t for t in out if id(t) not in merged]


def _continues(upper: FoundTable, lower: FoundTable) -> bool:
    """True when ``lower`` is the rest of ``upper``'s body: a ruled grid with figures right above aligned
    rows without a header that have as many columns, each under the grid's column."""
    if not (upper.kind == "ruled" and lower.kind == "aligned" and upper.n_cols == lower.n_cols >= 2
            and not any(c.column_header for c in lower.cells)
            and any(is_quantity(c.text) for c in upper.cells if not c.column_header)
            and any(is_quantity(c.text) for c in lower.cells)):
        return False
    row_height = (lower.bottom - lower.top) / max(1, lower.n_rows)
    if not -_TOP_SLACK <= lower.top - upper.bottom <= CONTINUATION_ROWS * row_height:
        return False
    above, below = _column_geometry(upper), _column_geometry(lower)
    if above is None or below is None:
        return False
    return all(min(a[1], b[1]) > max(a[0], b[0]) for a, b in zip(above[1], below[1]))


def join_continuations(tables: list[FoundTable], settings: LiteSettings) -> list[FoundTable]:
    """The tables with the aligned rows that continue a ruled grid (:func:`_continues`) added to it as
    body rows: reports rule a statement's headings and first rows and print the rest in shaded bands
    (Corning), and read apart, those rows had no column headings. A grid too short to tell its heading
    rows from its first rows has them marked again once joined."""
    joined: set[int] = set()
    for upper in tables:
        if id(upper) in joined:
            continue
        while (lower := next((t for t in tables if id(t) not in joined and t is not upper and _continues(upper, t)),
                             None)) is not None:
            for cell in lower.cells:
                cell.row += upper.n_rows
            upper.cells.extend(lower.cells)
            upper.n_rows += lower.n_rows
            upper.bottom = max(upper.bottom, lower.bottom)
            joined.add(id(lower))
            if not any(c.column_header for c in upper.cells):
                mark_headers(upper, set(), settings)
    return [t for t in tables if id(t) not in joined]

