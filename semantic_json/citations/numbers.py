"""Numbers in report text and their grounding: a sentence's numbers against the numbers of the regions it cites."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NamedTuple, Optional, Union

# A number in a sentence is grounded when one of its cited regions states the same value. Both sides are
# normalised first: full-width digits and signs become ASCII, thousands separators are dropped, Korean units
# are multiplied out (1,200억원 = 1,200억 원 = 120,000,000,000; 3조 2,000억원 = 3.2조), "(56)", "-56" and "△56"
# are -56. Numbers are read whole, so 11,234 never contains 1,234. Matching rules:
#   * same kind (plain / percent / percentage points / times / date) and the same value, or
#   * the sentence adds a unit a table header carries: 1,200억원 or 3.5% against a unitless 1,200 or 3.5, or
#   * the sentence drops a unit: a unitless 1,200 against 1,200억원.
# An unsigned number in a sentence matches either sign, because prose carries signs in words ("영업손실 56억원",
# "fell by 56"); a negative one ("-56", "(56)", "△56") needs a negative number in the region.
# When the region states its scale ("in millions", "단위: 백만원", or the table unit its source carries), a
# scaled amount in the sentence is compared with the region's figures times that scale: "$3,642 million" and
# "$3.6 billion" (rounded, at least two significant digits) are grounded by 3,642 in millions; "$999 million"
# is not grounded by 999 in thousands. Without a stated scale the unit-adding rule above applies.

#: Full-width and typographic characters read as their ASCII forms (one character each, so offsets hold).
_NUMBER_CHAR_MAP = str.maketrans(
    {
        **{chr(0xFF10 + d): str(d) for d in range(10)},
        "，": ",",
        "．": ".",
        "％": "%",
        "（": "(",
        "）": ")",
        "－": "-",
        "＋": "+",
        "\u2212": "-",  # minus sign
        "\u00a0": " ",
        "\u202f": " ",
        "\u3000": " ",
    }
)
_NEEDS_CHAR_MAP_RE = re.compile("[" + re.escape("".join(chr(c) for c in _NUMBER_CHAR_MAP)) + "]")
#: Korean unit characters and their multipliers (천만 = 천 × 만).
KOREAN_SMALL_UNITS = {"십": 10, "백": 100, "천": 1000}
KOREAN_LARGE_UNITS = {"만": 10**4, "억": 10**8, "조": 10**12}
#: English scale words and their multipliers.
ENGLISH_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12, "bn": 10**9, "mn": 10**6}
#: A four-digit integer in this range inside parentheses is a year ("(2024)"), not a negative amount.
PARENTHESISED_YEAR_RANGE = (1900, 2099)
#: Significant digits a rounded amount must keep to be grounded by a more precise figure ("3.6 billion": two).
MIN_ROUNDED_DIGITS = 2
#: Scale words of unit statements and what they multiply by.
STATED_SCALES = {"thousands": 10**3, "millions": 10**6, "billions": 10**9,
                 "천": 10**3, "만": 10**4, "백만": 10**6, "천만": 10**7, "억": 10**8, "십억": 10**9}
_STATED_SCALE_RE = re.compile(
    r"\bin\s+(?P<in>thousands|millions|billions)\b"
    r"|[(\[][^()\[\]]{0,40}?\b(?P<bracket>thousands|millions|billions)\b"
    r"|\b(?P<of>thousands|millions|billions)\s+of\s+(?:U\.S\.\s+)?dollars"
    r"|단위\s*[:：]?\s*(?P<ko>천만|백만|십억|천|만|억)?\s*원",
    re.IGNORECASE,
)
#: Plain integers below this (no unit, sign or decimals: "3 months", "2 segments") are counts more often than
#: figures, and years (YEAR_RANGE, written without separators) are periods a filing states once for many
#: tables: neither is a figure (see is_figure).
COUNT_BELOW = 10
YEAR_RANGE = (1900, 2099)
#: Citation markers the model may leave in a sentence ("[1]", "[2, 3]"); they are not numbers it claims.
_CITATION_MARKER_RE = re.compile(r"\[\d+(?:\s*[,\-–]\s*\d+)*\]")

#: Values of NumberMention.kind: a plain amount, a percentage, percentage points, a multiple (배, x), a date.
NUMBER_KINDS = ("number", "percent", "points", "times", "date")

_NUMBER_RE = re.compile(
    r"""
    (?=[\d\-–△▼])  # every number starts with a digit or a sign: lets the scan skip other characters fast
    (?:
    (?P<date>(?<![\d.,])(?:19|20)\d{2}(?P<dsep>[./-])(?:0?[1-9]|1[0-2])(?P=dsep)(?:0?[1-9]|[12]\d|3[01])(?!\d|[.,]\d))
  | (?:(?<![\w.,)])(?P<sign>[-–△▼]))?
    (?<![A-Za-z\d])(?<!\d[.,])
    (?P<int>\d{1,3}(?:,\d{3})+|\d+)(?P<frac>\.\d+)?
    (?!\d|[.,]\d)
    (?:
        (?P<points>\s?(?:%\s?p(?![A-Za-z])|%\s?포인트|퍼센트\s?포인트|(?i:percentage\s+points?|pp)(?![A-Za-z])))
      | (?P<percent>\s?(?:%|퍼센트|(?i:percent|per\s+cent)(?![A-Za-z])))
      | (?P<times>\s?배(?![당율분상제정출포치송서경])|x(?![A-Za-z\d])|\s?(?i:times|-fold)(?![A-Za-z]))
      | (?P<ko>[십백천]?[만억조]|[십백천])
      | \s(?P<ko_spaced>[십백천]?[만억조])(?=\s?원|[^가-힣]|$)
      | \s?(?P<en>(?i:thousand|million|billion|trillion|bn|mn))(?![A-Za-z])
    )?
    (?P<currency>\s?(?:원(?![리칙가인])|달러|엔|위안|유로))?
    )
    """,
    re.VERBOSE,
)


class NumberMention(NamedTuple):
    """A number found in text.

    `value` is the normalised magnitude (a Decimal with units multiplied out, or (year, month, day) for a
    date); `mantissa` the magnitude as written without its unit (None for compounds such as 3조 2,000억);
    `negative` whether it was written as negative; `has_unit` whether a scale unit followed it.
    """

    surface: str
    kind: str
    value: Union[Decimal, tuple[int, int, int]]
    mantissa: Optional[Decimal]
    negative: bool = False
    has_unit: bool = False


def _korean_multiplier(unit: str) -> int:
    multiplier = 1
    for ch in unit:
        multiplier *= KOREAN_SMALL_UNITS.get(ch) or KOREAN_LARGE_UNITS[ch]
    return multiplier


def _large_unit(unit: Optional[str]) -> int:
    """The 만/억/조 multiplier a Korean unit ends in (0 when it has none)."""
    return KOREAN_LARGE_UNITS.get(unit[-1], 0) if unit else 0


def find_numbers(text: str) -> list[NumberMention]:
    """The numbers of `text` in order, normalised for comparison (see the module notes on grounding)."""
    original = text
    if _NEEDS_CHAR_MAP_RE.search(text):  # translate() is slow on non-ASCII text; most text needs none
        text = text.translate(_NUMBER_CHAR_MAP)
    mentions: list[NumberMention] = []
    # (mention, korean unit, end offset) of the previous number, for 3조 2,000억 compounds
    previous: Optional[tuple[NumberMention, Optional[str], int]] = None
    for match in _NUMBER_RE.finditer(text):
        if match.group("date"):
            year, month, day = (int(part) for part in re.split(r"[./-]", match.group("date")))
            mentions.append(NumberMention(original[match.start() : match.end()], "date", (year, month, day), None))
            previous = None
            continue
        digits = match.group("int")
        mantissa = Decimal(digits.replace(",", "") + (match.group("frac") or ""))
        korean_unit = match.group("ko") or match.group("ko_spaced")
        kind, multiplier = "number", 1
        if match.group("points"):
            kind = "points"
        elif match.group("percent"):
            kind = "percent"
        elif match.group("times"):
            kind = "times"
        elif korean_unit:
            multiplier = _korean_multiplier(korean_unit)
        elif match.group("en"):
            multiplier = ENGLISH_SCALES[match.group("en").lower()]
        start, end = match.start(), match.end()
        negative = match.group("sign") is not None and match.group("sign") != ""
        if (
            not negative
            and kind == "number"
            and multiplier == 1
            and not match.group("currency")
            and start > 0
            and text[start - 1] == "("
            and text[end : end + 1] == ")"
            and not (
                "," not in digits
                and not match.group("frac")
                and PARENTHESISED_YEAR_RANGE[0] <= int(digits) <= PARENTHESISED_YEAR_RANGE[1]
            )
        ):
            negative = True
            start, end = start - 1, end + 1  # the surface keeps its parentheses: "(56)"
        mention = NumberMention(
            surface=original[start:end].strip(),
            kind=kind,
            value=mantissa * multiplier,
            mantissa=mantissa,
            negative=negative,
            has_unit=multiplier != 1,
        )
        if (
            previous is not None
            and not negative
            and _large_unit(korean_unit)
            and _large_unit(previous[1]) > _large_unit(korean_unit)
            and text[previous[2] : start] in ("", " ")
        ):
            # "3조 2,000억": one amount written in two parts.
            head = previous[0]
            mention = NumberMention(
                surface=f"{head.surface}{original[previous[2]:start]}{mention.surface}",
                kind="number",
                value=head.value + mention.value,  # type: ignore[operator]
                mantissa=None,
                negative=head.negative,
                has_unit=True,
            )
            mentions[-1] = mention
        else:
            mentions.append(mention)
        # A currency word closes an amount: "3조원 2,000억원" are two amounts, "3조 2,000억원" one.
        previous = (mention, korean_unit, end) if korean_unit and not match.group("currency") else None
    return mentions


def stated_scale(*texts: str | None) -> int | None:
    """The scale the first text that states one states ("(in millions)" → 10**6, "단위: 백만원" → 10**6,
    "단위: 원" → 1); None when none does or one text states two different scales."""
    for text in texts:
        if not text:
            continue
        scales = set()
        for match in _STATED_SCALE_RE.finditer(text):
            word = match.group("in") or match.group("bracket") or match.group("of")
            scales.add(STATED_SCALES[word.lower()] if word else STATED_SCALES.get(match.group("ko") or "", 1))
        if len(scales) == 1:
            return scales.pop()
        if scales:
            return None
    return None


def _rounds_to(value: Decimal, mention: NumberMention) -> bool:
    """True when `value` rounded to the precision `mention` is written with gives the mention's value."""
    mantissa = mention.mantissa
    if mantissa is None:
        return False
    digits = mantissa.normalize().as_tuple() if mantissa else None
    if digits is None or len(digits.digits) < MIN_ROUNDED_DIGITS:
        return False
    quantum = Decimal(1).scaleb(mantissa.as_tuple().exponent) * (mention.value / mantissa)  # type: ignore[operator]
    return abs(abs(value) - mention.value) * 2 <= quantum  # type: ignore[operator]


