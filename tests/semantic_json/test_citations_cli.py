"""`sjt check-answer`: exit status 0 (nothing rejected), 1 (rejected, or flagged under --strict), 2 (bad input)."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from semantic_json import SemanticRepository, compile
from evidence_chunker.cli.check_answer import add_check_answer_arguments, check_answer_main, run_check_answer

PROJECT_ROOT = Path(__file__).resolve().parents[2]
QUICKSTART_TEXT = """
B기업은 현재까지 원리금을 정상적으로 상환하고 있다.
다만 주요 거래계약이 내년에 만료될 예정이며,
중장기적으로 현재의 상환능력이 유지된다고 단정하기는 어렵다.
"""
GOOD_SENTENCE = "B기업은 원리금을 정상 상환하고 있다."


@pytest.fixture(scope="module")
def result_json(tmp_path_factory) -> Path:
    repo = SemanticRepository()
    repo.add(compile(QUICKSTART_TEXT, document_id="company_b", source_uri="file:///credit/company_b.txt"))
    path = tmp_path_factory.mktemp("cli") / "result.json"
    path.write_text(repo.search("B기업의 중장기 채무상환능력은 어떤가?").to_json(), encoding="utf-8")
    return path


@pytest.fixture
def region_id(result_json) -> str:
    """The citation id of the result's first region (what a model cites)."""
    return json.loads(result_json.read_text(encoding="utf-8"))["documents"][0]["regions"][0]["citation_id"]


