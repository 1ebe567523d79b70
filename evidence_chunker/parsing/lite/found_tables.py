"""Tables for the lite parser: what the finders return (:class:`FoundTable` of :class:`Cell`), the
table-of-contents leaders, and the rules (vector lines) tables are built from, snapped and joined.

The finders live one per module: ruled grids (:mod:`.lite_ruled`), borderless tables from aligned text
columns (:mod:`.lite_borderless`, the headings above them in :mod:`.lite_headings`) and tables of
contents (:mod:`.lite_toc`); header rows and row headers are marked by :mod:`.lite_table_headers`.
Geometry is in PDF points, top-down ``(x0, top, x1, bottom)`` as in :mod:`.lite_text`. Cells carry text
exactly as printed (never parsed as numbers), spans, and header flags; which texts are figures is decided by
:func:`semantic_json.rules.patterns.is_quantity`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Iterable, NamedTuple, Sequence

from semantic_json.rules.patterns import is_currency, is_quantity
from .settings import LiteSettings
from .text import AMOUNT_MARKS, Word, closes_amount


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
    #: Where the text is printed, (x0, x1, size) in points, when the grid's box is wider than it (ruled cells).
    ink: tuple[float, float, float] | None = None

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


#: Dot leaders of a table of contents: "Notices . . . . . . vii".
LEADER_RE = re.compile(r"^(?P<title>.*?\S)\s*(?:\.\s?){4,}\s*(?P<page>[0-9ivxlcdmIVXLCDM]{1,6})$")


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


def cluster_values(values: Iterable[float], tolerance: float) -> list[float]:
    """Sorted values with near-equal ones collapsed to their mean."""
    out: list[list[float]] = []
    for v in sorted(values):
        if out and v - out[-1][-1] <= tolerance:
            out[-1].append(v)
        else:
            out.append([v])
    return [sum(c) / len(c) for c in out]


def rule_share(edges: list[Edge], at: float, lo: float, hi: float, horizontal: bool, tol: float) -> float:
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
        if b <= cursor or b <= a:  # a rule outside [lo, hi] covers nothing of it
            continue
        a = max(a, cursor)
        covered += b - a
        cursor = b
    return covered / (hi - lo)


def bound_index(bounds: Sequence[float], value: float) -> int | None:
    """Index of the interval of ``bounds`` holding ``value`` (None outside)."""
    if value < bounds[0] or value > bounds[-1]:
        return None
    for i in range(len(bounds) - 1):
        if value <= bounds[i + 1]:
            return i
    return len(bounds) - 2


def mostly_bold(words: Sequence[Word]) -> bool:
    letters = [w for w in words if any(ch.isalnum() for ch in w.text)]
    return bool(letters) and sum(len(w.text) for w in letters if w.bold) * 2 > sum(len(w.text) for w in letters)


def main_font(words: Sequence[Word]) -> str:
    if not words:
        return ""
    weights: dict[str, int] = {}
    for w in words:
        weights[f"{w.font}@{round(w.size)}"] = weights.get(f"{w.font}@{round(w.size)}", 0) + len(w.text)
    return max(weights, key=weights.get)


def _own_cells(table: FoundTable, col: int) -> list[Cell]:
    """The cells that lie in grid column ``col`` alone."""
    return [c for c in table.cells if c.col == col and c.col_span == 1]


def _sign_column(table: FoundTable, col: int) -> bool:
    """True when column ``col`` holds nothing but currency signs printed apart from their amounts (and
    maybe the heading of a group of columns, see :func:`_centre_group_headings`)."""
    own = [c.text.strip() for c in _own_cells(table, col) if not c.column_header]
    return any(own) and all(not t or is_currency(t) for t in own)


def _centre_group_headings(table: FoundTable) -> None:
    """Let an upper heading that the grid puts in a column of currency signs head the value columns on
    both sides of it.

    A heading centred over two value columns ("Level 1" over its "2022" and "2021", "Assets" over two
    years) stands over the gap between them, which in a ruled grid is the cell of the right column's
    "$"; left there, it blocks joining the signs to their amounts and heads neither column. When the
    cells beside it in its row are empty and the row holds another heading over the values (a level of
    group headings; a lone heading may head more columns), it spans the column on either side.
    """
    header_rows = sorted({c.row for c in table.cells if c.column_header})
    headings = Counter(c.row for c in table.cells if c.column_header and c.col > 0 and c.text.strip())
    upper = {r for r in header_rows[:-1] if headings[r] >= 2}
    for col in range(2, table.n_cols - 1):
        if not _sign_column(table, col):
            continue
        for head in [c for c in _own_cells(table, col) if c.row in upper and c.text.strip()]:
            beside = [c for c in _own_cells(table, col - 1) + _own_cells(table, col + 1)
                      if c.row == head.row and c.row_span == head.row_span]
            if len(beside) != 2 or any(c.text.strip() for c in beside):
                continue
            table.cells = [c for c in table.cells if all(c is not b for b in beside)]
            head.col, head.col_span = col - 1, 3
            head.x0, head.x1 = min(b.x0 for b in beside), max(b.x1 for b in beside)


def _mark_column(table: FoundTable, col: int) -> bool:
    """True when column ``col`` holds nothing but ")" or "%" printed apart from the amounts before them."""
    own = [c.text.strip() for c in _own_cells(table, col)]
    return any(own) and all(not t or (t[0] in AMOUNT_MARKS and t.strip(AMOUNT_MARKS) == "") for t in own)


def _blank_column(table: FoundTable, col: int) -> bool:
    """True when column ``col`` has cells of its own and every one of them is empty (a spacer between
    value columns)."""
    own = _own_cells(table, col)
    return bool(own) and not any(c.text.strip() for c in own)


def _remove_column(table: FoundTable, col: int) -> None:
    """Drop grid column ``col``, which no cell starts in: the cells across it lose one column of span."""
    for c in table.cells:
        if c.col > col:
            c.col -= 1
        elif c.end_col > col:
            c.col_span -= 1
    table.n_cols -= 1


def _absorb(keep: Cell, mark: Cell, text: str) -> None:
    """Give ``keep`` the column and box of ``mark`` beside it, with ``text``."""
    keep.text = text
    keep.col = min(keep.col, mark.col)
    keep.col_span += 1
    keep.x0, keep.x1 = min(keep.x0, mark.x0), max(keep.x1, mark.x1)
    keep.column_header = keep.column_header or mark.column_header


def _join_column(table: FoundTable, col: int, into: int) -> bool:
    """Merge the own cells of column ``col`` into the cells beside them in column ``into`` (col ± 1);
    False, with nothing changed, when a row has no such neighbour or its mark does not close its amount."""
    beside: dict[tuple[int, int], Cell] = {}
    for c in table.cells:
        edge = c.col if into > col else c.end_col - 1
        if edge == into:
            beside[(c.row, c.row_span)] = c
    plan: list[tuple[Cell, Cell, str]] = []
    for mark in _own_cells(table, col):
        keep = beside.get((mark.row, mark.row_span))
        if keep is None:
            return False
        sign, amount = mark.text.strip(), keep.text.strip()
        if not sign or not amount:
            text = amount or sign
        elif into > col:  # a currency sign before its amount, one space apart as printed: "$ 2,725"
            text = f"{sign} {amount}"
        elif closes_amount(amount, sign[0]):  # "(565" and ")", "12.5" and "%": "(565)", "12.5%"
            text = amount + sign
        else:
            return False
        plan.append((keep, mark, text))
    for keep, mark, text in plan:
        _absorb(keep, mark, text)
    marks = {id(mark) for _, mark, _ in plan}
    table.cells = [c for c in table.cells if id(c) not in marks]
    return True


def join_value_mark_columns(table: FoundTable) -> FoundTable:
    """The table with grid columns of lone value marks joined to the amounts they belong to.

    EDGAR's statements print "$" in a table cell of its own left of the amount, and ")" or "%" in one
    right of it; a grid built from the cell rules then gives "Net sales | $ | 14,694", so the sign reads as
    a value of its own column and the row's amounts no longer line up with the header above them. A column
    whose own cells hold only currency signs (or nothing) joins the column to its right, one holding only
    ")" or "%" the column to its left, and so does an empty spacer column between two value columns; rows
    where a cell already spans both are left as they are. The texts stay the printed characters:
    "$ 14,694", "(565)", "12.5%". Then a value column that is the second table cell of the column left of
    it (see :func:`_complementary_column`) joins that column.
    """
    _centre_group_headings(table)
    col = 0
    while col < table.n_cols:
        if col + 1 < table.n_cols and _sign_column(table, col) and _join_column(table, col, col + 1):
            _remove_column(table, col + 1)
            continue
        if col > 0 and (_mark_column(table, col) or _blank_column(table, col)) and _join_column(table, col, col - 1):
            _remove_column(table, col)
            continue
        col += 1
    col = 2
    while col < table.n_cols:
        if _complementary_column(table, col) and _join_column(table, col, col - 1):
            _remove_column(table, col)
            continue
        col += 1
    return table


def _complementary_column(table: FoundTable, col: int) -> bool:
    """True when value column ``col`` is the second cell of the value column left of it: the left column has
    a heading of its own that ``col`` lacks, both hold only figures, and no row has a figure in both.

    EDGAR's MD&A tables put a row's amount and the percentage under it ("Net sales | $ 14,189" and "(as a %
    of net sales) | 32%") in different table cells of one printed column, and the grid built from the cell
    rules splits them; the percentages then read under no year. Two columns that both have headings
    ("Debit", "Credit") stay apart, however their figures alternate, and so do columns of years or words.
    """
    if _own_heading(table, col, col - 1) or not _own_heading(table, col - 1, col):
        return False
    values, left = _body_texts(table, col), _body_texts(table, col - 1)
    return (bool(values) and bool(left) and left.keys().isdisjoint(values)
            and all(is_quantity(t) for t in (*values.values(), *left.values())))


def _body_texts(table: FoundTable, col: int) -> dict[int, str]:
    """The texts of column ``col``'s own body cells that print something, by row."""
    return {c.row: c.text.strip() for c in _own_cells(table, col) if not c.column_header and c.text.strip()}


def _own_heading(table: FoundTable, col: int, other: int) -> bool:
    """True when a header cell with text stands over column ``col`` without reaching over column ``other``."""
    return any(c.column_header and c.text.strip() and c.col <= col < c.end_col and not c.col <= other < c.end_col
               for c in table.cells)
