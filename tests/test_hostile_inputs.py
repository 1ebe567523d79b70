"""Hostile and careless inputs (issue 40): each ends in the right verdict with a `FILE: why` line or an HTTP 4xx
message, never a traceback, a stale answer or silence. Where file modes matter the command runs without the
capabilities that let root ignore them."""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from html import unescape
from pathlib import Path

import pytest

from evidence_chunker.cli import main as sjt
from repo_paths import REPO, SAMPLE_PDFS
from semantic_json import SearchResult, SemanticRepository, compile
from semantic_json.search.filters import parse_where

#: Capabilities that let root read and write whatever the file modes say: dropped so that the modes apply.
DAC_CAPABILITIES = ("dac_override", "dac_read_search", "fowner")
SJT = [sys.executable, "-m", "evidence_chunker.cli"]
DOCUMENTS = 4


def as_user(cmd: list[str]) -> list[str]:
    """``cmd`` run so that file modes apply to it: as is for an ordinary account; under root, without the
    capabilities that bypass them (``setpriv``), after checking that an unreadable file then cannot be read."""
    if os.geteuid() != 0:
        return cmd
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root and setpriv (util-linux) is missing: cannot make file modes apply to root")
    wrapped = [setpriv, "--bounding-set=" + ",".join(f"-{c}" for c in DAC_CAPABILITIES), "--inh-caps=-all"]
    with tempfile.NamedTemporaryFile() as locked:
        os.chmod(locked.name, 0)
        probe = subprocess.run([*wrapped, sys.executable, "-c", f"open({locked.name!r}).close()"], capture_output=True,
                               text=True)
    if "PermissionError" not in probe.stderr:
        pytest.skip(f"running as root and setpriv cannot drop {DAC_CAPABILITIES} here: {probe.stderr[-200:]!r}")
    return [*wrapped, *cmd]


