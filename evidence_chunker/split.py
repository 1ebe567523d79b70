"""Row-wise splitting of Evidence Units that exceed the token limit.

Every piece repeats the caption and the column-header rows, holds whole body rows, and stays within the
limit by ``count_eu_tokens``. A unit is cut into as few pieces as the limit allows, of sizes as even as
that number allows (not a full first piece and a last piece of one row). Context above goes with the
first piece, context below and footnotes with the last, each only where it fits. When not even one row
fits beside the header, the unit passes through unchanged as ``llm_summary``: a layer above must
summarise it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from docling_core.types.doc import TableData

from .tables import render_html, render_markdown, slice_table_data
from .tokens import DEFAULT_TOKEN_LIMIT, count_eu_tokens, count_tokens
from .units import EvidenceUnit, PageBox

#: The limit ``split_eu`` applies by default (cl100k tokens of ``EvidenceUnit.text``).
SPLIT_LIMIT = DEFAULT_TOKEN_LIMIT

SplitKind = Literal["single", "row_split", "llm_summary"]


@dataclass
class SplitResult:
    """What ``split_eu`` did: ``kind`` and the units that result (one unit unless ``row_split``)."""

    kind: SplitKind
    units: list[EvidenceUnit]
    reason: str = ""


@dataclass
class SplitStats:
    """Counts per outcome over a batch, plus the number of pieces written."""

    single: int = 0
    row_split: int = 0
    llm_summary: int = 0
    pieces: int = 0
    oversized_ids: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, int]:
        return {"single": self.single, "row_split": self.row_split, "llm_summary": self.llm_summary, "pieces": self.pieces}


def rows_boxes(data: TableData | None, header_rows: int, start: int, end: int, row_pages: list[int]) -> list[PageBox]:
    """The boxes of body rows ``start``..``end`` (their cell boxes joined, one box per page); empty when
    the cells carry no boxes. The header rows are left out: they may sit a page away from the rows."""
    if data is None or not row_pages:
        return []
    joined: dict[int, list[float]] = {}
    for cell in data.table_cells:
        bbox = cell.bbox
        if bbox is None or bbox.coord_origin.value != "BOTTOMLEFT":
            continue
        row = cell.start_row_offset_idx - header_rows
        if not (start <= row < end and row < len(row_pages)):
            continue
        box = joined.setdefault(row_pages[row], [bbox.l, bbox.t, bbox.r, bbox.b])
        box[0], box[1], box[2], box[3] = min(box[0], bbox.l), max(box[1], bbox.t), max(box[2], bbox.r), min(box[3], bbox.b)
    return [PageBox(page=page, bbox=tuple(box)) for page, box in sorted(joined.items())]


def _normalised_like(eu: EvidenceUnit, box: PageBox) -> tuple[float, float, float, float]:
    """``box`` normalised to 0..1 with the page size implied by the unit's own absolute and normalised
    table boxes (pages of one report share a size); the unit's bbox when that size cannot be told."""
    if not eu.page_boxes:
        return eu.bbox
    l, t, r, b = eu.page_boxes[0].bbox
    nl, nt, nr, nb = eu.bbox
    if nr - nl <= 0 or nt - nb <= 0:
        return eu.bbox
    width, height = (r - l) / (nr - nl), (t - b) / (nt - nb)
    clamp = lambda v: min(max(v, 0.0), 1.0)  # noqa: E731
    return (clamp(box.bbox[0] / width), clamp(box.bbox[1] / height), clamp(box.bbox[2] / width), clamp(box.bbox[3] / height))


@dataclass
class _MarkdownRows:
    """A unit's Markdown table as its header lines and one line per body row, so that a piece's table is its
    header lines and its own rows' lines, as the whole table showed them (no second render)."""

    header: list[str]
    rows: list[str]
    #: True when the table marks no header: its first row is shown as the header line, over ``header``
    #: (the separator alone), and a piece shows its own first row there.
    first_row_heads: bool

    @classmethod
    def of(cls, eu: EvidenceUnit) -> "_MarkdownRows | None":
        """None when the unit has no Markdown or its lines are not one per body row."""
        if not eu.table_markdown:
            return None
        lines, body = eu.table_markdown.split("\n"), len(eu.flattened_rows)
        if len(lines) == body + 2 and body:
            return cls(lines[:2], lines[2:], False)
        if len(lines) == body + 1 and body:
            return cls(lines[1:2], [lines[0], *lines[2:]], True)
        return None

    def piece(self, start: int, end: int) -> str:
        rows = self.rows[start:end]
        lines = [rows[0], *self.header, *rows[1:]] if self.first_row_heads else [*self.header, *rows]
        return "\n".join(lines)


