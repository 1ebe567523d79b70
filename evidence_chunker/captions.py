"""Table captions: the parser's link (``direct``), or one inferred from caption-like text nearby.

Inference lives here, once, for every parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docling_core.types.doc import DocItem, DocItemLabel, DoclingDocument, TableItem

from .geometry import item_box, vertical_gap

#: A caption is inferred only from text this close to the table (points, same page).
CAPTION_MAX_GAP = 60.0
#: Caption-like text longer than this is a paragraph that happens to start with "Table".
CAPTION_MAX_CHARS = 300

#: Table captions in English and Korean: "Table 3:", "TABLE 3.", "Tab. 2", "Exhibit 4", "표 2.",
#: "<표 1>", "[표 4]", "(표 5)", "〈표 1〉", "Table A-1".
TABLE_CAPTION = re.compile(
    r"""^\s*(
        (table|tab\.|exhibit|schedule)\s*[A-Z]?[-.]?\d+([.\-]\d+)*[a-z]?\s*([:.\-–—)]|\s)
      | [<〈《\[(（【]\s*표\s*[A-Z]?[-.]?\d+([.\-]\d+)*\s*[>〉》\])）】]
      | 표\s*[A-Z]?[-.]?\d+([.\-]\d+)*\s*([:.\-–—)]|\s)
    )""",
    re.IGNORECASE | re.VERBOSE,
)
#: Figure captions: never a table's caption.
#: "Figure 1:", "Fig. 2", "Fig 3", "Figure: …", "그림 1", "<그림 2>", "Chart 4" — but not "Figures in millions".
FIGURE_CAPTION = re.compile(
    r"^\s*[<〈\[(]?\s*(fig\.|fig\b|figure\b|그림|chart\s*\d|도표\s*\d)", re.IGNORECASE
)


#: A mention of a numbered table inside running text: "Table 3", "table 2-1", "표 3", "<표 4>", "[표 2]".
TABLE_REFERENCE = re.compile(
    r"(?:\b(?:table|tab\.)\s*|[<〈《\[(（【]?\s*표\s*)([A-Z]?\d+(?:[.\-]\d+)*)(?![\d])", re.IGNORECASE
)


def table_label(caption: str | None) -> str | None:
    """The number a table caption gives its table ("3" for "Table 3:" or "<표 3>"), if any."""
    if not caption or not is_table_caption(caption):
        return None
    match = TABLE_REFERENCE.search(caption)
    return match.group(1).upper() if match else None


def referenced_tables(text: str) -> set[str]:
    """Numbers of the tables a paragraph mentions ("Table 3 shows ..." → {"3"})."""
    return {m.group(1).upper() for m in TABLE_REFERENCE.finditer(text)}


@dataclass(frozen=True)
class Caption:
    text: str | None
    confidence: str
    ref: str | None = None


def is_table_caption(text: str) -> bool:
    """True for text that reads like a table caption in English or Korean."""
    return bool(TABLE_CAPTION.match(text)) and len(text) <= CAPTION_MAX_CHARS


def is_figure_caption(text: str) -> bool:
    return bool(FIGURE_CAPTION.match(text))


def direct_caption(doc: DoclingDocument, table: TableItem) -> Caption | None:
    """The caption the parser linked to the table, if any."""
    if not table.captions:
        return None
    text = " ".join(table.caption_text(doc).split())
    if not text:
        return None
    return Caption(text=text, confidence="direct", ref=table.captions[0].cref)


def infer_caption(table: TableItem, neighbours: list[DocItem], taken: set[str],
                  doc: DoclingDocument | None = None) -> Caption | None:
    """The nearest table-caption-like text item above (preferred) or below the table, same page.

    ``neighbours`` are the text items around the table in reading order; ``taken`` holds refs of
    captions already given to other tables.
    """
    box = item_box(table, doc)
    if box is None:
        return None
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
        rank = (gap, 1 if below else 0, item)
        if best is None or rank[:2] < best[:2]:
            best = rank
    if best is None:
        return None
    item = best[2]
    return Caption(text=" ".join(item.text.split()), confidence="inferred", ref=item.self_ref)
