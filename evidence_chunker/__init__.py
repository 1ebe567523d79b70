"""evidence_chunker: table-centric Evidence Units and Text Chunks from report PDFs."""

from .chunker import EvidenceChunker
from .errors import (
    CorruptPdfError,
    DoclingJsonError,
    EmptyPdfError,
    EncryptedPdfError,
    EvidenceChunkerError,
    ExtraNotInstalledError,
    ImageOnlyPdfError,
    ModelsUnavailableError,
    NotAPdfError,
    NotARegularFileError,
    PdfError,
    PdfNotFoundError,
    PdfTooLargeError,
)
from .parsing import DoclingParser, LiteParser, ParsedDoc, ParserFallbackWarning, PdfParser
from .split import SplitResult, SplitStats, split_eu, split_oversized_units
from .tokens import DEFAULT_TOKEN_LIMIT, count_eu_tokens, count_tokens, exceeds_token_limit
from .units import EvidenceUnit, PageBox

__version__ = "0.2.0"

__all__ = [
    "DEFAULT_TOKEN_LIMIT",
    "CorruptPdfError",
    "DoclingParser",
    "LiteParser",
    "DoclingJsonError",
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
    "PageBox",
    "ParsedDoc",
    "ParserFallbackWarning",
    "PdfError",
    "PdfNotFoundError",
    "PdfParser",
    "PdfTooLargeError",
    "SplitResult",
    "SplitStats",
    "count_eu_tokens",
    "count_tokens",
    "exceeds_token_limit",
    "split_eu",
    "split_oversized_units",
]
