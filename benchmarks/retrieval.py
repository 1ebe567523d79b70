"""Retrieval-quality harness: page recall, MRR, context tokens and latency of retrieval systems on report PDFs.

    python benchmarks/retrieval.py --pdf-dir sample_pdfs --questions benchmarks/questions/sample_pdfs.jsonl \\
        [--setting single-doc|corpus|corpus-filtered|both|all] [--systems bm25-fixed512,lite-fixed512] [-o out/retrieval]
        [--k 10]

Questions file: one JSON object per line with ``id``, ``pdf`` (a file name in the PDF folder), ``question``,
``evidence_pages`` (1-based) and optionally ``answer`` and ``tags`` (labels such as ``table``/``text``,
``en``/``ko``, ``cross-lingual``, ``page-break``; recall@5 is also reported per tag). Blank lines and lines
starting with ``#`` are skipped.

Each system ingests every PDF in the folder once (timed), then answers every question in each setting:

- ``single-doc``: the search is restricted to the question's PDF (``search(..., pdf=name)``);
- ``corpus``: the search runs over every PDF;
- ``corpus-filtered`` (systems with filters only: ``sjt-default``): over every PDF, filtered by the
  question's ``company`` and the year of its PDF's file name as the fiscal year (what a user who knows
  which filing they ask about passes as ``--where``).

A result is a hit when it comes from the question's PDF and its page span shares a page with
``evidence_pages``. Metrics: page recall@1/3/5/10 (share of questions with a hit in the top k), MRR of the
first hit within the top ``--k``, mean cl100k tokens of the top-5 results' text (what an LLM would be sent),
answer in context at 1 and 5 (share of the questions whose ``answer`` has numbers that have every one of
those numbers printed in the text of the first / top-5 results from the question's PDF: a window can cover
the evidence page without holding the answer), ans@5 over the questions whose evidence pages print the
answer (benchmarks/answers.py: most real-report answers are computed, and no retrieval carries those),
ingest seconds and pages/s, mean and p95 query milliseconds.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import re
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Iterable, Mapping, Optional, Sequence

import numpy as np

if __package__ in (None, ""):  # run as a script: make the repo and this folder importable
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from answers import TOKEN_BUDGETS, carries, printed_on_evidence, within_budget  # noqa: E402
from retrieval_systems import SYSTEMS, Hit, IngestStats, RetrievalSystem, SystemUnavailable  # noqa: E402

from evidence_chunker.tokens import count_tokens  # noqa: E402

SETTINGS = ("single-doc", "corpus", "corpus-filtered")
#: What ``--setting both`` runs.
DEFAULT_SETTINGS = ("single-doc", "corpus")
#: A year in a PDF's file name (finqa_dev names its filings COMPANY_YEAR_FORM.pdf): the filing's fiscal year.
FILE_YEAR_RE = re.compile(r"(?<!\d)(?:19|20)\d{2}(?!\d)")
#: Cut-offs of page recall; those above ``--k`` are not reported.
RECALL_CUTOFFS = (1, 3, 5, 10)
#: Results whose text is counted as the LLM context.
CONTEXT_RESULTS = 5
#: Results retrieved per question unless ``--k`` says otherwise.
DEFAULT_K = 10
#: Percentile reported for query latency.
LATENCY_PERCENTILE = 95
#: Untimed queries each system answers before the timed ones (lazy loading, thread pools, caches).
WARMUP_QUERIES = 3
#: Characters of each top result's text kept in results.json, to read why a question was missed.
RESULT_TEXT_CHARS = 600
#: Recall cut-off reported per question tag.
TAG_RECALL_CUTOFF = 5
DEFAULT_SYSTEMS = ("bm25-fixed512", "lite-fixed512", "st-fixed512")
REQUIRED_FIELDS = {"id": str, "pdf": str, "question": str, "evidence_pages": list}
OPTIONAL_FIELDS = {"answer": str, "tags": list, "company": str}
#: Fields that question sets such as finqa_dev and korean_dev carry for people; the harness reads none of them.
DESCRIPTIVE_FIELDS = {"source_dataset": str, "evidence_text": str, "evidence": list, "question_type": str,
                      "kind": str, "language": str}


class QuestionFileError(ValueError):
    """The questions file is malformed; the message names the file, the line and what to fix."""


@dataclass(frozen=True)
class Question:
    """One evaluation question; ``evidence_pages`` are 1-based pages of ``pdf`` that hold the answer."""

    id: str
    pdf: str
    question: str
    evidence_pages: frozenset[int]
    answer: Optional[str] = None
    tags: tuple[str, ...] = ()
    company: Optional[str] = None

    def filters(self) -> dict[str, str]:
        """What a user who knows the question's company and year filters a corpus search by (``corpus-filtered``):
        the ``company`` field, and the year of the PDF's file name as the fiscal year."""
        year = FILE_YEAR_RE.search(self.pdf)
        return {**({"company": self.company} if self.company else {}), **({"fiscal_year": year.group()} if year else {})}


