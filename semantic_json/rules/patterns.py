"""What report text says, one rule each: figures, years, units, captions and list markers, in English and
Korean.

Every module of the package asks here ("is this cell a number?", "is this line a caption?"), so a rule
changes in one place. ``semantic_json`` may not import this package; it keeps a copy of the caption and
list-marker rules in ``semantic_json/patterns.py``, and ``tests/test_patterns.py`` holds both to one table
of examples.

Nothing here converts a value: a figure is recognised as printed ("(1,234)", "₩ 50.000", "12.5%p"), and
stays text.
"""

from __future__ import annotations

import re
import unicodedata

# --------------------------------------------------------------------------------------------
# Figures
# --------------------------------------------------------------------------------------------

#: Currency signs and codes printed before an amount ("$ 1,234", "USD 12", "₩50,000").
CURRENCY_SIGNS = "$€£¥₩￦"
CURRENCY_CODES = ("US$", "USD", "KRW", "EUR", "JPY", "GBP")
_CURRENCY = r"(?:" + "|".join(re.escape(code) for code in CURRENCY_CODES) + r"|[" + re.escape(CURRENCY_SIGNS) + r"])"
CURRENCY_RE = re.compile(_CURRENCY, re.IGNORECASE)
#: Units and scales printed right after a figure: percent and percentage points, basis points, multiples,
#: thousands/millions/billions, and Korean amounts and counts ("백만원", "억", "명", "배").
FIGURE_UNITS = (
    "%p", "%", "pp", "p", "bps", "bp", "x", "bn", "mn", "k", "m", "b",
    "백만원", "천원", "억원", "조원", "만원", "원", "억", "조", "만", "배", "주", "개", "명", "건", "년", "월", "일", "회", "점",
)
_UNIT = r"(?:" + "|".join(re.escape(unit) for unit in FIGURE_UNITS) + r")"
#: Digits as printed: thousands grouped by comma, dot, apostrophe or a (thin) space, then decimals.
_DIGITS = r"(?:\d{1,3}(?:[,.'’\u2009\u202f ]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)"
_SIGN = r"[-+−–]"
#: Footnote marks printed after a figure: "1,234*", "56†", "7¹".
_FOOTNOTE_MARK = r"(?:[*†‡§]+|[¹²³⁴⁵⁶⁷⁸⁹⁰]+)"
#: A figure as printed: [bracket] [≥] [sign] [currency] [bracket] [sign] digits [unit] [bracket] [%] [mark].
FIGURE_RE = re.compile(
    r"^[(（\[]?\s*(?:[≥≤<>]\s*)?" + _SIGN + r"?\s*(?:" + _CURRENCY + r"\s*)?[(（]?\s*" + _SIGN + r"?\s*"
    + _DIGITS + r"\s*" + _UNIT + r"?\s*[)）\]]?\s*(?:%p?)?\s*" + _FOOTNOTE_MARK + r"?$",
    re.IGNORECASE,
)
#: A ratio as printed: "2.1:1", "1 : 1.5" (a current ratio, a coverage, a split).
RATIO_RE = re.compile(r"^\d+(?:\.\d+)?\s?:\s?\d+(?:\.\d+)?$")
#: What a table prints where a figure is nil or not given: a dash, "n/a", "nm" (not meaningful), "nil".
NIL_RE = re.compile(r"^(?:[-−–—‒―]+|n/?a|n\.a\.|n\.?m\.?|nil)$", re.IGNORECASE)


def is_number(text: str) -> bool:
    """True for a cell printed as a figure: an amount, a percentage, a ratio or a count, with its sign,
    parentheses (a negative), currency, unit and footnote mark ("(1,234)", "USD 12", "3.5M", "12.5pp",
    "1,234†", "≥ 5", "2.1:1"), or a nil mark standing for one ("-", "n/a", "nm"). Years are numbers too; see
    :func:`is_quantity`."""
    text = text.strip()
    return bool(text) and bool(FIGURE_RE.match(text) or RATIO_RE.match(text) or NIL_RE.match(text))


#: A year used as a label: "2024", "FY2024", "FY 2023", "2024E", "2024년", "2023년도", "Q1 2024", "'23".
YEAR_RE = re.compile(
    r"^(?:(?:FY|CY|H[12]|Q[1-4])\s?)?'?(?:19|20)\d{2}\s?(?:년도|년|[A-Za-z])?$|^'\d{2}$", re.IGNORECASE
)


def is_year(text: str) -> bool:
    """True for a year label ("2024", "FY2023", "2024년", "2024E"): header material, not data."""
    return bool(YEAR_RE.match(text.strip()))


def is_quantity(text: str) -> bool:
    """True for a figure that is data: :func:`is_number` but not a year used as a label."""
    return is_number(text) and not is_year(text)


