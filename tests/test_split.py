"""Row-wise splitting under the token limit."""

from __future__ import annotations

import re

from docbuilder import DocBuilder, table_data
from evidence_chunker import EvidenceChunker, count_eu_tokens, split_eu, split_oversized_units
from evidence_chunker.tokens import count_tokens


def long_table_units(rows: int = 80, limit: int = 512):
    grid = [["Subsidiary", "Country", "Revenue", "Equity", "Ownership"]]
    grid += [[f"Subsidiary number {i} Holdings Ltd", "Korea", f"{i * 37:,}", f"({i * 11:,})", f"{50 + i % 50}.0%"] for i in range(rows)]
    b = DocBuilder()
    cap = b.caption("Table 5: Principal subsidiaries", page=1, top=800)
    b.text("The subsidiaries below are consolidated in full.", page=1, top=830, height=20)
    b.table(table_data(grid, row_header_cols=1), page=1, top=780, height=700, caption=cap)
    b.text("Ownership is the group's share of voting rights.", page=1, top=60, height=20)
    chunker = EvidenceChunker(parser="lite", token_limit=limit)
    return chunker, chunker.chunk_parsed(b.parsed(), doc_id="rep")


def test_every_piece_is_within_the_limit_and_repeats_caption_and_header():
    _, pieces = long_table_units()
    assert len(pieces) > 1
    for piece in pieces:
        assert count_eu_tokens(piece) <= 512
        assert piece.caption_text == "Table 5: Principal subsidiaries"
        assert "<th>Subsidiary</th>" in piece.table_html


def test_the_limit_is_counted_on_the_markdown_table_the_text_holds():
    _, [unit] = long_table_units(rows=12, limit=10_000)
    html_text = unit.text.replace(unit.table_markdown, unit.table_html)
    assert count_eu_tokens(unit) < 400 < count_tokens(html_text)  # the HTML would not fit in 400
    _, pieces = long_table_units(rows=12, limit=400)
    assert len(pieces) == 1 and not pieces[0].is_split
    _, pieces = long_table_units(rows=40, limit=400)
    assert all(piece.table_markdown in piece.text and count_eu_tokens(piece) <= 400 for piece in pieces)
    assert all(piece.table_markdown.startswith("| Subsidiary | Country |") for piece in pieces)  # header repeated


def test_pieces_are_as_few_and_as_even_as_the_limit_allows():
    # 50 rows: filling each piece to the limit takes 17, 16 and 16 rows and leaves one row for a fourth
    _, pieces = long_table_units(rows=50)
    tokens = [count_eu_tokens(piece) for piece in pieces]
    assert len(pieces) == 4 and max(tokens) <= 512 and min(tokens) >= 0.9 * max(tokens)
    assert [piece.body_row_range for piece in pieces] == [(0, 13), (13, 26), (26, 38), (38, 50)]


def test_split_ids_and_indices():
    _, pieces = long_table_units()
    total = len(pieces)
    assert [p.eu_id for p in pieces] == [f"rep-p1-1-s{n}" for n in range(1, total + 1)]
    assert all(p.is_split and p.total_splits == total for p in pieces)
    assert [p.split_index for p in pieces] == list(range(1, total + 1))


def test_no_row_lost_or_duplicated_across_pieces():
    chunker, pieces = long_table_units()
    rows = [row for p in pieces for row in p.flattened_rows]
    assert len(rows) == 80 and len(set(rows)) == 80
    assert rows[0].startswith("Subsidiary number 0 Holdings Ltd |")
    assert chunker.last_split_stats.row_split == 1
    assert chunker.last_split_stats.pieces == len(pieces)


def test_context_goes_with_first_and_last_piece():
    _, pieces = long_table_units()
    assert pieces[0].context_before and not pieces[1].context_before
    assert pieces[-1].context_after and not pieces[0].context_after


def test_small_unit_passes_as_single():
    _, pieces = long_table_units(rows=3)
    result = split_eu(pieces[0])
    assert result.kind == "single" and result.units == [pieces[0]]


def test_a_row_too_long_for_the_limit_is_cut_into_parts_that_keep_every_word():
    grid = [["Note", "Text"], ["1", " ".join(f"word{i}" for i in range(900))], ["2", "short"]]
    b = DocBuilder()
    b.table(table_data(grid), page=1, top=700)
    unit = EvidenceChunker(parser="lite", token_limit=100_000).chunk_parsed(b.parsed(), doc_id="d")[0]
    result = split_eu(unit, limit=512)
    assert result.kind == "row_split" and len(result.units) > 2
    assert all(count_eu_tokens(piece) <= 512 for piece in result.units)
    parts = [p.flattened_rows[0] for p in result.units if p.body_row_range == (0, 1)]
    assert len(parts) == len(result.units) - 1
    assert parts[0].startswith("Note: 1; Text: word0 ") and all(p.startswith("Text: ") for p in parts[1:])
    words = " ".join(p.removeprefix("Note: 1; ").removeprefix("Text: ") for p in parts).split()
    assert words == [f"word{i}" for i in range(900)]  # every word once, in order, each part naming its column
    assert result.units[-1].flattened_rows == unit.flattened_rows[1:]
    assert [p.eu_id for p in result.units] == [f"d-p1-1-s{n}" for n in range(1, len(result.units) + 1)]


