#!/usr/bin/env python3
"""Benchmark the lite parser's tables against Docling's on real PDFs, and its speed.

    python benchmarks/bench_lite_parser.py [--corpus DIR] [--samples DIR] [--compare] [--verbose]

``--corpus`` (default ``../shared/corpus/docling_gt`` next to the repository) holds PDFs with the
DoclingDocument JSON Docling's models made for them: ``docling/pdf/X.pdf`` with
``docling/groundtruth/X.json`` and ``docling-cvat-tools/F/input.pdf`` with ``expected.json``. For each
PDF the script prints pages per second and, against Docling's tables (label ``table`` or
``document_index``):

* loose recall: a Docling table counts as found when one predicted table on its page covers at least
  half of its box;
* IoU recall: the same with intersection over union of at least one half (stricter);
* precision: a predicted table counts as correct when at least half of its area lies inside Docling's
  tables on its page (a page-sized box covering everything is not rewarded);
* cells: the share of Docling's non-empty cell texts that the predicted tables overlapping that table
  recover exactly, after whitespace normalisation (tables not found count as zero).

Docling's output is model output, not ground truth: it merges rows now and then, normalises quotes and
dashes and keeps dot leaders in tables of contents, so 100% is neither reachable nor the goal.

``--samples`` (default ``sample_pdfs``) adds pages per second and tables found on the sample reports.
``--compare`` also runs pdfplumber (``lines`` and ``text`` strategies) and camelot (``hybrid``,
``network``, ``lattice``) when they are installed, for the same figures. Wall-clock times depend on
what else the machine runs; CPU seconds are printed too. The script prints and never asserts.
"""

from __future__ import annotations

import argparse
import logging
import re
import sys
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from paths import DOCLING_GT, REPO, SAMPLE_PDFS  # noqa: E402

sys.path.insert(0, str(REPO))

#: A predicted box must cover this share of a Docling table's box to find it.
COVERAGE = 0.5
_SPACES = re.compile(r"\s+")

Box = tuple[float, float, float, float]  # l, t, r, b in PDF points, BOTTOMLEFT (t > b)


@dataclass
class Table:
    page: int
    box: Box
    cells: list[str]


@dataclass
class Score:
    name: str
    pages: int = 0
    wall: float = 0.0
    cpu: float = 0.0
    gt_tables: int = 0
    found: int = 0
    found_iou: int = 0
    predicted: int = 0
    correct: float = 0
    cells_total: int = 0
    cells_found: int = 0
    errors: list[str] = field(default_factory=list)

    def add(self, other: "Score") -> None:
        for name in ("pages", "wall", "cpu", "gt_tables", "found", "found_iou", "predicted", "correct",
                     "cells_total", "cells_found"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.errors += other.errors


def norm(text: str | None) -> str:
    return _SPACES.sub(" ", text or "").strip()


def area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[1] - box[3])


def overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[1], b[1]) - max(a[3], b[3])
    return max(0.0, w) * max(0.0, h)


# ---------------------------------------------------------------------------------------------
# Docling's tables
# ---------------------------------------------------------------------------------------------


def corpus_pairs(corpus: Path) -> list[tuple[str, Path, Path]]:
    """(name, pdf, json) for every corpus PDF that has a Docling JSON."""
    pairs = []
    for pdf in sorted((corpus / "docling" / "pdf").glob("*.pdf")):
        js = corpus / "docling" / "groundtruth" / f"{pdf.stem}.json"
        if js.is_file():
            pairs.append((pdf.stem, pdf, js))
    cvat = corpus / "docling-cvat-tools"
    if cvat.is_dir():
        for folder in sorted(p for p in cvat.iterdir() if p.is_dir()):
            if (folder / "input.pdf").is_file() and (folder / "expected.json").is_file():
                pairs.append((folder.name, folder / "input.pdf", folder / "expected.json"))
    return pairs


def docling_tables(pdf: Path, js: Path) -> list[Table]:
    """Docling's tables as boxes in PDF points (cvat JSONs are in 144-dpi pixels: scaled)."""
    import pypdfium2 as pdfium
    from docling_core.types.doc import CoordOrigin, DocItemLabel

    from evidence_chunker.parsing.parsed import ParsedDoc

    doc = ParsedDoc.from_docling_json(js).document
    document = pdfium.PdfDocument(str(pdf))
    try:
        widths = [document[i].get_size()[0] for i in range(len(document))]
    finally:
        document.close()
    out = []
    for table in doc.tables:
        if table.label not in (DocItemLabel.TABLE, DocItemLabel.DOCUMENT_INDEX):
            continue
        for prov in table.prov:
            page = doc.pages[prov.page_no]
            bbox = prov.bbox
            if bbox.coord_origin != CoordOrigin.BOTTOMLEFT:
                bbox = bbox.to_bottom_left_origin(page.size.height)
            scale = widths[prov.page_no - 1] / page.size.width
            box = (bbox.l * scale, bbox.t * scale, bbox.r * scale, bbox.b * scale)
            out.append(Table(prov.page_no, box, [c.text for c in table.data.table_cells]))
    return out