def is_currency(text: str) -> bool:
    """True for a currency sign or code printed on its own ("$", "₩", "USD")."""
    return bool(CURRENCY_RE.fullmatch(text.strip()))


# --------------------------------------------------------------------------------------------
# Unit statements
# --------------------------------------------------------------------------------------------

#: A unit statement: "(Millions, except per share amounts)", "(in thousands)", "($ in Millions, except EPS)",
#: "Dollars in millions", "(단위: 백만원)", "단위 : 천원". Group ``unit`` is the statement without brackets.
UNIT_STATEMENT = re.compile(
    r"""[(（\[]\s*(?P<unit>[^()（）\[\]]{0,40}?\b(?:thousands|millions|billions)\b[^()（）\[\]]{0,60}
                   |단위\s*[:：]?\s*[^()（）\[\]]{1,30})\s*[)）\]]
      | (?P<bare>(?:(?:\$|\b(?:amounts|dollars|U\.S\.\s*dollars|USD))(?:\s+and\s+shares)?\s+)?\bin\s+(?:thousands|millions|billions)
                 (?:\s+of\s+(?:U\.S\.\s+)?dollars)?(?:,?\s+except\s+(?:per\s+share|share|where)[\w\s,]*)?
                 |\b(?:thousands|millions|billions)\s+of\s+(?:U\.S\.\s+)?dollars
                 |단위\s*[:：]\s*\S+)""",
    re.IGNORECASE | re.VERBOSE,
)


def find_unit(text: str) -> str | None:
    """The unit a text states ("Millions, except per share amounts", "단위: 백만원"), or None."""
    match = UNIT_STATEMENT.search(text)
    if match is None:
        return None
    return " ".join((match.group("unit") or match.group("bare")).split()).strip(" ,;")


def strip_unit(text: str) -> str:
    """``text`` without its unit statement ("($ in Millions, except EPS) 2023" → "2023")."""
    return " ".join(UNIT_STATEMENT.sub(" ", text).split()).strip(" ,;")


def is_unit_alone(text: str) -> bool:
    """True for a unit statement and nothing else ("(In millions)", "(단위: 백만원)")."""
    return find_unit(text) is not None and not strip_unit(text)


# --------------------------------------------------------------------------------------------
# Captions
# --------------------------------------------------------------------------------------------

#: Caption-like text longer than this is a paragraph that happens to start with "Table".
CAPTION_MAX_CHARS = 400
#: Words that label a table's caption, English and Korean.
TABLE_LABELS = r"appendix\s+table|table|tab\.|exhibit|schedule|표"
#: Words that label a figure's caption.
FIGURE_LABELS = r"figure|fig\.?|chart|graph|그림|도표|차트"
#: Other numbered captions ("Example 2:", "Listing 1.").
OTHER_LABELS = r"example|listing"
#: A table's or figure's number: "3", "2.1", "A-1", "4-2"; a caption's may end in a letter ("3a").
_NUMBER = r"[A-Z]?[-.]?\d+(?:[.\-–]\d+)*"
_CAPTION_NUMBER = _NUMBER + r"[A-Za-z]?"
_OPENERS, _CLOSERS = "<〈《[(（【", ">〉》])）】"
#: The label and number that open a caption, bare ("Table 3", "표 2") or in brackets ("<표 1>", "[Table 4]",
#: "《표 1 매출 현황》"); group ``kind`` is the label word of a bare one.
_CAPTION_HEAD = (
    r"^\s*(?:[" + re.escape(_OPENERS) + r"]\s*(?:LABELS)\s*" + _CAPTION_NUMBER
    + r"[^" + re.escape(_CLOSERS) + r"]{0,40}[" + re.escape(_CLOSERS) + r"]"
    r"|(?P<kind>LABELS)\s*" + _CAPTION_NUMBER + r"(?=[:.\-–—)\s]|$)[:.\-–—)]?)"
)
TABLE_CAPTION = re.compile(_CAPTION_HEAD.replace("LABELS", TABLE_LABELS), re.IGNORECASE)
CAPTION = re.compile(_CAPTION_HEAD.replace("LABELS", "|".join((TABLE_LABELS, FIGURE_LABELS, OTHER_LABELS))), re.IGNORECASE)
#: Text that opens with a figure's label: "Figure 1:", "Fig. 2", "Figure: …", "그림 1", "<그림 2>", "Chart 4";
#: not "Figures in millions" nor "Chart of accounts".
FIGURE_CAPTION = re.compile(
    r"^\s*[" + re.escape(_OPENERS) + r"]?\s*(?:fig\.|fig\b|figure\b|그림|(?:chart|graph|도표|차트)\s*\d)", re.IGNORECASE
)
#: A caption followed by these words still is one: "Table 3 continued".
_CONTINUED = re.compile(r"^(?:continued|cont(?:'d|\.))", re.IGNORECASE)


