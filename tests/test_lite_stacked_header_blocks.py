"""A heading row inside a grid starts a new block of column headings for the rows below it.

Segment notes print two blocks of measures in one grid: "Net Sales | Operating Income" over three years,
then "Assets | Capital Expenditures" over the same years. Read under the table's first headings, every
figure of the lower block was filed under the upper block's measures ("Operating Income / 2017: 454" for
a capital expenditure), and the lower block's own headings read as a row of the table. Each block is now
a unit of its own under its own headings, both titled as the table is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.units.tables import analyse_table, flatten_rows, header_blocks  # noqa: E402

YEARS = ["2018", "2017", "2016"]
WIDTHS = [150, *[52] * 6]
UPPER = [["Segment A", "$ 1,000", "$ 900", "$ 800", "$ 210", "$ 180", "$ 160"],
         ["Segment B", "540", "450", "400", "120", "95", "85"],
         ["Total", "$ 1,540", "$ 1,350", "$ 1,200", "$ 330", "$ 275", "$ 245"]]
LOWER = [["Segment A", "$ 4,310", "$ 4,120", "$ 3,900", "$ 512", "$ 454", "$ 431"],
         ["Segment B", "2,260", "2,180", "2,050", "146", "139", "120"],
         ["Total", "$ 6,570", "$ 6,300", "$ 5,950", "$ 658", "$ 593", "$ 551"]]


def _segment_note(path: Path) -> Path:
    """One grid: group headings underlined over three years each, body rows, then a second block."""
    rows = [["", "Net Sales", "", "", "Operating Income", "", ""], ["(Millions)", *YEARS, *YEARS], *UPPER,
            ["", "Assets", "", "", "Capital Expenditures", "", ""], ["", *YEARS, *YEARS], *LOWER]
    lower_head = 2 + len(UPPER)
    grid = Table(rows, colWidths=WIDTHS, hAlign="LEFT")
    style = [("FONTSIZE", (0, 0), (-1, -1), 8), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
             ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]
    for head in (0, lower_head):
        style += [("SPAN", (1, head), (3, head)), ("SPAN", (4, head), (6, head)),
                  ("ALIGN", (1, head), (-1, head), "CENTER"),
                  ("LINEBELOW", (1, head), (3, head), 0.5, "black"), ("LINEBELOW", (4, head), (6, head), 0.5, "black")]
    grid.setStyle(TableStyle(style))
    title = Paragraph("Business Segment Information", getSampleStyleSheet()["Heading3"])
    SimpleDocTemplate(str(path), pagesize=letter).build([title, Spacer(1, 6), grid])
    return path


def _row(units, block: int, label: str) -> str:
    return next(row for row in units[block].flattened_rows if row.startswith(f"{label} |"))


def test_a_heading_row_inside_the_grid_starts_a_block_with_its_own_headings(tmp_path):
    units = EvidenceChunker(parser="lite").chunk(_segment_note(tmp_path / "segments.pdf"))
    assert len(units) == 2
    upper, lower = units
    assert upper.header_rows == ["Net Sales | Operating Income", "2018 | 2017 | 2016 | 2018 | 2017 | 2016"]
    assert upper.unit == lower.unit == "Millions"
    assert lower.header_rows[0] == "Assets | Capital Expenditures"
    assert "Segment A | Net Sales / 2018: $ 1,000;" in _row(units, 0, "Segment A")
    lower_a = _row(units, 1, "Segment A")
    assert "Capital Expenditures / 2018: $ 512" in lower_a
    assert "Capital Expenditures / 2017: $ 454" in lower_a
    assert "Assets / 2016: $ 3,900" in lower_a
    assert not any("Operating Income" in row for row in lower.flattened_rows)
    assert not any("Capital Expenditures" in row for row in upper.flattened_rows)


def test_both_blocks_are_titled_as_the_table_and_keep_every_body_row(tmp_path):
    upper, lower = EvidenceChunker(parser="lite").chunk(_segment_note(tmp_path / "segments.pdf"))
    assert upper.caption_text == lower.caption_text == "Business Segment Information"
    assert [row.split(" |")[0] for row in upper.flattened_rows if row] == ["Segment A", "Segment B", "Total"]
    assert [row.split(" |")[0] for row in lower.flattened_rows if row] == ["Segment A", "Segment B", "Total"]
    assert upper.eu_id != lower.eu_id and len(lower.row_pages) == len(lower.flattened_rows)


def test_text_rows_and_nil_marks_inside_a_table_start_no_block():
    """A row of words over the values is a heading only when the rows around it print figures and it prints
    no figure itself: "n/a" and "—" are nil figures, and a text table has no blocks."""
    from docling_core.types.doc import TableCell, TableData

    def table(rows: list[list[str]]) -> TableData:
        cells = [TableCell(text=t, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                           end_col_offset_idx=c + 1, column_header=r == 0)
                 for r, row in enumerate(rows) for c, t in enumerate(row)]
        return TableData(num_rows=len(rows), num_cols=len(rows[0]), table_cells=cells)

    nil = analyse_table(table([["", "2018", "2017"], ["Sales", "10", "9"], ["Rate of increase", "n/a", "—"],
                               ["Cost", "4", "3"]]))
    assert len(header_blocks(nil)) == 1
    words = analyse_table(table([["Name", "Role", "Since"], ["A. Smith", "Director", "Chair"],
                                 ["B. Jones", "Officer", "Treasurer"]]))
    assert len(header_blocks(words)) == 1
    stacked = analyse_table(table([["", "Sales", "Income"], ["East", "10", "2"], ["", "Assets", "Capex"],
                                   ["East", "40", "5"]]))
    assert header_blocks(stacked) == [(0, 1, 2), (2, 1, 4)]
    assert flatten_rows(stacked)[0] == "East | Sales: 10; Income: 2"
