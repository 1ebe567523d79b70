"""Regions by id, and their verification, for a SemanticRepository (the base class it inherits them from).

A citation id resolves from the index alone, in any process; a positional id names a region of a recent
search of this repository. ``check_source`` verifies a region against what the index recorded
(semantic_json.provenance); a region is never trusted for its own claims.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Union

from .errors import ChangedDocumentError, UnknownRegionError
from .provenance import UNKNOWN_DOCUMENT, VerificationResult, check_pdf, source_text, verify_region
from .search.regions import RegionDraft, to_region
from .store.base import REBUILD_HINT, DamagedDocumentError
from .transport import EvidenceRegion, SearchResult, SourceSpan, parse_citation_id

#: Region ids remembered for get_region() (oldest forgotten first).
MAX_REMEMBERED_REGIONS = 10_000

RegionRef = Union[EvidenceRegion, str]


class RegionAccess:
    """get_region, locate, get_source and the verification methods of SemanticRepository. They read the
    repository's held documents (``_held``, ``_documents``), its remembered regions (``_regions``) and its
    ``get_document`` / ``document_info`` / ``_leave_out``."""

    def _remember(self, regions: list[EvidenceRegion]) -> None:
        for region in regions:
            for key in (region.region_id, region.citation_id):
                self._regions.pop(key, None)
                self._regions[key] = region
        while len(self._regions) > MAX_REMEMBERED_REGIONS:
            self._regions.popitem(last=False)

    def get_region(self, region_id: str) -> EvidenceRegion:
        """The region a region id names.

        A citation id (``DOC@c730-1921.3fa2b1c9``, `EvidenceRegion.citation_id`) resolves from the index
        alone, in any process: the held document's text at that span, with its lines, pages and boxes (score
        0 and no anchors unless a search of this repository returned it). ChangedDocumentError when the
        document is held in another version. A positional id (``DOC:R1``) names a region of a recent search
        of this repository. UnknownRegionError otherwise, saying why.
        """
        remembered = self._regions.get(region_id)
        if remembered is not None:
            self._check_current(region_id, remembered)
            return remembered
        ref = parse_citation_id(region_id)
        if ref is None:
            raise UnknownRegionError(region_id)
        if ref.document_id not in self._held:
            raise UnknownRegionError(region_id, f"this index does not hold document {ref.document_id!r}")
        doc = self._documents.source(ref.document_id)
        if not doc.document_sha256.startswith(ref.sha256_prefix):
            raise ChangedDocumentError(region_id, ref.document_id, doc.document_sha256)
        first = last = None
        for position, unit in enumerate(doc.units):
            if unit.start_char == ref.start_char:
                first = position
            if unit.end_char == ref.end_char and first is not None:
                last = position
                break
        if first is None or last is None:
            raise UnknownRegionError(
                region_id,
                f"characters {ref.start_char}-{ref.end_char} of {ref.document_id!r} do not start and end on "
                "unit boundaries, so no search returns them as a region",
            )
        draft = RegionDraft(first=first, last=last, anchors={}, entities=frozenset(), zone=None)
        return to_region(doc, draft, region_id)

    def _check_current(self, region_id: str, region: EvidenceRegion) -> None:
        """ChangedDocumentError when a remembered region's document was replaced since the search."""
        held = self._held.get(region.document_id)
        if held is None:
            return
        doc = self._documents.source(region.document_id)
        if doc.document_sha256 != region.document_sha256:
            raise ChangedDocumentError(region_id, region.document_id, doc.document_sha256)

    def build_context(self, result: SearchResult) -> str:
        """Plain-text context for people or a plain-text LLM prompt (same as result.to_text())."""
        return result.to_text()

    # ----------------------------------------------------------- provenance

    def _region(self, region: RegionRef) -> EvidenceRegion:
        if isinstance(region, str):
            return self.get_region(region)
        if isinstance(region, EvidenceRegion):
            return region
        raise TypeError(f"expected an EvidenceRegion or a region id, got {type(region).__name__}")

    def locate(self, region: RegionRef) -> SourceSpan:
        """The region's source coordinates (document, uri, chars, lines, sha256, and pages/boxes if any).

        UnknownDocumentError if the repository does not hold the region's document.
        """
        resolved = self._region(region)
        self.get_document(resolved.source.document_id)
        return resolved.source.model_copy(deep=True)

    def get_source(self, region: RegionRef, context_before: int = 0, context_after: int = 0) -> str:
        """The original text at the region's span in the held document, with optional context (characters).

        UnknownDocumentError for a document not held; SourceSpanError for a span outside the text.
        """
        resolved = self._region(region)
        return source_text(self.get_document(resolved.source.document_id), resolved, context_before, context_after)

    def check_source(self, region: RegionRef, check_files: bool = True,
                     hashes: dict[str, str] | None = None) -> VerificationResult:
        """Verify the region against what the index recorded: ok, or why not (see provenance.FAILURE_REASONS).

        Compared with the held document: its id and hash, the span, the exact text slice, uri and lines, and
        the pages, boxes, chunk ids, kind and pdf_sha256 its segments give for the span. With `check_files`,
        the PDF recorded at ingest (document info `pdf_path` / `pdf_sha256`) is re-hashed: a missing PDF or
        hash fails. A document added without a PDF is verified by its text alone; no file the region names
        is ever opened. `hashes` caches PDF hashes (path → sha256) across calls of one run.
        """
        resolved = self._region(region)
        document_id = resolved.source.document_id
        try:
            doc = self._documents.get(document_id)
        except DamagedDocumentError as exc:
            self._leave_out(document_id, exc.why)
        if document_id in self.damaged:  # left out now or at open: say so, not that it is unknown
            return VerificationResult(ok=False, reason=UNKNOWN_DOCUMENT, region_id=resolved.region_id,
                                      document_id=document_id,
                                      detail=f"document {document_id!r} is damaged in the index file "
                                      f"({self.damaged[document_id]}); {REBUILD_HINT}")
        info = self.document_info(document_id) if doc is not None else {}
        return verify_region(doc, info, resolved, check_files=check_files, hashes=hashes)

    def verify_result(self, result: Iterable[RegionRef], check_files: bool = True) -> list[VerificationResult]:
        """check_source() for every region of a search result (each recorded PDF hashed once)."""
        hashes: dict[str, str] = {}
        return [self.check_source(region, check_files=check_files, hashes=hashes) for region in result]

    def check_document_pdf(self, document_id: str) -> tuple[str, str] | None:
        """Re-hash the PDF recorded for a held document: None when unchanged or none recorded, else
        (reason, detail) as in check_source. UnknownDocumentError for a document not held."""
        return check_pdf(self.get_document(document_id), self.document_info(document_id))

    def verify_source(self, region: RegionRef) -> bool:
        """True only when the held document's hash and the exact text slice match the region."""
        return self.check_source(region).ok

    def explain_verification(self, region: RegionRef) -> str:
        """One line saying whether the region verifies and, if not, why."""
        result = self.check_source(region)
        if result.ok:
            return f"{result.region_id}: verified against document {result.document_id!r}"
        return f"{result.region_id}: not verified: {result.reason} ({result.detail})"
