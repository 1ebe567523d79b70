#!/usr/bin/env python3
"""Benchmark OCR in the lite parser on scans made from born-digital PDFs, against the born-digital text.

    python benchmarks/bench_ocr.py [--dpi N] [--finqa-pages N] [--layer-step N] [--skip-questions]

Sets (each rebuilt as image-only PDFs by ``scans.py``, then parsed by the lite parser, which OCRs them):

* **sample scans**: every page of ``sample_pdfs/`` rendered at 300 DPI (English, Korean, mixed);
* **sample garbled**: ``mixed_brief.pdf`` at 300 DPI with a garbled invisible text layer over the image;
* **finqa scans**: ``--finqa-pages`` pages of real filings (``../shared/corpus/finqa_dev``, skipped when
  absent) rendered at 200 DPI: the first table-bearing pages of a few filings.

For each set, against the same pages parsed from the born-digital PDF (text items and table cells):

* word recall: the share of the born-digital words (punctuation around them stripped) found in the
  scan's words, as multisets; number recall: the same over words holding a digit;
* tables: tables found on the scan as a share of those found on the original, page by page (count), and
  the share of the original's tables whose box a scan table covers by at least half (covered: two tables
  read as one count once in the first figure, twice in the second);
* questions (sample sets): the sample questions whose evidence page is among the top 5 regions on the
  scans, and on the originals;
* speed: OCR pages per second in one process (the scans' parse: render, Tesseract, rules and the
  parser's stages), by the clock and by the process's CPU time (which other work on a shared machine
  does not slow).

``--layer-step`` also runs the text-layer test (lite/text_layer.py) on every Nth page of the finqa_dev
filings (born-digital: every page judged garbage is a false positive), printing the lowest shares of
plausible words and of common letters; the same is printed for the garbled layer.
The script prints and never asserts; docs/parsers.md quotes its figures.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from pathlib import Path

from paths import FINQA_PDFS, REPO, SAMPLE_PDFS, SAMPLE_QUESTIONS  # noqa: E402

sys.path.insert(0, str(REPO))

from scans import scan_pdf  # noqa: E402

#: Results searched per question.
TOP_K = 5
#: Filings and pages of the finqa scan set: (file, 0-based page), pages with tables of figures.
FINQA_PAGES = (("3M_2022_10K.pdf", 70), ("BOEING_2018_10K.pdf", 70), ("CORNING_2022_10K.pdf", 60),
               ("NIKE_2018_10K.pdf", 58), ("NIKE_2018_10K.pdf", 32), ("ADOBE_2017_10K.pdf", 44),
               ("ADOBE_2017_10K.pdf", 71), ("PEPSICO_2022_10K.pdf", 60))
#: An original table is covered when a scan table on its page covers this share of its box.
COVERAGE = 0.5
_EDGES = "()[]{}<>.,;:!?'\"“”‘’`·•…-–—/\\|*#$€£¥₩"


def words_of(parsed, pages: set[int] | None = None) -> list[str]:
    """The words of a parsed document's text items and table cells (on ``pages``, 1-based, when given)."""
    doc = parsed.document
    texts = [it.text for it in doc.texts if not pages or (it.prov and it.prov[0].page_no in pages)]
    for table in doc.tables:
        if not pages or (table.prov and table.prov[0].page_no in pages):
            texts += [cell.text for cell in table.data.table_cells]
    words = []
    for text in texts:
        for word in unicodedata.normalize("NFC", text).split():
            word = word.strip(_EDGES)
            if word:
                words.append(word)
    return words


def recall(truth: list[str], found: list[str]) -> float:
    """Share of ``truth`` (a multiset) in ``found``."""
    want, have = Counter(truth), Counter(found)
    return sum(min(n, have[w]) for w, n in want.items()) / max(1, sum(want.values()))


def tables_by_page(parsed) -> Counter:
    return Counter(t.prov[0].page_no for t in parsed.document.tables if t.prov)


def table_boxes(parsed) -> list[tuple[int, tuple[float, float, float, float]]]:
    """(page, (l, t, r, b)) of every table, BOTTOMLEFT points."""
    return [(t.prov[0].page_no, (t.prov[0].bbox.l, t.prov[0].bbox.t, t.prov[0].bbox.r, t.prov[0].bbox.b))
            for t in parsed.document.tables if t.prov]


