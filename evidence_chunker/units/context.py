"""Explanatory paragraphs around a table, chosen by distance and by similarity.

Paragraphs above and below the table are adopted while they lie within ``bbox_threshold`` points of it
and their cosine similarity to the table's text is at least ``sim_threshold``. The distance runs across a
page break: a table at the top of page 2 is 0 pt from the last paragraph of page 1 plus the margins of
content between them, so it can absorb that paragraph.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from docling_core.types.doc import DocItem, DocItemLabel, DoclingDocument, TextItem

from semantic_json import PageBox
from .geometry import item_box, item_boxes
from semantic_json.rules.patterns import referenced_tables

#: Default reach of context collection above and below a table (points).
DEFAULT_BBOX_THRESHOLD = 300.0
#: Default minimum cosine similarity between a paragraph and the table.
DEFAULT_SIM_THRESHOLD = 0.0
#: At most this many paragraphs are adopted on each side.
MAX_CONTEXT_PARAGRAPHS = 3
#: Shorter text (chart labels, stray numbers) is not an explanatory paragraph.
MIN_CONTEXT_CHARS = 25

#: Text labels that can be adopted as explanatory context.
CONTEXT_LABELS = frozenset({DocItemLabel.TEXT, DocItemLabel.PARAGRAPH, DocItemLabel.LIST_ITEM})
#: Items that end the search: context never reaches past a heading, another table or a figure.
STOP_LABELS = frozenset(
    {
        DocItemLabel.SECTION_HEADER,
        DocItemLabel.TITLE,
        DocItemLabel.TABLE,
        DocItemLabel.DOCUMENT_INDEX,
        DocItemLabel.PICTURE,
        DocItemLabel.CHART,
    }
)
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9]+|[\uac00-\ud7a3]+")


def similarity_terms(text: str) -> frozenset[str]:
    """The set of lower-cased words (two letters or more; numbers say little about topic) and Hangul
    bigrams (Korean words carry particles, so 상환능력은 shares its bigrams with 상환능력).

    A set, not counts: a table repeats its column labels on every row, which would drown the rest.
    """
    terms: set[str] = set()
    for token in _TOKEN.findall(text.lower()):
        if "\uac00" <= token[0] <= "\ud7a3":
            terms.update(token[i : i + 2] for i in range(len(token) - 1))
        else:
            terms.add(token)
    return frozenset(terms)


def cosine(a: frozenset[str], b: frozenset[str]) -> float:
    """Cosine similarity of two binary term vectors (0.0 when either is empty)."""
    if not a or not b:
        return 0.0
    return len(a & b) / math.sqrt(len(a) * len(b))


@dataclass
class PageExtents:
    """The highest top and lowest bottom of body content on each page (points, BOTTOMLEFT)."""

    top: dict[int, float] = field(default_factory=dict)
    bottom: dict[int, float] = field(default_factory=dict)

    @classmethod
    def of(cls, items: list[DocItem], doc: DoclingDocument | None = None) -> "PageExtents":
        """Extents from each item's first box."""
        extents = cls()
        for item in items:
            box = item_box(item, doc)
            if box is None:
                continue
            extents.top[box.page] = max(extents.top.get(box.page, box.top), box.top)
            extents.bottom[box.page] = min(extents.bottom.get(box.page, box.bottom), box.bottom)
        return extents


def distance(paragraph: PageBox, table_top: PageBox, table_bottom: PageBox, extents: PageExtents) -> float | None:
    """Points between a paragraph and the table, across at most one page break; None if farther."""
    if paragraph.page == table_top.page and paragraph.bottom >= table_top.top - 1e-6:
        return paragraph.bottom - table_top.top
    if paragraph.page == table_bottom.page and paragraph.top <= table_bottom.bottom + 1e-6:
        return table_bottom.bottom - paragraph.top
    if paragraph.page == table_top.page - 1:  # above, on the previous page
        return (paragraph.bottom - extents.bottom.get(paragraph.page, paragraph.bottom)) + (
            extents.top.get(table_top.page, table_top.top) - table_top.top
        )
    if paragraph.page == table_bottom.page + 1:  # below, on the next page
        return (extents.top.get(paragraph.page, paragraph.top) - paragraph.top) + (
            table_bottom.bottom - extents.bottom.get(table_bottom.page, table_bottom.bottom)
        )
    if paragraph.page in (table_top.page, table_bottom.page):
        return 0.0  # beside the table (another column): as close as it gets
    return None


@dataclass
class ContextChoice:
    before: list[TextItem]
    after: list[TextItem]


def collect_context(
    items: list[DocItem],
    first: int,
    last: int,
    table_terms: frozenset[str],
    extents: PageExtents,
    skip_refs: set[str],
    bbox_threshold: float = DEFAULT_BBOX_THRESHOLD,
    sim_threshold: float = DEFAULT_SIM_THRESHOLD,
    max_paragraphs: int = MAX_CONTEXT_PARAGRAPHS,
    table_label: str | None = None,
    doc: DoclingDocument | None = None,
) -> ContextChoice:
    """Context paragraphs for the table(s) at reading-order positions ``first``..``last`` of ``items``.

    ``skip_refs`` are items that belong to the table (captions, footnotes) and are stepped over.
    When the table is numbered (``table_label``, e.g. "3"), a paragraph that names other tables but not
    this one ("see Table 2") explains those and is passed over. Paragraphs come back in reading order.
    """
    table_top = item_box(items[first], doc)
    last_boxes = item_boxes(items[last], doc)
    table_bottom = last_boxes[-1] if last_boxes else None  # a table may run over pages in one item
    if table_top is None or table_bottom is None:
        return ContextChoice(before=[], after=[])

    def walk(indices: range) -> list[TextItem]:
        chosen: list[TextItem] = []
        for i in indices:
            item = items[i]
            if item.self_ref in skip_refs or item.label == DocItemLabel.CAPTION:
                continue
            if item.label in STOP_LABELS or len(chosen) >= max_paragraphs:
                break
            if item.label not in CONTEXT_LABELS or not isinstance(item, TextItem):
                continue
            if len(item.text.strip()) < MIN_CONTEXT_CHARS:
                continue
            box = item_box(item, doc)
            if box is None:
                continue
            gap = distance(box, table_top, table_bottom, extents)
            if gap is None or gap > bbox_threshold:
                break
            if table_label is not None:
                mentioned = referenced_tables(item.text)
                if mentioned and table_label not in mentioned:
                    continue
            if cosine(similarity_terms(item.text), table_terms) >= sim_threshold:
                chosen.append(item)
        return chosen

    before = walk(range(first - 1, -1, -1))
    before.reverse()
    after = walk(range(last + 1, len(items)))
    return ContextChoice(before=before, after=after)
