"""Evidence Units built from hand-made DoclingDocuments: captions, context, rows, continuations."""

from __future__ import annotations

import json

import pytest
from docling_core.types.doc import DocItemLabel

from docbuilder import DocBuilder, table_data
from evidence_chunker import EvidenceChunker, EvidenceUnit
from evidence_chunker.units.captions import is_table_caption
from evidence_chunker.units.split import split_eu
from evidence_chunker.tokens import count_eu_tokens

INCOME = [
    ["", "Year ended December 31", ""],
    ["", "2024", "2023"],
    ["Revenue", "12,345", "11,000"],
    ["Cost of sales", "(7,100)", "(6,500)"],
    ["Operating income", "3,210", "2,950"],
    ["Operating margin", "26.0%", "26.8%"],
]


def chunk(builder: DocBuilder, **kwargs) -> list[EvidenceUnit]:
    return EvidenceChunker(parser="lite", **kwargs).chunk_parsed(builder.parsed(), doc_id="rep")


def income_builder() -> DocBuilder:
    b = DocBuilder(pages=1)
    b.text("Revenue grew by 12.2% as volumes recovered in every region.", page=1, top=760)
    cap = b.caption("Table 1: Consolidated statement of income (in millions of USD)", page=1, top=700)
    b.table(table_data(INCOME, header_rows=2, row_header_cols=1, spans={(0, 1): 2}), page=1, top=680, caption=cap)
    b.text("Operating income rose on lower cost of sales relative to revenue.", page=1, top=540)
    return b


def test_direct_caption_comes_from_the_parser_link():
    eu = chunk(income_builder())[0]
    assert eu.caption_text == "Table 1: Consolidated statement of income (in millions of USD)"
    assert eu.caption_confidence == "direct"
    assert eu.eu_id == "rep-p1-1"


@pytest.mark.parametrize(
    "caption",
    ["Table 2: Segment revenue", "<표 1> 요약 재무제표 (단위: 억원)", "[표 4] 원리금 상환 일정", "표 3. 재무비율", "TABLE 5 - Borrowings"],
)
def test_caption_is_inferred_from_nearby_caption_text(caption):
    b = DocBuilder()
    b.text(caption, page=1, top=700, height=14)
    b.table(table_data(INCOME, header_rows=2, row_header_cols=1), page=1, top=680)
    eu = chunk(b)[0]
    assert (eu.caption_text, eu.caption_confidence) == (caption, "inferred")


def test_no_caption_when_nothing_caption_like_is_near():
    b = DocBuilder()
    b.text("Table 9: far away caption", page=1, top=800, height=14)
    b.table(table_data(INCOME, header_rows=2, row_header_cols=1), page=1, top=500)
    eu = chunk(b)[0]
    assert (eu.caption_text, eu.caption_confidence) == (None, "none")


def test_figure_caption_is_not_inferred_and_is_unsafe_when_linked():
    assert not is_table_caption("Figure 1: Revenue by region")
    b = DocBuilder()
    cap = b.caption("Figure 1: Revenue by region", page=1, top=700)
    b.table(table_data(INCOME, header_rows=2, row_header_cols=1), page=1, top=680, caption=cap)
    eu = chunk(b)[0]
    assert eu.caption_confidence == "direct"
    assert eu.safe_caption is None
    assert "Figure 1" not in eu.text


def test_context_paragraphs_above_and_below_are_adopted_within_threshold():
    eu = chunk(income_builder())[0]
    assert eu.context_before == ["Revenue grew by 12.2% as volumes recovered in every region."]
    assert eu.context_after == ["Operating income rose on lower cost of sales relative to revenue."]
    assert eu.page_span == {1}


def test_context_beyond_bbox_threshold_is_left_out():
    eu = chunk(income_builder(), bbox_threshold=10.0)[0]
    assert eu.context_before == [] and eu.context_after == []


def test_sim_threshold_drops_unrelated_paragraphs():
    b = income_builder()
    b.text("The annual general meeting takes place in Oslo in May.", page=1, top=480)
    eu = chunk(b, sim_threshold=0.15)[0]
    assert "Operating income rose on lower cost of sales relative to revenue." in eu.context_after
    assert all("Oslo" not in p for p in eu.context_after)


def test_context_does_not_cross_a_heading():
    b = DocBuilder()
    b.text("An unrelated paragraph of the previous section.", page=1, top=760)
    b.heading("2. Results", page=1, top=720)
    b.table(table_data(INCOME, header_rows=2, row_header_cols=1), page=1, top=690)
    assert chunk(b)[0].context_before == []


def test_table_at_top_of_page_absorbs_last_paragraph_of_previous_page():
    b = DocBuilder(pages=2)
    b.text("Page one body text that the table does not need.", page=1, top=700)
    b.text("The table on the next page shows revenue by year.", page=1, top=110, height=30)
    b.table(table_data(INCOME, header_rows=2, row_header_cols=1), page=2, top=770)
    eu = chunk(b)[0]
    assert eu.page_no == 2
    assert eu.context_before == ["The table on the next page shows revenue by year."]
    assert eu.page_span == {1, 2}
    assert eu.eu_id == "rep-p2-1"


