"""EvidenceChunker: the PDF → Evidence Unit pipeline's entry point (its stages after parsing: :mod:`.pipeline`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from .units.build import BuildSettings
from .units.context import DEFAULT_BBOX_THRESHOLD, DEFAULT_SIM_THRESHOLD, MAX_CONTEXT_PARAGRAPHS
from .parsing import OcrOptions, PdfParser, ParsedDoc, resolve_parser
from .pipeline import Pipeline
from .units.split import SplitStats
from .tokens import DEFAULT_TOKEN_LIMIT
from .units.evidence_unit import EvidenceUnit

if TYPE_CHECKING:  # pragma: no cover
    from .corpus.chunks import RetrievalChunk
    from .parsing.pages import PageCallback, PageRange


class EvidenceChunker:
    """Parse PDFs and turn their tables into Evidence Units.

    ``parser`` is a PdfParser, or "auto" / "docling" / "lite"; None means "auto" (Docling's models
    when they are present or can be fetched, else the lite parser, with a warning that says why).
    ``artifacts_path`` is Docling's local model folder (ignored when a parser object is given).
    ``bbox_threshold`` is the reach of context collection in points; ``sim_threshold`` the minimum
    cosine similarity for a paragraph to be adopted as context. ``ocr`` is the OCR choice of the parser
    chosen by name (default: pages without a usable text layer read by Tesseract in Korean and English).
    """

    def __init__(
        self,
        parser: PdfParser | str | None = None,
        artifacts_path: str | None = None,
        bbox_threshold: float = DEFAULT_BBOX_THRESHOLD,
        sim_threshold: float = DEFAULT_SIM_THRESHOLD,
        token_limit: int = DEFAULT_TOKEN_LIMIT,
        max_context_paragraphs: int = MAX_CONTEXT_PARAGRAPHS,
        ocr: OcrOptions | None = None,
    ):
        if bbox_threshold < 0:
            raise ValueError(f"bbox_threshold must be >= 0 points, got {bbox_threshold}")
        if not -1.0 <= sim_threshold <= 1.0:
            raise ValueError(f"sim_threshold is a cosine similarity in [-1, 1], got {sim_threshold}")
        if token_limit < 1:
            raise ValueError(f"token_limit must be positive, got {token_limit}")
        self._parser_choice = parser
        self.artifacts_path = artifacts_path
        self.ocr = ocr or OcrOptions()
        self._parser: PdfParser | None = parser if not (parser is None or isinstance(parser, str)) else None
        self.settings = BuildSettings(
            bbox_threshold=bbox_threshold,
            sim_threshold=sim_threshold,
            max_context_paragraphs=max_context_paragraphs,
        )
        self.token_limit = token_limit
        self.last_split_stats = SplitStats()

    @property
    def bbox_threshold(self) -> float:
        return self.settings.bbox_threshold

    @property
    def sim_threshold(self) -> float:
        return self.settings.sim_threshold

    @property
    def pipeline(self) -> Pipeline:
        """The stages after parsing (units → split → corpus → semantic document) with this chunker's settings."""
        return Pipeline(self.settings, self.token_limit)

    @property
    def parser(self) -> PdfParser:
        """The parser in use, chosen on first use (so "auto" probes for models only when needed)."""
        if self._parser is None:
            self._parser = resolve_parser(self._parser_choice, artifacts_path=self.artifacts_path, ocr=self.ocr)
        return self._parser

    def parse(self, pdf_path: str | Path, page_range: "PageRange | None" = None,
              on_page: "PageCallback | None" = None) -> ParsedDoc:
        """Parse one PDF with the chosen parser (a saved DoclingDocument JSON is loaded instead): only the
        pages of ``page_range`` (1-based; all by default), calling ``on_page(done, total)`` as pages are
        finished (for a progress bar)."""
        from .parsing.pages import load_docling_json, parse_pages

        if Path(pdf_path).suffix.lower() == ".json":
            return load_docling_json(pdf_path, page_range)
        if page_range is None and on_page is None:
            return self.parser.parse(pdf_path)
        return parse_pages(self.parser, pdf_path, page_range, on_page)

    def chunk(self, pdf_path: str | Path, doc_id: str | None = None) -> list[EvidenceUnit]:
        """Evidence Units of every table in the PDF, units over the token limit split by rows."""
        return self.chunk_parsed(self.parse(pdf_path), doc_id=doc_id)

    def chunk_parsed(self, parsed: ParsedDoc, doc_id: str | None = None) -> list[EvidenceUnit]:
        """Evidence Units of an already parsed document (any parser, or a saved Docling JSON)."""
        units, self.last_split_stats = self.pipeline.units(parsed, doc_id or parsed.default_doc_id)
        return units

    def build_corpus(self, pdf_path: str | Path, doc_id: str | None = None) -> list["RetrievalChunk"]:
        """Evidence Units (split) and the Text Chunks they did not absorb, in reading order."""
        return self.build_corpus_parsed(self.parse(pdf_path), doc_id=doc_id)

    def build_corpus_parsed(self, parsed: ParsedDoc, doc_id: str | None = None) -> list["RetrievalChunk"]:
        """``build_corpus`` for a document already parsed (any parser, or a saved Docling JSON)."""
        run = self.pipeline.run(parsed, doc_id)
        self.last_split_stats = run.split_stats
        return run.corpus
