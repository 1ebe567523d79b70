"""Line-level layout: headings, captions, bullets, table rows and paragraphs, as character-span blocks.

`parse_blocks(text, zones)` reads each zone (a provenance segment, or text between segments) line by line
and groups lines into blocks. A block never crosses a zone boundary. Spans are absolute offsets into
`text`, trimmed of surrounding whitespace.

Rules, in order, for a non-blank line outside a table zone:
* a markdown heading (``## Title``), or a short numbered/bracketed title without sentence punctuation
  (``1. 개요``, ``제2장 재무 현황``, ``[사업 개요]``) → heading;
* a caption (``<표 1>``, ``[표 2] …``, ``Table 3:``, ``그림 4.``) → caption, attached to a table right below;
* two or more consecutive lines with ≥ TABLE_MIN_SEPARATORS ``|`` or tab separators → table rows;
* a bullet or enumerator (``-``, ``•``, ``1)``, ``가.``) → list item (indented lines continue it);
* a short stand-alone line without sentence punctuation between blank lines → heading;
* anything else → paragraph text, until a blank line or a structural line.
In a zone of kind "table" (or "contents", a table of contents) every non-blank line is a table row; its first line is a caption when it looks
like one or when it has no cell separators while the next line does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..rules.patterns import is_caption, is_list_item

#: Longest line (characters) that may be read as a numbered or stand-alone heading.
HEADING_MAX_CHARS = 60
#: Minimum cell separators ("|" or tab) for a line to be a table row outside a table segment.
TABLE_MIN_SEPARATORS = 2
#: Minimum consecutive row-like lines that make a table outside a table segment.
TABLE_MIN_ROWS = 2
#: Segment kind of a table of contents (titles and their pages): its lines are table rows too.
CONTENTS_SEGMENT_KIND = "contents"
#: Segment kinds whose lines are table rows.
TABLE_SEGMENT_KINDS = frozenset({"table", CONTENTS_SEGMENT_KIND})

_MD_HEADING = re.compile(r"#{1,6}\s+\S")
_NUMBERED_TITLE = re.compile(
    r"(?:제\s*\d+\s*[장절편관부]|[IVX]{1,5}\.|\d{1,2}(?:\.\d{1,2}){0,3}\.?|[A-Z]\.|\(\d{1,2}\)|\d{1,2}\))\s*\S"
)
_BRACKET_TITLE = re.compile(r"(?:\[[^\]]{1,40}\]|【[^】]{1,40}】|■\s*\S.*|□\s*\S.*)$")
_TABLE_SEPARATOR_LINE = re.compile(r"\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?")
_SENTENCE_END = re.compile(r"(?:[.!?。！？:;,]|[다음함임됨요까])[\"'”’)\]]*$")
_HAS_LETTER = re.compile(r"[A-Za-z가-힣]")


@dataclass
class Block:
    """A run of lines that forms one paragraph, list item, heading, caption or table.

    For a table, `rows` holds each row's (start, end) span and `caption` the caption line's span, if any.
    """

    kind: str
    start: int
    end: int
    segment: int | None
    rows: list[tuple[int, int]] = field(default_factory=list)
    caption: tuple[int, int] | None = None


@dataclass(frozen=True)
class Zone:
    """A stretch of the text [start, end) that blocks never cross; `segment` indexes the document's segments."""

    start: int
    end: int
    segment: int | None
    kind: str = "text"
    #: The title line its segment declares (a table segment that opens with it has it as its caption).
    title: str | None = None