def run_sjt(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """``sjt ARGS`` in a new process, as a user whom file modes apply to."""
    env = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.run(as_user([*SJT, *args]), cwd=cwd, capture_output=True, text=True, env=env)


@pytest.fixture
def shared_tmp():
    """A folder outside pytest's private (0700) one, removed with everything in it whatever its modes."""
    root = Path(tempfile.mkdtemp(prefix="sjt-hostile-"))
    os.chmod(root, 0o755)
    yield root
    for path in [root, *root.rglob("*")]:
        if path.is_dir() and not path.is_symlink():
            os.chmod(path, 0o755)
    shutil.rmtree(root)


# ------------------------------------------------------------------ 1. a read-only folder, a pending WAL


def index_with_pending_wal(folder: Path, in_main_file: int) -> Path:
    """A copy in ``folder`` of an index of DOCUMENTS documents whose first ``in_main_file`` are in the main file
    and the others only in its WAL, as a backup taken while a writer had the index open leaves it (no -shm)."""
    source = folder / "writer" / "index.sqlite"
    repo = SemanticRepository.open(source)
    checkpoint = sqlite3.connect(source)
    try:
        for n in range(DOCUMENTS):
            if n == in_main_file:
                checkpoint.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            repo.add(compile(f"Revenue of segment {n} rose to {1000 + n} million in 2024.", f"segment{n}"))
        backup = folder / "backup"
        backup.mkdir()
        for name in ("index.sqlite", "index.sqlite-wal"):
            shutil.copyfile(source.with_name(name), backup / name)
    finally:
        checkpoint.close()
        repo.close()
    assert (backup / "index.sqlite-wal").stat().st_size > 32 and not (backup / "index.sqlite-shm").exists()
    for path in (backup / "index.sqlite", backup / "index.sqlite-wal", backup):
        os.chmod(path, 0o555 if path.is_dir() else 0o444)
    return backup / "index.sqlite"


def diagnosed_documents(stdout: str) -> list[str]:
    return [line.split()[0] for line in stdout.splitlines()[1:] if line and not line.startswith(" ")]


@pytest.mark.parametrize("in_main_file", [3, 0], ids=["last-commit-in-wal", "everything-in-wal"])
def test_a_read_only_index_with_a_pending_wal_serves_every_committed_document(shared_tmp, in_main_file):
    index = index_with_pending_wal(shared_tmp, in_main_file)
    scratch = shared_tmp / "tmp"
    scratch.mkdir(mode=0o777)
    diagnose = run_sjt(["diagnose", "--index", str(index)], shared_tmp, env={"TMPDIR": str(scratch)})
    assert diagnose.returncode == 0, diagnose.stderr
    assert diagnosed_documents(diagnose.stdout) == [f"segment{n}" for n in range(DOCUMENTS)]
    search = run_sjt(["search", "--index", str(index), "revenue of segment 3", "--text", "-k", "1"], shared_tmp,
                     env={"TMPDIR": str(scratch)})
    assert search.returncode == 0 and "segment3" in search.stdout, search.stderr
    assert "Traceback" not in diagnose.stderr + search.stderr
    assert list(scratch.iterdir()) == []  # the private copy is removed on close
    assert not (index.parent / "index.sqlite-shm").exists()
    # nothing lost: the backup opened where it can be written holds every committed document
    writable = shared_tmp / "restored"
    shutil.copytree(index.parent, writable)
    os.chmod(writable, 0o755)
    repo = SemanticRepository.open(writable / "index.sqlite", read_only=True)
    assert repo.documents == [f"segment{n}" for n in range(DOCUMENTS)]
    repo.close()


def test_a_read_only_index_with_a_pending_wal_that_cannot_be_copied_is_refused_with_what_to_do(shared_tmp):
    index = index_with_pending_wal(shared_tmp, 3)
    # the private copy fails (a full disk): the reader refuses instead of serving the main file alone
    full_disk = ("import errno, shutil, sys\n"
                 "def full(src, dst, **kw): raise OSError(errno.ENOSPC, 'No space left on device', str(dst))\n"
                 "shutil.copyfile = full\n"
                 "from evidence_chunker.cli import main\n"
                 "sys.exit(main(sys.argv[1:]))\n")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run(as_user([sys.executable, "-c", full_disk, "diagnose", "--index", str(index)]), cwd=shared_tmp,
                         capture_output=True, text=True, env=env)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith(f"error: {index}: its last commits are still in index.sqlite-wal, which SQLite reads "
                                 "only with a index.sqlite-shm file that it cannot create in this read-only folder")
    assert "No space left on device" in run.stderr
    assert run.stderr.rstrip().endswith("copy index.sqlite and index.sqlite-wal together into a writable folder and "
                                        "use that copy")
    assert "not a semantic-json-transport index" not in run.stderr


# ------------------------------------------------------------------ 6, 7. the folder walk, an unreadable PDF


def folder_of_bad_entries(root: Path) -> tuple[Path, list[str]]:
    """A folder holding one good PDF and every kind of entry a walk cannot read, with the error line each gets."""
    folder = root / "reports"
    folder.mkdir()
    shutil.copyfile(SAMPLE_PDFS / "mixed_brief.pdf", folder / "good.pdf")
    shutil.copyfile(SAMPLE_PDFS / "mixed_brief.pdf", folder / "locked.pdf")
    os.chmod(folder / "locked.pdf", 0)
    (folder / "dangling.pdf").symlink_to("gone.pdf")
    (folder / "loop_a.pdf").symlink_to("loop_b.pdf")
    (folder / "loop_b.pdf").symlink_to("loop_a.pdf")
    os.mkfifo(folder / "pipe.pdf")
    (folder / "secret").mkdir()
    shutil.copyfile(SAMPLE_PDFS / "mixed_brief.pdf", folder / "secret" / "hidden.pdf")
    os.chmod(folder / "secret", 0)
    (folder / "nested").mkdir()
    (folder / "nested" / "up").symlink_to("..")
    (folder / "notes.txt").write_text("not an input: not reported")
    return folder, [
        "error: reports/dangling.pdf: file not found (a symbolic link to gone.pdf, which does not exist)",
        "error: reports/locked.pdf: cannot read the file (permission denied)",
        "error: reports/loop_a.pdf: not a regular file (a symbolic link that loops)",
        "error: reports/loop_b.pdf: not a regular file (a symbolic link that loops)",
        "error: reports/nested/up: not a regular file (a symbolic link that loops back to .., a folder that holds it)",
        "error: reports/pipe.pdf: not a regular file (a FIFO)",
        "error: reports/secret: cannot read the folder (permission denied)",
    ]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs (POSIX)")
def test_the_folder_walk_reports_every_entry_it_cannot_read_and_counts_it(shared_tmp):
    folder, expected = folder_of_bad_entries(shared_tmp)
    out = shared_tmp / "out"
    out.mkdir(mode=0o777)
    runs = {
        "chunk": run_sjt(["chunk", "reports", "--parser", "lite", "--no-progress", "-o", str(out / "u.jsonl")],
                         shared_tmp),
        "ingest": run_sjt(["ingest", "reports", "--index", str(out / "i.sqlite"), "--parser", "lite",
                           "--no-progress"], shared_tmp),
    }
    for name, run in runs.items():
        lines = run.stderr.splitlines()
        assert run.returncode == 1, (name, run.stderr)
        assert [line for line in lines if line.startswith("error:")] == expected, name
        assert "Traceback" not in run.stderr and "Errno" not in run.stderr
    assert runs["chunk"].stderr.splitlines()[-1] == "chunked 1 file(s) into 1 evidence unit(s); 7 failed"
    assert runs["ingest"].stderr.splitlines()[-1].startswith("files 8 (indexed 1, unchanged 0, failed 7) |")


def test_an_unreadable_pdf_named_directly_is_a_file_why_line(shared_tmp):
    locked = shared_tmp / "x.pdf"
    shutil.copyfile(SAMPLE_PDFS / "mixed_brief.pdf", locked)
    os.chmod(locked, 0)
    out = shared_tmp / "out"
    out.mkdir(mode=0o777)
    for args in (["chunk", "x.pdf", "--parser", "lite", "--no-progress"],
                 ["corpus", "x.pdf", "--parser", "lite", "--no-progress"],
                 ["ingest", "x.pdf", "--index", str(out / "i.sqlite"), "--parser", "lite", "--no-progress"]):
        run = run_sjt(args, shared_tmp)
        assert run.returncode == 1, run.stderr
        assert run.stderr.splitlines()[0] == "error: x.pdf: cannot read the file (permission denied)", args


# ------------------------------------------------------------------ 4. damage that diagnose sees


@pytest.fixture(scope="module")
def two_document_index(tmp_path_factory) -> tuple[Path, Path]:
    """An index of two sample PDFs, and a saved search result citing both."""
    root = tmp_path_factory.mktemp("damage")
    pdfs = root / "pdfs"
    kept = {"mixed_brief.pdf", "annual_report_en.pdf"}
    shutil.copytree(SAMPLE_PDFS, pdfs, ignore=lambda _folder, names: [name for name in names if name not in kept])
    index = root / "index.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress", "-q"]) == 0
    repo = SemanticRepository.open(index, read_only=True)  # three regions of each document, whatever the ranking
    regions = [region for document_id in sorted(kept)
               for region in repo.search("revenue and operating income", k=3,
                                         where=parse_where([f"documents={Path(document_id).stem}"]))]
    repo.close()
    result = root / "result.json"
    result.write_text(SearchResult("revenue and operating income", regions).to_json(), encoding="utf-8")
    return index, result


