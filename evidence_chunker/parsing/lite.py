"""LiteParser: a model-free PDF parser that builds a docling-core DoclingDocument.

Glyphs and vector rules come from pdfium (pypdfium2), which reads a page an order of magnitude faster
than pdfminer. Tables are found three ways (:mod:`.lite_tables`): ruled grids from line intersections,
borderless tables from aligned text columns, tables of contents from dot leaders. The remaining text
is ordered by a recursive XY-cut and split into paragraphs, headings, captions, list items and page
furniture (:mod:`.lite_layout`). Every item carries page provenance with a BOTTOMLEFT box in points.

Born-digital PDFs only: a PDF without a text layer raises :class:`ImageOnlyPdfError`.
"""

from __future__ import annotations

import ctypes
import math
import re
from dataclasses import dataclass, fields, replace
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
from .lite_layout import (
    ENUMERATOR_RE,
    Block,
    BodyStyle,
    Char,
    Line,
    Paragraph,
    Phrase,
    attach_list_markers,
    body_style,
    build_paragraphs,
    find_furniture,
    group_lines,
    heading_levels,
    ordered_lines,
    page_zones,
    phrases_from_words,
    reading_order,
    split_marker,
    split_phrases,
    words_from_chars,
)
from .lite_tables import (
    Edge,
    FoundTable,
    find_aligned_tables,
    find_index_tables,
    find_ruled_tables,
    prepare_edges,
)
from .parsed import ParsedDoc
from .pdf_file import DEFAULT_MAX_PAGES, DEFAULT_MAX_PDF_BYTES, inspect_pdf

__all__ = ["LiteParser", "LiteSettings"]

