"""The documents a repository holds, by id: those added in this process, and those left in the index file
until a search or a caller reads them (a bounded number of those read stay in memory)."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path

from ..model import SemanticDocument
from .base import IndexFileError, whole_document
from .records import StoredSource

#: Documents read from a store that stay in memory (the least recently used one is read again when needed).
MAX_READ_DOCUMENTS = 8


class HeldDocuments(MutableMapping):
    """The repository's documents by id, in the order they were (last) added. A document held by the store
    is read from it when first asked for: ``source()`` reads what a search result shows of it (text,
    segments, units as its layout holds them), ``[document_id]`` the whole SemanticDocument. At most
    MAX_READ_DOCUMENTS of those read stay in memory; membership, order and length never read one."""

    def __init__(self) -> None:
        #: Documents added in this process (None: held by the store).
        self._held: dict[str, SemanticDocument | None] = {}
        #: What was read from the store, the most recently used last.
        self._read: OrderedDict[str, StoredSource | SemanticDocument] = OrderedDict()
        self._fingerprints: dict[str, str] = {}
        #: Reads a stored document by id and fingerprint; None once the store is closed.
        self.read: Callable[[str, str], StoredSource] | None = None
        #: Where the store is, for the error when a whole document cannot be read.
        self.where: str | Path = ""

    def source(self, document_id: str) -> SemanticDocument | StoredSource:
        """What region assembly and the transport read of a document (KeyError for an unknown id)."""
        doc = self._held[document_id]
        if doc is not None:
            return doc
        read = self._read.get(document_id)
        if read is None:
            if self.read is None:
                raise IndexFileError(f"document {document_id!r} is in the index, which was closed: open it again")
            read = self._keep(document_id, self.read(document_id, self._fingerprints[document_id]))
        else:
            self._read.move_to_end(document_id)
        return read

    def __getitem__(self, document_id: str) -> SemanticDocument:
        read = self.source(document_id)
        if isinstance(read, StoredSource):
            read = self._keep(document_id, whole_document(self.where, read))
        return read

    def _keep(self, document_id: str, read: StoredSource | SemanticDocument):
        self._read[document_id] = read
        while len(self._read) > MAX_READ_DOCUMENTS:
            self._read.popitem(last=False)
        return read

    def __setitem__(self, document_id: str, doc: SemanticDocument) -> None:
        self._held[document_id] = doc
        self._read.pop(document_id, None)

    def stored(self, document_id: str, fingerprint: str) -> None:
        """Hold ``document_id`` as one to read from the store (as ``fingerprint``) when asked for."""
        self._held[document_id] = None
        self._fingerprints[document_id] = fingerprint

    def __delitem__(self, document_id: str) -> None:
        del self._held[document_id]
        self._read.pop(document_id, None)
        self._fingerprints.pop(document_id, None)

    def forget(self, document_id: str) -> None:
        """Drop ``document_id`` (nothing happens for an unknown id) without reading it."""
        if document_id in self._held:
            del self[document_id]

    def __contains__(self, document_id: object) -> bool:
        return document_id in self._held

    def __iter__(self) -> Iterator[str]:
        return iter(self._held)

    def __len__(self) -> int:
        return len(self._held)
