"""A long heading over the period groups of a ruled grid heads every value column, wrapped or not.

Amcor's derivative tables rule their body and print the headings as lines above it: a label column's own
heading wrapped over four lines ("Location of Gain / (Loss)" / "Recognized in the" / ...), and over the
value columns a heading of ten words ("Gain / (Loss) Recognized in Income for Derivatives Not Designated
as Hedging", its last word "Instruments" on the next line), over "Three Months Ended December 31," and
"Six Months Ended December 31,", over the years. Read as too long for a heading, the top line ended the
headings there: it became the unit's title, and its last word "Instruments" a heading of the two middle
columns. A heading alone on its line over the period groups widened over the label column's heading
too, whose own lines stand under it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.platypus import SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.heading_groups import join_heading_tails  # noqa: E402
from evidence_chunker.parsing.lite.settings import LiteSettings  # noqa: E402
from evidence_chunker.parsing.lite.text import Phrase, Word  # noqa: E402

WIDTHS = [150, 100, 80, 80, 80, 80]
BODY = [["Forward exchange contracts", "Other income, net", "10", "(20)", "(5)", "(33)"],
        ["Interest rate swaps", "Other income, net", "1", "—", "1", "—"],
        ["Total", "", "11", "(20)", "(4)", "(33)"]]
WRAPPED = [["", "Location of Gain / (Loss)", "Gain / (Loss) Recognized in Income for Derivatives Not Designated as Hedging"],
           ["", "Recognized in the", "Instruments"],
           ["", "Unaudited Condensed", "Three Months Ended December 31,", "", "Six Months Ended December 31,"],
           ["", "Consolidated Statements"],
           ["($ in millions)", "of Income", "2022", "2021", "2022", "2021"]]
ON_ITS_OWN = [["", "", "Gain / (Loss) Reclassified from AOCI into Income (Effective Portion)"],
              ["", "Location of Gain / (Loss)"],
              ["", "Reclassified from AOCI", "Three Months Ended December 31,", "", "Six Months Ended December 31,"],
              ["($ in millions)", "into Income", "2022", "2021", "2022", "2021"]]


def _padded(rows: list[list[str]]) -> list[list[str]]:
    return [row + [""] * (len(WIDTHS) - len(row)) for row in rows]


def _derivative_table(path: Path, headings: list[list[str]]) -> Path:
    """Heading lines (centred, set tight) above a body ruled cell by cell."""
    head = Table(_padded(headings), colWidths=WIDTHS)
    style = [("FONTSIZE", (0, 0), (-1, -1), 8), ("FONTNAME", (0, 0), (-1, -1), "Helvetica-Bold"),
             ("ALIGN", (1, 0), (-1, -1), "CENTER"), ("TOPPADDING", (0, 0), (-1, -1), 0),
             ("BOTTOMPADDING", (0, 0), (-1, -1), 0), ("LEADING", (0, 0), (-1, -1), 9)]
    for r, row in enumerate(headings):
        if len(row) == 3 and row[2]:
            style.append(("SPAN", (2, r), (5, r)))
        if len(row) == 5:
            style += [("SPAN", (2, r), (3, r)), ("SPAN", (4, r), (5, r))]
    head.setStyle(TableStyle(style))
    body = Table(BODY, colWidths=WIDTHS)
    body.setStyle(TableStyle([
        ("FONTSIZE", (0, 0), (-1, -1), 8), ("ALIGN", (2, 0), (-1, -1), "RIGHT"), ("ALIGN", (1, 0), (1, -1), "CENTER"),
        ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
    ]))
    SimpleDocTemplate(str(path), pagesize=letter).build([Spacer(1, 20), head, body])
    return path


def _row(path: Path, label: str) -> str:
    (eu,) = EvidenceChunker(parser="lite").chunk(path)
    return next(r for r in eu.flattened_rows if r.split(" | ")[0].endswith(label))


def test_a_long_heading_wrapped_over_two_lines_heads_every_value_column(tmp_path):
    row = _row(_derivative_table(tmp_path / "wrapped.pdf", WRAPPED), "Forward exchange contracts")
    heading = "Gain / (Loss) Recognized in Income for Derivatives Not Designated as Hedging Instruments"
    assert f"{heading} / Three Months Ended December 31, / 2022: 10;" in row
    assert f"{heading} / Six Months Ended December 31, / 2021: (33)" in row
    assert row.split(" | ", 1)[1].startswith("Location of Gain / (Loss) / Recognized in the / Unaudited Condensed / "
                                             "Consolidated Statements / of Income: Other income, net;")


def test_a_heading_alone_over_the_periods_leaves_the_label_columns_own_heading(tmp_path):
    row = _row(_derivative_table(tmp_path / "own_line.pdf", ON_ITS_OWN), "Interest rate swaps")
    heading = "Gain / (Loss) Reclassified from AOCI into Income (Effective Portion)"
    assert f"{heading} / Three Months Ended December 31, / 2022: 1;" in row
    assert f"{heading} / Six Months Ended December 31, / 2021: —" in row
    assert row.split(" | ", 1)[1].startswith("Location of Gain / (Loss) / Reclassified from AOCI / into Income: "
                                             "Other income, net;")


def _phrase(text: str, x0: float, x1: float, top: float) -> Phrase:
    return Phrase([Word(text, x0, top, x1, top + 8.0, 8.0, True, "Times")])


def test_a_label_centred_under_a_short_period_heading_is_no_wrapped_tail():
    """"Year Ended December 31," over the middle of three years, its own year read into the "$" columns
    beside it: the heading does not fill its columns, so it wrapped nothing onto the line below."""
    extents = [(0.0, 100.0), (150.0, 200.0), (200.0, 230.0), (230.0, 300.0), (300.0, 330.0), (330.0, 400.0)]
    rows = [[(2, 4, [_phrase("Year Ended December 31,", 240.0, 290.0, 100.0)])],
            [(1, 1, [_phrase("2021", 180.0, 198.0, 109.0)]), (2, 4, [_phrase("2020", 256.0, 274.0, 109.0)]),
             (5, 5, [_phrase("2019", 380.0, 398.0, 109.0)])]]
    assert join_heading_tails(rows, extents, LiteSettings()) == rows


def test_the_years_under_a_lone_period_heading_are_a_level_of_their_own():
    """Pfizer's restated statements: "Year Ended December 31," read into the columns of the middle year,
    which it fills, over "2021  2020  2019": the year under it is one of a row of labels, not its tail."""
    extents = [(17.0, 204.0), (204.0, 247.0), (247.0, 258.0), (258.0, 288.0), (288.0, 299.0), (299.0, 330.0),
               (330.0, 380.0), (380.0, 395.0), (395.0, 422.0), (422.0, 436.0), (436.0, 463.0), (463.0, 479.0),
               (479.0, 512.0), (512.0, 527.0), (527.0, 554.0)]
    rows = [[(6, 9, [_phrase("Year Ended December 31,", 357.0, 442.0, 100.0)])],
            [(1, 5, [_phrase("2021", 260.0, 275.0, 109.0)]), (7, 8, [_phrase("2020", 391.0, 407.0, 109.0)]),
             (13, 14, [_phrase("2019", 522.0, 538.0, 109.0)])]]
    assert join_heading_tails(rows, extents, LiteSettings()) == rows
