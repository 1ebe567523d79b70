"""How a compiled document's units lie for region assembly: its tables (rows under a caption, a table continued
over a page or split into parts), the lead-ins that announce a table or list, page furniture, and the lookups
expansion makes around the anchors (RegionLayout; StoredRegionLayout over a stored layout's arrays). Indexing
reads the same rules (store/records.py keeps a document's flags), so search and the stored layout agree."""

from __future__ import annotations

from typing import Any
from collections.abc import Iterator, Sequence

import numpy as np

from ..model import UNIT_KINDS, SemanticDocument, SemanticUnit
from ..rules.patterns import is_lead_in, is_page_number
from ..token_cost import cumulative_costs


#: A caption unit at most this many lines above a table (in its own segment) is taken as its caption.
CAPTION_MAX_LINE_GAP = 2


#: Unit kinds that belong to tables.
TABLE_KINDS = frozenset({"table_row", "caption"})
#: A table row's code in a stored layout's kinds.
TABLE_ROW_CODE = UNIT_KINDS.index("table_row")
#: A caption's code in a stored layout's kinds.
CAPTION_CODE = UNIT_KINDS.index("caption")
#: Not yet looked up (RegionLayout's caches hold None for "no table").
_UNKNOWN = object()
#: The context entities of a unit about none.
_NO_ENTITIES: frozenset[str] = frozenset()
#: The name a stored layout keeps its RegionLayout under (RegionLayout.of).
REGION_LAYOUT = "region_layout"


def announces(unit: SemanticUnit, text: str) -> bool:
    """Whether `unit` (of a document whose text is `text`) is a lead-in to what follows it (patterns.is_lead_in);
    a table row never is."""
    return unit.kind != "table_row" and is_lead_in(text[unit.start_char : unit.end_char])


def is_page_furniture(unit: SemanticUnit, text: str) -> bool:
    """Whether `unit` is a page number alone that the parser read into the body text ("86", "F-7")."""
    return unit.kind in ("proposition", "heading") and is_page_number(text[unit.start_char : unit.end_char])


def _caption_text(units: Sequence[Any], text: str, first: int) -> str | None:
    """The caption that opens the table starting at unit ``first``, whitespace-normalised (None: none)."""
    unit = units[first]
    if unit.kind != "caption":
        return None
    return " ".join(text[unit.start_char : unit.end_char].split()) or None


def continuation_flags(doc: SemanticDocument) -> list[bool]:
    """Per unit: True for the first unit of a table that continues the table right before it
    (RegionLayout.continues, read from the text): what a stored layout keeps.

    A long table reaches the index as several parts, each under the same caption (row-wise splits of one
    Evidence Unit, or one printed table the parser read as several grids). A part continues the previous
    one when nothing lies between them and both open with the same caption. (A part's first row is not a
    sure header: a split's first row is a body row.)
    """
    layout = RegionLayout(doc)
    flags = [False] * len(doc.units)
    for first, _last in _tables(layout):
        flags[first] = layout.continues(first)
    return flags


def table_captions(doc: SemanticDocument) -> Iterator[tuple[int, int, str | None]]:
    """(first, last, caption) of every table of ``doc`` in text order: its unit positions (caption included)
    and its caption's text, whitespace-normalised (None when it has none)."""
    layout = RegionLayout(doc)
    for first, last in _tables(layout):
        yield first, last, _caption_text(doc.units, doc.text, first)


def _tables(layout: RegionLayout) -> Iterator[tuple[int, int]]:
    """(first, last) unit positions of every table of the layout's document, in text order."""
    position = 0
    while position < len(layout.units):
        table = layout.table_of(position)
        if table is None:
            position = layout.bounds(position)[1] + 1
            continue
        yield table
        position = table[1] + 1


def entity_compatible(unit: SemanticUnit, entities: frozenset[str]) -> bool:
    return all(e in entities for e in unit.context_entities)


