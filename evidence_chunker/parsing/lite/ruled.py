"""Ruled tables for the lite parser: grids from the intersections of horizontal and vertical rules,
refined by the text inside them (rows drawn only around groups of rows, slivers between double rules)."""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Sequence

from semantic_json.rules.patterns import is_quantity
from .bands import join_bands, open_boundaries
from .headings import WORD_SPACE_MARGIN
from .settings import LiteSettings
from .table_headers import mark_headers
from .found_tables import (
    Cell,
    Edge,
    FoundTable,
    bound_index,
    cluster_values,
    edge_components,
    main_font,
    mostly_bold,
    rule_share,
)
from .text import Word, join_lines


#: A text column boundary inside a ruled cell needs words on each side in this share of the body lines.
_COLUMN_SIDES_SHARE = 0.5
#: Tables of shaded bands (EDGAR statements) draw their column edges only on every other row, the
#: shaded one. A drawn column boundary is banded when it is drawn on between these shares of the rows...
_BANDED_ROWS_SHARE = (0.3, 0.7)
#: ...and changes from drawn to not drawn (or back) between at least this share of neighbouring rows.
_BANDED_ALTERNATION = 0.6
#: A grid needs this many rows to be told apart as banded.
_BANDED_MIN_ROWS = 4


def find_ruled_tables(
    hs: list[Edge],
    vs: list[Edge],
    words: Sequence[Word],
    figures: Sequence[tuple],
    page_width: float,
    settings: LiteSettings,
) -> list[FoundTable]:
    """Tables drawn with rules: each connected group of rules becomes a grid whose cells hold words.

    Boundaries missing from the drawing become spans; inside a ruled cell, text that is itself
    aligned in rows and columns (rules drawn only around groups) is split further. Lone boxes,
    shaded bands, nested frames, diagrams and page-wide design bands are skipped: the aligned-text
    finder may still read their text as a table.
    """
    tol = settings.snap_tolerance
    found = [(comp, _component_table(comp, words, figures, page_width, settings))
             for comp in edge_components(hs, vs, tol)]
    tables = []
    # grids of shaded bands a white row cut apart are one table, when read whole they still make one
    for group in join_bands([(comp, table) for comp, table in found if table is not None], words, tol):
        joined = None
        if len(group) > 1:
            joined = _component_table(([h for (hs_, _), _ in group for h in hs_], [v for (_, vs_), _ in group for v in vs_]),
                                      words, figures, page_width, settings)
        tables.extend([joined] if joined is not None else [table for _, table in group])
    return tables


def _component_table(comp: tuple[list[Edge], list[Edge]], words: Sequence[Word], figures: Sequence[tuple],
                     page_width: float, settings: LiteSettings) -> FoundTable | None:
    """The table one connected group of rules (horizontal, vertical) draws, or None (see
    :func:`find_ruled_tables` for what is skipped)."""
    comp_h, comp_v = comp
    tol = settings.snap_tolerance
    xs = cluster_values([v.x0 for v in comp_v] + [min(h.x0 for h in comp_h), max(h.x1 for h in comp_h)], tol)
    ys = cluster_values([h.top for h in comp_h] + [min(v.top for v in comp_v), max(v.bottom for v in comp_v)], tol)
    xs, ys = _drop_slivers(xs, settings.min_cell), _drop_slivers(ys, settings.min_cell)
    if len(xs) < 3 or len(ys) < 3:
        return None
    box = (xs[0], ys[0], xs[-1], ys[-1])
    if (
        box[2] - box[0] >= settings.page_wide * page_width
        or _diagram(box, figures, settings)
        or not _ruled_enough(xs, ys, comp_h, comp_v, settings)
    ):
        return None
    inside = [w for w in words if box[0] <= (w.x0 + w.x1) / 2 <= box[2] and box[1] <= (w.top + w.bottom) / 2 <= box[3]]
    if not inside:
        return None
    grid = _refine_grid(_Grid(xs, ys, comp_h, comp_v, settings), inside, settings)
    if grid.banded():
        return None
    cells = _grid_cells(grid, inside)
    filled = sum(1 for c in cells if c.text)
    if filled < 2 or filled < settings.min_fill * len(cells):
        return None
    table = _trim(FoundTable(box[0], box[1], box[2], box[3], len(grid.ys) - 1, len(grid.xs) - 1, cells, "ruled"))
    if table is None or table.n_rows < 2 or table.n_cols < 2:
        return None
    # rows the text cut out of one drawn row (a heading wrapped over its lines) head as one row
    continued = {c.row for c in table.cells if c.row > 0 and c.top in grid.soft_y}
    mark_headers(table, rule_rows=set(), settings=settings, continued_rows=continued)
    return table


