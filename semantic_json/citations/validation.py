"""Checking a model's cited answer against the search result it was given: payload shape, citations, numbers."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..errors import CitedAnswerInputError, CitedAnswerTypeError
from .models import (
    FLAG_STRIPPED_CITATION,
    FLAG_UNGROUNDED_NUMBER,
    FLAGS,
    POLICIES,
    POLICY_REJECT,
    REASON_INVALID_CITATION,
    REASON_UNGROUNDED_NUMBER,
    REASON_UNSUPPORTED,
    REASONS,
    AcceptedStatement,
    CitedAnswer,
    Policy,
    Reason,
    RejectedStatement,
    ValidationReport,
    _is_unicode_text,
)
# A number that is not a figure (a small count, a year: numbers.is_figure) a cited region does not print is
# flagged, never the reason a statement is rejected.
from .numbers import _CITATION_MARKER_RE, find_numbers, is_figure
from .results import _Catalog, _catalog


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


def _ungrounded_numbers(sentence: str, region_ids: list[str], catalog: _Catalog) -> tuple[list[str], bool]:
    """Surface forms of the numbers of `sentence` that none of the cited regions grounds (deduplicated, in
    order), and whether one of them is a figure (not a small count or a year). Regions are indexed on first need, so
    sentences without numbers cost one regex scan."""
    mentions = find_numbers(_CITATION_MARKER_RE.sub(" ", sentence))
    if not mentions:
        return [], False
    indexes = [catalog.numbers(region_id) for region_id in region_ids]
    found: dict[str, None] = {}
    figure = False
    for mention in mentions:
        if not any(index.grounds(mention) for index in indexes):
            found.setdefault(mention.surface, None)
            figure = figure or is_figure(mention)
    return list(found), figure


def _unknown_detail(unknown: list[str], unresolved: Mapping[str, str], refused: Mapping[str, str]) -> str:
    parts = []
    untrusted = [cid for cid in unknown if cid in refused]
    if untrusted:
        parts.append("cites id(s) the search result holds but does not vouch for: " + "; ".join(
            f"{cid} ({refused[cid]})" for cid in untrusted))
    unknown = [cid for cid in unknown if cid not in refused]
    if unknown and unresolved:
        parts.append("cites id(s) the index does not resolve: " + "; ".join(
            f"{cid} ({unresolved.get(cid, 'unknown')})" for cid in unknown))
    elif unknown:
        parts.append(f"cites {len(unknown)} id(s) that the search result does not hold: {', '.join(unknown)}")
    return "; ".join(parts)


def _cited_ids(payload: Any) -> list[str]:
    return list(dict.fromkeys(cid for _, ids in _parse_statements(payload) for cid in ids))


def resolve_citations(repository: Any, citation_ids: Iterable[str]) -> tuple[Any, dict[str, str]]:
    """The regions a repository resolves for `citation_ids` (get_region; a SearchResult) and, by id, why the
    others did not resolve ("document changed: …"): what an answer is checked against without a transport."""
    from ..errors import UnknownRegionError
    from ..transport import SearchResult

    regions, unresolved = [], {}
    for cid in dict.fromkeys(citation_ids):
        try:
            regions.append(repository.get_region(cid))
        except UnknownRegionError as exc:
            unresolved[cid] = exc.detail or "not a citation id this index resolves"
    return SearchResult("", regions), unresolved


def validate_cited_answer(
    payload: Any,
    result: Any = None,
    *,
    policy: Policy = POLICY_REJECT,
    strict_numbers: bool = True,
    repository: Any = None,
    unresolved: Mapping[str, str] | None = None,
) -> ValidationReport:
    """Check a model's cited answer against the search result it was given, or against an index.

    `payload` is the answer as JSON text, UTF-8 bytes, a dict or a CitedAnswer; `result` the SearchResult
    (or its transport dict / JSON). Without a result, `repository` (a SemanticRepository) resolves every
    cited citation id from its index (`get_region`): an id it cannot resolve, or whose document changed, is
    an invalid citation that says why (`unresolved`, id → why, does the same for a result made by
    resolve_citations). With `strict_numbers` (the default) a statement whose figure none of
    its cited regions prints (after scale normalisation) is rejected; False (lenient) only flags it.
    Raises CitedAnswerTypeError (with the JSON path) when the payload is not of the schema's shape,
    CitedAnswerInputError for another Python type, TransportFormatError for a result that is not a
    transport. Statements are then judged one by one; see the docstring of semantic_json.citations.
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(repr(p) for p in POLICIES)}, got {policy!r}")
    data = _load_payload(payload)
    unresolved = dict(unresolved or {})
    if result is None:
        if repository is None:
            raise TypeError("validate_cited_answer needs the search result the model was given, or repository=")
        result, unresolved = resolve_citations(repository, _cited_ids(data))
    catalog = _catalog(result)
    statements = _parse_statements(data)
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
                    detail=_unknown_detail(unknown, unresolved, catalog.refused),
                    unknown_ids=unknown,
                )
            )
            continue
        flags: list[str] = []
        if unknown:
            flags.append(FLAG_STRIPPED_CITATION)
        ungrounded, figure = _ungrounded_numbers(sentence, valid, catalog)
        if ungrounded:
            if strict_numbers and figure:
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
        counts[Reason(statement.reason).value] += 1
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
