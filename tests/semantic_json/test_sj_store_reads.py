"""What a search reads from an SQLite index: the query's key ids in one query, and an error of the engine
raised as such, never taken for a damaged document (tests/test_postgres_store.py does the same on a server)."""

from __future__ import annotations

import sqlite3

import pytest

from semantic_json import SemanticRepository, compile
from semantic_json.search.candidates import plan_query
from semantic_json.store import IndexFileError

TEXTS = {
    "acme_2022": "Acme Tools reported revenue of 1,350 million in fiscal 2022.\nCapital expenditures were 155 million.\n",
    "borealis_2022": "Borealis Energy reported revenue of 980 million in fiscal 2022.\nDividends were 41 million.\n",
}


@pytest.fixture
def index(tmp_path):
    path = tmp_path / "index.sqlite"
    repo = SemanticRepository.open(path)
    for document_id, text in TEXTS.items():
        repo.add(compile(text, document_id=document_id))
    repo.close()
    return path


def test_batch_key_lookup_gives_the_ids_of_one_by_one_lookups_and_leaves_unknown_keys_out(index):
    keys = list(plan_query("revenue capital expenditures 2022 zebra", SemanticRepository().embedder).keys)
    keys.append("no-such-key")
    one_by_one = SemanticRepository.open(index, read_only=True)
    batch = SemanticRepository.open(index, read_only=True)
    expected = {key: one_by_one._vocabulary.get(key) for key in keys}
    found = batch._vocabulary.look_up(keys)
    assert found == {key: key_id for key, key_id in expected.items() if key_id is not None}
    assert "revenue" in found and "no-such-key" not in found and "zebra" not in found
    one_by_one.close()
    batch.close()


def test_a_search_looks_its_keys_up_in_one_query(index):
    repo = SemanticRepository.open(index, read_only=True)
    asked: list[list[str]] = []
    lookup = repo._vocabulary._lookup
    repo._vocabulary._lookup = lambda keys: asked.append(list(keys)) or lookup(keys)
    assert repo.search("Acme revenue in fiscal 2022", k=2).region_count
    assert len(asked) == 1
    repo.search("Acme revenue in fiscal 2022", k=2)  # known keys are remembered: no query
    assert len(asked) == 1
    repo.close()


def test_an_engine_error_reading_vectors_is_raised_and_no_document_is_left_out_as_damaged(index):
    repo = SemanticRepository.open(index, read_only=True)
    with sqlite3.connect(index) as other:  # another process renames the table: reads of it fail in SQL
        other.execute("ALTER TABLE doc_vectors RENAME TO doc_vectors_gone")
    other.close()
    with pytest.raises(IndexFileError, match="cannot read the vectors"):
        repo.search("Acme revenue in fiscal 2022", k=2)
    with pytest.raises(IndexFileError, match="cannot read the vectors"):
        repo.check_index()
    assert repo.damaged == {} and len(repo) == len(TEXTS)
    repo.close()
