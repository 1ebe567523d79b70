"""Two tables set side by side in a page's two text columns, under full-width text, are two tables.

JPMorgan's 10-Qs print their MD&A in two columns under full-width paragraphs and tables. No gutter runs
through all of such a page, so it was one zone: the lines of the left column's table were read with the
right column's sentence beside them ("Total average assets | 3,911,643 | 3,831,655 | business segment."),
and the right column's table joined the left one's. The page is now cut into bands above and below its
full-width lines, and each band into its columns. The PDF is drawn with reportlab's canvas.
"""

from __future__ import annotations

import pytest

pytest.importorskip("reportlab")
from reportlab.pdfgen import canvas  # noqa: E402

from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

FULL_WIDTH = (
    "Refer to the Firm's Pillar 3 Regulatory Capital Disclosures reports, which are available on the Firm's",
    "website, for further information on Credit risk RWA, Market risk RWA and Operational risk RWA, as well",
)
LEFT_PROSE = (
    "Refer to Supplementary Leverage Ratio on page 90 of",
    "the annual report for additional information. The",
    "following table presents the components of the SLR.",
)
RIGHT_PROSE = (
    "Each business segment is allocated capital by taking",
    "into consideration a variety of factors including the",
    "capital levels of similarly rated peers and applicable",
    "regulatory capital requirements. The following table",
    "presents the capital allocated to each business",
    "segment.",
)
LEFT_TABLE = (
    ("(in millions)", "2022", "2021"),
    ("Tier 1 capital", "$ 239,705", "$ 246,162"),
    ("Total average assets", "3,911,643", "3,831,655"),
    ("Less: Regulatory adjustments", "49,664", "49,620"),
    ("Total adjusted average assets", "3,861,979", "3,782,035"),
    ("Total leverage exposure", "$ 4,563,099", "$ 4,571,789"),
)
RIGHT_TABLE = (
    ("(in billions)", "2022", "2021"),
    ("Consumer Banking", "$ 50.0", "$ 50.0"),
    ("Investment Bank", "103.0", "83.0"),
    ("Commercial Banking", "25.0", "24.0"),
    ("Corporate", "58.3", "88.3"),
)


def _table(page: canvas.Canvas, x: float, ends: tuple[float, float], y: float, rows) -> None:
    for label, *values in rows:
        page.drawString(x, y, label)
        for x1, value in zip(ends, values):
            page.drawRightString(x1, y, value)
        y -= 12


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    path = tmp_path_factory.mktemp("columns") / "two_columns.pdf"
    page = canvas.Canvas(str(path))
    page.setFont("Helvetica", 9)
    for k, line in enumerate(FULL_WIDTH):
        page.drawString(50, 720 - 12 * k, line)
    for k, line in enumerate(LEFT_PROSE):
        page.drawString(50, 690 - 12 * k, line)
    for k, line in enumerate(RIGHT_PROSE):  # beside the left table's first rows
        page.drawString(320, 690 - 12 * k, line)
    _table(page, 50, (225, 290), 650, LEFT_TABLE)
    _table(page, 320, (495, 560), 610, RIGHT_TABLE)
    page.save()
    return [[[c.text for c in row] for row in t.data.grid] for t in LiteParser().parse(path).document.tables]


def test_each_column_s_table_is_a_table_of_its_own(tables):
    assert len(tables) == 2
    assert [row[0] for row in tables[0]] == [row[0] for row in LEFT_TABLE]
    assert [row[0] for row in tables[1]] == [row[0] for row in RIGHT_TABLE]


def test_no_row_holds_the_other_column_s_words(tables):
    assert tables[0] == [list(row) for row in LEFT_TABLE]
    assert tables[1] == [list(row) for row in RIGHT_TABLE]
