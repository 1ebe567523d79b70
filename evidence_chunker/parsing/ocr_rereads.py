"""A second look at figures Tesseract read with a language that cannot spell Latin letters.

With several languages ("kor+eng") Tesseract picks a language per word. Korean's model has digits and
signs but no Latin letters, so a Latin letter inside a figure it reads comes out as a digit or a sign
("+0.6%p" reads "+0.6%0"): nothing in its reading tells it is wrong. Such words (read by languages without
Latin letters, holding a digit and no letter) are read again on their text line by each language of the
set alone, and take the reading of another language when that language reads them more confidently than
their own does on the same line (Tesseract reads and scores a line at a time, so the readings compare).
Which languages lack Latin letters comes from their language data (the recogniser's character set).
"""

from __future__ import annotations

import struct
from functools import lru_cache
from pathlib import Path
from typing import Any

from .ocr_words import ReadWord, join_pieces, read_pieces

__all__ = ["languages_without_latin", "reread_figures"]

#: Component numbers in a ``.traineddata`` file (Tesseract's TessdataType): the character set of the
#: LSTM recogniser, and of the legacy one.
_LSTM_UNICHARSET, _LEGACY_UNICHARSET = 21, 1
#: A text line read again is cropped with this many line heights of margin around it.
LINE_MARGIN = 0.25
#: A word of the line read again stands for the page's word when it covers more than this share of the
#: narrower of the two, horizontally.
WORD_OVERLAP = 0.5
_MS_PER_S = 1000
_LATIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


@lru_cache(maxsize=None)
def _characters(path: Path) -> frozenset[str] | None:
    """The characters a language's recogniser writes (its unicharset), or None when unreadable."""
    try:
        data = path.read_bytes()
        (count,) = struct.unpack_from("<i", data, 0)
        offsets = struct.unpack_from(f"<{count}q", data, 4)
    except (OSError, struct.error):
        return None
    for component in (_LSTM_UNICHARSET, _LEGACY_UNICHARSET):
        if component >= len(offsets) or offsets[component] < 0:
            continue
        start = offsets[component]
        end = min([o for o in offsets if o > start] + [len(data)])
        lines = data[start:end].decode("utf-8", "replace").splitlines()[1:]
        return frozenset(line.split(" ", 1)[0] for line in lines if line)
    return None


def languages_without_latin(folder: Path, names: list[str]) -> frozenset[str]:
    """The languages of ``names`` whose recogniser (``<name>.traineddata`` in ``folder``) has no Latin
    letter; a language whose data cannot be read counts as having them."""
    out = set()
    for name in names:
        chars = _characters(Path(folder) / f"{name}.traineddata")
        if chars is not None and not chars & _LATIN:
            out.add(name)
    return frozenset(out)


def _figures_only(text: str) -> bool:
    return any(ch.isdigit() for ch in text) and not any(ch.isalpha() for ch in text)


def _read_line(api: Any, image: Any, box: tuple[int, int, int, int], timeout: float) -> list[ReadWord] | None:
    """Words of the crop ``box`` of ``image`` read as one line by ``api`` (page pixels), None on timeout."""
    api.SetImage(image.crop(box))
    if not api.Recognize(timeout=max(1, int(timeout * _MS_PER_S))):
        api.Clear()
        return None
    words = join_pieces(read_pieces(api))
    api.Clear()
    dx, dy = box[0], box[1]
    return [w._replace(word=w.word._replace(x0=w.word.x0 + dx, x1=w.word.x1 + dx, top=w.word.top + dy,
                                            bottom=w.word.bottom + dy)) for w in words]


def _match(word: ReadWord, reading: list[ReadWord]) -> ReadWord | None:
    """The one word of ``reading`` over ``word``, or None."""
    w = word.word
    found = [r for r in reading
             if min(r.word.x1, w.x1) - max(r.word.x0, w.x0) > WORD_OVERLAP * min(r.word.x1 - r.word.x0, w.x1 - w.x0)]
    return found[0] if len(found) == 1 else None


def reread_figures(words: list[ReadWord], image: Any, readers: dict[str, Any], latinless: frozenset[str],
                   timeout: float) -> list[ReadWord]:
    """``words`` with figures read by languages in ``latinless`` read again on their lines by each
    language's single-line ``readers`` (see the module): another language's reading replaces a word's
    when it is more confident than its own language's reading of the same line."""
    lines: dict[tuple[int, int, int, int], list[int]] = {}
    for i, w in enumerate(words):
        if w.languages and w.languages <= latinless and _figures_only(w.word.text):
            lines.setdefault(w.line, []).append(i)
    out = list(words)
    for line, members in lines.items():
        margin = round(LINE_MARGIN * (line[3] - line[1]))
        box = (max(0, line[0] - margin), max(0, line[1] - margin),
               min(image.width, line[2] + margin), min(image.height, line[3] + margin))
        readings = {name: _read_line(api, image, box, timeout) for name, api in readers.items()}
        for i in members:
            word = words[i]
            seen = {name: _match(word, r) for name, r in readings.items() if r}
            own = [m.word.confidence for name, m in seen.items() if m and name in word.languages]
            others = [(m.word.confidence, name, m) for name, m in seen.items() if m and name not in word.languages]
            if not own or not others:
                continue
            confidence, name, best = max(others, key=lambda o: o[0])
            if confidence > max(own) and best.word.text != word.word.text:
                out[i] = ReadWord(word.word._replace(text=best.word.text, confidence=confidence), frozenset({name}), word.line)
    return out
