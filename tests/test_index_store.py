"""The index file's layout: opening reads the search records only, a document is read when a search returns
one of its regions, a reopened index answers exactly as the repository that built it, and an index of an
older layout is refused with the way to rebuild it."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from evidence_chunker.cli import main as sjt
from evidence_chunker.ingest.prepare import prepare_document
from repo_paths import SAMPLE_PDFS, SAMPLE_QUESTIONS
from semantic_json import SemanticDocument, SemanticRepository, compile
from semantic_json.store import IndexFileError, IndexVersionError, SqliteStore
from semantic_json.store.engine_rows import DocumentKeys, block_dots, block_vectors, pack_vectors, posting_entries
from semantic_json.rules.textnorm import query_content
from semantic_json.search.candidates import plan_query
from semantic_json.store.records import decode_document, decode_record, encode_document

QUESTIONS = [json.loads(line)["question"] for line in SAMPLE_QUESTIONS.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]


@pytest.fixture(scope="module")
def prepared() -> list[tuple[SemanticDocument, dict]]:
    """The sample PDFs parsed and compiled once (lite parser): (document, info) in file order."""
    out = []
    for pdf in sorted(SAMPLE_PDFS.glob("*.pdf")):
        done = prepare_document(pdf, "lite")
        out.append((SemanticDocument.from_json(done.document_json), done.info))
    return out


@pytest.fixture(scope="module")
def index(prepared, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("store") / "index.sqlite"
    repo = SemanticRepository.open(path)
    for doc, info in prepared:
        repo.add(doc, info=info)
    repo.close()
    return path


def _damaged(index: Path, tmp_path: Path, damage: str) -> SemanticRepository:
    """A copy of ``index`` damaged by the SQL statement ``damage``, opened read-only."""
    copy = tmp_path / "damaged.sqlite"
    copy.write_bytes(index.read_bytes())
    with sqlite3.connect(copy) as conn:
        conn.execute(damage)
    return SemanticRepository.open(copy, read_only=True)


def _regions(result) -> list[tuple[str, str]]:
    """The ids and texts of a result's regions, in order."""
    return [(region.region_id, region.text) for region in result]


def _documents(result) -> list[str]:
    """The documents of a result's regions, best first."""
    return list(dict.fromkeys(region.document_id for region in result))


def _in_memory(prepared, leave_out: str = "") -> SemanticRepository:
    repo = SemanticRepository()
    for doc, info in prepared:
        if doc.document_id != leave_out:
            repo.add(doc, info=info)
    return repo


def test_a_reopened_index_answers_every_question_exactly_as_the_repository_that_built_it(prepared, index):
    built = _in_memory(prepared)
    reopened = SemanticRepository.open(index, read_only=True)
    for question in QUESTIONS:
        for documents in (None, ["credit_review_ko"]):
            expected = built.search(question, k=5, documents=documents).to_json()
            assert reopened.search(question, k=5, documents=documents).to_json() == expected, question
    reopened.close()


def test_a_repository_filling_an_index_file_answers_as_it_grows_and_lets_go_of_every_document(prepared, tmp_path):
    """What an ingest's main process holds is one document at a time: each added one stays in the file (its
    vectors too, but for the dimensions a search already read), and searches between the additions answer
    as a repository in memory holding the same documents."""
    import gc
    import weakref

    repo = SemanticRepository.open(tmp_path / "index.sqlite")
    let_go = []
    for n, (doc, info) in enumerate(prepared, start=1):
        copy = SemanticDocument.from_json(doc.to_json())
        repo.add(copy, info=info)
        let_go.append(weakref.ref(copy))
        del copy
        built = _in_memory(prepared[:n])
        for question in QUESTIONS[::3]:
            assert repo.search(question, k=5).to_json() == built.search(question, k=5).to_json(), question
    gc.collect()
    assert [ref() for ref in let_go] == [None] * len(prepared)
    repo.close()


def test_a_stored_document_reads_back_as_the_compiled_one(prepared, index):
    repo = SemanticRepository.open(index, read_only=True)
    for doc, info in prepared:
        assert repo.get_document(doc.document_id).to_json() == doc.to_json()
        assert repo.document_info(doc.document_id) == info
    repo.close()


