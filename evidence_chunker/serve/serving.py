"""What `sjt mcp` and `sjt serve` share: opening an index, checking regions, finding and drawing their PDFs.

Both servers answer from one index file. A region is checked the way `sjt verify` checks it (the indexed
text's hash and slice, then the PDF's bytes); page images are drawn by the renderer of `sjt show`. Only
PDFs that the index records for its own documents are ever opened: nothing the caller sends names a file.
"""

from __future__ import annotations

import hashlib
import json
import tempfile
from pathlib import Path
from typing import Any

from ..errors import NotServedError, PdfChangedError, ServingError

#: Largest ``k`` either server accepts for one search (a page of evidence, not a dump of the index).
MAX_K = 50
#: Default number of regions per search.
DEFAULT_K = 5
#: Suffix of the file beside the index where `sjt search` keeps its last result, so `sjt show` can resolve
#: region ids. Search never writes into the index itself (it may be read-only or shared).
LAST_RESULT_SUFFIX = ".last-search.json"
#: Note under which a server index (PostgreSQL) keeps the last `sjt search` result, having no folder beside it.
LAST_SEARCH_NOTE = "last-search"


def open_repository(path: str | Path):
    """The SemanticRepository of an existing index file; ServingError naming the file when it cannot be used."""
    from semantic_json import SemanticRepository
    from semantic_json.errors import EmbedderMismatchError
    from semantic_json.store import IndexFileError

    if not Path(path).is_file():
        raise ServingError(f"{path}: index file not found (create it with `sjt ingest ... --index {path}`)")
    try:
        return SemanticRepository.open(path, embedder=_recorded_embedder(path))
    except (IndexFileError, EmbedderMismatchError) as exc:
        raise ServingError(str(exc)) from exc


def _recorded_embedder(path: str | Path):
    """The embedder the index was built with (a neural one loaded from the local model cache only); None for
    the default LiteEmbedder. ServingError when that model cannot be loaded here."""
    from semantic_json.embedder_choice import embedder_for_name, recorded_embedder_name
    from semantic_json.errors import SemanticJsonError

    recorded = recorded_embedder_name(path)
    if recorded is None or recorded.startswith("lite-hash/"):
        return None
    try:
        return embedder_for_name(recorded, local_files_only=True)
    except (SemanticJsonError, ImportError) as exc:
        raise ServingError(f"{path}: built with embedder {recorded!r}, which cannot be loaded here ({exc})") from exc


def check_region(repo, region) -> tuple[bool, str]:
    """``(verified, why)`` for a region: the same checks as `sjt verify` (what the index recorded: text,
    pages, boxes, chunk ids, then the recorded PDF's bytes)."""
    result = repo.check_source(region)
    if result.ok:
        return True, "verified"
    return False, f"{result.reason}: {result.detail}" if result.detail else str(result.reason)


def parse_transport(data: str | dict[str, Any]):
    """A SearchResult from transport JSON text or its dict; ServingError saying what is wrong otherwise."""
    from semantic_json import SearchResult
    from semantic_json.errors import SemanticJsonError

    try:
        return SearchResult.from_json(data)
    except (SemanticJsonError, ValueError, TypeError) as exc:
        raise ServingError(f"not a semantic-json-transport result: {exc}") from exc


def check_k(k: Any) -> int:
    """``k`` as an int in 1..MAX_K; ServingError otherwise."""
    if isinstance(k, bool) or not isinstance(k, int):
        raise ServingError(f"k must be a whole number, got {k!r}")
    if not 1 <= k <= MAX_K:
        raise ServingError(f"k must be between 1 and {MAX_K}, got {k}")
    return k


def document_pdf(repo, document_id: str) -> Path:
    """The PDF the index records for ``document_id``; NotServedError when the document or its PDF is unknown."""
    return _recorded_pdf(repo, document_id)[0]


