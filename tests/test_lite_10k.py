"""LiteParser on US 10-K style financial statements, laid out the way EDGAR's HTML renders them.

Each statement is built here with reportlab's Table and no vertical rules, as a browser prints an
EDGAR filing: column labels centred over their value columns (dates, years), a period heading such as
"Years ended" centred over all of them, currency signs and closing parentheses in cells of their own,
section rows ending in a colon and indented line items.

Cell text is kept exactly as printed. Where EDGAR puts "$" and ")" in cells of their own, the lite
parser joins them to the amount they belong to, as they read on the page: "$" before the amount with
one space ("$ 298,085"), ")" and "%" directly after it ("(565)", "(3)%"). The values are never
converted to numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from docling_core.types.doc import TableItem  # noqa: E402
from reportlab.lib.pagesizes import letter  # noqa: E402
from reportlab.lib.styles import getSampleStyleSheet  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser  # noqa: E402

STYLES = getSampleStyleSheet()


def _build(path: Path, title: str, table: Table, intro: str | None = None) -> Path:
    story = [Paragraph(title, STYLES["Heading3"]), Spacer(1, 6)]
    if intro:
        story += [Paragraph(intro, STYLES["BodyText"]), Spacer(1, 6)]
    story.append(table)
    SimpleDocTemplate(str(path), pagesize=letter).build(story)
    return path


# --------------------------------------------------------------------------------------------
# (a) Income statement: dates right-aligned in their columns, "$" inside the value cells
# --------------------------------------------------------------------------------------------


def build_income_statement(path: Path) -> Path:
    """The statement of operations of the issue report: one rule under the three dates, "Years
    ended" in the narrow spacer column between the first two date columns."""
    rows = [
        ["", "", "Years ended", "", "", ""],
        ["", "September 30, 2023", "", "September 24, 2022", "", "September 25, 2021"],
        ["Net sales:", "", "", "", "", ""],
        ["Products", "$ 298,085", "", "$ 316,199", "", "$ 297,392"],
        ["Services", "85,200", "", "78,129", "", "68,425"],
        ["Total net sales", "383,285", "", "394,328", "", "365,817"],
        ["Cost of sales:", "", "", "", "", ""],
        ["Products", "189,282", "", "201,471", "", "192,266"],
        ["Services", "24,855", "", "22,075", "", "20,715"],
        ["Total cost of sales", "214,137", "", "223,546", "", "212,981"],
        ["Gross margin", "169,148", "", "170,782", "", "152,836"],
        ["Other income/(expense), net", "(565 )", "", "(334 )", "", "258"],
        ["Net income", "$ 96,995", "", "$ 99,803", "", "$ 94,680"],
    ]
    table = Table(rows, colWidths=[180, 80, 10, 80, 10, 80])
    table.setStyle(
        TableStyle(
            [
                ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                ("FONTSIZE", (0, 0), (-1, -1), 8),
                ("LINEBELOW", (1, 1), (-1, 1), 0.5, "black"),
            ]
        )
    )
    return _build(path, "CONSOLIDATED STATEMENTS OF OPERATIONS (In millions)", table)


# --------------------------------------------------------------------------------------------
# (b) The same statement with "$" and ")" in cells of their own, as EDGAR renders it
# --------------------------------------------------------------------------------------------

#: Per period: a spacer cell, the "$" cell, the amount cell (right-aligned), the ")" cell.
_PERIOD = [10, 9, 52, 7]


def _period_cells(value: str) -> list[str]:
    """The four cells of one period for a printed value such as "$ 298,085", "(565)" or "85,200"."""
    dollar = ""
    if value.startswith("$"):
        dollar, value = "$", value[1:].strip()
    paren = ""
    if value.endswith(")"):
        value, paren = value[:-1], ")"
    return ["", dollar, value, paren]


