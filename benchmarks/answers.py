"""Whether retrieved text carries a question's answer, and whether the answer is printed in the PDF at all.

"Answer in context" (ans@k in retrieval.py) asks whether every number of a question's ``answer`` is printed
in the text of the top-k results. Many real-report answers are computed ("the quick ratio improved from
0.67 to 0.69", "CAPEX/Revenue 5.1%"): no page prints them, and no retrieval can carry them. So the harness
also reads the text layer of each question's evidence pages, and reports ans@5 over the questions whose
answer those pages print: how much of what can be carried is carried.

Numbers are compared as printed, canonical: separators and a zero decimal part dropped ("1,577.00" is
"1577"); "12.4" is not found inside "112.4".
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Optional, Protocol

from retrieval_systems import extract_page_texts

#: A number as printed: digits with thousands separators and a decimal part ("1,682.5", "34,229", "0.48").
NUMBER = re.compile(r"\d+(?:,\d{3})*(?:\.\d+)?")


class AskedQuestion(Protocol):
    """What this module reads of a question (retrieval.Question has it)."""

    id: str
    pdf: str
    answer: Optional[str]
    evidence_pages: frozenset[int]


def canonical_number(text: str) -> str:
    """``"1,577.00"`` → ``"1577"``: separators dropped, a zero decimal part dropped."""
    plain = text.replace(",", "")
    if "." in plain:
        plain = plain.rstrip("0").rstrip(".")
    return plain


def answer_numbers(answer: str) -> set[str]:
    """The numbers of an answer, canonical (see ``canonical_number``)."""
    return {canonical_number(m.group()) for m in NUMBER.finditer(answer)}


def carries(answer: Optional[str], texts: Iterable[str]) -> Optional[bool]:
    """Whether every number of ``answer`` is printed in ``texts``; None when the answer has no number ("Yes,
    ...", a list of names): the measure is defined over answers that contain numbers."""
    numbers = answer_numbers(answer) if answer else set()
    if not numbers:
        return None
    printed = {canonical_number(m.group()) for text in texts for m in NUMBER.finditer(text)}
    return numbers <= printed


def printed_on_evidence(questions: Sequence[AskedQuestion], pdf_dir: Path) -> dict[str, bool]:
    """Question id → whether its evidence pages print every number of its answer, for the questions whose
    answer has numbers (the others are left out, as ``carries`` leaves them out). A PDF whose pages cannot
    be read is reported on stderr, and its questions are left out too."""
    import pypdfium2 as pdfium

    printed: dict[str, bool] = {}
    for question in questions:
        if not question.answer or not answer_numbers(question.answer):
            continue
        try:
            texts = extract_page_texts(pdf_dir / question.pdf, sorted(question.evidence_pages))
        except (pdfium.PdfiumError, IndexError, OSError) as exc:
            print(f"warning: {pdf_dir / question.pdf}: cannot read evidence pages {sorted(question.evidence_pages)} "
                  f"({exc}); question {question.id} is left out of ans@5 printed", file=sys.stderr)
            continue
        printed[question.id] = bool(carries(question.answer, texts))
    return printed


#: Token budgets of the answer measure (finqa_dev README, "A@k printed"): the results in rank order that fit.
TOKEN_BUDGETS = (600, 1000, 1500, 2500)


def within_budget(texts: Sequence[str], tokens: Sequence[int], budget: int) -> list[int]:
    """Positions of the results, in rank order, that fit in ``budget`` cl100k tokens (at least the first)."""
    kept: list[int] = []
    used = 0
    for position, (_, count) in enumerate(zip(texts, tokens)):
        if kept and used + count > budget:
            break
        kept.append(position)
        used += count
    return kept