def _lines(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """(start, end) of each line in text[start:end], without the newline."""
    spans = []
    pos = start
    while pos < end:
        nl = text.find("\n", pos, end)
        if nl == -1:
            spans.append((pos, end))
            break
        spans.append((pos, nl))
        pos = nl + 1
    return spans


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _separators(line: str) -> int:
    return max(line.count("|"), line.count("\t"))


def is_row_like(line: str) -> bool:
    """True for a line with at least TABLE_MIN_SEPARATORS cell separators."""
    return _separators(line) >= TABLE_MIN_SEPARATORS


def _is_titled(line: str) -> bool:
    """A short line without sentence punctuation at its end."""
    return len(line) <= HEADING_MAX_CHARS and bool(_HAS_LETTER.search(line)) and not _SENTENCE_END.search(line)


def _heading_kind(line: str) -> bool:
    if _MD_HEADING.match(line):
        return True
    if _NUMBERED_TITLE.match(line) and _is_titled(line):
        return True
    return bool(_BRACKET_TITLE.match(line)) and _is_titled(line) and not is_caption(line)


def _structural(line: str) -> bool:
    """A line that starts a table, caption, list item or markdown heading."""
    return is_row_like(line) or is_caption(line) or is_list_item(line) or bool(_MD_HEADING.match(line))


def _table_zone_blocks(text: str, zone: Zone) -> list[Block]:
    lines = [(s, e) for s, e in (_trim(text, a, b) for a, b in _lines(text, zone.start, zone.end)) if e > s]
    lines = [(s, e) for s, e in lines if not _TABLE_SEPARATOR_LINE.fullmatch(text[s:e])]
    if not lines:
        return []
    caption = None
    first = text[lines[0][0] : lines[0][1]]
    titled = zone.title is not None and first == zone.title.strip()
    if len(lines) > 1 and (titled or is_caption(first) or (not is_row_like(first) and is_row_like(text[lines[1][0] : lines[1][1]]))):
        caption = lines.pop(0)
    start = caption[0] if caption else lines[0][0]
    return [Block("table", start, lines[-1][1], zone.segment, rows=lines, caption=caption)]


def _text_zone_blocks(text: str, zone: Zone) -> list[Block]:
    raw = _lines(text, zone.start, zone.end)
    trimmed = [_trim(text, s, e) for s, e in raw]
    contents = [text[s:e] for s, e in trimmed]
    blocks: list[Block] = []
    n = len(raw)
    i = 0

    def blank(j: int) -> bool:
        return j < 0 or j >= n or not contents[j]

    while i < n:
        line = contents[i]
        s, e = trimmed[i]
        if not line:
            i += 1
            continue
        if _TABLE_SEPARATOR_LINE.fullmatch(line) and not (blocks and blocks[-1].kind == "table"):
            i += 1
            continue
        if is_row_like(line):
            j = i
            rows = []
            while j < n and contents[j] and (is_row_like(contents[j]) or _TABLE_SEPARATOR_LINE.fullmatch(contents[j])):
                if not _TABLE_SEPARATOR_LINE.fullmatch(contents[j]):
                    rows.append(trimmed[j])
                j += 1
            if len(rows) >= TABLE_MIN_ROWS:
                caption = None
                if blocks and blocks[-1].kind == "caption" and blocks[-1].segment == zone.segment:
                    previous = blocks.pop()
                    caption = (previous.start, previous.end)
                start = caption[0] if caption else rows[0][0]
                blocks.append(Block("table", start, rows[-1][1], zone.segment, rows=rows, caption=caption))
                i = j
                continue
        if is_caption(line):
            blocks.append(Block("caption", s, e, zone.segment))
            i += 1
            continue
        if _heading_kind(line) and (_MD_HEADING.match(line) or blank(i - 1) or blank(i + 1) or not is_list_item(line)):
            blocks.append(Block("heading", s, e, zone.segment))
            i += 1
            continue
        if is_list_item(line):
            indent = s - raw[i][0]
            end = e
            j = i + 1
            while j < n and contents[j] and not is_list_item(contents[j]) and not is_row_like(contents[j]):
                deeper = trimmed[j][0] - raw[j][0] > indent
                unfinished = not _SENTENCE_END.search(text[s:end])
                if not (deeper or unfinished) or is_caption(contents[j]) or _MD_HEADING.match(contents[j]):
                    break
                end = trimmed[j][1]
                j += 1
            blocks.append(Block("list_item", s, end, zone.segment))
            i = j
            continue
        if blank(i - 1) and (blank(i + 1) or _structural(contents[i + 1])) and _is_titled(line):
            blocks.append(Block("heading", s, e, zone.segment))
            i += 1
            continue
        end = e
        j = i + 1
        while j < n and contents[j]:
            nxt = contents[j]
            if _structural(nxt):
                break
            end = trimmed[j][1]
            j += 1
        blocks.append(Block("paragraph", s, end, zone.segment))
        i = j
    return blocks


def parse_blocks(text: str, zones: list[Zone]) -> list[Block]:
    """Blocks of every zone, in text order."""
    blocks: list[Block] = []
    for zone in zones:
        if zone.kind in TABLE_SEGMENT_KINDS:
            blocks.extend(_table_zone_blocks(text, zone))
        else:
            blocks.extend(_text_zone_blocks(text, zone))
    return blocks
