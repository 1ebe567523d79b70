"""Text Chunks: docling-core's HybridChunker over everything in the document except its tables.

Tables become Evidence Units, so the chunker must not see them: its serializer is told to exclude every
table, the table's captions and footnotes and everything nested under it (rich cells, tables in tables).
Each chunk is then taken apart into parts, one per doc item where docling's serialisation allows it, so
``filter_consumed_paragraphs`` can later drop single paragraphs an EU absorbed.

docling-core's chunker modules import pandas and semchunk; they are imported on first use only, and
without transformers or pandas (see :func:`_import_chunker_modules`).
"""

from __future__ import annotations

import importlib
import sys
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from docling_core.types.doc import ContentLayer, DocItem, DocItemLabel, DoclingDocument, RefItem, TableItem, TextItem

from ..deferred_imports import DeferredModule, heavy_imports_deferred
from ..errors import ChunkerUnavailableError
from ..units.geometry import item_boxes, normalise
from ..parsing.parsed import ParsedDoc
from ..tokens import DEFAULT_TOKEN_LIMIT, Tokenizer, get_encoding, tokenizer_for
from .chunks import ChunkPart, TextChunk

if TYPE_CHECKING:  # pragma: no cover
    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker

#: ``chunk_id`` of the n-th text chunk (1-based, reading order, counted before any filtering).
TEXT_CHUNK_ID = "{doc_id}-t{n}"
#: Labels of docling TableItems (a table of contents is a table too).
TABLE_LABELS = frozenset({DocItemLabel.TABLE, DocItemLabel.DOCUMENT_INDEX})
#: Modules docling-core's chunker needs beyond docling-core itself (its "chunking" extras).
CHUNKER_MODULES = ("semchunk", "tree_sitter")


def table_refs(doc: DoclingDocument, tables: Iterable[str] | None = None) -> set[str]:
    """Self_refs of the given tables (default: every table with rows), their captions and footnotes,
    and every node nested under them; none of these may reach a text chunk."""
    if tables is None:
        chosen = [t for t in doc.tables if t.label in TABLE_LABELS and t.data is not None and t.data.num_rows > 0]
    else:
        chosen = []
        for ref in tables:
            item = RefItem(cref=ref).resolve(doc)
            if isinstance(item, TableItem):
                chosen.append(item)
    refs: set[str] = set()
    for table in chosen:
        refs.update(ref.cref for ref in (*table.captions, *table.footnotes))
        for node, _level in doc.iterate_items(root=table, with_groups=True, traverse_pictures=True,
                                              included_content_layers=set(ContentLayer)):
            refs.add(node.self_ref)
    return refs


def make_text_chunks(
    source: ParsedDoc | DoclingDocument,
    doc_id: str | None = None,
    token_limit: int = DEFAULT_TOKEN_LIMIT,
    tables: Iterable[str] | None = None,
) -> list[TextChunk]:
    """TextChunks of the document's non-table content, in reading order.

    Every chunk's ``retrieval_text`` (headings + text) is at most ``token_limit`` cl100k tokens.
    ``tables`` are the self_refs of the tables to leave out (default: every table with rows; the corpus
    builder passes the tables its Evidence Units hold, so a table no EU holds is chunked as text).
    """
    tokenizer = tokenizer_for(token_limit)
    if isinstance(source, ParsedDoc):
        doc, doc_id = source.document, doc_id or source.default_doc_id
    else:
        doc, doc_id = source, doc_id or source.name or "document"
    excluded = frozenset(table_refs(doc, tables))
    chunker, serializer = _hybrid_chunker(doc, excluded, tokenizer)
    chunks: list[TextChunk] = []
    for doc_chunk in chunker.chunk(dl_doc=doc):
        items = _resolve_items(doc, doc_chunk.meta.doc_items, excluded)
        if not items:
            continue
        parts = split_into_parts(doc_chunk.text, items, serializer, doc)
        if not any(part.text for part in parts):
            continue
        chunk_id = TEXT_CHUNK_ID.format(doc_id=doc_id, n=len(chunks) + 1)
        chunks.append(TextChunk.from_parts(chunk_id, doc_id, list(doc_chunk.meta.headings or ()), parts))
    return chunks