@dataclass
class _NumberIndex:
    """The numbers of one region, as sets keyed for the three matching rules (all signs / negatives only)."""

    scaled: set[tuple[str, Any]] = field(default_factory=set)
    scaled_negative: set[tuple[str, Any]] = field(default_factory=set)
    unitless: set[Decimal] = field(default_factory=set)
    unitless_negative: set[Decimal] = field(default_factory=set)
    mantissas: set[Decimal] = field(default_factory=set)
    mantissas_negative: set[Decimal] = field(default_factory=set)
    #: The region's stated scale (None: not stated) and its unitless figures times that scale.
    scale: int | None = None
    amounts: set[Decimal] = field(default_factory=set)
    amounts_negative: set[Decimal] = field(default_factory=set)
    percents: set[Decimal] = field(default_factory=set)

    @classmethod
    def of(cls, text: str, unit: str | None = None) -> "_NumberIndex":
        """The numbers of a region's `text`; `unit` is the table unit its source states, if any."""
        index = cls(scale=stated_scale(unit, text))
        for mention in find_numbers(text):
            index.add(mention)
        return index

    def add(self, mention: NumberMention) -> None:
        """Index one number the region prints (its unitless figures are scaled by `scale`)."""
        if mention.kind == "percent":
            self.percents.add(mention.value)  # type: ignore[arg-type]
        self.scaled.add((mention.kind, mention.value))
        if mention.kind == "date":
            # A date also states its year, month and day ("2024.03.31" grounds "2024년 3월 31일").
            for part in mention.value:  # type: ignore[union-attr]
                self.unitless.add(Decimal(part))
                self.mantissas.add(Decimal(part))
            return
        if mention.negative:
            self.scaled_negative.add((mention.kind, mention.value))
        if mention.mantissa is None:
            return
        self.mantissas.add(mention.mantissa)
        if mention.negative:
            self.mantissas_negative.add(mention.mantissa)
        if mention.kind == "number" and not mention.has_unit:
            self.unitless.add(mention.mantissa)
            if mention.negative:
                self.unitless_negative.add(mention.mantissa)
            if self.scale is not None:
                self.amounts.add(mention.mantissa * self.scale)
                if mention.negative:
                    self.amounts_negative.add(mention.mantissa * self.scale)

    def grounds(self, mention: NumberMention) -> bool:
        """True when this region states `mention` (same value, or the same figure with/without its unit)."""
        if mention.kind == "date":
            if ("date", mention.value) in self.scaled:
                return True
            return all(Decimal(part) in self.unitless for part in mention.value)  # type: ignore[union-attr]
        negative = mention.negative
        if (mention.kind, mention.value) in (self.scaled_negative if negative else self.scaled):
            return True
        if mention.kind == "number" and mention.has_unit and self.scale is not None:
            amounts = self.amounts_negative if negative else self.amounts
            return mention.value in amounts or any(_rounds_to(amount, mention) for amount in amounts)
        if mention.kind == "percent" and any(_rounds_to(value, mention) for value in self.percents):
            return True
        if mention.mantissa is None:
            return False
        if mention.mantissa in (self.unitless_negative if negative else self.unitless):
            return True
        if mention.kind == "number" and not mention.has_unit:
            return mention.mantissa in (self.mantissas_negative if negative else self.mantissas)
        return False


