"""Table finding for the lite parser: ruled grids from vector lines, borderless tables from aligned
text columns, and tables of contents from dot leaders.

Geometry is in PDF points, top-down ``(x0, top, x1, bottom)`` as in :mod:`.lite_layout`. Each finder
returns :class:`FoundTable` objects whose cells carry text exactly as printed (never parsed as
numbers), spans, and header flags.

Financial statements as EDGAR renders them (US 10-K) get three extra steps in borderless tables: a
currency sign or closing mark printed in a cell of its own joins its amount ("$ 298,085", "(565)";
:func:`attach_value_marks`); column labels set so close that they read as one phrase are cut at the
value columns' gutters (:func:`split_heading_line`); and a lone period heading ("Years ended") spans
the columns it heads (:func:`_widen_lone_headings`).
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from typing import Iterable, NamedTuple, Sequence

from .lite_text import Line, Phrase, Word, is_caption, join_lines

from .lite_settings import LiteSettings


class Edge(NamedTuple):
    """A straight horizontal (``top == bottom``) or vertical (``x0 == x1``) rule."""

    x0: float
    top: float
    x1: float
    bottom: float

    @property
    def horizontal(self) -> bool:
        return self.x1 - self.x0 >= self.bottom - self.top


@dataclass
class Cell:
    """One table cell: grid position and spans (0-based), box in points, printed text, flags."""

    row: int
    col: int
    row_span: int
    col_span: int
    x0: float
    top: float
    x1: float
    bottom: float
    text: str
    bold: bool = False
    font: str = ""
    column_header: bool = False
    row_header: bool = False
    row_section: bool = False

    @property
    def end_row(self) -> int:
        return self.row + self.row_span

    @property
    def end_col(self) -> int:
        return self.col + self.col_span


@dataclass
class FoundTable:
    """A table region with its cells; ``kind`` is "ruled", "aligned" or "index" (table of contents)."""

    x0: float
    top: float
    x1: float
    bottom: float
    n_rows: int
    n_cols: int
    cells: list[Cell]
    kind: str
    #: For borderless tables: indexes of the first and last text line used, within the lines searched.
    lines: tuple[int, int] = (-1, -1)

    def contains(self, x: float, y: float, pad: float = 0.0) -> bool:
        return self.x0 - pad <= x <= self.x1 + pad and self.top - pad <= y <= self.bottom + pad


# --------------------------------------------------------------------------------------------
# Cell text classes
# --------------------------------------------------------------------------------------------

_UNIT = r"(?:%p|%|p|x|bp|bps|배|원|억원|조원|만원|천원|백만원|명|개|건|주|년|월|일|배|회|점|[KMB]n?)"
#: A printed quantity: "1,234", "(1,234)", "-3.5%", "$12", "50.000", "007", "+0.6%p", "1.2x".
NUMBER_RE = re.compile(
    r"^[(\[]?[-+−–]?\s?(?:[$€£¥₩]|USD|KRW|EUR|JPY)?\s?[-+−–]?\d[\d,.'\s]*" + _UNIT + r"?[)\]]?\**$"
    r"|^[-–—−]$|^n/?a$|^nil$|^nm$|^n\.m\.$|^≥\s?\d.*$|^≤\s?\d.*$",
    re.IGNORECASE,
)
#: A year used as a column label: "2024", "FY2024", "2024년", "'23", "2024E".
YEAR_RE = re.compile(r"^(?:FY|CY|H[12]\s?|Q[1-4]\s?)?'?(?:19|20)\d\d[A-Za-z]?(?:년|년도)?$|^'\d\d$")
#: Dot leaders of a table of contents: "Notices . . . . . . vii".
LEADER_RE = re.compile(r"^(?P<title>.*?\S)\s*(?:\.\s?){4,}\s*(?P<page>[0-9ivxlcdmIVXLCDM]{1,6})$")


def is_number(text: str) -> bool:
    """True for a cell printed as a quantity (years used as labels excluded)."""
    text = text.strip()
    return bool(text) and bool(NUMBER_RE.match(text)) and not YEAR_RE.match(text)


# --------------------------------------------------------------------------------------------
# Rules: snapping and joining
# --------------------------------------------------------------------------------------------


def snap_edges(edges: Iterable[Edge], tolerance: float) -> tuple[list[Edge], list[Edge]]:
    """Split edges into horizontal and vertical and align near-equal coordinates to their mean."""
    hs = sorted((e for e in edges if e.horizontal), key=lambda e: e.top)
    vs = sorted((e for e in edges if not e.horizontal), key=lambda e: e.x0)

    def snap(group: list[Edge], coord: str) -> list[Edge]:
        out: list[Edge] = []
        cluster: list[Edge] = []
        for e in group:
            if cluster and getattr(e, coord) - getattr(cluster[-1], coord) > tolerance:
                out.extend(_align(cluster, coord))
                cluster = []
            cluster.append(e)
        out.extend(_align(cluster, coord))
        return out

    return snap(hs, "top"), snap(vs, "x0")


def _align(cluster: list[Edge], coord: str) -> list[Edge]:
    if not cluster:
        return []
    mean = sum(getattr(e, coord) for e in cluster) / len(cluster)
    if coord == "top":
        return [Edge(e.x0, mean, e.x1, mean) for e in cluster]
    return [Edge(mean, e.top, mean, e.bottom) for e in cluster]


def join_edges(edges: list[Edge], tolerance: float) -> list[Edge]:
    """Join collinear edges that overlap or nearly touch into single edges."""
    horizontal = bool(edges) and edges[0].horizontal
    key = (lambda e: (e.top, e.x0)) if horizontal else (lambda e: (e.x0, e.top))
    out: list[Edge] = []
    for e in sorted(edges, key=key):
        if out:
            last = out[-1]
            if horizontal and abs(last.top - e.top) < 1e-6 and e.x0 <= last.x1 + tolerance:
                out[-1] = Edge(last.x0, last.top, max(last.x1, e.x1), last.bottom)
                continue
            if not horizontal and abs(last.x0 - e.x0) < 1e-6 and e.top <= last.bottom + tolerance:
                out[-1] = Edge(last.x0, last.top, last.x1, max(last.bottom, e.bottom))
                continue
        out.append(e)
    return out


def prepare_edges(edges: Iterable[Edge], settings: LiteSettings) -> tuple[list[Edge], list[Edge]]:
    """Snap, join and length-filter raw rules; returns (horizontal, vertical)."""
    hs, vs = snap_edges(edges, settings.snap_tolerance)
    hs = [e for e in join_edges(hs, settings.join_tolerance) if e.x1 - e.x0 >= settings.min_edge_length]
    vs = [e for e in join_edges(vs, settings.join_tolerance) if e.bottom - e.top >= settings.min_edge_length]
    return hs, vs


def edge_components(hs: list[Edge], vs: list[Edge], tolerance: float) -> list[tuple[list[Edge], list[Edge]]]:
    """Groups of horizontal and vertical rules connected through intersections."""
    parent = list(range(len(hs) + len(vs)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, h in enumerate(hs):
        for j, v in enumerate(vs):
            if h.x0 - tolerance <= v.x0 <= h.x1 + tolerance and v.top - tolerance <= h.top <= v.bottom + tolerance:
                a, b = find(i), find(len(hs) + j)
                if a != b:
                    parent[a] = b
    groups: dict[int, tuple[list[Edge], list[Edge]]] = {}
    for i, h in enumerate(hs):
        groups.setdefault(find(i), ([], []))[0].append(h)
    for j, v in enumerate(vs):
        groups.setdefault(find(len(hs) + j), ([], []))[1].append(v)
    return [g for g in groups.values() if g[0] and g[1]]


def _cluster(values: Iterable[float], tolerance: float) -> list[float]:
    """Sorted values with near-equal ones collapsed to their mean."""
    out: list[list[float]] = []
    for v in sorted(values):
        if out and v - out[-1][-1] <= tolerance:
            out[-1].append(v)
        else:
            out.append([v])
    return [sum(c) / len(c) for c in out]


def _coverage(edges: list[Edge], at: float, lo: float, hi: float, horizontal: bool, tol: float) -> float:
    """Share of [lo, hi] covered by rules lying at coordinate ``at`` (within ``tol``)."""
    if hi <= lo:
        return 0.0
    spans = []
    for e in edges:
        if horizontal and abs(e.top - at) <= tol:
            spans.append((max(e.x0, lo), min(e.x1, hi)))
        elif not horizontal and abs(e.x0 - at) <= tol:
            spans.append((max(e.top, lo), min(e.bottom, hi)))
    covered = 0.0
    cursor = lo
    for a, b in sorted(spans):
        if b <= cursor:
            continue
        a = max(a, cursor)
        covered += b - a
        cursor = b
    return covered / (hi - lo)


# --------------------------------------------------------------------------------------------
# Ruled tables
# --------------------------------------------------------------------------------------------


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
    tables = []
    tol = settings.snap_tolerance
    for comp_h, comp_v in edge_components(hs, vs, tol):
        xs = _cluster([v.x0 for v in comp_v] + [min(h.x0 for h in comp_h), max(h.x1 for h in comp_h)], tol)
        ys = _cluster([h.top for h in comp_h] + [min(v.top for v in comp_v), max(v.bottom for v in comp_v)], tol)
        xs, ys = _drop_slivers(xs, settings.min_cell), _drop_slivers(ys, settings.min_cell)
        if len(xs) < 3 or len(ys) < 3:
            continue
        box = (xs[0], ys[0], xs[-1], ys[-1])
        if (
            box[2] - box[0] >= settings.page_wide * page_width
            or _diagram(box, figures, settings)
            or not _ruled_enough(xs, ys, comp_h, comp_v, settings)
        ):
            continue
        inside = [w for w in words if box[0] <= (w.x0 + w.x1) / 2 <= box[2] and box[1] <= (w.top + w.bottom) / 2 <= box[3]]
        if not inside:
            continue
        grid = _refine_grid(_Grid(xs, ys, comp_h, comp_v, settings), inside, settings)
        cells = _grid_cells(grid, inside)
        filled = sum(1 for c in cells if c.text)
        if filled < 2 or filled < settings.min_fill * len(cells):
            continue
        table = _trim(FoundTable(box[0], box[1], box[2], box[3], len(grid.ys) - 1, len(grid.xs) - 1, cells, "ruled"))
        if table is None or table.n_rows < 2 or table.n_cols < 2:
            continue
        mark_headers(table, rule_rows=set(), settings=settings)
        tables.append(table)
    return tables


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

    def v_sep(self, row: int, col: int) -> bool:
        """True when a boundary separates column ``col`` from the one left of it in ``row``."""
        x = self.xs[col]
        if x in self.soft_x:
            return True
        tol = self.settings.snap_tolerance
        return _coverage(self.vs, x, self.ys[row], self.ys[row + 1], False, tol) >= self.settings.rule_coverage

    def h_sep(self, row: int, col: int) -> bool:
        """True when a boundary separates row ``row`` from the one above it in ``col``."""
        y = self.ys[row]
        if y in self.soft_y:
            return True
        tol = self.settings.snap_tolerance
        return _coverage(self.hs, y, self.xs[col], self.xs[col + 1], True, tol) >= self.settings.rule_coverage


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
    v_ok = any(_coverage(vs, x, ys[0], ys[-1], False, tol) >= settings.divider_coverage for x in inner_x)
    h_ok = any(_coverage(hs, y, xs[0], xs[-1], True, tol) >= settings.divider_coverage for y in inner_y)
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
            if left >= 0.5 * len(body) and right >= 0.5 * len(body):
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
        if not any(_coverage(grid.vs, x, lo, hi, False, tol) >= settings.rule_coverage for x in hard_xs):
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
    return len(line) == 1 or is_number(text) or (len(line) == 2 and len(text) <= 12)


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


def _grid_cells(grid: _Grid, words: Sequence[Word]) -> list[Cell]:
    """Cells of a grid whose boundaries may be missing (spans); words are placed by their centre.

    A soft (text-derived) column boundary is dropped in a row where a word straddles it.
    """
    xs, ys = grid.xs, grid.ys
    n_rows, n_cols = len(ys) - 1, len(xs) - 1
    slot_words: dict[tuple[int, int], list[Word]] = {}
    straddle: set[tuple[int, int]] = set()
    for w in words:
        r = _index(ys, (w.top + w.bottom) / 2)
        c = _index(xs, (w.x0 + w.x1) / 2)
        if r is None or c is None:
            continue
        slot_words.setdefault((r, c), []).append(w)
        for k in range(1, n_cols):
            if xs[k] in grid.soft_x and w.x0 < xs[k] - 1 and w.x1 > xs[k] + 1:
                straddle.add((r, k))
    owner: dict[tuple[int, int], Cell] = {}
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
            height = 1
            while r + height < n_rows and not any(grid.h_sep(r + height, k) for k in range(c, c + width)):
                if any((r + height, k) in owner for k in range(c, c + width)):
                    break
                height += 1
            cell_words = [
                w for rr in range(r, r + height) for cc in range(c, c + width) for w in slot_words.get((rr, cc), [])
            ]
            cell = Cell(
                row=r, col=c, row_span=height, col_span=width,
                x0=xs[c], top=ys[r], x1=xs[c + width], bottom=ys[r + height],
                text=_words_text(cell_words), bold=_mostly_bold(cell_words), font=_main_font(cell_words),
            )
            cells.append(cell)
            for rr in range(r, r + height):
                for cc in range(c, c + width):
                    owner[(rr, cc)] = cell
    return cells


def _index(bounds: Sequence[float], value: float) -> int | None:
    """Index of the interval of ``bounds`` holding ``value`` (None outside)."""
    if value < bounds[0] or value > bounds[-1]:
        return None
    for i in range(len(bounds) - 1):
        if value <= bounds[i + 1]:
            return i
    return len(bounds) - 2


def _mostly_bold(words: Sequence[Word]) -> bool:
    letters = [w for w in words if any(ch.isalnum() for ch in w.text)]
    return bool(letters) and sum(len(w.text) for w in letters if w.bold) * 2 > sum(len(w.text) for w in letters)


def _main_font(words: Sequence[Word]) -> str:
    if not words:
        return ""
    weights: dict[str, int] = {}
    for w in words:
        weights[f"{w.font}@{round(w.size)}"] = weights.get(f"{w.font}@{round(w.size)}", 0) + len(w.text)
    return max(weights, key=weights.get)


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


# --------------------------------------------------------------------------------------------
# Borderless tables: aligned text columns
# --------------------------------------------------------------------------------------------


def _short(phrase: Phrase, settings: LiteSettings) -> bool:
    """A cell-like phrase: few words, narrow for its font size (so CJK prose lines are not short)."""
    return (
        len(phrase.words) <= settings.short_phrase_words
        and phrase.x1 - phrase.x0 <= settings.short_phrase_width * phrase.size
    )


def is_table_line(line: Line, settings: LiteSettings) -> bool:
    """A line that looks like a table row: several phrases, and a quantity after the first, or all
    short, or a short first phrase (a row label) followed by at most one long one."""
    phrases = line.phrases
    if len(phrases) < 2:
        return False
    if any(is_number(p.text) for p in phrases[1:]):
        return True
    long = sum(1 for p in phrases if not _short(p, settings))
    return long == 0 or (long == 1 and _short(phrases[0], settings))


#: A currency sign printed on its own before an amount.
_CURRENCY_RE = re.compile(r"^(?:[$€£¥₩]|US\$|USD|EUR|GBP|JPY|KRW)$")
#: What may follow an amount in a cell of its own: a closing parenthesis, a percent sign, or both.
_CLOSING_RE = re.compile(r"^(?:\)%?|%)$")


def attach_value_marks(line: Line, settings: LiteSettings) -> Line:
    """The line with currency signs and closing marks printed apart from their amounts joined to them.

    EDGAR renders a statement's amounts over three table cells: "$" at the left of the value column,
    the digits right-aligned, and ")" (or "%") after them; the amount reads as one value. A phrase
    that is only a currency sign joins the amount right after it, separated by one space as printed
    ("$ 298,085"); a phrase that is only ")" or "%" joins the amount right before it without a space
    ("(565)", "(3)%"), a ")" only when it closes a "(" of that amount. Nothing else changes: the text
    stays a faithful copy of the printed characters, never a converted number. Returns ``line`` itself
    when nothing was joined.
    """
    phrases = line.phrases
    if len(phrases) < 2:
        return line
    out: list[Phrase] = []
    changed = False
    k = 0
    while k < len(phrases):
        p = phrases[k]
        nxt = phrases[k + 1] if k + 1 < len(phrases) else None
        if (
            nxt is not None
            and len(p.words) == 1
            and _CURRENCY_RE.match(p.text)
            and is_number(nxt.text)
            and not _CURRENCY_RE.match(nxt.words[0].text)
            and 0 <= nxt.x0 - p.x1 <= settings.currency_gap * max(p.size, nxt.size)
        ):
            out.append(Phrase(list(p.words) + list(nxt.words)))
            changed = True
            k += 2
            continue
        if out and len(p.words) == 1 and _CLOSING_RE.match(p.text) and _closes(out[-1], p, settings):
            last = out[-1]
            a, b = last.words[-1], p.words[0]
            joined = Word(
                text=a.text + b.text, x0=a.x0, top=min(a.top, b.top), x1=b.x1, bottom=max(a.bottom, b.bottom),
                size=a.size, bold=a.bold, font=a.font, orientation=a.orientation,
            )
            out[-1] = Phrase(list(last.words[:-1]) + [joined])
            changed = True
            k += 1
            continue
        out.append(p)
        k += 1
    return Line(out) if changed else line


def _closes(amount: Phrase, mark: Phrase, settings: LiteSettings) -> bool:
    """True when the lone ")" or "%" ``mark`` ends the amount printed just before it."""
    text = amount.words[-1].text
    if not is_number(text) or not (text[-1:].isdigit() or text[-1:] in (")", "%")):
        return False
    if not 0 <= mark.x0 - amount.x1 <= settings.mark_gap * max(amount.size, mark.size):
        return False
    if mark.text.startswith(")"):
        return text[-1] != ")" and text.count("(") > text.count(")")
    return text[-1] != "%"


def find_aligned_tables(
    lines: Sequence[Line], rules: Sequence[Edge], figures: Sequence[tuple], settings: LiteSettings
) -> list[FoundTable]:
    """Borderless tables: runs of lines whose phrases fall into the same columns.

    ``lines`` are the page's text lines top to bottom (furniture and ruled tables removed);
    ``rules`` are the page's rules: horizontal ones bound a table, split its header from its body and
    mark spanning headings, vertical ones limit those spans;
    ``figures`` are boxes of chart and picture artwork, where aligned labels are not tables.
    """
    lines = [attach_value_marks(ln, settings) for ln in lines]
    kinds = [is_table_line(ln, settings) and not is_caption(ln.text) for ln in lines]
    tables: list[FoundTable] = []
    i = 0
    while i < len(lines):
        if not kinds[i]:
            i += 1
            continue
        segment = list(range(i, _segment_end(lines, kinds, i, settings) + 1))
        found = _aligned_table(lines, segment, kinds, rules, figures, settings)
        if found is not None:
            table, last = found
            tables.append(table)
            i = last + 1
        else:
            i += 1
    return _join_sections(tables, lines, kinds, rules, figures, settings)


def _join_sections(
    tables: list[FoundTable],
    lines: Sequence[Line],
    kinds: list[bool],
    rules: Sequence[Edge],
    figures: Sequence[tuple],
    settings: LiteSettings,
) -> list[FoundTable]:
    """Join consecutive borderless tables that are sections of one table (a heading block, blank lines
    between sections): they must be adjacent, overlap horizontally and rebuild as one table with at
    least as many columns as the wider part."""
    out: list[FoundTable] = []
    for table in tables:
        if out:
            prev = out[-1]
            gap = table.top - prev.bottom
            overlap = min(prev.x1, table.x1) - max(prev.x0, table.x0)
            between = [
                k for k in range(prev.lines[1] + 1, table.lines[0])
                if lines[k].x0 < max(prev.x1, table.x1) and lines[k].x1 > min(prev.x0, table.x0)
            ]
            adjacent = all(
                not kinds[k] and len(lines[k].phrases) == 1 and lines[k].phrases[0].x1 <= min(prev.x1, table.x1)
                for k in between
            )
            size = statistics.median(ln.size for ln in lines[prev.lines[0]:table.lines[1] + 1])
            if (
                adjacent
                and len(between) <= settings.max_plain_lines + 1
                and gap <= settings.section_gap * size
                and overlap >= 0.7 * min(prev.x1 - prev.x0, table.x1 - table.x0)
            ):
                segment = list(range(prev.lines[0], table.lines[1] + 1))
                joined_kinds = [k if i not in segment else (k or i == segment[0]) for i, k in enumerate(kinds)]
                found = _aligned_table(lines, segment, joined_kinds, rules, figures, settings, look_above=False)
                if (
                    found is not None
                    and found[0].lines[1] == table.lines[1]
                    and found[0].n_cols >= max(prev.n_cols, table.n_cols)
                ):
                    out[-1] = found[0]
                    continue
        out.append(table)
    return out


def _segment_end(lines: Sequence[Line], kinds: list[bool], start: int, settings: LiteSettings) -> int:
    """Index of the last table-like line of the run starting at ``start``.

    The run continues across small vertical gaps and across at most ``max_plain_lines`` consecutive
    plain lines (section labels, wrapped labels).
    """
    last = start
    plain = 0
    for j in range(start + 1, len(lines)):
        prev, line = lines[j - 1], lines[j]
        if line.top - prev.bottom > settings.row_gap * max(line.size, prev.size) or is_caption(line.text):
            break
        if kinds[j]:
            last, plain = j, 0
        else:
            plain += 1
            if plain > settings.max_plain_lines:
                break
    return last


def _gutter_basis(core: list[Line]) -> list[Line]:
    """The lines that define a table's columns: its rows of quantities when there are a few (headings
    above them may span columns), else all its table-like lines."""
    data = [ln for ln in core if _is_data_line(ln)]
    return data if len(data) >= 3 else core


def _crosses(line: Line, gutters: list[tuple[float, float]], settings: LiteSettings) -> bool:
    """True when a long phrase of ``line`` runs through a column gutter (prose, not a cell)."""
    for p in line.phrases:
        if _short(p, settings):
            continue
        if any(p.x0 < a and p.x1 > b for a, b in gutters):
            return True
    return False


def _is_data_line(line: Line) -> bool:
    return any(is_number(p.text) for p in line.phrases[1:])


def _column_gutters(lines: Sequence[Line], settings: LiteSettings) -> list[tuple[float, float]]:
    """Vertical strips crossed by few lines' phrases: the gaps between columns, as (x_start, x_end)."""
    lo = min(ln.x0 for ln in lines)
    hi = max(ln.x1 for ln in lines)
    n_bins = int(hi - lo) + 2
    counts = [0] * (n_bins + 1)
    for ln in lines:
        for p in ln.phrases:
            a = int(p.x0 - lo)
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


