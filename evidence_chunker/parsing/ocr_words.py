"""Words as Tesseract returns them (tesserocr): pieces with boxes, confidences and the language that read
each, joined into the page's words where Tesseract printed no space between them."""

from __future__ import annotations

from typing import Any, NamedTuple

__all__ = ["OcrWord", "Piece", "ReadWord", "read_pieces", "join_pieces"]

#: Tesseract's confidences are percentages.
_PERCENT = 100.0


class OcrWord(NamedTuple):
    """A word as Tesseract read it: text, box in image pixels (top-down), the box of its text line
    (pixels), and its confidence (0..1)."""

    text: str
    x0: int
    top: int
    x1: int
    bottom: int
    line_top: int
    line_bottom: int
    confidence: float


class Piece(NamedTuple):
    """A word as Tesseract returns it, with where it stands and which language read it."""

    text: str
    box: tuple[int, int, int, int]
    line: tuple[int, int, int, int]
    confidence: float
    language: str
    joins: bool  # no space before it on its line: it continues the word before


def read_pieces(api: Any) -> list[Piece]:
    """The words of the image ``api`` has just recognised, in reading order."""
    import tesserocr

    level, line_level = tesserocr.RIL.WORD, tesserocr.RIL.TEXTLINE
    out: list[Piece] = []
    for piece in tesserocr.iterate_level(api.GetIterator(), level):
        box = piece.BoundingBox(level)
        try:
            text = (piece.GetUTF8Text(level) or "").strip()
        except RuntimeError:  # an empty word
            continue
        if not text or box is None:
            continue
        joins = bool(out) and not piece.IsAtBeginningOf(line_level) and piece.BlanksBeforeWord() == 0
        out.append(Piece(text, box, piece.BoundingBox(line_level) or box, max(0.0, piece.Confidence(level)) / _PERCENT,
                          piece.WordRecognitionLanguage() or "", joins))
    return out


class ReadWord(NamedTuple):
    """A word of a page with the languages that read its pieces and its text line's box (pixels)."""

    word: OcrWord
    languages: frozenset[str]
    line: tuple[int, int, int, int]


def join_pieces(pieces: list[Piece]) -> list[ReadWord]:
    """Words of Tesseract's pieces: pieces with no space between them are one word (Korean comes back a
    syllable a piece), its confidence weighed by characters."""
    words: list[ReadWord] = []
    for p in pieces:
        if words and p.joins:
            last, languages, line = words[-1]
            chars, n = len(last.text), len(p.text)
            words[-1] = ReadWord(OcrWord(
                last.text + p.text, min(last.x0, p.box[0]), min(last.top, p.box[1]), max(last.x1, p.box[2]),
                max(last.bottom, p.box[3]), last.line_top, last.line_bottom,
                (last.confidence * chars + p.confidence * n) / (chars + n),
            ), languages | {p.language}, line)
            continue
        words.append(ReadWord(OcrWord(p.text, *p.box, p.line[1], p.line[3], p.confidence), frozenset({p.language}), p.line))
    return words
