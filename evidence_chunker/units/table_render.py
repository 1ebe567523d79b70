"""A table's two renderings by docling-core's serializers: HTML (cell spans kept) and compact Markdown (the
table in ``EvidenceUnit.text``)."""

from __future__ import annotations

from functools import cache

from docling_core.types.doc import TableData

from .leaders import without_leaders


def render_html(data: TableData) -> str:
    """The table as HTML by docling-core's serializer (no caption: EvidenceUnit carries it apart)."""
    return _serialize("html", data)


def render_markdown(data: TableData) -> str:
    """The table as a compact Markdown pipe table by docling-core's serializer (no caption, no padding).

    Stacked column headers become one header row ("2023 - Q2"); every other row is one line. It is the
    table in ``EvidenceUnit.text``: about 0.6 times the tokens of the HTML for the same cells (finqa_dev's
    tables), so a row-wise split under the token limit keeps more rows together. Dot leaders are collapsed
    (:mod:`.leaders`).
    """
    return _serialize("markdown", without_leaders(data))


def _serialize(kind: str, data: TableData) -> str:
    """``data`` as one table of an empty document, through docling-core's ``kind`` serializer."""
    from docling_core.types.doc import DocItemLabel, TableItem

    item = TableItem(self_ref="#/tables/0", label=DocItemLabel.TABLE, data=data)
    return _serializer(kind).serialize(item=item).text


@cache
def _serializer(kind: str):
    """docling-core's document serializer for ``kind`` ("html" or "markdown"), made once per process."""
    from docling_core.types.doc import DoclingDocument

    if kind == "html":
        from docling_core.transforms.serializer.html import HTMLDocSerializer

        return HTMLDocSerializer(doc=DoclingDocument(name="table"))
    from docling_core.transforms.serializer.markdown import MarkdownDocSerializer, MarkdownParams

    return MarkdownDocSerializer(doc=DoclingDocument(name="table"), params=MarkdownParams(compact_tables=True))
