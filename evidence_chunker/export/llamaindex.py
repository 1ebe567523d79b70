"""LlamaIndex export: chunks as TextNodes, small-to-big unit nodes, and a max-pooling retriever.

Needs the ``llamaindex`` extra (llama-index-core). Importing this module works without it; calling
anything here then raises ExtraNotInstalledError.

Node metadata is made vector-store safe as for LangChain (``vector_store_metadata``) and is kept out of
both the embedded and the LLM text (LlamaIndex would otherwise prepend "key: value" lines, page boxes
included, to the content). Every node's SOURCE relationship is its ``doc_id``, so
``index.delete_ref_doc(doc_id)`` removes a whole document.
"""

from __future__ import annotations

from typing import Any, Iterable, Literal, Mapping, Sequence

from ..errors import ExtraNotInstalledError
from ..corpus.chunks import RetrievalChunk, first_per_key, vector_store_metadata

try:
    from llama_index.core.callbacks import CallbackManager
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeRelationship, NodeWithScore, QueryBundle, RelatedNodeInfo, TextNode
except ImportError:  # the extra is not installed
    _AVAILABLE = False
else:
    _AVAILABLE = True

EXTRA = "llamaindex"
_PACKAGE = "llama-index-core"
#: Ids of unit nodes: the parent's chunk_id plus this and the unit's index.
UNIT_ID_SEPARATOR = "#u"

TextField = Literal["text", "retrieval_text"]


def _require(feature: str) -> None:
    if not _AVAILABLE:
        raise ExtraNotInstalledError(feature, EXTRA, _PACKAGE)


def _node(node_id: str, text: str, metadata: dict[str, Any], doc_id: Any) -> "TextNode":
    keys = list(metadata)
    relationships = {}
    if doc_id:
        relationships[NodeRelationship.SOURCE] = RelatedNodeInfo(node_id=str(doc_id))
    return TextNode(
        id_=node_id,
        text=text,
        metadata=metadata,
        excluded_embed_metadata_keys=keys,
        excluded_llm_metadata_keys=keys,
        relationships=relationships,
    )


def to_llamaindex(chunks: Iterable[RetrievalChunk], text_field: TextField = "text") -> list["TextNode"]:
    """One TextNode per chunk: text ``chunk.text`` (or ``chunk.retrieval_text``), id the chunk_id."""
    _require("to_llamaindex")
    return [
        _node(chunk.chunk_id, getattr(chunk, text_field), vector_store_metadata(chunk.metadata),
              chunk.metadata.get("doc_id"))
        for chunk in chunks
    ]


def to_llamaindex_units(chunks: Iterable[RetrievalChunk], text_field: TextField = "text") -> list["TextNode"]:
    """Small-to-big: one node per ``retrieval_units`` entry of a non-atomic chunk, one node per atomic
    chunk; metadata as the parent's plus ``unit_index`` and ``unit_count``; ids ``{chunk_id}#u{i}``."""
    _require("to_llamaindex_units")
    nodes: list[TextNode] = []
    for chunk in chunks:
        metadata = vector_store_metadata(chunk.metadata)
        units = [] if chunk.is_atomic else [u for u in chunk.retrieval_units if u.strip()]
        if not units:
            units = [getattr(chunk, text_field)]
        for index, unit in enumerate(units):
            nodes.append(
                _node(f"{chunk.chunk_id}{UNIT_ID_SEPARATOR}{index}", unit,
                      {**metadata, "unit_index": index, "unit_count": len(units)}, metadata.get("doc_id"))
            )
    return nodes


def dedupe_by_chunk_id(results: Sequence[Any], k: int | None = None, key: str = "chunk_id") -> list[Any]:
    """The first result per ``metadata[key]`` of a best-first list of NodeWithScore (or nodes), stopping
    at ``k`` distinct; results without the key are each kept as distinct."""
    return first_per_key(results, lambda result: getattr(result, "node", result).metadata, k=k, key=key)


if _AVAILABLE:

    class EvidenceRetriever(BaseRetriever):
        """Wraps a LlamaIndex retriever: the ``k`` best distinct chunks, each scored by its best unit.

        Give the base retriever room to over-fetch (``index.as_retriever(similarity_top_k=4 * k)``) so
        that ``k`` distinct chunks survive the dedupe. Scores are similarities, higher better; pass
        ``score_is_distance=True`` for a base retriever that returns distances. ``parents`` (chunks, or
        a chunk_id → chunk mapping) turn a unit hit back into its whole chunk's node.
        """

        def __init__(
            self,
            base_retriever: BaseRetriever,
            k: int = 5,
            dedupe: bool = True,
            *,
            score_is_distance: bool = False,
            parents: Sequence[RetrievalChunk] | Mapping[str, RetrievalChunk] | None = None,
            callback_manager: CallbackManager | None = None,
            verbose: bool = False,
        ):
            if not hasattr(base_retriever, "retrieve"):
                raise TypeError("EvidenceRetriever wraps a LlamaIndex retriever (something with .retrieve())")
            if k < 1:
                raise ValueError(f"k must be at least 1, got {k}")
            self.base_retriever = base_retriever
            self.k = k
            self.dedupe = dedupe
            self.score_is_distance = score_is_distance
            if parents is not None and not isinstance(parents, Mapping):
                parents = {chunk.chunk_id: chunk for chunk in parents}
            self.parents = dict(parents) if parents is not None else None
            super().__init__(
                callback_manager=callback_manager or getattr(base_retriever, "callback_manager", None),
                verbose=verbose,
            )

        def _retrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
            return self._pool(self.base_retriever.retrieve(query_bundle))

        async def _aretrieve(self, query_bundle: QueryBundle) -> list[NodeWithScore]:
            return self._pool(await self.base_retriever.aretrieve(query_bundle))

        def _pool(self, hits: list[NodeWithScore]) -> list[NodeWithScore]:
            """Best first (unscored hits last), one per chunk when deduping, at most k."""
            worst = float("inf") if self.score_is_distance else float("-inf")

            def score(hit: NodeWithScore) -> float:
                return worst if hit.score is None else hit.score

            hits = sorted(hits, key=score, reverse=not self.score_is_distance)
            if self.dedupe:
                hits = dedupe_by_chunk_id(hits, k=self.k)
            return [self._as_parent(hit) for hit in hits[: self.k]]

        def _as_parent(self, hit: NodeWithScore) -> NodeWithScore:
            chunk_id = (hit.node.metadata or {}).get("chunk_id")
            parent = self.parents.get(chunk_id) if self.parents and chunk_id is not None else None
            if parent is None:
                return hit
            node = to_llamaindex([parent])[0]
            if "unit_index" in hit.node.metadata:
                node.metadata["matched_unit_index"] = hit.node.metadata["unit_index"]
                node.excluded_embed_metadata_keys.append("matched_unit_index")
                node.excluded_llm_metadata_keys.append("matched_unit_index")
            return NodeWithScore(node=node, score=hit.score)

else:

    class EvidenceRetriever:  # type: ignore[no-redef]
        """Placeholder: the ``llamaindex`` extra is not installed."""

        def __init__(self, *args: Any, **kwargs: Any):
            _require("EvidenceRetriever")


__all__ = ["EvidenceRetriever", "dedupe_by_chunk_id", "to_llamaindex", "to_llamaindex_units"]
