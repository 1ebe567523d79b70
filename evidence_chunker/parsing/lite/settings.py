"""LiteSettings: every threshold of the lite parser, with its meaning, unit and default in one place.

Lengths called "em" are multiples of the font size of the text concerned (the body text's size where
stated); "points" are PDF points; a "share" is a fraction from 0 to 1.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields, replace
from typing import Any, Mapping

from semantic_json.rules.patterns import CAPTION_MAX_CHARS
from ..ocr import DEFAULT_OCR_LANGUAGES

__all__ = ["LiteSettings"]


@dataclass(frozen=True)
class LiteSettings:
    """Every threshold of the lite parser. Accepts overrides as keyword arguments or (``resolve``) as a
    plain dict; a value out of range raises ValueError naming the field."""

    # ---- text geometry (em unless stated) ------------------------------------------------------
    #: A gap wider than this between two glyphs starts a new word.
    word_gap: float = 0.25
    #: A gap wider than this between two words starts a new phrase (a table cell or a column of text).
    phrase_gap: float = 1.0
    #: A narrower gap also splits a phrase when it is over this many em...
    split_gap: float = 0.5
    #: ...and this many times the phrase's usual word gap (dense columns)...
    split_ratio: float = 2.2
    #: ...the usual gap being measured over at least this many gaps, else the page's.
    split_min_gaps: int = 3
    #: A ")" or "%" this close after an amount, with no space printed between, ends the amount: "(565" and
    #: ")" in table cells of their own, as EDGAR renders financial statements, read "(565)".
    mark_gap: float = 1.5
    #: A glyph this far left of the previous one starts a new word (text written out of order).
    backtrack: float = 0.5
    #: Join a letter the PDF set apart from its word ("Incom e", "C ompany", :mod:`.lite_spacing`): one this
    #: close to the word (em) touches it (drawn apart in the content stream: "comprehensiv" + "e")...
    join_split_letters: bool = True
    letter_touch_gap: float = 0.02
    #: ...else one further away when their gap is at most this many times the phrase's usual word gap...
    letter_gap_ratio: float = 1.25
    #: ...and the document prints the joined word whole at least this many times (as one word)...
    letter_min_uses: int = 2
    #: ...and this many times as often as the fragment ("income" against "incom").
    letter_fragment_ratio: float = 3.0
    #: Two extents are on one baseline when they overlap by this share of the smaller height.
    line_overlap: float = 0.5
    #: Font sizes differing by more than this share are different styles.
    size_jump: float = 0.2
    #: A bullet or enumerator joins the text that starts within this distance after it.
    marker_gap: float = 3.0
    # ---- page furniture ------------------------------------------------------------------------
    #: Share of the page height, at top and at bottom, where headers and footers live.
    margin_band: float = 0.08
    #: A margin line printed smaller than this share of the body size is furniture even if unique.
    furniture_size_ratio: float = 0.9
    # ---- reading order and paragraphs ----------------------------------------------------------
    #: A vertical whitespace gap at least this wide separates columns.
    gutter: float = 1.0
    #: Blocks wider than this share of their region may bridge a column gutter (headings, tables).
    wide_block: float = 0.55
    #: A vertical gap between lines wider than this starts a new paragraph.
    paragraph_gap: float = 0.9
    #: A first line indented by more than this starts a new paragraph.
    indent: float = 1.0
    #: Text at least this many times the body size is heading-like.
    heading_size: float = 1.15
    #: A heading has at most this many lines...
    heading_max_lines: int = 3
    #: ...and at most this many characters.
    heading_max_chars: int = 160
    #: In a document of at least this many pages the first page is a cover (a form's labels: "FORM 10-K",
    #: "(Mark One)", the filer's address): its headings name only its own lines, not every later section.
    cover_min_pages: int = 10
    #: Text at most this many times the body size, opening with a note marker, is a footnote.
    footnote_size: float = 0.92
    #: A caption has at most this many characters (a longer limit than patterns.CAPTION_MAX_CHARS has no effect).
    caption_max_chars: int = CAPTION_MAX_CHARS
    # ---- rules (points unless stated) ----------------------------------------------------------
    #: Rules closer than this are snapped to one coordinate; also the tolerance of intersections.
    snap_tolerance: float = 3.0
    #: Collinear rules with a gap up to this are joined.
    join_tolerance: float = 3.0
    #: Shorter rules are ignored (tick marks, glyph-like strokes).
    min_edge_length: float = 4.0
    #: A cell boundary exists when rules cover this share of it.
    rule_coverage: float = 0.5
    #: A ruled grid needs an interior rule covering this share of its height (a column divider), or,
    #: without columns drawn, of its width; nested boxes and diagrams fail this.
    divider_coverage: float = 0.5
    #: A ruled area this wide (share of the page width) is page design, not a table.
    page_wide: float = 0.97
    #: Grid rows or columns narrower than this are slivers between double rules, not cells.
    min_cell: float = 7.0
    #: A ruled row is split into its text lines when this share of its cells (and at least two) hold
    #: several lines that line up across the row: rules drawn only around groups of rows...
    split_row_share: float = 0.5
    #: ...and when this share of those lines are single values (numbers, one or two short words).
    split_row_token_share: float = 0.75
    #: A ruled area holding this many pieces of slanted or curved artwork...
    diagram_pieces: int = 3
    #: ...each at least this share of its width long, is a diagram.
    diagram_piece: float = 0.1
    #: A filled rectangle thinner than this is a rule, not a shaded area.
    rule_thickness: float = 2.5
    #: Filled rectangles covering more than this share of the page are backgrounds, not rules.
    background_share: float = 0.5
    #: How far a horizontal rule may sit from a table's top or bottom and still bound it.
    rule_reach: float = 8.0
    #: A borderless table is rejected when figure artwork (curves, polygons, images) covers this share
    #: of its box: chart labels and legends line up like columns.
    figure_share: float = 0.15
    #: Images covering more than this share of the page are backgrounds (or scans), not figures.
    background_image_share: float = 0.5
    #: A whitespace strip this wide (em of the body size) through all of a page's text, with prose on
    #: both sides, separates page columns (or the two pages of a spread) that tables do not cross.
    zone_gutter: float = 1.5
    #: Each side of a page column gutter needs this many long (prose) phrases.
    zone_min_prose: int = 3
    # ---- tables (em unless stated) -------------------------------------------------------------
    #: Tables need at least this share of their grid slots filled with text.
    min_fill: float = 0.25
    #: A column gap narrower than this is not a column boundary.
    min_gutter: float = 0.6
    #: A phrase with at most this many words...
    short_phrase_words: int = 6
    #: ...and at most this width is short (cell-like).
    short_phrase_width: float = 14.0
    #: A borderless table needs this many table-like lines.
    min_table_lines: int = 2
    #: Rows of a borderless table are at most this far apart.
    row_gap: float = 2.5
    #: Plain lines (section labels, wrapped text) allowed in a row between table-like lines.
    max_plain_lines: int = 4
    #: Borderless tables this close with compatible columns are sections of one table.
    section_gap: float = 5.0
    #: A words-only line with this much space above and below, between a table's row and a line of
    #: column headings, titles a second table stacked under the first (:mod:`.stacked_tables`).
    title_gap: float = 1.0
    #: A rule this close under a heading and wider than it marks the columns the heading spans.
    spanner_gap: float = 0.8
    #: A column gap may be crossed by this share of the lines (spanning headings, long labels).
    span_tolerance: float = 0.2
    #: Heading lines looked for above a borderless table...
    max_header_lines: int = 4
    #: ...at most this far apart...
    header_gap: float = 1.5
    #: ...and overhanging the table's columns by at most this.
    header_slack: float = 1.0
    #: A section label ("Current assets:") right above a table's first row may stand this far left of
    #: the row labels and still be a row of the table.
    section_indent: float = 3.0
    #: A line continues the table row above when the gap is below this.
    wrap_gap: float = 0.45
    #: A currency sign standing alone at most this far before an amount on its row belongs to it:
    #: EDGAR prints "$" in a cell of its own at the left of the amount's cell; the cell reads "$ 298,085".
    currency_gap: float = 8.0
    #: Heading text lines up with a column (left, right or centre) within this distance.
    align_tolerance: float = 0.6
    #: A borderless table is accepted when this share of its later-column cells are quantities...
    numeric_share: float = 0.4
    #: ...or, for text tables, when cells average at most this many words...
    max_words_per_cell: float = 5.0
    #: ...or, between a rule above and a rule below, when no first-column label has more words than this...
    max_label_words: int = 12
    #: ...over at least this many rows...
    min_text_table_rows: int = 3
    #: ...with this share of slots filled.
    text_table_fill: float = 0.6
    #: A table of contents needs this many leader lines...
    min_index_lines: int = 3
    #: ...at most this far apart.
    index_gap: float = 3.0
    #: At most this many heading rows.
    max_header_rows: int = 4
    #: The first column is a row header when this share of its body cells are labels...
    row_header_labels: float = 0.8
    #: ...while this share of the other body cells are quantities.
    row_header_numbers: float = 0.5
    #: Find borderless (aligned-column) tables; ruled tables are always found.
    borderless_tables: bool = True
    # ---- OCR (pages without a usable text layer; see evidence_chunker.parsing.ocr) --------------
    #: Read pages without a usable text layer with Tesseract; off, a PDF with no text raises ImageOnlyPdfError.
    ocr: bool = True
    #: Tesseract languages, joined by "+" (traineddata names: "kor+eng", "eng", "jpn+eng").
    ocr_languages: str = DEFAULT_OCR_LANGUAGES
    #: Pages are rendered at this many dots per inch for OCR (docs/parsers.md: on the sample scans 300 finds
    #: 98.1% of the numbers, 200 finds 97.9% in half the time).
    ocr_dpi: int = 300
    #: Tesseract's page segmentation mode: 4 reads the page as one column of lines of any size, and the
    #: parser's own stages find the columns and tables in the word boxes (on the Korean sample scan it
    #: finds 91% of the words where the automatic mode, 3, finds 80%: docs/parsers.md).
    ocr_psm: int = 4
    #: Seconds Tesseract may spend on one page; a page that takes longer keeps no words and is reported.
    ocr_timeout: float = 120.0
    #: Folder of Tesseract's *.traineddata; empty: TESSDATA_PREFIX, else the folders apt and brew install to.
    ocr_tessdata: str = ""
    #: A text layer is judged only with at least this many words (fewer: kept as it is, unless empty)...
    text_layer_min_words: int = 12
    #: ...and is garbage (the page is OCRed) when fewer than this share of its words are plausible
    #: words of the expected scripts (lite/text_layer.py; docs/parsers.md gives the measured shares).
    text_layer_min_plausible: float = 0.6
    #: A text layer with at least this many Latin letters...
    text_layer_min_letters: int = 200
    #: ...is also garbage when fewer than this share of them are the twelve common letters (etaoinshrdlc).
    text_layer_min_common_letters: float = 0.65

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if f.type in ("str", str):
                if not isinstance(value, str):
                    raise ValueError(f"LiteSettings.{f.name} must be a string, got {value!r}")
                continue
            if f.type in ("bool", bool):
                if not isinstance(value, bool):
                    raise ValueError(f"LiteSettings.{f.name} must be true or false, got {value!r}")
                continue
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"LiteSettings.{f.name} must be a finite number, got {value!r}")
            if f.type in ("int", int) and value != int(value):
                raise ValueError(f"LiteSettings.{f.name} must be a whole number, got {value!r}")
            if value < 0 or (value == 0 and f.name not in _MAY_BE_ZERO):
                raise ValueError(f"LiteSettings.{f.name} must be positive, got {value!r}")
            if f.name in _SHARES and value > 1:
                raise ValueError(f"LiteSettings.{f.name} is a share of 0 to 1, got {value!r}")
        if not _LANGUAGES_RE.fullmatch(self.ocr_languages):
            raise ValueError(f"LiteSettings.ocr_languages must be Tesseract language names joined by '+' "
                             f"(\"kor+eng\"), got {self.ocr_languages!r}")

    @classmethod
    def resolve(cls, settings: "LiteSettings | Mapping[str, Any] | None") -> "LiteSettings":
        """Accept a LiteSettings, a plain dict of overrides, or None (defaults)."""
        if settings is None:
            return cls()
        if isinstance(settings, cls):
            return settings
        known = {f.name for f in fields(cls)}
        unknown = set(settings) - known
        if unknown:
            raise ValueError(f"unknown LiteSettings field(s): {', '.join(sorted(unknown))}")
        return replace(cls(), **dict(settings))


#: Tesseract language names joined by "+": "kor+eng", "chi_sim+eng".
_LANGUAGES_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:\+[A-Za-z][A-Za-z0-9_]*)*")
#: Fields that are shares (0 to 1).
_SHARES = frozenset({
    "line_overlap", "margin_band", "wide_block", "rule_coverage", "divider_coverage", "page_wide",
    "split_row_share", "split_row_token_share", "diagram_piece", "background_share", "figure_share",
    "background_image_share", "min_fill", "span_tolerance", "numeric_share", "text_table_fill",
    "row_header_labels", "row_header_numbers", "text_layer_min_plausible", "text_layer_min_common_letters",
})
#: Fields for which 0 is a meaningful value (no tolerance, no plain lines allowed, never).
_MAY_BE_ZERO = frozenset({
    "word_gap", "letter_touch_gap", "mark_gap", "backtrack", "size_jump", "marker_gap", "snap_tolerance", "join_tolerance",
    "min_edge_length", "min_cell", "rule_reach", "max_plain_lines", "span_tolerance", "header_slack",
    "section_indent", "wrap_gap", "currency_gap", "align_tolerance", "min_gutter", "margin_band",
    "split_row_share", "split_row_token_share", "diagram_piece", "min_fill", "numeric_share",
    "text_table_fill", "row_header_labels", "row_header_numbers", "figure_share", "zone_min_prose",
    "text_layer_min_plausible", "text_layer_min_common_letters",
})
