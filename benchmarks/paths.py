"""Where the benchmarks find their data: the repository, sample_pdfs, the question set and the reference corpora
beside the repository (../shared/corpus). Scripts run as ``python benchmarks/X.py`` import this as ``paths``."""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE_PDFS = REPO / "sample_pdfs"
QUESTIONS_DIR = REPO / "benchmarks" / "questions"
#: The question set over sample_pdfs/.
SAMPLE_QUESTIONS = QUESTIONS_DIR / "sample_pdfs.jsonl"
#: The reference corpora, next to the repository (absent on a fresh clone: benchmarks say so and skip them).
SHARED_CORPUS = REPO.parent / "shared" / "corpus"
#: DoclingDocument ground truth with its PDFs.
DOCLING_GT = SHARED_CORPUS / "docling_gt"
#: Real 10-K/10-Q/8-K filings of the FinQA dev set.
FINQA = SHARED_CORPUS / "finqa_dev"
FINQA_PDFS = FINQA / "pdfs"


def corpus_jsons(corpus: Path = DOCLING_GT) -> list[Path]:
    """Every DoclingDocument JSON of a docling_gt-shaped corpus folder (empty when it is absent)."""
    return sorted(corpus.glob("docling/groundtruth/*.json")) + sorted(corpus.glob("docling-cvat-tools/*/expected.json"))


def corpus_doc_id(path: Path) -> str:
    """The document id of a corpus JSON: its folder for ``expected.json``, else its stem."""
    return path.parent.name if path.name == "expected.json" else path.stem
