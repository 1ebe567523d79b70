"""The choices a check of a cited answer takes: its policies for unknown citation ids and the formats an
answer renders to. Plain names with no model behind them, so a command line can declare its options
without loading the answer models."""

from __future__ import annotations

#: Reject a statement that cites an id the result does not hold (the default).
POLICY_REJECT = "reject"
#: Remove unknown ids from a statement and keep it while a valid id remains.
POLICY_STRIP = "strip"
POLICIES: tuple[str, ...] = (POLICY_REJECT, POLICY_STRIP)

#: Formats render_answer() writes.
RENDER_FORMATS: tuple[str, ...] = ("text", "markdown", "html")