def is_figure(mention: NumberMention) -> bool:
    """False for a small plain count ("3 months", below COUNT_BELOW) and a year written without separators
    (YEAR_RANGE); True for every other number (an amount, a percentage, a date, anything signed or scaled)."""
    mantissa = mention.mantissa
    if (mention.kind != "number" or mention.has_unit or mention.negative or mantissa is None
            or mantissa != mantissa.to_integral_value()):
        return True
    year = "," not in mention.surface and YEAR_RANGE[0] <= mantissa <= YEAR_RANGE[1]
    return not (mantissa < COUNT_BELOW or year)


def figure_lines(sentence: str, text: str, unit: str | None = None) -> list[tuple[int, list[NumberMention]]]:
    """The lines of a region's `text` that print a figure of `sentence` (see is_figure), by the oracle's
    grounding: ``(line number, 0-based; the numbers of that line that ground one, as printed there)`` in
    line order. The region's stated scale (`unit`, else stated in `text`) applies to every line, as it does
    to the whole region. A figure grounded only by numbers of two lines together names no line."""
    figures = [m for m in find_numbers(_CITATION_MARKER_RE.sub(" ", sentence)) if is_figure(m)]
    if not figures:
        return []
    scale = stated_scale(unit, text)
    found = []
    for number, line in enumerate(text.split("\n")):
        printed = []
        for own in find_numbers(line):
            index = _NumberIndex(scale=scale)
            index.add(own)
            if any(index.grounds(figure) for figure in figures):
                printed.append(own)
        if printed:
            found.append((number, printed))
    return found
