"""A page read by OCR for the lite parser: rendered with pdfium, read by Tesseract (:mod:`.ocr`), and
turned into what a born-digital page offers, glyphs with boxes (points, top-down) and rules, so the same
stages find its tables, headings and paragraphs.

Each OCR word becomes glyphs spread evenly over its box, standing on its text line's top and bottom (so
words of one line share a baseline as printed text does), with a space before its first glyph. Its size
is the line's height over :data:`LINE_HEIGHT_EM`. Table rules are found in the image: runs of dark
pixels at least :data:`RULE_MIN_LENGTH` points long, in rows (horizontal rules) and columns (vertical).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .pdfium import PageFrame
from .settings import LiteSettings
from .found_tables import Edge
from .text import Glyphs
from ..ocr import OcrWord, ocr_engine

__all__ = ["PageOcr", "OcrReader", "page_has_images", "raster_rules", "glyphs_from_words", "textless_pages"]

#: Points per inch.
POINTS_PER_INCH = 72.0
#: A text line's box (tallest ascender to lowest descender) is about this many em high.
LINE_HEIGHT_EM = 1.0
#: Line heights within this share of the page's usual one are read as the body size: a line's box grows
#: with its ascenders and descenders (and OCR's guesses), which says nothing of the type size.
SIZE_SNAP = 0.25
#: Pixels darker than this (0 black .. 255 white) are ink.
INK_LEVEL = 128
#: A run of ink at least this long (points) is a rule; letters and dashes are shorter.
RULE_MIN_LENGTH = 24.0
#: Rows (or columns) of ink runs this many points apart or closer are one rule's thickness...
RULE_JOIN = 1.0
#: ...and a rule is at most this thick (points); thicker runs are filled areas.
RULE_MAX_THICKNESS = 4.0
_FONT = "ocr"


@dataclass(frozen=True)
class PageOcr:
    """How a page was read by OCR: words read, their mean confidence (0..1, weighted by characters) and
    whether Tesseract ran out of time (the page then has no words)."""

    words: int
    confidence: float
    timed_out: bool = False


def page_has_images(page: Any) -> bool:
    """True when a pypdfium2 page draws at least one image (a scan, a photo): a page without glyphs or
    images is blank and not worth reading by OCR."""
    import pypdfium2.raw as pdfium_c

    return next(iter(page.get_objects(filter=(pdfium_c.FPDF_PAGEOBJ_IMAGE,))), None) is not None


def textless_pages(path: str | Path) -> list[bool]:
    """For each page of a PDF, whether it has no characters (a scan's page, read by OCR if it shows an image)."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(path))
    try:
        flags = []
        for page in pdf:
            text = page.get_textpage()
            flags.append(text.count_chars() == 0)
            text.close()
            page.close()
        return flags
    finally:
        pdf.close()


def glyphs_from_words(words: list[OcrWord], scale: float) -> Glyphs:
    """Glyphs of OCR words (pixel boxes; ``scale`` pixels per point), in reading order."""
    text: list[str] = []
    x0, x1, top, bottom, size, first = [], [], [], [], [], []
    body = _usual_height(words) / scale
    for w in words:
        n = len(w.text)
        left, right = w.x0 / scale, w.x1 / scale
        # every word of a line stands on the line's box, as printed words share a baseline
        line_top, line_bottom = w.line_top / scale, w.line_bottom / scale
        height = line_bottom - line_top
        if abs(height - body) <= SIZE_SNAP * body:
            height = body
        step = (right - left) / n
        for k, ch in enumerate(w.text):
            text.append(ch)
            x0.append(left + k * step)
            x1.append(left + (k + 1) * step)
            top.append(line_top)
            bottom.append(line_bottom)
            size.append(height / LINE_HEIGHT_EM)
            first.append(k == 0)
    count = len(text)
    return Glyphs(
        "".join(text), np.array(x0, dtype=float), np.array(top, dtype=float), np.array(x1, dtype=float),
        np.array(bottom, dtype=float), np.array(size, dtype=float), np.zeros(count, dtype=bool),
        np.zeros(count, dtype=np.intp), [_FONT], np.array(first, dtype=bool), np.zeros(count, dtype=bool),
    )


def _usual_height(words: list[OcrWord]) -> float:
    """The line height (pixels) most characters stand on: the median over characters."""
    heights = sorted((w.line_bottom - w.line_top, len(w.text)) for w in words)
    total, seen = sum(n for _h, n in heights), 0
    for height, n in heights:
        seen += n
        if 2 * seen >= total:
            return float(height)
    return 0.0


def _runs(ink: np.ndarray, min_length: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Runs of True along each row of ``ink`` at least ``min_length`` long: row, start, end (exclusive)."""
    padded = np.pad(ink, ((0, 0), (1, 1))).astype(np.int8)
    change = np.diff(padded, axis=1)
    rows, starts = np.nonzero(change == 1)
    _rows, ends = np.nonzero(change == -1)
    long = ends - starts >= min_length
    return rows[long], starts[long], ends[long]


def _rules_along_rows(ink: np.ndarray, scale: float) -> list[tuple[float, float, float]]:
    """Horizontal rules of an ink mask: ``(y, x0, x1)`` in points, a rule's rows of runs joined."""
    rows, starts, ends = _runs(ink, max(1, round(RULE_MIN_LENGTH * scale)))
    join, thickest = max(1, round(RULE_JOIN * scale)), RULE_MAX_THICKNESS * scale
    open_rules: list[list[float]] = []  # first row, last row, x0, x1
    done: list[list[float]] = []
    for row, a, b in zip(rows.tolist(), starts.tolist(), ends.tolist()):
        for rule in open_rules:
            if row - rule[1] <= join and a < rule[3] and b > rule[2]:
                rule[1], rule[2], rule[3] = row, min(rule[2], a), max(rule[3], b)
                break
        else:
            open_rules.append([row, row, a, b])
        still = []
        for rule in open_rules:
            (still if row - rule[1] <= join else done).append(rule)
        open_rules = still
    done += open_rules
    return [((r[0] + r[1] + 1) / 2 / scale, r[2] / scale, r[3] / scale) for r in done if r[1] + 1 - r[0] <= thickest]


def raster_rules(image: Any, scale: float) -> list[Edge]:
    """Horizontal and vertical rules drawn on a grayscale page image (``scale`` pixels per point), as
    Edges in points, top-down."""
    ink = np.asarray(image) < INK_LEVEL
    edges = [Edge(x0, y, x1, y) for y, x0, x1 in _rules_along_rows(ink, scale)]
    edges += [Edge(x, top, x, bottom) for x, top, bottom in _rules_along_rows(ink.T, scale)]
    return edges


class OcrReader:
    """Reads pages of one PDF by OCR with the settings' languages, DPI and timeout; the engine is loaded
    on the first page that needs it (OcrUnavailableError names what to install)."""

    def __init__(self, settings: LiteSettings, pdf_path: Path):
        self.settings = settings
        self.pdf_path = Path(pdf_path)

    def read(self, page: Any, frame: PageFrame) -> tuple[Glyphs, list[Edge], PageOcr]:
        """Glyphs and rules of a pypdfium2 page read by OCR, and how the reading went."""
        settings = self.settings
        engine = ocr_engine(settings.ocr_languages, settings.ocr_tessdata, self.pdf_path, settings.ocr_psm)
        scale = settings.ocr_dpi / POINTS_PER_INCH
        image = page.render(scale=scale, grayscale=True).to_pil()
        # the bitmap is whole pixels: the scale each way is what the page's points became
        sx, sy = image.width / frame.width, image.height / frame.height
        result = engine.read(image, settings.ocr_timeout)
        rules = raster_rules(image, (sx + sy) / 2)
        words = [w._replace(x0=w.x0 * sy / sx, x1=w.x1 * sy / sx) for w in result.words] if abs(sx - sy) > 1e-6 else result.words
        glyphs = glyphs_from_words(words, sy)
        chars = sum(len(w.text) for w in words)
        confidence = sum(w.confidence * len(w.text) for w in words) / chars if chars else 0.0
        return glyphs, rules, PageOcr(len(words), round(confidence, 4), result.timed_out)
