"""Exceptions raised by evidence_chunker.

Every error that concerns a file carries its path and says what was wrong and what to do.
"""

from __future__ import annotations

from pathlib import Path


class EvidenceChunkerError(Exception):
    """Base class of every error this package raises on purpose."""


class PdfError(EvidenceChunkerError, ValueError):
    """A PDF could not be parsed; ``path`` names the file and ``problem`` says why."""

    problem = "cannot be parsed"

    def __init__(self, path: str | Path, detail: str | None = None):
        self.path = Path(path)
        self.detail = detail
        message = f"{self.path}: {self.problem}"
        if detail:
            message += f" ({detail})"
        super().__init__(message)


class PdfNotFoundError(PdfError, FileNotFoundError):
    problem = "file not found"


class NotARegularFileError(PdfError):
    """An input that exists but is not a regular file (a FIFO, a device, a socket) or a symbolic link that
    loops; ``detail`` says which."""

    problem = "not a regular file"


class UnreadableFileError(PdfError):
    """An input this process may not read (no read permission); ``detail`` says what the system said."""

    problem = "cannot read the file"


class UnreadableFolderError(UnreadableFileError):
    """A folder under a walked folder that this process may not list; its files cannot be found."""

    problem = "cannot read the folder"


class NotAPdfError(PdfError):
    problem = "not a PDF file (it does not start with %PDF-)"


class CorruptPdfError(PdfError):
    problem = "the PDF is damaged and cannot be opened"


class EncryptedPdfError(PdfError):
    problem = "the PDF is encrypted; decrypt it first (for example `qpdf --decrypt in.pdf out.pdf`)"


class EmptyPdfError(PdfError):
    problem = "the PDF has no pages"


class ImageOnlyPdfError(PdfError):
    problem = "no text on any page (scanned or image-only)"


class OcrUnavailableError(PdfError):
    """Pages without a usable text layer need OCR and Tesseract cannot run here; ``detail`` says what is
    missing (the tesserocr binding, the language data) and the message how to install it."""

    problem = "has pages without a usable text layer that need OCR, and Tesseract cannot run here"


class PdfTooLargeError(PdfError):
    problem = "the PDF is larger than the configured limit"


class PageRangeError(EvidenceChunkerError, ValueError):
    """A page range that is malformed, or that starts after a document's last page (the message names it)."""


class DocumentTimeoutError(EvidenceChunkerError, TimeoutError):
    """Work on one document ran past the per-document time limit (``--document-timeout``)."""

    def __init__(self, path: str | Path, seconds: float):
        self.path = Path(path)
        self.seconds = seconds
        super().__init__(f"{self.path}: stopped after the document timeout of {seconds:g} s; skipped "
                         "(give it more time with --document-timeout, or parse fewer pages with --page-range)")


class DoclingJsonError(EvidenceChunkerError, ValueError):
    """A saved DoclingDocument JSON is malformed or not a DoclingDocument."""

    def __init__(self, path: str | Path, detail: str):
        self.path = Path(path)
        self.detail = detail
        super().__init__(f"{self.path}: not a usable DoclingDocument JSON ({detail})")


class ModelsUnavailableError(EvidenceChunkerError, RuntimeError):
    """Docling's layout/TableFormer weights are missing and could not be fetched."""


class ExtraNotInstalledError(EvidenceChunkerError, ImportError):
    """An optional feature was used without its extra installed."""

    def __init__(self, feature: str, extra: str, missing: str):
        self.extra = extra
        super().__init__(
            f"{feature} needs the '{extra}' extra ({missing} is not installed): "
            f'pip install "semantic-json-transport[{extra}]"'
        )


class TokenizerUnavailableError(EvidenceChunkerError, RuntimeError):
    """cl100k_base could not be loaded from the bundled file (missing or its hash differs)."""


class ChunkerUnavailableError(EvidenceChunkerError, ImportError):
    """docling-core's HybridChunker cannot run: a package it needs is missing."""

    def __init__(self, missing: list[str]):
        self.missing = missing
        super().__init__(
            f"Text Chunks need docling-core's HybridChunker, which needs {', '.join(missing)}: "
            f"pip install semchunk tree-sitter (both come with docling-core[chunking])"
        )


class CorpusFormatError(EvidenceChunkerError, ValueError):
    """A corpus JSONL line, or a dict given to ``from_dict`` (EvidenceUnit, TextChunk, PageBox), is not a
    record this version can read; the message names the file and line, or the field and what it held."""


class VectorStoreError(EvidenceChunkerError, ValueError):
    """The vector-store target cannot be used: unknown scheme, missing extra, unreachable server."""


class IngestTerminated(EvidenceChunkerError):
    """The ingest was stopped by SIGTERM; its workers were stopped and stored documents are kept."""


class WorkerDiedError(EvidenceChunkerError, RuntimeError):
    """A worker process died (killed by the system, say for memory) during an ingest."""


class RayUnavailableError(EvidenceChunkerError):
    """Ray is not installed, or the cluster at the given address cannot be reached."""


class ServingError(ValueError):
    """A request the servers refuse (bad argument, unknown region or document); the message says why."""


class NotServedError(ServingError):
    """A document the index does not hold, or whose PDF is not available: nothing to serve (HTTP 404)."""


class PdfChangedError(ServingError):
    """The file at a document's recorded PDF path is not the PDF the index was built from (HTTP 409)."""


class CliError(Exception):
    """Unusable input to a command (a missing or unreadable file, a bad option): printed as
    ``error: …`` on stderr, exit status 2."""
