"""Table titles, units and periods for tables without a numbered caption (10-K statements, 사업보고서)."""

from __future__ import annotations

import pytest
from docling_core.types.doc import ContentLayer, DocItemLabel

from docbuilder import DocBuilder, prov, table_data
from evidence_chunker import EvidenceChunker
from evidence_chunker.units.titles import describe, find_period, find_unit, is_header_residue, names_statement, strip_unit

STATEMENT = [
    ["", "2018", "2017", "2016"],
    ["Net sales", "$ 32,765", "$ 31,657", "$ 29,999"],
    ["Operating income", "7,207", "7,692", "6,966"],
    ["Net income attributable to 3M", "5,349", "4,858", "5,050"],
]


def units(builder: DocBuilder):
    return EvidenceChunker(parser="lite").chunk_parsed(builder.parsed(), doc_id="rep")


@pytest.mark.parametrize(
    ("text", "unit"),
    [
        ("(Millions, except per share amounts)", "Millions, except per share amounts"),
        ("($ in Millions, except EPS) 2023 2022 % Change", "$ in Millions, except EPS"),
        ("(Dollars in millions, except per share data)", "Dollars in millions, except per share data"),
        ("(in thousands)", "in thousands"),
        ("(단위: 백만원) 제26기 (2023년)", "단위: 백만원"),
        ("Amounts in millions of dollars", "Amounts in millions of dollars"),
        ("Net sales", None),
        ("Table 3: revenue by region", None),
    ],
)
def test_unit_statements_in_english_and_korean(text, unit):
    assert find_unit(text) == unit


def test_strip_unit_leaves_the_column_header():
    assert strip_unit("($ in Millions, except EPS) 2023 2022 % Change") == "2023 2022 % Change"
    assert strip_unit("(단위: 백만원) 제26기 (2023년)") == "제26기 (2023년)"


@pytest.mark.parametrize(
    ("text", "period"),
    [
        ("Years ended December 31", "Years ended December 31"),
        ("For the three months ended June 30, 2023", "For the three months ended June 30, 2023"),
        ("As of December 31, 2022", "As of December 31, 2022"),
        ("제 26 기 2023.12.31 현재", "제 26 기"),
        ("2023년 12월 31일 현재", "2023년 12월 31일 현재"),
        ("Consolidated Statement of Income", None),
    ],
)
def test_reporting_periods(text, period):
    assert find_period(text) == period


def test_title_lines_split_into_title_unit_period_and_entity():
    title, unit, period, entity = describe(
        ["3M Company and Subsidiaries", "Consolidated Statement of Income", "Years ended December 31",
         "(Millions, except per share amounts)"]
    )
    assert (title, unit, period, entity) == (
        "Consolidated Statement of Income", "Millions, except per share amounts", "Years ended December 31",
        "3M Company and Subsidiaries",
    )


def test_header_residue_and_statement_names():
    assert is_header_residue("2022 2021 2022 2021")
    assert is_header_residue("December 31, 2022 June 30, 2022")
    assert not is_header_residue("Consolidated Balance Sheets")
    for name in ("Consolidated Statements of Cash Flows", "CONSOLIDATED BALANCE SHEETS", "Notes to Consolidated Financial Statements",
                 "연결재무상태표", "연결 손익계산서", "Statements of Consolidated Comprehensive Income"):
        assert names_statement(name), name


def statement_page() -> DocBuilder:
    b = DocBuilder()
    b.text("We have served as the Company's auditor since 1975.", page=1, top=800)
    b.heading("Item 8. Financial Statements and Supplementary Data", page=1, top=770)
    b.text("3M Company and Subsidiaries", page=1, top=740, height=12)
    b.text("Consolidated Statement of Income", page=1, top=726, height=12)
    b.text("Years ended December 31", page=1, top=712, height=12)
    grid = [["(Millions, except per share amounts)", "2018", "2017", "2016"], *STATEMENT[1:]]
    b.table(table_data(grid, header_rows=1, row_header_cols=1), page=1, top=696)
    return b


