"""Filters of a search: which documents (company, form, fiscal year, period, language, ids) and which units
(tables or text) it may return. A filter is applied in stage 1: documents it excludes are never routed to,
and units of another kind are never candidates, so a filtered search never returns a region outside it.

A document's filter fields come from the info stored with it: ``filing`` (what evidence_chunker.units.filing read
from a filing's cover: company, ticker, form, period, fiscal_year) and ``language``; top-level keys of the
same names are read too, for documents added from Python with ``info={"company": ..., "fiscal_year": ...}``.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator

from ..errors import SemanticJsonError
from .priors import GENERIC_NAME_WORDS
from ..rules.textnorm import normalized_terms

#: Document fields a filter reads, in the order ``sjt search --where`` lists them.
DOCUMENT_FIELDS = ("company", "form", "fiscal_year", "period", "language")
#: Unit kinds by the ``kind`` a filter names.
KIND_UNITS: dict[str, frozenset[str]] = {
    "table": frozenset({"table_row"}),
    "text": frozenset({"heading", "proposition", "list_item", "caption"}),
}


class SearchFilterError(SemanticJsonError, ValueError):
    """A filter that names an unknown field or kind."""


class SearchFilter(BaseModel):
    """What a search may return. Each field is one value or a list of values (any of them matches); a field
    left None does not filter. ``company`` matches a filer whose name holds every word given, whose trading
    symbol it is, or whose name's initials it is in capitals ("3M", "Johnson & Johnson", "JPM", "AMD"); ``form`` ("10-K"), ``fiscal_year`` (2022) and
    ``language`` ("en", "ko") match exactly, case aside; ``period`` matches a period whose text holds it
    ("June 30, 2023"); ``documents`` are document ids; ``kind`` is "table" or "text"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    company: list[str] | None = None
    form: list[str] | None = None
    fiscal_year: list[str] | None = None
    period: list[str] | None = None
    language: list[str] | None = None
    documents: list[str] | None = None
    kind: list[str] | None = None

    @field_validator("*", mode="before")
    @classmethod
    def _as_list(cls, value: Any) -> Any:
        if value is None:
            return None
        values = value if isinstance(value, (list, tuple, set, frozenset)) else [value]
        return [str(v) for v in values]

    @field_validator("kind")
    @classmethod
    def _known_kind(cls, value: list[str] | None) -> list[str] | None:
        for kind in value or ():
            if kind not in KIND_UNITS:
                raise ValueError(f"unknown kind {kind!r}: use one of {', '.join(KIND_UNITS)}")
        return value

    @classmethod
    def from_mapping(cls, where: Mapping[str, Any]) -> SearchFilter:
        """A filter from a dict of its fields (``{"company": "3M", "fiscal_year": 2022}``); SearchFilterError
        for an unknown field or kind."""
        if not isinstance(where, Mapping):
            raise SearchFilterError(f"a filter is a dict of fields, got {type(where).__name__}")
        unknown = sorted(set(where) - set(cls.model_fields))
        if unknown:
            raise SearchFilterError(f"unknown filter field {unknown[0]!r}: use {', '.join(cls.model_fields)}")
        try:
            return cls(**where)
        except SearchFilterError:
            raise
        except ValidationError as exc:
            errors = exc.errors()
            raise SearchFilterError(str(errors[0]["msg"]).removeprefix("Value error, ") if errors else "invalid filter"
                                    ) from None

    @staticmethod
    def fields_of(info: Mapping[str, Any] | None) -> dict[str, str]:
        """A document's filter fields from its stored info (``filing`` facts, then top-level keys)."""
        info = info or {}
        filing = info.get("filing") if isinstance(info.get("filing"), Mapping) else {}
        fields = {}
        for name in (*DOCUMENT_FIELDS, "ticker"):
            value = info.get(name, filing.get(name))
            if isinstance(value, (str, int)) and not isinstance(value, bool) and str(value):
                fields[name] = str(value)
        return fields

    def admits(self, document_id: str, fields: Mapping[str, str]) -> bool:
        """Whether a document (its id and filter fields) passes the document part of this filter."""
        if self.documents is not None and document_id not in self.documents:
            return False
        if self.company is not None and not any(_names_company(value, fields) for value in self.company):
            return False
        for name, wanted in (("form", self.form), ("fiscal_year", self.fiscal_year), ("language", self.language)):
            if wanted is not None and fields.get(name, "").casefold() not in {v.casefold() for v in wanted}:
                return False
        if self.period is not None:
            held = " ".join(fields.get("period", "").casefold().split())
            if not any(" ".join(v.casefold().split()) in held for v in self.period):
                return False
        return True

    def unit_kinds(self) -> frozenset[str] | None:
        """The unit kinds this filter admits (None: all)."""
        if self.kind is None:
            return None
        return frozenset().union(*(KIND_UNITS[kind] for kind in self.kind))


def _names_company(value: str, fields: Mapping[str, str]) -> bool:
    """Whether ``value`` names the filer: its trading symbol, words all found in its company name, or, in
    capitals, the initials of its name's distinctive words ("AMD": Advanced Micro Devices, Inc.)."""
    value = value.strip()
    if fields.get("ticker", "").casefold() == value.casefold():
        return True
    words = normalized_terms(value)
    named = normalized_terms(fields.get("company", ""))
    if words and all(word in set(named) for word in words):
        return True
    distinctive = [word for word in named if word not in GENERIC_NAME_WORDS]
    return value.isupper() and value.isalpha() and len(distinctive) > 1 and \
        value.casefold() == "".join(word[0] for word in distinctive)


def matching_documents(search_filter: SearchFilter, documents: Iterable[str],
                       fields: Mapping[str, Mapping[str, str]]) -> frozenset[str]:
    """The ids of ``documents`` that ``search_filter`` admits (``fields``: each document's filter fields)."""
    return frozenset(d for d in documents if search_filter.admits(d, fields.get(d, {})))


def parse_where(items: Collection[str]) -> SearchFilter:
    """A filter from ``field=value`` strings (``sjt search --where company=3M --where fiscal_year=2022``); a
    field given twice matches any of its values. SearchFilterError for a malformed item."""
    fields: dict[str, list[str]] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep or not name.strip() or not value.strip():
            raise SearchFilterError(f"--where {item!r}: expected FIELD=VALUE, e.g. company=3M or fiscal_year=2022")
        fields.setdefault(name.strip(), []).append(value.strip())
    return SearchFilter.from_mapping(fields)
