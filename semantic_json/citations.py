"""The citation oracle: an LLM answers in a cited-answer schema; the answer is checked against the transport.

The flow has three steps:

1. `cited_answer_schema(result)` (or `as_openai_tool`, `as_openai_response_format`, `as_anthropic_tool`)
   gives the model a strict schema: ``{"statements": [{"sentence": str, "citation_ids": [region id, ...]}]}``
   where every citation id must be one of the result's region ids (a JSON Schema ``enum``).
2. `validate_cited_answer(payload, result)` checks the model's reply. A payload not of the schema's shape is
   rejected whole (`CitedAnswerTypeError`, with the JSON path of the first problem). Otherwise each statement
   is accepted or rejected on its own: no citation → ``unsupported``; an id the result does not hold →
   ``invalid_citation`` (or, with ``policy="strip"``, the id is removed and the statement kept while a valid
   id remains); with ``strict_numbers=True``, a number found in none of the cited regions' text →
   ``ungrounded_number`` (otherwise the statement is kept and flagged).
3. `render_answer(report)` joins the accepted sentences into a paragraph with ``[1]``, ``[2]`` badges and a
   numbered source list (text, Markdown or HTML).

Citation ids are checked against a frozenset of the result's region ids, so each check is O(1).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from functools import lru_cache
from importlib import resources
from typing import Any, Literal, NamedTuple, Optional, Union
from urllib.parse import quote

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .errors import SemanticJsonError, TransportFormatError
from .transport import TRANSPORT_SCHEMA_ID

# ------------------------------------------------------------------------------------------------ constants

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

#: Statement-level outcomes. The first two are always rejections; the third rejects only with strict_numbers.
REASON_UNSUPPORTED = "unsupported"
REASON_INVALID_CITATION = "invalid_citation"
REASON_UNGROUNDED_NUMBER = "ungrounded_number"
REASONS: tuple[str, ...] = (REASON_UNSUPPORTED, REASON_INVALID_CITATION, REASON_UNGROUNDED_NUMBER)
#: Flags on accepted statements.
FLAG_UNGROUNDED_NUMBER = REASON_UNGROUNDED_NUMBER
FLAG_STRIPPED_CITATION = "stripped_citation"
FLAGS: tuple[str, ...] = (FLAG_UNGROUNDED_NUMBER, FLAG_STRIPPED_CITATION)

POLICY_REJECT = "reject"
POLICY_STRIP = "strip"
POLICIES: tuple[str, ...] = (POLICY_REJECT, POLICY_STRIP)

RENDER_FORMATS: tuple[str, ...] = ("text", "markdown", "html")

Reason = Literal["unsupported", "invalid_citation", "ungrounded_number"]
Policy = Literal["reject", "strip"]
RenderFormat = Literal["text", "markdown", "html"]


# --------------------------------------------------------------------------------------------------- errors


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


# --------------------------------------------------------------------------------------------------- models


def _is_unicode_text(text: str) -> bool:
    """False for a str holding an unpaired surrogate (JSON can escape one, "\\ud800"; UTF-8 cannot encode it)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


class CitedStatement(BaseModel):
    """One sentence of the answer and the region ids it is drawn from. Strict: no coercion, no extra keys."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    sentence: str
    citation_ids: list[str]

    @field_validator("sentence")
    @classmethod
    def _sentence_not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("sentence is empty")
        if not _is_unicode_text(value):
            raise ValueError("sentence contains an unpaired surrogate")
        return value

    @field_validator("citation_ids")
    @classmethod
    def _ids_are_text(cls, value: list[str]) -> list[str]:
        if not all(_is_unicode_text(citation_id) for citation_id in value):
            raise ValueError("a citation id contains an unpaired surrogate")
        return value


class CitedAnswer(BaseModel):
    """The model's answer: statements in reading order (the shape of `cited_answer_schema`'s parameters)."""

    model_config = ConfigDict(strict=True, extra="forbid", frozen=True)

    statements: list[CitedStatement]


class RegionProvenance(BaseModel):
    """Where a cited region lives: document, uri, 1-based pages (PDF text only), [start_char, end_char),
    1-based start/end lines and the document's SHA-256, as the transport gave them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    region_id: str
    document_id: Optional[str] = None
    uri: Optional[str] = None
    pages: Optional[list[int]] = None
    start_char: Optional[int] = None
    end_char: Optional[int] = None
    start_line: Optional[int] = None
    end_line: Optional[int] = None
    document_sha256: Optional[str] = None