# ---- text geometry (multiples of the font size, "em", unless stated) -------------------------
#: A gap wider than this between two glyphs starts a new word.
DEFAULT_WORD_GAP = 0.25
#: A gap wider than this between two words starts a new phrase (a table cell or a column of text).
DEFAULT_PHRASE_GAP = 1.0
#: A narrower gap also splits a phrase when it is over this many em and this many times the phrase's
#: usual word gap (measured over at least ``split_min_gaps`` gaps, else the page's): dense columns.
DEFAULT_SPLIT_GAP = 0.5
DEFAULT_SPLIT_RATIO = 2.2
DEFAULT_SPLIT_MIN_GAPS = 3
#: A ")" or "%" this close after an amount, with no space printed between, ends the amount: "(565" and
#: ")" in table cells of their own, as EDGAR renders financial statements, read "(565)".
DEFAULT_MARK_GAP = 1.5
#: A glyph this far left of the previous one starts a new word (text written out of order).
DEFAULT_BACKTRACK = 0.5
#: Two extents are on one baseline when they overlap by this share of the smaller height.
DEFAULT_LINE_OVERLAP = 0.5
#: Font sizes differing by more than this share are different styles.
DEFAULT_SIZE_JUMP = 0.2
#: A bullet or enumerator joins the text that starts within this distance after it.
DEFAULT_MARKER_GAP = 3.0
# ---- page furniture ----------------------------------------------------------------------------
#: Share of the page height, at top and at bottom, where headers and footers live.
DEFAULT_MARGIN_BAND = 0.08
#: A margin line printed smaller than this share of the body size is furniture even if unique.
DEFAULT_FURNITURE_SIZE_RATIO = 0.9
# ---- reading order and paragraphs --------------------------------------------------------------
#: A vertical whitespace gap at least this wide separates columns.
DEFAULT_GUTTER = 1.0
#: Blocks wider than this share of their region may bridge a column gutter (headings, tables).
DEFAULT_WIDE_BLOCK = 0.55
#: A vertical gap between lines wider than this starts a new paragraph.
DEFAULT_PARAGRAPH_GAP = 0.9
#: A first line indented by more than this starts a new paragraph.
DEFAULT_INDENT = 1.0
#: Text at least this many times the body size is heading-like.
DEFAULT_HEADING_SIZE = 1.15
DEFAULT_HEADING_MAX_LINES = 3
#: Text at most this many times the body size, opening with a note marker, is a footnote.
DEFAULT_FOOTNOTE_SIZE = 0.92
DEFAULT_HEADING_MAX_CHARS = 160
DEFAULT_CAPTION_MAX_CHARS = 400
# ---- rules (points) ----------------------------------------------------------------------------
#: Rules closer than this are snapped to one coordinate; also the tolerance of intersections.
DEFAULT_SNAP_TOLERANCE = 3.0
#: Collinear rules with a gap up to this are joined.
DEFAULT_JOIN_TOLERANCE = 3.0
#: Shorter rules are ignored (tick marks, glyph-like strokes).
DEFAULT_MIN_EDGE_LENGTH = 4.0
#: A cell boundary exists when rules cover this share of it.
DEFAULT_RULE_COVERAGE = 0.5
#: A ruled grid needs an interior rule covering this share of its height (a column divider), or,
#: without columns drawn, of its width; nested boxes and diagrams fail this.
DEFAULT_DIVIDER_COVERAGE = 0.5
#: A ruled area this wide (share of the page width) is page design, not a table.
DEFAULT_PAGE_WIDE = 0.97
#: A ruled row is split into its text lines when this share of its cells (and at least two) hold
#: several lines that line up across the row: rules drawn only around groups of rows.
DEFAULT_SPLIT_ROW_SHARE = 0.5
#: ...and when this share of those lines are single values (numbers, one or two short words).
DEFAULT_SPLIT_ROW_TOKEN_SHARE = 0.75
#: Grid rows or columns narrower than this (points) are slivers between double rules, not cells.
DEFAULT_MIN_CELL = 7.0
#: A ruled area holding this many pieces of slanted or curved artwork, each at least this share of
#: its width long, is a diagram.
DEFAULT_DIAGRAM_PIECES = 3
DEFAULT_DIAGRAM_PIECE = 0.1
#: A filled rectangle thinner than this is a rule, not a shaded area.
DEFAULT_RULE_THICKNESS = 2.5
#: Filled rectangles covering more than this share of the page are backgrounds, not rules.
DEFAULT_BACKGROUND_SHARE = 0.5
#: How far (points) a horizontal rule may sit from a table's top or bottom and still bound it.
DEFAULT_RULE_REACH = 8.0
#: A borderless table is rejected when figure artwork (curves, polygons, images) covers this share of
#: its box: chart labels and legends line up like columns.
DEFAULT_FIGURE_SHARE = 0.15
#: Images covering more than this share of the page are backgrounds (or scans), not figures.
DEFAULT_BACKGROUND_IMAGE_SHARE = 0.5
#: A whitespace strip this wide (em of the body size) through all of a page's text, with prose on both
#: sides, separates page columns (or the two pages of a spread) that tables do not cross.
DEFAULT_ZONE_GUTTER = 1.5
#: Each side of a page column gutter needs this many long (prose) phrases.
DEFAULT_ZONE_MIN_PROSE = 3
# ---- tables --------------------------------------------------------------------------------------
#: Tables need at least this share of their grid slots filled with text.
DEFAULT_MIN_FILL = 0.25
#: A column gap (em) narrower than this is not a column boundary.
DEFAULT_MIN_GUTTER = 0.6
#: A phrase with at most this many words and at most this width (em) is short (cell-like).
DEFAULT_SHORT_PHRASE_WORDS = 6
DEFAULT_SHORT_PHRASE_WIDTH = 14.0
#: A borderless table needs this many table-like lines.
DEFAULT_MIN_TABLE_LINES = 2
#: Rows of a borderless table are at most this far apart (em).
DEFAULT_ROW_GAP = 2.5
#: A rule this close (em) under a heading and wider than it marks the columns the heading spans.
DEFAULT_SPANNER_GAP = 0.8
#: Borderless tables this close (em) with compatible columns are sections of one table.
DEFAULT_SECTION_GAP = 5.0
#: Plain lines (section labels, wrapped text) allowed in a row between table-like lines.
DEFAULT_MAX_PLAIN_LINES = 4
#: A column gap may be crossed by this share of the lines (spanning headings, long labels).
DEFAULT_SPAN_TOLERANCE = 0.2
#: Heading lines looked for above a borderless table, and their maximum gap (em) and overhang (em).
DEFAULT_MAX_HEADER_LINES = 4
DEFAULT_HEADER_GAP = 1.5
DEFAULT_HEADER_SLACK = 1.0
#: A section label ("Current assets:") right above a table's first row may stand this far (em) left
#: of the row labels and still be a row of the table.
DEFAULT_SECTION_INDENT = 3.0
#: A line continues the table row above when the gap is below this (em).
DEFAULT_WRAP_GAP = 0.45
#: A currency sign standing alone at most this far (em) before an amount on its row belongs to it:
#: EDGAR prints "$" in a cell of its own at the left of the amount's cell; the cell reads "$ 298,085".
DEFAULT_CURRENCY_GAP = 8.0
#: Heading text lines up with a column (left, right or centre) within this many em.
DEFAULT_ALIGN_TOLERANCE = 0.6
#: A borderless table is accepted when this share of its later-column cells are quantities...
DEFAULT_NUMERIC_SHARE = 0.4
#: ...or, for text tables, when cells average at most this many words...
DEFAULT_MAX_WORDS_PER_CELL = 5.0
#: ...or, between a rule above and a rule below, when no first-column label is longer than this.
DEFAULT_MAX_LABEL_WORDS = 12
#: ...over at least this many rows with this share of slots filled.
DEFAULT_MIN_TEXT_TABLE_ROWS = 3
DEFAULT_TEXT_TABLE_FILL = 0.6
#: A table of contents needs this many leader lines, at most this far apart (em).
DEFAULT_MIN_INDEX_LINES = 3
DEFAULT_INDEX_GAP = 3.0
#: At most this many heading rows.
DEFAULT_MAX_HEADER_ROWS = 4
#: The first column is a row header when this share of its body cells are labels while this share
#: of the other body cells are quantities.
DEFAULT_ROW_HEADER_LABELS = 0.8
DEFAULT_ROW_HEADER_NUMBERS = 0.5


