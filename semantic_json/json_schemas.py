"""JSON Schema validation of compiled documents and transports (schemas shipped in semantic_json/schemas/)."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from .errors import SchemaValidationError

DOCUMENT_SCHEMA_FILE = "semantic_document.schema.json"
TRANSPORT_SCHEMA_FILE = "transport_v1.schema.json"
#: Validation errors quoted in a SchemaValidationError message.
MAX_REPORTED_ERRORS = 5


@cache
def load_schema(filename: str) -> dict[str, Any]:
    """The packaged JSON Schema `filename` as a dict."""
    raw = resources.files("semantic_json").joinpath("schemas").joinpath(filename).read_text(encoding="utf-8")
    return json.loads(raw)


@cache
def _validator(filename: str) -> Any:
    import jsonschema  # imported on first validation only

    schema = load_schema(filename)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def _validate(filename: str, payload: Any) -> None:
    errors = sorted(_validator(filename).iter_errors(payload), key=lambda e: list(e.absolute_path))
    if errors:
        details = "; ".join(
            f"{'/'.join(str(p) for p in e.absolute_path) or '<root>'}: {e.message}" for e in errors[:MAX_REPORTED_ERRORS]
        )
        raise SchemaValidationError(f"{len(errors)} schema error(s) against {filename}: {details}")


def validate_document(payload: Any) -> None:
    """Raise SchemaValidationError unless `payload` (a dict from SemanticDocument.to_dict()) is valid."""
    _validate(DOCUMENT_SCHEMA_FILE, payload)


def validate_transport(payload: Any) -> None:
    """Raise SchemaValidationError unless `payload` is a valid semantic-json-transport/context/v1 dict."""
    _validate(TRANSPORT_SCHEMA_FILE, payload)