class AcceptedStatement(BaseModel):
    """A statement that passed: its sentence, valid citation ids (deduplicated, in the model's order), the
    cited regions' provenance, and flags (``ungrounded_number``, ``stripped_citation``)."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(description="Position of the statement in the model's answer (0-based).")
    sentence: str
    citation_ids: list[str]
    sources: list[RegionProvenance]
    flags: list[str] = Field(default_factory=list)
    ungrounded_numbers: list[str] = Field(default_factory=list)
    stripped_ids: list[str] = Field(default_factory=list)


class RejectedStatement(BaseModel):
    """A statement that was dropped, with the reason and a sentence that says why."""

    model_config = ConfigDict(extra="forbid")

    index: int = Field(description="Position of the statement in the model's answer (0-based).")
    sentence: str
    citation_ids: list[str]
    reason: Reason
    detail: str
    unknown_ids: list[str] = Field(default_factory=list)
    ungrounded_numbers: list[str] = Field(default_factory=list)


class ValidationReport(BaseModel):
    """The oracle's verdict on one answer.

    `ok` is True when no statement was rejected (flags do not count). `counts` has the number of statements,
    accepted and rejected ones, and rejected ones per reason; `flag_counts` the accepted statements per flag.
    """

    model_config = ConfigDict(extra="forbid")

    ok: bool
    policy: Policy
    strict_numbers: bool
    accepted: list[AcceptedStatement]
    rejected: list[RejectedStatement]
    counts: dict[str, int]
    flag_counts: dict[str, int]

    @property
    def flagged(self) -> list[AcceptedStatement]:
        """Accepted statements that carry at least one flag."""
        return [statement for statement in self.accepted if statement.flags]

    def accepted_answer(self) -> CitedAnswer:
        """The accepted statements as a CitedAnswer (stripped ids removed), e.g. to store or pass on."""
        return CitedAnswer(
            statements=[CitedStatement(sentence=s.sentence, citation_ids=list(s.citation_ids)) for s in self.accepted]
        )

    def to_dict(self) -> dict[str, Any]:
        """The report as plain JSON data (provenance fields that are absent, such as pages, are left out)."""
        return self.model_dump(mode="json", exclude_none=True)

    def to_json(self, indent: Optional[int] = 2) -> str:
        """The report as JSON text (non-ASCII characters kept as written)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=indent)


# ------------------------------------------------------------------------------------------ the result side


@dataclass(frozen=True)
class _Region:
    """What the oracle needs of one region: its provenance fields and its text."""

    region_id: str
    document_id: Optional[str]
    uri: Optional[str]
    pages: Optional[tuple[int, ...]]
    start_char: Optional[int]
    end_char: Optional[int]
    start_line: Optional[int]
    end_line: Optional[int]
    document_sha256: Optional[str]
    text: str

    def provenance(self) -> RegionProvenance:
        return RegionProvenance(
            region_id=self.region_id,
            document_id=self.document_id,
            uri=self.uri,
            pages=list(self.pages) if self.pages is not None else None,
            start_char=self.start_char,
            end_char=self.end_char,
            start_line=self.start_line,
            end_line=self.end_line,
            document_sha256=self.document_sha256,
        )


@dataclass
class _Catalog:
    """The regions of one search result, by id; `ids` is the frozenset every citation is checked against."""

    regions: dict[str, _Region]
    ids: frozenset[str] = field(init=False)
    _provenance: dict[str, RegionProvenance] = field(default_factory=dict, init=False, repr=False)
    _numbers: dict[str, "_NumberIndex"] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        self.ids = frozenset(self.regions)

    def provenance(self, region_id: str) -> RegionProvenance:
        cached = self._provenance.get(region_id)
        if cached is None:
            cached = self._provenance[region_id] = self.regions[region_id].provenance()
        return cached

    def numbers(self, region_id: str) -> "_NumberIndex":
        cached = self._numbers.get(region_id)
        if cached is None:
            cached = self._numbers[region_id] = _NumberIndex.of(self.regions[region_id].text)
        return cached


