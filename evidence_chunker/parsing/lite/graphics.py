"""Rules and figure artwork drawn on a page, for the lite parser: the horizontal and vertical sides of
stroked lines and rectangles (where table rules are), and the boxes of curves, slanted shapes and images
(where charts and pictures are), in the top-down frame of the displayed page (points).

Page objects are walked through pdfium with plain-int handles (see :mod:`.lite_pdfium`); the text objects
that :func:`.lite_pdfium.extract_chars` met are passed over without asking pdfium their type.
"""

from __future__ import annotations

import ctypes
import struct
from typing import Any, Collection

from .pdfium import PageFrame, _pdfium
from .settings import LiteSettings
from .found_tables import Edge

__all__ = ["extract_graphics", "merge_boxes"]

#: Skip path objects with more segments than this (glyph-like artwork, maps): no table rule is that busy.
_MAX_PATH_SEGMENTS = 400
#: Nested forms deeper than this are not walked.
_MAX_FORM_DEPTH = 8
_IDENTITY = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
#: A path side whose ends differ by at most this (points) across its direction is straight (a rule).
_STRAIGHT_TOLERANCE = 0.5


def extract_graphics(
    page: Any, frame: PageFrame, settings: LiteSettings, text_objects: Collection[int] = frozenset()
) -> tuple[list[Edge], list[tuple]]:
    """Rules and figure artwork drawn on a page; ``text_objects`` are handles of page objects known to
    be text (from :func:`extract_chars`), passed over without asking pdfium their type.

    Rules are the horizontal and vertical sides of stroked lines and rectangles (a thin filled
    rectangle is one rule; page-sized backgrounds are ignored). Figures are the boxes of paths with
    curves or slanted sides and of images: where charts and pictures are.
    """
    import pypdfium2.raw as pdfium_c

    api = _pdfium()
    edges: list[Edge] = []
    figures: list[tuple] = []
    page_area = frame.width * frame.height
    # out-parameters as raw buffers passed by address (handles are plain ints, see _Pdfium)
    matrix_buffer = (ctypes.c_float * 6)()
    point = (ctypes.c_float * 2)()
    modes = (ctypes.c_int * 2)()  # fill mode, stroke
    bounds = (ctypes.c_float * 4)()  # left, bottom, right, top
    matrix_at, bounds_at = ctypes.addressof(matrix_buffer), ctypes.addressof(bounds)
    fill_at, stroke_at = ctypes.addressof(modes), ctypes.addressof(modes) + ctypes.sizeof(ctypes.c_int)
    read_point = struct.Struct("2f").unpack_from
    point_x, point_y = ctypes.byref(point), ctypes.byref(point, ctypes.sizeof(ctypes.c_float))
    thin = settings.rule_thickness
    bezier, move = pdfium_c.FPDF_SEGMENT_BEZIERTO, pdfium_c.FPDF_SEGMENT_MOVETO
    float_size = ctypes.sizeof(ctypes.c_float)

    def add(xa: float, ya: float, xb: float, yb: float) -> None:
        if abs(ya - yb) <= _STRAIGHT_TOLERANCE and abs(xa - xb) > 0:
            edges.append(Edge(min(xa, xb), (ya + yb) / 2, max(xa, xb), (ya + yb) / 2))
        elif abs(xa - xb) <= _STRAIGHT_TOLERANCE and abs(ya - yb) > 0:
            edges.append(Edge((xa + xb) / 2, min(ya, yb), (xa + xb) / 2, max(ya, yb)))

    def figure_from_bounds(obj: int, parent: tuple) -> None:
        api.object_bounds(obj, bounds_at, bounds_at + float_size, bounds_at + 2 * float_size, bounds_at + 3 * float_size)
        left, bottom, right, top = bounds
        a, b, c, d, e, f = parent
        corners = [
            frame.point(a * u + c * v + e, b * u + d * v + f)
            for u, v in ((left, bottom), (right, top), (left, top), (right, bottom))
        ]
        box = (min(p[0] for p in corners), min(p[1] for p in corners), max(p[0] for p in corners), max(p[1] for p in corners))
        if (box[2] - box[0]) * (box[3] - box[1]) <= settings.background_share * page_area:
            figures.append(box)

    def path(obj: int, ctm: tuple, parent: tuple) -> None:
        n = api.path_segments(obj)
        if n <= 0:
            return
        api.draw_mode(obj, fill_at, stroke_at)
        filled, stroked = modes
        if not filled and not stroked:
            return
        if n > _MAX_PATH_SEGMENTS:
            figure_from_bounds(obj, parent)
            return
        a, b, c, d, e, f = ctm
        points: list[tuple[float, float]] = []
        subpaths: list[list[tuple[float, float]]] = []
        handle = ctypes.c_void_p(obj)
        for k in range(n):
            seg = path_segment(handle, k)
            kind = segment_type(seg)
            if kind == bezier:  # curved artwork: a figure, never a rule
                figure_from_bounds(obj, parent)
                return
            segment_point(seg, point_x, point_y)
            u, v = read_point(point)
            px, py = to_page(a * u + c * v + e, b * u + d * v + f)
            if kind == move:
                if len(points) > 1:
                    subpaths.append(points)
                points = [(px, py)]
            else:
                points.append((px, py))
            if segment_close(seg) and points:
                points.append(points[0])
        if len(points) > 1:
            subpaths.append(points)
        for pts in subpaths:
            if any(abs(xa - xb) > _STRAIGHT_TOLERANCE and abs(ya - yb) > _STRAIGHT_TOLERANCE for (xa, ya), (xb, yb) in zip(pts, pts[1:])):
                figure_from_bounds(obj, parent)  # slanted sides: a chart line or a polygon
                return
        for pts in subpaths:
            xs = [p[0] for p in pts]
            ys = [p[1] for p in pts]
            w, h = max(xs) - min(xs), max(ys) - min(ys)
            if filled and len(pts) >= 4 and (w <= thin or h <= thin):
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

    drawn = (pdfium_c.FPDF_PAGEOBJ_PATH, pdfium_c.FPDF_PAGEOBJ_FORM, pdfium_c.FPDF_PAGEOBJ_IMAGE)
    object_type = api.object_type
    path_segment, segment_type, segment_point, segment_close = (
        api.path_segment, api.segment_type, api.segment_point, api.segment_close
    )
    to_page = frame.point

    def walk(container: int, is_form: bool, ctm: tuple, depth: int) -> None:
        # filings draw each glyph as an object of its own: those are passed over as known text, or else
        # on their type alone
        if is_form:
            count, get = api.form_objects, api.form_object
        else:  # unchecked functions, given the page as a pointer object
            count, get, container = api.page_objects, api.page_object, ctypes.c_void_p(container)
        for k in range(max(count(container), 0)):
            obj = get(container, k)
            if obj in text_objects:
                continue
            kind = object_type(obj)
            if kind not in drawn:
                continue
            api.object_matrix(obj, matrix_at)
            matrix = _compose(ctm, tuple(matrix_buffer))
            if kind == pdfium_c.FPDF_PAGEOBJ_PATH:
                path(obj, matrix, ctm)
            elif kind == pdfium_c.FPDF_PAGEOBJ_IMAGE:
                image(matrix)
            elif depth < _MAX_FORM_DEPTH:
                walk(obj, True, matrix, depth + 1)

    walk(ctypes.cast(page.raw, ctypes.c_void_p).value, False, _IDENTITY, 0)
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
