"""A SemanticRepository on PostgreSQL + pgvector: the same search as the SQLite file, concurrent readers and
writers, the CLI on a server URL. The tests start a real server (pg_server.py) and skip, saying why, only
where it cannot start."""

from __future__ import annotations

import json
import threading
from collections import Counter

import numpy as np
import pytest

from evidence_chunker.cli import main as sjt
from evidence_chunker.ingest.prepare import prepare_document
from pg_server import ServerUnavailable, shared_server
from repo_paths import SAMPLE_PDFS, SAMPLE_QUESTIONS
from semantic_json import LiteEmbedder, SemanticDocument, SemanticRepository
from semantic_json.errors import EmbedderMismatchError
from semantic_json.search.candidates import plan_query
from semantic_json.search.lexical import document_postings, document_term_counts
from semantic_json.store import IndexFileError, IndexVersionError
from semantic_json.store.records import SearchRecord, UnitLayout

QUESTIONS_FILE = SAMPLE_QUESTIONS
#: Writers and rounds of the concurrency test: each writer rewrites every document this many times.
WRITERS = 2
WRITE_ROUNDS = 3


@pytest.fixture(scope="module")
def server():
    try:
        return shared_server()
    except ServerUnavailable as exc:
        pytest.skip(f"PostgreSQL with pgvector cannot run here: {exc}")


_databases = iter(range(1_000_000))


@pytest.fixture
def pg_url(server) -> str:
    """A fresh, empty database for one test."""
    return server.create_database(f"sjt_store_{next(_databases)}")


@pytest.fixture(scope="module")
def prepared():
    """The sample PDFs parsed and compiled once (lite parser): (document, info) in file order."""
    out = []
    for pdf in sorted(SAMPLE_PDFS.glob("*.pdf")):
        done = prepare_document(pdf, "lite")
        out.append((SemanticDocument.from_json(done.document_json), done.info))
    return out


def _fill(location, prepared) -> None:
    repo = SemanticRepository.open(location)
    for doc, info in prepared:
        assert repo.add(doc, info=info)
    repo.close()


def _record(repo: SemanticRepository, doc: SemanticDocument) -> SearchRecord:
    """The search record add() would write for ``doc``."""
    vocabulary = repo._vocabulary
    return SearchRecord(repo.embedder.embed_units(doc.units), document_postings(doc, vocabulary),
                        document_term_counts(doc, vocabulary), UnitLayout.from_document(doc))


def _regions(repo: SemanticRepository, question: str) -> list[tuple]:
    return [(r.region_id, r.score, r.text, r.source.pages, r.source.start_char, r.source.end_char)
            for r in repo.search(question, k=3)]


def test_postgres_index_gives_the_same_top_regions_as_the_sqlite_file(tmp_path, pg_url, prepared):
    _fill(tmp_path / "index.sqlite", prepared)
    _fill(pg_url, prepared)
    sqlite_repo = SemanticRepository.open(tmp_path / "index.sqlite")
    pg_repo = SemanticRepository.open(pg_url)
    questions = [json.loads(line)["question"] for line in QUESTIONS_FILE.read_text().splitlines() if line.strip()]
    assert len(questions) >= 10
    assert pg_repo.documents == sqlite_repo.documents == ["annual_report_en", "credit_review_ko", "mixed_brief"]
    assert np.array_equal(pg_repo.index.matrix, sqlite_repo.index.matrix)  # float32 round trip, bit for bit
    for question in questions:
        expected = _regions(sqlite_repo, question)
        assert expected, question
        assert _regions(pg_repo, question) == expected, question
    result = pg_repo.search(questions[0], k=3)
    assert all(pg_repo.verify_source(region) for region in result)
    assert pg_repo.document_info("annual_report_en")["pdf_sha256"] == prepared[0][1]["pdf_sha256"]
    sqlite_repo.close()
    pg_repo.close()


def test_rerun_skips_unchanged_documents_and_remove_is_kept(pg_url, prepared):
    _fill(pg_url, prepared)
    repo = SemanticRepository.open(pg_url)
    doc, info = prepared[0]
    assert repo.add(doc, info=info) is False  # identical document: nothing to re-index
    repo.remove(doc.document_id)
    repo.set_note("who", "test")
    repo.close()
    again = SemanticRepository.open(pg_url)
    assert doc.document_id not in again and len(again) == len(prepared) - 1
    assert again.get_note("who") == "test"
    assert again.anchor_count == sum(len(d.units) for d, _ in prepared[1:])
    again.close()


