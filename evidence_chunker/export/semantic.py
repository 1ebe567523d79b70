"""The bridge: a retrieval corpus (EUs + TextChunks) becomes one semantic_json SemanticDocument.

The document's canonical text is the corpus in reading order, written so a reader (or an LLM) can follow
it: headings when they change, paragraphs, and each table as its caption, abstract, header lines and
flattened rows. Every stretch that came from the PDF is a *segment* recording its chunk id, kind ("table",
"contents" for a table of contents, "text", "heading"), pages and boxes (points, BOTTOMLEFT), the PDF's sha256,
and the pages whose text OCR read with their mean word confidence, so regions found in it carry them to
the transport. semantic_json never imports this package; the dependency runs this way only.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from docling_core.types.doc import TableData
from semantic_json import box_pages

from ..units.split import rows_boxes
from ..units.evidence_unit import EvidenceUnit, PageBox
from ..corpus.chunks import KIND_TABLE, KIND_TEXT, RetrievalChunk, TextChunk

#: Segment kind of a table of contents (semantic_json compiles its lines as rows and damps them).
KIND_CONTENTS = "contents"
#: Between blocks (paragraphs, tables) of the canonical text.
BLOCK_SEP = "\n\n"
#: Between the lines of one table.
LINE_SEP = "\n"
#: A table is written as blocks of at most this many rows, each under the caption and header lines, so
#: that a region around a matching row stays a few hundred tokens however long the table is. (Blocks of
#: 20 rows were cut smaller by row splits counted on the HTML; with the splits counted on the Markdown
#: they grew the finqa_dev top 5 from 1,455 to 1,607 tokens; 10 rows gives 1,487: docs/benchmarks.md.)
TABLE_SEGMENT_MAX_ROWS = 10


class _CanonicalText:
    """Appends blocks of text, remembering which character span came from where."""

    def __init__(self, pdf_sha256: str | None):
        self.parts: list[str] = []
        self.length = 0
        self.segments: list[dict[str, Any]] = []
        self.pdf_sha256 = pdf_sha256
        #: Every block written so far, whitespace-normalised.
        self.written: set[str] = set()
        #: The pages OCR read of the chunk being written, and their mean word confidence (0..1).
        self.ocr_pages: list[int] = []
        self.ocr_confidence: float | None = None

    def block(self, text: str, chunk_id: str, kind: str, pages: Iterable[int], boxes: Iterable[PageBox],
              **described: Any) -> None:
        """Append one block; ``described`` are optional segment fields (title, unit, period, headings)."""
        text = text.strip()
        if not text:
            return
        if self.parts:
            self.parts.append(BLOCK_SEP)
            self.length += len(BLOCK_SEP)
        start = self.length
        self.written.add(_one_line(text))
        self.parts.append(text)
        self.length += len(text)
        segment: dict[str, Any] = {
            "start_char": start,
            "end_char": self.length,
            "chunk_id": chunk_id,
            "kind": kind,
            "page_span": sorted(set(pages)),
            "boxes": [box.to_dict() for box in boxes],
        }
        if self.pdf_sha256:
            segment["pdf_sha256"] = self.pdf_sha256
        read = sorted(set(segment["page_span"]) & set(self.ocr_pages))
        if read:
            segment["ocr_pages"] = read
            segment["ocr_confidence"] = self.ocr_confidence
        segment.update({key: value for key, value in described.items() if value})
        self.segments.append(segment)

    @property
    def text(self) -> str:
        return "".join(self.parts)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _table_blocks(eu: EvidenceUnit) -> list[tuple[list[str], int, int]]:
    """The table's lines in blocks of at most TABLE_SEGMENT_MAX_ROWS body rows, as few and as even as that
    allows: ``(lines, start, end)``.

    Every block opens with the title line (caption, period, unit, section) and the header lines, so a region
    assembled in any block reads as a table (what it is, its columns, the rows that matched) and stays
    small; the title line is the block's caption, whose words every row of the block inherits. Each line is
    one whole row.
    """
    title = eu.title_line or ""
    header = [_one_line(h) for h in eu.header_rows if h.strip()]
    rows = [_one_line(r) for r in eu.flattened_rows]
    blocks = []
    count = -(-len(rows) // TABLE_SEGMENT_MAX_ROWS)  # as few blocks as the maximum allows, as even as can be
    size = -(-len(rows) // count) if rows else 1
    for start in range(0, max(len(rows), 1), size):
        end = min(start + size, len(rows))
        lines = [line for line in (title, *header, *rows[start:end]) if line]
        blocks.append((lines, start, end))
    return blocks


def _add_paragraphs(out: _CanonicalText, eu: EvidenceUnit, texts: list[str], pages: list[int],
                    boxes: list[list[PageBox]]) -> None:
    """One segment per adopted paragraph, so a region in it points at that paragraph's own box.

    A paragraph that explains two tables is written once, with the first: the same text twice would come
    back as two regions.
    """
    for i, text in enumerate(texts):
        if _one_line(text) in out.written:
            continue
        own_boxes = boxes[i] if i < len(boxes) else []
        own_pages = [pages[i]] if i < len(pages) else box_pages(own_boxes) or [eu.page_no]
        out.block(text, eu.chunk_id, KIND_TEXT, own_pages, own_boxes)


def _add_unit(out: _CanonicalText, eu: EvidenceUnit) -> None:
    _add_paragraphs(out, eu, eu.context_before, eu.context_before_pages, eu.context_before_boxes)
    table_pages = sorted(set(eu.row_pages) | {eu.page_no})
    table_boxes = [box for box in eu.page_boxes if box.page in table_pages] or eu.page_boxes
    data = TableData.model_validate(eu.table_data) if eu.table_data else None
    for lines, start, end in _table_blocks(eu):
        pages = sorted(set(eu.row_pages[start:end])) or table_pages
        boxes = rows_boxes(data, eu.header_row_count, start, end, eu.row_pages) or \
            [box for box in table_boxes if box.page in pages] or table_boxes
        out.block(LINE_SEP.join(lines), eu.chunk_id, KIND_CONTENTS if eu.is_contents else KIND_TABLE, pages, boxes,
                  title=eu.title_line,
                  unit=eu.unit, period=eu.period, headings=list(eu.headings))
    _add_paragraphs(out, eu, eu.context_after, eu.context_after_pages, eu.context_after_boxes)
    if eu.footnotes:  # footnotes sit under the table
        out.block(BLOCK_SEP.join(eu.footnotes), eu.chunk_id, KIND_TEXT, table_pages[-1:],
                  [b for b in table_boxes if b.page in table_pages[-1:]])


def _add_text(out: _CanonicalText, chunk: TextChunk) -> None:
    parts = [part for part in chunk.parts if part.text.strip()]
    if not parts:
        out.block(chunk.text, chunk.chunk_id, KIND_TEXT, chunk.page_span, chunk.page_boxes)
        return
    headings = list(chunk.metadata.get("headings") or [])
    for part in parts:  # one segment per paragraph: its pages and boxes are its own
        pages = box_pages(part.page_boxes) or chunk.page_span
        out.block(part.text, chunk.chunk_id, KIND_TEXT, pages, part.page_boxes, headings=headings)


def corpus_to_semantic_document(
    chunks: list[RetrievalChunk],
    document_id: str,
    source_uri: str | None = None,
    pdf_sha256: str | None = None,
):
    """Compile the corpus of one document into a SemanticDocument whose segments carry PDF provenance.

    ``chunks`` come from ``EvidenceChunker.build_corpus`` (EvidenceUnits and TextChunks in reading order).
    Raises semantic_json's EmptyDocumentError when the corpus holds no text at all.
    """
    from semantic_json import compile as compile_semantic

    out = _CanonicalText(pdf_sha256)
    headings: list[str] = []
    for chunk in chunks:
        metadata = chunk.metadata
        out.ocr_pages, out.ocr_confidence = list(metadata.get("ocr_pages") or []), metadata.get("ocr_confidence")
        chunk_headings = list(metadata.get("headings") or [])
        if chunk_headings and chunk_headings != headings:
            new = [h for i, h in enumerate(chunk_headings) if i >= len(headings) or headings[i] != h]
            pages = sorted(chunk.metadata.get("page_span") or [])[:1]
            for heading in new:
                out.block(_one_line(heading), chunk.chunk_id, "heading", pages, [])
            headings = chunk_headings
        if isinstance(chunk, EvidenceUnit):
            _add_unit(out, chunk)
        elif isinstance(chunk, TextChunk):
            _add_text(out, chunk)
        else:
            boxes = [PageBox.from_dict(b) for b in metadata.get("page_boxes") or [] if isinstance(b, dict)]
            out.block(chunk.text, chunk.chunk_id, metadata.get("kind") or KIND_TEXT, metadata.get("page_span") or [], boxes)
    return compile_semantic(out.text, document_id=document_id, source_uri=source_uri, segments=out.segments)


def pdf_uri(path: str | Path) -> str:
    """A file:// URI for a local PDF."""
    return Path(path).resolve().as_uri()
