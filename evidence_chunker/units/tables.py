"""Reading a docling-core table: header rows, row-header columns, flattened rows, abstract.

Works on ``TableData`` from any parser. Cell text is kept exactly as printed; which cells are numbers
(:mod:`.patterns`) only decides which cells are headers, it never converts a value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docling_core.types.doc import TableCell, TableData

from .header_rows import detect_header_rows
from .heading_spans import span_group_levels, span_lone_headings
from .leaders import without_leaders
from semantic_json.rules.patterns import find_unit, is_number, is_quantity, strip_unit
from semantic_json.rules.patterns import is_year  # (importable from here, as before patterns.py held it)
from .table_render import render_html, render_markdown  # noqa: F401  (importable from here, as before)

#: A unit stated alone in one of a table's first rows ("(in thousands)" over an unflagged header) is lifted too.
UNIT_SCAN_ROWS = 3
#: At most this many leading columns are taken as row headers.
MAX_ROW_HEADER_COLS = 2
#: A column is a row-header column when at most this share of its body cells is numeric...
ROW_HEADER_MAX_NUMERIC_SHARE = 0.2
#: ...and at least this share of the other columns' body cells is numeric.
DATA_MIN_NUMERIC_SHARE = 0.5
#: A parser's row-header flags are trusted for a column when this share of its body cells carries them.
ROW_HEADER_FLAG_SHARE = 0.5
#: Separators of the flattened-row format "row header | column header: value; ...".
ROW_HEADER_SEP = " | "
VALUE_SEP = ": "
PAIR_SEP = "; "
LEVEL_SEP = " / "
SECTION_SEP = " > "
#: How many column labels the abstract names before "and N more".
ABSTRACT_MAX_COLUMNS = 8
#: A row inside a table's body starts a new block of column headings when it prints at least this many
#: headings over the value columns...
BLOCK_HEADING_MIN_CELLS = 2
#: ...each at most this many characters (a heading, not a sentence)...
BLOCK_HEADING_MAX_CHARS = 60
#: ...in a run of at most this many such rows (a row with one heading, "As of December 31,", may stand
#: above them), with rows of figures above and below it (below, a section label may come first).
BLOCK_HEADING_MAX_ROWS = 3

#: A row that closes a section ("Total current assets", "합계"): rows after it no longer belong to it.
_ROMAN_SECTION = re.compile(r"^\s*([ⅠⅡⅢⅣⅤⅥⅦⅧⅨⅩ]+|[IVX]{1,4})\s*[.)]\s*\S")
_TOTAL_ROW = re.compile(r"^\s*(total\b|subtotal\b|합\s*계|소\s*계|총\s*계|계$)", re.IGNORECASE)


#: The name this module gave :func:`.patterns.is_number` before the rule moved there.
is_numeric = is_number


def clean_cell_text(text: str) -> str:
    """Collapse runs of whitespace (line breaks inside a cell) to one space; nothing else changes."""
    return " ".join(text.split())


@dataclass
class TableLayout:
    """A table's grid with its structure decided.

    ``grid[r][c]`` is the text covering that position (spans repeated), ``origin[r][c]`` the
    (row, col) where the covering cell starts, so a span is reported once.
    """

    grid: list[list[str]]
    origin: list[list[tuple[int, int]]]
    header_rows: int
    row_header_cols: int
    section_rows: frozenset[int]
    #: The unit a header cell stated ("Millions, except per share amounts"); taken out of that cell's text.
    unit: str | None = None

    @property
    def num_rows(self) -> int:
        return len(self.grid)

    @property
    def num_cols(self) -> int:
        return len(self.grid[0]) if self.grid else 0

    @property
    def body_rows(self) -> range:
        return range(self.header_rows, self.num_rows)

    def column_levels(self, col: int) -> list[str]:
        """The column's header texts from the top header row down, repeats (spans) once."""
        levels: list[str] = []
        for row in range(self.header_rows):
            text = self.grid[row][col]
            if text and (not levels or levels[-1] != text):
                levels.append(text)
        return levels

    def column_label(self, col: int) -> str:
        """The column's header path over every header row, e.g. "Year ended December 31 / 2024"."""
        return LEVEL_SEP.join(self.column_levels(col))

    def row_labels(self) -> list[str]:
        """The label of each column in flattened rows: its full header path, the period group included
        ("Year ended December 31 / 2024", "Capital Expenditures / 2022"), so one row read alone (a search
        region, a split piece) says what each figure measures. Costs measured in docs/benchmarks.md."""
        return [self.column_label(c) for c in range(self.num_cols)]

    def is_span_continuation(self, row: int, col: int) -> bool:
        """True when (row, col) is covered by a cell that started elsewhere."""
        return self.origin[row][col] != (row, col)