def _aligned_table(
    lines: Sequence[Line],
    segment: list[int],
    kinds: list[bool],
    rules: Sequence[Edge],
    figures: Sequence[tuple],
    settings: LiteSettings,
    look_above: bool = True,
) -> tuple[FoundTable, int] | None:
    """Build and validate the table made by the lines ``segment`` (plus, with ``look_above``, the
    heading lines just above it). Returns the table and the index of its last line, or None.
    """
    core = [lines[k] for k in segment if kinds[k]]
    if len(core) < settings.min_table_lines:
        return None
    gutters = _column_gutters(_gutter_basis(core), settings)
    if not gutters:
        return None
    kept: list[int] = []
    for k in segment:
        if _crosses(lines[k], gutters, settings):
            break
        kept.append(k)
    while kept and not kinds[kept[-1]]:
        kept.pop()
    if kept != segment:
        core = [lines[k] for k in kept if kinds[k]]
        if len(core) < settings.min_table_lines:
            return None
        gutters = _column_gutters(_gutter_basis(core), settings)
        if not gutters:
            return None
    body = [lines[k] for k in kept]
    x_lo = min(ln.x0 for ln in core)
    x_hi = max(ln.x1 for ln in core)
    bounds = [x_lo - 1] + [(a + b) / 2 for a, b in gutters] + [x_hi + 1]
    n_cols = len(bounds) - 1
    extents = _column_extents(core, bounds)
    header = (
        _header_lines_above(lines, kept[0], x_lo, x_hi, gutters, settings, bounds=bounds, extents=extents)
        if look_above else []
    )
    rows_lines = header + body
    data = [i for i, ln in enumerate(rows_lines) if _is_data_line(ln)]
    header_zone = data[0] if data else len(header)
    first_gutter = gutters[0][0]
    for i in range(1, header_zone):  # a lone first-column label ends the headings: it is a row
        if rows_lines[i].x1 <= first_gutter:
            header_zone = i
            break
    for i in range(len(header), header_zone):  # heading lines among the table's own lines
        rows_lines[i] = split_heading_line(rows_lines[i], bounds, extents, settings)
    # place phrases: each line becomes a row of {first_col: (last_col, phrases)}
    placed: list[dict[int, tuple[int, list[Phrase]]]] = []
    for idx, ln in enumerate(rows_lines):
        row: dict[int, tuple[int, list[Phrase]]] = {}
        for p in ln.phrases:
            reach = _spanner_rule(p, ln.phrases, rules, x_hi - x_lo, settings) if idx < header_zone else None
            first, last = _column_span(reach or p, bounds, extents)
            if first in row:
                end, members = row[first]
                row[first] = (max(end, last), members + [p])
            else:
                row[first] = (last, [p])
        placed.append(row)
    _widen_lone_headings(placed, header_zone, extents, settings)
    groups = _merge_rows(rows_lines, placed, header_zone, settings)
    cells: list[Cell] = []
    for r, (members, row) in enumerate(groups):
        starts = sorted(row)
        for k, first in enumerate(starts[:-1]):  # a span stops where the next cell starts
            last, phrases = row[first]
            if last >= starts[k + 1]:
                row[first] = (starts[k + 1] - 1, phrases)
        for first in starts:
            last, phrases = row[first]
            last = max(last, first)
            words = [w for p in phrases for w in p.words]
            cells.append(
                Cell(
                    row=r, col=first, row_span=1, col_span=last - first + 1,
                    x0=min(p.x0 for p in phrases), top=min(p.top for p in phrases),
                    x1=max(p.x1 for p in phrases), bottom=max(p.bottom for p in phrases),
                    text=join_lines([p.text for p in sorted(phrases, key=lambda p: (round(p.top), p.x0))]),
                    bold=_mostly_bold(words), font=_main_font(words),
                )
            )
    table = FoundTable(
        x0=min(ln.x0 for ln in rows_lines), top=min(ln.top for ln in rows_lines),
        x1=max(ln.x1 for ln in rows_lines), bottom=max(ln.bottom for ln in rows_lines),
        n_rows=len(groups), n_cols=n_cols, cells=cells, kind="aligned",
    )
    _drop_empty_columns(table)
    hrules = [e for e in rules if e.horizontal]
    if not _plausible(table, hrules, settings) or _figure_share(table, figures) >= settings.figure_share:
        return None
    rule_rows = _rule_rows(table, groups, hrules)
    _extend_to_rules(table, hrules, settings)
    _fill_empty_cells(table, bounds_rows=[(min(ln.top for ln in m), max(ln.bottom for ln in m)) for m, _ in groups])
    mark_headers(table, rule_rows=rule_rows, settings=settings)
    table.lines = (kept[0] - len(header), kept[-1])
    return table, kept[-1]