def _piece(eu: EvidenceUnit, data: TableData | None, start: int, end: int, first: bool, last: bool,
           with_before: bool, with_after: bool, markdown_rows: _MarkdownRows | None = None,
           sized_only: bool = False) -> EvidenceUnit:
    """Body rows ``start``..``end`` of ``eu`` as an unnumbered piece (ids are set once all pieces exist).
    ``sized_only``: a piece only to be counted (its ``text``), without its HTML and table data."""
    header_rows = eu.header_row_count
    sliced = slice_table_data(data, header_rows, start, end) if data is not None else None
    html = render_html(sliced) if sliced is not None and not sized_only else None
    if markdown_rows is not None:
        markdown = markdown_rows.piece(start, end)
    else:
        markdown = render_markdown(sliced) if sliced is not None else None
    row_pages = eu.row_pages[start:end]
    pages = set(row_pages) or {eu.page_no}
    before = eu.context_before if (first and with_before) else []
    after = eu.context_after if (last and with_after) else []
    if before:
        pages |= set(eu.context_before_pages)
    if after:
        pages |= set(eu.context_after_pages)
    own_boxes = rows_boxes(data, eu.header_row_count, start, end, eu.row_pages)
    return replace(
        eu,
        bbox=_normalised_like(eu, own_boxes[0]) if own_boxes else eu.bbox,
        flattened_rows=eu.flattened_rows[start:end],
        grid_rows=eu.grid_rows[start:end],
        row_pages=row_pages,
        table_html=html,
        table_markdown=markdown,
        context_before=list(before),
        context_before_pages=list(eu.context_before_pages) if before else [],
        context_after=list(after),
        context_after_pages=list(eu.context_after_pages) if after else [],
        footnotes=list(eu.footnotes) if (last and with_after) else [],
        context_refs=(eu.context_refs[: len(eu.context_before)] if before else [])
        + (eu.context_refs[len(eu.context_before) :] if after else []),
        context_before_boxes=list(eu.context_before_boxes) if before else [],
        context_after_boxes=list(eu.context_after_boxes) if after else [],
        page_span=pages,
        page_boxes=own_boxes or [b for b in eu.page_boxes if b.page in pages] or list(eu.page_boxes[:1]),
        body_row_range=(start, end),
        table_data=sliced.model_dump(mode="json") if sliced is not None and not sized_only else None,
    )


_ROW = re.compile(r"<tr[ >].*?</tr>", re.DOTALL)


class _PieceCost:
    """Token estimates for a piece from per-row costs: O(1) per candidate instead of a render."""

    def __init__(self, eu: EvidenceUnit, markdown_rows: _MarkdownRows | None):
        body = len(eu.flattened_rows)
        if markdown_rows is not None:
            row_costs = [count_tokens(line) + 1 for line in markdown_rows.rows]
            self.table_base = count_tokens("\n".join(markdown_rows.header))
        else:
            row_costs, self.table_base = self._html_costs(eu, body) if not eu.table_markdown else (None, 0)
        if row_costs is None:  # no table text, or rows the serializer merged: estimate from the flattened lines
            row_costs = [count_tokens(r) + 1 for r in eu.flattened_rows]
            table = eu.table_markdown or eu.table_html or ""
            self.table_base = count_tokens("\n".join(eu.header_rows)) + count_tokens(table) // 4
        self.prefix = [0]
        for cost in row_costs:
            self.prefix.append(self.prefix[-1] + cost)
        self.caption = count_tokens(eu.title_line or "")
        self.before = sum(count_tokens(p) for p in eu.context_before)
        self.after = sum(count_tokens(p) for p in (*eu.context_after, *eu.footnotes))
        self.joins = 2 * (2 + len(eu.context_before) + len(eu.context_after) + len(eu.footnotes))

    @staticmethod
    def _html_costs(eu: EvidenceUnit, body: int) -> tuple[list[int] | None, int]:
        """Per-row costs and the rest's cost of the HTML table (units written before ``table_markdown``)."""
        html = eu.table_html or ""
        rows = _ROW.findall(html)
        if len(rows) != eu.header_row_count + body:
            return None, 0
        return ([count_tokens(r) for r in rows[eu.header_row_count:]],
                count_tokens("".join(rows[: eu.header_row_count])) + count_tokens(_ROW.sub("", html)))

    def estimate(self, start: int, end: int, before: bool, after: bool) -> int:
        """Tokens of the piece of rows ``start``..``end``; context counts only on the first/last piece."""
        rows = len(self.prefix) - 1
        return (self.caption + self.table_base + self.prefix[end] - self.prefix[start] + self.joins
                + (self.before if before and start == 0 else 0) + (self.after if after and end == rows else 0))


