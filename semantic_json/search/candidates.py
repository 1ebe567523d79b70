"""Stage 1 of a search: a bounded set of candidate anchors, read from the engine the index lives in.

A query is turned into its lexical keys (terms, adjacent pairs, lexicon concepts, entities: the keys the
compiler indexed, lexical.py) and its vector. The engine (a store: one SQLite file, or a PostgreSQL server)
answers with what those keys touch and nothing else:

1. **Routing.** In a search over several documents, the documents' priors (fusion.DocumentPriors: the BM25
   of each whole document from the engine's term counts of the query's keys, the match of each document's
   profile, the period the query names) rank the documents; at most ROUTED_DOCUMENTS of them are searched.
   A query that names its filer keeps to that filer's documents first (priors.Profiles.narrowed); filters
   (company, year, form, document ids) keep to theirs.
2. **Postings.** The postings rows of the query's keys in the routed documents, scored by field-weighted
   BM25 with the corpus's statistics (units and documents per key, total lengths: kept by the engine).
3. **Anchors.** Per document its best units by BM25 (and the best rows of the statement the query names),
   and the best units by cosine over the documents searched, among each document's COSINE_POOL best by
   BM25 (an embedder whose scores need no lexical match: among all its units), scored from the
   document's vector block (one row).

What a search holds is then the rows of its keys and the records of the documents it routes to; opening an
index reads one small row per document.
"""

from __future__ import annotations

import re

import math
from collections import OrderedDict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ..embedders import Embedder
from ..compilation.entities import entity_ids
from .lexical import BM25_B, BM25_K1, MUTED_KEY_WEIGHT, SUBWORD_PREFIX, query_keys as lexical_query_keys
from ..lexicon import load_lexicon
from .priors import Profiles, document_prior
from .statements import query_statements
from ..store.base import DamagedDocumentError, IndexStore, Totals, damage
from ..store.engine_rows import block_dots, posting_entries
from ..store.records import UNIT_KINDS, SearchRecord
from ..rules.textnorm import BIGRAM_JOIN
from .fusion import Candidate, DocumentPriors

#: Documents a search over several documents scores anchor by anchor (the best by their priors).
ROUTED_DOCUMENTS = 24
#: Best-BM25 anchors taken per document searched.
LEXICAL_CANDIDATES = 64
#: Best-cosine anchors taken per requested region, over all documents searched.
ANCHOR_CANDIDATES_PER_REGION = 8
#: Best-cosine anchors taken at least.
MIN_ANCHOR_CANDIDATES = 128
#: Units per document whose cosines are read, the best by BM25 (with an embedder whose scores need a lexical
#: match; without one, every unit of the documents searched).
COSINE_POOL = 512
#: Search records (unit layout and BM25 lengths) kept in memory between searches, most recently used.
CACHED_RECORDS = 128


#: Words of a query as entity ids spell them, and a capital letter (a query without one names no organisation
#: the way English names qualify one).
NAME_WORD_RE = re.compile(r"[A-Za-z0-9가-힣]+")
CAPITAL_RE = re.compile(r"[A-Z]")


@dataclass
class QueryPlan:
    """What stage 1 reads of a query: its vector, entities, lexicon concepts (and the inputs of a metric it
    names), its lexical keys with their query weights, the keys that choose documents, and the primary
    statements it names."""

    vector: np.ndarray
    entities: frozenset[str]
    concepts: list[str]
    keys: dict[str, float]
    prior_keys: frozenset[str]
    statements: frozenset[int]
    metric: bool
    #: The query's words in upper case when it names something in capitals (an organisation's name may be
    #: among them: entities.names_parent_of); empty otherwise.
    words: frozenset[str] = frozenset()


