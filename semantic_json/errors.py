"""Exception classes of semantic_json.

Every error names what was wrong and, where there is one, what to do about it. Each class also derives
from the matching built-in (ValueError, TypeError, KeyError, ImportError) so callers that catch the
built-in keep working.
"""

from __future__ import annotations

TRANSFORMERS_INSTALL_HINT = 'pip install "semantic-json-transport[transformers]"'


class SemanticJsonError(Exception):
    """Base class of every error raised by semantic_json."""


class EmptyDocumentError(SemanticJsonError, ValueError):
    """The text given to compile() is empty or only whitespace."""

    def __init__(self, document_id: str) -> None:
        self.document_id = document_id
        super().__init__(
            f"document {document_id!r} has no text to compile (empty or whitespace only); "
            "pass the document's full text"
        )


class DocumentTypeError(SemanticJsonError, TypeError):
    """The text given to compile() is not a str."""

    def __init__(self, document_id: object, got: object) -> None:
        self.document_id = document_id
        super().__init__(
            f"document {document_id!r}: text must be str, got {type(got).__name__}; "
            "decode bytes first (e.g. data.decode('utf-8'))"
        )


class InvalidDocumentIdError(SemanticJsonError, ValueError):
    """A document id is not a non-empty string without surrounding whitespace."""


class InvalidSegmentError(SemanticJsonError, ValueError):
    """A provenance segment does not fit the document text (out of range, empty or overlapping)."""


class DocumentIntegrityError(SemanticJsonError, ValueError):
    """A serialised SemanticDocument whose text no longer matches its declared SHA-256 or units."""


class EmptyQueryError(SemanticJsonError, ValueError):
    """search() was given an empty or whitespace-only query."""


class QueryTypeError(SemanticJsonError, TypeError):
    """search() was given a query that is not a str."""


class UnknownDocumentError(SemanticJsonError, KeyError):
    """A document id that the repository does not hold."""

    def __init__(self, document_id: str) -> None:
        self.document_id = document_id
        super().__init__(document_id)

    def __str__(self) -> str:
        return f"unknown document {self.document_id!r}; add it with SemanticRepository.add(compile(...)) first"


class UnknownRegionError(SemanticJsonError, KeyError):
    """A region id the repository cannot resolve: a positional id no recent search produced, or a citation
    id whose document the index does not hold or whose span is no region of it. `detail` says which."""

    def __init__(self, region_id: str, detail: str | None = None) -> None:
        self.region_id = region_id
        self.detail = detail
        super().__init__(region_id)

    def __str__(self) -> str:
        if self.detail:
            return f"unknown region id {self.region_id!r}: {self.detail}"
        return (
            f"unknown region id {self.region_id!r}; positional ids (DOC:R1) name regions of a recent search of "
            "this repository only: cite the region's citation_id (DOC@c<start>-<end>.<hash>), which resolves "
            "from the index, or pass the EvidenceRegion itself"
        )


class ChangedDocumentError(UnknownRegionError):
    """A citation id whose document the index holds in another version: its SHA-256 no longer matches."""

    def __init__(self, region_id: str, document_id: str, held_sha256: str) -> None:
        self.document_id = document_id
        self.held_sha256 = held_sha256
        super().__init__(
            region_id,
            f"document changed: {document_id!r} is held with SHA-256 {held_sha256[:12]}…, not the version "
            "this id was made from; search again for current evidence",
        )


class SourceSpanError(SemanticJsonError, ValueError):
    """A region's character span does not lie inside its document's text."""


class TransportFormatError(SemanticJsonError, ValueError):
    """A transport payload that is not valid semantic-json-transport/context/v1 JSON."""


class SchemaValidationError(SemanticJsonError, ValueError):
    """A payload that does not validate against one of the package's JSON Schemas."""


class EmbedderMismatchError(SemanticJsonError, ValueError):
    """An embedder returned vectors of the wrong shape for the index it feeds."""


class MissingExtraError(SemanticJsonError, ImportError):
    """An optional dependency (an install extra) is not installed."""

    def __init__(self, feature: str, module: str, hint: str = TRANSFORMERS_INSTALL_HINT) -> None:
        super().__init__(f"{feature} needs the optional package {module!r}; install it with: {hint}")


class ModelUnavailableError(SemanticJsonError, RuntimeError):
    """A neural embedding model could not be loaded from the given name or path."""


class UnknownEmbedderError(SemanticJsonError, ValueError):
    """An embedder choice or recorded embedder name that no embedder of this library answers to."""


class CitedAnswerTypeError(SemanticJsonError, ValueError):
    """A cited-answer payload that is not of the schema's shape; the whole payload is rejected.

    `path` is the JSON path of the first problem (``$`` for the top level, else e.g.
    ``statements[2].citation_ids``); `problem` says what was found there.
    """

    def __init__(self, path: str, problem: str) -> None:
        self.path = path
        self.problem = problem
        super().__init__(f"{path}: {problem}")


class CitedAnswerInputError(SemanticJsonError, TypeError):
    """validate_cited_answer() was given a payload that is neither JSON text, bytes, a dict nor a CitedAnswer."""

    def __init__(self, got: object) -> None:
        super().__init__(
            f"a cited answer must be JSON text (str or bytes), a dict or a CitedAnswer, got {type(got).__name__}; "
            "pass the tool call's arguments string or its parsed dict"
        )


class CheckAnswerInputError(SemanticJsonError, ValueError):
    """An input of `sjt check-answer` that cannot be used (unreadable file, not a transport, not a cited
    answer); the message names the file. Printed as ``error: …``, exit status 2."""


__all__ = [
    "TRANSFORMERS_INSTALL_HINT",
    "SemanticJsonError",
    "EmptyDocumentError",
    "DocumentTypeError",
    "InvalidDocumentIdError",
    "InvalidSegmentError",
    "DocumentIntegrityError",
    "EmptyQueryError",
    "QueryTypeError",
    "UnknownDocumentError",
    "UnknownRegionError",
    "ChangedDocumentError",
    "SourceSpanError",
    "TransportFormatError",
    "SchemaValidationError",
    "EmbedderMismatchError",
    "UnknownEmbedderError",
    "MissingExtraError",
    "ModelUnavailableError",
    "CitedAnswerTypeError",
    "CitedAnswerInputError",
    "CheckAnswerInputError",
]