def build_grid(data: TableData) -> tuple[list[list[str]], list[list[tuple[int, int]]], list[list[TableCell | None]]]:
    """Expand cells over their spans: texts as read (dot leaders collapsed), start positions and the covering
    cell for each position."""
    rows, cols = data.num_rows, data.num_cols
    grid = [["" for _ in range(cols)] for _ in range(rows)]
    origin = [[(r, c) for c in range(cols)] for r in range(rows)]
    cells: list[list[TableCell | None]] = [[None for _ in range(cols)] for _ in range(rows)]
    for cell in without_leaders(data).table_cells:
        text = clean_cell_text(cell.text)
        r0, c0 = cell.start_row_offset_idx, cell.start_col_offset_idx
        for r in range(max(r0, 0), min(cell.end_row_offset_idx, rows)):
            for c in range(max(c0, 0), min(cell.end_col_offset_idx, cols)):
                grid[r][c] = text
                origin[r][c] = (r0, c0)
                cells[r][c] = cell
    return grid, origin, cells


def detect_row_header_cols(
    grid: list[list[str]], cells: list[list[TableCell | None]], header_rows: int
) -> int:
    """Number of leading row-header columns: from the parser's flags, else from the data's shape."""
    body = grid[header_rows:]
    body_cells = cells[header_rows:]
    if not body or not body[0]:
        return 0
    num_cols = len(body[0])
    flag_cols = 0
    for c in range(min(MAX_ROW_HEADER_COLS, num_cols - 1)):
        filled = [cells_row[c] for cells_row, row in zip(body_cells, body) if row[c]]
        if filled and sum(1 for cell in filled if cell is not None and cell.row_header) / len(filled) >= ROW_HEADER_FLAG_SHARE:
            flag_cols += 1
        else:
            break
    if flag_cols:
        return flag_cols
    return infer_row_header_cols(body)


def infer_row_header_cols(body: list[list[str]]) -> int:
    """Leading label columns followed by columns that hold mostly numeric data."""
    num_cols = len(body[0])
    if num_cols < 2:
        return 0
    shares = [_numeric_share([row[c] for row in body]) for c in range(num_cols)]
    count = 0
    for c in range(min(MAX_ROW_HEADER_COLS, num_cols - 1)):
        rest = [s for s in shares[c + 1 :] if s is not None]
        if shares[c] is None or shares[c] > ROW_HEADER_MAX_NUMERIC_SHARE:
            break
        if not rest or max(rest) < DATA_MIN_NUMERIC_SHARE:
            break
        count += 1
    if count == 0 and all(s is not None and s <= ROW_HEADER_MAX_NUMERIC_SHARE for s in shares):
        # A text table: its first column keys the rows when every row has a distinct, filled first cell.
        first = [row[0] for row in body]
        if all(first) and len(set(first)) == len(first) and len(body) > 1:
            return 1
    return count


#: A range of two figures ("3% - 6%", "5% - (1)%", "$1.2 to $1.5"): numeric data as much as a figure.
_RANGE = re.compile(r"^(.+?)\s*(?:\s-\s?|\s?-\s|[–—]|\bto\b)\s*(.+)$")


def _is_numeric(text: str) -> bool:
    """A number, or a range of two numbers."""
    if is_number(text):
        return True
    found = _RANGE.match(text)
    return bool(found) and is_number(found.group(1)) and is_number(found.group(2))


def _numeric_share(texts: list[str]) -> float | None:
    """Share of the non-empty texts that are numeric (ranges count); None for an empty column."""
    filled = [t for t in texts if t]
    if not filled:
        return None
    return sum(1 for t in filled if _is_numeric(t)) / len(filled)


