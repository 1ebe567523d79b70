"""The Korean–English normalisation lexicon: data in `lexicon/*.json`, loaded once.

A `Lexicon` maps terms of either language to concept ids (상환능력, "repayment capacity" →
REPAYMENT_CAPACITY). `Lexicon.find(text)` returns concept matches with character spans. Terms are compiled
into two trie-shaped regular expressions, so matching costs one regex scan of the text however many terms
the lexicon holds.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from collections.abc import Iterable

#: The lexicon file shipped with the package (inside semantic_json/lexicon/).
DEFAULT_LEXICON_FILE = "finance_ko_en.json"
#: Regex for a space inside an English term: any run of spaces or hyphens ("medium-term", "medium  term").
_EN_SPACE = r"[\s\-]+"
#: Regex for a space inside a Korean term: optional whitespace (Korean spacing varies: 상환 능력 / 상환능력).
_KO_SPACE = r"\s*"
#: Distinct matched strings whose concept lookup is remembered.
MATCH_MEMO_SIZE = 1 << 16
_SPACE_TOKEN = "\x00"
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")
_END = ""


@dataclass(frozen=True)
class ConceptMatch:
    """One lexicon hit: the concept id and the [start, end) character span of the matched term."""

    concept: str
    start: int
    end: int


def _trie_pattern(terms: Iterable[str], space_regex: str) -> str:
    """A regex alternation of `terms` shaped as a trie; at each node longer continuations are tried first."""
    trie: dict = {}
    for term in terms:
        node = trie
        for ch in term.replace(" ", _SPACE_TOKEN):
            node = node.setdefault(ch, {})
        node[_END] = {}

    def render(node: dict) -> str:
        ends_here = _END in node
        branches = []
        for ch in sorted(k for k in node if k != _END):
            head = space_regex if ch == _SPACE_TOKEN else re.escape(ch)
            branches.append(head + render(node[ch]))
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ends_here:
            return "(?:" + body + ")?"
        return body

    return render(trie)


class Lexicon:
    """Concepts with Korean and English terms; see the JSON file's description for the matching rules."""

    def __init__(self, data: dict) -> None:
        self.name: str = data["name"]
        self.version: str = str(data["version"])
        self._concept_of: dict[str, str] = {}
        self._broader: dict[str, tuple[str, ...]] = {}
        self._inputs: dict[str, tuple[str, ...]] = {}
        ko_terms: list[str] = []
        en_terms: list[str] = []
        for concept in data["concepts"]:
            cid = concept["id"]
            self._broader[cid] = tuple(concept.get("broader", ()))
            self._inputs[cid] = tuple(concept.get("inputs", ()))
            for term in concept.get("ko", ()):
                key = self._key(term)
                self._concept_of.setdefault(key, cid)
                ko_terms.append(key)
            for term in concept.get("en", ()):
                key = self._key(term)
                self._concept_of.setdefault(key, cid)
                en_terms.append(key)
        self._memo: dict[str, str | None] = {}
        self._compact_of: dict[str, str] = {}
        for key, cid in self._concept_of.items():
            self._compact_of.setdefault(key.replace(" ", ""), cid)
        self.concept_ids: tuple[str, ...] = tuple(sorted(self._broader))
        canonical = json.dumps(data, ensure_ascii=False, sort_keys=True).encode("utf-8")
        #: SHA-256 of the lexicon's canonical JSON; part of LiteEmbedder.name.
        self.sha256: str = hashlib.sha256(canonical).hexdigest()
        self._ko_re = re.compile(_trie_pattern(ko_terms, _KO_SPACE)) if ko_terms else None
        en_body = _trie_pattern(en_terms, _EN_SPACE)
        # No look-behind at the start: it would stop the regex engine from skipping ahead by first
        # character; the word boundary before a match is checked in find() instead.
        self._en_re = (
            re.compile(r"(?:" + en_body + r")(?:e?s)?(?![a-z0-9])") if en_terms else None
        )

    @staticmethod
    def _key(term: str) -> str:
        return " ".join(term.lower().replace("-", " ").split())

    def concept_of(self, matched: str) -> str | None:
        """Concept id of a matched surface string (spacing/case/plural insensitive), or None."""
        try:
            return self._memo[matched]
        except KeyError:
            pass
        concept = self._lookup(matched)
        if len(self._memo) < MATCH_MEMO_SIZE:
            self._memo[matched] = concept
        return concept

    def _lookup(self, matched: str) -> str | None:
        key = self._key(matched)
        if key in self._concept_of:
            return self._concept_of[key]
        compact = key.replace(" ", "")
        for candidate in (compact, key[:-1], key[:-2]):
            if candidate in self._concept_of:
                return self._concept_of[candidate]
        return self._compact_of.get(compact)

    def broader(self, concept: str) -> tuple[str, ...]:
        """Concepts that `concept` implies (REPAYMENT_CAPACITY → REPAYMENT)."""
        return self._broader.get(concept, ())

    def inputs(self, concept: str) -> tuple[str, ...]:
        """Concepts a metric is computed from (QUICK_RATIO → CASH, RECEIVABLES, CURRENT_LIABILITIES, ...)."""
        return self._inputs.get(concept, ())

    def find(self, text: str) -> list[ConceptMatch]:
        """Concept matches in `text`, ordered by start offset."""
        matches: list[ConceptMatch] = []
        concept_of = self.concept_of
        if self._ko_re is not None:
            for m in self._ko_re.finditer(text):
                cid = concept_of(m.group(0))
                if cid is not None:
                    matches.append(ConceptMatch(cid, m.start(), m.end()))
        if self._en_re is not None:
            # matched on an ASCII-lower-cased copy (same length, so offsets hold); case-insensitive regexes
            # are several times slower
            folded = text.translate(_ASCII_LOWER)
            position = 0
            while True:
                m = self._en_re.search(folded, position)
                if m is None:
                    break
                start = m.start()
                if start > 0 and (folded[start - 1].isascii() and folded[start - 1].isalnum()):
                    position = start + 1  # inside a longer word; a term may still start later in it
                    continue
                cid = concept_of(text[start : m.end()])
                if cid is not None:
                    matches.append(ConceptMatch(cid, start, m.end()))
                position = m.end()
        matches.sort(key=lambda c: (c.start, c.end))
        return matches

    def concepts(self, text: str) -> list[str]:
        """Distinct concept ids found in `text`, first occurrence first (broader concepts not included)."""
        seen: dict[str, None] = {}
        for match in self.find(text):
            seen.setdefault(match.concept, None)
        return list(seen)


@cache
def load_lexicon(filename: str = DEFAULT_LEXICON_FILE) -> Lexicon:
    """The packaged lexicon `filename` (loaded once per process)."""
    raw = resources.files("semantic_json").joinpath("lexicon").joinpath(filename).read_text(encoding="utf-8")
    return Lexicon(json.loads(raw))
