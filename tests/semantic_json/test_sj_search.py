"""Search: anchors → clusters → entity-safe regions, in Korean and English."""

from __future__ import annotations

import pytest
from sj_support import ENGLISH_B, ENGLISH_NEIGHBOURS_TEXT, KOREAN_NEIGHBOURS_TEXT, QUICKSTART_TEXT

from semantic_json import EvidenceRegion, SearchResult, SemanticRepository, compile, errors

KOREAN_QUERY = "B기업의 중장기 채무상환능력은 어떤가?"
ENGLISH_QUERY = "What is Company B's medium-term repayment capacity?"
REPAYMENT_SENTENCE = "B기업은 현재까지 원리금을 정상적으로 상환하고 있다."
CAVEAT_END = "단정하기는 어렵다."


def repo_with(*docs: tuple[str, str]) -> SemanticRepository:
    repo = SemanticRepository()
    for document_id, text in docs:
        repo.add(compile(text, document_id, source_uri=f"file:///credit/{document_id}.txt"))
    return repo


def test_quickstart_region_holds_repayment_sentence_and_caveat() -> None:
    result = repo_with(("company_b", QUICKSTART_TEXT)).search(KOREAN_QUERY)
    assert len(result) >= 1
    region = result[0]
    assert REPAYMENT_SENTENCE in region.text and "다만 주요 거래계약이" in region.text and CAVEAT_END in region.text
    assert region.entities == ["B_CORP"]
    assert region.region_id == "company_b:R1"


def test_region_never_contains_the_neighbouring_companies_text() -> None:
    result = repo_with(("credit", KOREAN_NEIGHBOURS_TEXT)).search(KOREAN_QUERY)
    assert len(result) >= 1
    assert REPAYMENT_SENTENCE in result[0].text and CAVEAT_END in result[0].text
    for region in result:
        assert "A기업" not in region.text and "C기업" not in region.text
        assert set(region.entities) <= {"B_CORP"}


def test_english_region_holds_repayment_and_caveat_but_not_company_a() -> None:
    result = repo_with(("credit_en", ENGLISH_NEIGHBOURS_TEXT)).search(ENGLISH_QUERY)
    assert len(result) >= 1
    assert result[0].text == ENGLISH_B
    for region in result:
        assert "Company A" not in region.text
        assert region.entities == ["B_CORP"]


def test_korean_query_finds_english_evidence_through_the_lexicon() -> None:
    result = repo_with(("credit_en", ENGLISH_NEIGHBOURS_TEXT)).search(KOREAN_QUERY)
    assert result[0].text == ENGLISH_B


def test_english_query_finds_korean_evidence_through_the_lexicon() -> None:
    result = repo_with(("company_b", QUICKSTART_TEXT)).search("Company B repayment capacity over the medium term")
    assert CAVEAT_END in result[0].text


def test_query_without_entity_returns_each_company_as_its_own_region() -> None:
    result = repo_with(("credit", KOREAN_NEIGHBOURS_TEXT)).search("중장기 상환능력")
    assert len(result) == 3
    assert sorted(tuple(r.entities) for r in result) == [("A_CORP",), ("B_CORP",), ("C_CORP",)]


def test_scattered_evidence_stays_separate_regions_under_one_document() -> None:
    filler = "\n\n".join(f"시장 동향 {i}번째 단락은 업계 전반의 일반적인 흐름을 설명한다." for i in range(12))
    text = (
        "B기업의 부채비율은 2023년 말 180%로 상승하였다.\n\n"
        + filler
        + "\n\nB기업은 차입금 상환을 위해 자산 매각을 검토하고 있으며 부채비율 개선을 목표로 한다.\n"
    )
    result = repo_with(("scattered", text)).search("B기업 부채비율")
    assert len(result) == 2
    assert result.document_count == 1
    assert [r.region_id for r in result] == ["scattered:R1", "scattered:R2"]
    payload = result.to_dict()
    assert len(payload["documents"]) == 1 and len(payload["documents"][0]["regions"]) == 2


def test_results_are_grouped_by_document_best_first() -> None:
    repo = repo_with(("ko", QUICKSTART_TEXT), ("en", ENGLISH_NEIGHBOURS_TEXT))
    result = repo.search(ENGLISH_QUERY)
    assert result.document_ids == ["en", "ko"]
    assert [r.score for r in result] == sorted((r.score for r in result), reverse=True)


def test_k_limits_the_number_of_regions() -> None:
    result = repo_with(("credit", KOREAN_NEIGHBOURS_TEXT)).search("중장기 상환능력", k=1)
    assert len(result) == 1