def _column_extents(lines: Sequence[Line], bounds: list[float]) -> list[tuple[float, float]]:
    """Horizontal extent of the phrases lying inside each column (the column's printed content)."""
    extents: list[tuple[float, float] | None] = [None] * (len(bounds) - 1)
    for ln in lines:
        for p in ln.phrases:
            for c in range(len(bounds) - 1):
                if bounds[c] <= p.x0 and p.x1 <= bounds[c + 1]:
                    lo, hi = extents[c] or (p.x0, p.x1)
                    extents[c] = (min(lo, p.x0), max(hi, p.x1))
    return [e if e is not None else (bounds[c], bounds[c + 1]) for c, e in enumerate(extents)]


class _Reach(NamedTuple):
    """The horizontal reach of a heading: the rule drawn under it."""

    x0: float
    x1: float


def _spanner_rule(
    phrase: Phrase, line: Sequence[Phrase], rules: Sequence[Edge], table_width: float, settings: LiteSettings
) -> _Reach | None:
    """A rule drawn just under a heading and wider than it: the heading spans the columns it covers,
    up to the vertical rules on either side of the heading.

    A rule that runs under other headings of the same line too (one rule under all the dates of a
    statement) underlines the heading row, not one heading: it marks no span."""
    width = phrase.x1 - phrase.x0
    for e in rules:
        if not e.horizontal or not phrase.bottom - 1 <= e.top <= phrase.bottom + settings.spanner_gap * phrase.size:
            continue
        overlap = min(e.x1, phrase.x1) - max(e.x0, phrase.x0)
        if overlap < 0.8 * width or e.x1 - e.x0 <= width + phrase.size or e.x1 - e.x0 > 0.8 * table_width:
            continue
        x0, x1 = e.x0, e.x1
        for v in rules:
            if not v.horizontal and v.top <= phrase.mid_y <= v.bottom:
                if x0 < v.x0 <= phrase.x0:
                    x0 = v.x0
                elif phrase.x1 <= v.x0 < x1:
                    x1 = v.x0
        if any(
            q is not phrase and min(x1, q.x1) - max(x0, q.x0) >= 0.5 * (q.x1 - q.x0)
            and e.top - settings.spanner_gap * q.size <= q.bottom <= e.top + 1
            for q in line
        ):
            continue
        return _Reach(x0, x1)
    return None