def split_into_parts(text: str, items: list[DocItem], serializer: Any, doc: DoclingDocument) -> list[ChunkPart]:
    """The stretches of a chunk's ``text`` each of its ``items`` produced.

    Each item is serialised alone, as HybridChunker does when it packs items into a window, and found in
    ``text`` in order, separated by whitespace only. An item found inside the previous stretch (a caption
    its code block or picture already wrote) joins that part. When the text cannot be accounted for
    item by item (a long paragraph cut into pieces and merged with its neighbours) the whole chunk is
    one part, so nothing is ever dropped by half.
    """
    if len(items) == 1:
        return [_part([items[0]], text, doc)]
    parts: list[ChunkPart] = []
    spans: list[tuple[int, int]] = []
    members: list[list[DocItem]] = []
    cursor = 0
    for item in items:
        piece = _standalone_text(item, serializer)
        if not piece:
            members.append([item])
            spans.append((cursor, cursor))
            continue
        start = text.find(piece, cursor)
        if start >= 0 and not text[cursor:start].strip():
            members.append([item])
            spans.append((start, start + len(piece)))
            cursor = start + len(piece)
            continue
        previous = next((i for i in range(len(spans) - 1, -1, -1) if spans[i][1] > spans[i][0]), None)
        if previous is not None and piece in text[spans[previous][0] : spans[previous][1]]:
            members[previous].append(item)
            continue
        return [_part(items, text, doc)]
    if text[cursor:].strip():
        return [_part(items, text, doc)]
    for group, (start, end) in zip(members, spans):
        parts.append(_part(group, text[start:end], doc))
    return parts


# --- docling-core plumbing ---------------------------------------------------------------------


def _standalone_text(item: DocItem, serializer: Any) -> str:
    """What the item contributes when serialised alone (a satellite caption: its own text)."""
    text = serializer.serialize(item=item).text
    if not text and isinstance(item, TextItem):
        text = item.text
    return text


def _part(items: list[DocItem], text: str, doc: DoclingDocument) -> ChunkPart:
    boxes = [box for item in items for box in item_boxes(item, doc)]
    return ChunkPart(
        refs=[item.self_ref for item in items],
        text=text,
        page_boxes=boxes,
        bbox=normalise(boxes[0], doc) if boxes else (0.0, 0.0, 0.0, 0.0),
    )


def _resolve_items(doc: DoclingDocument, doc_items: list[DocItem], excluded: frozenset[str]) -> list[DocItem]:
    """The chunk's items as the document's own objects: the chunk's copies are plain DocItems (a table
    loses its data), so each is looked up by its self_ref. Excluded refs never get this far; they are
    dropped here again all the same."""
    resolved: list[DocItem] = []
    for doc_item in doc_items:
        if doc_item.self_ref in excluded:
            continue
        item = RefItem(cref=doc_item.self_ref).resolve(doc)
        if isinstance(item, DocItem):
            resolved.append(item)
    return resolved


def _hybrid_chunker(doc: DoclingDocument, excluded: frozenset[str], tokenizer: Tokenizer) -> tuple["HybridChunker", Any]:
    """A HybridChunker counting with ``tokenizer`` whose serializer leaves out ``excluded``, and that serializer."""
    missing = []
    for name in CHUNKER_MODULES:
        try:
            __import__(name)
        except ImportError:
            missing.append(name.replace("_", "-"))
    if missing:
        raise ChunkerUnavailableError(missing)
    _import_chunker_modules()
    from docling_core.transforms.chunker.hybrid_chunker import HybridChunker

    classes = _chunker_classes()
    provider = classes.provider(excluded)
    return HybridChunker(tokenizer=_docling_tokenizer(tokenizer), serializer_provider=provider), provider.get_serializer(doc)


@lru_cache(maxsize=None)
def _docling_tokenizer(tokenizer: Tokenizer) -> Any:
    """docling-core's tokenizer over ``tokenizer``, made once per limit."""
    return _chunker_classes().tokenizer(tokenizer=get_encoding(), max_tokens=tokenizer.get_max_tokens(),
                                        counter=tokenizer)


