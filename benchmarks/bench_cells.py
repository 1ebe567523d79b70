"""Does every body cell of a table hold one value, as printed? Cells that hold two, on real filings.

    python benchmarks/bench_cells.py [--pdf-dir ../shared/corpus/finqa_dev/pdfs] [--cache DIR] [--limit N]

A statement row reads "Pre-provision profit/(loss) | 2022: 4,891; 2021: 5,698; Change: (14)" only when
each printed value is a cell of its own. Two ways a parser gets this wrong count here, per body cell
(not a column-header cell) of every table the lite parser finds in the PDFs (default: the finqa_dev
filings, real 10-K/10-Q/8-K reports; ``--cache``: the benchmarks' parse cache, see ``parse_cache.py``):

- **two values in one cell** (``holds_two_values``): the cell is only figures and currency signs, and
  two or more of them carry digits ("(22) 1,527", "$ 80 $ (1,169)"): values of two columns read as one.
- **a footnote mark before its value** (``mark_first``): the cell opens with an enumerator mark and then
  a figure ("(a) 5,645"). The mark is printed after the value, raised; read first, it looks like the
  value's own sign or a list item's number.

Not every hit is a parser defect (a few reports print two amounts in one column), so the script prints
the counts and the documents with the most, and never asserts.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from parse_cache import cached_parse, filing_arguments, filing_pdfs  # noqa: E402
from paths import FINQA_PDFS  # noqa: E402

from semantic_json.rules.patterns import ENUMERATOR_RE, is_currency, is_number  # noqa: E402

#: Documents listed with the most cells of each kind.
WORST_DOCUMENTS = 6


def holds_two_values(text: str) -> bool:
    """True when ``text`` is only figures, currency signs and "%", and two or more of them carry digits."""
    tokens = text.split()
    if not tokens or not all(is_number(t) or is_currency(t) or t == "%" for t in tokens):
        return False
    return sum(1 for t in tokens if any(ch.isdigit() for ch in t)) >= 2


def mark_first(text: str) -> bool:
    """True when ``text`` opens with an enumerator mark ("(a)", "1.") and goes on with a figure."""
    tokens = text.split()
    return len(tokens) >= 2 and bool(ENUMERATOR_RE.match(tokens[0])) and not is_number(tokens[0]) and is_number(tokens[1])


def main(argv: list[str] | None = None) -> int:
    args = filing_arguments(__doc__.split("\n\n")[0], FINQA_PDFS).parse_args(argv)
    pdfs = filing_pdfs(args)
    if not pdfs:
        print(f"no PDFs in {args.pdf_dir}")
        return 1
    cells = 0
    found = {"two values in one cell": Counter(), "a footnote mark before its value": Counter()}
    for pdf in pdfs:
        for table in cached_parse(pdf, args.cache).document.tables:
            for cell in table.data.table_cells:
                if cell.column_header or not cell.text.strip():
                    continue
                cells += 1
                if holds_two_values(cell.text):
                    found["two values in one cell"][pdf.name] += 1
                elif mark_first(cell.text):
                    found["a footnote mark before its value"][pdf.name] += 1
    print(f"{len(pdfs)} PDFs: {cells} non-empty body cells")
    for kind, by_document in found.items():
        total = sum(by_document.values())
        print(f"{total} ({total / max(1, cells):.2%}) with {kind}")
        for name, count in by_document.most_common(WORST_DOCUMENTS):
            print(f"  {name}: {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
