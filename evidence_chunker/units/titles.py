"""What a table is when no numbered caption says so: its title, unit and period, read from the page.

Filings rarely print "Table 3."; a statement is named by the block of short lines printed above it
("3M Company and Subsidiaries / Consolidated Statement of Income / Years ended December 31"), by the
page's running title ("Notes to Consolidated Financial Statements"), or by the section it sits in.
Korean reports work the same way (연결재무상태표 / 제 26 기 2023.12.31 현재 / (단위: 백만원)).

``table_title`` tries those sources in that order (a title the parser drew into the table's own first
rows counts as its title block) and says which one gave the title. The unit
("in millions, except per share amounts", 백만원) and the period ("Years ended December 31", 제26기)
are read from the title lines, else from the table's own header cells.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from docling_core.types.doc import ContentLayer, DocItemLabel, DoclingDocument, TableItem, TextItem

from semantic_json import PageBox
from .geometry import item_box
from semantic_json.rules.patterns import find_unit, strip_unit

#: Where a table's title came from (``EvidenceUnit.caption_source``).
SOURCE_DIRECT = "direct"  # the parser linked a caption
SOURCE_CAPTION = "caption"  # a numbered caption ("Table 3:", "<표 2>") found nearby
SOURCE_TITLE_BLOCK = "title_block"  # the short lines printed right above the table
SOURCE_RUNNING_TITLE = "running_title"  # the page's running header, when it names a statement or note
SOURCE_HEADING = "heading"  # the innermost section heading in force
SOURCE_NONE = "none"
CAPTION_SOURCES = (SOURCE_DIRECT, SOURCE_CAPTION, SOURCE_TITLE_BLOCK, SOURCE_RUNNING_TITLE, SOURCE_HEADING, SOURCE_NONE)

#: The nearest title line sits at most this far above the table (points).
TITLE_BLOCK_MAX_GAP = 60.0
#: Lines of one title block are at most this far apart (points).
TITLE_LINE_MAX_GAP = 18.0
#: A title line is at most this long; longer text is a paragraph.
TITLE_LINE_MAX_CHARS = 120
#: At most this many lines make a title block.
TITLE_BLOCK_MAX_LINES = 5
#: A heading used as a title is at most this long.
HEADING_TITLE_MAX_CHARS = 160

#: Month names, as alternatives of a regular expression (lower case; patterns here ignore case).
MONTH_NAMES = "january|february|march|april|may|june|july|august|september|october|november|december"
_MONTH = r"(?:" + MONTH_NAMES + r"|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\.?"
_DATE = _MONTH + r"\s+\d{1,2}(?:\s*,\s*(?:19|20)\d{2})?"
#: A reporting period: "Years ended December 31", "For the three months ended June 30, 2023", "As of December
#: 31, 2022", "At December 31", "Fiscal year ended", "제 26 기", "2023년 12월 31일 현재".
PERIOD = re.compile(
    r"(?:for\s+the\s+)?(?:(?:fiscal\s+)?years?|(?:three|six|nine|twelve)\s+months|quarters?|(?:thirteen|fourteen|fifty[-\s]\w+)\s+weeks)"
    r"\s+ended(?:\s+" + _DATE + r")?"
    r"|\b(?:as\s+of|at)\s+" + _DATE
    + r"|제\s*\d+\s*(?:\(\s*[당전]\s*\))?\s*(?:분\s*|반\s*)?기"
    r"|\d{4}\s*년\s*\d{1,2}\s*월\s*\d{1,2}\s*일\s*(?:현재|까지|부터)",
    re.IGNORECASE,
)
#: A title line that ends like a sentence and has more words than this leads into the table: context.
SENTENCE_MAX_TITLE_WORDS = 4
#: Names of financial statements and notes, in English and Korean.
STATEMENT = re.compile(
    r"""statements?\s+of\s+(?:consolidated\s+)?(?:income|operations|earnings|cash\s+flows?|comprehensive\s+(?:income|loss|earnings)
            |financial\s+(?:position|condition)|(?:changes\s+in\s+)?(?:stockholders|shareholders|share\s*owners)['’]?\s+(?:equity|deficit)
            |(?:changes\s+in\s+)?(?:equity|net\s+assets)|retained\s+earnings)
      | balance\s+sheets?
      | notes?\s+to\s+(?:the\s+)?(?:condensed\s+)?(?:consolidated\s+)?(?:financial\s+statements|statements)
      | selected\s+(?:consolidated\s+)?financial\s+data | quarterly\s+(?:financial\s+)?(?:data|results)
      | (?:연결\s*)?(?:재무상태표|대차대조표|포괄손익계산서|손익계산서|현금흐름표|자본변동표|이익잉여금처분계산서) | 주\s*석
    """,
    re.IGNORECASE | re.VERBOSE,
)
#: The reporting entity line above a statement: "3M Company and Subsidiaries", "NETFLIX, INC.",
#: "THE GOLDMAN SACHS GROUP, INC. AND SUBSIDIARIES", "삼성전자주식회사와 그 종속기업".
ENTITY_LINE = re.compile(
    r"(?:\b(?:inc|incorporated|corp|corporation|company|co|ltd|llc|plc|n\.v|s\.a|group|holdings)\b\.?(?:\s+and\s+(?:its\s+)?(?:consolidated\s+)?subsidiaries)?\s*$"
    r"|\band\s+(?:its\s+)?(?:consolidated\s+)?subsidiaries\s*$|주식회사|와\s*그\s*종속기업\s*$|및\s*종속기업\s*$)",
    re.IGNORECASE,
)
#: Lines that name nothing: navigation links and page numbers.
NAVIGATION = re.compile(r"^\s*(?:table\s+of\s+contents|index|contents|page\s*\d*|[-–—]?\s*\d{1,4}\s*[-–—]?|[ivxlc]{1,6})\s*$", re.IGNORECASE)
#: Dates and years a column header prints ("December 31, 2022", "2023", "FY2022", "2023년"): what is left of a
#: line once they are gone tells a stray header line from a title.
_DATE_WORDS = re.compile(
    r"\b(?:" + MONTH_NAMES + r"|fy|q[1-4])\b"
    r"|\d+|년|월|일|[$%,.()\-–—/]",
    re.IGNORECASE,
)
#: Column headers run on after a title in one text item: "... Statements of Income 2022 2021 2022 2021".
_TRAILING_DATES = re.compile(
    r"(?:\s+(?:(?:" + MONTH_NAMES + r")\s+\d{1,2},?\s*)?"
    r"(?:fy\s*)?(?:19|20)\d{2}(?:년)?,?)+\s*$",
    re.IGNORECASE,
)
#: A title line has at least this many letters once dates, numbers and periods are taken out.
TITLE_MIN_LETTERS = 3
#: A line ending in a colon leads into the table ("... were as follows:"): context, never a title.
LEAD_IN = re.compile(r"[:：]\s*$")
#: A sentence that leads into a table ("... were as follows:") is context, not a title.
SENTENCE_END = re.compile(r"[.:;]\s*$")


@dataclass(frozen=True)
class TableTitle:
    """A table's title and where it came from (one of CAPTION_SOURCES), with the unit and period it states.

    ``refs`` are the text items the title was read from (so they are not also taken as context).
    """

    text: str | None
    source: str
    unit: str | None = None
    period: str | None = None
    entity: str | None = None
    refs: tuple[str, ...] = field(default_factory=tuple)


def _squash(text: str) -> str:
    return " ".join(text.split())


def find_period(text: str) -> str | None:
    """The reporting period a text states ("Years ended December 31", "제 26 기"), or None."""
    found = list(dict.fromkeys(_squash(m.group()).strip(" ,;") for m in PERIOD.finditer(text)))
    return "; ".join(found) or None


def names_statement(text: str) -> bool:
    """True when ``text`` names a financial statement, a note section or selected/quarterly data."""
    return bool(STATEMENT.search(text))


def _is_entity_line(text: str) -> bool:
    return bool(ENTITY_LINE.search(text)) and len(text) <= TITLE_LINE_MAX_CHARS and not names_statement(text)


def _overlaps_horizontally(a: PageBox, b: PageBox) -> bool:
    return a.bbox[0] < b.bbox[2] and b.bbox[0] < a.bbox[2]


def title_block_lines(table: TableItem, doc: DoclingDocument, page_items: list[tuple[PageBox, TextItem]]) -> list[TextItem]:
    """The short lines printed right above the table on its page, top to bottom (empty when none).

    Walking up from the table: the nearest line within TITLE_BLOCK_MAX_GAP, then each line within
    TITLE_LINE_MAX_GAP of the one below it, while lines are short, are not sentences and do not belong to
    another table or paragraph.
    """
    box = item_box(table, doc)
    if box is None:
        return []
    above = sorted(((b, it) for b, it in page_items if b.bottom >= box.top - 1.0 and _overlaps_horizontally(b, box)),
                   key=lambda pair: pair[0].bottom)
    tables_above = [item_box(t, doc) for t in doc.tables if t is not table]
    ceiling = min((t.bottom for t in tables_above if t is not None and t.page == box.page and t.bottom >= box.top),
                  default=float("inf"))
    chosen: list[TextItem] = []
    edge = box.top
    for line_box, item in above:
        if line_box.bottom >= ceiling:
            break
        gap = line_box.bottom - edge
        if gap > (TITLE_BLOCK_MAX_GAP if not chosen else TITLE_LINE_MAX_GAP):
            break
        text = _squash(item.text)
        if NAVIGATION.match(text):
            edge = max(edge, line_box.top)
            continue
        if len(text) > TITLE_LINE_MAX_CHARS or LEAD_IN.search(text) or (
                SENTENCE_END.search(text) and len(text.split()) > SENTENCE_MAX_TITLE_WORDS and not _is_entity_line(text)):
            break
        if item.label in (DocItemLabel.LIST_ITEM, DocItemLabel.FOOTNOTE):
            break
        chosen.append(item)
        edge = max(edge, line_box.top)
        if len(chosen) >= TITLE_BLOCK_MAX_LINES:
            break
    return list(reversed(chosen))


def is_header_residue(text: str) -> bool:
    """True for a line of column headers ("2022 2021 2022 2021", "December 31, 2022 June 30, 2022") or a bare
    period ("Three Months Ended December 31"): no name in it."""
    if find_unit(text):
        return False
    rest = _DATE_WORDS.sub(" ", PERIOD.sub(" ", text))
    return sum(ch.isalpha() for ch in rest) < TITLE_MIN_LETTERS


def describe(lines: list[str]) -> tuple[str | None, str | None, str | None, str | None]:
    """Split title lines into (title, unit, period, entity): the unit and period statements are taken out
    of the title, an entity line ("3M Company and Subsidiaries") is kept apart."""
    title_parts: list[str] = []
    unit = period = entity = None
    for line in lines:
        unit = unit or find_unit(line)
        rest = strip_unit(line)
        line_period = find_period(rest)
        if line_period:
            period = period or line_period
            rest = _squash(PERIOD.sub(" ", rest)).strip(" ,;")
        rest = _TRAILING_DATES.sub("", rest).strip(" ,;")
        if not rest or is_header_residue(rest):
            continue
        if entity is None and _is_entity_line(rest):
            entity = rest
            continue
        title_parts.append(rest)
    # "Item 8. Financial Statements" above "Consolidated Statement of Income": the statement names the table.
    named = next((i for i, part in enumerate(title_parts) if names_statement(part)), 0)
    title = " ".join(title_parts[named:]).strip(" ,;") or None
    return title, unit, period, entity


#: The first rows of a table searched for a statement title the parser drew into the table.
TOP_ROWS_FOR_TITLE = 3


def _title_in_top_rows(table: TableItem) -> list[str]:
    """The first rows of the table as lines (each row's distinct cell texts joined), up to the first with a
    digit, when one of them names a statement ("CONSOLIDATED | STATEMENTS OF | SHAREHOLDERS' | EQUITY");
    empty otherwise."""
    if table.data is None:
        return []
    lines = []
    for row in table.data.grid[:TOP_ROWS_FOR_TITLE]:
        line = " ".join(dict.fromkeys(_squash(cell.text) for cell in row if cell.text.strip()))
        if any(ch.isdigit() for ch in line):
            break  # figures, years or page numbers: the data (or a table of contents) has begun
        if line:
            lines.append(line)
    named = [i for i, line in enumerate(lines) if names_statement(line)]
    return lines[: named[0] + 1] if named else []


def table_title(table: TableItem, doc: DoclingDocument, headings: list[str],
                page_items: list[tuple[PageBox, TextItem]]) -> TableTitle:
    """The title of a table from its page: the title block above it, or a statement title the parser drew
    into its first rows (preferred when the block above names no statement), else the running title, else
    the innermost heading.

    ``page_items`` are the text items (body and furniture) of the table's page with their boxes.
    """
    block = title_block_lines(table, doc, page_items)
    title, unit, period, entity = describe([item.text for item in block])
    refs = tuple(item.self_ref for item in block)
    inner = _title_in_top_rows(table)
    if title and block and (names_statement(title) or not inner):
        return TableTitle(title, SOURCE_TITLE_BLOCK, unit, period, entity, refs)
    if inner:  # the parser drew the statement's title block into the table's first rows
        in_title, in_unit, in_period, in_entity = describe(inner)
        if in_title:
            return TableTitle(in_title, SOURCE_TITLE_BLOCK, unit or in_unit, period or in_period, entity or in_entity, refs)
    if title and block:
        return TableTitle(title, SOURCE_TITLE_BLOCK, unit, period, entity, refs)
    running = [it for _b, it in page_items if it.content_layer == ContentLayer.FURNITURE
               and it.label == DocItemLabel.PAGE_HEADER and names_statement(it.text)]
    if running:
        text = _squash(running[0].text)
        run_title, run_unit, run_period, run_entity = describe([text])
        return TableTitle(run_title or text, SOURCE_RUNNING_TITLE, unit or run_unit, period or run_period,
                          entity or run_entity, refs)
    for heading in reversed(headings):
        head_title, head_unit, head_period, _ = describe([heading])
        if head_title and len(heading) <= HEADING_TITLE_MAX_CHARS:
            return TableTitle(head_title, SOURCE_HEADING, unit or head_unit, period or head_period, entity, refs)
    return TableTitle(None, SOURCE_NONE, unit, period, entity, refs)


def dropped_running_lines(doc: DoclingDocument, units: list) -> list[tuple[int, str]]:
    """Running lines (page headers and footers) that reach no record: ``(page, text)`` for each one that is
    not part of a table's title. They are what `sjt diagnose` reports as dropped from the text flow."""
    kept = " ".join(" ".join(filter(None, (u.caption_text, u.table_abstract))) for u in units).casefold()
    dropped = []
    for item, _level in doc.iterate_items(with_groups=False, included_content_layers={ContentLayer.FURNITURE}):
        if not isinstance(item, TextItem) or not item.prov:
            continue
        text = _squash(item.text)
        if text and text.casefold() not in kept:
            dropped.append((item.prov[0].page_no, text))
    return dropped
