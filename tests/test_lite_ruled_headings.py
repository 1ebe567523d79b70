"""Column headings printed as plain lines above a ruled grid become its header rows, and a level of group
headings spans the columns it heads.

EDGAR draws the rules of a statement's body only and prints the years above them; read as a grid alone,
every row lost the year its amounts belong to ("Net sales | $ 14,694; $ 14,544"). A 10-Q prints "Three
Months Ended" and "Six Months Ended" over "2023 2022 2023 2022"; without them every row read "2023: …;
2022: …; 2023: …; 2022: …". A report's title and unit above a table are neither.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from repo_paths import BENCHMARKS, SAMPLE_PDFS

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.lib.styles import ParagraphStyle  # noqa: E402
from reportlab.pdfbase import pdfmetrics  # noqa: E402
from reportlab.pdfbase.ttfonts import TTFont  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402
from evidence_chunker.parsing.lite.heading_groups import centre_over_groups  # noqa: E402
from evidence_chunker.parsing.lite.settings import LiteSettings  # noqa: E402
from evidence_chunker.parsing.lite.text import Phrase, Word  # noqa: E402

sys.path.insert(0, str(BENCHMARKS))
from bench_headers import alike_columns  # noqa: E402

BODY = [
    ["Net sales", "$ 14,694", "$ 14,544", "$ 12,861"],
    ["Cost of sales", "(11,969)", "(11,724)", "(10,129)"],
    ["Gross profit", "2,725", "2,820", "2,732"],
    ["Net income", "$ 1,048", "$ 805", "$ 939"],
]
WIDTHS = [200, 70, 70, 70]


def _statement(path: Path, heading: list[str] | None) -> Path:
    """A title, optionally an unruled heading line, then the ruled body of a statement."""
    story = [Paragraph("Consolidated Statements of Income", getSampleStyleSheet()["Heading3"]), Spacer(1, 6)]
    if heading is not None:
        line = Table([heading], colWidths=WIDTHS)
        line.setStyle(TableStyle([("ALIGN", (1, 0), (-1, 0), "RIGHT"), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
        story.append(line)
    body = Table(BODY, colWidths=WIDTHS)
    body.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                              ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    story.append(body)
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    return path


@pytest.fixture(scope="module")
def statement(tmp_path_factory) -> Path:
    return _statement(tmp_path_factory.mktemp("headings") / "statement.pdf", ["(In millions)", "2023", "2022", "2021"])


def test_years_above_a_ruled_body_become_its_header_row(statement):
    (table,) = LiteParser().parse(statement).document.tables
    first = table.data.grid[0]
    assert [c.text for c in first] == ["(In millions)", "2023", "2022", "2021"]
    assert all(c.column_header for c in first[1:])
    assert [c.text for c in table.data.grid[1]] == ["Net sales", "$ 14,694", "$ 14,544", "$ 12,861"]


def test_the_heading_line_is_not_left_as_text_beside_the_table(statement):
    texts = [t.text for t in LiteParser().parse(statement).document.texts]
    assert "Consolidated Statements of Income" in texts
    assert not any("2023" in t for t in texts)


def test_every_amount_is_flattened_with_its_year(statement):
    (eu,) = EvidenceChunker(parser="lite").chunk(statement)
    rows = " / ".join(eu.flattened_rows)
    assert "Net sales | 2023: $ 14,694; 2022: $ 14,544; 2021: $ 12,861" in rows
    assert eu.unit is not None and "millions" in eu.unit.lower()


def test_a_title_alone_above_a_ruled_grid_stays_a_title(tmp_path):
    (table,) = LiteParser().parse(_statement(tmp_path / "untitled.pdf", None)).document.tables
    assert [c.text for c in table.data.grid[0]] == BODY[0]
    assert not any(c.column_header for c in table.data.grid[0])


def _gridded_headings(path: Path) -> Path:
    """Headings drawn as a ruled grid of their own, the body's ruled grid right under it."""
    heads = Table([["", "Organic sales", "Acquisitions", "Translation"]], colWidths=WIDTHS)
    heads.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    body = Table([["Safety and Industrial", "1.0%", "0.4%", "(4.2)%"], ["Consumer", "(0.9)", "0.1", "(2.6)"],
                  ["Total Company", "1.2", "0.2", "(3.9)"]], colWidths=WIDTHS)
    body.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                              ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    SimpleDocTemplate(str(path), pagesize=letter).build([heads, Spacer(1, 3), body])
    return path


