"""Headings drawn apart from the rows they head: a grid of heading cells over unruled rows, and unruled
heading lines over a ruled body with a section label between.

JPMorgan's 10-Qs draw each table's heading cells as a shaded grid and print the rows under it without
rules. Read apart, the grid was a table of headings alone, the rows a table without a header, and the
next table's grid took the last rows above it as its headings: "Total net revenue | $ 4,077; $ 3,389;
20 %; $ (473)" said nothing of the segment or the year. American Express prints a section label
("Card Member loans") between a statement's heading lines and its ruled rows; the label ended the
headings, which were left as a table of their own.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from repo_paths import BENCHMARKS

pytest.importorskip("reportlab")
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.platypus import SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

sys.path.insert(0, str(BENCHMARKS))
from bench_headers import headerless  # noqa: E402

WIDTHS = [150, 50, 50, 50, 50, 50, 50]
SMALL = ("FONTSIZE", (0, 0), (-1, -1), 8)


def _heading_grid(groups: tuple[str, str]) -> Table:
    """Two rows of heading cells in a ruled grid: a group over each three columns, then the years."""
    grid = Table([["Three months ended March 31,", groups[0], "", "", groups[1], "", ""],
                  ["(in millions)", "2021", "2020", "Change", "2021", "2020", "Change"]], colWidths=WIDTHS)
    grid.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("SPAN", (1, 0), (3, 0)),
                              ("SPAN", (4, 0), (6, 0)), ("ALIGN", (1, 0), (-1, -1), "CENTER"), SMALL]))
    return grid


def _unruled(rows: list[list[str]]) -> Table:
    body = Table(rows, colWidths=WIDTHS)
    body.setStyle(TableStyle([("ALIGN", (1, 0), (-1, -1), "RIGHT"), SMALL]))
    return body


def _segments(path: Path) -> Path:
    """Two tables stacked as JPMorgan prints its segment results: each a grid of headings over unruled
    rows, the first opening with a section label."""
    first = [["Revenue", "", "", "", "", "", ""],
             ["Total net revenue", "$ 12,517", "$ 13,287", "(6) %", "$ 2,393", "$ 2,165", "11 %"],
             ["Total noninterest expense", "7,202", "7,269", "(1)", "969", "986", "(2)"],
             ["Net income", "6,728", "197", "NM", "1,168", "139", "NM"],
             ["Return on equity", "54 %", "1 %", "", "19 %", "2 %", ""]]
    second = [["Total net revenue", "$ 4,077", "$ 3,389", "20 %", "$ (473)", "$ 166", "NM"],
              ["Total noninterest expense", "2,574", "2,435", "6", "876", "146", "500"],
              ["Net income", "1,244", "669", "86", "(580)", "(125)", "(364)"]]
    story = [_heading_grid(("Consumer Banking", "Commercial Banking")), _unruled(first), Spacer(1, 6),
             _heading_grid(("Asset Management", "Corporate")), _unruled(second)]
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    return path


@pytest.fixture(scope="module")
def segments(tmp_path_factory) -> Path:
    return _segments(tmp_path_factory.mktemp("grids") / "segments.pdf")


def _texts(row) -> list[str]:
    return [c.text for c in row]


def test_a_grid_of_headings_heads_the_unruled_rows_under_it(segments):
    tables = LiteParser().parse(segments).document.tables
    assert len(tables) == 2
    grid = tables[0].data.grid
    groups = {c.text: (c.start_col_offset_idx, c.end_col_offset_idx) for c in grid[0] if c.text}
    assert groups["Consumer Banking"] == (1, 4) and groups["Commercial Banking"] == (4, 7)
    assert _texts(grid[1]) == ["(in millions)", "2021", "2020", "Change", "2021", "2020", "Change"]
    assert all(c.column_header for row in grid[:2] for c in row)
    assert _texts(grid[3]) == ["Total net revenue", "$ 12,517", "$ 13,287", "(6) %", "$ 2,393", "$ 2,165", "11 %"]
    assert not any(c.column_header for row in grid[2:] for c in row)


def test_the_label_between_grid_and_rows_is_the_first_row(segments):
    grid = LiteParser().parse(segments).document.tables[0].data.grid
    assert _texts(grid[2]) == ["Revenue", "", "", "", "", "", ""]
    texts = [t.text for t in LiteParser().parse(segments).document.texts]
    assert "Revenue" not in texts


def test_the_next_grid_takes_no_rows_of_the_table_above(segments):
    first, second = LiteParser().parse(segments).document.tables
    assert _texts(first.data.grid[-1]) == ["Return on equity", "54 %", "1 %", "", "19 %", "2 %", ""]
    assert first.data.num_rows == 2 + 5
    assert second.data.num_rows == 2 + 3
    assert "Asset Management" in _texts(second.data.grid[0])


def test_every_amount_reads_with_its_segment_and_year(segments):
    rows = [row for eu in EvidenceChunker(parser="lite").chunk(segments) for row in eu.flattened_rows]
    assert any("Total net revenue | Consumer Banking / 2021: $ 12,517;" in row for row in rows)
    assert any("Corporate / 2021: $ (473)" in row for row in rows)


def test_a_section_label_between_heading_lines_and_a_ruled_body_keeps_them_one_table(tmp_path):
    path = tmp_path / "provisions.pdf"
    heading = Table([["(Millions)", "2022", "2021", "2020"]], colWidths=WIDTHS[:4])
    heading.setStyle(TableStyle([("ALIGN", (1, 0), (-1, -1), "RIGHT"), SMALL]))
    label = _unruled([["Card Member loans"]])
    body = Table([["Net write-offs", "$ 1,066", "$ 879", "$ 2,170"], ["Reserve build (release)", "448", "(2,034)", "1,283"],
                  ["Total", "1,514", "(1,155)", "3,453"]], colWidths=WIDTHS[:4])
    body.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("ALIGN", (1, 0), (-1, -1), "RIGHT"), SMALL]))
    SimpleDocTemplate(str(path), pagesize=letter).build([heading, label, body])
    (table,) = LiteParser().parse(path).document.tables
    grid = table.data.grid
    assert _texts(grid[0]) == ["(Millions)", "2022", "2021", "2020"]
    assert all(c.column_header for c in grid[0])
    assert _texts(grid[1]) == ["Card Member loans", "", "", ""]
    assert _texts(grid[2]) == ["Net write-offs", "$ 1,066", "$ 879", "$ 2,170"]


def test_unruled_rows_under_a_ruled_grid_with_its_columns_continue_it(tmp_path):
    """Corning rules a statement's headings and first row and prints the other rows in shaded bands:
    read apart, every row after the first lost its year."""
    path = tmp_path / "highlights.pdf"
    head = Table([["", "Year ended December 31,", "", "", "% change"], ["", "2020", "2019", "2018", "20 vs. 19"],
                  ["", "", "", "", ""], ["Net sales", "$ 11,303", "$ 11,503", "$ 11,290", "(2)"]], colWidths=WIDTHS[:5])
    head.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, "black"), ("SPAN", (1, 0), (3, 0)),
                              ("ALIGN", (1, 0), (-1, -1), "RIGHT"), SMALL]))
    rest = _unruled([["Gross margin", "$ 3,531", "$ 4,035", "$ 4,461", "(12)"],
                     ["Selling, general and administrative", "$ 1,747", "$ 1,585", "$ 1,799", "10"],
                     ["Research and development", "$ 1,154", "$ 1,031", "$ 993", "12"]])
    SimpleDocTemplate(str(path), pagesize=letter).build([head, rest])
    (table,) = LiteParser().parse(path).document.tables
    grid = table.data.grid
    assert _texts(grid[1]) == ["", "2020", "2019", "2018", "20 vs. 19"]
    assert all(c.column_header for c in grid[1][1:])
    assert _texts(grid[-1]) == ["Research and development", "$ 1,154", "$ 1,031", "$ 993", "12"]
    assert not headerless(table.data)
    (eu,) = EvidenceChunker(parser="lite").chunk(path)
    assert "Gross margin | Year ended December 31, / 2020: $ 3,531; Year ended December 31, / 2019: $ 4,035; " \
        "Year ended December 31, / 2018: $ 4,461; % change / 20 vs. 19: (12)" in eu.flattened_rows


def test_the_header_benchmark_counts_rows_of_figures_under_no_header(tmp_path):
    """benchmarks/bench_headers.py's second measure: a table of figures without a column-header cell."""
    path = tmp_path / "bare.pdf"
    SimpleDocTemplate(str(path), pagesize=letter).build([_unruled([["Net income", "6,728", "197", "NM"],
                                                                    ["Total net revenue", "12,517", "13,287", "(6) %"],
                                                                    ["Total noninterest expense", "7,202", "7,269", "(1)"]])])
    (table,) = LiteParser().parse(path).document.tables
    assert headerless(table.data)
