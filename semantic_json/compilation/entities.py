"""Entity detection and canonical entity ids.

Two kinds of organisation mentions are recognised, by rule:

* letter-named parties common in credit reports: B기업 / B사 / (주)B / "Company B" / "B Corp" → ``B_CORP``,
  B은행 / "Bank B" → ``B_BANK``, B그룹 / "Group B" → ``B_GROUP``;
* named organisations with a legal-form or organisation word: "Acme Holdings Inc." → ``ACME_HOLDINGS``,
  "Hanbit Electronics Co., Ltd." → ``HANBIT_ELECTRONICS``, ㈜한빛전자 / 한빛전자(주) → ``한빛전자``.

`find_mentions(text)` returns mentions with spans. `alias_pattern` turns the surface forms a document has
used into a matcher for the bare name ("Acme Holdings" without "Inc.").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from collections.abc import Iterable

from ..rules.textnorm import strip_particles

ORGANIZATION = "organization"

#: Suffix of a letter-named company's id (B기업 → B_CORP).
CORP_SUFFIX = "_CORP"
BANK_SUFFIX = "_BANK"
GROUP_SUFFIX = "_GROUP"

#: Maximum capitalised words in front of a legal form that a generic organisation name may have.
MAX_NAME_WORDS = 5

_KO_CORP_WORDS = "기업|회사|법인|업체"
# The letter is matched before the look-behind (which then checks the character before it), so the
# engine can skip ahead to capital letters instead of testing the look-behind at every position.
_KO_LETTER = re.compile(
    r"([A-Z])(?<![A-Za-z0-9][A-Z])\s?(?:(" + _KO_CORP_WORDS + r")|(사|社)(?![가-힣])|(사)(?=[은는이가을를의에와과도로])|(은행)|(그룹))"
)
_KO_LETTER_PREFIX = re.compile(r"(?:㈜|\(주\)|주식회사)\s?([A-Z])(?![A-Za-z0-9])")
_EN_LETTER_AFTER = re.compile(
    r"\b(?:(Company|Corporation|Firm|Issuer|Borrower|Obligor|Counterparty|Client)|(Bank)|(Group))\s+([A-Z])\b(?![.\-]?[A-Za-z0-9])"
)
_EN_LETTER_BEFORE = re.compile(
    r"(?<![A-Za-z0-9.])([A-Z])\s+(?:(Corp\.?|Corporation|Company|Co\.|Inc\.?|Ltd\.?)|(Bank)|(Group))(?![A-Za-z])"
)
_LEGAL_FORMS = (
    r"Inc\.?|Incorporated|Corp\.?|Corporation|Co\.,?\s?Ltd\.?|Co\.|Ltd\.?|Limited|LLC|L\.L\.C\.|PLC|plc|AG|GmbH|S\.A\.|N\.V\.|SE"
)
_ORG_WORDS = r"Holdings|Group|Bank|Capital|Securities|Partners|Industries|Financial|Electronics|Motors"
_CAP_WORD = r"(?:[A-Z][A-Za-z0-9&'\-]*|&)"
_EN_LEGAL_NAME = re.compile(
    r"\b((?:" + _CAP_WORD + r"\s){0," + str(MAX_NAME_WORDS - 1) + r"}" + _CAP_WORD + r"),?\s(?:" + _LEGAL_FORMS + r")(?![A-Za-z])"
)
_EN_ORG_NAME = re.compile(
    r"\b((?:" + _CAP_WORD + r"\s){1," + str(MAX_NAME_WORDS - 1) + r"}(?:" + _ORG_WORDS + r"))\b"
)
_KO_GENERIC = re.compile(r"(?:㈜|\(주\)|주식회사)\s?([가-힣A-Za-z0-9]{2,20})|([가-힣A-Za-z0-9]{2,20})\s?(?:㈜|\(주\))")

#: Distinct names whose canonical id is cached.
NAME_CACHE_SIZE = 1 << 16
#: Markers of a Korean company name (주식회사, (주), ㈜); texts without one skip the Korean name rules.
KOREAN_COMPANY_MARKERS = ("㈜", "(주)", "주식회사")

#: Shortest bare name (legal form removed) that is matched as an alias of its organisation.
MIN_BARE_NAME_CHARS = 4

#: Capitalised words that start sentences or clauses and are never the first word of a name.
NAME_LEADING_STOPWORDS = frozenset(
    """
    The A An And Or But However While Whereas In On At For From With By Of To As Its Our This That These
    Those Meanwhile Although Though Because Since If When After Before Nevertheless Also Both Each
    Shares Company Firm
    """.split()
)
#: Words dropped from a canonical id: legal forms carry no identity.
LEGAL_FORM_WORDS = frozenset(
    """
    INC INCORPORATED CORP CORPORATION CO LTD LIMITED LLC L_L_C PLC AG GMBH S_A N_V SE THE
    """.split()
)
#: Words that, printed right after an organisation's name, name another organisation of its group (a regional
#: arm, a holding or finance company): "Kestrel Dynamics Korea" is not "Kestrel Dynamics". The pair gets its
#: own id (qualified_id), so a question about the parent does not take the subsidiary's figures.
QUALIFIER_WORDS = frozenset(
    """
    Korea Japan China India Europe Asia Pacific America Americas Canada Mexico Brazil Germany France UK Italy
    Spain Australia Singapore Taiwan Vietnam Indonesia Thailand Malaysia Philippines International Holdings
    Capital
    """.split()
)
_QUALIFIER_RE = re.compile(r"[ \t]+(" + "|".join(sorted(QUALIFIER_WORDS)) + r")(?![A-Za-z0-9])")


def qualified_id(entity_id: str, qualifier: str) -> str:
    """The id of the organisation named by `entity_id`'s name followed by `qualifier` (KESTREL_DYNAMICS_KOREA)."""
    return f"{entity_id}_{qualifier.upper()}"


