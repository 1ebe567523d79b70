"""Scans made from born-digital PDFs, for the OCR benchmark and tests: every page rendered to a grayscale
image and rebuilt as an image-only PDF, optionally with a garbled text layer over the image (invisible
text, as a bad earlier OCR or a font without a Unicode map leaves it).

The garbled layer writes each word of the page where it stands: ASCII shifted down 29 code points (what a
font whose codes are not Unicode gives: "The" reads "7KH") and anything else as its UTF-8 bytes read as
cp1252 ("사업" reads "ì‚¬ì—…"). Needs reportlab (the ``dev`` extra).
"""

from __future__ import annotations

from pathlib import Path

#: Code points an ASCII letter moves in the garbled layer.
GARBLE_SHIFT = 29
_PRINTABLE_FIRST, _PRINTABLE_LAST = 0x21, 0x7E
_POINTS_PER_INCH = 72.0


def garble(word: str) -> str:
    """A word as a broken text layer reads it (see the module)."""
    out = []
    for ch in word:
        if ch.isascii():
            code = ord(ch) - GARBLE_SHIFT
            if code < _PRINTABLE_FIRST:
                code += _PRINTABLE_LAST - _PRINTABLE_FIRST + 1
            out.append(chr(code))
        else:
            out.append(ch.encode("utf-8").decode("cp1252", errors="replace"))
    return "".join(out)


def scan_pdf(source: Path, target: Path, dpi: int = 300, garbled: bool = False,
             pages: list[int] | None = None) -> Path:
    """Write ``target``: the pages of ``source`` (0-based ``pages``, default all) as images at ``dpi``,
    with a garbled invisible text layer when ``garbled``."""
    import pdfplumber
    import pypdfium2 as pdfium
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    pdf = pdfium.PdfDocument(str(source))
    plumber = pdfplumber.open(str(source)) if garbled else None
    out = canvas.Canvas(str(target), invariant=1)
    try:
        for index in pages if pages is not None else range(len(pdf)):
            page = pdf[index]
            width, height = page.get_size()
            image = page.render(scale=dpi / _POINTS_PER_INCH, grayscale=True).to_pil()
            page.close()
            out.setPageSize((width, height))
            out.drawImage(ImageReader(image), 0, 0, width=width, height=height)
            if plumber is not None:
                text = out.beginText()
                text.setTextRenderMode(3)  # invisible: the image shows, the layer is what a reader extracts
                for word in plumber.pages[index].extract_words():
                    size = max(1.0, word["bottom"] - word["top"])
                    text.setFont("Helvetica", size)
                    text.setTextOrigin(word["x0"], height - word["bottom"])
                    text.textOut(garble(word["text"]))
                out.drawText(text)
            out.showPage()
        out.save()
    finally:
        pdf.close()
        if plumber is not None:
            plumber.close()
    return target
