"""What a slice of text costs an LLM, estimated without a tokenizer: region sizes are budgets in tokens.

Region assembly (search/regions.py) bounds how far a region grows around its anchors. A bound in characters
is several times looser for Korean than for English: cl100k spends about a quarter of a token on an English
character and more than one on a Hangul syllable. The estimate weighs each character by its class, the
weights fitted by least squares to the exact cl100k counts of 2,332 units (korean_dev's four reports,
sample_pdfs and a finqa_dev 10-Q): the sum over each set is within 1% of the exact count, and 80% of the
units of more than 20 tokens are between 11% under and 14% over. It keeps semantic_json free of a tokenizer
at search time (the estimate is stored per unit in the index, token_costs).
"""

from __future__ import annotations

from typing import Any

import numpy as np

#: Estimated cl100k tokens per character, by class (see the module docstring).
HANGUL_TOKENS = 1.351
LETTER_TOKENS = 0.133
SPACE_TOKENS = 0.312
DIGIT_TOKENS = 0.719
PUNCTUATION_TOKENS = 0.844
#: Any other character: symbols such as ㎡, △, ·, curly quotes; CJK ideographs; accented letters.
OTHER_TOKENS = 2.315
#: The weight of each ASCII character by its code.
_ASCII = [SPACE_TOKENS if chr(c).isspace() else LETTER_TOKENS if chr(c).isalpha() else
          DIGIT_TOKENS if chr(c).isdigit() else PUNCTUATION_TOKENS for c in range(128)]


def estimated_tokens(text: str) -> int:
    """The estimated cl100k token count of ``text`` (see the module docstring), at least 1 for non-empty text."""
    if not text:
        return 0
    total = 0.0
    for char in text:
        code = ord(char)
        if code < 128:
            total += _ASCII[code]
        elif 0xAC00 <= code <= 0xD7A3:
            total += HANGUL_TOKENS
        else:
            total += OTHER_TOKENS
    return max(1, round(total))


def unit_costs(units: Any, text: str) -> list[int]:
    """The estimated tokens of each of ``units`` (objects with start_char/end_char) of ``text``."""
    return [estimated_tokens(text[u.start_char:u.end_char]) for u in units]


def cumulative_costs(doc: Any, text: str | None) -> np.ndarray:
    """0 followed by the running sum (int64) of the estimated tokens of ``doc``'s units (a stored layout's
    token_costs; else computed from ``text``; else, for a layout stored before the costs were, four
    characters a token, as English reads on average)."""
    costs = getattr(doc, "token_costs", None)
    if costs is None:
        units = doc.units
        costs = unit_costs(units, text) if text is not None else [(u.end_char - u.start_char) // 4 for u in units]
    return np.concatenate(([0], np.cumsum(np.asarray(costs, dtype=np.int64))))
