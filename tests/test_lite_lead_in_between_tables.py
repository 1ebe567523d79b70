"""A sentence that announces the next table ends the table above it; a bold section label may be wide.

Kraft Heinz prints its shares table, then, a line's space below, a note heading ("Note 21. Earnings Per
Share"), a lead-in sentence ("Our earnings per common share ("EPS") were:") and the next table's dates;
the lines were set close enough for the borderless run to go on across the two plain lines, so the first
table took the heading, the sentence and the dates as rows, and the earnings table read under no dates.
A sentence longer than a cell, ending in a colon, after rows of figures and before a line of headings
without figures, ends the run. The earnings table's first row is a bold section label ("Basic Earnings
Per Common Share:") wider than a cell's 14 em: the label column bounds it, so it is still a section label
between the dates and the rows, and the dates head the table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

SIZE = 8
PITCH = 12
#: Right edges of the three value columns; the labels start at LEFT.
LEFT, RIGHTS = 40, (400, 480, 560)


def _row(c, y: float, label: str, values: list[str], bold: bool = False) -> None:
    c.setFont("Helvetica-Bold" if bold else "Helvetica", SIZE)
    c.drawString(LEFT, y, label)
    c.setFont("Helvetica", SIZE)
    for right, value in zip(RIGHTS, values):
        c.drawRightString(right, y, value)


def _build(path: Path) -> Path:
    from reportlab.pdfgen import canvas

    c = canvas.Canvas(str(path), invariant=1)
    y = 740
    c.setFont("Helvetica", SIZE)
    c.drawString(LEFT, y, "Shares of common stock issued, in treasury, and outstanding were (in millions of shares):")
    y -= 2 * PITCH
    _row(c, y, "", ["Shares Issued", "Treasury Shares", "Outstanding"], bold=True)
    for label, values in [
        ("Balance at December 31, 2016", ["1,219", "(2)", "1,217"]),
        ("Exercise of stock options and other", ["2", "—", "2"]),
        ("Balance at December 30, 2017", ["1,221", "(2)", "1,219"]),
        ("Exercise of stock options and other", ["3", "(2)", "1"]),
        ("Balance at December 29, 2018", ["1,224", "(4)", "1,220"]),
    ]:
        y -= PITCH
        _row(c, y, label, values)
    y -= 2 * PITCH
    _row(c, y, "Note 21. Earnings Per Share", [], bold=True)
    y -= PITCH + 4
    _row(c, y, "Our earnings per common share (\u201cEPS\u201d) were:", [])
    y -= PITCH + 4
    _row(c, y, "", ["December 28, 2019", "December 29, 2018", "December 30, 2017"], bold=True)
    y -= PITCH
    c.setFont("Helvetica-Bold", SIZE)
    c.drawCentredString(RIGHTS[1] - 30, y, "(in millions, except per share data)")
    y -= PITCH
    _row(c, y, "Basic Earnings Per Common Share:", [], bold=True)
    for label, values in [
        ("Net income attributable to common shareholders", ["$ 1,935", "$ (10,192)", "$ 10,941"]),
        ("Weighted average shares of common stock outstanding", ["1,221", "1,219", "1,218"]),
        ("Net earnings/(loss)", ["$ 1.59", "$ (8.36)", "$ 8.98"]),
    ]:
        y -= PITCH
        _row(c, y, label, values)
    c.showPage()
    c.save()
    return path


def test_a_lead_in_sentence_ends_the_table_above_and_the_dates_head_the_next(tmp_path):
    path = _build(tmp_path / "eps.pdf")
    shares, eps = LiteParser().parse(path).document.tables
    assert not any("Earnings" in c.text or "December 28" in c.text for c in shares.data.table_cells)
    headers = {c.text for c in eps.data.table_cells if c.column_header}
    assert {"December 28, 2019", "December 29, 2018", "December 30, 2017"} <= headers
    rows = [row for eu in EvidenceChunker(parser="lite").chunk(path) for row in eu.flattened_rows]
    assert any(row.endswith("Net earnings/(loss) | December 28, 2019: $ 1.59; December 29, 2018: $ (8.36); "
                            "December 30, 2017: $ 8.98") for row in rows)
