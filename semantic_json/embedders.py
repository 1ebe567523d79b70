"""Embedding backends: the NumPy-only LiteEmbedder (default) and optional sentence-transformers models.

Every embedder has `name` (identifies model and parameters, so a persistent store can detect a mismatch),
`dim`, `embed_documents(texts) -> float32 array (n, dim)` and `embed_query(text) -> float32 array (dim,)`;
rows are L2-normalised, so a dot product is a cosine. Two optional attributes tune retrieval:
`min_score` (anchors scoring below are not evidence) and `lexical_gate` (anchors must share a term, concept
or entity with the query; right for a lexical model, wrong for a neural one).

Importing this module never imports torch: the neural backends import sentence_transformers when built.
"""

from __future__ import annotations

import hashlib
import math
from pathlib import Path
from typing import Any, Protocol, runtime_checkable
from collections.abc import Iterable, Sequence

import numpy as np

from .compilation import entities as entity_rules
from .errors import MissingExtraError, ModelUnavailableError
from .lexicon import Lexicon, load_lexicon
from .rules.textnorm import TOKEN_PATTERN, is_hangul, normalize_token

#: Default dimension of LiteEmbedder vectors (signed feature hashing into this many buckets). 256 keeps
#: 100k anchors at ~100 MB of float32 and a search at a few ms; collisions add cosine noise of about
#: 1/sqrt(dim) (0.06), which the repository's lexical gate and candidate depth absorb. Pass a larger dim
#: (e.g. 1024) for less noise at proportionally more memory.
LITE_DEFAULT_DIM = 256
#: Weight of a normalised word feature.
WORD_WEIGHT = 1.0
#: Total weight of a word's character n-gram features (Hangul syllable bigrams, Latin trigrams).
NGRAM_WEIGHT = 0.6
#: Weight of a lexicon concept feature (shared by its Korean and English terms).
CONCEPT_WEIGHT = 2.0
#: Weight of a broader concept implied by a match (REPAYMENT_CAPACITY → REPAYMENT).
BROADER_CONCEPT_WEIGHT = 0.7
#: Weight of an entity feature (B기업 and "Company B" both give B_CORP).
ENTITY_WEIGHT = 1.5
#: Latin words at least this long also get character trigram features.
LATIN_NGRAM_MIN_CHARS = 5
#: Rows embedded per NumPy accumulation batch.
EMBED_BATCH_ROWS = 4096
#: Token feature cache size (distinct tokens); cleared when full.
FEATURE_CACHE_SIZE = 1 << 19
#: Cosine below which a LiteEmbedder anchor is not evidence.
LITE_MIN_SCORE = 0.08
#: Cosine below which a generic sentence-transformers anchor is not evidence.
NEURAL_MIN_SCORE = 0.25
#: Cosine below which a multilingual-e5 anchor is not evidence (e5 cosines are compressed near the top).
E5_MIN_SCORE = 0.75
#: Rows per batch given to sentence-transformers.
NEURAL_BATCH_SIZE = 32
E5_DEFAULT_MODEL = "intfloat/multilingual-e5-small"
#: Version of the lite features: 2 reads a digit-led name ("3M") as one word (textnorm.TOKEN_PATTERN); 3 reads
#: an analyst's fiscal year ("FY2022", "FY22") as the year (textnorm.FISCAL_YEAR_RE).
_LITE_VERSION = "3"


@runtime_checkable
class Embedder(Protocol):
    """What SemanticRepository needs from an embedding backend."""

    name: str
    dim: int

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...


