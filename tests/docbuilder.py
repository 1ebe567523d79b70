"""Build small DoclingDocuments by hand, with real docling-core types, for behaviour tests."""

from __future__ import annotations

from docling_core.types.doc import (
    BoundingBox,
    CoordOrigin,
    DocItemLabel,
    DoclingDocument,
    ProvenanceItem,
    Size,
    TableCell,
    TableData,
)

from evidence_chunker.parsing import ParsedDoc

PAGE_W, PAGE_H = 595.0, 842.0


def prov(page: int, l: float, t: float, r: float, b: float, text: str = "") -> ProvenanceItem:
    """A provenance box in points, BOTTOMLEFT (t > b)."""
    return ProvenanceItem(
        page_no=page,
        bbox=BoundingBox(l=l, t=t, r=r, b=b, coord_origin=CoordOrigin.BOTTOMLEFT),
        charspan=(0, len(text)),
    )


def table_data(rows: list[list[str]], header_rows: int = 1, row_header_cols: int = 0,
               spans: dict[tuple[int, int], int] | None = None, flags: bool = True) -> TableData:
    """A TableData from a grid; ``spans[(r, c)] = n`` makes that cell span n columns."""
    spans = spans or {}
    cells = []
    covered: set[tuple[int, int]] = set()
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            if (r, c) in covered:
                continue
            width = spans.get((r, c), 1)
            for k in range(1, width):
                covered.add((r, c + k))
            cells.append(
                TableCell(
                    text=text,
                    start_row_offset_idx=r,
                    end_row_offset_idx=r + 1,
                    start_col_offset_idx=c,
                    end_col_offset_idx=c + width,
                    col_span=width,
                    column_header=flags and r < header_rows,
                    row_header=flags and r >= header_rows and c < row_header_cols,
                )
            )
    return TableData(num_rows=len(rows), num_cols=max(len(r) for r in rows), table_cells=cells)


class DocBuilder:
    """Append paragraphs, captions, headings and tables page by page, top to bottom."""

    def __init__(self, pages: int = 1, name: str = "doc"):
        self.doc = DoclingDocument(name=name)
        for page in range(1, pages + 1):
            self.doc.add_page(page_no=page, size=Size(width=PAGE_W, height=PAGE_H))

    def text(self, text: str, page: int, top: float, height: float = 30.0, label=DocItemLabel.TEXT):
        return self.doc.add_text(label=label, text=text, prov=prov(page, 72, top, 520, top - height, text))

    def heading(self, text: str, page: int, top: float):
        return self.doc.add_heading(text=text, prov=prov(page, 72, top, 520, top - 16, text))

    def caption(self, text: str, page: int, top: float):
        return self.text(text, page, top, 14, label=DocItemLabel.CAPTION)

    def table(self, data: TableData, page: int, top: float, height: float = 120.0, caption=None):
        item = self.doc.add_table(data=data, prov=prov(page, 72, top, 520, top - height), caption=caption)
        return item

    def parsed(self, name: str = "doc") -> ParsedDoc:
        return ParsedDoc(document=self.doc, path=None, sha256=None, parser="test", page_count=len(self.doc.pages))
