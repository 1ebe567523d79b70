"""Evidence-quality figures of an index, per document: what `sjt diagnose` prints, callable from Python."""

from __future__ import annotations


def diagnose_index(repo, full: bool = False) -> list[dict]:
    """One dict per indexed document (``sjt diagnose`` prints them): pages, parser, tables, captions by
    confidence and by source, split tables, oversized units, context paragraphs, text chunks kept and dropped,
    running lines dropped from the text flow (page headers and footers that title no table: how many, and the
    most frequent), pages read by OCR (how many, their words' mean confidence 0..1, the pages OCR gave up on), anchors, and ``problems`` (document integrity, the recorded PDF re-checked against its sha256, damage in
    the index file); an empty ``problems`` list means the document verifies now. Every document is first
    read whole (`SemanticRepository.check_index`); also returned: what the index file's own check finds
    (SQLite's quick_check, or with ``full`` its integrity_check), damage no document can be named for."""
    return diagnose_index_file(repo, full)[0]


def diagnose_index_file(repo, full: bool = False) -> tuple[list[dict], list[str]]:
    """`diagnose_index`'s rows, and what the index file's own check finds that no document can be named for."""
    file_problems, _ = repo.check_index(full)  # the damaged documents are left out, into repo.damaged
    rows = []
    for document_id in repo.documents:
        info = repo.document_info(document_id)
        doc = repo.get_document(document_id)
        problems = []
        try:
            doc.check_integrity()
        except ValueError as exc:
            problems.append(f"document integrity: {exc}")
        pdf_problem = repo.check_document_pdf(document_id)
        if pdf_problem is not None:
            problems.append(f"{pdf_problem[0]}: {pdf_problem[1]}")
        rows.append({
            "document_id": document_id,
            "pages": info.get("pages"),
            "parser": info.get("parser"),
            "tables": info.get("tables"),
            "captions": info.get("captions", {}),
            "caption_sources": info.get("caption_sources", {}),
            "filing": info.get("profile") or None,
            "split_tables": info.get("split_tables"),
            "oversized_units": len(info.get("oversized_units", [])),
            "context_paragraphs": info.get("context_paragraphs"),
            "text_chunks": info.get("text_chunks"),
            "text_chunks_dropped": info.get("text_chunks_dropped"),
            "dropped_lines": info.get("dropped_lines", {}),
            "ocr_pages": len(info.get("ocr_pages") or []),
            "ocr_confidence": info.get("ocr_confidence"),
            "ocr_timeouts": list(info.get("ocr_timeouts") or []),
            "anchors": len(doc.units),
            "problems": problems,
        })
    for document_id, why in repo.damaged.items():
        rows.append({"document_id": document_id, "problems": [f"damaged in the index file: {why}"]})
    return rows, file_problems