def _column_span(phrase: Phrase | _Reach, bounds: list[float], extents: list[tuple[float, float]]) -> tuple[int, int]:
    """First and last column of a phrase: a phrase crossing a gutter spans every column whose printed
    content it overlaps substantially, so a right-aligned heading stays over its own column."""
    width = max(phrase.x1 - phrase.x0, 1e-3)
    cols = []
    for c, (lo, hi) in enumerate(extents):
        overlap = min(phrase.x1, hi) - max(phrase.x0, lo)
        if overlap > 0 and (overlap >= 0.3 * max(hi - lo, 1e-3) or overlap >= 0.5 * width):
            cols.append(c)
    if not cols:
        c = _index(bounds, (phrase.x0 + phrase.x1) / 2)
        c = 0 if c is None else c
        return c, c
    return cols[0], cols[-1]


def _header_lines_above(
    lines: Sequence[Line],
    start: int,
    x_lo: float,
    x_hi: float,
    gutters: list[tuple[float, float]],
    settings: LiteSettings,
    bounds: list[float] | None = None,
    extents: list[tuple[float, float]] | None = None,
) -> list[Line]:
    """Lines just above a table that read as its column headings (short, inside its width).

    With the table's column ``bounds`` and ``extents``, a heading line's phrases that run over several
    columns are first cut at the gutters (see :func:`split_heading_line`), and a heading centred over
    the outermost column may overhang the table. Section labels ("Net sales:") standing in the first
    column between the headings and the first row are taken along as rows.
    """
    out: list[Line] = []
    sections = 0  # section labels right above the first row, kept only when headings lie above them
    k = start - 1
    below = lines[start]
    width = x_hi - x_lo
    while k >= 0 and len(out) < settings.max_header_lines + sections:
        line = lines[k]
        if bounds is not None and extents is not None:
            line = split_heading_line(line, bounds, extents, settings)
        size = max(line.size, below.size)
        if below.top - line.bottom > settings.header_gap * size:
            break
        if len(out) == sections and _section_label(line, x_lo, gutters, settings):
            out.insert(0, line)
            sections += 1
            below = line
            k -= 1
            continue
        if _overhangs(line, x_lo, x_hi, extents, settings):
            break
        # the label column's own heading ("(In millions, except per share data)") may be long
        corner = line.phrases[0] if len(line.phrases) >= 2 and line.phrases[0].x1 <= sum(gutters[0]) / 2 else None
        if is_caption(line.text) or not all(_short(p, settings) or p is corner for p in line.phrases):
            break
        if line.text.rstrip().endswith(":"):
            break  # an introduction ("... as follows:"), not a heading
        if k > 0 and _paragraph_tail(lines[k - 1], line, settings):
            break
        if len(line.phrases) == 1 and line.phrases[0].x0 <= x_lo + size and line.x1 - line.x0 > 0.4 * width:
            break  # a title-like line flush with the table's left edge
        if len(line.phrases) == 1 and line.phrases[0].x0 <= x_lo + size and line.phrases[0].bold and len(out) == 0 and not any(a < line.x1 for a, _ in gutters):
            break  # a bold label standing above the first column: a title, not a heading row
        out.insert(0, line)
        below = line
        k -= 1
    return out if len(out) > sections else []


