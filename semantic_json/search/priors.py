"""The document priors of a search over several documents: a BM25 score of each whole document (its
units' key counts) and the match of the query with each document's profile (a filing's company, form and
period, read from its cover page), plus the words that name each document's subject.

Both tell which document a question is about; repository.py adds them to the anchors' scores. A question
that names its filer ("3M's operating margin", "JnJ's FY2022 financials") goes further: a search over
several documents keeps to that filer's (Profiles.named, Profiles.narrowed); and the documents of the
period it names are lifted (Profiles.of_period: "FY2018 - FY2020" is the FY2020 filing's).
"""

from __future__ import annotations

import math
import re
from collections.abc import Collection, Iterable
from typing import Any

import numpy as np

from .lexical import YEAR_TERM_RE, hangul_pairs
from ..rules.textnorm import BIGRAM_JOIN, TOKEN_PATTERN, is_hangul, normalized_terms, term_bigrams

#: The document info key whose text describes the document as a whole.
PROFILE_KEY = "profile"
#: The document info key that names what the document is about (a filing's company): inside the document
#: those words say nothing about which unit is evidence, so they weigh little there (lexical.MUTED_KEY_WEIGHT).
SUBJECT_KEY = "subject"
#: Words of a company name that do not tell one company from another (legal forms, articles).
GENERIC_NAME_WORDS = frozenset({
    "the", "and", "of", "inc", "incorporated", "corp", "corporation", "company", "co", "ltd", "limited", "llc",
    "plc", "holding", "holdings", "group", "international", "sa", "nv", "ag", "se", "com",
})
#: A trading symbol at the end of a subject ("Microsoft Corporation MSFT"): two to five capitals.
SYMBOL_CHARS = range(2, 6)
#: A profile of a quarterly (or half-year) report: its form, or its period.
QUARTERLY_PROFILE = re.compile(r"\b10-Q\b|quarterly\s+period|\bquarter\s+ended|분기보고서|반기보고서", re.IGNORECASE)
#: A query that asks about a quarter: "Q2 of FY2023", "second quarter", "quarterly", "10-Q", 분기, 반기.
QUARTER_QUERY = re.compile(r"\bQ[1-4]\b|\bquarter(?:ly|s)?\b|\b10-Q\b|\d\s*분기|분기|반기", re.IGNORECASE)
#: What Profiles.derive gives (and an index keeps) of a document's profile.
PROFILE_FIELDS = frozenset({"keys", "subject", "years", "quarterly", "name", "symbol", "korean"})
#: BM25 parameters of the document prior.
DOC_BM25_K1 = 1.2
DOC_BM25_B = 0.75

def document_prior(rows: np.ndarray, lengths: np.ndarray, documents: int, length: int,
                   holding: np.ndarray | None = None) -> np.ndarray:
    """BM25 of each document for the query's keys, the best document scaled to 1.0: the prior that lifts every
    anchor of the documents a query matches as a whole (in a corpus of many reports a table row never names
    its company; the document around it does).

    ``rows`` holds (key, document, count) triples as an int64 array, grouped by key (every document holding
    the key; a key's documents count as its document frequency), the keys in the order their scores add up;
    ``lengths`` the total count of each row's document, ``documents`` and ``length`` the corpus's number of
    documents and total count; ``holding`` each row's key's document frequency when ``rows`` hold only some
    of the documents (a search kept to those). Returns each row's document and its prior, the best of them
    1.0, as the columns of a (documents, 2) float64 array, the documents in first-row order (empty for a
    corpus of fewer than two documents)."""
    if documents < 2 or not len(rows):
        return np.zeros((0, 2))
    average = length / documents
    keys, docs, tf = rows[:, 0], rows[:, 1], rows[:, 2].astype(np.float64)
    starts = np.flatnonzero(np.concatenate(([True], keys[1:] != keys[:-1])))
    held = np.diff(np.append(starts, len(keys)))
    frequency = held if holding is None else holding[starts]
    idf = np.repeat([math.log(1.0 + (documents - n + 0.5) / (n + 0.5)) for n in frequency.tolist()], held)
    norm = tf + DOC_BM25_K1 * (1 - DOC_BM25_B + DOC_BM25_B * lengths / average)
    first, at = np.unique(docs, return_index=True, return_inverse=True)[1:]
    # one document's scores add up row by row, in the keys' order (np.bincount adds in row order)
    totals = np.bincount(at.reshape(-1), weights=idf * tf * (DOC_BM25_K1 + 1) / norm)
    order = np.argsort(first, kind="stable")
    best = totals.max()
    if not best > 0:
        return np.zeros((0, 2))
    return np.column_stack((docs[first[order]].astype(np.float64), totals[order] / best))


def _held(keys: dict[str, Collection[str]], document_id: str) -> frozenset[str]:
    """A document's keys as a set, made from the list they were read as when first used (opening an index of
    thousands of filings makes none)."""
    held = keys[document_id]
    if not isinstance(held, frozenset):
        held = keys[document_id] = frozenset(held)
    return held


