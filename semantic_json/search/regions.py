"""Query-time assembly of EvidenceRegions from matching anchors of one document.

Steps, for the anchors (unit positions with scores) that retrieval found in a document:

1. **Cluster** anchors in text order: an anchor joins the previous cluster when it is at most
   CLUSTER_MAX_UNIT_GAP units and CLUSTER_MAX_CHAR_GAP characters away, in the same zone (provenance
   segment), and every unit from the cluster to it is entity-compatible. Rows of one table always cluster,
   and never with anchors outside their table.
2. **Expand** each cluster, entity-safely: to whole sentences; then to the whole paragraph when the
   paragraph is at most PARAGRAPH_MAX_TOKENS long, else by CONTEXT_SENTENCES neighbouring sentences. A table
   cluster grows to whole rows under the table's header row and caption (never half a row). Growth stops at
   the first unit that is about an entity outside the region's entities, or that lies in another zone.
   A text region that ends in a lead-in ("... are expected to be paid as follows:"), or that a short
   lead-in block of its own follows ("The following table sets forth ...:"), takes the table right after
   it (over a short heading between them) when the table is at most TABLE_WHOLE_MAX_TOKENS long: the
   sentence announced it. A lead-in followed by list items takes the items ("... mainly due to:" and its
   bullets) while the region stays within REGION_MAX_TOKENS.
3. **Merge** regions that overlap or touch. Join regions in parts of one long table (row-wise splits under
   the same caption) while the joined region stays within TABLE_WHOLE_MAX_TOKENS, as the table would be
   taken had it not been split. Score each region by its best anchor, raised by its second best
   (region_score: a region holding two of the things asked for outranks one holding one).
4. **Choose** the best regions over all documents searched, leaving out one whose text an earlier region of
   its document has (one with that text and more takes the earlier one's place), and holding back one in
   another part of a long table that a chosen region stands for: it takes a place only when nothing else is.

A unit u is entity-compatible with a region about entities E when u.context_entities ⊆ E; so a unit
about no entity is always compatible and a region about B_CORP never takes in a sentence about A_CORP.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any
from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence

from ..index import SCORE_DECIMALS
from .fusion import region_score
from ..model import SemanticDocument
from ..provenance import segment_provenance
from .region_layout import RegionLayout
from .repeats import Repeats
from ..rules.textnorm import normalized_terms
from ..transport import EvidenceRegion, SourceSpan

#: Maximum distance, in units, between two anchors of one cluster.
CLUSTER_MAX_UNIT_GAP = 3
#: Maximum characters between the end of one anchor and the start of the next in one cluster.
CLUSTER_MAX_CHAR_GAP = 600
#: Bounds below are in tokens (token_cost.estimated_tokens): what a region costs an LLM, whatever its script.
#: Each is the bound in characters it replaced divided by what English filings spend on a token of its kind,
#: so English regions keep their sizes: 5.1 characters a token in prose, 3.3 in table rows (a finqa_dev
#: 10-Q's units; figures cost more than words). A Korean region, at 1 to 1.5 characters a token, stops sooner.
#: A paragraph up to this many tokens is taken whole around its anchors.
PARAGRAPH_MAX_TOKENS = 300
#: Sentences added on each side of a cluster inside a longer paragraph.
CONTEXT_SENTENCES = 1
#: Expansion (not anchors) never makes a region longer than this many tokens.
REGION_MAX_TOKENS = 475
#: A table region spans caption and header down to its rows only while it stays within this many tokens.
TABLE_REGION_MAX_TOKENS = 1800
#: A table (one table segment: a block of rows under its caption and header) at most this long is taken
#: whole: the rows next to the asked one are what a ratio or a comparison needs, and they cost little.
TABLE_WHOLE_MAX_TOKENS = 600
#: A part of a long table keeps its own place beside a kept part when its anchors print a term of the query
#: that the document prints at most this many times (see _asks_more): a name or a line item the question
#: picks out ("일산점" beside "해운대점": once each; "장기보험" 7 times in its report), not a word the filing
#: prints everywhere (in finqa_dev 10-Ks "liability" 39, "cash" 217, "operation" 319 times).
NAME_MAX_PRINTS = 10
#: A lead-in block of its own ("The following table sets forth ...:") between a region and the table it
#: announces is at most this many tokens long.
LEAD_IN_MAX_TOKENS = 80


@dataclass(slots=True)  # assembly makes hundreds a search
class RegionDraft:
    """A region before it gets an id: units [first, last] (positions, inclusive) of one document."""

    first: int
    last: int
    anchors: dict[int, float]
    entities: frozenset[str]
    zone: int | None
    score: float = 0.0
    is_table: bool = False


def _cluster(layout: RegionLayout, hits: Sequence[tuple[int, float]]) -> list[RegionDraft]:
    context_of, segment_of, table_of = layout.context_entities, layout.segment, layout.table_of
    clusters: list[RegionDraft] = []
    current: RegionDraft | None = None
    current_table = None  # the table of current.last
    for pos, score in sorted(hits):
        ctx = context_of(pos)
        segment = segment_of(pos)
        table = table_of(pos)
        if current is not None:
            previous = current.last
            same_table = table is not None and table == current_table
            if same_table or current.zone == segment:
                if not same_table:
                    # a table only clusters with itself: its region is built from its own rows, header and caption
                    crosses_table = ((table is not None or current_table is not None)
                                     and layout.block(previous) != layout.block(pos))
                    near = (
                        not crosses_table
                        and pos - previous <= CLUSTER_MAX_UNIT_GAP
                        and layout.start_char(pos) - layout.end_char(previous) <= CLUSTER_MAX_CHAR_GAP
                    )
                    entity_ok = not current.entities or not ctx or ctx == current.entities
                joined = same_table or (
                    near
                    and entity_ok
                    and layout.compatible(previous + 1, pos - 1, current.entities | ctx)
                    and layout.in_zone(previous + 1, pos - 1, segment)
                )
                if joined:
                    current.last = pos
                    current.anchors[pos] = score
                    current.entities = current.entities | ctx
                    current_table = table
                    continue
        current = RegionDraft(pos, pos, {pos: score}, ctx, segment)
        clusters.append(current)
        current_table = table
    return clusters


def _grow(layout: RegionLayout, draft: RegionDraft, pos: int, limit: int) -> bool:
    """Extend `draft` to unit `pos` (adjacent to it) if allowed and within `limit` tokens."""
    if pos < 0 or pos >= layout.count:
        return False
    if layout.segment(pos) != draft.zone or not layout.compatible(pos, pos, draft.entities):
        return False
    first, last = (pos, draft.last) if pos < draft.first else (draft.first, pos)
    if layout.span_tokens(first, last) > limit and layout.span_tokens(draft.first, draft.last) > 0:
        return False
    draft.first, draft.last = first, last
    return True


def _expand_text(layout: RegionLayout, draft: RegionDraft) -> None:
    sentence_of = layout.sentence
    # 1. whole sentences
    while draft.first > 0 and sentence_of(draft.first - 1) == sentence_of(draft.first):
        if not _grow(layout, draft, draft.first - 1, REGION_MAX_TOKENS):
            break
    while draft.last + 1 < layout.count and sentence_of(draft.last + 1) == sentence_of(draft.last):
        if not _grow(layout, draft, draft.last + 1, REGION_MAX_TOKENS):
            break
    # 2. the paragraph, or neighbouring sentences of a long paragraph
    block_first, block_last = layout.block_first(draft.first), layout.block_last(draft.last)
    if layout.span_tokens(block_first, block_last) <= PARAGRAPH_MAX_TOKENS:
        while draft.first > block_first and _grow(layout, draft, draft.first - 1, REGION_MAX_TOKENS):
            pass
        while draft.last < block_last and _grow(layout, draft, draft.last + 1, REGION_MAX_TOKENS):
            pass
        return
    for direction in (1, -1):
        for _ in range(CONTEXT_SENTENCES):
            edge = draft.last if direction == 1 else draft.first
            nxt = edge + direction
            if not (block_first <= nxt <= block_last):
                break
            sentence = sentence_of(nxt)
            while block_first <= nxt <= block_last and sentence_of(nxt) == sentence:
                if not _grow(layout, draft, nxt, REGION_MAX_TOKENS):
                    break
                nxt += direction


def _expand_table(layout: RegionLayout, draft: RegionDraft) -> None:
    """Grow a table cluster to whole rows under the table's caption and header (whatever entities the
    rows carry); to the whole table when it is at most TABLE_WHOLE_MAX_TOKENS long; a cluster of only
    caption/header also takes the rows, as far as the budget allows."""
    table = layout.table_of(draft.last) or layout.table_of(draft.first)
    if table is None:
        return
    table_first, table_last = table
    if layout.span_tokens(table_first, draft.last) <= TABLE_REGION_MAX_TOKENS:
        draft.first = min(draft.first, table_first)
    if draft.first == table_first and layout.span_tokens(table_first, table_last) <= TABLE_WHOLE_MAX_TOKENS:
        draft.last = table_last
    elif all(layout.kind(p) == "caption" or layout.is_header(p) for p in draft.anchors):
        while draft.last < table_last and layout.span_tokens(draft.first, draft.last + 1) <= TABLE_REGION_MAX_TOKENS:
            draft.last += 1
    draft.zone = layout.segment(draft.last)


def _lead_in_block(layout: RegionLayout, draft: RegionDraft, first: int) -> int | None:
    """The last unit of the block starting at unit ``first`` when that block is a lead-in of its own
    (at most LEAD_IN_MAX_TOKENS long, entity-compatible with ``draft``): "The following table sets forth
    the notional amounts of our derivative instruments:" between a paragraph and its table."""
    if first >= layout.count or layout.is_table(first):
        return None
    block_first, block_last = layout.bounds(first)
    if block_first != first or layout.span_tokens(first, block_last) > LEAD_IN_MAX_TOKENS:
        return None
    if not layout.announces(block_last):
        return None
    if not layout.compatible(first, block_last, draft.entities):
        return None
    return block_last


