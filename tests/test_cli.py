"""The sjt command: chunk, corpus, diagnose and check-answer as a user runs them."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys

import pytest

from evidence_chunker.cli import main as sjt
from pdf_factory import corrupt_pdf
from repo_paths import SAMPLE_PDFS


def test_help_lists_every_subcommand():
    out = subprocess.run([sys.executable, "-m", "evidence_chunker.cli", "--help"], capture_output=True, text=True)
    assert out.returncode == 0
    for command in ("chunk", "corpus", "ingest", "search", "show", "verify", "diagnose", "check-answer"):
        assert command in out.stdout


def test_chunk_writes_units_and_reports_a_bad_pdf_by_name(tmp_path, capsys):
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    shutil.copy(SAMPLE_PDFS / "mixed_brief.pdf", pdfs)
    corrupt_pdf(pdfs / "broken.pdf")
    out = tmp_path / "units.jsonl"
    assert sjt(["chunk", str(pdfs), "--parser", "lite", "-o", str(out), "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "broken.pdf" in err and "1 failed" in err
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert records[0]["eu_id"] == "mixed_brief-p1-1"
    assert records[0]["caption_text"].startswith("Table 1. Key figures")


def test_chunk_output_is_replaced_whole_never_half_written(tmp_path, monkeypatch):
    out = tmp_path / "units.jsonl"
    out.write_text("previous run\n")

    def crash(self, parsed, doc_id=None):
        raise RuntimeError("crash in the middle of a run")

    monkeypatch.setattr("evidence_chunker.chunker.EvidenceChunker.chunk_parsed", crash)
    with pytest.raises(RuntimeError):
        sjt(["chunk", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--parser", "lite", "-o", str(out)])
    assert out.read_text() == "previous run\n"
    assert [p.name for p in tmp_path.iterdir()] == ["units.jsonl"]  # no temporary file left behind


def test_chunk_text_format_reads_like_a_listing(capsys):
    assert sjt(["chunk", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--parser", "lite", "--format", "text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("== mixed_brief-p1-1  pages [1]  caption (inferred): Table 1. Key figures")
    assert "   row: 매출액 (Revenue) | 2022: 1,842" in out


def test_corpus_records_follow_the_documented_schema(tmp_path):
    out = tmp_path / "corpus.jsonl"
    assert sjt(["corpus", str(SAMPLE_PDFS / "credit_review_ko.pdf"), "--parser", "lite", "-o", str(out)]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {r["schema"] for r in records} == {"evidence-chunker/corpus-record/v1"}
    assert {r["kind"] for r in records} == {"table", "text"}
    table = next(r for r in records if r["kind"] == "table" and r["metadata"]["caption_text"])
    assert table["metadata"]["page_boxes"][0]["coord_origin"] == "BOTTOMLEFT"


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    index = root / "index.sqlite"
    assert sjt(["ingest", str(SAMPLE_PDFS), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    return index


def test_diagnose_prints_evidence_figures_per_document(index, capsys):
    assert sjt(["diagnose", "--index", str(index), "--json"]) == 0
    rows = {row["document_id"]: row for row in json.loads(capsys.readouterr().out)}
    assert set(rows) == {"annual_report_en", "credit_review_ko", "mixed_brief"}
    annual = rows["annual_report_en"]
    assert annual["tables"] == 7 and annual["captions"]["inferred"] == 7 and annual["split_tables"] >= 1
    assert annual["context_paragraphs"] > 0 and annual["problems"] == []


def test_diagnose_index_is_callable_without_the_cli(index, tmp_path):
    from evidence_chunker.serve.diagnose import diagnose_index
    from semantic_json import SemanticRepository

    copy = tmp_path / "index.sqlite"
    shutil.copy(index, copy)
    repo = SemanticRepository.open(copy, read_only=True)
    try:
        rows = {row["document_id"]: row for row in diagnose_index(repo)}
    finally:
        repo.close()
    assert set(rows) == {"annual_report_en", "credit_review_ko", "mixed_brief"}
    assert rows["mixed_brief"]["problems"] == [] and rows["mixed_brief"]["tables"] >= 1


def test_search_then_check_answer_accepts_cited_and_rejects_uncited(index, tmp_path, capsys):
    result_path = tmp_path / "result.json"
    assert sjt(["search", "--index", str(index), "2026년 원리금 상환 합계", "-k", "2", "-o", str(result_path)]) == 0
    capsys.readouterr()
    region = json.loads(result_path.read_text())["documents"][0]["regions"][0]["region_id"]
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"statements": [
        {"sentence": "2026년 원리금 상환 합계는 1,682.5억원이다.", "citation_ids": [region]},
        {"sentence": "B기업은 곧 상장폐지된다.", "citation_ids": []},
    ]}, ensure_ascii=False))
    code = sjt(["check-answer", "--result", str(result_path), str(answer)])
    captured = capsys.readouterr()
    assert code == 1
    assert "1,682.5" in captured.out and "[1]" in captured.out
    assert "unsupported" in captured.err


def test_search_on_a_missing_index_names_the_file(tmp_path, capsys):
    assert sjt(["search", "--index", str(tmp_path / "nope.sqlite"), "revenue"]) == 2
    assert "nope.sqlite: index file not found" in capsys.readouterr().err


def test_zero_regions_is_refused_by_the_option_parser(tmp_path, capsys):
    with pytest.raises(SystemExit) as exit_info:
        sjt(["search", "--index", str(tmp_path / "i.sqlite"), "revenue", "-k", "0"])
    assert exit_info.value.code == 2 and "must be at least 1" in capsys.readouterr().err


def test_verify_of_an_unreadable_result_exits_2(index, tmp_path, capsys):
    bad = tmp_path / "result.json"
    bad.write_text("{not json")
    assert sjt(["verify", "--index", str(index), str(bad)]) == 2
    assert "result.json: not a semantic-json-transport result" in capsys.readouterr().err


def test_written_files_get_ordinary_permissions(tmp_path):
    out = tmp_path / "units.jsonl"
    assert sjt(["chunk", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--parser", "lite", "-o", str(out)]) == 0
    assert out.stat().st_mode & 0o644 == 0o644


def test_main_restores_the_callers_warning_format(tmp_path):
    import warnings

    before = warnings.formatwarning
    assert sjt(["diagnose", "--index", str(tmp_path / "missing.sqlite")]) == 2
    assert warnings.formatwarning is before


def test_cli_command_modules_import_only_the_common_helpers():
    import ast
    from pathlib import Path

    import evidence_chunker.cli as cli_package

    folder = Path(cli_package.__file__).parent
    for name in ("common", "chunking", "index_commands"):
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        siblings = {node.module for node in ast.walk(tree)
                    if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module}
        allowed = set() if name == "common" else {"common"}
        assert siblings <= allowed, (name, siblings)


def test_search_where_keeps_to_the_documents_and_units_a_filter_admits(index, capsys):
    assert sjt(["search", "--index", str(index), "operating income", "-k", "5", "--where", "language=ko"]) == 0
    regions = [r for d in json.loads(capsys.readouterr().out)["documents"] for r in d["regions"]]
    assert regions and {r["source"]["document_id"] for r in regions} == {"credit_review_ko"}
    assert sjt(["search", "--index", str(index), "revenue", "--where", "kind=table", "--where",
                "documents=annual_report_en"]) == 0
    documents = json.loads(capsys.readouterr().out)["documents"]
    assert [d["document_id"] for d in documents] == ["annual_report_en"]
    assert all(" | " in r["text"] for d in documents for r in d["regions"])


def test_search_where_refuses_a_malformed_filter_with_the_form_it_expects(index, capsys):
    assert sjt(["search", "--index", str(index), "revenue", "--where", "year2024"]) == 2
    assert "expected FIELD=VALUE" in capsys.readouterr().err
    assert sjt(["search", "--index", str(index), "revenue", "--where", "colour=red"]) == 2
    assert "unknown filter field 'colour'" in capsys.readouterr().err
