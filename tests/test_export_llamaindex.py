"""LlamaIndex export with the real library: VectorStoreIndex + MockEmbedding, nothing on the network."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("llama_index.core", reason="the 'llamaindex' extra is not installed")

from llama_index.core import Settings, VectorStoreIndex  # noqa: E402
from llama_index.core.embeddings import MockEmbedding  # noqa: E402
from llama_index.core.retrievers import BaseRetriever  # noqa: E402
from llama_index.core.schema import MetadataMode, NodeWithScore, QueryBundle, TextNode  # noqa: E402

from evidence_chunker import EvidenceChunker, EvidenceUnit  # noqa: E402
from evidence_chunker.corpus import TextChunk, build_corpus_parsed  # noqa: E402
from evidence_chunker.export.llamaindex import (  # noqa: E402
    EvidenceRetriever,
    dedupe_by_chunk_id,
    to_llamaindex,
    to_llamaindex_units,
)
from evidence_chunker.parsing.parsed import ParsedDoc  # noqa: E402

from repo_paths import SHARED_CORPUS  # noqa: E402

CORPUS = SHARED_CORPUS
SAMPLE = CORPUS / "docling" / "groundtruth" / "2206.01062.json"


@pytest.fixture(autouse=True)
def offline_settings():
    """No LLM and a mock embedding, so nothing is fetched; the previous settings are put back."""
    previous_llm, previous_embed = Settings._llm, Settings._embed_model
    Settings.llm = None
    Settings.embed_model = MockEmbedding(embed_dim=8)
    yield
    Settings._llm, Settings._embed_model = previous_llm, previous_embed


def small_corpus() -> list:
    eu = EvidenceUnit(eu_id="r-p1-1", doc_id="r", page_no=1, page_span={1}, caption_text="Table 1: Revenue",
                      caption_confidence="direct", table_abstract="Revenue by segment, 2 rows.",
                      flattened_rows=["A | 2023: 10", "B | 2023: 20"], table_html="<table/>")
    text = TextChunk(chunk_id="r-t1", doc_id="r", text="The board met twice.", headings=["1 Governance"],
                     page_span={1})
    return [eu, text]


class FixedRetriever(BaseRetriever):
    """A real LlamaIndex retriever answering every query with the same scored nodes, in the given order."""

    def __init__(self, hits: list[tuple[str, str, float | None]]):
        super().__init__()
        self.hits = hits

    def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
        return [NodeWithScore(node=TextNode(id_=node_id, text=node_id, metadata={"chunk_id": chunk_id}), score=score)
                for node_id, chunk_id, score in self.hits]


HITS = [("a#u1", "a", 0.40), ("b#u0", "b", 0.75), ("a#u0", "a", 0.90), ("c#u0", "c", None), ("b#u1", "b", 0.20),
        ("d#u0", "d", 0.50)]


def test_nodes_carry_chunk_text_ids_and_metadata_kept_out_of_the_embedding():
    nodes = to_llamaindex(small_corpus())
    assert [n.node_id for n in nodes] == ["r-p1-1", "r-t1"]
    assert nodes[1].text == "The board met twice." and nodes[0].metadata["caption_text"] == "Table 1: Revenue"
    assert nodes[1].get_content(metadata_mode=MetadataMode.EMBED) == "The board met twice."
    assert nodes[1].get_content(metadata_mode=MetadataMode.LLM) == "The board met twice."
    assert nodes[0].ref_doc_id == "r"


def test_unit_nodes_split_only_non_atomic_chunks():
    corpus = small_corpus()
    nodes = to_llamaindex_units(corpus)
    eu_nodes = [n for n in nodes if n.metadata["chunk_id"] == "r-p1-1"]
    assert [n.text for n in eu_nodes] == corpus[0].retrieval_units
    assert [n.node_id for n in eu_nodes] == ["r-p1-1#u0", "r-p1-1#u1", "r-p1-1#u2"]
    assert [n.metadata["unit_index"] for n in eu_nodes] == [0, 1, 2]
    assert len([n for n in nodes if n.metadata["chunk_id"] == "r-t1"]) == 1


def test_retriever_keeps_the_highest_score_per_chunk_best_first():
    retriever = EvidenceRetriever(FixedRetriever(HITS), k=3)
    assert isinstance(retriever, BaseRetriever)
    hits = retriever.retrieve("anything")
    assert [(h.node.node_id, h.score) for h in hits] == [("a#u0", 0.90), ("b#u0", 0.75), ("d#u0", 0.50)]


def test_retriever_puts_unscored_hits_last_and_honours_distances():
    by_distance = EvidenceRetriever(FixedRetriever(HITS), k=4, score_is_distance=True).retrieve("q")
    assert [(h.node.node_id, h.score) for h in by_distance] == [
        ("b#u1", 0.20), ("a#u1", 0.40), ("d#u0", 0.50), ("c#u0", None)]


def test_retriever_works_async_too():
    hits = asyncio.run(EvidenceRetriever(FixedRetriever(HITS), k=2).aretrieve("q"))
    assert [h.node.metadata["chunk_id"] for h in hits] == ["a", "b"]


def test_dedupe_by_chunk_id_stops_at_k_distinct():
    nodes = FixedRetriever(HITS).retrieve("q")
    assert [n.node.node_id for n in dedupe_by_chunk_id(nodes)] == ["a#u1", "b#u0", "c#u0", "d#u0"]
    assert [n.node.node_id for n in dedupe_by_chunk_id(nodes, k=2)] == ["a#u1", "b#u0"]


def test_parents_turn_a_unit_hit_into_its_whole_chunk():
    corpus = small_corpus()
    index = VectorStoreIndex(to_llamaindex_units(corpus), embed_model=MockEmbedding(embed_dim=8))
    hits = EvidenceRetriever(index.as_retriever(similarity_top_k=10), k=2, parents=corpus).retrieve("revenue")
    assert sorted(h.node.node_id for h in hits) == ["r-p1-1", "r-t1"]
    texts = {h.node.node_id: h.node.text for h in hits}
    assert texts["r-p1-1"] == corpus[0].text
    assert all("matched_unit_index" in h.node.metadata for h in hits)


@pytest.mark.skipif(not SAMPLE.is_file(), reason=f"reference corpus not found at {CORPUS}")
def test_vector_index_retriever_returns_k_distinct_chunks_of_a_real_corpus():
    parsed = ParsedDoc.from_docling_json(SAMPLE)
    corpus = build_corpus_parsed(parsed, EvidenceChunker().chunk_parsed(parsed))
    nodes = to_llamaindex_units(corpus)
    index = VectorStoreIndex(nodes, embed_model=MockEmbedding(embed_dim=8))
    base = index.as_retriever(similarity_top_k=40)
    assert len({n.node.metadata["chunk_id"] for n in base.retrieve("mAP of baselines")}) >= 5
    hits = EvidenceRetriever(base, k=5).retrieve("mAP of baselines")
    ids = [h.node.metadata["chunk_id"] for h in hits]
    assert len(ids) == 5 and len(set(ids)) == 5
    assert all(h.score is not None for h in hits)


def test_retriever_needs_a_retriever():
    with pytest.raises(TypeError, match="retrieve"):
        EvidenceRetriever(object())
