"""One pipeline: EvidenceChunker and ingest (and so ray_ingest) make a document's units, corpus and semantic
document through the same Pipeline, so each gives what the others give for the same PDF."""

from __future__ import annotations

from repo_paths import SAMPLE_PDFS

from evidence_chunker import EvidenceChunker
from evidence_chunker.corpus import chunk_to_record
from evidence_chunker.export.semantic import corpus_to_semantic_document, pdf_uri
from evidence_chunker.ingest.prepare import prepare_document

PDF = SAMPLE_PDFS / "annual_report_en.pdf"


def test_ingest_compiles_exactly_the_corpus_the_chunker_builds():
    chunker = EvidenceChunker(parser="lite")
    parsed = chunker.parse(PDF)
    corpus = chunker.build_corpus_parsed(parsed, doc_id="annual_report_en")
    prepared = prepare_document(PDF, "lite", doc_id="annual_report_en")
    expected = corpus_to_semantic_document(corpus, "annual_report_en", pdf_uri(PDF), parsed.sha256)
    assert prepared.document.to_json() == expected.to_json()
    assert prepared.info["chunks"] == len(corpus) and prepared.info["units"] == 13


def test_a_pipeline_run_holds_each_stage_as_the_chunker_gives_it():
    chunker = EvidenceChunker(parser="lite")
    parsed = chunker.parse(PDF)
    run = chunker.pipeline.run(parsed, source_uri=pdf_uri(PDF), document=True)
    assert run.doc_id == "annual_report_en" and run.document.document_id == "annual_report_en"
    assert [u.eu_id for u in run.units] == [u.eu_id for u in chunker.chunk_parsed(parsed)]
    assert [chunk_to_record(c) for c in run.corpus] == [chunk_to_record(c) for c in chunker.build_corpus_parsed(parsed)]
    assert run.filing.get("profile", "") == (run.corpus[0].filing or "")
    assert chunker.pipeline.run(parsed).document is None  # compiled only when asked for
