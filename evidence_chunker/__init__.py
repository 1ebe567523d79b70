"""evidence_chunker: table-centric Evidence Units and Text Chunks from report PDFs."""

from typing import TYPE_CHECKING

from semantic_json.lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover
    from .chunker import EvidenceChunker
    from .errors import (
        CorruptPdfError,
        DoclingJsonError,
        DocumentTimeoutError,
        EmptyPdfError,
        EncryptedPdfError,
        EvidenceChunkerError,
        ExtraNotInstalledError,
        ImageOnlyPdfError,
        ModelsUnavailableError,
        NotAPdfError,
        NotARegularFileError,
        OcrUnavailableError,
        PageRangeError,
        PdfError,
        PdfNotFoundError,
        PdfTooLargeError,
        UnreadableFileError,
        UnreadableFolderError,
    )
    from .parsing import DoclingParser, LiteParser, ParsedDoc, ParserFallbackWarning, PdfParser
    from .parsing.pages import PageRange
    from .units.split import SplitResult, SplitStats, split_eu, split_oversized_units
    from .tokens import DEFAULT_TOKEN_LIMIT, count_eu_tokens, count_tokens, exceeds_token_limit
    from .units.evidence_unit import EvidenceUnit, PageBox

#: Where each public name lives. Names are imported on first use, so that commands which never parse
#: (``sjt search``, ``sjt verify``, ``sjt --version``) do not load the parsing stack (docling-core,
#: pypdfium2, pandas) just by importing the package.
_EXPORTS = {
    "EvidenceChunker": ".chunker",
    **{name: ".errors" for name in (
        "CorruptPdfError", "DoclingJsonError", "DocumentTimeoutError", "EmptyPdfError", "EncryptedPdfError", "EvidenceChunkerError",
        "ExtraNotInstalledError", "ImageOnlyPdfError", "ModelsUnavailableError", "NotAPdfError",
        "NotARegularFileError", "OcrUnavailableError", "PageRangeError", "PdfError",
        "PdfNotFoundError", "PdfTooLargeError", "UnreadableFileError", "UnreadableFolderError",
    )},
    **{name: ".parsing" for name in ("DoclingParser", "LiteParser", "ParsedDoc", "ParserFallbackWarning", "PdfParser")},
    "PageRange": ".parsing.pages",
    **{name: ".units.split" for name in ("SplitResult", "SplitStats", "split_eu", "split_oversized_units")},
    **{name: ".tokens" for name in ("DEFAULT_TOKEN_LIMIT", "count_eu_tokens", "count_tokens", "exceeds_token_limit")},
    **{name: ".units.evidence_unit" for name in ("EvidenceUnit", "PageBox")},
}


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

__version__ = "0.2.0"

__all__ = [
    "DEFAULT_TOKEN_LIMIT",
    "CorruptPdfError",
    "DoclingParser",
    "LiteParser",
    "DoclingJsonError",
    "DocumentTimeoutError",
    "EmptyPdfError",
    "EncryptedPdfError",
    "EvidenceChunker",
    "EvidenceChunkerError",
    "EvidenceUnit",
    "ExtraNotInstalledError",
    "ImageOnlyPdfError",
    "ModelsUnavailableError",
    "NotAPdfError",
    "NotARegularFileError",
    "OcrUnavailableError",
    "PageBox",
    "PageRange",
    "PageRangeError",
    "ParsedDoc",
    "ParserFallbackWarning",
    "PdfError",
    "PdfNotFoundError",
    "PdfParser",
    "PdfTooLargeError",
    "SplitResult",
    "SplitStats",
    "UnreadableFileError",
    "UnreadableFolderError",
    "count_eu_tokens",
    "count_tokens",
    "exceeds_token_limit",
    "split_eu",
    "split_oversized_units",
]
