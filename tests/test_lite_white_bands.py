"""A table of shaded bands whose white rows have no rule across them is read as one ruled table.

PepsiCo's "Juice Transaction" summary fills its heading cells and every other row cell by cell and leaves
the rows between white: the fills' edges draw the column boundaries on the shaded rows only, and a white
row ("Acquisition and divestiture-related charges | 51 | 14 | ...") cut the drawing in two grids. Read
apart, the lower grid took that row's figures for its column headings ("51: $ (2,978)"); inside it, the
next white row had no column boundary and read as one cell ("(10) 3 (7) 0.01"); and the upper grid, its
headings wrapped over five lines in one drawn row, lost their last line ("PBNA", "Europe", ...) to the
limit on heading rows.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.platypus import SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402

HEAD = ["", "PBNA", "Europe", "Corporate", "Total\nPepsiCo", "Provision\nfor income\ntaxes",
        "Net income\nattributable to\nPepsiCo", "Impact on net\nincome\nattributable to\nPepsiCo per\ncommon share"]
ROWS = [["Gain associated with the Juice Transaction", "(3,029)", "(292)", "—", "(3,321)", "433", "(2,888)", "2.08"],
        ["Acquisition and divestiture-related charges", "51", "14", "6", "71", "(13)", "58", "(0.04)"],
        ["Operating profit", "(2,978)", "(278)", "6", "(3,250)", "420", "(2,830)", "2.04"],
        ["Other pension and retiree medical benefits income", "", "", "", "(10)", "3", "(7)", "0.01"],
        ["Total Juice Transaction", "", "", "", "(3,260)", "423", "(2,837)", "2.04"]]
WIDTHS = [190, 45, 45, 50, 50, 55, 65, 70]
SHADE = colors.HexColor("#cceeff")


def _juice_table(path: Path) -> Path:
    """Heading cells and rows 1, 3, 5 filled cell by cell; rows 2 and 4 white, the lower bands joined by a
    hairline down the first value column."""
    grid = Table([HEAD, *ROWS], colWidths=WIDTHS)
    style = [("FONTSIZE", (0, 0), (-1, -1), 7), ("LEADING", (0, 0), (-1, -1), 8),
             ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
             ("VALIGN", (0, 0), (-1, 0), "BOTTOM"),
             ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]
    for r in (0, 1, 3, 5):
        style += [("BACKGROUND", (c, r), (c, r), SHADE) for c in range(len(WIDTHS))]
    style.append(("LINEBEFORE", (1, 3), (1, 5), 0.25, SHADE))
    grid.setStyle(TableStyle(style))
    SimpleDocTemplate(str(path), pagesize=letter).build([Spacer(1, 20), grid])
    return path


@pytest.fixture(scope="module")
def rows(tmp_path_factory) -> dict[str, str]:
    units = EvidenceChunker(parser="lite").chunk(_juice_table(tmp_path_factory.mktemp("juice") / "juice.pdf"))
    lines = [line for eu in units for line in eu.flattened_rows if " | " in line]
    return {line.split(" | ")[0]: line.split(" | ", 1)[1] for line in lines}


def test_the_white_row_between_two_grids_is_a_row_of_the_one_table(rows):
    assert rows["Acquisition and divestiture-related charges"].startswith("PBNA: 51; Europe: 14; Corporate: 6; ")
    assert "Net income / attributable to / PepsiCo: 58;" in rows["Acquisition and divestiture-related charges"]
    assert rows["Operating profit"].startswith("PBNA: (2,978); Europe: (278); Corporate: 6; Total / PepsiCo: (3,250);")


def test_a_white_row_keeps_the_columns_the_shaded_rows_draw(rows):
    assert rows["Other pension and retiree medical benefits income"] == (
        "Total / PepsiCo: (10); Provision / for income / taxes: 3; Net income / attributable to / PepsiCo: (7); "
        "Impact on net / income / attributable to / PepsiCo per / common share: 0.01")


def test_headings_wrapped_over_five_lines_keep_their_last_line(rows):
    assert rows["Gain associated with the Juice Transaction"].startswith("PBNA: (3,029); Europe: (292); ")
    assert rows["Gain associated with the Juice Transaction"].endswith(
        "Impact on net / income / attributable to / PepsiCo per / common share: 2.08")
