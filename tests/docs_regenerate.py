"""Regenerating what README.md and docs/**/*.md show: each differing output rewritten from what its example
prints now, keeping the page's trims where they still hold (`python tests/docs_run.py --regenerate`, or
`make docs`). The running and comparing are tests/docs_run.py's."""

from __future__ import annotations

import difflib
import json
from pathlib import Path

from docs_run import ELLIPSIS, REPO, PageRun, Part, as_shown, line_pattern, normalise, part_matches, run_page


def difference(part: Part) -> str:
    """A unified diff of the shown output against what regenerating would write (matched trims unchanged)."""
    return "\n".join(difflib.unified_diff(as_shown(part.expected).splitlines(), regenerated(part).splitlines(),
                                          "shown", "printed", lineterm="", n=1))


# -------------------------------------------------------------------------------------- regenerating


def regenerated(part: Part) -> str:
    """The part's expected text rewritten from its actual output, keeping the page's trims where they hold."""
    actual = part.actual or ""
    if part.as_usage:
        return actual + "\n"
    if part.as_json:
        try:
            return dump_json(trim_like(json.loads(part.expected), json.loads(actual))) + "\n"
        except ValueError:
            pass
    shown = as_shown(part.expected).split("\n") if part.expected.strip() else []
    lines = align(shown, actual.split("\n") if actual else [])
    return "".join(line + "\n" for line in lines)


def align(shown: list[str], actual: list[str]) -> list[str]:
    """Actual lines, trimmed as the shown lines they replace were: a least-edits alignment in which a shown
    line that matches costs nothing and a line of "…" absorbs lines. A "…" is kept only where it still trims
    between the same neighbours (the shown lines around it, or the block's start or end, kept as they were);
    elsewhere the lines it would hide are shown."""
    inf = float("inf")
    n, m = len(shown), len(actual)
    cost = [[inf] * (m + 1) for _ in range(n + 1)]
    step: dict[tuple[int, int], str] = {}
    cost[n][m] = 0
    for i in range(n, -1, -1):
        for j in range(m, -1, -1):
            if i == n and j == m:
                continue
            options = []
            if i < n and shown[i].strip() == ELLIPSIS:
                options += [(cost[i + 1][j], "skip")] + ([(cost[i][j + 1], "absorb")] if j < m else [])
            elif i < n and j < m:
                same = line_pattern(normalise(shown[i])).fullmatch(normalise(actual[j])) is not None
                options.append((cost[i + 1][j + 1] + (0 if same else 1), "keep" if same else "replace"))
            if i < n:
                options.append((cost[i + 1][j] + 1, "drop"))
            if j < m:
                options.append((cost[i][j + 1] + 1, "insert"))
            cost[i][j], step[i, j] = min(options, key=lambda o: o[0])
    moves, i, j = [], 0, 0
    while i < n or j < m:
        move = step[i, j]
        moves.append((move, i, j))
        i += move in ("keep", "skip", "replace", "drop")
        j += move in ("keep", "absorb", "replace", "insert")
    out: list[str] = []
    k = 0
    while k < len(moves):
        move, i, j = moves[k]
        if move in ("absorb", "skip"):
            hidden = []
            while moves[k][0] == "absorb":
                hidden.append(actual[moves[k][2]])
                k += 1
            i = moves[k][1]  # the skip of this "…"
            first = next((m_ for m_ in moves[:k] if m_[0] != "absorb"), None) is None
            before = first or moves[k - len(hidden) - 1][:2] == ("keep", i - 1)
            after = moves[k + 1][:2] == ("keep", i + 1) if k + 1 < len(moves) else i + 1 == n
            out.extend([shown[i]] if before and after else hidden)
        elif move == "keep":
            out.append(shown[i])
        elif move == "replace":
            out.append(_trim_like(shown[i], actual[j]))
        elif move == "insert":
            out.append(actual[j])
        k += 1
    return out


def _trim_like(shown: str, actual: str) -> str:
    if shown.endswith(ELLIPSIS) and ELLIPSIS not in shown[:-1]:
        keep = len(shown) - 1
        if len(actual) <= keep:
            return actual
        cut = actual[:keep]
        return (cut[:cut.rfind(" ") + 1] if " " in cut else cut) + ELLIPSIS  # at a word's end, as written
    return actual


def trim_like(shown, actual):
    """`actual` with the trims of `shown` (a string cut with "…", a list ended by "…") applied again."""
    if isinstance(shown, dict) and isinstance(actual, dict):
        return {k: trim_like(shown[k], v) if k in shown else v for k, v in actual.items()}
    if isinstance(shown, list) and isinstance(actual, list):
        if shown and shown[-1] == ELLIPSIS:
            kept = len(shown) - 1
            return [trim_like(s, a) for s, a in zip(shown, actual[:kept])] + ([ELLIPSIS] if len(actual) > kept else [])
        return [trim_like(s, a) for s, a in zip(shown, actual)] + actual[len(shown):]
    if isinstance(shown, str) and isinstance(actual, str) and shown.endswith(ELLIPSIS):
        keep = len(shown) - 1
        return actual if len(actual) <= keep else actual[:keep] + ELLIPSIS
    return actual


#: A list of scalars is written on one line when that line stays this short.
JSON_LINE_WIDTH = 110


def dump_json(value, indent: int = 0) -> str:
    """JSON with two-space indents, short lists of scalars on one line, non-ASCII kept."""
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(value, dict) and value:
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dump_json(v, indent + 2)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + f"\n{pad}}}"
    one_line = json.dumps(value, ensure_ascii=False)
    nested = isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value)
    if isinstance(value, list) and value and (nested or indent + len(one_line) > JSON_LINE_WIDTH):
        return "[\n" + ",\n".join(inner + dump_json(v, indent + 2) for v in value) + f"\n{pad}]"
    return one_line


def differing(run: PageRun) -> list[Part]:
    """The parts of a page run whose output is not what the page shows."""
    return [p for b in run.blocks for p in b.parts if p.compare and p.actual is not None and not part_matches(p)]


def regenerate_page(page: str, root: Path) -> list[str]:
    """Rewrite the page's shown outputs that differ from what its examples print; the labels rewritten."""
    run = run_page(page, root)
    if run.failures:
        failed = "; ".join(f"{run.blocks[i].name}: {why}" for i, why in run.failures.items())
        raise RuntimeError(f"{page}: examples fail, nothing rewritten: {failed}")
    text = (REPO / page).read_text(encoding="utf-8")
    changed = differing(run)
    for part in sorted(changed, key=lambda p: p.start, reverse=True):
        text = text[:part.start] + regenerated(part) + text[part.end:]
    if changed:
        (REPO / page).write_text(text, encoding="utf-8")
    return [p.label.splitlines()[0][:80] for p in changed]
