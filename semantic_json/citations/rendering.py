"""A validated answer as a paragraph with [1], [2] source badges and a numbered source list (text, Markdown, HTML)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Optional
from urllib.parse import quote

from .models import RENDER_FORMATS, RegionProvenance, RenderFormat, ValidationReport


@dataclass(frozen=True)
class _Numbered:
    """Badge numbers of the cited regions: 1, 2, … in order of first citation across the answer."""

    numbers: dict[str, int]
    sources: list[RegionProvenance]
    #: The id each cited id is listed under (the source's citation id).
    listed: dict[str, str]


def _cited_id(source: RegionProvenance) -> str:
    """The id a source is listed under: its citation id, else (an older transport) its region id."""
    return source.citation_id or source.region_id


def _number_sources(report: ValidationReport) -> _Numbered:
    """Badge numbers by the ids as cited; a region cited by its citation id and by its positional alias is
    one source with one number."""
    numbers: dict[str, int] = {}
    listed: dict[str, str] = {}
    by_region: dict[str, int] = {}
    sources: list[RegionProvenance] = []
    for statement in report.accepted:
        for cited, source in zip(statement.citation_ids, statement.sources):
            key = _cited_id(source)
            if key not in by_region:
                by_region[key] = len(by_region) + 1
                sources.append(source)
            numbers[cited] = by_region[key]
            listed[cited] = key
    return _Numbered(numbers, sources, listed)


def _page_label(pages: Optional[list[int]]) -> Optional[str]:
    """'p. 3', 'pp. 3–5, 7' for 1-based pages; None when there are none."""
    if not pages:
        return None
    ordered = sorted(set(pages))
    runs: list[str] = []
    start = prev = ordered[0]
    for page in ordered[1:] + [None]:  # type: ignore[list-item]
        if page is not None and page == prev + 1:
            prev = page
            continue
        runs.append(str(start) if start == prev else f"{start}–{prev}")
        if page is not None:
            start = prev = page
    return ("p. " if len(ordered) == 1 else "pp. ") + ", ".join(runs)


def _line_label(source: RegionProvenance) -> Optional[str]:
    if source.start_line is None:
        return None
    if source.end_line is None or source.end_line == source.start_line:
        return f"line {source.start_line}"
    return f"lines {source.start_line}–{source.end_line}"


def _where(source: RegionProvenance) -> list[str]:
    """Page and line labels of a source, those that are present."""
    return [label for label in (_page_label(source.pages), _line_label(source)) if label]


#: Characters of a region id left as they are in a Markdown link fragment (the rest is percent-encoded).
MARKDOWN_FRAGMENT_SAFE = ":@-_.~"
_MARKDOWN_SPECIAL_RE = re.compile(r"([\\`*_\[\]<>|#])")


def _markdown_escape(text: str) -> str:
    return _MARKDOWN_SPECIAL_RE.sub(r"\\\1", text)


def _render_text(report: ValidationReport, numbered: _Numbered) -> str:
    sentences = [
        f"{s.sentence} " + "".join(f"[{numbered.numbers[cid]}]" for cid in s.citation_ids) for s in report.accepted
    ]
    lines = [" ".join(sentences)]
    if numbered.sources:
        lines += ["", "Sources:"]
        for n, source in enumerate(numbered.sources, 1):
            parts = [source.document_id or source.region_id, *_where(source)]
            tail = f" ({source.uri})" if source.uri else ""
            lines.append(f"[{n}] {', '.join(parts)}{tail} [{_cited_id(source)}]")
    return "\n".join(lines) + "\n" if report.accepted else ""


def _render_markdown(report: ValidationReport, numbered: _Numbered) -> str:
    def badge(cid: str) -> str:
        return f"[\\[{numbered.numbers[cid]}\\]](#{quote(numbered.listed[cid], safe=MARKDOWN_FRAGMENT_SAFE)})"

    sentences = [
        _markdown_escape(s.sentence) + " " + "".join(badge(cid) for cid in s.citation_ids) for s in report.accepted
    ]
    if not report.accepted:
        return ""
    lines = [" ".join(sentences), "", "**Sources**", ""]
    for n, source in enumerate(numbered.sources, 1):
        parts = [f"**{_markdown_escape(source.document_id or source.region_id)}**", *_where(source)]
        tail = f" <{source.uri}>" if source.uri and not re.search(r"[\s<>]", source.uri) else ""
        lines.append(f"{n}. {', '.join(parts)}{tail} `{_cited_id(source).replace('`', '')}`")
    return "\n".join(lines) + "\n"


def _render_html(report: ValidationReport, numbered: _Numbered) -> str:
    esc = html.escape

    def badge(cid: str) -> str:
        target = esc(numbered.listed[cid])
        return f'<a href="#{target}" data-region-id="{target}">[{numbered.numbers[cid]}]</a>'

    out = ['<div class="cited-answer">']
    if report.accepted:
        sentences = [
            f'<span class="statement">{esc(s.sentence)} <sup>{"".join(map(badge, s.citation_ids))}</sup></span>'
            for s in report.accepted
        ]
        out.append("<p>" + " ".join(sentences) + "</p>")
        out.append('<ol class="sources">')
        for source in numbered.sources:
            parts = [f"<strong>{esc(source.document_id or source.region_id)}</strong>", *map(esc, _where(source))]
            # The uri is shown, never linked: it comes from the transport and may use any scheme.
            uri = f' <span class="uri">{esc(source.uri)}</span>' if source.uri else ""
            region_id = esc(_cited_id(source))
            out.append(f'<li id="{region_id}" data-region-id="{region_id}">{", ".join(parts)}{uri}</li>')
        out.append("</ol>")
    out.append("</div>")
    return "\n".join(out) + "\n"


def render_answer(report: ValidationReport, format: RenderFormat = "text") -> str:
    """The accepted statements as one paragraph with [n] badges after each sentence, then the numbered
    sources (document, pages when present, lines). Badge numbers follow the order of first citation and are
    shared across sentences. `format` is "text", "markdown" or "html" (all text HTML-escaped, badges link to
    ``#<region id>`` and carry ``data-region-id``). An answer with nothing accepted renders empty (HTML: an
    empty container)."""
    renderers = {"text": _render_text, "markdown": _render_markdown, "html": _render_html}
    if format not in renderers:
        raise ValueError(f"format must be one of {', '.join(repr(f) for f in RENDER_FORMATS)}, got {format!r}")
    return renderers[format](report, _number_sources(report))
