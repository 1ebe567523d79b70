"""End to end on sample_pdfs with the lite parser: what a reader of these reports would check."""

from __future__ import annotations

import pytest

from repo_paths import SAMPLE_PDFS
from evidence_chunker import EvidenceChunker, count_eu_tokens


@pytest.fixture(scope="module")
def annual():
    return EvidenceChunker(parser="lite").chunk(SAMPLE_PDFS / "annual_report_en.pdf")


@pytest.fixture(scope="module")
def korean():
    return EvidenceChunker(parser="lite").chunk(SAMPLE_PDFS / "credit_review_ko.pdf")


def by_caption(units, prefix):
    found = [eu for eu in units if (eu.caption_text or "").startswith(prefix)]
    assert found, f"no unit captioned {prefix!r}"
    return found


def test_income_statement_rows_name_columns_by_their_full_heading_path(annual):
    rows = [r for eu in by_caption(annual, "Table 1:") for r in eu.flattened_rows]
    assert rows[0] == ("Revenue | Year ended December 31 / 2024: 12,480; Year ended December 31 / 2023: 11,652; "
                       "Change (%): 7.1%")
    assert any(r.startswith("Cost of sales | Year ended December 31 / 2024: (7,362)") for r in rows)
    unit = by_caption(annual, "Table 1:")[0]
    assert unit.header_rows == ["Year ended December 31 | Change (%)", "2024 | 2023"]
    assert "Columns: Year ended December 31 / 2024, Year ended December 31 / 2023, Change (%)." in unit.table_abstract


def test_figure_caption_above_table_caption_is_not_taken(annual):
    eu = by_caption(annual, "Table 2:")[0]
    assert eu.caption_text == "Table 2: Revenue by region (in millions of USD)"
    assert all(not (u.caption_text or "").startswith("Figure") for u in annual)


def test_table_at_page_top_absorbs_paragraph_from_previous_page(annual):
    first = by_caption(annual, "Table 3:")[0]
    assert first.page_no == 3 and first.page_span == {2, 3}
    assert any("Table 3 on the following page" in p for p in first.context_before)


def test_balance_sheet_over_a_page_break_is_one_table(annual):
    pieces = by_caption(annual, "Table 5:")
    assert len({eu.eu_id.rsplit("-s", 1)[0] for eu in pieces}) == 1
    rows = [r for eu in pieces for r in eu.flattened_rows]
    assert len(rows) == 45
    top = "LIABILITIES AND EQUITY"
    assert rows[-1] == f"{top} > Total liabilities and equity | December 31, 2024: 15,807; December 31, 2023: 15,033"
    assert f"{top} > Equity > Retained earnings | December 31, 2024: 6,579; December 31, 2023: 5,616" in rows
    assert "ASSETS > Total assets | December 31, 2024: 15,807; December 31, 2023: 15,033" in rows
    assert f"{top} > Noncontrolling interests | December 31, 2024: 104; December 31, 2023: 95" in rows
    assert set().union(*(eu.page_span for eu in pieces)) >= {4, 5}


def test_borderless_segment_table_is_found(annual):
    eu = by_caption(annual, "Table 4:")[0]
    assert eu.header_rows == ["Segment | Americas | EMEA | Asia Pacific | Total revenue | Operating income | Operating margin"]
    assert eu.flattened_rows[-1].startswith("Total | Americas: 6,001; EMEA: 3,861")


def test_long_quarterly_table_is_split_under_512_tokens(annual):
    pieces = by_caption(annual, "Table 7:")
    assert len(pieces) > 1 and all(count_eu_tokens(p) <= 512 for p in pieces)
    rows = [r for p in pieces for r in p.flattened_rows]
    assert len(rows) == 40 and rows[0].startswith("Q1 2015 |") and rows[-1].startswith("Q4 2024 |")


def test_korean_captions_and_repayment_schedule(korean):
    captions = {eu.caption_text for eu in korean}
    assert {"<표 1> 요약 재무제표 (단위: 억원)", "[표 2] 주요 재무비율", "표 3. 원리금 상환 일정표 (단위: 억원)"} <= captions
    rows = [r for eu in by_caption(korean, "표 3.") for r in eu.flattened_rows]
    assert "합계 | 원금: 6,200; 이자: 1,011.4; 합계: 7,211.4" in rows


def test_uncaptioned_key_value_box_has_no_header_row(korean):
    box = [eu for eu in korean if eu.caption_source == "title_block"][0]
    assert box.flattened_rows[1] == "평가 등급 | BBB+ (등급 전망: 부정적 검토)"


def test_uncaptioned_box_is_titled_by_the_lines_printed_above_it(korean):
    box = korean[0]
    assert (box.caption_source, box.caption_confidence) == ("title_block", "inferred")
    assert box.caption_text.startswith("신용평가 보고서 B기업")


def test_paragraph_about_another_table_is_not_context_when_similarity_is_required():
    units = EvidenceChunker(parser="lite", sim_threshold=0.1).chunk(SAMPLE_PDFS / "credit_review_ko.pdf")
    table4 = by_caption(units, "<표 4>")[0]
    assert table4.page_span == {3}
    table2 = by_caption(units, "[표 2]")[0]
    assert table2.page_span == {1, 2}


def test_split_pieces_carry_the_boxes_of_their_own_rows(annual):
    pieces = by_caption(annual, "Table 7:")
    boxes = [piece.page_boxes[0].bbox for piece in pieces]
    # consecutive pieces stack down the page without overlapping: each box is its rows only
    for upper, lower in zip(boxes, boxes[1:]):
        assert upper[3] >= lower[1] - 1.0 and upper[1] > lower[1]
    table_height = boxes[0][1] - boxes[-1][3]
    assert all(b[1] - b[3] < table_height / 2 for b in boxes)
    normalised_tops = [piece.bbox[1] for piece in pieces]
    assert normalised_tops == sorted(normalised_tops, reverse=True) and len(set(normalised_tops)) == len(pieces)