def covered(box: tuple, others: list[tuple]) -> bool:
    """True when one of ``others`` covers at least COVERAGE of ``box`` (BOTTOMLEFT, t > b)."""
    l, t, r, b = box
    area = max(1e-6, (r - l) * (t - b))
    for ol, ot, orr, ob in others:
        w, h = min(r, orr) - max(l, ol), min(t, ot) - max(b, ob)
        if w > 0 and h > 0 and w * h >= COVERAGE * area:
            return True
    return False


def table_share(original: Counter, scan: Counter) -> float:
    return sum(min(n, scan[p]) for p, n in original.items()) / max(1, sum(original.values()))


def measure(name: str, pairs: list[tuple[Path, Path, list[int] | None]], parser, out: dict) -> dict:
    """Parse originals and scans; print and return word, number and table figures and OCR speed."""
    truth, found, t_orig, t_scan = [], [], Counter(), Counter()
    boxes_total, boxes_covered = 0, 0
    ocr_pages, ocr_seconds, cpu_seconds, confidences = 0, 0.0, 0.0, []
    parsed_pairs = []
    for original, scan, pages in pairs:
        page_set = {p + 1 for p in pages} if pages else None
        born = parser.parse(original)
        started, cpu_started = time.perf_counter(), time.process_time()
        read = parser.parse(scan)
        ocr_seconds += time.perf_counter() - started
        cpu_seconds += time.process_time() - cpu_started
        ocr_pages += len(read.ocr_pages)
        confidences += list(read.ocr_pages.values())
        truth += words_of(born, page_set)
        found += words_of(read)
        offset = {k + 1: p + 1 for k, p in enumerate(pages)} if pages else None
        t_orig.update({p: n for p, n in tables_by_page(born).items() if not page_set or p in page_set})
        t_scan.update({offset[p] if offset else p: n for p, n in tables_by_page(read).items()})
        scan_boxes = [(offset[p] if offset else p, box) for p, box in table_boxes(read)]
        for page, box in table_boxes(born):
            if not page_set or page in page_set:
                boxes_total += 1
                boxes_covered += covered(box, [b for p, b in scan_boxes if p == page])
        parsed_pairs.append((born, read))
    numbers = [w for w in truth if any(c.isdigit() for c in w)]
    row = {
        "set": name, "pages": ocr_pages, "words": len(truth), "word_recall": round(recall(truth, found), 4),
        "numbers": len(numbers), "number_recall": round(recall(numbers, [w for w in found if any(c.isdigit() for c in w)]), 4),
        "tables_original": sum(t_orig.values()), "tables_scan": sum(t_scan.values()),
        "table_share": round(table_share(t_orig, t_scan), 4),
        "tables_covered": round(boxes_covered / boxes_total, 4) if boxes_total else None,
        "mean_confidence": round(sum(confidences) / len(confidences), 4) if confidences else None,
        "ocr_pages_per_s": round(ocr_pages / ocr_seconds, 3) if ocr_seconds else None,
        "ocr_pages_per_cpu_s": round(ocr_pages / cpu_seconds, 3) if cpu_seconds else None,
    }
    print(json.dumps(row, ensure_ascii=False))
    out[name] = parsed_pairs
    return row


def question_hits(parsed_docs: list, questions: list[dict]) -> int:
    """Questions whose evidence page is among the top-5 regions of an index of ``parsed_docs``."""
    from evidence_chunker.chunker import EvidenceChunker
    from evidence_chunker.export.semantic import corpus_to_semantic_document
    from semantic_json import SemanticRepository

    chunker = EvidenceChunker(parser="lite")
    with tempfile.TemporaryDirectory() as folder:
        repo = SemanticRepository.open(Path(folder) / "index.sqlite")
        for parsed, doc_id in parsed_docs:
            corpus = chunker.build_corpus_parsed(parsed, doc_id=doc_id)
            repo.add(corpus_to_semantic_document(corpus, doc_id, None, parsed.sha256))
        hits = 0
        for q in questions:
            doc_id = Path(q["pdf"]).stem
            result = repo.search(q["question"], k=TOP_K)
            if any(r.document_id == doc_id and set(r.pages or []) & set(q["evidence_pages"]) for r in result):
                hits += 1
        repo.close()
    return hits