def damaged_document_copy(index: Path, folder: Path, document_id: str) -> Path:
    """A copy of ``index`` with 16 bytes overwritten inside the page bytes of ``document_id``'s stored document."""
    copy = folder / "damaged.sqlite"
    shutil.copyfile(index, copy)
    with sqlite3.connect(copy) as conn:
        stored = conn.execute("SELECT document FROM documents WHERE document_id = ?", (document_id,)).fetchone()[0]
    conn.close()
    data = bytearray(copy.read_bytes())
    at = data.find(stored)
    assert at > 0 and data.find(stored, at + 1) < 0  # one run of bytes on one page (a 64 KiB page holds it)
    middle = at + len(stored) // 2
    data[middle:middle + 16] = b"\xff" * 16
    copy.write_bytes(bytes(data))
    return copy


def test_diagnose_names_a_document_whose_stored_bytes_are_damaged_and_verify_fails_it(two_document_index, tmp_path,
                                                                                       capsys):
    index, result = two_document_index
    damaged = damaged_document_copy(index, tmp_path, "mixed_brief")
    capsys.readouterr()
    assert sjt(["diagnose", "--index", str(damaged)]) == 1
    out = capsys.readouterr().out
    rows = {line.split()[0]: line for line in out.splitlines()[1:] if line and not line.startswith(" ")}
    assert rows["annual_report_en"].endswith("  ok")
    # the part of the stored document that failed is named: "segments.0: error: Error -3 ..."
    assert "damaged in the index file: " in rows["mixed_brief"]
    assert "error: Error -3 while decompressing data" in rows["mixed_brief"]
    assert sjt(["verify", "--index", str(damaged), str(result)]) == 1
    lines = capsys.readouterr().out.splitlines()
    brief = [line for line in lines if line.startswith("FAIL mixed_brief@")]
    assert brief and all("unknown document: document 'mixed_brief' is damaged in the index file" in line
                          for line in brief), lines
    assert [line for line in lines if "annual_report_en@" in line and line.startswith("ok ")]


