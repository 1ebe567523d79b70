"""EvidenceUnit: one table (or one row-wise piece of it) with the evidence around it. Its boxes are
semantic_json's ``PageBox``, the one box type the packages share."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from semantic_json import PageBox

from ..dict_records import DictRecord

CaptionConfidence = Literal["direct", "inferred", "none"]
#: Between the parts of a table's title line.
TITLE_SEP = " · "

@dataclass
class EvidenceUnit(DictRecord):
    """A table-centric retrieval unit; ``to_dict``/``from_dict`` (JSON, field by field) come from
    :class:`DictRecord`.

    ``flattened_rows`` holds one "row header | column header: value; ..." line per body row ("" for a row
    with nothing in it, such as a spacer), so a row-wise split is a split of this list; ``grid_rows`` is
    its compact twin, one "row header | value | value" line per body row in column order, which
    ``retrieval_text`` uses under the header lines (empty in units written before it existed);
    ``header_rows`` are the column-header lines every piece repeats (``header_row_count`` of them in
    ``table_data``); ``row_pages[i]`` is the page of body row i.
    ``caption_source`` says where the caption came from: "direct" (linked by the parser), "caption" (a
    numbered caption nearby), "title_block" (the lines printed above the table), "running_title" (the
    page's running header naming a statement or note), "heading" (the innermost section heading) or
    "none". ``unit`` ("Millions, except per share amounts", "단위: 백만원") and ``period`` ("Years ended
    December 31", "제 26 기") are what the title lines or header cells state. ``is_contents`` is True for a
    table of contents (docling label ``document_index``: titles and the pages they start on), which
    points at evidence without holding any.
    ``filing`` names the document the table is in, as its cover does (company · form · period · fiscal
    year, see ``evidence_chunker.units.filing``); the corpus sets it. It is metadata, not part of
    ``retrieval_text``: one line repeated in every record of a document drew a dense retriever's queries,
    which name the company, to the shortest records (measured in docs/benchmarks.md, thirteenth round).
    ``ocr_pages`` are the pages of the unit whose text was read by OCR (no usable text layer) and
    ``ocr_confidence`` the mean confidence of their words (0..1; None when no page was); the corpus sets them.
    ``bbox`` is the table's box on ``page_no`` normalised to 0..1 (BOTTOMLEFT, t > b);
    ``page_boxes`` are the absolute boxes of every part of the table (a table continued over a page
    break has one per page). ``table_data`` is docling-core ``TableData`` JSON, kept so pieces can
    be rendered again; ``table_html`` and ``table_markdown`` are two renderings of it by docling-core's
    serializers (HTML keeps cell spans; the compact Markdown is what ``text`` holds).
    ``context_before_boxes[i]``/``context_after_boxes[i]`` are the boxes of adopted paragraph i.
    """

    eu_id: str
    doc_id: str
    page_no: int
    page_span: set[int]
    caption_text: str | None = None
    caption_confidence: CaptionConfidence = "none"
    caption_source: str = "none"
    unit: str | None = None
    period: str | None = None
    table_html: str | None = None
    table_markdown: str | None = None
    context_before: list[str] = field(default_factory=list)
    context_after: list[str] = field(default_factory=list)
    flattened_rows: list[str] = field(default_factory=list)
    grid_rows: list[str] = field(default_factory=list)
    table_abstract: str | None = None
    is_contents: bool = False
    bbox: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    is_split: bool = False
    split_index: int | None = None
    total_splits: int | None = None
    header_rows: list[str] = field(default_factory=list)
    header_row_count: int = 0
    row_pages: list[int] = field(default_factory=list)
    context_before_pages: list[int] = field(default_factory=list)
    context_after_pages: list[int] = field(default_factory=list)
    context_before_boxes: list[list[PageBox]] = field(default_factory=list)
    context_after_boxes: list[list[PageBox]] = field(default_factory=list)
    footnotes: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    filing: str | None = None
    ocr_pages: list[int] = field(default_factory=list)
    ocr_confidence: float | None = None
    page_boxes: list[PageBox] = field(default_factory=list)
    source_refs: list[str] = field(default_factory=list)
    context_refs: list[str] = field(default_factory=list)
    title_refs: list[str] = field(default_factory=list)
    table_data: dict[str, Any] | None = None
    body_row_range: tuple[int, int] | None = None

    # --- the RetrievalChunk contract -------------------------------------------------------
    @property
    def chunk_id(self) -> str:
        return self.eu_id

    @property
    def is_atomic(self) -> bool:
        """Always False: an EU can be taken apart into ``retrieval_units``."""
        return False

    @property
    def safe_caption(self) -> str | None:
        """The caption, or None when it is a figure caption mistaken for a table's."""
        from semantic_json.rules.patterns import is_figure_caption

        if not self.caption_text or is_figure_caption(self.caption_text):
            return None
        return self.caption_text

    @property
    def title_line(self) -> str | None:
        """One line naming the table wherever a piece of it is shown: caption, period, unit and the section
        it sits in ("CONSOLIDATED BALANCE SHEETS · As of December 31 · (in thousands) · Item 8. Financial
        Statements"). None when nothing names the table."""
        from semantic_json.rules.patterns import find_unit, strip_unit
        from .titles import find_period

        caption = " ".join(self.safe_caption.split()) if self.safe_caption else None
        parts = [caption] if caption else []
        if self.period and not (caption and find_period(caption)):
            parts.append(self.period)
        if self.unit and not (caption and find_unit(caption)):
            parts.append(f"({self.unit})")
        section = self.headings[-1] if self.headings else None
        named = strip_unit(section).casefold() if section else ""
        if named and caption and self.caption_source != "heading" and named not in caption.casefold() \
                and caption.casefold() not in named:
            parts.append(" ".join(section.split()))
        if not parts or (not caption and len(parts) == 1 and parts[0] == section):
            return None
        return TITLE_SEP.join(parts)

    @property
    def text(self) -> str:
        """What an LLM receives: the title line (caption, period, unit, section), context above, the table as
        a compact Markdown pipe table, context below, notes. The title line says what the figures count
        ("(dollars in millions)") even when the page printed that on a line of its own. Units written
        before ``table_markdown`` existed give their HTML instead."""
        parts: list[str] = []
        if self.title_line:
            parts.append(self.title_line)
        parts.extend(self.context_before)
        table = self.table_markdown or self.table_html
        if table:
            parts.append(table)
        else:
            parts.extend(self.header_rows)
            parts.extend(self.flattened_rows)
        parts.extend(self.context_after)
        parts.extend(self.footnotes)
        return "\n\n".join(p for p in parts if p)

    @property
    def retrieval_text(self) -> str:
        """What to embed or index: like ``text`` but with the abstract (which opens with the caption) and the
        table as plain lines instead of HTML: the header lines once, then one "row header | value | value"
        line per row (``grid_rows``). Units without ``grid_rows`` give their flattened rows instead."""
        parts: list[str] = []
        if self.safe_caption and not (self.table_abstract or "").startswith(self.safe_caption):
            parts.append(self.safe_caption)
        if self.table_abstract:
            parts.append(self.table_abstract)
        parts.extend(self.context_before)
        if self.grid_rows:
            parts.append("\n".join([*self.header_rows, *(row for row in self.grid_rows if row)]))
        else:
            parts.append("\n".join(row for row in self.flattened_rows if row))
        parts.extend(self.context_after)
        parts.extend(self.footnotes)
        return "\n\n".join(p for p in parts if p)

    @property
    def retrieval_units(self) -> list[str]:
        """Small units for small-to-big retrieval: abstract, each paragraph, each row, each note."""
        units: list[str] = []
        if self.table_abstract:
            units.append(self.table_abstract)
        units.extend(self.context_before)
        units.extend(self.flattened_rows)
        units.extend(self.context_after)
        units.extend(self.footnotes)
        return [u for u in units if u.strip()]

    @property
    def metadata(self) -> dict[str, Any]:
        """Flat, JSON-safe metadata for LangChain/LlamaIndex documents and JSONL records."""
        return {
            "chunk_id": self.chunk_id,
            "eu_id": self.eu_id,
            "doc_id": self.doc_id,
            "kind": "table",
            "page_no": self.page_no,
            "page_span": sorted(self.page_span),
            "caption_text": self.caption_text,
            "caption_confidence": self.caption_confidence,
            "caption_source": self.caption_source,
            "unit": self.unit,
            "period": self.period,
            "headings": list(self.headings),
            "filing": self.filing,
            "ocr_pages": list(self.ocr_pages),
            "ocr_confidence": self.ocr_confidence,
            "bbox": list(self.bbox),
            "page_boxes": [box.to_dict() for box in self.page_boxes],
            "is_split": self.is_split,
            "split_index": self.split_index,
            "total_splits": self.total_splits,
            "is_contents": self.is_contents,
            "row_count": sum(1 for row in self.flattened_rows if row),
        }
