"""semantic_json: index small semantics, transport original evidence.

compile() turns long plain text into a SemanticDocument of small source-grounded units; a
SemanticRepository indexes them and, per query, assembles EvidenceRegions of original text, returned as a
SearchResult with a versioned JSON transport, a plain-text view and source verification.
"""

from typing import TYPE_CHECKING

from . import errors
from .lazy import lazy_exports

if TYPE_CHECKING:  # pragma: no cover
    from .citations import (
        CitedAnswer,
        CitedAnswerTypeError,
        CitedStatement,
        ValidationReport,
        as_anthropic_tool,
        as_openai_response_format,
        as_openai_tool,
        cited_answer_schema,
        render_answer,
        validate_cited_answer,
    )
    from .compilation.compiler import compile
    from .embedder_choice import embedder_for_name, make_embedder
    from .embedders import LiteEmbedder, MultilingualE5Embedder, SentenceTransformerEmbedder
    from .model import GRAMMAR_VERSION, Entity, PageBox, Segment, SemanticDocument, SemanticUnit, box_pages
    from .repository import SemanticRepository
    from .transport import TRANSPORT_SCHEMA_ID, CitationRef, EvidenceRegion, SearchResult, SourceSpan, parse_citation_id

#: Where each public name lives. Names are imported on first use, so that searching an index (``sjt
#: search``) loads neither the compiler nor the citation oracle.
_EXPORTS = {
    **{name: ".citations" for name in (
        "CitedAnswer", "CitedAnswerTypeError", "CitedStatement", "ValidationReport", "as_anthropic_tool",
        "as_openai_response_format", "as_openai_tool", "cited_answer_schema", "render_answer",
        "validate_cited_answer",
    )},
    "compile": ".compilation.compiler",
    **{name: ".embedders" for name in ("LiteEmbedder", "MultilingualE5Embedder", "SentenceTransformerEmbedder")},
    **{name: ".embedder_choice" for name in ("embedder_for_name", "make_embedder")},
    **{name: ".model" for name in (
        "GRAMMAR_VERSION", "Entity", "PageBox", "Segment", "SemanticDocument", "SemanticUnit", "box_pages",
    )},
    "SemanticRepository": ".repository",
    **{name: ".transport" for name in (
        "TRANSPORT_SCHEMA_ID", "CitationRef", "EvidenceRegion", "SearchResult", "SourceSpan", "parse_citation_id",
    )},
}


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

__all__ = [
    "CitedAnswer",
    "CitedAnswerTypeError",
    "CitedStatement",
    "ValidationReport",
    "as_anthropic_tool",
    "as_openai_response_format",
    "as_openai_tool",
    "cited_answer_schema",
    "render_answer",
    "validate_cited_answer",
    "compile",
    "SemanticDocument",
    "SemanticUnit",
    "Entity",
    "Segment",
    "PageBox",
    "box_pages",
    "SemanticRepository",
    "SearchResult",
    "EvidenceRegion",
    "SourceSpan",
    "CitationRef",
    "parse_citation_id",
    "LiteEmbedder",
    "SentenceTransformerEmbedder",
    "MultilingualE5Embedder",
    "embedder_for_name",
    "make_embedder",
    "errors",
    "GRAMMAR_VERSION",
    "TRANSPORT_SCHEMA_ID",
]
