"""Parsing some pages of a PDF, page by page: a page range (``--page-range``) and a per-page progress report.

Page numbers are 1-based and keep their place in the PDF: page 7 parsed alone is still page 7 in every id,
box and page list. The lite parser reads the pages one at a time (so progress moves page by page), Docling
converts only the range (and reports each page it completes), and a saved DoclingDocument JSON keeps the
range's pages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ..errors import PageRangeError
from .parsed import ParsedDoc

#: ``on_page(done, total)``: pages finished so far and pages to do, for a progress bar.
PageCallback = Callable[[int, int], None]


@dataclass(frozen=True)
class PageRange:
    """Pages ``first`` to ``last`` (1-based, inclusive); ``last`` None runs to the end of the document."""

    first: int
    last: int | None = None

    def __post_init__(self) -> None:
        if self.first < 1 or (self.last is not None and self.last < self.first):
            raise PageRangeError(f"page range {self}: pages start at 1 and LAST must be at least FIRST")

    @classmethod
    def parse(cls, text: str) -> "PageRange":
        """``FIRST-LAST`` (``3-7``), ``FIRST-`` (to the end) or one page (``4``), as Docling's CLI writes it."""
        first, dash, last = text.strip().partition("-")
        try:
            bounds = int(first), int(last) if last else (None if dash else int(first))
        except ValueError:
            raise PageRangeError(f"page range {text!r}: write FIRST-LAST (e.g. 3-7), FIRST- or one page "
                                 "number; pages start at 1") from None
        return cls(*bounds)

    def indices(self, page_count: int, path: Path | str) -> range:
        """0-based indices of the range's pages in a document of ``page_count`` pages (a range running past
        the end stops there); PageRangeError naming ``path`` when the range starts after the last page."""
        if self.first > page_count:
            raise PageRangeError(f"{path}: page range {self} starts after the last page ({page_count})")
        return range(self.first - 1, page_count if self.last is None else min(self.last, page_count))

    def __str__(self) -> str:
        return f"{self.first}-{'' if self.last is None else self.last}"


def parse_pages(parser: Any, path: str | Path, page_range: PageRange | None = None,
                on_page: PageCallback | None = None) -> ParsedDoc:
    """Parse the PDF ``path`` with ``parser``: only the pages of ``page_range`` (all by default), calling
    ``on_page(done, total)`` as pages are finished."""
    from .docling_parser import DoclingParser
    from .lite.parser import LiteParser
    from .pdf_file import inspect_pdf

    path = Path(path)
    if isinstance(parser, LiteParser):
        info = inspect_pdf(path, max_bytes=parser.max_bytes, max_pages=parser.max_pages)
        wanted = page_range.indices(info.page_count, path) if page_range else range(info.page_count)
        batches = []
        for done, index in enumerate(wanted, start=1):
            batches.append(parser.read_pages(info.path, index, index + 1))
            if on_page is not None:
                on_page(done, len(wanted))
        return parser.parse(info.path, pages=batches)
    if isinstance(parser, DoclingParser):
        if page_range is not None:
            page_range.indices(inspect_pdf(path, parser.max_bytes, parser.max_pages).page_count, path)
        bounds = None if page_range is None else (page_range.first, page_range.last or 2**31 - 1)
        return parser.parse(path, page_range=bounds, on_page=on_page)
    parsed = parser.parse(path)  # a parser of the caller's: the whole document, then the range's pages
    return _keep_pages(parsed, page_range, path) if page_range is not None else parsed


def load_docling_json(path: str | Path, page_range: PageRange | None = None) -> ParsedDoc:
    """A saved DoclingDocument JSON, cut to the pages of ``page_range`` when one is given."""
    parsed = ParsedDoc.from_docling_json(path)
    return _keep_pages(parsed, page_range, Path(path)) if page_range is not None else parsed


def _keep_pages(parsed: ParsedDoc, page_range: PageRange, path: Path) -> ParsedDoc:
    """The parsed document cut to the pages of ``page_range`` (their numbers unchanged)."""
    numbers = sorted(parsed.document.pages) or list(range(1, parsed.page_count + 1))
    wanted = {numbers[i] for i in page_range.indices(len(numbers), path)}
    document = parsed.document.filter(page_nrs=wanted)
    return replace(parsed, document=document, page_count=len(wanted))