def layer_checks(path: Path, settings, step: int = 1) -> list:
    """The text-layer test (lite/text_layer.py) on every ``step``-th page of a PDF with enough words to judge."""
    import pypdfium2 as pdfium

    from evidence_chunker.parsing.lite.pdfium import PageFrame, extract_chars
    from evidence_chunker.parsing.lite.text import words_from_glyphs
    from evidence_chunker.parsing.lite.text_layer import check_text_layer

    checks = []
    pdf = pdfium.PdfDocument(str(path))
    for i in range(0, len(pdf), step):
        page = pdf[i]
        glyphs, _, _ = extract_chars(page, PageFrame(tuple(page.get_cropbox()), page.get_rotation()))
        page.close()
        check = check_text_layer([w.text for w in words_from_glyphs(glyphs, settings)],
                                 settings.text_layer_min_words, settings.text_layer_min_plausible,
                                 settings.text_layer_min_letters, settings.text_layer_min_common_letters)
        if check.words >= settings.text_layer_min_words:
            checks.append(check)
    pdf.close()
    return checks


def layer_summary(checks: list, settings) -> dict:
    """Lowest plausible-word share, lowest common-letter share (pages with enough letters), pages judged garbage."""
    lettered = [c.common_letters for c in checks if c.letters >= settings.text_layer_min_letters]
    return {"pages": len(checks), "min_plausible": round(min(c.plausible_share for c in checks), 4),
            "min_common_letters": round(min(lettered), 4) if lettered else None,
            "judged_garbage": sum(not c.usable for c in checks)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dpi", type=int, default=None, help="LiteSettings.ocr_dpi (default: the setting's)")
    ap.add_argument("--finqa-pages", type=int, default=len(FINQA_PAGES))
    ap.add_argument("--layer-step", type=int, default=20, help="every Nth finqa page for the text-layer test (0: skip)")
    ap.add_argument("--skip-questions", action="store_true")
    args = ap.parse_args(argv)

    from evidence_chunker.parsing import LiteParser
    from evidence_chunker.parsing.lite.settings import LiteSettings

    settings = LiteSettings(**({"ocr_dpi": args.dpi} if args.dpi else {}))
    parser = LiteParser(settings=settings)
    print(f"ocr_dpi {settings.ocr_dpi}, languages {settings.ocr_languages}")
    parsed: dict = {}
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        samples = sorted(SAMPLE_PDFS.glob("*.pdf"))
        pairs = [(pdf, scan_pdf(pdf, work / pdf.name, dpi=300), None) for pdf in samples]
        rows = [measure("sample scans", pairs, parser, parsed)]
        (work / "garbled").mkdir()
        garbled = scan_pdf(SAMPLE_PDFS / "mixed_brief.pdf", work / "garbled" / "mixed_brief.pdf", dpi=300, garbled=True)
        print(json.dumps({"garbled layer": layer_summary(layer_checks(garbled, settings), settings)}))
        rows.append(measure("sample garbled", [(SAMPLE_PDFS / "mixed_brief.pdf", garbled, None)], parser, parsed))
        if FINQA_PDFS.is_dir() and args.finqa_pages:
            finqa = []
            for name, page in FINQA_PAGES[: args.finqa_pages]:
                source = FINQA_PDFS / name
                finqa.append((source, scan_pdf(source, work / f"finqa-{source.stem}-{page + 1}.pdf", dpi=200, pages=[page]), [page]))
            rows.append(measure("finqa scans", finqa, parser, parsed))
        elif not FINQA_PDFS.is_dir():
            print(f"finqa scans skipped: {FINQA_PDFS} not found")
        if not args.skip_questions:
            questions = [json.loads(line) for line in SAMPLE_QUESTIONS.read_text(encoding="utf-8").splitlines() if line.strip()]
            born = [(b, Path(p).stem) for (b, _s), p in zip(parsed["sample scans"], samples)]
            read = [(s, Path(p).stem) for (_b, s), p in zip(parsed["sample scans"], samples)]
            print(json.dumps({"questions": len(questions), "top5_originals": question_hits(born, questions),
                              "top5_scans": question_hits(read, questions)}))
    if args.layer_step and FINQA_PDFS.is_dir():
        checks = [c for path in sorted(FINQA_PDFS.glob("*.pdf")) for c in layer_checks(path, settings, args.layer_step)]
        samples = [c for path in sorted(SAMPLE_PDFS.glob("*.pdf")) for c in layer_checks(path, settings)]
        print(json.dumps({"text layers, finqa_dev every %dth page" % args.layer_step: layer_summary(checks, settings),
                          "text layers, sample_pdfs": layer_summary(samples, settings)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
