"""Checking a region against the document it claims to come from.

`check_region(doc, region)` compares, in order: the document is known, its SHA-256 equals the region's,
the span lies inside the text, and the text at the span equals the region's text. The first failure is
the reason; only a region that passes all four is verified.
"""

from __future__ import annotations


from pydantic import BaseModel, ConfigDict

from .errors import SourceSpanError
from .model import SemanticDocument
from .transport import EvidenceRegion

VERIFIED = "verified"
UNKNOWN_DOCUMENT = "unknown document"
HASH_DIFFERS = "document hash differs"
SPAN_OUT_OF_RANGE = "span out of range"
SLICE_DIFFERS = "slice differs"


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


def check_region(doc: SemanticDocument | None, region: EvidenceRegion) -> VerificationResult:
    """Verify `region` against `doc` (None when the repository does not hold the document)."""
    source = region.source

    def result(ok: bool, reason: str, detail: str = "") -> VerificationResult:
        return VerificationResult(ok=ok, reason=reason, region_id=region.region_id, document_id=source.document_id, detail=detail)

    if doc is None:
        return result(False, UNKNOWN_DOCUMENT, f"the repository holds no document {source.document_id!r}")
    if doc.document_sha256 != source.document_sha256:
        return result(
            False,
            HASH_DIFFERS,
            f"region was cut from sha256 {source.document_sha256[:12]}…, the repository holds {doc.document_sha256[:12]}…",
        )
    if not (0 <= source.start_char <= source.end_char <= doc.char_count):
        return result(
            False, SPAN_OUT_OF_RANGE, f"[{source.start_char}, {source.end_char}) is outside 0..{doc.char_count}"
        )
    if doc.text[source.start_char : source.end_char] != region.text:
        return result(False, SLICE_DIFFERS, f"text at [{source.start_char}, {source.end_char}) is not the region's text")
    return result(True, VERIFIED)


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
    return doc.text[start:end]
