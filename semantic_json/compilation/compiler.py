"""The semantic compiler: plain text (+ optional provenance segments) → SemanticDocument.

Pipeline: validate input → line index → zones (segments and the text between them) → layout blocks →
sentences → propositions (split at discourse connectives) → units with exact spans → entity mentions
(one pass over the whole text, then a pass for the bare names the document has introduced) → lexicon
concepts → normalised terms → context entities (carried through a block, from a heading, or across blocks
when a block opens with an anaphor such as 동사 / "the company").
"""

from __future__ import annotations

import bisect
import re
import sys
from typing import Any
from collections.abc import Iterable, Sequence

from . import entities as entity_rules
from ..errors import DocumentTypeError, EmptyDocumentError, InvalidDocumentIdError, InvalidSegmentError
from .layout import Block, Zone, parse_blocks
from ..lexicon import load_lexicon
from ..model import Entity, Segment, SemanticDocument, SemanticUnit, line_starts_of, sha256_text, unit_constructor
from .propositions import split_propositions
from .sentences import split_sentences
from ..rules.textnorm import normalized_terms, ordinal_period_terms, ordinal_year_offset

#: Openings of a block that refer back to the entity of the previous block (동사 = "the said company").
ANAPHOR_OPENINGS = re.compile(
    r"(?:동사|당사|동\s?기업|동\s?회사|해당\s?기업|the company|the firm|the borrower|the issuer|the group|it|its)(?![A-Za-z가-힣])",
    re.IGNORECASE,
)
#: Unit id prefix: units are P1, P2, ... in text order.
UNIT_ID_PREFIX = "P"


def _check_inputs(text: object, document_id: object) -> None:
    if not isinstance(document_id, str) or not document_id.strip() or document_id != document_id.strip():
        raise InvalidDocumentIdError(
            f"document_id must be a non-empty string without surrounding whitespace, got {document_id!r}"
        )
    if not isinstance(text, str):
        raise DocumentTypeError(document_id, text)
    if not text.strip():
        raise EmptyDocumentError(document_id)


def _coerce_segments(segments: Iterable[Any] | None, text_length: int, document_id: str) -> list[Segment]:
    """Segments as models, sorted, inside the text and not overlapping; else InvalidSegmentError."""
    if segments is None:
        return []
    result: list[Segment] = []
    for index, raw in enumerate(segments):
        try:
            segment = raw if isinstance(raw, Segment) else Segment.model_validate(raw)
        except ValueError as exc:
            raise InvalidSegmentError(f"document {document_id!r}: segment {index} is invalid: {exc}") from exc
        if segment.end_char > text_length:
            raise InvalidSegmentError(
                f"document {document_id!r}: segment {index} ends at {segment.end_char}, "
                f"past the end of the text ({text_length} characters)"
            )
        result.append(segment)
    result.sort(key=lambda s: (s.start_char, s.end_char))
    for previous, current in zip(result, result[1:]):
        if current.start_char < previous.end_char:
            raise InvalidSegmentError(
                f"document {document_id!r}: segments [{previous.start_char}, {previous.end_char}) and "
                f"[{current.start_char}, {current.end_char}) overlap"
            )
    return result


def _zones(text_length: int, segments: Sequence[Segment]) -> list[Zone]:
    zones: list[Zone] = []
    cursor = 0
    for index, segment in enumerate(segments):
        if segment.start_char > cursor:
            zones.append(Zone(cursor, segment.start_char, None))
        zones.append(Zone(segment.start_char, segment.end_char, index, segment.kind, segment.title))
        cursor = segment.end_char
    if cursor < text_length:
        zones.append(Zone(cursor, text_length, None))
    return zones


class _UnitDraft:
    """A unit before ids, entities and terms are attached."""

    __slots__ = ("kind", "start", "end", "block", "sentence", "segment", "is_header")

    def __init__(self, kind: str, start: int, end: int, block: int, sentence: int, segment: int | None, is_header: bool = False):
        self.kind = kind
        self.start = start
        self.end = end
        self.block = block
        self.sentence = sentence
        self.segment = segment
        self.is_header = is_header


