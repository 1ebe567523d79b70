"""Embedders by name: the choices a command line offers, which of them this installation can build, and the
embedder that a recorded name (an index's, or a vector-store row's ``embedder`` column) stands for.

A choice is written as ``lite``, ``e5`` or ``st:MODEL_OR_FOLDER``. Whether a choice is installed is decided
from the packages present (``importlib.util.find_spec``): nothing here imports torch until an embedder of a
neural choice is built.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .embedders import E5_DEFAULT_MODEL, E5_MIN_SCORE, Embedder, LiteEmbedder
from .errors import EmbedderMismatchError, MissingExtraError, UnknownEmbedderError

#: The model-free default: LiteEmbedder.
LITE = "lite"
#: intfloat/multilingual-e5-small with its query/passage prefixes (sentence-transformers).
E5 = "e5"
#: Any sentence-transformers model, written ``st:MODEL_OR_FOLDER``.
SENTENCE_TRANSFORMERS = "st"
#: The module a neural choice needs.
_NEURAL_MODULE = "sentence_transformers"
#: Prefixes the e5 models are trained with; a recorded name with them is rebuilt as MultilingualE5Embedder.
_E5_PREFIXES = ("query: ", "passage: ")

_LITE_NAME = re.compile(r"^lite-hash/v(?P<version>[^:]+):dim=(?P<dim>\d+):lexicon=")
_NEURAL_NAME = re.compile(
    r"^sentence-transformers/(?P<label>.+):dim=(?P<dim>\d+)"
    r":query_prefix=(?P<query>'[^']*'|\"[^\"]*\"):passage_prefix=(?P<passage>'[^']*'|\"[^\"]*\")$"
)


@dataclass(frozen=True)
class EmbedderChoice:
    """One ``--embedder`` value: its name, what it is, and the module it needs (None: always installed)."""

    name: str
    description: str
    needs: str | None = None

    @property
    def installed(self) -> bool:
        return self.needs is None or importlib.util.find_spec(self.needs) is not None


#: Every choice, the default first.
CHOICES: tuple[EmbedderChoice, ...] = (
    EmbedderChoice(LITE, "hashed words, character n-grams, concepts and entities; NumPy only, no model"),
    EmbedderChoice(E5, f"{E5_DEFAULT_MODEL}, fetched once into the Hugging Face cache (the transformers extra)",
                   _NEURAL_MODULE),
    EmbedderChoice(f"{SENTENCE_TRANSFORMERS}:MODEL_OR_FOLDER",
                   "any sentence-transformers model, by hub name or local folder (the transformers extra)",
                   _NEURAL_MODULE),
)


def installed_choices() -> list[str]:
    """Names of the choices this installation can build (``lite`` always; ``e5`` and ``st:...`` with
    sentence-transformers)."""
    return [choice.name for choice in CHOICES if choice.installed]


def _choice(spec: str) -> tuple[EmbedderChoice, str | None]:
    """The choice ``spec`` names and its model argument (for ``st:``); UnknownEmbedderError otherwise."""
    kind, _, model = spec.partition(":")
    for choice in CHOICES:
        if choice.name.partition(":")[0] == kind:
            if kind == SENTENCE_TRANSFORMERS and not model:
                raise UnknownEmbedderError(f"embedder {spec!r}: name the model, as st:MODEL_OR_FOLDER "
                                           "(e.g. st:sentence-transformers/all-MiniLM-L6-v2)")
            if kind != SENTENCE_TRANSFORMERS and model:
                raise UnknownEmbedderError(f"embedder {spec!r}: {kind} takes no model; "
                                           f"choose one of {', '.join(c.name for c in CHOICES)}")
            return choice, model or None
    raise UnknownEmbedderError(f"unknown embedder {spec!r}; choose one of {', '.join(c.name for c in CHOICES)}")


def check_choice(spec: str) -> str:
    """``spec`` when it names a choice this installation can build; UnknownEmbedderError or
    MissingExtraError (naming the install command) otherwise. Builds nothing."""
    choice, _model = _choice(spec)
    if not choice.installed:
        raise MissingExtraError(f"embedder {spec!r}", str(choice.needs).replace("_", "-"))
    return spec


def make_embedder(spec: str = LITE, **model_kwargs: Any) -> Embedder:
    """The embedder ``spec`` names (``lite``, ``e5`` or ``st:MODEL_OR_FOLDER``); ``model_kwargs`` go to
    sentence-transformers (e.g. ``local_files_only=True``). ModelUnavailableError when a model cannot be
    loaded."""
    choice, model = _choice(check_choice(spec))
    if choice.name == LITE:
        return LiteEmbedder()
    from .embedders import MultilingualE5Embedder, SentenceTransformerEmbedder

    if choice.name == E5:
        return MultilingualE5Embedder(**model_kwargs)
    return SentenceTransformerEmbedder(str(model), **model_kwargs)


def embedder_for_name(name: str, model: str | Path | None = None, **model_kwargs: Any) -> Embedder:
    """The embedder whose ``name`` is ``name``, as an index or a vector-store row records it, so a store is
    queried with the embedder that built it. ``model`` is the local folder of a sentence-transformers model
    recorded by its folder's name (a hub model is found by name). EmbedderMismatchError when this version of
    the library cannot make that embedder (another LiteEmbedder version or lexicon), UnknownEmbedderError
    for a name no embedder of this library gives."""
    lite = _LITE_NAME.match(name)
    if lite:
        embedder: Embedder = LiteEmbedder(dim=int(lite["dim"]))
    else:
        neural = _NEURAL_NAME.match(name)
        if not neural:
            raise UnknownEmbedderError(f"embedder name {name!r} is not one this library records "
                                       "(lite-hash/... or sentence-transformers/...)")
        embedder = _neural_for(neural, model, model_kwargs)
    if embedder.name != name:
        raise EmbedderMismatchError(
            f"vectors were made by {name!r}; this installation makes {embedder.name!r} "
            "(another library version, lexicon or model folder): re-embed the corpus, or pass the model folder"
        )
    return embedder


def _neural_for(match: re.Match[str], model: str | Path | None, model_kwargs: dict[str, Any]) -> Embedder:
    from .embedders import MultilingualE5Embedder, SentenceTransformerEmbedder

    prefixes = (ast.literal_eval(match["query"]), ast.literal_eval(match["passage"]))
    source = str(model) if model is not None else match["label"]
    if prefixes == _E5_PREFIXES:
        return MultilingualE5Embedder(source, min_score=E5_MIN_SCORE, **model_kwargs)
    return SentenceTransformerEmbedder(source, query_prefix=prefixes[0], passage_prefix=prefixes[1], **model_kwargs)


def recorded_embedder_name(index: str | Path) -> str | None:
    """The name of the embedder an index (a SQLite file or a ``postgresql://`` URL) was built with, or None
    for a new or empty index. Reads one metadata row; opens a file read-only."""
    from .store import open_store

    store = open_store(index, read_only=True)
    try:
        return store.get_meta("embedder_name")
    finally:
        store.close()


def choices_help() -> str:
    """One line per choice for ``--help``, marking those not installed here."""
    return "; ".join(f"{c.name}: {c.description}{'' if c.installed else ' [not installed]'}" for c in CHOICES)
