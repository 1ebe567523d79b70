"""Ingest: PDF → parse → Evidence Units + Text Chunks → SemanticDocument → a persistent repository.

Parsing, chunking and compiling run in worker processes when ``workers > 1``; the repository (one SQLite
file, one writer) embeds and stores in the main process, one transaction per document. A PDF already in
the index with the same sha256 is skipped before it is parsed, so a rerun after a crash resumes.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from .batch import Failure, progress_bar
from .errors import EvidenceChunkerError
from .parsing.pdf_file import file_sha256

#: Key under which ingest records what it did for a document (see ``document_stats``).
INFO_KIND = "pdf"


@dataclass
class IngestSummary:
    """What an ingest run did; ``as_text()`` is the summary line the CLI prints. ``pages`` counts every
    document's pages, unchanged ones included; ``new_pages`` only those (re-)indexed by this run."""

    files: int = 0
    indexed: int = 0
    skipped: int = 0
    pages: int = 0
    new_pages: int = 0
    units: int = 0
    chunks: int = 0
    anchors: int = 0
    failures: list[Failure] = field(default_factory=list)
    seconds: float = 0.0

    def as_text(self) -> str:
        rate = self.new_pages / self.seconds if self.seconds else 0.0
        return (
            f"files {self.files} (indexed {self.indexed}, unchanged {self.skipped}, failed {len(self.failures)}) | "
            f"pages {self.pages} ({self.new_pages} indexed now) | evidence units {self.units} | chunks {self.chunks} | "
            f"anchors {self.anchors} | {self.seconds:.1f} s ({rate:.1f} pages/s indexed)"
        )


@dataclass
class PreparedDocument:
    """A PDF made ready for the repository in a worker: its compiled document (JSON) and stored info."""

    path: Path
    document_json: str
    info: dict[str, Any]


def document_id_for(path: Path) -> str:
    """The id a PDF gets in the index: its file name without the extension."""
    return path.stem


def prepare_document(path: Path, parser: str = "lite", artifacts_path: str | None = None,
                     doc_id: str | None = None) -> PreparedDocument:
    """Parse, chunk and compile one PDF (or DoclingDocument JSON); runs in a worker process."""
    from .export.chunks import chunk_kind
    from .export.consumed import ConsumedStats
    from .export.corpus import build_corpus_parsed
    from .export.semantic import corpus_to_semantic_document, pdf_uri
    from .parsing import ParsedDoc

    chunker = _chunker(parser, artifacts_path)
    parsed = ParsedDoc.from_docling_json(path) if path.suffix.lower() == ".json" else chunker.parse(path)
    doc_id = doc_id or document_id_for(path)
    units = chunker.chunk_parsed(parsed, doc_id=doc_id)
    consumed = ConsumedStats()
    corpus = build_corpus_parsed(parsed, units, doc_id, token_limit=chunker.token_limit, stats=consumed)
    document = corpus_to_semantic_document(corpus, doc_id, pdf_uri(path), parsed.sha256)
    tables = {eu.eu_id.rsplit("-s", 1)[0]: eu for eu in units}
    info = {
        "kind": INFO_KIND,
        "pdf_path": str(path.resolve()),
        "pdf_sha256": parsed.sha256 or file_sha256(path),
        "parser": parsed.parser,
        "pages": parsed.page_count,
        "units": len(units),
        "chunks": len(corpus),
        "text_chunks": sum(1 for c in corpus if chunk_kind(c) == "text"),
        "tables": len(tables),
        "captions": {conf: sum(1 for eu in tables.values() if eu.caption_confidence == conf)
                     for conf in ("direct", "inferred", "none")},
        "split_tables": len({eu.eu_id.rsplit("-s", 1)[0] for eu in units if eu.is_split}),
        "oversized_units": list(chunker.last_split_stats.oversized_ids),
        "context_paragraphs": sum(len(eu.context_before) + len(eu.context_after) for eu in units),
        "text_chunks_dropped": consumed.dropped,
        "text_chunks_rebuilt": consumed.rebuilt,
    }
    return PreparedDocument(path=path, document_json=document.to_json(), info=info)


@lru_cache(maxsize=4)
def _chunker(parser: str, artifacts_path: str | None):
    """One chunker per process and parser: Docling's converter loads its models once."""
    from .chunker import EvidenceChunker

    return EvidenceChunker(parser=parser, artifacts_path=artifacts_path)


def _prepare_safely(args: tuple[Path, str, str | None]) -> PreparedDocument | Failure:
    path, parser, artifacts_path = args
    try:
        return prepare_document(path, parser, artifacts_path)
    except (EvidenceChunkerError, OSError, ValueError) as exc:
        return Failure(path, str(exc))


def unchanged(repo, path: Path) -> bool:
    """True when ``path`` is already in ``repo`` with the same PDF bytes (nothing to redo)."""
    doc_id = document_id_for(path)
    if doc_id not in repo:
        return False
    info = repo.document_info(doc_id)
    return info.get("pdf_sha256") == file_sha256(path)


def ingest(paths: Iterable[Path], repo, parser: str = "lite", artifacts_path: str | None = None,
           workers: int = 1, progress: bool = True, prepared=None) -> IngestSummary:
    """Add every PDF of ``paths`` to ``repo`` (a SemanticRepository, usually opened on a file).

    A failing PDF is reported on stderr by name and recorded in the summary; the others go on.
    ``prepared(paths, parser, artifacts_path)``, when given, replaces the local worker processes as the
    source of prepared documents (ray_ingest.py sends them to a Ray cluster).
    """
    from semantic_json import SemanticDocument

    started = time.perf_counter()
    summary = IngestSummary()
    if parser == "auto":  # decide once, here, so the fallback warning is printed once
        parser = _chunker(parser, artifacts_path).parser.name
    todo: list[Path] = []
    for path in paths:
        summary.files += 1
        try:
            if unchanged(repo, path):
                summary.skipped += 1
                info = repo.document_info(document_id_for(path))
                summary.pages += int(info.get("pages", 0))
                continue
        except OSError as exc:
            summary.failures.append(Failure(path, f"{path}: {exc.strerror or exc}"))
            print(f"error: {path}: {exc.strerror or exc}", file=sys.stderr)
            continue
        todo.append(path)

    bar = progress_bar(len(todo), "ingest") if progress and len(todo) > 1 else None
    try:
        source = (prepared(todo, parser, artifacts_path) if prepared is not None
                  else _prepared(todo, parser, artifacts_path, workers))
        for outcome in source:
            if isinstance(outcome, Failure):
                summary.failures.append(outcome)
                message = outcome.error if str(outcome.path) in outcome.error else f"{outcome.path}: {outcome.error}"
                (bar.write if bar is not None else _stderr)(f"error: {message}")
            else:
                document = SemanticDocument.from_json(outcome.document_json)
                repo.add(document, info=outcome.info)
                summary.indexed += 1
                summary.pages += outcome.info["pages"]
                summary.new_pages += outcome.info["pages"]
                summary.units += outcome.info["units"]
                summary.chunks += outcome.info["chunks"]
                summary.anchors += len(document.units)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    summary.seconds = time.perf_counter() - started
    return summary


def _stderr(message: str) -> None:
    print(message, file=sys.stderr)


def _prepared(paths: list[Path], parser: str, artifacts_path: str | None, workers: int) -> Iterator[PreparedDocument | Failure]:
    """Prepared documents in input order, from a process pool when ``workers > 1``."""
    jobs = [(path, parser, artifacts_path) for path in paths]
    if workers <= 1 or len(jobs) <= 1:
        for job in jobs:
            yield _prepare_safely(job)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(_prepare_safely, jobs)