def _section_label(line: Line, x_lo: float, gutters: list[tuple[float, float]], settings: LiteSettings) -> bool:
    """A label ending in a colon alone in the first column, at most a few em left of the row labels
    (line items are often indented under their section): a section row such as "Current assets:"."""
    if len(line.phrases) != 1:
        return False
    phrase = line.phrases[0]
    return (
        phrase.text.rstrip().endswith(":")
        and _short(phrase, settings)
        and phrase.x1 <= sum(gutters[0]) / 2
        and phrase.x0 >= x_lo - settings.section_indent * phrase.size
        and not is_caption(phrase.text)
    )


def _overhangs(
    line: Line, x_lo: float, x_hi: float, extents: list[tuple[float, float]] | None, settings: LiteSettings
) -> bool:
    """True when ``line`` reaches beyond the table's sides by more than the heading slack; a heading
    centred over the outermost column may (a date wider than the amounts under it)."""
    for p in line.phrases:
        slack = settings.header_slack * max(line.size, p.size)
        if p.x0 >= x_lo - slack and p.x1 <= x_hi + slack:
            continue
        if extents is None:
            return True
        edge = extents[0] if p.x0 < x_lo - slack else extents[-1]
        tol = settings.align_tolerance * p.size
        if abs((p.x0 + p.x1) / 2 - (edge[0] + edge[1]) / 2) > tol:
            return True
    return False


