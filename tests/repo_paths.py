"""Where the test data lives: the reference corpus (tests skip when ../shared is absent) and sample_pdfs."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED_CORPUS = REPO.parent / "shared" / "corpus" / "docling_gt"
SAMPLE_PDFS = REPO / "sample_pdfs"


def corpus_jsons() -> list[Path]:
    """Every DoclingDocument JSON of the reference corpus (empty when it is absent)."""
    if not SHARED_CORPUS.is_dir():
        return []
    return sorted(SHARED_CORPUS.glob("docling/groundtruth/*.json")) + sorted(
        SHARED_CORPUS.glob("docling-cvat-tools/*/expected.json")
    )


requires_corpus = pytest.mark.skipif(
    not SHARED_CORPUS.is_dir(), reason=f"reference corpus not found at {SHARED_CORPUS}"
)
