"""pdfium (pypdfium2) for the lite parser: our own prototypes over its library, the frame of the
displayed page, and the glyphs of a page with their fonts, in the top-down frame (points). The rules
and figures drawn on a page are read in :mod:`.lite_graphics`.

Glyphs are read through pdfium's text page. A Python call into pdfium costs about as much as the work it
asks for, so the characters' code points come in one call per page, fonts are read once per font, and
what pdfium keeps per text object (font, size, matrix) once per text object; per glyph only its text
object and its box are asked for, the box written straight into one array for the whole page. Filings
often print each glyph as a text object of its own: there a glyph costs five calls. Everything else
(spaces, empty boxes, overprints, the frame) is done over whole arrays (:class:`.lite_text.Glyphs`).
Handles are plain ints, or pointer objects passed to functions that take no argument types, so ctypes
converts nothing per call.
"""

from __future__ import annotations

import ctypes
import math
import re
import sys
from bisect import bisect_left
from functools import lru_cache
from typing import Any, Callable, NamedTuple

import numpy as np

from .text import AMOUNT_MARKS, Glyphs

__all__ = ["PageFrame", "extract_chars"]

#: Bold faces by name: "Arial-BoldMT", "Helvetica-Bold", "NanumSquareB", "CMBX10", "NimbusRomNo9L-Medi".
_FONT_BOLD_RE = re.compile(
    r"(?i:bold|black|heavy|semibold|demibold|extrabold|ultrabold)|[a-z\-,_]B$|Bd$|[-,]B[a-zA-Z]?$|[A-Z]{2}BX\d|-Medi$"
)
_FONT_FLAG_FORCE_BOLD = 1 << 18
_BOLD_WEIGHT = 600
#: Length of a subset prefix ("ABCDEF+") before a font's base name.
_SUBSET_PREFIX = 8
#: Bytes of the buffer a font's base name is read into.
_FONT_NAME_BUFFER = 256
#: Code points pdfium reports for glyphs it cannot map (and GetText's stand-in for control codes).
_UNICODE_NONCHAR = frozenset({0xFFFE, 0xFFFF, 0xFFFD})
#: Spaces a page may print; pdfium also generates U+0020 for gaps and CR/LF at line ends.
_SPACES = frozenset({0x20, 0xA0, 0x3000, 0x09})
_LINE_BREAKS = frozenset({0x0D, 0x0A})
#: Code points that end a word without being a glyph.
_BLANKS = _SPACES | _LINE_BREAKS | _UNICODE_NONCHAR
_BLANK_CODES, _SPACE_CODES, _LINE_BREAK_CODES, _UNICODE_NONCHAR_CODES = (
    np.array(sorted(c)) for c in (_BLANKS, _SPACES, _LINE_BREAKS, _UNICODE_NONCHAR)
)
#: Glyphs closer than this many em stand for one word though pdfium put a line break between them.
_LETTER_GAP = 0.1
#: Glyphs whose printed space before them decides a word: ")" and "%" closing an amount.
_AMOUNT_MARK_CODES = np.array([ord(c) for c in AMOUNT_MARKS])
_FIRST_PRINTABLE = 0x20
_SURROGATE_FIRST, _LOW_SURROGATE_FIRST, _SURROGATE_LAST = 0xD800, 0xDC00, 0xDFFF
_SURROGATE_BASE = 0x10000
_SURROGATE_BITS = 10
#: Bytes of an FS_MATRIX's a, b, c, d (four floats): the part that sets size and orientation.
_LINEAR_PART = 16
#: A glyph repeated within this distance (points) of the same glyph is an overprint.
_DUPLICATE_DISTANCE = 1.0
#: Degrees of a quarter turn, and half of one (orientations are rounded to quarter turns).
_QUARTER_TURN = 90
_FULL_TURN = 360


