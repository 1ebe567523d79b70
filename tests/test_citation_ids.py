"""Citation ids last: an id `sjt search` prints resolves to the same text from the index alone, in another
process, after the PDF is ingested again unchanged; a changed document makes the old id fail as changed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from evidence_chunker.cli import main as sjt
from repo_paths import REPO, SAMPLE_PDFS
from semantic_json import SemanticRepository, compile, parse_citation_id, validate_cited_answer
from semantic_json.errors import ChangedDocumentError, UnknownRegionError
from semantic_json.transport import citation_id

QUERY = "B기업의 중장기 채무상환능력은 어떤가?"


def run_sjt(*args: str) -> subprocess.CompletedProcess:
    """`sjt` in a new process: nothing of this test's memory reaches it."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([sys.executable, "-m", "evidence_chunker.cli", *args], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=300)


@pytest.fixture()
def ingested(tmp_path):
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    shutil.copy(SAMPLE_PDFS / "credit_review_ko.pdf", pdfs / "credit_review_ko.pdf")
    index = tmp_path / "index.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    return pdfs, index


def test_an_id_printed_by_search_resolves_and_verifies_in_a_new_process(ingested, tmp_path):
    _, index = ingested
    searched = run_sjt("search", "--index", str(index), QUERY, "-k", "2")
    assert searched.returncode == 0, searched.stderr
    transport = json.loads(searched.stdout)
    region = transport["documents"][0]["regions"][0]
    cid = region["citation_id"]
    ref = parse_citation_id(cid)
    assert ref is not None and ref.document_id == "credit_review_ko"
    assert (ref.start_char, ref.end_char) == (region["source"]["start_char"], region["source"]["end_char"])
    (index.parent / f"{index.name}.last-search.json").unlink(missing_ok=True)  # no saved search to lean on

    verified = run_sjt("verify", "--index", str(index), cid)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert verified.stdout.startswith(f"ok   {cid}  pages {region['source']['pages']}")

    drawn = run_sjt("show", "--index", str(index), cid, "-o", str(tmp_path / "region.png"))
    assert drawn.returncode == 0, drawn.stderr
    assert (tmp_path / "region.png").stat().st_size > 0

    repo = SemanticRepository.open(index, read_only=True)
    try:
        resolved = repo.get_region(cid)
        assert resolved.text == region["text"] and resolved.citation_id == cid
        assert resolved.source.pages == region["source"]["pages"]
        assert resolved.source.boxes == region["source"]["boxes"]
        assert repo.verify_source(cid)
        with pytest.raises(UnknownRegionError, match="positional ids"):
            repo.get_region(region["region_id"])  # a positional id names a region of a search of this process
    finally:
        repo.close()

    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"statements": [{"sentence": region["text"].splitlines()[0],
                                                  "citation_ids": [cid]}]}), encoding="utf-8")
    checked = run_sjt("check-answer", "--index", str(index), str(answer), "--format", "json")
    assert checked.returncode == 0, checked.stderr
    report = json.loads(checked.stdout)
    assert report["counts"]["accepted"] == 1
    assert report["accepted"][0]["sources"][0]["pages"] == region["source"]["pages"]


def test_ingesting_the_unchanged_pdf_again_keeps_the_ids(ingested, tmp_path):
    pdfs, index = ingested
    repo = SemanticRepository.open(index)
    before = [r.citation_id for r in repo.search(QUERY, k=3)]
    repo.close()
    again = tmp_path / "again.sqlite"  # parsed and compiled afresh
    assert sjt(["ingest", str(pdfs), "--index", str(again), "--parser", "lite", "--no-progress"]) == 0
    repo = SemanticRepository.open(again, read_only=True)
    try:
        assert [r.citation_id for r in repo.search(QUERY, k=3)] == before
        assert all(repo.get_region(cid).citation_id == cid for cid in before)
    finally:
        repo.close()


def test_a_changed_document_makes_old_ids_fail_as_changed(ingested, tmp_path):
    pdfs, index = ingested
    repo = SemanticRepository.open(index)
    old = repo.search(QUERY, k=1)[0]
    repo.close()
    # Another PDF under the same name: the same document id, other text.
    shutil.copy(SAMPLE_PDFS / "mixed_brief.pdf", pdfs / "credit_review_ko.pdf")
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0

    repo = SemanticRepository.open(index, read_only=True)
    try:
        with pytest.raises(ChangedDocumentError, match="document changed"):
            repo.get_region(old.citation_id)
        report = validate_cited_answer({"statements": [{"sentence": "B기업은 상환하고 있다.",
                                                        "citation_ids": [old.citation_id]}]}, repository=repo)
        (rejected,) = report.rejected
        assert rejected.reason == "invalid_citation" and "document changed" in rejected.detail
    finally:
        repo.close()
    verified = run_sjt("verify", "--index", str(index), old.citation_id)
    assert verified.returncode == 1 and f"FAIL {old.citation_id}" in verified.stdout
    assert "document changed" in verified.stdout


def test_ids_that_name_no_region_say_why():
    repo = SemanticRepository()
    doc = compile("Revenue was 1,200 in 2024.\n\nOperating income rose to 310.\n", "notes")
    repo.add(doc)
    region = repo.search("operating income", k=1)[0]
    assert repo.get_region(region.citation_id) is region  # remembered from the search, score and anchors kept
    with pytest.raises(UnknownRegionError, match="does not hold document 'other'"):
        repo.get_region(citation_id("other", 0, 10, doc.document_sha256))
    with pytest.raises(UnknownRegionError, match="unit boundaries"):
        repo.get_region(citation_id("notes", 1, 9, doc.document_sha256))
    with pytest.raises(UnknownRegionError, match="positional ids"):
        repo.get_region("notes:R9")
    fresh = SemanticRepository()
    fresh.add(doc)
    resolved = fresh.get_region(region.citation_id)  # no search in this repository
    assert resolved.text == region.text and resolved.score == 0.0 and resolved.anchors == []
    assert resolved.source == region.source


def test_parse_citation_id_takes_the_last_at_and_refuses_other_forms():
    ref = parse_citation_id("a@b@c12-40.0123abcd")
    assert ref is not None and (ref.document_id, ref.start_char, ref.end_char) == ("a@b", 12, 40)
    for text in ("doc:R1", "doc@c40-12.0123abcd", "doc@c1-2.0123ABCD", "doc@c1-2.0123abc", "@c1-2.0123abcd"):
        assert parse_citation_id(text) is None, text