def test_title_block_above_a_statement_names_the_table():
    eu = units(statement_page())[0]
    assert (eu.caption_text, eu.caption_confidence, eu.caption_source) == (
        "Consolidated Statement of Income", "inferred", "title_block")
    assert eu.unit == "Millions, except per share amounts"
    assert eu.period == "Years ended December 31"
    assert eu.header_rows == ["2018 | 2017 | 2016"]  # the unit is no longer a column header
    assert "(Millions, except per share amounts)" in eu.table_html  # the cell itself stays as printed
    assert eu.table_abstract.startswith("Consolidated Statement of Income (3M Company and Subsidiaries): 3 rows")
    assert "Period: Years ended December 31." in eu.table_abstract
    assert "Section: Item 8. Financial Statements and Supplementary Data." in eu.table_abstract
    assert eu.context_before == []  # the title lines are the caption, the auditor's letter is not context
    assert eu.title_line == ("Consolidated Statement of Income · Years ended December 31 · "
                             "(Millions, except per share amounts) · Item 8. Financial Statements and Supplementary Data")


def test_running_title_names_a_table_when_no_title_block_is_printed():
    b = DocBuilder()
    b.doc.add_text(label=DocItemLabel.PAGE_HEADER, text="Notes to Consolidated Financial Statements",
                   prov=prov(1, 72, 820, 520, 808), content_layer=ContentLayer.FURNITURE)
    b.text("Revenue by region was as shown below, in line with the prior year and our plans for growth.", page=1, top=700, height=40)
    b.table(table_data(STATEMENT, header_rows=1, row_header_cols=1), page=1, top=600)
    eu = units(b)[0]
    assert (eu.caption_text, eu.caption_source) == ("Notes to Consolidated Financial Statements", "running_title")


def test_section_heading_names_a_table_last():
    b = DocBuilder()
    b.heading("NOTE 20. Quarterly Data (Unaudited)", page=1, top=780)
    b.text("The quarterly results below are unaudited and reflect every adjustment management considers necessary.",
           page=1, top=740, height=40)
    b.table(table_data(STATEMENT, header_rows=1, row_header_cols=1), page=1, top=640)
    eu = units(b)[0]
    assert (eu.caption_text, eu.caption_source, eu.caption_confidence) == (
        "NOTE 20. Quarterly Data (Unaudited)", "heading", "inferred")


def test_numbered_caption_stays_first():
    b = DocBuilder()
    b.text("Consolidated Statement of Income", page=1, top=760, height=12)
    b.text("Table 3: Revenue by segment", page=1, top=740, height=12)
    b.table(table_data(STATEMENT, header_rows=1, row_header_cols=1), page=1, top=720)
    eu = units(b)[0]
    assert (eu.caption_text, eu.caption_source) == ("Table 3: Revenue by segment", "caption")


def test_a_title_the_parser_drew_into_the_tables_first_rows_still_names_it():
    grid = [["NIKE, INC.", "", ""], ["CONSOLIDATED", "STATEMENTS OF", "SHAREHOLDERS' EQUITY"],
            ["", "COMMON STOCK", "TOTAL"], ["Balance at May 31, 2016", "1,329", "12,258"]]
    b = DocBuilder()
    b.text("The accompanying notes are an integral part of these statements, read them with care.", page=1, top=780, height=30)
    b.table(table_data(grid, header_rows=3, row_header_cols=1), page=1, top=700)
    eu = units(b)[0]
    assert (eu.caption_text, eu.caption_source) == ("CONSOLIDATED STATEMENTS OF SHAREHOLDERS' EQUITY", "title_block")


def test_a_table_of_contents_listing_statements_is_not_titled_by_them():
    grid = [["", "Page"], ["Consolidated Statements of Operations", "40"], ["Consolidated Balance Sheets", "43"]]
    b = DocBuilder()
    b.heading("INDEX TO FINANCIAL STATEMENTS", page=1, top=780)
    b.table(table_data(grid, header_rows=1, row_header_cols=1), page=1, top=700)
    eu = units(b)[0]
    assert eu.caption_text == "INDEX TO FINANCIAL STATEMENTS"