def test_a_document_with_a_damaged_search_record_is_left_out_and_named(pg_url, prepared):
    import psycopg

    _fill(pg_url, prepared)
    with psycopg.connect(pg_url) as conn:
        conn.execute("UPDATE sjt_documents SET record = substring(record from 1 for 40)"
                     " WHERE document_id = 'credit_review_ko'")
    repo = SemanticRepository.open(pg_url)
    assert repo.damaged == {}  # opening reads no search record: the damage is found when a search needs it
    assert repo.search("operating income 2024").region_count > 0
    assert list(repo.damaged) == ["credit_review_ko"] and "truncated" in repo.damaged["credit_review_ko"]
    assert repo.documents == ["annual_report_en", "mixed_brief"]
    repo.close()


def test_compressed_columns_are_stored_out_of_line_as_they_are_not_compressed_again(pg_url, prepared):
    import psycopg

    _fill(pg_url, prepared)
    with psycopg.connect(pg_url) as conn:
        storage = conn.execute("SELECT attrelid::regclass::text, attname, attstorage FROM pg_attribute WHERE attrelid IN"
                               " ('sjt_documents'::regclass, 'sjt_doc_vectors'::regclass) AND atttypid = 'bytea'::regtype"
                               " ORDER BY 1, 2").fetchall()
        compressed = conn.execute(
            "SELECT count(*) FROM sjt_documents d JOIN sjt_doc_vectors v ON v.doc = d.seq WHERE pg_column_compression(d.record)"
            " IS NOT NULL OR pg_column_compression(d.document) IS NOT NULL OR pg_column_compression(v.vectors) IS NOT NULL"
        ).fetchone()[0]
    assert storage == [("sjt_doc_vectors", "vectors", "e"), ("sjt_documents", "document", "e"),
                       ("sjt_documents", "keys", "e"), ("sjt_documents", "record", "e")]
    assert compressed == 0


def test_a_search_looks_its_keys_up_in_one_query_with_the_ids_of_one_by_one_lookups(pg_url, prepared):
    _fill(pg_url, prepared)
    question = "operating income 2024 영업이익"
    one_by_one, batch = SemanticRepository.open(pg_url), SemanticRepository.open(pg_url)
    keys = [*plan_query(question, batch.embedder).keys, "no-such-key"]
    expected = {key: one_by_one._vocabulary.get(key) for key in keys}
    assert batch._vocabulary.look_up(keys) == {key: key_id for key, key_id in expected.items() if key_id is not None}
    assert "no-such-key" not in batch._vocabulary.look_up(keys)
    asked = []
    lookup = one_by_one._vocabulary._lookup
    one_by_one._vocabulary._lookup = lambda keys: asked.append(list(keys)) or lookup(keys)
    assert one_by_one.search("net cash from operating activities").region_count
    assert len(asked) == 1
    one_by_one.close()
    batch.close()


def test_a_server_error_reading_vectors_is_raised_and_no_document_is_left_out_as_damaged(pg_url, prepared):
    import psycopg

    _fill(pg_url, prepared)
    repo = SemanticRepository.open(pg_url)
    with psycopg.connect(pg_url) as conn:
        conn.execute("ALTER TABLE sjt_doc_vectors RENAME TO sjt_doc_vectors_gone")
    with pytest.raises(IndexFileError, match="cannot read the vectors .*sjt_doc_vectors"):
        repo.search("operating income 2024")
    with pytest.raises(IndexFileError, match="cannot read the vectors"):
        repo.check_index()
    assert repo.damaged == {} and len(repo) == len(prepared)
    repo.close()


def test_an_index_of_an_older_layout_is_refused_with_the_way_to_rebuild_it(pg_url, prepared):
    import psycopg

    _fill(pg_url, prepared[:1])
    with psycopg.connect(pg_url) as conn:
        conn.execute("UPDATE sjt_meta SET value = '1' WHERE key = 'store_schema_version'")
    with pytest.raises(IndexVersionError, match="index layout version 1; .* re-ingest the PDFs into a new index"):
        SemanticRepository.open(pg_url)


def test_another_embedder_is_refused(pg_url, prepared):
    _fill(pg_url, prepared[:1])
    with pytest.raises(EmbedderMismatchError, match="was built with embedder"):
        SemanticRepository.open(pg_url, embedder=LiteEmbedder(dim=64))