def _recorded_pdf(repo, document_id: str) -> tuple[Path, str | None]:
    """The path and sha256 the index records for the PDF of ``document_id``; NotServedError when the document
    is unknown, has no PDF, or its PDF is missing."""
    from semantic_json.provenance import PDF_MISSING, recorded_pdf

    if document_id not in repo:
        raise NotServedError(f"the index holds no document {document_id!r}")
    pdf, digest = recorded_pdf(repo.get_document(document_id), repo.document_info(document_id))
    if not pdf:
        raise NotServedError(f"document {document_id!r} was not indexed from a PDF")
    path = Path(pdf)
    if not path.is_file():
        raise NotServedError(f"{PDF_MISSING}: the PDF of {document_id!r} is not at {path}; not drawn")
    return path, digest


def verified_pdf(repo, document_id: str) -> tuple[Path, bytes]:
    """The path and bytes of the PDF the index records for ``document_id``, read once and equal to the sha256
    the index records, so that what is drawn is what was indexed. NotServedError (unknown document, no PDF,
    PDF missing or unreadable) or PdfChangedError (other bytes at that path, or no hash recorded)."""
    from semantic_json.provenance import PDF_CHANGED, PDF_NOT_RECORDED, PDF_UNREADABLE

    path, digest = _recorded_pdf(repo, document_id)
    if digest is None:
        raise PdfChangedError(f"{PDF_NOT_RECORDED}: the index records no sha256 for {path}; not drawn")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise NotServedError(f"{PDF_UNREADABLE}: {path}: {exc.strerror or exc}; not drawn") from None
    actual = hashlib.sha256(data).hexdigest()
    if actual != digest:
        raise PdfChangedError(f"{PDF_CHANGED}: {path} has sha256 {actual[:12]}…, indexed as {digest[:12]}…; "
                              "not drawn (ingest it again to see it)")
    return path, data


def region_summary(region) -> dict[str, Any]:
    """A region as the tools hand it out: its stable citation id, its id in the result it came from,
    document, score, pages, boxes, source and text."""
    return {
        "citation_id": region.citation_id,
        "region_id": region.region_id,
        "document_id": region.document_id,
        "score": region.score,
        "pages": region.source.pages or [],
        "boxes": region.source.boxes or [],
        "source": region.source.to_dict(),
        "text": region.text,
    }


def render_page_png(pdf: Path | bytes, pages: list[int], boxes: list[dict[str, Any]], scale: float) -> bytes:
    """PNG bytes of ``pages`` of ``pdf`` (a path, or the PDF's bytes) with ``boxes`` (transport box dicts)
    drawn, by `sjt show`'s renderer.

    ServingError for a page the PDF does not have, a malformed box, or bytes pdfium cannot read as a PDF.
    """
    from pypdfium2 import PdfiumError

    from .render import render_boxes
    from ..units.evidence_unit import PageBox

    try:
        page_boxes = [PageBox.from_dict(box) for box in boxes]
    except (KeyError, TypeError, ValueError) as exc:
        raise ServingError(f"malformed box: {exc}") from exc
    with tempfile.TemporaryDirectory(prefix="sjt-page-") as tmp:
        out = Path(tmp) / "page.png"
        try:
            render_boxes(pdf, page_boxes, out, pages=pages, scale=scale)
        except PdfiumError as exc:
            raise ServingError(f"the recorded PDF cannot be read as a PDF ({exc})") from None
        except ValueError as exc:
            raise ServingError(str(exc)) from exc
        return out.read_bytes()


def _is_server(location: str) -> bool:
    from semantic_json.store import is_server_url

    return is_server_url(location)


def last_result_path(index: str | Path) -> Path:
    """Where `sjt search` keeps its last result for ``index`` (beside it, never inside it)."""
    index = Path(index)
    return index.with_name(index.name + LAST_RESULT_SUFFIX)


def last_cli_result(repo):
    """The last result `sjt search` kept beside the index file, or as a server index's note (None if there is
    none or it no longer parses)."""
    if repo.path is None:
        return None
    try:
        if _is_server(str(repo.path)):
            saved = repo.get_note(LAST_SEARCH_NOTE)
            return None if saved is None else parse_transport(saved)
        saved = last_result_path(repo.path).read_text(encoding="utf-8")
        return parse_transport(saved)
    except (OSError, UnicodeDecodeError, ServingError):
        return None


def as_json_text(value: Any) -> str:
    """Pretty JSON with non-ASCII kept (Korean stays readable)."""
    return json.dumps(value, ensure_ascii=False, indent=2)