@dataclass(frozen=True)
class LiteSettings:
    """Every threshold of the lite parser; see the module constants for meanings and units."""

    word_gap: float = DEFAULT_WORD_GAP
    phrase_gap: float = DEFAULT_PHRASE_GAP
    split_gap: float = DEFAULT_SPLIT_GAP
    split_ratio: float = DEFAULT_SPLIT_RATIO
    split_min_gaps: int = DEFAULT_SPLIT_MIN_GAPS
    mark_gap: float = DEFAULT_MARK_GAP
    backtrack: float = DEFAULT_BACKTRACK
    line_overlap: float = DEFAULT_LINE_OVERLAP
    size_jump: float = DEFAULT_SIZE_JUMP
    marker_gap: float = DEFAULT_MARKER_GAP
    margin_band: float = DEFAULT_MARGIN_BAND
    furniture_size_ratio: float = DEFAULT_FURNITURE_SIZE_RATIO
    gutter: float = DEFAULT_GUTTER
    wide_block: float = DEFAULT_WIDE_BLOCK
    paragraph_gap: float = DEFAULT_PARAGRAPH_GAP
    indent: float = DEFAULT_INDENT
    heading_size: float = DEFAULT_HEADING_SIZE
    heading_max_lines: int = DEFAULT_HEADING_MAX_LINES
    footnote_size: float = DEFAULT_FOOTNOTE_SIZE
    heading_max_chars: int = DEFAULT_HEADING_MAX_CHARS
    caption_max_chars: int = DEFAULT_CAPTION_MAX_CHARS
    snap_tolerance: float = DEFAULT_SNAP_TOLERANCE
    join_tolerance: float = DEFAULT_JOIN_TOLERANCE
    min_edge_length: float = DEFAULT_MIN_EDGE_LENGTH
    rule_coverage: float = DEFAULT_RULE_COVERAGE
    divider_coverage: float = DEFAULT_DIVIDER_COVERAGE
    page_wide: float = DEFAULT_PAGE_WIDE
    min_cell: float = DEFAULT_MIN_CELL
    split_row_share: float = DEFAULT_SPLIT_ROW_SHARE
    split_row_token_share: float = DEFAULT_SPLIT_ROW_TOKEN_SHARE
    diagram_pieces: int = DEFAULT_DIAGRAM_PIECES
    diagram_piece: float = DEFAULT_DIAGRAM_PIECE
    rule_thickness: float = DEFAULT_RULE_THICKNESS
    background_share: float = DEFAULT_BACKGROUND_SHARE
    rule_reach: float = DEFAULT_RULE_REACH
    figure_share: float = DEFAULT_FIGURE_SHARE
    background_image_share: float = DEFAULT_BACKGROUND_IMAGE_SHARE
    zone_gutter: float = DEFAULT_ZONE_GUTTER
    zone_min_prose: int = DEFAULT_ZONE_MIN_PROSE
    min_fill: float = DEFAULT_MIN_FILL
    min_gutter: float = DEFAULT_MIN_GUTTER
    short_phrase_words: int = DEFAULT_SHORT_PHRASE_WORDS
    short_phrase_width: float = DEFAULT_SHORT_PHRASE_WIDTH
    min_table_lines: int = DEFAULT_MIN_TABLE_LINES
    row_gap: float = DEFAULT_ROW_GAP
    max_plain_lines: int = DEFAULT_MAX_PLAIN_LINES
    section_gap: float = DEFAULT_SECTION_GAP
    spanner_gap: float = DEFAULT_SPANNER_GAP
    span_tolerance: float = DEFAULT_SPAN_TOLERANCE
    max_header_lines: int = DEFAULT_MAX_HEADER_LINES
    header_gap: float = DEFAULT_HEADER_GAP
    header_slack: float = DEFAULT_HEADER_SLACK
    section_indent: float = DEFAULT_SECTION_INDENT
    wrap_gap: float = DEFAULT_WRAP_GAP
    currency_gap: float = DEFAULT_CURRENCY_GAP
    align_tolerance: float = DEFAULT_ALIGN_TOLERANCE
    numeric_share: float = DEFAULT_NUMERIC_SHARE
    max_words_per_cell: float = DEFAULT_MAX_WORDS_PER_CELL
    max_label_words: int = DEFAULT_MAX_LABEL_WORDS
    min_text_table_rows: int = DEFAULT_MIN_TEXT_TABLE_ROWS
    text_table_fill: float = DEFAULT_TEXT_TABLE_FILL
    min_index_lines: int = DEFAULT_MIN_INDEX_LINES
    index_gap: float = DEFAULT_INDEX_GAP
    max_header_rows: int = DEFAULT_MAX_HEADER_ROWS
    row_header_labels: float = DEFAULT_ROW_HEADER_LABELS
    row_header_numbers: float = DEFAULT_ROW_HEADER_NUMBERS
    #: Find borderless (aligned-column) tables; ruled tables are always found.
    borderless_tables: bool = True

    @classmethod
    def resolve(cls, settings: "LiteSettings | Mapping[str, Any] | None") -> "LiteSettings":
        """Accept a LiteSettings, a plain dict of overrides, or None (defaults)."""
        if settings is None:
            return cls()
        if isinstance(settings, cls):
            return settings
        known = {f.name for f in fields(cls)}
        unknown = set(settings) - known
        if unknown:
            raise ValueError(f"unknown LiteSettings field(s): {', '.join(sorted(unknown))}")
        return replace(cls(), **dict(settings))


