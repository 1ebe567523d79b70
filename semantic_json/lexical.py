"""BM25 over the anchors' lexical keys, with fields: a unit's own words count fully, the words it inherits
from its table's caption or title count less.

A unit's keys are its terms, its lexicon concepts and the entities it is about. A table row ("Total current
liabilities | 2017: 5,466,312") inherits the terms of its caption ("CONSOLIDATED BALANCE SHEETS · in
thousands"), so a question naming the statement reaches the row; but the row's own words decide which row
it is, so inherited terms weigh INHERITED_WEIGHT (a BM25F-style field weight). So does a year in a table
row ("2017: 5,466,312"): it is the label of a column, printed down every row of every multi-year
table, and tells which column holds the figure, not which row is asked for; a year that is the row's own
label ("2024 | Pension benefits: 1,097", a schedule of payments by year) counts fully. BM25's length
normalisation keeps a long paragraph that mentions everything once from outranking the row that states the
asked figure, and a unit with too few words of its own (a heading, an axis label) is damped by
SHORT_UNIT_TERMS: what a heading says reaches the units under it, and a bare heading is not evidence. A
cross-reference ("See Note 12 ... for information regarding dividends.") is damped like a heading: it names
what the answer is about and where it is, and holds none of it. So is a filing form's instruction or check
box ("Indicate by check mark whether the registrant is ...", "Emerging growth company | ☐"): the same on
every cover, it matches a question's words ("growth company") without being about the company's figures.
A query about a metric computed from figures (a margin, a ratio) damps, at query time, the units that print
no figure (``figure_flags``, kept in the stored layout): they name the metric and do not give its value.

Postings are NumPy arrays per document, sorted by key id, so scoring a query costs one binary search per
query key and document; nothing but NumPy is needed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from .model import SemanticDocument, SemanticUnit
from .patterns import is_cross_reference, is_form_boilerplate, prints_figure
from .textnorm import normalized_terms, term_bigrams

#: BM25 term-frequency saturation.
BM25_K1 = 1.2
#: BM25 length normalisation (0: none, 1: full).
BM25_B = 0.75
#: Weight of a term a unit inherits (from its table's caption) against one of its own words.
INHERITED_WEIGHT = 0.4
#: A term that is a year ("2022"; textnorm reads "FY2022" as 2022): in a table row, a column label, weighed
#: as inherited.
YEAR_TERM_RE = re.compile(r"(?:19|20)\d{2}")
#: What ends a table row's label in its flattened text ("2024 | Pension benefits: 1,097").
ROW_LABEL_END = " | "
#: Weight of a pair of adjacent words of the unit's own text (a phrase match counts on top of its words).
BIGRAM_WEIGHT = 1.0
#: Weight of a lexicon concept (a paraphrase class such as "operating income" / 영업이익).
CONCEPT_WEIGHT = 1.0
#: Query weight of a concept a metric the query names is computed from (reports print the inputs of a
#: ratio, not the ratio: "quick ratio" also looks for cash, receivables and current liabilities).
INPUT_CONCEPT_WEIGHT = 0.5
#: Weight of an entity the unit is about.
ENTITY_WEIGHT = 1.0
#: Weight, inside a document, of a query key that names the document itself (see LexicalIndex.score).
MUTED_KEY_WEIGHT = 0.1
#: A unit with fewer own terms than this scores in proportion (a heading alone is not evidence).
SHORT_UNIT_TERMS = 5
#: Unit kinds that never stand alone as lexical evidence (they reach the units they govern instead).
DAMPED_KINDS = frozenset({"heading"})
#: Unit kinds damped the same way when their text only points elsewhere (patterns.is_cross_reference).
POINTER_KINDS = frozenset({"proposition", "list_item"})
#: Segment kinds whose units are damped the same way: a table of contents names what the document holds
#: and where, so it matches the words of many questions without holding any answer.
DAMPED_SEGMENT_KINDS = frozenset({"contents"})
#: Factor on the score of a unit of DAMPED_KINDS, in a segment of DAMPED_SEGMENT_KINDS, a cross-reference or
#: a form's boilerplate.
DAMPED_KIND_FACTOR = 0.5
#: Factor on the lexical score of a unit that prints no figure (patterns.prints_figure), for a query about a
#: metric computed from the report's figures (a margin, a ratio: a lexicon concept with inputs). Reports name
#: such metrics in many sentences that give no value ("could reduce our operating margins", "involves
#: judgment on future operating margins"); the statement rows and the sentences with the figures are the
#: evidence. The same factor as a heading's: such a sentence names what is asked and holds none of it.
FIGURELESS_FACTOR = DAMPED_KIND_FACTOR


@dataclass
class Postings:
    """One document's postings: parallel arrays sorted by key id, plus each unit's weighted length.

    What LexicalIndex scores, and what a persistent store keeps per document so that opening an index reads
    these arrays back instead of tokenising every unit again.
    """

    keys: np.ndarray  # int32, sorted
    units: np.ndarray  # int32 unit positions
    weights: np.ndarray  # float32 field-weighted term frequency
    lengths: np.ndarray  # float32 per unit
    damping: np.ndarray  # float32 per unit: short or heading units score less

    def span(self, key_id: int) -> tuple[int, int]:
        """Where ``key_id``'s postings lie: entries ``lo`` to ``hi - 1`` (``lo == hi`` when no unit holds it)."""
        return int(np.searchsorted(self.keys, key_id, side="left")), int(np.searchsorted(self.keys, key_id, side="right"))

    def entries(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """Unit positions and weights of entries ``lo`` to ``hi - 1``."""
        return self.units[lo:hi], self.weights[lo:hi]

    def count(self, key_id: int) -> int:
        """How many units hold ``key_id`` (each unit holds a key at most once)."""
        lo, hi = self.span(key_id)
        return hi - lo


class PackedPostings:
    """Postings as a store keeps them, read where they lie: each distinct key id once with how many entries
    it has, unit positions in their narrowest dtype, and weights as one-byte codes into a table of values
    (or raw float32). Opening an index then makes no array the size of all the entries; a query reads the
    entries of its keys. ``keys``, ``units`` and ``weights`` give the arrays of Postings when asked for."""

    def __init__(self, key_ids: np.ndarray, key_counts: np.ndarray, units: np.ndarray,
                 weights: np.ndarray | tuple[np.ndarray, np.ndarray], lengths: np.ndarray, damping: np.ndarray) -> None:
        """``weights``: the float32 weights, or (table, codes) with weight i = table[codes[i]]. ValueError
        when the arrays do not agree."""
        self.key_ids = key_ids
        self.starts = np.zeros(len(key_ids) + 1, dtype=np.int64)
        np.cumsum(key_counts, out=self.starts[1:])
        self._units = units
        self._table, self._codes = weights if isinstance(weights, tuple) else (None, weights)
        self.lengths = lengths
        self.damping = damping
        if not int(self.starts[-1]) == len(units) == len(self._codes):
            raise ValueError(f"postings of {int(self.starts[-1])} keys, {len(units)} units and "
                             f"{len(self._codes)} weights")

    def span(self, key_id: int) -> tuple[int, int]:
        """As Postings.span."""
        at = int(np.searchsorted(self.key_ids, key_id))
        if at == len(self.key_ids) or self.key_ids[at] != key_id:
            return 0, 0
        return int(self.starts[at]), int(self.starts[at + 1])

    def entries(self, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
        """As Postings.entries."""
        codes = self._codes[lo:hi]
        return self._units[lo:hi], codes if self._table is None else self._table[codes]

    def count(self, key_id: int) -> int:
        lo, hi = self.span(key_id)
        return hi - lo

    @property
    def keys(self) -> np.ndarray:
        return np.repeat(self.key_ids, np.diff(self.starts))

    @property
    def units(self) -> np.ndarray:
        return self._units.astype(np.int32)

    @property
    def weights(self) -> np.ndarray:
        return self.entries(0, len(self._units))[1]


@dataclass
class TermCounts:
    """How often each term, concept and entity occurs in one document (key ids sorted), and their total:
    what the repository's document prior (a BM25 over whole documents) reads."""

    keys: np.ndarray  # int32, sorted
    counts: np.ndarray  # int32 occurrences of each key
    length: int


class KeyVocabulary(Protocol):
    """Lexical key → integer id; the ids postings are sorted by. A persistent store supplies its own, so
    that ids stay the same across processes; `ids` gives new keys the next ids. Ids are np.int32, the dtype
    of the postings' keys: looking one up in a document's postings then reads them in place (NumPy would
    first copy them to compare with a Python int)."""

    def __contains__(self, key: object) -> bool: ...

    def __getitem__(self, key: str) -> int: ...

    def get(self, key: str, default: int | None = None) -> int | None: ...

    def ids(self, keys: Sequence[str]) -> list[int]: ...


class Vocabulary(dict):
    """An in-memory KeyVocabulary: ids in order of first sight."""

    def ids(self, keys: Sequence[str]) -> list[int]:
        """The id of every key of ``keys``, new keys numbered from the vocabulary's size on."""
        out = []
        for key in keys:
            key_id = self.get(key)
            if key_id is None:
                key_id = self[key] = np.int32(len(self))
            out.append(key_id)
        return out


def query_keys(query: str, concepts: Iterable[str], entities: Iterable[str],
               inputs: Iterable[str] = ()) -> dict[str, float]:
    """A query's lexical keys (terms, bigrams, concepts, entities) with query weight 1, and the input
    concepts of the metrics it names with INPUT_CONCEPT_WEIGHT (unless the query names them itself)."""
    keys = dict.fromkeys(normalized_terms(query), 1.0)
    keys.update(dict.fromkeys(term_bigrams(query), 1.0))
    keys.update(dict.fromkeys(concepts, 1.0))
    keys.update(dict.fromkeys(entities, 1.0))
    for concept in inputs:
        keys.setdefault(concept, INPUT_CONCEPT_WEIGHT)
    return keys


def unit_fields(unit: SemanticUnit) -> dict[str, float]:
    """The unit's lexical keys with their field weights (own term 1, inherited term INHERITED_WEIGHT, a
    table row's year INHERITED_WEIGHT too unless it is the row's own label, ...)."""
    own = set(normalized_terms(unit.text))
    if unit.kind == "table_row":
        # a year in the row's label ("2024 | Pension benefits: 1,097") says which row it is
        label = unit.text.split(ROW_LABEL_END, 1)[0] if ROW_LABEL_END in unit.text and not unit.is_header else ""
        years = set(normalized_terms(label))
        own = {term for term in own if not YEAR_TERM_RE.fullmatch(term) or term in years}
    keys: dict[str, float] = {}
    for term in unit.terms:
        keys[term] = 1.0 if term in own else INHERITED_WEIGHT
    for bigram in term_bigrams(unit.text):
        keys[bigram] = BIGRAM_WEIGHT
    for concept in unit.concepts:
        keys[concept] = max(keys.get(concept, 0.0), CONCEPT_WEIGHT)
    for entity in unit.context_entities:
        keys[entity] = max(keys.get(entity, 0.0), ENTITY_WEIGHT)
    return keys


def _damping(unit: SemanticUnit, own_terms: int, navigation: bool) -> float:
    factor = min(1.0, own_terms / SHORT_UNIT_TERMS)
    text = unit.text
    if (unit.kind in DAMPED_KINDS or navigation or is_form_boilerplate(text)
            or (unit.kind in POINTER_KINDS and is_cross_reference(text))):
        factor *= DAMPED_KIND_FACTOR
    return factor


def figure_flags(doc: SemanticDocument) -> list[bool]:
    """Per unit of ``doc``, whether its text prints a figure (patterns.prints_figure)."""
    text = doc.text
    return [prints_figure(text[u.start_char : u.end_char]) for u in doc.units]


def document_postings(doc: SemanticDocument, vocabulary: KeyVocabulary) -> Postings:
    """The postings of every unit of ``doc``, keys numbered by ``vocabulary`` (new keys are added to it)."""
    unit_keys = [unit_fields(unit) for unit in doc.units]
    distinct = list(dict.fromkeys(key for fields in unit_keys for key in fields))
    key_id = dict(zip(distinct, vocabulary.ids(distinct)))
    rows: list[tuple[int, int, float]] = []
    lengths = np.zeros(len(doc.units), dtype=np.float32)
    damping = np.ones(len(doc.units), dtype=np.float32)
    navigation = {i for i, segment in enumerate(doc.segments) if segment.kind in DAMPED_SEGMENT_KINDS}
    for position, (unit, fields) in enumerate(zip(doc.units, unit_keys)):
        lengths[position] = sum(fields.values())
        own_terms = sum(1 for k, w in fields.items() if w >= 1.0 and " " not in k)
        damping[position] = _damping(unit, own_terms, unit.segment in navigation)
        rows.extend((key_id[key], position, weight) for key, weight in fields.items())
    rows.sort()
    return Postings(
        keys=np.fromiter((r[0] for r in rows), dtype=np.int32, count=len(rows)),
        units=np.fromiter((r[1] for r in rows), dtype=np.int32, count=len(rows)),
        weights=np.fromiter((r[2] for r in rows), dtype=np.float32, count=len(rows)),
        lengths=lengths,
        damping=damping,
    )


def document_term_counts(doc: SemanticDocument, vocabulary: KeyVocabulary) -> TermCounts:
    """Occurrences of every term, concept and entity of ``doc``'s units, keys numbered by ``vocabulary``."""
    counts: Counter[str] = Counter()
    for unit in doc.units:
        counts.update(unit.terms)
        counts.update(unit.concepts)
        counts.update(unit.entities)
    ids = np.asarray(vocabulary.ids(list(counts)), dtype=np.int32)
    order = np.argsort(ids, kind="stable")
    return TermCounts(keys=ids[order], counts=np.asarray(list(counts.values()), dtype=np.int32)[order],
                      length=sum(counts.values()))


class _DocumentFrequencies:
    """Units holding each key id over every document, counted from the postings when a key is first asked
    for (and kept until the postings change): opening an index then costs nothing per key."""

    def __init__(self, postings: Mapping[str, Postings | PackedPostings]) -> None:
        self._postings = postings
        self._known: dict[int, int] = {}

    def get(self, key_id: int, default: int = 0) -> int:
        df = self._known.get(key_id)
        if df is None:
            df = self._known[key_id] = sum(p.count(key_id) for p in self._postings.values())
        return df or default

    def forget(self) -> None:
        """Drop what was counted (a document was added or removed)."""
        self._known.clear()


class LexicalIndex:
    """Field-weighted BM25 over the units of many documents (add / remove / score).

    ``vocabulary`` numbers the keys (default: a new in-memory one); a repository kept in a store passes the
    store's, so that postings read back from it (add_postings) and new ones share their key ids.
    """

    def __init__(self, vocabulary: KeyVocabulary | None = None) -> None:
        self._vocabulary: KeyVocabulary = vocabulary if vocabulary is not None else Vocabulary()
        self._postings: dict[str, Postings | PackedPostings] = {}
        self._df = _DocumentFrequencies(self._postings)
        self._units = 0
        self._total_length = 0.0

    def __len__(self) -> int:
        return self._units

    @property
    def vocabulary(self) -> KeyVocabulary:
        """The key ids postings are numbered by."""
        return self._vocabulary

    def add(self, doc: SemanticDocument) -> None:
        """Index every unit of ``doc`` (a document with the same id is replaced)."""
        self.add_postings(doc.document_id, document_postings(doc, self._vocabulary))

    def add_postings(self, document_id: str, postings: Postings | PackedPostings) -> None:
        """Index a document from its postings (numbered by this index's vocabulary), replacing one with the
        same id: how an index read back from a store is filled without tokenising its units again."""
        self.remove(document_id)
        self._postings[document_id] = postings
        self._df.forget()
        self._units += len(postings.lengths)
        self._total_length += float(postings.lengths.sum())

    def remove(self, document_id: str) -> None:
        """Forget a document's units (nothing happens for an unknown id)."""
        postings = self._postings.pop(document_id, None)
        if postings is None:
            return
        self._df.forget()
        self._units -= len(postings.lengths)
        self._total_length -= float(postings.lengths.sum())

    def idf(self, key: str) -> float:
        """BM25's idf of ``key`` over every indexed unit (0 for a key no unit has)."""
        key_id = self._vocabulary.get(key)
        df = self._df.get(key_id, 0) if key_id is not None else 0
        if df <= 0:
            return 0.0
        return math.log(1.0 + (self._units - df + 0.5) / (df + 0.5))

    def score(self, query_keys: Mapping[str, float], documents: Iterable[str] | None = None,
              muted: Mapping[str, Iterable[str]] | None = None) -> dict[str, np.ndarray]:
        """BM25 of every unit of ``documents`` (all when None) for the query keys (key → query weight).

        ``muted`` maps a document id to query keys that weigh MUTED_KEY_WEIGHT in that document: the words
        that name the document itself (its company) tell which document, not which unit of it.
        Returns document id → one score per unit position (documents without a matching unit left out).
        """
        weighted = [(k, self._vocabulary[k], w * self.idf(k)) for k, w in query_keys.items() if k in self._vocabulary]
        weighted = [(key, key_id, w) for key, key_id, w in weighted if w > 0]
        if not weighted or not self._units:
            return {}
        average = self._total_length / self._units
        chosen = self._postings if documents is None else {d: self._postings[d] for d in documents if d in self._postings}
        out: dict[str, np.ndarray] = {}
        for document_id, postings in chosen.items():
            scores = np.zeros(len(postings.lengths), dtype=np.float32)
            norm = BM25_K1 * (1.0 - BM25_B + BM25_B * postings.lengths / average)
            quiet = frozenset((muted or {}).get(document_id, ()))
            matched = False
            for key, key_id, weight in weighted:
                if key in quiet:
                    weight *= MUTED_KEY_WEIGHT
                lo, hi = postings.span(key_id)
                if lo == hi:
                    continue
                matched = True
                units, tf = postings.entries(lo, hi)
                scores[units] += weight * tf * (BM25_K1 + 1.0) / (tf + norm[units])
            if matched:
                out[document_id] = scores * postings.damping
        return out
