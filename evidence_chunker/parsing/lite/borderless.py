"""Borderless tables for the lite parser: runs of lines whose phrases line up in columns.

Financial statements as EDGAR renders them (US 10-K) get extra steps: a currency sign or closing mark
printed in a cell of its own joins its amount ("$ 298,085", "(565)"), and so does a raised footnote mark
printed after it ("5,645 (a)"; :func:`attach_value_marks`); the headings above the columns come from
:mod:`.lite_headings`. A candidate is kept only when it looks
like a table (:func:`_plausible`): quantities in its later columns, short cells, or rules around it.
"""

from __future__ import annotations

import statistics
from typing import Sequence

from semantic_json.rules.patterns import is_caption, is_quantity, is_year
from .heading_groups import centre_over_groups
from .headings import (
    column_span,
    header_lines_above,
    is_short,
    spanner_rule,
    split_heading_line,
    widen_lone_headings,
)
from .settings import LiteSettings
from .stacked_tables import table_titles
from .table_headers import mark_headers
from .found_tables import Cell, Edge, FoundTable, main_font, mostly_bold
from .gutters import column_gutters, crosses_gutter, gutter_basis, is_data_line
from .text import Line, Phrase, join_lines, horizontal_overlap
from .values import attach_value_marks


def is_table_line(line: Line, settings: LiteSettings) -> bool:
    """A line that looks like a table row: several phrases, and a quantity after the first, or all
    short, or a short first phrase (a row label) followed by at most one long one."""
    phrases = line.phrases
    if len(phrases) < 2:
        return False
    if any(is_quantity(p.text) for p in phrases[1:]):
        return True
    long = sum(1 for p in phrases if not is_short(p, settings))
    return long == 0 or (long == 1 and is_short(phrases[0], settings))


#: Two borderless tables join as sections when they overlap by this share of the narrower one.
_SECTION_OVERLAP = 0.7
#: A rule counts for a table (divides rows, widens its box) when it spans this share of its width.
_RULE_SPAN = 0.6
#: A table is framed when a rule of the same extent sits this share of its height away...
_FRAME_DISTANCE = 0.5
#: ...and a rule wider than this many times the table widens it only when the table is framed.
_WIDE_RULE = 1.6
#: A rule right above or below a table counts as its top or bottom rule when it spans this share of it.
_BOUNDING_RULE_SPAN = 0.8


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
    titles = table_titles(lines, kinds, settings)
    tables: list[FoundTable] = []
    i = 0
    while i < len(lines):
        if not kinds[i]:
            i += 1
            continue
        segment = list(range(i, _segment_end(lines, kinds, i, settings, titles) + 1))
        found = _aligned_table(lines, segment, kinds, rules, figures, settings)
        if found is not None:
            table, last = found
            tables.append(table)
            i = last + 1
        else:
            i += 1
    return _join_sections(tables, lines, kinds, rules, figures, settings, titles)


def _join_sections(
    tables: list[FoundTable],
    lines: Sequence[Line],
    kinds: list[bool],
    rules: Sequence[Edge],
    figures: Sequence[tuple],
    settings: LiteSettings,
    titles: set[int] = frozenset(),
) -> list[FoundTable]:
    """Join consecutive borderless tables that are sections of one table (a heading block, blank lines
    between sections): they must be adjacent (only single-phrase lines between them, and no more space
    than ``section_gap`` lines: :func:`_space_between`, no numbered caption and no table title:
    :func:`.stacked_tables.table_titles`), overlap horizontally and rebuild as one (:func:`_rebuilt`)."""
    out: list[FoundTable] = []
    for table in tables:
        if out:
            prev = out[-1]
            overlap = horizontal_overlap(prev, table)
            between = [
                k for k in range(prev.lines[1] + 1, table.lines[0])
                if lines[k].x0 < max(prev.x1, table.x1) and lines[k].x1 > min(prev.x0, table.x0)
            ]
            # a numbered caption between them ("<표 2> 요약 연결손익계산서", "Table 2") opens another table
            adjacent = all(
                not kinds[k] and len(lines[k].phrases) == 1 and lines[k].phrases[0].x1 <= min(prev.x1, table.x1)
                and not is_caption(lines[k].text) and k not in titles
                for k in between
            )
            size = statistics.median(ln.size for ln in lines[prev.lines[0]:table.lines[1] + 1])
            if (
                adjacent
                and len(between) <= settings.max_plain_lines + 1
                and _space_between(prev, [lines[k] for k in between], table, settings) <= settings.section_gap * size
                and overlap >= _SECTION_OVERLAP * min(prev.x1 - prev.x0, table.x1 - table.x0)
            ):
                if (found := _rebuilt(prev, table, lines, kinds, rules, figures, settings)) is not None:
                    out[-1] = found
                    continue
        out.append(table)
    return out


