"""A heading printed as one phrase over several columns stays one heading over all of them.

A period heading is centred over the amounts it heads ("Year Ended December 31," over three years), so its
words fall on both sides of the gutters between them. MGM's segment table had it cut at those gutters into
"Year Ended December" and "31,", each over one year; JPMorgan's shaded heading cells, whose fills meet under
"As of or for the three months", cut it into "As of or" and "for the three months ended March 31,". The
rows then read "Year Ended December / 2021: 1,217,814; 31, / 2020: 343,990". Labels set close in one
phrase ("September 30, 2023 September 24, 2022") are still cut: their gap is wider than their words' spaces.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

HEIGHT = letter[1]
COLUMNS = [50, 300, 370, 440, 510]
BODY = [
    ["Las Vegas Strip Resorts", "3,142,308", "1,738,211", "232,188"],
    ["Regional Operations", "1,294,630", "1,217,814", "343,990"],
    ["MGM China", "(203,136)", "25,367", "(193,832)"],
    ["Reportable segment total", "4,233,802", "2,981,392", "382,346"],
]


def _ruled_body(c: canvas.Canvas, top: float) -> float:
    """The body rows, ruled all round, from ``top`` (points from the page top); returns its bottom."""
    y = top
    for row in BODY:
        c.line(COLUMNS[0], HEIGHT - y, COLUMNS[-1], HEIGHT - y)
        c.setFont("Times-Roman", 9)
        c.drawString(COLUMNS[0] + 3, HEIGHT - y - 11, row[0])
        for k, value in enumerate(row[1:]):
            c.drawRightString(COLUMNS[k + 2] - 4, HEIGHT - y - 11, value)
        y += 15
    c.line(COLUMNS[0], HEIGHT - y, COLUMNS[-1], HEIGHT - y)
    for x in COLUMNS:
        c.line(x, HEIGHT - top, x, HEIGHT - y)
    return y


def _headings_above_a_ruled_body(c: canvas.Canvas, top: float) -> float:
    """MGM: "Year Ended December 31," centred over three years printed as lines above the ruled body, the
    unit in smaller italics under the years."""
    middle = (COLUMNS[1] + COLUMNS[-1]) / 2
    c.setFont("Times-Bold", 9)
    c.drawCentredString(middle, HEIGHT - top, "Year Ended December 31,")
    for k, year in enumerate(["2022", "2021", "2020"]):
        c.drawCentredString((COLUMNS[k + 1] + COLUMNS[k + 2]) / 2, HEIGHT - top - 13, year)
    c.setFont("Times-Italic", 7)
    c.drawCentredString(middle, HEIGHT - top - 24, "(In thousands)")
    return _ruled_body(c, top + 28)


def _shaded_heading_cells(c: canvas.Canvas, top: float) -> float:
    """JPMorgan: a heading wrapped over two lines in shaded cells, one fill per column, the grid's column
    rules running up through the heading's words."""
    c.setFillColorRGB(0.8, 0.9, 1.0)
    for a, b in zip(COLUMNS[1:], COLUMNS[2:]):
        c.rect(a, HEIGHT - top - 26, b - a, 26, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.line(COLUMNS[0], HEIGHT - top, COLUMNS[-1], HEIGHT - top)
    c.line(COLUMNS[1], HEIGHT - top - 26, COLUMNS[-1], HEIGHT - top - 26)
    for x in COLUMNS:
        c.line(x, HEIGHT - top, x, HEIGHT - top - 44)
    middle = (COLUMNS[1] + COLUMNS[-1]) / 2
    c.setFont("Times-Roman", 9)
    c.drawCentredString(middle, HEIGHT - top - 10, "As of or for the three months")
    c.drawCentredString(middle, HEIGHT - top - 21, "ended March 31,")
    c.setFont("Times-Bold", 9)
    for k, label in enumerate(["2021", "2020", "Change"]):
        c.drawCentredString((COLUMNS[k + 1] + COLUMNS[k + 2]) / 2, HEIGHT - top - 37, label)
    c.line(COLUMNS[1], HEIGHT - top - 41, COLUMNS[-1], HEIGHT - top - 41)
    return _ruled_body(c, top + 44)


@pytest.fixture(scope="module")
def pdf(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("phrases") / "segments.pdf"
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setLineWidth(0.5)
    c.setFont("Times-Bold", 11)
    c.drawString(50, HEIGHT - 60, "Segment information")
    bottom = _headings_above_a_ruled_body(c, 90)
    c.setFont("Times-Roman", 10)
    c.drawString(50, HEIGHT - bottom - 40, "The credit data follow.")
    _shaded_heading_cells(c, bottom + 80)
    c.save()
    return path


def _headings(table) -> list[tuple[str, int, int]]:
    return [(c.text, c.start_col_offset_idx, c.end_col_offset_idx) for c in table.data.table_cells
            if c.column_header and c.text and c.start_row_offset_idx == 0]


def test_a_period_heading_centred_over_the_gutters_spans_its_columns(pdf):
    upper, _ = LiteParser().parse(pdf).document.tables
    assert _headings(upper) == [("Year Ended December 31,", 1, 4)]


def test_a_heading_wrapped_in_shaded_cells_is_not_cut_at_their_rules(pdf):
    _, lower = LiteParser().parse(pdf).document.tables
    assert _headings(lower) == [("As of or for the three months ended March 31,", 1, 4)]


def test_every_amount_is_filed_under_the_whole_heading(pdf):
    upper, lower = EvidenceChunker(parser="lite").chunk(pdf)
    regional = next(row for row in upper.flattened_rows if row.startswith("Regional Operations |"))
    assert "Year Ended December 31, / 2021: 1,217,814" in regional
    assert "Year Ended December 31, / 2020: 343,990" in regional
    china = next(row for row in lower.flattened_rows if row.startswith("MGM China |"))
    assert "As of or for the three months ended March 31, / Change: (193,832)" in china


def _unit_band_under_quarters(path: Path) -> Path:
    """Block's quarterly results: the quarters printed as lines above a ruled grid whose first rows, a
    shaded band, hold only "(in thousands)" and "(unaudited)" centred over every value column."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setLineWidth(0.5)
    c.setFont("Times-Bold", 11)
    c.drawString(50, HEIGHT - 60, "Quarterly Results of Operations")
    middle = (COLUMNS[1] + COLUMNS[-1]) / 2
    c.setFont("Times-Bold", 8)
    c.drawCentredString(middle, HEIGHT - 90, "Three Months Ended,")
    for k, quarter in enumerate(["Dec. 31, 2020", "Sep. 30, 2020", "Jun. 30, 2020"]):
        c.drawCentredString((COLUMNS[k + 1] + COLUMNS[k + 2]) / 2, HEIGHT - 101, quarter)
    c.setFillColorRGB(0.8, 0.9, 1.0)
    c.rect(COLUMNS[0], HEIGHT - 128, COLUMNS[-1] - COLUMNS[0], 24, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    c.drawCentredString(middle, HEIGHT - 114, "(in thousands)")
    c.drawCentredString(middle, HEIGHT - 125, "(unaudited)")
    _ruled_body(c, 128)
    c.save()
    return path


def test_quarters_above_a_grid_headed_by_a_unit_band_become_its_headings(tmp_path):
    (unit,) = EvidenceChunker(parser="lite").chunk(_unit_band_under_quarters(tmp_path / "quarters.pdf"))
    regional = next(row for row in unit.flattened_rows if row.startswith("Regional Operations |"))
    assert unit.header_rows[:2] == ["Three Months Ended,", "Dec. 31, 2020 | Sep. 30, 2020 | Jun. 30, 2020"]
    assert "Three Months Ended, / Sep. 30, 2020 / (unaudited): 1,217,814; " \
           "Three Months Ended, / Jun. 30, 2020 / (unaudited): 343,990" in regional


def _titled_change_table(path: Path) -> Path:
    """Verizon: the table's title one line above its unit and its heading rows, set as part of the table."""
    c = canvas.Canvas(str(path), pagesize=letter)
    y = 60.0
    c.setFont("Times-Bold", 10)
    c.drawString(50, HEIGHT - y, "Consolidated Revenues")
    c.setFont("Times-Roman", 9)
    c.drawCentredString(475, HEIGHT - y - 12, "(dollars in millions)")
    c.setFont("Times-Bold", 9)
    c.drawCentredString(475, HEIGHT - y - 23, "Increase/(Decrease)")
    c.setFont("Times-Roman", 9)
    c.drawString(50, HEIGHT - y - 34, "Years Ended December 31,")
    for right, label in zip((350, 410), ("2021", "2020")):
        c.drawRightString(right, HEIGHT - y - 34, label)
    c.drawCentredString(475, HEIGHT - y - 34, "2021 vs. 2020")
    rows = [("Consumer", "95,300", "88,533", "6,767", "7.6 %"), ("Business", "31,042", "30,962", "80", "0.3"),
            ("Corporate and other", "7,722", "9,334", "(1,612)", "(17.3)"), ("Eliminations", "(451)", "(537)", "86", "(16.0)")]
    for k, (label, *values) in enumerate(rows):
        line = HEIGHT - y - 47 - 12 * k
        c.drawString(50, line, label)
        for right, value in zip((350, 410, 470, 510), values):
            c.drawRightString(right, line, value)
    c.save()
    return path


def test_a_title_line_over_the_heading_rows_does_not_end_them(tmp_path):
    (unit,) = EvidenceChunker(parser="lite").chunk(_titled_change_table(tmp_path / "revenues.pdf"))
    assert unit.header_rows[-1] == "Years Ended December 31, | 2021 | 2020 | 2021 vs. 2020"
    business = next(row for row in unit.flattened_rows if row.startswith("Business |"))
    assert business.startswith("Business | 2021: 31,042; 2020: 30,962; Increase/(Decrease) / 2021 vs. 2020: 80")


def _price_range(path: Path) -> Path:
    """Adobe's share prices: "Price Range" over two narrow columns set flush right, "High | Low", so
    that "Price" ends where the first column's figures end and "Range" where the second's do."""
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 11)
    c.drawString(50, HEIGHT - 60, "Market Information for Common Stock")
    c.setFont("Times-Bold", 8)
    start = 440.0
    high = start + c.stringWidth("Price", "Times-Bold", 8)
    low = start + c.stringWidth("Price Range", "Times-Bold", 8)
    c.drawString(start, HEIGHT - 90, "Price Range")
    c.drawRightString(high, HEIGHT - 101, "High")
    c.drawRightString(low, HEIGHT - 101, "Low")
    c.setFont("Times-Roman", 8)
    rows = [("First Quarter", "9.56", "7.38"), ("Second Quarter", "10.17", "8.43"),
            ("Third Quarter", "10.35", "9.08"), ("Fourth Quarter", "11.08", "9.87")]
    for k, (label, first, second) in enumerate(rows):
        y = HEIGHT - 114 - 12 * k
        c.drawString(50, y, label)
        c.drawRightString(high, y, first)
        c.drawRightString(low, y, second)
    c.save()
    return path


def test_a_two_word_heading_over_two_columns_is_not_cut_at_its_word_space(tmp_path):
    (unit,) = EvidenceChunker(parser="lite").chunk(_price_range(tmp_path / "prices.pdf"))
    second = next(row for row in unit.flattened_rows if row.startswith("Second Quarter |"))
    assert unit.header_rows[0] == "Price Range"
    assert second == "Second Quarter | Price Range / High: 10.17; Price Range / Low: 8.43"