@dataclass
class _Grid:
    """Column and row boundaries of a ruled table; text-derived ("soft") boundaries always separate,
    drawn ones where rules cover them."""

    xs: list[float]
    ys: list[float]
    hs: list[Edge]
    vs: list[Edge]
    settings: LiteSettings
    soft_x: set[float] = field(default_factory=set)
    soft_y: set[float] = field(default_factory=set)
    #: Drawn column boundaries of shaded bands (see _BANDED_ROWS_SHARE), found by :meth:`find_bands`.
    banded_x: set[float] = field(default_factory=set)
    #: (row, x) where a row of figures lacks a boundary drawn above and below it (:func:`.bands.open_boundaries`).
    open_x: set[tuple[int, float]] = field(default_factory=set)

    def find_bands(self) -> None:
        """Mark the drawn column boundaries that alternate with the rows (see _BANDED_ROWS_SHARE)."""
        tol, coverage = self.settings.snap_tolerance, self.settings.rule_coverage
        rows = len(self.ys) - 1
        if rows < _BANDED_MIN_ROWS:
            return
        low, high = _BANDED_ROWS_SHARE
        for x in self.xs[1:-1]:
            if x in self.soft_x:
                continue
            drawn = [
                rule_share(self.vs, x, self.ys[r], self.ys[r + 1], False, tol) >= coverage for r in range(rows)
            ]
            changes = sum(1 for a, b in zip(drawn, drawn[1:]) if a != b)
            if low * rows <= sum(drawn) <= high * rows and changes >= _BANDED_ALTERNATION * (rows - 1):
                self.banded_x.add(x)

    def banded(self) -> bool:
        """True for a table of shaded bands: most drawn column boundaries are drawn on some rows only
        (the shaded ones). Its text is laid out in aligned columns, which the aligned-text finder reads
        with its headings and currency signs; the grid of its bands would cut it wrongly."""
        drawn = [x for x in self.xs[1:-1] if x not in self.soft_x]
        return len(self.banded_x) >= 2 and 2 * len(self.banded_x) >= len(drawn)

    def v_sep(self, row: int, col: int) -> bool:
        """True when a boundary separates column ``col`` from the one left of it in ``row``."""
        x = self.xs[col]
        if x in self.soft_x or x in self.banded_x or (row, x) in self.open_x:
            return True
        tol = self.settings.snap_tolerance
        return rule_share(self.vs, x, self.ys[row], self.ys[row + 1], False, tol) >= self.settings.rule_coverage

    def h_sep(self, row: int, col: int) -> bool:
        """True when a boundary separates row ``row`` from the one above it in ``col``."""
        y = self.ys[row]
        if y in self.soft_y:
            return True
        tol = self.settings.snap_tolerance
        return rule_share(self.hs, y, self.xs[col], self.xs[col + 1], True, tol) >= self.settings.rule_coverage


def _drop_slivers(bounds: list[float], min_size: float) -> list[float]:
    """Boundaries with those closer than ``min_size`` to the previous one removed (double rules, the
    edge of a background fill just inside a frame); the outermost boundaries are kept."""
    if len(bounds) <= 2:
        return bounds
    kept = [bounds[0]]
    for b in bounds[1:-1]:
        if b - kept[-1] >= min_size:
            kept.append(b)
    if bounds[-1] - kept[-1] < min_size and len(kept) > 1:
        kept.pop()
    kept.append(bounds[-1])
    return kept


def _diagram(box: tuple, figures: Sequence[tuple], settings: LiteSettings) -> bool:
    """True when several sizeable pieces of slanted or curved artwork (arrows, connectors) lie inside."""
    x0, top, x1, bottom = box
    reach = settings.diagram_piece * (x1 - x0)
    pieces = sum(
        1 for f in figures
        if x0 <= (f[0] + f[2]) / 2 <= x1 and top <= (f[1] + f[3]) / 2 <= bottom
        and max(f[2] - f[0], f[3] - f[1]) >= reach
    )
    return pieces >= settings.diagram_pieces


def _ruled_enough(xs: list[float], ys: list[float], hs: list[Edge], vs: list[Edge], settings: LiteSettings) -> bool:
    """True when some drawn interior rule runs across most of the grid (a row or column divider).

    A divider counts only where a rule of the other direction passes across it: two boxes drawn side
    by side meet at a shared edge that no rule crosses.
    """
    tol = settings.snap_tolerance
    inner_x = [x for x in xs[1:-1] if any(h.x0 < x - tol and h.x1 > x + tol for h in hs)]
    inner_y = [y for y in ys[1:-1] if any(v.top < y - tol and v.bottom > y + tol for v in vs)]
    v_ok = any(rule_share(vs, x, ys[0], ys[-1], False, tol) >= settings.divider_coverage for x in inner_x)
    h_ok = any(rule_share(hs, y, xs[0], xs[-1], True, tol) >= settings.divider_coverage for y in inner_y)
    return v_ok or (h_ok and not inner_x)


