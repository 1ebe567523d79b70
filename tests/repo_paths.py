"""Where the test data lives: the reference corpus (tests skip when ../shared is absent), sample_pdfs and the
benchmarks' question set. Every test takes these paths from here."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_CORPUS = REPO.parent / "shared" / "corpus" / "docling_gt"
SAMPLE_PDFS = REPO / "sample_pdfs"
#: Real 10-K/10-Q/8-K filings of the finqa_dev set (research licence: read in place, never copied here).
FINQA_PDFS = REPO.parent / "shared" / "corpus" / "finqa_dev" / "pdfs"
BENCHMARKS = REPO / "benchmarks"
#: The question set over sample_pdfs/ (benchmarks/questions/sample_pdfs.jsonl).
SAMPLE_QUESTIONS = BENCHMARKS / "questions" / "sample_pdfs.jsonl"


def corpus_jsons() -> list[Path]:
    """Every DoclingDocument JSON of the reference corpus (empty when it is absent)."""
    if not SHARED_CORPUS.is_dir():
        return []
    return sorted(SHARED_CORPUS.glob("docling/groundtruth/*.json")) + sorted(
        SHARED_CORPUS.glob("docling-cvat-tools/*/expected.json")
    )


def corpus_doc_id(path: Path) -> str:
    """The document id of a reference-corpus JSON: its folder for ``expected.json``, else its stem."""
    return path.parent.name if path.name == "expected.json" else path.stem


def corpus_params() -> list:
    """One pytest param per reference-corpus JSON (id: its document id), or one skipped param naming the
    missing folder."""
    if not SHARED_CORPUS.is_dir():
        return [pytest.param(None, marks=pytest.mark.skip(reason=f"reference corpus not found at {SHARED_CORPUS}"))]
    return [pytest.param(path, id=corpus_doc_id(path)) for path in corpus_jsons()]


requires_corpus = pytest.mark.skipif(
    not SHARED_CORPUS.is_dir(), reason=f"reference corpus not found at {SHARED_CORPUS}"
)
