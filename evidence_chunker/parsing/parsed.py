"""ParsedDoc: one docling-core DoclingDocument plus where it came from."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, runtime_checkable

from ..deferred_imports import heavy_imports_deferred
from ..errors import DoclingJsonError

with heavy_imports_deferred():  # docling-core loads pandas and OpenCV for exports nothing here makes
    from docling_core.types.doc import DoclingDocument
from .pdf_file import file_sha256

#: Top-level collections of a DoclingDocument JSON whose items carry parent/children refs.
_NODE_COLLECTIONS = (
    "groups",
    "texts",
    "pictures",
    "tables",
    "key_value_items",
    "form_items",
    "field_regions",
    "field_items",
)


@dataclass
class ParsedDoc:
    """A parsed PDF: the DoclingDocument every downstream step reads, and its origin.

    ``sha256`` is the hash of the PDF's bytes (None when the PDF is not at hand),
    ``parser`` names what produced the document ("docling", "lite", "docling-json", ...).
    ``ocr_pages`` maps each page (1-based) whose text was read by OCR to the mean confidence of its words
    (0..1); ``ocr_timeouts`` lists the pages OCR gave up on (their text is missing).
    """

    document: DoclingDocument
    path: Path | None
    sha256: str | None
    parser: str
    page_count: int
    ocr_pages: dict[int, float] = field(default_factory=dict)
    ocr_timeouts: list[int] = field(default_factory=list)

    @property
    def ocr_confidence(self) -> float | None:
        """The mean word confidence (0..1, four decimals) of the pages read by OCR; None when none was."""
        if not self.ocr_pages:
            return None
        return round(sum(self.ocr_pages.values()) / len(self.ocr_pages), 4)

    @property
    def default_doc_id(self) -> str:
        """The id used when the caller gives none: the file's stem, else the document's name."""
        if self.path is not None:
            return self.path.stem
        return self.document.name or "document"

    @classmethod
    def from_docling_json(cls, json_path: str | Path, pdf_path: str | Path | None = None) -> "ParsedDoc":
        """Load a DoclingDocument that Docling saved elsewhere.

        Older exports (docling-core < 2.60) may list a node's parent without that parent listing the
        node among its children; newer docling-core refuses them, so the hierarchy is repaired first.
        ``pdf_path``, when given, supplies the origin path and sha256 of the PDF bytes.
        """
        json_path = Path(json_path)
        if not json_path.is_file():
            raise DoclingJsonError(json_path, "file not found")
        try:
            raw = json.loads(json_path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise DoclingJsonError(json_path, f"invalid JSON: {exc}") from exc
        if not isinstance(raw, dict) or "body" not in raw:
            raise DoclingJsonError(json_path, "no 'body' node; this is not a DoclingDocument export")
        repair_hierarchy(raw)
        try:
            document = DoclingDocument.model_validate(raw)
        except Exception as exc:  # pydantic's ValidationError and docling-core's own checks
            raise DoclingJsonError(json_path, str(exc).splitlines()[0]) from exc
        pdf = Path(pdf_path) if pdf_path is not None else None
        return cls(
            document=document,
            path=pdf if pdf is not None else json_path,
            sha256=file_sha256(pdf) if pdf is not None else None,
            parser="docling-json",
            page_count=len(document.pages),
        )


def repair_hierarchy(raw: dict) -> int:
    """Add every node missing from its parent's ``children`` list; return how many were added.

    Works on the raw JSON dict, in place, before validation.
    """
    nodes: dict[str, dict] = {"#/body": raw["body"]}
    if "furniture" in raw:
        nodes["#/furniture"] = raw["furniture"]
    for collection in _NODE_COLLECTIONS:
        for item in raw.get(collection) or []:
            nodes[item["self_ref"]] = item
    added = 0
    for ref, item in nodes.items():
        parent_ref = (item.get("parent") or {}).get("cref") or (item.get("parent") or {}).get("$ref")
        parent = nodes.get(parent_ref) if parent_ref else None
        if parent is None:
            continue
        children = parent.setdefault("children", [])
        if not any((c.get("cref") or c.get("$ref")) == ref for c in children):
            children.append({"cref": ref})
            added += 1
    return added


@runtime_checkable
class PdfParser(Protocol):
    """Anything that turns a PDF path into a ParsedDoc."""

    def parse(self, path: str | Path) -> ParsedDoc:  # pragma: no cover - protocol
        ...
