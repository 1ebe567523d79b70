"""LangChain export: chunks as Documents, small-to-big unit Documents, and a max-pooling retriever.

Needs the ``langchain`` extra (langchain-core). Importing this module works without it; calling
anything here then raises ExtraNotInstalledError.

Metadata is made vector-store safe by ``vector_store_metadata``: None values are dropped, scalars and
lists of scalars kept, ``page_boxes`` (a list of dicts) becomes a JSON string (``json.loads`` it back).
"""

from __future__ import annotations

from typing import Any, Iterable, Literal, Mapping, Sequence

from ..errors import ExtraNotInstalledError
from ..corpus.chunks import RetrievalChunk, first_per_key, vector_store_metadata

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.documents import Document
    from langchain_core.retrievers import BaseRetriever
    from langchain_core.vectorstores import VectorStore
    from pydantic import ConfigDict, Field
except ImportError:  # the extra is not installed
    _AVAILABLE = False
else:
    _AVAILABLE = True

EXTRA = "langchain"
_PACKAGE = "langchain-core"
#: fetch_k when none is given: this many candidates per wanted chunk, and at least FETCH_K_MIN.
FETCH_K_FACTOR = 4
FETCH_K_MIN = 20
#: Ids of unit Documents: the parent's chunk_id plus this and the unit's index.
UNIT_ID_SEPARATOR = "#u"

TextField = Literal["text", "retrieval_text"]


def _require(feature: str) -> None:
    if not _AVAILABLE:
        raise ExtraNotInstalledError(feature, EXTRA, _PACKAGE)


def to_langchain(chunks: Iterable[RetrievalChunk], text_field: TextField = "text") -> list["Document"]:
    """One Document per chunk: ``page_content`` is ``chunk.text`` (or ``chunk.retrieval_text``),
    ``id`` the chunk_id, metadata the chunk's metadata made vector-store safe."""
    _require("to_langchain")
    return [
        Document(page_content=getattr(chunk, text_field), metadata=vector_store_metadata(chunk.metadata),
                 id=chunk.chunk_id)
        for chunk in chunks
    ]


def to_langchain_units(chunks: Iterable[RetrievalChunk], text_field: TextField = "text") -> list["Document"]:
    """Small-to-big: a non-atomic chunk (an EU) becomes one Document per ``retrieval_units`` entry, an
    atomic chunk stays one Document. Every Document carries the parent's metadata (so its ``chunk_id``)
    plus ``unit_index`` and ``unit_count``; ids are ``{chunk_id}#u{unit_index}``."""
    _require("to_langchain_units")
    documents: list[Document] = []
    for chunk in chunks:
        metadata = vector_store_metadata(chunk.metadata)
        units = [] if chunk.is_atomic else [u for u in chunk.retrieval_units if u.strip()]
        if not units:  # atomic, or nothing to split: the whole chunk is its one unit
            units = [getattr(chunk, text_field)]
        for index, unit in enumerate(units):
            documents.append(
                Document(
                    page_content=unit,
                    metadata={**metadata, "unit_index": index, "unit_count": len(units)},
                    id=f"{chunk.chunk_id}{UNIT_ID_SEPARATOR}{index}",
                )
            )
    return documents


def dedupe_by_chunk_id(results: Sequence[Any], k: int | None = None, key: str = "chunk_id") -> list[Any]:
    """The first result per ``metadata[key]`` of a best-first list, stopping at ``k`` distinct.

    ``results`` are Documents or ``(Document, score)`` pairs and come back in the same form. Results
    without the key are each kept as distinct.
    """
    return first_per_key(results, lambda result: (result[0] if isinstance(result, tuple) else result).metadata, k=k, key=key)


