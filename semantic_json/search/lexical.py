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

This module says what a unit's keys and their weights are (unit_fields, document_postings) and the BM25
parameters; the engine keeps the postings by key and scores a query's keys (semantic_json.search.candidates).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from ..model import SemanticDocument, SemanticUnit
from ..rules.patterns import is_cross_reference, is_form_boilerplate, prints_figure
from ..rules.textnorm import normalized_terms, ordinal_period_terms, ordinal_year_offset, term_bigrams

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
#: Weight of a syllable pair of a unit's Korean word (SUBWORD_PREFIX + pair). Korean writes compounds as one
#: word (재보험손익, 영업자산) that a question splits or names in part (재보험 거래의 손익, 영업자산에서):
#: as CJK indexers do, a Hangul word is also keyed by its syllable pairs, which match inside compounds.
SUBWORD_WEIGHT = 0.5
SUBWORD_PREFIX = "#"
#: Weight of a lexicon concept (a paraphrase class such as "operating income" / 영업이익).
CONCEPT_WEIGHT = 1.0
#: Query weight of a concept a metric the query names is computed from (reports print the inputs of a
#: ratio, not the ratio: "quick ratio" also looks for cash, receivables and current liabilities).
INPUT_CONCEPT_WEIGHT = 0.5
#: Weight of an entity the unit is about.
ENTITY_WEIGHT = 1.0
#: Weight, inside a document, of a query key that names the document itself (search.candidates).
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
    """One document's postings: parallel arrays sorted by key id, plus each unit's weighted length and
    damping: what a store writes into its engine's tables (store/engine_rows.py)."""

    keys: np.ndarray  # int32, sorted
    units: np.ndarray  # int32 unit positions
    weights: np.ndarray  # float32 field-weighted term frequency
    lengths: np.ndarray  # float32 per unit
    damping: np.ndarray  # float32 per unit: short or heading units score less


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


def hangul_pairs(term: str) -> list[str]:
    """The syllable-pair keys of a Korean word (SUBWORD_PREFIX + two adjacent syllables); [] for others."""
    syllables = "".join(ch for ch in term if "가" <= ch <= "힣")
    return [SUBWORD_PREFIX + syllables[i : i + 2] for i in range(len(syllables) - 1)]


def query_keys(query: str, concepts: Iterable[str], entities: Iterable[str],
               inputs: Iterable[str] = ()) -> dict[str, float]:
    """A query's lexical keys (terms, their Hangul syllable pairs, bigrams, concepts, entities) with query
    weight 1, and the input concepts of the metrics it names with INPUT_CONCEPT_WEIGHT (unless the query
    names them itself)."""
    terms = normalized_terms(query)
    keys = dict.fromkeys(terms, 1.0)
    for term in terms:
        keys.update(dict.fromkeys(hangul_pairs(term), 1.0))
    keys.update(dict.fromkeys(term_bigrams(query), 1.0))
    keys.update(dict.fromkeys(concepts, 1.0))
    keys.update(dict.fromkeys(entities, 1.0))
    for concept in inputs:
        keys.setdefault(concept, INPUT_CONCEPT_WEIGHT)
    return keys


def unit_fields(unit: SemanticUnit, ordinal_offset: int | None = None) -> dict[str, float]:
    """The unit's lexical keys with their field weights (own term 1, inherited term INHERITED_WEIGHT, a
    table row's year INHERITED_WEIGHT too unless it is the row's own label, ...). ``ordinal_offset``: the
    document's textnorm.ordinal_year_offset, so that a period the unit prints as a fiscal ordinal ("제 27 기
    3분기": 2024q3) is its own term as it is when printed as a date."""
    own = set(normalized_terms(unit.text)) | set(ordinal_period_terms(unit.text, ordinal_offset))
    if unit.kind == "table_row":
        # a year in the row's label ("2024 | Pension benefits: 1,097") says which row it is
        label = unit.text.split(ROW_LABEL_END, 1)[0] if ROW_LABEL_END in unit.text and not unit.is_header else ""
        years = set(normalized_terms(label))
        own = {term for term in own if not YEAR_TERM_RE.fullmatch(term) or term in years}
    keys: dict[str, float] = {}
    pairs: dict[str, float] = {}
    for term in unit.terms:
        weight = keys[term] = 1.0 if term in own else INHERITED_WEIGHT
        for pair in hangul_pairs(term):
            pairs[pair] = max(pairs.get(pair, 0.0), weight * SUBWORD_WEIGHT)
    for pair, weight in pairs.items():
        keys.setdefault(pair, weight)
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
    offset = ordinal_year_offset(doc.text)
    unit_keys = [unit_fields(unit, offset) for unit in doc.units]
    distinct = list(dict.fromkeys(key for fields in unit_keys for key in fields))
    key_id = dict(zip(distinct, vocabulary.ids(distinct)))
    rows: list[tuple[int, int, float]] = []
    lengths = np.zeros(len(doc.units), dtype=np.float32)
    damping = np.ones(len(doc.units), dtype=np.float32)
    navigation = {i for i, segment in enumerate(doc.segments) if segment.kind in DAMPED_SEGMENT_KINDS}
    for position, (unit, fields) in enumerate(zip(doc.units, unit_keys)):
        # a unit's length counts its words, not the syllable pairs they are also keyed by
        lengths[position] = sum(w for k, w in fields.items() if not k.startswith(SUBWORD_PREFIX))
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
