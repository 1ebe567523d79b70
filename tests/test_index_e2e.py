"""PDF evidence through to the transport: ingest → search → verify → show, on sample_pdfs."""

from __future__ import annotations

import gc
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
from PIL import Image

from evidence_chunker.cli import main as sjt
from pdf_factory import corrupt_pdf, encrypted_pdf
from repo_paths import SAMPLE_PDFS
from semantic_json import LiteEmbedder, SearchResult, SemanticRepository
from semantic_json.errors import EmbedderMismatchError
from semantic_json.search.regions import TABLE_WHOLE_MAX_TOKENS
from semantic_json.token_cost import estimated_tokens

SCHEMA = json.loads((Path(__import__("semantic_json").__file__).parent / "schemas" / "transport_v1.schema.json").read_text())


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A copy of sample_pdfs (tests may change a PDF) and an index built from it."""
    root = tmp_path_factory.mktemp("e2e")
    pdfs = root / "pdfs"
    shutil.copytree(SAMPLE_PDFS, pdfs, ignore=shutil.ignore_patterns("*.py", "*.md", "fonts"))
    index = root / "index.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    return root, pdfs, index


def search(index: Path, query: str, out: Path, k: int = 3) -> SearchResult:
    assert sjt(["search", "--index", str(index), query, "-k", str(k), "-o", str(out)]) == 0
    return SearchResult.from_json(out.read_text())


def test_number_printed_in_a_table_leads_to_that_table(workdir, capsys):
    root, pdfs, index = workdir
    result = search(index, "diluted EPS Q3 2019", root / "eps.json")
    jsonschema.validate(json.loads((root / "eps.json").read_text()), SCHEMA)
    region = result[0]
    assert region.document_id == "annual_report_en"
    assert "Q3 2019 | Revenue:" in region.text
    source = region.source
    assert source.pages == [6] and source.kind == "table"
    assert source.pdf_sha256 and len(source.pdf_sha256) == 64
    box = source.boxes[0]
    assert box["page"] == 6 and box["coord_origin"] == "BOTTOMLEFT" and box["unit"] == "points"
    assert all(chunk.startswith("annual_report_en-p6-1") for chunk in source.chunk_ids)
    # a long table is searched in blocks of rows under its caption and header: the region holds the asked
    # row and, joined across blocks, at most what a table taken whole may cost, never the whole 40 quarters
    lines = region.text.splitlines()
    assert lines[0].startswith("Table 7: Quarterly financial data")
    assert "Quarter | Revenue | Gross profit" in lines[1] or "Quarter | Revenue | Gross profit" in lines[2]
    assert estimated_tokens(region.text) <= TABLE_WHOLE_MAX_TOKENS and "Q1 2015 |" not in region.text


def test_korean_question_finds_the_repayment_schedule_row(workdir):
    root, _, index = workdir
    result = search(index, "2026년 원리금 상환 합계", root / "ko.json")
    top = result[0]
    assert top.document_id == "credit_review_ko"
    assert "2026년 | 원금: 1,400; 이자: 282.5; 합계: 1,682.5" in top.text
    assert top.source.pages == [2]


def test_table_region_holds_whole_rows_under_caption_and_header(workdir):
    root, _, index = workdir
    result = search(index, "Total liabilities and equity", root / "bs.json")
    region = next(r for r in result if r.source.kind == "table")
    lines = region.text.splitlines()
    assert lines[0].startswith("Table 5: Consolidated Balance Sheet")
    assert "in millions of USD" in lines[0]  # the table's unit, lifted out of the corner header cell
    assert lines[1] == "December 31, 2024 | December 31, 2023"
    assert all(" | " in line or line.endswith(".") or "|" not in line for line in lines)


def test_verify_passes_on_a_fresh_result(workdir):
    root, _, index = workdir
    search(index, "net income 2024", root / "ni.json")
    assert sjt(["verify", "--index", str(index), str(root / "ni.json")]) == 0


def test_show_draws_the_box_on_the_table(workdir):
    root, _, index = workdir
    result = search(index, "diluted EPS Q3 2019", root / "show.json")
    png = root / "region.png"
    assert sjt(["show", "--index", str(index), result[0].region_id, "--result", str(root / "show.json"),
                "-o", str(png), "--scale", "1"]) == 0
    image = Image.open(png).convert("RGB")
    l, t, r, b = result[0].source.boxes[0]["bbox"]
    height = image.height  # one page at scale 1: pixels are points
    # The drawn outline is red, on the box's edge; inside the box, table text shows through the tint.
    edge = image.getpixel((int((l + r) / 2), int(height - t) + 1))
    assert edge[0] > 180 and edge[1] < 90 and edge[2] < 90
    outside = image.getpixel((int((l + r) / 2), int(height - t) - 12))
    assert outside[0] < 200 or outside[1] > 150  # not red above the box


def test_show_resolves_a_region_of_the_last_search(workdir):
    root, _, index = workdir
    result = search(index, "원리금 상환 일정", root / "last.json")
    png = root / "last.png"
    assert sjt(["show", "--index", str(index), result[0].region_id, "-o", str(png)]) == 0
    assert png.stat().st_size > 1000


def test_rerun_skips_unchanged_pdfs(workdir, capsys):
    _, pdfs, index = workdir
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    assert "indexed 0, unchanged 3" in capsys.readouterr().err


def test_reopening_does_not_re_embed(workdir, monkeypatch):
    _, _, index = workdir
    calls = []
    embed_documents = LiteEmbedder.embed_documents

    def counting(self, texts):
        calls.append(len(texts))
        return embed_documents(self, texts)

    monkeypatch.setattr(LiteEmbedder, "embed_documents", counting)
    monkeypatch.setattr(LiteEmbedder, "embed_units", lambda self, units: calls.append(len(units)))
    repo = SemanticRepository.open(index)
    assert repo.search("operating income").region_count > 0
    assert calls == [1]  # the query alone
    repo.close()


def test_index_refuses_another_embedder(workdir):
    _, _, index = workdir
    with pytest.raises(EmbedderMismatchError, match="was built with embedder"):
        SemanticRepository.open(index, embedder=LiteEmbedder(dim=512))


def test_opening_an_index_leaves_the_garbage_collector_as_it_found_it(workdir):
    """Opening pauses Python's cyclic collector while it reads the documents' rows: it runs again after,
    also when opening fails, and stays off when the caller had turned it off."""
    _, _, index = workdir
    assert gc.isenabled()
    SemanticRepository.open(index, read_only=True).close()
    assert gc.isenabled()
    with pytest.raises(EmbedderMismatchError):
        SemanticRepository.open(index, embedder=LiteEmbedder(dim=512))
    assert gc.isenabled()
    gc.disable()
    try:
        SemanticRepository.open(index, read_only=True).close()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_changed_pdf_fails_verification(tmp_path):
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    shutil.copy(SAMPLE_PDFS / "mixed_brief.pdf", pdfs)
    index = tmp_path / "i.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    search(index, "operating income 2024", tmp_path / "r.json")
    with open(pdfs / "mixed_brief.pdf", "ab") as handle:
        handle.write(b"\n% appended after indexing\n")
    assert sjt(["verify", "--index", str(index), str(tmp_path / "r.json")]) == 1


def test_tampered_index_fails_verification(tmp_path, capsys):
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    shutil.copy(SAMPLE_PDFS / "mixed_brief.pdf", pdfs)
    index = tmp_path / "i.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    search(index, "operating income 2024", tmp_path / "r.json")
    with sqlite3.connect(index) as conn:
        conn.execute("UPDATE documents SET document = substr(document, 1, length(document) - 40)")
    assert sjt(["verify", "--index", str(index), str(tmp_path / "r.json")]) == 1
    captured = capsys.readouterr()
    assert "FAIL" in captured.out and "document 'mixed_brief' is damaged" in captured.out and "rebuild" in captured.out


def test_corrupt_and_encrypted_pdfs_are_reported_and_the_batch_goes_on(tmp_path, capsys):
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    shutil.copy(SAMPLE_PDFS / "mixed_brief.pdf", pdfs)
    corrupt_pdf(pdfs / "broken.pdf")
    encrypted_pdf(pdfs / "locked.pdf")
    index = tmp_path / "i.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "broken.pdf" in err and "damaged" in err
    assert "locked.pdf" in err and "encrypted" in err
    assert "indexed 1" in err and "failed 2" in err
    repo = SemanticRepository.open(index)
    assert repo.documents == ["mixed_brief"]
    repo.close()


def test_killed_ingest_leaves_earlier_documents_intact_and_rerun_completes(tmp_path):
    pdfs = tmp_path / "pdfs"
    pdfs.mkdir()
    for n in range(12):  # many copies so the kill lands mid-run
        for name in ("annual_report_en.pdf", "credit_review_ko.pdf"):
            shutil.copy(SAMPLE_PDFS / name, pdfs / f"{n:02d}_{name}")
    index = tmp_path / "i.sqlite"
    cmd = [sys.executable, "-m", "evidence_chunker.cli", "ingest", str(pdfs), "--index", str(index),
           "--parser", "lite", "--no-progress"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ))
    deadline = time.time() + 120
    while time.time() < deadline:
        if index.exists():
            try:
                with sqlite3.connect(index, timeout=1) as conn:
                    if conn.execute("SELECT COUNT(*) FROM documents").fetchone()[0] >= 2:
                        break
            except sqlite3.OperationalError:
                pass
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    repo = SemanticRepository.open(index)
    done = list(repo.documents)
    assert 2 <= len(done) < 24 and repo.damaged == {}
    for document_id in done:
        assert repo.get_document(document_id).units
    repo.close()
    assert subprocess.run(cmd, capture_output=True).returncode == 0
    repo = SemanticRepository.open(index)
    assert len(repo.documents) == 24
    repo.close()


def test_a_block_over_a_page_break_points_at_its_own_rows_on_both_pages(workdir):
    root, _, index = workdir
    result = search(index, "Deferred tax liabilities Long-term debt", root / "break.json")
    region = next(r for r in result if r.source.pages == [4, 5])
    boxes: dict[int, list[float]] = {}
    for box in region.source.boxes:  # the first box on each page (a region over two parts has one per part)
        boxes.setdefault(box["page"], box["bbox"])
    # the rows sit at the foot of page 4 and the head of page 5; the table itself starts high on page 4
    assert boxes[4][1] < 300 and boxes[5][1] > 600
    assert "Long-term debt |" in region.text and "Deferred tax liabilities |" in region.text