def qualifier_at(text: str, end: int) -> str | None:
    """The QUALIFIER_WORDS word printed right after position `end` of `text` ("… Dynamics| Korea"), if any."""
    match = _QUALIFIER_RE.match(text, end)
    return match.group(1) if match else None


def names_parent_of(entity_id: str, query_words: frozenset[str]) -> bool:
    """True when `entity_id` is a qualified organisation (a subsidiary: BASE_QUALIFIER) whose parent's name
    the query words (upper case) hold without the qualifier: the question is about the parent."""
    base, _, last = entity_id.rpartition("_")
    if not base or last not in _QUALIFIER_IDS or last in query_words:
        return False
    return all(word in query_words for word in base.split("_"))


_QUALIFIER_IDS = frozenset(word.upper() for word in QUALIFIER_WORDS)

#: Letters that are also English words at the start of a sentence ("A Company ...").
ARTICLE_LETTERS = frozenset("AI")
_ORG_WORD_RE = re.compile(r"\b(" + _ORG_WORDS + r")$")


@dataclass(frozen=True)
class Mention:
    """One entity mention: canonical id, surface text and its [start, end) span in the scanned text."""

    entity_id: str
    surface: str
    start: int
    end: int


@lru_cache(maxsize=NAME_CACHE_SIZE)
def canonical_name_id(name: str) -> str | None:
    """Canonical id of an organisation name: upper-case words joined by '_', legal forms dropped."""
    words = re.findall(r"[A-Za-z0-9가-힣]+", name.replace("&", " AND "))
    words = [w.upper() for w in words]
    while words and words[-1] in LEGAL_FORM_WORDS:
        words.pop()
    while words and words[0] in LEGAL_FORM_WORDS:
        words.pop(0)
    return "_".join(words) or None


@lru_cache(maxsize=NAME_CACHE_SIZE)
def _strip_leading(name: str) -> tuple[str, int]:
    """`name` without leading sentence words ("However Acme" → "Acme") and the count of chars removed."""
    words = name.split(" ")
    removed = 0
    while len(words) > 1 and words[0] in NAME_LEADING_STOPWORDS:
        removed += len(words[0]) + 1
        words.pop(0)
    return " ".join(words), removed


# Words one of which a text must contain for the corresponding English rule to be tried (a fast pre-check).
_EN_LETTER_AFTER_WORDS = ("Company", "Corporation", "Firm", "Issuer", "Borrower", "Obligor", "Counterparty", "Client", "Bank", "Group")
_EN_LETTER_BEFORE_WORDS = ("Corp", "Company", "Co.", "Inc", "Ltd", "Bank", "Group")
_LEGAL_FORM_WORDS = ("Inc", "Corp", "Co.", "Ltd", "Limited", "LLC", "L.L.C.", "PLC", "plc", "AG", "GmbH", "S.A.", "N.V.", "SE")
_ORG_NAME_WORDS = tuple(_ORG_WORDS.split("|"))


