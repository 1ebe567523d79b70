"""The rows a statement's figures came from, boxed on the PDF page (what the audit page's answer badges draw).

The index keeps one box per source segment (a table piece, a paragraph), not one per row, so a cited row is
found on the page itself, in the PDF the index recorded:

1. the region's lines that print the statement's figures, by the citation oracle's own grounding, line by
   line (`semantic_json.citations.numbers.figure_lines`: "USD 1.9 billion" finds the row printing 1,938 of a
   table in millions; years and small counts are no figures);
2. inside the region's boxes, the printed line that carries that number and the first word of the row's
   own label (its header without the section path: "Total assets" of "ASSETS > Total assets"), read with
   the lite parser's glyph reader, in the frame the region boxes were measured in; a number printed on
   exactly one line of the region needs no header word (a wrapped row header), nor does a line of prose;
3. the row box spans the region box's width and that line's height.

When the statement states no figure, or no printed line matches, the whole region is boxed and the note says
why. Every box is a transport box dict: page (1-based), bbox [l, t, r, b] in points, BOTTOMLEFT.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

#: Points added around a located row on every side: the outline is drawn inside the box, and a table's
#: region box ends at its text, so without it the outline would cross the row's first and last glyphs.
ROW_PADDING_PT = 2.5
#: Notes the page shows when it boxes the whole region.
NOTE_NO_FIGURE = "whole region: the statement states no figure"
NOTE_NO_ROW = "whole region: no row matched"
NOTE_UNVERIFIED = "whole region: the region does not verify against its PDF"
_WORD_RE = re.compile(r"\w+")


class PrintedLine(NamedTuple):
    """Words printed on one line inside a region box: their text, and the line's top and bottom (points,
    BOTTOMLEFT, top > bottom)."""

    text: str
    top: float
    bottom: float


@dataclass
class CitedRows:
    """What a badge draws: ``boxes`` (transport box dicts), ``rows`` (a label per matched row) and ``note``
    (why the whole region is boxed; None when rows are)."""

    boxes: list[dict[str, Any]]
    rows: list[str] = field(default_factory=list)
    note: str | None = None

    @property
    def pages(self) -> list[int]:
        return sorted({box["page"] for box in self.boxes})


def _key(mention) -> tuple:
    """What two printings of one number share: kind, value and sign."""
    return mention.kind, mention.value, mention.negative


def _tokens(text: str) -> set[str]:
    return {token.casefold() for token in _WORD_RE.findall(text)}


def _row_header(line: str) -> str | None:
    """The row header of a flattened row ("Assets > Total assets | 2024: 1,938; ..."); None for prose."""
    from ...units.tables import ROW_HEADER_SEP

    return line.split(ROW_HEADER_SEP, 1)[0].strip() if ROW_HEADER_SEP in line else None


def _header_word(header: str | None) -> str | None:
    """The first word (one with a letter) of the row's own label, casefolded: the part of ``header`` after
    its section path ("Assets > Total assets" prints "Total assets" on the row's line) and before a second
    header column ("Total / Company"). None when there is no such word."""
    from ...units.tables import LEVEL_SEP, SECTION_SEP

    if not header:
        return None
    label = header.rsplit(SECTION_SEP, 1)[-1].split(LEVEL_SEP, 1)[0]
    return next((w.casefold() for w in _WORD_RE.findall(label) if any(c.isalpha() for c in w)), None)


def _row_box(box: dict[str, Any], line: PrintedLine) -> dict[str, Any]:
    """A box of region box ``box``'s width and ``line``'s height, ROW_PADDING_PT wider on every side."""
    l, _, r, _ = box["bbox"]
    pad = ROW_PADDING_PT
    return {"page": box["page"], "bbox": [l - pad, line.top + pad, r + pad, line.bottom - pad],
            "coord_origin": "BOTTOMLEFT", "unit": "points"}


def whole_region(boxes: list[dict[str, Any]], note: str) -> CitedRows:
    """The region's own ``boxes`` (transport box dicts), with the ``note`` saying why no row is boxed."""
    return CitedRows([{k: box[k] for k in ("page", "bbox", "coord_origin", "unit") if k in box} for box in boxes],
                     note=note)


def cited_rows(sentence: str, text: str, unit: str | None, boxes: list[dict[str, Any]],
               lines_in: Callable[[dict[str, Any]], list[PrintedLine]]) -> CitedRows:
    """The boxes of the rows of a region (its ``text``, table ``unit`` and source ``boxes``) that print the
    figures of ``sentence``; ``lines_in(box)`` gives the lines printed inside one region box, top to bottom.
    The whole region's boxes, with a note, when there is no figure or no printed line matches."""
    from semantic_json.citations import figure_lines, find_numbers, is_figure

    found = figure_lines(sentence, text, unit)
    if not found:
        return whole_region(boxes, NOTE_NO_ROW if any(map(is_figure, find_numbers(sentence))) else NOTE_NO_FIGURE)
    region_lines = text.split("\n")
    printed = [(box, line, {_key(m) for m in find_numbers(line.text)}, _tokens(line.text))
               for box in boxes if str(box.get("coord_origin", "")).upper() == "BOTTOMLEFT" for line in lines_in(box)]
    result = CitedRows([])
    seen: set[tuple] = set()
    for number, mentions in found:
        header_text = _row_header(region_lines[number])
        header = _header_word(header_text)
        matched = []
        for mention in mentions:
            carrying = [(box, line, words) for box, line, keys, words in printed if _key(mention) in keys]
            headed = [(box, line) for box, line, words in carrying if header is not None and header in words]
            if headed or header is None or len(carrying) == 1:
                matched += headed or [(box, line) for box, line, _ in carrying]
        for box, line in matched:
            row = _row_box(box, line)
            if (key := (row["page"], *row["bbox"])) not in seen:
                seen.add(key)
                result.boxes.append(row)
        if matched:
            values = ", ".join(dict.fromkeys(m.surface for m in mentions))
            result.rows.append(f"{header_text} ({values})" if header_text else f"the line printing {values}")
    if not result.boxes:
        return whole_region(boxes, NOTE_NO_ROW)
    result.boxes.sort(key=lambda box: (box["page"], -box["bbox"][1]))
    return result


def _lines(words: Iterable[Any], overlap: float, page_height: float) -> list[PrintedLine]:
    """Words (top-down ``top``/``bottom``) grouped into lines: a word joins the line it shares ``overlap`` of
    the smaller height with; lines top to bottom, each line's words left to right, in BOTTOMLEFT points."""
    groups: list[list[Any]] = []
    for word in sorted(words, key=lambda w: (w.top, w.x0)):
        if groups:
            last = groups[-1]
            top, bottom = min(w.top for w in last), max(w.bottom for w in last)
            shared = min(bottom, word.bottom) - max(top, word.top)
            if shared >= overlap * min(bottom - top, word.bottom - word.top):
                last.append(word)
                continue
        groups.append([word])
    return [PrintedLine(" ".join(w.text for w in sorted(group, key=lambda w: w.x0)),
                        page_height - min(w.top for w in group), page_height - max(w.bottom for w in group))
            for group in groups]


class PdfLines:
    """The printed lines of one PDF inside region boxes, each page read once (pdfium, with the lite parser's
    glyph reader and word cutting, so words sit in the frame the region boxes were measured in).

    Use as a context manager, or call close(). A page the PDF does not have has no lines.
    """

    def __init__(self, pdf: str | Path | bytes) -> None:
        import pypdfium2 as pdfium

        from ...parsing.lite.settings import LiteSettings

        self._pdf = pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
        self._settings = LiteSettings()
        self._pages: dict[int, tuple[list[Any], float]] = {}

    def __enter__(self) -> PdfLines:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._pdf.close()

    def _words(self, page_no: int) -> tuple[list[Any], float]:
        """The words of a 1-based page (top-down frame of the displayed page) and the page's height."""
        from ...parsing.lite.pdfium import PageFrame, extract_chars
        from ...parsing.lite.text import words_from_glyphs

        if page_no not in self._pages:
            words: list[Any] = []
            height = 0.0
            if 1 <= page_no <= len(self._pdf):
                page = self._pdf[page_no - 1]
                try:
                    frame = PageFrame(tuple(page.get_cropbox()), page.get_rotation())
                    glyphs, _, _ = extract_chars(page, frame)
                    words, height = words_from_glyphs(glyphs, self._settings), frame.height
                finally:
                    page.close()
            self._pages[page_no] = (words, height)
        return self._pages[page_no]

    def lines_in(self, box: dict[str, Any]) -> list[PrintedLine]:
        """The lines of the words whose centre lies inside ``box`` (a transport box dict, BOTTOMLEFT points)."""
        words, height = self._words(int(box["page"]))
        l, t, r, b = box["bbox"]
        inside = [w for w in words if l <= (w.x0 + w.x1) / 2 <= r and b <= height - (w.top + w.bottom) / 2 <= t]
        return _lines(inside, self._settings.line_overlap, height)
