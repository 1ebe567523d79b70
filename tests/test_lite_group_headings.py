"""Each group heading spans the group of columns it heads, and every value keeps the full heading path.

3M prints its segment assets, depreciation and capital expenditures side by side: "Assets" over two
years, "Depreciation & Amortization" and "Capital Expenditures" over three. A heading centred over an odd
group stands over its middle column, so read by where its words fall it headed that column (and the one
its words reach into) and the group's first year had no measure: "2022: $ 512" for a capital expenditure.
The years under the headings repeat once per group; a group ends where a year comes again, and a heading
row with as many headings as groups gives each heading its group. Flattened rows name every column by its
whole path ("Capital Expenditures / 2022: $ 512", "Year ended December 31 / 2024: ..."), so a row read
alone says what each figure measures.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from docling_core.types.doc import TableCell, TableData  # noqa: E402
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402
from evidence_chunker.parsing.lite.column_groups import label_groups  # noqa: E402
from evidence_chunker.units.tables import analyse_table, flatten_rows  # noqa: E402

HEADINGS = ["", "Assets", "", "Capital Expenditures", "", ""]
YEARS = ["(Millions)", "2022", "2021", "2022", "2021", "2020"]
BODY = [["Safety and Industrial", "$ 11,730", "$ 11,744", "$ 512", "$ 339", "$ 451"],
        ["Health Care", "13,343", "14,055", "272", "249", "251"],
        ["Total Company", "$ 46,455", "$ 47,072", "$ 1,749", "$ 1,603", "$ 1,501"]]


def _segment_table(path: Path) -> Path:
    """Group headings centred and underlined over two and three years; equal column widths, so the
    three-year heading stands right over its middle year."""
    grid = Table([HEADINGS, YEARS, *BODY], colWidths=[160, *[60] * 5], hAlign="LEFT")
    grid.setStyle(TableStyle([
        ("FONTSIZE", (0, 0), (-1, -1), 8), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ("SPAN", (1, 0), (2, 0)), ("SPAN", (3, 0), (5, 0)), ("ALIGN", (1, 0), (-1, 0), "CENTER"),
        ("LINEBELOW", (1, 0), (2, 0), 0.5, "black"), ("LINEBELOW", (3, 0), (5, 0), 0.5, "black"),
    ]))
    SimpleDocTemplate(str(path), pagesize=letter).build([grid])
    return path


def test_a_heading_centred_over_an_odd_group_spans_the_whole_group(tmp_path):
    (table,) = LiteParser().parse(_segment_table(tmp_path / "segments.pdf")).document.tables
    heads = {c.text: (c.start_col_offset_idx, c.end_col_offset_idx) for c in table.data.table_cells
             if c.column_header and c.text in ("Assets", "Capital Expenditures")}
    assert heads == {"Assets": (1, 3), "Capital Expenditures": (3, 6)}


def test_every_value_of_a_group_is_filed_under_its_heading_and_year(tmp_path):
    (eu,) = EvidenceChunker(parser="lite").chunk(_segment_table(tmp_path / "segments.pdf"))
    row = next(r for r in eu.flattened_rows if r.startswith("Safety and Industrial |"))
    assert row == ("Safety and Industrial | Assets / 2022: $ 11,730; Assets / 2021: $ 11,744; "
                   "Capital Expenditures / 2022: $ 512; Capital Expenditures / 2021: $ 339; "
                   "Capital Expenditures / 2020: $ 451")


def test_groups_end_where_a_label_repeats():
    assert label_groups(["2022", "2021", "2022", "2021", "2020"]) == [[0, 1], [2, 3, 4]]
    assert label_groups(["Q1", "", "Q2", "Q1", "Q2"]) == [[0, 1, 2], [3, 4]]
    assert label_groups(["2024", "2023", "Change"]) == [[0, 1, 2]]
    # a footnote mark does not make a year another label: Nike's "2018 ⁽¹⁾" under its third quarter
    assert label_groups(["2018", "2017", "2018", "2017", "2018 (1)", "2017"]) == [[0, 1], [2, 3], [4, 5]]


def _table(rows: list[list[str]], header_rows: int, spans: dict[tuple[int, int], int] | None = None) -> TableData:
    cells = []
    for r, row in enumerate(rows):
        c = 0
        while c < len(row):
            width = (spans or {}).get((r, c), 1)
            cells.append(TableCell(text=row[c], start_row_offset_idx=r, end_row_offset_idx=r + 1,
                                   start_col_offset_idx=c, end_col_offset_idx=c + width, col_span=width,
                                   column_header=r < header_rows))
            c += width
    return TableData(num_rows=len(rows), num_cols=len(rows[0]), table_cells=cells)


def test_headings_from_any_parser_are_widened_over_their_groups_in_the_rows():
    """A Docling table whose "Pension Benefits" heading covers only the middle of its three years."""
    data = _table([["", "", "Pension Benefits", "", "", "Other Benefits", ""],
                   ["", "2020", "2019", "2018", "2020", "2019", "2018"],
                   ["Discount rate", "2.74%", "3.44%", "4.38%", "2.56%", "3.36%", "4.32%"]], 2)
    (row,) = flatten_rows(analyse_table(data))
    assert row == ("Discount rate | Pension Benefits / 2020: 2.74%; Pension Benefits / 2019: 3.44%; "
                   "Pension Benefits / 2018: 4.38%; Other Benefits / 2020: 2.56%; Other Benefits / 2019: 3.36%; "
                   "Other Benefits / 2018: 4.32%")


def test_a_period_heading_over_every_column_stays_in_each_label():
    data = _table([["", "Year ended December 31,", ""], ["", "2024", "2023"], ["Revenue", "12,345", "11,000"]], 2,
                  spans={(0, 1): 2})
    assert flatten_rows(analyse_table(data)) == [
        "Revenue | Year ended December 31, / 2024: 12,345; Year ended December 31, / 2023: 11,000"]


def test_headings_that_do_not_match_the_groups_are_left_as_printed():
    """Three headings over two groups of years: which heading heads which year cannot be told."""
    data = _table([["", "A", "B", "", "C", ""], ["", "2022", "2021", "2022", "2021", ""],
                   ["Sales", "1", "2", "3", "4", ""]], 2)
    (row,) = flatten_rows(analyse_table(data))
    assert row == "Sales | A / 2022: 1; B / 2021: 2; 2022: 3; C / 2021: 4"


def test_a_label_alone_between_heading_rows_keeps_the_rows_below_it_headings():
    """Nike's quarterly table: the quarters, "(Unaudited)" alone over the label column, then the years. The
    years were read as a body row, and every figure went under its quarter without its year."""
    rows = [["", "1st Quarter", "", "2nd Quarter", ""], ["(Unaudited)", "", "", "", ""],
            ["(In millions)", "2018", "2017", "2018 (1)", "2017"],
            ["Revenues", "$ 9,070", "$ 9,061", "$ 8,554", "$ 8,180"]]
    data = _table(rows, 3, spans={(0, 1): 2, (0, 3): 2})
    for cell in data.table_cells:
        cell.column_header = cell.start_row_offset_idx in (0, 2)
    layout = analyse_table(data)
    assert layout.header_rows == 3
    assert flatten_rows(layout) == ["Revenues | 1st Quarter / 2018: $ 9,070; 1st Quarter / 2017: $ 9,061; "
                                    "2nd Quarter / 2018 (1): $ 8,554; 2nd Quarter / 2017: $ 8,180"]


def _long_stub_heading(path: Path) -> Path:
    """3M's pension amounts: the label column's heading, a long phrase running into the gutter up to the
    first figures, stands on the line of the plan headings ("United States | International"), under the
    group heading over them all; the years are on the next line beside "(Millions)"."""
    from reportlab.pdfgen import canvas

    height = letter[1]
    rights = [380, 420, 470, 510]  # each value column's right edge
    c = canvas.Canvas(str(path), pagesize=letter)
    c.setFont("Times-Bold", 11)
    c.drawString(50, height - 60, "Pension benefits")
    c.setFont("Times-Bold", 8)
    c.drawCentredString((rights[0] - 25 + rights[-1]) / 2, height - 90, "Qualified Pension Benefits")
    c.drawString(50, height - 101, "Amounts recognized in accumulated other comprehensive income as of December 31,")
    c.drawCentredString((rights[0] - 25 + rights[1]) / 2, height - 101, "United States")
    c.drawCentredString((rights[2] - 25 + rights[3]) / 2, height - 101, "International")
    c.drawString(50, height - 112, "(Millions)")
    for right, year in zip(rights, ["2022", "2021", "2022", "2021"]):
        c.drawRightString(right, height - 112, year)
    c.setFont("Times-Roman", 8)
    rows = [("Net actuarial loss (gain)", "4,616", "4,991", "157", "960"),
            ("Prior service cost (credit)", "(56)", "(80)", "10", "3"),
            ("Ending balance", "4,560", "4,911", "171", "969")]
    for k, (label, *values) in enumerate(rows):
        y = height - 125 - 12 * k
        c.drawString(50, y, label)
        for right, value in zip(rights, values):
            c.drawRightString(right, y, value)
    c.save()
    return path


def test_a_long_heading_over_the_label_column_does_not_end_the_headings_beside_it(tmp_path):
    (unit,) = EvidenceChunker(parser="lite").chunk(_long_stub_heading(tmp_path / "pension.pdf"))
    loss = next(row for row in unit.flattened_rows if row.startswith("Net actuarial loss (gain) |"))
    assert loss == ("Net actuarial loss (gain) | Qualified Pension Benefits / United States / 2022: 4,616; "
                    "Qualified Pension Benefits / United States / 2021: 4,991; "
                    "Qualified Pension Benefits / International / 2022: 157; "
                    "Qualified Pension Benefits / International / 2021: 960")