def _attach_announced_table(layout: RegionLayout, draft: RegionDraft) -> None:
    """Extend a text region that ends in a lead-in, or is followed by a short lead-in block of its own,
    to the table right after it, whole (the table's rows carry what the sentence announced), over a page
    number and a short heading between them (the parser's reading of the table's title or column labels,
    "(Dollars in Millions) 2022 2021"); nothing when the table is longer than TABLE_WHOLE_MAX_TOKENS or
    something else comes between."""
    count = layout.count
    if draft.last + 1 >= count or layout.block_last(draft.last) != draft.last:
        return
    lead = draft.last if layout.announces(draft.last) else _lead_in_block(layout, draft, draft.last + 1)
    if lead is None or lead + 1 >= count:
        return
    start = lead + 1
    while start + 1 < count and layout.is_page_number(start):  # the page broke between them
        start += 1
    if layout.kind(start) == "heading":  # a short heading over the table: its title or column labels
        heading_last = layout.block_last(start)
        if layout.span_tokens(start, heading_last) <= LEAD_IN_MAX_TOKENS and heading_last + 1 < count:
            start = heading_last + 1
    table = layout.table_of(start)
    if table is None or table[0] != start or layout.span_tokens(table[0], table[1]) > TABLE_WHOLE_MAX_TOKENS:
        return
    draft.last = table[1]
    draft.is_table = True
    draft.zone = layout.segment(table[1])


