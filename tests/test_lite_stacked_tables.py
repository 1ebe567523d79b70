"""Two tables printed one under the other, the second under a title line of its own and repeating the
column headings, are two tables even where the title is not bold (a page read by OCR has no bold); a
section label inside one table, with a row under it, keeps the table whole."""

from __future__ import annotations

from reportlab.pdfgen import canvas

from evidence_chunker.parsing import LiteParser

_COLUMNS = (72, 330, 420, 510)  # row labels at the left, figures right-aligned at the other stops
_ROW = 13.0


def _row(c: canvas.Canvas, y: float, cells: list[str]) -> None:
    c.drawString(_COLUMNS[0], y, cells[0])
    for x, text in zip(_COLUMNS[1:], cells[1:]):
        c.drawRightString(x, y, text)


def _note(path, title_between: str, heading_again: bool) -> None:
    """An income-tax note: a table of income, ``title_between`` after a blank line, and a second table
    (its own headings when ``heading_again``), every line in the same plain font."""
    c = canvas.Canvas(str(path), invariant=1)
    c.setFont("Helvetica", 9)
    y = 740.0
    c.drawString(72, y, "Income Before Income Taxes")
    y -= 2 * _ROW
    for cells in (["(Millions)", "2022", "2021", "2020"], ["United States", "3,861", "3,716", "3,795"],
                  ["International", "2,531", "3,488", "3,000"], ["Total", "6,392", "7,204", "6,795"]):
        _row(c, y, cells)
        y -= _ROW
    y -= _ROW  # a blank line, the title, a blank line
    c.drawString(72, y, title_between)
    y -= 2 * _ROW
    rows = [["Federal", "606", "756", "720"], ["State", "76", "104", "123"], ["International", "621", "597", "632"],
            ["Total", "1,303", "1,457", "1,475"]]
    for cells in ([["(Millions)", "2022", "2021", "2020"]] if heading_again else []) + rows:
        _row(c, y, cells)
        y -= _ROW
    c.showPage()
    c.save()


def _tables(path, title_between: str, heading_again: bool) -> list[list[list[str]]]:
    """The cell texts, row by row, of every table the lite parser finds in the note :func:`_note` draws."""
    _note(path, title_between, heading_again)
    return [[[cell.text for cell in row] for row in table.data.grid] for table in LiteParser().parse(path).document.tables]


def test_a_plain_title_between_blank_lines_over_repeated_headings_starts_a_second_table(tmp_path):
    tables = _tables(tmp_path / "note.pdf", "Provision for Income Taxes", heading_again=True)
    assert len(tables) == 2
    assert tables[0][-1] == ["Total", "6,392", "7,204", "6,795"]
    assert tables[1][0] == ["(Millions)", "2022", "2021", "2020"]
    assert tables[1][-1] == ["Total", "1,303", "1,457", "1,475"]
    assert not any("Provision" in cell for table in tables for row in table for cell in row)


def test_a_section_label_with_rows_under_it_keeps_one_table(tmp_path):
    tables = _tables(tmp_path / "note.pdf", "Current and deferred", heading_again=False)
    assert len(tables) == 1
    assert tables[0][-1] == ["Total", "1,303", "1,457", "1,475"]