def detect_section_rows(grid: list[list[str]], header_rows: int, row_header_cols: int) -> frozenset[int]:
    """Body rows that only carry a label ("Current assets"): they title the rows below them."""
    if row_header_cols == 0:
        return frozenset()
    sections = set()
    for r in range(header_rows, len(grid)):
        row = grid[r]
        if row[0] and not any(row[c] for c in range(row_header_cols, len(row)) if row[c] != row[0]):
            sections.add(r)
    return frozenset(sections)


def analyse_table(data: TableData, contents: bool = False) -> TableLayout:
    """Decide the structure of ``data``: header rows, row-header columns and section rows. A table of
    ``contents`` has no column headers: every line is a title and its page."""
    grid, origin, cells = build_grid(data)
    if not grid or not grid[0]:
        return TableLayout(grid=grid, origin=origin, header_rows=0, row_header_cols=0, section_rows=frozenset())
    header_rows = 0 if contents else detect_header_rows(grid, cells)
    unit = lift_unit(grid, header_rows)
    row_header_cols = detect_row_header_cols(grid, cells, header_rows)
    span_group_levels(grid, origin, header_rows, max(row_header_cols, 1))
    span_lone_headings(grid, origin, cells, header_rows, max(row_header_cols, 1))
    sections = detect_section_rows(grid, header_rows, row_header_cols)
    return TableLayout(grid=grid, origin=origin, header_rows=header_rows, row_header_cols=row_header_cols,
                       section_rows=sections, unit=unit)


def lift_unit(grid: list[list[str]], header_rows: int) -> str | None:
    """Take the unit statement out of the header cells, in place ("(단위: 백만원) 제26기" → "제26기"); return it.

    A unit is said of the whole table, not of one column: left in a header it would name every value of the
    column it sits over. Only the derived grid changes; the table's cells (and its HTML) stay as printed.
    """
    unit = None
    for r, row in enumerate(grid[: max(header_rows, UNIT_SCAN_ROWS)]):
        filled = [c for c, text in enumerate(row) if text]
        for c in filled:
            found = find_unit(row[c])
            # below the header rows only a row that says nothing but the unit ("(in thousands)") is lifted
            if found and (r < header_rows or len(set(row[i] for i in filled)) == 1):
                unit = unit or found
                for i in filled if r >= header_rows else [c]:
                    row[i] = strip_unit(row[i])
    return unit


def _is_block_heading_row(layout: TableLayout, r: int) -> bool:
    """True when body row ``r`` prints headings over the value columns and no figure: at least
    BLOCK_HEADING_MIN_CELLS cells, each a year or words ("Capital Expenditures", "2018"), none a figure or a
    nil mark ("n/a", "—"), none longer than BLOCK_HEADING_MAX_CHARS."""
    if r in layout.section_rows:
        return False
    row = layout.grid[r]
    texts = [row[c] for c in _cell_starts(layout, r) if c >= layout.row_header_cols and row[c]]
    return len(texts) >= BLOCK_HEADING_MIN_CELLS and all(
        not is_quantity(t) and len(t) <= BLOCK_HEADING_MAX_CHARS and (is_year(t) or any(ch.isalpha() for ch in t))
        for t in texts
    )


#: A rate or a decimal inside a text ("graded from 6.25% in 2021"): a value's words, not a heading.
_INNER_FIGURE = re.compile(r"\d[.,]?\d*\s?%|\d\.\d")


def _is_heading_text(text: str) -> bool:
    """A heading over values: words or a year, short, and no figure inside (a rate, a decimal)."""
    return not is_quantity(text) and len(text) <= BLOCK_HEADING_MAX_CHARS and (
        is_year(text) or any(ch.isalpha() for ch in text)) and not _INNER_FIGURE.search(text)


def _value_texts(layout: TableLayout, r: int) -> list[str]:
    """The texts of row ``r``'s cells over the value columns, a spanning cell read once."""
    row = layout.grid[r]
    return [row[c] for c in _cell_starts(layout, r) if c >= layout.row_header_cols and row[c]]


