"""filter_consumed_paragraphs: paragraphs an EU absorbed leave the Text Chunks, nothing else does."""

from __future__ import annotations

import pytest

from evidence_chunker import EvidenceUnit, PageBox
from evidence_chunker.corpus import ChunkPart, ConsumedStats, TextChunk, filter_consumed_paragraphs

INTRO = "Table 2 lists the operating revenue of each segment for the last three years."
AFTER = "Segment B grew fastest, mainly because of the new subscription plans."
OTHER = "The board approved a dividend of 1.20 per share in March."


def part(ref: str | None, text: str, page: int = 1) -> ChunkPart:
    return ChunkPart(refs=[ref] if ref else [], text=text,
                     page_boxes=[PageBox(page=page, bbox=(10.0, 700.0, 500.0, 680.0))], bbox=(0.02, 0.9, 0.8, 0.86))


def text_chunk(n: int, *parts: ChunkPart, doc_id: str = "rep", headings=("3 Segments",)) -> TextChunk:
    return TextChunk.from_parts(f"{doc_id}-t{n}", doc_id, list(headings), list(parts))


def unit(before=(INTRO,), after=(), refs=("#/texts/10",), doc_id="rep", caption=None, **kw) -> EvidenceUnit:
    return EvidenceUnit(eu_id=f"{doc_id}-p1-1", doc_id=doc_id, page_no=1, page_span={1}, caption_text=caption,
                        caption_confidence="inferred" if caption else "none", context_before=list(before),
                        context_after=list(after), context_refs=list(refs), flattened_rows=["A | 2023: 10"], **kw)


def test_partly_consumed_chunk_is_rebuilt_from_its_other_paragraphs_keeping_id_and_headings():
    chunk = text_chunk(4, part("#/texts/9", OTHER), part("#/texts/10", INTRO, page=2))
    stats = ConsumedStats()
    [kept] = filter_consumed_paragraphs([chunk], [unit()], stats=stats)
    assert kept.chunk_id == "rep-t4" and kept.headings == ["3 Segments"]
    assert kept.text == OTHER and kept.item_refs == ["#/texts/9"] and kept.page_span == {1}
    assert (stats.rebuilt, stats.dropped, stats.by_ref) == (1, 0, 1)


def test_chunk_whose_every_paragraph_was_absorbed_is_dropped():
    chunk = text_chunk(1, part("#/texts/10", INTRO), part("#/texts/12", AFTER))
    stats = ConsumedStats()
    eu = unit(before=(INTRO,), after=(AFTER,), refs=("#/texts/10", "#/texts/12"))
    assert filter_consumed_paragraphs([chunk], [eu], stats=stats) == []
    assert stats.dropped_ids == ["rep-t1"] and stats.parts_consumed == 2


def test_same_text_under_another_ref_is_kept_when_both_sides_know_refs():
    # a repeated sentence elsewhere in the document is a different paragraph, not the absorbed one
    chunk = text_chunk(7, part("#/texts/40", INTRO))
    assert filter_consumed_paragraphs([chunk], [unit()]) == [chunk]


def test_split_piece_that_dropped_its_context_consumes_nothing():
    # context_refs describe the whole table; this piece carries no context, so the paragraph is not in it
    piece = unit(before=(), after=(), refs=("#/texts/10",), is_split=True, split_index=2, total_splits=2)
    chunk = text_chunk(2, part("#/texts/10", INTRO))
    assert filter_consumed_paragraphs([chunk], [piece]) == [chunk]


def test_piece_carrying_only_the_after_context_consumes_only_those_refs():
    last_piece = unit(before=(), after=(AFTER,), refs=("#/texts/10", "#/texts/12"))
    chunk = text_chunk(3, part("#/texts/10", INTRO), part("#/texts/12", AFTER))
    [kept] = filter_consumed_paragraphs([chunk], [last_piece])
    assert kept.item_refs == ["#/texts/10"] and kept.text == INTRO


def test_text_fallback_consumes_long_substrings_when_the_eu_has_no_refs():
    chunk = text_chunk(5, part("#/texts/10", "- " + INTRO), part("#/texts/11", "Total"), part("#/texts/13", OTHER))
    eu = unit(before=(INTRO, "Total"), refs=())
    stats = ConsumedStats()
    [kept] = filter_consumed_paragraphs([chunk], [eu], stats=stats)
    # the list marker is ignored; "Total" is shorter than min_substring_len, so it stays
    assert kept.text == "Total\n" + OTHER
    assert stats.by_text == 1


