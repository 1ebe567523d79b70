"""The index file: search never writes to it, a read-only index works, a foreign or damaged SQLite file
gets an `error:` line (exit 2) and is never altered."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from evidence_chunker.cli import main as sjt
from repo_paths import REPO, SAMPLE_PDFS
from semantic_json import SemanticRepository, compile
from semantic_json.store import IndexFileError, ReadOnlyIndexError

QUERY = "operating income 2024"
#: Offset of the page size in an SQLite file's header (2 bytes, big-endian; 1 means 65536).
PAGE_SIZE_OFFSET = 16
DAMAGE_SEED = 13
#: An unprivileged account for the read-only test when the suite runs as root (root ignores file modes).
NOBODY = 65534


def _digest(*paths: Path) -> str:
    h = hashlib.sha256()
    for path in paths:
        h.update(path.read_bytes() if path.exists() else b"<absent>")
    return h.hexdigest()


def _build(root: Path, name: str = "mixed_brief.pdf") -> Path:
    pdfs = root / "pdfs"
    pdfs.mkdir(parents=True, exist_ok=True)
    shutil.copy(SAMPLE_PDFS / name, pdfs / name)
    index = root / "index.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    return index


@pytest.fixture(scope="module")
def index(tmp_path_factory) -> Path:
    return _build(tmp_path_factory.mktemp("idx"))


def test_search_leaves_the_index_file_untouched_and_keeps_its_result_beside_it(index, tmp_path, capsys):
    wal = Path(f"{index}-wal")
    before = _digest(index)
    assert sjt(["search", "--index", str(index), QUERY, "-o", str(tmp_path / "r.json")]) == 0
    # SQLite may create an empty WAL for a reader (its shared-memory files); no page is written anywhere
    assert _digest(index) == before and (not wal.exists() or wal.stat().st_size == 0)
    kept = index.with_name(index.name + ".last-search.json")
    assert kept.read_text() == (tmp_path / "r.json").read_text()
    with sqlite3.connect(index) as conn:
        assert not conn.execute("SELECT key FROM meta WHERE key LIKE 'note:%'").fetchall()
    region = capsys.readouterr().out.split('"region_id": "')[1].split('"')[0]
    assert sjt(["show", "--index", str(index), region, "-o", str(tmp_path / "r.png"), "--scale", "0.5"]) == 0


def test_a_read_only_repository_refuses_writes_without_touching_the_file(index):
    before = _digest(index)
    repo = SemanticRepository.open(index, read_only=True)
    assert repo.search(QUERY).region_count > 0
    with pytest.raises(ReadOnlyIndexError, match="read-only"):
        repo.add(compile("Revenue rose.", "extra"))
    assert "extra" not in repo
    repo.close()
    assert _digest(index) == before


def _as_unprivileged(cmd: list[str], cwd: Path) -> list[str]:
    """``cmd`` run as an account that file modes apply to (the suite itself, or nobody under root)."""
    if os.geteuid() != 0:
        return cmd
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root and setpriv (util-linux) is missing: cannot make a file read-only to root")
    wrapped = [setpriv, f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *cmd]
    probe = subprocess.run([*wrapped[:4], sys.executable, "-c", "import evidence_chunker.cli"], cwd=cwd,
                           capture_output=True, env=_env(cwd))
    if probe.returncode != 0:
        pytest.skip(f"running as root and the unprivileged account cannot run this checkout: {probe.stderr[-200:]!r}")
    return wrapped


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(REPO), "HOME": str(home)}


def test_a_read_only_index_in_a_read_only_folder_can_be_searched_verified_shown_and_diagnosed():
    root = Path(tempfile.mkdtemp(prefix="sjt-ro-"))  # not under pytest's private 0700 folder: nobody reads it
    try:
        os.chmod(root, 0o755)
        index = _build(root / "ro")
        results = root / "results"
        results.mkdir()
        for path in [root / "ro", root / "ro" / "pdfs", *(root / "ro").rglob("*")]:
            os.chmod(path, 0o555 if path.is_dir() else 0o444)
        os.chmod(results, 0o777)
        before = _digest(index)
        sjt_cmd = [sys.executable, "-m", "evidence_chunker.cli"]
        runs = {}
        for name, args in {
            "search": ["search", "--index", str(index), QUERY, "-o", str(results / "r.json")],
            "verify": ["verify", "--index", str(index), str(results / "r.json")],
            "show": ["show", "--index", str(index), "--result", str(results / "r.json"), "mixed_brief:R1",
                     "-o", str(results / "r.png"), "--scale", "0.5"],
            "diagnose": ["diagnose", "--index", str(index)],
            "ingest": ["ingest", str(root / "ro" / "pdfs"), "--index", str(index), "--parser", "lite", "--no-progress"],
        }.items():
            runs[name] = subprocess.run(_as_unprivileged([*sjt_cmd, *args], root), cwd=root, capture_output=True,
                                        text=True, env=_env(results))
        for name in ("search", "verify", "show", "diagnose"):
            assert runs[name].returncode == 0, (name, runs[name].stderr)
            assert "Traceback" not in runs[name].stderr
        assert "cannot keep the result for `sjt show`" in runs["search"].stderr  # a warning, not a failure
        assert "verified" in runs["verify"].stdout and (results / "r.png").stat().st_size > 0
        # ingest needs to write: a clear refusal, not a traceback
        assert runs["ingest"].returncode == 2 and "Traceback" not in runs["ingest"].stderr, runs["ingest"].stderr
        assert runs["ingest"].stderr.startswith(f"error: {index}: cannot write to the index")
        assert _digest(index) == before
    finally:
        for path in [root, *root.rglob("*")]:
            if path.is_dir():
                os.chmod(path, 0o755)
        shutil.rmtree(root)


def test_another_applications_sqlite_file_is_refused_and_left_unchanged(tmp_path, capsys):
    other = tmp_path / "other_app.sqlite"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO users (name) VALUES ('ada')")
    before = _digest(other)
    for args in (["ingest", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--index", str(other), "--parser", "lite"],
                 ["search", "--index", str(other), QUERY], ["diagnose", "--index", str(other)]):
        assert sjt(args) == 2
        err = capsys.readouterr().err
        assert err.startswith(f"error: {other}: not a semantic-json-transport index") and "users" in err
    assert _digest(other) == before
    with pytest.raises(IndexFileError, match="left unchanged"):
        SemanticRepository.open(other)


def test_a_file_that_is_not_sqlite_is_refused(tmp_path, capsys):
    bogus = tmp_path / "notes.sqlite"
    bogus.write_text("these are my notes, not a database\n" * 200)
    assert sjt(["search", "--index", str(bogus), QUERY]) == 2
    assert capsys.readouterr().err.startswith(f"error: {bogus}:")
    assert bogus.read_text().startswith("these are my notes")


def _damaged_copy(index: Path, tmp_path: Path) -> Path:
    copy = tmp_path / "damaged.sqlite"
    shutil.copy(index, copy)
    with open(copy, "r+b") as handle:
        handle.seek(PAGE_SIZE_OFFSET)
        page = int.from_bytes(handle.read(2), "big")
        page = 65536 if page == 1 else page
        handle.seek(page)  # page 2, whole
        handle.write(random.Random(DAMAGE_SEED).randbytes(page))  # the same damage on every run
    return copy


@pytest.mark.parametrize("command", ["search", "verify", "show", "diagnose", "ingest"])
def test_damaged_index_pages_give_an_error_line_that_says_how_to_rebuild(index, tmp_path, capsys, command):
    damaged = _damaged_copy(index, tmp_path)
    result = tmp_path / "r.json"
    assert sjt(["search", "--index", str(index), QUERY, "-o", str(result)]) == 0
    capsys.readouterr()
    args = {
        "search": ["search", "--index", str(damaged), QUERY],
        "verify": ["verify", "--index", str(damaged), str(result)],
        "show": ["show", "--index", str(damaged), "--result", str(result), "mixed_brief:R1", "-o", str(tmp_path / "x.png")],
        "diagnose": ["diagnose", "--index", str(damaged)],
        "ingest": ["ingest", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--index", str(damaged), "--parser", "lite"],
    }[command]
    assert sjt(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {damaged}:") and "rebuild" in err and "sjt ingest" in err


def test_damaged_document_info_leaves_that_document_out_with_a_warning(index, tmp_path, capsys):
    copy = tmp_path / "info.sqlite"
    shutil.copy(index, copy)
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE documents SET info_json = '{not json'")
    assert sjt(["search", "--index", str(copy), QUERY]) == 0
    assert "document 'mixed_brief' is damaged and was left out" in capsys.readouterr().err
    assert sjt(["diagnose", "--index", str(copy)]) == 1
    assert "damaged in the index file" in capsys.readouterr().out


def test_damaged_embedder_dim_is_an_error_line(index, tmp_path, capsys):
    copy = tmp_path / "dim.sqlite"
    shutil.copy(index, copy)
    with sqlite3.connect(copy) as conn:
        conn.execute("UPDATE meta SET value = 'three hundred' WHERE key = 'embedder_dim'")
    assert sjt(["search", "--index", str(copy), QUERY]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {copy}: the index file is damaged (embedder_dim 'three hundred'") and "rebuild" in err


def test_an_index_that_is_a_folder_is_an_error_line(tmp_path, capsys):
    assert sjt(["ingest", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--index", str(tmp_path), "--parser", "lite"]) == 2
    assert f"error: {tmp_path}: is a directory" in capsys.readouterr().err
    assert stat.S_ISDIR(tmp_path.stat().st_mode)


def test_an_index_whose_creation_was_interrupted_is_completed_by_a_writer_only(tmp_path):
    path = tmp_path / "half.sqlite"
    with sqlite3.connect(path) as conn:  # our tables, no layout version yet (an older two-step creation)
        conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    with pytest.raises(IndexFileError, match="not a semantic-json-transport index"):
        SemanticRepository.open(path, read_only=True)
    repo = SemanticRepository.open(path)
    repo.add(compile("Revenue rose to 1,200 in 2024.", "notes"))
    repo.close()
    repo = SemanticRepository.open(path, read_only=True)
    assert repo.documents == ["notes"]
    repo.close()
