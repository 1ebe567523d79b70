"""Korean and English sentence splitting over character spans.

`split_sentences(text, start, end)` returns [start, end) spans of the sentences in text[start:end], trimmed
of surrounding whitespace, so that text[s:e] is always the exact sentence. The rules:

* a sentence ends at . ! ? 。 ！ ？ … (plus closing quotes/brackets) followed by whitespace or the end;
* a full stop is not an end inside a number ("3.5%"), after an abbreviation ("Inc.", "No.", "e.g."),
  a dotted acronym ("U.S."), a personal initial ("J. Smith"), or an enumerator at the start ("1.", "가.");
  nor when the next word starts lower-case (an unknown abbreviation);
* a Korean full stop may be followed directly by the next sentence ("있다.다만");
* a line that ends in a Korean sentence-final syllable without punctuation ("…증가함", "…있다") ends a
  sentence at the line break (report bullet style);
* a sentence longer than MAX_SENTENCE_CHARS is cut at the last whitespace before that length.
"""

from __future__ import annotations

import re

#: Hard limit on a sentence's length in characters (long run-on text is cut at whitespace).
MAX_SENTENCE_CHARS = 1200

#: Sentence-final Korean syllables that end a sentence at a line break even without punctuation.
KOREAN_FINAL_SYLLABLES = frozenset("다음함임됨요까")

#: Abbreviations after which a full stop never ends a sentence (lower-case, without dots).
NON_TERMINAL_ABBREVIATIONS = frozenset(
    """
    mr mrs ms dr prof st no nos vs fig figs eq eqs ref refs approx e.g eg i.e ie cf p pp vol art sec ch
    para dept est jan feb mar apr jun jul aug sep sept oct nov dec gen gov sen rep rev mt ft al op incl
    excl tel ext min max avg
    """.split()
)
#: Abbreviations that usually sit inside a sentence but may end one: a stop after them ends the sentence
#: only when the next word is capitalised or Korean.
SOFT_ABBREVIATIONS = frozenset("""
    inc ltd corp co plc llc bros etc jr sr
    """.split())
#: Words before a single capital letter that make the letter a name ("Company B."), not an initial.
LETTER_NAME_HEADS = frozenset(
    """
    company firm corp corporation borrower issuer bank group grade class type tier plan option appendix
    schedule exhibit table figure section part note item obligor counterparty client
    """.split()
)

#: Characters before a full stop examined for an abbreviation, acronym or initial.
ABBREVIATION_WINDOW_CHARS = 40

_TERMINATOR = re.compile(r"(?:\.{3}|[.!?。！？…])+[\"'”’)\]»」』]*")
_ENUMERATOR = re.compile(r"\(?(?:\d{1,3}|[A-Za-z]|[ivxIVX]{1,4}|[가-하])[.)]?")
_WORD_BEFORE = re.compile(r"([A-Za-z](?:[A-Za-z.]*[A-Za-z])?)\.?$")
_DOTTED_ACRONYM = re.compile(r"(?:[A-Za-z]\.){2,}$")
_WS = frozenset(" \t\r\n\f\v\u00a0\u3000")


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """[start, end) with surrounding whitespace removed."""
    while start < end and text[start] in _WS:
        start += 1
    while end > start and text[end - 1] in _WS:
        end -= 1
    return start, end


def _next_visible(text: str, pos: int, end: int) -> str:
    while pos < end and text[pos] in _WS:
        pos += 1
    return text[pos] if pos < end else ""


def _is_hangul(ch: str) -> bool:
    return "가" <= ch <= "힣"


