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

__all__ = ["PageOcr", "OcrReader", "page_has_images", "raster_rules", "glyphs_from_words", "textless_pages",
           "missed_ink", "read_missed_ink"]

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
#: Ink that no OCR word covers (Tesseract's layout analysis drops a lone page number, "- 2 -") is looked
#: for in square cells this many points wide...
MISSED_INK_CELL = 2.0
#: ...joined into one mark across this many empty cells sideways (the space between words)...
MISSED_INK_JOIN = 2
#: ...and read as a line of text when its height is within these multiples of the page's usual line
#: height (smaller specks and larger artwork are not text)...
MISSED_INK_HEIGHT = (0.5, 2.0)
#: ...when no word stands within this many line heights of it on its rows (ink next to a word is a
#: piece of that word's glyphs)...
MISSED_INK_CLEARANCE = 1.0
#: ...its words kept when read at least this confidently, and when they hold a digit or this many
#: letters (a chart's bars read as "T" or "ㅜ")...
MISSED_INK_MIN_CONFIDENCE = 0.8
MISSED_INK_MIN_LETTERS = 2
#: ...at most this many marks a page, top to bottom (a chart's artwork leaves many). Words' boxes are
#: widened by this many line heights before their ink is cleared, and a mark is read with that margin.
MISSED_INK_MAX_MARKS = 40
MISSED_INK_MARGIN = 0.25
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


def _clear_rules(ink: np.ndarray, min_length: int) -> None:
    """Clear runs of ink at least ``min_length`` long, along rows and columns (rules)."""
    for mask in (ink, ink.T):
        rows, starts, ends = _runs(mask, min_length)
        for row, a, b in zip(rows.tolist(), starts.tolist(), ends.tolist()):
            mask[row, a:b] = False


def _marks(cells: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Groups of occupied cells, joined across :data:`MISSED_INK_JOIN` empty cells sideways and none up or
    down: ``(row0, col0, row1, col1)`` inclusive, top to bottom."""
    todo = {(int(r), int(c)) for r, c in np.argwhere(cells)}
    out = []
    while todo:
        stack = [todo.pop()]
        r0, c0, r1, c1 = stack[0] * 2
        while stack:
            r, c = stack.pop()
            r0, c0, r1, c1 = min(r0, r), min(c0, c), max(r1, r), max(c1, c)
            for dr in (-1, 0, 1):
                for dc in range(-MISSED_INK_JOIN - 1, MISSED_INK_JOIN + 2):
                    if (r + dr, c + dc) in todo:
                        todo.discard((r + dr, c + dc))
                        stack.append((r + dr, c + dc))
        out.append((r0, c0, r1, c1))
    return sorted(out)


def missed_ink(image: Any, words: list[OcrWord], scale: float) -> list[tuple[int, int, int, int]]:
    """Boxes (pixels, top-down) of text-sized marks on a grayscale page image (``scale`` pixels per
    point) that no word of ``words`` covers and that are not rules."""
    if not words:
        return []
    ink = np.asarray(image) < INK_LEVEL
    _clear_rules(ink, max(1, round(RULE_MIN_LENGTH * scale)))
    usual = _usual_height(words)
    margin = round(MISSED_INK_MARGIN * usual)
    for w in words:
        ink[max(0, w.top - margin):w.bottom + margin, max(0, w.x0 - margin):w.x1 + margin] = False
    cell = max(1, round(MISSED_INK_CELL * scale))
    rows, cols = ink.shape[0] // cell, ink.shape[1] // cell
    cells = ink[:rows * cell, :cols * cell].reshape(rows, cell, cols, cell).any(axis=(1, 3))
    low, high = MISSED_INK_HEIGHT
    clear = MISSED_INK_CLEARANCE * usual
    boxes = [(c0 * cell, r0 * cell, (c1 + 1) * cell, (r1 + 1) * cell) for r0, c0, r1, c1 in _marks(cells)]
    return [
        b for b in boxes
        if low * usual <= b[3] - b[1] <= high * usual
        and not any(w.top < b[3] and w.bottom > b[1] and w.x0 < b[2] + clear and w.x1 > b[0] - clear for w in words)
    ][:MISSED_INK_MAX_MARKS]


def read_missed_ink(image: Any, words: list[OcrWord], scale: float, engine: Any, timeout: float) -> list[OcrWord]:
    """Words read from the marks :func:`missed_ink` finds, each read as a line (pixels, top-down); words
    read below :data:`MISSED_INK_MIN_CONFIDENCE` are left out, and marks without a digit or
    :data:`MISSED_INK_MIN_LETTERS` letters."""
    found: list[OcrWord] = []
    margin = round(MISSED_INK_MARGIN * _usual_height(words))
    for x0, top, x1, bottom in missed_ink(image, words, scale):
        box = (max(0, x0 - margin), max(0, top - margin), min(image.width, x1 + margin), min(image.height, bottom + margin))
        read = [w for w in engine.read_line(image.crop(box), timeout) if w.confidence >= MISSED_INK_MIN_CONFIDENCE]
        text = "".join(w.text for w in read)
        if not any(ch.isdigit() for ch in text) and sum(ch.isalpha() for ch in text) < MISSED_INK_MIN_LETTERS:
            continue
        dx, dy = box[0], box[1]
        found += [w._replace(x0=w.x0 + dx, x1=w.x1 + dx, top=w.top + dy, bottom=w.bottom + dy,
                             line_top=w.line_top + dy, line_bottom=w.line_bottom + dy) for w in read]
    return found


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
        words = result.words + read_missed_ink(image, result.words, (sx + sy) / 2, engine, settings.ocr_timeout)
        words = [w._replace(x0=w.x0 * sy / sx, x1=w.x1 * sy / sx) for w in words] if abs(sx - sy) > 1e-6 else words
        glyphs = glyphs_from_words(words, sy)
        chars = sum(len(w.text) for w in words)
        confidence = sum(w.confidence * len(w.text) for w in words) / chars if chars else 0.0
        return glyphs, rules, PageOcr(len(words), round(confidence, 4), result.timed_out)
