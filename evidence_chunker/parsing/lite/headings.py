"""Headings above borderless tables: heading lines over the value columns, the columns each heading
spans (by the rule drawn under it, or by alignment), column labels set so close that they read as one
phrase cut at the columns' gutters (:func:`split_heading_line`), and a lone period heading ("Years
ended") widened over the columns it heads (:func:`widen_lone_headings`); a row of group headings is
centred over its groups in :mod:`.heading_groups`."""

from __future__ import annotations

from typing import NamedTuple, Sequence

from semantic_json.rules.patterns import find_unit, is_caption, is_quantity, is_unit_alone, is_year
from .settings import LiteSettings
from .found_tables import Edge, bound_index
from .text import Line, Phrase, Word, horizontal_overlap, stacked_on


def is_short(phrase: Phrase, settings: LiteSettings) -> bool:
    """A cell-like phrase: few words, narrow for its font size (so CJK prose lines are not short)."""
    return (
        len(phrase.words) <= settings.short_phrase_words
        and phrase.x1 - phrase.x0 <= settings.short_phrase_width * phrase.size
    )


#: A rule marks a heading's span when it runs under this share of the heading, and it is not the
#: heading row's rule when narrower than this share of the table.
_SPANNER_UNDER = 0.8
_SPANNER_MAX_WIDTH = 0.8
#: Another heading of the line is under the same rule when the rule covers this share of it.
_SHARED_RULE = 0.5
#: A single line flush with the table's left edge and wider than this share of it is a title.
_TITLE_WIDTH = 0.4


class Reach(NamedTuple):
    """The horizontal reach of a heading: the rule drawn under it."""

    x0: float
    x1: float


def spanner_rule(
    phrase: Phrase, line: Sequence[Phrase], rules: Sequence[Edge], table_width: float, settings: LiteSettings
) -> Reach | None:
    """A rule drawn just under a heading and wider than it: the heading spans the columns it covers,
    up to the vertical rules on either side of the heading.

    A rule that runs under other headings of the same line too (one rule under all the dates of a
    statement) underlines the heading row, not one heading: it marks no span."""
    width = phrase.x1 - phrase.x0
    for e in rules:
        if not e.horizontal or not phrase.bottom - 1 <= e.top <= phrase.bottom + settings.spanner_gap * phrase.size:
            continue
        overlap = horizontal_overlap(e, phrase)
        if overlap < _SPANNER_UNDER * width or e.x1 - e.x0 <= width + phrase.size or e.x1 - e.x0 > _SPANNER_MAX_WIDTH * table_width:
            continue
        x0, x1 = e.x0, e.x1
        for v in rules:
            if not v.horizontal and v.top <= phrase.mid_y <= v.bottom:
                if x0 < v.x0 <= phrase.x0:
                    x0 = v.x0
                elif phrase.x1 <= v.x0 < x1:
                    x1 = v.x0
        if any(
            q is not phrase and min(x1, q.x1) - max(x0, q.x0) >= _SHARED_RULE * (q.x1 - q.x0)
            and e.top - settings.spanner_gap * q.size <= q.bottom <= e.top + 1
            for q in line
        ):
            continue
        return Reach(x0, x1)
    return None


def column_span(phrase: Phrase | Reach, bounds: list[float], extents: list[tuple[float, float]]) -> tuple[int, int]:
    """First and last column of a phrase: a phrase crossing a gutter spans every column whose printed
    content it overlaps substantially, so a right-aligned heading stays over its own column."""
    width = max(phrase.x1 - phrase.x0, 1e-3)
    cols = []
    for c, (lo, hi) in enumerate(extents):
        overlap = min(phrase.x1, hi) - max(phrase.x0, lo)
        if overlap > 0 and (overlap >= 0.3 * max(hi - lo, 1e-3) or overlap >= 0.5 * width):
            cols.append(c)
    if not cols:
        c = bound_index(bounds, (phrase.x0 + phrase.x1) / 2)
        c = 0 if c is None else c
        return c, c
    return cols[0], cols[-1]