def build_edgar_income_statement(path: Path) -> Path:
    """Statement (a) as EDGAR renders it: per period a "$" cell, the amount and a ")" cell set 3 pt
    after it (no space printed); the dates, each centred over its period with its own rule, are wider
    than the amounts and so close that they read as one phrase; "Years ended" centred over all."""
    values = [
        ("Net sales:", None),
        ("Products", ("$ 298,085", "$ 316,199", "$ 297,392")),
        ("Services", ("85,200", "78,129", "68,425")),
        ("Total net sales", ("383,285", "394,328", "365,817")),
        ("Cost of sales:", None),
        ("Products", ("189,282", "201,471", "192,266")),
        ("Services", ("24,855", "22,075", "20,715")),
        ("Total cost of sales", ("214,137", "223,546", "212,981")),
        ("Gross margin", ("169,148", "170,782", "152,836")),
        ("Other income/(expense), net", ("(565)", "(334)", "258")),
        ("Net income", ("$ 96,995", "$ 99,803", "$ 94,680")),
    ]
    n = 1 + 3 * len(_PERIOD)
    rows = [[""] * n, [""] * n]
    rows[0][2] = "Years ended"
    for k, date in enumerate(("September 30, 2023", "September 24, 2022", "September 25, 2021")):
        rows[1][2 + k * len(_PERIOD)] = date
    for label, cells in values:
        row = [label] + [""] * (n - 1)
        if cells:
            row = [label] + [c for value in cells for c in _period_cells(value)]
        rows.append(row)
    table = Table(rows, colWidths=[190] + _PERIOD * 3)
    style = [
        ("FONTNAME", (0, 0), (-1, -1), "Times-Roman"),
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("LEFTPADDING", (1, 0), (-1, -1), 0),
        ("RIGHTPADDING", (1, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("SPAN", (2, 0), (n - 1, 0)),
        ("ALIGN", (2, 0), (n - 1, 0), "CENTER"),
        ("FONTNAME", (0, 0), (-1, 1), "Times-Bold"),
        ("ALIGN", (1, 2), (-1, -1), "RIGHT"),
    ]
    for k in range(3):
        first = 2 + k * len(_PERIOD)
        style += [
            ("SPAN", (first, 1), (first + 2, 1)),
            ("ALIGN", (first, 1), (first + 2, 1), "CENTER"),
            ("LINEBELOW", (first, 1), (first + 2, 1), 0.75, "black"),
            ("ALIGN", (first, 2), (first, -1), "LEFT"),  # "$" at the left of its value
            ("ALIGN", (first + 2, 2), (first + 2, -1), "LEFT"),  # ")" just after the amount
            ("LEFTPADDING", (first + 2, 2), (first + 2, -1), 3),  # ... a little apart, no space printed
            ("LINEABOVE", (first, 5), (first + 1, 5), 0.5, "black"),  # rules over the totals
            ("LINEABOVE", (first, 9), (first + 1, 9), 0.5, "black"),
            ("LINEBELOW", (first, -1), (first + 1, -1), 1.0, "black"),
        ]
    table.setStyle(TableStyle(style))
    return _build(
        path,
        "CONSOLIDATED STATEMENTS OF OPERATIONS",
        table,
        intro="(In millions, except number of shares, which are reflected in thousands, and per-share amounts)",
    )


# --------------------------------------------------------------------------------------------
# (c) Balance sheet: three header rows, section rows and indented line items
# --------------------------------------------------------------------------------------------


def build_balance_sheet(path: Path) -> Path:
    """A balance sheet: "As of" over two dates over "(in millions)", section rows ending in a colon
    at the left, line items indented 10 pt under them and totals 20 pt."""
    items = [
        ("ASSETS:", 0, None),
        ("Current assets:", 0, None),
        ("Cash and cash equivalents", 1, ("$ 29,965", "$ 23,646")),
        ("Marketable securities", 1, ("31,590", "24,658")),
        ("Accounts receivable, net", 1, ("29,508", "28,184")),
        ("Inventories", 1, ("6,331", "4,946")),
        ("Total current assets", 2, ("143,566", "135,405")),
        ("Non-current assets:", 0, None),
        ("Property, plant and equipment, net", 1, ("43,715", "42,117")),
        ("Other non-current assets", 1, ("64,758", "54,428")),
        ("Total assets", 2, ("$ 352,583", "$ 352,755")),
        ("LIABILITIES AND SHAREHOLDERS' EQUITY:", 0, None),
        ("Current liabilities:", 0, None),
        ("Short-term borrowings", 1, ("$ —", "$ 1,530")),  # a dash for nil, then the next "$"
        ("Accounts payable", 1, ("62,611", "64,115")),
        ("Commercial paper", 1, ("5,985", "9,982")),
        ("Total current liabilities", 2, ("145,308", "153,982")),
        ("Total shareholders' equity (deficit)", 2, ("62,146", "(3,451)")),
    ]
    width = [10, 9, 56, 7]
    n = 1 + 2 * len(width)
    rows = [[""] * n for _ in range(3)]
    rows[0][2] = "As of"
    rows[1][2], rows[1][2 + len(width)] = "September 30, 2023", "September 24, 2022"
    rows[2][2] = "(in millions)"
    style = [
        ("FONTNAME", (0, 0), (-1, -1), "Times-Roman"),
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("LEFTPADDING", (1, 0), (-1, -1), 0),
        ("RIGHTPADDING", (1, 0), (-1, -1), 0),
        ("TOPPADDING", (0, 0), (-1, -1), 1),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ("SPAN", (2, 0), (n - 1, 0)),
        ("SPAN", (2, 2), (n - 1, 2)),
        ("ALIGN", (2, 0), (n - 1, 2), "CENTER"),
        ("FONTNAME", (0, 0), (-1, 1), "Times-Bold"),
        ("ALIGN", (1, 3), (-1, -1), "RIGHT"),
    ]
    for k in range(2):
        first = 2 + k * len(width)
        style += [
            ("SPAN", (first, 1), (first + 2, 1)),
            ("LINEBELOW", (first, 1), (first + 2, 1), 0.75, "black"),
            ("ALIGN", (first, 3), (first, -1), "LEFT"),
            ("ALIGN", (first + 2, 3), (first + 2, -1), "LEFT"),
        ]
    for r, (label, indent, values) in enumerate(items, start=3):
        row = [label] + [""] * (n - 1)
        if values:
            row = [label] + [c for value in values for c in _period_cells(value)]
        rows.append(row)
        style.append(("LEFTPADDING", (0, r), (0, r), 6 + 10 * indent))
        if values is None and label.isupper():
            style.append(("FONTNAME", (0, r), (0, r), "Times-Bold"))
    table = Table(rows, colWidths=[220] + width * 2)
    table.setStyle(TableStyle(style))
    return _build(path, "CONSOLIDATED BALANCE SHEETS", table)


# --------------------------------------------------------------------------------------------
# (d) Two years and a percent change: "%" in a cell of its own
# --------------------------------------------------------------------------------------------


def build_change_table(path: Path) -> Path:
    """Net sales by category for two years and the percent change, "%" (or ")%") in a cell of its own."""
    data = [
        ("iPhone", "$ 200,583", "$ 205,489", "(2)%"),
        ("Mac", "29,357", "40,177", "(27)%"),
        ("iPad", "28,300", "29,292", "(3)%"),
        ("Services", "85,200", "78,129", "9%"),
        ("Total net sales", "$ 383,285", "$ 394,328", "(3)%"),
    ]
    width = [10, 9, 56, 7]
    change = [14, 40, 12]  # spacer, amount, ")%" or "%"
    n = 1 + 2 * len(width) + len(change)
    rows = [[""] * n]
    rows[0][2], rows[0][2 + len(width)], rows[0][n - 2] = "2023", "2022", "% Change"
    style = [
        ("FONTNAME", (0, 0), (-1, -1), "Times-Roman"),
        ("FONTSIZE", (0, 0), (-1, -1), 9),
        ("LEFTPADDING", (1, 0), (-1, -1), 0),
        ("RIGHTPADDING", (1, 0), (-1, -1), 0),
        ("FONTNAME", (0, 0), (-1, 0), "Times-Bold"),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("SPAN", (n - 2, 0), (n - 1, 0)),
        ("ALIGN", (n - 2, 0), (n - 1, 0), "CENTER"),
    ]
    for k in range(2):
        first = 2 + k * len(width)
        style += [
            ("SPAN", (first, 0), (first + 2, 0)),
            ("ALIGN", (first, 0), (first + 2, 0), "CENTER"),
            ("LINEBELOW", (first, 0), (first + 2, 0), 0.75, "black"),
            ("ALIGN", (first, 1), (first, -1), "LEFT"),
            ("ALIGN", (first + 2, 1), (first + 2, -1), "LEFT"),
        ]
    style += [
        ("LINEBELOW", (n - 2, 0), (n - 1, 0), 0.75, "black"),
        ("ALIGN", (n - 1, 1), (n - 1, -1), "LEFT"),
        ("LEFTPADDING", (n - 1, 1), (n - 1, -1), 3),  # "%" set a little apart, no space printed
    ]
    for label, a, b, pct in data:
        amount, mark = (pct[:-2], ")%") if pct.endswith(")%") else (pct[:-1], "%")
        rows.append([label] + _period_cells(a) + _period_cells(b) + ["", amount, mark])
    table = Table(rows, colWidths=[150] + width * 2 + change)
    table.setStyle(TableStyle(style))
    return _build(
        path,
        "Net sales by category (dollars in millions)",
        table,
        intro="The following table shows net sales by category for 2023 and 2022 and the percentage change:",
    )


# --------------------------------------------------------------------------------------------
# Fixtures
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("tenk")
    return {
        "income": build_income_statement(folder / "income.pdf"),
        "edgar": build_edgar_income_statement(folder / "edgar.pdf"),
        "balance": build_balance_sheet(folder / "balance.pdf"),
        "change": build_change_table(folder / "change.pdf"),
    }


@pytest.fixture(scope="module")
def tables(pdfs) -> dict[str, TableItem]:
    out = {}
    for name, path in pdfs.items():
        document = LiteParser().parse(path).document
        assert len(document.tables) == 1, f"{name}: {len(document.tables)} tables"
        out[name] = document.tables[0]
    return out


@pytest.fixture(scope="module")
def rows(pdfs) -> dict[str, list[str]]:
    chunker = EvidenceChunker(parser="lite")
    out = {}
    for name, path in pdfs.items():
        units = chunker.chunk(path)
        out[name] = [row for unit in units for row in unit.flattened_rows]
    return out


def _texts(table: TableItem, row: int) -> list[str]:
    return [c.text for c in table.data.grid[row]]


def _cells(table: TableItem, row: int):
    """The cells starting in ``row``, left to right (a spanning cell once)."""
    return sorted(
        (c for c in table.data.table_cells if c.start_row_offset_idx == row), key=lambda c: c.start_col_offset_idx
    )


def _header(table: TableItem, row: int) -> list[tuple[str, int, int]]:
    """(text, first column, column span) of the non-empty cells of a heading row."""
    return [(c.text, c.start_col_offset_idx, c.col_span) for c in _cells(table, row) if c.text]


INCOME_HEADINGS = [
    [("Years ended", 1, 3)],
    [("September 30, 2023", 1, 1), ("September 24, 2022", 2, 1), ("September 25, 2021", 3, 1)],
]
PRODUCTS_ROW = (
    "Net sales > Products | Years ended / September 30, 2023: $ 298,085; "
    "Years ended / September 24, 2022: $ 316,199; Years ended / September 25, 2021: $ 297,392"
)


# --------------------------------------------------------------------------------------------
# (a) the statement of the issue report
# --------------------------------------------------------------------------------------------


def test_income_statement_dates_are_three_columns_under_a_spanning_period_heading(tables):
    table = tables["income"]
    assert (table.data.num_rows, table.data.num_cols) == (13, 4)
    assert [_header(table, r) for r in (0, 1)] == INCOME_HEADINGS
    assert all(c.column_header for r in (0, 1) for c in _cells(table, r))
    assert not any(c.column_header for c in _cells(table, 2))


def test_income_statement_values_are_kept_as_printed(tables):
    table = tables["income"]
    assert _texts(table, 3) == ["Products", "$ 298,085", "$ 316,199", "$ 297,392"]
    # the PDF prints a space before ")": it stays, nothing is converted
    assert _texts(table, 11) == ["Other income/(expense), net", "(565 )", "(334 )", "258"]
    assert _texts(table, 12) == ["Net income", "$ 96,995", "$ 99,803", "$ 94,680"]


def test_income_statement_marks_section_rows_and_row_labels(tables):
    table = tables["income"]
    grid = table.data.grid
    assert grid[2][0].text == "Net sales:" and grid[2][0].row_section
    assert grid[6][0].text == "Cost of sales:" and grid[6][0].row_section
    assert all(grid[r][0].row_header and not grid[r][0].row_section for r in (3, 4, 5, 7, 10, 12))


def test_income_statement_flattened_rows_carry_each_date(rows):
    flattened = rows["income"]
    assert flattened[0] == "Net sales:"
    assert flattened[1] == PRODUCTS_ROW
    assert "Gross margin | Years ended / September 30, 2023: 169,148; Years ended / September 24, 2022: 170,782; " \
        "Years ended / September 25, 2021: 152,836" in flattened
    assert not any("2023 September" in row for row in flattened)


# --------------------------------------------------------------------------------------------
# (b) "$" and ")" in cells of their own
# --------------------------------------------------------------------------------------------


def test_edgar_dates_set_close_together_are_cut_into_their_columns(tables):
    table = tables["edgar"]
    # the three dates are wider than their value columns and read as one phrase on the page
    assert (table.data.num_rows, table.data.num_cols) == (13, 4)
    assert [_header(table, r) for r in (0, 1)] == INCOME_HEADINGS
    assert all(c.column_header for r in (0, 1) for c in _cells(table, r))


def test_edgar_currency_signs_and_closing_parentheses_join_their_amounts(tables):
    table = tables["edgar"]
    assert _texts(table, 3) == ["Products", "$ 298,085", "$ 316,199", "$ 297,392"]
    assert _texts(table, 4) == ["Services", "85,200", "78,129", "68,425"]
    assert _texts(table, 11) == ["Other income/(expense), net", "(565)", "(334)", "258"]
    assert _texts(table, 12) == ["Net income", "$ 96,995", "$ 99,803", "$ 94,680"]
    # no column of lone signs: every cell is a label, an amount or empty
    assert not any(c.text in ("$", ")") for c in table.data.table_cells)


def test_edgar_cells_are_a_faithful_copy_of_the_printed_characters(tables):
    table = tables["edgar"]
    printed = {"$298,085", "(565)", "(334)", "258", "$96,995"}
    found = {c.text.replace(" ", "") for c in table.data.table_cells}
    assert printed <= found


def test_edgar_flattened_rows(rows):
    flattened = rows["edgar"]
    assert PRODUCTS_ROW in flattened
    assert "Other income/(expense), net | Years ended / September 30, 2023: (565); " \
        "Years ended / September 24, 2022: (334); Years ended / September 25, 2021: 258" in flattened


# --------------------------------------------------------------------------------------------
# (c) balance sheet
# --------------------------------------------------------------------------------------------


def test_balance_sheet_has_three_heading_rows(tables):
    table = tables["balance"]
    assert table.data.num_cols == 3
    assert [_header(table, r) for r in (0, 1, 2)] == [
        [("As of", 1, 2)],
        [("September 30, 2023", 1, 1), ("September 24, 2022", 2, 1)],
        [("(in millions)", 1, 2)],
    ]
    assert all(c.column_header for r in (0, 1, 2) for c in _cells(table, r))
    assert not any(c.column_header for c in _cells(table, 3))


def test_balance_sheet_section_rows_and_indented_items(tables):
    table = tables["balance"]
    first = {row[0].text: row[0] for row in table.data.grid[3:]}
    for label in ("ASSETS:", "Current assets:", "Non-current assets:", "LIABILITIES AND SHAREHOLDERS' EQUITY:",
                  "Current liabilities:"):
        assert first[label].row_section, label
    for label in ("Cash and cash equivalents", "Inventories", "Total current assets", "Total assets",
                  "Total shareholders' equity (deficit)"):
        assert first[label].row_header and not first[label].row_section, label
    grid = table.data.grid
    assert [c.text for c in grid[-1]] == ["Total shareholders' equity (deficit)", "62,146", "(3,451)"]
    assert [c.text for c in grid[13]] == ["Total assets", "$ 352,583", "$ 352,755"]


def test_balance_sheet_flattened_rows(rows):
    flattened = rows["balance"]
    # "(in millions)" is the table's unit, not a level of each column's header (see the unit test below).
    label_1 = "As of / September 30, 2023"
    label_2 = "As of / September 24, 2022"
    assert flattened[:2] == ["ASSETS:", "Current assets:"]
    liabilities = "LIABILITIES AND SHAREHOLDERS' EQUITY"
    assert f"ASSETS > Current assets > Cash and cash equivalents | {label_1}: $ 29,965; {label_2}: $ 23,646" in flattened
    assert f"ASSETS > Total assets | {label_1}: $ 352,583; {label_2}: $ 352,755" in flattened
    assert f"{liabilities} > Current liabilities > Short-term borrowings | {label_1}: $ —; {label_2}: $ 1,530" in flattened
    assert f"{liabilities} > Current liabilities > Accounts payable | {label_1}: 62,611; {label_2}: 64,115" in flattened
    assert f"{liabilities} > Total shareholders' equity (deficit) | {label_1}: 62,146; {label_2}: (3,451)" in flattened


def test_balance_sheet_unit_is_the_tables_unit_not_a_column_header(pdfs):
    unit = EvidenceChunker(parser="lite").chunk(pdfs["balance"])[0]
    assert unit.unit == "in millions"
    assert "Unit: in millions." in unit.table_abstract
    assert not any("(in millions)" in line for line in unit.flattened_rows)
    assert "(in millions)" in unit.table_html  # the cell itself stays as printed


# --------------------------------------------------------------------------------------------
# (d) two years and a percent change
# --------------------------------------------------------------------------------------------


def test_change_table_keeps_years_and_percent_change_apart(tables):
    table = tables["change"]
    assert (table.data.num_rows, table.data.num_cols) == (6, 4)
    assert _header(table, 0) == [("2023", 1, 1), ("2022", 2, 1), ("% Change", 3, 1)]
    assert all(c.column_header for c in _cells(table, 0))
    assert _texts(table, 1) == ["iPhone", "$ 200,583", "$ 205,489", "(2)%"]
    assert _texts(table, 4) == ["Services", "85,200", "78,129", "9%"]
    assert all(table.data.grid[r][0].row_header for r in range(1, 6))


def test_change_table_flattened_rows(rows):
    assert rows["change"] == [
        "iPhone | 2023: $ 200,583; 2022: $ 205,489; % Change: (2)%",
        "Mac | 2023: 29,357; 2022: 40,177; % Change: (27)%",
        "iPad | 2023: 28,300; 2022: 29,292; % Change: (3)%",
        "Services | 2023: 85,200; 2022: 78,129; % Change: 9%",
        "Total net sales | 2023: $ 383,285; 2022: $ 394,328; % Change: (3)%",
    ]