def info_text(info: dict[str, Any] | None, key: str) -> str:
    value = (info or {}).get(key)
    return value if isinstance(value, str) else ""


class Profiles:
    """Each document's profile keys (the terms and bigrams of its info ``profile`` line), for a prior that
    finds the filing a question names ("Netflix's FY2017 10-K") among many similar ones."""

    def __init__(self) -> None:
        #: Per document, its profile's and its subject's keys (kept as read: a set when first used, see _held).
        self.keys: dict[str, Collection[str]] = {}
        self.subjects: dict[str, Collection[str]] = {}
        #: Per document: the first two distinctive words of its company's name, and its trading symbol.
        self.names: dict[str, tuple[tuple[str, ...], str | None]] = {}
        #: Per document: the years its profile holds (its period, "FY2022"; none: its period is not known).
        self.years: dict[str, frozenset[str]] = {}
        #: The documents whose profile is a quarterly report's (QUARTERLY_PROFILE).
        self.quarterly: set[str] = set()
        #: Per document, the Korean words of its filer's name ("은가람캐피탈"): a Korean question names the filer
        #: by such a word (Korean has no capitals to tell a name by).
        self.korean_names: dict[str, frozenset[str]] = {}
        #: Per first name word, the second words that follow it in the names (see named); None: not yet read.
        self._following: dict[str, set[str]] | None = None
        #: The documents by their symbol and by the first word of their name (read with _following).
        self._by_symbol: dict[str, list[str]] = {}
        self._by_first: dict[str, list[str]] = {}
        #: Per profile key, the documents whose profile holds it (see scores); None: not yet read.
        self._holding: dict[str, list[str]] | None = None

    @staticmethod
    def derive(text: str, subject: str) -> dict[str, Any]:
        """What set() keeps of a document's profile ``text`` and ``subject``, worked out once when the
        document is added and kept beside it in the index as JSON (opening an index of thousands of filings
        then re-tokenises none of them): the profile's keys, the subject's keys, the years among the
        profile's keys, whether the profile is of a quarterly report, the first two distinctive words of the
        company's name, its trading symbol and the Korean words of its name."""
        derived: dict[str, Any] = {}
        for name, value in (("keys", text), ("subject", subject)):
            terms = normalized_terms(value)
            keys = set(terms) | set(term_bigrams(value))
            if name == "subject":  # the syllable pairs of the subject's Korean name name it too
                keys |= {pair for term in terms for pair in hangul_pairs(term)}
            derived[name] = sorted(keys)
        derived["years"] = [k for k in derived["keys"] if YEAR_TERM_RE.fullmatch(k)]
        derived["quarterly"] = bool(QUARTERLY_PROFILE.search(text))
        words = subject.split()
        last = words[-1] if len(words) > 1 else ""
        # the symbol filing_subject appends, never a legal form in capitals ("AMCOR PLC")
        is_symbol = last.isupper() and last.isalpha() and len(last) in SYMBOL_CHARS and last.casefold() not in GENERIC_NAME_WORDS
        symbol = words.pop() if is_symbol else None
        name_terms = [t for t in normalized_terms(" ".join(words)) if t not in GENERIC_NAME_WORDS]
        derived["name"] = name_terms[:2]
        derived["symbol"] = symbol.casefold() if symbol else None
        derived["korean"] = sorted({t for t in name_terms if is_hangul(t[0])})
        return derived

    def set(self, document_id: str, text: str, subject: str = "", derived: dict[str, Any] | None = None) -> None:
        """Keep (or, with empty texts, forget) a document's profile and subject keys (``derived``: what
        derive() gave for these texts; worked out here when None)."""
        if derived is None:
            derived = self.derive(text, subject)
        name, symbol = tuple(derived["name"]), derived["symbol"]
        for held, value in ((self.keys, derived["keys"]), (self.subjects, derived["subject"]),
                            (self.years, frozenset(derived["years"])), (self.korean_names, frozenset(derived["korean"])),
                            (self.names, (name, symbol) if name or symbol else None)):
            if value:
                held[document_id] = value
            else:
                held.pop(document_id, None)
        if derived["quarterly"]:
            self.quarterly.add(document_id)
        else:
            self.quarterly.discard(document_id)
        self._following = self._holding = None

    def named(self, query: str) -> frozenset[str]:
        """The documents whose filer the query names ("What drove 3M's operating margin", "JnJ's FY2022
        financials"): its trading symbol (a word with two capitals or more), or the first distinctive word of
        its company's name, capitalised, and the second one too when another company's name starts with
        the same word ("American Express", "American Water Works"). A capital that starts a sentence names
        nothing unless the word is in capitals or led by a digit. Empty when the query names no filer."""
        capitalised: set[str] = set()
        symbols: set[str] = set()
        for match in TOKEN_PATTERN.finditer(query):
            token = match.group()
            if not (token[0].isupper() or token[0].isdigit()):
                continue
            if sum(c.isupper() for c in token) > 1:  # "JPM", "JnJ"; never a word in title case ("Has")
                symbols.add(token.casefold())
            before = query[: match.start()].rstrip()
            if before and before[-1] not in ".?!:" or token.isupper() or token[0].isdigit():
                # a capital that starts a sentence says nothing ("Best practices ..."), unless the word is
                # in capitals or led by a digit ("AMCOR's ...", "3M's ...")
                capitalised.update(normalized_terms(token)[:1])
        # a first word is ambiguous when names go on from it in different ways (American Express, American
        # Water Works); one company's names over the years ("Adobe Systems", "Adobe") are not
        following = self._following
        if following is None:  # read once per change of the names, not per query
            following = self._following = {}
            self._by_symbol, self._by_first = {}, {}
            for document_id, (name, symbol) in self.names.items():
                if name:
                    following.setdefault(name[0], set()).update(name[1:2])
                    self._by_first.setdefault(name[0], []).append(document_id)
                if symbol is not None:
                    self._by_symbol.setdefault(symbol, []).append(document_id)
        named = set()
        if any(is_hangul(c) for c in query):
            terms = frozenset(normalized_terms(query))
            named.update(d for d, korean in self.korean_names.items() if korean & terms)
        # the documents of the symbols and first words the query holds, not every document's name
        for symbol in symbols:
            named.update(self._by_symbol.get(symbol, ()))
        for word in capitalised:
            for document_id in self._by_first.get(word, ()):
                name = self.names[document_id][0]
                if len(following[word]) < 2 or (len(name) > 1 and name[1] in capitalised):
                    named.add(document_id)
        return frozenset(named)

    def of_period(self, query: str, documents: Iterable[str]) -> frozenset[str]:
        """Of ``documents``, those whose profile holds the latest year the query names that any of them holds
        ("FY2018 - FY2020": the FY2020 filing, which reports all three years; "in 2024, as of FY2021": the
        FY2021 one), and those whose period is not known (they may be of that year); empty when the query
        names no year that any of them holds.

        Of the year's filings, a query that asks about a quarter ("Q2 of FY2023") keeps the quarterly reports
        and one that does not keeps the others (the annual report), when the year has both."""
        years = sorted((t for t in normalized_terms(query) if YEAR_TERM_RE.fullmatch(t)), reverse=True)
        if not years:
            return frozenset()
        dated = {d: self.years.get(d, frozenset()) for d in documents}
        for year in years:
            found = frozenset(d for d, held in dated.items() if year in held)
            if found:
                quarterly = found & self.quarterly
                if QUARTER_QUERY.search(query):
                    found = quarterly or found
                else:
                    found = (found - quarterly) or found
                return found | frozenset(d for d, held in dated.items() if not held)
        return frozenset()

    def naming(self, query_keys: Iterable[str], documents: Iterable[str] | None = None) -> dict[str, frozenset[str]]:
        """Per document (of ``documents``; None: all), the query keys its subject holds (they name the
        document, not a unit of it)."""
        # a phrase with the subject's name in it ("acme revenue") names the document too (its parts split once)
        wanted = [(k, k.split(BIGRAM_JOIN)) for k in frozenset(query_keys)]
        named = {}
        subjects = self.subjects if documents is None else {d: self.subjects[d] for d in documents if d in self.subjects}
        for document_id in subjects:
            subject = _held(self.subjects, document_id)
            keys = {k for k, parts in wanted if k in subject or not subject.isdisjoint(parts)}
            if keys:
                named[document_id] = frozenset(keys)
        return named

    def narrowed(self, query: str, documents: Collection[str]) -> frozenset[str] | None:
        """``documents`` narrowed to those whose filer the query names (see named) and those whose filer is
        not known (they may be the one named); None when the query names no filer, or keeps them all."""
        named = self.named(query)
        if not named:
            return None
        kept = frozenset(d for d in documents if d in named or d not in self.names)
        return None if len(kept) == len(documents) else kept

    def scores(self, query_keys: set[str]) -> dict[str, float]:
        """IDF-weighted share of matched profile keys per document, the best document scaled to 1.0."""
        n = len(self.keys)
        if n < 2:
            return {}
        holding = self._holding
        if holding is None:  # read only the documents holding a query key (thousands of filings hold none)
            holding = self._holding = {}
            for document_id, keys in self.keys.items():
                for key in keys:
                    holding.setdefault(key, []).append(document_id)
        df = {k: len(holding[k]) for k in query_keys if k in holding}
        idf = {k: math.log(1.0 + (n - held + 0.5) / (held + 0.5)) for k, held in df.items()}  # once a key, not a document
        totals = {}
        for document_id in {d: None for k in df for d in holding[k]}:
            totals[document_id] = sum(idf[k] for k in _held(self.keys, document_id) & query_keys)
        best = max(totals.values(), default=0.0)
        return {d: v / best for d, v in totals.items()} if best > 0 else {}