def header_lines_above(
    lines: Sequence[Line],
    start: int,
    x_lo: float,
    x_hi: float,
    gutters: list[tuple[float, float]],
    settings: LiteSettings,
    bounds: list[float] | None = None,
    extents: list[tuple[float, float]] | None = None,
) -> list[Line]:
    """Lines just above a table that read as its column headings (short, inside its width).

    With the table's column ``bounds`` and ``extents``, a heading line's phrases that run over several
    columns are first cut at the gutters (see :func:`split_heading_line`), and a heading centred over
    the outermost column may overhang the table. Section labels ("Net sales:") standing in the first
    column between the headings and the first row are taken along as rows.
    """
    out: list[Line] = []
    sections = 0  # section labels right above the first row, kept only when headings lie above them
    wraps = 0  # upper lines of headings wrapped over several lines: one heading line with the lines below
    k = start - 1
    below = lines[start]
    width = x_hi - x_lo
    while k >= 0 and len(out) < settings.max_header_lines + sections + wraps:
        line = lines[k]
        if bounds is not None and extents is not None:
            line = split_heading_line(line, bounds, extents, settings)
        size = max(line.size, below.size)
        if below.top - line.bottom > settings.header_gap * size:
            break
        if len(out) == sections and _section_label(line, lines[k - 1] if k else None, x_lo, gutters, settings):
            out.insert(0, line)
            sections += 1
            below = line
            k -= 1
            # the rows are indented under their section label ("Numerator" over "Consolidated net income"):
            # the table's left side is the label's, and the headings above may reach it
            x_lo = min(x_lo, line.x0)
            continue
        if _overhangs(line, x_lo, x_hi, extents, settings):
            break
        # the label column's own heading ("(In millions, except per share data)") may be long, running
        # into the gutter up to the first value column's figures, and so may a few words centred over
        # several value columns ("Three Months Ended December 31,"), or words of any number centred over the
        # columns they reach into ("Gain / (Loss) Reclassified from AOCI into Income (Effective Portion)")
        corner = line.phrases[0] if len(line.phrases) >= 2 and line.phrases[0].x1 <= gutters[0][1] else None
        if is_caption(line.text) or not all(
            is_short(p, settings) or p is corner or _over_values(p, gutters, settings)
            or _centred_over_values(p, gutters, extents, settings) for p in line.phrases
        ):
            break
        if line.text.rstrip().endswith(":"):
            break  # an introduction ("... as follows:"), not a heading
        if k > 0 and _paragraph_tail(lines[k - 1], line, settings):
            break
        if len(line.phrases) == 1 and line.phrases[0].x0 <= x_lo + size and line.x1 - line.x0 > _TITLE_WIDTH * width:
            break  # a title-like line flush with the table's left edge
        if len(line.phrases) == 1 and line.size >= settings.heading_size * max(lines[start].size, below.size):
            break  # a line set larger than the table's text and the heading under it: its title ("1. 요약재무정보")
        if len(line.phrases) == 1 and line.phrases[0].x0 <= x_lo + size and line.phrases[0].bold and len(out) == 0 \
                and not any(a < line.x1 for a, _ in gutters) and not unit_label(line, gutters):
            break  # a bold label standing above the first column: a title, not a heading row
        wraps += len(out) > sections and stacked_on(line, below, settings.wrap_gap * size, settings.align_tolerance * size)
        out.insert(0, line)
        below = line
        k -= 1
    # a unit statement alone on the topmost line, over the value columns ("(단위: 백만원)" at the right
    # edge), is the table's unit: it stays in the title block above rather than joining a column's label
    while len(out) > sections and _unit_only(out[0], gutters):
        out.pop(0)
    # the label column's own heading may be a unit alone on the last heading line ("(In millions)" under
    # the years): a heading there, but no heading row on its own right above the first row
    if not sections and all(unit_label(line, gutters) for line in out):
        return []
    return out if len(out) > sections else []


def unit_label(line: Line, gutters: list[tuple[float, float]]) -> bool:
    """True when ``line`` is a unit and nothing else, alone over the label column ("(In millions)")."""
    return len(line.phrases) == 1 and line.x1 <= sum(gutters[0]) / 2 and is_unit_alone(line.text)


def _unit_only(line: Line, gutters: list[tuple[float, float]]) -> bool:
    """True when ``line`` states a unit and nothing else, right of the label column."""
    return line.x0 >= gutters[0][0] and is_unit_alone(line.text)


