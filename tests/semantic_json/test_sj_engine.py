"""Search in two stages over the engine: filters applied in stage 1, documents routed by their priors, the
corpus statistics kept by the engine through additions and removals."""

from __future__ import annotations

import numpy as np
import pytest

from semantic_json import SemanticRepository, compile
from semantic_json.search import candidates
from semantic_json.search.filters import SearchFilter, SearchFilterError, parse_where

FILINGS = {
    # document id: (company, ticker, fiscal year, text)
    "acme_2021": ("Acme Tools Inc.", "ACM", "2021", "Acme Tools reported revenue of 1,200 million in fiscal 2021.\n"
                  "Capital expenditures were 140 million in 2021.\n"),
    "acme_2022": ("Acme Tools Inc.", "ACM", "2022", "Acme Tools reported revenue of 1,350 million in fiscal 2022.\n"
                  "Capital expenditures were 155 million in 2022.\n"),
    "borealis_2022": ("Borealis Energy Corp.", "BRL", "2022", "Borealis Energy reported revenue of 980 million in "
                      "fiscal 2022.\nCapital expenditures were 410 million in 2022.\n"),
}


def _repo(path=None) -> SemanticRepository:
    repo = SemanticRepository() if path is None else SemanticRepository.open(path)
    for document_id, (company, ticker, year, text) in FILINGS.items():
        info = {"filing": {"company": company, "ticker": ticker, "fiscal_year": year, "form": "10-K"},
                "profile": f"{company} {ticker} · FORM 10-K · FY{year}", "subject": f"{company} {ticker}"}
        repo.add(compile(text, document_id=document_id), info=info)
    return repo


def test_a_filtered_search_never_returns_a_region_outside_the_filter():
    repo = _repo()
    for where, allowed in (({"company": "Acme"}, {"acme_2021", "acme_2022"}), ({"company": "BRL"}, {"borealis_2022"}),
                           ({"fiscal_year": 2022}, {"acme_2022", "borealis_2022"}),
                           ({"company": "Acme Tools", "fiscal_year": "2021"}, {"acme_2021"}),
                           ({"documents": ["borealis_2022", "acme_2021"]}, {"borealis_2022", "acme_2021"})):
        result = repo.search("capital expenditures revenue", k=10, where=where)
        assert result.region_count > 0
        assert {region.document_id for region in result} <= allowed, where


def test_a_filter_that_admits_no_document_gives_an_empty_transport():
    result = _repo().search("revenue", where={"company": "Nobody"})
    assert result.region_count == 0 and list(result) == []


def test_a_kind_filter_keeps_to_table_rows_or_to_text():
    repo = SemanticRepository()
    text = ("Segment results\n\nSegment | 2022 | 2021\nTools | 1,350 | 1,200\nServices | 410 | 380\n\n"
            "Revenue from tools grew in 2022 because of higher volumes.\n")
    repo.add(compile(text, document_id="segments"))
    kinds = {unit.id: unit.kind for unit in repo.get_document("segments").units}
    assert "table_row" in kinds.values()
    tables = repo.search("tools revenue 2022", k=5, where={"kind": "table"})
    prose = repo.search("tools revenue 2022", k=5, where={"kind": "text"})
    assert tables.region_count and prose.region_count
    assert all("|" in region.text for region in tables)
    assert all("higher volumes" in region.text for region in prose)


def test_filters_are_checked_and_say_what_is_wrong():
    with pytest.raises(SearchFilterError, match="unknown filter field 'colour'"):
        SearchFilter.from_mapping({"colour": "red"})
    with pytest.raises(SearchFilterError, match="unknown kind 'chart'"):
        SearchFilter.from_mapping({"kind": "chart"})
    with pytest.raises(SearchFilterError, match="expected FIELD=VALUE"):
        parse_where(["company"])
    assert parse_where(["company=3M", "company=Acme", "fiscal_year=2022"]) == SearchFilter(
        company=["3M", "Acme"], fiscal_year=["2022"])