def test_a_grid_of_headings_above_a_body_grid_becomes_its_header(tmp_path):
    tables = LiteParser().parse(_gridded_headings(tmp_path / "stacked.pdf")).document.tables
    assert len(tables) == 1
    grid = tables[0].data.grid
    assert [c.text for c in grid[0]] == ["", "Organic sales", "Acquisitions", "Translation"]
    assert all(c.column_header for c in grid[0])
    assert [c.text for c in grid[2]] == ["Consumer", "(0.9)", "0.1", "(2.6)"]


def test_a_lone_period_heading_spans_the_years_under_it(tmp_path):
    path = tmp_path / "period.pdf"
    period = Table([["", "Year ended December 31,", "", ""]], colWidths=WIDTHS)
    period.setStyle(TableStyle([("SPAN", (1, 0), (3, 0)), ("ALIGN", (1, 0), (3, 0), "CENTER"),
                                ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    years = Table([["(In millions)", "2023", "2022", "2021"]], colWidths=WIDTHS)
    years.setStyle(TableStyle([("ALIGN", (1, 0), (-1, 0), "RIGHT"), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    body = Table(BODY, colWidths=WIDTHS)
    body.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                              ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    title = Paragraph("Consolidated Statements of Income", getSampleStyleSheet()["Heading3"])
    SimpleDocTemplate(str(path), pagesize=letter).build([title, Spacer(1, 6), period, years, body])
    (table,) = LiteParser().parse(path).document.tables
    spanning = [c for c in table.data.table_cells if c.text == "Year ended December 31,"]
    assert len(spanning) == 1 and (spanning[0].start_col_offset_idx, spanning[0].end_col_offset_idx) == (1, 4)
    assert [c.text for c in table.data.grid[1]] == ["(In millions)", "2023", "2022", "2021"]


QUARTER_WIDTHS = [160, 12, 58, 12, 58, 12, 58, 12, 58]


def _quarters(path: Path, above: list[str]) -> Path:
    """A 10-Q statement: the ruled grid holds the years (twice) over "$" columns apart from the
    amounts; the periods they belong to are printed as one unruled line above the grid."""
    period = Table([above], colWidths=[160, 140, 140])
    period.setStyle(TableStyle([("ALIGN", (1, 0), (-1, 0), "CENTER"), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    rows = [["(In millions)", "", "2023", "", "2022", "", "2023", "", "2022"],
            ["Net sales", "$", "14,694", "$", "14,544", "$", "28,861", "$", "27,130"],
            ["Cost of sales", "", "(11,969)", "", "(11,724)", "", "(23,010)", "", "(22,455)"],
            ["Net income", "$", "1,048", "$", "805", "$", "1,939", "$", "1,610"]]
    body = Table(rows, colWidths=QUARTER_WIDTHS)
    body.setStyle(TableStyle([("LINEBELOW", (0, 0), (-1, -1), 0.5, "black"), ("LINEBEFORE", (0, 0), (0, -1), 0.5, "black"),
                              ("LINEAFTER", (0, 0), (-1, -1), 0.5, "black"), ("ALIGN", (2, 0), (-1, -1), "RIGHT"),
                              ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    title = Paragraph("Condensed Consolidated Statements of Income", getSampleStyleSheet()["Heading3"])
    SimpleDocTemplate(str(path), pagesize=letter).build([title, Spacer(1, 6), period, body])
    return path


def test_periods_above_a_grid_that_repeats_its_years_head_them(tmp_path):
    """The grid's own header row reads "2023 2022 2023 2022": the periods printed above it become the
    level that tells the columns apart, each over the two years it is centred on."""
    (table,) = LiteParser().parse(_quarters(tmp_path / "q.pdf", ["", "Three Months Ended", "Six Months Ended"])).document.tables
    spans = {c.text: (c.start_col_offset_idx, c.end_col_offset_idx) for c in table.data.table_cells if c.text.endswith("Ended")}
    assert spans == {"Three Months Ended": (1, 3), "Six Months Ended": (3, 5)}
    assert [c.text for c in table.data.grid[1]] == ["(In millions)", "2023", "2022", "2023", "2022"]
    assert all(c.column_header for row in table.data.grid[:2] for c in row[1:])


def test_each_amount_of_a_repeating_grid_reads_with_its_period(tmp_path):
    (eu,) = EvidenceChunker(parser="lite").chunk(_quarters(tmp_path / "q.pdf", ["", "Three Months Ended", "Six Months Ended"]))
    rows = " / ".join(eu.flattened_rows)
    assert "Net sales | Three Months Ended / 2023: $ 14,694; Three Months Ended / 2022: $ 14,544; " \
           "Six Months Ended / 2023: $ 28,861; Six Months Ended / 2022: $ 27,130" in rows
    texts = [t.text for t in LiteParser().parse(tmp_path / "q.pdf").document.texts]
    assert not any("Months Ended" in t for t in texts)
    assert eu.period == "Three Months Ended; Six Months Ended"  # both, not the first alone


def test_a_grid_whose_labels_tell_its_columns_apart_takes_nothing_from_above(tmp_path):
    path = tmp_path / "distinct.pdf"
    note = Table([["", "Unaudited", ""]], colWidths=[160, 280, 100])
    note.setStyle(TableStyle([("ALIGN", (1, 0), (1, 0), "CENTER"), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    body = Table([["(In millions)", "2023", "2022", "2021"], *BODY], colWidths=WIDTHS)
    body.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                              ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    SimpleDocTemplate(str(path), pagesize=letter).build([note, body])
    (table,) = LiteParser().parse(path).document.tables
    assert table.data.num_rows == len(BODY) + 1
    assert "Unaudited" in [t.text for t in LiteParser().parse(path).document.texts]


def test_the_header_benchmark_counts_columns_that_read_alike(tmp_path):
    """benchmarks/bench_headers.py's measure: without the periods the years repeat; with them, none do."""
    (bare,) = LiteParser().parse(_quarters(tmp_path / "bare.pdf", ["", "", ""])).document.tables
    assert sorted(alike_columns(bare.data)) == [("2022",), ("2023",)]
    (headed,) = LiteParser().parse(_quarters(tmp_path / "q.pdf", ["", "Three Months Ended", "Six Months Ended"])).document.tables
    assert alike_columns(headed.data) == []


def test_a_group_heading_the_grid_puts_in_a_sign_column_heads_the_columns_beside_it(tmp_path):
    """Inside the grid, "Level 1" stands over the gap between its two years, the cell of the second
    year's "$": it heads both years, and the signs still join their amounts."""
    path = tmp_path / "levels.pdf"
    rows = [["", "", "Level 1", "", "", "Level 2", ""],
            ["Asset Class (Millions)", "2022", "", "2021", "2022", "", "2021"],
            ["U.S. equities", "$ 145", "$", "292", "$ 61", "$", "59"],
            ["Non-U.S. equities", "23", "", "80", "5", "", "7"]]
    body = Table(rows, colWidths=[150, 50, 40, 50, 50, 40, 50])
    body.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("ALIGN", (1, 1), (-1, -1), "RIGHT"),
                              ("ALIGN", (1, 0), (-1, 0), "CENTER"), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    SimpleDocTemplate(str(path), pagesize=letter).build([body])
    (table,) = LiteParser().parse(path).document.tables
    spans = {c.text: (c.start_col_offset_idx, c.end_col_offset_idx) for c in table.data.table_cells if c.text.startswith("Level")}
    assert spans == {"Level 1": (1, 3), "Level 2": (3, 5)}
    assert [c.text for c in table.data.grid[2]] == ["U.S. equities", "$ 145", "$ 292", "$ 61", "$ 59"]
    assert alike_columns(table.data) == []


def test_group_headings_over_a_borderless_table_head_their_years(tmp_path):
    """No rules at all: "Pension" and "Retiree Medical" are each centred over two years, and every
    amount reads with both."""
    path = tmp_path / "benefits.pdf"
    rows = [["", "Pension", "", "Retiree Medical", ""],
            ["(In millions)", "2022", "2021", "2022", "2021"],
            ["Service cost", "$ 430", "$ 402", "$ 94", "$ 106"],
            ["Interest cost", "2,781", "2,991", "194", "229"],
            ["Expected return on plan assets", "(4,009)", "(3,847)", "(8)", "(7)"],
            ["Net periodic benefit cost", "$ 1,050", "$ 1,120", "$ 41", "$ 58"]]
    table = Table(rows, colWidths=[180, 60, 60, 60, 60])
    table.setStyle(TableStyle([("SPAN", (1, 0), (2, 0)), ("SPAN", (3, 0), (4, 0)), ("ALIGN", (1, 0), (-1, 0), "CENTER"),
                               ("ALIGN", (1, 1), (-1, -1), "RIGHT"), ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    SimpleDocTemplate(str(path), pagesize=letter).build([table])
    (found,) = LiteParser().parse(path).document.tables
    spans = {c.text: (c.start_col_offset_idx, c.end_col_offset_idx) for c in found.data.table_cells if c.text in ("Pension", "Retiree Medical")}
    assert spans == {"Pension": (1, 3), "Retiree Medical": (3, 5)}
    assert alike_columns(found.data) == []


def _phrase(text: str, x0: float, x1: float) -> Phrase:
    return Phrase([Word(text, x0, 100.0, x1, 108.0, 8.0, False, "Times")])


#: A label column and four amount columns whose amounts, set flush right, print narrower than their labels.
AMOUNTS = [(0.0, 100.0), (150.0, 180.0), (230.0, 260.0), (310.0, 340.0), (390.0, 420.0)]


def test_a_heading_centred_over_the_gutter_of_two_labelled_columns_spans_them():
    row = [(1, 1, [_phrase("Three Months Ended", 175.0, 235.0)]), (3, 3, [_phrase("Six Months Ended", 340.0, 390.0)])]
    assert [(a, b) for a, b, _ in centre_over_groups(row, AMOUNTS, {1, 2, 3, 4}, [], LiteSettings())] == [(1, 2), (3, 4)]


def test_the_first_line_of_a_wrapped_label_heads_only_its_own_column():
    """"Gross" over "Unrealized Losses" is the first line of that label, though the amounts under it,
    set flush right, leave its centre over the gutter to their left."""
    row = [(2, 2, [_phrase("Gross", 195.0, 225.0)]), (4, 4, [_phrase("Gross", 355.0, 385.0)])]
    below = [_phrase("Fair Value", 150.0, 180.0), _phrase("Unrealized Losses", 190.0, 262.0),
             _phrase("Fair Value", 310.0, 340.0), _phrase("Unrealized Losses", 350.0, 422.0)]
    assert [(a, b) for a, b, _ in centre_over_groups(row, AMOUNTS, {1, 2, 3, 4}, below, LiteSettings())] == [(2, 2), (4, 4)]
    assert [(a, b) for a, b, _ in centre_over_groups(row, AMOUNTS, {1, 2, 3, 4}, [], LiteSettings())] == [(1, 2), (3, 4)]


def _korean_summary(path: Path, ruled: bool) -> Path:
    """A 사업보고서 summary: its title in a larger size, the unit alone at the right edge, then the table."""
    pdfmetrics.registerFont(TTFont("NanumSquareR", str(SAMPLE_PDFS / "fonts" / "NanumSquareR.ttf")))
    unit = Table([["", "(단위: 백만원)"]], colWidths=[200, 250])
    unit.setStyle(TableStyle([("FONTNAME", (0, 0), (-1, -1), "NanumSquareR"), ("ALIGN", (1, 0), (1, 0), "RIGHT"),
                              ("FONTSIZE", (0, 0), (-1, -1), 8)]))
    rows = [["과 목", "제26기 (2023년)", "제25기 (2022년)"], ["매출액", "1,234,567", "1,111,111"],
            ["영업이익", "123,456", "111,111"], ["당기순이익", "98,765", "88,888"]]
    body = Table(rows, colWidths=[150, 150, 150])
    style = [("FONTNAME", (0, 0), (-1, -1), "NanumSquareR"), ("FONTSIZE", (0, 0), (-1, -1), 8), ("ALIGN", (1, 0), (-1, -1), "RIGHT")]
    body.setStyle(TableStyle(style + ([("GRID", (0, 0), (-1, -1), 0.5, "black")] if ruled else [])))
    title = Paragraph("1. 요약재무정보", ParagraphStyle("title", fontName="NanumSquareR", fontSize=10))
    SimpleDocTemplate(str(path), pagesize=letter).build([title, Spacer(1, 6), unit, body])
    return path


@pytest.mark.parametrize("ruled", [True, False], ids=["ruled", "borderless"])
def test_a_korean_title_and_unit_above_a_table_stay_its_title_and_unit(tmp_path, ruled):
    """The title set larger than the table's text is not a heading row, and "(단위: 백만원)" alone at the
    right edge is the table's unit, not part of the last column's label ("(단위: 백만원) 제25기 (2022년)")."""
    path = _korean_summary(tmp_path / "summary.pdf", ruled)
    (table,) = LiteParser().parse(path).document.tables
    assert [c.text for c in table.data.grid[0]] == ["과 목", "제26기 (2023년)", "제25기 (2022년)"]
    (eu,) = EvidenceChunker(parser="lite").chunk(path)
    assert eu.caption_text == "1. 요약재무정보"
    assert eu.unit == "단위: 백만원"
    assert eu.flattened_rows[1] == "영업이익 | 제26기 (2023년): 123,456; 제25기 (2022년): 111,111"
