"""Report-text rules the layout reader needs: captions and list markers, in English and Korean; and lead-ins.

The caption and list-marker rules are a copy of ``semantic_json/rules/patterns.py``'s rules of the same names:
``semantic_json`` may not import ``evidence_chunker`` (the layering rule), so it keeps its own, and
``tests/test_patterns.py`` holds both copies to one table of examples. Change both together. The lead-in
rule is semantic_json's own (region assembly uses it).
"""

from __future__ import annotations

import re
import unicodedata

# --------------------------------------------------------------------------------------------
# Captions
# --------------------------------------------------------------------------------------------

#: Caption-like text longer than this is a paragraph that happens to start with "Table".
CAPTION_MAX_CHARS = 400
#: Words that label a caption: a table's, a figure's, or another numbered one ("Example 2:").
CAPTION_LABELS = (
    r"appendix\s+table|table|tab\.|exhibit|schedule|표"
    r"|figure|fig\.?|chart|graph|그림|도표|차트"
    r"|example|listing"
)
#: A caption's number: "3", "2.1", "A-1", "4-2", "3a".
_CAPTION_NUMBER = r"[A-Z]?[-.]?\d+(?:[.\-–]\d+)*[A-Za-z]?"
_OPENERS, _CLOSERS = "<〈《[(（【", ">〉》])）】"
#: The label and number that open a caption, bare ("Table 3", "표 2") or in brackets ("<표 1>", "[Table 4]",
#: "《표 1 매출 현황》"); group ``kind`` is the label word of a bare one.
CAPTION = re.compile(
    r"^\s*(?:[" + re.escape(_OPENERS) + r"]\s*(?:" + CAPTION_LABELS + r")\s*" + _CAPTION_NUMBER
    + r"[^" + re.escape(_CLOSERS) + r"]{0,40}[" + re.escape(_CLOSERS) + r"]"
    r"|(?P<kind>" + CAPTION_LABELS + r")\s*" + _CAPTION_NUMBER + r"(?=[:.\-–—)\s]|$)[:.\-–—)]?)",
    re.IGNORECASE,
)
#: A caption followed by these words still is one: "Table 3 continued".
_CONTINUED = re.compile(r"^(?:continued|cont(?:'d|\.))", re.IGNORECASE)


def is_caption(text: str) -> bool:
    """True for a table or figure caption in English or Korean ("Table 3:", "Figure 1.", "표 2.", "<표 1>",
    "[그림 4] …", "Table A-1 Terms", "Graph 3:"), at most CAPTION_MAX_CHARS long; "Table 3 shows ..." (a
    bare label followed by a lower-case word: a sentence about a table) is not one."""
    match = CAPTION.match(text)
    if match is None or len(text) > CAPTION_MAX_CHARS:
        return False
    rest = text[match.end():].lstrip()
    bare_label = match.group("kind") is not None and match.group()[-1:].isalnum()
    return not (bare_label and rest[:1].islower() and not _CONTINUED.match(rest))


# --------------------------------------------------------------------------------------------
# List markers
# --------------------------------------------------------------------------------------------

#: A glyph that opens a bulleted list item.
BULLETS = "•·▪▫‣►▶▷▸▹○◦●■□◆◇❖➢➤✓✔-–—*※→⁃∙"
#: An enumerator that opens a numbered list item: "1.", "1)", "(1)", "a.", "(a)", "가.", "(가)", "①", "i.".
_ENUM = r"(?:\(?\d{1,3}[.)]|\(\d{1,3}\)|\(?[a-zA-Z][.)]|\([a-zA-Z]\)|[ivxIVX]{1,4}[.)]|\(?[가-하][.)]|[①-⑳])"
LIST_ITEM_RE = re.compile(rf"^(?:[{re.escape(BULLETS)}]|{_ENUM})\s+\S")
#: Unicode categories of glyphs that act as bullets when they open a line alone.
BULLET_CATEGORIES = frozenset({"So", "Sm", "Co", "Cc"})
#: Symbols that open text without being bullets ("© 2024 ...").
NOT_BULLETS = "©®™℗℠°"


def is_list_item(text: str) -> bool:
    """True for text opening with a bullet or an enumerator followed by a space ("• Revenue", "(1) 개요")."""
    if LIST_ITEM_RE.match(text):
        return True
    head, _, rest = text.partition(" ")
    symbol = len(head) == 1 and head not in NOT_BULLETS and unicodedata.category(head) in BULLET_CATEGORIES
    return symbol and bool(rest.strip())


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
