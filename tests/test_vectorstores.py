"""`sjt corpus --store lancedb://...` and `--store postgresql://...`: every corpus record lands with its embedding
and metadata, a rerun replaces instead of duplicating, and the stores answer a nearest-neighbour query."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from evidence_chunker.cli import main as sjt
from pg_server import ServerUnavailable, shared_server
from repo_paths import REPO, SAMPLE_PDFS
from semantic_json import LiteEmbedder

QUERY = "diluted EPS Q3 2019"


@pytest.fixture(scope="module")
def records(tmp_path_factory) -> dict[str, dict]:
    """The JSONL corpus of sample_pdfs, by chunk id: what every vector store must hold."""
    out = tmp_path_factory.mktemp("corpus") / "corpus.jsonl"
    assert sjt(["corpus", str(SAMPLE_PDFS), "--parser", "lite", "--no-progress", "-o", str(out)]) == 0
    return {r["chunk_id"]: r for r in map(json.loads, out.read_text().splitlines())}


def _check_row(row: dict, record: dict, embedder: LiteEmbedder) -> None:
    meta = record["metadata"]
    assert row["doc_id"] == record["doc_id"] and row["kind"] == record["kind"]
    assert row["text"] == record["text"] and row["retrieval_text"] == record["retrieval_text"]
    assert list(row["page_span"]) == meta["page_span"] and row["page_no"] == meta["page_no"]
    assert row["eu_id"] == meta.get("eu_id")
    boxes = row["page_boxes"] if isinstance(row["page_boxes"], list) else json.loads(row["page_boxes"])
    assert boxes == json.loads(json.dumps(meta["page_boxes"]))
    assert row["embedder"] == embedder.name
    expected = embedder.embed_documents([record["retrieval_text"]])[0]
    assert np.allclose(np.asarray(row["vector"], dtype=np.float32), expected, atol=1e-6)


def test_corpus_to_lancedb_holds_every_record_with_its_embedding(tmp_path, records, capsys):
    lancedb = pytest.importorskip("lancedb", reason="the lancedb extra is not installed")
    target = f"lancedb://{tmp_path / 'vectors'}"
    assert sjt(["corpus", str(SAMPLE_PDFS), "--parser", "lite", "--no-progress", "--store", target]) == 0
    # a second export of a document replaces its rows
    assert sjt(["corpus", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--parser", "lite", "--no-progress", "--store", target]) == 0
    assert "0 failed" in capsys.readouterr().err
    table = lancedb.connect(str(tmp_path / "vectors")).open_table("sjt_corpus")
    rows = table.to_arrow().to_pylist()
    assert sorted(r["chunk_id"] for r in rows) == sorted(records)  # no duplicates, none missing
    embedder = LiteEmbedder()
    for row in rows:
        _check_row(row, records[row["chunk_id"]], embedder)
    assert any(r["kind"] == "table" and r["eu_id"] for r in rows) and any(r["kind"] == "text" for r in rows)
    best = table.search(embedder.embed_query(QUERY)).metric("cosine").limit(1).to_list()[0]
    assert best["doc_id"] == "annual_report_en" and list(best["page_span"]) == [6] and best["kind"] == "table"


def test_corpus_to_postgres_holds_every_record_with_its_embedding(records, capsys):
    try:
        server = shared_server()
    except ServerUnavailable as exc:
        pytest.skip(f"PostgreSQL with pgvector cannot run here: {exc}")
    import psycopg
    from pgvector.psycopg import register_vector

    url = server.create_database("sjt_vectors")
    for inputs in (SAMPLE_PDFS, SAMPLE_PDFS / "mixed_brief.pdf"):  # the second export replaces that document's rows
        assert sjt(["corpus", str(inputs), "--parser", "lite", "--no-progress", "--store", url, "--table", "reports"]) == 0
    embedder = LiteEmbedder()
    with psycopg.connect(url) as conn:
        register_vector(conn)
        cursor = conn.execute("SELECT * FROM reports")
        names = [c.name for c in cursor.description]
        rows = [dict(zip(names, values)) for values in cursor.fetchall()]
        query = embedder.embed_query(QUERY).astype(np.float32)
        best = conn.execute("SELECT doc_id, page_span, kind FROM reports ORDER BY vector <=> %s LIMIT 1",
                            (query,)).fetchone()
        indexes = [r[0] for r in conn.execute("SELECT indexdef FROM pg_indexes WHERE tablename = 'reports'")]
    assert sorted(r["chunk_id"] for r in rows) == sorted(records)
    for row in rows:
        row["vector"] = row["vector"].to_numpy()
        _check_row(row, records[row["chunk_id"]], embedder)
    assert best == ("annual_report_en", [6], "table")
    assert any("USING hnsw (vector vector_cosine_ops)" in index for index in indexes)


def test_unknown_vector_store_is_a_clear_error(tmp_path, capsys):
    assert sjt(["corpus", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--store", "chroma://x", "--no-progress"]) == 2
    assert "chroma://x: unknown vector store" in capsys.readouterr().err


def test_vector_store_doc_example_runs(tmp_path, monkeypatch):
    pytest.importorskip("lancedb", reason="the lancedb extra is not installed")
    page = (REPO / "docs" / "vector_stores.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", page, re.DOTALL).group(1)
    shell = re.search(r"```bash\n(.*?)```", page, re.DOTALL).group(1).strip()
    assert shell.startswith("sjt corpus sample_pdfs/ --store lancedb://")
    (tmp_path / "sample_pdfs").symlink_to(SAMPLE_PDFS)
    monkeypatch.chdir(tmp_path)
    assert sjt(shell.split()[1:] + ["--parser", "lite", "--no-progress"]) == 0
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         env=dict(os.environ), timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    first = out.stdout.splitlines()[0]
    assert first.startswith("annual_report_en page 6 table annual_report_en-p6-1"), out.stdout