def _drafts(text: str, blocks: list[Block]) -> list[_UnitDraft]:
    drafts: list[_UnitDraft] = []
    sentence = 0
    for block_index, block in enumerate(blocks):
        if block.kind == "table":
            if block.caption:
                drafts.append(_UnitDraft("caption", *block.caption, block_index, sentence, block.segment))
                sentence += 1
            for row_number, (start, end) in enumerate(block.rows):
                drafts.append(_UnitDraft("table_row", start, end, block_index, sentence, block.segment, row_number == 0))
                sentence += 1
            continue
        if block.kind in ("heading", "caption"):
            drafts.append(_UnitDraft(block.kind, block.start, block.end, block_index, sentence, block.segment))
            sentence += 1
            continue
        kind = "list_item" if block.kind == "list_item" else "proposition"
        for s_start, s_end in split_sentences(text, block.start, block.end):
            for p_start, p_end in split_propositions(text, s_start, s_end):
                drafts.append(_UnitDraft(kind, p_start, p_end, block_index, sentence, block.segment))
            sentence += 1
    return drafts


def _assign(starts: list[int], ends: list[int], start: int, end: int) -> int:
    """Index of the unit whose span contains [start, end), or -1."""
    index = bisect.bisect_right(starts, start) - 1
    if index >= 0 and end <= ends[index]:
        return index
    return -1


def _entity_mentions(text: str, starts: list[int], ends: list[int]) -> tuple[list[list[str]], dict[str, set[str]]]:
    """Per unit: entity ids mentioned, the first mentioned first (the unit's subject); per entity: surface
    forms. Bare names are matched too; a bare name followed by a qualifier ("Kestrel Dynamics Korea") is
    another organisation (entities.qualified_id)."""
    per_unit: list[dict[str, int]] = [{} for _ in starts]
    surfaces: dict[str, set[str]] = {}
    occupied: list[tuple[int, int]] = []
    for mention in entity_rules.find_mentions(text):
        index = _assign(starts, ends, mention.start, mention.end)
        if index < 0:
            continue
        per_unit[index].setdefault(mention.entity_id, mention.start)
        surfaces.setdefault(mention.entity_id, set()).add(mention.surface)
        occupied.append((mention.start, mention.end))
    aliases: dict[str, str] = {}
    for entity_id, forms in surfaces.items():
        for bare in entity_rules.bare_names(forms):
            aliases.setdefault(bare, entity_id)
    pattern = entity_rules.alias_pattern(aliases)
    if pattern is not None:
        occupied.sort()
        occupied_starts = [s for s, _ in occupied]
        for m in pattern.finditer(text):
            k = bisect.bisect_right(occupied_starts, m.start()) - 1
            if k >= 0 and occupied[k][1] > m.start():
                continue  # inside a mention already found
            index = _assign(starts, ends, m.start(), m.end())
            if index >= 0:
                entity_id = aliases[m.group(0)]
                qualifier = entity_rules.qualifier_at(text, m.end())
                if qualifier is not None:
                    entity_id = entity_rules.qualified_id(entity_id, qualifier)
                per_unit[index].setdefault(entity_id, m.start())
                surfaces.setdefault(entity_id, set()).add(m.group(0))
    return [sorted(found, key=lambda e: (found[e], e)) for found in per_unit], surfaces


def _unit_concepts(text: str, starts: list[int], ends: list[int]) -> list[list[str]]:
    per_unit: list[dict[str, None]] = [{} for _ in starts]
    for match in load_lexicon().find(text):
        index = _assign(starts, ends, match.start, match.end)
        if index >= 0:
            per_unit[index].setdefault(sys.intern(match.concept), None)
    return [list(c) for c in per_unit]


def _context_entities(text: str, drafts: list[_UnitDraft], own: list[list[str]]) -> tuple[list[list[str]], list[int | None]]:
    """Entities each unit is about, and the index of each unit's governing heading."""
    context: list[list[str]] = []
    sections: list[int | None] = []
    heading: int | None = None
    heading_entities: list[str] = []
    carry: list[str] = []
    previous_block_carry: list[str] = []
    current_block = -1
    for index, draft in enumerate(drafts):
        if draft.block != current_block:
            previous_block_carry = carry if current_block >= 0 else []
            current_block = draft.block
            carry = []
            if not own[index] and ANAPHOR_OPENINGS.match(text, draft.start):
                carry = previous_block_carry
        if draft.kind == "heading":
            heading = index
            heading_entities = own[index]
            carry = own[index]
            context.append(own[index])
            sections.append(None)
            continue
        if own[index]:
            carry = own[index]
        ctx = carry or heading_entities
        context.append(ctx)
        sections.append(heading)
    return context, sections


def _extend(own: list[str], extra: Iterable[str]) -> list[str]:
    """``own`` followed by the ``extra`` items it lacks, order kept."""
    if not extra:
        return own
    seen = set(own)
    return own + [item for item in extra if item not in seen and not seen.add(item)]


