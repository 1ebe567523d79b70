"""Region assembly over a stored layout (the arrays a search reads back from the index) finds what it finds
over the compiled document, and a stored document numbers its lines as the compiled one does."""

from __future__ import annotations

import gc
import itertools
import weakref

from sj_support import KOREAN_NEIGHBOURS_TEXT, QUICKSTART_TEXT

from semantic_json import compile
from semantic_json.model import UNIT_KINDS
from semantic_json.search.region_layout import RegionLayout, StoredRegionLayout, _blocks_and_tables
from semantic_json.search.regions import assemble
from semantic_json.store.records import UnitLayout, decode_source, encode_document

STATEMENT_TEXT = (
    "# Annual report\n\nRevenue grew to 70 million in 2024. Operating income was 30 million.\n\n"
    "The following table sets forth our balance sheet:\n\n"
    "Table 1: Consolidated balance sheet\n\n| item | 2024 | 2023 |\n| --- | --- | --- |\n"
    "| Total assets | 110 | 100 |\n| Total liabilities | 50 | 40 |\n\n"
    "Table 1: Consolidated balance sheet\n\n| item | 2024 | 2023 |\n| --- | --- | --- |\n"
    "| Equity | 60 | 60 |\n\n"
    "Net cash provided by operating activities rose, mainly due to:\n\n- higher sales\n- lower taxes\n"
)
TEXTS = (QUICKSTART_TEXT, KOREAN_NEIGHBOURS_TEXT, STATEMENT_TEXT)
#: (segment kind, text) of a document whose captions arrive in segments of their own above their tables: one
#: a line above its table, one two lines above (both taken as the caption), one three lines above (not).
SEGMENTED_PARTS = (
    ("text", "Company B repaid its loans in 2023. Company A did not.\n\n"),
    ("text", "Table 2: Debt of Company B\n"),
    ("table", "Item | 2022 | 2023\nBorrowings | 10 | 12\nBonds | 3 | 4\n"),
    ("text", "Table 3: Debt of Company A\n\n"),
    ("table", "Item | 2022 | 2023\nLoans | 10 | 12\n"),
    ("text", "Table 4: Leases of Company A\n\n\n"),
    ("table", "Item | 2022 | 2023\nLeases | 5 | 6\n"),
    ("text", "Company A's loans are as follows:\n\n- bank loans\n- bonds\n"),
)


def _segmented_document():
    segments, start = [], 0
    for n, (kind, part) in enumerate(SEGMENTED_PARTS):
        segments.append({"start_char": start, "end_char": start + len(part), "chunk_id": f"c{n}", "kind": kind,
                         "page_span": [n + 1]})
        start += len(part)
    return compile("".join(part for _, part in SEGMENTED_PARTS), "segmented", segments=segments)


def test_a_stored_layouts_blocks_tables_and_token_sums_equal_the_compiled_documents() -> None:
    for n, text in enumerate(TEXTS):
        doc = compile(text, f"d{n}")
        stored = UnitLayout.from_document(doc)
        walked, read = RegionLayout(doc), RegionLayout.of(stored)
        assert RegionLayout.of(stored) is read  # kept with the layout for the next search
        count = len(doc.units)
        assert any(walked.is_table(p) for p in range(count)) == (text is STATEMENT_TEXT)
        for position in range(count):
            assert read.bounds(position) == walked.bounds(position)
            assert read.table_of(position) == walked.table_of(position)
        for first in range(count):
            for last in range(first, count):
                assert read.span_tokens(first, last) == walked.span_tokens(first, last)


def test_regions_over_a_stored_layout_equal_those_over_the_compiled_document() -> None:
    for n, text in enumerate(TEXTS):
        doc = compile(text, f"d{n}")
        stored = UnitLayout.from_document(doc)
        positions = range(len(doc.units))
        for size in (1, 2, 3):
            for chosen in itertools.islice(itertools.combinations(positions, size), 300):
                hits = [(p, 0.9 - 0.1 * rank) for rank, p in enumerate(chosen)]
                expected = [(d.first, d.last, d.score, d.anchors, d.is_table) for d in assemble(doc, hits)]
                assert [(d.first, d.last, d.score, d.anchors, d.is_table) for d in assemble(stored, hits)] == expected


def test_a_stored_layout_reads_every_units_fields_blocks_and_tables_as_the_compiled_document() -> None:
    documents = [compile(text, f"d{n}") for n, text in enumerate(TEXTS)] + [_segmented_document()]
    entity_sets = [frozenset(), frozenset({"A_CORP"}), frozenset({"B_CORP"}), frozenset({"A_CORP", "B_CORP"})]
    for doc in documents:
        walked, read = RegionLayout(doc), RegionLayout.of(UnitLayout.from_document(doc))
        assert isinstance(read, StoredRegionLayout) and read.count == walked.count == len(doc.units)
        for position in range(len(doc.units)):
            for field in ("kind", "block", "sentence", "segment", "start_char", "end_char", "start_line", "end_line",
                          "is_header", "context_entities", "bounds", "block_first", "block_last", "table_of", "is_table"):
                assert getattr(read, field)(position) == getattr(walked, field)(position), (doc.document_id, field)
            for last in range(position - 1, min(position + 4, len(doc.units))):
                for entities in entity_sets:
                    assert read.compatible(position, last, entities) == walked.compatible(position, last, entities)
                for zone in (None, 0, 1, 2, 5):
                    assert read.in_zone(position, last, zone) == walked.in_zone(position, last, zone)