def _attach_announced_list(layout: RegionLayout, draft: RegionDraft) -> None:
    """Extend a text region that ends in a lead-in ("Other income increased, mainly due to:") over the list
    items right after it, each whole, while the region stays within REGION_MAX_TOKENS: they are what the
    sentence announced. Stops at a unit that is not a list item, at one about another entity, and at an
    item that is a lead-in itself (another list starts)."""
    if layout.block_last(draft.last) != draft.last or not layout.announces(draft.last):
        return
    position = draft.last + 1
    while position < layout.count and layout.kind(position) == "list_item":
        last = layout.block_last(position)
        if (layout.announces(last) or layout.span_tokens(draft.first, last) > REGION_MAX_TOKENS
                or not layout.compatible(position, last, draft.entities)):
            break
        draft.last = last
        position = last + 1


def _merge(drafts: list[RegionDraft]) -> list[RegionDraft]:
    drafts.sort(key=lambda d: (d.first, d.last))
    merged: list[RegionDraft] = []
    for draft in drafts:
        if merged:
            last = merged[-1]
            overlapping = draft.first <= last.last
            adjacent = draft.first == last.last + 1 and not (draft.is_table or last.is_table)
            touching = (overlapping or adjacent) and draft.zone == last.zone
            # Overlapping drafts share text, so one may hold the other's entities; merely adjacent ones join
            # only when they are about the same entities (never B's paragraph with the next one about A).
            if overlapping:
                entity_ok = draft.entities <= last.entities or last.entities <= draft.entities
            else:
                entity_ok = not draft.entities or not last.entities or draft.entities == last.entities
            if touching and entity_ok:
                last.last = max(last.last, draft.last)
                last.anchors.update(draft.anchors)
                last.entities = last.entities | draft.entities
                last.is_table = last.is_table or draft.is_table
                continue
        merged.append(draft)
    return merged