class RegionLayout:
    """Lookups used during expansion, computed lazily around the anchors (never over the whole document).

    A unit's fields are read by position (``kind(pos)``, ``block(pos)``, ...), so that assembly makes no
    object per unit it looks at; StoredRegionLayout reads the same from a stored layout's arrays."""

    def __init__(self, doc: SemanticDocument) -> None:
        self.units = doc.units
        #: How many units the document has.
        self.count = len(doc.units)
        #: A compiled document's text, or a stored layout's lead-in flags (a UnitLayout has no text).
        self._text: str | None = getattr(doc, "text", None)
        self._lead_in = getattr(doc, "lead_in_flags", None)
        #: A stored layout's continuation flags (None: computed from the text, or absent from an old layout).
        self._continues = getattr(doc, "continuation_flags", None)
        self._page_numbers = getattr(doc, "page_number_flags", None)
        self._doc = doc
        self._cumulative: np.ndarray | None = None
        self._bounds: dict[int, tuple[int, int]] = {}
        self._has_rows: dict[int, bool] = {}
        #: table_of by position, as far as asked
        self._tables: dict[int, tuple[int, int] | None] = {}

    @classmethod
    def of(cls, doc: SemanticDocument) -> RegionLayout:
        """The RegionLayout of ``doc``: over a stored layout (its ``arrays``) the StoredRegionLayout kept with
        it (its ``derived`` lookups), else a new one."""
        derived = getattr(doc, "derived", None)
        if derived is None or getattr(doc, "arrays", None) is None:
            return cls(doc)
        layout = derived.get(REGION_LAYOUT)
        if layout is None:
            layout = derived[REGION_LAYOUT] = StoredRegionLayout(doc)
        return layout

    # ---- a unit's fields, by position

    def kind(self, pos: int) -> str:
        return self.units[pos].kind

    def block(self, pos: int) -> int:
        return self.units[pos].block

    def sentence(self, pos: int) -> int:
        return self.units[pos].sentence

    def segment(self, pos: int) -> int | None:
        return self.units[pos].segment

    def start_char(self, pos: int) -> int:
        return self.units[pos].start_char

    def end_char(self, pos: int) -> int:
        return self.units[pos].end_char

    def start_line(self, pos: int) -> int:
        return self.units[pos].start_line

    def end_line(self, pos: int) -> int:
        return self.units[pos].end_line

    def is_header(self, pos: int) -> bool:
        return self.units[pos].is_header

    def context_entities(self, pos: int) -> frozenset[str]:
        """The entities unit ``pos`` is about in its context."""
        return frozenset(self.units[pos].context_entities)

    def compatible(self, first: int, last: int, entities: frozenset[str]) -> bool:
        """Whether every unit ``first`` to ``last`` is entity-compatible with ``entities`` (True when none)."""
        units = self.units
        return all(entity_compatible(units[p], entities) for p in range(first, last + 1))

    def in_zone(self, first: int, last: int, zone: int | None) -> bool:
        """Whether every unit ``first`` to ``last`` lies in segment ``zone`` (True when none)."""
        units = self.units
        return all(units[p].segment == zone for p in range(first, last + 1))

    # ---- blocks and tables

    def bounds(self, pos: int) -> tuple[int, int]:
        """(first, last) unit positions of the block that unit `pos` belongs to (blocks are contiguous)."""
        block = self.units[pos].block
        cached = self._bounds.get(block)
        if cached is None:
            units = self.units
            first = pos
            while first > 0 and units[first - 1].block == block:
                first -= 1
            last = pos
            while last + 1 < len(units) and units[last + 1].block == block:
                last += 1
            cached = self._bounds[block] = (first, last)
        return cached

    def block_first(self, pos: int) -> int:
        """The first unit position of the block that unit ``pos`` belongs to."""
        return self.bounds(pos)[0]

    def block_last(self, pos: int) -> int:
        """The last unit position of the block that unit ``pos`` belongs to."""
        return self.bounds(pos)[1]

    def _block_has_rows(self, pos: int) -> bool:
        block = self.units[pos].block
        if block not in self._has_rows:
            first, last = self.bounds(pos)
            self._has_rows[block] = any(self.units[p].kind == "table_row" for p in range(first, last + 1))
        return self._has_rows[block]

    def _attached_caption(self, table_first: int) -> int | None:
        """Position of a caption unit just above the table starting at `table_first` in another block."""
        before = table_first - 1
        if before < 0:
            return None
        caption = self.units[before]
        if caption.kind != "caption" or caption.block == self.units[table_first].block:
            return None
        if caption.end_line < self.units[table_first].start_line - CAPTION_MAX_LINE_GAP:
            return None
        return before

    def table_of(self, pos: int) -> tuple[int, int] | None:
        """(first, last) positions of the table that unit `pos` belongs to, its caption included (also a
        caption that arrived in its own segment just above); None for a unit outside tables."""
        found = self._tables.get(pos, _UNKNOWN)
        if found is _UNKNOWN:
            found = self._tables[pos] = self._table_of(pos)
        return found

    def _table_of(self, pos: int) -> tuple[int, int] | None:
        kind = self.units[pos].kind
        if kind not in TABLE_KINDS:
            return None
        if self._block_has_rows(pos):
            first, last = self.bounds(pos)
            caption = self._attached_caption(first)
            return (caption if caption is not None else first), last
        following = pos + 1
        if kind == "caption" and following < len(self.units) and self.units[following].kind == "table_row":
            if self._attached_caption(self.bounds(following)[0]) == pos:
                return pos, self.bounds(following)[1]
        return None

    def is_table(self, pos: int) -> bool:
        """Whether unit `pos` is a row or the caption of a table."""
        return self.table_of(pos) is not None

    def announces(self, pos: int) -> bool:
        """Whether unit `pos` is a lead-in ("... as follows:", patterns.is_lead_in)."""
        if self._lead_in is not None:
            return bool(self._lead_in[pos])
        if self._text is None:
            return False
        return announces(self.units[pos], self._text)

    def is_page_number(self, pos: int) -> bool:
        """Whether unit `pos` is a page number alone (is_page_furniture)."""
        if self._page_numbers is not None:
            return bool(self._page_numbers[pos])
        return self._text is not None and is_page_furniture(self.units[pos], self._text)

    def continues(self, first: int) -> bool:
        """Whether the table starting at unit ``first`` continues the table right before it (another part
        of one long table: see continuation_flags)."""
        if self._continues is not None:
            return bool(self._continues[first])
        if self._text is None or first == 0:
            return False
        before = self.table_of(first - 1)
        if before is None:
            return False
        caption = _caption_text(self.units, self._text, first)
        return caption is not None and caption == _caption_text(self.units, self._text, before[0])

    def parts_of_one_table(self, earlier: int, later: int) -> bool:
        """Whether units ``earlier`` < ``later`` lie in parts of one long table (the same part included)."""
        table = self.table_of(later)
        while table is not None:
            if table[0] <= earlier <= table[1]:
                return True
            if table[0] == 0 or not self.continues(table[0]):
                return False
            table = self.table_of(table[0] - 1)
        return False

    def span_tokens(self, first: int, last: int) -> int:
        """Estimated cl100k tokens of units ``first`` to ``last`` (token_cost): what the region would cost."""
        if self._cumulative is None:
            self._cumulative = cumulative_costs(self._doc, self._text)
        return self._cumulative.item(last + 1) - self._cumulative.item(first)


