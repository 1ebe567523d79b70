"""Row-wise splitting of Evidence Units that exceed the token limit.

Every piece repeats the caption and the column-header rows, holds whole body rows, and stays within the
limit by ``count_eu_tokens``. A unit is cut into as few pieces as the limit allows, of sizes as even as
that number allows (not a full first piece and a last piece of one row). Context above goes with the
first piece, context below and footnotes with the last: the paragraphs nearest the table that fit beside
its first (last) row; a paragraph left out stays in the Text Chunks (:mod:`.corpus.consumed`). A row
that does not fit beside the header on its own is cut into *row parts*: its flattened line ("row header |
column: value; ...", which names every value's column, so the header lines are not repeated) in pieces
of whole column-value pairs, the row header opening each, and a value too long for one piece cut between
words. So every piece fits; ``llm_summary`` (the unit passed through unchanged for a layer above to
summarise) is left only for a unit whose title line alone leaves no room for any text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Literal

from docling_core.types.doc import TableData

from .table_render import render_html, render_markdown
from .table_data import slice_table_data
from .tables import PAIR_SEP, ROW_HEADER_SEP, VALUE_SEP
from ..tokens import DEFAULT_TOKEN_LIMIT, count_eu_tokens, count_tokens, cut_to_tokens
from .evidence_unit import EvidenceUnit, PageBox

#: The limit ``split_eu`` applies by default (cl100k tokens of ``EvidenceUnit.text``).
SPLIT_LIMIT = DEFAULT_TOKEN_LIMIT

SplitKind = Literal["single", "row_split", "llm_summary"]
#: Joins between the parts of a unit's text ("\n\n"), counted generously when a row part is sized.
PART_JOIN_TOKENS = 4
#: A row part holds at least this many tokens of the row beside the title line; a longer title line (a
#: paragraph taken for a caption) is shortened to CAPTION_SHARE of the limit in the row's parts.
MIN_PART_TOKENS = 64
CAPTION_SHARE = 0.25


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


def _after_items(eu: EvidenceUnit) -> list[str]:
    """What may follow a table's last rows, nearest first: its footnotes, then the paragraphs below it."""
    return [*eu.footnotes, *eu.context_after]


def _context(eu: EvidenceUnit, before: int, after: int) -> dict:
    """The context fields of a piece that keeps the ``before`` paragraphs above the table nearest to it and
    the first ``after`` of :func:`_after_items` (footnotes first), with their pages, boxes and refs."""
    above = len(eu.context_before)
    keep_above = range(above - before, above)
    notes = min(after, len(eu.footnotes))
    below = max(after - len(eu.footnotes), 0)
    refs_above, refs_below = eu.context_refs[:above], eu.context_refs[above:]
    pick = lambda values, kept: [values[i] for i in kept if i < len(values)]  # noqa: E731
    return dict(
        context_before=pick(eu.context_before, keep_above),
        context_before_pages=pick(eu.context_before_pages, keep_above),
        context_before_boxes=pick(eu.context_before_boxes, keep_above),
        context_after=list(eu.context_after[:below]),
        context_after_pages=list(eu.context_after_pages[:below]),
        context_after_boxes=list(eu.context_after_boxes[:below]),
        footnotes=list(eu.footnotes[:notes]),
        context_refs=pick(refs_above, keep_above) + list(refs_below[:below]),
    )


