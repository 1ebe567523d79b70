"""The retrieval corpus pipeline: RetrievalChunk and TextChunk (``chunks``), Text Chunks from a parsed document
(``text_chunks``), the consumed-paragraph filter (``consumed``), the corpus of one document in reading order and
its JSONL format (``assemble``).

The adapters that hand a corpus to other tools (LangChain, LlamaIndex, vector stores, the semantic layer) live
in ``evidence_chunker.export``.
"""

from .chunks import (
    KIND_TABLE,
    KIND_TEXT,
    ChunkPart,
    RetrievalChunk,
    TextChunk,
    chunk_kind,
    vector_store_metadata,
)
from .consumed import DEFAULT_MIN_SUBSTRING_LEN, ConsumedStats, filter_consumed_paragraphs
from .assemble import (
    CORPUS_SCHEMA,
    CorpusFormatError,
    CorpusRecord,
    build_corpus_parsed,
    chunk_to_record,
    merge_in_reading_order,
    read_jsonl,
    write_jsonl,
)
from .text_chunks import TEXT_CHUNK_ID, ChunkerUnavailableError, make_text_chunks, table_refs

__all__ = [
    "CORPUS_SCHEMA",
    "DEFAULT_MIN_SUBSTRING_LEN",
    "KIND_TABLE",
    "KIND_TEXT",
    "TEXT_CHUNK_ID",
    "ChunkPart",
    "ChunkerUnavailableError",
    "ConsumedStats",
    "CorpusFormatError",
    "CorpusRecord",
    "RetrievalChunk",
    "TextChunk",
    "build_corpus_parsed",
    "chunk_kind",
    "chunk_to_record",
    "filter_consumed_paragraphs",
    "make_text_chunks",
    "merge_in_reading_order",
    "read_jsonl",
    "table_refs",
    "vector_store_metadata",
    "write_jsonl",
]
