"""The retrieval harness (benchmarks/retrieval.py), its baselines and its question set over sample_pdfs."""

from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path
from typing import Optional

import pytest

from repo_paths import BENCHMARKS, SAMPLE_PDFS
from repo_paths import SAMPLE_QUESTIONS as QUESTIONS

sys.path.insert(0, str(BENCHMARKS))

import retrieval  # noqa: E402
import retrieval_systems  # noqa: E402
from retrieval import Question, QuestionFileError, load_questions, run_setting, summarise  # noqa: E402
from retrieval_systems import (  # noqa: E402
    BM25FixedWindows,
    Hit,
    IngestStats,
    SystemUnavailable,
    bm25_tokens,
    extract_page_texts,
    fixed_windows,
)

from evidence_chunker.tokens import count_tokens  # noqa: E402

HANGUL = re.compile(r"[\uac00-\ud7a3]")


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@lru_cache(maxsize=None)
def _pdfplumber_pages(pdf: str) -> tuple[str, ...]:
    import pdfplumber

    with pdfplumber.open(SAMPLE_PDFS / pdf) as document:
        return tuple(_squash(page.extract_text() or "") for page in document.pages)


# --------------------------------------------------------------------------- the question set


def test_question_file_is_valid_and_covers_the_required_mix():
    questions = load_questions(QUESTIONS, SAMPLE_PDFS)
    tags = [set(q.tags) for q in questions]
    assert len(questions) >= 36
    assert {q.pdf for q in questions} == {p.name for p in SAMPLE_PDFS.glob("*.pdf")}
    assert sum(bool(HANGUL.search(q.question)) for q in questions) >= 12
    table = sum("table" in t for t in tags)
    assert 0.4 <= table / len(questions) <= 0.6
    assert sum("text" in t for t in tags) == len(questions) - table
    cross = [q for q in questions if "cross-lingual" in q.tags]
    assert len(cross) >= 3 and all(q.pdf == "credit_review_ko.pdf" for q in cross)
    assert sum("page-break" in t for t in tags) >= 3


def test_every_answer_appears_on_one_of_its_evidence_pages():
    for question in load_questions(QUESTIONS, SAMPLE_PDFS):
        assert question.answer, f"{question.id} has no answer"
        pages = _pdfplumber_pages(question.pdf)
        found = [p for p in sorted(question.evidence_pages) if _squash(question.answer) in pages[p - 1]]
        assert found, f"{question.id}: {question.answer!r} is on none of pages {sorted(question.evidence_pages)} of {question.pdf}"


def test_page_break_questions_are_the_ones_the_sample_map_describes():
    by_id = {q.id: q for q in load_questions(QUESTIONS, SAMPLE_PDFS)}
    # Balance sheet part 2 (page 5) has no caption of its own; Table 3's explanation ends page 2.
    assert by_id["en-06"].evidence_pages == {5} and "page-break" in by_id["en-06"].tags
    assert by_id["en-17"].evidence_pages == {2, 3}
    assert by_id["ko-01"].answer == "1,682.5" and by_id["ko-01"].evidence_pages == {2}


