"""A heading over some columns does not take in the labels printed beside it at the header's full height.

A store table (사업보고서 style) prints "Store", "Type", "Location", "Opened", "Area" and "Change (%)"
centred on the whole header block, and "Net sales" over the two years only, underlined. The heading stands
alone in its header row and is centred over the years, but just as well over the wider run from "Area" to
"Change (%)": read that way every store's location and opening date were "Net sales" figures. A label
printed higher than the labels under the heading heads its own column.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.platypus import SimpleDocTemplate, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402

HEAD = ["Store", "Type", "Location", "Opened", "Area", "Net sales", "", "Change (%)"]
YEARS = ["", "", "", "", "", "2025", "2024", ""]
BODY = [["Cheongna", "Discount", "Incheon", "2017.06", "8,450", "977", "985", "(0.8)"],
        ["Haeundae", "Discount", "Busan", "2011.12", "10,070", "2,221", "2,277", "(2.5)"],
        ["Jeju", "Discount", "Jeju", "2007.09", "11,770", "1,193", "1,268", "(5.9)"]]


def _store_table(path: Path) -> Path:
    grid = Table([HEAD, YEARS, *BODY], colWidths=[70] * 8, hAlign="LEFT")
    spans = [("SPAN", (c, 0), (c, 1)) for c in (0, 1, 2, 3, 4, 7)]
    grid.setStyle(TableStyle([
        ("FONTSIZE", (0, 0), (-1, -1), 8), ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("ALIGN", (0, 0), (-1, 1), "CENTER"), ("VALIGN", (0, 0), (-1, 1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
        ("SPAN", (5, 0), (6, 0)), ("LINEBELOW", (5, 0), (6, 0), 0.5, "black"),
        ("LINEABOVE", (0, 0), (-1, 0), 1, "black"), ("LINEBELOW", (0, 1), (-1, 1), 0.5, "black"),
        *spans,
    ]))
    SimpleDocTemplate(str(path), pagesize=letter).build([grid])
    return path


def test_a_heading_over_two_years_heads_only_them(tmp_path):
    (eu,) = EvidenceChunker(parser="lite").chunk(_store_table(tmp_path / "stores.pdf"))
    row = next(r for r in eu.flattened_rows if r.startswith("Haeundae |"))
    assert row == ("Haeundae | Type: Discount; Location: Busan; Opened: 2011.12; Area: 10,070; "
                   "Net sales / 2025: 2,221; Net sales / 2024: 2,277; Change (%): (2.5)")
