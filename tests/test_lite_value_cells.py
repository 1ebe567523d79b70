"""One printed value per table cell, as printed: what real filings set close together stays apart.

- JPMorgan prints a segment's "Change" column close to the next segment's first amount when no "$"
  stands between them: "(22)" read as a list enumerator took "1,527" as its item, one cell over two
  columns.
- A footnote mark printed small and raised after an amount ("5,645 ⁽ᵃ⁾", "1,502 *") read before it
  ("(a) 5,645"), or as a column of its own where two rows have one.
- A "$" set close after the amount before it ("(801) $  (1,642)") belongs to the amount after it.
- General Mills sets a pension table's columns so close that the "$" at the left edge of a column
  touches the amount before it: no strip between the columns was free, and a cell read
  "192.1 230.5"; figures set under a phrase gap apart read as one phrase ("(7.6) 5.8").
- Johnson & Johnson prints every glyph as a text object of its own; pdfium reports a line break between
  any two of them, and each glyph became a word: "2 , 3 4 6", "P u l m o n a r y".

The PDFs are drawn with reportlab's canvas at exact positions, as those filings place them.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from repo_paths import BENCHMARKS

pytest.importorskip("reportlab")
from reportlab.pdfbase.pdfmetrics import stringWidth  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

sys.path.insert(0, str(BENCHMARKS))
from bench_cells import holds_two_values, mark_first  # noqa: E402

FONT, SIZE, MARK_SIZE = "Times-Roman", 8, 5
#: Right ends of the value columns: two segments of 2022 / 2021 / Change, the Change column close to the
#: next segment's first amount.
RIGHT_ENDS = (200, 240, 280, 316, 356, 396)
HEADINGS = ("2022", "2021", "Change", "2022", "2021", "Change")
ROWS = (
    ("Total net revenue", ("12,614", "12,760", "(1)", "11,947", "13,214", "(10)")),
    ("Total noninterest expense", ("7,723", "7,062", "9", "6,745", "6,523", "3")),
    ("Pre-provision profit", ("4,891", "5,698", "(22)", "1,527", "1,502", "2")),
    ("Provision for credit losses", ("761", "(1,868)", "NM", "59", "(79)", "NM")),
    ("Net income", ("3,100", "5,645", "(45)", "3,725", "5,020", "(26)")),
    ("Return on equity", ("24 %", "44 %", "", "14 %", "23 %", "")),
)
#: Raised footnote marks printed after these amounts.
MARKS = {"5,645": "(a)", "44 %": "(a)", "1,502": "*"}


def _right(page: canvas.Canvas, x1: float, y: float, text: str, size: float = SIZE) -> float:
    page.setFont(FONT, size)
    page.drawRightString(x1, y, text)
    return x1


def _segment_results(path: Path) -> Path:
    """A statement in aligned columns: a footnote mark raised after "5,645", "(22)" close before "1,527",
    and in the last row "(801)" with the next amount's "$" set close after it."""
    page = canvas.Canvas(str(path))
    y = 700
    page.setFont(FONT, SIZE)
    page.drawString(50, y, "(in millions)")
    for x1, heading in zip(RIGHT_ENDS, HEADINGS):
        _right(page, x1, y, heading)
    for label, values in ROWS:
        y -= 12
        page.setFont(FONT, SIZE)
        page.drawString(50, y, label)
        for x1, value in zip(RIGHT_ENDS, values):
            _right(page, x1, y, value)
            if value in MARKS:
                page.setFont(FONT, MARK_SIZE)
                page.drawString(x1 + 9, y + 3, MARKS[value])  # raised, small, in the gap before the next column
    y -= 12
    page.setFont(FONT, SIZE)
    page.drawString(50, y, "Corporate revenue")
    for x1, value in zip(RIGHT_ENDS, ("80", "(1,169)", "NM", "(801)", "(1,642)", "51")):
        _right(page, x1, y, value)
    page.setFont(FONT, SIZE)
    page.drawString(RIGHT_ENDS[3] + 3, y, "$")  # the sign of "(1,642)", printed close after "(801)"
    page.save()
    return path


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    document = LiteParser().parse(_segment_results(tmp_path_factory.mktemp("cells") / "segments.pdf")).document
    (found,) = document.tables
    return found.data


def _row(data, label: str) -> list[str]:
    (row,) = [[c.text for c in r] for r in data.grid if r[0].text == label]
    return row


