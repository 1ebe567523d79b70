"""Are two revisions' outputs byte-identical? Evidence Units, corpus JSONL and search results, side by side.

    python benchmarks/compare_outputs.py --base main --head HEAD --pdf-dir sample_pdfs \\
        --questions benchmarks/questions/sample_pdfs.jsonl [--cache /work/cache/parse] [-k 5] [--out out/compare]

Each revision is checked out with ``git worktree add --detach`` into a temporary folder and run there, with
``PYTHONPATH`` set to that folder, in its own process. For every PDF of ``--pdf-dir`` (the lite parser) the
run writes

- ``units.jsonl``: every Evidence Unit (``EvidenceUnit.to_dict()``, as ``sjt chunk`` writes it);
- ``corpus.jsonl``: every corpus record (``chunk_to_record``, as ``sjt corpus`` writes it);
- ``search.jsonl``: the PDFs ingested into one SQLite index the way ``sjt ingest`` prepares them, then, for
  every question of ``--questions`` (JSONL with ``id``, ``pdf``, ``question``), the top ``-k`` regions over
  the whole index (``corpus``) and within the question's PDF (``single-doc``): each region's id, document,
  character span, pages and score, and the whole transport JSON.

Then the two revisions' files are compared record by record (units by id, records by chunk id, searches by
question and setting), and every difference is listed; the exit status is 0 when they are identical, 1
when not. ``--cache`` takes each parse from the benchmarks' parse cache (``benchmarks/parse_cache.py``,
keyed by the PDF and each revision's own parser source, so a revision whose parser changed misses it and
parses); everything after the parser runs in full.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

#: The files a dump writes, and the key that identifies one record of each.
OUTPUTS = {"units.jsonl": ("eu_id",), "corpus.jsonl": ("chunk_id",), "search.jsonl": ("question", "setting")}
#: Regions per search.
DEFAULT_K = 5
#: The search settings: over the whole index, and within the question's own PDF.
SETTINGS = ("corpus", "single-doc")
#: Differences printed per file in full (the rest are counted).
SHOWN_PER_FILE = 20


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 1)[1].split("\n\n", 1)[1],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="main", help="the revision compared against (default: main)")
    ap.add_argument("--head", default="HEAD", help="the revision compared (default: HEAD; commit your work first)")
    ap.add_argument("--pdf-dir", type=Path, required=True, help="folder of PDFs (every *.pdf in it)")
    ap.add_argument("--questions", type=Path, required=True, help="questions JSONL: id, pdf, question per line")
    ap.add_argument("--cache", type=Path, default=None, help="parse cache folder (benchmarks/parse_cache.py)")
    ap.add_argument("-k", type=int, default=DEFAULT_K, help=f"regions per search (default: {DEFAULT_K})")
    ap.add_argument("--out", type=Path, default=None,
                    help="keep each revision's files in OUT/base and OUT/head (default: a temporary folder)")
    ap.add_argument("--dump", type=Path, default=None, help=argparse.SUPPRESS)  # internal: one revision's run
    return ap.parse_args(argv)


# --- one revision: the files ----------------------------------------------------------------------------


def dump(args: argparse.Namespace) -> int:
    """Write the units, corpus and search files of the code on ``sys.path`` into ``args.dump``."""
    tree = Path(os.environ["SJT_COMPARE_TREE"])
    sys.path.insert(0, str(tree / "benchmarks"))
    import evidence_chunker
    from evidence_chunker.chunker import EvidenceChunker
    from evidence_chunker.corpus.assemble import chunk_to_record
    from evidence_chunker.ingest.prepare import document_id_for, prepare_document
    from evidence_chunker.pipeline import Pipeline
    from parse_cache import cached_parse
    from semantic_json import SemanticRepository

    if not Path(evidence_chunker.__file__).resolve().is_relative_to(tree.resolve()):
        raise SystemExit(f"evidence_chunker was imported from {evidence_chunker.__file__}, not from {tree}")
    out: Path = args.dump
    out.mkdir(parents=True, exist_ok=True)
    pdfs = sorted(args.pdf_dir.glob("*.pdf"))
    runs: list[Any] = []
    original_run = Pipeline.run

    def kept_run(self, *a, **k):  # ingest's own preparation, with its units and corpus kept for the files
        run = original_run(self, *a, **k)
        runs.append(run)
        return run

    original_parse = EvidenceChunker.parse

    def cached(self, path, page_range=None, on_page=None):
        EvidenceChunker.parse = original_parse  # a cache miss parses with the real parser, not with this
        try:
            return cached_parse(Path(path), args.cache, "lite", page_range)
        finally:
            EvidenceChunker.parse = cached  # type: ignore[method-assign]

    Pipeline.run = kept_run  # type: ignore[method-assign]
    if args.cache is not None:
        EvidenceChunker.parse = cached  # type: ignore[method-assign]
    index = out / "index.sqlite"
    index.unlink(missing_ok=True)
    repo = SemanticRepository.open(index)
    started = time.perf_counter()
    with open(out / "units.jsonl", "w", encoding="utf-8") as units, \
            open(out / "corpus.jsonl", "w", encoding="utf-8") as corpus:
        for pdf in pdfs:
            runs.clear()
            prepared = prepare_document(pdf, parser="lite")
            (run,) = runs
            for eu in run.units:
                units.write(json.dumps(eu.to_dict(), ensure_ascii=False) + "\n")
            for chunk in run.corpus:
                corpus.write(json.dumps(chunk_to_record(chunk), ensure_ascii=False) + "\n")
            repo.add(prepared.document, info=prepared.info)
            print(f"  {pdf.name}: {len(run.units)} units, {len(run.corpus)} records", file=sys.stderr, flush=True)
    repo.close()
    repo = SemanticRepository.open(index, read_only=True)
    doc_of = {pdf.name: document_id_for(pdf) for pdf in pdfs}
    with open(out / "search.jsonl", "w", encoding="utf-8") as searches:
        for question in read_questions(args.questions):
            for setting in SETTINGS:
                documents = [doc_of[question["pdf"]]] if setting == "single-doc" else None
                result = repo.search(question["question"], k=args.k, documents=documents)
                regions = [{"id": r.region_id, "document": r.document_id, "start_char": r.source.start_char,
                            "end_char": r.source.end_char, "pages": r.pages, "score": r.score} for r in result]
                searches.write(json.dumps({"question": question["id"], "setting": setting, "regions": regions,
                                           "transport": result.to_json(indent=None)}, ensure_ascii=False) + "\n")
    repo.close()
    index.unlink()
    print(f"  {len(pdfs)} PDFs in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return 0


def read_questions(path: Path) -> Iterator[dict[str, Any]]:
    """The questions of a JSONL file (blank lines and lines starting with # skipped)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            yield json.loads(line)


# --- two revisions: check out, run, compare ---------------------------------------------------------------


def run_revision(rev: str, args: argparse.Namespace, out: Path, repo_root: Path) -> subprocess.Popen:
    """Check ``rev`` out into a temporary worktree and start its dump into ``out`` (the process)."""
    tree = Path(tempfile.mkdtemp(prefix="sjt-compare-"))
    subprocess.run(["git", "-C", str(repo_root), "worktree", "add", "--detach", "-q", str(tree), rev], check=True)
    env = {**os.environ, "PYTHONPATH": str(tree), "SJT_COMPARE_TREE": str(tree)}
    command = [sys.executable, str(Path(__file__).resolve()), "--dump", str(out.resolve()),
               "--pdf-dir", str(args.pdf_dir.resolve()), "--questions", str(args.questions.resolve()), "-k", str(args.k)]
    if args.cache is not None:
        command += ["--cache", str(args.cache.resolve())]
    process = subprocess.Popen(command, cwd=tree, env=env)
    process.tree = tree  # type: ignore[attr-defined]
    return process


def remove_worktree(repo_root: Path, tree: Path) -> None:
    subprocess.run(["git", "-C", str(repo_root), "worktree", "remove", "--force", str(tree)], check=False)
    shutil.rmtree(tree, ignore_errors=True)


def records(path: Path, key: tuple[str, ...]) -> dict[tuple, tuple[int, str]]:
    """Each line of a dump file by its key: (line number, the line as written)."""
    found: dict[tuple, tuple[int, str]] = {}
    with open(path, encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            data = json.loads(line)
            found[tuple(data[name] for name in key)] = (number, line)
    return found


def field_differences(a: Any, b: Any, where: str = "") -> list[str]:
    """Where two JSON values differ, as ``path: base → head`` lines (values cut short)."""
    if isinstance(a, dict) and isinstance(b, dict):
        diffs = []
        for name in list(a) + [n for n in b if n not in a]:
            if name not in b or name not in a:
                diffs.append(f"{where}.{name}: {'missing in head' if name not in b else 'missing in base'}")
            else:
                diffs += field_differences(a[name], b[name], f"{where}.{name}")
        if not diffs and list(a) != list(b):
            diffs.append(f"{where}: key order {list(a)} → {list(b)}")
        return diffs
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in field_differences(x, y, f"{where}[{i}]")]
    if a == b and type(a) is type(b):
        return [] if json.dumps(a) == json.dumps(b) else [f"{where}: written differently"]
    return [f"{where or 'value'}: {_short(a)} → {_short(b)}"]


def _short(value: Any, limit: int = 80) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def compare(base: Path, head: Path) -> tuple[dict[str, int], list[str]]:
    """Per file, the records compared; and every difference between the two dumps, described."""
    counts: dict[str, int] = {}
    report: list[str] = []
    for name, key in OUTPUTS.items():
        if (base / name).read_bytes() == (head / name).read_bytes():
            counts[name] = sum(1 for _ in open(base / name, encoding="utf-8"))
            continue
        a, b = records(base / name, key), records(head / name, key)
        counts[name] = len(a.keys() | b.keys())
        lines = []
        for ident in [*a, *(k for k in b if k not in a)]:
            if ident not in b or ident not in a:
                lines.append(f"{name} {ident}: only in {'base' if ident not in b else 'head'}")
            elif a[ident][1] != b[ident][1]:
                diffs = field_differences(json.loads(a[ident][1]), json.loads(b[ident][1]))
                lines.append(f"{name} {ident}: " + ("; ".join(diffs) or "written differently"))
        if not lines:
            lines.append(f"{name}: same records in another order")
        report += lines[:SHOWN_PER_FILE] + ([f"{name}: … and {len(lines) - SHOWN_PER_FILE} more"]
                                             if len(lines) > SHOWN_PER_FILE else [])
        report.append(f"{name}: {len(lines)} record(s) differ")
    return counts, report


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.dump is not None:
        return dump(args)
    repo_root = Path(__file__).resolve().parents[1]
    out = args.out or Path(tempfile.mkdtemp(prefix="sjt-compare-out-"))
    revisions = {"base": args.base, "head": args.head}
    commits = {role: subprocess.run(["git", "-C", str(repo_root), "rev-parse", "--short", rev], check=True,
                                    capture_output=True, text=True).stdout.strip() for role, rev in revisions.items()}
    print(f"base {args.base} ({commits['base']}) vs head {args.head} ({commits['head']}): "
          f"{len(list(args.pdf_dir.glob('*.pdf')))} PDFs of {args.pdf_dir}, questions {args.questions}", flush=True)
    processes = {role: run_revision(rev, args, out / role, repo_root) for role, rev in revisions.items()}
    try:
        failed = [role for role, process in processes.items() if process.wait() != 0]
    finally:
        for process in processes.values():
            if process.poll() is None:
                process.terminate()
            remove_worktree(repo_root, process.tree)  # type: ignore[attr-defined]
    if failed:
        print(f"error: the run of {', '.join(failed)} failed (see above)", file=sys.stderr)
        return 2
    counts, report = compare(out / "base", out / "head")
    questions = sum(1 for _ in read_questions(args.questions))
    print(f"compared {counts['units.jsonl']} units, {counts['corpus.jsonl']} corpus records, "
          f"{questions} questions × {len(SETTINGS)} settings ({counts['search.jsonl']} searches, top {args.k}); "
          f"files in {out}")
    if not report:
        print("identical: every unit, record and search result is byte-identical")
        return 0
    print("\n".join(report))
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
