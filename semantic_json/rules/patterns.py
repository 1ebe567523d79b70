"""What report text says, one rule each: figures, years, units, captions and list markers, in English and
Korean.

Both packages ask here ("is this cell a number?", "is this line a caption?", "does this sentence only point
elsewhere?"), so a rule changes in one place: the parser, the Evidence Unit builder and the compiler's layout
reader read captions and list markers with the same rules, and the lexical keys and region assembly read
lead-ins, page numbers, figures and cross-references here too.

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


# --------------------------------------------------------------------------------------------
# Lead-ins
# --------------------------------------------------------------------------------------------

#: Text that announces what follows it: a colon at its end, "as follows" / "below", "다음과 같습니다".
LEAD_IN_RE = re.compile(
    r"(?::|\b(?:as\s+follows|(?:set\s+out|shown|presented|summari[sz]ed|listed)\s+below)\s*[.:]?"
    r"|다음과\s*같(?:습니다|다|음)\s*[.:]?|아래와\s*같(?:습니다|다|음)\s*[.:]?)\s*$",
    re.IGNORECASE,
)


#: A page's number printed in its footer or header, read into the body text: "86", "- 12 -", "F-7", "Page 3
#: of 9", "iv".
PAGE_NUMBER_RE = re.compile(
    r"^[-–—\s]*(?:page\s+)?(?:[A-Z]-)?(?:\d{1,4}|(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3}))(?:\s+of\s+\d{1,4})?[-–—\s]*$",
    re.IGNORECASE,
)


def is_page_number(text: str) -> bool:
    """True for a page number alone ("86", "- 12 -", "F-7", "Page 3 of 9"): furniture between a page's last
    sentence and the next page's first."""
    text = text.strip()
    return bool(text) and bool(PAGE_NUMBER_RE.match(text))


#: Where a figure starts: a digit that does not start a year standing alone ("6,098", "(90)", "34.6%", "$0.55", "2.1:1",
#: "2,015"; not "2022", "FY2022", "2020-2021").
FIGURE_DIGIT_RE = re.compile(r"(?<![\d.,])(?!(?:19|20)\d\d(?![\d.,]\d))\d")


def prints_figure(text: str) -> bool:
    """True when ``text`` prints a figure other than a year: a sentence that names a metric without one
    ("could reduce our operating margins") does not give its value."""
    return bool(FIGURE_DIGIT_RE.search(text))


def is_lead_in(text: str) -> bool:
    """True for a sentence that announces the table or list after it: "Sales by product were:", "The
    payments are expected as follows.", "주요 내역은 다음과 같습니다."; a heading alone ("Revenue:") is one too."""
    return bool(LEAD_IN_RE.search(text.rstrip()))


# --------------------------------------------------------------------------------------------
# Cross-references
# --------------------------------------------------------------------------------------------

#: Where a cross-reference points: a note, an item, a page, a section of this report or another filing.
_LOCATION = (
    r"\b(?:notes?|items?|parts?|pages?|sections?|captions?|exhibits?|schedules?|appendix"
    r"|(?:annual|quarterly)\s+report|proxy\s+statement|form\s+10-[kq]|10-[kq]|this\s+report)\b"
)
#: A sentence that only sends the reader elsewhere: "See Note 12 ... for information regarding dividends.",
#: "Refer to Business Segment Results on page 18 for discussion of revenue sharing.", "For additional
#: information, see Item 7.", "The information required by this Item is incorporated herein by reference to
#: the Proxy Statement.", "자세한 내용은 주석 12를 참조하시기 바랍니다."
CROSS_REFERENCE_RE = re.compile(
    r"^\W{0,3}(?:"
    r"(?:see|refer\s+to|please\s+(?:see|refer\s+to)|reference\s+is\s+made\s+to)\b.{0,240}?" + _LOCATION
    + r"|for\s+(?:additional|further|more|a\s+(?:further|more\s+detailed))\s+(?:information|details|discussion|description)\b"
    r"[^;]{0,120}?,?\s*(?:see|refer\s+to|read)\b.{0,200}?" + _LOCATION
    + r"|(?:the\s+)?information\s+(?:required\s+by\s+this\s+item|regarding|about|concerning|on|with\s+respect\s+to)\b"
    r".{0,200}?\b(?:is|are)\s+(?:included|set\s+forth|contained|presented|provided|discussed|incorporated|found)\b"
    r".{0,200}?(?:" + _LOCATION + r"|by\s+reference)"
    r").{0,200}$"
    r"|^[^()]{0,300}(?:참조|참고)\s*(?:하시기\s*바랍니다|하십시오|하여\s*주시기\s*바랍니다|바랍니다|하세요)?\s*\.?\s*\)?$"
    r"|^\W{0,3}(?:주석|註)\s*\d+[^.]{0,40}참조\W{0,3}$",
    re.IGNORECASE | re.DOTALL,
)
#: A filing form's instructions and check boxes ("Indicate by check mark whether the registrant ...",
#: "Large accelerated filer | ☑"): the same on every cover, about the form rather than the company's figures.
#: Only the ballot-box characters count: reports use □, ■ and ✓ as bullets (□ 주요 사업).
FORM_BOILERPLATE_RE = re.compile(r"^\W{0,3}(?:if\s+[^.]{0,80}?,\s*)?indicate\s+by\s+check\s*mark\b|[☐☑☒]",
                                 re.IGNORECASE)
#: A cross-reference is one sentence: longer text says something of its own.
CROSS_REFERENCE_MAX_CHARS = 400


def is_form_boilerplate(text: str) -> bool:
    """True for a filing form's instruction or check box ("Indicate by check mark whether the registrant is a
    shell company", "Emerging growth company | ☐")."""
    return bool(FORM_BOILERPLATE_RE.search(text))


def is_cross_reference(text: str) -> bool:
    """True for a sentence that only points elsewhere ("See Note 12 ... for information regarding dividends.",
    "자세한 내용은 주석 12를 참조하시기 바랍니다."): it names what the answer is about, and holds none of it."""
    text = text.strip()
    return 0 < len(text) <= CROSS_REFERENCE_MAX_CHARS and bool(CROSS_REFERENCE_RE.search(text))
