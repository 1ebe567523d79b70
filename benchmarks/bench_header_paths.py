"""Is every value filed under its own row and column header? Hand-checked cells of real filings, one by one.

    python benchmarks/bench_header_paths.py [--gold FILE ...] [--pdf-dir ../shared/corpus/finqa_dev/pdfs]
                                            [--cache DIR] [--show N] [--pages-only [N]]

The gold set (``benchmarks/data/header_paths_gold.jsonl``: 469 cells of 97 tables in 51 finqa_dev filings,
read by two people from page images, see ``benchmarks/data/README.md``) holds cells read from the rendered
pages, never from a parser's output: pdf, 1-based page, the row label as printed, the column's heading path top
down (``["Capital Expenditures", "2022"]``), the value as printed and the layout ``kind``.

What is checked is the text an LLM reads: the Evidence Units' ``flattened_rows`` ("row header | column
header: value; ..."), which the semantic bridge (``evidence_chunker/export/semantic.py``) writes into the
index under the unit's title line and header lines. For every gold cell the script parses its PDF with
the lite parser (``--cache``: the benchmarks' parse cache, see ``parse_cache.py``), builds the units as
``sjt chunk`` does (``EvidenceChunker.chunk_parsed``: units split under the token limit), takes the units
whose pages include the gold page, reads their flattened rows back into (row label, column label, value)
and files the cell as

* **correct**: a row whose label matches the gold row holds the value under a column label that contains
  every part of the gold column path;
* **wrong header**: the value is in such a row, but its column label misses a part or names another column
  (``no header`` when the value stands under no column label at all);
* **missing**: no row of that label holds the value.

Texts are compared normalised: case, whitespace, punctuation (commas, colons, periods, brackets of a
footnote mark) and "$" do not count; a row label matches when it is the row header's last part (after
the section labels " > ") or, failing that, when one contains the other. Totals are printed overall and
per ``kind``, with the cl100k tokens of every flattened row of those filings (what the column labels
cost), then every wrong and missing cell with what its rows say (``--show``: how many). ``--pages-only N``
parses only the gold pages and N pages either side of each (default 3; what the parser reads across pages,
running headers and the body size, comes from that window), a faster approximation for iterating on the
parser: report figures from the full run. A wrong cell
whose missing heading parts stand in the unit's title line (caption, period) is counted apart too: the
reader sees them, but not beside the value. The script prints and never asserts.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from parse_cache import cached_parse  # noqa: E402
from paths import FINQA_PDFS, REPO  # noqa: E402

from evidence_chunker.units.tables import PAIR_SEP, ROW_HEADER_SEP, SECTION_SEP, VALUE_SEP  # noqa: E402

GOLD_DIR = REPO / "benchmarks" / "data"
#: The gold set.
GOLD = GOLD_DIR / "header_paths_gold.jsonl"
#: Wrong and missing cells listed by default.
DEFAULT_SHOW = 60
#: Pages either side of a gold page that ``--pages-only`` parses with it.
DEFAULT_WINDOW = 3
CORRECT, WRONG, MISSING = "correct", "wrong", "missing"

_FOOTNOTE = re.compile(r"\s*\((?:[a-z]|\d{1,2})\)$|\s*\*+$")


def norm_text(text: str) -> str:
    """Lower case, "$", punctuation and runs of whitespace gone: the form labels are compared in."""
    text = text.casefold().replace("$", " ").replace("’", "'")
    text = re.sub(r"[,:;.'\"/|()\[\]*]", " ", text)
    return " ".join(text.split())


def norm_value(text: str) -> str:
    """A value as compared: no "$", whitespace or thousands commas; an em dash and a hyphen read alike."""
    text = text.replace("$", "").replace(",", "").replace("—", "-").replace("–", "-")
    return "".join(text.split())


def label_matches(head: str, gold_row: str) -> int:
    """How well a flattened row's header ``head`` names ``gold_row``: 2 when its last part (after the
    section labels) is the label, 1 when one of the two contains the other, 0 when it does not name it."""
    want = norm_text(_FOOTNOTE.sub("", gold_row))
    if not want:
        return 0
    last = norm_text(_FOOTNOTE.sub("", head.split(SECTION_SEP)[-1]))
    if last == want:
        return 2
    whole = norm_text(head)
    return 1 if last and (want in whole or last in want) else 0


def header_holds(label: str, path: list[str]) -> list[str]:
    """The parts of the gold column ``path`` that the column ``label`` does not contain (word-aligned)."""
    have = f" {norm_text(label)} "
    return [part for part in path if norm_text(part) and f" {norm_text(part)} " not in have]


def value_matches(found: str, gold: str) -> bool:
    a, b = norm_value(found), norm_value(gold)
    return a == b or a.rstrip("%") == b.rstrip("%") and bool(b.rstrip("%"))


@dataclass
class FlatRow:
    """One flattened row read back: its header and its (column label, value) pairs."""

    head: str
    pairs: list[tuple[str, str]]
    line: str
    unit: str
    title: str


def read_flattened(line: str, unit_id: str, title: str) -> FlatRow | None:
    """``"head | label: value; label: value"`` as a FlatRow (a pair without a label has label "")."""
    if not line:
        return None
    head, sep, body = line.partition(ROW_HEADER_SEP)
    if not sep:
        head, body = "", line
    pairs = []
    for pair in body.split(PAIR_SEP):
        label, sep, value = pair.rpartition(VALUE_SEP)
        pairs.append((label, value) if sep else ("", pair))
    return FlatRow(head, pairs, line, unit_id, title)


@dataclass
class Verdict:
    outcome: str
    found: list[str] = field(default_factory=list)
    no_header: bool = False
    in_title: bool = False


def classify(cell: dict, rows: list[FlatRow]) -> Verdict:
    """File one gold cell against the flattened rows of the units on its page."""
    path = [p for p in cell["column_path"] if p and p.strip()]
    best = Verdict(MISSING)
    holding: list[tuple[FlatRow, str, list[str]]] = []
    for row in rows:
        if not label_matches(row.head, cell["row"]):
            continue
        for label, value in row.pairs:
            if value_matches(value, cell["value"]):
                holding.append((row, label, header_holds(label, path)))
    if any(not missing for _, _, missing in holding):
        return Verdict(CORRECT)
    if holding:
        best = Verdict(WRONG, [f"[{row.unit}] {row.line}  -> lacks {missing}" for row, _, missing in holding])
        best.no_header = all(not label for _, label, _ in holding)
        best.in_title = any(not header_holds(row.title, missing) for row, _, missing in holding)
        return best
    value = norm_value(cell["value"])
    best.found = [f"[{row.unit}] {row.line}" for row in rows if label_matches(row.head, cell["row"])][:2]
    best.found += [f"(value elsewhere) [{row.unit}] {row.line}" for row in rows
                   if any(norm_value(v) == value for _, v in row.pairs)][:2]
    return best


def load_gold(files: list[Path]) -> list[dict]:
    cells = []
    for path in files:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if line.strip():
                cell = json.loads(line)
                cell["source"] = f"{path.name}:{number}"
                cells.append(cell)
    return cells


def default_gold() -> list[Path]:
    return [GOLD] if GOLD.is_file() else []


def page_rows(units, page: int) -> list[FlatRow]:
    """The flattened rows of every unit whose pages include ``page``."""
    out = []
    for eu in units:
        if page not in eu.page_span:
            continue
        title = eu.title_line or ""
        out.extend(r for r in (read_flattened(line, eu.eu_id, title) for line in eu.flattened_rows) if r)
    return out


def gold_windows(pages: list[int], window: int) -> list:
    """The PageRanges covering every page of ``pages`` (1-based, sorted) and ``window`` pages either side,
    overlapping windows joined (a range may run past the last page: the parser stops there)."""
    from evidence_chunker.parsing.pages import PageRange

    spans: list[list[int]] = []
    for page in pages:
        first, last = max(1, page - window), page + window
        if spans and first <= spans[-1][1] + 1:
            spans[-1][1] = last
        else:
            spans.append([first, last])
    return [PageRange(first, last) for first, last in spans]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gold", type=Path, nargs="+", default=None,
                    help=f"gold JSONL file(s) (default: {GOLD.name}, else its parts _a and _b)")
    ap.add_argument("--pdf-dir", type=Path, default=FINQA_PDFS, help=f"folder of the PDFs (default: {FINQA_PDFS})")
    ap.add_argument("--cache", type=Path, default=None, help="parse cache folder (see benchmarks/parse_cache.py)")
    ap.add_argument("--show", type=int, default=DEFAULT_SHOW, help="wrong and missing cells listed")
    ap.add_argument("--pages-only", type=int, nargs="?", const=DEFAULT_WINDOW, default=None, metavar="N",
                    help=f"parse only the gold pages and N pages either side (default {DEFAULT_WINDOW}): a faster "
                         "approximation for iterating; report the full run")
    args = ap.parse_args(argv)
    files = args.gold or default_gold()
    if not files:
        print(f"no gold file: {GOLD} (nor its parts)")
        return 1
    cells = load_gold(files)
    from evidence_chunker import EvidenceChunker

    from evidence_chunker.tokens import count_tokens

    chunker = EvidenceChunker(parser="lite")
    row_tokens = unit_count = 0
    verdicts: list[tuple[dict, Verdict]] = []
    by_pdf: dict[str, list[dict]] = defaultdict(list)
    for cell in cells:
        by_pdf[cell["pdf"]].append(cell)
    for name, group in sorted(by_pdf.items()):
        pdf = args.pdf_dir / name
        if not pdf.is_file():
            print(f"missing PDF: {pdf} ({len(group)} cells counted as missing)")
            verdicts.extend((cell, Verdict(MISSING, ["(no PDF)"])) for cell in group)
            continue
        pages = sorted({int(cell["page"]) for cell in group})
        ranges = [None] if args.pages_only is None else gold_windows(pages, args.pages_only)
        for page_range in ranges:
            units = chunker.chunk_parsed(cached_parse(pdf, args.cache, page_range=page_range))
            unit_count += len(units)
            row_tokens += sum(count_tokens(row) for eu in units for row in eu.flattened_rows if row)
            for cell in group:
                page = int(cell["page"])
                if page_range is None or page_range.first <= page <= page_range.last:
                    verdicts.append((cell, classify(cell, page_rows(units, page))))
    tables = {(c["pdf"], c["page"], c.get("table", "")) for c in cells}
    print(f"{len(cells)} gold cells in {len(tables)} tables of {len(by_pdf)} filings "
          f"({', '.join(p.name for p in files)})")
    print(f"flattened rows of every unit of these filings: {row_tokens:,} cl100k tokens in {unit_count} units "
          f"({row_tokens / max(1, unit_count):.0f} per unit)")
    kinds: dict[str, Counter] = defaultdict(Counter)
    for cell, verdict in verdicts:
        for key in ("all", cell.get("kind") or "other"):
            kinds[key][verdict.outcome] += 1
            kinds[key]["no_header"] += verdict.no_header
            kinds[key]["in_title"] += verdict.in_title
    print(f"{'kind':<16}{'cells':>6}{'correct':>14}{'wrong':>14}{'missing':>14}  (wrong: no header / parts in title)")
    for key in ["all", *sorted(k for k in kinds if k != "all")]:
        c = kinds[key]
        n = c[CORRECT] + c[WRONG] + c[MISSING]
        shares = "".join(f"{c[o]:>6} {c[o] / n:6.1%}" for o in (CORRECT, WRONG, MISSING))
        print(f"{key:<16}{n:>6}  {shares}  ({c['no_header']} / {c['in_title']})")
    shown = 0
    for outcome in (WRONG, MISSING):
        listed = [(c, v) for c, v in verdicts if v.outcome == outcome]
        if listed:
            print(f"\n{outcome} ({len(listed)}):")
        for cell, verdict in listed:
            if shown >= args.show:
                break
            shown += 1
            print(f"- {cell['pdf']} p{cell['page']} [{cell.get('kind')}] {cell.get('table', '')!r}: "
                  f"{cell['row']!r} @ {' / '.join(cell['column_path'])} = {cell['value']}")
            for line in verdict.found or ["(no row of that label on the page)"]:
                print(f"    {line[:300]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