def test_flattened_rows_use_multi_level_column_headers_and_row_headers():
    eu = chunk(income_builder())[0]
    assert eu.flattened_rows[0] == (
        "Revenue | Year ended December 31 / 2024: 12,345; Year ended December 31 / 2023: 11,000"
    )
    assert "Cost of sales | Year ended December 31 / 2024: (7,100)" in eu.flattened_rows[1]
    # both header levels are detected: the header lines and the abstract carry the whole path
    assert eu.header_rows == ["Year ended December 31", "2024 | 2023"]
    assert len(eu.flattened_rows) == 4


def test_rows_keep_upper_header_levels_when_the_lowest_ones_repeat():
    grid = [["", "2024", "", "2023", ""], ["", "Q1", "Q2", "Q1", "Q2"], ["Revenue", "3,010", "3,120", "2,870", "2,940"]]
    b = DocBuilder()
    b.table(table_data(grid, header_rows=2, row_header_cols=1, spans={(0, 1): 2, (0, 3): 2}), page=1, top=600)
    assert chunk(b)[0].flattened_rows == ["Revenue | 2024 / Q1: 3,010; 2024 / Q2: 3,120; 2023 / Q1: 2,870; 2023 / Q2: 2,940"]


def test_headers_and_row_headers_are_detected_without_parser_flags():
    grid = [["Segment", "Revenue", "Operating income"], ["Retail", "5,100", "610"], ["Wholesale", "3,900", "(45)"]]
    b = DocBuilder()
    b.table(table_data(grid, flags=False), page=1, top=600)
    eu = chunk(b)[0]
    assert eu.flattened_rows == ["Retail | Revenue: 5,100; Operating income: 610",
                                 "Wholesale | Revenue: 3,900; Operating income: (45)"]


def test_numeric_first_column_is_not_a_row_header():
    grid = [["Year", "Principal", "Interest"], ["2025", "1,200", "350.5"], ["2026", "1,200", "290.0"]]
    b = DocBuilder()
    b.table(table_data(grid, flags=False), page=1, top=600)
    rows = chunk(b)[0].flattened_rows
    # Years label the rows here, but as data: every cell keeps its column label.
    assert rows[0] == "Year: 2025; Principal: 1,200; Interest: 350.5"


def test_empty_cells_are_skipped_and_values_kept_as_printed():
    grid = [["Item", "2024", "2023"], ["Goodwill", "", "007"], ["Other", "-", "50.000"]]
    b = DocBuilder()
    b.table(table_data(grid, row_header_cols=1), page=1, top=600)
    rows = chunk(b)[0].flattened_rows
    assert rows == ["Goodwill | 2023: 007", "Other | 2024: -; 2023: 50.000"]


def test_grid_rows_keep_column_order_and_places_of_empty_cells():
    grid = [["Item", "2024", "2023", "2022"], ["Current assets", "", "", ""], ["Goodwill", "", "007", ""],
            ["Other", "-", "50.000", "4"], ["", "", "", ""], ["Total", "1,204", "", "9"]]
    b = DocBuilder()
    b.table(table_data(grid, row_header_cols=1), page=1, top=600)
    eu = chunk(b)[0]
    # a section row is its label, an empty row "", an empty cell keeps its place up to the last value
    assert eu.grid_rows == ["Current assets", "Goodwill |  | 007", "Other | - | 50.000 | 4", "", "Total | 1,204 |  | 9"]
    assert len(eu.grid_rows) == len(eu.flattened_rows)


def test_grid_rows_give_a_span_once_and_a_table_without_row_headers_all_its_values():
    grid = [["", "2024", "", "2023", ""], ["", "Q1", "Q2", "Q1", "Q2"], ["Revenue", "3,010", "3,120", "2,870", "2,940"],
            ["Backlog", "9,400", "", "8,800", ""]]
    b = DocBuilder()
    b.table(table_data(grid, header_rows=2, row_header_cols=1, spans={(0, 1): 2, (0, 3): 2, (3, 1): 2, (3, 3): 2}),
            page=1, top=600)
    assert chunk(b)[0].grid_rows == ["Revenue | 3,010 | 3,120 | 2,870 | 2,940", "Backlog | 9,400 | 8,800"]
    grid = [["Year", "Principal", "Interest"], ["2025", "1,200", "350.5"], ["2026", "1,200", "290.0"]]
    b = DocBuilder()
    b.table(table_data(grid, flags=False), page=1, top=600)
    eu = chunk(b)[0]
    assert eu.grid_rows == ["2025 | 1,200 | 350.5", "2026 | 1,200 | 290.0"]
    assert eu.retrieval_text.endswith("Year | Principal | Interest\n2025 | 1,200 | 350.5\n2026 | 1,200 | 290.0")


def test_a_unit_written_without_grid_rows_embeds_its_flattened_rows():
    eu = chunk(income_builder())[0]
    record = json.loads(json.dumps(eu.to_dict()))
    del record["grid_rows"]  # as written before the field existed
    old = EvidenceUnit.from_dict(record)
    assert old.grid_rows == []
    assert "Revenue | Year ended December 31 / 2024: 12,345; Year ended December 31 / 2023: 11,000" in old.retrieval_text


