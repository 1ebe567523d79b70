"""LangChain export with the real library: InMemoryVectorStore + DeterministicFakeEmbedding."""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

pytest.importorskip("langchain_core", reason="the 'langchain' extra is not installed")

from langchain_core.documents import Document  # noqa: E402
from langchain_core.embeddings import DeterministicFakeEmbedding  # noqa: E402
from langchain_core.retrievers import BaseRetriever  # noqa: E402
from langchain_core.vectorstores import InMemoryVectorStore  # noqa: E402

from evidence_chunker import EvidenceChunker, EvidenceUnit  # noqa: E402
from evidence_chunker.corpus import TextChunk, build_corpus_parsed  # noqa: E402
from evidence_chunker.export.langchain import (  # noqa: E402
    EvidenceRetriever,
    dedupe_by_chunk_id,
    to_langchain,
    to_langchain_units,
)
from evidence_chunker.parsing.parsed import ParsedDoc  # noqa: E402

from repo_paths import SHARED_CORPUS  # noqa: E402

CORPUS = SHARED_CORPUS
SAMPLE = CORPUS / "docling" / "groundtruth" / "2206.01062.json"
QUERIES = ["mAP of the object detection baselines", "annotation campaign phases", "class labels", "DocLayNet"]


def small_corpus() -> list:
    """Two tables and two text chunks, enough to exercise the exporters without the reference corpus."""
    eu1 = EvidenceUnit(eu_id="r-p1-1", doc_id="r", page_no=1, page_span={1}, caption_text="Table 1: Revenue",
                       caption_confidence="direct", table_abstract="Revenue by segment, 3 rows.",
                       context_before=["Revenue grew in every segment."],
                       flattened_rows=["A | 2023: 10", "B | 2023: 20", "C | 2023: 30"], table_html="<table/>")
    eu2 = EvidenceUnit(eu_id="r-p2-1", doc_id="r", page_no=2, page_span={2}, flattened_rows=["X | 2023: 1"])
    t1 = TextChunk(chunk_id="r-t1", doc_id="r", text="The board met twice.", headings=["1 Governance"],
                   page_span={1})
    t2 = TextChunk(chunk_id="r-t2", doc_id="r", text="Outlook is stable.", page_span={3})
    return [eu1, t1, eu2, t2]


@lru_cache(maxsize=1)
def real_corpus() -> tuple:
    parsed = ParsedDoc.from_docling_json(SAMPLE)
    units = EvidenceChunker().chunk_parsed(parsed)
    return tuple(build_corpus_parsed(parsed, units))


def unit_store(corpus) -> tuple[InMemoryVectorStore, list[Document]]:
    documents = to_langchain_units(corpus)
    store = InMemoryVectorStore(DeterministicFakeEmbedding(size=64))
    store.add_documents(documents)
    return store, documents


def test_to_langchain_gives_one_document_per_chunk_with_its_text_and_id():
    corpus = small_corpus()
    documents = to_langchain(corpus)
    assert [d.id for d in documents] == ["r-p1-1", "r-t1", "r-p2-1", "r-t2"]
    assert [d.page_content for d in documents] == [c.text for c in corpus]
    assert documents[0].metadata["caption_text"] == "Table 1: Revenue"
    assert "caption_text" not in documents[2].metadata  # None is dropped for vector stores
    assert to_langchain(corpus, text_field="retrieval_text")[1].page_content == "1 Governance\nThe board met twice."


def test_document_metadata_is_flat_and_page_boxes_decode_from_json():
    eu = small_corpus()[0]
    eu.page_boxes = []
    [document] = to_langchain([eu])
    for value in document.metadata.values():
        assert isinstance(value, (str, int, float, bool, list))
    assert json.loads(document.metadata["page_boxes"]) == []
    assert document.metadata["page_span"] == [1]


def test_units_split_only_non_atomic_chunks():
    corpus = small_corpus()
    documents = to_langchain_units(corpus)
    eu_docs = [d for d in documents if d.metadata["chunk_id"] == "r-p1-1"]
    assert [d.page_content for d in eu_docs] == corpus[0].retrieval_units
    assert [d.metadata["unit_index"] for d in eu_docs] == [0, 1, 2, 3, 4]
    assert {d.metadata["unit_count"] for d in eu_docs} == {5}
    assert [d.id for d in eu_docs][:2] == ["r-p1-1#u0", "r-p1-1#u1"]
    text_docs = [d for d in documents if d.metadata["chunk_id"] == "r-t1"]
    assert len(text_docs) == 1 and text_docs[0].page_content == "The board met twice."


