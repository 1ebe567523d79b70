"""Table captions: the parser's link (``direct``), or one inferred from caption-like text nearby.

Inference lives here, once, for every parser; what reads as a caption is :mod:`.patterns`'s rule.
"""

from __future__ import annotations

from dataclasses import dataclass

from docling_core.types.doc import DocItem, DocItemLabel, DoclingDocument, TableItem

from .geometry import item_box, vertical_gap
from semantic_json.rules.patterns import is_table_caption
# importable from here, as before patterns.py held them
from semantic_json.rules.patterns import CAPTION_MAX_CHARS, is_figure_caption, referenced_tables, table_label  # noqa: F401

#: A caption is inferred only from text this close to the table (points, same page).
CAPTION_MAX_GAP = 60.0


@dataclass(frozen=True)
class Caption:
    """A table's caption text, how sure we are of it ("direct" or "inferred") and the item it came from."""

    text: str | None
    confidence: str
    ref: str | None = None


def direct_caption(doc: DoclingDocument, table: TableItem) -> Caption | None:
    """The caption the parser linked to the table, if any."""
    if not table.captions:
        return None
    text = " ".join(table.caption_text(doc).split())
    if not text:
        return None
    return Caption(text=text, confidence="direct", ref=table.captions[0].cref)


def infer_caption(table: TableItem, neighbours: list[DocItem], taken: set[str],
                  doc: DoclingDocument | None = None, tables: list[TableItem] = ()) -> Caption | None:
    """The nearest table-caption-like text item above (preferred) or below the table, same page.

    ``neighbours`` are the text items around the table in reading order; ``taken`` holds refs of
    captions already given to other tables; ``tables`` the other tables around it. A caption below the
    table that sits right above another of ``tables`` (within CAPTION_MAX_GAP) announces that one: two
    tables printed one under the other with a caption above each ("<표 1> … <표 2> …") keep their own.
    """
    box = item_box(table, doc)
    if box is None:
        return None
    others = [b for b in (item_box(t, doc) for t in tables if t is not table) if b is not None and b.page == box.page]
    best: tuple[float, int, DocItem] | None = None
    for item in neighbours:
        text = getattr(item, "text", "") or ""
        if item.self_ref in taken or not is_table_caption(text):
            continue
        if item.label not in (DocItemLabel.CAPTION, DocItemLabel.TEXT, DocItemLabel.PARAGRAPH, DocItemLabel.SECTION_HEADER):
            continue
        other = item_box(item, doc)
        if other is None or other.page != box.page:
            continue
        gap = vertical_gap(other, box)
        if gap is None or gap > CAPTION_MAX_GAP:
            continue
        below = other.bbox[1] < box.bbox[3] + 1e-6 and other.bbox[3] < box.bbox[3]
        if below and any(b.top <= other.bottom + 1e-6 and (vertical_gap(other, b) or 0.0) <= CAPTION_MAX_GAP
                         for b in others if b.top < box.bottom):
            continue
        rank = (gap, 1 if below else 0, item)
        if best is None or rank[:2] < best[:2]:
            best = rank
    if best is None:
        return None
    item = best[2]
    return Caption(text=" ".join(item.text.split()), confidence="inferred", ref=item.self_ref)