# --------------------------------------------------------------------------- questions


def pdf_page_counts(pdf_dir: Path) -> dict[str, int]:
    """Page count of every ``*.pdf`` directly inside ``pdf_dir``, by file name."""
    import pypdfium2 as pdfium

    counts = {}
    for path in sorted(pdf_dir.glob("*.pdf")):
        document = pdfium.PdfDocument(str(path))
        counts[path.name] = len(document)
        document.close()
    return counts


def _parse_question(raw: object, where: str, page_counts: dict[str, int]) -> Question:
    if not isinstance(raw, dict):
        raise QuestionFileError(f"{where}: expected a JSON object, got {type(raw).__name__}")
    missing = [name for name in REQUIRED_FIELDS if name not in raw]
    if missing:
        raise QuestionFileError(f"{where}: missing field(s) {', '.join(missing)}")
    unknown = sorted(set(raw) - set(REQUIRED_FIELDS) - set(OPTIONAL_FIELDS) - set(DESCRIPTIVE_FIELDS))
    if unknown:
        allowed = ", ".join([*REQUIRED_FIELDS, *OPTIONAL_FIELDS, *DESCRIPTIVE_FIELDS])
        raise QuestionFileError(f"{where}: unknown field(s) {', '.join(unknown)} (allowed: {allowed})")
    for name, kind in {**REQUIRED_FIELDS, **OPTIONAL_FIELDS, **DESCRIPTIVE_FIELDS}.items():
        if name in raw and not isinstance(raw[name], kind):
            raise QuestionFileError(f"{where}: {name} must be a {kind.__name__}, got {raw[name]!r}")
    for name in ("id", "question"):
        if not raw[name].strip():
            raise QuestionFileError(f"{where}: {name} is empty")
    pdf = raw["pdf"]
    if pdf not in page_counts:
        known = ", ".join(sorted(page_counts)) or "none"
        raise QuestionFileError(f"{where}: unknown PDF {pdf!r}; the PDF folder holds: {known}")
    pages = raw["evidence_pages"]
    if not pages or not all(isinstance(p, int) and not isinstance(p, bool) for p in pages):
        raise QuestionFileError(f"{where}: evidence_pages must be a non-empty list of 1-based page numbers, got {pages!r}")
    out_of_range = [p for p in pages if not 1 <= p <= page_counts[pdf]]
    if out_of_range:
        raise QuestionFileError(
            f"{where}: evidence_pages {out_of_range} outside {pdf}'s pages 1..{page_counts[pdf]}"
        )
    tags = raw.get("tags", [])
    if not all(isinstance(t, str) and t for t in tags):
        raise QuestionFileError(f"{where}: tags must be a list of non-empty strings, got {tags!r}")
    return Question(
        id=raw["id"],
        pdf=pdf,
        question=raw["question"],
        evidence_pages=frozenset(pages),
        answer=raw.get("answer"),
        tags=tuple(tags),
        company=raw.get("company"),
    )


