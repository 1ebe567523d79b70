"""Checking a region against what the index recorded for the document it claims to come from.

Verification answers from the index, never from the region's own claims. `check_region(doc, region)`
compares, in order: the document is known and is the one the region names; the region's id belongs to it (a
citation id is the source's own, a positional id ``DOC:R1`` names its document); its SHA-256 equals the region's;
the span lies inside the text; the text at the span equals the region's text; the uri and lines equal the
document's; the PDF provenance (pages, boxes, chunk ids, kind, pdf_sha256) equals what the document's
segments give for that span. `check_pdf(info, ...)` then re-hashes the PDF *the index recorded* (its path
and hash from ingest, or, for a document the bridge made and `add` stored, the file of its own source_uri
and the hash its segments carry): a missing PDF, a missing hash or changed bytes fail. No file named by a
region (its uri) is ever opened. The first failure is the reason; only a region that passes every check verifies.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit
from urllib.request import url2pathname

from pydantic import BaseModel, ConfigDict

from .errors import SourceSpanError
from .model import SemanticDocument, box_pages
from .transport import OPTIONAL_SOURCE_KEYS, EvidenceRegion, region_id_problem

#: Segment kind value written when a region spans segments of different kinds.
MIXED_KIND = "mixed"
VERIFIED = "verified"
UNKNOWN_DOCUMENT = "unknown document"
DOCUMENT_ID_DIFFERS = "document id differs"
REGION_ID_DIFFERS = "region id differs"
HASH_DIFFERS = "document hash differs"
SPAN_OUT_OF_RANGE = "span out of range"
SLICE_DIFFERS = "slice differs"
COORDINATES_DIFFER = "coordinates differ"
PROVENANCE_DIFFERS = "provenance differs"
PDF_NOT_RECORDED = "PDF hash not recorded"
PDF_MISSING = "PDF missing"
PDF_CHANGED = "PDF changed"
PDF_UNREADABLE = "PDF unreadable"

#: Every reason a region can fail with, in the order the checks run.
FAILURE_REASONS = (
    UNKNOWN_DOCUMENT, DOCUMENT_ID_DIFFERS, REGION_ID_DIFFERS, HASH_DIFFERS, SPAN_OUT_OF_RANGE, SLICE_DIFFERS, COORDINATES_DIFFER,
    PROVENANCE_DIFFERS, PDF_NOT_RECORDED, PDF_MISSING, PDF_CHANGED, PDF_UNREADABLE,
)
#: Keys of the document info (stored beside a document at ingest) that name its PDF and the PDF's hash.
INFO_PDF_PATH = "pdf_path"
INFO_PDF_SHA256 = "pdf_sha256"
#: Decimal places of a region's mean OCR confidence.
OCR_CONFIDENCE_DIGITS = 4
#: Bytes read at a time when hashing a PDF.
HASH_BLOCK_BYTES = 1 << 20


class VerificationResult(BaseModel):
    """Outcome of checking a region: `ok`, a `reason` (one of the module's reason strings) and `detail`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    ok: bool
    reason: str
    region_id: str
    document_id: str
    detail: str = ""

    def __bool__(self) -> bool:
        return self.ok

    def explain(self) -> str:
        """The reason, with its detail when there is one (one line)."""
        return f"{self.reason}: {self.detail}" if self.detail and not self.ok else self.reason


def _units_in_span(doc: SemanticDocument, start: int, end: int) -> tuple[int, int] | None:
    """Positions (first, last) of the units overlapping [start, end), or None when there are none."""
    positions = [i for i, u in enumerate(doc.units) if u.start_char < end and u.end_char > start]
    return (positions[0], positions[-1]) if positions else None


def expected_provenance(doc: SemanticDocument, start: int, end: int) -> dict[str, Any]:
    """The optional source keys (pages, boxes, chunk_ids, kind, pdf_sha256) that the document's own segments
    give for the span [start, end), in transport form; empty for text without segments."""
    positions = _units_in_span(doc, start, end)
    if positions is None:
        return {}
    return _canonical(segment_provenance(doc, *positions))


def segment_provenance(doc: SemanticDocument, first: int, last: int) -> dict[str, Any]:
    """The optional source keys (pages, boxes, chunk_ids, kind, pdf_sha256, a table's title, unit, period and
    headings) of units ``first`` to ``last``, from the segments they lie in."""
    indexes = sorted({u.segment for u in doc.units[first : last + 1] if u.segment is not None})
    if not indexes:
        return {}
    segments = [doc.segments[i] for i in indexes]
    pages = sorted({p for s in segments for p in s.page_span} | set(box_pages(b for s in segments for b in s.boxes)))
    boxes = [
        {**box.model_dump(mode="json"), "chunk_id": segment.chunk_id}
        for segment in segments
        for box in segment.boxes
        if box.page in pages
    ]
    chunk_ids = list(dict.fromkeys(s.chunk_id for s in segments if s.chunk_id is not None))
    kinds = {s.kind for s in segments}
    pdf_hashes = {s.pdf_sha256 for s in segments if s.pdf_sha256}
    extra: dict[str, Any] = {"pages": pages, "boxes": boxes, "chunk_ids": chunk_ids}
    extra["kind"] = kinds.pop() if len(kinds) == 1 else MIXED_KIND
    if len(pdf_hashes) == 1:
        extra["pdf_sha256"] = pdf_hashes.pop()
    titled = next((s for s in segments if s.title), None)
    if titled is not None:
        extra["table_title"] = titled.title
        extra["unit"] = titled.unit
        extra["period"] = titled.period
    headings = next((s.headings for s in segments if s.headings), None)
    if headings:
        extra["headings"] = list(headings)
    read = [s for s in segments if s.ocr_pages]
    if read:  # the transport says which text OCR read, so a reader weighs it
        extra["ocr_pages"] = sorted({p for s in read for p in s.ocr_pages})
        confidences = [s.ocr_confidence for s in read if s.ocr_confidence is not None]
        if confidences:
            extra["ocr_confidence"] = round(sum(confidences) / len(confidences), OCR_CONFIDENCE_DIGITS)
    return extra


def _canonical(value: Any) -> Any:
    """JSON round trip, so a value from the index and one parsed from a transport compare alike."""
    return json.loads(json.dumps(value, sort_keys=True))


def check_region(doc: SemanticDocument | None, region: EvidenceRegion) -> VerificationResult:
    """Verify `region` against `doc` (None when the repository does not hold the document): identity, hash,
    span, exact text, coordinates and PDF provenance. Opens no file; see `check_pdf` for the PDF bytes."""
    source = region.source

    def result(ok: bool, reason: str, detail: str = "") -> VerificationResult:
        return VerificationResult(ok=ok, reason=reason, region_id=region.region_id, document_id=source.document_id,
                                  detail=detail)

    if doc is None:
        return result(False, UNKNOWN_DOCUMENT, f"the index holds no document {source.document_id!r}")
    if region.document_id != source.document_id or doc.document_id != source.document_id:
        return result(False, DOCUMENT_ID_DIFFERS,
                      f"region names document {region.document_id!r}, its source {source.document_id!r}")
    wrong_id = region_id_problem(region.region_id, source.document_id, source.start_char, source.end_char,
                                 source.document_sha256)
    if wrong_id is not None:
        return result(False, REGION_ID_DIFFERS, wrong_id)
    if doc.document_sha256 != source.document_sha256:
        return result(
            False,
            HASH_DIFFERS,
            f"region was cut from sha256 {source.document_sha256[:12]}…, the index holds {doc.document_sha256[:12]}…",
        )
    if not (0 <= source.start_char <= source.end_char <= doc.char_count):
        return result(
            False, SPAN_OUT_OF_RANGE, f"[{source.start_char}, {source.end_char}) is outside 0..{doc.char_count}"
        )
    if doc.text_between(source.start_char, source.end_char) != region.text:
        return result(False, SLICE_DIFFERS, f"text at [{source.start_char}, {source.end_char}) is not the region's text")
    lines = (doc.line_of(source.start_char), doc.line_of(max(source.end_char - 1, source.start_char)))
    if source.uri != doc.source_uri:
        return result(False, COORDINATES_DIFFER, f"uri {source.uri!r} is not the indexed {doc.source_uri!r}")
    if (source.start_line, source.end_line) != lines:
        return result(False, COORDINATES_DIFFER,
                      f"lines {source.start_line}-{source.end_line} are not the indexed {lines[0]}-{lines[1]}")
    expected = expected_provenance(doc, source.start_char, source.end_char)
    claimed = _canonical({k: v for k, v in source.to_dict().items() if k in OPTIONAL_SOURCE_KEYS})
    for key in OPTIONAL_SOURCE_KEYS:
        if claimed.get(key) != expected.get(key):
            return result(False, PROVENANCE_DIFFERS,
                          f"{key} {_short(claimed.get(key))} is not what the index records: {_short(expected.get(key))}")
    return result(True, VERIFIED)


def _short(value: Any, limit: int = 80) -> str:
    text = "absent" if value is None else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def recorded_pdf(doc: SemanticDocument, info: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """The PDF path and sha256 the index recorded for `doc`, (None, None) for a document without a PDF.

    `sjt ingest` records them in the document's info. A document the bridge made from Python
    (`corpus_to_semantic_document(corpus, id, pdf_uri(path), sha256)`) records them itself: its segments carry
    the PDF's sha256 and its own source_uri is the PDF's file:// URI, both stored with the document. The hash
    must agree with the one the document's segments carry, if any."""
    path = info.get(INFO_PDF_PATH)
    digest = info.get(INFO_PDF_SHA256)
    segment_hashes = {s.pdf_sha256 for s in doc.segments if s.pdf_sha256}
    if not path and not digest and len(segment_hashes) == 1:
        path = local_file(doc.source_uri)
        digest = next(iter(segment_hashes)) if path else None
    if digest and segment_hashes and segment_hashes != {digest}:
        digest = None  # the index contradicts itself: trust neither (verification fails with its reason)
    return (str(path) if path else None), (str(digest) if digest else None)


def local_file(uri: str | None) -> str | None:
    """The local path a file:// URI names (``file:///a/b.pdf`` or ``file://localhost/...``), else None."""
    parts = urlsplit(uri or "")
    if parts.scheme != "file" or parts.netloc not in ("", "localhost") or not parts.path:
        return None
    return url2pathname(parts.path)


def file_sha256(path: str | Path) -> str:
    """Hex SHA-256 of a file's bytes (OSError when it cannot be read)."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(HASH_BLOCK_BYTES), b""):
            digest.update(block)
    return digest.hexdigest()


def check_pdf(doc: SemanticDocument, info: Mapping[str, Any], hashes: dict[str, str] | None = None) -> tuple[str, str] | None:
    """Re-hash the PDF the index recorded for `doc`; None when it is unchanged or the document has no
    recorded PDF (it is verified by its text alone), else (reason, detail). `hashes` caches path → sha256
    over one verification run."""
    path, digest = recorded_pdf(doc, info)
    if path is None:
        if info.get(INFO_PDF_SHA256) or any(s.pdf_sha256 for s in doc.segments):
            return PDF_MISSING, "the index records a PDF hash but no PDF path (nor a file:// source_uri)"
        return None
    if digest is None:
        return PDF_NOT_RECORDED, f"the index records no usable sha256 for {path}"
    pdf = Path(path)
    if not pdf.is_file():
        return PDF_MISSING, f"no file at {path}"
    try:
        actual = hashes.get(path) if hashes is not None else None
        if actual is None:
            actual = file_sha256(pdf)
            if hashes is not None:
                hashes[path] = actual
    except OSError as exc:
        return PDF_UNREADABLE, f"{path}: {exc.strerror or exc}"
    if actual != digest:
        return PDF_CHANGED, f"{path} has sha256 {actual[:12]}…, indexed as {digest[:12]}…"
    return None


def verify_region(doc: SemanticDocument | None, info: Mapping[str, Any], region: EvidenceRegion,
                  check_files: bool = True, hashes: dict[str, str] | None = None) -> VerificationResult:
    """`check_region`, then (with `check_files`) `check_pdf` on the PDF the index recorded."""
    checked = check_region(doc, region)
    if not checked.ok or not check_files or doc is None:
        return checked
    failure = check_pdf(doc, info, hashes)
    if failure is None:
        return checked
    return checked.model_copy(update={"ok": False, "reason": failure[0], "detail": failure[1]})


def source_text(doc: SemanticDocument, region: EvidenceRegion, context_before: int = 0, context_after: int = 0) -> str:
    """The document text at the region's span, widened by `context_before`/`context_after` characters."""
    if context_before < 0 or context_after < 0:
        raise ValueError("context_before and context_after must be >= 0 (characters)")
    source = region.source
    if not (0 <= source.start_char <= source.end_char <= doc.char_count):
        raise SourceSpanError(
            f"region {region.region_id}: span [{source.start_char}, {source.end_char}) is outside document "
            f"{doc.document_id!r} (0..{doc.char_count})"
        )
    start = max(0, source.start_char - context_before)
    end = min(doc.char_count, source.end_char + context_after)
    return doc.text_between(start, end)