def test_dedupe_keeps_the_first_result_per_chunk_and_stops_at_k():
    def doc(chunk_id):
        return Document(page_content=chunk_id or "-", metadata={"chunk_id": chunk_id} if chunk_id else {})

    results = [(doc("a"), 0.9), (doc("a"), 0.8), (doc("b"), 0.7), (doc(None), 0.6), (doc("b"), 0.5), (doc("c"), 0.4)]
    kept = dedupe_by_chunk_id(results)
    assert [(d.metadata.get("chunk_id"), s) for d, s in kept] == [("a", 0.9), ("b", 0.7), (None, 0.6), ("c", 0.4)]
    assert [d.metadata["chunk_id"] for d in dedupe_by_chunk_id([d for d, _ in results], k=2)] == ["a", "b"]


@pytest.mark.skipif(not SAMPLE.is_file(), reason=f"reference corpus not found at {CORPUS}")
@pytest.mark.parametrize("query", QUERIES)
def test_retriever_returns_k_distinct_chunks_scored_by_their_best_unit(query):
    corpus = real_corpus()
    store, documents = unit_store(corpus)
    retriever = EvidenceRetriever(store, k=5)
    assert isinstance(retriever, BaseRetriever)
    hits = retriever.invoke(query)
    ids = [d.metadata["chunk_id"] for d in hits]
    assert len(ids) == 5 and len(set(ids)) == 5
    everything = store.similarity_search_with_score(query, k=len(documents))
    best: dict[str, float] = {}
    for document, score in everything:
        best[document.metadata["chunk_id"]] = max(score, best.get(document.metadata["chunk_id"], -1.0))
    assert [d.metadata["score"] for d in hits] == pytest.approx([best[i] for i in ids])
    assert [d.metadata["score"] for d in hits] == sorted(best.values(), reverse=True)[:5]


@pytest.mark.skipif(not SAMPLE.is_file(), reason=f"reference corpus not found at {CORPUS}")
def test_retriever_leaves_the_store_metadata_untouched_and_keeps_the_old_entry_point():
    store, _documents = unit_store(real_corpus())
    retriever = EvidenceRetriever(store, k=3)
    first = retriever.invoke("layout annotation")
    assert retriever.get_relevant_documents("layout annotation") == first
    assert all("score" not in d.metadata for d, _ in store.similarity_search_with_score("layout annotation", k=50))


def test_retriever_without_dedupe_returns_raw_top_k():
    store, _ = unit_store(small_corpus())
    hits = EvidenceRetriever(store, k=4, dedupe=False).invoke("revenue")
    raw = store.similarity_search_with_score("revenue", k=4)
    assert [(d.id, d.metadata["score"]) for d in hits] == [(d.id, s) for d, s in raw]


class CountingStore(InMemoryVectorStore):
    """An InMemoryVectorStore that remembers the k it was asked for and can answer in distances."""

    asked: list[int] = []
    distances = False

    def similarity_search_with_score(self, query, k=4, **kwargs):
        self.asked.append(k)
        hits = super().similarity_search_with_score(query, k=k, **kwargs)
        return [(d, 1.0 - s) for d, s in reversed(hits)] if self.distances else hits


def test_fetch_k_defaults_to_four_times_k_and_at_least_twenty():
    store = CountingStore(DeterministicFakeEmbedding(size=16))
    store.asked = []
    store.add_documents(to_langchain_units(small_corpus()))
    EvidenceRetriever(store, k=2).invoke("q")
    EvidenceRetriever(store, k=8).invoke("q")
    EvidenceRetriever(store, k=2, fetch_k=3).invoke("q")
    assert store.asked == [20, 32, 3]
    with pytest.raises(ValueError, match="fetch_k"):
        EvidenceRetriever(store, k=5, fetch_k=2)


def test_distance_scores_pool_to_the_smallest_distance():
    corpus = small_corpus()
    similar = InMemoryVectorStore(DeterministicFakeEmbedding(size=16))
    similar.add_documents(to_langchain_units(corpus))
    distant = CountingStore(DeterministicFakeEmbedding(size=16))
    distant.distances = True
    distant.add_documents(to_langchain_units(corpus))
    by_similarity = EvidenceRetriever(similar, k=3).invoke("revenue by segment")
    by_distance = EvidenceRetriever(distant, k=3, score_is_distance=True).invoke("revenue by segment")
    assert [d.metadata["chunk_id"] for d in by_distance] == [d.metadata["chunk_id"] for d in by_similarity]
    assert [d.metadata["score"] for d in by_distance] == pytest.approx([1.0 - d.metadata["score"] for d in by_similarity])


def test_parents_turn_a_unit_hit_into_its_whole_chunk():
    corpus = small_corpus()
    store, _ = unit_store(corpus)
    hits = EvidenceRetriever(store, k=4, parents=corpus).invoke("revenue")
    by_id = {c.chunk_id: c for c in corpus}
    for hit in hits:
        assert hit.page_content == by_id[hit.id].text
        assert "score" in hit.metadata and "matched_unit_index" in hit.metadata


def test_retriever_needs_a_vector_store():
    with pytest.raises(TypeError, match="similarity_search_with_score"):
        EvidenceRetriever(object())