def load_questions(path: Path, pdf_dir: Path) -> list[Question]:
    """Parse and validate a questions JSONL file against the PDFs in ``pdf_dir``."""
    path, pdf_dir = Path(path), Path(pdf_dir)
    if not path.is_file():
        raise QuestionFileError(f"{path}: questions file not found")
    if not pdf_dir.is_dir():
        raise QuestionFileError(f"{pdf_dir}: PDF folder not found")
    page_counts = pdf_page_counts(pdf_dir)
    questions: list[Question] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        where = f"{path} line {number}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionFileError(f"{where}: not valid JSON ({exc.msg} at column {exc.colno})") from exc
        question = _parse_question(raw, where, page_counts)
        if question.id in seen:
            raise QuestionFileError(f"{where}: duplicate id {question.id!r} (first on line {seen[question.id]})")
        seen[question.id] = number
        questions.append(question)
    if not questions:
        raise QuestionFileError(f"{path}: no questions")
    return questions


# --------------------------------------------------------------------------- metrics


@dataclass
class QuestionOutcome:
    """How one system did on one question in one setting; ``rank`` is 1-based, None when not in the top k."""

    id: str
    rank: Optional[int]
    query_ms: float
    context_tokens: int
    answer_in_context: Optional[bool] = None
    answer_first: Optional[bool] = None
    results: list[dict] = field(default_factory=list)
    #: Per token budget: whether the results that fit in it (rank order, at least one) print the answer.
    answer_at_budget: dict[int, Optional[bool]] = field(default_factory=dict)


@dataclass
class SettingMetrics:
    """Aggregate metrics of one system in one setting (``recall`` maps a cut-off to a share of questions)."""

    system: str
    setting: str
    questions: int
    k: int
    recall: dict[int, float]
    mrr: float
    mean_context_tokens: float
    answer_recall: Optional[float]
    query_ms_mean: float
    query_ms_p95: float
    recall_by_tag: dict[str, float] = field(default_factory=dict)
    answer_recall_first: Optional[float] = None
    #: ans@5 over the questions whose evidence pages print the answer (answers.printed_on_evidence)
    answer_recall_printed: Optional[float] = None
    #: The same at fixed token budgets (answers.TOKEN_BUDGETS) instead of 5 results
    answer_printed_at_budget: dict[int, Optional[float]] = field(default_factory=dict)


def covers_evidence(hit: Hit, question: Question) -> bool:
    """True when ``hit`` comes from the question's PDF and covers one of its evidence pages."""
    return hit.pdf == question.pdf and not hit.pages.isdisjoint(question.evidence_pages)


def first_hit_rank(hits: Sequence[Hit], question: Question) -> Optional[int]:
    """1-based rank of the first hit that covers an evidence page, or None."""
    for rank, hit in enumerate(hits, start=1):
        if covers_evidence(hit, question):
            return rank
    return None


def answer_in_context(hits: Sequence[Hit], question: Question, cutoff: int = CONTEXT_RESULTS) -> Optional[bool]:
    """Whether every number of the answer is printed in the top ``cutoff`` hits from the question's PDF
    (answers.carries); None when the answer has no number, as in the finqa_dev README: a judgement answer
    neither counts as found nor as missed."""
    return carries(question.answer, [h.text for h in hits[:cutoff] if h.pdf == question.pdf])


def recall_at(ranks: Sequence[Optional[int]], cutoff: int) -> float:
    """Share of questions whose first hit ranks at or above ``cutoff``."""
    if not ranks:
        return 0.0
    return sum(1 for r in ranks if r is not None and r <= cutoff) / len(ranks)


def mean_reciprocal_rank(ranks: Sequence[Optional[int]]) -> float:
    """Mean of 1/rank of the first hit (0 for a question without one)."""
    if not ranks:
        return 0.0
    return sum(1.0 / r for r in ranks if r is not None) / len(ranks)


