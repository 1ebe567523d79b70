"""Stage 2 of a search: one score per candidate anchor, from its cosine, its BM25 and the priors of its document.

Every weight of the ranking is named here. An anchor's score is

    (1 - LEXICAL_WEIGHT) * cosine + LEXICAL_WEIGHT * bm25 / best bm25
      + DOC_PRIOR_WEIGHT * document prior + PROFILE_PRIOR_WEIGHT * profile prior      (several documents)
      + ENTITY_MATCH_BONUS      (the anchor is about an entity the query names)
      + STATEMENT_MATCH_BONUS   (it lies in the primary statement the query names)
      + PERIOD_MATCH_BONUS      (its document is of the period the query names; several documents)

divided by the most those terms can add up to for this query, so scores stay in 0..1 without a clamp that
would tie the best anchors. Anchors about another entity than the one the query names are dropped, and so
are those under RELATIVE_ANCHOR_FLOOR of the best, and those about a subsidiary ("Kestrel Dynamics Korea")
when the query names its parent ("Kestrel Dynamics") without the qualifier.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from ..index import SCORE_DECIMALS
from ..compilation.entities import names_parent_of
from .lexical import FIGURELESS_FACTOR
from .statements import in_statements

#: Share of an anchor's score that comes from field-weighted BM25 (scaled to the query's best anchor); the
#: rest is the embedder's cosine. Words name the line item and the statement; the embedder bridges wording.
LEXICAL_WEIGHT = 0.6
#: Added to an anchor about an entity the query names.
ENTITY_MATCH_BONUS = 0.05
#: Anchors scoring below this fraction of the best anchor are dropped.
RELATIVE_ANCHOR_FLOOR = 0.35
#: Weight of the document prior: an anchor gains up to this much when its document best matches the query.
DOC_PRIOR_WEIGHT = 0.15
#: Weight of the profile prior: an anchor gains up to this much when its document's profile (info
#: ``profile``: company, form, period of a filing) best matches the query. A question names its filing.
PROFILE_PRIOR_WEIGHT = 0.3
#: Added to an anchor in the primary statement a query names ("based on the balance sheet": the filing's
#: own balance sheet, not a note's or a subsidiary's; statements.py).
STATEMENT_MATCH_BONUS = 0.15
#: Added, in a search over several documents, to an anchor of a document of the period the query names
#: (Profiles.of_period: "FY2022" finds the FY2022 10-K before the FY2018 one of the same filer).
PERIOD_MATCH_BONUS = 0.15


@dataclass
class DocumentPriors:
    """What a search over several documents knows of each document before reading its anchors: the BM25
    prior of the whole document and the match of its profile (both 0..1, best document 1), and whether it
    is of the period the query names. Empty for a search in one document."""

    several: bool = False
    prior: Mapping[str, float] = field(default_factory=dict)
    profile: Mapping[str, float] = field(default_factory=dict)
    period: frozenset[str] = frozenset()

    def lift(self, document_id: str) -> float:
        """What the document adds to each of its anchors."""
        if not self.several:
            return 0.0
        return (DOC_PRIOR_WEIGHT * self.prior.get(document_id, 0.0) + PROFILE_PRIOR_WEIGHT * self.profile.get(document_id, 0.0)
                + (PERIOD_MATCH_BONUS if document_id in self.period else 0.0))


class EntityLayout(Protocol):
    """What the entity filter reads of a document's unit layout (store.records.UnitLayout): its arrays (the
    units' entity and context entity ids, by offsets), the names those ids number, and the first context
    entity of units tested by name."""

    @property
    def arrays(self) -> dict[str, np.ndarray]: ...

    @property
    def entity_names(self) -> list[str]: ...

    derived: dict[str, Any]

    def first_context_holds(self, positions: np.ndarray, test: Callable[[str], bool]) -> np.ndarray: ...


@dataclass
class Candidate:
    """Stage 1's view of one document: its candidate anchors (unit positions), their cosines, the BM25 of
    every unit of the document, and what the layout says of them."""

    document_id: str
    positions: list[int]
    cosines: np.ndarray  # float32, one per position
    bm25: np.ndarray | None  # float32 per unit of the document (None: no key of the query matched)
    statement_codes: np.ndarray | None  # per unit (None: not asked, or not recorded)
    figure_flags: np.ndarray | None  # per unit (None: not asked, or not recorded)
    #: The document's unit layout: what the entity filter reads of the units (entity_filter).
    layout: EntityLayout


def score_scale(priors: DocumentPriors, entities: bool, statements: bool) -> float:
    """The most the terms of an anchor's score can add up to for this query."""
    scale = 1.0 + (DOC_PRIOR_WEIGHT + PROFILE_PRIOR_WEIGHT if priors.several else 0.0)
    scale += ENTITY_MATCH_BONUS if entities else 0.0
    scale += STATEMENT_MATCH_BONUS if statements else 0.0
    return scale + (PERIOD_MATCH_BONUS if priors.period else 0.0)


