"""One error path: every bad input of issue 13 ends in `error: what: why` on stderr and exit status 2,
never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from evidence_chunker.cli import main as sjt
from pdf_factory import corrupt_pdf
from repo_paths import REPO, SAMPLE_PDFS

#: Nesting depth of the hostile JSON (far beyond Python's recursion limit).
DEEP_NESTING = 100_000


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("errors")
    index = root / "index.sqlite"
    assert sjt(["ingest", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--index", str(index), "--parser", "lite",
                "--no-progress"]) == 0
    result = root / "result.json"
    assert sjt(["search", "--index", str(index), "operating income", "-o", str(result)]) == 0
    return index, result


def _error(capsys) -> str:
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return err


def test_a_query_with_invalid_utf8_is_an_error_line(index, capsys):
    idx, _ = index
    assert sjt(["search", "--index", str(idx), "revenue \udcff\udcfe"]) == 2  # how Python passes bad argv bytes
    assert _error(capsys).startswith("error: query: not valid UTF-8 text")


def test_invalid_utf8_in_argv_from_a_real_shell(index):
    idx, _ = index
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, "-m", "evidence_chunker.cli", "search", "--index", str(idx).encode(),
                          b"revenue \xff\xfe"], capture_output=True, env=env)
    assert run.returncode == 2 and run.stderr.startswith(b"error: query: not valid UTF-8")


def test_verify_of_a_deeply_nested_json_is_an_error_line(index, tmp_path, capsys):
    idx, _ = index
    deep = tmp_path / "deep.json"
    deep.write_text("[" * DEEP_NESTING + "]" * DEEP_NESTING)
    assert sjt(["verify", "--index", str(idx), str(deep)]) == 2
    err = _error(capsys)
    assert err.startswith(f"error: {deep}: not a semantic-json-transport result") and "nested too deeply" in err


def test_verify_of_invalid_utf8_is_an_error_line(index, tmp_path, capsys):
    idx, result = index
    bad = tmp_path / "latin1.json"
    bad.write_bytes(result.read_bytes().replace(b"operating", b"op\xe9rating", 1))
    assert sjt(["verify", "--index", str(idx), str(bad)]) == 2
    assert _error(capsys).startswith(f"error: {bad}: not a semantic-json-transport result (transport is not UTF-8")


def test_check_answer_uses_the_same_error_line(index, tmp_path, capsys):
    _, result = index
    deep = tmp_path / "answer.json"
    deep.write_text("[" * DEEP_NESTING + "]" * DEEP_NESTING)
    assert sjt(["check-answer", "--result", str(result), str(deep)]) == 2
    assert _error(capsys).startswith(f"error: {deep}:")


def test_check_answer_of_a_missing_file_goes_through_the_one_error_path(index, tmp_path, capsys):
    _, result = index
    missing = tmp_path / "nowhere.json"
    assert sjt(["check-answer", "--result", str(result), str(missing)]) == 2
    assert _error(capsys).startswith(f"error: {missing}: cannot read the answer file (")


@pytest.mark.parametrize("where", ["folder", "under-a-file"])
@pytest.mark.parametrize("command", ["search", "chunk", "corpus", "show"])
def test_an_output_path_that_cannot_be_written_is_an_error_line(index, tmp_path, capsys, where, command):
    idx, result = index
    out = tmp_path if where == "folder" else tmp_path / "plain.txt" / "out.json"
    (tmp_path / "plain.txt").write_text("a file, not a folder")
    args = {
        "search": ["search", "--index", str(idx), "revenue", "-o", str(out)],
        "chunk": ["chunk", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--parser", "lite", "-o", str(out)],
        "corpus": ["corpus", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--parser", "lite", "-o", str(out)],
        "show": ["show", "--index", str(idx), "--result", str(result), "mixed_brief:R1", "-o", str(out)],
    }[command]
    assert sjt(args) == 2
    err = _error(capsys)
    assert err.startswith(f"error: {out}: ")
    assert ("is a folder" if where == "folder" else "is not a folder") in err


@pytest.mark.parametrize("scale", ["0", "-1", "nan", "inf", "40", "two"])
def test_show_refuses_a_scale_that_is_not_a_sensible_resolution(index, tmp_path, capsys, scale):
    idx, result = index
    with pytest.raises(SystemExit) as exit_info:
        sjt(["show", "--index", str(idx), "--result", str(result), "mixed_brief:R1", "-o", str(tmp_path / "x.png"),
             "--scale", scale])
    assert exit_info.value.code == 2
    assert "argument --scale:" in _error(capsys)
    assert not (tmp_path / "x.png").exists()


def test_render_refuses_a_page_too_large_to_draw(tmp_path):
    from evidence_chunker.serve.render import render_boxes

    with pytest.raises(ValueError, match="million pixels"):
        render_boxes(SAMPLE_PDFS / "mixed_brief.pdf", [], tmp_path / "x.png", pages=[1], scale=1000.0)
    with pytest.raises(ValueError, match="finite number above 0"):
        render_boxes(SAMPLE_PDFS / "mixed_brief.pdf", [], tmp_path / "x.png", pages=[1], scale=float("nan"))


def test_chunk_where_every_input_fails_keeps_the_earlier_output(tmp_path, capsys):
    out = tmp_path / "out.jsonl"
    out.write_text('{"earlier": "run"}\n')
    bad = corrupt_pdf(tmp_path / "broken.pdf")
    assert sjt(["chunk", str(bad), "--parser", "lite", "-o", str(out), "--no-progress"]) == 1
    err = _error(capsys)
    assert "broken.pdf" in err and f"warning: {out}: every input failed; the file was left as it was" in err
    assert out.read_text() == '{"earlier": "run"}\n'
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.pdf", "out.jsonl"]


def test_no_inputs_found_is_an_error_line(tmp_path, capsys):
    assert sjt(["ingest", str(tmp_path), "--index", str(tmp_path / "i.sqlite")]) == 2
    assert _error(capsys).startswith("error: no PDF files found")


def test_show_without_a_saved_search_says_so(tmp_path, capsys):
    index = tmp_path / "i.sqlite"
    assert sjt(["ingest", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--index", str(index), "--parser", "lite",
                "--no-progress"]) == 0
    capsys.readouterr()
    assert sjt(["show", "--index", str(index), "mixed_brief:R1", "-o", str(tmp_path / "x.png")]) == 2
    assert "positional ids need --result FILE or a search run on this index file" in _error(capsys)


def test_json_transport_output_is_valid_after_a_failed_write_attempt(index, tmp_path, capsys):
    """A failing -o is refused before the search: nothing is printed as if it had worked."""
    idx, _ = index
    assert sjt(["search", "--index", str(idx), "revenue", "-o", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("error:")
    assert sjt(["search", "--index", str(idx), "revenue"]) == 0
    assert json.loads(capsys.readouterr().out)["schema"] == "semantic-json-transport/context/v1"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
@pytest.mark.parametrize("command", ["chunk", "ingest"])
def test_a_fifo_or_a_symlink_loop_named_directly_is_reported_as_what_it_is(tmp_path, capsys, command):
    fifo = tmp_path / "pipe.pdf"
    os.mkfifo(fifo)
    loop = tmp_path / "loop.pdf"
    loop.symlink_to(loop)
    args = {"chunk": ["chunk", "--parser", "lite", "--no-progress", "-o", str(tmp_path / "o.jsonl")],
            "ingest": ["ingest", "--index", str(tmp_path / "i.sqlite"), "--parser", "lite", "--no-progress"]}[command]
    assert sjt([*args, str(fifo), str(loop)]) == 1  # a batch: each bad input reported, the run completes
    err = _error(capsys)
    assert f"error: {fifo}: not a regular file (a FIFO)" in err
    assert f"error: {loop}: not a regular file (a symbolic link that loops)" in err
    assert "file not found" not in err
