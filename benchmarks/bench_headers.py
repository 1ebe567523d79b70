"""Do a table's headers tell its value columns apart? Tables whose columns read alike, on real filings.

    python benchmarks/bench_headers.py [--pdf-dir ../shared/corpus/finqa_dev/pdfs] [--cache DIR] [--limit N]

A value column is read through its header path: the texts of the column-header cells above it, top
down ("Three Months Ended / 2023"). When two value columns of a table have the same path from
different heading cells ("2023 2022 2023 2022" with the periods over them lost), every row flattens to
"2023: 459; 2022: 225; 2023: 691; 2022: 427" and no reader can tell which amount is which. For every
PDF (default: the finqa_dev filings, real 10-K/10-Q/8-K reports) the script parses with the lite parser
(``--cache``: the benchmarks' parse cache, see ``parse_cache.py``) and prints the tables of at least
three columns, how many of them have such columns, their body rows, and the documents with the most.
Not every one is a parser defect: some reports print the same label twice ("% Change" after each pair
of years). It also counts the tables that print figures under no column header at all (``headerless``),
where no column is told apart: headings read as a table of their own, or rows cut from the grid above
them. The script prints and never asserts.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from parse_cache import cached_parse, filing_arguments, filing_pdfs  # noqa: E402
from paths import FINQA_PDFS  # noqa: E402

from semantic_json.rules.patterns import is_quantity  # noqa: E402

#: Documents listed with the most tables whose columns read alike.
WORST_DOCUMENTS = 8


def alike_columns(data: Any) -> list[tuple[str, ...]]:
    """The header paths that two or more value columns of a docling-core ``TableData`` share from
    different heading cells (a path one heading cell spans over all those columns is not counted)."""
    heads = sorted((c for c in data.table_cells if c.column_header and c.text.strip()),
                   key=lambda c: c.start_row_offset_idx)
    leaves: dict[tuple[str, ...], set[int]] = {}
    for col in range(1, data.num_cols):
        over = [c for c in heads if c.start_col_offset_idx <= col < c.end_col_offset_idx]
        if over:
            leaves.setdefault(tuple(c.text for c in over), set()).add(id(over[-1]))
    return [path for path, cells in leaves.items() if len(cells) > 1]


def headerless(data: Any) -> bool:
    """True when a docling-core ``TableData`` prints figures but has no column-header cell: no value
    column of it is told apart at all (its rows flatten to "Net income | 3,100; 5,645; (45)")."""
    return not any(c.column_header for c in data.table_cells) and any(is_quantity(c.text) for c in data.table_cells)


def main(argv: list[str] | None = None) -> int:
    args = filing_arguments(__doc__.split("\n\n")[0], FINQA_PDFS).parse_args(argv)
    pdfs = filing_pdfs(args)
    if not pdfs:
        print(f"no PDFs in {args.pdf_dir}")
        return 1
    tables = alike = rows = alike_rows = bare = 0
    by_document: Counter[str] = Counter()
    bare_by_document: Counter[str] = Counter()
    for pdf in pdfs:
        for table in cached_parse(pdf, args.cache).document.tables:
            data = table.data
            if data.num_cols < 3:
                continue
            header_rows = {c.start_row_offset_idx for c in data.table_cells if c.column_header}
            body = data.num_rows - len(header_rows)
            tables += 1
            rows += body
            if headerless(data):
                bare += 1
                bare_by_document[pdf.name] += 1
            elif alike_columns(data):
                alike += 1
                alike_rows += body
                by_document[pdf.name] += 1
    print(f"{len(pdfs)} PDFs: {tables} tables of 3+ columns, {alike} ({alike / max(1, tables):.1%}) with value columns "
          f"that read alike; {alike_rows} of {rows} body rows in them")
    for name, count in by_document.most_common(WORST_DOCUMENTS):
        print(f"  {name}: {count}")
    print(f"{bare} ({bare / max(1, tables):.1%}) of them print figures under no column header at all")
    for name, count in bare_by_document.most_common(WORST_DOCUMENTS):
        print(f"  {name}: {count}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
