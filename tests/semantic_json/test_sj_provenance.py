"""Locating, recovering and verifying a region's source."""

from __future__ import annotations

import pytest
from sj_support import QUICKSTART_TEXT

from semantic_json import SearchResult, SemanticRepository, SourceSpan, compile, errors

QUERY = "B기업의 중장기 채무상환능력은 어떤가?"


@pytest.fixture
def repo() -> SemanticRepository:
    repo = SemanticRepository()
    repo.add(compile(QUICKSTART_TEXT, "company_b", source_uri="file:///credit/company_b.txt"))
    return repo


def test_locate_gives_document_uri_chars_lines_and_hash(repo: SemanticRepository) -> None:
    region = repo.search(QUERY)[0]
    span = repo.locate(region)
    assert isinstance(span, SourceSpan)
    assert (span.document_id, span.uri) == ("company_b", "file:///credit/company_b.txt")
    assert (span.start_char, span.end_char, span.start_line, span.end_line) == (1, 90, 2, 4)
    assert span.document_sha256 == repo.get_document("company_b").document_sha256


def test_get_source_returns_the_exact_original_text(repo: SemanticRepository) -> None:
    region = repo.search(QUERY)[0]
    assert repo.get_source(region) == region.text == QUICKSTART_TEXT[1:90]


def test_get_source_adds_context_clamped_to_the_document(repo: SemanticRepository) -> None:
    region = repo.search(QUERY)[0]
    assert repo.get_source(region, context_before=500, context_after=500) == QUICKSTART_TEXT
    assert repo.get_source(region, context_before=1) == QUICKSTART_TEXT[0:90]


def test_verify_source_is_true_for_a_fresh_region(repo: SemanticRepository) -> None:
    region = repo.search(QUERY)[0]
    assert repo.verify_source(region) is True
    check = repo.check_source(region)
    assert check.ok and check.reason == "verified"
    assert "verified" in repo.explain_verification(region)


def test_region_parsed_back_from_json_still_verifies(repo: SemanticRepository) -> None:
    parsed = SearchResult.from_json(repo.search(QUERY).to_json())
    assert repo.verify_source(parsed[0])
    assert repo.get_source(parsed[0]) == parsed[0].text


def test_region_of_a_changed_document_fails_with_hash_reason(repo: SemanticRepository) -> None:
    region = repo.search(QUERY)[0]
    repo.add(compile(QUICKSTART_TEXT.replace("정상적으로", "대체로"), "company_b"))
    assert repo.verify_source(region) is False
    check = repo.check_source(region)
    assert check.reason == "document hash differs"
    assert "document hash differs" in repo.explain_verification(region)


def test_tampered_region_text_fails_with_slice_reason(repo: SemanticRepository) -> None:
    region = repo.search(QUERY)[0]
    forged = region.model_copy(update={"text": region.text.replace("어렵다", "쉽다")})
    assert repo.verify_source(forged) is False
    assert repo.check_source(forged).reason == "slice differs"


def test_span_outside_the_document_fails_with_range_reason(repo: SemanticRepository) -> None:
    region = repo.search(QUERY)[0]
    source = region.source.model_copy(update={"end_char": 10_000})
    forged = region.model_copy(update={"source": source})
    assert repo.check_source(forged).reason == "span out of range"
    with pytest.raises(errors.SourceSpanError):
        repo.get_source(forged)


def test_region_of_an_unknown_document_fails_with_reason(repo: SemanticRepository) -> None:
    region = repo.search(QUERY)[0]
    other = SemanticRepository()
    assert other.verify_source(region) is False
    assert other.check_source(region).reason == "unknown document"
    with pytest.raises(errors.UnknownDocumentError, match="company_b"):
        other.get_source(region)
    with pytest.raises(errors.UnknownDocumentError):
        other.locate(region)


def test_get_region_by_id_and_unknown_id(repo: SemanticRepository) -> None:
    region = repo.search(QUERY)[0]
    assert repo.get_region("company_b:R1") == region
    assert repo.verify_source("company_b:R1")
    with pytest.raises(errors.UnknownRegionError, match="company_b:R99") as info:
        repo.get_region("company_b:R99")
    assert isinstance(info.value, KeyError)