def _caption_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The caption head of ``text`` when the text is a caption: not longer than CAPTION_MAX_CHARS and not a
    sentence about a table ("Table 3 shows ...": a bare label followed by a lower-case word)."""
    match = pattern.match(text)
    if match is None or len(text) > CAPTION_MAX_CHARS:
        return None
    rest = text[match.end():].lstrip()
    bare_label = match.group("kind") is not None and match.group()[-1:].isalnum()
    if bare_label and rest[:1].islower() and not _CONTINUED.match(rest):
        return None
    return match


def is_caption(text: str) -> bool:
    """True for a table or figure caption in English or Korean ("Table 3:", "Figure 1.", "표 2.", "<표 1>",
    "[그림 4] …", "Table A-1 Terms", "Graph 3:"); "Table 3 shows ..." (a sentence about a table) is not one."""
    return _caption_match(CAPTION, text) is not None


def is_table_caption(text: str) -> bool:
    """True for a caption of a table (:func:`is_caption` with a table's label: Table, Exhibit, Schedule, 표)."""
    return _caption_match(TABLE_CAPTION, text) is not None


def is_figure_caption(text: str) -> bool:
    """True for text that opens with a figure's label, numbered or not: never a table's caption."""
    return bool(FIGURE_CAPTION.match(text))


def table_label(caption: str | None) -> str | None:
    """The number a table caption gives its table ("3" for "Table 3:" or "<표 3>"), upper case, if any: read
    as :func:`referenced_tables` reads a mention, so a caption and the paragraphs citing it agree."""
    if not caption or not is_table_caption(caption):
        return None
    match = TABLE_REFERENCE.search(caption)
    return match.group(1).upper() if match else None


#: A mention of a numbered table inside running text: "Table 3", "table 2-1", "표 3", "<표 4>", "[표 2]".
TABLE_REFERENCE = re.compile(
    r"(?:\b(?:table|tab\.)\s*|[" + re.escape(_OPENERS) + r"]?\s*표\s*)(" + _NUMBER + r")(?![\d])", re.IGNORECASE
)


def referenced_tables(text: str) -> set[str]:
    """Numbers of the tables a paragraph mentions ("Table 3 shows ..." → {"3"}), upper case."""
    return {m.group(1).upper() for m in TABLE_REFERENCE.finditer(text)}


# --------------------------------------------------------------------------------------------
# List markers
# --------------------------------------------------------------------------------------------

#: A glyph that opens a bulleted list item.
BULLETS = "•·▪▫‣►▶▷▸▹○◦●■□◆◇❖➢➤✓✔-–—*※→⁃∙"
#: An enumerator that opens a numbered list item: "1.", "1)", "(1)", "a.", "(a)", "가.", "(가)", "①", "i.".
_ENUM = r"(?:\(?\d{1,3}[.)]|\(\d{1,3}\)|\(?[a-zA-Z][.)]|\([a-zA-Z]\)|[ivxIVX]{1,4}[.)]|\(?[가-하][.)]|[①-⑳])"
ENUMERATOR_RE = re.compile(rf"^{_ENUM}$")
LIST_ITEM_RE = re.compile(rf"^(?:[{re.escape(BULLETS)}]|{_ENUM})\s+\S")
#: Unicode categories of glyphs that act as bullets when they open a line alone: symbols, private-use
#: code points and the control codes that symbol fonts often map their glyphs to.
BULLET_CATEGORIES = frozenset({"So", "Sm", "Co", "Cc"})
#: Symbols that open text without being bullets ("© 2024 ...").
NOT_BULLETS = "©®™℗℠°"


def is_bullet(glyph: str) -> bool:
    """True for one glyph that opens a bulleted item: one of BULLETS or a symbol-like character."""
    if len(glyph) != 1 or glyph in NOT_BULLETS:
        return False
    return glyph in BULLETS or unicodedata.category(glyph) in BULLET_CATEGORIES


def is_list_item(text: str) -> bool:
    """True for text opening with a bullet or an enumerator followed by a space ("• Revenue", "(1) 개요")."""
    if LIST_ITEM_RE.match(text):
        return True
    head, _, rest = text.partition(" ")
    return is_bullet(head) and bool(rest.strip())


def split_marker(text: str) -> tuple[str, str]:
    """The bullet or enumerator opening a list item, and the rest ("" and the text when there is none)."""
    head, _, rest = text.partition(" ")
    if rest.strip() and (is_bullet(head) or ENUMERATOR_RE.match(head)):
        return head, rest.strip()
    return "", text
