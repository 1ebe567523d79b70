"""A letter the PDF set apart from its word by glyph spacing is read as part of the word again.

3M's 2018 10-K titles its income statement "Consolidated Statement of Incom e" when read glyph by glyph:
the final "e" sits a word space after the "m" (no space character printed), so a search for "statement
of income" missed the title. The generated PDF below places its glyphs the same way: each glyph drawn at
its own x, the "e" moved right by the width of a space.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from reportlab.pdfbase.pdfmetrics import stringWidth  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402

from collections import Counter  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.parsing.lite.settings import LiteSettings  # noqa: E402
from evidence_chunker.parsing.lite.spacing import is_split_word, join_in_phrase, word_uses  # noqa: E402
from evidence_chunker.parsing.lite.text import Phrase, Word  # noqa: E402

FONT, BOLD, SIZE = "Helvetica", "Helvetica-Bold", 10
ROWS = [
    ("Net sales", "32,765", "31,657"),
    ("Operating income", "7,207", "6,966"),
    ("Income before income taxes", "7,000", "6,669"),
    ("Provision for income taxes", "2,679", "1,626"),
    ("Net income including noncontrolling interest", "4,869", "5,050"),
]


def _draw_spaced(c: canvas.Canvas, x: float, y: float, text: str, font: str, apart: dict[int, float]) -> None:
    """``text`` glyph by glyph at its own x, as filings print it; glyph ``k`` in ``apart`` moved right by
    that many points (its word's spacing), with no space character."""
    c.setFont(font, SIZE)
    for k, glyph in enumerate(text):
        x += apart.get(k, 0.0)
        if glyph != " ":
            c.drawString(x, y, glyph)
        x += stringWidth(glyph, font, SIZE)


def statement_pdf(path: Path, title: str, apart: dict[int, float], sentence: str = "") -> Path:
    c = canvas.Canvas(str(path), invariant=1)
    _draw_spaced(c, 72, 740, "3M Company and Subsidiaries", BOLD, {})
    _draw_spaced(c, 72, 726, title, BOLD, apart)
    _draw_spaced(c, 72, 712, "Years ended December 31", FONT, {})
    c.setFont(FONT, SIZE)
    c.drawString(360, 690, "2018")
    c.drawString(440, 690, "2017")
    for i, (label, now, then) in enumerate(ROWS):
        y = 674 - 16 * i
        c.drawString(72, y, label)
        c.drawRightString(392, y, now)
        c.drawRightString(472, y, then)
    if sentence:
        _draw_spaced(c, 72, 560, sentence, FONT, {})
    c.showPage()
    c.save()
    return path


def _texts(path: Path) -> list[str]:
    doc = EvidenceChunker(parser="lite").parse(path).document
    return [item.text for item in doc.texts] + [cell.text for t in doc.tables for cell in t.data.table_cells]


def test_a_letter_set_apart_by_glyph_spacing_joins_its_word(tmp_path):
    title = "Consolidated Statement of Income"
    space = stringWidth(" ", BOLD, SIZE)
    pdf = statement_pdf(tmp_path / "income.pdf", title, {len(title) - 1: space})
    texts = _texts(pdf)
    assert any(text.endswith(title) for text in texts)  # under the company line, as a title block
    assert not any("Incom e" in text for text in texts)


def test_the_letter_is_set_apart_as_far_as_the_words_are(tmp_path):
    """The reproduction holds: without the join the parser reads the split word, as it read 3M's."""
    title = "Consolidated Statement of Income"
    space = stringWidth(" ", BOLD, SIZE)
    pdf = statement_pdf(tmp_path / "income.pdf", title, {len(title) - 1: space})
    doc = EvidenceChunker(parser=_lite(join_split_letters=False)).parse(pdf).document
    assert any(item.text.endswith("Consolidated Statement of Incom e") for item in doc.texts)


def test_a_letter_drawn_apart_in_the_content_stream_joins_the_word_it_touches():
    """Verizon's 2022 10-K (page 92) draws the "e" of "comprehensive" after the figures of its row, 0.06 pt
    right of the "v": read in the order of the glyphs it was a word of its own, "comprehensiv e". The
    boxes below are the glyphs' (points, 9 pt Arial Bold); no other word of this document says
    "comprehensive", so only the touch joins them."""
    def row(e_x0: float) -> Phrase:
        return Phrase([Word("Accumulated", 43.07, 628.05, 98.6, 638.09, 9.0, True, "Arial-BoldMT"),
                       Word("other", 101.1, 628.05, 124.1, 638.09, 9.0, True, "Arial-BoldMT"),
                       Word("comprehensiv", 229.1, 628.05, 290.12, 638.09, 9.0, True, "Arial-BoldMT"),
                       Word("e", e_x0, 628.06, e_x0 + 5.01, 638.11, 9.0, True, "Arial-BoldMT")])

    touching, apart = row(290.18), row(292.4)  # 0.06 pt, and a quarter em (a word's gap) right of the "v"
    assert join_in_phrase(touching, word_uses([touching]), LiteSettings()) == 1
    assert touching.text == "Accumulated other comprehensive"
    assert join_in_phrase(apart, word_uses([apart]), LiteSettings()) == 0


def test_one_letter_words_stay_apart(tmp_path):
    sentence = "Sales abroad grew: a share of Class A stock sold abroad is a broad measure of sales abroad"
    pdf = statement_pdf(tmp_path / "words.pdf", "Consolidated Statement of Income", {}, sentence)
    assert sentence in _texts(pdf)


def test_a_split_word_is_one_the_document_prints_whole_and_not_two_it_prints_apart():
    """The counts are the document's own (casefolded letter runs): 3M's income statement against the
    "a broad" of a filing that also writes "abroad" a dozen times."""
    uses = Counter(income=40, incom=1, e=3, abroad=12, broad=3, arise=6, rise=1, a=500, of=900)
    assert is_split_word("income", "incom", "e", uses, min_uses=2, ratio=3)
    assert not is_split_word("abroad", "broad", "a", uses, min_uses=2, ratio=3)  # "a" and "broad" are words
    assert not is_split_word("ofa", "of", "a", uses, min_uses=2, ratio=3)  # "ofa" is not
    assert not is_split_word("arise", "rise", "a", uses, min_uses=2, ratio=3)  # "a" is far commoner


def _lite(**settings):
    from evidence_chunker.parsing import LiteParser

    return LiteParser(settings=settings)
