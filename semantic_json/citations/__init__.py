"""The citation oracle: an LLM answers in a cited-answer schema; the answer is checked against the transport.

The flow has three steps:

1. `cited_answer_schema(result)` (or `as_openai_tool`, `as_openai_response_format`, `as_anthropic_tool`)
   gives the model a strict schema: ``{"statements": [{"sentence": str, "citation_ids": [region id, ...]}]}``
   where every citation id must be one of the result's citation ids (a JSON Schema ``enum``; the regions'
   stable ids, see semantic_json.transport).
2. `validate_cited_answer(payload, result)` checks the model's reply (or `validate_cited_answer(payload,
   repository=repo)`, resolving the cited ids from an index). A payload not of the schema's shape is
   rejected whole (`CitedAnswerTypeError`, with the JSON path of the first problem). Otherwise each statement
   is accepted or rejected on its own: no citation → ``unsupported``; an id the result does not hold →
   ``invalid_citation`` (or, with ``policy="strip"``, the id is removed and the statement kept while a valid
   id remains); a figure found in none of the cited regions' text (after scale normalisation) →
   ``ungrounded_number`` (with ``strict_numbers=False``, lenient, the statement is kept and flagged).
3. `render_answer(report)` joins the accepted sentences into a paragraph with ``[1]``, ``[2]`` badges and a
   numbered source list (text, Markdown or HTML).

Modules: ``options`` (policies and render formats as plain names), ``models`` (the answer and report
models; reasons as one StrEnum, flags), ``numbers``
(finding and grounding numbers), ``results`` (the regions of a search result), ``schema`` (the tool
definitions), ``validation`` and ``rendering``.

Citation ids are checked against a frozenset of the result's ids (citation ids and positional region ids),
so each check is O(1).
"""

from ..lazy import lazy_exports

#: Where each name lives (every public name of the former single module stays importable from here, some
#: not in __all__). Names are imported on first use: ``sjt check-answer`` declares its options from
#: ``options`` without loading the answer models.
_EXPORTS = {
    **{name: "..errors" for name in ("CitedAnswerInputError", "CitedAnswerTypeError")},
    **{name: ".options" for name in ("POLICIES", "POLICY_REJECT", "POLICY_STRIP", "RENDER_FORMATS")},
    **{name: ".models" for name in (
        "FLAG_STRIPPED_CITATION", "FLAG_UNGROUNDED_NUMBER", "FLAGS", "REASON_INVALID_CITATION",
        "REASON_UNGROUNDED_NUMBER", "REASON_UNSUPPORTED", "REASONS", "AcceptedStatement", "CitedAnswer",
        "CitedStatement", "Policy", "Reason", "RegionProvenance", "RejectedStatement", "RenderFormat",
        "ValidationReport",
    )},
    **{name: ".numbers" for name in (
        "ENGLISH_SCALES", "KOREAN_LARGE_UNITS", "KOREAN_SMALL_UNITS", "NUMBER_KINDS", "PARENTHESISED_YEAR_RANGE",
        "NumberMention", "figure_lines", "find_numbers", "is_figure",
    )},
    **{name: ".rendering" for name in ("MARKDOWN_FRAGMENT_SAFE", "render_answer")},
    "result_region_ids": ".results",
    **{name: ".schema" for name in (
        "CITED_ANSWER_SCHEMA_FILE", "DEFAULT_TOOL_DESCRIPTION", "DEFAULT_TOOL_NAME", "NO_EVIDENCE_DESCRIPTION",
        "SCHEMA_FILE_META_KEYS", "as_anthropic_tool", "as_openai_response_format", "as_openai_tool",
        "cited_answer_schema",
    )},
    **{name: ".validation" for name in ("resolve_citations", "validate_cited_answer")},
}


__getattr__, __dir__ = lazy_exports(__name__, globals(), _EXPORTS)

__all__ = [
    "DEFAULT_TOOL_NAME",
    "DEFAULT_TOOL_DESCRIPTION",
    "REASONS",
    "Reason",
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
    "resolve_citations",
    "find_numbers",
    "render_answer",
]
