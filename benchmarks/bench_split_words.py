"""Words split by glyph spacing (prints figures, never asserts).

    python benchmarks/bench_split_words.py [--pdf-dir ../shared/corpus/finqa_dev/pdfs] [--cache PARSE_CACHE]
        [--before 'GLOB of DoclingDocument JSONs'] [--samples sample_pdfs] [--corpus ../shared/corpus/docling_gt]

1. finqa_dev: the texts with a *split word* (a word the PDF's spacing cut one letter off: "Incom e", "C ompany")
   among titles (title, section header, caption, page header), table row labels (row-header cells, else
   the first column) and column headers (column-header cells), and among every text and cell, on the
   current lite parse (through the parse cache of ``--cache``, default $SJT_BENCH_PARSE_CACHE) and, with
   ``--before``, on the DoclingDocument JSONs of an earlier parse of the same PDFs. A split word is a letter
   run followed by one lowercase letter, or one letter followed by a lowercase run, whose join is a word the
   set prints whole at least MIN_USES times and more than FRAGMENT_RATIO times as often as the fragment,
   while the letter and the fragment are not both words it prints ("a broad" is two words, though "abroad"
   is one), over the whole set's vocabulary (no dictionary ships). The parser's test
   (``lite_spacing.is_split_word``, on each document's own words) is stricter: it also wants the join at
   least as common as the letter alone, which over a whole set would leave out split names ("S atya").
2. sample_pdfs and the reference corpus PDFs: every PDF parsed with ``join_split_letters`` off and on, and
   the words that differ printed: words joined that should be apart would show here (target 0).
"""

from __future__ import annotations

import argparse
import glob
import os
import re
import sys
from collections import Counter
from pathlib import Path

from paths import DOCLING_GT, FINQA_PDFS, REPO, SAMPLE_PDFS  # noqa: E402

sys.path.insert(0, str(REPO))

from docling_core.types.doc import DocItemLabel, DoclingDocument  # noqa: E402

from evidence_chunker.parsing import LiteParser, ParsedDoc  # noqa: E402
from parse_cache import cached_parse  # noqa: E402

#: The join of a split word is printed whole at least this many times in the set...
MIN_USES = 3
#: ...and more than this many times as often as its fragment.
FRAGMENT_RATIO = 3
TITLE_LABELS = {DocItemLabel.TITLE, DocItemLabel.SECTION_HEADER, DocItemLabel.CAPTION, DocItemLabel.PAGE_HEADER}
_LETTERS = re.compile(r"[^\W\d_]+")
_TAIL = re.compile(r"([^\W\d_]{2,}) ([a-z])\b")
_HEAD = re.compile(r"\b([^\W\d_]) ([a-z]{2,})")


def texts_by_kind(doc: DoclingDocument) -> list[tuple[str, str]]:
    """``(kind, text)`` of every text item and table cell: kind "title", "row label", "column header" or
    "other"."""
    out = [("title" if item.label in TITLE_LABELS else "other", item.text) for item in doc.texts]
    for table in doc.tables:
        flagged = any(cell.row_header for cell in table.data.table_cells)
        for cell in table.data.table_cells:
            if cell.column_header:
                kind = "column header"
            elif cell.row_header or (not flagged and cell.start_col_offset_idx == 0):
                kind = "row label"
            else:
                kind = "other"
            out.append((kind, cell.text))
    return out


def vocabulary(docs: list[list[tuple[str, str]]]) -> Counter:
    return Counter(run.casefold() for texts in docs for _kind, text in texts for run in _LETTERS.findall(text))


def split_words(text: str, uses: Counter) -> list[str]:
    """The split words of ``text`` (see module docstring), as printed ("Incom e")."""
    found = []
    for pattern, fragment_at in ((_TAIL, 1), (_HEAD, 2)):
        for match in pattern.finditer(text):
            joined = (match.group(1) + match.group(2)).casefold()
            fragment, letter = match.group(fragment_at).casefold(), match.group(3 - fragment_at).casefold()
            if (uses[joined] >= MIN_USES and uses[joined] > FRAGMENT_RATIO * uses[fragment]
                    and not (uses[letter] >= MIN_USES and uses[fragment] >= MIN_USES)):
                found.append(match.group(0))
    return found


def count(name: str, docs: list[list[tuple[str, str]]]) -> None:
    uses = vocabulary(docs)
    texts, examples = Counter(), Counter()
    for doc in docs:
        for kind, text in doc:
            found = split_words(text, uses)
            if found:
                texts[kind] += 1
                examples.update(found)
    labelled = texts["title"] + texts["row label"] + texts["column header"]
    print(f"{name:<40} titles/row labels/headers with a split word: {labelled:>4} "
          f"({texts['title']} titles, {texts['row label']} row labels, {texts['column header']} headers); "
          f"all texts and cells: {sum(texts.values()):>4}")
    print("    " + ", ".join(f"{word!r} x{n}" for word, n in examples.most_common(12)))


def changed_words(name: str, pdfs: list[Path]) -> None:
    """Parse each PDF with the join off and on; print the words that differ."""
    changes: list[tuple[str, str, str]] = []
    for pdf in pdfs:
        apart, joined = (LiteParser(settings={"join_split_letters": flag}).parse(pdf).document for flag in (False, True))
        for (_, before), (_, after) in zip(texts_by_kind(apart), texts_by_kind(joined)):
            if before != after:
                changes.append((pdf.name, before, after))
    words = sum(sum((Counter(before.split()) - Counter(after.split())).values()) for _, before, after in changes)
    print(f"{name:<40} {len(pdfs):>3} PDFs: {len(changes)} texts and {words} words changed by the join")
    for pdf, before, after in changes[:10]:
        print(f"    {pdf}: {before[:80]!r} -> {after[:80]!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pdf-dir", type=Path, default=FINQA_PDFS)
    ap.add_argument("--cache", type=Path, default=os.environ.get("SJT_BENCH_PARSE_CACHE"))
    ap.add_argument("--before", default=None, help="glob of DoclingDocument JSONs of an earlier parse")
    ap.add_argument("--samples", type=Path, default=SAMPLE_PDFS)
    ap.add_argument("--corpus", type=Path, default=DOCLING_GT)
    ap.add_argument("--skip-finqa", action="store_true")
    args = ap.parse_args()
    if not args.skip_finqa and args.pdf_dir.is_dir():
        if args.before:
            before = [texts_by_kind(ParsedDoc.from_docling_json(p).document) for p in sorted(glob.glob(args.before))]
            count(f"before ({len(before)} documents)", before)
        pdfs = sorted(args.pdf_dir.glob("*.pdf"))
        count(f"{args.pdf_dir.parent.name} now ({len(pdfs)} PDFs)",
              [texts_by_kind(cached_parse(pdf, args.cache).document) for pdf in pdfs])
    changed_words("sample_pdfs", sorted(args.samples.glob("*.pdf")))
    corpus_pdfs = sorted(args.corpus.glob("docling/pdf/*.pdf")) + sorted(args.corpus.glob("docling-cvat-tools/*/input.pdf"))
    if corpus_pdfs:
        changed_words("reference corpus PDFs", corpus_pdfs)


if __name__ == "__main__":
    main()