def _over_values(phrase: Phrase, gutters: list[tuple[float, float]], settings: LiteSettings) -> bool:
    """A phrase of a few words right of the label column that runs across a gutter between two value
    columns: a heading over several of them, however wide its words make it."""
    return (
        len(phrase.words) <= settings.short_phrase_words
        and phrase.x0 >= gutters[0][0]
        and any(phrase.x0 < a and phrase.x1 > b for a, b in gutters[1:])
    )


def _centred_over_values(phrase: Phrase, gutters: list[tuple[float, float]],
                         extents: list[tuple[float, float]] | None, settings: LiteSettings) -> bool:
    """A heading of any length right of the label column, across a gutter between value columns and
    centred over the columns it reaches into ("Gain / (Loss) Reclassified from AOCI into Income")."""
    if extents is None or phrase.x0 < gutters[0][0] or not any(phrase.x0 < a and phrase.x1 > b for a, b in gutters[1:]):
        return False
    under = [(lo, hi) for lo, hi in extents[1:] if hi > phrase.x0 and lo < phrase.x1]
    if not under:
        return False
    lo, hi = min(e[0] for e in under), max(e[1] for e in under)
    return abs(phrase.x0 + phrase.x1 - lo - hi) <= 2 * settings.align_tolerance * phrase.size


def _section_label(line: Line, above: Line | None, x_lo: float, gutters: list[tuple[float, float]],
                   settings: LiteSettings) -> bool:
    """A short label alone in the first column, at most a few em left of the row labels (line items are
    often indented under their section): a section row such as "Current assets:". One without a colon
    ("Cash Flows from Operating Activities"), or one wider than a cell ("Basic Earnings Per Common Share:"),
    is one only under a line of headings over the value columns (``above``): alone over the first column
    it may as well be the table's title, or its first heading; under a row of figures, a table's last row."""
    if len(line.phrases) != 1:
        return False
    phrase = line.phrases[0]
    if not (
        phrase.x1 <= sum(gutters[0]) / 2
        and phrase.x0 >= x_lo - settings.section_indent * phrase.size
        and not is_caption(phrase.text)
    ):
        return False
    if phrase.text.rstrip().endswith(":") and is_short(phrase, settings):
        return True
    # few words; the label column bounds its width (a row label, a section label may be wider than a heading)
    return (len(phrase.words) <= settings.short_phrase_words
            and (find_unit(phrase.text) is None or phrase.text.rstrip().endswith(":"))
            and above is not None and _heads_values(above, line, gutters, settings))


def _heads_values(line: Line, below: Line, gutters: list[tuple[float, float]], settings: LiteSettings) -> bool:
    """True when ``line`` stands right above ``below`` and prints headings over the value columns that are
    not figures ("2022  2021", "December 31,"): the table's heading row."""
    values = [p for p in line.phrases if p.x0 >= gutters[0][0]]
    return (
        below.top - line.bottom <= settings.header_gap * max(line.size, below.size)
        and bool(values)
        and not any(is_quantity(p.text) and not is_year(p.text) for p in values)
    )


def _overhangs(
    line: Line, x_lo: float, x_hi: float, extents: list[tuple[float, float]] | None, settings: LiteSettings
) -> bool:
    """True when ``line`` reaches beyond the table's sides by more than the heading slack; a heading
    centred over the outermost column may (a date wider than the amounts under it)."""
    for p in line.phrases:
        slack = settings.header_slack * max(line.size, p.size)
        if p.x0 >= x_lo - slack and p.x1 <= x_hi + slack:
            continue
        if extents is None:
            return True
        edge = extents[0] if p.x0 < x_lo - slack else extents[-1]
        tol = settings.align_tolerance * p.size
        if abs((p.x0 + p.x1) / 2 - (edge[0] + edge[1]) / 2) > tol:
            return True
    return False


def _alignments(phrase: Phrase, lo: float, hi: float, tol: float) -> set[str]:
    """How ``phrase`` lines up with the printed extent [lo, hi]: any of "left", "right", "centre"."""
    out = set()
    if abs(phrase.x0 - lo) <= tol:
        out.add("left")
    if abs(phrase.x1 - hi) <= tol:
        out.add("right")
    if abs((phrase.x0 + phrase.x1) / 2 - (lo + hi) / 2) <= tol:
        out.add("centre")
    return out


