"""Drop from the Text Chunks the paragraphs an Evidence Unit already carries (no cannibalisation).

An EU absorbs the paragraphs around its table as context (and may infer its caption from a text item).
Left in the Text Chunks as well, they would be retrieved twice and compete with the EU. A part of a
Text Chunk is *consumed* when an EU of the same document carries it:

1. by reference, where both sides know the docling self_ref: the part's refs are all among the refs of
   context paragraphs some EU actually carries (a split piece carries only its own context);
2. by text, as the fallback where either side has no refs: the part's text, at least
   ``min_substring_len`` characters, is a substring of a carried context paragraph;
3. as a caption: the part's text equals an EU's (table) caption, or the part is a line the EU read its
   title from (``title_refs``: the title block above the table, such as a unit line "(dollars in
   millions)" printed apart from the title) and every word of it is in the EU's title line, which opens
   the EU's text. An entity line ("SQUARE, INC.") the title line does not show stays where it is.

A part is consumed only when its whole text is inside an EU, so no text is ever lost. A Text Chunk
whose parts are all consumed is dropped; one partly consumed is rebuilt from its other parts and keeps
its ``chunk_id`` and headings. Chunks that are not TextChunks pass through unchanged.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from .chunks import ChunkPart, RetrievalChunk, TextChunk

#: Text shorter than this is never matched as a substring ("Total", "Yes" occur everywhere).
DEFAULT_MIN_SUBSTRING_LEN = 20
#: A Markdown list marker the chunker's serializer puts before a list item ("- ", "3. ").
_LIST_MARKER = re.compile(r"^(?:[-*+•]|\d+[.)])\s+")
_WORD = re.compile(r"\w+")


def _words(text: str) -> set[str]:
    return set(_WORD.findall(text.casefold()))


@dataclass
class ConsumedStats:
    """What ``filter_consumed_paragraphs`` did, for diagnostics."""

    chunks_in: int = 0
    chunks_out: int = 0
    dropped: int = 0
    rebuilt: int = 0
    parts_consumed: int = 0
    by_ref: int = 0
    by_text: int = 0
    by_caption: int = 0
    dropped_ids: list[str] = field(default_factory=list)
    rebuilt_ids: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, int]:
        return {
            "chunks_in": self.chunks_in,
            "chunks_out": self.chunks_out,
            "dropped": self.dropped,
            "rebuilt": self.rebuilt,
            "parts_consumed": self.parts_consumed,
            "by_ref": self.by_ref,
            "by_text": self.by_text,
            "by_caption": self.by_caption,
        }


def normalise_text(text: str) -> str:
    """Whitespace collapsed to single spaces and a leading list marker removed."""
    return _LIST_MARKER.sub("", " ".join(text.split()))


def carried_context(eu: Any) -> tuple[list[str], list[str] | None]:
    """The context paragraphs ``eu`` carries and their self_refs (None when they cannot be told).

    ``context_refs`` lists the refs of the whole table's context, before then after; a split piece
    carries the before-context (first piece) or the after-context (last piece) or neither, so its refs
    are the first ``len(context_before)`` and the last ``len(context_after)`` of them.
    """
    before = list(getattr(eu, "context_before", None) or ())
    after = list(getattr(eu, "context_after", None) or ())
    refs = list(getattr(eu, "context_refs", None) or ())
    paragraphs = before + after
    if not paragraphs:
        return [], []
    if len(refs) < len(paragraphs):
        return paragraphs, None
    carried = refs[: len(before)] + (refs[len(refs) - len(after) :] if after else [])
    return paragraphs, carried


@dataclass
class _Absorbed:
    """Everything the EUs of one document carry, indexed for the three tests."""

    refs: set[str] = field(default_factory=set)
    ref_texts: list[str] = field(default_factory=list)  # paragraphs of EUs that know their refs
    plain_texts: list[str] = field(default_factory=list)  # paragraphs of EUs that do not
    captions: set[str] = field(default_factory=set)
    # title-block line ref -> the words of the title line of the EU that read it
    title_words: dict[str, set[str]] = field(default_factory=dict)


def _absorbed_by_document(eu_list: Iterable[Any]) -> dict[str, _Absorbed]:
    index: dict[str, _Absorbed] = {}
    for eu in eu_list:
        absorbed = index.setdefault(getattr(eu, "doc_id", ""), _Absorbed())
        paragraphs, refs = carried_context(eu)
        texts = [normalise_text(p) for p in paragraphs if p.strip()]
        if refs is None:
            absorbed.plain_texts.extend(texts)
        else:
            absorbed.refs.update(refs)
            absorbed.ref_texts.extend(texts)
        caption = getattr(eu, "safe_caption", None)
        if caption:
            absorbed.captions.add(normalise_text(caption))
        title_refs = getattr(eu, "title_refs", None) or ()
        if title_refs:
            shown = _words(getattr(eu, "title_line", None) or "")
            for ref in title_refs:
                absorbed.title_words.setdefault(ref, set()).update(shown)
    return index


def _consumed_by(part: ChunkPart, absorbed: _Absorbed, min_len: int) -> str | None:
    """"ref", "text" or "caption" when an EU carries the part, else None."""
    if part.refs and all(ref in absorbed.refs for ref in part.refs):
        return "ref"
    text = normalise_text(part.text)
    if not text:
        return None
    if len(text) >= min_len:
        pool = absorbed.plain_texts if part.refs else absorbed.plain_texts + absorbed.ref_texts
        if any(text in paragraph for paragraph in pool):
            return "text"
    if text in absorbed.captions:
        return "caption"
    if part.refs and all(ref in absorbed.title_words for ref in part.refs):
        shown = set().union(*(absorbed.title_words[ref] for ref in part.refs))
        if _words(text) <= shown:
            return "caption"
    return None


def filter_consumed_paragraphs(
    chunks: Sequence[RetrievalChunk],
    eu_list: Iterable[Any],
    min_substring_len: int = DEFAULT_MIN_SUBSTRING_LEN,
    stats: ConsumedStats | None = None,
) -> list[RetrievalChunk]:
    """``chunks`` without the paragraphs the EUs in ``eu_list`` carry; order and ids are kept.

    ``eu_list`` holds EvidenceUnits (or anything with their ``doc_id``, ``context_before/after``,
    ``context_refs`` and ``safe_caption``; ``title_refs`` and ``title_line`` when they have them); EUs only
    consume from chunks of their own ``doc_id``.
    ``stats``, when given, is filled in.
    """
    if min_substring_len < 1:
        raise ValueError(f"min_substring_len must be at least 1 character, got {min_substring_len}")
    stats = stats if stats is not None else ConsumedStats()
    index = _absorbed_by_document(eu_list)
    kept: list[RetrievalChunk] = []
    for chunk in chunks:
        stats.chunks_in += 1
        absorbed = index.get(getattr(chunk, "doc_id", ""))
        if not isinstance(chunk, TextChunk) or absorbed is None:
            kept.append(chunk)
            continue
        parts = chunk.parts or [ChunkPart(refs=list(chunk.item_refs), text=chunk.text,
                                          page_boxes=list(chunk.page_boxes), bbox=chunk.bbox)]
        remaining: list[ChunkPart] = []
        for part in parts:
            how = _consumed_by(part, absorbed, min_substring_len)
            if how is None:
                remaining.append(part)
                continue
            stats.parts_consumed += 1
            if how == "ref":
                stats.by_ref += 1
            elif how == "text":
                stats.by_text += 1
            else:
                stats.by_caption += 1
        if len(remaining) == len(parts):
            kept.append(chunk)
        elif not any(part.text for part in remaining):
            stats.dropped += 1
            stats.dropped_ids.append(chunk.chunk_id)
        else:
            stats.rebuilt += 1
            stats.rebuilt_ids.append(chunk.chunk_id)
            kept.append(TextChunk.from_parts(chunk.chunk_id, chunk.doc_id, chunk.headings, remaining))
    stats.chunks_out = len(kept)
    return kept