def test_query_with_no_match_gives_an_empty_valid_transport() -> None:
    result = repo_with(("company_b", QUICKSTART_TEXT)).search("xyzzy quantum chromodynamics")
    assert len(result) == 0
    assert result.to_dict() == {
        "schema": "semantic-json-transport/context/v1",
        "query": "xyzzy quantum chromodynamics",
        "region_count": 0,
        "document_count": 0,
        "documents": [],
    }
    assert "no evidence" in result.to_text()


def test_empty_repository_search_is_empty() -> None:
    assert len(SemanticRepository().search(KOREAN_QUERY)) == 0


@pytest.mark.parametrize("query", ["", "   ", "\n\t"])
def test_empty_query_is_an_error(query: str) -> None:
    with pytest.raises(errors.EmptyQueryError):
        repo_with(("company_b", QUICKSTART_TEXT)).search(query)


def test_non_string_query_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        SemanticRepository().search(None)  # type: ignore[arg-type]


def test_search_result_behaves_as_a_list_of_regions() -> None:
    result = repo_with(("credit", KOREAN_NEIGHBOURS_TEXT)).search("중장기 상환능력")
    assert isinstance(result, SearchResult)
    assert all(isinstance(r, EvidenceRegion) for r in result)
    assert list(result)[0] == result[0] and result[-1] == list(result)[-1]
    assert len(result[0:2]) == 2


def test_table_row_region_includes_caption_and_header_and_whole_rows() -> None:
    text = (
        "B기업 개요 단락이다.\n\n"
        "<표 1> B기업 주요 재무지표\n"
        "구분 | 2022 | 2023\n"
        "매출액 | 1,200 | 1,350\n"
        "부채비율 | 150% | 180%\n"
        "이자보상배율 | 2.1 | 1.4\n"
    )
    result = repo_with(("tbl", text)).search("B기업 이자보상배율")
    region = result[0]
    assert region.text.startswith("<표 1> B기업 주요 재무지표\n구분 | 2022 | 2023")
    assert region.text.endswith("이자보상배율 | 2.1 | 1.4")
    assert "B기업 개요" not in region.text


def test_adding_a_document_again_replaces_it() -> None:
    repo = repo_with(("doc", QUICKSTART_TEXT))
    anchors = repo.anchor_count
    repo.add(compile("C기업은 상환능력이 우수하다.", "doc"))
    assert repo.documents == ["doc"]
    assert repo.anchor_count == 1 < anchors
    assert len(repo.search(KOREAN_QUERY)) == 0


def test_removed_document_is_no_longer_searched() -> None:
    repo = repo_with(("ko", QUICKSTART_TEXT), ("en", ENGLISH_NEIGHBOURS_TEXT))
    repo.remove("ko")
    assert repo.documents == ["en"]
    assert all(r.document_id == "en" for r in repo.search(KOREAN_QUERY))
    with pytest.raises(errors.UnknownDocumentError, match="ko"):
        repo.remove("ko")


def test_add_rejects_something_that_is_not_a_compiled_document() -> None:
    with pytest.raises(TypeError, match="SemanticDocument"):
        SemanticRepository().add(QUICKSTART_TEXT)  # type: ignore[arg-type]


def test_repository_restored_from_saved_parts_searches_identically() -> None:
    from semantic_json import SemanticDocument
    from semantic_json.index import VectorIndex

    repo = repo_with(("ko", KOREAN_NEIGHBOURS_TEXT), ("en", ENGLISH_NEIGHBOURS_TEXT))
    saved_docs = [d.to_json() for d in repo]
    matrix, keys, name = repo.index.matrix.copy(), repo.index.keys(), repo.index.embedder_name
    restored = SemanticRepository.from_parts(
        [SemanticDocument.from_json(d) for d in saved_docs], VectorIndex.from_arrays(matrix, keys, name)
    )
    assert restored.documents == repo.documents
    assert restored.search(KOREAN_QUERY).to_json() == repo.search(KOREAN_QUERY).to_json()


def test_restoring_an_index_built_by_another_embedder_is_refused() -> None:
    from semantic_json import LiteEmbedder
    from semantic_json.index import VectorIndex

    repo = repo_with(("ko", QUICKSTART_TEXT))
    index = VectorIndex.from_arrays(repo.index.matrix, repo.index.keys(), repo.index.embedder_name)
    with pytest.raises(errors.EmbedderMismatchError, match="re-add"):
        SemanticRepository.from_parts(list(repo), index, embedder=LiteEmbedder(dim=512))


