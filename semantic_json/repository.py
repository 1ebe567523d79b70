"""SemanticRepository: documents and storage; search runs in two stages over the engine the index lives in.

search(query) = stage 1 (semantic_json.search.candidates: the query's keys and vector, the documents routed
by their priors, the postings of those keys and the vectors of the candidate anchors, all read from the
engine) → stage 2 (search.fusion: one score per anchor; search.regions: per document, clustering and
entity-safe expansion into EvidenceRegions) → SearchResult, regions grouped by document.

The engine is a store (semantic_json.store): one SQLite file (``open(path)``), a PostgreSQL server
(``open("postgresql://...")``), or an SQLite database in this process's memory (``SemanticRepository()``).
The repository itself holds one small entry per document (its number in the engine, units, fingerprint and
profile), the search records of the documents recent searches routed to, and the documents whose regions
they returned: a search process's memory does not grow with the corpus. compile() is separate, so nothing
is re-compiled or re-embedded when an index is opened.
"""

from __future__ import annotations

import gc
import json
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Mapping

import numpy as np

from .embedders import Embedder, LiteEmbedder
from .errors import (
    EmbedderMismatchError,
    EmptyQueryError,
    QueryTypeError,
    UnknownDocumentError,
)
from .index import VectorIndex
from .search.lexical import document_postings, document_term_counts
from .model import SemanticDocument
from .region_access import RegionAccess
from .search.priors import PROFILE_FIELDS, PROFILE_KEY, SUBJECT_KEY, Profiles, info_text
from .search.candidates import CandidateSearch, HeldDocument, RecordCache, plan_query
from .search.filters import SearchFilter, matching_documents
from .search.fusion import DocumentPriors, fuse
from .search.regions import RegionDraft, best_drafts, to_region
from .store import open_store
from .store.base import (DamagedDocumentError, DamagedIndexError, IndexFileError, IndexStore, damage,
                         document_fingerprint)
from .store.documents import HeldDocuments
from .store.engine_rows import block_vectors
from .store.records import SearchRecord, UnitLayout
from .store.sqlite import MEMORY, SqliteStore
from .rules.textnorm import normalized_terms, query_content
from .transport import EvidenceRegion, SearchResult

#: Prefix of caller notes in the index file's meta table (apart from the store's own keys).
NOTE_PREFIX = "note:"
#: Default number of regions returned by search().
DEFAULT_K = 5