def _full_stop_ends_sentence(text: str, sent_start: int, dot: int, after: int, end: int) -> bool:
    """Whether the full stop at `dot` (terminator ends at `after`) closes the sentence begun at `sent_start`."""
    prev = text[dot - 1] if dot > sent_start else ""
    nxt = text[after] if after < end else ""
    if nxt and nxt not in _WS:
        # No space after the stop: only "…다.다만" (Korean stop, then Korean or a capital) is a boundary.
        return _is_hangul(prev) and (_is_hangul(nxt) or nxt.isupper())
    if _ENUMERATOR.fullmatch(text[sent_start:after].strip()):
        return False
    following = _next_visible(text, after, end)
    head = text[max(sent_start, dot - ABBREVIATION_WINDOW_CHARS) : dot + 1]
    if _DOTTED_ACRONYM.search(head):
        return following == "" or "\n" in text[after : after + 2] and (following.isupper() or _is_hangul(following))
    word_match = _WORD_BEFORE.search(text[max(sent_start, dot - ABBREVIATION_WINDOW_CHARS) : dot])
    word = word_match.group(1) if word_match else ""
    lowered = word.lower()
    if lowered in NON_TERMINAL_ABBREVIATIONS:
        return False
    if lowered in SOFT_ABBREVIATIONS:
        return following.isupper() or _is_hangul(following)
    if len(word) == 1 and word.isupper():
        before_words = text[max(sent_start, dot - ABBREVIATION_WINDOW_CHARS) : dot - 1].split()
        head_word = before_words[-1] if before_words else ""
        name_like = not head_word or head_word[0].isupper()
        if name_like and head_word.lower() not in LETTER_NAME_HEADS and following.isupper():
            return False  # a personal initial: "J. Smith"
    if following and following.islower() and following.isascii():
        return False
    return True


def _split_long(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """Cut [start, end) into pieces of at most MAX_SENTENCE_CHARS, at the last whitespace where possible."""
    pieces: list[tuple[int, int]] = []
    while end - start > MAX_SENTENCE_CHARS:
        limit = start + MAX_SENTENCE_CHARS
        cut = max(text.rfind(" ", start + 1, limit), text.rfind("\n", start + 1, limit))
        if cut <= start:
            cut = limit
        s, e = _trim(text, start, cut)
        if e > s:
            pieces.append((s, e))
        start = cut
    s, e = _trim(text, start, end)
    if e > s:
        pieces.append((s, e))
    return pieces


def _line_break_boundaries(text: str, start: int, end: int) -> list[int]:
    """Positions of line breaks that end a Korean sentence written without a full stop."""
    cuts: list[int] = []
    pos = text.find("\n", start, end)
    while pos != -1:
        back = pos - 1
        while back >= start and text[back] in " \t\r":
            back -= 1
        if back >= start and text[back] in KOREAN_FINAL_SYLLABLES:
            cuts.append(pos)
        pos = text.find("\n", pos + 1, end)
    return cuts


def split_sentences(text: str, start: int = 0, end: int | None = None) -> list[tuple[int, int]]:
    """Sentence spans inside text[start:end] (absolute offsets, trimmed, never empty)."""
    end = len(text) if end is None else end
    cuts: list[int] = []
    sent_start = start
    for m in _TERMINATOR.finditer(text, start, end):
        mark = m.group(0)
        dot, after = m.start(), m.end()
        if mark.startswith(".") and not mark.startswith("..."):
            if not _full_stop_ends_sentence(text, sent_start, dot, after, end):
                continue
        else:
            nxt = text[after] if after < end else ""
            if nxt and nxt not in _WS and not _is_hangul(nxt):
                continue
            if mark.startswith(("...", "…")):
                following = _next_visible(text, after, end)
                if following and not (following.isupper() or _is_hangul(following)):
                    continue
        cuts.append(after)
        sent_start = after
    cuts.extend(_line_break_boundaries(text, start, end))
    spans: list[tuple[int, int]] = []
    prev = start
    for cut in sorted(set(cuts)):
        if cut <= prev:
            continue
        spans.extend(_split_long(text, prev, cut))
        prev = cut
    spans.extend(_split_long(text, prev, end))
    return spans