def _lists_hold(offsets: np.ndarray, ids: np.ndarray, positions: np.ndarray, wanted: np.ndarray) -> np.ndarray:
    """Per unit at ``positions``, whether its list (``ids[offsets[p]:offsets[p + 1]]``) holds an id of ``wanted``."""
    starts, counts = offsets[positions].astype(np.int64), (offsets[positions + 1] - offsets[positions]).astype(np.int64)
    total = int(counts.sum())
    if not total or not len(wanted):
        return np.zeros(len(positions), dtype=bool)
    ends = np.cumsum(counts)
    hits = np.concatenate(([0], np.cumsum(np.isin(ids[np.repeat(starts - ends + counts, counts) + np.arange(total)], wanted))))
    return hits[ends] > hits[ends - counts]


def entity_filter(layout: EntityLayout, positions: np.ndarray, query_entities: frozenset[str],
                  query_words: frozenset[str]) -> tuple[np.ndarray, np.ndarray]:
    """Per unit at ``positions``: whether the entity filter keeps it, and whether it is about an entity the
    query names (its context entities hold one). A unit about a subsidiary ("Kestrel Dynamics Korea") whose
    parent the query words name is dropped; so, when the query names entities, is a unit about none of them
    and one whose subject (first entity) is another entity (the one asked for only mentioned: "unlike B")."""
    keep = np.ones(len(positions), dtype=bool)
    about = np.zeros(len(positions), dtype=bool)
    if query_words:
        keep &= ~layout.first_context_holds(positions, lambda name: names_parent_of(name, query_words))
    if not query_entities:
        return keep, about
    arrays = layout.arrays
    number = layout.derived.get("entity_number")
    if number is None:  # once per layout: a document names hundreds of entities, a query a few
        number = layout.derived["entity_number"] = {name: n for n, name in enumerate(layout.entity_names)}
    asked = np.asarray(sorted(number[e] for e in query_entities if e in number), dtype=np.int64)
    context, entities = arrays["context_offsets"], arrays["entity_offsets"]
    about = _lists_hold(context, arrays["context_ids"], positions, asked)
    keep &= (context[positions + 1] == context[positions]) | about
    subject = entities[positions + 1] > entities[positions]
    keep[subject] &= np.isin(arrays["entity_ids"][entities[positions[subject]]], asked)
    return keep, about


#: Scores within this much of half a unit of the last decimal kept are rounded by Python's round() (exactly,
#: as the scores always were); NumPy's product by a power of ten is off by far less anywhere else.
NEAR_HALF = 1e-6


def rounded_scores(scores: np.ndarray) -> np.ndarray:
    """``scores`` (float64) rounded to SCORE_DECIMALS, each as Python's round() gives it."""
    scaled = scores * 10.0**SCORE_DECIMALS
    out = np.rint(scaled) / 10.0**SCORE_DECIMALS
    for at in np.flatnonzero(np.abs(scaled - np.floor(scaled) - 0.5) < NEAR_HALF).tolist():
        out[at] = round(float(scores[at]), SCORE_DECIMALS)
    return out


