"""A stored document's text and segments in pieces compressed apart, so that a search result reads only the
pieces its regions cover.

The text is cut every TEXT_PIECE_CHARS characters; each piece is UTF-8, zlib-compressed on its own, and has
its own SHA-256 (checked when the piece is first read) and the count of newlines before it, so that a slice
and its line numbers come from the pieces it covers. The segments' JSON texts are grouped
SEGMENTS_PER_PIECE at a time. Reading the whole text checks it against the document's sha256, as before.

A document stored before pieces (one ``text`` part, one ``segments`` part) reads as a single piece of each.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..model import line_starts_of, sha256_text
from .packed_arrays import smallest_uint

#: Characters of text a piece holds (the last holds the rest): a region reads one or two.
TEXT_PIECE_CHARS = 16384
#: Segments a piece of segment JSON holds: a region's segments mostly lie in one.
SEGMENTS_PER_PIECE = 64
#: Raised by a store for a piece that fails its check: takes a one-line reason.
Damaged = Callable[[str], Exception]


def piece_parts(text: str) -> tuple[dict[str, np.ndarray], list[str]]:
    """The text's parts (``text.N`` pieces, their SHA-256s and the newlines before each) and the names of
    those to compress."""
    count = max(1, -(-len(text) // TEXT_PIECE_CHARS))
    pieces = [text[n * TEXT_PIECE_CHARS : (n + 1) * TEXT_PIECE_CHARS].encode("utf-8") for n in range(count)]
    parts = {f"text.{n}": np.frombuffer(piece, dtype=np.uint8) for n, piece in enumerate(pieces)}
    parts["text.sha256"] = np.frombuffer(b"".join(hashlib.sha256(piece).digest() for piece in pieces),
                                         dtype=np.uint8).reshape(count, 32)
    newlines = np.zeros(count + 1, dtype=np.int64)
    newlines[1:] = np.cumsum([piece.count(b"\n") for piece in pieces])
    parts["text.newlines"] = smallest_uint(newlines)
    return parts, [f"text.{n}" for n in range(count)]


def segment_parts(texts: Sequence[bytes]) -> tuple[dict[str, np.ndarray], list[str]]:
    """Segment JSON texts as ``segments.N`` pieces of SEGMENTS_PER_PIECE and where each text starts, and the
    names of the parts to compress."""
    offsets = np.zeros(len(texts) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(text) for text in texts])
    parts = {"segment_offsets": offsets}
    names = ["segment_offsets"]
    for n, first in enumerate(range(0, len(texts), SEGMENTS_PER_PIECE)):
        parts[f"segments.{n}"] = np.frombuffer(b"".join(texts[first : first + SEGMENTS_PER_PIECE]), dtype=np.uint8)
        names.append(f"segments.{n}")
    return parts, names


class PiecedText:
    """A document's text read piece by piece (see module docstring); a damaged piece raises ``damaged``."""

    def __init__(self, parts: Any, meta: dict[str, Any], damaged: Damaged) -> None:
        self._parts = parts
        self._damaged = damaged
        self._sha256: str = meta["document_sha256"]
        self._pieces: dict[int, str] = {}
        self._whole: str | None = None
        self._line_starts: list[int] | None = None
        if "text" in parts:  # stored before pieces: one piece, checked against the document's sha256
            self.char_count = len(self.whole())
            self._size = max(self.char_count, 1)
        else:
            self.char_count = int(meta["char_count"])
            self._size = int(meta["text_piece_chars"])
            self._count = len(parts["text.sha256"])

    def _piece(self, n: int) -> str:
        piece = self._pieces.get(n)
        if piece is None:
            try:
                raw = self._parts[f"text.{n}"].tobytes()
                expected = self._parts["text.sha256"][n].tobytes()
            except Exception as exc:  # zlib, or a piece missing
                raise self._damaged(f"text piece {n}: {_why(exc)}") from None
            if hashlib.sha256(raw).digest() != expected:
                raise self._damaged(f"text piece {n} does not match its sha256")
            piece = self._pieces[n] = raw.decode("utf-8")
        return piece

    def between(self, start: int, end: int) -> str:
        """The text of characters ``start`` to ``end`` (as ``text[start:end]`` for 0 <= start <= end)."""
        if self._whole is not None:
            return self._whole[start:end]
        end = min(end, self.char_count)
        if end <= start:
            return ""
        first, last = start // self._size, (end - 1) // self._size
        if first == last:
            base = first * self._size
            return self._piece(first)[start - base : end - base]
        text = "".join(self._piece(n) for n in range(first, last + 1))
        return text[start - first * self._size : end - first * self._size]

    def whole(self) -> str:
        """The whole text, checked against the document's sha256."""
        if self._whole is None:
            if "text" in self._parts:
                try:
                    text = self._parts["text"].tobytes().decode("utf-8")
                except Exception as exc:  # zlib
                    raise self._damaged(f"text: {_why(exc)}") from None
            else:
                text = "".join(self._piece(n) for n in range(self._count))
            if sha256_text(text) != self._sha256:
                raise self._damaged("text does not match document_sha256")
            self._whole = text
            self._pieces = {}  # the whole text serves every slice now
        return self._whole

    def line_starts(self) -> list[int]:
        """Character offset of the start of every line (as stored, else model.line_starts_of)."""
        if self._line_starts is None:
            stored = self._parts["line_starts"] if "line_starts" in self._parts else None
            self._line_starts = stored.tolist() if stored is not None else line_starts_of(self.whole())
        return self._line_starts

    def line_of(self, char: int) -> int:
        """1-based line number of character offset ``char`` (clamped to the text), as SemanticDocument.line_of:
        one more than the newlines before it, read from the piece it lies in."""
        char = min(max(char, 0), max(self.char_count - 1, 0))
        if self._line_starts is not None or "line_starts" in self._parts or self._whole is not None:
            return int(np.searchsorted(np.asarray(self.line_starts()), char, side="right"))
        n = char // self._size
        return int(self._parts["text.newlines"][n]) + self._piece(n).count("\n", 0, char - n * self._size) + 1


class PiecedSegments:
    """The JSON text of each segment, read from its piece (see module docstring)."""

    def __init__(self, parts: Any, damaged: Damaged) -> None:
        self._damaged = damaged
        self._offsets = parts["segment_offsets"].tolist()
        self._parts = parts
        self._per_piece = max(len(self) if "segments" in parts else SEGMENTS_PER_PIECE, 1)
        self._pieces: dict[int, bytes] = {}

    def __len__(self) -> int:
        return len(self._offsets) - 1

    def json(self, n: int) -> bytes:
        """The JSON text of segment ``n`` (0 <= n < len(self))."""
        piece = n // self._per_piece
        data = self._pieces.get(piece)
        if data is None:
            name = "segments" if "segments" in self._parts else f"segments.{piece}"
            try:
                data = self._pieces[piece] = self._parts[name].tobytes()
            except Exception as exc:  # zlib, or a piece missing
                raise self._damaged(f"{name}: {_why(exc)}") from None
        base = self._offsets[piece * self._per_piece]
        return data[self._offsets[n] - base : self._offsets[n + 1] - base]


def _why(exc: Exception) -> str:
    """One line on what reading a part raised (as store.base.damage)."""
    return f"{exc.__class__.__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"