class StoredRegionLayout(RegionLayout):
    """The lookups over a stored layout (store.records.UnitLayout): a unit's fields are read from its arrays
    (no unit is made), its blocks and tables found in one NumPy pass over them (_blocks_and_tables) when
    made. RegionLayout.of keeps it with the layout, so that every search assembling regions of that
    document reuses it."""

    def __init__(self, doc: Any) -> None:
        super().__init__(doc)
        arrays = doc.arrays
        self._names: list[str] = doc.entity_names
        self._kinds = arrays["kind"]
        # bound methods of the arrays: reading a field costs no Python call of its own
        self.block = arrays["block"].item  # type: ignore[method-assign]
        self.sentence = arrays["sentence"].item  # type: ignore[method-assign]
        self.start_char = arrays["start_char"].item  # type: ignore[method-assign]
        self.end_char = arrays["end_char"].item  # type: ignore[method-assign]
        self.start_line = arrays["start_line"].item  # type: ignore[method-assign]
        self.end_line = arrays["end_line"].item  # type: ignore[method-assign]
        self._segments = arrays["segment"]  # a unit's segment + 1 (0: none)
        self._is_header = arrays["is_header"]
        self._context_offsets, self._context_ids = arrays["context_offsets"], arrays["context_ids"]
        #: context_entities by position, as far as asked
        self._contexts: dict[int, frozenset[str]] = {}
        # kept with the search record (CACHED_RECORDS of them): int32, half the memory of int64
        self._block_first, self._block_last, self._table_first, self._table_last = (
            found.astype(np.int32) for found in _blocks_and_tables(
                self._kinds, arrays["block"], arrays["start_line"], arrays["end_line"]))
        self.block_first = self._block_first.item  # type: ignore[method-assign]
        self.block_last = self._block_last.item  # type: ignore[method-assign]
        self._cumulative = cumulative_costs(doc, None).astype(np.int32)
        self._running = self._cumulative.item
        # kept in the layout's ``derived``: holding the layout too would make a reference cycle, which keeps a
        # dropped search record's arrays until the next full garbage collection
        self._doc = None

    def kind(self, pos: int) -> str:
        return UNIT_KINDS[self._kinds.item(pos)]

    def segment(self, pos: int) -> int | None:
        placed = self._segments.item(pos)
        return placed - 1 if placed else None

    def is_header(self, pos: int) -> bool:
        return bool(self._is_header.item(pos))

    def context_entities(self, pos: int) -> frozenset[str]:
        found = self._contexts.get(pos)
        if found is None:
            offsets = self._context_offsets
            start, end = offsets.item(pos), offsets.item(pos + 1)
            if start == end:  # most units: about no entity
                found = _NO_ENTITIES
            elif end == start + 1:
                found = frozenset((self._names[self._context_ids.item(start)],))
            else:
                found = frozenset([self._names[i] for i in self._context_ids[start:end].tolist()])
            self._contexts[pos] = found
        return found

    def compatible(self, first: int, last: int, entities: frozenset[str]) -> bool:
        offsets = self._context_offsets
        start, end = offsets.item(first), offsets.item(last + 1)
        if start == end:
            return True
        names = self._names
        return all(names[i] in entities for i in self._context_ids[start:end].tolist())

    def in_zone(self, first: int, last: int, zone: int | None) -> bool:
        if first > last:
            return True
        code = 0 if zone is None else zone + 1
        segments = self._segments
        return all(segments.item(p) == code for p in range(first, last + 1))

    def bounds(self, pos: int) -> tuple[int, int]:
        return self._block_first.item(pos), self._block_last.item(pos)

    def table_of(self, pos: int) -> tuple[int, int] | None:
        first = self._table_first.item(pos)
        return None if first < 0 else (first, self._table_last.item(pos))

    def is_table(self, pos: int) -> bool:
        return self._table_first.item(pos) >= 0

    def span_tokens(self, first: int, last: int) -> int:
        return self._running(last + 1) - self._running(first)