# --------------------------------------------------------------------------------------------
# Page content from pdfium
# --------------------------------------------------------------------------------------------

#: Bold faces by name: "Arial-BoldMT", "Helvetica-Bold", "NanumSquareB", "CMBX10", "NimbusRomNo9L-Medi".
_FONT_BOLD_RE = re.compile(
    r"(?i:bold|black|heavy|semibold|demibold|extrabold|ultrabold)|[a-z\-,_]B$|Bd$|[-,]B[a-zA-Z]?$|[A-Z]{2}BX\d|-Medi$"
)
_FONT_FLAG_FORCE_BOLD = 1 << 18
_BOLD_WEIGHT = 600
_UNICODE_NONCHAR = {0xFFFE, 0xFFFF, 0xFFFD}
#: Skip path objects with more segments than this (glyph-like artwork, maps): no table rule is that busy.
_MAX_PATH_SEGMENTS = 400
#: Nested forms deeper than this are not walked.
_MAX_FORM_DEPTH = 8
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: A glyph repeated within this distance (points) of the same glyph is an overprint.
_DUPLICATE_DISTANCE = 1.0


@dataclass
class PageContent:
    """What one page offers: size in points (as displayed), glyphs and rules in the top-down frame."""

    number: int
    width: float
    height: float
    chars: list[tuple[Char, int]]  # glyph and its orientation (0, 90, 180, 270 degrees, counter-clockwise)
    edges: list[Edge]
    figures: list[tuple[float, float, float, float]]  # boxes of curves, polygons and images