def run_setting(system: RetrievalSystem, questions: Sequence[Question], setting: str, k: int = DEFAULT_K) -> list[QuestionOutcome]:
    """Ask ``system`` every question in ``setting`` and record rank, latency and context tokens."""
    if setting not in SETTINGS:
        raise ValueError(f"unknown setting {setting!r}; expected one of {', '.join(SETTINGS)}")
    outcomes = []
    for question in questions:
        restrict = question.pdf if setting == "single-doc" else None
        where = {"where": question.filters()} if setting == "corpus-filtered" else {}
        started = time.perf_counter()
        hits = list(system.search(question.question, k, pdf=restrict, **where))[:k]
        elapsed_ms = (time.perf_counter() - started) * 1000.0
        tokens = [count_tokens(h.text) for h in hits]
        own = [h.text if h.pdf == question.pdf else "" for h in hits]
        budgets = {b: carries(question.answer, [own[i] for i in within_budget(own, tokens, b)]) for b in TOKEN_BUDGETS}
        outcomes.append(
            QuestionOutcome(
                id=question.id,
                rank=first_hit_rank(hits, question),
                query_ms=elapsed_ms,
                context_tokens=sum(tokens[:CONTEXT_RESULTS]),
                answer_at_budget=budgets,
                answer_in_context=answer_in_context(hits, question),
                answer_first=answer_in_context(hits, question, cutoff=1),
                results=[
                    {"pdf": h.pdf, "pages": sorted(h.pages), "score": round(h.score, 6),
                     **({"text": h.text[:RESULT_TEXT_CHARS]} if rank < CONTEXT_RESULTS else {})}
                    for rank, h in enumerate(hits)
                ],
            )
        )
    return outcomes


def summarise(
    system: str, setting: str, questions: Sequence[Question], outcomes: Sequence[QuestionOutcome], k: int = DEFAULT_K,
    printed: Optional[Mapping[str, bool]] = None,
) -> SettingMetrics:
    """Aggregate per-question outcomes (in the order of ``questions``) into SettingMetrics; ``printed`` (question
    id → whether its evidence pages print its answer) gives the ans@5 over the answers that are printed."""
    ranks = [o.rank for o in outcomes]
    latencies = np.array([o.query_ms for o in outcomes], dtype=float)
    answered = [o.answer_in_context for o in outcomes if o.answer_in_context is not None]
    carried = [bool(o.answer_in_context) for o in outcomes if printed and printed.get(o.id)]
    answered_first = [o.answer_first for o in outcomes if o.answer_first is not None]
    by_tag: dict[str, list[Optional[int]]] = {}
    for question, outcome in zip(questions, outcomes):
        for tag in question.tags:
            by_tag.setdefault(tag, []).append(outcome.rank)
    return SettingMetrics(
        system=system,
        setting=setting,
        questions=len(outcomes),
        k=k,
        recall={c: recall_at(ranks, c) for c in RECALL_CUTOFFS if c <= k},
        mrr=mean_reciprocal_rank(ranks),
        mean_context_tokens=float(np.mean([o.context_tokens for o in outcomes])) if outcomes else 0.0,
        answer_recall=sum(answered) / len(answered) if answered else None,
        answer_recall_first=sum(answered_first) / len(answered_first) if answered_first else None,
        answer_recall_printed=sum(carried) / len(carried) if carried else None,
        answer_printed_at_budget={b: _share([bool(o.answer_at_budget.get(b)) for o in outcomes if printed and printed.get(o.id)])
                                  for b in TOKEN_BUDGETS},
        query_ms_mean=float(latencies.mean()) if len(latencies) else 0.0,
        query_ms_p95=float(np.percentile(latencies, LATENCY_PERCENTILE)) if len(latencies) else 0.0,
        recall_by_tag={tag: recall_at(r, min(TAG_RECALL_CUTOFF, k)) for tag, r in sorted(by_tag.items())},
    )


# --------------------------------------------------------------------------- running


@dataclass
class SystemRun:
    """One system's ingest and its metrics in each setting."""

    system: str
    ingest: IngestStats
    setup_seconds: float
    ingest_seconds: float
    settings: list[SettingMetrics]
    outcomes: dict[str, list[QuestionOutcome]]

    @property
    def pages_per_second(self) -> float:
        return self.ingest.pages / self.ingest_seconds if self.ingest_seconds > 0 else float("inf")


