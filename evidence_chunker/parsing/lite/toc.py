"""Tables of contents for the lite parser: runs of lines ending in a dot leader and a page number, and
found tables whose last column holds the pages of the titles in their first ("Index to Financial
Statements | Page")."""

from __future__ import annotations

import re
from typing import Sequence

from .settings import LiteSettings
from .found_tables import Cell, FoundTable, LEADER_RE
from .text import Line


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


#: A page reference in a table of contents: "46", "F-1", "A-3", "46-50", "F-2 – F-4".
PAGE_REF_RE = re.compile(r"(?:[A-Z]{1,2}-)?(?P<page>\d{1,3})(?:\s*[-–]\s*(?:[A-Z]{1,2}-)?\d{1,3})?")
#: Words that head the page column of a table of contents.
PAGE_WORD_RE = re.compile(r"^(?:pages?|page\s+no\.?|페이지|쪽)$", re.IGNORECASE)
#: A table of contents without a "Page" heading needs this many rows with a page reference.
INDEX_MIN_ROWS = 6
#: ...with one the rows of a short index ("Income Statements | 52", "Balance Sheets | 54", ...) suffice.
INDEX_MIN_ROWS_HEADED = 3
#: Share of the rows with a last cell that must end in a page reference, and of neighbouring references
#: that must not go back (a table of contents runs forward through the document).
INDEX_PAGE_SHARE = 0.8


def _page_of(cells: list[Cell]) -> int | None:
    """The page a row of a table of contents refers to (its last filled cell), when its first cell is a
    title (words, not a figure); None for any other row."""
    match = PAGE_REF_RE.fullmatch(cells[-1].text.strip())
    title = cells[0].text.strip()
    if match and not PAGE_REF_RE.fullmatch(title) and any(ch.isalpha() for ch in title):
        return int(match.group("page"))
    return None


def _leads_with_index(rows: list[list[Cell]]) -> bool:
    """True when the table's first INDEX_MIN_ROWS rows or more are title and page, the pages running
    forward: an index printed on one grid with what follows it (Item 15's "Index to Financial Statements"
    above the exhibit list)."""
    pages: list[int] = []
    for cells in rows:
        page = _page_of(cells)
        if page is None or (pages and page < pages[-1]):
            break
        pages.append(page)
    return len(pages) >= INDEX_MIN_ROWS


def is_page_index(table: FoundTable) -> bool:
    """True for a found table that is a table of contents: the last filled cell of nearly every row is a
    page reference, the references run forward, the first cells are titles (not figures), and either a
    cell says "Page" or the rows are many; or its leading rows are such an index (_leads_with_index)."""
    by_row: dict[int, list[Cell]] = {}
    for c in sorted(table.cells, key=lambda c: (c.row, c.col)):
        if c.text.strip():
            by_row.setdefault(c.row, []).append(c)
    headed = any(PAGE_WORD_RE.match(c.text.strip()) for c in table.cells)
    rows = [cells for cells in by_row.values() if len(cells) >= 2 and not PAGE_WORD_RE.match(cells[-1].text.strip())]
    if _leads_with_index(rows):
        return True
    pages = [page for page in map(_page_of, rows) if page is not None]
    if len(pages) < (INDEX_MIN_ROWS_HEADED if headed else INDEX_MIN_ROWS) or len(pages) < INDEX_PAGE_SHARE * len(rows):
        return False
    forward = sum(1 for a, b in zip(pages, pages[1:]) if b >= a)
    return forward >= INDEX_PAGE_SHARE * (len(pages) - 1)
