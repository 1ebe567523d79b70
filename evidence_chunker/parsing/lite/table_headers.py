"""Header rows, row headers and section rows of a found table, from cell styles, rules and content."""

from __future__ import annotations


import re

from semantic_json.rules.patterns import is_quantity, is_year
from .settings import LiteSettings
from .found_tables import Cell, FoundTable


#: Bold first-column labels make a row header when they fill this share of the body rows.
_BOLD_LABEL_ROWS = 0.5
#: Header rows in bold stand out when less than this share of the body text is bold.
_BOLD_BODY_SHARE = 0.5
#: A day of the month in a heading ("December 31,"), or a footnote number ("(1)").
_DAY = re.compile(r"\(?\d{1,2}\)?,?")
#: Rules under at most this many rows can mark the header rows.
_MAX_RULED_HEADER_ROWS = 2


def mark_headers(table: FoundTable, rule_rows: set[int], settings: LiteSettings,
                 continued_rows: set[int] = frozenset()) -> None:
    """Set ``column_header`` on heading rows, ``row_header`` on a label column, ``row_section`` on
    rows that only carry a label.

    Heading rows are the leading rows above the first row of quantities that carry column labels (a
    first row with a label over the label column alone, the table's title line, does not end them); in
    a table without quantities, the first row counts only when its style (bold, font, a rule below
    it) sets it apart from the body. At most ``max_header_rows`` heading rows, not counting the
    ``continued_rows``: rows cut from the one above by the lines of its text, not by a rule (a ruled
    grid's heading row whose headings wrap over five lines).
    """
    by_row: dict[int, list[Cell]] = {}
    for c in table.cells:
        by_row.setdefault(c.row, []).append(c)
    rows = [sorted(by_row.get(r, []), key=lambda c: c.col) for r in range(table.n_rows)]

    def filled(row: list[Cell]) -> list[Cell]:
        return [c for c in row if c.text]

    def data_row(row: list[Cell]) -> bool:
        return any(is_quantity(c.text) for c in filled(row) if c.col > 0)

    data_rows = [r for r, row in enumerate(rows) if data_row(row)]
    header_count = 0
    if len(data_rows) >= 2 or (data_rows and (table.n_rows <= 3 or _headed_row(rows, data_rows[0]))):
        first = data_rows[0]
        budget = settings.max_header_rows + sum(1 for r in continued_rows if r < first)
        for r in range(min(first, budget)):
            row = filled(rows[r])
            labels_beyond_first = any(c.col > 0 or c.col_span > 1 for c in row)
            if any(is_quantity(c.text) for c in row):
                break
            if not labels_beyond_first:
                if header_count == 0 and r + 1 < first and r + 1 < budget:
                    continue  # a label over the label column above the heading rows (the table's title line)
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
        labels = sum(1 for c in first_col if not is_quantity(c.text)) / len(first_col)
        quantities = sum(1 for c in others if is_quantity(c.text)) / len(others)
        bold_labels = all(c.bold for c in first_col) and not all(c.bold for c in others)
        coverage = len(first_col) / max(1, len(body))
        if (labels >= settings.row_header_labels and quantities >= settings.row_header_numbers) or (
            bold_labels and coverage >= _BOLD_LABEL_ROWS and table.kind != "index"
        ):
            for c in first_col:
                c.row_header = True
            if quantities >= settings.row_header_numbers:
                for row in body:
                    cells = filled(row)
                    if len(cells) == 1 and cells[0].col == 0 and not is_quantity(cells[0].text):
                        cells[0].row_section = True


def _headed_row(rows: list[list[Cell]], data: int) -> bool:
    """True when the one row of figures, ``data``, is the last row and the rows above it print no figure
    in a value column but years and days ("January 1, 2023"): four lines of headings over "Long-term Debt
    | $ 8,665 | ...", not rows of ranges and terms ("Risk-free interest rate | 1.77-2.66%") over one of
    amounts."""
    above = [c.text for row in rows[:data] for c in row if c.text and c.col > 0]
    return data == len(rows) - 1 and bool(above) and all(_heading_tokens(text) for text in above)


def _heading_tokens(text: str) -> bool:
    """True when every token of ``text`` with a digit is a year or a day of the month ("31,", "(1)")."""
    return all(not any(ch.isdigit() for ch in token) or is_year(token.strip(",()")) or _DAY.fullmatch(token)
               for token in text.split())


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
    evidence = (bold_first and bold_body < _BOLD_BODY_SHARE) or distinct_font or (1 in rule_rows and len(rule_rows) <= _MAX_RULED_HEADER_ROWS)
    if not evidence:
        return 0
    if len(rows) > 2 and any(c.col_span > 1 for c in first):
        second = [c for c in rows[1] if c.text]
        if second and all(c.bold == bold_first and c.font in fonts_first for c in second):
            return 2
    return 1