def _alignments(phrase: Phrase, lo: float, hi: float, tol: float) -> set[str]:
    """How ``phrase`` lines up with the printed extent [lo, hi]: any of "left", "right", "centre"."""
    out = set()
    if abs(phrase.x0 - lo) <= tol:
        out.add("left")
    if abs(phrase.x1 - hi) <= tol:
        out.add("right")
    if abs((phrase.x0 + phrase.x1) / 2 - (lo + hi) / 2) <= tol:
        out.add("centre")
    return out


def _aligned_with(phrase: Phrase, lo: float, hi: float, tol: float) -> bool:
    """True when ``phrase`` lines up with the printed extent [lo, hi]: left, right or centred."""
    return bool(_alignments(phrase, lo, hi, tol))


def split_heading_line(
    line: Line, bounds: list[float], extents: list[tuple[float, float]], settings: LiteSettings
) -> Line:
    """A heading line with each phrase that runs over several columns cut into its column labels.

    Column labels set close together ("September 30, 2023 September 24, 2022" over narrow amount
    columns) read as one phrase. A phrase is cut at every word gap that overlaps the gutter between
    two columns it covers, when every piece then lines up with its own column or columns in the same
    way (all centred, all right- or all left-aligned, within ``align_tolerance`` em) and no two pieces
    share a column. A heading that really spans the columns ("Year ended December 31" centred over
    two) does not line up piece by piece and stays whole. Returns ``line`` itself when nothing is cut.
    """
    out: list[Phrase] = []
    changed = False
    for p in line.phrases:
        pieces = _heading_pieces(p, bounds, extents, settings)
        if pieces:
            out.extend(pieces)
            changed = True
        else:
            out.append(p)
    return Line(out) if changed else line


def _heading_pieces(
    phrase: Phrase, bounds: list[float], extents: list[tuple[float, float]], settings: LiteSettings
) -> list[Phrase] | None:
    """The column labels ``phrase`` is made of (see :func:`split_heading_line`), or None."""
    words = phrase.words
    if len(words) < 2:
        return None
    first, last = _column_span(phrase, bounds, extents)
    if last <= first:
        return None
    cuts = []
    for k, (a, b) in enumerate(zip(words, words[1:])):
        if any(a.x1 < extents[c + 1][0] and b.x0 > extents[c][1] for c in range(first, last)):
            cuts.append(k + 1)
    if not cuts:
        return None
    pieces = [Phrase(words[i:j]) for i, j in zip([0] + cuts, cuts + [len(words)])]
    tol = settings.align_tolerance * phrase.size
    previous = -1
    common = {"left", "right", "centre"}
    for piece in pieces:
        lo, hi = _column_span(piece, bounds, extents)
        common &= _alignments(piece, extents[lo][0], extents[hi][1], tol)
        if lo <= previous or not common:
            return None
        previous = hi
    return pieces


def _widen_lone_headings(
    placed: list[dict[int, tuple[int, list[Phrase]]]],
    header_zone: int,
    extents: list[tuple[float, float]],
    settings: LiteSettings,
) -> None:
    """Let a heading that stands alone over the value columns span the columns it heads.

    The heading rows of a statement often hold one phrase over all the amounts, such as "Years ended"
    above the dates or "(in millions)" under them, that is too short to reach across them. Such a
    phrase (the only one of its line right of the label column, with another heading line labelling
    at least two columns) spans:

    * the widest group of labelled columns it is centred on (within ``align_tolerance`` em): over an
      even group it sits above a gutter, so it cannot be one column's label; over an odd group only
      when it stands above the labels (a unit line centred under the middle label belongs to it);
    * else, when it stands above the labels, lines up with no column it overlaps and reaches into a
      gutter, all the labelled columns.
    """
    for idx in range(header_zone):
        row = placed[idx]
        values = [f for f in row if f > 0]
        if len(values) != 1 or len(row[values[0]][1]) != 1:
            continue
        first = values[0]
        last, (phrase,) = row[first]
        others = [j for j in range(header_zone) if j != idx and sum(1 for f in placed[j] if f > 0) >= 2]
        if not others:
            continue
        labelled = sorted({
            c for j in range(header_zone) if j != idx for f, (end, _) in placed[j].items() if f > 0
            for c in range(f, end + 1)
        })
        above = any(j > idx for j in others)
        tol = settings.align_tolerance * phrase.size
        centre = (phrase.x0 + phrase.x1) / 2
        best = None
        for i in labelled:
            for j in labelled:
                if j <= i or abs(centre - (extents[i][0] + extents[j][1]) / 2) > tol:
                    continue
                columns = j - i + 1
                if (columns % 2 == 0 or above) and (best is None or columns > best[1] - best[0] + 1):
                    best = (i, j)
        if best is None and above and last == first:
            lo, hi = extents[first]
            if not _aligned_with(phrase, lo, hi, tol) and (phrase.x1 > hi + tol or phrase.x0 < lo - tol):
                best = (labelled[0], labelled[-1])
        if best is not None and best[1] - best[0] > last - first and best[0] <= first <= best[1]:
            del row[first]
            row[best[0]] = (best[1], [phrase])


def _paragraph_tail(above: Line, line: Line, settings: LiteSettings) -> bool:
    """True when ``line`` is the last line of the prose paragraph ending with ``above``."""
    return (
        len(above.phrases) == 1
        and not _short(above.phrases[0], settings)
        and abs(above.x0 - line.x0) <= line.size
        and line.top - above.bottom <= settings.wrap_gap * line.size
    )


