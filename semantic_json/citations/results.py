"""The search-result side of the oracle: the regions of a SearchResult (or its transport dict / JSON) by id."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Optional

from ..errors import TransportFormatError
from ..transport import TRANSPORT_SCHEMA_ID, citation_id, region_id_problem, repeated_ids
from .models import RegionProvenance
from .numbers import _NumberIndex


@dataclass(frozen=True)
class _Region:
    """What the oracle needs of one region: its provenance fields and its text."""

    region_id: str
    document_id: Optional[str]
    uri: Optional[str]
    pages: Optional[tuple[int, ...]]
    start_char: Optional[int]
    end_char: Optional[int]
    start_line: Optional[int]
    end_line: Optional[int]
    document_sha256: Optional[str]
    text: str
    #: The table unit the source states ("in millions", "단위: 백만원"), for scaled numbers.
    unit: Optional[str] = None

    @property
    def citation_id(self) -> Optional[str]:
        """The stable id, when the source gives the document, span and hash it is made of."""
        if None in (self.document_id, self.start_char, self.end_char, self.document_sha256):
            return None
        return citation_id(self.document_id, self.start_char, self.end_char, self.document_sha256)  # type: ignore[arg-type]

    def provenance(self) -> RegionProvenance:
        return RegionProvenance(
            region_id=self.region_id,
            citation_id=self.citation_id,
            document_id=self.document_id,
            uri=self.uri,
            pages=list(self.pages) if self.pages is not None else None,
            start_char=self.start_char,
            end_char=self.end_char,
            start_line=self.start_line,
            end_line=self.end_line,
            document_sha256=self.document_sha256,
        )


@dataclass
class _Catalog:
    """The regions of one search result by id, each under its region id and its citation id; `ids` is the
    frozenset every citation is checked against, `citation_ids` the ids a model is asked to cite."""

    regions: dict[str, _Region]
    #: Ids of the result that name no region to trust (id → why): an id that does not belong to its region's
    #: source, or that two regions hold.
    refused: dict[str, str] = field(default_factory=dict)
    ids: frozenset[str] = field(init=False)
    citation_ids: list[str] = field(init=False)
    _provenance: dict[str, RegionProvenance] = field(default_factory=dict, init=False, repr=False)
    _numbers: dict[str, "_NumberIndex"] = field(default_factory=dict, init=False, repr=False)

    def __post_init__(self) -> None:
        cited: dict[str, None] = {}
        for region in list(self.regions.values()):
            stable = region.citation_id
            if stable is not None and stable not in self.refused:
                self.regions.setdefault(stable, region)
            cited.setdefault(stable or region.region_id, None)
        self.ids = frozenset(self.regions)
        self.citation_ids = sorted(cited)

    def provenance(self, region_id: str) -> RegionProvenance:
        cached = self._provenance.get(region_id)
        if cached is None:
            cached = self._provenance[region_id] = self.regions[region_id].provenance()
        return cached

    def numbers(self, region_id: str) -> "_NumberIndex":
        cached = self._numbers.get(region_id)
        if cached is None:
            region = self.regions[region_id]
            cached = self._numbers[region_id] = _NumberIndex.of(region.text, region.unit)
        return cached


def _as_transport_dict(result: Any) -> Any:
    """The transport payload of `result`: a SearchResult (anything with to_dict()), a dict or JSON text."""
    if isinstance(result, (bytes, bytearray)):
        try:
            result = bytes(result).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise TransportFormatError(f"search result is not UTF-8 JSON text: {exc}") from exc
    if isinstance(result, str):
        try:
            return json.loads(result)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise TransportFormatError(f"search result is not JSON: {exc}") from exc
    if isinstance(result, Mapping):
        return result
    to_dict = getattr(result, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    if isinstance(result, Iterable):
        return list(result)
    raise TransportFormatError(
        f"expected a SearchResult, a {TRANSPORT_SCHEMA_ID} dict or its JSON text, got {type(result).__name__}"
    )


def _region_dict(region: Any) -> Any:
    """A region as a dict (EvidenceRegion and other pydantic models are dumped)."""
    if isinstance(region, Mapping):
        return region
    dump = getattr(region, "model_dump", None)
    if callable(dump):
        return dump(mode="json")
    to_dict = getattr(region, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return region


def _optional(value: Any, kind: type, path: str) -> Any:
    if value is None or (isinstance(value, kind) and not isinstance(value, bool)):
        return value
    raise TransportFormatError(f"{path}: expected {kind.__name__} or null, got {type(value).__name__}")


def _make_region(region: Any, document: Mapping[str, Any], path: str) -> _Region:
    region = _region_dict(region)
    if not isinstance(region, Mapping):
        raise TransportFormatError(f"{path}: expected a region object, got {type(region).__name__}")
    region_id = region.get("region_id")
    if not isinstance(region_id, str) or not region_id:
        raise TransportFormatError(f"{path}.region_id: expected a non-empty string, got {region_id!r}")
    source = region.get("source") or {}
    if not isinstance(source, Mapping):
        raise TransportFormatError(f"{path}.source: expected an object, got {type(source).__name__}")
    pages = source.get("pages")
    if pages is not None:
        if not isinstance(pages, list) or not all(isinstance(p, int) and not isinstance(p, bool) for p in pages):
            raise TransportFormatError(f"{path}.source.pages: expected an array of integers, got {pages!r}")
        pages = tuple(pages)
    text = region.get("text", "")
    if not isinstance(text, str):
        raise TransportFormatError(f"{path}.text: expected a string, got {type(text).__name__}")
    return _Region(
        region_id=region_id,
        document_id=_optional(
            source.get("document_id") or region.get("document_id") or document.get("document_id"),
            str,
            f"{path}.source.document_id",
        ),
        uri=_optional(source.get("uri") or document.get("source_uri"), str, f"{path}.source.uri"),
        pages=pages,
        start_char=_optional(source.get("start_char"), int, f"{path}.source.start_char"),
        end_char=_optional(source.get("end_char"), int, f"{path}.source.end_char"),
        start_line=_optional(source.get("start_line"), int, f"{path}.source.start_line"),
        end_line=_optional(source.get("end_line"), int, f"{path}.source.end_line"),
        document_sha256=_optional(
            source.get("document_sha256") or document.get("document_sha256"), str, f"{path}.source.document_sha256"
        ),
        text=text,
        unit=source.get("unit") if isinstance(source.get("unit"), str) else None,
    )


def _catalog(result: Any) -> _Catalog:
    """Index the regions of `result` by id (an id two regions hold, or one that does not belong to its region's
    source, is refused: see _trusted_catalog); TransportFormatError if it is no transport."""
    payload = _as_transport_dict(result)
    if isinstance(payload, list):  # a plain list of regions (e.g. list(search_result))
        return _trusted_catalog([(_make_region(region, {}, f"regions[{i}]"), None) for i, region in enumerate(payload)])
    if not isinstance(payload, Mapping):
        raise TransportFormatError(f"search result must be a JSON object, got {type(payload).__name__}")
    schema = payload.get("schema", TRANSPORT_SCHEMA_ID)
    if schema != TRANSPORT_SCHEMA_ID:
        raise TransportFormatError(
            f"search result has schema {schema!r}; cited answers are checked against {TRANSPORT_SCHEMA_ID} results"
        )
    documents = payload.get("documents")
    if not isinstance(documents, list):
        raise TransportFormatError(
            f"search result has no 'documents' array (got {type(documents).__name__}); "
            f"pass a SearchResult or its {TRANSPORT_SCHEMA_ID} JSON"
        )
    made: list[tuple[_Region, str | None]] = []
    for d, document in enumerate(documents):
        if not isinstance(document, Mapping) or not isinstance(document.get("regions"), list):
            raise TransportFormatError(f"documents[{d}]: expected an object with a 'regions' array")
        for r, region in enumerate(document["regions"]):
            made.append((_make_region(region, document, f"documents[{d}].regions[{r}]"), document.get("document_id")))
    return _trusted_catalog(made)


def _trusted_catalog(made: list[tuple[_Region, Any]]) -> _Catalog:
    """The catalog of ``made`` (each region with the document id of its transport entry), leaving out, as
    ``refused``, every id that does not belong to its region's source or that two regions hold."""
    repeated = repeated_ids(((region.region_id, region.citation_id or region.region_id), region) for region, _ in made)
    regions: dict[str, _Region] = {}
    refused: dict[str, str] = {}
    for region, entry_document in made:
        ids = list(dict.fromkeys(i for i in (region.region_id, region.citation_id) if i is not None))
        why = region_id_problem(region.region_id, region.document_id, region.start_char, region.end_char,
                                region.document_sha256)
        if why is None and isinstance(entry_document, str) and entry_document != region.document_id:
            why = f"the region is listed under document {entry_document!r}, its source is {region.document_id!r}"
        for region_id in ids:
            if region_id in repeated:
                refused[region_id] = f"{repeated[region_id]} regions of the result have this id"
            elif why is not None:
                refused[region_id] = why
            else:
                regions.setdefault(region_id, region)
    return _Catalog(regions, refused)


def result_region_ids(result: Any) -> list[str]:
    """The ids a model cites for the regions of a search result (SearchResult, transport dict or JSON text):
    each region's citation id (its region id when the source lacks what one is made of), sorted."""
    return _catalog(result).citation_ids