def test_opening_reads_no_document_record_nor_vector_and_a_search_reads_only_what_it_uses(index, monkeypatch):
    read: list[str] = []
    records: list[str] = []
    vectors: list[int] = []
    source, record, vector_blocks = SqliteStore.source, SqliteStore.record, SqliteStore.vector_blocks

    def counting(self, document_id, layout, fingerprint):
        read.append(document_id)
        return source(self, document_id, layout, fingerprint)

    def counting_records(self, document_id, fingerprint):
        records.append(document_id)
        return record(self, document_id, fingerprint)

    def counting_vectors(self, documents):
        vectors.extend(document_id for document_id, _ in documents)
        return vector_blocks(self, documents)

    monkeypatch.setattr(SqliteStore, "source", counting)
    monkeypatch.setattr(SqliteStore, "record", counting_records)
    monkeypatch.setattr(SqliteStore, "vector_blocks", counting_vectors)
    repo = SemanticRepository.open(index, read_only=True)
    assert read == [] and records == [] and vectors == []
    question = "2026년 원리금 상환 합계"
    result = repo.search(question, k=2)
    assert result.region_count == 2
    assert read == list(dict.fromkeys(region.document_id for region in result))
    assert len(read) < len(repo.documents)
    # the vector blocks of the documents a query key matches, each once
    matched = {document_id for document_id in repo.documents
               if repo._search.bm25(plan_query(query_content(question), repo.embedder), [document_id], repo._store.totals(), {})}
    assert 0 < len(vectors) == len(set(vectors)) == len(matched)
    assert len(records) == len(set(records))  # each routed document's record once
    repo.search(question, k=2)
    assert len(records) == len(set(records))  # kept between searches
    repo.close()


def test_a_document_whose_vectors_are_damaged_is_left_out_when_a_query_reads_them(prepared, index, tmp_path):
    repo = _damaged(index, tmp_path, "UPDATE doc_vectors SET vectors = substr(vectors, 1, 30)"
                                     " WHERE doc = (SELECT seq FROM documents WHERE document_id = 'annual_report_en')")
    question = "operating income 2024"
    result = repo.search(question, k=5)
    assert list(repo.damaged) == ["annual_report_en"] and "vector block" in repo.damaged["annual_report_en"]
    # the other documents answer, in the order an index without the document gives (scores and region
    # extents may differ a little: the engine's corpus statistics still count the damaged document's rows)
    assert "annual_report_en" not in {region.document_id for region in result}
    assert _documents(result) == _documents(_in_memory(prepared, leave_out="annual_report_en").search(question, k=5))
    repo.close()