def _one_long_table(layout: RegionLayout, a: RegionDraft, b: RegionDraft) -> bool:
    """Whether table regions ``a`` and ``b`` of one document lie in parts of one long table."""
    if not (a.is_table and b.is_table):
        return False
    earlier, later = (a, b) if a.first <= b.first else (b, a)
    return (layout.is_table(earlier.last) and layout.is_table(later.first)
            and layout.parts_of_one_table(earlier.last, later.first))


def _join_table_parts(layout: RegionLayout, drafts: list[RegionDraft]) -> list[RegionDraft]:
    """Join regions that lie in parts of one long table (each part repeats the caption) into one region
    from the first to the last, while it stays within TABLE_WHOLE_MAX_TOKENS: the row-wise split of a table
    does not change what a region of it holds, as far as a table taken whole may reach."""
    drafts.sort(key=lambda d: (d.first, d.last))
    joined: list[RegionDraft] = []
    for draft in drafts:
        if joined:
            last = joined[-1]
            if _one_long_table(layout, last, draft) and layout.span_tokens(last.first, draft.last) <= TABLE_WHOLE_MAX_TOKENS:
                last.last = draft.last
                last.anchors.update(draft.anchors)
                last.entities = last.entities | draft.entities
                last.zone = draft.zone
                continue
        joined.append(draft)
    return joined


def assemble(doc: SemanticDocument, hits: Sequence[tuple[int, float]]) -> list[RegionDraft]:
    """Regions of `doc` around `hits` ((unit position, anchor score) pairs), best score first."""
    if not hits:
        return []
    layout = RegionLayout.of(doc)
    drafts = _cluster(layout, hits)
    for draft in drafts:
        if layout.is_table(draft.last) or layout.is_table(draft.first):
            draft.is_table = True
            _expand_table(layout, draft)
        else:
            _expand_text(layout, draft)
            _attach_announced_table(layout, draft)
            if not draft.is_table:
                _attach_announced_list(layout, draft)
    drafts = _join_table_parts(layout, _merge(drafts))
    for draft in drafts:
        draft.score = region_score(draft.anchors.values())
    drafts.sort(key=lambda d: (-d.score, d.first))
    return drafts


def _ranking(order: Mapping[str, int]) -> Callable[[tuple[str, RegionDraft]], tuple[float, int, int]]:
    """The sort key of (document id, draft) pairs: best score first, then the document's place in
    ``order``, then the draft's first unit."""
    return lambda item: (-item[1].score, order[item[0]], item[1].first)