class SemanticRepository(RegionAccess):
    """Compiled documents and their semantic index. `embedder` defaults to LiteEmbedder().

    ``SemanticRepository()`` keeps the index in this process's memory; ``SemanticRepository.open(path)`` in
    an SQLite file or on a PostgreSQL server."""

    def __init__(self, embedder: Embedder | None = None) -> None:
        self._setup(embedder, SqliteStore(MEMORY), in_memory=True)

    def _setup(self, embedder: Embedder | None, store: IndexStore, in_memory: bool) -> None:
        self.embedder: Embedder = embedder if embedder is not None else LiteEmbedder()
        self._store: IndexStore | None = store
        self._in_memory = in_memory
        #: Per document, in the order they were (last) added: its number in the engine, units, fingerprint.
        self._held: dict[str, HeldDocument] = {}
        #: Document id by its number in the engine (the rows a search reads name documents by number).
        self._by_seq: dict[int, str] = {}
        self._documents = HeldDocuments()
        self._records = RecordCache(self._read_record)
        self._vocabulary = store.vocabulary()
        self._profiles = Profiles()
        #: Per document the fields filters read (company, form, fiscal year, period, language).
        self._fields: dict[str, dict[str, str]] = {}
        self._regions: OrderedDict[str, EvidenceRegion] = OrderedDict()
        self._search = CandidateSearch(store, self._held, self._records, self._key_id, self._profiles, self._by_seq)
        #: Documents of the index file that could not be read (document id → why); see open().
        self.damaged: dict[str, str] = {}

    @classmethod
    def open(cls, path: str | Path, embedder: Embedder | None = None, read_only: bool = False) -> SemanticRepository:
        """A repository kept in the SQLite file at `path` (created if missing, unless `read_only`), or on a
        PostgreSQL server when `path` is a ``postgresql://`` URL (the `postgres` extra; tables created if
        missing).

        Opening reads one small row per document (nothing is re-embedded or re-tokenised); a search reads
        what it needs from the index; every later add() and remove() is written through, one transaction per
        document. `read_only=True` never writes to the file (search, verify and locate work on a read-only
        file or folder; add/remove raise ReadOnlyIndexError).
        EmbedderMismatchError when the file was built with another embedder; IndexFileError when it is not
        one of our index files (another application's SQLite file is refused unchanged) or is damaged;
        IndexVersionError when an older version of the library wrote it (re-ingest into a new index).
        Documents whose rows cannot be read are left out and listed in `damaged`.
        """
        repo = cls.__new__(cls)
        store = open_store(path, read_only=read_only)
        # a few small objects a document, none in a cycle: the cyclic collector, which would walk them all
        # over and over while they are made (a sixth of opening 5,883 documents), waits until they are held
        with _collector_paused():
            try:
                repo._setup(embedder, store, in_memory=False)
                store.bind_embedder(repo.embedder.name, repo.embedder.dim)
                stored, damaged = store.documents()
                for s in stored:
                    if s.dim != repo.embedder.dim:
                        raise EmbedderMismatchError(f"{store.path}: document {s.document_id!r} has vectors of "
                                                    f"{s.dim} dimensions, the embedder {repo.embedder.dim}")
            except BaseException:
                store.close()
                raise
            for s in stored:
                repo._hold(s.document_id, HeldDocument(s.seq, s.n_units, s.length, s.fingerprint), s.info,
                           *_kept(s.derived))
                repo._documents.stored(s.document_id, s.fingerprint)
        repo._documents.where = store.path
        repo._documents.read = lambda document_id, fingerprint: store.source(
            document_id, repo._records[document_id].layout, fingerprint)
        repo.damaged = damaged
        return repo

    def _hold(self, document_id: str, held: HeldDocument, info: dict[str, Any] | None,
              profile: dict[str, Any] | None = None, fields: dict[str, str] | None = None) -> None:
        """Hold a document's entry (last in the order of addition), its profile and its filter fields (what
        Profiles.derive and SearchFilter.fields_of gave for its info, when kept: ``profile``, ``fields``)."""
        self._forget_seq(document_id)
        self._held[document_id] = held
        self._by_seq[held.seq] = document_id
        self._records.forget(document_id)
        self._profiles.set(document_id, info_text(info, PROFILE_KEY), info_text(info, SUBJECT_KEY), profile)
        self._fields[document_id] = SearchFilter.fields_of(info) if fields is None else fields

    def _key_id(self, key: str) -> int | None:
        """The engine's id of a lexical key (None: no document holds it)."""
        found = self._vocabulary.get(key)
        return None if found is None else int(found)

    def _read_record(self, document_id: str) -> SearchRecord:
        if self._store is None:
            raise DamagedDocumentError("", document_id, "the index was closed: open it again")
        return self._store.record(document_id, self._held[document_id].fingerprint)

    @property
    def path(self) -> Path | str | None:
        """The index file (or server URL without password), for a repository opened with open(); None in memory."""
        return None if self._in_memory or self._store is None else self._store.path

    def document_info(self, document_id: str) -> dict[str, Any]:
        """Caller-supplied info stored with a document by add(..., info=)."""
        if document_id not in self._held:
            raise UnknownDocumentError(document_id)
        return self._store.info(document_id) or {} if self._store is not None else {}

    def get_note(self, key: str) -> str | None:
        """A string the caller stored with set_note() (kept in the index file when there is one)."""
        return self._store.get_meta(f"{NOTE_PREFIX}{key}") if self._store is not None else None

    def set_note(self, key: str, value: str) -> None:
        """Keep a string beside the documents, e.g. the last search result of a CLI session."""
        if self._store is not None:
            self._store.set_meta(f"{NOTE_PREFIX}{key}", value)

    def close(self) -> None:
        """Close the index file (a repository in memory has nothing to close)."""
        if self._store is not None and not self._in_memory:
            self._store.close()
            self._store = None
            self._documents.read = None

    @classmethod
    def from_parts(
        cls, documents: Iterable[SemanticDocument], index: VectorIndex, embedder: Embedder | None = None
    ) -> SemanticRepository:
        """A repository in memory from saved state: compiled documents plus an index saved from
        `index.matrix` / `index.keys()` (see VectorIndex.from_arrays). Nothing is re-embedded.

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
        matrix = index.matrix
        for document_id in index.document_ids():
            repo._add(held[document_id], None, matrix[index.document_rows(document_id)])
        return repo

    # ------------------------------------------------------------ documents

    def add(self, doc: SemanticDocument, info: dict[str, Any] | None = None) -> bool:
        """Index `doc`'s units as anchors; a document with the same id is replaced.

        `info` is JSON-safe metadata kept beside the document (its PDF path and hash; ``profile``, ``subject``
        and the filter fields ``company``, ``form``, ``fiscal_year``, ``period``, ``language``). In an index
        file, re-adding a document identical to the stored one is skipped: the return value is False then,
        True when the document was (re-)indexed; the repository then holds what opening the file would read,
        not `doc`.
        """
        if not isinstance(doc, SemanticDocument):
            raise TypeError(f"add() expects a SemanticDocument from semantic_json.compilation(), got {type(doc).__name__}")
        doc.check_integrity()
        return self._add(doc, info, None)

    def _add(self, doc: SemanticDocument, info: dict[str, Any] | None, vectors: np.ndarray | None) -> bool:
        store = self._writable_store()
        fingerprint = document_fingerprint(doc)
        document_id = doc.document_id
        if not self._in_memory and document_id in self._held and store.fingerprint(document_id) == fingerprint:
            return False
        if vectors is None:
            embed_units = getattr(self.embedder, "embed_units", None)
            if embed_units is not None:
                vectors = embed_units(doc.units)
            else:
                vectors = self.embedder.embed_documents([u.text for u in doc.units])
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.shape != (len(doc.units), self.embedder.dim):
            raise EmbedderMismatchError(
                f"embedder {self.embedder.name!r} returned shape {vectors.shape} for {len(doc.units)} units, "
                f"expected ({len(doc.units)}, {self.embedder.dim})"
            )
        counts = document_term_counts(doc, self._vocabulary)
        record = SearchRecord(vectors, document_postings(doc, self._vocabulary), counts, UnitLayout.from_document(doc))
        profile = Profiles.derive(info_text(info, PROFILE_KEY), info_text(info, SUBJECT_KEY))
        fields = SearchFilter.fields_of(info)
        # first in the engine: memory never holds what it lacks
        seq = store.put(doc, record, info, fingerprint,
                        json.dumps({"profile": profile, "fields": fields}, ensure_ascii=False))
        self._hold(document_id, HeldDocument(seq, len(doc.units), counts.length, fingerprint), info, profile, fields)
        self._documents.forget(document_id)
        if self._in_memory:
            self._documents[document_id] = doc
        else:
            # held as open() would hold it: the document stays in the store until a search or a caller reads it
            self._documents.stored(document_id, fingerprint)
        return True

    def _writable_store(self) -> IndexStore:
        """The engine, or IndexFileError once the repository was closed."""
        if self._store is None:
            raise IndexFileError("the index was closed: open it again")
        return self._store

    def remove(self, document_id: str) -> None:
        """Remove a document and its anchors; UnknownDocumentError if it is not held."""
        if document_id not in self._held:
            raise UnknownDocumentError(document_id)
        self._writable_store().delete(document_id)
        self._forget(document_id)

    def _forget_seq(self, document_id: str) -> None:
        held = self._held.pop(document_id, None)
        if held is not None:
            self._by_seq.pop(held.seq, None)

    def _forget(self, document_id: str) -> None:
        """Drop a document from memory: its entry, record, profile and (unread) text."""
        self._forget_seq(document_id)
        self._records.forget(document_id)
        self._documents.forget(document_id)
        self._fields.pop(document_id, None)
        self._profiles.set(document_id, "", "")

    @property
    def documents(self) -> list[str]:
        """Ids of the documents held, in the order they were (last) added."""
        return list(self._held)

    def get_document(self, document_id: str) -> SemanticDocument:
        """The compiled document `document_id`; UnknownDocumentError if it is not held."""
        try:
            return self._documents[document_id]
        except KeyError:
            raise UnknownDocumentError(document_id) from None

    def __contains__(self, document_id: object) -> bool:
        return document_id in self._held

    def __len__(self) -> int:
        return len(self._held)

    def __iter__(self) -> Iterator[SemanticDocument]:
        return (self._documents[document_id] for document_id in list(self._held))

    @property
    def index(self) -> VectorIndex:
        """Every anchor vector as a VectorIndex (embedding matrix and row keys), read from the engine: for
        saving, exporting or inspecting them (search reads the vectors it needs, not this)."""
        store = self._writable_store()
        index = VectorIndex(self.embedder.dim, self.embedder.name)
        for document_id, held in self._held.items():
            block = store.vectors(document_id, held.fingerprint)  # an engine's error is no damage: not caught
            try:
                matrix = block_vectors(block, held.n_units, self.embedder.dim)
            except ValueError as exc:
                raise DamagedDocumentError(store.path, document_id, damage(exc)) from None
            index.add(document_id, list(range(held.n_units)), matrix)
        return index

    @property
    def anchor_count(self) -> int:
        """Number of indexed anchors (units) over all documents."""
        return sum(held.n_units for held in self._held.values())

    # --------------------------------------------------------------- search

    def _anchor_hits(self, query: str, k: int, only: frozenset[str] | None = None,
                     kinds: frozenset[str] | None = None) -> dict[str, list[tuple[int, float]]]:
        """Scored anchors per document: stage 1 (candidates from the engine) and stage 2's scores (fusion)."""
        store = self._writable_store()
        plan = plan_query(query, self.embedder)
        self._vocabulary.look_up(plan.keys)  # every key's id in one round trip: stage 1 then asks the memory
        several = only is None or len(only) > 1
        if several:  # a question that names its filer is about that filer's documents
            only = self._profiles.narrowed(query, self._held if only is None else only) or only
            several = only is None or len(only) > 1
        totals = store.totals()
        priors = self._search.priors(plan, query, only, totals) if several else DocumentPriors()
        universe = [d for d in self._held if only is None or d in only]
        routed = self._search.route(priors, universe)
        bm25 = self._search.bm25(plan, routed, totals, self._profiles.naming(plan.keys, routed))
        gate = bool(getattr(self.embedder, "lexical_gate", False))
        min_cosine = float(getattr(self.embedder, "min_score", 0.0))
        candidates = self._search.candidates(plan, routed, bm25, k, gate, min_cosine, kinds)
        return fuse(candidates, priors, plan.entities, plan.statements, gate, plan.words)

    def search(self, query: str, k: int = DEFAULT_K, documents: Iterable[str] | None = None,
               where: SearchFilter | Mapping[str, Any] | None = None) -> SearchResult:
        """Up to `k` EvidenceRegions for `query`, grouped by document (best document first).

        `documents` limits the search to those document ids (UnknownDocumentError for one not held);
        `where` to the documents and units a filter admits (a SearchFilter, or a dict of its fields:
        ``{"company": "3M", "fiscal_year": 2022, "kind": "table"}``); no region outside them is returned.
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
            for document_id in only - set(self._held):
                raise UnknownDocumentError(document_id)
        kinds = None
        if where is not None:
            search_filter = where if isinstance(where, SearchFilter) else SearchFilter.from_mapping(where)
            admitted = matching_documents(search_filter, self._held, self._fields)
            only = admitted if only is None else only & admitted
            kinds = search_filter.unit_kinds()
            if not only:
                return SearchResult(query, [])
        while True:
            try:
                regions = self._regions_for(query, k, only, kinds)
                break
            except DamagedDocumentError as exc:  # found when first read: left out, as open() leaves such rows
                self._leave_out(exc.document_id, exc.why)
        self._remember(regions)
        return SearchResult(query, regions)

    def _regions_for(self, query: str, k: int, only: frozenset[str] | None,
                     kinds: frozenset[str] | None = None) -> list[EvidenceRegion]:
        """The regions of search(), best first; reads the documents of the regions it returns."""
        order = {document_id: n for n, document_id in enumerate(self._held)}
        # how-to-answer words ("round to one decimal place") are not what to find
        content = query_content(query) or query
        hits = self._anchor_hits(content, k, only, kinds)
        layouts = {document_id: self._records[document_id].layout for document_id in hits}
        drafts = best_drafts(hits, layouts, order, self._documents.source, k, frozenset(normalized_terms(content)))
        by_document: dict[str, list[RegionDraft]] = {}
        for document_id, draft in drafts:
            by_document.setdefault(document_id, []).append(draft)
        regions: list[EvidenceRegion] = []
        for document_id, document_drafts in by_document.items():
            doc = self._documents.source(document_id)
            for n, draft in enumerate(document_drafts, start=1):
                regions.append(to_region(doc, draft, f"{document_id}:R{n}"))
        return regions

    def check_index(self, full: bool = False) -> tuple[list[str], dict[str, str]]:
        """Damage in the index: what the store's own check of its file finds (SQLite's quick_check, or with
        `full` its integrity_check; nothing for a server), and every held document that cannot be read whole
        (search record, stored document, unit vectors), document id → why. Those documents are also left out
        of this repository and named in `damaged`."""
        if self._store is None:
            raise DamagedDocumentError("", "", "the index was closed: open it again")
        problems = self._store.check_file(full)
        found: dict[str, str] = {}
        for document_id, held in list(self._held.items()):
            try:
                self._store.read_whole(document_id, held.fingerprint)
            except (DamagedDocumentError, DamagedIndexError) as exc:  # not the server's or connection's errors
                found[document_id] = exc.why if isinstance(exc, DamagedDocumentError) else str(exc.__cause__ or exc)
                self._leave_out(document_id, found[document_id])
        return problems, found

    def _leave_out(self, document_id: str, why: str) -> None:
        """Drop a stored document found damaged from memory (not from the store) and name it in `damaged`."""
        self._forget(document_id)
        self.damaged[document_id] = why


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused (if it runs) for the block, and restarted after it."""
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def _kept(kept: str) -> tuple[dict[str, Any] | None, dict[str, str] | None]:
    """What was worked out of a document's info when it was added (JSON: its Profiles.derive keys and its
    SearchFilter fields); None for what cannot be read (worked out again from the info)."""
    try:
        held = json.loads(kept) if kept else {}
    except ValueError:
        return None, None
    profile = held.get("profile") if isinstance(held, dict) else None
    fields = held.get("fields") if isinstance(held, dict) else None
    return (profile if isinstance(profile, dict) and PROFILE_FIELDS <= profile.keys() else None,
            fields if isinstance(fields, dict) and all(isinstance(v, str) for v in fields.values()) else None)
