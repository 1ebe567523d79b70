"""Boxes on pages: every item's boxes in PDF points with a BOTTOMLEFT origin, as semantic_json's ``PageBox``."""

from __future__ import annotations

from docling_core.types.doc import CoordOrigin, DocItem, DoclingDocument, TableData, TableItem
from semantic_json import PageBox


def item_boxes(item: DocItem, doc: DoclingDocument | None = None) -> list[PageBox]:
    """Every provenance box of ``item``, converted to BOTTOMLEFT points."""
    boxes = []
    for prov in item.prov:
        bbox = prov.bbox
        if bbox.coord_origin != CoordOrigin.BOTTOMLEFT:
            if doc is None or prov.page_no not in doc.pages:
                continue
            bbox = bbox.to_bottom_left_origin(doc.pages[prov.page_no].size.height)
        boxes.append(PageBox(page=prov.page_no, bbox=(bbox.l, bbox.t, bbox.r, bbox.b)))
    return boxes


def item_box(item: DocItem, doc: DoclingDocument | None = None) -> PageBox | None:
    """The first box of ``item`` (its position in reading order), or None without provenance."""
    boxes = item_boxes(item, doc)
    return boxes[0] if boxes else None


def vertical_gap(a: PageBox, b: PageBox) -> float | None:
    """Points between two boxes on the same page stacked vertically (0 when they overlap)."""
    if a.page != b.page:
        return None
    if a.bottom >= b.top:  # a above b
        return a.bottom - b.top
    if b.bottom >= a.top:  # b above a
        return b.bottom - a.top
    return 0.0


def normalise(box: PageBox, doc: DoclingDocument) -> tuple[float, float, float, float]:
    """``box`` scaled to 0..1 by its page size (BOTTOMLEFT kept)."""
    page = doc.pages.get(box.page)
    if page is None or not page.size.width or not page.size.height:
        return (0.0, 0.0, 0.0, 0.0)
    w, h = page.size.width, page.size.height
    l, t, r, b = box.bbox
    clamp = lambda v: min(max(v, 0.0), 1.0)  # noqa: E731
    return (clamp(l / w), clamp(t / h), clamp(r / w), clamp(b / h))


def bottom_left_cells(data: TableData, table: TableItem, doc: DoclingDocument) -> TableData:
    """``data`` with every cell box in BOTTOMLEFT points of the table's page (Docling writes TOPLEFT)."""
    box = item_box(table, doc)
    page = doc.pages.get(box.page) if box else None
    if page is None or not any(c.bbox is not None and c.bbox.coord_origin != CoordOrigin.BOTTOMLEFT for c in data.table_cells):
        return data
    height = page.size.height
    cells = [
        c.model_copy(update={"bbox": c.bbox.to_bottom_left_origin(height)})
        if c.bbox is not None and c.bbox.coord_origin != CoordOrigin.BOTTOMLEFT else c
        for c in data.table_cells
    ]
    return data.model_copy(update={"table_cells": cells})
