"""A block of a table that prints new periods only keeps the measures printed over the table's first block.

Corning's translated-earnings table heads its columns "Income (loss) before tax | Net income (loss) | ..."
over "2021 2021 2020 2020 2021 vs. 2020 2021 vs. 2020", then, inside the same grid, prints only
"2020 2020 2019 2019 2020 vs. 2019 ..." over its second block. Read as a block of its own, the second
block's values stood under a year alone ("2019: 230"), its measure lost; its period row replaces the
lowest level of the table's headings, and the levels above head it as well.
"""

from __future__ import annotations

from docling_core.types.doc import TableCell, TableData

from evidence_chunker.units.build import TableGroup, table_blocks
from evidence_chunker.units.tables import analyse_table, flatten_rows

MEASURES = ["", "Income before tax", "Net income", "Income before tax", "Net income"]
#: The table's headings and its first block of rows.
FIRST_BLOCK = [MEASURES, ["(in millions)", "2021", "2021", "2020", "2020"],
               ["Realized gain, net", "$ 47", "$ 36", "$ (8)", "$ (5)"], ["Unrealized gain, net", "307", "237", "(30)", "(24)"]]
#: The rows of the second block, under its heading row.
SECOND_BODY = [["Realized gain, net", "$ (8)", "$ (5)", "$ 18", "$ 14"], ["Unrealized gain, net", "(30)", "(24)", "230", "179"]]


def _table(rows: list[list[str]], header_rows: int) -> TableData:
    cells = [TableCell(text=t, start_row_offset_idx=r, end_row_offset_idx=r + 1, start_col_offset_idx=c,
                       end_col_offset_idx=c + 1, column_header=r < header_rows, row_header=c == 0 and r >= header_rows)
             for r, row in enumerate(rows) for c, t in enumerate(row)]
    return TableData(num_rows=len(rows), num_cols=len(rows[0]), table_cells=cells)


def _blocks(block_heading: list[str]) -> list[str]:
    """The flattened rows of each block of a table whose second block is headed by ``block_heading``."""
    rows = [*FIRST_BLOCK, block_heading, *SECOND_BODY]
    data = _table(rows, 2)
    group = TableGroup(parts=[], first=0, last=0, layout=analyse_table(data), data=data, part_body_rows=[len(rows) - 2])
    return [flatten_rows(layout) for _, layout, _, _ in table_blocks(group)]


def test_a_block_of_new_periods_keeps_the_measures_above():
    upper, lower = _blocks(["", "2020", "2020", "2019", "2019"])
    assert upper[0] == "Realized gain, net | Income before tax / 2021: $ 47; Net income / 2021: $ 36; " \
                       "Income before tax / 2020: $ (8); Net income / 2020: $ (5)"
    assert lower[1] == "Unrealized gain, net | Income before tax / 2020: (30); Net income / 2020: (24); " \
                       "Income before tax / 2019: 230; Net income / 2019: 179"


def test_a_block_with_headings_of_its_own_keeps_only_them():
    _, lower = _blocks(["", "Assets", "Assets", "Capex", "Capex"])
    assert lower[1] == "Unrealized gain, net | Assets: (30); Assets: (24); Capex: 230; Capex: 179"