def split_eu(eu: EvidenceUnit, limit: int = SPLIT_LIMIT) -> SplitResult:
    """Split ``eu`` by rows so that every piece is at most ``limit`` tokens (see module docstring)."""
    if count_eu_tokens(eu) <= limit:
        return SplitResult("single", [eu])
    rows = len(eu.flattened_rows)
    if rows <= 1:
        return SplitResult("llm_summary", [eu], f"{eu.eu_id}: one row already exceeds {limit} tokens")
    data = TableData.model_validate(eu.table_data) if eu.table_data else None
    markdown_rows = _MarkdownRows.of(eu)
    cost = _PieceCost(eu, markdown_rows)

    def build(start: int, end: int, before: bool, after: bool, probe: bool = False) -> EvidenceUnit | None:
        """The largest piece from ``start`` up to ``end`` rows that really fits, or None. A ``probe`` only
        asks whether one fits: its piece is not rendered as HTML when the Markdown gives its text."""
        while end > start:
            if cost.estimate(start, end, before, after) <= limit:
                piece = _piece(eu, data, start, end, start == 0, end == rows, before, after, markdown_rows,
                               sized_only=probe and markdown_rows is not None)
                if count_eu_tokens(piece) <= limit:
                    return piece
            end -= 1
        return None

    # Context stays only where it leaves room for at least one row.
    with_before = build(0, 1, True, False, probe=True) is not None
    with_after = build(rows - 1, rows, False, True, probe=True) is not None

    def plan(cap: int) -> list[int]:
        """Where each piece ends when each takes as many rows as the estimate fits under ``cap`` (at least one)."""
        ends, start = [], 0
        while start < rows:
            end = start + 1
            while end < rows and cost.estimate(start, end + 1, with_before, with_after) <= cap:
                end += 1
            ends.append(end)
            start = end
        return ends

    # As few pieces as the limit allows, as even as they can be: the smallest cap that needs no more of them
    # (filling each piece up to the limit would leave a last piece of a row or two).
    fewest, low, high = len(plan(limit)), 1, limit
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if len(plan(middle)) <= fewest else (middle + 1, high)
    ends = plan(high)
    pieces: list[EvidenceUnit] = []
    start = 0
    while start < rows:
        piece = build(start, next((end for end in ends if end > start), rows), with_before, with_after)
        if piece is None:
            return SplitResult("llm_summary", [eu], f"{eu.eu_id}: row {start + 1} and the header exceed {limit} tokens")
        start = piece.body_row_range[1]
        pieces.append(piece)

    total = len(pieces)
    for index, piece in enumerate(pieces, start=1):
        piece.eu_id = f"{eu.eu_id}-s{index}"
        piece.is_split = True
        piece.split_index = index
        piece.total_splits = total
    return SplitResult("row_split", pieces)


def split_oversized_units(eu_list: list[EvidenceUnit], stats: SplitStats | dict | None = None,
                          limit: int = SPLIT_LIMIT) -> list[EvidenceUnit]:
    """Split every unit over ``limit``; ``stats`` (a SplitStats or dict) is updated with the counts."""
    counts = SplitStats()
    out: list[EvidenceUnit] = []
    for eu in eu_list:
        result = split_eu(eu, limit)
        setattr(counts, result.kind, getattr(counts, result.kind) + 1)
        if result.kind == "llm_summary":
            counts.oversized_ids.append(eu.eu_id)
        if result.kind == "row_split":
            counts.pieces += len(result.units)
        out.extend(result.units)
    if isinstance(stats, SplitStats):
        for name, value in vars(counts).items():
            setattr(stats, name, getattr(stats, name) + value)
    elif isinstance(stats, dict):
        for name, value in counts.as_dict().items():
            stats[name] = stats.get(name, 0) + value
        stats.setdefault("oversized_ids", []).extend(counts.oversized_ids)
    return out
