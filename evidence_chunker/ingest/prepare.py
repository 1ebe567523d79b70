"""One PDF made ready for the repository (in a worker): parse → Evidence Units + Text Chunks → corpus →
SemanticDocument, with the info ingest stores beside it."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..parsing.pdf_file import file_sha256

if TYPE_CHECKING:  # pragma: no cover
    from semantic_json import SemanticDocument


#: Key under which ingest records what it did for a document (see ``document_stats``).
INFO_KIND = "pdf"


def document_id_for(path: Path) -> str:
    """The id a PDF gets in the index when its file name is free: the name without the extension."""
    return path.stem


@dataclass
class PreparedDocument:
    """A PDF made ready for the repository in a worker: its compiled document and stored info.

    The document travels between processes pickled, which is cheaper than JSON both ways."""

    path: Path
    document: "SemanticDocument"
    info: dict[str, Any]

    @property
    def document_json(self) -> str:
        """The compiled document as JSON (``SemanticDocument.to_json``)."""
        return self.document.to_json()


def prepare_document(path: Path, parser: str = "lite", artifacts_path: str | None = None,
                     doc_id: str | None = None, pages: list | None = None, page_range=None,
                     on_page=None, ocr=None) -> PreparedDocument:
    """Parse, chunk and compile one PDF (or DoclingDocument JSON); runs in a worker process. ``pages``:
    the PDF's pages already read by the lite parser (:meth:`LiteParser.read_pages`), in batches; else
    ``page_range`` (a PageRange) limits the pages parsed and ``on_page(done, total)`` reports them; ``ocr``
    is the parser's OcrOptions."""
    from ..corpus.chunks import chunk_kind
    from ..export.semantic import pdf_uri
    from ..units.filing import filing_subject
    from ..units.titles import CAPTION_SOURCES, dropped_running_lines
    from semantic_json.rules.textnorm import text_language

    chunker = _chunker(parser, artifacts_path, ocr)
    if pages is not None:
        parsed = chunker.parser.parse(path, pages=pages)
    else:
        parsed = chunker.parse(path, page_range=page_range, on_page=on_page)
    run = chunker.pipeline.run(parsed, doc_id or document_id_for(path), pdf_uri(path), document=True)
    units, corpus, document, filing, consumed = run.units, run.corpus, run.document, run.filing, run.consumed
    tables = {eu.eu_id.rsplit("-s", 1)[0]: eu for eu in units}
    info = {
        "kind": INFO_KIND,
        "pdf_path": str(path.resolve()),
        "pdf_sha256": parsed.sha256 or file_sha256(path),
        "parser": parsed.parser,
        "pages": parsed.page_count,
        "units": len(units),
        "chunks": len(corpus),
        "text_chunks": sum(1 for c in corpus if chunk_kind(c) == "text"),
        "tables": len(tables),
        "captions": {conf: sum(1 for eu in tables.values() if eu.caption_confidence == conf)
                     for conf in ("direct", "inferred", "none")},
        "caption_sources": {source: sum(1 for eu in tables.values() if eu.caption_source == source)
                            for source in CAPTION_SOURCES},
        "filing": {key: value for key, value in filing.items() if key != "profile"},
        "dropped_lines": _dropped_summary(dropped_running_lines(parsed.document, units)),
        "profile": filing.get("profile", ""),
        "subject": filing_subject(filing),
        "language": text_language(document.text),
        "split_tables": len({eu.eu_id.rsplit("-s", 1)[0] for eu in units if eu.is_split}),
        "oversized_units": list(run.split_stats.oversized_ids),
        "context_paragraphs": sum(len(eu.context_before) + len(eu.context_after) for eu in units),
        "text_chunks_dropped": consumed.dropped,
        "text_chunks_rebuilt": consumed.rebuilt,
        "ocr_pages": sorted(parsed.ocr_pages),
        "ocr_confidence": parsed.ocr_confidence,
        "ocr_timeouts": list(parsed.ocr_timeouts),
        **({"page_range": str(page_range)} if page_range is not None else {}),
    }
    return PreparedDocument(path=path, document=document, info=info)


#: Distinct dropped running lines named in a document's info (the most frequent first).
DROPPED_EXAMPLES = 5


def _dropped_summary(lines: list[tuple[int, str]]) -> dict[str, Any]:
    """How many running lines reached no record, and the most frequent of them."""
    counts = Counter(text for _page, text in lines)
    return {"count": len(lines), "examples": [text for text, _n in counts.most_common(DROPPED_EXAMPLES)]}


@lru_cache(maxsize=4)
def _chunker(parser: str, artifacts_path: str | None, ocr=None):
    """One chunker per process, parser and OCR choice: Docling's converter loads its models once."""
    from ..chunker import EvidenceChunker

    return EvidenceChunker(parser=parser, artifacts_path=artifacts_path, ocr=ocr)
