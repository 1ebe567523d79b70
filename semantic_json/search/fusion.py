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

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ..index import SCORE_DECIMALS
from ..compilation.entities import names_parent_of
from .lexical import FIGURELESS_FACTOR

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
    #: The unit at a position's (entities, context entities): what the entity filter reads of it.
    entity_lists: Callable[[int], tuple[Sequence[str], Sequence[str]]]


def score_scale(priors: DocumentPriors, entities: bool, statements: bool) -> float:
    """The most the terms of an anchor's score can add up to for this query."""
    scale = 1.0 + (DOC_PRIOR_WEIGHT + PROFILE_PRIOR_WEIGHT if priors.several else 0.0)
    scale += ENTITY_MATCH_BONUS if entities else 0.0
    scale += STATEMENT_MATCH_BONUS if statements else 0.0
    return scale + (PERIOD_MATCH_BONUS if priors.period else 0.0)


def fuse(candidates: list[Candidate], priors: DocumentPriors, query_entities: frozenset[str],
         statements: frozenset[int], gate: bool,
         query_words: frozenset[str] = frozenset()) -> dict[str, list[tuple[int, float]]]:
    """Scored anchors per document (unit position, score in 0..1), after the entity filter, the lexical gate
    (``gate``: an anchor that matches no query key is no evidence) and the relative floor.

    For a query about a metric computed from figures, a unit that prints no figure keeps FIGURELESS_FACTOR
    of its BM25 (the candidate's ``figure_flags`` are set then)."""
    best_lexical = max((float(c.bm25.max()) for c in candidates if c.bm25 is not None and len(c.bm25)), default=0.0)
    scale = score_scale(priors, bool(query_entities), bool(statements))
    scored: list[tuple[str, int, float]] = []
    for candidate in candidates:
        document_id = candidate.document_id
        lift = priors.lift(document_id)
        bm25, codes, figures = candidate.bm25, candidate.statement_codes, candidate.figure_flags
        for position, cosine in zip(candidate.positions, candidate.cosines.tolist()):
            context: Sequence[str] = ()
            if query_entities or query_words:  # a unit's entities are read only to filter by entity
                entities, context = candidate.entity_lists(position)
                if context and names_parent_of(context[0], query_words):
                    continue  # about a subsidiary ("Kestrel Dynamics Korea"); the query names its parent
            if query_entities:
                if context and query_entities.isdisjoint(context):
                    continue  # about another entity than the one asked for
                if entities and entities[0] not in query_entities:
                    continue  # its subject is another entity; the one asked for is only mentioned ("unlike B")
            lexical = float(bm25[position]) / best_lexical if bm25 is not None and best_lexical else 0.0
            if figures is not None and not figures[position]:
                lexical *= FIGURELESS_FACTOR
            if gate and lexical == 0.0:
                continue
            score = (1.0 - LEXICAL_WEIGHT) * cosine + LEXICAL_WEIGHT * lexical + lift
            if query_entities and not query_entities.isdisjoint(context):
                score += ENTITY_MATCH_BONUS
            if codes is not None and int(codes[position]) in statements:
                score += STATEMENT_MATCH_BONUS
            scored.append((document_id, position, round(min(max(score / scale, 0.0), 1.0), SCORE_DECIMALS)))
    if not scored:
        return {}
    floor = max(s for _, _, s in scored) * RELATIVE_ANCHOR_FLOOR
    hits: dict[str, list[tuple[int, float]]] = {}
    for document_id, position, score in scored:
        if score >= floor:
            hits.setdefault(document_id, []).append((position, score))
    return hits


#: Share of the headroom above a region's best anchor that its second-best anchor fills: a region holding
#: two of the things asked for (current assets and current liabilities) outranks a sentence holding one.
SUPPORT_WEIGHT = 0.5


def region_score(anchor_scores: Iterable[float]) -> float:
    """A region's score: its best anchor's, raised toward 1 by its second-best (never above 1)."""
    best, second = (sorted(anchor_scores, reverse=True) + [0.0, 0.0])[:2]
    return round(best + SUPPORT_WEIGHT * (1.0 - best) * second, SCORE_DECIMALS)
