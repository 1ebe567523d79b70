"""Token counting with tiktoken's cl100k_base, offline.

The BPE file ships inside the package (``data/``) and tiktoken checks its sha256 when it loads it, so
counting works on a machine with no network. Nothing is loaded at import time. The encoding is loaded once
per process and shared: ``count_tokens`` and every ``Tokenizer`` (the token limit of split units and Text
Chunks, in docling-core's tokenizer shape) count with it.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import TokenizerUnavailableError

if TYPE_CHECKING:  # pragma: no cover
    import tiktoken

    from .units.evidence_unit import EvidenceUnit

ENCODING_NAME = "cl100k_base"
#: Pieces larger than this many cl100k tokens are split (rows) before indexing.
DEFAULT_TOKEN_LIMIT = 512
#: sha256 of OpenAI's cl100k_base.tiktoken, the value tiktoken verifies.
CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
_BUNDLED_CACHE_DIR = Path(__file__).with_name("data")
_CACHE_ENV = "TIKTOKEN_CACHE_DIR"
_env_lock = threading.Lock()


@lru_cache(maxsize=1)
def get_encoding() -> "tiktoken.Encoding":
    """The cl100k_base encoding, loaded once from the bundled, hash-checked BPE file."""
    import tiktoken

    # tiktoken reads its cache folder from the environment at load time; point it at the bundled
    # file for this one call only, then restore whatever the user had.
    with _env_lock:
        previous = os.environ.get(_CACHE_ENV)
        os.environ[_CACHE_ENV] = str(_BUNDLED_CACHE_DIR)
        try:
            return tiktoken.get_encoding(ENCODING_NAME)
        except Exception as exc:  # a hash mismatch makes tiktoken try the network, which fails offline
            raise TokenizerUnavailableError(
                f"cannot load {ENCODING_NAME} from {_BUNDLED_CACHE_DIR} (expected sha256 {CL100K_SHA256}); "
                f"reinstall semantic-json-transport: {exc}"
            ) from exc
        finally:
            if previous is None:
                os.environ.pop(_CACHE_ENV, None)
            else:
                os.environ[_CACHE_ENV] = previous


#: Texts whose token counts are remembered (a few MB for a filing): the same unit or chunk text is counted
#: again when it is built, split, merged with its neighbours and checked.
COUNTED_TEXTS = 4096


def count_tokens(text: str) -> int:
    """Number of cl100k_base tokens in ``text`` (special-token strings count as plain text)."""
    if not text:
        return 0
    return _count(text)


@lru_cache(maxsize=COUNTED_TEXTS)
def _count(text: str) -> int:
    return len(get_encoding().encode(text, disallowed_special=()))


@dataclass(frozen=True)
class Tokenizer:
    """cl100k_base counting under a token limit, in docling-core's ``BaseTokenizer`` shape (``count_tokens``,
    ``get_max_tokens``, ``get_tokenizer``): what split units and Text Chunks count with. Every Tokenizer
    counts with the one encoding of the process (``get_encoding``, loaded once) and its remembered counts;
    ``tokenizer_for`` gives the one Tokenizer of a limit."""

    max_tokens: int = DEFAULT_TOKEN_LIMIT

    def __post_init__(self) -> None:
        if self.max_tokens < 1:
            raise ValueError(f"token_limit must be positive, got {self.max_tokens}")

    def count_tokens(self, text: str) -> int:
        """cl100k tokens of ``text`` (``count_tokens``)."""
        return count_tokens(text)

    def get_max_tokens(self) -> int:
        return self.max_tokens

    def get_tokenizer(self):
        """What docling-core's chunker (semchunk) counts with: the counting function, which, unlike the
        encoding's ``encode``, never raises on "<|endoftext|>" in a document."""
        return count_tokens


@lru_cache(maxsize=None)
def tokenizer_for(max_tokens: int = DEFAULT_TOKEN_LIMIT) -> Tokenizer:
    """The Tokenizer of ``max_tokens``, one per limit in a process (split and Text Chunks share it)."""
    return Tokenizer(max_tokens)


def count_eu_tokens(eu: "EvidenceUnit") -> int:
    """Tokens of ``eu.text``, the text an LLM receives for the unit."""
    return count_tokens(eu.text)


def exceeds_token_limit(eu: "EvidenceUnit", limit: int = DEFAULT_TOKEN_LIMIT) -> bool:
    """True when ``eu.text`` is longer than ``limit`` tokens."""
    return count_eu_tokens(eu) > limit


def cut_to_tokens(text: str, limit: int) -> list[str]:
    """``text`` cut at spaces into consecutive pieces of at most ``limit`` tokens each, each as long as the
    limit allows; a run without spaces longer than the limit is cut between characters. The pieces joined
    with single spaces give back ``text`` with its whitespace collapsed."""
    if limit < 1:
        raise ValueError(f"limit must be positive, got {limit}")
    words, pieces, start = text.split(), [], 0
    while start < len(words):
        if count_tokens(words[start]) > limit:
            pieces.extend(_longest_runs(words[start], limit, ""))
            start += 1
            continue
        end = _longest_fit(words, start, limit, " ")
        pieces.append(" ".join(words[start:end]))
        start = end
    return pieces


def _longest_runs(word: str, limit: int, sep: str) -> list[str]:
    """``word`` cut between characters into runs of at most ``limit`` tokens."""
    chars, runs, start = list(word), [], 0
    while start < len(chars):
        end = _longest_fit(chars, start, limit, sep)
        runs.append(sep.join(chars[start:end]))
        start = end
    return runs


def _longest_fit(parts: list[str], start: int, limit: int, sep: str) -> int:
    """The largest ``end`` > ``start`` such that ``parts[start:end]`` joined by ``sep`` is at most ``limit``
    tokens (``start + 1`` when even that one part is not)."""
    low, high = start + 1, len(parts)
    while low < high:
        middle = (low + high + 1) // 2
        if count_tokens(sep.join(parts[start:middle])) <= limit:
            low = middle
        else:
            high = middle - 1
    return low