def plan_query(query: str, embedder: Embedder) -> QueryPlan:
    """The QueryPlan of ``query`` (its content words: see textnorm.query_content) for ``embedder``."""
    vector = np.asarray(embedder.embed_query(query), dtype=np.float32)
    entities = frozenset(entity_ids(query))
    lexicon = load_lexicon()
    concepts = lexicon.concepts(query)
    inputs = [i for concept in concepts for i in lexicon.inputs(concept)]
    keys = lexical_query_keys(query, concepts, entities, inputs)
    # terms, concepts, entities: what the query says itself (metric inputs do not choose the document)
    prior_keys = frozenset(key for key, weight in keys.items()
                           if BIGRAM_JOIN not in key and not key.startswith(SUBWORD_PREFIX) and weight == 1.0)
    # "according to the balance sheet": its own, first; a margin or a ratio: its value is in figures
    words = frozenset(w.upper() for w in NAME_WORD_RE.findall(query)) if CAPITAL_RE.search(query) else frozenset()
    return QueryPlan(vector, entities, concepts, keys, prior_keys, query_statements(concepts + inputs), bool(inputs),
                     words)


@dataclass
class HeldDocument:
    """What a repository holds of one document of its engine: its number there, units, prior length and
    fingerprint (the rest is read when a search needs it)."""

    seq: int
    n_units: int
    length: int
    fingerprint: str


class RecordCache:
    """Search records read from the engine, at most CACHED_RECORDS of them, the least recently used dropped."""

    def __init__(self, read: Callable[[str], SearchRecord], size: int = CACHED_RECORDS) -> None:
        self._read = read
        self._size = size
        self._held: OrderedDict[str, SearchRecord] = OrderedDict()

    def __getitem__(self, document_id: str) -> SearchRecord:
        record = self._held.get(document_id)
        if record is None:
            record = self._held[document_id] = self._read(document_id)
            while len(self._held) > self._size:
                self._held.popitem(last=False)
        else:
            self._held.move_to_end(document_id)
        return record

    def forget(self, document_id: str) -> None:
        self._held.pop(document_id, None)