def test_a_caption_in_its_own_segment_up_to_two_lines_above_a_table_is_its_caption_in_a_stored_layout() -> None:
    doc = _segmented_document()
    read = RegionLayout.of(UnitLayout.from_document(doc))
    captions = [p for p, unit in enumerate(doc.units) if unit.kind == "caption"]
    assert [doc.units[p].text for p in captions] == ["Table 2: Debt of Company B", "Table 3: Debt of Company A",
                                                    "Table 4: Leases of Company A"]
    two, three, four = captions
    assert [read.table_of(p) for p in range(two, three)] == [(two, three - 1)] * (three - two)
    assert read.table_of(three) == (three, four - 1)
    assert read.table_of(four) is None and read.table_of(four + 1) == (four + 1, four + 2)
    assert read.bounds(two + 2) == (two + 1, two + 3)
    assert not read.compatible(0, 1, frozenset({"B_CORP"})) and read.compatible(0, 1, frozenset({"A_CORP", "B_CORP"}))


def test_blocks_and_tables_read_at_once_equal_those_found_unit_by_unit_in_any_arrangement() -> None:
    import random
    from types import SimpleNamespace

    import numpy as np

    rng = random.Random(7)
    for _ in range(2000):
        count = rng.randint(1, 10)
        units, block, line = [], 0, 1
        for _ in range(count):
            block += rng.random() < 0.5
            line += rng.randint(0, 3)
            units.append(SimpleNamespace(kind=rng.choice(["proposition", "heading", "caption", "table_row"]),
                                         block=block, start_line=line, end_line=line))
        walked = RegionLayout(SimpleNamespace(units=units))
        arrays = [np.asarray([getattr(u, name) for u in units], dtype=np.uint16) for name in ("block", "start_line")]
        kinds = np.asarray([UNIT_KINDS.index(u.kind) for u in units], dtype=np.uint8)
        firsts, lasts, table_firsts, table_lasts = _blocks_and_tables(kinds, arrays[0], arrays[1], arrays[1])
        assert list(zip(firsts.tolist(), lasts.tolist())) == [walked.bounds(p) for p in range(count)]
        assert [None if first < 0 else (first, last) for first, last in zip(table_firsts.tolist(), table_lasts.tolist())
                ] == [walked.table_of(p) for p in range(count)], units


def test_regions_over_a_stored_layout_of_a_segmented_document_equal_those_over_the_compiled_one() -> None:
    doc = _segmented_document()
    stored = UnitLayout.from_document(doc)
    for size in (1, 2, 3):
        for chosen in itertools.combinations(range(len(doc.units)), size):
            hits = [(p, 0.9 - 0.1 * rank) for rank, p in enumerate(chosen)]
            expected = [(d.first, d.last, d.score, d.anchors, d.entities, d.zone, d.is_table) for d in assemble(doc, hits)]
            assert [(d.first, d.last, d.score, d.anchors, d.entities, d.zone, d.is_table)
                    for d in assemble(stored, hits)] == expected


def test_a_stored_layout_and_document_dropped_after_assembly_are_freed_at_once() -> None:
    """A search record the cache drops is freed by reference counting, not at the next full garbage
    collection: a layout, what assembly keeps with it and a document read over it make no reference cycle
    (at a million pages such cycles held some 120 MB of dropped records)."""
    doc = compile(STATEMENT_TEXT, "cycles")
    stored = UnitLayout.from_document(doc)
    source = decode_source(encode_document(doc), stored)
    assert assemble(stored, [(0, 1.0), (len(doc.units) - 1, 0.5)])
    assert [u.id for u in stored.units] == [u.id for u in doc.units] and source.text_between(0, 8)
    layout_ref, kept_ref = weakref.ref(stored), weakref.ref(RegionLayout.of(stored))
    source_ref = weakref.ref(source)
    gc.disable()
    try:
        del stored, source
        assert layout_ref() is None and kept_ref() is None and source_ref() is None
    finally:
        gc.enable()


def test_a_stored_document_numbers_lines_as_the_compiled_one_in_any_script() -> None:
    text = "첫째 줄 — B기업은 상환하고 있다.\n\nSecond line: €1,234 “quoted”.\n한국어 셋째 줄\n"
    for sample in (text, text.rstrip("\n"), "ascii only\nline two\n", KOREAN_NEIGHBOURS_TEXT):
        doc = compile(sample, "lines")
        stored = UnitLayout.from_document(doc)
        source = decode_source(encode_document(doc), stored)
        assert source.line_starts == doc.line_starts
        for char in range(-1, len(sample) + 2):
            assert source.line_of(char) == doc.line_of(char)


def test_a_candidates_cosine_is_its_pools_and_zero_outside_the_pool() -> None:
    import numpy as np

    from semantic_json.search.candidates import _pooled_cosines

    units = np.asarray([2, 5, 9], dtype=np.int64)
    values = np.asarray([0.25, 0.5, 0.75], dtype=np.float32)
    assert _pooled_cosines(units, values, [0, 2, 5, 7, 9, 12]).tolist() == [0.0, 0.25, 0.5, 0.0, 0.75, 0.0]
    assert _pooled_cosines(units[:0], values[:0], [1, 3]).tolist() == [0.0, 0.0]