def _merge_rows(
    lines: Sequence[Line], placed: list[dict[int, tuple[int, list[Phrase]]]], header_zone: int, settings: LiteSettings
) -> list[tuple[list[Line], dict[int, tuple[int, list[Phrase]]]]]:
    """Merge wrapped lines into table rows.

    Lines above the first row of quantities (``header_zone``) merge into one heading row unless one
    holds a spanning heading (a heading level of its own). A body line continues the row above when it
    only adds wrapped text (see :func:`_continues`) and is tightly spaced.
    """
    groups: list[tuple[list[Line], dict[int, tuple[int, list[Phrase]]]]] = []
    for idx, (line, row) in enumerate(zip(lines, placed)):
        if groups:
            prev_lines, prev_row = groups[-1]
            prev = prev_lines[-1]
            gap = line.top - prev.bottom
            spans = any(end > first for first, (end, _) in row.items())
            prev_spans = any(end > first for first, (end, _) in prev_row.items())
            if idx < header_zone:
                merge = gap <= settings.header_gap * max(line.size, prev.size) and not spans and not prev_spans
            elif idx == header_zone and header_zone > 0:
                merge = False
            else:
                merge = gap <= settings.wrap_gap * max(line.size, prev.size) and _continues(prev_row, row)
            if merge:
                for first, (end, phrases) in row.items():
                    if first in prev_row:
                        old_end, old = prev_row[first]
                        prev_row[first] = (max(old_end, end), old + phrases)
                    else:
                        prev_row[first] = (end, phrases)
                prev_lines.append(line)
                continue
        groups.append(([line], dict(row)))
    return groups


def _continues(prev_row: dict, row: dict) -> bool:
    """True when ``row`` reads as wrapped text of ``prev_row`` rather than a row of its own.

    That is: a lower-case continuation of a label where one of the two lines holds only the label; or
    text without quantities in columns the row above already uses (wrapped cells of a data row).
    """
    texts = {c: " ".join(p.text for p in ps) for c, (_, ps) in row.items()}
    prev_texts = {c: " ".join(p.text for p in ps) for c, (_, ps) in prev_row.items()}
    if not texts:
        return False
    if 0 in texts and texts[0][:1].islower() and (set(prev_texts) == {0} or set(texts) == {0}):
        return True
    if any(is_number(t) for t in texts.values()):
        return False
    prev_is_data = any(is_number(t) for c, t in prev_texts.items() if c > 0)
    if set(texts) <= set(prev_texts):
        return 0 not in texts or (prev_is_data and len(texts) >= 2)
    return False


def _drop_empty_columns(table: FoundTable) -> None:
    """Remove grid columns that no cell starts in and no cell spans only (renumbering the rest)."""
    used = sorted({c.col for c in table.cells} | {c.end_col - 1 for c in table.cells})
    if len(used) == table.n_cols:
        return
    remap = {old: new for new, old in enumerate(used)}
    for c in table.cells:
        start = remap[c.col]
        end = max(remap[k] for k in range(c.col, c.end_col) if k in remap)
        c.col, c.col_span = start, end - start + 1
    table.n_cols = len(used)


def _fill_empty_cells(table: FoundTable, bounds_rows: list[tuple[float, float]]) -> None:
    """Add empty cells for grid slots no printed text covers, so every slot has a cell."""
    taken = {(r, k) for c in table.cells for r in range(c.row, c.end_row) for k in range(c.col, c.end_col)}
    col_x: dict[int, tuple[float, float]] = {}
    for c in table.cells:
        if c.col_span == 1:
            lo, hi = col_x.get(c.col, (c.x0, c.x1))
            col_x[c.col] = (min(lo, c.x0), max(hi, c.x1))
    for r in range(table.n_rows):
        for k in range(table.n_cols):
            if (r, k) not in taken:
                x0, x1 = col_x.get(k, (table.x0, table.x0))
                top, bottom = bounds_rows[r]
                table.cells.append(Cell(row=r, col=k, row_span=1, col_span=1, x0=x0, top=top, x1=x1, bottom=bottom, text=""))
    table.cells.sort(key=lambda c: (c.row, c.col))


def _rule_rows(table: FoundTable, groups, rules: Sequence[Edge]) -> set[int]:
    """Rows that a horizontal rule across the table separates from the row above."""
    out = set()
    width = table.x1 - table.x0
    for r in range(1, len(groups)):
        above = max(ln.bottom for ln in groups[r - 1][0])
        below = min(ln.top for ln in groups[r][0])
        for e in rules:
            if above - 1 <= e.top <= below + 1 and min(e.x1, table.x1) - max(e.x0, table.x0) >= 0.6 * width:
                out.add(r)
                break
    return out


def _figure_share(table: FoundTable, figures: Sequence[tuple]) -> float:
    """Share of the table's box covered by figure artwork (sum of overlaps, capped at 1)."""
    area = max((table.x1 - table.x0) * (table.bottom - table.top), 1e-6)
    covered = 0.0
    for x0, top, x1, bottom in figures:
        w = min(x1, table.x1) - max(x0, table.x0)
        h = min(bottom, table.bottom) - max(top, table.top)
        if w > 0 and h > 0:
            covered += w * h
    return min(1.0, covered / area)


def _extend_to_rules(table: FoundTable, rules: Sequence[Edge], settings: LiteSettings) -> None:
    """Widen a borderless table's box to the horizontal rules that bound or divide it.

    A rule much wider than the table counts only when a rule of the same extent closes the table on
    the other side too (the table sits in a ruled frame).
    """
    width = table.x1 - table.x0
    near = [
        e for e in rules
        if table.top - settings.rule_reach <= e.top <= table.bottom + settings.rule_reach
        and min(e.x1, table.x1) - max(e.x0, table.x0) >= 0.6 * width
    ]
    for e in near:
        framed = any(
            f is not e and abs(f.x0 - e.x0) <= settings.snap_tolerance and abs(f.x1 - e.x1) <= settings.snap_tolerance
            and abs(f.top - e.top) >= 0.5 * (table.bottom - table.top)
            for f in near
        )
        if e.x1 - e.x0 <= 1.6 * width or framed:
            table.x0, table.x1 = min(table.x0, e.x0), max(table.x1, e.x1)
            table.top, table.bottom = min(table.top, e.top), max(table.bottom, e.top)