def _aligned_with(phrase: Phrase, lo: float, hi: float, tol: float) -> bool:
    """True when ``phrase`` lines up with the printed extent [lo, hi]: left, right or centred."""
    return bool(_alignments(phrase, lo, hi, tol))


def split_heading_line(
    line: Line, bounds: list[float], extents: list[tuple[float, float]], settings: LiteSettings
) -> Line:
    """A heading line with each phrase that runs over several columns cut into its column labels.

    Column labels set close together ("September 30, 2023 September 24, 2022" over narrow amount
    columns) read as one phrase. A phrase is cut at every word gap that overlaps the gutter between
    two columns it covers, when every piece then lines up with its own column or columns in the same
    way (all centred, all right- or all left-aligned, within ``align_tolerance`` em) and no two pieces
    share a column. A heading that really spans the columns ("Year ended December 31" centred over
    two) does not line up piece by piece and stays whole. Returns ``line`` itself when nothing is cut.
    """
    out: list[Phrase] = []
    changed = False
    for p in line.phrases:
        pieces = _heading_pieces(p, bounds, extents, settings)
        if pieces:
            out.extend(pieces)
            changed = True
        else:
            out.append(p)
    return Line(out) if changed else line


def _heading_pieces(
    phrase: Phrase, bounds: list[float], extents: list[tuple[float, float]], settings: LiteSettings
) -> list[Phrase] | None:
    """The column labels ``phrase`` is made of (see :func:`split_heading_line`), or None."""
    words = phrase.words
    if len(words) < 2:
        return None
    first, last = column_span(phrase, bounds, extents)
    if last <= first:
        return None
    cuts = []
    for k, (a, b) in enumerate(zip(words, words[1:])):
        if any(a.x1 < extents[c + 1][0] and b.x0 > extents[c][1] for c in range(first, last)):
            cuts.append(k + 1)
    if not cuts or not _gutter_gaps(words, cuts):
        return None
    pieces = [Phrase(words[i:j]) for i, j in zip([0] + cuts, cuts + [len(words)])]
    tol = settings.align_tolerance * phrase.size
    previous = -1
    common = {"left", "right", "centre"}
    for piece in pieces:
        lo, hi = column_span(piece, bounds, extents)
        common &= _alignments(piece, extents[lo][0], extents[hi][1], tol)
        if lo <= previous or not common:
            return None
        previous = hi
    return pieces


#: A gap between two columns' labels is wider than the word spaces of a phrase by more than this (em); glyph
#: boxes make equal word spaces measure a few hundredths of an em apart.
WORD_SPACE_MARGIN = 0.03
#: A gap between two words no wider than this (em) is a word space whatever the columns under it: a
#: font's space is a quarter to a third of an em, and two columns' labels never stand that close.
WORD_SPACE_MAX = 0.3


def _gutter_gaps(words: Sequence[Word], cuts: list[int]) -> bool:
    """True when every gap at ``cuts`` (indices of the words that would open a piece) is wider than each
    word space left inside the pieces: labels set close in one phrase ("September 30, 2023 September 24,
    2022") stand further apart than their own words do, while one heading centred over the gutters ("Year
    Ended December 31,") has its words evenly spaced wherever the gutters fall. A phrase cut at every gap
    has no word space to compare with and is judged by alignment alone, unless a cut falls in a gap no
    wider than a space (:data:`WORD_SPACE_MAX`) between two words of letters ("Price Range" centred over
    "High | Low")."""
    size = max(w.size for w in words)
    gaps = [b.x0 - a.x1 for a, b in zip(words, words[1:])]
    if any(gaps[k - 1] <= WORD_SPACE_MAX * size and _lettered(words[k - 1]) and _lettered(words[k]) for k in cuts):
        return False
    cut_gaps = [gaps[k - 1] for k in cuts]
    kept = [g for k, g in enumerate(gaps) if k + 1 not in cuts]
    return not kept or min(cut_gaps) > max(kept) + WORD_SPACE_MARGIN * size