def _compose(outer: tuple, inner: tuple) -> tuple:
    """Matrix product ``outer ∘ inner`` of two PDF matrices (a, b, c, d, e, f)."""
    a1, b1, c1, d1, e1, f1 = outer
    a2, b2, c2, d2, e2, f2 = inner
    return (
        a1 * a2 + c1 * b2,
        b1 * a2 + d1 * b2,
        a1 * c2 + c1 * d2,
        b1 * c2 + d1 * d2,
        a1 * e2 + c1 * f2 + e1,
        b1 * e2 + d1 * f2 + f1,
    )


class _PageFrame:
    """Maps PDF user space to the displayed page in the top-down frame (crop box, /Rotate)."""

    def __init__(self, crop: tuple[float, float, float, float], rotation: int):
        self.left, self.bottom, self.right, self.top = crop
        self.rotation = rotation % 360
        w, h = self.right - self.left, self.top - self.bottom
        self.width, self.height = (h, w) if self.rotation in (90, 270) else (w, h)

    def point(self, x: float, y: float) -> tuple[float, float]:
        if self.rotation == 90:
            return y - self.bottom, x - self.left
        if self.rotation == 180:
            return self.right - x, y - self.bottom
        if self.rotation == 270:
            return self.top - y, self.right - x
        return x - self.left, self.top - y

    def box(self, left: float, bottom: float, right: float, top: float) -> tuple[float, float, float, float]:
        xa, ya = self.point(left, bottom)
        xb, yb = self.point(right, top)
        return min(xa, xb), min(ya, yb), max(xa, xb), max(ya, yb)


def _font_info(raw_font: Any, buffer: ctypes.Array) -> tuple[str, bool]:
    """Base name (subset prefix removed) and boldness of a pdfium font."""
    import pypdfium2.raw as pdfium_c

    name = ""
    if raw_font:
        length = pdfium_c.FPDFFont_GetBaseFontName(raw_font, buffer, len(buffer))
        if length:
            name = buffer.value.decode("utf-8", "replace")
    if "+" in name[:8]:
        name = name.split("+", 1)[1]
    bold = bool(_FONT_BOLD_RE.search(name))
    if raw_font and not bold:
        weight = pdfium_c.FPDFFont_GetWeight(raw_font)
        flags = pdfium_c.FPDFFont_GetFlags(raw_font)
        bold = weight >= _BOLD_WEIGHT or bool(flags & _FONT_FLAG_FORCE_BOLD)
    return name, bold