def _write(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "q.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


GOOD = json.dumps({"id": "a", "pdf": "mixed_brief.pdf", "question": "q?", "evidence_pages": [1]})


@pytest.mark.parametrize(
    "bad, message",
    [
        ('{"id": "b", "pdf": ', "line 2: not valid JSON"),
        (json.dumps({"id": "b", "pdf": "nope.pdf", "question": "q?", "evidence_pages": [1]}), "line 2: unknown PDF 'nope.pdf'"),
        (json.dumps({"id": "b", "pdf": "mixed_brief.pdf", "question": "q?", "evidence_pages": [2]}), "line 2: evidence_pages [2] outside"),
        (json.dumps({"id": "b", "pdf": "mixed_brief.pdf", "question": "q?", "evidence_pages": []}), "line 2: evidence_pages must be"),
        (json.dumps({"id": "b", "pdf": "mixed_brief.pdf", "question": "q?", "evidence_page": [1]}), "line 2: missing field(s) evidence_pages"),
        (json.dumps({"id": "b", "pdf": "mixed_brief.pdf", "question": "q?", "evidence_pages": [1], "page": 1}), "line 2: unknown field(s) page"),
        (json.dumps({"id": "a", "pdf": "mixed_brief.pdf", "question": "q?", "evidence_pages": [1]}), "line 2: duplicate id 'a' (first on line 1)"),
        ("[1, 2]", "line 2: expected a JSON object"),
    ],
)
def test_malformed_question_lines_are_reported_with_their_line_number(tmp_path, bad, message):
    with pytest.raises(QuestionFileError) as excinfo:
        load_questions(_write(tmp_path, [GOOD, bad]), SAMPLE_PDFS)
    assert message in str(excinfo.value)


def test_blank_and_comment_lines_are_skipped(tmp_path):
    questions = load_questions(_write(tmp_path, ["# a comment", "", GOOD]), SAMPLE_PDFS)
    assert [q.id for q in questions] == ["a"]


# --------------------------------------------------------------------------- metrics on a fake system


def _q(qid: str, pdf: str, pages: set[int], tags=()) -> Question:
    return Question(id=qid, pdf=pdf, question=f"question {qid}", evidence_pages=frozenset(pages), tags=tuple(tags))


def _hit(pdf: str, *pages: int, text: str = "filler") -> Hit:
    return Hit(pdf=pdf, pages=frozenset(pages), text=text, score=1.0)


class FakeSystem:
    """Returns a fixed ranked list per question and records the pdf filter it was given."""

    name = "fake"

    def __init__(self, answers: dict[str, list[Hit]]) -> None:
        self.answers = answers
        self.filters: list[Optional[str]] = []

    def ingest(self, pdfs):
        return IngestStats(documents=len(pdfs), pages=0, units=0)

    def search(self, query, k, pdf=None):
        self.filters.append(pdf)
        return self.answers[query.removeprefix("question ")]


def test_recall_and_mrr_are_exact_on_known_rankings():
    questions = [
        _q("q1", "a.pdf", {2}, tags=["table"]),
        _q("q2", "a.pdf", {4}, tags=["table"]),
        _q("q3", "b.pdf", {1}, tags=["text"]),
        _q("q4", "b.pdf", {9}, tags=["text"]),
    ]
    other = _hit("a.pdf", 7)
    system = FakeSystem(
        {
            "q1": [_hit("a.pdf", 1, 2), other],  # rank 1 (a window spanning pages 1-2 covers page 2)
            "q2": [other, other, _hit("a.pdf", 4, 5)],  # rank 3
            # the right page of the wrong PDF never counts; the right one arrives at rank 7
            "q3": [_hit("a.pdf", 1)] * 6 + [_hit("b.pdf", 1)],
            "q4": [_hit("b.pdf", 8)] * 10,  # never
        }
    )
    outcomes = run_setting(system, questions, "corpus", k=10)
    assert [o.rank for o in outcomes] == [1, 3, 7, None]
    metrics = summarise("fake", "corpus", questions, outcomes, k=10)
    assert metrics.recall == {1: 0.25, 3: 0.5, 5: 0.5, 10: 0.75}
    assert metrics.mrr == pytest.approx((1 + 1 / 3 + 1 / 7 + 0) / 4)
    assert metrics.recall_by_tag == {"table": 1.0, "text": 0.0}
    assert system.filters == [None] * 4


def test_single_doc_passes_the_questions_pdf_and_k_truncates():
    questions = [_q("q1", "a.pdf", {3})]
    system = FakeSystem({"q1": [_hit("a.pdf", 1)] * 4 + [_hit("a.pdf", 3)]})
    outcomes = run_setting(system, questions, "single-doc", k=3)
    assert system.filters == ["a.pdf"]
    assert outcomes[0].rank is None and len(outcomes[0].results) == 3
    metrics = summarise("fake", "single-doc", questions, outcomes, k=3)
    assert metrics.recall == {1: 0.0, 3: 0.0}  # cut-offs above k are not reported
    assert metrics.mrr == 0.0


def test_answer_recall_looks_for_every_number_of_the_answer_in_the_top_five_results_of_the_right_pdf():
    def q(qid, answer):
        return Question(id=qid, pdf="a.pdf", question=f"question {qid}", evidence_pages=frozenset({1}), answer=answer)

    questions = [q("q1", "1,682.5"), q("q2", "단정하기는 어렵다"), q("q3", "0.48"), Question("q4", "a.pdf", "question q4", frozenset({1}))]
    system = FakeSystem(
        {
            "q1": [_hit("a.pdf", 1, text="2026년 1,400 282.5 1,682.5")],
            "q2": [_hit("a.pdf", 2, text="유지된다고 단정하기는\n어렵다.")],  # no number: not measured
            "q3": [_hit("b.pdf", 1, text="0.48")] + [_hit("a.pdf", 1)] * 4 + [_hit("a.pdf", 1, text="0.48")],
            "q4": [_hit("a.pdf", 1)],
        }
    )
    outcomes = run_setting(system, questions, "corpus", k=10)
    assert [o.answer_in_context for o in outcomes] == [True, None, False, None]
    assert summarise("fake", "corpus", questions, outcomes).answer_recall == pytest.approx(1 / 2)


def test_ans_at_5_printed_counts_only_the_answers_their_evidence_pages_print():
    """Real PDF pages: en-02's answer (0.48) is printed on its page 6; a computed answer on the same page is not."""
    from answers import printed_on_evidence

    def q(qid, answer):
        return Question(id=qid, pdf="annual_report_en.pdf", question=qid, evidence_pages=frozenset({6}), answer=answer)

    questions = [q("printed", "0.48"), q("computed", "It rose 12.34567%"), q("judgement", "Yes, it did.")]
    printed = printed_on_evidence(questions, SAMPLE_PDFS)
    assert printed == {"printed": True, "computed": False}  # no number: not measured
    system = FakeSystem({"printed": [_hit("annual_report_en.pdf", 6, text="EPS 0.48")],
                         "computed": [_hit("annual_report_en.pdf", 6)], "judgement": [_hit("annual_report_en.pdf", 6)]})
    outcomes = run_setting(system, questions, "single-doc", k=5)
    metrics = summarise("fake", "single-doc", questions, outcomes, k=5, printed=printed)
    assert metrics.answer_recall == pytest.approx(1 / 2)
    assert metrics.answer_recall_printed == pytest.approx(1.0)
    assert summarise("fake", "single-doc", questions, outcomes, k=5).answer_recall_printed is None


def test_a_pdf_whose_evidence_pages_cannot_be_read_is_reported_and_left_out(tmp_path, capsys):
    from answers import printed_on_evidence

    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7 this is not a PDF")
    question = Question(id="q", pdf="broken.pdf", question="q", evidence_pages=frozenset({1}), answer="0.48")
    assert printed_on_evidence([question], tmp_path) == {}
    assert "broken.pdf: cannot read evidence pages [1]" in capsys.readouterr().err


def test_context_tokens_count_the_top_five_results_text():
    texts = ["Revenue 12,480", "부채비율 201.9%", "x", "y", "z", "not counted: sixth result"]
    system = FakeSystem({"q1": [_hit("a.pdf", 1, text=t) for t in texts]})
    outcomes = run_setting(system, [_q("q1", "a.pdf", {1})], "corpus", k=10)
    assert outcomes[0].context_tokens == sum(count_tokens(t) for t in texts[:5])


# --------------------------------------------------------------------------- windows and the BM25 tokeniser


@pytest.mark.parametrize("pdf", sorted(p.name for p in SAMPLE_PDFS.glob("*.pdf")))
def test_windows_never_exceed_512_tokens_and_overlap_by_64(pdf):
    page_texts = extract_page_texts(SAMPLE_PDFS / pdf)
    windows = fixed_windows(pdf, page_texts)
    assert windows and all(count_tokens(w.text) <= 512 for w in windows)
    assert windows[0].token_start == 0
    for before, after in zip(windows, windows[1:]):
        assert after.token_start == before.token_start + 512 - 64
        assert before.token_end - after.token_start == 64
        assert after.text[:30] in before.text  # the overlap really is shared text
    assert all(w.token_end - w.token_start == 512 for w in windows[:-1])
    assert set().union(*(w.pages for w in windows)) == set(range(1, len(page_texts) + 1))


def test_windows_of_korean_text_stay_within_the_limit_when_cut_inside_a_character():
    page = "B기업은 현재까지 원리금을 정상적으로 상환하고 있다. 다만 중장기적으로 상환능력이 유지된다고 단정하기는 어렵다. " * 120
    windows = fixed_windows("ko.pdf", [page, page])
    assert len(windows) > 4
    assert all(count_tokens(w.text) <= 512 for w in windows)
    assert windows[-1].pages == {2} and windows[0].pages == {1}


def test_bm25_tokens_match_korean_inflections_and_keep_numbers_whole():
    assert set(bm25_tokens("상환능력")) <= set(bm25_tokens("상환능력은"))
    assert "1,550.3" in bm25_tokens("원리금 1,550.3억원을")
    assert bm25_tokens("What was the diluted EPS in Q3 2019?") == ["diluted", "eps", "q3", "2019"]


# --------------------------------------------------------------------------- baselines end to end


@pytest.fixture(scope="module")
def bm25_system():
    system = BM25FixedWindows()
    stats = system.ingest(sorted(SAMPLE_PDFS.glob("*.pdf")))
    assert stats == IngestStats(documents=3, pages=10, units=len(system.windows))
    return system


def test_bm25_finds_the_page_of_an_exact_number_question(bm25_system):
    by_id = {q.id: q for q in load_questions(QUESTIONS, SAMPLE_PDFS)}
    for qid in ("en-02", "ko-01"):
        question = by_id[qid]
        for setting in ("single-doc", "corpus"):
            [outcome] = run_setting(bm25_system, [question], setting, k=10)
            assert outcome.rank == 1, (qid, setting, outcome.results)
    top = bm25_system.search("What was the diluted EPS in Q3 2019?", 3, pdf="annual_report_en.pdf")
    assert 6 in top[0].pages
    assert any(6 in h.pages and "Q3 2019 2,244 876 39.0% 298 210 0.48" in h.text for h in top)
    assert all(h.pdf == "credit_review_ko.pdf" for h in bm25_system.search("EPS 2019", 10, pdf="credit_review_ko.pdf"))


def test_bm25_records_ranks_the_library_corpus_records_and_returns_their_text(monkeypatch):
    from evidence_chunker import EvidenceChunker

    monkeypatch.delenv(retrieval_systems.PARSE_CACHE_ENV, raising=False)
    pdfs = sorted(SAMPLE_PDFS.glob("*.pdf"))
    system = retrieval_systems.SYSTEMS["bm25-records"]()
    stats = system.ingest(pdfs)
    records = [chunk for pdf in pdfs for chunk in EvidenceChunker(parser="lite").build_corpus(pdf)]
    assert stats == IngestStats(documents=3, pages=10, units=len(records))
    assert {w.text for w in system.windows} == {chunk.text for chunk in records}
    [top] = system.search("What was the diluted EPS in Q3 2019?", 1, pdf="annual_report_en.pdf")
    assert 6 in top.pages and "0.48" in top.text and "| - |" in top.text  # the quarterly table


def test_cli_writes_results_for_the_bm25_baseline(tmp_path, capsys):
    subset = tmp_path / "subset.jsonl"
    lines = [line for line in QUESTIONS.read_text(encoding="utf-8").splitlines() if '"en-02"' in line or '"ko-01"' in line]
    subset.write_text("\n".join(lines) + "\n", encoding="utf-8")
    code = retrieval.main(
        ["--pdf-dir", str(SAMPLE_PDFS), "--questions", str(subset), "--systems", "bm25-fixed512", "-o", str(tmp_path / "out")]
    )
    assert code == 0
    assert "bm25-fixed512" in capsys.readouterr().out
    document = json.loads((tmp_path / "out" / "results.json").read_text(encoding="utf-8"))
    [system] = document["systems"]
    assert [s["setting"] for s in system["settings"]] == ["single-doc", "corpus"]
    assert all(s["recall"]["@1"] == 1.0 for s in system["settings"])
    assert system["ingest"]["pages"] == 10
    assert "| bm25-fixed512 | corpus |" in (tmp_path / "out" / "results.md").read_text(encoding="utf-8")
    assert (document["numeric_answers"], document["answers_printed"]) == (2, 2)
    assert all(s["answer_recall_printed"] is not None for s in system["settings"])


def test_cli_rejects_an_unknown_system(capsys):
    with pytest.raises(SystemExit) as excinfo:
        retrieval.main(["--pdf-dir", str(SAMPLE_PDFS), "--questions", str(QUESTIONS), "--systems", "nope"])
    assert excinfo.value.code == 2
    assert "unknown system(s) nope" in capsys.readouterr().err


def test_lite_baseline_ranks_windows_with_the_lite_embedder():
    system = retrieval_systems.SYSTEMS["lite-fixed512"]()
    system.ingest([SAMPLE_PDFS / "credit_review_ko.pdf"])
    hits = system.search("2026년 원리금 상환 예정액(합계)은 얼마인가?", 3)
    assert hits and 2 in hits[0].pages
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.parametrize("name", ["st-fixed512", "st-records"])
def test_st_systems_are_skipped_with_a_reason_without_sentence_transformers(monkeypatch, name):
    real_find_spec = retrieval_systems.importlib.util.find_spec
    monkeypatch.setattr(
        retrieval_systems.importlib.util,
        "find_spec",
        lambda module, *a: None if module == "sentence_transformers" else real_find_spec(module, *a),
    )
    with pytest.raises(SystemUnavailable, match="pip install sentence-transformers"):
        retrieval_systems.SYSTEMS[name]()


def test_dense_records_rank_the_corpus_records_by_an_embedders_cosine(monkeypatch):
    from evidence_chunker import EvidenceChunker
    from semantic_json import LiteEmbedder

    monkeypatch.delenv(retrieval_systems.PARSE_CACHE_ENV, raising=False)
    pdf = SAMPLE_PDFS / "credit_review_ko.pdf"
    system = retrieval_systems.DenseRecords("lite-records", LiteEmbedder())
    stats = system.ingest([pdf])
    records = EvidenceChunker(parser="lite").build_corpus(pdf)
    assert stats == IngestStats(documents=1, pages=3, units=len(records))
    assert [w.text for w in system.windows] == [chunk.text for chunk in records]
    hits = system.search("2026년 원리금 상환 예정액(합계)은 얼마인가?", 3)
    assert hits and 2 in hits[0].pages
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_a_token_budget_takes_the_results_in_rank_order_that_fit_and_at_least_one():
    from answers import within_budget

    texts = ["a", "b", "c", "d"]
    assert within_budget(texts, [400, 300, 200, 900], 600) == [0]
    assert within_budget(texts, [400, 300, 200, 900], 1000) == [0, 1, 2]
    assert within_budget(texts, [3000, 10, 10, 10], 600) == [0]  # the first result even when over the budget
    assert within_budget(texts, [100, 900, 10, 10], 600) == [0]  # rank order: no skipping ahead to what fits
