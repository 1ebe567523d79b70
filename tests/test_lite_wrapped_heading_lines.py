"""Headings wrapped over several lines count as one heading line when the headings above a grid are read.

Pfizer's restatement tables print five lines of headings over a ruled body: "Year Ended December 31,"
over everything, the years over groups of three columns, then "Previous / Accounting / Principle" and
"Impact of / Change" wrapped over three and two lines. The headings above a table are read up to four
lines (``max_header_lines``), so the period, the fifth line up, was left out of every column's path. A
line whose phrases each stand right over a heading of the line below it, a wrap's gap above, is the upper
part of those headings, not a level of its own: it does not use up a heading line.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from evidence_chunker import EvidenceChunker  # noqa: E402
from pdf_factory import draw_ruled_grid  # noqa: E402

SIZE = 8
#: Column boundaries (points): the label column, then two groups of three value columns of unequal widths.
BOUNDS = [40, 220, 270, 330, 400, 450, 510, 580]
TOP = 600
PITCH = 12
BODY = [
    ["Other noncurrent assets", "7,679", "—", "7,679", "4,879", "—", "4,879"],
    ["Retained earnings", "101,789", "1,605", "103,394", "96,770", "(6,378)", "90,392"],
    ["Accumulated other comprehensive loss", "(4,313)", "(1,583)", "(5,897)", "(11,688)", "6,378", "(5,310)"],
]


def _centre(lo: int, hi: int) -> float:
    return (BOUNDS[lo] + BOUNDS[hi + 1]) / 2


def _build(path: Path) -> Path:
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), invariant=1)
    c.setFont("Helvetica", SIZE)
    y = TOP + 3 + 6 * 9  # the heading lines, set 9 points apart (a wrap's gap), top down
    c.drawCentredString(_centre(1, 6), y, "Year Ended December 31,")
    y -= 11
    c.drawCentredString(_centre(1, 3), y, "2021")
    c.drawCentredString(_centre(4, 6), y, "2020")
    y -= 11
    for col in (1, 4):
        c.drawCentredString(_centre(col, col), y, "Previous")
    y -= 9
    for col, text in ((1, "Accounting"), (2, "Impact of"), (4, "Accounting"), (5, "Impact of")):
        c.drawCentredString(_centre(col, col), y, text)
    y -= 9
    c.drawString(BOUNDS[0] + 2, y, "(MILLIONS)")
    for col, text in enumerate(["Principle", "Change", "As Reported", "Principle", "Change", "As Adjusted"], start=1):
        c.drawCentredString(_centre(col, col), y, text)
    y -= 11
    c.setFont("Helvetica-Bold", SIZE)
    c.drawString(BOUNDS[0] + 2, y, "Consolidated Balance Sheets:")
    draw_ruled_grid(c, BOUNDS, TOP, PITCH, BODY, SIZE)
    return path


def test_the_period_over_wrapped_headings_heads_every_column(tmp_path):
    rows = [row for eu in EvidenceChunker(parser="lite").chunk(_build(tmp_path / "restated.pdf"))
            for row in eu.flattened_rows]
    retained = next(row for row in rows if "Retained earnings |" in row)
    labels = dict(reversed(pair.rsplit(": ", 1)) for pair in retained.split(" | ", 1)[1].split("; "))
    assert labels["101,789"] == "Year Ended December 31, / 2021 / Previous / Accounting / Principle"
    assert labels["(6,378)"].startswith("Year Ended December 31, / 2020 /") and labels["(6,378)"].endswith("Change")
    assert labels["90,392"].startswith("Year Ended December 31, / 2020 /") and labels["90,392"].endswith("As Adjusted")