def test_a_search_record_its_postings_and_vector_rows_keep_the_vectors_postings_and_layout_bit_for_bit(prepared, index):
    store = SqliteStore(index, read_only=True)
    row = store._conn.execute("SELECT document_id, n_units, dim, record, keys, seq, document FROM documents").fetchone()
    document_id, n_units, dim, data, keys, seq, document = row
    record = decode_record(document_id, data, n_units, dim)
    doc, info = next((doc, info) for doc, info in prepared if doc.document_id == document_id)
    built = SemanticRepository()
    built.add(doc, info)
    block = store.vectors(document_id, store._conn.execute("SELECT fingerprint FROM documents WHERE seq = ?", (seq,)).fetchone()[0])
    stored = block_vectors(block, n_units, dim)
    assert stored.tobytes() == built.index.matrix.tobytes()
    query = stored[n_units // 2]
    assert np.allclose(block_dots(block, n_units, query), stored @ query, atol=1e-6)
    some = np.asarray([0, n_units // 2, n_units - 1])
    assert block_dots(block, n_units, query, some).tobytes() == block_dots(block, n_units, query)[some].tobytes()
    assert np.flatnonzero(stored).size < stored.size / 2  # hashed features: mostly zeros, kept as their entries
    assert block[:1] == b"b" and len(block) < stored.nbytes / 2
    # the postings rows give back every (key, unit, weight) the compiler's postings hold
    from semantic_json.search.lexical import Vocabulary, document_postings

    vocabulary = Vocabulary()
    expected = document_postings(doc, vocabulary)
    stored_id = store._lookup_keys(list(vocabulary))
    key_of = {int(key_id): stored_id[key] for key, key_id in vocabulary.items()}
    key_ids = DocumentKeys.decode(keys).key_ids.tolist()
    rows = store.postings(key_ids, [seq])
    got = sorted((key_id, int(u), float(w)) for key_id, _, entries in rows
                 for u, w in zip(*posting_entries(entries, n_units)))
    assert got == sorted(zip([key_of[k] for k in expected.keys.tolist()], expected.units.tolist(),
                             expected.weights.tolist()))
    assert np.array_equal(record.postings.lengths, expected.lengths)
    assert np.array_equal(record.postings.damping, expected.damping)
    source = decode_document(document, record.layout)
    assert decode_document(encode_document(source), record.layout).to_json() == source.to_json()
    store.close()


def test_a_document_whose_ids_and_lines_are_not_the_compilers_reads_back_unchanged(tmp_path):
    doc = compile("Revenue rose to 1,200 in 2024.\nOperating income was 300.", "notes")
    data = json.loads(doc.to_json())
    for n, unit in enumerate(data["units"]):
        unit["id"] = f"u{n}"
    data["line_starts"] = [0]  # a caller that does not split lines
    odd = SemanticDocument.model_validate(data)
    repo = SemanticRepository.open(tmp_path / "i.sqlite")
    repo.add(odd)
    repo.close()
    repo = SemanticRepository.open(tmp_path / "i.sqlite", read_only=True)
    assert repo.get_document("notes").to_json() == odd.to_json()
    repo.close()


def test_a_document_found_damaged_by_a_search_is_left_out_as_if_it_were_never_read(prepared, index, tmp_path):
    repo = _damaged(index, tmp_path, "UPDATE documents SET document = substr(document, 1, 40)"
                                     " WHERE document_id = 'credit_review_ko'")
    assert repo.damaged == {}  # nothing read yet
    question = "2026년 원리금 상환 합계"
    result = repo.search(question, k=5)
    assert "credit_review_ko" in repo.damaged and "credit_review_ko" not in repo.documents
    assert _regions(result) == _regions(_in_memory(prepared, leave_out="credit_review_ko").search(question, k=5))
    repo.close()


def test_a_closed_index_says_so_when_a_document_is_asked_for(index):
    repo = SemanticRepository.open(index, read_only=True)
    repo.close()
    with pytest.raises(IndexFileError, match="closed"):
        repo.get_document("mixed_brief")


def _older_layout(path: Path) -> None:
    """An index file as the previous layout (version 1) wrote it: documents as JSON with their vectors."""
    with sqlite3.connect(path) as conn:
        conn.executescript(
            "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);"
            "INSERT INTO meta VALUES ('store_schema_version', '1');"
            "CREATE TABLE documents (document_id TEXT PRIMARY KEY, fingerprint TEXT NOT NULL, sha256 TEXT NOT NULL,"
            " source_uri TEXT, n_units INTEGER NOT NULL, dim INTEGER NOT NULL, doc_json BLOB NOT NULL,"
            " vectors BLOB NOT NULL, info_json TEXT NOT NULL, added_at REAL NOT NULL, seq INTEGER NOT NULL);"
        )


def test_an_index_of_an_older_layout_is_refused_unchanged_with_the_way_to_rebuild_it(tmp_path, capsys):
    path = tmp_path / "old.sqlite"
    _older_layout(path)
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    for read_only in (True, False):
        with pytest.raises(IndexVersionError, match="index layout version 1; .* reads version 5 only: re-ingest"):
            SemanticRepository.open(path, read_only=read_only)
    assert sjt(["search", "--index", str(path), "revenue"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}: index layout version 1") and "sjt ingest PDFS --index NEW_INDEX" in err
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


@pytest.mark.parametrize("dim, nonzero", [(64, 5), (300, 7), (16, 16)])
def test_a_vector_block_gives_back_every_vector_and_its_dots_sparse_or_dense(dim, nonzero):
    rng = np.random.default_rng(dim)
    matrix = np.zeros((40, dim), dtype=np.float32)
    for row in matrix[:-1]:  # the last unit has no feature at all
        row[rng.choice(dim, nonzero, replace=False)] = rng.standard_normal(nonzero)
    block = pack_vectors(matrix)
    assert block[:1] == (b"d" if nonzero == dim else b"b" if dim <= 256 else b"s")
    assert block_vectors(block, 40, dim).tobytes() == matrix.tobytes()
    query = rng.standard_normal(dim).astype(np.float32)
    units = np.asarray([0, 7, 39])
    assert np.allclose(block_dots(block, 40, query, units), matrix[units] @ query, atol=1e-5)
    assert np.allclose(block_dots(block, 40, query), matrix @ query, atol=1e-5)
    for damaged in (block[:-1], b"x" + block[1:], b""):
        with pytest.raises(ValueError, match="vector block"):
            block_dots(damaged, 40, query)
    with pytest.raises(ValueError, match="outside"):
        block_dots(block, 40, query, np.asarray([40]))


def test_opening_reads_each_documents_profile_keys_and_filter_fields_as_kept_and_works_them_out_again_when_damaged(
        prepared, index, tmp_path, monkeypatch):
    from semantic_json.search.filters import SearchFilter
    from semantic_json.search.priors import Profiles

    question = "Kestrel Dynamics operating income 2024"
    expected = SemanticRepository.open(index, read_only=True).search(question, k=5).to_json()
    derive = Profiles.derive

    def not_again(text, subject):
        raise AssertionError("opening tokenised a profile again")

    monkeypatch.setattr(Profiles, "derive", staticmethod(not_again))
    fields_of = SearchFilter.fields_of
    monkeypatch.setattr(SearchFilter, "fields_of", staticmethod(lambda info: not_again("", "")))
    repo = SemanticRepository.open(index, read_only=True)
    assert repo.search(question, k=5).to_json() == expected
    assert repo._fields == {d: fields_of(repo.document_info(d)) for d in repo.documents}
    assert repo._profiles.keys and repo._profiles.subjects.keys() <= set(repo.documents)
    repo.close()
    monkeypatch.setattr(Profiles, "derive", staticmethod(derive))
    monkeypatch.setattr(SearchFilter, "fields_of", staticmethod(fields_of))
    damaged = tmp_path / "damaged_profiles.sqlite"
    damaged.write_bytes(Path(index).read_bytes())
    with sqlite3.connect(damaged) as conn:
        conn.execute("UPDATE documents SET derived = '{\"keys\": 3'")
    repo = SemanticRepository.open(damaged, read_only=True)
    assert repo.damaged == {} and repo.search(question, k=5).to_json() == expected
    repo.close()


def test_a_search_kept_to_some_documents_reads_only_their_term_counts_and_ranks_them_as_before(index, monkeypatch):
    repo = SemanticRepository.open(index, read_only=True)
    question = "operating income 2024"
    kept = repo.documents[:2]
    everywhere = repo._search.store.document_counts
    read: list[np.ndarray] = []

    def counting(key_ids, docs=None):
        rows = everywhere(key_ids, docs)
        read.append(rows)
        return rows

    monkeypatch.setattr(repo._search.store, "document_counts", counting)
    result = repo.search(question, k=5, documents=kept)
    seqs = {repo._held[d].seq for d in kept}
    assert len(read) == 1 and len(read[0]) and set(read[0][:, 1].tolist()) <= seqs
    assert {region.document_id for region in result} <= set(kept)
    # each key's documents are still counted over the whole index: the priors of the kept documents keep their order
    whole = repo._search.priors(plan_query(query_content(question), repo.embedder), question, None, repo._store.totals())
    scoped = repo._search.priors(plan_query(query_content(question), repo.embedder), question, kept, repo._store.totals())
    assert sorted(kept, key=lambda d: -whole.prior.get(d, 0.0)) == sorted(kept, key=lambda d: -scoped.prior.get(d, 0.0))
    assert max(scoped.prior.values()) == 1.0
    repo.close()


def test_a_document_without_units_packs_to_an_empty_block():
    block = pack_vectors(np.zeros((0, 256), dtype=np.float32))
    assert block_vectors(block, 0, 256).shape == (0, 256)
    assert block_dots(block, 0, np.ones(256, dtype=np.float32)).shape == (0,)