def test_a_search_over_more_documents_than_it_routes_still_finds_the_filing_the_question_names(monkeypatch):
    monkeypatch.setattr(candidates, "ROUTED_DOCUMENTS", 1)
    repo = _repo()
    result = repo.search("What were Borealis Energy's capital expenditures in 2022?", k=1)
    assert [region.document_id for region in result] == ["borealis_2022"]
    assert "410" in result[0].text


def test_the_engine_keeps_its_statistics_through_replacement_and_removal(tmp_path):
    repo = _repo(tmp_path / "index.sqlite")
    before = repo.search("capital expenditures", k=3).to_json()
    store = repo._store
    totals = store.totals()
    assert totals.documents == 3 and totals.units == repo.anchor_count
    extra = compile("An unrelated note about leases and capital expenditures.\n", document_id="note")
    repo.add(extra)
    repo.remove("note")
    assert store.totals() == totals
    assert repo.search("capital expenditures", k=3).to_json() == before
    # replacing a document with other text takes its old postings out of the statistics
    company, ticker, year, text = FILINGS["acme_2021"]
    repo.add(compile(text.replace("Capital expenditures", "Dividends"), document_id="acme_2021"))
    reopened = SemanticRepository.open(tmp_path / "index.sqlite", read_only=True)
    assert reopened.search("capital expenditures", k=5).to_json() == repo.search("capital expenditures", k=5).to_json()
    assert "acme_2021" not in {region.document_id for region in repo.search("capital expenditures", k=5)}
    reopened.close()
    repo.close()


def test_a_company_filter_matches_the_name_its_words_its_ticker_or_its_initials():
    fields = {"company": "ADVANCED MICRO DEVICES, INC.", "ticker": "AMD"}
    admits = SearchFilter(company=["AMD"]).admits
    assert admits("d", {"company": "ADVANCED MICRO DEVICES, INC."})  # initials, no ticker on the cover
    assert admits("d", fields) and SearchFilter(company=["Advanced Micro"]).admits("d", fields)
    assert not SearchFilter(company=["Amd"]).admits("d", {"company": "ADVANCED MICRO DEVICES, INC."})
    assert not SearchFilter(company=["Micro Systems"]).admits("d", fields)


class _ConceptEmbedder:
    """A dense embedder without a lexical gate: texts that name either word of a pair point the same way."""

    name = "test-concepts/v1"
    dim = 8
    PAIRS = (("zorblat", "quenix"), ("revenue", "turnover"))

    def _embed(self, text: str) -> np.ndarray:
        vector = np.full(self.dim, 0.01, dtype=np.float32)
        for axis, pair in enumerate(self.PAIRS):
            if any(word in text.lower() for word in pair):
                vector[axis] = 1.0
        return vector / np.linalg.norm(vector)

    def embed_documents(self, texts):
        return np.stack([self._embed(t) for t in texts])

    def embed_query(self, text):
        return self._embed(text)


def test_an_embedder_without_a_lexical_gate_finds_anchors_that_share_no_word_with_the_query(tmp_path):
    text = "The zorblat reserve grew to 40 million.\n\nRevenue was 1,200 million.\n"
    for repo in (SemanticRepository(_ConceptEmbedder()), SemanticRepository.open(tmp_path / "i.sqlite", _ConceptEmbedder())):
        repo.add(compile(text, document_id="d"))
        result = repo.search("quenix", k=1)
        assert result.region_count == 1 and "zorblat" in result[0].text
    gated = SemanticRepository()
    gated.add(compile(text, document_id="d"))
    assert gated.search("quenix", k=1).region_count == 0  # the LiteEmbedder needs a word in common


def test_a_closed_index_refuses_a_search_with_the_way_on(tmp_path):
    from semantic_json.store import IndexFileError

    repo = _repo(tmp_path / "index.sqlite")
    repo.close()
    with pytest.raises(IndexFileError, match="closed: open it again"):
        repo.search("revenue")
