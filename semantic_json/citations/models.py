"""The cited answer and the oracle's report as pydantic models, with the reasons, flags and policies they use."""

from __future__ import annotations

import json
import sys
from enum import Enum
from typing import Any, Literal, Optional

from pydantic import BaseModel, ConfigDict, Field, field_validator

from .options import POLICIES, POLICY_REJECT, POLICY_STRIP, RENDER_FORMATS  # noqa: F401 - importable from here too

if sys.version_info >= (3, 11):
    from enum import StrEnum
else:  # pragma: no cover - Python 3.10

    class StrEnum(str, Enum):
        """enum.StrEnum of Python 3.11: members are their string values."""

        def __str__(self) -> str:
            return str(self.value)


class Reason(StrEnum):
    """Why a statement was rejected. The first two always reject; ``UNGROUNDED_NUMBER`` rejects only with
    strict_numbers (otherwise it is a flag on an accepted statement)."""

    UNSUPPORTED = "unsupported"
    INVALID_CITATION = "invalid_citation"
    UNGROUNDED_NUMBER = "ungrounded_number"


REASON_UNSUPPORTED = Reason.UNSUPPORTED
REASON_INVALID_CITATION = Reason.INVALID_CITATION
REASON_UNGROUNDED_NUMBER = Reason.UNGROUNDED_NUMBER
#: The reasons' values, in the order reports count them.
REASONS: tuple[str, ...] = tuple(reason.value for reason in Reason)
#: Flags on accepted statements (plain strings).
FLAG_UNGROUNDED_NUMBER = Reason.UNGROUNDED_NUMBER.value
FLAG_STRIPPED_CITATION = "stripped_citation"
FLAGS: tuple[str, ...] = (FLAG_UNGROUNDED_NUMBER, FLAG_STRIPPED_CITATION)

Policy = Literal["reject", "strip"]
RenderFormat = Literal["text", "markdown", "html"]


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
    citation_id: Optional[str] = None
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