def _has_figure(layout: TableLayout, r: int) -> bool:
    return any(is_quantity(t) for t in layout.grid[r][layout.row_header_cols:] if t)


def _heading_run(layout: TableLayout, r: int) -> int:
    """How many rows from body row ``r`` head a block (:func:`header_blocks`): up to BLOCK_HEADING_MAX_ROWS
    heading rows, the first may be a lone heading ("As of December 31,"); 0 when there is no heading row."""
    run = 0
    while r + run < layout.num_rows and run < BLOCK_HEADING_MAX_ROWS and r + run not in layout.section_rows:
        texts = _value_texts(layout, r + run)
        if not texts or not all(_is_heading_text(t) for t in texts):
            break
        run += 1
    while run and not _is_block_heading_row(layout, r + run - 1):  # a lone heading heads the rows below it
        run -= 1
    return run


def _figures_follow(layout: TableLayout, r: int) -> bool:
    """True when row ``r`` prints a figure, or is a label alone ("Deferred tax assets:") over one that does."""
    if r >= layout.num_rows:
        return False
    if _has_figure(layout, r):
        return True
    return not _value_texts(layout, r) and r + 1 < layout.num_rows and _has_figure(layout, r + 1)


def header_blocks(layout: TableLayout) -> list[tuple[int, int, int]]:
    """The blocks of measures a table's grid stacks, each under its own headings: ``(start, header_rows,
    end)`` per block in grid rows (end exclusive); one block, the whole table, when it stacks none.

    A run of at most BLOCK_HEADING_MAX_ROWS body rows printing headings and no figure
    (:func:`_is_block_heading_row`; a row of one heading may open it), with figures above it and in the
    row after it (or after a section label right under it), heads the rows below it: "Net Sales | Operating Income" over three years, then "Assets | Capital Expenditures" over the
    same years, in one grid. Under the first headings, the lower figures read as the upper measures."""
    blocks: list[tuple[int, int, int]] = []
    start, heads = 0, layout.header_rows
    figures_above = False
    r = layout.header_rows
    while r < layout.num_rows:
        run = _heading_run(layout, r)
        below = r + run
        if run and figures_above and _figures_follow(layout, below):
            blocks.append((start, heads, r))
            start, heads, figures_above = r, run, False
            r = below
            continue
        figures_above = figures_above or _has_figure(layout, r)
        r += 1
    blocks.append((start, heads, layout.num_rows))
    return blocks


def is_major_section(label: str) -> bool:
    """A top-level section row: written in capitals ("ASSETS", "LIABILITIES AND EQUITY") or numbered
    with a Roman numeral ("Ⅰ. 유동자산", "II. Non-current assets")."""
    letters = [ch for ch in label if ch.isalpha()]
    if letters and all("A" <= ch <= "Z" for ch in letters) and len(letters) >= 3:
        return True
    return bool(_ROMAN_SECTION.match(label))


def _closes(total_label: str, section: str) -> bool:
    """True when a total row names the section: "Total assets" closes "ASSETS"."""
    named = _TOTAL_ROW.sub("", total_label, count=1).strip(" :：").lower()
    return bool(named) and named == section.strip(" :：").lower()


def _cell_starts(layout: TableLayout, r: int) -> list[int]:
    """The columns of row ``r`` where a cell starts, left to right: a cell spanning columns is read once."""
    return [c for c in range(layout.num_cols) if not (c > 0 and layout.origin[r][c] == layout.origin[r][c - 1])]


