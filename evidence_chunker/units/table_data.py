"""Cutting and joining docling-core TableData: rows cut out as a table of their own (a table's parts, split
pieces under the header rows), a table continued over a page break appended, and rich cells (cells that
point at other items) replaced by plain text cells."""

from __future__ import annotations

from docling_core.types.doc import TableCell, TableData


def cut_rows(data: TableData, start: int, end: int, header_rows: int) -> TableData:
    """Grid rows ``start``..``end`` (end exclusive) of ``data`` as a table of their own whose first
    ``header_rows`` rows are its column headers (flagged so); cells straddling the cut are clipped."""
    cells = []
    for cell in data.table_cells:
        first, last = max(cell.start_row_offset_idx, start), min(cell.end_row_offset_idx, end)
        if first >= last:
            continue
        heading = first - start < header_rows
        cells.append(cell.model_copy(update={
            "start_row_offset_idx": first - start, "end_row_offset_idx": last - start, "row_span": last - first,
            "column_header": heading, "row_header": cell.row_header and not heading,
            "row_section": cell.row_section and not heading,
        }))
    return TableData(num_rows=end - start, num_cols=data.num_cols, table_cells=cells)


def slice_table_data(data: TableData, header_rows: int, start: int, end: int) -> TableData:
    """The header rows plus body rows ``start``..``end`` (0-based, end exclusive) as a new table.

    Cells that straddle the cut are clipped to the kept rows.
    """
    keep = list(range(header_rows)) + list(range(header_rows + start, header_rows + end))
    new_index = {old: new for new, old in enumerate(keep)}
    cells = []
    for cell in data.table_cells:
        rows = [r for r in range(cell.start_row_offset_idx, cell.end_row_offset_idx) if r in new_index]
        if not rows:
            continue
        first, last = new_index[rows[0]], new_index[rows[-1]] + 1
        cells.append(
            cell.model_copy(update={"start_row_offset_idx": first, "end_row_offset_idx": last, "row_span": last - first})
        )
    return TableData(num_rows=len(keep), num_cols=data.num_cols, table_cells=cells)


def append_rows(head: TableData, tail: TableData, skip_rows: int) -> TableData:
    """``head`` followed by ``tail`` without its first ``skip_rows`` rows (a repeated header)."""
    offset = head.num_rows - skip_rows
    cells = list(head.table_cells)
    for cell in tail.table_cells:
        if cell.end_row_offset_idx <= skip_rows:
            continue
        start = max(cell.start_row_offset_idx, skip_rows)
        cells.append(
            cell.model_copy(
                update={
                    "start_row_offset_idx": start + offset,
                    "end_row_offset_idx": cell.end_row_offset_idx + offset,
                    "row_span": cell.end_row_offset_idx - start,
                }
            )
        )
    num_cols = max(head.num_cols, tail.num_cols)
    return TableData(num_rows=head.num_rows + tail.num_rows - skip_rows, num_cols=num_cols, table_cells=cells)


def plain_table_data(data: TableData, doc) -> TableData:
    """``data`` with rich cells (cells that point at other items) replaced by plain text cells.

    The text of a rich cell is its own text, or else its referenced item's text, resolved once here,
    so that rows, HTML and pieces never need the document again.
    """
    from docling_core.types.doc.document import RichTableCell  # noqa: PLC0415

    if not any(isinstance(cell, RichTableCell) for cell in data.table_cells):
        return data
    cells = []
    for cell in data.table_cells:
        if isinstance(cell, RichTableCell):
            text = cell.text
            if not text.strip():
                try:
                    target = cell.ref.resolve(doc)
                    text = getattr(target, "text", "") or ""
                    if not text and isinstance(getattr(target, "data", None), TableData):
                        text = " ".join(c.text for c in target.data.table_cells if c.text)
                except (IndexError, AttributeError, ValueError):
                    text = ""
            cell = TableCell(**{k: v for k, v in cell.model_dump().items() if k in TableCell.model_fields and k != "text"}, text=text)
        cells.append(cell)
    return TableData(num_rows=data.num_rows, num_cols=data.num_cols, table_cells=cells)
