"""A year printed centred over an amount and its percent of sales heads both columns of a ruled grid.

Amcor's MD&A summary prints "Three Months Ended December 31," over two years, and each year centred over
a pair of columns: the amount and its share of net sales ("$ 3,642  100.0 %"). Placed by the columns
its words overlap, the year stood over the percent column alone, and every amount read under the period
without its year ("Three Months Ended December 31,: 559"). A heading of a ruled grid's header rows whose
words are centred over its own column and the empty-headed columns beside it, and not over its own
column alone, spans them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from evidence_chunker import EvidenceChunker  # noqa: E402
from pdf_factory import draw_ruled_grid  # noqa: E402

SIZE = 8
PITCH = 12
#: Column boundaries (points): the label column, then an amount and a (wider) percent column per year.
BOUNDS = [40, 200, 260, 350, 410, 500]
TOP = 600
BODY = [
    ["Net sales", "$ 3,642", "100.0%", "$ 3,507", "100.0%"],
    ["Cost of sales", "(2,980)", "(81.8%)", "(2,862)", "(81.6%)"],
    ["Operating income", "559", "15.3%", "322", "9.2%"],
]


def _centre(lo: int, hi: int) -> float:
    return (BOUNDS[lo] + BOUNDS[hi + 1]) / 2


def _build(path: Path) -> Path:
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), invariant=1)
    c.setFont("Helvetica-Bold", SIZE)
    c.drawCentredString(_centre(1, 4), TOP + 3 + PITCH, "Three Months Ended December 31,")
    c.drawString(BOUNDS[0] + 2, TOP + 3, "($ in millions)")
    c.drawCentredString(_centre(1, 2), TOP + 3, "2022")
    c.drawCentredString(_centre(3, 4), TOP + 3, "2021")
    draw_ruled_grid(c, BOUNDS, TOP, PITCH, BODY, SIZE)
    return path


def test_a_year_centred_over_an_amount_and_its_percent_heads_both(tmp_path):
    rows = [row for eu in EvidenceChunker(parser="lite").chunk(_build(tmp_path / "summary.pdf"))
            for row in eu.flattened_rows]
    assert ("Operating income | Three Months Ended December 31, / 2022: 559; Three Months Ended December 31, / "
            "2022: 15.3%; Three Months Ended December 31, / 2021: 322; Three Months Ended December 31, / 2021: 9.2%"
            in rows)