def _rebuilt(upper: FoundTable, lower: FoundTable, lines: Sequence[Line], kinds: list[bool], rules: Sequence[Edge],
             figures: Sequence[tuple], settings: LiteSettings) -> FoundTable | None:
    """``upper`` and ``lower`` rebuilt as one table from ``upper``'s first line, or None when not one table
    as wide as each. A heading over several columns on top of ``upper`` ("As of and for the Fiscal Years
    Ended January 31,") crosses the gutters, ending the table as its line: the rebuild then starts at
    ``upper``'s first line of columns and takes the headings above it again."""
    segment = list(range(upper.lines[0], lower.lines[1] + 1))
    joined_kinds = [k if i not in segment else (k or i == segment[0]) for i, k in enumerate(kinds)]
    found = _aligned_table(lines, segment, joined_kinds, rules, figures, settings, look_above=False)
    start = next((k for k in segment if kinds[k]), None)
    if found is None and not kinds[upper.lines[0]] and start is not None and start <= upper.lines[1]:
        found = _aligned_table(lines, list(range(start, lower.lines[1] + 1)), kinds, rules, figures, settings)
    if found is None or found[0].lines[1] != lower.lines[1] or found[0].n_cols < max(upper.n_cols, lower.n_cols):
        return None
    return found[0]


def _space_between(upper: FoundTable, between: Sequence[Line], lower: FoundTable, settings: LiteSettings) -> float:
    """The vertical space between two parts of a table: from ``upper``'s bottom to ``lower``'s top, or,
    when every line ``between`` them (top to bottom) is a short label, the widest whitespace over those
    lines. A balance sheet's section labels between its parts ("LIABILITIES AND EQUITY", "Current
    liabilities:") are text, not space; a sentence between two tables ("The components of the provision
    for income taxes were as follows:") keeps them apart."""
    if not between or not all(is_short(ln.phrases[0], settings) for ln in between):
        return lower.top - upper.bottom
    edges = [(upper.bottom, upper.bottom), *((ln.top, ln.bottom) for ln in between), (lower.top, lower.top)]
    return max(below[0] - above[1] for above, below in zip(edges, edges[1:]))


def _segment_end(lines: Sequence[Line], kinds: list[bool], start: int, settings: LiteSettings,
                 titles: set[int] = frozenset()) -> int:
    """Index of the last table-like line of the run starting at ``start``.

    The run continues across small vertical gaps and across at most ``max_plain_lines`` consecutive
    plain lines (section labels, wrapped labels); it stops at the title of a table stacked under it
    (``titles``) and at a lead-in sentence after the rows (see :func:`_introduces_table`).
    """
    last = start
    plain = 0
    for j in range(start + 1, len(lines)):
        prev, line = lines[j - 1], lines[j]
        if line.top - prev.bottom > settings.row_gap * max(line.size, prev.size) or is_caption(line.text) or j in titles:
            break
        if not kinds[j] and _introduces_table(lines, kinds, start, j, settings):
            break
        if kinds[j]:
            last, plain = j, 0
        else:
            plain += 1
            if plain > settings.max_plain_lines:
                break
    return last


def _introduces_table(lines: Sequence[Line], kinds: list[bool], start: int, j: int, settings: LiteSettings) -> bool:
    """True when plain line ``j`` is a sentence that announces another table: one phrase longer than a
    cell, ending in a colon ("Our earnings per common share were:"), after rows of figures (from
    ``start``), with a line of headings and no figures ("December 28, 2019  December 29, 2018") as the
    next table-like line. A long section label ending in a colon ("Adjustments to reconcile net income
    ...:") has rows of figures under it, so the table goes on across it."""
    line = lines[j]
    if len(line.phrases) != 1 or is_short(line.phrases[0], settings) or not line.text.rstrip().endswith(":"):
        return False
    if not any(kinds[k] and _has_figures(lines[k]) for k in range(start, j)):
        return False
    nxt = next((k for k in range(j + 1, min(len(lines), j + 2 + settings.max_plain_lines)) if kinds[k]), None)
    return nxt is not None and not _has_figures(lines[nxt])