def extract_chars(page: Any, frame: _PageFrame) -> list[tuple[Char, int]]:
    """Every printed glyph of a page with its orientation, in content-stream order."""
    import pypdfium2.raw as pdfium_c

    textpage = page.get_textpage()
    try:
        raw = textpage.raw
        count = pdfium_c.FPDFText_CountChars(raw)
        rect = pdfium_c.FS_RECTF()
        matrix = pdfium_c.FS_MATRIX()
        buffer = ctypes.create_string_buffer(256)
        fonts: dict[int, tuple[str, bool]] = {}
        out: list[tuple[Char, int]] = []
        seen: dict[tuple[str, int], list[float]] = {}
        space = printed = False
        skip_next = False
        for i in range(count):
            if skip_next:
                skip_next = False
                continue
            code = pdfium_c.FPDFText_GetUnicode(raw, i)
            if 0xD800 <= code <= 0xDFFF:  # UTF-16 surrogates (pdfium builds with 16-bit wchar_t)
                low = pdfium_c.FPDFText_GetUnicode(raw, i + 1) if i + 1 < count else 0
                if code <= 0xDBFF and 0xDC00 <= low <= 0xDFFF:
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    skip_next = True
                else:
                    continue
            if code in (0x20, 0xA0, 0x3000, 0x09) or code in (0x0D, 0x0A) or code in _UNICODE_NONCHAR:
                space = True
                if code in (0x20, 0xA0, 0x3000, 0x09) and not pdfium_c.FPDFText_IsGenerated(raw, i):
                    printed = True  # a space of the page's text, not one pdfium made up for a gap
                continue
            if code < 0x20 or pdfium_c.FPDFText_IsGenerated(raw, i):
                space = True
                continue
            text_obj = pdfium_c.FPDFText_GetTextObject(raw, i)
            key = ctypes.cast(text_obj, ctypes.c_void_p).value or 0
            font = fonts.get(key)
            if font is None:
                raw_font = pdfium_c.FPDFTextObj_GetFont(text_obj) if text_obj else None
                font = fonts[key] = _font_info(raw_font, buffer)
            pdfium_c.FPDFText_GetLooseCharBox(raw, i, rect)
            pdfium_c.FPDFText_GetMatrix(raw, i, matrix)
            scale_y = math.hypot(matrix.c, matrix.d) or 1.0
            size = pdfium_c.FPDFText_GetFontSize(raw, i) * scale_y
            angle = (math.degrees(math.atan2(matrix.b, matrix.a)) - frame.rotation) % 360
            orientation = int(((angle + 45) % 360) // 90) * 90
            x0, top, x1, bottom = frame.box(rect.left, rect.bottom, rect.right, rect.top)
            if x1 - x0 <= 0 and bottom - top <= 0:
                continue
            try:
                text = chr(code)
            except ValueError:
                continue
            # glyphs printed twice at (almost) one place: fake bold or shadows, read once; a ligature
            # split into its letters ("ffi" as f, f, i) repeats a glyph box right after itself: kept
            key = (text, round(top))
            xs = seen.setdefault(key, [])
            previous = out[-1][0] if out else None
            ligature = previous is not None and previous.text == text and previous.x0 == x0
            if not ligature and any(abs(x0 - other) < _DUPLICATE_DISTANCE for other in xs):
                continue
            xs.append(x0)
            out.append((Char(text, x0, top, x1, bottom, size, font[0], font[1], space, printed), orientation))
            space = printed = False
        return out
    finally:
        textpage.close()


def extract_graphics(page: Any, frame: _PageFrame, settings: LiteSettings) -> tuple[list[Edge], list[tuple]]:
    """Rules and figure artwork drawn on a page.

    Rules are the horizontal and vertical sides of stroked lines and rectangles (a thin filled
    rectangle is one rule; page-sized backgrounds are ignored). Figures are the boxes of paths with
    curves or slanted sides and of images: where charts and pictures are.
    """
    import pypdfium2.raw as pdfium_c

    edges: list[Edge] = []
    figures: list[tuple] = []
    page_area = frame.width * frame.height
    fs = pdfium_c.FS_MATRIX()
    x = ctypes.c_float()
    y = ctypes.c_float()
    fill_mode = ctypes.c_int()
    stroke = ctypes.c_int()
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    thin = settings.rule_thickness

    def add(xa: float, ya: float, xb: float, yb: float) -> None:
        if abs(ya - yb) <= 0.5 and abs(xa - xb) > 0:
            edges.append(Edge(min(xa, xb), (ya + yb) / 2, max(xa, xb), (ya + yb) / 2))
        elif abs(xa - xb) <= 0.5 and abs(ya - yb) > 0:
            edges.append(Edge((xa + xb) / 2, min(ya, yb), (xa + xb) / 2, max(ya, yb)))

    def figure_from_bounds(obj: Any, parent: tuple) -> None:
        pdfium_c.FPDFPageObj_GetBounds(obj, left, bottom, right, top)
        a, b, c, d, e, f = parent
        corners = [
            frame.point(a * u + c * v + e, b * u + d * v + f)
            for u, v in ((left.value, bottom.value), (right.value, top.value), (left.value, top.value), (right.value, bottom.value))
        ]
        box = (min(p[0] for p in corners), min(p[1] for p in corners), max(p[0] for p in corners), max(p[1] for p in corners))
        if (box[2] - box[0]) * (box[3] - box[1]) <= settings.background_share * page_area:
            figures.append(box)

    def path(obj: Any, ctm: tuple, parent: tuple) -> None:
        n = pdfium_c.FPDFPath_CountSegments(obj)
        if n <= 0:
            return
        pdfium_c.FPDFPath_GetDrawMode(obj, fill_mode, stroke)
        if not fill_mode.value and not stroke.value:
            return
        if n > _MAX_PATH_SEGMENTS:
            figure_from_bounds(obj, parent)
            return
        a, b, c, d, e, f = ctm
        points: list[tuple[float, float]] = []
        subpaths: list[list[tuple[float, float]]] = []
        for k in range(n):
            seg = pdfium_c.FPDFPath_GetPathSegment(obj, k)
            kind = pdfium_c.FPDFPathSegment_GetType(seg)
            if kind == pdfium_c.FPDF_SEGMENT_BEZIERTO:  # curved artwork: a figure, never a rule
                figure_from_bounds(obj, parent)
                return
            pdfium_c.FPDFPathSegment_GetPoint(seg, x, y)
            px, py = frame.point(a * x.value + c * y.value + e, b * x.value + d * y.value + f)
            if kind == pdfium_c.FPDF_SEGMENT_MOVETO:
                if len(points) > 1:
                    subpaths.append(points)
                points = [(px, py)]
            else:
                points.append((px, py))
            if pdfium_c.FPDFPathSegment_GetClose(seg) and points:
                points.append(points[0])
        if len(points) > 1:
            subpaths.append(points)
        for pts in subpaths:
            if any(abs(xa - xb) > 0.5 and abs(ya - yb) > 0.5 for (xa, ya), (xb, yb) in zip(pts, pts[1:])):
                figure_from_bounds(obj, parent)  # slanted sides: a chart line or a polygon
                return
        for pts in subpaths:
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            w, h = max(xs) - min(xs), max(ys) - min(ys)
            if fill_mode.value and len(pts) >= 4 and (w <= thin or h <= thin):
                if w <= thin and h <= thin:
                    continue
                mx, my = (max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2
                if h <= thin:
                    add(min(xs), my, max(xs), my)
                else:
                    add(mx, min(ys), mx, max(ys))
                continue
            if w * h > settings.background_share * page_area:
                continue
            for (xa, ya), (xb, yb) in zip(pts, pts[1:]):
                add(xa, ya, xb, yb)

    def image(ctm: tuple) -> None:  # an image fills the unit square of its matrix
        a, b, c, d, e, f = ctm
        corners = [frame.point(a * u + c * v + e, b * u + d * v + f) for u, v in ((0, 0), (1, 0), (0, 1), (1, 1))]
        xs = [p[0] for p in corners]
        ys = [p[1] for p in corners]
        box = (min(xs), min(ys), max(xs), max(ys))
        if (box[2] - box[0]) * (box[3] - box[1]) <= settings.background_image_share * page_area:
            figures.append(box)

    def walk(container: Any, is_form: bool, ctm: tuple, depth: int) -> None:
        count = pdfium_c.FPDFFormObj_CountObjects(container) if is_form else pdfium_c.FPDFPage_CountObjects(container)
        for k in range(max(count, 0)):
            obj = pdfium_c.FPDFFormObj_GetObject(container, k) if is_form else pdfium_c.FPDFPage_GetObject(container, k)
            kind = pdfium_c.FPDFPageObj_GetType(obj)
            if kind not in (pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_FORM, pdfium_c.FPDF_PAGEOBJ_IMAGE):
                continue
            pdfium_c.FPDFPageObj_GetMatrix(obj, fs)
            matrix = _compose(ctm, (fs.a, fs.b, fs.c, fs.d, fs.e, fs.f))
            if kind == pdfium_c.FPDF_PAGEOBJ_PATH:
                path(obj, matrix, ctm)
            elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                image(matrix)
            elif depth < _MAX_FORM_DEPTH:
                walk(obj, True, matrix, depth + 1)

    walk(page.raw, False, _IDENTITY, 0)
    return edges, merge_boxes(figures)


def merge_boxes(boxes: list[tuple]) -> list[tuple]:
    """Merge boxes that overlap the box drawn just before them (artwork is drawn piece by piece)."""
    out: list[tuple] = []
    for box in boxes:
        if out:
            last = out[-1]
            if box[0] <= last[2] and box[2] >= last[0] and box[1] <= last[3] and box[3] >= last[1]:
                out[-1] = (min(last[0], box[0]), min(last[1], box[1]), max(last[2], box[2]), max(last[3], box[3]))
                continue
        out.append(box)
    return out


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
        x0, top, x1, bottom = _to_upright((ch.x0, ch.top, ch.x1, ch.bottom), main, W, H)
        groups.setdefault((o - main) % 360, []).append(ch._replace(x0=x0, top=top, x1=x1, bottom=bottom))
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
        """Parse a PDF into a DoclingDocument; raises a PdfError subclass when the file is unusable."""
        import pypdfium2 as pdfium

        info = inspect_pdf(path, max_bytes=self.max_bytes, max_pages=self.max_pages)
        try:
            pdf = pdfium.PdfDocument(str(info.path))
        except pdfium.PdfiumError as exc:  # pragma: no cover - inspect_pdf opened it already
            raise CorruptPdfError(info.path, str(exc)) from exc
        try:
            contents = [self._read_page(pdf[i], i + 1) for i in range(len(pdf))]
        finally:
            pdf.close()
        if not any(c.chars for c in contents):
            raise ImageOnlyPdfError(info.path)
        document = self.build_document(contents, name=info.path.stem)
        return ParsedDoc(
            document=document, path=info.path, sha256=info.sha256, parser=self.name, page_count=info.page_count
        )

    def _read_page(self, page: Any, number: int) -> PageContent:
        crop = tuple(page.get_cropbox())
        frame = _PageFrame(crop, page.get_rotation())
        try:
            chars = extract_chars(page, frame)
            edges, figures = extract_graphics(page, frame, self.settings) if chars else ([], [])
        finally:
            page.close()
        return PageContent(number, frame.width, frame.height, chars, edges, figures)

    # ---- analysis ----------------------------------------------------------------------------

    def analyse(self, contents: list[PageContent]) -> list[_PageResult]:
        """Tables, furniture and paragraphs of every page, in reading order."""
        settings = self.settings
        pages = [_prepare_page(c, settings) for c in contents]
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

    def build_document(self, contents: list[PageContent], name: str) -> DoclingDocument:
        """The DoclingDocument of analysed pages: pages with sizes, then items in reading order."""
        doc = DoclingDocument(name=name)
        for content in contents:
            doc.add_page(page_no=content.number, size=Size(width=content.width, height=content.height))
        for result in self.analyse(contents):
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