def _refine_grid(grid: _Grid, words: list[Word], settings: LiteSettings) -> _Grid:
    """Add text-aligned ("soft") boundaries inside ruled cells: rules drawn only around groups of
    rows or columns, as in statistical tables. Returns the grid with its boundaries sorted."""
    for x in _text_columns(grid, words, settings):
        grid.xs.append(x)
        grid.soft_x.add(x)
    grid.xs.sort()
    for y in _text_rows(grid, words, settings):
        grid.ys.append(y)
        grid.soft_y.add(y)
    grid.ys.sort()
    grid.find_bands()
    grid.open_x = open_boundaries(grid.xs, grid.ys, grid.vs, grid.soft_x, words, settings)
    return grid


def _text_columns(grid: _Grid, words: list[Word], settings: LiteSettings) -> list[float]:
    """Column boundaries inside ruled columns: vertical strips free of words on every line, with text
    on both sides on at least half the lines (the top lines of a long column may hold a spanning
    heading and are not required to be free)."""
    out = []
    for lo, hi in zip(grid.xs, grid.xs[1:]):
        col_words = [w for w in words if lo <= (w.x0 + w.x1) / 2 < hi]
        if len(col_words) < 4:
            continue
        lines = _word_lines(col_words)
        if len(lines) < 3:
            continue
        size = statistics.median(w.size for w in col_words)
        body = lines[len(lines) // 4:] if len(lines) >= 8 else lines
        for a, b in _free_strips([(w.x0, w.x1) for ln in body for w in ln], lo, hi):
            if b - a < settings.min_gutter * size:
                continue
            mid = (a + b) / 2
            left = sum(1 for ln in body if any(w.x1 <= mid for w in ln))
            right = sum(1 for ln in body if any(w.x0 >= mid for w in ln))
            if left >= _COLUMN_SIDES_SHARE * len(body) and right >= _COLUMN_SIDES_SHARE * len(body):
                out.append(mid)
    return out


def _text_rows(grid: _Grid, words: list[Word], settings: LiteSettings) -> list[float]:
    """Row boundaries inside ruled rows holding stacked values: several cells with one value per
    line, lines aligned across the row, and a drawn column divider in the row (else its lines may
    belong to one spanning cell)."""
    out = []
    hard_xs = [x for x in grid.xs[1:-1] if x not in grid.soft_x]
    tol = settings.snap_tolerance
    for lo, hi in zip(grid.ys, grid.ys[1:]):
        row_words = [w for w in words if lo <= (w.top + w.bottom) / 2 < hi]
        if len(row_words) < 4:
            continue
        if not any(rule_share(grid.vs, x, lo, hi, False, tol) >= settings.rule_coverage for x in hard_xs):
            continue
        by_col: dict[int, list[list[Word]]] = {}
        for c, (left, right) in enumerate(zip(grid.xs, grid.xs[1:])):
            cell_words = [w for w in row_words if left <= (w.x0 + w.x1) / 2 < right]
            if cell_words:
                by_col[c] = _word_lines(cell_words)
        multi = sum(1 for lines in by_col.values() if len(lines) >= 2)
        if len(by_col) < 2 or multi < 2 or multi < settings.split_row_share * len(by_col):
            continue  # wrapped text in one or two cells, not stacked rows
        cell_lines = [ln for lines in by_col.values() for ln in lines]
        if sum(1 for ln in cell_lines if _is_token(ln)) < settings.split_row_token_share * len(cell_lines):
            continue  # lines of running text: wrapped cells, not one value per line
        row_lines = _word_lines(row_words)
        if len(row_lines) < 2 or not all(_lines_align(lines, row_lines) for lines in by_col.values()):
            continue
        for upper, lower in zip(row_lines, row_lines[1:]):
            out.append((max(w.bottom for w in upper) + min(w.top for w in lower)) / 2)
    return out


def _is_token(line: list[Word]) -> bool:
    """A line that is one value, not running text: a number, one word, or two short words."""
    text = " ".join(w.text for w in line)
    return len(line) == 1 or is_quantity(text) or (len(line) == 2 and len(text) <= 12)


def _lines_align(lines: list[list[Word]], reference: list[list[Word]]) -> bool:
    """True when each line of a cell lies within one line of the whole row (no staggered text)."""
    bands = [(min(w.top for w in ln), max(w.bottom for w in ln)) for ln in reference]
    for ln in lines:
        mid = (min(w.top for w in ln) + max(w.bottom for w in ln)) / 2
        if sum(1 for top, bottom in bands if top <= mid <= bottom) != 1:
            return False
    return True


def _free_strips(intervals: list[tuple[float, float]], lo: float, hi: float) -> list[tuple[float, float]]:
    """Stretches of [lo, hi] covered by no interval, excluding the margins at either end."""
    out = []
    cursor = None
    for a, b in sorted(intervals):
        if cursor is not None and a > cursor:
            out.append((cursor, a))
        cursor = b if cursor is None else max(cursor, b)
    return [(a, b) for a, b in out if a > lo and b < hi]


def _word_lines(words: Sequence[Word]) -> list[list[Word]]:
    """Words grouped into lines by vertical overlap, top to bottom, each left to right."""
    lines: list[list[Word]] = []
    for w in sorted(words, key=lambda w: (w.top + w.bottom) / 2):
        if lines:
            last = lines[-1]
            top = min(x.top for x in last)
            bottom = max(x.bottom for x in last)
            mid = (w.top + w.bottom) / 2
            if top <= mid <= bottom:
                last.append(w)
                continue
        lines.append([w])
    return [sorted(ln, key=lambda w: w.x0) for ln in lines]


def _words_text(words: Sequence[Word]) -> str:
    """Printed text of the words of one cell, line by line (sideways text read in its own direction)."""
    if not words:
        return ""
    turned = [w for w in words if w.orientation]
    if len(turned) * 2 > len(words):
        orientation = max({w.orientation for w in turned}, key=lambda o: sum(w.orientation == o for w in turned))
        return join_lines([" ".join(w.text for w in ln) for ln in _turned_lines(words, orientation)])
    return join_lines([" ".join(w.text for w in ln) for ln in _word_lines(words)])


def _turned_lines(words: Sequence[Word], orientation: int) -> list[list[Word]]:
    """Lines of sideways words: columns of the page, in reading order for text turned by ``orientation``."""
    columns: list[list[Word]] = []
    for w in sorted(words, key=lambda w: (w.x0 + w.x1) / 2):
        if columns:
            last = columns[-1]
            if min(x.x0 for x in last) <= (w.x0 + w.x1) / 2 <= max(x.x1 for x in last):
                last.append(w)
                continue
        columns.append([w])
    if orientation == 90:  # reads upwards; lines follow left to right
        return [sorted(col, key=lambda w: -w.bottom) for col in columns]
    if orientation == 270:  # reads downwards; lines follow right to left
        return [sorted(col, key=lambda w: w.top) for col in reversed(columns)]
    return [sorted(col, key=lambda w: -w.x1) for col in columns]


#: Rows of a column without boundaries between them that hold text in this many or more are stacked
#: entries, one cell each, not one tall cell (see ``_grid_cells``).
_STACKED_MIN_ROWS = 3


def _phrases_through(grid: _Grid, slot_words: dict[tuple[int, int], list[Word]], settings: LiteSettings) -> set[tuple[int, int]]:
    """(row, column) slots whose left boundary runs through a word space of one phrase: a heading centred
    over several columns ("As of or for the three months" over shaded cells whose fills meet under its
    words). The words either side of the boundary hold letters and are on one line, their gap is under
    ``phrase_gap`` em and no wider than the word spaces of the line's words within one column, within
    :data:`WORD_SPACE_MARGIN` em (labels set close in a row stand further apart than their own words; a line
    with no such word space has nothing to compare with and keeps its boundaries)."""
    xs = grid.xs
    through: set[tuple[int, int]] = set()
    rows = {r for r, _ in slot_words}
    for r in rows:
        words = [w for (rr, _), ws in slot_words.items() if rr == r for w in ws]
        for line in _word_lines(words):
            if len(line) < 3:
                continue
            size = max(w.size for w in line)
            gaps = [b.x0 - a.x1 for a, b in zip(line, line[1:])]
            slots = [bound_index(xs, (w.x0 + w.x1) / 2) for w in line]
            # the line's word spaces: gaps between words of one column
            spaces = [g for g, ka, kb in zip(gaps, slots, slots[1:]) if ka == kb and ka is not None]
            for i, (a, b) in enumerate(zip(line, line[1:])):
                ka, kb = slots[i], slots[i + 1]
                if ka is None or kb is None or kb != ka + 1 or not (_wordy(a) and _wordy(b)):
                    continue
                if spaces and gaps[i] <= settings.phrase_gap * size and gaps[i] <= max(spaces) + WORD_SPACE_MARGIN * size:
                    through.add((r, kb))
    return through


def _wordy(word: Word) -> bool:
    """True for a word with a letter in it: amounts and signs in adjacent columns are not one phrase."""
    return any(ch.isalpha() for ch in word.text)


def _grid_cells(grid: _Grid, words: Sequence[Word]) -> list[Cell]:
    """Cells of a grid whose boundaries may be missing (spans); words are placed by their centre.

    A soft (text-derived), banded or open column boundary is dropped in a row where a word straddles it, and any
    boundary where it runs through the word space of a phrase (:func:`_phrases_through`). Rows
    without a boundary between them join into one cell, unless text stands in ``_STACKED_MIN_ROWS`` or
    more of them: then each of those opens a cell of its own (a statement that rules its rows under one
    column only, the current year's, has a label or a value per row in the others; a heading wrapped
    over the two rows of a split header stays one cell).
    """
    xs, ys = grid.xs, grid.ys
    n_rows, n_cols = len(ys) - 1, len(xs) - 1
    slot_words: dict[tuple[int, int], list[Word]] = {}
    straddle: set[tuple[int, int]] = set()
    for w in words:
        r = bound_index(ys, (w.top + w.bottom) / 2)
        c = bound_index(xs, (w.x0 + w.x1) / 2)
        if r is None or c is None:
            continue
        slot_words.setdefault((r, c), []).append(w)
        for k in range(1, n_cols):
            if (xs[k] in grid.soft_x or xs[k] in grid.banded_x or (r, xs[k]) in grid.open_x) \
                    and w.x0 < xs[k] - 1 and w.x1 > xs[k] + 1:
                straddle.add((r, k))
    straddle |= _phrases_through(grid, slot_words, grid.settings)
    owner: dict[tuple[int, int], Cell] = {}
    starts: set[tuple[int, int]] = set()  # slots that open a cell of their own (stacked entries)
    cells: list[Cell] = []
    for r in range(n_rows):
        for c in range(n_cols):
            if (r, c) in owner:
                continue
            width = 1
            while (
                c + width < n_cols
                and (not grid.v_sep(r, c + width) or (r, c + width) in straddle)
                and (r, c + width) not in owner
            ):
                width += 1
            span = range(c, c + width)
            extent = 1
            while r + extent < n_rows and not any(grid.h_sep(r + extent, k) for k in span):
                if any((r + extent, k) in owner for k in span):
                    break
                extent += 1
            filled = [rr for rr in range(r, r + extent) if any((rr, k) in slot_words for k in span)]
            if len(filled) >= _STACKED_MIN_ROWS:  # one entry per row, not one tall cell
                starts.update((rr, k) for rr in filled[1:] for k in span)
            height = 1
            while height < extent and not any((r + height, k) in starts for k in span):
                height += 1
            cell_words = [
                w for rr in range(r, r + height) for cc in range(c, c + width) for w in slot_words.get((rr, cc), [])
            ]
            cell = Cell(
                row=r, col=c, row_span=height, col_span=width,
                x0=xs[c], top=ys[r], x1=xs[c + width], bottom=ys[r + height],
                text=_words_text(cell_words), bold=mostly_bold(cell_words), font=main_font(cell_words),
                ink=(min(w.x0 for w in cell_words), max(w.x1 for w in cell_words), max(w.size for w in cell_words))
                if cell_words else None,
            )
            cells.append(cell)
            for rr in range(r, r + height):
                for cc in range(c, c + width):
                    owner[(rr, cc)] = cell
    return cells


def _trim(table: FoundTable) -> FoundTable | None:
    """Drop leading/trailing rows and columns that hold no text; renumber cells."""
    rows_with_text = {r for c in table.cells if c.text for r in range(c.row, c.end_row)}
    cols_with_text = {k for c in table.cells if c.text for k in range(c.col, c.end_col)}
    if not rows_with_text or not cols_with_text:
        return None
    r0, r1 = min(rows_with_text), max(rows_with_text) + 1
    c0, c1 = min(cols_with_text), max(cols_with_text) + 1
    cells = []
    for c in table.cells:
        if c.end_row <= r0 or c.row >= r1 or c.end_col <= c0 or c.col >= c1:
            continue
        row, col = max(c.row, r0), max(c.col, c0)
        end_row, end_col = min(c.end_row, r1), min(c.end_col, c1)
        c.row, c.col, c.row_span, c.col_span = row - r0, col - c0, end_row - row, end_col - col
        cells.append(c)
    table.cells = cells
    table.n_rows, table.n_cols = r1 - r0, c1 - c0
    return table