def test_server_hnsw_nearest_anchor_is_the_in_memory_best(pg_url, prepared):
    _fill(pg_url, prepared)
    repo = SemanticRepository.open(pg_url)
    query = repo.embedder.embed_query("diluted EPS Q3 2019")
    best_in_memory = repo.index.search(query, 1)[0]
    best_on_server = repo._store.nearest(query, 1)[0]
    assert best_on_server[:2] == best_in_memory[:2]
    assert best_on_server[2] == pytest.approx(best_in_memory[2], abs=1e-4)
    repo.close()


def test_concurrent_writers_and_readers_neither_lose_nor_duplicate_documents(pg_url, prepared):
    SemanticRepository.open(pg_url).close()  # bind the embedder once, as `sjt ingest` would
    errors: list[BaseException] = []
    loads: list[int] = []
    writing = threading.Event()
    writing.set()

    def writer(order: list[int]) -> None:
        try:
            repo = SemanticRepository.open(pg_url)
            for _ in range(WRITE_ROUNDS):
                for n in order:
                    doc, info = prepared[n]
                    repo._store.put(doc, _record(repo, doc), info)  # force a rewrite
            repo.close()
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)

    def reader() -> None:
        try:
            while writing.is_set():
                repo = SemanticRepository.open(pg_url)
                assert repo.damaged == {}
                rows = Counter(document_id for document_id, _ in repo.index.keys())
                for doc in repo:  # every loaded document is whole: one vector for each of its units
                    assert rows[doc.document_id] == len(doc.units)
                loads.append(len(repo))
                repo.close()
        except BaseException as exc:
            errors.append(exc)

    order = list(range(len(prepared)))
    threads = [threading.Thread(target=writer, args=(order if n % 2 == 0 else order[::-1],)) for n in range(WRITERS)]
    readers = [threading.Thread(target=reader) for _ in range(2)]
    for thread in readers + threads:
        thread.start()
    for thread in threads:
        thread.join()
    writing.clear()
    for thread in readers:
        thread.join()
    assert errors == []
    assert loads, "the readers never loaded the index"
    import psycopg

    with psycopg.connect(pg_url) as conn:
        documents = conn.execute("SELECT count(*), count(DISTINCT document_id) FROM sjt_documents").fetchone()
        anchors = conn.execute(
            "SELECT count(*), count(DISTINCT (document_id, position)) FROM sjt_anchors").fetchone()
    assert documents == (len(prepared), len(prepared))
    expected_anchors = sum(len(doc.units) for doc, _ in prepared)
    assert anchors == (expected_anchors, expected_anchors)


def test_unreachable_server_is_a_clear_error():
    with pytest.raises(IndexFileError, match="cannot connect to the PostgreSQL server"):
        SemanticRepository.open("postgresql://nobody:secret@127.0.0.1:1/none")
    try:
        SemanticRepository.open("postgresql://nobody:secret@127.0.0.1:1/none")
    except IndexFileError as exc:
        assert "secret" not in str(exc)  # the password never reaches a message


def test_cli_ingests_searches_and_verifies_on_a_server_url(tmp_path, pg_url, capsys):
    assert sjt(["ingest", str(SAMPLE_PDFS), "--index", pg_url, "--parser", "lite", "--no-progress"]) == 0
    assert "indexed 3" in capsys.readouterr().err
    assert sjt(["ingest", str(SAMPLE_PDFS), "--index", pg_url, "--parser", "lite", "--no-progress"]) == 0
    assert "unchanged 3" in capsys.readouterr().err  # the resume rule holds on the server too
    out = tmp_path / "result.json"
    assert sjt(["search", "--index", pg_url, "diluted EPS Q3 2019", "-k", "2", "-o", str(out)]) == 0
    capsys.readouterr()
    assert sjt(["verify", "--index", pg_url, str(out)]) == 0
    assert "2 of 2 region(s) verified" in capsys.readouterr().err
    # The server keeps the last result as a note, so `show` finds its regions without --result (as with a file)
    first = json.loads(out.read_text(encoding="utf-8"))["documents"][0]["regions"][0]["region_id"]
    assert sjt(["show", "--index", pg_url, first, "-o", str(tmp_path / "r.png")]) == 0
    assert f"wrote {tmp_path / 'r.png'}" in capsys.readouterr().err and (tmp_path / "r.png").stat().st_size > 0
