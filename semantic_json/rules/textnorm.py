"""Word-level normalisation shared by the compiler and the LiteEmbedder.

`normalize_token` maps a surface word to its normalised term: lower-cased Latin words lose a plural or
possessive ending, Korean words lose trailing particles (B기업은 / B기업의 / B기업이 → b기업) and a few
verbal endings (상환하고 → 상환). Function words map to None. Results are cached, so a corpus with a
normal vocabulary pays for each distinct word once.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: A token: a word led by up to three digits and a Latin letter ("3M", "5G", "401k": a name, not a number;
#: four digits are a year, and "2024E" stays the year 2024), a number (keeping decimals and a percent sign,
#: "3.5%") or a word of Latin letters/Hangul/digits.
TOKEN_PATTERN = re.compile(r"(?<![0-9])\d{1,3}[A-Za-z][A-Za-z0-9]*|\d+(?:[.,]\d+)*%?|[A-Za-z가-힣][A-Za-z0-9가-힣]*")

HANGUL_RE = re.compile(r"[가-힣]")
#: A fiscal year as analysts write it ("FY2022", "FY22"): the term is the year itself, as reports print it
#: ("fiscal 2022", "2022"), so a question's "FY2022" matches the rows and the filing of that year.
FISCAL_YEAR_RE = re.compile(r"fy((?:19|20)\d{2}|\d{2})")

#: A period as reports print it, read as one canonical term: a month ("2025년 9월 말", "2025.9월말",
#: "2025.09.30", "2025-09-30" → "2025-09") or a quarter ("2025년 3분기", "2025.3Q", "3Q25", "Q3 2025" →
#: "2025q3"); each also gives its year. So a question's "2025년 9월 말" meets a column headed "2025.9월말".
PERIOD_RE = re.compile(
    r"""(?<![\d.,])(?P<y>(?:19|20)\d{2})(?:
        \s*년\s*(?P<m1>1[0-2]|0?[1-9])\s*월(?:\s*말)?
      | \.\s*(?P<m2>1[0-2]|0?[1-9])\s*월(?:\s*말)?
      | (?P<sep>[.\-/])\s*(?P<m3>1[0-2]|0[1-9])\s*(?P=sep)\s*(?:[12]\d|3[01]|0?[1-9])(?![\d.,])
      | (?:\s*년\s*|\s+)(?P<q1>[1-4])\s*(?:분기|Q(?![A-Za-z]))(?:\s*말)?
      | \.(?P<q2>[1-4])Q(?![A-Za-z])
    )
    | (?<![A-Za-z\d])(?P<q3>[1-4])Q\s*'?(?P<yy>\d{2})(?![\d.,])
    | (?<![A-Za-z\d])Q(?P<q4>[1-4])\s*(?P<y4>(?:19|20)\d{2})(?![\d.,])""",
    re.VERBOSE,
)

#: A Korean report's fiscal period by its ordinal, "제 28 기" (the company's 28th fiscal year), with its quarter
#: when one follows ("제 28 기 3분기"). A report prints the ordinal beside a date of its year often enough
#: ("제 28 기 3분기말 (2025.09.30)", "제 27 기말 (2024.12.31)") to read the year of every ordinal it prints.
ORDINAL_PERIOD_RE = re.compile(r"제\s*(?P<n>\d{1,3})\s*기(?:\s*(?P<q>[1-4])\s*분기)?")
#: How far after an ordinal (characters, on its line, no other ordinal between) its date may stand.
ORDINAL_DATE_MAX_GAP = 24


def ordinal_year_offset(text: str) -> int | None:
    """Year minus ordinal of the fiscal periods ``text`` prints beside a date ("제 28 기 3분기말 (2025.09.30)":
    1997), the offset most of its ordinal/date pairs agree on; None when no ordinal stands beside a date or
    the pairs disagree (no majority)."""
    votes: dict[int, int] = {}
    for match in ORDINAL_PERIOD_RE.finditer(text):
        after = text[match.end() : match.end() + ORDINAL_DATE_MAX_GAP].split("\n", 1)[0]
        after = ORDINAL_PERIOD_RE.split(after, 1)[0]
        date = PERIOD_RE.search(after)
        if date is None or not (date["m1"] or date["m2"] or date["m3"]):
            continue
        offset = int(period_terms(date)[0]) - int(match["n"])
        votes[offset] = votes.get(offset, 0) + 1
    if not votes:
        return None
    offset, count = max(votes.items(), key=lambda item: item[1])
    return offset if 2 * count > sum(votes.values()) else None


def ordinal_period_terms(text: str, offset: int | None) -> list[str]:
    """The period terms of the ordinals ``text`` prints, by the document's ``offset`` (ordinal_year_offset):
    "제 27 기 3분기" → "2024", "2024q3"; [] without an offset."""
    if offset is None or "기" not in text:
        return []
    terms: dict[str, None] = {}
    for match in ORDINAL_PERIOD_RE.finditer(text):
        year = str(int(match["n"]) + offset)
        terms.setdefault(year, None)
        if match["q"]:
            terms.setdefault(f"{year}q{match['q']}", None)
    return list(terms)


#: Minimum syllables a Korean stem keeps after an ending or particle is stripped.
MIN_HANGUL_STEM_SYLLABLES = 2
#: Latin words shorter than this are not stemmed.
MIN_LATIN_STEM_CHARS = 4
#: Words cached by normalize_token.
TOKEN_CACHE_SIZE = 1 << 18

#: Korean particles (조사), longest first so that 에서의 is removed before 의.
KOREAN_PARTICLES: tuple[str, ...] = tuple(
    sorted(
        """
    으로부터 에서부터 으로서의 으로써 으로서 에게서 이라는 이라고 에서의 으로의 에게의 까지의 부터의 와의 과의 에서 에게 으로 까지 부터 처럼 보다 마다 조차 마저 이나 이며 이고
    에는 에도 으로는 로는 과는 와는 만큼 한테 께서 이란 라는 라고 에의 이든 든지 은 는 이 가 을 를 의 에 와 과 도 만 로 나 께 란
    """.split(),
        key=len,
        reverse=True,
    )
)

#: Single-syllable particles are not removed from nouns that end in the same syllable (평가 is not 평+가).
PARTICLE_PROTECTED_ENDINGS: tuple[str, ...] = tuple(
    """
    평가 주가 원가 단가 시가 증가 추가 물가 고가 저가 대가 국가 전문가 작가 부가 인가 평균가 차이 결과 효과 성과 부과 초과 경과 통과 과다 세과 제도 정도 한도 속도 연도 년도
    용도 태도 부도 지도 강도 빈도 밀도 수도 난도 회계연도 사업연도 이자 원리금 자금 세금 현금 예금 대금 상금 기금 부담금 만기 만료 포기 비중 경우 이유 회사 대상 이상 이하
    이내 이후 이전 이번 이미 기간 시간 공간 중간 연간 주간 월간
    """.split()
)

#: Verbal and copular endings removed from Korean words (longest first), e.g. 상환하고 → 상환.
KOREAN_ENDINGS: tuple[str, ...] = tuple(
    sorted(
        """
    된다고 한다고 하였으며 하였으나 하였다 하였고 되었다고 하였다고 했다고 했으며 했으나 했다 했고 하고 하며 하여 하는 하던 하기 하지 한다 할 한 함 되었으며 되었으나 되었다
    되었고 됐다 되고 되며 되어 되는 되기 되지 된다 될 된 됨 이었으며 이었다 이었고 이며 이고 이다 입니다 였다 이나 임 적으로 적인 적이 적
    """.split(),
        key=len,
        reverse=True,
    )
)

#: Words that carry no retrievable meaning in either language.
STOPWORDS: frozenset[str] = frozenset(
    """
    a an the and or of to in on at by for from with as is are was were be been being it its this that
    these those there their they them he she his her we our you your i my me which who whom whose what
    when where why how than then so such into onto over under about above below up down out off not no
    nor only also very can could should would may might must will shall do does did done has have had
    having if else s t any all each both few more most other some same own just too per via vs etc
    whether whose ever yet 것 수 등 및 또는 그 이 저 그리고 또한 또 더 즉 및 어떤가 어떠한가 어떤 어떻게 무엇 무엇인가 왜 언제 누가 다만 그러나 하지만 한편
    반면 그런데 어느 얼마 얼마나 있다 있음 있으며 있고 있는 있어 있을 없다 없음 없는 없고 하다 한다 했다 된다 되다 이다 위해 위한 통해 통한 대한 대해 관한 관련 따라 따른
    따르면 경우 때 중 내 간 현재 해당 동 본 당 각
    """.split()
)

#: Words that tell the answerer how to answer ("round to one decimal place", "answer in USD millions",
#: "base your judgment on ...", "소수점 첫째 자리까지 반올림") and never name what to look for. A question
#: for an LLM carries them; a report that happens to use one of them rarely is no better evidence, but
#: BM25 gives a rare word a high weight. query_content() drops them from a query; units keep them.
INSTRUCTION_WORDS: frozenset[str] = frozenset(
    """
    round rounded rounding decimal decimals answer answers respond response provide explain calculate
    compute computing approximation approximate reasonable exact judgment judgments judgement basing
    primarily outlined clearly plainly drawing conclusions perspective assuming please help abilities
    반올림 소수점 답변 답하시오 설명하시오 계산하시오
    """.split()
)

_INSTRUCTION_RE = re.compile(
    # a Korean instruction word takes endings (반올림하여, 답하시오), so only its start is anchored
    r"(?<![\w])(?:"
    + "|".join(sorted(map(re.escape, INSTRUCTION_WORDS), key=len, reverse=True))
    + r")(?:(?<=[\uac00-\ud7a3])[\uac00-\ud7a3]*|(?![\w]))",
    re.IGNORECASE,
)


#: Verbs that open what a conditional instruction tells the answerer to do ("..., then state that and
#: explain why", "... then state 0", "..., please say so").
INSTRUCTION_VERBS = ("state", "explain", "say", "answer", "respond", "reply", "indicate", "mention", "write",
                     "return", "report", "note")
#: What such an instruction may go on with and still ask for nothing of its own: "that", "so", "why", "0".
INSTRUCTION_OBJECTS = ("that", "so", "why", "this", "it", "0", "zero", "none", "n/a", "and", "please")

_VERB = r"(?:" + "|".join(INSTRUCTION_VERBS) + r")"
# A clause that opens with "if" at the start of a sentence or after a semicolon and whose consequence is an
# instruction about the answer itself: "If working capital is not a useful metric for this company, then
# please state that and explain why." It names again what the question asks about, with words ("useful",
# "relevant", "metric", "company") that every report prints in other places. One that asks for something
# ("If so, state the amount of the impairment charge.") is what to find, and stays.
_CONDITIONAL_INSTRUCTION_RE = re.compile(
    r"(?:^|(?<=[.;?!]))\s*if\b[^.;?!]*?(?:,\s*|\bthen\s+)(?:then\s+)?(?:please\s+)?" + _VERB
    + r"(?:\s+(?:" + "|".join(map(re.escape, INSTRUCTION_OBJECTS)) + r"|" + _VERB + r")\b)*\s*(?:[.;?!]|$)",
    re.IGNORECASE,
)


def query_content(query: str) -> str:
    """`query` without conditional instructions ("If X is not a useful metric, then state that and explain
    why.") and INSTRUCTION_WORDS: the words that say how to answer, not what to find."""
    return " ".join(_INSTRUCTION_RE.sub(" ", _CONDITIONAL_INSTRUCTION_RE.sub(" ", query)).split())


_LATIN_WORD_RE = re.compile(r"[a-z][a-z0-9]*")


def tokenize(text: str) -> list[str]:
    """Surface tokens of `text` in order (numbers keep decimals and %, words keep Hangul and Latin)."""
    return TOKEN_PATTERN.findall(text)


def _strip_hangul_suffix(word: str, suffixes: tuple[str, ...], protect: bool) -> str:
    """Remove the longest suffix in `suffixes` if the stem keeps MIN_HANGUL_STEM_SYLLABLES syllables."""
    if protect and word.endswith(PARTICLE_PROTECTED_ENDINGS):
        return word
    for suffix in suffixes:
        if word.endswith(suffix):
            stem = word[: -len(suffix)]
            if len(HANGUL_RE.findall(stem)) + (1 if stem[:1].isascii() and stem[:1].isalnum() else 0) >= (
                MIN_HANGUL_STEM_SYLLABLES
            ):
                return stem
            return word
    return word


def strip_particles(word: str) -> str:
    """`word` without a trailing Korean particle (한빛전자는 → 한빛전자); other words unchanged."""
    return _strip_hangul_suffix(word, KOREAN_PARTICLES, protect=True)


def _stem_latin(word: str) -> str:
    """A light English stem: possessive and plural endings only (companies → company, sales → sale)."""
    if len(word) < MIN_LATIN_STEM_CHARS:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


@lru_cache(maxsize=TOKEN_CACHE_SIZE)
def normalize_token(token: str) -> str | None:
    """Normalised term of one token, or None for a function word / a lone letter."""
    if not token:
        return None
    if token[0].isdigit():
        return token.lower()  # a number as printed; a digit-led name ("3M") in lower case like other words
    word = token.lower()
    fiscal = FISCAL_YEAR_RE.fullmatch(word)
    if fiscal:
        year = fiscal.group(1)
        return year if len(year) == 4 else "20" + year
    if HANGUL_RE.search(word):
        if word in STOPWORDS:
            return None
        word = _strip_hangul_suffix(word, KOREAN_PARTICLES, protect=True)
        word = _strip_hangul_suffix(word, KOREAN_ENDINGS, protect=False)
        if word in STOPWORDS:
            return None
        return word
    if word in STOPWORDS or len(word) < 2:
        return None
    word = _stem_latin(word)
    return None if word in STOPWORDS else word


def period_terms(match: re.Match) -> tuple[str, str]:
    """(year, period) of a PERIOD_RE match: ("2025", "2025-09") or ("2025", "2025q3")."""
    year = match["y"] or match["y4"] or ("20" + match["yy"] if match["yy"] else "")
    month = match["m1"] or match["m2"] or match["m3"]
    if month:
        return year, f"{year}-{int(month):02d}"
    return year, f"{year}q{match['q1'] or match['q2'] or match['q3'] or match['q4']}"


def normalized_terms(text: str) -> list[str]:
    """Distinct normalised terms of `text`, in first-occurrence order (a period as its year and PERIOD_RE's
    canonical term)."""
    seen: dict[str, None] = {}
    at = 0
    for match in PERIOD_RE.finditer(text) if any(c.isdigit() for c in text) else ():
        _add_terms(text[at : match.start()], seen)
        for term in period_terms(match):
            seen.setdefault(term, None)
        at = match.end()
    _add_terms(text[at:], seen)
    return list(seen)


def _add_terms(text: str, seen: dict[str, None]) -> None:
    for token in TOKEN_PATTERN.findall(text):
        term = normalize_token(token)
        if term is not None and term not in seen:
            seen[term] = None


def is_hangul(ch: str) -> bool:
    """True for a precomposed Hangul syllable."""
    return "가" <= ch <= "힣"


#: Share of Hangul syllables among a text's letters from which the text is Korean (a Korean report quotes
#: English names and figures; an English one rarely holds Hangul at all).
KOREAN_LETTER_SHARE = 0.3


def text_language(text: str) -> str:
    """"ko" for a text whose letters are mostly Hangul (KOREAN_LETTER_SHARE), else "en": what a search filter's
    ``language`` field matches."""
    letters = hangul = 0
    for ch in text:
        if ch.isalpha():
            letters += 1
            hangul += is_hangul(ch)
    return "ko" if letters and hangul / letters >= KOREAN_LETTER_SHARE else "en"


#: Joins the two terms of a bigram key.
BIGRAM_JOIN = " "


def term_bigrams(text: str) -> list[str]:
    """Distinct pairs of adjacent normalised word terms ("total current", "current liability"), in order.

    Function words are skipped (they never break a pair) and numbers are left out: a phrase names a line
    item, a figure does not. Bigrams tell "total current liabilities" from "other non-current liabilities".
    A period ("2025년 9월 말", "제 28 기 3분기") breaks pairs and gives none of its own: its words are the
    date's spelling ("월 말"), which normalized_terms already reads as one term whatever the spelling.
    """
    seen: dict[str, None] = {}
    for piece in _between_periods(text):
        terms = [t for t in (normalize_token(tok) for tok in TOKEN_PATTERN.findall(piece)) if t is not None]
        for left, right in zip(terms, terms[1:]):
            if not left[0].isdigit() and not right[0].isdigit():
                seen.setdefault(f"{left}{BIGRAM_JOIN}{right}", None)
    return list(seen)


def _between_periods(text: str) -> list[str]:
    """The pieces of ``text`` between its periods (PERIOD_RE) and fiscal ordinals (ORDINAL_PERIOD_RE)."""
    if not any(c.isdigit() for c in text):
        return [text]
    spans = sorted(m.span() for pattern in (PERIOD_RE, ORDINAL_PERIOD_RE) for m in pattern.finditer(text))
    pieces, at = [], 0
    for start, end in spans:
        if start >= at:
            pieces.append(text[at:start])
            at = end
    pieces.append(text[at:])
    return pieces