def _lettered(word: Word) -> bool:
    """True for a word with a letter in it (amounts and years in adjacent columns may be set close)."""
    return any(ch.isalpha() for ch in word.text)


def widen_lone_headings(
    placed: list[dict[int, tuple[int, list[Phrase]]]],
    header_zone: int,
    extents: list[tuple[float, float]],
    settings: LiteSettings,
) -> None:
    """Let a heading that stands alone over the value columns span the columns it heads.

    The heading rows of a statement often hold one phrase over all the amounts, such as "Years ended"
    above the dates or "(in millions)" under them, that is too short to reach across them. Such a
    phrase (the only one of its line right of the label column, with another heading line labelling
    at least two columns) spans:

    * the widest group of labelled columns it is centred on (within ``align_tolerance`` em): over an
      even group it sits above a gutter, so it cannot be one column's label; over an odd group only
      when it stands above the labels (a unit line centred under the middle label belongs to it);
    * else, when it stands above the labels, lines up with no column it overlaps and reaches into a
      gutter, all the labelled columns.
    """
    for idx in range(header_zone):
        row = placed[idx]
        values = [f for f in row if f > 0]
        if len(values) != 1 or len(row[values[0]][1]) != 1:
            continue
        first = values[0]
        last, (phrase,) = row[first]
        others = [j for j in range(header_zone) if j != idx and sum(1 for f in placed[j] if f > 0) >= 2]
        if not others:
            continue
        labelled = sorted({
            c for j in range(header_zone) if j != idx for f, (end, _) in placed[j].items() if f > 0
            for c in range(f, end + 1)
        })
        above = any(j > idx for j in others)
        tol = settings.align_tolerance * phrase.size
        centre = (phrase.x0 + phrase.x1) / 2
        best = None
        for i in labelled:
            # the group may start at an unlabelled column just left of its first label: the "$" printed
            # apart from the first amounts, centred over with them
            starts = [i, i - 1] if i > 1 and i - 1 not in labelled else [i]
            for j in labelled:
                if j <= i:
                    continue
                start = next((a for a in starts if abs(centre - (extents[a][0] + extents[j][1]) / 2) <= tol), None)
                if start is None:
                    continue
                columns = sum(1 for c in labelled if i <= c <= j)
                if (columns % 2 == 0 or above) and (best is None or j - start > best[1] - best[0]):
                    best = (start, j)
        if best is None and above and last == first:
            lo, hi = extents[first]
            if not _aligned_with(phrase, lo, hi, tol) and (phrase.x1 > hi + tol or phrase.x0 < lo - tol):
                best = (labelled[0], labelled[-1])
        if best is not None and best[1] - best[0] > last - first and best[0] <= first <= best[1]:
            del row[first]
            row[best[0]] = (best[1], [phrase])


#: A line that prints more than this many short phrases after its first is a row of column labels.
_LABELS_IN_ROW = 2


def _paragraph_tail(above: Line, line: Line, settings: LiteSettings) -> bool:
    """True when ``line`` is the last line of the prose paragraph ending with ``above``; not when all it
    prints after its first phrase is years ("(Millions)  2022  2021" right under a paragraph is a heading
    row, its years over the value columns) or more than _LABELS_IN_ROW short labels (the wrapped label
    column's heading, then "2022  2021  2020  $  %  $  %": prose is not set in pieces), nor when ``above`` ends in a colon: a sentence that ends
    "... were as follows:" announces the table, whose heading line ("($ in millions)  June 30, 2023
    June 30, 2022") comes next, nor when ``above`` is the table's caption ("TABLE 2: TOTAL REVENUES ..."
    over "Years Ended December 31,  Change  Change"): a caption is no paragraph."""
    return (
        len(above.phrases) == 1
        and not above.text.rstrip().endswith(":")
        and not is_caption(above.text)
        and not (len(line.phrases) > 1 and all(is_year(w.text) for p in line.phrases[1:] for w in p.words))
        and not (len(line.phrases) > _LABELS_IN_ROW and all(is_short(p, settings) for p in line.phrases[1:]))
        and not is_short(above.phrases[0], settings)
        and abs(above.x0 - line.x0) <= line.size
        and line.top - above.bottom <= settings.wrap_gap * line.size
    )
