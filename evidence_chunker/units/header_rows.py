"""How many of a table's leading rows are its column headers: the parser's flags where it set any (with the
label-only and period lines a parser leaves unflagged between them), else inferred from the rows' texts."""

from __future__ import annotations

from docling_core.types.doc import TableCell

from semantic_json.rules.patterns import is_quantity

#: At most this many leading rows are taken as column headers when the parser did not flag them.
MAX_INFERRED_HEADER_ROWS = 3


def detect_header_rows(grid: list[list[str]], cells: list[list[TableCell | None]]) -> int:
    """Number of leading column-header rows: the parser's flags when it set any, else inferred.

    A parser that flagged row headers but no column header is saying the table has none (a key-value box).
    """
    flagged = [any(c is not None and c.column_header for c in row) for row in cells]
    any_row_header = any(c is not None and c.row_header for row in cells for c in row)
    if any(flagged) or any_row_header:
        count = 0
        for r, is_header in enumerate(flagged):
            if is_header:
                count = r + 1
            elif any(grid[r][1:]):  # a row with only a label ("(Unaudited)") between heading rows is theirs
                if count and r == count + 1 and _unflagged_heading_row(grid, r):
                    count = r + 1  # under the label of the item column, printed beside two heading lines
                    continue
                break
        return min(count, len(grid) - 1) if len(grid) > 1 else count
    return infer_header_rows(grid, cells)


def _unflagged_heading_row(grid: list[list[str]], r: int) -> bool:
    """Whether row ``r``, right under a row that holds only the item column's label ("Item / 항목", printed
    centred beside the two heading lines and read as a line of its own), is the lower heading line: at
    least two headings over the value columns ("4Q24 3Q25 4Q25 QoQ YoY FY2024"), no figure among them, and
    figures in the rows below."""
    headings = [t for t in grid[r][1:] if t]
    if len(headings) < 2 or any(is_quantity(t) for t in headings):
        return False
    return any(is_quantity(t) for row in grid[r + 1 :] for t in row[1:] if t)


def infer_header_rows(grid: list[list[str]], cells: list[list[TableCell | None]]) -> int:
    """Leading rows with no data value (years allowed) above rows that have data, or spanning the columns."""
    limit = min(MAX_INFERRED_HEADER_ROWS, len(grid) - 1)
    count = 0
    for r in range(limit):
        row = grid[r]
        values = [t for t in row[1:] if t]
        if not values:
            # An empty row or one with only a first-column label: a header only above other headers.
            break
        has_data = any(is_quantity(t) for t in values)
        if has_data:
            break
        count += 1
    if count == 0:
        return 0
    # Text-only tables: the first row is a header only when the rows below differ from it in kind.
    body_has_data = any(is_quantity(t) for row in grid[count:] for t in row[1:] if t)
    if not body_has_data:
        spans = any(c is not None and c.col_span > 1 for c in cells[0])
        return 1 if spans or _looks_like_label_row(grid[0]) else 0
    return count


def _looks_like_label_row(row: list[str]) -> bool:
    """Short, distinct labels: how a header row of a text table looks."""
    filled = [t for t in row if t]
    return bool(filled) and len(set(filled)) == len(filled) and all(len(t) <= 40 for t in filled)