def test_diagnose_runs_sqlites_check_and_reports_damage_no_document_owns(two_document_index, tmp_path, capsys):
    index, _ = two_document_index
    damaged = tmp_path / "pages.sqlite"
    shutil.copyfile(index, damaged)
    with sqlite3.connect(damaged) as conn:
        root = conn.execute("SELECT rootpage FROM sqlite_master WHERE name = 'postings'").fetchone()[0]
        page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    with open(damaged, "r+b") as handle:  # the cell pointers of a postings page (no document's row)
        handle.seek((root - 1) * page_size + 3)
        cells = int.from_bytes(handle.read(2), "big")
        handle.seek((root - 1) * page_size + 8 + 2 * (cells // 2))
        handle.write(b"\x7f" * 8)
    capsys.readouterr()
    for flag, check in (([], "quick_check"), (["--full"], "integrity_check")):
        assert sjt(["diagnose", "--index", str(damaged), *flag]) == 1
        captured = capsys.readouterr()
        assert captured.err.startswith(f"error: {damaged}: the index file is damaged (SQLite {check}: ")
        assert "rebuild it: `sjt ingest PDFS --index NEW_FILE`" in captured.err
    assert sjt(["diagnose", "--index", str(index), "--full"]) == 0


# ------------------------------------------------------------------ 5. region ids that lie


def forged(result: Path, folder: Path, edit) -> tuple[Path, dict]:
    """A copy of the transport ``result`` after ``edit(regions)`` (the regions of every document, in order)."""
    transport = json.loads(result.read_text())
    edit([region for document in transport["documents"] for region in document["regions"]])
    path = folder / "forged.json"
    path.write_text(json.dumps(transport, ensure_ascii=False))
    return path, transport


def verify_lines(index: Path, transport: Path, capsys) -> tuple[int, list[str]]:
    capsys.readouterr()
    code = sjt(["verify", "--index", str(index), str(transport)])
    return code, capsys.readouterr().out.splitlines()


def test_verify_fails_a_region_whose_id_names_another_document(two_document_index, tmp_path, capsys):
    index, result = two_document_index

    def relabel(regions):
        annual = next(r for r in regions if r["source"]["document_id"] == "annual_report_en")
        annual["region_id"] = "mixed_brief:R9"
        brief = next(r for r in regions if r["source"]["document_id"] == "mixed_brief")
        annual_second = [r for r in regions if r["source"]["document_id"] == "annual_report_en"][1]
        annual_second["region_id"] = "mixed_brief@c0-10." + brief["citation_id"][-8:]  # another document's text

    path, transport = forged(result, tmp_path, relabel)
    code, lines = verify_lines(index, path, capsys)
    assert code == 1
    failed = [line for line in lines if line.startswith("FAIL")]
    assert len(failed) == 2, lines
    assert failed[0].endswith("region id differs: region id 'mixed_brief:R9' does not name its source's document "
                              "'annual_report_en' (annual_report_en:R<n>)")
    assert "region id differs: region id 'mixed_brief@c0-10." in failed[1]
    assert "cites characters 0-10 of document 'mixed_brief', its source is 'annual_report_en@c" in failed[1]


def test_verify_fails_two_different_regions_that_share_an_id(two_document_index, tmp_path, capsys):
    index, result = two_document_index

    def share(regions):
        brief = [r for r in regions if r["source"]["document_id"] == "mixed_brief"]
        brief[1]["region_id"] = brief[0]["region_id"]

    path, transport = forged(result, tmp_path, share)
    shared = next(r["region_id"] for d in transport["documents"] for r in d["regions"]
                  if r["source"]["document_id"] == "mixed_brief")
    code, lines = verify_lines(index, path, capsys)
    assert code == 1
    failed = [line for line in lines if line.startswith("FAIL")]
    assert len(failed) == 2 and all(line.endswith(f"region id not unique in {path}: {shared!r} names 2 regions")
                                    for line in failed), lines


def test_check_answer_refuses_a_citation_whose_id_names_another_document(two_document_index, tmp_path, capsys):
    index, result = two_document_index

    def relabel(regions):
        next(r for r in regions if r["source"]["document_id"] == "annual_report_en")["region_id"] = "mixed_brief:R9"

    path, transport = forged(result, tmp_path, relabel)
    annual = next(r for d in transport["documents"] for r in d["regions"] if r["region_id"] == "mixed_brief:R9")
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"statements": [{"sentence": annual["text"][:80], "citation_ids": ["mixed_brief:R9"]}]}))
    capsys.readouterr()
    assert sjt(["check-answer", "--result", str(path), str(answer), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["accepted"] == [] and report["rejected"][0]["reason"] == "invalid_citation"
    assert report["rejected"][0]["detail"] == (
        "cites id(s) the search result holds but does not vouch for: mixed_brief:R9 (region id 'mixed_brief:R9' does "
        "not name its source's document 'annual_report_en' (annual_report_en:R<n>))")


# ------------------------------------------------------------------ 2, 3. the audit page


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def audit(tmp_path):
    """A TestClient of the audit page over a one-PDF index whose PDF the test may replace, and that PDF."""
    pytest.importorskip("starlette", reason="the `serve` extra is not installed")
    pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (dev extra)")
    from starlette.testclient import TestClient

    from evidence_chunker.serve.audit.app import create_app

    pdf = tmp_path / "mixed_brief.pdf"
    shutil.copyfile(SAMPLE_PDFS / "mixed_brief.pdf", pdf)
    index = tmp_path / "index.sqlite"
    assert sjt(["ingest", str(pdf), "--index", str(index), "--parser", "lite", "--no-progress", "-q"]) == 0
    with TestClient(create_app(index, allowed_hosts=["testserver"]), raise_server_exceptions=False) as client:
        yield client, pdf


def first_region(client) -> dict:
    page = client.get("/search", params={"q": "operating income 2024", "k": 1})
    href = re.search(r'<a class="badge show" href="([^"]+)"', page.text).group(1)
    return {"image_url": unescape(href), "citation_id": re.search(r'<span class="rid">([^<]+)</span>', page.text).group(1)}


@pytest.mark.parametrize("state, status, message", [
    ("replaced", 409, "PDF changed: {pdf} has sha256 "),
    ("not a PDF", 409, "PDF changed: {pdf} has sha256 "),
    ("missing", 404, "PDF missing: the PDF of 'mixed_brief' is not at {pdf}; not drawn"),
])
def test_the_audit_page_draws_only_the_pdf_the_index_recorded(audit, state, status, message):
    client, pdf = audit
    image_url = first_region(client)["image_url"]
    assert client.get(image_url).headers["content-type"] == "image/png"
    if state == "replaced":
        shutil.copyfile(SAMPLE_PDFS / "annual_report_en.pdf", pdf)  # a PDF that renders, not the one indexed
    elif state == "not a PDF":
        pdf.write_text("these are notes, not a PDF\n")
    else:
        pdf.unlink()
    image = client.get(image_url)
    assert image.status_code == status and image.text.startswith(message.format(pdf=pdf)), image.text
    page = client.get("/search", params={"q": "operating income 2024", "k": 1})
    assert page.status_code == 200 and "/page.png" not in page.text
    assert "no page image: " + message.format(pdf=pdf).split(":")[0] in page.text


@pytest.mark.parametrize("request_args, status, message", [
    (("POST", "/answer", {"data": {"answer": DEEP}}), 400, "answer: nested too deeply to be a cited answer"),
    (("POST", "/answer", {"data": {"answer": '{"statements": []}', "transport": DEEP}}), 400,
     "not a semantic-json-transport result: transport is nested too deeply"),
    (("POST", "/answer", {"data": {"answer": '{"statements": 5}'}}), 400, "answer: statements: expected an array"),
    (("POST", "/answer", {"data": {"answer": '[1, 2]'}}), 400, "answer: $: expected an object"),
    (("POST", "/answer", {"data": {"answer": '{"statements": [{"sentence": 5, "citation_ids": "x"}]}'}}), 400,
     "answer: statements[0].sentence: expected a string"),
    (("POST", "/answer", {"data": {"answer": '{"statements": [{"sentence": "\\ud800", "citation_ids": []}]}'}}), 400,
     "answer: statements[0].sentence: contains an unpaired surrogate"),
    (("POST", "/answer", {"data": {"answer": "1e999999"}}), 400, "answer: $: expected an object"),
    (("POST", "/answer", {"content": b"\xff\xfe not a form", "headers": {"content-type": "text/plain"}}), 400,
     "paste a cited answer"),
    (("GET", "/answer", {}), 405, "Method Not Allowed"),
    (("GET", "/search", {"params": {"q": "income", "k": "10" * 40}}), 400, "k must be between 1 and 50"),
    (("GET", "/search", {"params": {"q": "income", "k": "five"}}), 400, "k must be a whole number, got &#39;five&#39;"),
    (("GET", "/search", {"params": {"q": "income", "k": "-3"}}), 400, "k must be between 1 and 50, got -3"),
    (("GET", "/search", {"params": {"q": "income", "where": "colour=red"}}), 400, "filter: "),
    (("GET", "/search", {"params": {"q": " \t "}}), 400, "the question is empty"),
    (("GET", "/page.png", {"params": {"doc": "nope", "page": "1"}}), 404, "the index holds no document 'nope'"),
    (("GET", "/page.png", {"params": {"doc": "mixed_brief", "page": "one"}}), 400, "page must be a whole number"),
    (("GET", "/page.png", {"params": {"doc": "mixed_brief", "page": "99"}}), 400, "page 99 does not exist"),
    (("GET", "/page.png", {"params": {"doc": "mixed_brief", "page": "-1"}}), 400, "page -1 does not exist"),
    (("GET", "/page.png", {"params": {"doc": "mixed_brief", "page": ["1", "2", "3", "4", "5"]}}), 400,
     "ask for 1 to 4 pages"),
    (("GET", "/page.png", {"params": {"doc": "mixed_brief", "box": "1:nan,1,2,3"}}), 400, "expected four finite"),
    (("GET", "/page.png", {"params": {"doc": "mixed_brief", "box": "x"}}), 400, "expected page:l,t,r,b"),
    (("GET", "/page.png", {"params": {"doc": "mixed_brief"}}), 400, "ask for 1 to 4 pages"),
    (("GET", "/static/../../../etc/passwd", {}), 404, "Not Found"),
])
def test_every_hostile_audit_request_is_a_4xx_with_a_message(audit, request_args, status, message):
    client, _ = audit
    method, url, kwargs = request_args
    response = client.request(method, url, **kwargs)
    assert response.status_code == status, response.text[:300]
    assert message in response.text and "Traceback" not in response.text
