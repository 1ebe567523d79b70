"""The documentation's shape: docs/benchmarks.md stays a page a user reads (its history lives in docs/history/),
and no relative link of README.md or docs/**/*.md points at a file or a heading that is not there."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from docs_run import PAGES, REPO

#: docs/benchmarks.md opens with one current table per benchmark; the round-by-round story is docs/history/.
BENCHMARKS_MAX_LINES = 400
FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
#: [text](target) or [text](target "title"); the text may hold escaped brackets ("[\[1\]](#a)").
LINK = re.compile(r"\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)
EXTERNAL = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")  # http:, https:, mailto:, file:


def prose(text: str) -> str:
    """A page's text without its fenced blocks and inline code (links shown as examples are not links)."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: its rendered text lower-cased, punctuation dropped (letters of any
    script, digits, "_" and "-" kept), spaces turned to "-"."""
    text = re.sub(r"!?\[((?:[^\]\\]|\\.)*)\]\([^)]*\)", r"\1", heading)  # a link's text, not its target
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """Every anchor of a Markdown page: its headings' slugs (a repeated one numbered "-1", "-2", as GitHub
    does) and explicit ids (``<a id=…>``, ``<a name=…>``)."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    found: set[str] = set()
    seen: dict[str, int] = {}
    for match in HEADING.finditer(text):
        base = slug(match.group(1))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", text))
    return found


def links(page: str) -> list[str]:
    return [m.group(1) for m in LINK.finditer(prose((REPO / page).read_text(encoding="utf-8")))]


def broken_links(page: str) -> list[str]:
    """The relative links of ``page`` whose file, or whose heading in one of our .md files, does not exist."""
    source = REPO / page
    broken = []
    for target in links(page):
        if EXTERNAL.match(target):
            continue
        path, _, anchor = target.partition("#")
        file = (source.parent / path).resolve() if path else source
        if not file.exists():
            broken.append(f"{target}: no file {file.relative_to(REPO) if file.is_relative_to(REPO) else file}")
        elif anchor and file.suffix == ".md" and file.is_relative_to(REPO) and anchor not in anchors(file):
            broken.append(f"{target}: no heading with anchor #{anchor} in {file.relative_to(REPO)}")
    return broken


def test_benchmarks_page_is_short_and_links_its_history():
    text = (REPO / "docs/benchmarks.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= BENCHMARKS_MAX_LINES, (
        f"docs/benchmarks.md has {len(text.splitlines())} lines (at most {BENCHMARKS_MAX_LINES}): keep one current "
        "table per benchmark there and move the story of how it got there to docs/history/benchmarks.md")
    assert "history/benchmarks.md" in links("docs/benchmarks.md")
    assert (REPO / "docs/history/benchmarks.md").is_file()


@pytest.mark.parametrize("page", PAGES)
def test_relative_links_point_at_existing_files_and_headings(page):
    assert broken_links(page) == []


def test_the_docs_pages_include_the_history():
    assert "docs/history/benchmarks.md" in PAGES


# ------------------------------------------------------------------------------------- the checker itself


def test_slugs_follow_github():
    assert slug("Search at scale: `benchmarks/bench_search_scale.py`") == "search-at-scale-benchmarksbench_search_scalepy"
    assert slug("Report text rules: `evidence_chunker/patterns.py`") == "report-text-rules-evidence_chunkerpatternspy"
    assert slug("Thirteenth round: records a user's own retriever can rank") == (
        "thirteenth-round-records-a-users-own-retriever-can-rank")
    assert slug("표 3. 원리금 상환 일정표") == "표-3-원리금-상환-일정표"
    assert slug("A [linked](x.md) heading") == "a-linked-heading"


def test_a_broken_link_is_found(tmp_path, monkeypatch):
    import test_docs_shape as module

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs/a.md").write_text("# Title\n\n## Two words\n\n## Two words\n", encoding="utf-8")
    (tmp_path / "docs/b.md").write_text(
        "[ok](a.md) [ok](a.md#two-words) [ok](a.md#two-words-1) [ok](#here) [ext](https://x.org/y#z)\n"
        "[bad](missing.md) [bad](a.md#nowhere)\n\n## Here\n\n```\n[not a link](gone.md)\n```\n"
        "`[not a link either](gone.md)`\n", encoding="utf-8")
    monkeypatch.setattr(module, "REPO", tmp_path)
    assert [b.split(":")[0] for b in module.broken_links("docs/b.md")] == ["missing.md", "a.md#nowhere"]