def write_answer(tmp_path: Path, *statements: tuple[str, list[str]], name: str = "answer.json") -> Path:
    path = tmp_path / name
    data = {"statements": [{"sentence": s, "citation_ids": ids} for s, ids in statements]}
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def test_accepted_answer_prints_the_rendered_text_and_exits_0(tmp_path, result_json, region_id, capsys):
    answer = write_answer(tmp_path, (GOOD_SENTENCE, [region_id]))
    assert check_answer_main(["--result", str(result_json), str(answer)]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{GOOD_SENTENCE} [1]\n\nSources:\n[1] company_b, lines 2–4")
    assert "1 of 1 statement(s) accepted, 0 rejected, 0 flagged" in err


def test_rejected_statement_exits_1_and_is_named_on_stderr(tmp_path, result_json, region_id, capsys):
    answer = write_answer(tmp_path, (GOOD_SENTENCE, [region_id]), ("근거 없는 문장.", []), ("틀린 출처.", ["x:R1"]))
    assert check_answer_main(["--result", str(result_json), str(answer)]) == 1
    out, err = capsys.readouterr()
    assert "근거 없는" not in out
    assert f"{answer}: statements[1] rejected (unsupported)" in err
    assert f"{answer}: statements[2] rejected (invalid_citation): cites 1 id(s) that the search result does not hold: x:R1" in err


def test_strip_policy_keeps_a_statement_with_a_valid_id(tmp_path, result_json, region_id, capsys):
    answer = write_answer(tmp_path, (GOOD_SENTENCE, ["x:R1", region_id]))
    assert check_answer_main(["--result", str(result_json), str(answer), "--policy", "strip"]) == 0
    assert "flagged (stripped_citation: x:R1)" in capsys.readouterr().err
    # --strict turns any flag into a failure.
    assert check_answer_main(["--result", str(result_json), str(answer), "--policy", "strip", "--strict"]) == 1


def test_ungrounded_number_is_rejected_unless_lenient(tmp_path, result_json, region_id, capsys):
    answer = write_answer(tmp_path, ("B기업은 원리금 1,200억원을 상환하고 있다.", [region_id]))
    assert check_answer_main(["--result", str(result_json), str(answer)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert "statements[0] rejected (ungrounded_number)" in err
    lenient = ["--result", str(result_json), str(answer), "--lenient-numbers"]
    assert check_answer_main(lenient) == 0
    assert "flagged (ungrounded_number: 1,200억원)" in capsys.readouterr().err
    assert check_answer_main([*lenient, "--strict"]) == 1


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_markdown_and_html_formats(tmp_path, result_json, region_id, capsys, fmt):
    answer = write_answer(tmp_path, (GOOD_SENTENCE, [region_id]))
    assert check_answer_main(["--result", str(result_json), str(answer), "--format", fmt]) == 0
    out = capsys.readouterr().out
    expected = f"(#{region_id})" if fmt == "markdown" else f'data-region-id="{region_id}"'
    assert expected in out


def test_json_format_prints_the_report(tmp_path, result_json, region_id, capsys):
    answer = write_answer(tmp_path, (GOOD_SENTENCE, [region_id]), ("근거 없음.", []))
    assert check_answer_main(["--result", str(result_json), str(answer), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["counts"]["unsupported"] == 1
    assert report["accepted"][0]["sources"][0]["citation_id"] == region_id


def test_missing_answer_file_exits_2_naming_it(tmp_path, result_json, capsys):
    missing = tmp_path / "nowhere.json"
    assert check_answer_main(["--result", str(result_json), str(missing)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {missing}: cannot read the answer file (")


def test_missing_result_file_exits_2_naming_it(tmp_path, capsys):
    answer = write_answer(tmp_path, (GOOD_SENTENCE, []))
    missing = tmp_path / "no_result.json"
    assert check_answer_main(["--result", str(missing), str(answer)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {missing}: cannot read the result file (")


def test_answer_of_the_wrong_shape_exits_2_with_file_and_path(tmp_path, result_json, capsys):
    answer = tmp_path / "bad.json"
    answer.write_text(json.dumps({"statements": [{"sentence": "x", "citation_ids": "company_b:R1"}]}), encoding="utf-8")
    assert check_answer_main(["--result", str(result_json), str(answer)]) == 2
    err = capsys.readouterr().err
    assert f"{answer}: statements[0].citation_ids: expected an array of strings, got a string" in err


def test_answer_that_is_not_json_exits_2(tmp_path, result_json, capsys):
    answer = tmp_path / "answer.txt"
    answer.write_text("B기업은 상환하고 있다 [company_b:R1]", encoding="utf-8")
    assert check_answer_main(["--result", str(result_json), str(answer)]) == 2
    assert f"{answer}: $: not valid JSON" in capsys.readouterr().err


def test_result_that_is_not_a_transport_exits_2_naming_it(tmp_path, capsys):
    result = tmp_path / "result.json"
    result.write_text('{"hello": "world"}', encoding="utf-8")
    answer = write_answer(tmp_path, (GOOD_SENTENCE, []))
    assert check_answer_main(["--result", str(result), str(answer)]) == 2
    assert f"{result}: search result has no 'documents' array" in capsys.readouterr().err


def test_usage_error_exits_2(capsys):
    assert check_answer_main(["answer.json"]) == 2
    assert "--result" in capsys.readouterr().err


def test_registers_as_a_subcommand_of_another_program(tmp_path, result_json, region_id, capsys):
    parser = argparse.ArgumentParser(prog="sjt")
    subcommands = parser.add_subparsers(dest="command", required=True)
    add_check_answer_arguments(subcommands.add_parser("check-answer"))
    answer = write_answer(tmp_path, (GOOD_SENTENCE, [region_id]))
    args = parser.parse_args(["check-answer", "--result", str(result_json), str(answer), "--format", "json"])
    assert run_check_answer(args) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True


def test_runs_as_a_module_reading_the_answer_from_stdin(result_json, region_id):
    env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT))
    answer = json.dumps({"statements": [{"sentence": GOOD_SENTENCE, "citation_ids": [region_id]}]}, ensure_ascii=False)
    done = subprocess.run(
        [sys.executable, "-m", "evidence_chunker.cli.check_answer", "--result", str(result_json), "-"],
        input=answer.encode("utf-8"),
        capture_output=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()
    assert done.stdout.decode("utf-8").startswith(GOOD_SENTENCE)
    assert "<stdin>: 1 of 1 statement(s) accepted" in done.stderr.decode("utf-8")
