"""Headings printed above a ruled grid of years and change columns reach every column they head.

CVS Health's segment tables draw the grid from the row of column labels down ("In millions, except
percentages and basis points ("bps")" wrapped in the label column, then "2022  2021  2020  $  %  $  %")
and print the upper headings as lines above it: "Change" over the four change columns, and one line with
"Year Ended December 31," centred over the middle year beside "2022 vs. 2021" and "2021 vs. 2020". Two
things lost them: the first line of the wrapped label-column heading, right above the grid, read as a
title that ends the headings (it is that heading's first line: it joins it), and the period heading,
centred over the middle year, read as that year's own label (it reaches past that column on both sides,
so it heads the three years).
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from evidence_chunker import EvidenceChunker  # noqa: E402
from pdf_factory import draw_ruled_grid  # noqa: E402

SIZE = 8
PITCH = 12
#: Column boundaries (points): the label column, three years, then "$" and "%" of two changes.
BOUNDS = [40, 180, 260, 340, 420, 460, 500, 540, 580]
TOP = 700
HEADER = ["points (\u201cbps\u201d)", "2022", "2021", "2020", "$", "%", "$", "%"]
BODY = [
    ["Premiums", "$ 85,274", "$ 76,064", "$ 69,301", "$ 9,210", "12.1%", "$ 6,763", "9.8%"],
    ["Services", "5,659", "5,536", "5,683", "123", "2.2%", "(147)", "(2.6)%"],
    ["Operating expenses", "14,639", "14,003", "14,218", "636", "4.5%", "(215)", "(1.5)%"],
]


def _centre(lo: int, hi: int) -> float:
    return (BOUNDS[lo] + BOUNDS[hi + 1]) / 2


def _build(path: Path) -> Path:
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), invariant=1)
    c.setFont("Helvetica-Bold", SIZE)
    c.drawCentredString(_centre(4, 7), TOP + 2 + 2 * PITCH, "Change")
    c.drawCentredString(_centre(2, 2), TOP + 2 + PITCH, "Year Ended December 31,")
    c.drawCentredString(_centre(4, 5), TOP + 2 + PITCH, "2022 vs. 2021")
    c.drawCentredString(_centre(6, 7), TOP + 2 + PITCH, "2021 vs. 2020")
    c.drawString(BOUNDS[0] + 2, TOP + 2, "In millions, except percentages")
    draw_ruled_grid(c, BOUNDS, TOP, PITCH, [HEADER, *BODY], SIZE, bold_rows=1)
    return path


def test_period_and_change_headings_above_a_ruled_grid_head_their_columns(tmp_path):
    (eu,) = EvidenceChunker(parser="lite").chunk(_build(tmp_path / "segment.pdf"))
    services = next(row for row in eu.flattened_rows if row.startswith("Services"))
    assert "Year Ended December 31, / 2022: 5,659" in services
    assert "Year Ended December 31, / 2020: 5,683" in services
    assert "Change / 2022 vs. 2021 / $: 123" in services
    assert "Change / 2021 vs. 2020 / %: (2.6)%" in services
    assert not any(row.startswith("In millions") for row in eu.flattened_rows)
