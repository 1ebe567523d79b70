"""Group headings over a ruled grid whose "$" signs stand in columns of their own.

CVS Health's results tables print "Year Ended December 31," over 2022, 2021, 2020, then "2022 vs. 2021"
and "2021 vs. 2020" each over a "$" and a "%" column, in lines above a ruled body whose "$" signs are
columns of their own until they are joined to their amounts. "Year Ended December 31," is centred on
"2021" and reaches past it on both sides: it heads all three years, not that column alone. "2022 vs.
2021" is centred on its "$" and "%" columns, and just as well on a run taking in the "$" columns of the
next group: a group ends with a labelled column, never with the sign of the next one ("Change / 2022 vs.
2021 / $: 8,581" for the 2021 vs. 2020 change).
"""

from __future__ import annotations

from evidence_chunker.parsing.lite.heading_groups import centre_over_groups
from evidence_chunker.parsing.lite.settings import LiteSettings
from evidence_chunker.parsing.lite.text import Phrase, Word

#: The ruled body's columns (points): labels; 2022; "$", 2021; "$", 2020; "$", "$" change; "%" change;
#: "$", "$" change; "%" change.
EXTENTS = [(18, 171), (171, 223), (223, 232), (232, 244), (244, 290), (290, 298), (298, 309), (309, 356),
           (356, 364), (364, 375), (375, 419), (419, 470), (470, 479), (479, 489), (489, 533), (533, 594)]
LABELLED = {1, 4, 7, 10, 11, 14, 15}


def _phrase(text: str, x0: float, x1: float) -> Phrase:
    return Phrase([Word(text, x0, 100.0, x1, 108.0, 8.0, True, "Times")])


BELOW = [_phrase("2022", 193, 209), _phrase("2021", 259, 276), _phrase("2020", 325, 342), _phrase("$", 392, 396),
         _phrase("%", 447, 456), _phrase("$", 507, 511), _phrase("%", 562, 570)]


def _spans(row: list[tuple[int, int, list]]) -> list[tuple[int, int]]:
    return [(a, b) for a, b, _ in centre_over_groups(row, [(float(a), float(b)) for a, b in EXTENTS], LABELLED,
                                                     BELOW, LiteSettings())]


def test_a_period_heading_centred_on_the_middle_year_and_wider_heads_all_three():
    row = [(2, 6, [_phrase("Year Ended December 31,", 223, 312)]), (10, 11, [_phrase("2022 vs. 2021", 401, 447)]),
           (14, 15, [_phrase("2021 vs. 2020", 516, 562)])]
    assert _spans(row)[0] == (1, 7)


def test_a_change_group_ends_with_its_own_percent_column():
    row = [(1, 7, [_phrase("Year Ended December 31,", 223, 312)]), (10, 11, [_phrase("2022 vs. 2021", 401, 447)]),
           (14, 15, [_phrase("2021 vs. 2020", 516, 562)])]
    spans = _spans(row)
    assert spans[1] == (10, 11)
    assert spans[2][0] in (12, 13, 14) and spans[2][1] == 15  # the next group, with its "$" signs or not


def test_a_group_heading_never_takes_in_a_year_of_the_next_group():
    """3M's segment table: "Depreciation & Amortization" centred on the middle of its three years, between
    "Assets" (two years) and "Capital Expenditures" (three): of the runs centred on it, the one with each
    year once, not the widest, reaching into the 2021 of "Assets" and the 2022 of "Capital Expenditures"."""
    extents = [(0.0, 100.0)]
    for k in range(8):  # a "$" column and an amount column for each year
        extents += [(100.0 + 50 * k, 110.0 + 50 * k), (110.0 + 50 * k, 150.0 + 50 * k)]
    years = ["2022", "2021", "2022", "2021", "2020", "2022", "2021", "2020"]
    below = [_phrase(year, 125.0 + 50 * k, 145.0 + 50 * k) for k, year in enumerate(years)]
    row = [(3, 3, [_phrase("Assets", 152.0, 178.0)]), (6, 9, [_phrase("Depreciation & Amortization", 235.0, 325.0)]),
           (13, 15, [_phrase("Capital Expenditures", 400.0, 470.0)])]
    spans = [(a, b) for a, b, _ in centre_over_groups(row, extents, set(range(2, 17, 2)), below, LiteSettings())]
    assert spans[1][0] in (5, 6) and spans[1][1] == 10