def test_a_change_in_parentheses_and_the_next_amount_are_two_cells(table):
    assert table.num_cols == 7
    assert _row(table, "Pre-provision profit") == ["Pre-provision profit", "4,891", "5,698", "(22)", "1,527", "1,502 *", "2"]


def test_a_raised_footnote_mark_follows_its_amount_in_its_cell(table):
    assert _row(table, "Net income") == ["Net income", "3,100", "5,645 (a)", "(45)", "3,725", "5,020", "(26)"]
    assert _row(table, "Return on equity")[2] == "44 % (a)"
    assert _row(table, "Pre-provision profit")[5] == "1,502 *"


def test_a_sign_set_close_after_an_amount_goes_to_the_next_amount(table):
    assert _row(table, "Corporate revenue")[4:6] == ["(801)", "$ (1,642)"]


def test_no_cell_holds_two_values_or_opens_with_a_mark(table):
    texts = [c.text for c in table.table_cells if not c.column_header]
    assert not [t for t in texts if holds_two_values(t) or mark_first(t)]


#: Right ends of the dense table's value columns, and its rows: "$" amounts open the first and last.
DENSE_ENDS = (240, 264, 288, 312)
DENSE_ROWS = (
    ("Net actuarial loss", ("(1,720.3)", "(1,897.2)", "208.5", "200.8"), True),
    ("Prior service credits", ("(7.6)", "5.8", "118.9", "133.7"), False),
    ("Other adjustments", ("0.1", "(0.1)", "12.9", "8.4"), False),
    ("Amounts recorded", ("(1,727.9)", "(1,891.4)", "327.4", "334.5"), True),
)


def test_columns_set_close_with_signs_between_read_one_value_per_cell(tmp_path):
    path = tmp_path / "dense.pdf"
    page = canvas.Canvas(str(path))
    y = 700
    for x1, year in zip(DENSE_ENDS, ("2022", "2021", "2022", "2021")):
        _right(page, x1, y, year, MARK_SIZE)
    for label, values, signed in DENSE_ROWS:
        y -= 8
        page.setFont(FONT, MARK_SIZE)
        page.drawString(150, y, label)
        for k, (x1, value) in enumerate(zip(DENSE_ENDS, values)):
            _right(page, x1, y, value, MARK_SIZE)
            if signed:  # at the column's left edge, 0.25 em after the column before
                page.setFont(FONT, MARK_SIZE)
                page.drawString((DENSE_ENDS[k - 1] if k else 214) + 1.2, y, "$")
    page.save()
    (found,) = LiteParser().parse(path).document.tables
    data = found.data
    assert data.num_cols == 5
    assert [c.text for c in data.grid[0]] == ["", "2022", "2021", "2022", "2021"]
    for label, values, signed in DENSE_ROWS:
        assert _row(data, label) == [label] + [f"$ {v}" if signed else v for v in values]


def _glyph_by_glyph(page: canvas.Canvas, x: float, y: float, text: str) -> None:
    """Each glyph a text object of its own, a space only a gap, as Johnson & Johnson's 10-K prints."""
    for ch in text:
        if ch != " ":
            page.setFont(FONT, SIZE)
            page.drawString(x, y, ch)
        x += stringWidth(ch, FONT, SIZE)


def test_glyphs_printed_one_by_one_read_as_words(tmp_path):
    path = tmp_path / "glyphs.pdf"
    page = canvas.Canvas(str(path))
    _glyph_by_glyph(page, 50, 700, "Pulmonary Hypertension")
    _glyph_by_glyph(page, 50, 680, "U.S.")
    for x1, value in ((250, "2,346"), (320, "2,365"), (390, "2,133")):
        _glyph_by_glyph(page, x1 - stringWidth(value, FONT, SIZE), 680, value)
    page.save()
    texts = [t.text for t in LiteParser().parse(path).document.texts]
    assert texts == ["Pulmonary Hypertension", "U.S. 2,346 2,365 2,133"]


@pytest.mark.parametrize(("text", "two"), [("(22) 1,527", True), ("$ 80 $ (1,169)", True), ("$ 12,614", False),
                                           ("(1) %", False), ("5,645 (a)", False), ("2 to 5", False)])
def test_the_cell_benchmark_counts_two_values_in_one_cell(text, two):
    assert holds_two_values(text) is two


@pytest.mark.parametrize(("text", "first"), [("(a) 5,645", True), ("5,645 (a)", False), ("(22) 1,527", False),
                                             ("(a) Includes leases", False)])
def test_the_cell_benchmark_counts_marks_read_before_their_value(text, first):
    assert mark_first(text) is first