def test_a_unit_written_without_table_markdown_shows_its_html():
    eu = chunk(income_builder())[0]
    record = json.loads(json.dumps(eu.to_dict()))
    del record["table_markdown"]  # as written before the field existed
    old = EvidenceUnit.from_dict(record)
    assert old.table_html in old.text and "| - |" not in old.text
    limit = count_eu_tokens(old) - 1  # it still splits under a limit its HTML text exceeds
    result = split_eu(old, limit=limit)
    assert result.kind == "row_split" and all(count_eu_tokens(piece) <= limit for piece in result.units)


def test_abstract_names_caption_columns_and_row_count():
    eu = chunk(income_builder())[0]
    assert eu.table_abstract.startswith("Table 1: Consolidated statement of income (in millions of USD): 4 rows")
    assert "Year ended December 31 / 2024" in eu.table_abstract


def test_text_holds_a_markdown_table_and_retrieval_text_holds_rows():
    eu = chunk(income_builder())[0]
    # text: the compact Markdown table (one header row naming the column paths, one line per row)
    assert "|  | Year ended December 31 - 2024 | Year ended December 31 - 2023 |\n| - | - | - |\n" \
        "| Revenue | 12,345 | 11,000 |\n| Cost of sales | (7,100) | (6,500) |" in eu.text
    assert "<table>" not in eu.text and eu.table_markdown in eu.text
    # the HTML stays on the unit, with its header cells
    assert eu.table_html.startswith("<table>") and "<th>2024</th>" in eu.table_html
    assert "<table>" not in eu.retrieval_text and "| - |" not in eu.retrieval_text
    # the header lines name the columns once; each row lists its values in column order
    assert "Year ended December 31\n2024 | 2023\nRevenue | 12,345 | 11,000\nCost of sales | (7,100) | (6,500)" \
        in eu.retrieval_text
    assert "2024: 12,345" not in eu.retrieval_text
    assert eu.retrieval_units[0] == eu.table_abstract
    assert eu.chunk_id == eu.eu_id and eu.is_atomic is False


def test_bbox_is_normalised_bottom_left():
    eu = chunk(income_builder())[0]
    l, t, r, b = eu.bbox
    assert 0 <= l < r <= 1 and 0 <= b < t <= 1
    assert t == pytest.approx(680 / 842)
    assert eu.page_boxes[0].bbox == (72.0, 680.0, 520.0, 560.0)
    assert eu.page_boxes[0].coord_origin == "BOTTOMLEFT"


def test_table_continued_over_page_break_is_one_unit():
    head = [["Assets", "2024", "2023"]]
    part1 = head + [[f"Asset {i}", f"{i},000", f"{i},100"] for i in range(1, 6)]
    part2 = head + [[f"Asset {i}", f"{i},000", f"{i},100"] for i in range(6, 9)]
    b = DocBuilder(pages=2)
    cap = b.caption("Table 2: Balance sheet", page=1, top=320)
    b.table(table_data(part1, row_header_cols=1), page=1, top=300, height=220, caption=cap)
    b.table(table_data(part2, row_header_cols=1), page=2, top=780, height=100)
    units = chunk(b)
    assert len(units) == 1
    eu = units[0]
    assert eu.page_span == {1, 2}
    assert [r.split(" |")[0] for r in eu.flattened_rows] == [f"Asset {i}" for i in range(1, 9)]
    assert eu.row_pages == [1] * 5 + [2] * 3
    assert [box.page for box in eu.page_boxes] == [1, 2]


def test_tables_on_next_page_with_own_caption_stay_apart():
    rows = [["Assets", "2024"], ["Cash", "1"]]
    b = DocBuilder(pages=2)
    b.table(table_data(rows, row_header_cols=1), page=1, top=300)
    cap = b.caption("Table 3: Another table", page=2, top=790)
    b.table(table_data(rows, row_header_cols=1), page=2, top=770, caption=cap)
    assert len(chunk(b)) == 2


def test_unit_round_trips_through_json():
    eu = chunk(income_builder())[0]
    data = json.loads(json.dumps(eu.to_dict()))
    again = EvidenceUnit.from_dict(data)
    assert again == eu
    assert again.text == eu.text


def test_ids_are_stable_across_runs():
    first = [eu.eu_id for eu in chunk(income_builder())]
    second = [eu.eu_id for eu in chunk(income_builder())]
    assert first == second == ["rep-p1-1"]


def test_furniture_labels_are_not_context():
    b = income_builder()
    b.text("ACME Corp — Annual Report 2024", page=1, top=830, height=10, label=DocItemLabel.PAGE_HEADER)
    eu = chunk(b)[0]
    assert all("Annual Report" not in p for p in eu.context_before)


def test_paragraph_that_names_another_table_is_not_adopted():
    b = income_builder()
    b.text("Table 2 below breaks revenue down by region and segment.", page=1, top=500)
    eu = chunk(b)[0]
    assert all("Table 2" not in p for p in eu.context_after)
    assert "Operating income rose on lower cost of sales relative to revenue." in eu.context_after