def _l2_normalise(matrix: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(matrix, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (matrix / norms).astype(np.float32, copy=False)


class LiteEmbedder:
    """Deterministic hashed features over words, character n-grams, lexicon concepts and entities.

    A feature key (``w:상환``, ``h:상환``, ``c:REPAYMENT_CAPACITY``, ``e:B_CORP``) is hashed with BLAKE2b, so
    vectors are identical across processes and machines. Korean particles are stripped before features are
    made (B기업은 / B기업의 → b기업) and lexicon terms of both languages share their concept's feature.
    """

    lexical_gate = True
    min_score = LITE_MIN_SCORE

    def __init__(self, dim: int = LITE_DEFAULT_DIM, lexicon: Lexicon | None = None) -> None:
        if dim < 16:
            raise ValueError(f"LiteEmbedder dim must be at least 16, got {dim}")
        self.dim = int(dim)
        self.lexicon = lexicon or load_lexicon()
        self.name = (
            f"lite-hash/v{_LITE_VERSION}:dim={self.dim}:"
            f"lexicon={self.lexicon.name}@{self.lexicon.version}:{self.lexicon.sha256[:12]}"
        )
        self._hash_cache: dict[str, tuple[int, float]] = {}
        self._token_cache: dict[str, tuple[tuple[int, float], ...]] = {}

    # ---------------------------------------------------------------- features

    def _hashed(self, key: str) -> tuple[int, float]:
        """(bucket, sign) of a feature key: BLAKE2b, so identical in every process."""
        cached = self._hash_cache.get(key)
        if cached is None:
            if len(self._hash_cache) >= FEATURE_CACHE_SIZE:
                self._hash_cache.clear()
            value = int.from_bytes(hashlib.blake2b(key.encode("utf-8"), digest_size=8).digest(), "little")
            cached = (value % self.dim, 1.0 if (value >> 40) & 1 else -1.0)
            self._hash_cache[key] = cached
        return cached

    def _weighted(self, key: str, weight: float) -> tuple[int, float]:
        bucket, sign = self._hashed(key)
        return bucket, sign * weight

    def _token_features(self, token: str) -> tuple[tuple[int, ...], tuple[float, ...]]:
        """Buckets and signed weights of one surface token (its word and character n-gram features)."""
        cached = self._token_cache.get(token)
        if cached is not None:
            return cached
        term = normalize_token(token)
        features: list[tuple[int, float]] = []
        if term is not None:
            features.append(self._weighted("w:" + term, WORD_WEIGHT))
            if is_hangul(term[-1]) or is_hangul(term[0]):
                syllables = "".join(ch for ch in term if is_hangul(ch))
                grams = [syllables[i : i + 2] for i in range(len(syllables) - 1)]
                prefix = "h:"
            elif len(term) >= LATIN_NGRAM_MIN_CHARS and term.isalpha():
                padded = f"<{term}>"
                grams = [padded[i : i + 3] for i in range(len(padded) - 2)]
                prefix = "t:"
            else:
                grams = []
                prefix = ""
            if grams:
                weight = NGRAM_WEIGHT / math.sqrt(len(grams))
                features.extend(self._weighted(prefix + g, weight) for g in grams)
        result = (tuple(b for b, _ in features), tuple(w for _, w in features))
        if len(self._token_cache) >= FEATURE_CACHE_SIZE:
            self._token_cache.clear()
        self._token_cache[token] = result
        return result

    def _concept_features(self, concepts: Sequence[str], buckets: list[int], weights: list[float]) -> None:
        broader_of = self.lexicon.broader
        for concept in concepts:
            bucket, sign = self._hashed("c:" + concept)
            buckets.append(bucket)
            weights.append(sign * CONCEPT_WEIGHT)
            for broader in broader_of(concept):
                bucket, sign = self._hashed("c:" + broader)
                buckets.append(bucket)
                weights.append(sign * BROADER_CONCEPT_WEIGHT)

    def _entity_features(self, entity_ids: Sequence[str], buckets: list[int], weights: list[float]) -> None:
        for entity_id in entity_ids:
            bucket, sign = self._hashed("e:" + entity_id)
            buckets.append(bucket)
            weights.append(sign * ENTITY_WEIGHT)

    def _features(
        self, text: str, concepts: Sequence[str] | None = None, entity_ids: Sequence[str] | None = None
    ) -> tuple[list[int], list[float]]:
        """Buckets and signed weights of `text`; concepts/entities are found in the text unless given."""
        buckets: list[int] = []
        weights: list[float] = []
        token_features = self._token_features
        for token in TOKEN_PATTERN.findall(text):
            token_buckets, token_weights = token_features(token)
            buckets.extend(token_buckets)
            weights.extend(token_weights)
        if concepts is None:
            concepts = [m.concept for m in self.lexicon.find(text)]
        self._concept_features(concepts, buckets, weights)
        if entity_ids is None:
            entity_ids = [m.entity_id for m in entity_rules.find_mentions(text)]
        self._entity_features(entity_ids, buckets, weights)
        return buckets, weights

    def features(self, text: str) -> list[tuple[int, float]]:
        """(bucket, signed weight) pairs of `text`, before accumulation and normalisation."""
        buckets, weights = self._features(text)
        return list(zip(buckets, weights))

    # ---------------------------------------------------------------- vectors

    def _vectors(self, feature_rows: Iterable[tuple[list[int], list[float]]], n: int) -> np.ndarray:
        out = np.zeros((n, self.dim), dtype=np.float32)
        row = 0
        batch_buckets: list[int] = []
        batch_weights: list[float] = []
        counts: list[int] = []

        def flush(first_row: int) -> None:
            if not counts:
                return
            rows = len(counts)
            offsets = np.repeat(np.arange(rows, dtype=np.int64) * self.dim, counts)
            flat = offsets + np.asarray(batch_buckets, dtype=np.int64)
            dense = np.bincount(flat, weights=np.asarray(batch_weights, dtype=np.float64), minlength=rows * self.dim)
            out[first_row : first_row + rows] = dense.reshape(rows, self.dim)
            batch_buckets.clear()
            batch_weights.clear()
            counts.clear()

        first = 0
        for buckets, weights in feature_rows:
            batch_buckets.extend(buckets)
            batch_weights.extend(weights)
            counts.append(len(buckets))
            row += 1
            if len(counts) == EMBED_BATCH_ROWS:
                flush(first)
                first = row
        flush(first)
        return _l2_normalise(out)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors, shape (len(texts), dim); a text without features is a zero row."""
        return self._vectors((self._features(t) for t in texts), len(texts))

    def embed_units(self, units: Sequence[Any]) -> np.ndarray:
        """Vectors of compiled units, reusing the concepts and entities the compiler found (faster than
        embed_documents on their texts, and aware of document-level entity aliases)."""
        return self._vectors((self._features(u.text, u.concepts, u.entities) for u in units), len(units))

    def embed_query(self, text: str) -> np.ndarray:
        """The query's vector, shape (dim,); the same features as a document."""
        return self.embed_documents([text])[0]


def _import_sentence_transformers(feature: str) -> Any:
    try:
        import sentence_transformers  # noqa: F401  (optional extra; imported only here)
    except ImportError as exc:
        raise MissingExtraError(feature, "sentence-transformers") from exc
    return sentence_transformers


def _model_label(model_name_or_path: str | Path) -> str:
    path = Path(str(model_name_or_path))
    if path.exists():
        return path.resolve().name
    return str(model_name_or_path)


class SentenceTransformerEmbedder:
    """Any sentence-transformers model, by hub name or local folder (install the `transformers` extra).

    `query_prefix`/`passage_prefix` are prepended to queries/documents (models such as e5 need them).
    `model_kwargs` go to ``SentenceTransformer(...)`` (e.g. ``local_files_only=True``).
    """

    lexical_gate = False

    def __init__(
        self,
        model_name_or_path: str | Path,
        *,
        device: str = "cpu",
        batch_size: int = NEURAL_BATCH_SIZE,
        query_prefix: str = "",
        passage_prefix: str = "",
        min_score: float = NEURAL_MIN_SCORE,
        **model_kwargs: Any,
    ) -> None:
        module = _import_sentence_transformers(type(self).__name__)
        try:
            self._model = module.SentenceTransformer(str(model_name_or_path), device=device, **model_kwargs)
        except Exception as exc:  # the library raises OSError, ValueError, HTTP errors ... depending on version
            raise ModelUnavailableError(
                f"could not load sentence-transformers model {str(model_name_or_path)!r}: {exc}. "
                "Pass a local model folder, or make the model available in the Hugging Face cache"
            ) from exc
        # sentence-transformers renamed the method (get_sentence_embedding_dimension → get_embedding_dimension)
        get_dim = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(get_dim())
        self.batch_size = batch_size
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        self.min_score = min_score
        self.name = (
            f"sentence-transformers/{_model_label(model_name_or_path)}:dim={self.dim}"
            f":query_prefix={query_prefix!r}:passage_prefix={passage_prefix!r}"
        )

    def _encode(self, texts: Sequence[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = self._model.encode(
            list(texts), batch_size=self.batch_size, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
        )
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dim)

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        """L2-normalised float32 vectors of `texts` (with passage_prefix), shape (n, dim)."""
        return self._encode([self.passage_prefix + t for t in texts])

    def embed_query(self, text: str) -> np.ndarray:
        """L2-normalised float32 vector of `text` (with query_prefix), shape (dim,)."""
        return self._encode([self.query_prefix + text])[0]


class MultilingualE5Embedder(SentenceTransformerEmbedder):
    """intfloat/multilingual-e5-small (or another e5 model/folder) with its ``query: `` / ``passage: `` prefixes."""

    def __init__(self, model_name_or_path: str | Path = E5_DEFAULT_MODEL, *, min_score: float = E5_MIN_SCORE, **kwargs: Any) -> None:
        super().__init__(
            model_name_or_path, query_prefix="query: ", passage_prefix="passage: ", min_score=min_score, **kwargs
        )