if _AVAILABLE:

    class EvidenceRetriever(BaseRetriever):
        """Vector-store retriever that returns the ``k`` best distinct chunks, each scored by its best
        unit (max-pool), the score in ``metadata["score"]``.

        ``vectorstore`` must offer ``similarity_search_with_score(query, k=...)``; ``fetch_k`` candidates
        are fetched (default ``max(k * 4, 20)``) so enough distinct chunks survive the dedupe. Scores are
        similarities, higher better (InMemoryVectorStore: cosine); pass ``score_is_distance=True`` for
        stores that return distances (FAISS L2, Chroma). ``parents`` (chunks, or a chunk_id → chunk
        mapping) turn a unit hit back into its whole chunk: small-to-big.
        """

        model_config = ConfigDict(arbitrary_types_allowed=True)

        vectorstore: VectorStore
        k: int = 5
        fetch_k: int | None = None
        dedupe: bool = True
        score_is_distance: bool = False
        parents: dict[str, Any] | None = Field(default=None, repr=False)

        def __init__(
            self,
            vectorstore: VectorStore | None = None,
            k: int = 5,
            fetch_k: int | None = None,
            dedupe: bool = True,
            *,
            score_is_distance: bool = False,
            parents: Sequence[RetrievalChunk] | Mapping[str, RetrievalChunk] | None = None,
            **kwargs: Any,
        ):
            if vectorstore is None:
                vectorstore = kwargs.pop("vectorstore", None)
            if vectorstore is None or not hasattr(vectorstore, "similarity_search_with_score"):
                raise TypeError("EvidenceRetriever needs a vector store with similarity_search_with_score()")
            if k < 1:
                raise ValueError(f"k must be at least 1, got {k}")
            if fetch_k is not None and fetch_k < k:
                raise ValueError(f"fetch_k ({fetch_k}) must be at least k ({k})")
            if parents is not None and not isinstance(parents, Mapping):
                parents = {chunk.chunk_id: chunk for chunk in parents}
            super().__init__(vectorstore=vectorstore, k=k, fetch_k=fetch_k, dedupe=dedupe,
                             score_is_distance=score_is_distance,
                             parents=dict(parents) if parents is not None else None, **kwargs)

        @property
        def effective_fetch_k(self) -> int:
            return self.fetch_k if self.fetch_k is not None else max(self.k * FETCH_K_FACTOR, FETCH_K_MIN)

        def _get_relevant_documents(
            self, query: str, *, run_manager: CallbackManagerForRetrieverRun
        ) -> list[Document]:
            hits = self.vectorstore.similarity_search_with_score(query, k=self.effective_fetch_k)
            # best first, whatever order the store used; sorted() is stable, so ties keep store order
            hits = sorted(hits, key=lambda hit: hit[1], reverse=not self.score_is_distance)
            if self.dedupe:
                hits = dedupe_by_chunk_id(hits, k=self.k)
            return [self._with_score(document, score) for document, score in hits[: self.k]]

        def get_relevant_documents(self, query: str, **kwargs: Any) -> list[Document]:
            """The older LangChain entry point, kept for callers that still use it: ``invoke(query)``."""
            return self.invoke(query, **kwargs)

        def _with_score(self, document: Document, score: float) -> Document:
            """A copy of the hit (the store's own metadata dict is never touched) carrying its score,
            or its parent chunk when ``parents`` knows it."""
            chunk_id = (document.metadata or {}).get("chunk_id")
            parent = self.parents.get(chunk_id) if self.parents and chunk_id is not None else None
            if parent is not None:
                metadata = vector_store_metadata(parent.metadata)
                if "unit_index" in document.metadata:
                    metadata["matched_unit_index"] = document.metadata["unit_index"]
                metadata["score"] = float(score)
                return Document(page_content=parent.text, metadata=metadata, id=parent.chunk_id)
            metadata = {**(document.metadata or {}), "score": float(score)}
            return Document(page_content=document.page_content, metadata=metadata, id=document.id)

else:

    class EvidenceRetriever:  # type: ignore[no-redef]
        """Placeholder: the ``langchain`` extra is not installed."""

        def __init__(self, *args: Any, **kwargs: Any):
            _require("EvidenceRetriever")


__all__ = ["EvidenceRetriever", "dedupe_by_chunk_id", "to_langchain", "to_langchain_units"]
