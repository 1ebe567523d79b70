"""Pages for the lite parser: a PDF page read (its glyphs, rules and figures; by OCR where its text layer
is missing or garbage), prepared for analysis in the frame where its text is upright, and batches of
prepared pages that travel between processes in columns.
"""

from __future__ import annotations

import gc
from dataclasses import dataclass, replace
from typing import Any, Sequence

import numpy as np

from .graphics import extract_graphics
from .ocr_pages import OcrReader, PageOcr, page_has_images
from .pdfium import PageFrame, extract_chars
from .settings import LiteSettings
from .found_tables import Edge
from .phrases import attach_list_markers, phrases_from_words, split_phrases
from .text import Glyphs, Line, Phrase, Word, group_lines, words_from_glyphs
from .text_layer import check_text_layer

__all__ = ["PageBatch", "PageContent", "prepare_page", "read_page"]

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
    """What one page offers: size in points (as displayed), glyphs and rules in the top-down frame, and,
    for a page read by OCR, how that went (None: its text layer was read)."""

    number: int
    width: float
    height: float
    glyphs: Glyphs | None  # None once the page is prepared (its words hold what is needed)
    orientation: np.ndarray | None  # of each glyph: 0, 90, 180, 270 degrees, counter-clockwise
    edges: list[Edge]
    figures: list[tuple[float, float, float, float]]  # boxes of curves, polygons and images
    ocr: PageOcr | None = None


def read_page(page: Any, number: int, settings: LiteSettings, ocr: OcrReader | None = None) -> PageContent:
    """Glyphs, rules and figures of a pypdfium2 page (1-based ``number``); closes the page.

    A page whose text layer is missing (but that shows an image) or garbage
    (:func:`.lite_text_layer.check_text_layer`) is read by ``ocr`` instead, when given.
    """
    frame = PageFrame(tuple(page.get_cropbox()), page.get_rotation())
    try:
        glyphs, orientation, text_objects = extract_chars(page, frame)
        if ocr is not None and _needs_ocr(page, glyphs, settings):
            glyphs, edges, read = ocr.read(page, frame)
            return PageContent(number, frame.width, frame.height, glyphs, np.zeros(len(glyphs), dtype=np.intp),
                               edges, [], read)
        edges, figures = extract_graphics(page, frame, settings, text_objects) if len(glyphs) else ([], [])
    finally:
        page.close()
    return PageContent(number, frame.width, frame.height, glyphs, orientation, edges, figures)


def _needs_ocr(page: Any, glyphs: Glyphs, settings: LiteSettings) -> bool:
    """True for a page without glyphs that shows an image, and for a page whose glyphs read as garbage."""
    if not len(glyphs):
        return page_has_images(page)
    words = [w.text for w in words_from_glyphs(glyphs, settings)]
    return not check_text_layer(words, settings.text_layer_min_words, settings.text_layer_min_plausible,
                                 settings.text_layer_min_letters, settings.text_layer_min_common_letters).usable


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


def prepare_page(content: PageContent, settings: LiteSettings) -> _PageText:
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
        """The pages, as :func:`prepare_page` made them."""
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
    ocr: list[PageOcr | None]
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
            ocr=[p.content.ocr for p in pages], figures=[p.figures for p in pages], fonts=list(fonts), text="".join(texts),
            text_start=np.cumsum([0] + [len(t) for t in texts]), words=np.array(words, dtype=float).reshape(-1, 5),
            word_style=np.array(styles, dtype=np.int64).reshape(-1, 3), phrase_start=np.array(phrase_start),
            phrase_box=np.array(phrase_box, dtype=float).reshape(-1, 4), page_phrase_start=np.array(page_phrase_start),
            line_phrases=np.array(line_phrases, dtype=np.int64), line_start=np.array(line_start),
            page_line_start=np.array(page_line_start), edges=np.array(edges, dtype=float).reshape(-1, 4),
            page_edge_start=np.array(page_edge_start),
        )

    def unpack(self) -> list[_PageText]:
        """The prepared pages again, as :func:`prepare_page` made them."""
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
            self.pages, self.ocr, self.figures, _runs(self.page_phrase_start), _runs(self.page_line_start), _runs(self.page_edge_start)
        )
        for (number, width, height, orientation, fw, fh), ocr, figures, (pa, pb), (la, lb), (ea, eb) in bounds:
            content = PageContent(number, width, height, None, None, [], [], ocr)
            out.append(_PageText(content, orientation, fw, fh, phrases[pa:pb], edges[ea:eb], figures, lines[la:lb]))
        return out


def _runs(starts: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run given the starts and one closing entry."""
    values = starts.tolist()
    return list(zip(values, values[1:]))


