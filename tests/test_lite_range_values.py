"""Rows of ranges keep their labels: "3% - 6%" is data as much as "4%".

American Express prints the ranges of its macroeconomic scenarios ("Fourth quarter of 2023 | 3% - 8% |
6% - 0.2%"). Read as text, the ranges left no column of figures, so the label column was not told from
the values and each row read "Fourth quarter of 2023; Unemployment Rate / December 31, 2022: 3% - 8%"
with no row header: a reader asking for the rate of a quarter found no row of that quarter.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402

ROWS = [["", "Unemployment Rate", "", "GDP Growth (Contraction)", ""],
        ["", "December 31, 2022", "December 31, 2021", "December 31, 2022", "December 31, 2021"],
        ["Fourth quarter of 2022", "4%", "4% - 9%", "(0.1)%", "2% - 1%"],
        ["First quarter of 2023", "3% - 6%", "3% - 9%", "5% - (1)%", "3% - 1%"],
        ["Fourth quarter of 2023", "3% - 8%", "3% - 7%", "6% - 0.2%", "4% - 3%"],
        ["Fourth quarter of 2024", "3% - 7%", "4% - 6%", "3% - 2%", "3%"]]


def _scenarios(path: Path) -> Path:
    grid = Table(ROWS, colWidths=[140, 85, 85, 85, 85], hAlign="LEFT")
    grid.setStyle(TableStyle([
        ("FONTSIZE", (0, 0), (-1, -1), 8), ("ALIGN", (1, 0), (-1, -1), "CENTER"),
        ("SPAN", (1, 0), (2, 0)), ("SPAN", (3, 0), (4, 0)),
        ("LINEBELOW", (1, 0), (2, 0), 0.5, "black"), ("LINEBELOW", (3, 0), (4, 0), 0.5, "black"),
        ("LINEBELOW", (1, 1), (-1, 1), 0.5, "black"),
        ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
    ]))
    title = Paragraph("Macroeconomic scenario key variables", getSampleStyleSheet()["Heading3"])
    SimpleDocTemplate(str(path), pagesize=letter).build([title, Spacer(1, 6), grid])
    return path


def test_rows_of_ranges_are_keyed_by_their_label(tmp_path):
    (unit,) = EvidenceChunker(parser="lite").chunk(_scenarios(tmp_path / "scenarios.pdf"))
    row = next(row for row in unit.flattened_rows if "Fourth quarter of 2023" in row)
    assert row.startswith("Fourth quarter of 2023 | Unemployment Rate / December 31, 2022: 3% - 8%; ")
