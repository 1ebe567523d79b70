"""A filing's primary statements: which tables are its balance sheet, income statement, cash flow statement
and statement of equity, read from their captions.

A question that names a statement ("based on the balance sheet", "according to the statement of cash flows",
재무상태표 기준) asks for the filing's own statement, not for any table whose caption mentions one: a
subsidiary's or an obligor group's balance sheet, a note's "Income Statement Information", a restatement
table, an MD&A summary ("Key Balance Sheet Data"). The repository lifts the rows of the primary statement of
the kind the query names (repository.STATEMENT_MATCH_BONUS).

Which tables are primary, per kind:

1. **Titled.** The table's caption opens with the statement's title: a lexicon term of the kind's concept
   (BALANCE_SHEET: "balance sheet", "statement of financial position", 재무상태표 ...), after nothing but
   qualifiers ("Consolidated", "Condensed", "Unaudited", 연결, 요약 ...). "CITYCENTER HOLDINGS, LLC
   CONSOLIDATED BALANCE SHEETS" and "Key Balance Sheet Data" are not titled so; a group's name may come
   first ("3M Company and Subsidiaries Consolidated Statement of Income", also glued by the text layer:
   "MGM RESORTS INTERNATIONALAND SUBSIDIARIES"), and so may the filer's own name as its cover prints it
   ("SQUARE, INC. CONSOLIDATED BALANCE SHEETS", "JPMorgan Chase & Co. Consolidated statements of income"):
   a name that ends in a legal form and stands in the document's first COVER_CHARS characters (a
   subsidiary's or the parent company's statements are not named on the cover), and a running header of
   Part II, Item 8 ("PART II Item 8 ... INCOME STATEMENTS"). A title ending in a colon labels rows of a
   larger table ("Statements of Operations:" in selected financial data), not a statement.
2. **The first full page.** Titled tables are grouped by the page they start on. The statement is on the
   first page whose titled tables hold at least FULL_SHARE of the units of the fullest page's: a primary
   statement lists every line item, where an MD&A extract holds a few; a note that restates the statement
   comes after it. A statement printed over two pages continues on the next page, whose titled tables of
   the kind are taken too.

A document without titled captions (the parser found no caption, or the statements are images) has no
primary statement: nothing is lifted, nothing is lost.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import numpy as np

from ..lexicon import load_lexicon
from ..model import SemanticDocument
from .region_layout import table_captions

#: The statement kinds, by lexicon concept; a unit's code is its kind's position here plus one (0: none).
STATEMENT_KINDS = ("BALANCE_SHEET", "INCOME_STATEMENT", "CASH_FLOW_STATEMENT", "EQUITY_STATEMENT")
#: Words that may precede a statement's title in its caption without making it another entity's statement.
TITLE_QUALIFIERS = re.compile(
    # the 10-K part and item the statements are printed under, read into the caption from the page's running
    # header ("PART II Item 8 ITEM 8. FINANCIAL STATEMENTS AND SUPPLEMENTARY DATA INCOME STATEMENTS")
    r"(?:(?:part\s+[ivx]+|item\s+8\.?|financial\s+statements\s+and\s+supplementary\s+data)\b[\s.]*)*"
    # the caption's own label: "Table 1:", "Exhibit 3.", "<표 2>", "[표 2]"
    r"(?:(?:table|exhibit|schedule)\s+[a-z]?\d+(?:[.-]\d+)*[a-z]?\b[\s:.]*|[<\[(]?\s*표\s*\d+\s*[>\])]?[\s:.]*)?"
    # the group: "3M Company and Subsidiaries", also with the text layer's "INTERNATIONALAND SUBSIDIARIES"
    r"(?:[^·]*?and\s+(?:consolidated\s+)?subsidiar(?:y|ies)(?:\s+companies)?\b)?"
    r"(?:(?:the|consolidated|combined|condensed|unaudited|interim|separate|and)\b|연결|요약|별도|분기|반기|[\W_])*",
    re.IGNORECASE,
)
#: What may stand between a filer's name and a statement's title ("SQUARE, INC. CONSOLIDATED BALANCE SHEETS").
TRAILING_QUALIFIERS = re.compile(
    r"(?:\b(?:the|consolidated|combined|condensed|unaudited|interim|separate|and)\b|[^\w.&]|\s)*$", re.IGNORECASE)
#: A company's name ends in its legal form ("Inc.", "Corporation", "& Co.", "plc", ...).
LEGAL_FORM = re.compile(
    r"(?:\b(?:inc|incorporated|corp|corporation|company|co|plc|ltd|limited|llc|lp|l\.p|n\.v|s\.a|ag|se|holdings|group)"
    r"|&\s*co)\.?$", re.IGNORECASE)
#: A name longer than this before a title is a sentence, not a name.
FILER_NAME_MAX_CHARS = 80
#: How much of a document's text its cover takes, where the filer's own name is printed.
COVER_CHARS = 4000
#: A page's titled tables are the statement when they hold at least this share of the units of the fullest
#: page's: the first such page is taken (notes that restate a statement follow it).
FULL_SHARE = 0.5
#: Where a caption's title ends: the compiler joins a table's title lines with " · ".
TITLE_SEPARATOR = " · "


def _normalized(text: str) -> str:
    return " ".join(text.split()).lower()


def filer_named(prefix: str, cover: str) -> bool:
    """Whether ``prefix`` (what precedes a statement's title in its caption, qualifiers included) is a
    company's name that the document's cover (``cover``, normalised by ``_normalized``) prints: the filer's
    own name ("SQUARE, INC. CONSOLIDATED BALANCE SHEETS"), not a subsidiary's."""
    name = TRAILING_QUALIFIERS.sub("", prefix)
    if not name or len(name) > FILER_NAME_MAX_CHARS or not LEGAL_FORM.search(name):
        return False
    return _normalized(name) in cover


def statement_kind(caption: str, cover: str = "") -> int:
    """The code of the statement that ``caption`` titles (1 + index in STATEMENT_KINDS), 0 for none.

    ``cover`` is the document's cover text (normalised, see ``primary_statements``): a title may then follow
    the name the cover gives the filer."""
    title = caption.split(TITLE_SEPARATOR, 1)[0].rstrip()
    if title.endswith(":"):
        return 0  # a label of rows in a larger table ("Statements of Operations:" in selected financial data)
    lead = TITLE_QUALIFIERS.match(title).end()
    for match in load_lexicon().find(title):
        named = match.start > lead and match.concept in STATEMENT_KINDS and filer_named(title[: match.start], cover)
        if match.start > lead and not named:
            break
        if match.concept in STATEMENT_KINDS:
            return STATEMENT_KINDS.index(match.concept) + 1
    return 0


#: The primary statement that prints a line item, by lexicon concept: a question about the item ("operating
#: income in 2024") takes the filing's own statement first, as one that names the statement does. Items
#: that notes, segment tables and other statements print as often (revenue, assets, cash) are not listed.
LINE_ITEM_STATEMENTS = {
    **dict.fromkeys(("COST_OF_SALES", "COST_OF_REVENUE", "GROSS_PROFIT", "SGA_EXPENSES", "OPERATING_INCOME",
                     "OPERATING_LOSS", "NET_INCOME", "NET_LOSS", "EPS"), "INCOME_STATEMENT"),
    **dict.fromkeys(("CURRENT_ASSETS", "CURRENT_LIABILITIES", "RETAINED_EARNINGS"), "BALANCE_SHEET"),
    "OPERATING_CASH_FLOW": "CASH_FLOW_STATEMENT",
}


def query_statements(concepts: Sequence[str]) -> frozenset[int]:
    """The codes of the statements a query names, from its lexicon concepts: a statement itself, or the
    statement that prints a line item it names (LINE_ITEM_STATEMENTS)."""
    kinds = (LINE_ITEM_STATEMENTS.get(c, c) for c in concepts)
    return frozenset(STATEMENT_KINDS.index(k) + 1 for k in kinds if k in STATEMENT_KINDS)


def in_statements(codes: np.ndarray, statements: Collection[int]) -> np.ndarray:
    """Per statement code of ``codes`` (a unit's: 0 for none), whether it is one of ``statements``: one look-up
    in a table of every code (np.isin sorts)."""
    codes = np.asarray(codes)
    if codes.dtype != np.uint8:
        return np.isin(codes, np.asarray(list(statements), dtype=np.int64))
    table = np.zeros(256, dtype=bool)  # every uint8 code
    table[np.asarray(list(statements), dtype=np.int64)] = True
    return table[codes]


def _first_page(doc: SemanticDocument, position: int) -> int | None:
    segment = doc.units[position].segment
    if segment is None:
        return None
    pages = doc.segments[segment].page_span
    return min(pages) if pages else None


def primary_statements(doc: SemanticDocument) -> list[int]:
    """Per unit: the code of the primary statement whose table it lies in (caption included), else 0."""
    # kind -> page -> [(first, last)] of the titled tables starting on that page
    titled: dict[int, dict[int, list[tuple[int, int]]]] = {}
    cover = _normalized(doc.text[:COVER_CHARS])
    for first, last, caption in table_captions(doc):
        kind = statement_kind(caption, cover) if caption else 0
        page = _first_page(doc, first) if kind else None
        if page is not None:
            titled.setdefault(kind, {}).setdefault(page, []).append((first, last))
    codes = [0] * len(doc.units)
    for kind, pages in titled.items():
        size = {page: sum(last - first + 1 for first, last in tables) for page, tables in pages.items()}
        best = min(page for page in size if size[page] >= FULL_SHARE * max(size.values()))
        for page in (best, best + 1):
            for first, last in pages.get(page, ()):
                codes[first : last + 1] = [kind] * (last - first + 1)
    return codes
