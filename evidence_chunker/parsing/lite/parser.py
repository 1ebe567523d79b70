"""LiteParser: a model-free PDF parser that builds a docling-core DoclingDocument.

Glyphs and vector rules come from pdfium (pypdfium2), which reads a page an order of magnitude faster
than pdfminer. Tables are found three ways (:mod:`.lite_tables`): ruled grids from line intersections
(:mod:`.lite_ruled`), borderless tables from aligned text columns (:mod:`.lite_borderless`), tables of
contents from dot leaders (:mod:`.lite_toc`). The remaining text
is ordered by a recursive XY-cut and split into paragraphs, headings, captions, list items and page
furniture (:mod:`.lite_layout`). Every item carries page provenance with a BOTTOMLEFT box in points.

A page without a usable text layer (a scan, or a layer of garbage glyphs) is read by OCR
(:mod:`.lite_ocr`, Tesseract) into the same glyphs and rules, so the same stages run on it; the
ParsedDoc lists those pages (``ocr_pages``). With OCR turned off, a PDF without text raises
:class:`ImageOnlyPdfError`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

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

from ...errors import CorruptPdfError, ImageOnlyPdfError
from semantic_json.rules.patterns import ENUMERATOR_RE, split_marker
from .page_layout import (
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
from .furniture import find_furniture
from .ocr_pages import OcrReader
from .page_prep import PageBatch, _PageText, prepare_page, read_page
from .settings import LiteSettings
from .spacing import join_letter_fragments
from .zones import page_zones
from .borderless import find_aligned_tables
from .column_groups import centre_ruled_headings, span_group_headings
from .ruled import find_ruled_tables
from .ruled_headings import (
    is_heading_grid, join_continuations, repeats_labels, runs_between_grids, stack_heading_grids,
    take_headings_above, tells_columns_apart,
)
from .found_tables import FoundTable, join_value_mark_columns, prepare_edges
from .text import Line, Phrase, group_lines
from .toc import find_index_tables, is_page_index
from ..parsed import ParsedDoc
from ..pdf_file import DEFAULT_MAX_PAGES, DEFAULT_MAX_PDF_BYTES, inspect_pdf

__all__ = ["LiteParser", "LiteSettings", "PageBatch"]

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
    """Model-free parser; ``parse`` returns a ParsedDoc with ``parser="lite"``. Pages without a usable
    text layer are read by OCR (``settings.ocr``, languages ``settings.ocr_languages``).

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
        given, are consecutive pages of the PDF (every page, or a page range) already read by
        :meth:`read_pages` (in other processes, say), in order; only their analysis is left to do here.
        """
        info = inspect_pdf(path, max_bytes=self.max_bytes, max_pages=self.max_pages)
        if pages is None:
            pages = [self.read_pages(info.path)]
        covered = [k for batch in pages for k in range(batch.first, batch.first + len(batch))]
        if not covered or covered != list(range(covered[0], covered[0] + len(covered))) or covered[-1] >= info.page_count:
            raise ValueError(f"{info.path}: page batches cover pages {covered[:1]}..{covered[-1:]} in {len(pages)} "
                             f"batches, not consecutive pages of the PDF's {info.page_count} in order")
        if not any(batch.has_text for batch in pages):
            raise ImageOnlyPdfError(info.path, _why_no_text(self.settings, pages))
        prepared = [page for batch in pages for page in batch.prepared()]
        document = self.build_document(prepared, name=info.path.stem)
        ocr = {p.content.number: p.content.ocr for p in prepared if p.content.ocr is not None}
        return ParsedDoc(
            document=document, path=info.path, sha256=info.sha256, parser=self.name, page_count=len(covered),
            ocr_pages={n: read.confidence for n, read in ocr.items()},
            ocr_timeouts=sorted(n for n, read in ocr.items() if read.timed_out),
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
        ocr = OcrReader(self.settings, Path(path)) if self.settings.ocr else None
        try:
            for i in range(start, len(pdf) if stop is None else min(stop, len(pdf))):
                content = read_page(pdf[i], i + 1, self.settings, ocr)
                has_text = has_text or bool(len(content.glyphs))
                pages.append(prepare_page(content, self.settings))
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
                span_group_headings(centre_ruled_headings(table, settings))
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
            _add_furniture(doc, page, number, result.furniture, "page_header")
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
            _add_furniture(doc, page, number, result.furniture, "page_footer")
        return doc


def _why_no_text(settings: LiteSettings, batches: Sequence[PageBatch]) -> str:
    """What to say of a PDF that gave no text: OCR was off, or what it did."""
    if not settings.ocr:
        return "OCR is turned off (LiteSettings(ocr=False), sjt --no-ocr): turn it on to read the pages with Tesseract"
    read = [p.content for batch in batches for p in batch.prepared() if p.content.ocr is not None]
    if not read:
        return "no page shows an image to read by OCR"
    late = [c.number for c in read if c.ocr.timed_out]
    if late:
        return f"OCR timed out on pages {late} (LiteSettings.ocr_timeout={settings.ocr_timeout} s)"
    return f"OCR read no words on its {len(read)} page(s)"


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


def _add_furniture(doc: DoclingDocument, page: _PageText, number: int, furniture: list[tuple[str, Line]],
                   label: str) -> None:
    """The page's running heads (``label`` "page_header") or feet ("page_footer") as furniture text items."""
    for found, line in furniture:
        if found == label:
            text = line.text
            doc.add_text(label=DocItemLabel(label), text=text, prov=_prov(page, line.box, number, text),
                         content_layer=ContentLayer.FURNITURE)


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
