"""Words → phrases for the lite parser: words joined into phrases by gap and style, phrases split at word
gaps much wider than their usual spacing (dense table columns), figures set closer than a phrase gap split
apart, and list markers attached to the text they open. Coordinates as in :mod:`.text` (points, top-down)."""

from __future__ import annotations

import heapq
import re
import statistics
from typing import Sequence

from semantic_json.rules.patterns import BULLETS, ENUMERATOR_RE, is_currency, is_number
from .settings import LiteSettings
from .text import _MIN_HEIGHT, SYMBOL_FONT_RE, Phrase, Word, same_baseline


#: Height (points) of the horizontal bands open phrases are filed under, so a word is compared only
#: with phrases whose last word shares a band with it (same result as comparing it with all of them).
_BAND = 4.0


#: Words in another size join a phrase only across a gap below this many em (a superscript, a
#: footnote mark).
_STYLE_BREAK_GAP = 0.3


#: Open phrases ending further left than this many phrase gaps before a word can no longer grow.
_OPEN_REACH = 2


def phrases_from_words(words: Sequence[Word], settings: LiteSettings) -> list[Phrase]:
    """Join words on one baseline whose gap is below ``settings.phrase_gap`` em into phrases.

    Words are taken left to right; each joins the open phrase on its baseline that ends just before it
    (the nearest; of equally near ones the first opened). A phrase is closed for good once a word
    starts more than two phrase gaps right of its end. Open phrases are filed by the bands their last
    word covers and closed through a heap of their right ends, so each word meets only its neighbours.
    """
    phrase_gap, backtrack, overlap, size_jump = settings.phrase_gap, settings.backtrack, settings.line_overlap, settings.size_jump
    phrases: list[Phrase] = []
    bands: dict[int, dict[int, Phrase]] = {}  # band -> open phrases whose last word covers it, by rank
    filed: list[range] = []  # rank -> the bands its phrase is filed under
    ends: list[tuple[float, int]] = []  # (x1 when pushed, rank): a min-heap of open phrases' right ends
    for word in sorted(words, key=lambda w: (w.x0, w.top)):
        x0, top, bottom, word_size = word.x0, word.top, word.bottom, word.size
        covered = range(int(top // _BAND), int(bottom // _BAND) + 1)
        if len(covered) == 1:
            candidates = bands.get(covered.start) or {}
        else:
            candidates = {}
            for band in covered:
                members = bands.get(band)
                if members:
                    candidates.update(members)
        best = None
        best_rank = best_gap = None
        for rank in sorted(candidates) if len(candidates) > 1 else candidates:
            phrase = candidates[rank]
            last = phrase.words[-1]
            gap = x0 - last.x1
            last_size = last.size
            size = max(last_size, word_size)
            if gap > phrase_gap * size or gap < -backtrack * size:
                continue
            # same_baseline(last, word), written out: this runs once per word and candidate
            smaller = max(min(last.bottom - last.top, bottom - top), _MIN_HEIGHT)
            if not max(0.0, min(last.bottom, bottom) - max(last.top, top)) >= overlap * smaller:
                continue
            if abs(word_size - last_size) > size_jump * min(word_size, last_size) and gap > _STYLE_BREAK_GAP * size:
                continue
            if best_gap is None or gap < best_gap:
                best, best_rank, best_gap = phrase, rank, gap
        if best is None:
            best, best_rank = Phrase([word]), len(phrases)
            phrases.append(best)
            filed.append(range(0))
            heapq.heappush(ends, (best.x1, best_rank))
        else:
            best.words.append(word)
            if word.x1 > best.x1:
                best.x1 = word.x1
                heapq.heappush(ends, (best.x1, best_rank))
            best.top = min(best.top, top)
            best.bottom = max(best.bottom, bottom)
        if filed[best_rank] != covered:
            _unfile(bands, filed[best_rank], best_rank)
            for band in covered:
                members = bands.get(band)
                if members is None:
                    bands[band] = {best_rank: best}
                else:
                    members[best_rank] = best
            filed[best_rank] = covered
        # phrases ending far to the left can no longer grow (a pushed end older than the phrase's
        # current one is stale and skipped)
        limit = x0 - phrase_gap * word_size * _OPEN_REACH
        while ends and ends[0][0] < limit:
            x1, rank = heapq.heappop(ends)
            if x1 == phrases[rank].x1:
                _unfile(bands, filed[rank], rank)
                filed[rank] = range(0)
    return phrases


def _unfile(bands: dict[int, dict[int, Phrase]], covered: range, rank: int) -> None:
    for band in covered:
        members = bands[band]
        del members[rank]
        if not members:
            del bands[band]


def split_phrases(phrases: list[Phrase], settings: LiteSettings) -> list[Phrase]:
    """Split phrases at word gaps much wider than their usual spacing (dense table columns).

    A gap splits when it exceeds ``settings.split_gap`` em and ``settings.split_ratio`` times the
    phrase's median word gap (the page's median when the phrase has few gaps), so evenly stretched
    justified lines stay whole. A phrase of figures only is then split into its values
    (:func:`split_values`).
    """
    all_gaps = [
        (b.x0 - a.x1) / max(a.size, b.size)
        for p in phrases for a, b in zip(p.words, p.words[1:])
    ]
    if not all_gaps:
        return phrases
    page_gap = statistics.median(all_gaps)
    out: list[Phrase] = []
    for phrase in phrases:
        words = phrase.words
        if len(words) < 2:
            out.append(phrase)
            continue
        gaps = [(b.x0 - a.x1) / max(a.size, b.size) for a, b in zip(words, words[1:])]
        usual = statistics.median(gaps) if len(gaps) >= settings.split_min_gaps else min(page_gap, statistics.median(gaps))
        limit = max(settings.split_gap, settings.split_ratio * usual)
        start = 0
        for k, gap in enumerate(gaps):
            if gap > limit:
                out.append(Phrase(words[start:k + 1]))
                start = k + 1
        out.append(Phrase(words[start:]) if start else phrase)
    return split_values(out)


#: A number printed with a space between its thousands ("1 234"): two words that are one value.
_THOUSANDS_SPLIT_RE = re.compile(r"^[(\-−–]?[$€£¥₩]?\d{1,3}\s\d{3}(?:[.,]\d+)?\)?%?$")


def _value_word(text: str) -> bool:
    return is_currency(text) or text == "%" or (any(ch.isdigit() for ch in text) and is_number(text))


def split_values(phrases: list[Phrase]) -> list[Phrase]:
    """Split a phrase of figures only into one phrase per value: "(420.9) (449.9)" and "2022 2021" are
    two cells of a dense table set closer than a phrase gap, "104.4 $ 92.7 $" two amounts and the next
    one's sign. A value is a figure with the currency sign before it and a "%" after it; a phrase with
    a word that is no figure, or a nil mark ("-", "NM"), stays whole.
    """
    out: list[Phrase] = []
    for phrase in phrases:
        words = phrase.words
        texts = [w.text for w in words]
        if len(words) < 2 or not all(_value_word(t) for t in texts):
            out.append(phrase)
            continue
        figure = [any(ch.isdigit() for ch in t) for t in texts]
        if sum(figure) < 2:
            out.append(phrase)
            continue
        start = 0
        for k in range(1, len(words)):
            opens = is_currency(texts[k]) or (figure[k] and not is_currency(texts[k - 1]))
            if opens and not _THOUSANDS_SPLIT_RE.match(f"{texts[k - 1]} {texts[k]}"):
                out.append(Phrase(words[start:k]))
                start = k
        out.append(Phrase(words[start:]) if start else phrase)
    return out


_DASHES = "-–—−"


#: A lone amount or currency sign, as printed in a table cell: "$", "1,234", "(565)", "12.5%".
_AMOUNT_RE = re.compile(r"^(?:[$€£¥₩]|[(\-−–]?[$€£¥₩]?\s?\d[\d,.]*\)?%?)$")


def attach_list_markers(phrases: list[Phrase], settings: LiteSettings) -> list[Phrase]:
    """Merge a phrase that is only a bullet or enumerator into the phrase right after it on its line;
    a dash followed by an amount or a currency sign is a table's nil value and stays alone."""
    markers = [p for p in phrases if len(p.words) == 1 and _is_marker(p.words[0].text, p.words[0].font)]
    if not markers:
        return phrases
    merged: set[int] = set()
    for marker in markers:
        best = None
        for other in phrases:
            if other is marker or id(other) in merged:
                continue
            gap = other.x0 - marker.x1
            if 0 <= gap <= settings.marker_gap * marker.size and same_baseline(
                marker.top, marker.bottom, other.top, other.bottom, settings.line_overlap
            ):
                if best is None or other.x0 < best.x0:
                    best = other
        if best is None or _is_marker(best.words[0].text, best.words[0].font):
            continue
        if (marker.words[0].text in _DASHES or _AMOUNT_RE.match(marker.words[0].text)) and _AMOUNT_RE.match(best.text):
            # a dash standing for nil, or an amount in parentheses ("(22)"), then the next column's
            # amount or "$": two cells of a table row
            continue
        best.words[:0] = marker.words
        best.refresh()
        merged.add(id(marker))
    return [p for p in phrases if id(p) not in merged]


def _is_marker(text: str, font: str = "") -> bool:
    """A bullet glyph (any single glyph of a symbol font counts) or an enumerator such as "1." or "(a)"."""
    if len(text) == 1 and (text in BULLETS or SYMBOL_FONT_RE.search(font)):
        return True
    return bool(ENUMERATOR_RE.match(text))
