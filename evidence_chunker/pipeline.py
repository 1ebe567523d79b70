"""The pipeline, composed in one place: parsed document → units → split → corpus → semantic document.

``EvidenceChunker`` (``chunk_parsed``, ``build_corpus_parsed``) and ingest (``prepare_document``, which
``ray_ingest`` runs on its workers too) make a document's units, corpus and semantic document by calling one
``Pipeline``, so every entry point gives the same output for the same PDF. Parsing stays with the caller
(EvidenceChunker's parser, or pages a worker already read).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .corpus.assemble import build_corpus_parsed, mark_ocr
from .corpus.consumed import ConsumedStats
from .tokens import DEFAULT_TOKEN_LIMIT, Tokenizer, tokenizer_for
from .units.build import BuildSettings, build_units
from .units.filing import filing_profile
from .units.split import SplitStats, split_oversized_units

if TYPE_CHECKING:  # pragma: no cover
    from semantic_json import SemanticDocument

    from .corpus.chunks import RetrievalChunk
    from .parsing import ParsedDoc
    from .units.evidence_unit import EvidenceUnit


@dataclass
class DocumentRun:
    """What the pipeline made of one parsed document, stage by stage; ``document`` is None unless asked for."""

    parsed: "ParsedDoc"
    doc_id: str
    units: list["EvidenceUnit"]
    split_stats: SplitStats
    filing: dict[str, Any]
    consumed: ConsumedStats
    corpus: list["RetrievalChunk"]
    document: "SemanticDocument | None" = None


@dataclass(frozen=True)
class Pipeline:
    """The stages after parsing, with their settings: EU building (``settings``) and the token limit of split
    units and Text Chunks (``token_limit``, cl100k tokens)."""

    settings: BuildSettings = field(default_factory=BuildSettings)
    token_limit: int = DEFAULT_TOKEN_LIMIT

    @property
    def tokenizer(self) -> Tokenizer:
        """The one Tokenizer of ``token_limit`` that split units and Text Chunks count with."""
        return tokenizer_for(self.token_limit)

    def units(self, parsed: "ParsedDoc", doc_id: str) -> tuple[list["EvidenceUnit"], SplitStats]:
        """Evidence Units of every table of ``parsed`` (units over the token limit split by rows, OCR pages
        marked), and what the split did."""
        stats = SplitStats()
        units = split_oversized_units(build_units(parsed, doc_id, self.settings), stats,
                                      limit=self.tokenizer.get_max_tokens())
        return mark_ocr(units, parsed.ocr_pages), stats

    def run(self, parsed: "ParsedDoc", doc_id: str | None = None, source_uri: str | None = None,
            document: bool = False) -> DocumentRun:
        """Units, split and corpus of ``parsed`` (``doc_id`` defaults to ``parsed.default_doc_id``); with
        ``document``, the corpus compiled into one SemanticDocument too (``source_uri``: where it came from)."""
        doc_id = doc_id or parsed.default_doc_id
        units, split_stats = self.units(parsed, doc_id)
        filing = filing_profile(parsed.document)
        consumed = ConsumedStats()
        corpus = build_corpus_parsed(parsed, units, doc_id, token_limit=self.tokenizer.get_max_tokens(), stats=consumed,
                                     filing=filing)
        run = DocumentRun(parsed, doc_id, units, split_stats, filing, consumed, corpus)
        if document:
            from .export.semantic import corpus_to_semantic_document

            run.document = corpus_to_semantic_document(corpus, doc_id, source_uri, parsed.sha256)
        return run
