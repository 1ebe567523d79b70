"""The library's embedders as a LangChain ``Embeddings`` and a LlamaIndex ``BaseEmbedding``, so a corpus
exported to a vector store is queried with the embedder that built its vectors.

Either adapter takes an embedder object (LiteEmbedder, SentenceTransformerEmbedder, anything with
``name``, ``dim``, ``embed_documents`` and ``embed_query``), an ``--embedder`` choice (``lite``, ``e5``,
``st:MODEL_OR_FOLDER``) or the name an index or a vector-store row records in its ``embedder`` column
(``lite-hash/v3:dim=256:...``); None is LiteEmbedder. Vectors are the embedder's own, L2-normalised, as
lists of floats.

Needs the ``langchain`` or the ``llamaindex`` extra; importing this module works without them, building an
adapter then raises ExtraNotInstalledError.
"""

from __future__ import annotations

import asyncio
from typing import Any

from ..errors import ExtraNotInstalledError

try:
    from langchain_core.embeddings import Embeddings
except ImportError:  # the extra is not installed
    _LANGCHAIN = False
else:
    _LANGCHAIN = True

try:
    from llama_index.core.base.embeddings.base import BaseEmbedding
    from pydantic import PrivateAttr
except ImportError:  # the extra is not installed
    _LLAMAINDEX = False
else:
    _LLAMAINDEX = True

#: Texts LlamaIndex hands the embedder per call when none is given (its own default is 10).
LLAMAINDEX_BATCH_SIZE = 64
#: What marks a recorded embedder name (as opposed to an ``--embedder`` choice).
_RECORDED_NAME_MARK = ":dim="


def resolve_embedder(embedder: Any = None):
    """An embedder object for ``embedder``: an object as is, a recorded name (``...:dim=...``) rebuilt with
    ``embedder_for_name``, a choice (``lite``, ``e5``, ``st:MODEL``) made with ``make_embedder``; None is
    LiteEmbedder."""
    from semantic_json.embedder_choice import LITE, embedder_for_name, make_embedder

    if embedder is None:
        return make_embedder(LITE)
    if isinstance(embedder, str):
        return embedder_for_name(embedder) if _RECORDED_NAME_MARK in embedder else make_embedder(embedder)
    for attribute in ("name", "dim", "embed_documents", "embed_query"):
        if not hasattr(embedder, attribute):
            raise TypeError(f"an embedder needs name, dim, embed_documents and embed_query; {embedder!r} lacks {attribute}")
    return embedder


if _LANGCHAIN:

    class LangChainEmbeddings(Embeddings):
        """A library embedder as LangChain ``Embeddings`` (``embed_documents``, ``embed_query``; the async
        versions run them in a thread, as LangChain's base class does)."""

        def __init__(self, embedder: Any = None):
            self.embedder = resolve_embedder(embedder)

        @property
        def name(self) -> str:
            """The embedder's name, as a vector-store row records it."""
            return self.embedder.name

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            if not texts:
                return []
            return self.embedder.embed_documents(list(texts)).tolist()

        def embed_query(self, text: str) -> list[float]:
            return self.embedder.embed_query(text).tolist()

        def __repr__(self) -> str:
            return f"LangChainEmbeddings({self.embedder.name!r})"

else:

    class LangChainEmbeddings:  # type: ignore[no-redef]
        """Placeholder: the ``langchain`` extra is not installed."""

        def __init__(self, *args: Any, **kwargs: Any):
            raise ExtraNotInstalledError("LangChainEmbeddings", "langchain", "langchain-core")


if _LLAMAINDEX:

    class LlamaIndexEmbedding(BaseEmbedding):
        """A library embedder as a LlamaIndex ``BaseEmbedding`` (``embed_model=`` of a VectorStoreIndex):
        ``model_name`` is the embedder's name; texts go to it ``embed_batch_size`` at a time."""

        _embedder: Any = PrivateAttr()

        def __init__(self, embedder: Any = None, embed_batch_size: int = LLAMAINDEX_BATCH_SIZE, **kwargs: Any):
            resolved = resolve_embedder(embedder)
            super().__init__(model_name=resolved.name, embed_batch_size=embed_batch_size, **kwargs)
            self._embedder = resolved

        @classmethod
        def class_name(cls) -> str:
            return "SemanticJsonTransportEmbedding"

        @property
        def embedder(self) -> Any:
            return self._embedder

        def _get_query_embedding(self, query: str) -> list[float]:
            return self._embedder.embed_query(query).tolist()

        def _get_text_embedding(self, text: str) -> list[float]:
            return self._embedder.embed_documents([text])[0].tolist()

        def _get_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            if not texts:
                return []
            return self._embedder.embed_documents(list(texts)).tolist()

        async def _aget_query_embedding(self, query: str) -> list[float]:
            return await asyncio.to_thread(self._get_query_embedding, query)

        async def _aget_text_embedding(self, text: str) -> list[float]:
            return await asyncio.to_thread(self._get_text_embedding, text)

        async def _aget_text_embeddings(self, texts: list[str]) -> list[list[float]]:
            return await asyncio.to_thread(self._get_text_embeddings, texts)

else:

    class LlamaIndexEmbedding:  # type: ignore[no-redef]
        """Placeholder: the ``llamaindex`` extra is not installed."""

        def __init__(self, *args: Any, **kwargs: Any):
            raise ExtraNotInstalledError("LlamaIndexEmbedding", "llamaindex", "llama-index-core")


__all__ = ["LangChainEmbeddings", "LlamaIndexEmbedding", "resolve_embedder"]