# ---------------------------------------------------------------------------------------------
# Table finders
# ---------------------------------------------------------------------------------------------

Finder = Callable[[Path], tuple[list[Table], int]]


def lite_finder(settings: dict | None = None) -> Finder:
    from evidence_chunker.parsing.lite.parser import LiteParser

    parser = LiteParser(settings=settings)

    def find(pdf: Path) -> tuple[list[Table], int]:
        parsed = parser.parse(pdf)
        out = []
        for table in parsed.document.tables:
            prov = table.prov[0]
            b = prov.bbox
            out.append(Table(prov.page_no, (b.l, b.t, b.r, b.b), [c.text for c in table.data.table_cells]))
        return out, parsed.page_count

    return find


def pdfplumber_finder(strategy: str) -> Finder:
    import pdfplumber

    def find(pdf: Path) -> tuple[list[Table], int]:
        out = []
        with pdfplumber.open(pdf) as document:
            for number, page in enumerate(document.pages, start=1):
                settings = {"vertical_strategy": strategy, "horizontal_strategy": strategy}
                for table in page.find_tables(settings):
                    x0, top, x1, bottom = table.bbox
                    cells = [c for row in table.extract() for c in row if c]
                    out.append(Table(number, (x0, page.height - top, x1, page.height - bottom), cells))
            return out, len(document.pages)

    return find


def camelot_finder(flavor: str) -> Finder:
    import camelot
    import pypdfium2 as pdfium

    def find(pdf: Path) -> tuple[list[Table], int]:
        document = pdfium.PdfDocument(str(pdf))
        pages = len(document)
        document.close()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tables = camelot.read_pdf(str(pdf), pages="all", flavor=flavor)
        out = []
        for table in tables:
            x1, y1, x2, y2 = table._bbox
            cells = [str(v) for v in table.df.values.ravel() if str(v).strip()]
            out.append(Table(int(table.page), (x1, y2, x2, y1), cells))
        return out, pages

    return find


# ---------------------------------------------------------------------------------------------
# Scoring
# ---------------------------------------------------------------------------------------------


def score(name: str, finder: Finder, pdf: Path, truth: list[Table]) -> Score:
    result = Score(name)
    wall, cpu = time.perf_counter(), time.process_time()
    try:
        predicted, pages = finder(pdf)
    except Exception as exc:  # a benchmark reports failures, it does not stop on them
        result.errors.append(f"{pdf.name}: {type(exc).__name__}: {exc}")
        return result
    result.wall = time.perf_counter() - wall
    result.cpu = time.process_time() - cpu
    result.pages = pages
    result.gt_tables = len(truth)
    result.predicted = len(predicted)
    for gt in truth:
        same_page = [p for p in predicted if p.page == gt.page]
        covering = [p for p in same_page if area(gt.box) > 0 and overlap(p.box, gt.box) >= COVERAGE * area(gt.box)]
        result.found += bool(covering)
        result.found_iou += any(
            overlap(p.box, gt.box) >= 0.5 * (area(p.box) + area(gt.box) - overlap(p.box, gt.box)) for p in covering
        )
        wanted = [norm(c) for c in gt.cells if norm(c)]
        have = {norm(c) for p in same_page if overlap(p.box, gt.box) > 0 for c in p.cells}
        result.cells_total += len(wanted)
        result.cells_found += sum(1 for c in wanted if c in have)
    for p in predicted:
        inside = sum(overlap(p.box, gt.box) for gt in truth if gt.page == p.page)
        result.correct += inside >= 0.5 * max(area(p.box), 1e-6)
    return result


def pct(num: float, den: float) -> str:
    return f"{100 * num / den:5.1f}%" if den else "    -"