def flatten_rows(layout: TableLayout) -> list[str]:
    """One line per body row: "row header | column header: value; ..."; empty cells are skipped, and a row
    with nothing in it gives "" (so line i is body row i, whose rows a split slices from ``table_data``).
    Column headers are full header paths (see ``TableLayout.row_labels``).

    A section row ("Current assets") becomes its own line and prefixes the rows under it
    ("Current assets > Cash | 2024: 1,234") up to and including its total row ("Total current assets").
    Sections nest one level: a capitalised or Roman-numbered section ("ASSETS") holds the ones under it
    ("ASSETS > Current assets > Cash") until its own total row ("Total assets") or the next such section.
    Every non-empty body cell appears in exactly one line.
    """
    lines: list[str] = []
    major, minor = "", ""
    labels = layout.row_labels()
    for r in layout.body_rows:
        row = layout.grid[r]
        if r in layout.section_rows:
            lines.append(row[0])
            label = row[0].rstrip(":： ")
            if is_major_section(label):
                major, minor = label, ""
            else:
                minor = label
            continue
        starts = _cell_starts(layout, r)
        head_parts = [row[c] for c in starts if c < layout.row_header_cols and row[c]]
        head = LEVEL_SEP.join(head_parts)
        is_total = bool(head_parts) and bool(_TOTAL_ROW.match(head_parts[0]))
        closes_major = is_total and bool(major) and _closes(head_parts[0], major)
        if closes_major:
            minor = ""  # "Total assets" sums the whole of ASSETS, not its last subsection
        prefix = SECTION_SEP.join(p for p in (major, minor) if p)
        if prefix and head:
            head = prefix + SECTION_SEP + head
        pairs = [f"{labels[c]}{VALUE_SEP}{row[c]}" if labels[c] else row[c]
                 for c in starts if c >= layout.row_header_cols and row[c]]
        body = PAIR_SEP.join(pairs)
        if head and body:
            lines.append(f"{head}{ROW_HEADER_SEP}{body}")
        else:  # "" for a row with nothing in it (a spacer, a unit line): still one line per body row
            lines.append(head or body)
        if is_total:
            minor = ""
            if closes_major:
                major = ""
    return lines


def grid_rows(layout: TableLayout) -> list[str]:
    """One line per body row in the table's own column order: "row header | value | value", the compact
    twin of ``flatten_rows`` for retrieval text. The header lines name the columns once, where a flattened
    row names them at every value, so a row is a third of the length and a column's words do not outweigh
    the row's own. Spans once; an empty value cell keeps its place ("Interest |  | (72)") up to the row's
    last value; a section row is its label; a row with nothing in it gives "" (line i is body row i)."""
    lines: list[str] = []
    for r in layout.body_rows:
        row = layout.grid[r]
        if r in layout.section_rows:
            lines.append(row[0])
            continue
        starts = _cell_starts(layout, r)
        head = LEVEL_SEP.join(row[c] for c in starts if c < layout.row_header_cols and row[c])
        values = [row[c] for c in starts if c >= layout.row_header_cols]
        while values and not values[-1]:
            values.pop()
        lines.append(ROW_HEADER_SEP.join([head, *values] if head else values))
    return lines


def header_lines(layout: TableLayout) -> list[str]:
    """The column-header rows as text lines (spans once), for pieces that repeat the header."""
    lines = []
    for r in range(layout.header_rows):
        cells = [layout.grid[r][c] for c in range(layout.num_cols) if not layout.is_span_continuation(r, c)]
        line = ROW_HEADER_SEP.join(t for t in cells if t)
        if line:
            lines.append(line)
    return lines


def table_abstract(caption: str | None, layout: TableLayout, row_count: int | None = None, *, unit: str | None = None,
                   period: str | None = None, entity: str | None = None, headings: list[str] | None = None) -> str:
    """A rule-based summary: caption (and the entity it is about), period, unit, section, size and column
    labels. No model involved."""
    rows = layout.num_rows - layout.header_rows if row_count is None else row_count
    labels = []
    for c in range(layout.row_header_cols, layout.num_cols):
        label = layout.column_label(c)
        if label and label not in labels:
            labels.append(label)
    subject = caption.strip() if caption else "Table"
    if entity:
        subject = f"{subject} ({entity})"
    parts = [f"{subject}: {rows} rows x {layout.num_cols} columns."]
    if period:
        parts.append(f"Period: {period}.")
    if unit:
        parts.append(f"Unit: {unit}.")
    if headings:
        parts.append("Section: " + SECTION_SEP.join(headings) + ".")
    if labels:
        shown = labels[:ABSTRACT_MAX_COLUMNS]
        more = len(labels) - len(shown)
        parts.append("Columns: " + ", ".join(shown) + (f" and {more} more." if more else "."))
    return " ".join(parts)


