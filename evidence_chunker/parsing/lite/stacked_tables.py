"""Tables printed one under the other, each under its own title, for the borderless-table finder.

A note in a filing often sets two tables in a column, the second under a title line of its own
("Provision for Income Taxes") and repeating the column headings ("(Millions) 2022 2021 2020"). On a
born-digital page the title's bold type (or the rules of the first table) keeps the tables apart; a page
read by OCR has neither, and the rows read as one run. The geometry still tells: the title is a line of
words only, standing between blank space above and below, after a row of the table above and before a
line of column headings (several cells, no amounts). Such a line ends the table above and opens the
next; a section label inside one table ("Deferred", "Current liabilities:") has a row, not headings,
under it.
"""

from __future__ import annotations

from typing import Sequence

from .gutters import is_data_line
from .settings import LiteSettings
from .text import Line

__all__ = ["table_titles"]


def _words_only(line: Line) -> bool:
    """A one-phrase line without digits: a title, not a row of figures."""
    return len(line.phrases) == 1 and not any(ch.isdigit() for ch in line.text)


def _headings_line(line: Line) -> bool:
    """A line of column headings: several cells and no amount after the first."""
    return len(line.phrases) > 1 and not is_data_line(line)


def table_titles(lines: Sequence[Line], kinds: Sequence[bool], settings: LiteSettings) -> set[int]:
    """Indices of ``lines`` (top to bottom; ``kinds`` marks the table-like ones) that title a table
    stacked under another: a words-only line with at least ``settings.title_gap`` em of space above and
    below, right after a table-like line and right before a line of column headings."""
    titles: set[int] = set()
    for k in range(1, len(lines) - 1):
        above, line, below = lines[k - 1], lines[k], lines[k + 1]
        if kinds[k] or not kinds[k - 1] or not kinds[k + 1]:
            continue
        if not _words_only(line) or not _headings_line(below):
            continue
        space = settings.title_gap * max(above.size, below.size)
        if line.top - above.bottom >= space and below.top - line.bottom >= space:
            titles.add(k)
    return titles
