"""Amounts printed in parts, read as one value each: a currency sign or a closing mark in a cell of its
own, a footnote mark raised after an amount, a sign set close after the amount before its own.
"""

from __future__ import annotations

import re

from semantic_json.rules.patterns import ENUMERATOR_RE, is_currency, is_number, is_quantity
from .settings import LiteSettings
from .text import Line, Phrase, Word

#: What may follow an amount in a cell of its own: a closing parenthesis, a percent sign, or both.
_CLOSING_RE = re.compile(r"^(?:\)%?|%)$")


def attach_value_marks(line: Line, settings: LiteSettings) -> Line:
    """The line with currency signs and closing marks printed apart from their amounts joined to them.

    EDGAR renders a statement's amounts over three table cells: "$" at the left of the value column,
    the digits right-aligned, and ")" (or "%") after them; the amount reads as one value. A phrase
    that is only a currency sign joins the amount right after it, separated by one space as printed
    ("$ 298,085"); a phrase that is only ")" or "%" joins the amount right before it without a space
    ("(565)", "(3)%"), a ")" only when it closes a "(" of that amount. A footnote mark printed smaller
    right after an amount joins it after a space ("5,645 (a)"): set between two value columns, it would
    read as a column of its own or as the next amount's. A sign the phrase before took ("(801) $", set
    close after it) goes to the amount after it. Nothing else changes: the text stays a faithful copy
    of the printed characters, never a converted number. Returns ``line`` itself when nothing was joined.
    """
    phrases = _signs_moved_right(line.phrases, settings)
    if len(phrases) < 2:
        return line
    out: list[Phrase] = []
    changed = phrases is not line.phrases
    k = 0
    while k < len(phrases):
        p = phrases[k]
        nxt = phrases[k + 1] if k + 1 < len(phrases) else None
        if (
            nxt is not None
            and len(p.words) == 1
            and is_currency(p.text)
            and is_quantity(nxt.text)
            and not is_currency(nxt.words[0].text)
            and 0 <= nxt.x0 - p.x1 <= settings.currency_gap * max(p.size, nxt.size)
        ):
            out.append(Phrase(list(p.words) + list(nxt.words)))
            changed = True
            k += 2
            continue
        if out and len(p.words) == 1 and _CLOSING_RE.match(p.text) and _closes(out[-1], p, settings):
            last = out[-1]
            a, b = last.words[-1], p.words[0]
            joined = Word(
                text=a.text + b.text, x0=a.x0, top=min(a.top, b.top), x1=b.x1, bottom=max(a.bottom, b.bottom),
                size=a.size, bold=a.bold, font=a.font, orientation=a.orientation,
            )
            out[-1] = Phrase(list(last.words[:-1]) + [joined])
            changed = True
            k += 1
            continue
        if out and _footnote_mark(out[-1], p, settings):
            out[-1] = Phrase(list(out[-1].words) + list(p.words))
            changed = True
            k += 1
            continue
        out.append(p)
        k += 1
    return Line(out) if changed else line


def _signs_moved_right(phrases: list[Phrase], settings: LiteSettings) -> list[Phrase]:
    """``phrases`` with a currency sign that ends an amount's phrase ("(801) $") made a phrase of its
    own when a phrase opening with an amount follows within ``settings.currency_gap`` (the same list
    when there is none)."""
    out: list[Phrase] | None = None
    for k, p in enumerate(phrases[:-1]):
        sign, nxt = p.words[-1], phrases[k + 1]
        if (
            len(p.words) > 1
            and is_currency(sign.text)
            and is_quantity(" ".join(w.text for w in p.words[:-1]))
            and is_quantity(nxt.words[0].text)
            and 0 <= nxt.x0 - sign.x1 <= settings.currency_gap * max(sign.size, nxt.size)
        ):
            if out is None:
                out = list(phrases[:k])
            out.extend((Phrase(list(p.words[:-1])), Phrase([sign])))
        elif out is not None:
            out.append(p)
    if out is None:
        return phrases
    out.append(phrases[-1])
    return out


def _footnote_mark(amount: Phrase, mark: Phrase, settings: LiteSettings) -> bool:
    """True when ``mark`` is an enumerator ("(a)", "1") printed smaller just after the figure ``amount``."""
    return (
        len(mark.words) == 1
        and bool(ENUMERATOR_RE.match(mark.text) or mark.text.isdigit())
        and is_number(amount.text)
        and mark.size < (1.0 - settings.size_jump) * amount.size
        and mark.top < amount.top
        and 0 <= mark.x0 - amount.x1 <= settings.marker_gap * amount.size
    )


def _closes(amount: Phrase, mark: Phrase, settings: LiteSettings) -> bool:
    """True when the lone ")" or "%" ``mark`` ends the amount printed just before it."""
    text = amount.words[-1].text
    if not is_quantity(text) or not (text[-1:].isdigit() or text[-1:] in (")", "%")):
        return False
    if not 0 <= mark.x0 - amount.x1 <= settings.mark_gap * max(amount.size, mark.size):
        return False
    if mark.text.startswith(")"):
        return text[-1] != ")" and text.count("(") > text.count(")")
    return text[-1] != "%"
