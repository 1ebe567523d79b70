"""Tables of contents for the lite parser: runs of lines ending in a dot leader and a page number."""

from __future__ import annotations

import re
from typing import Sequence

from .lite_settings import LiteSettings
from .lite_tables import Cell, FoundTable, LEADER_RE
from .lite_text import Line


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