def _as_transport_dict(result: Any) -> Any:
    """The transport payload of `result`: a SearchResult (anything with to_dict()), a dict or JSON text."""
    if isinstance(result, (bytes, bytearray)):
        try:
            result = bytes(result).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise TransportFormatError(f"search result is not UTF-8 JSON text: {exc}") from exc
    if isinstance(result, str):
        try:
            return json.loads(result)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise TransportFormatError(f"search result is not JSON: {exc}") from exc
    if isinstance(result, Mapping):
        return result
    to_dict = getattr(result, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if isinstance(result, Iterable):
        return list(result)
    raise TransportFormatError(
        f"expected a SearchResult, a {TRANSPORT_SCHEMA_ID} dict or its JSON text, got {type(result).__name__}"
    )


def _region_dict(region: Any) -> Any:
    """A region as a dict (EvidenceRegion and other pydantic models are dumped)."""
    if isinstance(region, Mapping):
        return region
    dump = getattr(region, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    to_dict = getattr(region, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return region


def _optional(value: Any, kind: type, path: str) -> Any:
    if value is None or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    raise TransportFormatError(f"{path}: expected {kind.__name__} or null, got {type(value).__name__}")


def _make_region(region: Any, document: Mapping[str, Any], path: str) -> _Region:
    region = _region_dict(region)
    if not isinstance(region, Mapping):
        raise TransportFormatError(f"{path}: expected a region object, got {type(region).__name__}")
    region_id = region.get("region_id")
    if not isinstance(region_id, str) or not region_id:
        raise TransportFormatError(f"{path}.region_id: expected a non-empty string, got {region_id!r}")
    source = region.get("source") or {}
    if not isinstance(source, Mapping):
        raise TransportFormatError(f"{path}.source: expected an object, got {type(source).__name__}")
    pages = source.get("pages")
    if pages is not None:
        if not isinstance(pages, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in pages):
            raise TransportFormatError(f"{path}.source.pages: expected an array of integers, got {pages!r}")
        pages = tuple(pages)
    text = region.get("text", "")
    if not isinstance(text, str):
        raise TransportFormatError(f"{path}.text: expected a string, got {type(text).__name__}")
    return _Region(
        region_id=region_id,
        document_id=_optional(
            source.get("document_id") or region.get("document_id") or document.get("document_id"),
            str,
            f"{path}.source.document_id",
        ),
        uri=_optional(source.get("uri") or document.get("source_uri"), str, f"{path}.source.uri"),
        pages=pages,
        start_char=_optional(source.get("start_char"), int, f"{path}.source.start_char"),
        end_char=_optional(source.get("end_char"), int, f"{path}.source.end_char"),
        start_line=_optional(source.get("start_line"), int, f"{path}.source.start_line"),
        end_line=_optional(source.get("end_line"), int, f"{path}.source.end_line"),
        document_sha256=_optional(
            source.get("document_sha256") or document.get("document_sha256"), str, f"{path}.source.document_sha256"
        ),
        text=text,
    )


def _catalog(result: Any) -> _Catalog:
    """Index the regions of `result` by id (first occurrence wins); TransportFormatError if it is no transport."""
    payload = _as_transport_dict(result)
    regions: dict[str, _Region] = {}
    if isinstance(payload, list):  # a plain list of regions (e.g. list(search_result))
        for i, region in enumerate(payload):
            made = _make_region(region, {}, f"regions[{i}]")
            regions.setdefault(made.region_id, made)
        return _Catalog(regions)
    if not isinstance(payload, Mapping):
        raise TransportFormatError(f"search result must be a JSON object, got {type(payload).__name__}")
    schema = payload.get("schema", TRANSPORT_SCHEMA_ID)
    if schema != TRANSPORT_SCHEMA_ID:
        raise TransportFormatError(
            f"search result has schema {schema!r}; cited answers are checked against {TRANSPORT_SCHEMA_ID} results"
        )
    documents = payload.get("documents")
    if not isinstance(documents, list):
        raise TransportFormatError(
            f"search result has no 'documents' array (got {type(documents).__name__}); "
            f"pass a SearchResult or its {TRANSPORT_SCHEMA_ID} JSON"
        )
    for d, document in enumerate(documents):
        if not isinstance(document, Mapping) or not isinstance(document.get("regions"), list):
            raise TransportFormatError(f"documents[{d}]: expected an object with a 'regions' array")
        for r, region in enumerate(document["regions"]):
            made = _make_region(region, document, f"documents[{d}].regions[{r}]")
            regions.setdefault(made.region_id, made)
    return _Catalog(regions)


def result_region_ids(result: Any) -> list[str]:
    """The region ids of a search result (SearchResult, transport dict or JSON text), sorted and deduplicated."""
    return sorted(_catalog(result).ids)


# --------------------------------------------------------------------------------------------------- schema


@lru_cache(maxsize=1)
def _static_parameters_text() -> str:
    return resources.files(__package__).joinpath("schemas", CITED_ANSWER_SCHEMA_FILE).read_text(encoding="utf-8")


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


# ------------------------------------------------------------------------------------------ payload parsing


def _json_type(value: Any) -> str:
    """The JSON name of a value's type, with an article ("a string", "an array", "null")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, Mapping):
        return "an object"
    return f"a {type(value).__name__}"


def _reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise CitedAnswerTypeError("$", f"duplicate key {key!r} in an object; each key may appear once")
        obj[key] = value
    return obj


def _reject_constant(name: str) -> Any:
    raise CitedAnswerTypeError("$", f"{name} is not valid JSON")


def _load_payload(payload: Any) -> Any:
    """JSON text/bytes → Python data; dicts and CitedAnswers pass through; anything else is an input error."""
    if isinstance(payload, CitedAnswer):
        return payload.model_dump()
    if isinstance(payload, (bytes, bytearray)):
        try:
            payload = bytes(payload).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise CitedAnswerTypeError("$", f"not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    if isinstance(payload, str):
        try:
            return json.loads(payload, object_pairs_hook=_reject_duplicate_keys, parse_constant=_reject_constant)
        except CitedAnswerTypeError:
            raise
        except json.JSONDecodeError as exc:
            raise CitedAnswerTypeError(
                "$", f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            ) from exc
        except ValueError as exc:  # e.g. an integer literal beyond Python's digit limit
            raise CitedAnswerTypeError("$", f"not usable JSON ({exc})") from exc
        except RecursionError as exc:
            raise CitedAnswerTypeError("$", "JSON nested too deeply") from exc
    if isinstance(payload, (Mapping, list, int, float)) or payload is None:  # bool is an int
        return payload
    raise CitedAnswerInputError(payload)


def _parse_statements(data: Any) -> list[tuple[str, list[str]]]:
    """(sentence, citation_ids) pairs of a payload of the schema's shape; CitedAnswerTypeError otherwise."""
    if not isinstance(data, Mapping):
        raise CitedAnswerTypeError("$", f'expected an object {{"statements": [...]}}, got {_json_type(data)}')
    if "statements" not in data:
        raise CitedAnswerTypeError("statements", 'missing; a cited answer is {"statements": [...]}')
    for key in data:
        if key != "statements":
            raise CitedAnswerTypeError("$", f"unexpected key {key!r}; a cited answer has only 'statements'")
    statements = data["statements"]
    if not isinstance(statements, list):
        raise CitedAnswerTypeError("statements", f"expected an array of statements, got {_json_type(statements)}")
    parsed: list[tuple[str, list[str]]] = []
    for i, statement in enumerate(statements):
        path = f"statements[{i}]"
        if not isinstance(statement, Mapping):
            raise CitedAnswerTypeError(path, f"expected a statement object, got {_json_type(statement)}")
        if "sentence" not in statement:
            raise CitedAnswerTypeError(f"{path}.sentence", "missing")
        if "citation_ids" not in statement:
            raise CitedAnswerTypeError(f"{path}.citation_ids", "missing; use [] for a sentence without evidence")
        for key in statement:
            if key not in ("sentence", "citation_ids"):
                raise CitedAnswerTypeError(
                    path, f"unexpected key {key!r}; a statement has only 'sentence' and 'citation_ids'"
                )
        sentence = statement["sentence"]
        if not isinstance(sentence, str):
            raise CitedAnswerTypeError(f"{path}.sentence", f"expected a string, got {_json_type(sentence)}")
        if not sentence.strip():
            raise CitedAnswerTypeError(f"{path}.sentence", "empty; every statement needs a sentence")
        if not _is_unicode_text(sentence):
            raise CitedAnswerTypeError(f"{path}.sentence", "contains an unpaired surrogate (not Unicode text)")
        citation_ids = statement["citation_ids"]
        if not isinstance(citation_ids, list):
            raise CitedAnswerTypeError(
                f"{path}.citation_ids", f"expected an array of strings, got {_json_type(citation_ids)}"
            )
        for j, citation_id in enumerate(citation_ids):
            if not isinstance(citation_id, str):
                raise CitedAnswerTypeError(
                    f"{path}.citation_ids[{j}]", f"expected a string, got {_json_type(citation_id)}"
                )
            if not _is_unicode_text(citation_id):
                raise CitedAnswerTypeError(
                    f"{path}.citation_ids[{j}]", "contains an unpaired surrogate (not Unicode text)"
                )
        parsed.append((sentence.strip(), citation_ids))
    return parsed


# -------------------------------------------------------------------------------------- number grounding
#
# A number in a sentence is grounded when one of its cited regions states the same value. Both sides are
# normalised first: full-width digits and signs become ASCII, thousands separators are dropped, Korean units
# are multiplied out (1,200억원 = 1,200억 원 = 120,000,000,000; 3조 2,000억원 = 3.2조), "(56)", "-56" and "△56"
# are -56. Numbers are read whole, so 11,234 never contains 1,234. Matching rules:
#   * same kind (plain / percent / percentage points / times / date) and the same value, or
#   * the sentence adds a unit a table header carries: 1,200억원 or 3.5% against a unitless 1,200 or 3.5, or
#   * the sentence drops a unit: a unitless 1,200 against 1,200억원.
# An unsigned number in a sentence matches either sign, because prose carries signs in words ("영업손실 56억원",
# "fell by 56"); a negative one ("-56", "(56)", "△56") needs a negative number in the region.

#: Full-width and typographic characters read as their ASCII forms (one character each, so offsets hold).
_NUMBER_CHAR_MAP = str.maketrans(
    {
        **{chr(0xFF10 + d): str(d) for d in range(10)},
        "，": ",",
        "．": ".",
        "％": "%",
        "（": "(",
        "）": ")",
        "－": "-",
        "＋": "+",
        "\u2212": "-",  # minus sign
        "\u00a0": " ",
        "\u202f": " ",
        "\u3000": " ",
    }
)
_NEEDS_CHAR_MAP_RE = re.compile("[" + re.escape("".join(chr(c) for c in _NUMBER_CHAR_MAP)) + "]")
#: Korean unit characters and their multipliers (천만 = 천 × 만).
KOREAN_SMALL_UNITS = {"십": 10, "백": 100, "천": 1000}
KOREAN_LARGE_UNITS = {"만": 10**4, "억": 10**8, "조": 10**12}
#: English scale words and their multipliers.
ENGLISH_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12, "bn": 10**9, "mn": 10**6}
#: A four-digit integer in this range inside parentheses is a year ("(2024)"), not a negative amount.
PARENTHESISED_YEAR_RANGE = (1900, 2099)
#: Citation markers the model may leave in a sentence ("[1]", "[2, 3]"); they are not numbers it claims.
_CITATION_MARKER_RE = re.compile(r"\[\d+(?:\s*[,\-–]\s*\d+)*\]")

#: Values of NumberMention.kind: a plain amount, a percentage, percentage points, a multiple (배, x), a date.
NUMBER_KINDS = ("number", "percent", "points", "times", "date")

_NUMBER_RE = re.compile(
    r"""
    (?=[\d\-–△▼])  # every number starts with a digit or a sign: lets the scan skip other characters fast
    (?:
    (?P<date>(?<![\d.,])(?:19|20)\d{2}(?P<dsep>[./-])(?:0?[1-9]|1[0-2])(?P=dsep)(?:0?[1-9]|[12]\d|3[01])(?!\d|[.,]\d))
  | (?:(?<![\w.,)])(?P<sign>[-–△▼]))?
    (?<![A-Za-z\d])(?<!\d[.,])
    (?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?
    (?!\d|[.,]\d)
    (?:
        (?P<points>\s?(?:%\s?p(?![A-Za-z])|%\s?포인트|퍼센트\s?포인트|(?i:percentage\s+points?|pp)(?![A-Za-z])))
      | (?P<percent>\s?(?:%|퍼센트|(?i:percent|per\s+cent)(?![A-Za-z])))
      | (?P<times>\s?배(?![당율분상제정출포치송서경])|x(?![A-Za-z\d])|\s?(?i:times|-fold)(?![A-Za-z]))
      | (?P<ko>[십백천]?[만억조]|[십백천])
      | \s(?P<ko_spaced>[십백천]?[만억조])(?=\s?원|[^가-힣]|$)
      | \s?(?P<en>(?i:thousand|million|billion|trillion|bn|mn))(?![A-Za-z])
    )?
    (?P<currency>\s?(?:원(?![리칙가인])|달러|엔|위안|유로))?
    )
    """,
    re.VERBOSE,
)


class NumberMention(NamedTuple):
    """A number found in text.

    `value` is the normalised magnitude (a Decimal with units multiplied out, or (year, month, day) for a
    date); `mantissa` the magnitude as written without its unit (None for compounds such as 3조 2,000억);
    `negative` whether it was written as negative; `has_unit` whether a scale unit followed it.
    """

    surface: str
    kind: str
    value: Union[Decimal, tuple[int, int, int]]
    mantissa: Optional[Decimal]
    negative: bool = False
    has_unit: bool = False


def _korean_multiplier(unit: str) -> int:
    multiplier = 1
    for ch in unit:
        multiplier *= KOREAN_SMALL_UNITS.get(ch) or KOREAN_LARGE_UNITS[ch]
    return multiplier


def _large_unit(unit: Optional[str]) -> int:
    """The 만/억/조 multiplier a Korean unit ends in (0 when it has none)."""
    return KOREAN_LARGE_UNITS.get(unit[-1], 0) if unit else 0


def find_numbers(text: str) -> list[NumberMention]:
    """The numbers of `text` in order, normalised for comparison (see the module notes on grounding)."""
    original = text
    if _NEEDS_CHAR_MAP_RE.search(text):  # translate() is slow on non-ASCII text; most text needs none
        text = text.translate(_NUMBER_CHAR_MAP)
    mentions: list[NumberMention] = []
    # (mention, korean unit, end offset) of the previous number, for 3조 2,000억 compounds
    previous: Optional[tuple[NumberMention, Optional[str], int]] = None
    for match in _NUMBER_RE.finditer(text):
        if match.group("date"):
            year, month, day = (int(part) for part in re.split(r"[./-]", match.group("date")))
            mentions.append(NumberMention(original[match.start() : match.end()], "date", (year, month, day), None))
            previous = None
            continue
        digits = match.group("int")
        mantissa = Decimal(digits.replace(",", "") + (match.group("frac") or ""))
        korean_unit = match.group("ko") or match.group("ko_spaced")
        kind, multiplier = "number", 1
        if match.group("points"):
            kind = "points"
        elif match.group("percent"):
            kind = "percent"
        elif match.group("times"):
            kind = "times"
        elif korean_unit:
            multiplier = _korean_multiplier(korean_unit)
        elif match.group("en"):
            multiplier = ENGLISH_SCALES[match.group("en").lower()]
        start, end = match.start(), match.end()
        negative = match.group("sign") is not None and match.group("sign") != ""
        if (
            not negative
            and kind == "number"
            and multiplier == 1
            and not match.group("currency")
            and start > 0
            and text[start - 1] == "("
            and text[end : end + 1] == ")"
            and not (
                "," not in digits
                and not match.group("frac")
                and PARENTHESISED_YEAR_RANGE[0] <= int(digits) <= PARENTHESISED_YEAR_RANGE[1]
            )
        ):
            negative = True
            start, end = start - 1, end + 1  # the surface keeps its parentheses: "(56)"
        mention = NumberMention(
            surface=original[start:end].strip(),
            kind=kind,
            value=mantissa * multiplier,
            mantissa=mantissa,
            negative=negative,
            has_unit=multiplier != 1,
        )
        if (
            previous is not None
            and not negative
            and _large_unit(korean_unit)
            and _large_unit(previous[1]) > _large_unit(korean_unit)
            and text[previous[2] : start] in ("", " ")
        ):
            # "3조 2,000억": one amount written in two parts.
            head = previous[0]
            mention = NumberMention(
                surface=f"{head.surface}{original[previous[2]:start]}{mention.surface}",
                kind="number",
                value=head.value + mention.value,  # type: ignore[operator]
                mantissa=None,
                negative=head.negative,
                has_unit=True,
            )
            mentions[-1] = mention
        else:
            mentions.append(mention)
        # A currency word closes an amount: "3조원 2,000억원" are two amounts, "3조 2,000억원" one.
        previous = (mention, korean_unit, end) if korean_unit and not match.group("currency") else None
    return mentions


@dataclass
class _NumberIndex:
    """The numbers of one region, as sets keyed for the three matching rules (all signs / negatives only)."""

    scaled: set[tuple[str, Any]] = field(default_factory=set)
    scaled_negative: set[tuple[str, Any]] = field(default_factory=set)
    unitless: set[Decimal] = field(default_factory=set)
    unitless_negative: set[Decimal] = field(default_factory=set)
    mantissas: set[Decimal] = field(default_factory=set)
    mantissas_negative: set[Decimal] = field(default_factory=set)

    @classmethod
    def of(cls, text: str) -> "_NumberIndex":
        index = cls()
        for mention in find_numbers(text):
            index.scaled.add((mention.kind, mention.value))
            if mention.kind == "date":
                # A date also states its year, month and day ("2024.03.31" grounds "2024년 3월 31일").
                for part in mention.value:  # type: ignore[union-attr]
                    index.unitless.add(Decimal(part))
                    index.mantissas.add(Decimal(part))
                continue
            if mention.negative:
                index.scaled_negative.add((mention.kind, mention.value))
            if mention.mantissa is None:
                continue
            index.mantissas.add(mention.mantissa)
            if mention.negative:
                index.mantissas_negative.add(mention.mantissa)
            if mention.kind == "number" and not mention.has_unit:
                index.unitless.add(mention.mantissa)
                if mention.negative:
                    index.unitless_negative.add(mention.mantissa)
        return index

    def grounds(self, mention: NumberMention) -> bool:
        """True when this region states `mention` (same value, or the same figure with/without its unit)."""
        if mention.kind == "date":
            if ("date", mention.value) in self.scaled:
                return True
            return all(Decimal(part) in self.unitless for part in mention.value)  # type: ignore[union-attr]
        negative = mention.negative
        if (mention.kind, mention.value) in (self.scaled_negative if negative else self.scaled):
            return True
        if mention.mantissa is None:
            return False
        if mention.mantissa in (self.unitless_negative if negative else self.unitless):
            return True
        if mention.kind == "number" and not mention.has_unit:
            return mention.mantissa in (self.mantissas_negative if negative else self.mantissas)
        return False


def _ungrounded_numbers(sentence: str, region_ids: list[str], catalog: _Catalog) -> list[str]:
    """Surface forms of the numbers of `sentence` that none of the cited regions grounds (deduplicated, in
    order). Regions are indexed on first need, so sentences without numbers cost one regex scan."""
    mentions = find_numbers(_CITATION_MARKER_RE.sub(" ", sentence))
    if not mentions:
        return []
    indexes = [catalog.numbers(region_id) for region_id in region_ids]
    found: dict[str, None] = {}
    for mention in mentions:
        if not any(index.grounds(mention) for index in indexes):
            found.setdefault(mention.surface, None)
    return list(found)


# ----------------------------------------------------------------------------------------------- validation


def validate_cited_answer(
    payload: Any,
    result: Any,
    *,
    policy: Policy = POLICY_REJECT,
    strict_numbers: bool = False,
) -> ValidationReport:
    """Check a model's cited answer against the search result it was given.

    `payload` is the answer as JSON text, UTF-8 bytes, a dict or a CitedAnswer; `result` the SearchResult
    (or its transport dict / JSON). Raises CitedAnswerTypeError (with the JSON path) when the payload is not
    of the schema's shape, CitedAnswerInputError for another Python type, TransportFormatError for a result
    that is not a transport. Statements are then judged one by one; see the module docstring for reasons.
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(repr(p) for p in POLICIES)}, got {policy!r}")
    catalog = _catalog(result)
    statements = _parse_statements(_load_payload(payload))
    known = catalog.ids

    accepted: list[AcceptedStatement] = []
    rejected: list[RejectedStatement] = []
    for index, (sentence, raw_ids) in enumerate(statements):
        citation_ids = list(dict.fromkeys(raw_ids))
        if not citation_ids:
            rejected.append(
                RejectedStatement(
                    index=index,
                    sentence=sentence,
                    citation_ids=[],
                    reason=REASON_UNSUPPORTED,
                    detail="no citation: the sentence is not backed by any retrieved region",
                )
            )
            continue
        valid = [cid for cid in citation_ids if cid in known]
        unknown = [cid for cid in citation_ids if cid not in known]
        if unknown and (policy == POLICY_REJECT or not valid):
            rejected.append(
                RejectedStatement(
                    index=index,
                    sentence=sentence,
                    citation_ids=citation_ids,
                    reason=REASON_INVALID_CITATION,
                    detail=f"cites {len(unknown)} id(s) that the search result does not hold: {', '.join(unknown)}",
                    unknown_ids=unknown,
                )
            )
            continue
        flags: list[str] = []
        if unknown:
            flags.append(FLAG_STRIPPED_CITATION)
        ungrounded = _ungrounded_numbers(sentence, valid, catalog)
        if ungrounded:
            if strict_numbers:
                rejected.append(
                    RejectedStatement(
                        index=index,
                        sentence=sentence,
                        citation_ids=citation_ids,
                        reason=REASON_UNGROUNDED_NUMBER,
                        detail=f"number(s) not found in the cited regions: {', '.join(ungrounded)}",
                        unknown_ids=unknown,
                        ungrounded_numbers=ungrounded,
                    )
                )
                continue
            flags.insert(0, FLAG_UNGROUNDED_NUMBER)
        accepted.append(
            AcceptedStatement(
                index=index,
                sentence=sentence,
                citation_ids=valid,
                sources=[catalog.provenance(cid) for cid in valid],
                flags=flags,
                ungrounded_numbers=ungrounded,
                stripped_ids=unknown,
            )
        )

    counts = {"statements": len(statements), "accepted": len(accepted), "rejected": len(rejected)}
    counts.update({reason: 0 for reason in REASONS})
    for statement in rejected:
        counts[statement.reason] += 1
    flag_counts = {flag: sum(flag in s.flags for s in accepted) for flag in FLAGS}
    return ValidationReport(
        ok=not rejected,
        policy=policy,
        strict_numbers=strict_numbers,
        accepted=accepted,
        rejected=rejected,
        counts=counts,
        flag_counts=flag_counts,
    )


# ------------------------------------------------------------------------------------------------ rendering


@dataclass(frozen=True)
class _Numbered:
    """Badge numbers of the cited regions: 1, 2, … in order of first citation across the answer."""

    numbers: dict[str, int]
    sources: list[RegionProvenance]


def _number_sources(report: ValidationReport) -> _Numbered:
    numbers: dict[str, int] = {}
    sources: list[RegionProvenance] = []
    for statement in report.accepted:
        for source in statement.sources:
            if source.region_id not in numbers:
                numbers[source.region_id] = len(numbers) + 1
                sources.append(source)
    return _Numbered(numbers, sources)


def _page_label(pages: Optional[list[int]]) -> Optional[str]:
    """'p. 3', 'pp. 3–5, 7' for 1-based pages; None when there are none."""
    if not pages:
        return None
    ordered = sorted(set(pages))
    runs: list[str] = []
    start = prev = ordered[0]
    for page in ordered[1:] + [None]:  # type: ignore[list-item]
        if page is not None and page == prev + 1:
            prev = page
            continue
        runs.append(str(start) if start == prev else f"{start}–{prev}")
        if page is not None:
            start = prev = page
    return ("p. " if len(ordered) == 1 else "pp. ") + ", ".join(runs)


def _line_label(source: RegionProvenance) -> Optional[str]:
    if source.start_line is None:
        return None
    if source.end_line is None or source.end_line == source.start_line:
        return f"line {source.start_line}"
    return f"lines {source.start_line}–{source.end_line}"


def _where(source: RegionProvenance) -> list[str]:
    """Page and line labels of a source, those that are present."""
    return [label for label in (_page_label(source.pages), _line_label(source)) if label]


#: Characters of a region id left as they are in a Markdown link fragment (the rest is percent-encoded).
MARKDOWN_FRAGMENT_SAFE = ":-_.~"
_MARKDOWN_SPECIAL_RE = re.compile(r"([\\`*_\[\]<>|#])")


def _markdown_escape(text: str) -> str:
    return _MARKDOWN_SPECIAL_RE.sub(r"\\\1", text)


def _render_text(report: ValidationReport, numbered: _Numbered) -> str:
    sentences = [
        f"{s.sentence} " + "".join(f"[{numbered.numbers[cid]}]" for cid in s.citation_ids) for s in report.accepted
    ]
    lines = [" ".join(sentences)]
    if numbered.sources:
        lines += ["", "Sources:"]
        for n, source in enumerate(numbered.sources, 1):
            parts = [source.document_id or source.region_id, *_where(source)]
            tail = f" ({source.uri})" if source.uri else ""
            lines.append(f"[{n}] {', '.join(parts)}{tail} [{source.region_id}]")
    return "\n".join(lines) + "\n" if report.accepted else ""


def _render_markdown(report: ValidationReport, numbered: _Numbered) -> str:
    def badge(cid: str) -> str:
        return f"[\\[{numbered.numbers[cid]}\\]](#{quote(cid, safe=MARKDOWN_FRAGMENT_SAFE)})"

    sentences = [
        _markdown_escape(s.sentence) + " " + "".join(badge(cid) for cid in s.citation_ids) for s in report.accepted
    ]
    if not report.accepted:
        return ""
    lines = [" ".join(sentences), "", "**Sources**", ""]
    for n, source in enumerate(numbered.sources, 1):
        parts = [f"**{_markdown_escape(source.document_id or source.region_id)}**", *_where(source)]
        tail = f" <{source.uri}>" if source.uri and not re.search(r"[\s<>]", source.uri) else ""
        lines.append(f"{n}. {', '.join(parts)}{tail} `{source.region_id.replace('`', '')}`")
    return "\n".join(lines) + "\n"


def _render_html(report: ValidationReport, numbered: _Numbered) -> str:
    esc = html.escape

    def badge(cid: str) -> str:
        return f'<a href="#{esc(cid)}" data-region-id="{esc(cid)}">[{numbered.numbers[cid]}]</a>'

    out = ['<div class="cited-answer">']
    if report.accepted:
        sentences = [
            f'<span class="statement">{esc(s.sentence)} <sup>{"".join(map(badge, s.citation_ids))}</sup></span>'
            for s in report.accepted
        ]
        out.append("<p>" + " ".join(sentences) + "</p>")
        out.append('<ol class="sources">')
        for source in numbered.sources:
            parts = [f"<strong>{esc(source.document_id or source.region_id)}</strong>", *map(esc, _where(source))]
            # The uri is shown, never linked: it comes from the transport and may use any scheme.
            uri = f' <span class="uri">{esc(source.uri)}</span>' if source.uri else ""
            region_id = esc(source.region_id)
            out.append(f'<li id="{region_id}" data-region-id="{region_id}">{", ".join(parts)}{uri}</li>')
        out.append("</ol>")
    out.append("</div>")
    return "\n".join(out) + "\n"


def render_answer(report: ValidationReport, format: RenderFormat = "text") -> str:
    """The accepted statements as one paragraph with [n] badges after each sentence, then the numbered
    sources (document, pages when present, lines). Badge numbers follow the order of first citation and are
    shared across sentences. `format` is "text", "markdown" or "html" (all text HTML-escaped, badges link to
    ``#<region id>`` and carry ``data-region-id``). An answer with nothing accepted renders empty (HTML: an
    empty container)."""
    renderers = {"text": _render_text, "markdown": _render_markdown, "html": _render_html}
    if format not in renderers:
        raise ValueError(f"format must be one of {', '.join(repr(f) for f in RENDER_FORMATS)}, got {format!r}")
    return renderers[format](report, _number_sources(report))


__all__ = [
    "DEFAULT_TOOL_NAME",
    "DEFAULT_TOOL_DESCRIPTION",
    "REASONS",
    "FLAGS",
    "POLICIES",
    "CitedAnswerTypeError",
    "CitedAnswerInputError",
    "CitedStatement",
    "CitedAnswer",
    "RegionProvenance",
    "AcceptedStatement",
    "RejectedStatement",
    "ValidationReport",
    "NumberMention",
    "cited_answer_schema",
    "as_openai_tool",
    "as_openai_response_format",
    "as_anthropic_tool",
    "result_region_ids",
    "validate_cited_answer",
    "find_numbers",
    "render_answer",
]