#: docling-core's Hugging Face tokenizer module: it imports transformers (and through it torch) when it
#: is imported, though only its default tokenizer factory is needed, and only when no tokenizer is given.
HF_TOKENIZER_MODULE = "docling_core.transforms.chunker.tokenizer.huggingface"


def _import_chunker_modules() -> None:
    """Import docling-core's chunker package without importing transformers.

    The package's ``__init__`` imports the hybrid chunker, which imports the line chunker, which imports
    the Hugging Face tokenizer module for ``get_default_tokenizer`` (a default used only when no
    tokenizer is passed; we always pass one). Importing a submodule runs the package's ``__init__``
    first, so importing ``hybrid_chunker`` directly does not avoid it. While the package loads, that one
    module is a stand-in whose ``get_default_tokenizer`` imports the real module when called; any other
    use of the stand-in imports the real module too, so code that does want Hugging Face tokenizers
    still gets them.
    """
    if "docling_core.transforms.chunker.hybrid_chunker" in sys.modules or HF_TOKENIZER_MODULE in sys.modules:
        return
    stand_in = DeferredModule(HF_TOKENIZER_MODULE)
    stand_in.__dict__["get_default_tokenizer"] = stand_in.deferred("get_default_tokenizer")
    sys.modules[HF_TOKENIZER_MODULE] = stand_in
    try:
        with heavy_imports_deferred():
            importlib.import_module("docling_core.transforms.chunker.hybrid_chunker")
    except BaseException:
        if sys.modules.get(HF_TOKENIZER_MODULE) is stand_in:
            del sys.modules[HF_TOKENIZER_MODULE]
        raise


class _ChunkerClasses(NamedTuple):
    tokenizer: type
    provider: type


@lru_cache(maxsize=1)
def _chunker_classes() -> _ChunkerClasses:
    """Subclasses of docling-core's chunking classes, defined on first use (their modules are heavy)."""
    _import_chunker_modules()
    from docling_core.transforms.chunker.hierarchical_chunker import (
        ChunkingDocSerializer,
        ChunkingSerializerProvider,
    )
    from docling_core.transforms.chunker.tokenizer.openai import OpenAITokenizer
    from pydantic import PrivateAttr

    class Cl100kTokenizer(OpenAITokenizer):
        """OpenAITokenizer that counts with our Tokenizer (``counter``): the bundled cl100k encoding, where
        special-token strings count as plain text."""

        counter: Any

        def count_tokens(self, text: str) -> int:
            return self.counter.count_tokens(text)

        def get_tokenizer(self) -> Any:
            # semchunk takes a token counter as readily as an encoding
            return self.counter.get_tokenizer()

    class TableFreeSerializer(ChunkingDocSerializer):
        """docling's chunking serializer with tables (and what belongs to them) excluded."""

        table_refs: frozenset[str] = frozenset()
        _merged: dict[Any, set[str]] = PrivateAttr(default_factory=dict)

        def get_excluded_refs(self, **kwargs: Any) -> set[str]:
            try:  # asked once per item, nearly always with the same few keyword arguments
                key: Any = tuple(sorted(kwargs.items()))
                hash(key)
            except TypeError:
                key = self.params.merge_with_patch(patch=kwargs).model_dump_json()
            refs = self._merged.get(key)
            if refs is None:
                refs = super().get_excluded_refs(**kwargs) | self.table_refs
                self._merged[key] = refs
            return refs

    class TableFreeSerializerProvider(ChunkingSerializerProvider):
        def __init__(self, excluded: frozenset[str]):
            self.excluded = excluded
            self._last: TableFreeSerializer | None = None

        def get_serializer(self, doc: DoclingDocument) -> TableFreeSerializer:
            # one serializer per document: making one validates the whole document again, and the
            # chunker asks for one several times
            if self._last is None or self._last.doc is not doc:
                self._last = TableFreeSerializer(doc=doc, table_refs=self.excluded)
            return self._last

    return _ChunkerClasses(tokenizer=Cl100kTokenizer, provider=TableFreeSerializerProvider)


__all__ = ["ChunkerUnavailableError", "TABLE_LABELS", "TEXT_CHUNK_ID", "make_text_chunks", "split_into_parts",
           "table_refs"]
