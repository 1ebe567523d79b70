"""Choosing a parser: Docling's pipeline, the lite parser, and the automatic choice between them."""

from __future__ import annotations

import warnings

import pytest

from repo_paths import SAMPLE_PDFS
from evidence_chunker import EvidenceChunker, ModelsUnavailableError, ParserFallbackWarning
from evidence_chunker.parsing import resolve_parser
from evidence_chunker.parsing.docling_parser import DoclingParser, docling_installed, models_status

needs_docling = pytest.mark.skipif(not docling_installed(), reason='Docling not installed (extra "docling")')
MODELS_OK, MODELS_REASON = models_status()


@needs_docling
@pytest.mark.skipif(MODELS_OK, reason="Docling models are available here; the missing-models path cannot be shown")
def test_docling_without_models_raises_an_error_that_says_how_to_get_them():
    with pytest.raises(ModelsUnavailableError) as err:
        DoclingParser().parse(SAMPLE_PDFS / "mixed_brief.pdf")
    assert "docling-tools models download" in str(err.value)
    assert "artifacts_path" in str(err.value)


@needs_docling
def test_missing_artifacts_path_is_refused_up_front(tmp_path):
    with pytest.raises(ModelsUnavailableError, match="artifacts_path"):
        DoclingParser(artifacts_path=tmp_path / "no-models-here")


@needs_docling
@pytest.mark.skipif(not MODELS_OK, reason=f"Docling models unavailable: {MODELS_REASON}")
def test_docling_pipeline_finds_the_income_statement():
    chunker = EvidenceChunker(parser="docling")
    units = chunker.chunk(SAMPLE_PDFS / "annual_report_en.pdf")
    assert any("12,345" in eu.text or "Revenue" in eu.text for eu in units)
    assert chunker.parser.name == "docling"


@pytest.mark.skipif(MODELS_OK, reason="Docling models are available here; auto picks Docling")
def test_auto_falls_back_to_lite_with_a_warning_that_says_why():
    with pytest.warns(ParserFallbackWarning, match="lite parser"):
        parser = resolve_parser("auto")
    assert parser.name == "lite"


def test_explicit_lite_never_warns():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert resolve_parser("lite").name == "lite"


def test_unknown_parser_name_is_refused():
    with pytest.raises(ValueError, match="unknown parser 'fast'"):
        resolve_parser("fast")


def test_injected_parser_is_used_as_is():
    class Fixed:
        name = "fixed"

        def parse(self, path):
            raise AssertionError("not called")

    fixed = Fixed()
    assert EvidenceChunker(parser=fixed).parser is fixed