def _plausible(table: FoundTable, rules: Sequence[Edge], settings: LiteSettings) -> bool:
    """Reject prose, lists and scattered labels that happen to line up."""
    if table.n_cols < 2 or table.n_rows < 2:
        return False
    texts = [c for c in table.cells if c.text]
    slots = table.n_rows * table.n_cols
    fill = sum(c.row_span * c.col_span for c in texts) / slots
    later = [c for c in texts if c.col > 0]
    numeric = sum(1 for c in later if is_number(c.text)) / max(1, len(later))
    words = statistics.mean(len(c.text.split()) for c in texts)
    rows_with_two = sum(1 for r in range(table.n_rows) if sum(1 for c in texts if c.row == r) >= 2)
    width = table.x1 - table.x0
    ruled_above = any(
        abs(e.top - table.top) <= settings.rule_reach and min(e.x1, table.x1) - max(e.x0, table.x0) >= 0.8 * width
        for e in rules
    )
    ruled_below = any(
        abs(e.top - table.bottom) <= settings.rule_reach and min(e.x1, table.x1) - max(e.x0, table.x0) >= 0.8 * width
        for e in rules
    )
    if rows_with_two < 2:
        return False
    first = [c.text for c in texts if c.col == 0]
    if len(first) >= 2 and len(set(first)) == 1 and len(first[0]) <= 2:
        return False  # a bulleted list: the same glyph opens every row
    if numeric >= settings.numeric_share and fill >= settings.min_fill:
        return True
    if (ruled_above or ruled_below) and fill >= settings.min_fill and words <= settings.max_words_per_cell * 2:
        return True
    labels = [len(c.text.split()) for c in texts if c.col == 0]
    if ruled_above and ruled_below and labels and max(labels) <= settings.max_label_words:
        return True  # short labels beside longer text between rules: a ruled key-value table
    return (
        table.n_rows >= settings.min_text_table_rows
        and fill >= settings.text_table_fill
        and words <= settings.max_words_per_cell
    )


# --------------------------------------------------------------------------------------------
# Tables of contents
# --------------------------------------------------------------------------------------------


def find_index_tables(lines: Sequence[Line], settings: LiteSettings) -> list[FoundTable]:
    """Tables of contents: runs of lines ending in dot leaders and a page number (label document_index)."""
    tables = []
    run: list[tuple[Line, re.Match]] = []

    def close() -> None:
        if len(run) >= settings.min_index_lines:
            cells = []
            for r, (line, match) in enumerate(run):
                page_phrase = line.phrases[-1]
                cells.append(Cell(r, 0, 1, 1, line.x0, line.top, page_phrase.x0, line.bottom, match.group("title").strip()))
                cells.append(Cell(r, 1, 1, 1, page_phrase.x1 - 1, line.top, line.x1, line.bottom, match.group("page")))
            all_lines = [ln for ln, _ in run]
            tables.append(
                FoundTable(
                    min(ln.x0 for ln in all_lines), min(ln.top for ln in all_lines),
                    max(ln.x1 for ln in all_lines), max(ln.bottom for ln in all_lines),
                    len(run), 2, cells, "index",
                )
            )
        run.clear()

    for line in lines:
        match = LEADER_RE.match(line.text)
        if match:
            if run and line.top - run[-1][0].bottom > settings.index_gap * line.size:
                close()
            run.append((line, match))
        else:
            close()
    close()
    return tables


# --------------------------------------------------------------------------------------------
# Header rows, row headers, section rows
# --------------------------------------------------------------------------------------------


def mark_headers(table: FoundTable, rule_rows: set[int], settings: LiteSettings) -> None:
    """Set ``column_header`` on heading rows, ``row_header`` on a label column, ``row_section`` on
    rows that only carry a label.

    Heading rows are the leading rows above the first row of quantities that carry column labels; in
    a table without quantities, the first row counts only when its style (bold, font, a rule below
    it) sets it apart from the body.
    """
    by_row: dict[int, list[Cell]] = {}
    for c in table.cells:
        by_row.setdefault(c.row, []).append(c)
    rows = [sorted(by_row.get(r, []), key=lambda c: c.col) for r in range(table.n_rows)]

    def filled(row: list[Cell]) -> list[Cell]:
        return [c for c in row if c.text]

    def data_row(row: list[Cell]) -> bool:
        return any(is_number(c.text) for c in filled(row) if c.col > 0)

    data_rows = [r for r, row in enumerate(rows) if data_row(row)]
    header_count = 0
    if len(data_rows) >= 2 or (data_rows and table.n_rows <= 3):
        first = data_rows[0]
        for r in range(min(first, settings.max_header_rows)):
            row = filled(rows[r])
            labels_beyond_first = any(c.col > 0 or c.col_span > 1 for c in row)
            if not labels_beyond_first or any(is_number(c.text) for c in row):
                break
            header_count = r + 1
    elif table.n_rows >= 2:
        header_count = _styled_header_rows(rows, rule_rows, settings)
    header_count = min(header_count, max(0, table.n_rows - 1))
    for r in range(header_count):
        for c in rows[r]:
            c.column_header = True
    # a heading cell spanning down into the body is not possible; clip
    body = [row for r, row in enumerate(rows) if r >= header_count]
    body_cells = [c for row in body for c in filled(row)]
    if not body_cells or table.n_cols < 2:
        return
    full_width = [c for c in body_cells if c.col_span == table.n_cols]
    first_col = [c for c in body_cells if c.col == 0 and c.col_span < table.n_cols]
    others = [c for c in body_cells if c.col > 0]
    if len(full_width) < len(body):
        for c in full_width:
            c.row_section = True
    if first_col and others:
        labels = sum(1 for c in first_col if not is_number(c.text)) / len(first_col)
        quantities = sum(1 for c in others if is_number(c.text)) / len(others)
        bold_labels = all(c.bold for c in first_col) and not all(c.bold for c in others)
        coverage = len(first_col) / max(1, len(body))
        if (labels >= settings.row_header_labels and quantities >= settings.row_header_numbers) or (
            bold_labels and coverage >= 0.5 and table.kind != "index"
        ):
            for c in first_col:
                c.row_header = True
            if quantities >= settings.row_header_numbers:
                for row in body:
                    cells = filled(row)
                    if len(cells) == 1 and cells[0].col == 0 and not is_number(cells[0].text):
                        cells[0].row_section = True


def _styled_header_rows(rows: list[list[Cell]], rule_rows: set[int], settings: LiteSettings) -> int:
    """1 (or 2 for a spanning first level) when the first row's style differs from the body's."""
    first = [c for c in rows[0] if c.text]
    body = [c for row in rows[1:] for c in row if c.text]
    if len(first) < 2 or not body:
        return 0
    bold_first = all(c.bold for c in first)
    bold_body = sum(len(c.text) for c in body if c.bold) / max(1, sum(len(c.text) for c in body))
    fonts_first = {c.font for c in first}
    fonts_body = {c.font for c in body}
    distinct_font = not (fonts_first & fonts_body)
    evidence = (bold_first and bold_body < 0.5) or distinct_font or (1 in rule_rows and len(rule_rows) <= 2)
    if not evidence:
        return 0
    if len(rows) > 2 and any(c.col_span > 1 for c in first):
        second = [c for c in rows[1] if c.text]
        if second and all(c.bold == bold_first and c.font in fonts_first for c in second):
            return 2
    return 1