class _Pdfium(NamedTuple):
    """pdfium's functions with plain-int handles: no ctypes pointer object made per call.

    The text-page functions called once per glyph take no argument types (ctypes checks and converts
    nothing): they are passed the text page as a ``c_void_p``, indexes as ints and out-buffers by
    reference, which is about a fifth cheaper per call.
    """

    count_chars: Any
    get_text: Any
    get_unicode: Any
    is_generated: Any
    text_object: Any
    loose_box: Any
    matrix: Any
    font_size: Any
    object_font: Any
    font_name: Any
    font_weight: Any
    font_flags: Any
    page_objects: Any
    page_object: Any
    form_objects: Any
    form_object: Any
    object_type: Any
    object_matrix: Any
    object_bounds: Any
    path_segments: Any
    path_segment: Any
    segment_type: Any
    segment_point: Any
    segment_close: Any
    draw_mode: Any


class _Handle(ctypes.c_void_p):
    """A pdfium handle kept as a ctypes object (a ``c_void_p`` subclass is not turned into an int), to
    be passed on to functions without argument types as it is."""


@lru_cache(maxsize=1)
def _pdfium() -> _Pdfium:
    """Prototypes over the library pypdfium2 loaded (the same handle, so the same documents)."""
    import pypdfium2_raw
    from pypdfium2_raw import bindings

    lib = getattr(bindings, "_libs", {}).get("pdfium")
    if lib is None:  # pragma: no cover - an older pypdfium2 layout; dlopen returns the loaded library
        from pathlib import Path

        folder = Path(pypdfium2_raw.__file__).parent
        lib = ctypes.CDLL(str(next(p for p in folder.iterdir() if "pdfium" in p.name and p.suffix in (".so", ".dll", ".dylib"))))
    vp, i, d = ctypes.c_void_p, ctypes.c_int, ctypes.c_double

    def fn(name: str, restype: Any, *argtypes: Any) -> Any:
        f = lib[name]  # a new function object: pypdfium2's own prototypes are left untouched
        f.argtypes, f.restype = argtypes, restype
        return f

    def unchecked(name: str, restype: Any) -> Any:
        f = lib[name]
        f.argtypes, f.restype = None, restype
        return f

    return _Pdfium(
        count_chars=unchecked("FPDFText_CountChars", i),
        get_text=unchecked("FPDFText_GetText", i),
        get_unicode=unchecked("FPDFText_GetUnicode", ctypes.c_uint),
        is_generated=unchecked("FPDFText_IsGenerated", i),
        text_object=unchecked("FPDFText_GetTextObject", vp),
        loose_box=unchecked("FPDFText_GetLooseCharBox", i),
        matrix=unchecked("FPDFText_GetMatrix", i),
        font_size=unchecked("FPDFText_GetFontSize", d),
        object_font=fn("FPDFTextObj_GetFont", vp, vp),
        font_name=fn("FPDFFont_GetBaseFontName", ctypes.c_size_t, vp, vp, ctypes.c_size_t),
        font_weight=fn("FPDFFont_GetWeight", i, vp),
        font_flags=fn("FPDFFont_GetFlags", i, vp),
        page_objects=unchecked("FPDFPage_CountObjects", i),
        page_object=unchecked("FPDFPage_GetObject", vp),
        form_objects=fn("FPDFFormObj_CountObjects", i, vp),
        form_object=fn("FPDFFormObj_GetObject", vp, vp, ctypes.c_ulong),
        object_type=fn("FPDFPageObj_GetType", i, vp),
        object_matrix=fn("FPDFPageObj_GetMatrix", i, vp, vp),
        object_bounds=fn("FPDFPageObj_GetBounds", i, vp, vp, vp, vp, vp),
        path_segments=fn("FPDFPath_CountSegments", i, vp),
        path_segment=unchecked("FPDFPath_GetPathSegment", _Handle),
        segment_type=unchecked("FPDFPathSegment_GetType", i),
        segment_point=unchecked("FPDFPathSegment_GetPoint", i),
        segment_close=unchecked("FPDFPathSegment_GetClose", i),
        draw_mode=fn("FPDFPath_GetDrawMode", i, vp, vp, vp),
    )


def _font_info(api: _Pdfium, font: int | None, buffer: ctypes.Array) -> tuple[str, bool]:
    """Base name (subset prefix removed) and boldness of a pdfium font handle."""
    name = ""
    if font:
        length = api.font_name(font, buffer, len(buffer))
        if length:
            name = buffer.value.decode("utf-8", "replace")
    if "+" in name[:_SUBSET_PREFIX]:
        name = name.split("+", 1)[1]
    bold = bool(_FONT_BOLD_RE.search(name))
    if font and not bold:
        bold = api.font_weight(font) >= _BOLD_WEIGHT or bool(api.font_flags(font) & _FONT_FLAG_FORCE_BOLD)
    return name, bold