def _blocks_and_tables(kinds: np.ndarray, blocks: np.ndarray, start_lines: np.ndarray, end_lines: np.ndarray
                       ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per unit, from a stored layout's arrays (kind codes, blocks, lines): the first and last position of
    its block, and the first and last position of its table (-1: none), by the rules of
    RegionLayout.bounds and RegionLayout.table_of, all at once (int64 arrays)."""
    count = len(blocks)
    if not count:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty, empty
    opens = np.empty(count, dtype=bool)
    opens[0] = True
    np.not_equal(blocks[1:], blocks[:-1], out=opens[1:])
    firsts = np.flatnonzero(opens)
    lasts = np.empty_like(firsts)
    lasts[:-1] = firsts[1:] - 1
    lasts[-1] = count - 1
    run = np.cumsum(opens) - 1  # the block run of each unit
    rows = kinds == TABLE_ROW_CODE
    has_rows = np.zeros(len(firsts), dtype=bool)
    has_rows[run[rows]] = True
    # a caption unit just above a run, in another block, at most CAPTION_MAX_LINE_GAP lines above it
    before = np.maximum(firsts - 1, 0)
    attached = ((firsts > 0) & (kinds[before] == CAPTION_CODE) & (blocks[before] != blocks[firsts])
                & (end_lines[before].astype(np.int64) >= start_lines[firsts].astype(np.int64) - CAPTION_MAX_LINE_GAP))
    # rows and captions of a block that holds rows: the block, under a caption attached above it
    inside = (kinds == CAPTION_CODE) | rows
    table_first = np.where(inside, np.where(has_rows, np.where(attached, before, firsts), -1)[run], -1)
    table_last = np.where(inside, np.where(has_rows, lasts, -1)[run], -1)
    # an attached caption in a block without rows, right above a table row: the table below it
    above = np.flatnonzero(has_rows & attached & rows[firsts])
    above = above[~has_rows[run[before[above]]]]
    table_first[before[above]] = before[above]
    table_last[before[above]] = lasts[above]
    return firsts[run], lasts[run], table_first, table_last