def run_system(
    system_name: str, pdfs: Sequence[Path], questions: Sequence[Question], settings: Iterable[str], k: int = DEFAULT_K,
    printed: Optional[Mapping[str, bool]] = None,
) -> SystemRun:
    """Build the named system (SYSTEMS), ingest ``pdfs`` once, then evaluate each setting."""
    count_tokens("warm-up")  # load cl100k once, so the first system's ingest is not billed for it
    started = time.perf_counter()
    system = SYSTEMS[system_name]()
    setup_seconds = time.perf_counter() - started
    started = time.perf_counter()
    stats = system.ingest(list(pdfs))
    ingest_seconds = time.perf_counter() - started
    for question in questions[:WARMUP_QUERIES]:
        system.search(question.question, k, pdf=None)
    metrics, outcomes = [], {}
    for setting in settings:
        outcomes[setting] = run_setting(system, questions, setting, k)
        metrics.append(summarise(system_name, setting, questions, outcomes[setting], k, printed))
    return SystemRun(system_name, stats, setup_seconds, ingest_seconds, metrics, outcomes)


def hardware_summary() -> str:
    """CPU model, logical cores and Python version of this machine (no GPU is used by the harness)."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} logical cores, Python {platform.python_version()}, {platform.system()}"


def _fmt_ratio(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.3f}"


TABLE_COLUMNS = ("system", "setting", "R@1", "R@3", "R@5", "R@10", "MRR", "ans@1", "ans@5", "ans@5 printed", "top-5 tok", "ingest s", "pages/s", "query ms", "p95 ms")


def table_rows(runs: Sequence[SystemRun]) -> list[list[str]]:
    """One row of TABLE_COLUMNS per system and setting."""
    rows = []
    for run in runs:
        for m in run.settings:
            rows.append(
                [
                    m.system,
                    m.setting,
                    *(_fmt_ratio(m.recall.get(c)) for c in RECALL_CUTOFFS),
                    f"{m.mrr:.3f}",
                    _fmt_ratio(m.answer_recall_first),
                    _fmt_ratio(m.answer_recall),
                    _fmt_ratio(m.answer_recall_printed),
                    f"{m.mean_context_tokens:.0f}",
                    f"{run.ingest_seconds:.2f}",
                    f"{run.pages_per_second:.1f}",
                    f"{m.query_ms_mean:.1f}",
                    f"{m.query_ms_p95:.1f}",
                ]
            )
    return rows


def format_text_table(runs: Sequence[SystemRun]) -> str:
    """A fixed-width table for the terminal."""
    rows = [list(TABLE_COLUMNS), *table_rows(runs)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(TABLE_COLUMNS))]
    lines = ["  ".join(cell.ljust(w) if i < 2 else cell.rjust(w) for i, (cell, w) in enumerate(zip(r, widths))) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def format_markdown_table(runs: Sequence[SystemRun]) -> str:
    """The same table as GitHub markdown."""
    header = "| " + " | ".join(TABLE_COLUMNS) + " |"
    rule = "| " + " | ".join("---" if i < 2 else "---:" for i in range(len(TABLE_COLUMNS))) + " |"
    return "\n".join([header, rule, *("| " + " | ".join(r) + " |" for r in table_rows(runs))])


def _share(flags: Sequence[bool]) -> Optional[float]:
    return sum(flags) / len(flags) if flags else None

def format_budget_table(runs: Sequence[SystemRun]) -> str:
    """A@k printed at fixed token budgets (the results in rank order that fit), as markdown."""
    lines = ["| system | setting | " + " | ".join(f"{b:,} tok" for b in TOKEN_BUDGETS) + " |",
             "| --- | --- | " + " | ".join("---:" for _ in TOKEN_BUDGETS) + " |"]
    for run in runs:
        for m in run.settings:
            lines.append(f"| {m.system} | {m.setting} | "
                         + " | ".join(_fmt_ratio(m.answer_printed_at_budget.get(b)) for b in TOKEN_BUDGETS) + " |")
    return "\n".join(lines)


def format_tag_table(runs: Sequence[SystemRun]) -> str:
    """Recall@5 per question tag, one row per system and setting, as markdown."""
    tags = sorted({tag for run in runs for m in run.settings for tag in m.recall_by_tag})
    if not tags:
        return ""
    lines = ["| system | setting | " + " | ".join(tags) + " |", "| --- | --- | " + " | ".join("---:" for _ in tags) + " |"]
    for run in runs:
        for m in run.settings:
            lines.append(f"| {m.system} | {m.setting} | " + " | ".join(_fmt_ratio(m.recall_by_tag.get(t)) for t in tags) + " |")
    return "\n".join(lines)


def results_document(
    runs: Sequence[SystemRun], questions: Sequence[Question], skipped: dict[str, str], meta: dict
) -> dict:
    """Everything a run produced, as JSON-ready data (metrics, ingest stats, per-question ranks)."""
    tag_counts: dict[str, int] = {}
    for q in questions:
        for tag in q.tags:
            tag_counts[tag] = tag_counts.get(tag, 0) + 1
    return {
        **meta,
        "questions": len(questions),
        "question_tags": dict(sorted(tag_counts.items())),
        "skipped_systems": skipped,
        "systems": [
            {
                "system": run.system,
                "ingest": {
                    **asdict(run.ingest),
                    "setup_seconds": round(run.setup_seconds, 4),
                    "seconds": round(run.ingest_seconds, 4),
                    "pages_per_second": round(run.pages_per_second, 3),
                },
                "settings": [
                    {
                        **{key: value for key, value in asdict(m).items() if key not in ("system", "recall")},
                        "recall": {f"@{c}": v for c, v in m.recall.items()},
                        "per_question": [asdict(o) for o in run.outcomes[m.setting]],
                    }
                    for m in run.settings
                ],
            }
            for run in runs
        ],
    }


def results_markdown(runs: Sequence[SystemRun], questions: Sequence[Question], skipped: dict[str, str], meta: dict) -> str:
    """results.md: how the run was made, the main table, recall@5 by tag, skipped systems."""
    parts = [
        "# Retrieval results",
        "",
        f"- command: `{meta['command']}`",
        f"- date (UTC): {meta['date']}",
        f"- hardware: {meta['hardware']}",
        f"- questions: {len(questions)} from `{meta['questions_file']}` over {meta['pdfs']} PDFs ({meta['pages']} pages) in `{meta['pdf_dir']}`",
        f"- k = {meta['k']}; a hit is a result from the question's PDF covering an evidence page; "
        f"ans@1 / ans@{CONTEXT_RESULTS} = share of questions whose answer is in the first / top {CONTEXT_RESULTS} results' text "
        "(every number of the answer printed there; over the answers that have numbers); "
        f"ans@{CONTEXT_RESULTS} printed = the same over the {meta.get('answers_printed', '-')} of "
        f"{meta.get('numeric_answers', '-')} answers that their evidence pages print (the rest are computed); "
        f"top-{CONTEXT_RESULTS} tok = mean cl100k tokens of the top {CONTEXT_RESULTS} results' text",
        "",
        format_markdown_table(runs),
        "",
    ]
    parts += ["A@k printed at fixed token budgets (the results in rank order that fit, at least one; over the "
              "answers their evidence pages print):", "", format_budget_table(runs), ""]
    tag_table = format_tag_table(runs)
    if tag_table:
        parts += [f"Recall@{TAG_RECALL_CUTOFF} by question tag:", "", tag_table, ""]
    if skipped:
        parts += ["Skipped systems:", ""] + [f"- `{name}`: {reason}" for name, reason in skipped.items()] + [""]
    return "\n".join(parts)


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Page recall, MRR, context tokens and latency of retrieval systems on a folder of PDFs.",
        epilog="Known systems: " + ", ".join(SYSTEMS),
    )
    parser.add_argument("--pdf-dir", required=True, type=Path, help="folder of PDFs (the corpus)")
    parser.add_argument("--questions", required=True, type=Path, help="questions JSONL (id, pdf, question, evidence_pages)")
    parser.add_argument("--setting", choices=[*SETTINGS, "both", "all"], default="both",
                        help="both: single-doc and corpus; all: every setting")
    parser.add_argument("--systems", default=",".join(DEFAULT_SYSTEMS), help="comma-separated system names")
    parser.add_argument("-o", "--output", type=Path, default=None, help="write results.json and results.md here")
    parser.add_argument("--k", type=int, default=DEFAULT_K, help="results retrieved per question (default 10)")
    parser.add_argument("--max-questions", type=int, default=None,
                        help="only the first N questions (a quick check while developing; report full runs)")
    args = parser.parse_args(argv)
    if args.k < 1:
        parser.error("--k must be at least 1")
    args.system_names = [s.strip() for s in args.systems.split(",") if s.strip()]
    unknown = [s for s in args.system_names if s not in SYSTEMS]
    if unknown or not args.system_names:
        parser.error(f"unknown system(s) {', '.join(unknown) or '(none given)'}; known: {', '.join(SYSTEMS)}")
    return args


def main(argv: Optional[Sequence[str]] = None) -> int:
    args = parse_args(argv)
    try:
        questions = load_questions(args.questions, args.pdf_dir)
    except QuestionFileError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.max_questions is not None:
        questions = questions[: args.max_questions]
    pdfs = sorted(args.pdf_dir.glob("*.pdf"))
    settings = {"both": list(DEFAULT_SETTINGS), "all": list(SETTINGS)}.get(args.setting, [args.setting])
    if not any(setting.startswith("corpus") for setting in settings):  # single-document search reads only the questions' own PDFs
        asked = {q.pdf for q in questions}
        pdfs = [p for p in pdfs if p.name in asked]
    print(f"{len(questions)} questions, {len(pdfs)} PDFs in {args.pdf_dir}, settings: {', '.join(settings)}, k={args.k}")

    printed = printed_on_evidence(questions, args.pdf_dir)
    print(f"{sum(printed.values())} of {len(printed)} answers with numbers are printed on their evidence pages "
          f"(the rest are computed): no system can carry more than {sum(printed.values())} of them")
    runs: list[SystemRun] = []
    skipped: dict[str, str] = {}
    for name in args.system_names:
        try:
            run = run_system(name, pdfs, questions, settings, args.k, printed)
        except SystemUnavailable as exc:
            skipped[name] = str(exc)
            print(f"skipping {name}: {exc}")
            continue
        runs.append(run)
        print(f"{name}: ingested {run.ingest.pages} pages into {run.ingest.units} units in {run.ingest_seconds:.2f}s")

    print()
    print(format_text_table(runs) if runs else "no system ran")
    meta = {
        "command": " ".join(["python", "benchmarks/retrieval.py", *(argv if argv is not None else sys.argv[1:])]),
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        "hardware": hardware_summary(),
        "pdf_dir": str(args.pdf_dir),
        "questions_file": str(args.questions),
        "pdfs": len(pdfs),
        "pages": sum(n for name, n in pdf_page_counts(args.pdf_dir).items() if name in {p.name for p in pdfs}),
        "k": args.k,
        "numeric_answers": len(printed),
        "answers_printed": sum(printed.values()),
    }
    if args.output is not None:
        args.output.mkdir(parents=True, exist_ok=True)
        document = results_document(runs, questions, skipped, meta)
        (args.output / "results.json").write_text(json.dumps(document, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        (args.output / "results.md").write_text(results_markdown(runs, questions, skipped, meta), encoding="utf-8")
        print(f"\nwrote {args.output / 'results.json'} and {args.output / 'results.md'}")
    return 0 if runs else 1


if __name__ == "__main__":
    sys.exit(main())