def _caption_context(text: str, drafts: list[_UnitDraft], concepts: list[list[str]]) -> tuple[dict[int, list[str]], dict[int, list[str]]]:
    """Terms and concepts a table row inherits from its table's caption (by unit position).

    A row such as "2026년 | 원금: 1,400; 이자: 282.5" never says what table it is in; its caption
    ("원리금 상환 일정표") does. Numbers in the caption (years, table numbers) are not inherited: every row
    would match them.
    """
    caption_of_block: dict[int, int] = {}
    for index, draft in enumerate(drafts):
        if draft.kind == "caption":
            caption_of_block[draft.block] = index
    terms: dict[int, list[str]] = {}
    inherited: dict[int, list[str]] = {}
    cache: dict[int, list[str]] = {}
    for index, draft in enumerate(drafts):
        if draft.kind != "table_row" or draft.is_header:
            continue
        caption = caption_of_block.get(draft.block)
        if caption is None:
            continue
        if caption not in cache:
            cap = drafts[caption]
            cache[caption] = [t for t in normalized_terms(text[cap.start : cap.end]) if not any(c.isdigit() for c in t)]
        terms[index] = cache[caption]
        inherited[index] = concepts[caption]
    return terms, inherited


def compile(
    text: str,
    document_id: str,
    source_uri: str | None = None,
    segments: Iterable[Segment | dict[str, Any]] | None = None,
) -> SemanticDocument:
    """Compile `text` into a SemanticDocument (Semantic JSON Grammar v0.1).

    `segments` (optional) are provenance segments over the text (dicts or Segment models) with
    start_char/end_char, chunk_id, kind ("table" makes every line a table row), page_span, boxes and
    pdf_sha256; they are stored on the document and surface in the transport of regions that overlap them.
    Raises EmptyDocumentError / DocumentTypeError / InvalidDocumentIdError / InvalidSegmentError.
    """
    _check_inputs(text, document_id)
    segment_models = _coerce_segments(segments, len(text), document_id)
    line_starts = line_starts_of(text)
    blocks = parse_blocks(text, _zones(len(text), segment_models))
    drafts = _drafts(text, blocks)
    starts = [d.start for d in drafts]
    ends = [d.end for d in drafts]
    own_entities, surfaces = _entity_mentions(text, starts, ends)
    concepts = _unit_concepts(text, starts, ends)
    context, sections = _context_entities(text, drafts, own_entities)

    inherited_terms, inherited_concepts = _caption_context(text, drafts, concepts)
    # "제 27 기 3분기" is also keyed as the year and quarter it is, when the report says which year that is
    ordinal_offset = ordinal_year_offset(text)

    units: list[SemanticUnit] = []
    intern = sys.intern
    construct = unit_constructor()
    for index, draft in enumerate(drafts):
        unit_text = text[draft.start : draft.end]
        section = sections[index]
        units.append(
            construct(
                id=f"{UNIT_ID_PREFIX}{index + 1}",
                kind=draft.kind,
                text=unit_text,
                start_char=draft.start,
                end_char=draft.end,
                start_line=bisect.bisect_right(line_starts, draft.start),
                end_line=bisect.bisect_right(line_starts, draft.end - 1),
                block=draft.block,
                sentence=draft.sentence,
                section=f"{UNIT_ID_PREFIX}{section + 1}" if section is not None else None,
                segment=draft.segment,
                is_header=draft.is_header,
                entities=[intern(e) for e in own_entities[index]],
                context_entities=[intern(e) for e in context[index]],
                concepts=_extend(concepts[index], inherited_concepts.get(index, ())),
                terms=_extend(_extend([intern(t) for t in normalized_terms(unit_text)],
                                      ordinal_period_terms(unit_text, ordinal_offset)), inherited_terms.get(index, ())),
            )
        )
    entity_units: dict[str, list[str]] = {}
    for unit in units:
        for entity_id in unit.entities:
            entity_units.setdefault(entity_id, []).append(unit.id)
    entity_models = [
        Entity(id=entity_id, surface_forms=sorted(surfaces.get(entity_id, ())), units=unit_ids)
        for entity_id, unit_ids in sorted(entity_units.items())
    ]
    return SemanticDocument(
        document_id=document_id,
        source_uri=source_uri,
        document_sha256=sha256_text(text),
        char_count=len(text),
        line_starts=line_starts,
        text=text,
        units=units,
        entities=entity_models,
        segments=segment_models,
    )
