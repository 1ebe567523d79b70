"""An item column's label printed beside two heading lines does not cut the header in two.

A bilingual IR deck heads its income statement with "Quarterly / 분기" and "Annual / 연간" over one line of
periods ("4Q24 3Q25 4Q25 QoQ YoY FY2024 FY2025"), and prints "Item / 항목" centred on both lines: read as a
line of its own between them, with the parser's header flag on the first line only, the periods became a
body row and every figure lost its period ("SG&A / 판매관리비 | 39,841; 43,108; ...").
"""

from __future__ import annotations

from docling_core.types.doc import TableCell, TableData

from evidence_chunker.units.tables import analyse_table, flatten_rows

GROUPS = ["", "", "", "Quarterly / 분기", "", "", "Annual / 연간", ""]
ITEM = ["Item / 항목", "", "", "", "", "", "", ""]
PERIODS = ["", "4Q24", "3Q25", "4Q25", "QoQ", "YoY", "FY2024", "FY2025"]
BODY = [["Revenue / 매출액", "198,634", "227,391", "273,105", "+20.1%", "+37.5%", "693,277", "856,549"],
        ["SG&A / 판매관리비", "39,841", "43,108", "51,236", "+18.9%", "+28.6%", "140,938", "168,487"]]


def _table(rows: list[list[str]], header_rows: int) -> TableData:
    cells = [TableCell(text=text, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                       end_col_offset_idx=c + 1, column_header=r < header_rows)
             for r, row in enumerate(rows) for c, text in enumerate(row)]
    return TableData(num_rows=len(rows), num_cols=len(rows[0]), table_cells=cells)


def test_the_periods_under_the_item_label_are_headings():
    layout = analyse_table(_table([GROUPS, ITEM, PERIODS, *BODY], header_rows=1))
    assert layout.header_rows == 3
    row = next(line for line in flatten_rows(layout) if line.startswith("SG&A"))
    assert row.startswith("SG&A / 판매관리비 | 4Q24: 39,841; 3Q25: 43,108; Quarterly / 분기 / 4Q25: 51,236; QoQ: +18.9%")


def test_a_text_table_under_a_label_row_keeps_its_rows():
    # no figure below: the row under the label is a row of the table, not a heading line
    rows = [["", "Role", "Committee"], ["Directors", "", ""], ["Kim", "Chair", "Audit"], ["Lee", "Member", "Risk"]]
    assert analyse_table(_table(rows, header_rows=1)).header_rows == 1
