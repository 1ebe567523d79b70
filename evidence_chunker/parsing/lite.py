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

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping

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
    Paragraph,
    body_style,
    build_paragraphs,
    find_furniture,
    heading_levels,
    ordered_lines,
    page_zones,
    reading_order,
)
from .lite_pdfium import PageContent, read_page
from .lite_settings import LiteSettings
from .lite_borderless import find_aligned_tables
from .lite_ruled import find_ruled_tables
from .lite_tables import Edge, FoundTable, prepare_edges
from .lite_text import (
    Char,
    Line,
    Phrase,
    attach_list_markers,
    group_lines,
    phrases_from_words,
    split_phrases,
    words_from_chars,
)
from .lite_toc import find_index_tables
from .parsed import ParsedDoc
from .pdf_file import DEFAULT_MAX_PAGES, DEFAULT_MAX_PDF_BYTES, inspect_pdf

__all__ = ["LiteParser", "LiteSettings"]

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


def _prepare_page(content: PageContent, settings: LiteSettings) -> _PageText:
    """Phrases and rules of a page in its main text orientation; sideways text keeps its own reading."""
    counts: dict[int, int] = {}
    for _, o in content.chars:
        counts[o] = counts.get(o, 0) + 1
    main = max(counts, key=counts.get) if counts else 0
    W, H = content.width, content.height
    fw, fh = (H, W) if main in (90, 270) else (W, H)
    groups: dict[int, list[Char]] = {}
    for ch, o in content.chars:
        if main:  # upright pages (nearly all) are already in the analysis frame
            x0, top, x1, bottom = _to_upright((ch.x0, ch.top, ch.x1, ch.bottom), main, W, H)
            ch = ch._replace(x0=x0, top=top, x1=x1, bottom=bottom)
        group = groups.get((o - main) % 360)
        if group is None:
            group = groups[(o - main) % 360] = []
        group.append(ch)
    phrases: list[Phrase] = []
    for rel, chars in groups.items():
        gw, gh = (fh, fw) if rel in (90, 270) else (fw, fh)
        if rel:
            chars = [
                ch._replace(**dict(zip(("x0", "top", "x1", "bottom"), _to_upright((ch.x0, ch.top, ch.x1, ch.bottom), rel, fw, fh))))
                for ch in chars
            ]
            chars.sort(key=lambda c: (round(c.top), c.x0))
        words = words_from_chars(chars, settings)
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
    content.chars, content.edges, content.figures = [], [], []
    return _PageText(content, main, fw, fh, phrases, edges, figures, group_lines(phrases, settings))


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

    def parse(self, path: str | Path) -> ParsedDoc:
        """Parse a PDF into a DoclingDocument; raises a PdfError subclass when the file is unusable.

        Pages are read and prepared one at a time: a page's glyphs are dropped once its words and
        phrases are made, so memory grows with the document's words, not its glyphs.
        """
        import pypdfium2 as pdfium

        info = inspect_pdf(path, max_bytes=self.max_bytes, max_pages=self.max_pages)
        try:
            pdf = pdfium.PdfDocument(str(info.path))
        except pdfium.PdfiumError as exc:  # pragma: no cover - inspect_pdf opened it already
            raise CorruptPdfError(info.path, str(exc)) from exc
        pages: list[_PageText] = []
        has_text = False
        try:
            for i in range(len(pdf)):
                content = read_page(pdf[i], i + 1, self.settings)
                has_text = has_text or bool(content.chars)
                pages.append(_prepare_page(content, self.settings))
        finally:
            pdf.close()
        if not has_text:
            raise ImageOnlyPdfError(info.path)
        document = self.build_document(pages, name=info.path.stem)
        return ParsedDoc(
            document=document, path=info.path, sha256=info.sha256, parser=self.name, page_count=info.page_count
        )

    # ---- analysis ----------------------------------------------------------------------------

    def analyse(self, pages: list[_PageText]) -> list[_PageResult]:
        """Tables, furniture and paragraphs of every prepared page, in reading order."""
        settings = self.settings
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
            results.append(_PageResult(page, furniture_lines, self._order(phrases, tables, body)))
        heading_levels([item for r in results for item in r.items if isinstance(item, Paragraph)])
        return results

    def _find_tables(self, page: _PageText, phrases: list[Phrase]) -> list[FoundTable]:
        settings = self.settings
        hs, vs = prepare_edges(page.edges, settings)
        words = [w for p in phrases for w in p.words]
        tables = find_ruled_tables(hs, vs, words, page.figures, page.width, settings)
        body_size = body_style(phrases).size
        for zone in page_zones(_outside(phrases, tables), body_size, settings):
            lines = group_lines(zone, settings)
            index = find_index_tables(lines, settings)
            if index:
                tables += index
                lines = group_lines(_outside(zone, index), settings)
            if settings.borderless_tables:
                tables += find_aligned_tables(lines, hs + vs, page.figures, settings)
        return tables

    def _order(self, phrases: list[Phrase], tables: list[FoundTable], body: BodyStyle) -> list[Paragraph | FoundTable]:
        settings = self.settings
        blocks = [Block(t.x0, t.top, t.x1, t.bottom, table=i) for i, t in enumerate(tables)]
        blocks += [Block(p.x0, p.top, p.x1, p.bottom, phrase=p) for p in _outside(phrases, tables)]
        items: list[Paragraph | FoundTable] = []
        pending: list[Phrase] = []

        def flush() -> None:
            if pending:
                items.extend(build_paragraphs(ordered_lines(pending, settings), body, settings))
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