def test_neighbour_about_another_company_that_mentions_b_stays_out():
    from semantic_json import SemanticRepository, compile

    text = (
        "B기업은 현재까지 원리금을 정상적으로 상환하고 있다. 다만 주요 거래계약이 내년에 만료될 예정이며, "
        "중장기적으로 현재의 상환능력이 유지된다고 단정하기는 어렵다.\n\n"
        "한편, 동종 업계의 A기업은 장기공급계약을 새로 체결하였다. A기업은 원리금 상환 부담이 크지 않은 것으로 "
        "판단되며, 이 점에서 B기업과 대조적이다."
    )
    repo = SemanticRepository()
    repo.add(compile(text, "peer"))
    result = repo.search("B기업의 중장기 채무상환능력은 어떤가?")
    assert result.region_count >= 1
    assert "단정하기는 어렵다" in result[0].text
    assert all("A기업" not in region.text for region in result)


def test_document_that_names_the_company_wins_for_identical_rows():
    from semantic_json import SemanticRepository, compile

    def report(company: str, income: str) -> str:
        return (
            f"{company} Annual Report 2024\n\n{company} grew its business in every region.\n\n"
            f"Operating income | 2024: {income}; 2023: 1,681\nNet income | 2024: 1,375; 2023: 1,109"
        )

    repo = SemanticRepository()
    repo.add(compile(report("Heron Systems", "2,204"), "heron"))
    repo.add(compile(report("Kestrel Dynamics", "1,938"), "kestrel"))
    repo.add(compile(report("Osprey Metals", "977"), "osprey"))
    top = repo.search("Kestrel Dynamics operating income 2024", k=3)[0]
    assert top.document_id == "kestrel"
    assert "1,938" in top.text


def _statement_text(n: int) -> str:
    """A small report: a paragraph, a table under its caption, a closing paragraph (repeated in part, so
    two drafts of one document can hold the same text)."""
    return (
        f"# Report {n}\n\nRevenue grew to {n * 7} million in 2024. Operating income was {n * 3} million.\n\n"
        f"Table {n}: Consolidated balance sheet\n\n| item | 2024 | 2023 |\n| --- | --- | --- |\n"
        f"| Total assets | {n * 11} | {n * 10} |\n| Total liabilities | {n * 5} | {n * 4} |\n\n"
        "Net cash provided by operating activities rose.\n\nNet cash provided by operating activities rose.\n"
    )


def test_best_drafts_of_the_likeliest_documents_equal_those_of_every_document() -> None:
    import random

    from semantic_json.search.regions import best_drafts

    docs = {f"d{n}": compile(_statement_text(n % 4), f"d{n}") for n in range(12)}  # equal texts: equal scores
    order = {document_id: n for n, document_id in enumerate(docs)}
    source = docs.__getitem__
    generator = random.Random(11)
    skipped = 0
    for _ in range(300):
        hits = {}
        for document_id, doc in docs.items():
            positions = generator.sample(range(len(doc.units)), generator.randint(0, 4))
            if positions:  # few distinct scores: ties across documents and inside one
                hits[document_id] = [(p, generator.choice((0.2, 0.35, 0.5, 0.5, 0.8, 0.9))) for p in sorted(positions)]
        everything = best_drafts(hits, docs, order, source, limit=10**6)
        for k in (1, 2, 3, 5, 8):
            assembled: list[str] = []

            class Counting(dict):
                def __getitem__(self, document_id):
                    assembled.append(document_id)
                    return super().__getitem__(document_id)

            chosen = best_drafts(hits, Counting(docs), order, source, limit=k)
            assert [(d, r.first, r.last, r.score) for d, r in chosen] == [
                (d, r.first, r.last, r.score) for d, r in everything[:k]]
            skipped += len(hits) - len(assembled)
    assert skipped > 0  # documents that could place no draft were left out


def test_a_document_added_after_a_search_counts_in_the_next_search_as_if_it_had_been_there() -> None:
    texts = [(f"report{n}", _statement_text(n)) for n in range(1, 4)] + [("credit", KOREAN_NEIGHBOURS_TEXT)]
    query = "net cash provided by operating activities in report 3"
    grown = repo_with(*texts[:2])
    grown.search(query)
    grown.search(KOREAN_QUERY)
    for document_id, text in texts[2:]:
        grown.add(compile(text, document_id, source_uri=f"file:///credit/{document_id}.txt"))
    assert grown.search(query).to_json() == repo_with(*texts).search(query).to_json()
    assert grown.search(KOREAN_QUERY).to_json() == repo_with(*texts).search(KOREAN_QUERY).to_json()