def fuse(candidates: list[Candidate], priors: DocumentPriors, query_entities: frozenset[str],
         statements: frozenset[int], gate: bool,
         query_words: frozenset[str] = frozenset()) -> dict[str, list[tuple[int, float]]]:
    """Scored anchors per document (unit position, score in 0..1), after the entity filter, the lexical gate
    (``gate``: an anchor that matches no query key is no evidence) and the relative floor.

    For a query about a metric computed from figures, a unit that prints no figure keeps FIGURELESS_FACTOR
    of its BM25 (the candidate's ``figure_flags`` are set then)."""
    best_lexical = max((float(c.bm25.max()) for c in candidates if c.bm25 is not None and len(c.bm25)), default=0.0)
    scale = score_scale(priors, bool(query_entities), bool(statements))
    asked = np.asarray(sorted(statements), dtype=np.int64)
    # per candidate, what its anchors' scores are made of; scored all at once below
    parts = []
    for candidate in candidates:
        positions = np.asarray(candidate.positions, dtype=np.int64)
        keep, about = entity_filter(candidate.layout, positions, query_entities, query_words)
        bm25, codes, figures = candidate.bm25, candidate.statement_codes, candidate.figure_flags
        none = np.zeros(len(positions), dtype=bool)
        parts.append((positions, keep, about, candidate.cosines,
                      bm25[positions] if bm25 is not None else np.zeros(len(positions), dtype=np.float32),
                      figures[positions] == 0 if figures is not None else none,
                      in_statements(codes[positions], asked) if codes is not None else none))
    if not parts:
        return {}
    counts = [len(part[0]) for part in parts]
    positions, keep, about, cosines, bm25, figureless, stated = (np.concatenate(column) for column in zip(*parts))
    # the same float64 operations, in the same order, as one anchor at a time
    lexical = bm25.astype(np.float64) / best_lexical if best_lexical else np.zeros(len(positions))
    lexical = np.where(figureless, lexical * FIGURELESS_FACTOR, lexical)
    if gate:
        keep &= lexical != 0.0
    score = (1.0 - LEXICAL_WEIGHT) * cosines.astype(np.float64) + LEXICAL_WEIGHT * lexical
    score = score + np.repeat([priors.lift(c.document_id) for c in candidates], counts)
    if query_entities:
        score = np.where(about, score + ENTITY_MATCH_BONUS, score)
    score = np.where(stated, score + STATEMENT_MATCH_BONUS, score)
    scores = rounded_scores(np.minimum(np.maximum(score[keep] / scale, 0.0), 1.0))
    if not len(scores):
        return {}
    above = scores >= float(scores.max()) * RELATIVE_ANCHOR_FLOOR
    held = np.repeat(np.arange(len(candidates)), counts)[keep][above]
    kept, values = positions[keep][above].tolist(), scores[above].tolist()
    hits: dict[str, list[tuple[int, float]]] = {}
    at = 0
    for candidate, count in zip(candidates, np.bincount(held, minlength=len(candidates)).tolist()):
        if count:
            hits[candidate.document_id] = list(zip(kept[at : at + count], values[at : at + count]))
            at += count
    return hits


#: Share of the headroom above a region's best anchor that its second-best anchor fills: a region holding
#: two of the things asked for (current assets and current liabilities) outranks a sentence holding one.
SUPPORT_WEIGHT = 0.5


def region_score(anchor_scores: Iterable[float]) -> float:
    """A region's score: its best anchor's, raised toward 1 by its second-best (never above 1)."""
    best, second = (sorted(anchor_scores, reverse=True) + [0.0, 0.0])[:2]
    return round(best + SUPPORT_WEIGHT * (1.0 - best) * second, SCORE_DECIMALS)
