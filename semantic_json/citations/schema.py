"""The cited-answer schema for a search result, as a function definition, an OpenAI tool or response format,
or an Anthropic tool."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from .results import result_region_ids

#: Name of the function/tool the model is asked to call.
DEFAULT_TOOL_NAME = "generate_cited_answer"
#: Description of the function/tool (the spec's, in English; pass description= for another language).
DEFAULT_TOOL_DESCRIPTION = (
    "Answer the user's question as a list of statements, one sentence each, and give for every sentence "
    "the ids of the evidence regions it is drawn from."
)
#: Description of `citation_ids` when the result holds no region at all (the array must then stay empty).
NO_EVIDENCE_DESCRIPTION = (
    "No evidence was retrieved for this question, so no sentence can be cited: leave this array empty. "
    "Every statement will be reported as unsupported."
)
#: The static part of the parameters schema, shipped with the package.
CITED_ANSWER_SCHEMA_FILE = "cited_answer.schema.json"
#: Keys of the shipped schema file that describe the file, not the shape (left out of tool definitions).
SCHEMA_FILE_META_KEYS = ("$schema", "$id", "title", "description")
#: The package that ships ``schemas/`` (this module lives in its ``citations`` subpackage).
SCHEMA_PACKAGE = "semantic_json"


@lru_cache(maxsize=1)
def _static_parameters_text() -> str:
    return resources.files(SCHEMA_PACKAGE).joinpath("schemas", CITED_ANSWER_SCHEMA_FILE).read_text(encoding="utf-8")


def _parameters_schema(region_ids: list[str]) -> dict[str, Any]:
    """The parameters schema with the citation enum filled in (a fresh dict on every call)."""
    schema = json.loads(_static_parameters_text())
    for key in SCHEMA_FILE_META_KEYS:
        schema.pop(key, None)
    citation_ids = schema["properties"]["statements"]["items"]["properties"]["citation_ids"]
    if region_ids:
        citation_ids["items"] = {"type": "string", "enum": list(region_ids)}
    else:
        # An empty enum is not valid JSON Schema (and no model API accepts it): allow no item at all instead.
        citation_ids["maxItems"] = 0
        citation_ids["description"] = NO_EVIDENCE_DESCRIPTION
    return schema


def cited_answer_schema(
    result: Any,
    name: str = DEFAULT_TOOL_NAME,
    description: str = DEFAULT_TOOL_DESCRIPTION,
) -> dict[str, Any]:
    """The function definition ``{"name", "description", "parameters", "strict"}`` for `result`.

    ``citation_ids.items.enum`` is the result's region ids (sorted, deduplicated). Every object lists all its
    properties in ``required`` and has ``additionalProperties: false``, so the schema fits strict
    structured-output modes and ``strict`` is True. A result with no region gets ``maxItems: 0`` on
    ``citation_ids`` (an enum cannot be empty) and ``strict`` False, because not every strict mode supports
    ``maxItems``.
    """
    region_ids = result_region_ids(result)
    return {
        "name": name,
        "description": description,
        "parameters": _parameters_schema(region_ids),
        "strict": bool(region_ids),
    }


def as_openai_tool(
    result: Any, name: str = DEFAULT_TOOL_NAME, description: str = DEFAULT_TOOL_DESCRIPTION
) -> dict[str, Any]:
    """An OpenAI Chat Completions tool: ``{"type": "function", "function": {name, description, parameters,
    strict}}``. Force it with ``tool_choice={"type": "function", "function": {"name": name}}``."""
    return {"type": "function", "function": cited_answer_schema(result, name, description)}


def as_openai_response_format(
    result: Any, name: str = DEFAULT_TOOL_NAME, description: str = DEFAULT_TOOL_DESCRIPTION
) -> dict[str, Any]:
    """An OpenAI Chat Completions ``response_format``: ``{"type": "json_schema", "json_schema": {name,
    description, schema, strict}}``. (The Responses API takes the inner object flattened into
    ``text.format`` with ``"type": "json_schema"``.)"""
    definition = cited_answer_schema(result, name, description)
    return {
        "type": "json_schema",
        "json_schema": {
            "name": definition["name"],
            "description": definition["description"],
            "schema": definition["parameters"],
            "strict": definition["strict"],
        },
    }


def as_anthropic_tool(
    result: Any,
    name: str = DEFAULT_TOOL_NAME,
    description: str = DEFAULT_TOOL_DESCRIPTION,
    *,
    strict: bool = False,
) -> dict[str, Any]:
    """An Anthropic Messages API tool: ``{"name", "description", "input_schema"}``. Force it with
    ``tool_choice={"type": "tool", "name": name}`` and read the tool_use block's ``input``.

    ``strict=True`` adds ``"strict": true`` (grammar-constrained tool input on models and API versions that
    support strict tool use); it is not added for a result with no region, whose ``maxItems`` strict tool use
    does not support.
    """
    definition = cited_answer_schema(result, name, description)
    tool: dict[str, Any] = {
        "name": definition["name"],
        "description": definition["description"],
        "input_schema": definition["parameters"],
    }
    if strict and definition["strict"]:
        tool["strict"] = True
    return tool