def test_a_row_too_wide_for_the_limit_is_cut_between_its_columns():
    header = ["Segment", *(f"Quarter {q} of fiscal year {y}" for y in range(2010, 2024) for q in (1, 2, 3, 4))]
    grid = [header, ["Americas", *(f"{i * 13:,}" for i in range(len(header) - 1))]]
    b = DocBuilder()
    cap = b.caption("Table 2: Revenue by quarter", page=1, top=800)
    b.table(table_data(grid, row_header_cols=1), page=1, top=780, caption=cap)
    unit = EvidenceChunker(parser="lite", token_limit=100_000).chunk_parsed(b.parsed(), doc_id="w")[0]
    assert count_eu_tokens(unit) > 512
    pieces = split_eu(unit, limit=512).units
    assert len(pieces) > 1 and all(count_eu_tokens(p) <= 512 for p in pieces)
    assert all(p.caption_text == "Table 2: Revenue by quarter" and p.flattened_rows[0].startswith("Americas | ")
               for p in pieces)
    pairs = [pair for p in pieces for pair in p.flattened_rows[0].removeprefix("Americas | ").split("; ")]
    assert pairs == unit.flattened_rows[0].removeprefix("Americas | ").split("; ")  # whole pairs, none lost


def test_context_that_leaves_no_room_for_a_row_is_left_out_nearest_paragraph_kept():
    b = DocBuilder()
    far = b.text("Revenue by subsidiary " + "was reported as in prior years and " * 70, page=1, top=860, height=20)
    near = b.text("The subsidiaries' revenue rose in every country.", page=1, top=830, height=20)
    cap = b.caption("Table 5: Principal subsidiaries", page=1, top=800)
    grid = [["Subsidiary", "Revenue"], ["Alpha Holdings Ltd", "1,200"]]
    b.table(table_data(grid, row_header_cols=1), page=1, top=780, height=40, caption=cap)
    unit = EvidenceChunker(parser="lite", token_limit=100_000).chunk_parsed(b.parsed(), doc_id="c")[0]
    assert len(unit.context_before) == 2 and count_eu_tokens(unit) > 512, (far, near)
    result = split_eu(unit, limit=512)
    [piece] = result.units
    assert result.kind == "single" and count_eu_tokens(piece) <= 512 and piece.eu_id == unit.eu_id
    assert piece.context_before == unit.context_before[1:] and piece.flattened_rows == unit.flattened_rows
    assert piece.context_refs == unit.context_refs[1:2]


def test_split_oversized_units_counts_outcomes():
    chunker, _ = long_table_units(rows=3)
    _, long_pieces = long_table_units(rows=80, limit=100_000)
    stats: dict = {}
    out = split_oversized_units(long_pieces, stats)
    assert stats["row_split"] == 1 and stats["pieces"] == len(out) > 1



def test_pieces_of_a_table_with_empty_rows_show_the_rows_they_flatten():
    """Statements set blank spacer rows between their sections. A piece's HTML (and its pages and boxes) is
    cut from ``table_data`` by body row, its lines from ``flattened_rows``: an empty row that gave no line
    shifted every later piece (the line for "Purchases of PP&E" in a piece whose HTML held the row above),
    and the estimate, no longer counting HTML rows, made one piece per row."""
    grid = [["(Millions)", "2022", "2021", "2020"]]
    for section in range(4):
        grid.append([f"Cash flows from activity {section}", "", "", ""])
        grid += [[f"Line item {section}-{i} of the statement", f"{section * 100 + i:,}", f"({i * 7})", f"{i * 3}"]
                 for i in range(12)]
        grid.append(["", "", "", ""])
    b = DocBuilder()
    cap = b.caption("Consolidated Statement of Cash Flows", page=1, top=800)
    b.table(table_data(grid, row_header_cols=1), page=1, top=780, height=700, caption=cap)
    pieces = EvidenceChunker(parser="lite", token_limit=512).chunk_parsed(b.parsed(), doc_id="cf")
    rows = len(grid) - 1
    assert 1 < len(pieces) <= 5  # the rows' HTML is about 1,500 tokens: packed, not one piece per row
    assert [p.body_row_range for p in pieces][-1][1] == rows
    for piece in pieces:
        assert len(piece.flattened_rows) == piece.body_row_range[1] - piece.body_row_range[0]
        html_labels = re.findall(r"<tr><th>([^<]*)</th>", piece.table_html)[1:]  # after the header row
        line_labels = [line.split(" | ")[0].split(" > ")[-1] for line in piece.flattened_rows]
        assert html_labels == line_labels
        assert [line.split(" | ")[0] for line in piece.grid_rows] == html_labels
    assert sum(1 for p in pieces for line in p.flattened_rows if line) == rows - 4
    for piece in pieces:  # an empty row leaves no blank line in what is embedded
        table_lines = [*piece.header_rows, *(line for line in piece.grid_rows if line)]
        assert piece.retrieval_text.endswith("\n\n" + "\n".join(table_lines))


def test_pieces_of_a_table_without_header_show_their_own_first_row_as_the_header_line():
    grid = [[f"Subsidiary number {i} Holdings Ltd", "Korea", f"{i * 37:,}", f"({i * 11:,})"] for i in range(60)]
    b = DocBuilder()
    b.table(table_data(grid, flags=False), page=1, top=780, height=700)
    pieces = EvidenceChunker(parser="lite", token_limit=300).chunk_parsed(b.parsed(), doc_id="rep")
    assert len(pieces) > 2 and all(count_eu_tokens(piece) <= 300 for piece in pieces)
    for piece in pieces:
        start, end = piece.body_row_range
        lines = piece.table_markdown.split("\n")
        assert lines[1] == "| - | - | - | - |" and len(lines) == end - start + 1
        assert [line.split(" | ")[0] for line in (lines[0], *lines[2:])] == \
            [f"| Subsidiary number {i} Holdings Ltd" for i in range(start, end)]
