"""SemanticRepository: holds compiled documents and their anchor index; searches, locates and verifies.

search(query) = anchor retrieval (cosine over anchor vectors, a light lexical/entity adjustment, and an
entity filter: when the query names entities, anchors about other entities are not evidence) → per
document, clustering and entity-safe expansion (regions.py) → SearchResult, regions grouped by document.

The repository's state is the documents plus a VectorIndex (float32 matrix with row → (document, unit)
keys), the lexical postings and the document prior's counts; compile() is separate, so a persistent store
can save and restore all of it without re-compiling. A repository opened from a store reads each document's
search record (store/records.py) and leaves each document in the store until a search returns one of its
regions (or the caller asks for it); a document added to it is held the same way once it is written, so
filling an index costs the memory of one document, not of the index.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Union

import numpy as np

from .embedders import Embedder, LiteEmbedder
from .entities import entity_ids
from .errors import (
    EmbedderMismatchError,
    EmptyQueryError,
    QueryTypeError,
    UnknownDocumentError,
    UnknownRegionError,
)
from .index import SCORE_DECIMALS, VectorIndex
from .lexical import FIGURELESS_FACTOR, LexicalIndex, document_postings, query_keys as lexical_query_keys
from .lexicon import load_lexicon
from .model import SemanticDocument
from .priors import PROFILE_KEY, SUBJECT_KEY, DocumentStats, Profiles, info_text
from .provenance import UNKNOWN_DOCUMENT, VerificationResult, check_pdf, source_text, verify_region
from .regions import RegionDraft, best_drafts, to_region
from .statements import query_statements
from .store import open_store
from .store.base import DamagedDocumentError, IndexFileError, IndexStore, read_vectors
from .store.documents import HeldDocuments
from .store.records import SearchRecord, StoredVectors, UnitLayout
from .store.sqlite import document_fingerprint
from .textnorm import BIGRAM_JOIN, query_content
from .transport import EvidenceRegion, SearchResult, SourceSpan

#: Anchors fetched from the vector index per requested region.
ANCHOR_CANDIDATES_PER_REGION = 8
#: Anchors fetched from the vector index at least.
MIN_ANCHOR_CANDIDATES = 128
#: Best-BM25 anchors added per document searched, whatever their cosine.
LEXICAL_CANDIDATES = 64
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
#: Prefix of caller notes in the index file's meta table (apart from the store's own keys).
NOTE_PREFIX = "note:"
#: Region ids remembered for get_region() (oldest forgotten first).
MAX_REMEMBERED_REGIONS = 10_000
#: Default number of regions returned by search().
DEFAULT_K = 5

RegionRef = Union[EvidenceRegion, str]


class SemanticRepository:
    """Compiled documents and their semantic index. `embedder` defaults to LiteEmbedder()."""

    def __init__(self, embedder: Embedder | None = None) -> None:
        self.embedder: Embedder = embedder if embedder is not None else LiteEmbedder()
        self._documents = HeldDocuments()
        #: Per document what entity filtering and region assembly read of its units: the document itself,
        #: or the layout from its search record while the document stays in the store.
        self._layouts: dict[str, SemanticDocument | UnitLayout] = {}
        self._index = VectorIndex(self.embedder.dim, self.embedder.name)
        #: Per document still in the store as read at open: how its vectors are kept, its fingerprint.
        self._stored_vectors: dict[str, tuple[StoredVectors, str]] = {}
        self._regions: OrderedDict[str, EvidenceRegion] = OrderedDict()
        self._store: IndexStore | None = None
        self._infos: dict[str, dict[str, Any]] = {}
        self._lexical = LexicalIndex()
        self._notes: dict[str, str] = {}
        self._doc_stats = DocumentStats(self._lexical.vocabulary)
        self._profiles = Profiles()
        #: Per document its unit layout as a store keeps it, for what scoring reads of each unit: the primary
        #: statement it lies in (statements.py) and whether it prints a figure (lexical.figure_flags); each
        #: None in a layout stored before it was.
        self._unit_flags: dict[str, UnitLayout] = {}
        #: Documents of the index file that could not be read (document id → why); see open().
        self.damaged: dict[str, str] = {}

    @classmethod
    def open(cls, path: str | Path, embedder: Embedder | None = None, read_only: bool = False) -> SemanticRepository:
        """A repository kept in the SQLite file at `path` (created if missing, unless `read_only`), or on a
        PostgreSQL server with pgvector when `path` is a ``postgresql://`` URL (the `postgres` extra; tables
        created if missing).

        What search needs is read back without re-embedding or re-tokenising (each document's search record;
        the vectors of an embedding dimension when a query first uses it; a document's text when a search
        returns one of its regions); every later add() and remove() is written through, one transaction per
        document. `read_only=True` never writes to the file (search, verify
        and locate work on a read-only file or folder; add/remove raise ReadOnlyIndexError).
        EmbedderMismatchError when the file was built with another embedder; IndexFileError when it is not
        one of our index files (another application's SQLite file is refused unchanged) or is damaged.
        Damaged documents are left out and listed in `damaged`.
        """
        repo = cls(embedder)
        store = open_store(path, read_only=read_only)
        try:
            store.bind_embedder(repo.embedder.name, repo.embedder.dim)
            stored, damaged = store.load()
            for s in stored:
                if s.record.dim != repo.embedder.dim:
                    raise EmbedderMismatchError(f"{store.path}: document {s.document_id!r} has vectors of "
                                                f"{s.record.dim} dimensions, the embedder {repo.embedder.dim}")
        except BaseException:
            store.close()
            raise
        held = repo._stored_vectors
        held.update((s.document_id, (s.record.vectors, s.fingerprint)) for s in stored)
        repo._index = VectorIndex.from_store(
            repo.embedder.dim, [(s.document_id, s.record.n_units) for s in stored],
            lambda dimensions: read_vectors(store.path, store.vector_entries(dimensions), held, dimensions),
            repo.embedder.name)
        repo._lexical = LexicalIndex(store.vocabulary())
        repo._doc_stats = DocumentStats(repo._lexical.vocabulary)
        for s in stored:
            document_id = s.document_id
            repo._documents.stored(document_id, s.fingerprint)
            repo._layouts[document_id] = s.record.layout
            repo._unit_flags[document_id] = s.record.layout
            repo._lexical.add_postings(document_id, s.record.postings)
            repo._doc_stats.add_counts(document_id, s.record.counts)
            repo._profiles.set(document_id, info_text(s.info, PROFILE_KEY), info_text(s.info, SUBJECT_KEY))
        repo._documents.where = store.path
        repo._documents.read = lambda document_id, fingerprint: store.source(
            document_id, repo._layouts[document_id], fingerprint)
        repo._store = store
        repo.damaged = damaged
        return repo

    @property
    def path(self) -> Path | str | None:
        """The index file (or server URL without password), for a repository opened with open(); None in memory."""
        return self._store.path if self._store is not None else None

    def document_info(self, document_id: str) -> dict[str, Any]:
        """Caller-supplied info stored with a document by add(..., info=) (empty in memory)."""
        if document_id not in self._documents:
            raise UnknownDocumentError(document_id)
        return (self._store.info(document_id) if self._store is not None else self._infos.get(document_id)) or {}

    def get_note(self, key: str) -> str | None:
        """A string the caller stored with set_note() (kept in the index file when there is one)."""
        if self._store is not None:
            return self._store.get_meta(f"{NOTE_PREFIX}{key}")
        return self._notes.get(key)

    def set_note(self, key: str, value: str) -> None:
        """Keep a string beside the documents, e.g. the last search result of a CLI session."""
        if self._store is not None:
            self._store.set_meta(f"{NOTE_PREFIX}{key}", value)
        else:
            self._notes[key] = value

    def close(self) -> None:
        """Close the index file (a repository in memory has nothing to close)."""
        if self._store is not None:
            self._store.close()
            self._store = None
            self._documents.read = None

    @classmethod
    def from_parts(
        cls, documents: Iterable[SemanticDocument], index: VectorIndex, embedder: Embedder | None = None
    ) -> SemanticRepository:
        """A repository from saved state: compiled documents plus an index saved from `index.matrix` /
        `index.keys()` (see VectorIndex.from_arrays). Nothing is re-embedded.

        EmbedderMismatchError if the index was built by another embedder (name or dim) or does not match
        the documents' units.
        """
        repo = cls(embedder)
        if index.embedder_name != repo.embedder.name or index.dim != repo.embedder.dim:
            raise EmbedderMismatchError(
                f"index was built by {index.embedder_name!r} (dim {index.dim}); this repository embeds with "
                f"{repo.embedder.name!r} (dim {repo.embedder.dim}); re-add the documents to re-embed them"
            )
        held = {doc.document_id: doc for doc in documents}
        rows: dict[str, list[int]] = {}
        for document_id, position in index.keys():
            rows.setdefault(document_id, []).append(position)
        for document_id, doc in held.items():
            if sorted(rows.get(document_id, ())) != list(range(len(doc.units))):
                raise EmbedderMismatchError(f"index rows of document {document_id!r} do not match its units")
        if set(rows) - set(held):
            raise EmbedderMismatchError(f"index holds rows of documents not given: {sorted(set(rows) - set(held))}")
        for doc in held.values():
            doc.check_integrity()
        for document_id in index.document_ids():
            doc = repo._documents[document_id] = repo._layouts[document_id] = held[document_id]
            repo._lexical.add(doc)
            repo._doc_stats.add(doc)
            repo._unit_flags[document_id] = UnitLayout.from_document(doc)
        repo._index = index
        return repo

    # ------------------------------------------------------------ documents

    def add(self, doc: SemanticDocument, info: dict[str, Any] | None = None) -> bool:
        """Index `doc`'s units as anchors; a document with the same id is replaced.

        `info` is JSON-safe metadata kept beside the document (its PDF path and hash, say). In an index file,
        re-adding a document identical to the stored one is skipped: the return value is False then, True when
        the document was (re-)indexed; the repository then holds what opening the file would read, not `doc`.
        """
        if not isinstance(doc, SemanticDocument):
            raise TypeError(f"add() expects a SemanticDocument from semantic_json.compile(), got {type(doc).__name__}")
        doc.check_integrity()
        fingerprint = None
        if self._store is not None:
            fingerprint = document_fingerprint(doc)
            if doc.document_id in self._documents and self._store.fingerprint(doc.document_id) == fingerprint:
                return False
        embed_units = getattr(self.embedder, "embed_units", None)
        if embed_units is not None:
            vectors = embed_units(doc.units)
        else:
            vectors = self.embedder.embed_documents([u.text for u in doc.units])
        if vectors.shape != (len(doc.units), self._index.dim):
            raise EmbedderMismatchError(
                f"embedder {self.embedder.name!r} returned shape {vectors.shape} for {len(doc.units)} units, "
                f"expected ({len(doc.units)}, {self._index.dim})"
            )
        document_id = doc.document_id
        record = SearchRecord(vectors, document_postings(doc, self._lexical.vocabulary), self._doc_stats.counts_of(doc),
                              UnitLayout.from_document(doc))
        if self._store is not None:
            # first on disk: memory never holds what the file lacks
            record = self._store.put(doc, record, info, fingerprint)
        else:
            self._infos[document_id] = dict(info or {})
        self._profiles.set(document_id, info_text(info, PROFILE_KEY), info_text(info, SUBJECT_KEY))
        self._documents.forget(document_id)
        self._stored_vectors.pop(document_id, None)
        if self._store is not None:
            # Held as open() would hold it: its search record as read back from the store; the document and the
            # vectors of dimensions no query has read yet stay there. An ingest's memory is then one document's.
            self._stored_vectors[document_id] = (record.vectors, fingerprint)  # type: ignore[assignment]
            self._index.add(document_id, list(range(len(doc.units))), vectors, stored=True)
            self._documents.stored(document_id, fingerprint)  # type: ignore[arg-type]
            self._layouts[document_id] = record.layout
        else:
            self._index.add(document_id, list(range(len(doc.units))), vectors)
            self._documents[document_id] = self._layouts[document_id] = doc
        self._lexical.add_postings(document_id, record.postings)
        self._doc_stats.add_counts(document_id, record.counts)
        self._unit_flags[document_id] = record.layout
        return True

    def remove(self, document_id: str) -> None:
        """Remove a document and its anchors; UnknownDocumentError if it is not held."""
        if document_id not in self._documents:
            raise UnknownDocumentError(document_id)
        if self._store is not None:
            self._store.delete(document_id)
        self._infos.pop(document_id, None)
        self._forget(document_id)

    def _forget(self, document_id: str) -> None:
        """Drop a document from memory: its rows, postings, counts, profile and (unread) text."""
        self._stored_vectors.pop(document_id, None)
        self._index.remove(document_id)
        self._documents.forget(document_id)
        self._layouts.pop(document_id, None)
        self._lexical.remove(document_id)
        self._doc_stats.remove(document_id)
        self._unit_flags.pop(document_id, None)
        self._profiles.set(document_id, "", "")

    @property
    def documents(self) -> list[str]:
        """Ids of the documents held, in the order they were (last) added."""
        return list(self._documents)

    def get_document(self, document_id: str) -> SemanticDocument:
        """The compiled document `document_id`; UnknownDocumentError if it is not held."""
        try:
            return self._documents[document_id]
        except KeyError:
            raise UnknownDocumentError(document_id) from None

    def __contains__(self, document_id: object) -> bool:
        return document_id in self._documents

    def __len__(self) -> int:
        return len(self._documents)

    def __iter__(self) -> Iterator[SemanticDocument]:
        return iter(list(self._documents.values()))

    @property
    def index(self) -> VectorIndex:
        """The anchor index (embedding matrix and row keys)."""
        return self._index

    @property
    def anchor_count(self) -> int:
        """Number of indexed anchors (units) over all documents."""
        return len(self._index)

    # --------------------------------------------------------------- search

    def _anchor_hits(self, query: str, k: int, only: frozenset[str] | None = None) -> dict[str, list[tuple[int, float]]]:
        """Scored anchors per document, after the entity filter, lexical gate and relative floor.

        Candidates are the best anchors by cosine and, per document, the best by field-weighted BM25; each
        is scored by both (BM25 scaled to the best candidate), plus the document and profile priors and the
        entity bonus, and divided by the most those can add up to: scores stay in 0..1 without a clamp that
        would tie the best anchors. For a query about a metric computed from figures (a margin, a ratio), a
        unit that prints no figure keeps FIGURELESS_FACTOR of its BM25.
        """
        embedder = self.embedder
        query_vector = np.asarray(embedder.embed_query(query), dtype=np.float32)
        query_entities = frozenset(entity_ids(query))
        lexicon = load_lexicon()
        concepts = lexicon.concepts(query)
        inputs = [i for concept in concepts for i in lexicon.inputs(concept)]
        keys = lexical_query_keys(query, concepts, query_entities, inputs)
        # terms, concepts, entities: what the query says itself (metric inputs do not choose the document)
        query_keys = {key for key, weight in keys.items() if BIGRAM_JOIN not in key and weight == 1.0}
        several = only is None or len(only) > 1
        if several:  # a question that names its filer is about that filer's documents
            only = self._profiles.narrowed(query, self._layouts if only is None else only) or only
            several = only is None or len(only) > 1
        statements = query_statements(concepts + inputs)  # "according to the balance sheet": its own, first
        metric = bool(inputs)  # a margin or a ratio: its value is in figures, not in a sentence that names it
        period = self._profiles.of_period(query, self._layouts if only is None else only) if several else frozenset()
        scale = 1.0 + (DOC_PRIOR_WEIGHT + PROFILE_PRIOR_WEIGHT if several else 0.0) + (
            ENTITY_MATCH_BONUS if query_entities else 0.0) + (STATEMENT_MATCH_BONUS if statements else 0.0) + (
            PERIOD_MATCH_BONUS if period else 0.0)
        prior = self._doc_stats.scores(query_keys) if several else {}
        profile = self._profiles.scores(set(keys)) if several else {}
        gate = bool(getattr(embedder, "lexical_gate", False))
        lexical = self._lexical.score(keys, only, muted=self._profiles.naming(keys))
        cosines = self._index.scores(query_vector)
        top_n = max(MIN_ANCHOR_CANDIDATES, k * ANCHOR_CANDIDATES_PER_REGION)
        candidates: dict[str, set[int]] = {}
        min_cosine = float(getattr(embedder, "min_score", 0.0))
        for document_id, position, _cosine in self._index.best_rows(cosines, top_n, min_cosine, only):
            candidates.setdefault(document_id, set()).add(position)
        for document_id, scores in lexical.items():
            best = np.argsort(-scores, kind="stable")[:LEXICAL_CANDIDATES]
            candidates.setdefault(document_id, set()).update(int(p) for p in best if scores[p] > 0)
            codes = self._unit_flags[document_id].statement_codes if statements else None
            if codes is not None:  # the asked statement's best rows compete, though other units match more words
                lifted = np.flatnonzero(np.isin(codes, list(statements)) & (scores > 0))
                best = lifted[np.argsort(-scores[lifted], kind="stable")[:LEXICAL_CANDIDATES]]
                candidates[document_id].update(best.tolist())
        best_lexical = max((float(scores.max()) for scores in lexical.values()), default=0.0)
        scored: list[tuple[str, int, float]] = []
        for document_id, positions in candidates.items():
            doc = self._layouts[document_id]
            rows = self._index.document_rows(document_id)
            bm25 = lexical.get(document_id)
            flags = self._unit_flags[document_id]
            codes = flags.statement_codes if statements else None
            figures = flags.figure_flags if metric else None
            for position in sorted(positions):
                context = ()
                if query_entities:  # a unit is read (made from the layout) only to filter by entity
                    unit = doc.units[position]
                    context = unit.context_entities
                    if context and query_entities.isdisjoint(context):
                        continue  # about another entity than the one asked for
                    if unit.entities and unit.entities[0] not in query_entities:
                        continue  # its subject is another entity; the one asked for is only mentioned ("unlike B")
                lexical_score = float(bm25[position]) / best_lexical if bm25 is not None and best_lexical else 0.0
                if figures is not None and not figures[position]:
                    lexical_score *= FIGURELESS_FACTOR
                if gate and lexical_score == 0.0:
                    continue
                cosine = float(cosines[rows[position]])
                score = (1.0 - LEXICAL_WEIGHT) * cosine + LEXICAL_WEIGHT * lexical_score
                score += DOC_PRIOR_WEIGHT * prior.get(document_id, 0.0)
                score += PROFILE_PRIOR_WEIGHT * profile.get(document_id, 0.0)
                if query_entities and not query_entities.isdisjoint(context):
                    score += ENTITY_MATCH_BONUS
                if codes is not None and int(codes[position]) in statements:
                    score += STATEMENT_MATCH_BONUS
                if document_id in period:
                    score += PERIOD_MATCH_BONUS
                scored.append((document_id, position, round(min(max(score / scale, 0.0), 1.0), SCORE_DECIMALS)))
        if not scored:
            return {}
        floor = max(s for _, _, s in scored) * RELATIVE_ANCHOR_FLOOR
        hits: dict[str, list[tuple[int, float]]] = {}
        for document_id, position, score in scored:
            if score >= floor:
                hits.setdefault(document_id, []).append((position, score))
        return hits

    def search(self, query: str, k: int = DEFAULT_K, documents: Iterable[str] | None = None) -> SearchResult:
        """Up to `k` EvidenceRegions for `query`, grouped by document (best document first).

        `documents` limits the search to those document ids (UnknownDocumentError for one not held).
        An empty result is a valid transport with region_count 0. EmptyQueryError for a blank query.
        """
        if not isinstance(query, str):
            raise QueryTypeError(f"query must be str, got {type(query).__name__}")
        if not query.strip():
            raise EmptyQueryError("query is empty; pass the question or keywords to search for")
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        only: frozenset[str] | None = None
        if documents is not None:
            only = frozenset([documents] if isinstance(documents, str) else documents)
            for document_id in only - set(self._documents):
                raise UnknownDocumentError(document_id)
        while True:
            try:
                regions = self._regions_for(query, k, only)
                break
            except DamagedDocumentError as exc:  # found when first read: left out, as open() leaves such rows
                self._leave_out(exc.document_id, exc.why)
        self._remember(regions)
        return SearchResult(query, regions)

    def _regions_for(self, query: str, k: int, only: frozenset[str] | None) -> list[EvidenceRegion]:
        """The regions of search(), best first; reads the documents of the regions it returns."""
        order = {document_id: n for n, document_id in enumerate(self._documents)}
        # how-to-answer words ("round to one decimal place") are not what to find
        content = query_content(query) or query
        drafts = best_drafts(self._anchor_hits(content, k, only), self._layouts, order, self._documents.source, k)
        by_document: dict[str, list[RegionDraft]] = {}
        for document_id, draft in drafts:
            by_document.setdefault(document_id, []).append(draft)
        regions: list[EvidenceRegion] = []
        for document_id, document_drafts in by_document.items():
            doc = self._documents.source(document_id)
            for n, draft in enumerate(document_drafts, start=1):
                regions.append(to_region(doc, draft, f"{document_id}:R{n}"))
        return regions

    def _leave_out(self, document_id: str, why: str) -> None:
        """Drop a stored document found damaged from memory (not from the store) and name it in `damaged`."""
        self._forget(document_id)
        self.damaged[document_id] = why

    def _remember(self, regions: list[EvidenceRegion]) -> None:
        for region in regions:
            self._regions.pop(region.region_id, None)
            self._regions[region.region_id] = region
        while len(self._regions) > MAX_REMEMBERED_REGIONS:
            self._regions.popitem(last=False)

    def get_region(self, region_id: str) -> EvidenceRegion:
        """The region with `region_id` from the latest search that produced it; UnknownRegionError if none."""
        try:
            return self._regions[region_id]
        except KeyError:
            raise UnknownRegionError(region_id) from None

    def build_context(self, result: SearchResult) -> str:
        """Plain-text context for people or a plain-text LLM prompt (same as result.to_text())."""
        return result.to_text()

    # ----------------------------------------------------------- provenance

    def _region(self, region: RegionRef) -> EvidenceRegion:
        if isinstance(region, str):
            return self.get_region(region)
        if isinstance(region, EvidenceRegion):
            return region
        raise TypeError(f"expected an EvidenceRegion or a region id, got {type(region).__name__}")

    def locate(self, region: RegionRef) -> SourceSpan:
        """The region's source coordinates (document, uri, chars, lines, sha256, and pages/boxes if any).

        UnknownDocumentError if the repository does not hold the region's document.
        """
        resolved = self._region(region)
        self.get_document(resolved.source.document_id)
        return resolved.source.model_copy(deep=True)

    def get_source(self, region: RegionRef, context_before: int = 0, context_after: int = 0) -> str:
        """The original text at the region's span in the held document, with optional context (characters).

        UnknownDocumentError for a document not held; SourceSpanError for a span outside the text.
        """
        resolved = self._region(region)
        return source_text(self.get_document(resolved.source.document_id), resolved, context_before, context_after)

    def check_source(self, region: RegionRef, check_files: bool = True,
                     hashes: dict[str, str] | None = None) -> VerificationResult:
        """Verify the region against what the index recorded: ok, or why not (see provenance.FAILURE_REASONS).

        Compared with the held document: its id and hash, the span, the exact text slice, uri and lines, and
        the pages, boxes, chunk ids, kind and pdf_sha256 its segments give for the span. With `check_files`,
        the PDF recorded at ingest (document info `pdf_path` / `pdf_sha256`) is re-hashed: a missing PDF or
        hash fails. A document added without a PDF is verified by its text alone; no file the region names
        is ever opened. `hashes` caches PDF hashes (path → sha256) across calls of one run.
        """
        resolved = self._region(region)
        document_id = resolved.source.document_id
        try:
            doc = self._documents.get(document_id)
        except DamagedDocumentError as exc:
            self._leave_out(document_id, exc.why)
            return VerificationResult(ok=False, reason=UNKNOWN_DOCUMENT, region_id=resolved.region_id,
                                      document_id=document_id, detail=str(exc))
        info = self.document_info(document_id) if doc is not None else {}
        return verify_region(doc, info, resolved, check_files=check_files, hashes=hashes)

    def verify_result(self, result: Iterable[RegionRef], check_files: bool = True) -> list[VerificationResult]:
        """check_source() for every region of a search result (each recorded PDF hashed once)."""
        hashes: dict[str, str] = {}
        return [self.check_source(region, check_files=check_files, hashes=hashes) for region in result]

    def check_document_pdf(self, document_id: str) -> tuple[str, str] | None:
        """Re-hash the PDF recorded for a held document: None when unchanged or none recorded, else
        (reason, detail) as in check_source. UnknownDocumentError for a document not held."""
        return check_pdf(self.get_document(document_id), self.document_info(document_id))

    def verify_source(self, region: RegionRef) -> bool:
        """True only when the held document's hash and the exact text slice match the region."""
        return self.check_source(region).ok

    def explain_verification(self, region: RegionRef) -> str:
        """One line saying whether the region verifies and, if not, why."""
        result = self.check_source(region)
        if result.ok:
            return f"{result.region_id}: verified against document {result.document_id!r}"
        return f"{result.region_id}: not verified: {result.reason} ({result.detail})"