class CandidateSearch:
    """Stage 1 over one engine: ``store`` (its tables), ``documents`` (what the repository holds of each
    document, in the order they were added), ``records`` (search records by document id) and the key ids of
    the engine's vocabulary (``key_id``: None for a key it lacks)."""

    def __init__(self, store: IndexStore, documents: Mapping[str, HeldDocument], records: RecordCache,
                 key_id: Callable[[str], int | None], profiles: Profiles, by_seq: Mapping[int, str]) -> None:
        self.store = store
        self.documents = documents
        self.records = records
        self.key_id = key_id
        self.profiles = profiles
        #: Document id by its number in the engine (kept by the repository with ``documents``).
        self.by_seq = by_seq

    # ------------------------------------------------------------- routing

    def priors(self, plan: QueryPlan, query: str, only: Collection[str] | None, totals: Totals) -> DocumentPriors:
        """The priors of a search over several documents (``only``: those; None: all)."""
        # the keys in the order of their words: the order the document prior adds their scores up in
        ranked = [key_id for key_id in map(self.key_id, sorted(plan.prior_keys)) if key_id is not None]
        # a search kept to some documents (a filter, the filer a question names) reads their term counts only,
        # with each key's documents counted over the whole index (its statistics)
        kept = None if only is None else sorted(self.documents[d].seq for d in only if d in self.documents)
        rows = self.store.document_counts(sorted(ranked), kept) if ranked else np.zeros((0, 3), dtype=np.int64)
        seqs, at = np.unique(rows[:, 1], return_inverse=True)
        ids = [self.by_seq.get(seq) for seq in seqs.tolist()]
        lengths = np.asarray([self.documents[d].length if d is not None else -1 for d in ids], dtype=np.float64)
        row_lengths = lengths[at.reshape(-1)]
        held = row_lengths >= 0  # rows of a document not held (left out as damaged) do not count
        order = np.empty(len(ranked), dtype=np.int64)
        order[np.argsort(ranked)] = np.arange(len(ranked))
        by_rank = np.argsort(order[np.searchsorted(np.sort(ranked), rows[held, 0])], kind="stable")
        rows = rows[held][by_rank]
        holding = None
        if kept is not None:
            stats = self.store.key_stats(ranked)
            holding = np.asarray([stats.get(k, (0, 0))[1] for k in rows[:, 0].tolist()], dtype=np.int64)
        scored = document_prior(rows, row_lengths[held][by_rank], totals.documents, totals.document_length, holding)
        prior = {self.by_seq[int(seq)]: value for seq, value in scored.tolist()}
        profile = self.profiles.scores(set(plan.keys))
        period = self.profiles.of_period(query, self.documents if only is None else only)
        return DocumentPriors(True, prior, profile, period)

    def route(self, priors: DocumentPriors, universe: Sequence[str]) -> list[str]:
        """The documents of ``universe`` to score anchor by anchor: all when they are few, else the
        ROUTED_DOCUMENTS best by what their priors add to their anchors (the earlier added first on ties)."""
        if len(universe) <= ROUTED_DOCUMENTS:
            return list(universe)
        order = {document_id: n for n, document_id in enumerate(universe)}
        ranked = sorted(universe, key=lambda d: (-priors.lift(d), order[d]))
        return ranked[:ROUTED_DOCUMENTS]

    # ------------------------------------------------------------- anchors

    def bm25(self, plan: QueryPlan, documents: Sequence[str], totals: Totals,
             muted: Mapping[str, Iterable[str]]) -> dict[str, np.ndarray]:
        """Field-weighted BM25 of every unit of ``documents`` for the query's keys, with the corpus's
        statistics (``muted``: per document, query keys that name the document itself, which weigh
        MUTED_KEY_WEIGHT there). Documents without a matching unit are left out."""
        ids = {key: self.key_id(key) for key in plan.keys}
        known = {key: key_id for key, key_id in ids.items() if key_id is not None}
        if not known or not totals.units:
            return {}
        stats = self.store.key_stats(sorted(set(known.values())))
        # in the query's order (not by key id, which differs between engines): the same float32 sums, so the
        # same scores, from every store
        weighted: list[tuple[str, int, float]] = []
        for key, key_id in known.items():
            units = stats.get(key_id, (0, 0))[0]
            if units <= 0:
                continue
            weight = plan.keys[key] * math.log(1.0 + (totals.units - units + 0.5) / (units + 0.5))
            if weight > 0:
                weighted.append((key, key_id, weight))
        if not weighted:
            return {}
        average = totals.length / totals.units
        seqs = {self.documents[d].seq: d for d in documents}
        rows: dict[str, dict[int, bytes]] = {}
        for key_id, seq, entries in self.store.postings(sorted({key_id for _, key_id, _ in weighted}), sorted(seqs)):
            rows.setdefault(seqs[seq], {})[key_id] = entries
        scores: dict[str, np.ndarray] = {}
        for document_id in documents:
            found = rows.get(document_id)
            if not found:
                continue
            record = self.records[document_id]
            lengths = record.postings.lengths
            scores[document_id] = total = np.zeros(len(lengths), dtype=np.float32)
            norm = BM25_K1 * (1.0 - BM25_B + BM25_B * lengths / average)
            quiet = frozenset(muted.get(document_id, ()))
            for key, key_id, weight in weighted:
                entries = found.get(key_id)
                if entries is None:
                    continue
                try:
                    units, tf = posting_entries(entries, record.n_units)
                except ValueError as exc:
                    raise DamagedDocumentError(self.store.path, document_id, damage(exc)) from None
                if key in quiet:
                    weight *= MUTED_KEY_WEIGHT
                total[units] += weight * tf * (BM25_K1 + 1.0) / (tf + norm[units])
        return {d: s * self.records[d].postings.damping for d, s in scores.items()}

    def cosines(self, vector: np.ndarray, document_id: str, positions: Sequence[int] | None) -> tuple[np.ndarray, np.ndarray]:
        """The cosines (dot products of L2-normalised vectors) of the units ``positions`` (all when None) of a
        document with the query ``vector``, from the document's vector block."""
        held = self.documents[document_id]
        units = None if positions is None else np.asarray(sorted(positions), dtype=np.int64)
        block = self.store.vectors(document_id, held.fingerprint)  # an engine's error is no damage: not caught
        try:
            values = block_dots(block, held.n_units, vector, units)
        except ValueError as exc:
            raise DamagedDocumentError(self.store.path, document_id, damage(exc)) from None
        return (np.arange(held.n_units) if units is None else units), values

    def candidates(self, plan: QueryPlan, documents: Sequence[str], bm25: Mapping[str, np.ndarray], k: int,
                   gate: bool, min_cosine: float, kinds: frozenset[str] | None) -> list[Candidate]:
        """Per document of ``documents``: its best anchors by BM25 (and the best rows of the statement the
        query names), and the best anchors by cosine over all of ``documents``; their cosines. The cosines
        are read for each document's COSINE_POOL best units by BM25 (with a lexical ``gate``, a unit that
        matches no key is no evidence) or for all its units (without one). ``kinds`` keeps only units of
        those kinds (None: all)."""
        chosen: dict[str, set[int]] = {}
        pooled: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        # the cosine pools' units above min_cosine: (cosine, document's place in ``documents``, position)
        ranked: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        for n, document_id in enumerate(documents):
            scores = bm25.get(document_id)
            record = self.records[document_id]
            eligible = _kind_mask(record, kinds) if kinds is not None else None
            if scores is not None:
                matched = np.flatnonzero(scores > 0 if eligible is None else eligible & (scores > 0))
                order = matched[np.argsort(-scores[matched], kind="stable")]
                picked = set(order[:LEXICAL_CANDIDATES].tolist())
                codes = record.layout.statement_codes if plan.statements else None
                if codes is not None:  # the asked statement's best rows compete, though other units match more words
                    asked = np.isin(codes, list(plan.statements)) & (scores > 0)
                    lifted = np.flatnonzero(asked if eligible is None else asked & eligible)
                    picked.update(lifted[np.argsort(-scores[lifted], kind="stable")[:LEXICAL_CANDIDATES]].tolist())
                if picked:
                    chosen[document_id] = picked
                pool: list[int] | None = sorted(set(order[:COSINE_POOL].tolist()) | picked)
            elif gate:
                continue
            else:
                pool = None
            units, values = self.cosines(plan.vector, document_id, pool)
            pooled[document_id] = units, values
            above = values.astype(np.float64) > min_cosine
            if eligible is not None:
                above &= eligible[units]
            ranked.append((values[above], np.full(int(above.sum()), n, dtype=np.int64), units[above]))
        if ranked:
            values, places, units = (np.concatenate(column) for column in zip(*ranked))
            # best cosine first, then the document's place, then the position (the triples are distinct)
            best = np.lexsort((units, places, -values))[: max(MIN_ANCHOR_CANDIDATES, k * ANCHOR_CANDIDATES_PER_REGION)]
            for place, position in zip(places[best].tolist(), units[best].tolist()):
                chosen.setdefault(documents[place], set()).add(position)
        out = []
        for document_id in documents:
            positions = sorted(chosen.get(document_id, ()))
            if not positions:
                continue
            layout = self.records[document_id].layout
            out.append(Candidate(document_id, positions, _pooled_cosines(*pooled[document_id], positions),
                                 bm25.get(document_id), layout.statement_codes if plan.statements else None,
                                 layout.figure_flags if plan.metric else None, layout.entity_lists))
        return out


def _pooled_cosines(units: np.ndarray, values: np.ndarray, positions: Sequence[int]) -> np.ndarray:
    """The cosines (float32) of ``positions`` among a pool's sorted ``units`` and their ``values``; 0 for a
    position outside the pool."""
    wanted = np.asarray(positions, dtype=np.int64)
    at = np.minimum(np.searchsorted(units, wanted), max(len(units) - 1, 0))
    if not len(units):
        return np.zeros(len(wanted), dtype=np.float32)
    return np.where(units[at] == wanted, values[at], np.float32(0.0)).astype(np.float32)


def _kind_mask(record: SearchRecord, kinds: frozenset[str]) -> np.ndarray:
    """Per unit of a record, whether its kind is one of ``kinds``."""
    codes = [code for code, kind in enumerate(UNIT_KINDS) if kind in kinds]
    return np.isin(record.layout.arrays["kind"], codes)

