"""Region assembly over a stored layout (the arrays a search reads back from the index) finds what it finds
over the compiled document, and a stored document numbers its lines as the compiled one does."""

from __future__ import annotations

import itertools

from sj_support import KOREAN_NEIGHBOURS_TEXT, QUICKSTART_TEXT

from semantic_json import compile
from semantic_json.search.region_layout import RegionLayout
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