def _mentions_any(text: str, words: tuple[str, ...]) -> bool:
    return any(word in text for word in words)


def _at_sentence_start(text: str, pos: int) -> bool:
    before = text[:pos].rstrip()
    return not before or before[-1] in ".!?:\n\"'"


def _letter_id(letter: str, bank: bool, group: bool) -> str:
    return letter + (BANK_SUFFIX if bank else GROUP_SUFFIX if group else CORP_SUFFIX)


def find_mentions(text: str) -> list[Mention]:
    """Organisation mentions in `text`, ordered by start; overlapping matches keep the earliest, longest."""
    found: list[Mention] = []
    for m in _KO_LETTER.finditer(text):
        found.append(Mention(_letter_id(m.group(1), bool(m.group(5)), bool(m.group(6))), m.group(0), m.start(), m.end()))
    has_korean_marker = any(marker in text for marker in KOREAN_COMPANY_MARKERS)
    for m in _KO_LETTER_PREFIX.finditer(text) if has_korean_marker else ():
        found.append(Mention(m.group(1) + CORP_SUFFIX, m.group(0), m.start(), m.end()))
    for m in _EN_LETTER_AFTER.finditer(text) if _mentions_any(text, _EN_LETTER_AFTER_WORDS) else ():
        found.append(Mention(_letter_id(m.group(4), bool(m.group(2)), bool(m.group(3))), m.group(0), m.start(), m.end()))
    for m in _EN_LETTER_BEFORE.finditer(text) if _mentions_any(text, _EN_LETTER_BEFORE_WORDS) else ():
        if m.group(1) in ARTICLE_LETTERS and m.group(2) == "Company" and _at_sentence_start(text, m.start()):
            continue  # "A Company spokesperson said": an article, not a party named A
        found.append(Mention(_letter_id(m.group(1), bool(m.group(3)), bool(m.group(4))), m.group(0), m.start(), m.end()))
    for regex, words in ((_EN_LEGAL_NAME, _LEGAL_FORM_WORDS), (_EN_ORG_NAME, _ORG_NAME_WORDS)):
        for m in regex.finditer(text) if _mentions_any(text, words) else ():
            name, removed = _strip_leading(m.group(1))
            if len(re.findall(r"[A-Za-z]", name)) < 2 or name in NAME_LEADING_STOPWORDS:
                continue
            if regex is _EN_ORG_NAME and " " not in name:
                continue
            start = m.start(1) + removed
            eid = canonical_name_id(name)
            if eid:
                found.append(Mention(eid, text[start : m.end()], start, m.end()))
    for m in _KO_GENERIC.finditer(text) if has_korean_marker else ():
        if m.group(1):
            name = strip_particles(m.group(1))
            end = m.start(1) + len(name)
            start = m.start()
        else:
            name = m.group(2)
            start, end = m.start(), m.end()
        if re.fullmatch(r"[A-Z]", name):
            continue
        eid = canonical_name_id(name)
        if eid:
            found.append(Mention(eid, text[start:end], start, end))
    found.sort(key=lambda x: (x.start, -(x.end - x.start), x.entity_id))
    kept: list[Mention] = []
    last_end = -1
    for mention in found:
        if mention.start >= last_end:
            kept.append(mention)
            last_end = mention.end
    return kept


def entity_ids(text: str) -> list[str]:
    """Distinct entity ids mentioned in `text`, sorted."""
    return sorted({m.entity_id for m in find_mentions(text)})


def bare_names(surface_forms: Iterable[str]) -> list[str]:
    """Other spellings that refer to the same named organisation ("Acme Holdings Inc." → "Acme Holdings")."""
    names: set[str] = set()
    for surface in surface_forms:
        surface = surface.strip()
        bare = re.sub(r",?\s(?:" + _LEGAL_FORMS + r")$", "", surface)
        if bare != surface and len(bare) >= MIN_BARE_NAME_CHARS and bare not in NAME_LEADING_STOPWORDS:
            names.add(bare)
    return sorted(names)


def alias_pattern(aliases: dict[str, str]) -> re.Pattern[str] | None:
    """A regex that finds any alias in `aliases` (surface → id) as a whole word, longest first."""
    if not aliases:
        return None
    ordered = sorted(aliases, key=lambda a: (-len(a), a))
    body = "|".join(re.escape(a) for a in ordered)
    return re.compile(r"(?<![A-Za-z0-9가-힣])(?:" + body + r")(?![A-Za-z0-9])")