def _distinct(drafts: Iterable[tuple[str, RegionDraft]], documents: Callable[[str], Any], limit: int,
              layouts: Mapping[str, Any], query_terms: frozenset[str] = frozenset(),
              read: dict[str, Any] | None = None) -> tuple[list[tuple[str, RegionDraft]], bool]:
    """The first ``limit`` drafts in order without one that repeats what earlier drafts of the same document
    say (repeats.Repeats: the same text, or a passage the filing prints twice; one that says all an earlier
    one says and more takes its place), and whether none of them was held back.

    The same text in two documents is two pieces of evidence (two sources). A draft in another part of a
    long table that an earlier draft already stands for is held back, unless its anchors print a term of
    the query (``query_terms``) that the earlier one's do not (the second of two stores a question
    compares): it takes a place only when no draft about anything else is left, after all of them.
    ``documents`` gives a document by id: only those of the drafts looked at are read; ``read`` keeps what
    texts say (Repeats) from one call to the next."""
    said = Repeats(read)
    kept: list[tuple[str, RegionDraft]] = []
    held: list[tuple[str, RegionDraft]] = []
    layout_of: dict[str, RegionLayout] = {}
    for document_id, draft in drafts:
        if len(kept) == limit:
            break
        doc = documents(document_id)
        text = doc.text_between(doc.units[draft.first].start_char, doc.units[draft.last].end_char)
        key = (document_id, draft.first, draft.last)
        if said.repeats(document_id, text, key=key):
            continue
        replaced = said.supersedes(document_id, text, key=key)  # it says all that earlier ones say, and more
        held = [item for item in held if (item[0], item[1].first, item[1].last) not in replaced]
        places = [n for n, (d, other) in enumerate(kept) if (d, other.first, other.last) in replaced]
        if places:  # it takes the place and the score of the first
            kept[places[0]] = (document_id, replace(draft, score=max(kept[n][1].score for n in places)))
            kept = [item for n, item in enumerate(kept) if n not in places[1:]]
            continue
        if draft.is_table:
            layout = layout_of.get(document_id)
            if layout is None:
                layout = layout_of[document_id] = RegionLayout.of(layouts[document_id])
            parts = [other for other_id, other in kept
                     if other_id == document_id and _one_long_table(layout, other, draft)]
            if parts and not _asks_more(doc, draft, parts, query_terms):
                held.append((document_id, draft))
                continue
        kept.append((document_id, draft))
    complete = len(kept) == limit or not held
    return kept + _after(kept, held[: limit - len(kept)]), complete


def _anchor_terms(doc: Any, draft: RegionDraft, query_terms: frozenset[str]) -> set[str]:
    """The terms of ``query_terms`` that the anchors of ``draft`` print."""
    found: set[str] = set()
    for position in draft.anchors:
        unit = doc.units[position]
        found.update(query_terms.intersection(normalized_terms(doc.text_between(unit.start_char, unit.end_char))))
    return found


def _asks_more(doc: Any, draft: RegionDraft, parts: list[RegionDraft], query_terms: frozenset[str]) -> bool:
    """Whether the anchors of ``draft`` print a query term that those of the kept ``parts`` do not and that
    the document prints at most NAME_MAX_PRINTS times: a name (a store, a subsidiary), not a word of every
    other row ("operations", "cash", the filer's name)."""
    if not query_terms:
        return False
    seen = set().union(*(_anchor_terms(doc, part, query_terms) for part in parts))
    new = _anchor_terms(doc, draft, query_terms) - seen
    if not new:
        return False
    text = doc.text.lower()
    return any(0 < text.count(term) <= NAME_MAX_PRINTS for term in new)


def _after(kept: list[tuple[str, RegionDraft]], held: list[tuple[str, RegionDraft]]) -> list[tuple[str, RegionDraft]]:
    """``held`` drafts scored to rank after every ``kept`` one: at most one step of the scores' last decimal
    below the lowest kept score (never below 0). A part of a long table held back is the table again; a
    result cut to fewer regions, or read in rank order to a token budget, reaches everything else first."""
    if not kept or not held:
        return held
    ceiling = max(min(draft.score for _, draft in kept) - 10.0 ** -SCORE_DECIMALS, 0.0)
    return [(document_id, replace(draft, score=round(min(draft.score, ceiling), SCORE_DECIMALS)))
            for document_id, draft in held]