def _piece(eu: EvidenceUnit, data: TableData | None, start: int, end: int, before: int, after: int,
           markdown_rows: _MarkdownRows | None = None, sized_only: bool = False) -> EvidenceUnit:
    """Body rows ``start``..``end`` of ``eu`` as an unnumbered piece (ids are set once all pieces exist),
    with ``before`` paragraphs of context above and ``after`` items below (see :func:`_context`).
    ``sized_only``: a piece only to be counted (its ``text``), without its HTML and table data."""
    header_rows = eu.header_row_count
    sliced = slice_table_data(data, header_rows, start, end) if data is not None else None
    html = render_html(sliced) if sliced is not None and not sized_only else None
    if markdown_rows is not None:
        markdown = markdown_rows.piece(start, end)
    else:
        markdown = render_markdown(sliced) if sliced is not None else None
    row_pages = eu.row_pages[start:end]
    context = _context(eu, before, after)
    pages = set(row_pages) or {eu.page_no}
    pages |= {*context["context_before_pages"], *context["context_after_pages"]}
    own_boxes = rows_boxes(data, eu.header_row_count, start, end, eu.row_pages)
    return replace(
        eu,
        bbox=_normalised_like(eu, own_boxes[0]) if own_boxes else eu.bbox,
        flattened_rows=eu.flattened_rows[start:end],
        grid_rows=eu.grid_rows[start:end],
        row_pages=row_pages,
        table_html=html,
        table_markdown=markdown,
        **context,
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
        self.joins = 2 * (2 + len(eu.context_before) + len(eu.context_after) + len(eu.footnotes))
        # tokens of the k paragraphs nearest the table above it, and of the first k items below it
        self.before = [0]
        for paragraph in reversed(eu.context_before):
            self.before.append(self.before[-1] + count_tokens(paragraph))
        self.after = [0]
        for item in _after_items(eu):
            self.after.append(self.after[-1] + count_tokens(item))

    @staticmethod
    def _html_costs(eu: EvidenceUnit, body: int) -> tuple[list[int] | None, int]:
        """Per-row costs and the rest's cost of the HTML table (units written before ``table_markdown``)."""
        html = eu.table_html or ""
        rows = _ROW.findall(html)
        if len(rows) != eu.header_row_count + body:
            return None, 0
        return ([count_tokens(r) for r in rows[eu.header_row_count:]],
                count_tokens("".join(rows[: eu.header_row_count])) + count_tokens(_ROW.sub("", html)))

    def estimate(self, start: int, end: int, before: int, after: int) -> int:
        """Tokens of the piece of rows ``start``..``end`` with ``before``/``after`` context items; context
        counts only on the first/last piece."""
        rows = len(self.prefix) - 1
        return (self.caption + self.table_base + self.prefix[end] - self.prefix[start] + self.joins
                + (self.before[before] if start == 0 else 0) + (self.after[after] if end == rows else 0))


def split_eu(eu: EvidenceUnit, limit: int = SPLIT_LIMIT) -> SplitResult:
    """Split ``eu`` by rows so that every piece is at most ``limit`` tokens (see module docstring)."""
    if count_eu_tokens(eu) <= limit:
        return SplitResult("single", [eu])
    rows = len(eu.flattened_rows)
    data = TableData.model_validate(eu.table_data) if eu.table_data else None
    markdown_rows = _MarkdownRows.of(eu)
    cost = _PieceCost(eu, markdown_rows)

    def build(start: int, end: int, before: int, after: int, probe: bool = False) -> EvidenceUnit | None:
        """The largest piece from ``start`` up to ``end`` rows that really fits, or None. A ``probe`` only
        asks whether one fits: its piece is not rendered as HTML when the Markdown gives its text."""
        before, after = (before if start == 0 else 0), (after if end == rows else 0)
        while end > start:
            if cost.estimate(start, end, before, after) <= limit:
                piece = _piece(eu, data, start, end, before, after, markdown_rows,
                               sized_only=probe and markdown_rows is not None)
                if count_eu_tokens(piece) <= limit:
                    return piece
            end -= 1
        return None

    # The context nearest the table that leaves room for its first (last) row; both on a one-row table.
    before = _most(len(eu.context_before), lambda k: build(0, 1, k, 0, probe=True) is not None) if rows else 0
    after = _most(len(_after_items(eu)),
                  lambda k: build(rows - 1, rows, before, k, probe=True) is not None) if rows else 0

    def plan(cap: int) -> list[int]:
        """Where each piece ends when each takes as many rows as the estimate fits under ``cap`` (at least one)."""
        ends, start = [], 0
        while start < rows:
            end = start + 1
            while end < rows and cost.estimate(start, end + 1, before, after) <= cap:
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
        piece = build(start, next((end for end in ends if end > start), rows), before, after)
        if piece is None:  # the row does not fit beside the header: its parts
            parts = row_parts(eu, data, start, limit)
            if not parts:
                return SplitResult("llm_summary", [eu], f"{eu.eu_id}: the title line alone exceeds {limit} tokens")
            pieces.extend(parts)
            start += 1
            continue
        start = piece.body_row_range[1]
        pieces.append(piece)
    if not rows:  # header lines only
        pieces = row_parts(eu, data, None, limit)
        if not pieces:
            return SplitResult("llm_summary", [eu], f"{eu.eu_id}: the title line alone exceeds {limit} tokens")
    if len(pieces) == 1:  # every row fits once context is left out: the unit stays whole
        return SplitResult("single", [replace(pieces[0], body_row_range=eu.body_row_range)], "context left out")

    total = len(pieces)
    for index, piece in enumerate(pieces, start=1):
        piece.eu_id = f"{eu.eu_id}-s{index}"
        piece.is_split = True
        piece.split_index = index
        piece.total_splits = total
    return SplitResult("row_split", pieces)


def _most(count: int, fits) -> int:
    """The largest k in 0..``count`` with ``fits(k)`` (0 when none fits: the caller leaves that context out)."""
    return next((k for k in range(count, 0, -1) if fits(k)), 0)


def row_parts(eu: EvidenceUnit, data: TableData | None, row: int | None, limit: int) -> list[EvidenceUnit]:
    """Body row ``row`` of ``eu`` (``None``: its header lines, for a table without body rows) as unnumbered
    pieces of at most ``limit`` tokens each: its flattened line in parts of whole "column: value" pairs, the
    row header opening each part, a pair too long for one part cut between words. A title line that leaves
    fewer than MIN_PART_TOKENS is shortened in these pieces (its caption cut). Empty when nothing fits."""
    line = eu.flattened_rows[row] if row is not None else PAIR_SEP.join(eu.header_rows)
    head, sep, body = line.partition(ROW_HEADER_SEP)
    head, body = (head + sep, body) if sep else ("", line)
    span = (row, row + 1) if row is not None else (0, 0)
    own_boxes = rows_boxes(data, eu.header_row_count, *span, eu.row_pages) if row is not None else []
    sliced = slice_table_data(data, eu.header_row_count, *span) if data is not None and row is not None else None
    base = replace(
        eu, header_rows=[], table_html=None, table_markdown=None, row_pages=eu.row_pages[span[0]:span[1]],
        **_context(eu, 0, 0), page_span=set(eu.row_pages[span[0]:span[1]]) or {eu.page_no},
        page_boxes=own_boxes or list(eu.page_boxes[:1]), bbox=_normalised_like(eu, own_boxes[0]) if own_boxes else eu.bbox,
        body_row_range=span, table_data=sliced.model_dump(mode="json") if sliced is not None else None,
    )
    if limit - count_tokens(base.title_line or "") - PART_JOIN_TOKENS < MIN_PART_TOKENS and base.caption_text:
        base.caption_text = cut_to_tokens(base.caption_text, max(int(limit * CAPTION_SHARE), 1))[0] + " …"
    budget = limit - count_tokens(base.title_line or "") - PART_JOIN_TOKENS
    if 2 * count_tokens(head) > budget:  # a row header too long to open every part is cut like a value
        head, body = "", line
    while budget > count_tokens(head):
        texts = _pack_pairs(head, body.split(PAIR_SEP), budget)
        parts = [replace(base, flattened_rows=[text], grid_rows=[text]) for text in texts]
        if all(count_eu_tokens(part) <= limit for part in parts):
            return parts
        budget -= PART_JOIN_TOKENS  # the joins cost more than counted: pack tighter
    return []


def _pack_pairs(head: str, pairs: list[str], budget: int) -> list[str]:
    """``head`` + as many ``pairs`` (joined by PAIR_SEP) as ``budget`` tokens hold, part after part. A pair
    that does not fit alone is cut between words, its column ("Text: ") opening each of its parts, its first
    part after the pairs before it."""
    room = budget - count_tokens(head)
    texts: list[str] = []
    group: list[str] = []
    for pair in pairs:
        if count_tokens(PAIR_SEP.join([*group, pair])) <= room:
            group.append(pair)
            continue
        if count_tokens(pair) <= room:
            texts.append(head + PAIR_SEP.join(group))
            group = [pair]
            continue
        label, sep, value = pair.partition(VALUE_SEP)
        column = label + sep if sep and 2 * count_tokens(label + sep) <= room else ""
        value = value if column else pair
        lead = PAIR_SEP.join([*group, column]) if group else column
        if count_tokens(lead) * 2 > room:  # the pairs before leave too little room: a part of their own
            texts.append(head + PAIR_SEP.join(group))
            lead = column
        first, *rest = cut_to_tokens(value, room - count_tokens(lead))
        texts.append(head + lead + first)
        if rest:
            texts.extend(head + column + window for window in cut_to_tokens(" ".join(rest), room - count_tokens(column)))
        group = []
    if group:
        texts.append(head + PAIR_SEP.join(group))
    return texts


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
