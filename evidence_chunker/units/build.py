"""From a ParsedDoc's DoclingDocument to Evidence Units (before splitting).

The steps read as a sequence: find tables in reading order, join tables continued over a page break,
decide each table's structure, attach its caption and context, flatten its rows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from docling_core.types.doc import ContentLayer, DocItem, DocItemLabel, DoclingDocument, TableData, TableItem, TextItem

from .captions import Caption, direct_caption, infer_caption
from .context import (
    DEFAULT_BBOX_THRESHOLD,
    DEFAULT_SIM_THRESHOLD,
    MAX_CONTEXT_PARAGRAPHS,
    ContextChoice,
    PageExtents,
    collect_context,
    similarity_terms,
)
from .geometry import bottom_left_cells, item_box, item_boxes, normalise
from ..parsing.parsed import ParsedDoc
from semantic_json.rules.patterns import is_figure_caption, strip_unit, table_label
from .tables import (
    UNIT_SCAN_ROWS,
    TableLayout,
    analyse_table,
    flatten_rows,
    grid_rows,
    header_blocks,
    header_lines,
    table_abstract,
)
from .table_data import append_rows, cut_rows, plain_table_data
from .table_render import render_html, render_markdown
from .titles import SOURCE_CAPTION, SOURCE_DIRECT, SOURCE_RUNNING_TITLE, SOURCE_TITLE_BLOCK, find_period, table_title
from .evidence_unit import EvidenceUnit, PageBox

#: Reading-order positions searched on each side of a table for a caption to infer.
CAPTION_SEARCH_WINDOW = 8
#: Rows of the table used to judge a paragraph's similarity to it.
SIMILARITY_ROWS = 30
#: Pages with nothing in the body (a blank page left by the page layout, its folio alone) that a table
#: may run on over: a statement's last rows printed two pages on still continue it.
CONTINUATION_BLANK_PAGES = 1


@dataclass
class BuildSettings:
    """The tunables of EU building, with their defaults in one place."""

    bbox_threshold: float = DEFAULT_BBOX_THRESHOLD
    sim_threshold: float = DEFAULT_SIM_THRESHOLD
    max_context_paragraphs: int = MAX_CONTEXT_PARAGRAPHS


@dataclass
class TableGroup:
    """One logical table: one TableItem, or several when it runs on over page breaks."""

    parts: list[TableItem]
    first: int  # reading-order position of the first part
    last: int  # reading-order position of the last part
    layout: TableLayout
    data: TableData  # all parts joined
    part_body_rows: list[int]  # body rows each part contributes, in order


def reading_order(doc: DoclingDocument) -> list[DocItem]:
    """The body's items in reading order (furniture such as page headers excluded).

    Tables that a parser nested inside a picture are kept; other items inside pictures (chart labels,
    legends) are not, so they never pass for explanatory paragraphs.
    """
    in_pictures: set[str] = set()
    for picture in doc.pictures:
        for item, _level in doc.iterate_items(root=picture, traverse_pictures=True):
            if item is not picture:
                in_pictures.add(item.self_ref)
    return [
        item
        for item, _level in doc.iterate_items(with_groups=False, traverse_pictures=True)
        if isinstance(item, DocItem) and (item.self_ref not in in_pictures or isinstance(item, TableItem))
    ]


def continues(prev: TableGroup, prev_header: list[str], table: TableItem, layout: TableLayout,
              between: list[DocItem], doc: DoclingDocument) -> bool:
    """True when ``table`` carries on ``prev`` after a page break: next page (or the one after up to
    CONTINUATION_BLANK_PAGES pages with no body item, which ``between`` being empty says), same columns, no
    caption, nothing between them, and either no header row or the same header repeated."""
    if between or table.captions:
        return False
    last_box, box = item_box(prev.parts[-1], doc), item_box(table, doc)
    if last_box is None or box is None or not 0 < box.page - last_box.page <= 1 + CONTINUATION_BLANK_PAGES:
        return False
    if layout.num_cols != prev.layout.num_cols:
        return False
    head = header_lines(layout)
    return not head or head == prev_header


def group_tables(items: list[DocItem], doc: DoclingDocument) -> list[TableGroup]:
    """Tables in reading order, with page-break continuations joined into one group."""
    groups: list[TableGroup] = []
    headers: list[list[str]] = []
    for index, item in enumerate(items):
        if not isinstance(item, TableItem) or item.data is None or item.data.num_rows == 0:
            continue
        data = bottom_left_cells(plain_table_data(item.data, doc), item, doc)
        contents = item.label == DocItemLabel.DOCUMENT_INDEX
        layout = analyse_table(data, contents)
        if groups:
            prev = groups[-1]
            between = items[prev.last + 1 : index]
            if continues(prev, headers[-1], item, layout, between, doc):
                data = append_rows(prev.data, data, skip_rows=layout.header_rows)
                prev.parts.append(item)
                prev.last = index
                prev.data = data
                prev.layout = analyse_table(data, contents)
                prev.part_body_rows.append(layout.num_rows - layout.header_rows)
                continue
        groups.append(
            TableGroup(parts=[item], first=index, last=index, layout=layout, data=data,
                       part_body_rows=[layout.num_rows - layout.header_rows])
        )
        headers.append(header_lines(layout))
    return groups


def row_pages(group: TableGroup, doc: DoclingDocument) -> list[int]:
    """The page of each body row of the joined table."""
    pages: list[int] = []
    for part, count in zip(group.parts, group.part_body_rows):
        box = item_box(part, doc)
        pages.extend([box.page if box else 1] * max(count, 0))
    body = group.layout.num_rows - group.layout.header_rows
    if len(pages) != body:  # header detection of the joined table differs from the first part's
        pages = (pages + [pages[-1] if pages else 1] * body)[:body]
    return pages


def build_units(parsed: ParsedDoc, doc_id: str, settings: BuildSettings | None = None) -> list[EvidenceUnit]:
    """Evidence Units for every table of ``parsed`` in reading order (not yet split)."""
    settings = settings or BuildSettings()
    doc = parsed.document
    items = reading_order(doc)
    extents = PageExtents.of(items, doc)
    groups = group_tables(items, doc)
    taken: set[str] = set()
    per_page: dict[int, int] = {}
    units: list[EvidenceUnit] = []
    page_texts = page_text_items(doc)
    document_titles = {" ".join(it.text.split()) for it in items if it.label == DocItemLabel.TITLE}
    for group in groups:
        first_table = group.parts[0]
        headings = headings_above(items, group.first)
        first_page = item_box(first_table, doc)
        sections = [h for h in headings if h not in document_titles]  # a cover title names no table
        title = table_title(first_table, doc, sections, page_texts.get(first_page.page, []) if first_page else [])
        caption = direct_caption(doc, first_table)
        source = SOURCE_DIRECT
        if caption is None:
            window = items[max(group.first - CAPTION_SEARCH_WINDOW, 0) : group.last + CAPTION_SEARCH_WINDOW + 1]
            neighbours = [it for it in window if isinstance(it, TextItem)]
            tables = [it for it in window if isinstance(it, TableItem)]
            caption = infer_caption(first_table, neighbours, taken, doc, tables)
            source = SOURCE_CAPTION
        if caption is None:  # no numbered caption: the title printed above, the running title, the heading
            caption = Caption(title.text, "inferred" if title.text else "none")
            source = title.source
        if caption.ref:
            taken.add(caption.ref)
        skip = {ref.cref for part in group.parts for ref in (*part.captions, *part.footnotes)}
        if caption.ref:
            skip.add(caption.ref)
        rows = flatten_rows(group.layout)  # one per body row, "" for an empty one
        filled = [row for row in rows if row]
        heads = header_lines(group.layout)
        terms = similarity_terms(" ".join([caption.text or "", *heads, *filled[:SIMILARITY_ROWS]]))
        context = collect_context(
            items, group.first, group.last, terms, extents, skip,
            bbox_threshold=settings.bbox_threshold,
            sim_threshold=settings.sim_threshold,
            max_paragraphs=settings.max_context_paragraphs,
            table_label=table_label(caption.text),
            doc=doc,
        )
        if source in (SOURCE_TITLE_BLOCK, SOURCE_RUNNING_TITLE) and first_page is not None:
            # A titled statement opens here: the end of the previous page explains something else, and
            # the title lines are the caption, not context.
            own = set(title.refs) if source == SOURCE_TITLE_BLOCK else set()
            context = ContextChoice(
                before=[p for p in context.before
                        if _page_of(p, doc, first_page.page) == first_page.page and p.self_ref not in own],
                after=context.after,
            )
        footnotes = [" ".join(ref.resolve(doc).text.split()) for part in group.parts for ref in part.footnotes
                     if isinstance(ref.resolve(doc), TextItem)]
        boxes = [box for part in group.parts for box in item_boxes(part, doc)]
        first_box = boxes[0] if boxes else None
        page_no = first_box.page if first_box else 1
        pages_of_rows = row_pages(group, doc)
        blocks = table_blocks(group)
        for k, (data, layout, body_from, body_to) in enumerate(blocks):
            # a grid that stacks blocks of measures gives one unit per block, each under its own headings and
            # the table's title; the context above goes with the first, the context below with the last
            before = context.before if k == 0 else []
            after = context.after if k == len(blocks) - 1 else []
            rows = flatten_rows(layout) if len(blocks) > 1 else rows
            filled = [row for row in rows if row]
            unit = title.unit or layout.unit or group.layout.unit
            period = title.period or _header_period(layout)
            per_page[page_no] = per_page.get(page_no, 0) + 1
            before_pages = [_page_of(p, doc, page_no) for p in before]
            after_pages = [_page_of(p, doc, page_no) for p in after]
            block_pages = pages_of_rows[body_from:body_to] or [page_no]
            block_pages = (block_pages + block_pages[-1:] * len(rows))[:len(rows)]  # one page per flattened row
            units.append(
                EvidenceUnit(
                    eu_id=f"{doc_id}-p{page_no}-{per_page[page_no]}",
                    doc_id=doc_id,
                    page_no=page_no,
                    page_span={page_no, *(b.page for b in boxes), *before_pages, *after_pages},
                    caption_text=caption.text,
                    caption_confidence=caption.confidence,  # type: ignore[arg-type]
                    caption_source=source,
                    unit=unit,
                    period=period,
                    table_html=render_html(data),
                    table_markdown=render_markdown(data),
                    context_before=[" ".join(p.text.split()) for p in before],
                    context_after=[" ".join(p.text.split()) for p in after],
                    context_before_pages=before_pages,
                    context_after_pages=after_pages,
                    flattened_rows=rows,
                    grid_rows=grid_rows(layout),
                    row_pages=block_pages,
                    table_abstract=table_abstract(
                        _safe(caption.text), layout, len(filled), unit=unit, period=period, entity=title.entity,
                        headings=section_path(headings, caption.text),
                    ),
                    is_contents=any(part.label == DocItemLabel.DOCUMENT_INDEX for part in group.parts),
                    headings=headings,
                    bbox=normalise(first_box, doc) if first_box else (0.0, 0.0, 0.0, 0.0),
                    header_rows=header_lines(layout),
                    header_row_count=layout.header_rows,
                    footnotes=footnotes if k == len(blocks) - 1 else [],
                    page_boxes=list(boxes),
                    source_refs=[part.self_ref for part in group.parts],
                    context_refs=[p.self_ref for p in (*before, *after)],
                    title_refs=list(title.refs),
                    context_before_boxes=_boxes_of(before, doc),
                    context_after_boxes=_boxes_of(after, doc),
                    table_data=data.model_dump(mode="json"),
                )
            )
    return units


def table_blocks(group: TableGroup) -> list[tuple[TableData, TableLayout, int, int]]:
    """The table of ``group`` as the blocks its headings head (:func:`.tables.header_blocks`):
    ``(data, layout, body_from, body_to)`` per block, the body rows it holds counted in the whole table's
    body (a heading row inside the grid belongs to no block's body). One block, the table itself, when its
    grid stacks none."""
    layout = group.layout
    body = layout.num_rows - layout.header_rows
    blocks = header_blocks(layout)
    if len(blocks) == 1:
        return [(group.data, layout, 0, body)]
    out = []
    for start, heads, end in blocks:
        data = cut_rows(group.data, start, end, heads)
        kept = _carried_levels(layout, start, heads) if start else 0
        if kept:
            data = append_rows(cut_rows(group.data, 0, kept, kept), data, 0)
        out.append((data, analyse_table(data), start + heads - layout.header_rows, end - layout.header_rows))
    return out


#: A year in a heading ("2020", "2021 vs. 2020", "December 31, 2019"): a period, not a measure.
_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")


def _carried_levels(layout: TableLayout, start: int, heads: int) -> int:
    """How many of the table's upper header rows head the block whose ``heads`` heading rows start at grid
    row ``start`` too: all those above its lowest ``heads`` rows, when the block's rows label the same
    columns alike as those lowest rows do (Corning's "2020 2020 2019 2019 2020 vs. 2019" printed where
    "2021 2021 2020 2020 2021 vs. 2020" stood under "Income (loss) before tax | Net income (loss) | ...":
    new periods of the same measures: a year where those rows print one, and none where they print none);
    0 when the block prints headings of its own at every level."""
    top = layout.header_rows
    if heads >= top:
        return 0
    cols = range(max(layout.row_header_cols, 1), layout.num_cols)
    for b, h in zip(range(start, start + heads), range(top - heads, top)):
        block, head = layout.grid[b], layout.grid[h]
        if any(bool(block[c]) != bool(head[c]) or bool(_YEAR.search(block[c])) != bool(_YEAR.search(head[c]))
               for c in cols) or any(
            (block[c] == block[c + 1]) != (head[c] == head[c + 1]) for c in cols if c + 1 < layout.num_cols
        ):
            return 0
    return top - heads


def page_text_items(doc: DoclingDocument) -> dict[int, list[tuple[PageBox, TextItem]]]:
    """Every text item with a box, body and furniture (running titles), by page."""
    by_page: dict[int, list[tuple[PageBox, TextItem]]] = {}
    for item, _level in doc.iterate_items(with_groups=False, included_content_layers={ContentLayer.BODY, ContentLayer.FURNITURE}):
        if not isinstance(item, TextItem) or not item.text.strip():
            continue
        box = item_box(item, doc)
        if box is not None:
            by_page.setdefault(box.page, []).append((box, item))
    return by_page


#: Headings named in a table's abstract: the innermost ones (the outer ones are the report's cover lines).
ABSTRACT_HEADINGS = 2


def section_path(headings: list[str], caption: str | None) -> list[str]:
    """The innermost headings a table sits under, without the one that is its own title."""
    own = strip_unit(caption).casefold() if caption else None
    path = [h for h in headings if strip_unit(h) and strip_unit(h).casefold() != own]
    return path[-ABSTRACT_HEADINGS:]


def _header_period(layout: TableLayout) -> str | None:
    """The periods stated in the column headers ("Year ended December 31,"), when the title gave none:
    each once, in reading order ("Three Months Ended December 31; Six Months Ended December 31")."""
    periods: dict[str, None] = {}
    for row in layout.grid[: max(layout.header_rows, UNIT_SCAN_ROWS)]:
        for text in row:
            period = find_period(text)
            if period:
                periods[period] = None
    return "; ".join(periods) or None


def _page_of(item: DocItem, doc: DoclingDocument, default: int) -> int:
    box = item_box(item, doc)
    return box.page if box else default


def _boxes_of(items: list[DocItem], doc: DoclingDocument) -> list[list[PageBox]]:
    """The boxes of each item, one list per item."""
    return [item_boxes(item, doc) for item in items]


def _safe(caption: str | None) -> str | None:
    """A caption fit to name the table in its abstract (never a figure's)."""
    return None if caption is None or is_figure_caption(caption) else caption


def headings_above(items: list[DocItem], position: int) -> list[str]:
    """The headings in force at ``position``, outermost first: the nearest section header, then each
    enclosing one (a lower level), then the title."""
    chain: list[str] = []
    innermost_level: int | None = None
    for item in reversed(items[:position]):
        if item.label == DocItemLabel.TITLE:
            chain.append(item.text)
            break
        if item.label == DocItemLabel.SECTION_HEADER:
            level = getattr(item, "level", 1) or 1
            if innermost_level is None or level < innermost_level:
                chain.append(item.text)
                innermost_level = level
    return [" ".join(text.split()) for text in reversed(chain)]
