"""LiteParser: a model-free PDF parser that builds a docling-core DoclingDocument.

Glyphs and vector rules come from pdfium (pypdfium2), which reads a page an order of magnitude faster
than pdfminer. Tables are found three ways (:mod:`.lite_tables`): ruled grids from line intersections
(:mod:`.lite_ruled`), borderless tables from aligned text columns (:mod:`.lite_borderless`), tables of
contents from dot leaders (:mod:`.lite_toc`). The remaining text
is ordered by a recursive XY-cut and split into paragraphs, headings, captions, list items and page
furniture (:mod:`.lite_layout`). Every item carries page provenance with a BOTTOMLEFT box in points.

Born-digital PDFs only: a PDF without a text layer raises :class:`ImageOnlyPdfError`.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

import numpy as np
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
from docling_core.types.doc.document import ContentLayer

from ..errors import CorruptPdfError, ImageOnlyPdfError
from ..patterns import ENUMERATOR_RE, split_marker
from .lite_layout import (
    Block,
    BodyStyle,
    PageRules,
    Paragraph,
    body_style,
    build_paragraphs,
    heading_levels,
    ordered_lines,
    reading_order,
)
from .lite_furniture import find_furniture
from .lite_graphics import extract_graphics
from .lite_pdfium import PageFrame, extract_chars
from .lite_settings import LiteSettings
from .lite_spacing import join_letter_fragments
from .lite_zones import page_zones
from .lite_borderless import find_aligned_tables
from .lite_column_groups import span_group_headings
from .lite_ruled import find_ruled_tables
from .lite_ruled_headings import (
    is_heading_grid, join_continuations, repeats_labels, runs_between_grids, stack_heading_grids,
    take_headings_above, tells_columns_apart,
)
from .lite_tables import Edge, FoundTable, join_value_mark_columns, prepare_edges
from .lite_text import (
    Glyphs, Line, Phrase, Word, attach_list_markers, group_lines, phrases_from_words, split_phrases, words_from_glyphs,
)
from .lite_toc import find_index_tables, is_page_index
from .parsed import ParsedDoc
from .pdf_file import DEFAULT_MAX_PAGES, DEFAULT_MAX_PDF_BYTES, inspect_pdf

__all__ = ["LiteParser", "LiteSettings", "PageBatch"]

# --------------------------------------------------------------------------------------------
# Orientation: analysing a page whose text runs sideways
# --------------------------------------------------------------------------------------------


def _to_upright(box: tuple, orientation: int, width: float, height: float) -> tuple:
    """A top-down box seen in the frame where text of ``orientation`` reads left to right."""
    x0, top, x1, bottom = box
    if orientation == 90:  # text runs upwards
        return height - bottom, x0, height - top, x1
    if orientation == 270:  # text runs downwards
        return top, width - x1, bottom, width - x0
    if orientation == 180:
        return width - x1, height - bottom, width - x0, height - top
    return box


def _from_upright(box: tuple, orientation: int, width: float, height: float) -> tuple:
    """Inverse of :func:`_to_upright` (``width``/``height`` are the original frame's)."""
    x0, top, x1, bottom = box
    if orientation == 90:
        return top, height - x1, bottom, height - x0
    if orientation == 270:
        return width - bottom, x0, width - top, x1
    if orientation == 180:
        return width - x1, height - bottom, width - x0, height - top
    return box


@dataclass
class PageContent:
    """What one page offers: size in points (as displayed), glyphs and rules in the top-down frame."""

    number: int
    width: float
    height: float
    glyphs: Glyphs | None  # None once the page is prepared (its words hold what is needed)
    orientation: np.ndarray | None  # of each glyph: 0, 90, 180, 270 degrees, counter-clockwise
    edges: list[Edge]
    figures: list[tuple[float, float, float, float]]  # boxes of curves, polygons and images


def read_page(page: Any, number: int, settings: LiteSettings) -> PageContent:
    """Glyphs, rules and figures of a pypdfium2 page (1-based ``number``); closes the page."""
    frame = PageFrame(tuple(page.get_cropbox()), page.get_rotation())
    try:
        glyphs, orientation, text_objects = extract_chars(page, frame)
        edges, figures = extract_graphics(page, frame, settings, text_objects) if len(glyphs) else ([], [])
    finally:
        page.close()
    return PageContent(number, frame.width, frame.height, glyphs, orientation, edges, figures)


@dataclass
class _PageText:
    """A page prepared for analysis in the frame where its main text is upright."""

    content: PageContent
    orientation: int
    width: float  # of the analysis frame
    height: float
    phrases: list[Phrase]
    edges: list[Edge]
    figures: list[tuple]
    lines: list[Line]

    def to_page(self, box: tuple) -> tuple:
        """A box of the analysis frame back on the displayed page (top-down)."""
        return _from_upright(box, self.orientation, self.content.width, self.content.height)


def _upright_columns(glyphs: Glyphs, orientation: int, width: float, height: float) -> Glyphs:
    """:func:`_to_upright` over every glyph box."""
    x0, top, x1, bottom = _to_upright((glyphs.x0, glyphs.top, glyphs.x1, glyphs.bottom), orientation, width, height)
    return replace(glyphs, x0=x0, top=top, x1=x1, bottom=bottom)


def _prepare_page(content: PageContent, settings: LiteSettings) -> _PageText:
    """Phrases and rules of a page in its main text orientation; sideways text keeps its own reading."""
    glyphs, orientation = content.glyphs, content.orientation
    turns, first, counts = np.unique(orientation, return_index=True, return_counts=True)
    # the most frequent orientation; of equally frequent ones the first printed
    main = int(turns[min(range(len(turns)), key=lambda k: (-counts[k], first[k]))]) if len(turns) else 0
    W, H = content.width, content.height
    fw, fh = (H, W) if main in (90, 270) else (W, H)
    if main:  # upright pages (nearly all) are already in the analysis frame
        glyphs = _upright_columns(glyphs, main, W, H)
    relative = (orientation - main) % 360
    phrases: list[Phrase] = []
    for rel in sorted(np.unique(relative).tolist(), key=lambda r: first[turns == (r + main) % 360][0]):
        group = glyphs if rel == 0 and len(turns) == 1 else glyphs.take(np.flatnonzero(relative == rel))
        if rel:
            group = _upright_columns(group, rel, fw, fh)
            group = group.take(np.lexsort((group.x0, np.rint(group.top))))
        words = words_from_glyphs(group, settings)
        group_phrases = split_phrases(phrases_from_words(words, settings), settings)
        if rel:
            for p in group_phrases:
                for w in p.words:
                    w.x0, w.top, w.x1, w.bottom = _from_upright((w.x0, w.top, w.x1, w.bottom), rel, fw, fh)
                    w.orientation = rel
                p.refresh()
        else:
            group_phrases = attach_list_markers(group_phrases, settings)
        phrases.extend(group_phrases)
    edges = [Edge(*_to_upright(tuple(e), main, W, H)) for e in content.edges]
    figures = [_to_upright(f, main, W, H) for f in content.figures]
    # the glyphs, rules and figures now live on as words, and as rules and figures in the analysis
    # frame: the page's raw content need not outlive this call
    content.glyphs, content.orientation, content.edges, content.figures = None, None, [], []
    return _PageText(content, main, fw, fh, phrases, edges, figures, group_lines(phrases, settings))


# --------------------------------------------------------------------------------------------
# Pages read in one process, analysed in another
# --------------------------------------------------------------------------------------------


class PageBatch:
    """Consecutive pages of a PDF read and prepared for analysis (:meth:`LiteParser.read_pages`).

    In the process that read them they are kept as they are; pickled (sent to the process that
    analyses the whole document) they travel in columns, which costs a small share of reading them.
    """

    def __init__(self, first: int, pages: list[_PageText] | None, has_text: bool, columns: "_PageColumns | None" = None):
        self.first = first  # 0-based index of the first page
        self.has_text = has_text
        self._pages = pages
        self._columns = columns

    def __len__(self) -> int:
        return len(self._pages) if self._pages is not None else len(self._columns.pages)

    def prepared(self) -> list[_PageText]:
        """The pages, as :func:`_prepare_page` made them."""
        if self._pages is None:
            # a burst of small objects that all live on: the cyclic garbage collector, run on every few
            # hundred of them, would only walk them again and again (it would triple the cost)
            enabled = gc.isenabled()
            gc.disable()
            try:
                self._pages = self._columns.unpack()
            finally:
                if enabled:
                    gc.enable()
            self._columns = None
        return self._pages

    def __reduce__(self):
        columns = self._columns if self._columns is not None else _PageColumns.pack(self._pages)
        return PageBatch, (self.first, None, self.has_text, columns)


@dataclass
class _PageColumns:
    """Prepared pages in columns (NumPy arrays and one string): words, phrases, lines and rules are
    numbered across the pages; ``*_start`` arrays hold where each page's (each phrase's, each line's)
    run begins, with one closing entry."""

    pages: list[tuple[int, float, float, int, float, float]]  # number, width, height, orientation, frame w, h
    figures: list[list[tuple]]
    fonts: list[str]
    text: str  # every word's text, one after the other
    text_start: np.ndarray
    words: np.ndarray  # x0, top, x1, bottom, size per word
    word_style: np.ndarray  # bold, font, orientation per word
    phrase_start: np.ndarray  # first word of each phrase
    phrase_box: np.ndarray
    page_phrase_start: np.ndarray
    line_phrases: np.ndarray  # phrase numbers of each line, in the line's order
    line_start: np.ndarray
    page_line_start: np.ndarray
    edges: np.ndarray
    page_edge_start: np.ndarray

    @classmethod
    def pack(cls, pages: Sequence[_PageText]) -> "_PageColumns":
        """The columns of some prepared pages."""
        fonts: dict[str, int] = {}
        texts: list[str] = []
        words: list[tuple] = []
        styles: list[tuple] = []
        phrase_start, phrase_box, page_phrase_start = [], [], [0]
        line_phrases, line_start, page_line_start = [], [0], [0]
        edges, page_edge_start = [], [0]
        for page in pages:
            number = {id(p): k for k, p in enumerate(page.phrases, start=len(phrase_box))}
            for phrase in page.phrases:
                phrase_start.append(len(words))
                phrase_box.append((phrase.x0, phrase.top, phrase.x1, phrase.bottom))
                for w in phrase.words:
                    texts.append(w.text)
                    words.append((w.x0, w.top, w.x1, w.bottom, w.size))
                    styles.append((w.bold, fonts.setdefault(w.font, len(fonts)), w.orientation))
            page_phrase_start.append(len(phrase_box))
            for line in page.lines:
                line_phrases.extend(number[id(p)] for p in line.phrases)
                line_start.append(len(line_phrases))
            page_line_start.append(len(line_start) - 1)
            edges.extend(page.edges)
            page_edge_start.append(len(edges))
        phrase_start.append(len(words))
        return cls(
            pages=[(p.content.number, p.content.width, p.content.height, p.orientation, p.width, p.height) for p in pages],
            figures=[p.figures for p in pages], fonts=list(fonts), text="".join(texts),
            text_start=np.cumsum([0] + [len(t) for t in texts]), words=np.array(words, dtype=float).reshape(-1, 5),
            word_style=np.array(styles, dtype=np.int64).reshape(-1, 3), phrase_start=np.array(phrase_start),
            phrase_box=np.array(phrase_box, dtype=float).reshape(-1, 4), page_phrase_start=np.array(page_phrase_start),
            line_phrases=np.array(line_phrases, dtype=np.int64), line_start=np.array(line_start),
            page_line_start=np.array(page_line_start), edges=np.array(edges, dtype=float).reshape(-1, 4),
            page_edge_start=np.array(page_edge_start),
        )

    def unpack(self) -> list[_PageText]:
        """The prepared pages again, as :func:`_prepare_page` made them."""
        text, text_start = self.text, self.text_start.tolist()
        fonts = self.fonts
        words = [
            Word(text[a:b], x0, top, x1, bottom, size, bool(bold), fonts[font], orientation)
            for a, b, (x0, top, x1, bottom, size), (bold, font, orientation) in zip(
                text_start, text_start[1:], self.words.tolist(), self.word_style.tolist()
            )
        ]
        starts = self.phrase_start.tolist()
        phrases = []
        for a, b, (x0, top, x1, bottom) in zip(starts, starts[1:], self.phrase_box.tolist()):
            phrase = Phrase(words[a:b])
            phrase.x0, phrase.top, phrase.x1, phrase.bottom = x0, top, x1, bottom
            phrases.append(phrase)
        members, line_start = self.line_phrases.tolist(), self.line_start.tolist()
        lines = [Line([phrases[k] for k in members[a:b]]) for a, b in zip(line_start, line_start[1:])]
        edges = [Edge(*e) for e in self.edges.tolist()]
        out = []
        bounds = zip(
            self.pages, self.figures, _runs(self.page_phrase_start), _runs(self.page_line_start), _runs(self.page_edge_start)
        )
        for (number, width, height, orientation, fw, fh), figures, (pa, pb), (la, lb), (ea, eb) in bounds:
            content = PageContent(number, width, height, None, None, [], [])
            out.append(_PageText(content, orientation, fw, fh, phrases[pa:pb], edges[ea:eb], figures, lines[la:lb]))
        return out


def _runs(starts: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run given the starts and one closing entry."""
    values = starts.tolist()
    return list(zip(values, values[1:]))


# --------------------------------------------------------------------------------------------
# The parser
# --------------------------------------------------------------------------------------------


@dataclass
class _PageResult:
    """Analysis of one page: its items in reading order."""

    page: _PageText
    furniture: list[tuple[str, Line]]
    items: list[Paragraph | FoundTable]


class LiteParser:
    """Model-free parser for born-digital PDFs; ``parse`` returns a ParsedDoc with ``parser="lite"``.

    ``settings`` is a :class:`LiteSettings` or a dict of field overrides; ``max_bytes``/``max_pages``
    are the pre-flight limits of :func:`inspect_pdf`.
    """

    name = "lite"

    def __init__(
        self,
        max_bytes: int = DEFAULT_MAX_PDF_BYTES,
        max_pages: int = DEFAULT_MAX_PAGES,
        settings: LiteSettings | Mapping[str, Any] | None = None,
    ):
        self.max_bytes = max_bytes
        self.max_pages = max_pages
        self.settings = LiteSettings.resolve(settings)

    def parse(self, path: str | Path, pages: Sequence[PageBatch] | None = None) -> ParsedDoc:
        """Parse a PDF into a DoclingDocument; raises a PdfError subclass when the file is unusable.

        Pages are read and prepared one at a time: a page's glyphs are dropped once its words and
        phrases are made, so memory grows with the document's words, not its glyphs. ``pages``, when
        given, are every page of the PDF already read by :meth:`read_pages` (in other processes,
        say), in order; only the analysis of the whole document is left to do here.
        """
        info = inspect_pdf(path, max_bytes=self.max_bytes, max_pages=self.max_pages)
        if pages is None:
            pages = [self.read_pages(info.path)]
        covered = [k for batch in pages for k in range(batch.first, batch.first + len(batch))]
        if covered != list(range(info.page_count)):
            raise ValueError(f"{info.path}: page batches cover pages {covered[:1]}..{covered[-1:]} in {len(pages)} "
                             f"batches, not the PDF's {info.page_count} pages in order")
        if not any(batch.has_text for batch in pages):
            raise ImageOnlyPdfError(info.path)
        document = self.build_document([page for batch in pages for page in batch.prepared()], name=info.path.stem)
        return ParsedDoc(
            document=document, path=info.path, sha256=info.sha256, parser=self.name, page_count=info.page_count
        )

    def read_pages(self, path: str | Path, start: int = 0, stop: int | None = None) -> PageBatch:
        """Pages ``start`` to ``stop - 1`` (0-based; all by default) read and prepared for analysis:
        the part of parsing that runs page by page, so pages can be read in several processes."""
        import pypdfium2 as pdfium

        try:
            pdf = pdfium.PdfDocument(str(path))
        except pdfium.PdfiumError as exc:  # inspect_pdf reports unreadable files by kind before this
            raise CorruptPdfError(Path(path), str(exc)) from exc
        pages: list[_PageText] = []
        has_text = False
        try:
            for i in range(start, len(pdf) if stop is None else min(stop, len(pdf))):
                content = read_page(pdf[i], i + 1, self.settings)
                has_text = has_text or bool(len(content.glyphs))
                pages.append(_prepare_page(content, self.settings))
        finally:
            pdf.close()
        return PageBatch(start, pages, has_text)

    # ---- analysis ----------------------------------------------------------------------------

    def analyse(self, pages: list[_PageText]) -> list[_PageResult]:
        """Tables, furniture and paragraphs of every prepared page, in reading order."""
        settings = self.settings
        if settings.join_split_letters:  # before layout: titles, row labels and headers read whole words
            join_letter_fragments([page.phrases for page in pages], settings)
        body = body_style(p for page in pages for p in page.phrases)
        displayed = [_display_lines(page, settings) for page in pages]
        furniture = find_furniture(
            [lines for lines, _ in displayed], [p.content.height for p in pages], body.size, settings
        )
        results = []
        for page, (lines, originals), marks in zip(pages, displayed, furniture):
            furniture_lines = []
            skip: set[int] = set()
            for i, label in sorted(marks.items()):
                source = [originals[id(p)] for p in lines[i].phrases]
                furniture_lines.append((label, Line(source)))
                skip.update(id(p) for p in source)
            phrases = [p for p in page.phrases if id(p) not in skip]
            tables = self._find_tables(page, phrases)
            results.append(_PageResult(page, furniture_lines, self._order(phrases, tables, body, PageRules(page.edges))))
        cover = results[0].items if len(pages) >= settings.cover_min_pages and pages[0].content.number == 1 else []
        heading_levels([item for r in results for item in r.items if isinstance(item, Paragraph)],
                       [item for item in cover if isinstance(item, Paragraph)])
        return results

    def _find_tables(self, page: _PageText, phrases: list[Phrase]) -> list[FoundTable]:
        settings = self.settings
        hs, vs = prepare_edges(page.edges, settings)
        words = [w for p in phrases for w in p.words]
        tables = stack_heading_grids(find_ruled_tables(hs, vs, words, page.figures, page.width, settings))
        if tables:  # a statement's years printed as lines above its ruled body
            lines_outside = group_lines(_outside(phrases, tables), settings)
            for table in tables:
                if not tells_columns_apart(table) and not is_heading_grid(table):
                    take_headings_above(table, lines_outside, settings)
        body_size = body_style(phrases).size
        for zone in page_zones(_outside(phrases, tables), body_size, settings):
            lines = group_lines(zone, settings)
            index = find_index_tables(lines, settings)
            if index:
                tables += index
                lines = group_lines(_outside(zone, index), settings)
            if settings.borderless_tables:
                for run in runs_between_grids(lines, tables):
                    tables += find_aligned_tables(run, hs + vs, page.figures, settings)
        if settings.borderless_tables and any(is_heading_grid(t) for t in tables):  # drawn over aligned rows
            tables = stack_heading_grids(tables, group_lines(_outside(phrases, tables), settings))
        for table in tables:
            if table.kind == "index":
                continue
            join_value_mark_columns(table)
            if is_page_index(table):  # a table of contents without dot leaders ("Index to Financial Statements | Page")
                table.kind = "index"
        # a level of headings printed above a ruled grid whose own header row repeats its labels
        # ("2022 2021 2022 2021" under "Three Months Ended" and "Six Months Ended"), placed over the
        # columns as they stand once the sign columns are joined
        repeating = [t for t in tables if t.kind == "ruled" and repeats_labels(t)]
        if repeating:
            lines_outside = group_lines(_outside(phrases, tables), settings)
            for table in repeating:
                take_headings_above(table, lines_outside, settings)
        tables = join_continuations(tables, settings)
        for table in tables:
            if table.kind != "index":
                span_group_headings(table)
        return tables

    def _order(self, phrases: list[Phrase], tables: list[FoundTable], body: BodyStyle, rules: PageRules) -> list[Paragraph | FoundTable]:
        settings = self.settings
        blocks = [Block(t.x0, t.top, t.x1, t.bottom, table=i) for i, t in enumerate(tables)]
        blocks += [Block(p.x0, p.top, p.x1, p.bottom, phrase=p) for p in _outside(phrases, tables)]
        items: list[Paragraph | FoundTable] = []
        pending: list[Phrase] = []

        def flush() -> None:
            if pending:
                items.extend(build_paragraphs(ordered_lines(pending, settings), body, settings, rules))
                pending.clear()

        for block in reading_order(blocks, settings) if blocks else []:
            if block.table is not None:
                flush()
                items.append(tables[block.table])
            else:
                pending.append(block.phrase)
        flush()
        return items

    # ---- DoclingDocument ---------------------------------------------------------------------

    def build_document(self, pages: list[_PageText], name: str) -> DoclingDocument:
        """The DoclingDocument of prepared pages: pages with sizes, then items in reading order."""
        doc = DoclingDocument(name=name)
        for page in pages:
            doc.add_page(page_no=page.content.number, size=Size(width=page.content.width, height=page.content.height))
        for result in self.analyse(pages):
            page = result.page
            number = page.content.number
            for label, line in result.furniture:
                if label == "page_header":
                    text = line.text
                    doc.add_text(
                        label=DocItemLabel.PAGE_HEADER, text=text, prov=_prov(page, _line_box(line), number, text),
                        content_layer=ContentLayer.FURNITURE,
                    )
            list_group = None
            for item in result.items:
                if isinstance(item, FoundTable):
                    list_group = None
                    _add_table(doc, page, item, number)
                    continue
                text = item.text
                prov = _prov(page, item.box, number, text)
                if item.label == "list_item":
                    marker, body = split_marker(text)
                    if list_group is None:
                        list_group = doc.add_list_group()
                    doc.add_list_item(
                        text=body, enumerated=bool(ENUMERATOR_RE.match(marker)), marker=marker or None,
                        orig=text, prov=_prov(page, item.box, number, body), parent=list_group,
                    )
                    continue
                list_group = None
                if item.label == "section_header":
                    doc.add_heading(text=text, level=item.level, prov=prov)
                elif item.label == "caption":
                    doc.add_text(label=DocItemLabel.CAPTION, text=text, prov=prov)
                elif item.label == "footnote":
                    doc.add_text(label=DocItemLabel.FOOTNOTE, text=text, prov=prov)
                else:
                    doc.add_text(label=DocItemLabel.TEXT, text=text, prov=prov)
            for label, line in result.furniture:
                if label == "page_footer":
                    text = line.text
                    doc.add_text(
                        label=DocItemLabel.PAGE_FOOTER, text=text, prov=_prov(page, _line_box(line), number, text),
                        content_layer=ContentLayer.FURNITURE,
                    )
        return doc


def _display_lines(page: _PageText, settings: LiteSettings) -> tuple[list[Line], dict[int, Phrase]]:
    """Text lines as the page is displayed (where headers and footers are), with each proxy phrase's
    original: on a page analysed sideways the two frames differ."""
    if page.orientation == 0:
        return page.lines, {id(p): p for p in page.phrases}
    originals: dict[int, Phrase] = {}
    proxies = []
    for phrase in page.phrases:
        words = []
        for w in phrase.words:
            x0, top, x1, bottom = page.to_page((w.x0, w.top, w.x1, w.bottom))
            words.append(replace(w, x0=x0, top=top, x1=x1, bottom=bottom))
        proxy = Phrase(words)
        originals[id(proxy)] = phrase
        proxies.append(proxy)
    return group_lines(proxies, settings), originals


def _outside(phrases: list[Phrase], tables: list[FoundTable]) -> list[Phrase]:
    """Phrases whose centre lies in none of the tables."""
    if not tables:
        return phrases
    return [
        p for p in phrases
        if not any(t.contains((p.x0 + p.x1) / 2, (p.top + p.bottom) / 2, pad=1.0) for t in tables)
    ]


def _line_box(line: Line) -> tuple[float, float, float, float]:
    return line.x0, line.top, line.x1, line.bottom


def _bbox(page: _PageText, box: tuple) -> BoundingBox:
    """A box of the analysis frame as a BOTTOMLEFT BoundingBox in points on the displayed page."""
    x0, top, x1, bottom = page.to_page(box)
    height = page.content.height
    return BoundingBox(l=x0, t=height - top, r=x1, b=height - bottom, coord_origin=CoordOrigin.BOTTOMLEFT)


def _prov(page: _PageText, box: tuple, number: int, text: str) -> ProvenanceItem:
    return ProvenanceItem(page_no=number, bbox=_bbox(page, box), charspan=(0, len(text)))


def _add_table(doc: DoclingDocument, page: _PageText, table: FoundTable, number: int) -> None:
    cells = [
        TableCell(
            bbox=_bbox(page, (c.x0, c.top, c.x1, c.bottom)),
            row_span=c.row_span,
            col_span=c.col_span,
            start_row_offset_idx=c.row,
            end_row_offset_idx=c.end_row,
            start_col_offset_idx=c.col,
            end_col_offset_idx=c.end_col,
            text=c.text,
            column_header=c.column_header,
            row_header=c.row_header,
            row_section=c.row_section,
        )
        for c in table.cells
    ]
    data = TableData(num_rows=table.n_rows, num_cols=table.n_cols, table_cells=cells)
    label = DocItemLabel.DOCUMENT_INDEX if table.kind == "index" else DocItemLabel.TABLE
    prov = ProvenanceItem(page_no=number, bbox=_bbox(page, (table.x0, table.top, table.x1, table.bottom)), charspan=(0, 0))
    doc.add_table(data=data, prov=prov, label=label)