def print_rows(rows: list[Score]) -> None:
    print(f"{'':44s} {'pages':>5s} {'pg/s':>6s} {'cpu s/pg':>8s} {'Docling':>7s} {'found':>5s} "
          f"{'pred':>4s} {'recall':>6s} {'IoU rec':>7s} {'prec':>6s} {'cells':>6s}")
    for r in rows:
        speed = f"{r.pages / r.wall:6.1f}" if r.wall else "     -"
        cpu = f"{r.cpu / r.pages:8.3f}" if r.pages else "       -"
        print(f"{r.name[:44]:44s} {r.pages:5d} {speed} {cpu} {r.gt_tables:7d} {r.found:5d} {r.predicted:4d} "
              f"{pct(r.found, r.gt_tables)} {pct(r.found_iou, r.gt_tables):>7s} {pct(r.correct, r.predicted)} "
              f"{pct(r.cells_found, r.cells_total)}")


def run_corpus(corpus: Path, finders: dict[str, Finder], verbose: bool) -> dict[str, Score]:
    pairs = corpus_pairs(corpus)
    print(f"\nCorpus: {corpus} ({len(pairs)} PDFs with a Docling JSON)")
    truth = {}
    for name, pdf, js in pairs:
        try:
            truth[name] = docling_tables(pdf, js)
        except Exception as exc:
            print(f"  skipped {name}: cannot read its Docling JSON ({exc})")
    totals = {}
    for label, finder in finders.items():
        total = Score(label)
        rows = []
        for name, pdf, _ in pairs:
            if name in truth:
                row = score(name, finder, pdf, truth[name])
                rows.append(row)
                total.add(row)
        if verbose:
            print(f"\n[{label}] per PDF")
            print_rows(rows)
        for error in total.errors:
            print(f"  {label}: {error}")
        totals[label] = total
    return totals


def run_samples(samples: Path, parser_settings: dict | None) -> None:
    from evidence_chunker.parsing.lite.parser import LiteParser

    pdfs = sorted(samples.glob("*.pdf"))
    if not pdfs:
        print(f"\nSamples: none in {samples}; skipped")
        return
    parser = LiteParser(settings=parser_settings)
    print(f"\nSample PDFs: {samples}")
    print(f"{'file':28s} {'pages':>5s} {'pg/s':>6s} {'cpu s/pg':>8s} {'tables':>6s} {'texts':>5s}  table sizes (rows x cols)")
    pages = wall = 0.0
    for pdf in pdfs:
        t0, c0 = time.perf_counter(), time.process_time()
        parsed = parser.parse(pdf)
        dt, dc = time.perf_counter() - t0, time.process_time() - c0
        pages += parsed.page_count
        wall += dt
        doc = parsed.document
        sizes = ", ".join(f"p{t.prov[0].page_no}:{t.data.num_rows}x{t.data.num_cols}" for t in doc.tables)
        print(f"{pdf.name:28s} {parsed.page_count:5d} {parsed.page_count / dt:6.1f} {dc / parsed.page_count:8.3f} "
              f"{len(doc.tables):6d} {len(doc.texts):5d}  {sizes}")
    print(f"{'all samples':28s} {int(pages):5d} {pages / wall:6.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DOCLING_GT)
    parser.add_argument("--samples", type=Path, default=SAMPLE_PDFS)
    parser.add_argument("--compare", action="store_true", help="also run pdfplumber and camelot")
    parser.add_argument("--verbose", "-v", action="store_true", help="print a row per PDF")
    args = parser.parse_args(argv)

    finders: dict[str, Finder] = {"lite (LiteParser)": lite_finder()}
    if args.compare:
        for noisy in ("pdfminer", "playa"):  # font-encoding chatter from camelot's PDF readers
            logging.getLogger(noisy).setLevel(logging.ERROR)
        try:
            finders["pdfplumber lines"] = pdfplumber_finder("lines")
            finders["pdfplumber text"] = pdfplumber_finder("text")
        except ImportError:
            print("pdfplumber not installed: not compared")
        try:
            __import__("camelot")
            for flavor in ("hybrid", "network", "lattice"):
                finders[f"camelot {flavor}"] = camelot_finder(flavor)
        except ImportError:
            print("camelot not installed: not compared")

    corpus = args.corpus.resolve()
    if corpus.is_dir():
        totals = run_corpus(corpus, finders, args.verbose)
        print("\nSummary over the corpus")
        print_rows(list(totals.values()))
    else:
        print(f"Corpus not found at {corpus}: table scores skipped (pass --corpus DIR)")
    samples = args.samples if args.samples.is_absolute() else (Path.cwd() / args.samples)
    if not samples.is_dir():
        samples = REPO / args.samples
    if samples.is_dir():
        run_samples(samples, None)
    else:
        print(f"\nSamples not found at {args.samples}: skipped")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
