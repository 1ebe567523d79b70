"""Which filing a document is: company, form and reporting period, read from its own cover page.

A question over many reports names the company, the period and often the form ("3M's FY2018 10-K",
"AMCOR's Q2 of FY2023"); no table row says any of that. The SEC cover page does ("FORM 10-K", "For the
fiscal year ended December 31, 2018", the registrant's exact name above "(Exact name of registrant as
specified in its charter)"), and so does a Korean report's cover (사업보고서, 사업연도, 회사명).

``filing_profile`` returns what it found as a dict and a one-line ``profile`` text; ingest stores it with
the document, and the repository's document prior matches questions against it.
"""

from __future__ import annotations

import re

from docling_core.types.doc import ContentLayer, DoclingDocument, TableItem, TextItem

from .titles import MONTH_NAMES

#: Pages read from the front of the document for the cover facts.
COVER_PAGES = 3
#: Text items read at most (a cover never needs more).
COVER_MAX_ITEMS = 400

FORM = re.compile(r"\bform\s+(10-k(?:/a)?|10-q(?:/a)?|8-k|20-f|40-f|6-k|s-1|10-kt)\b", re.IGNORECASE)
KOREAN_FORM = re.compile(r"(사업보고서|분기보고서|반기보고서|감사보고서)")
_MONTH = r"(?:" + MONTH_NAMES + r")"
PERIOD = re.compile(
    r"for\s+the\s+(?P<kind>fiscal\s+year|year|quarterly\s+period|quarter|transition\s+period)\s+ended\s*:?\s*"
    r"(?P<date>" + _MONTH + r"\s+\d{1,2}\s*,?\s*(?P<year>(?:19|20)\d{2}))",
    re.IGNORECASE,
)
REPORT_DATE = re.compile(
    r"date\s+of\s+report[^:]{0,60}:?\s*(?P<date>" + _MONTH + r"\s+\d{1,2}\s*,?\s*(?P<year>(?:19|20)\d{2}))",
    re.IGNORECASE,
)
KOREAN_PERIOD = re.compile(r"사업\s*연도\s*(?P<year>(?:19|20)\d{2})\s*년")
REGISTRANT_NOTE = re.compile(r"exact\s+name\s+of\s+(?:the\s+)?registrant", re.IGNORECASE)
KOREAN_COMPANY = re.compile(r"회\s*사\s*명\s*[:：]\s*(?P<name>[^\s(]+)")
#: Cover lines that are never the registrant's name.
NOT_A_NAME = re.compile(r"commission|file\s+n(?:o|umber)|transition\s+period|\d{3}-\d{4,}|^\(|^_+$", re.IGNORECASE)
#: A registrant name line is at most this long.
NAME_MAX_CHARS = 80


def _cover_texts(doc: DoclingDocument) -> list[str]:
    texts: list[str] = []
    for item, _level in doc.iterate_items(with_groups=False, included_content_layers={ContentLayer.BODY, ContentLayer.FURNITURE}):
        if not isinstance(item, (TextItem, TableItem)) or not item.prov:
            continue
        if item.prov[0].page_no > COVER_PAGES:
            break
        if isinstance(item, TableItem):  # a cover laid out as a grid: its cells, row by row
            lines = [cell.text for row in item.data.grid for cell in row if cell.text.strip()]
        else:
            lines = [item.text]
        texts.extend(" ".join(line.split()) for line in dict.fromkeys(lines) if line.strip())
        if len(texts) >= COVER_MAX_ITEMS:
            break
    return texts


def _registrant(texts: list[str]) -> str | None:
    """The line right above "(Exact name of registrant as specified in its charter)"."""
    for i, text in enumerate(texts):
        if REGISTRANT_NOTE.search(text):
            for previous in reversed(texts[max(i - 3, 0) : i]):
                if 1 < len(previous) <= NAME_MAX_CHARS and not set(previous) <= set("_-–— ") \
                        and not NOT_A_NAME.search(previous):
                    return previous
            return None
    return None


def filing_profile(doc: DoclingDocument) -> dict[str, str]:
    """Cover facts of a filing: ``company``, ``form``, ``period`` (as printed), ``fiscal_year``, and a
    ``profile`` line joining them ("Netflix, Inc. · FORM 10-K · fiscal year ended December 31, 2017 · FY2017").
    Empty when the document has no recognisable cover."""
    texts = _cover_texts(doc)
    joined = " \n ".join(texts)
    facts: dict[str, str] = {}
    company = _registrant(texts)
    korean_company = KOREAN_COMPANY.search(joined)
    if company is None and korean_company:
        company = korean_company.group("name")
    if company:
        facts["company"] = company
    form = FORM.search(joined) or KOREAN_FORM.search(joined)
    if form:
        facts["form"] = form.group(1).upper() if form.re is FORM else form.group(1)
    period = PERIOD.search(joined) or REPORT_DATE.search(joined)
    korean_period = KOREAN_PERIOD.search(joined)
    if period:
        facts["period"] = " ".join(period.group(0).split())
        facts["fiscal_year"] = period.group("year")
    elif korean_period:
        facts["period"] = korean_period.group(0)
        facts["fiscal_year"] = korean_period.group("year")
    if not facts:
        return {}
    parts = [facts.get("company"), f"FORM {facts['form']}" if facts.get("form", "").isascii() and "form" in facts
             else facts.get("form"), facts.get("period"), f"FY{facts['fiscal_year']}" if "fiscal_year" in facts else None]
    facts["profile"] = " · ".join(p for p in parts if p)
    return facts
