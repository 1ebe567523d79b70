"""Opening a PDF safely: the checks every parser runs before it reads a page."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from ..errors import (
    CorruptPdfError,
    EmptyPdfError,
    EncryptedPdfError,
    NotAPdfError,
    PdfNotFoundError,
    PdfTooLargeError,
)

#: Files above this size are refused unless the caller raises the limit (bytes).
DEFAULT_MAX_PDF_BYTES = 512 * 1024 * 1024
#: Documents above this page count are refused unless the caller raises the limit.
DEFAULT_MAX_PAGES = 5000
_PDF_MAGIC = b"%PDF-"
#: The PDF header may be preceded by junk; readers accept it within the first KiB.
_MAGIC_WINDOW = 1024
_HASH_BLOCK = 1 << 20


@dataclass(frozen=True)
class PdfFileInfo:
    """What the pre-flight check learnt about a PDF: its sha256 and page count."""

    path: Path
    sha256: str
    page_count: int
    size_bytes: int


def file_sha256(path: str | Path) -> str:
    """Hex sha256 of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(_HASH_BLOCK), b""):
            digest.update(block)
    return digest.hexdigest()


def inspect_pdf(
    path: str | Path,
    max_bytes: int = DEFAULT_MAX_PDF_BYTES,
    max_pages: int = DEFAULT_MAX_PAGES,
) -> PdfFileInfo:
    """Check that ``path`` is a readable, unencrypted PDF with pages; raise a specific PdfError if not."""
    import pypdfium2 as pdfium

    path = Path(path)
    if not path.is_file():
        raise PdfNotFoundError(path)
    size = path.stat().st_size
    if size == 0:
        raise NotAPdfError(path, "the file is empty")
    if size > max_bytes:
        raise PdfTooLargeError(path, f"{size:,} bytes > max_bytes={max_bytes:,}")
    with open(path, "rb") as handle:
        head = handle.read(_MAGIC_WINDOW)
    if _PDF_MAGIC not in head:
        raise NotAPdfError(path)
    try:
        pdf = pdfium.PdfDocument(str(path))
    except pdfium.PdfiumError as exc:
        raise _classify_unreadable(path, exc) from exc
    try:
        pages = len(pdf)
    finally:
        pdf.close()
    if pages == 0:
        raise EmptyPdfError(path)
    if pages > max_pages:
        raise PdfTooLargeError(path, f"{pages} pages > max_pages={max_pages}")
    return PdfFileInfo(path=path, sha256=file_sha256(path), page_count=pages, size_bytes=size)


def _classify_unreadable(path: Path, exc: Exception) -> Exception:
    """Why PDFium refused a file: encrypted, no pages, or damaged.

    PDFium's error code can be stale (it keeps the last one), so pdfminer decides instead.
    """
    from pdfminer.pdfdocument import PDFDocument, PDFPasswordIncorrect
    from pdfminer.pdfpage import PDFPage
    from pdfminer.pdfparser import PDFParser

    try:
        with open(path, "rb") as handle:
            document = PDFDocument(PDFParser(handle))
            if document.encryption is not None:
                return EncryptedPdfError(path)
            if next(PDFPage.create_pages(document), None) is None:
                return EmptyPdfError(path)
    except PDFPasswordIncorrect:
        return EncryptedPdfError(path)
    except Exception as inner:  # pdfminer raises many types on damaged files
        return CorruptPdfError(path, f"{_without_stale_code(exc)}; {inner.__class__.__name__}: {inner}")
    return CorruptPdfError(path, _without_stale_code(exc))


#: pypdfium2 appends PDFium's last error code to its message ("(PDFium: Success)", "(PDFium: Incorrect
#: password)"); that code may belong to the previous file, so it is never shown.
_PDFIUM_CODE = re.compile(r"\s*\(PDFium:[^)]*\)")


def _without_stale_code(exc: Exception) -> str:
    return _PDFIUM_CODE.sub("", str(exc)).strip() or exc.__class__.__name__