def _code_points(api: _Pdfium, textpage: ctypes.c_void_p, count: int) -> np.ndarray:
    """Each character's code unit as FPDFText_GetUnicode reports it, read in one call.

    GetText reports U+FFFE for control codes; those few are asked again one by one. When its length
    does not match the characters (a pdfium whose wchar_t is 32 bits), every character is asked.
    """
    buffer = (ctypes.c_ushort * (count + 1))()
    written = api.get_text(textpage, 0, count, buffer)
    if written - 1 != count:
        return np.array([api.get_unicode(textpage, i) for i in range(count)], dtype=np.int64)
    codes = np.frombuffer(buffer, dtype=np.uint16, count=count).astype(np.int64)
    for i in np.flatnonzero(np.isin(codes, _UNICODE_NONCHAR_CODES)).tolist():
        codes[i] = api.get_unicode(textpage, i)
    return codes


def _decode_surrogates(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Code points and the character index each starts at: UTF-16 surrogate pairs (a 16-bit wchar_t)
    joined, lone surrogates dropped."""
    index = np.arange(len(codes))
    surrogate = (codes >= _SURROGATE_FIRST) & (codes <= _SURROGATE_LAST)
    if not surrogate.any():
        return codes, index
    keep = np.ones(len(codes), dtype=bool)
    points = codes.copy()
    values = codes.tolist()
    taken = -1  # the low half of the pair joined last
    for i in np.flatnonzero(surrogate).tolist():
        if i == taken:
            keep[i] = False
            continue
        code, low = values[i], values[i + 1] if i + 1 < len(values) else 0
        if code < _LOW_SURROGATE_FIRST and _LOW_SURROGATE_FIRST <= low <= _SURROGATE_LAST:
            points[i] = _SURROGATE_BASE + ((code - _SURROGATE_FIRST) << _SURROGATE_BITS) + (low - _LOW_SURROGATE_FIRST)
            taken = i + 1
        else:
            keep[i] = False
    return points[keep], index[keep]


def extract_chars(page: Any, frame: "PageFrame") -> tuple[Glyphs, np.ndarray, set[int]]:
    """Every printed glyph of a page in content-stream order, each one's orientation (0, 90, 180,
    270 degrees counter-clockwise), and the handles of the text objects that print them.

    Python meets pdfium only where it must: one call for every character's code, then per glyph its
    text object and box (the box written straight into one array for the page), per new text object
    its font, matrix and size. Spaces, filters and the glyph records are whole-array passes.
    """
    api = _pdfium()
    text_page = page.get_textpage()
    try:
        raw = ctypes.cast(text_page.raw, ctypes.c_void_p)
        count = api.count_chars(raw)
        points, index = _decode_surrogates(_code_points(api, raw, count))
        blank = np.isin(points, _BLANK_CODES) | (points < _FIRST_PRINTABLE)
        glyph = np.flatnonzero(~blank & (points <= sys.maxunicode))
        chars = index[glyph].tolist()
        boxes = (ctypes.c_float * (4 * len(chars)))()  # FS_RECTF per glyph: left, top, right, bottom
        box_size = 4 * ctypes.sizeof(ctypes.c_float)
        matrix = (ctypes.c_float * 6)()  # FS_MATRIX: a, b, c, d, e, f
        at = ctypes.byref
        name_buffer = ctypes.create_string_buffer(_FONT_NAME_BUFFER)
        fonts: dict[int | None, tuple[str, bool]] = {}
        # pdfium gives every glyph of a text object the object's font, size and matrix; filings often
        # print each glyph as an object of its own, so styles are also shared by what defines them
        objects: dict[int | None, int] = {}
        keys: dict[tuple, int] = {}
        styles: list[tuple[str, float, bool, int]] = []
        style_of: list[int] = []
        text_object, loose_box = api.text_object, api.loose_box
        object_font, get_matrix, font_size = api.object_font, api.matrix, api.font_size
        for k, i in enumerate(chars):
            obj = text_object(raw, i)
            style = objects.get(obj)
            if style is None:
                font = object_font(obj) if obj else None
                get_matrix(raw, i, matrix)
                size = font_size(raw, i)
                key = (font, bytes(matrix)[:_LINEAR_PART], size)  # the glyph's position plays no part
                style = keys.get(key)
                if style is None:
                    info = fonts.get(font)
                    if info is None:
                        info = fonts[font] = _font_info(api, font, name_buffer)
                    style = keys[key] = len(styles)
                    styles.append(_style(info, size, matrix, frame.rotation))
                objects[obj] = style
            loose_box(raw, i, at(boxes, k * box_size))
            style_of.append(style)
        glyphs, orientation = _glyphs(
            points, blank, glyph, boxes, np.array(style_of, dtype=np.intp), styles, frame,
            printed=lambda k: not api.is_generated(raw, int(index[k])),
        )
        return glyphs, orientation, set(objects)
    finally:
        text_page.close()


def _glyphs(
    points: np.ndarray, blank: np.ndarray, glyph: np.ndarray, boxes: ctypes.Array,
    style_of: np.ndarray, styles: list[tuple[str, float, bool, int]], frame: "PageFrame",
    printed: Callable[[int], bool],
) -> tuple[Glyphs, np.ndarray]:
    """The Glyphs of a page from pdfium's loose boxes (PDF user space) and text styles: boxes in the
    top-down frame, empty ones dropped, overprints read once, spaces before each glyph noted.

    ``printed(k)`` says whether the space at position ``k`` of ``points`` is printed on the page (not
    made up by pdfium for a gap). It decides a word only before a ")" or "%" closing an amount
    (:func:`.lite_text.words_from_glyphs`), so only there is it asked: elsewhere ``printed_space`` is
    False.
    """
    left, top_, right, bottom_ = np.frombuffer(boxes, dtype=np.float32).astype(float).reshape(-1, 4).T
    if frame.rotation == 0:
        x0 = np.where(left <= right, left, right) - frame.left
        x1 = np.where(left <= right, right, left) - frame.left
        top = frame.top - np.where(top_ >= bottom_, top_, bottom_)
        bottom = frame.top - np.where(top_ >= bottom_, bottom_, top_)
    else:
        x0, top, x1, bottom = frame.boxes(left, bottom_, right, top_)
    shown = ~((x1 - x0 <= 0) & (bottom - top <= 0))
    glyph, x0, top, x1, bottom, style_of = glyph[shown], x0[shown], top[shown], x1[shown], bottom[shown], style_of[shown]
    codes = points[glyph]
    kept = _overprints_dropped(codes, x0, top)
    if not kept.all():
        glyph, x0, top, x1, bottom, style_of, codes = (
            v[kept] for v in (glyph, x0, top, x1, bottom, style_of, codes)
        )
    names: dict[str, int] = {}
    style_font = np.array([names.setdefault(s[0], len(names)) for s in styles] or [0], dtype=np.intp)
    style_size = np.array([s[1] for s in styles] or [0.0], dtype=float)
    style_bold = np.array([s[2] for s in styles] or [False], dtype=bool)
    style_orientation = np.array([s[3] for s in styles] or [0], dtype=np.intp)
    size = style_size[style_of]
    # the spaces before a glyph are those since the glyph shown before it. A line break pdfium made up
    # between two upright glyphs is one only when they stand apart: pdfium guesses a new line wherever
    # a filing prints each glyph as an object of its own, between the glyphs of a word
    # ("2\r\n,\r\n3\r\n4\r\n6" for "2,346") as between words. Letters set one by one touch; a word
    # space is a quarter em. A real new line is cut by words_from_glyphs (a backtrack, another baseline).
    is_break = np.isin(points, _LINE_BREAK_CODES)
    spaces = np.concatenate(([0], np.cumsum(blank & ~is_break)))
    breaks = np.concatenate(([0], np.cumsum(is_break)))
    previous = np.concatenate(([0], glyph[:-1] + 1))
    space_before = spaces[glyph] > spaces[previous]
    broken = ~space_before & (breaks[glyph] > breaks[previous])
    if broken.any():
        upright = style_orientation[style_of] == 0
        gap = x0 - np.concatenate(([-np.inf], x1[:-1]))
        touching = upright & np.concatenate(([False], upright[:-1])) & (gap <= _LETTER_GAP * size)
        space_before |= broken & ~touching
    glyphs = Glyphs(
        "".join(map(chr, codes.tolist())), x0, top, x1, bottom, size, style_bold[style_of],
        style_font[style_of], list(names), space_before, np.zeros(len(glyph), dtype=bool),
    )
    if AMOUNT_MARKS[0] in glyphs.text or AMOUNT_MARKS[1] in glyphs.text:
        is_space = np.isin(points, _SPACE_CODES)
        marks = np.flatnonzero(np.isin(codes, _AMOUNT_MARK_CODES) & space_before)
        for k in marks.tolist():
            start = previous[k]
            gaps = np.flatnonzero(is_space[start:glyph[k]]) + start
            glyphs.printed_space[k] = any(printed(p) for p in gaps.tolist())
    return glyphs, style_orientation[style_of]


def _overprints_dropped(codes: np.ndarray, x0: np.ndarray, top: np.ndarray) -> np.ndarray:
    """Which glyphs to keep (a boolean array): a glyph printed again (almost) where the same glyph was
    printed before, on the same line, is fake bold or a shadow and read once; a ligature split into its
    letters ("ffi" as f, f, i) repeats a glyph box right after itself and is kept.

    Only glyphs with a twin within reach are walked in order; the others can never be dropped.
    """
    kept = np.ones(len(codes), dtype=bool)
    if len(codes) < 2:
        return kept
    line = np.rint(top)
    order = np.lexsort((x0, line, codes))
    same = (codes[order][1:] == codes[order][:-1]) & (line[order][1:] == line[order][:-1])
    near = same & (np.abs(x0[order][1:] - x0[order][:-1]) < _DUPLICATE_DISTANCE)
    if not near.any():
        return kept
    twin = np.zeros(len(codes), dtype=bool)
    twin[order[1:][near]] = True
    twin[order[:-1][near]] = True
    seen: dict[tuple[int, float], list[float]] = {}
    xs_all, codes_all, lines_all = x0.tolist(), codes.tolist(), line.tolist()
    for k in np.flatnonzero(twin).tolist():
        x = xs_all[k]
        key = (codes_all[k], lines_all[k])
        xs = seen.get(key)  # sorted
        if xs is None:
            seen[key] = [x]
            continue
        at = bisect_left(xs, x)
        close = (at < len(xs) and xs[at] - x < _DUPLICATE_DISTANCE) or (at and x - xs[at - 1] < _DUPLICATE_DISTANCE)
        if close:
            last = k - 1
            while last >= 0 and not kept[last]:
                last -= 1
            if not (last >= 0 and codes_all[last] == codes_all[k] and xs_all[last] == x):
                kept[k] = False
                continue
        xs.insert(at, x)
    return kept


def _style(font: tuple[str, bool], size: float, matrix: ctypes.Array, rotation: int) -> tuple[str, float, bool, int]:
    """Font name, size in points (font size times the matrix's vertical scale), boldness and
    orientation (quarter turns counter-clockwise on the displayed page) of a text object."""
    a, b, c, d, _e, _f = matrix
    size = size * (math.hypot(c, d) or 1.0)
    angle = (math.degrees(math.atan2(b, a)) - rotation) % _FULL_TURN
    orientation = int(((angle + _QUARTER_TURN / 2) % _FULL_TURN) // _QUARTER_TURN) * _QUARTER_TURN
    return font[0], size, font[1], orientation


class PageFrame:
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

    def boxes(self, left: np.ndarray, bottom: np.ndarray, right: np.ndarray, top: np.ndarray) -> tuple[np.ndarray, ...]:
        """:meth:`box` over arrays: ``x0, top, x1, bottom`` arrays."""
        xa, ya = self.point(left, bottom)
        xb, yb = self.point(right, top)
        # min and max as the builtins pick them (the first of equals)
        return (np.where(xb < xa, xb, xa), np.where(yb < ya, yb, ya),
                np.where(xb > xa, xb, xa), np.where(yb > ya, yb, ya))