def best_drafts(hits: Mapping[str, Sequence[tuple[int, float]]], layouts: Mapping[str, Any],
                order: Mapping[str, int], documents: Callable[[str], Any], limit: int,
                query_terms: frozenset[str] = frozenset()) -> list[tuple[str, RegionDraft]]:
    """The first ``limit`` distinct drafts (see _distinct) of every document's ``hits`` (document id →
    (unit position, anchor score) pairs), as (document id, draft), ranked by score, then the document's
    place in ``order``, then position. ``layouts`` gives what assemble() reads of a document, ``documents``
    its text (read only for the drafts looked at), ``query_terms`` the query's terms (normalized_terms:
    what tells a part of a long table worth its own place).

    Only the documents that can place a draft are assembled: no region scores above region_score() of its
    document's two best anchors (the score is monotone in both, and so is its rounding), so documents are
    taken from the highest of those bounds down (the earlier in ``order`` first on a tie), and once
    ``limit`` distinct drafts rank before any draft the next document could make, the rest cannot change
    the answer. A draft that only ties the next document's bound ranks before it when its own document
    comes earlier in ``order``: so copies of one filing, whose anchors tie, are assembled only as far as
    their drafts can place. On a many-document index most documents have some anchors and few a region
    among the best: this is most of a search's work saved, with the same result.
    """
    rank = _ranking(order)
    bounds = sorted(((region_score(score for _, score in document_hits), document_id)
                     for document_id, document_hits in hits.items() if document_hits),
                    key=lambda bound: (-bound[0], order[bound[1]]))
    # (rank key, document id, draft) in rank order; the key, made once per draft, ends in the draft's
    # number in assembly order, so that drafts ranking alike keep that order (as a stable sort would)
    ranked: list[tuple[tuple[float, int, int, int], str, RegionDraft]] = []
    read: dict[str, Any] = {}
    for bound, document_id in bounds:
        if len(ranked) >= limit:
            if _ranks_before(ranked[limit - 1][1:], bound, document_id, order):  # are k of them distinct?
                kept, complete = _distinct((item[1:] for item in ranked), documents, limit, layouts, query_terms, read)
                if complete and len(kept) == limit and _ranks_before(max(kept, key=rank), bound, document_id, order):
                    return sorted(kept, key=rank)
        place = order[document_id]
        for draft in assemble(layouts[document_id], hits[document_id]):
            insort(ranked, ((-draft.score, place, draft.first, len(ranked)), document_id, draft))
    return sorted(_distinct((item[1:] for item in ranked), documents, limit, layouts, query_terms, read)[0], key=rank)


def _ranks_before(item: tuple[str, RegionDraft], bound: float, document_id: str, order: Mapping[str, int]) -> bool:
    """Whether ``item`` (document id, draft) ranks before every draft of document ``document_id`` whose
    regions score at most ``bound``: a higher score, or the same score in a document earlier in ``order``."""
    score = item[1].score
    return score > bound or (score == bound and order[item[0]] < order[document_id])


def to_region(doc: SemanticDocument, draft: RegionDraft, region_id: str) -> EvidenceRegion:
    """The EvidenceRegion of `draft`: exact text slice, line and character coordinates, provenance."""
    units = doc.units
    start = units[draft.first].start_char
    end = units[draft.last].end_char
    source = SourceSpan(
        document_id=doc.document_id,
        uri=doc.source_uri,
        start_char=start,
        end_char=end,
        start_line=doc.line_of(start),
        end_line=doc.line_of(end - 1),
        document_sha256=doc.document_sha256,
        **segment_provenance(doc, draft.first, draft.last),
    )
    entities = sorted({e for u in units[draft.first : draft.last + 1] for e in u.entities})
    return EvidenceRegion(
        region_id=region_id,
        document_id=doc.document_id,
        score=draft.score,
        entities=entities,
        source=source,
        anchors=[units[p].id for p in sorted(draft.anchors)],
        text=doc.text_between(start, end),
    )
