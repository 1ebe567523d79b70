"""Dot leaders: the runs of dots a table of contents (or an old-style statement) prints between a title and
its page number or figure ("Notices . . . . . . . vii", "Net sales.......... $ 1,234").

They carry no words and cost tokens: the 42 lines of one Docling table of contents (redp5110_sampled, page
2 of the reference corpus) took 2,047 cl100k tokens with their leaders. What an LLM receives (Markdown
table, flattened rows, abstract) shows a leader inside a cell as one ellipsis and drops it at a cell's
edge; the cells themselves (``EvidenceUnit.table_data``, the HTML) keep the text as printed.
"""

from __future__ import annotations

import re

from docling_core.types.doc import TableData

#: Characters a leader is printed with: dots, middle dots (Korean reports), ellipses.
LEADER_CHARS = ".·…‥"
#: A leader is at least this many of them, each followed by at most one space ("Notices . . . . vii").
MIN_LEADER_CHARS = 4
#: What a leader between two words becomes.
LEADER_MARK = "…"

_LEADER = re.compile(rf"\s*(?:[{LEADER_CHARS}]\s?){{{MIN_LEADER_CHARS},}}\s*")
# a lone leader dot left at a cell's edge when the leader ran over a column boundary (". vii", "Notices .")
_STRAY_HEAD = re.compile(rf"^(?:[{LEADER_CHARS}]\s+)+(?=\S)")
_STRAY_TAIL = re.compile(rf"(?<=\S)(?:\s+[{LEADER_CHARS}])+$")


def has_leader(text: str) -> bool:
    """True when ``text`` prints a dot leader."""
    return _LEADER.search(text) is not None


def collapse_leaders(text: str) -> str:
    """``text`` with each leader inside it as " … " and any leader at its start or end removed (with a
    lone leader dot there): "Notices . . . . . vii" → "Notices … vii", "Authors. . . . ." → "Authors",
    ". ix" → "ix" (after a leader elsewhere in the text). Text without a leader comes back unchanged."""
    if not has_leader(text):
        return text
    out = _LEADER.sub(f" {LEADER_MARK} ", text).strip()
    while out.startswith(LEADER_MARK) or out.endswith(LEADER_MARK):
        out = out.strip(LEADER_MARK).strip()
    return _STRAY_TAIL.sub("", _STRAY_HEAD.sub("", out))


def collapse_cell_leaders(texts: list[str]) -> list[str]:
    """The cells of one table as read: leaders collapsed, and the lone dots a leader left at the edge of
    another cell of the same table removed (". vii" beside "Notices . . . . ."). Cells of a table that
    prints no leader come back unchanged."""
    if not any(has_leader(text) for text in texts):
        return texts
    return [_STRAY_TAIL.sub("", _STRAY_HEAD.sub("", collapse_leaders(text))) for text in texts]


def without_leaders(data: TableData) -> TableData:
    """``data`` with its cells' leaders collapsed (:func:`collapse_cell_leaders`); ``data`` itself when it
    prints none."""
    texts = [cell.text for cell in data.table_cells]
    read = collapse_cell_leaders(texts)
    if read is texts:
        return data
    cells = [cell.model_copy(update={"text": text}) for cell, text in zip(data.table_cells, read)]
    return TableData(num_rows=data.num_rows, num_cols=data.num_cols, table_cells=cells)