def _has_figures(line: Line) -> bool:
    """True when a phrase after the line's first is a quantity that is not a year."""
    return any(is_quantity(p.text) and not is_year(p.text) for p in line.phrases[1:])


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
    gutters = column_gutters(gutter_basis(core), settings)
    if not gutters:
        return None
    kept: list[int] = []
    for k in segment:
        if crosses_gutter(lines[k], gutters, settings):
            break
        kept.append(k)
    while kept and not kinds[kept[-1]]:
        kept.pop()
    if kept != segment:
        core = [lines[k] for k in kept if kinds[k]]
        if len(core) < settings.min_table_lines:
            return None
        gutters = column_gutters(gutter_basis(core), settings)
        if not gutters:
            return None
    body = [lines[k] for k in kept]
    x_lo = min(ln.x0 for ln in core)
    x_hi = max(ln.x1 for ln in core)
    bounds = [x_lo - 1] + [(a + b) / 2 for a, b in gutters] + [x_hi + 1]
    n_cols = len(bounds) - 1
    extents = _column_extents(core, bounds)
    header = (
        header_lines_above(lines, kept[0], x_lo, x_hi, gutters, settings, bounds=bounds, extents=extents)
        if look_above else []
    )
    rows_lines = header + body
    data = [i for i, ln in enumerate(rows_lines) if is_data_line(ln)]
    header_zone = data[0] if data else len(header)
    first_gutter = gutters[0][0]
    for i in range(1, header_zone):  # a lone first-column label ends the headings: it is a row
        if rows_lines[i].x1 <= first_gutter:
            header_zone = i
            break
    for i in range(len(header), header_zone):  # heading lines among the table's own lines
        rows_lines[i] = split_heading_line(rows_lines[i], bounds, extents, settings)
    # a cell reads its lines top down and each line left to right: a raised footnote mark after an
    # amount ("5,645 ⁽ᵃ⁾") stays after it
    line_of = {id(p): i for i, ln in enumerate(rows_lines) for p in ln.phrases}
    # place phrases: each line becomes a row of {first_col: (last_col, phrases)}
    placed: list[dict[int, tuple[int, list[Phrase]]]] = []
    for idx, ln in enumerate(rows_lines):
        row: dict[int, tuple[int, list[Phrase]]] = {}
        for p in ln.phrases:
            reach = spanner_rule(p, ln.phrases, rules, x_hi - x_lo, settings) if idx < header_zone else None
            first, last = column_span(reach or p, bounds, extents)
            if first in row:
                end, members = row[first]
                row[first] = (max(end, last), members + [p])
            else:
                row[first] = (last, [p])
        placed.append(row)
    widen_lone_headings(placed, header_zone, extents, settings)
    for idx in range(header_zone):  # a level of group headings ("Pension", "Other Benefits" over the years)
        labelled = {first for row in placed[idx + 1:header_zone] for first, (last, _) in row.items() if 0 < first == last}
        below = [p for _, phrases in placed[idx + 1].values() for p in phrases] if idx + 1 < header_zone else []
        centred = centre_over_groups([(first, last, phrases) for first, (last, phrases) in sorted(placed[idx].items())],
                                     extents, labelled, below, settings)
        placed[idx] = {first: (last, phrases) for first, last, phrases in centred}
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
                    text=join_lines([p.text for p in sorted(phrases, key=lambda p: (line_of[id(p)], p.x0))]),
                    bold=mostly_bold(words), font=main_font(words),
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
    if any(is_quantity(t) for t in texts.values()):
        return False
    prev_is_data = any(is_quantity(t) for c, t in prev_texts.items() if c > 0)
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
            if above - 1 <= e.top <= below + 1 and horizontal_overlap(e, table) >= _RULE_SPAN * width:
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
        and horizontal_overlap(e, table) >= _RULE_SPAN * width
    ]
    for e in near:
        framed = any(
            f is not e and abs(f.x0 - e.x0) <= settings.snap_tolerance and abs(f.x1 - e.x1) <= settings.snap_tolerance
            and abs(f.top - e.top) >= _FRAME_DISTANCE * (table.bottom - table.top)
            for f in near
        )
        if e.x1 - e.x0 <= _WIDE_RULE * width or framed:
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
    numeric = sum(1 for c in later if is_quantity(c.text)) / max(1, len(later))
    words = statistics.mean(len(c.text.split()) for c in texts)
    rows_with_two = sum(1 for r in range(table.n_rows) if sum(1 for c in texts if c.row == r) >= 2)
    width = table.x1 - table.x0
    ruled_above = any(
        abs(e.top - table.top) <= settings.rule_reach and horizontal_overlap(e, table) >= _BOUNDING_RULE_SPAN * width
        for e in rules
    )
    ruled_below = any(
        abs(e.top - table.bottom) <= settings.rule_reach and horizontal_overlap(e, table) >= _BOUNDING_RULE_SPAN * width
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
