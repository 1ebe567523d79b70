"""Is anything printed lost? The share of each page's printed words that reach that page's corpus records.

    python benchmarks/bench_coverage.py [--pdf-dir ../shared/corpus/finqa_dev/pdfs] [--cache DIR] [--limit N]

For every page of every PDF (default: the finqa_dev filings, real 10-K/10-Q/8-K reports), the words
pdfium prints on the page (letters and numbers, casefolded) are compared with the words of the corpus
records (Evidence Units and Text Chunks) whose pages include it. A word not in a record counts as named
when it belongs to a running line that `sjt diagnose` reports as dropped (page headers and footers that
are not table titles). Prints the share of words in records, the share named as dropped, and the rest
(lost), with the pages that lose the most and the share of the lost words that are one character. Some
filings print every glyph as an object of its own, and pdfium's text puts a line break between any two of
them ("H\r\ne\r\ni\r\nn\r\nz"): on such a page every letter counts as a printed word and none is found
in the records, which read "Heinz"; the one-character share shows how much of the loss is that.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from parse_cache import cached_parse  # noqa: E402
from paths import FINQA_PDFS  # noqa: E402

from evidence_chunker import EvidenceChunker  # noqa: E402
from evidence_chunker.units.titles import dropped_running_lines  # noqa: E402

WORD = re.compile(r"[^\W\d_]+|\d+")
#: Pages listed as losing the most words.
WORST_PAGES = 5


def words(text: str) -> Counter[str]:
    return Counter(w.casefold() for w in WORD.findall(text))


def printed_words(pdf: Path) -> list[Counter[str]]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    try:
        return [words(document[i].get_textpage().get_text_range()) for i in range(len(document))]
    finally:
        document.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pdf-dir", type=Path, default=FINQA_PDFS)
    ap.add_argument("--cache", type=Path, default=None, help="parse cache folder (benchmarks/parse_cache.py)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N PDFs (by name)")
    args = ap.parse_args(argv)
    pdfs = sorted(args.pdf_dir.glob("*.pdf"))[: args.limit]
    chunker = EvidenceChunker(parser="lite")
    total = in_records = named = single = 0
    losses: list[tuple[int, str, int]] = []
    for pdf in pdfs:
        parsed = cached_parse(pdf, args.cache)
        corpus = chunker.build_corpus_parsed(parsed, doc_id=pdf.stem)
        by_page: dict[int, Counter[str]] = {}
        for record in corpus:
            record_words = words(record.text)
            for page in record.metadata.get("page_span") or []:
                by_page.setdefault(page, Counter()).update(record_words)
        dropped: dict[int, Counter[str]] = {}
        units = [record for record in corpus if record.metadata.get("kind") == "table"]
        for page, text in dropped_running_lines(parsed.document, units):
            dropped.setdefault(page, Counter()).update(words(text))
        for number, printed in enumerate(printed_words(pdf), start=1):
            have, drop = by_page.get(number, Counter()), dropped.get(number, Counter())
            page_total = kept = named_here = lost_here = 0
            for w, n in printed.items():
                found = min(n, have[w])
                dropped_w = min(n - found, drop[w])
                page_total += n
                kept += found
                named_here += dropped_w
                lost_here += n - found - dropped_w
                single += (n - found - dropped_w) if len(w) == 1 else 0
            total += page_total
            in_records += kept
            named += named_here
            losses.append((lost_here, pdf.name, number))
    lost = total - in_records - named
    print(f"{len(pdfs)} PDFs, {len(losses)} pages, {total} printed words: {in_records / max(total, 1):.1%} in the page's "
          f"records, {named / max(total, 1):.1%} named as dropped running lines, {lost / max(total, 1):.1%} lost "
          f"({single / max(lost, 1):.0%} of the lost words are one character)")
    for count, name, page in sorted(losses, reverse=True)[:WORST_PAGES]:
        print(f"  {name} p{page}: {count} words lost")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