def test_text_fallback_applies_to_chunks_without_refs():
    chunk = TextChunk(chunk_id="rep-t9", doc_id="rep", text=INTRO)
    assert filter_consumed_paragraphs([chunk], [unit()]) == []


def test_min_substring_len_decides_what_is_too_short_to_match():
    chunk = TextChunk(chunk_id="rep-t9", doc_id="rep", text="Segment B grew fastest")
    eu = unit(before=(AFTER,), refs=())
    assert filter_consumed_paragraphs([chunk], [eu], min_substring_len=40) == [chunk]
    assert filter_consumed_paragraphs([chunk], [eu], min_substring_len=10) == []


def test_inferred_caption_text_item_is_consumed_by_its_table():
    chunk = text_chunk(6, part("#/texts/20", "Table 2: Operating revenue by segment"), part("#/texts/21", OTHER))
    eu = unit(before=(), refs=(), caption="Table 2: Operating revenue by segment")
    stats = ConsumedStats()
    [kept] = filter_consumed_paragraphs([chunk], [eu], stats=stats)
    assert kept.text == OTHER and stats.by_caption == 1


def test_units_only_consume_from_their_own_document():
    chunk = text_chunk(1, part("#/texts/10", INTRO), doc_id="other-report")
    assert filter_consumed_paragraphs([chunk], [unit()]) == [chunk]


def test_evidence_units_in_the_chunk_list_pass_through_unchanged():
    eu = unit()
    chunks = [eu, text_chunk(1, part("#/texts/10", INTRO)), text_chunk(2, part("#/texts/30", OTHER))]
    kept = filter_consumed_paragraphs(chunks, [eu])
    assert [c.chunk_id for c in kept] == ["rep-p1-1", "rep-t2"]


def test_min_substring_len_must_be_positive():
    with pytest.raises(ValueError, match="min_substring_len"):
        filter_consumed_paragraphs([], [], min_substring_len=0)


UNIT_LINE = "(dollars in millions)"


def test_a_unit_line_the_table_read_as_its_title_leaves_the_text_chunks():
    # The page prints the unit on a line of its own above the table; the EU's title line shows it.
    eu = unit(caption="Estimated Future Benefit Payments", unit="dollars in millions", title_refs=["#/texts/20"])
    assert eu.title_line == "Estimated Future Benefit Payments · (dollars in millions)"
    assert eu.text.startswith(eu.title_line)
    chunk = text_chunk(6, part("#/texts/19", OTHER), part("#/texts/20", UNIT_LINE))
    stats = ConsumedStats()
    [kept] = filter_consumed_paragraphs([chunk], [eu], stats=stats)
    assert kept.text == OTHER and kept.item_refs == ["#/texts/19"]
    assert stats.by_caption == 1


def test_a_title_line_with_words_the_eu_does_not_show_stays():
    # Nothing is lost: a title-block line is consumed only when every word of it is in the EU's title.
    eu = unit(caption="Estimated Future Benefit Payments", unit="dollars in millions", title_refs=["#/texts/20"])
    chunk = text_chunk(6, part("#/texts/20", "(dollars in millions, before the Medicare subsidy)"))
    assert filter_consumed_paragraphs([chunk], [eu]) == [chunk]
    # and the same unit line under a ref no EU read its title from is another line of the page
    assert filter_consumed_paragraphs([text_chunk(8, part("#/texts/30", UNIT_LINE))], [eu]) != []


def test_a_title_block_line_only_the_abstract_names_stays():
    # The filer's name above a cover table is the table's entity: the abstract names it, the EU's text
    # (which opens with the title line) does not, so the name stays in the Text Chunks.
    eu = unit(caption="Commission File Number 001-37622", title_refs=["#/texts/11"],
              table_abstract="Commission File Number 001-37622: 1 rows x 2 columns. Entity: SQUARE, INC.")
    chunk = text_chunk(2, part("#/texts/11", "SQUARE, INC."))
    assert filter_consumed_paragraphs([chunk], [eu]) == [chunk]
