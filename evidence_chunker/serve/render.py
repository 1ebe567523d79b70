"""Drawing evidence boxes on rendered PDF pages (pypdfium2 + Pillow), so a person can see the source."""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path

from ..units.evidence_unit import PageBox

#: Render resolution: pixels per PDF point (2.0 = 144 dpi).
DEFAULT_SCALE = 2.0
BOX_COLOUR = (220, 30, 30)
BOX_FILL = (220, 30, 30, 48)
BOX_WIDTH = 3
#: Pixels between pages when several are stacked in one image.
PAGE_GAP = 16
#: Most pixels one rendered page may have (about 40 million: an A4 page at 8 pixels per point is 32 million),
#: so a large scale is refused instead of exhausting memory.
MAX_PAGE_PIXELS = 40_000_000


def box_to_pixels(box: PageBox, page_height: float, scale: float) -> tuple[float, float, float, float]:
    """A BOTTOMLEFT box in points → ``(left, top, right, bottom)`` pixels with a top-left origin."""
    if box.coord_origin.upper() != "BOTTOMLEFT":
        raise ValueError(f"box on page {box.page} has origin {box.coord_origin}; expected BOTTOMLEFT")
    l, t, r, b = box.bbox
    return (l * scale, (page_height - t) * scale, r * scale, (page_height - b) * scale)


def render_boxes(pdf_path: str | Path | bytes, boxes: Iterable[PageBox], out_path: str | Path,
                 pages: Iterable[int] | None = None, scale: float = DEFAULT_SCALE) -> list[int]:
    """Render the pages that hold ``boxes`` (or ``pages``) with the boxes drawn; write one PNG. ``pdf_path``
    is the PDF's path or its bytes (bytes already checked against a hash are drawn as they were checked).

    Several pages are stacked top to bottom. Returns the 1-based pages drawn.
    """
    import pypdfium2 as pdfium
    from PIL import Image, ImageDraw

    if not (scale > 0 and math.isfinite(scale)):
        raise ValueError(f"scale must be a finite number above 0 (pixels per point), got {scale}")
    boxes = list(boxes)
    wanted = sorted(set(pages) if pages is not None else {box.page for box in boxes})
    if not wanted:
        raise ValueError("nothing to draw: no boxes and no pages given")
    from_bytes = isinstance(pdf_path, (bytes, bytearray))
    pdf = pdfium.PdfDocument(bytes(pdf_path) if from_bytes else str(pdf_path))
    try:
        images = []
        for page_no in wanted:
            if not 1 <= page_no <= len(pdf):
                raise ValueError(f"{'the PDF' if from_bytes else pdf_path}: page {page_no} does not exist (the PDF "
                                 f"has {len(pdf)} pages)")
            page = pdf[page_no - 1]
            height = page.get_height()
            pixels = page.get_width() * scale * height * scale
            if pixels > MAX_PAGE_PIXELS:
                raise ValueError(f"page {page_no} at scale {scale:g} would be {pixels / 1e6:.0f} million pixels "
                                 f"(at most {MAX_PAGE_PIXELS / 1e6:.0f} million); use a smaller scale")
            image = page.render(scale=scale).to_pil().convert("RGBA")
            overlay = Image.new("RGBA", image.size, (0, 0, 0, 0))
            draw = ImageDraw.Draw(overlay)
            for box in boxes:
                if box.page == page_no:
                    draw.rectangle(box_to_pixels(box, height, scale), outline=BOX_COLOUR, fill=BOX_FILL, width=BOX_WIDTH)
            images.append(Image.alpha_composite(image, overlay).convert("RGB"))
    finally:
        pdf.close()
    width = max(im.width for im in images)
    canvas = Image.new("RGB", (width, sum(im.height for im in images) + PAGE_GAP * (len(images) - 1)), "white")
    y = 0
    for im in images:
        canvas.paste(im, (0, y))
        y += im.height + PAGE_GAP
    out = Path(out_path)
    out.parent.mkdir(parents=True, exist_ok=True)
    canvas.save(out, format="PNG")
    return wanted
