"""Parsers: every one turns a PDF into a ParsedDoc holding a docling-core DoclingDocument."""

from __future__ import annotations

import warnings
from pathlib import Path

from .docling_parser import DoclingParser
from .lite.parser import LiteParser, LiteSettings
from .ocr import OcrOptions
from .parsed import ParsedDoc, PdfParser, repair_hierarchy
from .pdf_file import DEFAULT_MAX_PAGES, DEFAULT_MAX_PDF_BYTES, PdfFileInfo, file_sha256, inspect_pdf

PARSER_NAMES = ("auto", "docling", "lite")


class ParserFallbackWarning(UserWarning):
    """The automatic parser choice fell back to the lite parser; the message says why."""


def resolve_parser(choice: PdfParser | str | None = None, artifacts_path: str | Path | None = None,
                   ocr: OcrOptions | None = None) -> PdfParser:
    """A parser object for ``choice``: a PdfParser as is, or "auto" (None) / "docling" / "lite", each
    following the OCR choice ``ocr`` (default: on, Korean and English) for pages without a usable text layer.

    "docling" never falls back: it raises ModelsUnavailableError when the models cannot be had.
    "auto" uses Docling when its models are present or can be fetched, else the lite parser with a
    ParserFallbackWarning that says why.
    """
    from .docling_parser import models_status

    if choice is not None and not isinstance(choice, str):
        if not hasattr(choice, "parse"):
            raise TypeError(f"parser must have a parse(path) method or be one of {PARSER_NAMES}, got {choice!r}")
        return choice
    ocr = ocr or OcrOptions()
    name = (choice or "auto").lower()
    if name == "lite":
        return LiteParser(settings=ocr.lite_settings())
    if name == "docling":
        return DoclingParser(artifacts_path=artifacts_path, ocr=ocr)
    if name != "auto":
        raise ValueError(f"unknown parser {choice!r}; choose one of {PARSER_NAMES} or pass a PdfParser")
    ok, reason = models_status(artifacts_path)
    if ok:
        return DoclingParser(artifacts_path=artifacts_path, ocr=ocr)
    warnings.warn(f"using the lite parser: {reason}", ParserFallbackWarning, stacklevel=3)
    return LiteParser(settings=ocr.lite_settings())


__all__ = [
    "DoclingParser",
    "LiteParser",
    "LiteSettings",
    "OcrOptions",
    "DEFAULT_MAX_PAGES",
    "DEFAULT_MAX_PDF_BYTES",
    "PARSER_NAMES",
    "ParsedDoc",
    "ParserFallbackWarning",
    "PdfFileInfo",
    "PdfParser",
    "file_sha256",
    "inspect_pdf",
    "repair_hierarchy",
    "resolve_parser",
]
