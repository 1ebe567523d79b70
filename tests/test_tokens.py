"""Token counting works offline from the bundled, hash-checked BPE file."""

from __future__ import annotations

import os
import subprocess
import sys

from evidence_chunker.tokens import CL100K_SHA256, count_tokens, get_encoding


def test_counts_cl100k_tokens():
    assert count_tokens("") == 0
    assert count_tokens("hello world") == 2
    assert get_encoding().name == "cl100k_base"


def test_korean_and_special_strings_count_without_error():
    assert count_tokens("B기업은 원리금을 상환하고 있다.") > 5
    assert count_tokens("<|endoftext|>") > 1  # counted as plain text, never refused


def test_loads_offline_with_an_empty_cache_and_no_network(tmp_path):
    code = (
        "import socket\n"
        "def refuse(*a, **k): raise OSError('network disabled in test')\n"
        "socket.socket.connect = refuse\n"
        "socket.create_connection = refuse\n"
        "from evidence_chunker.tokens import count_tokens\n"
        "print(count_tokens('Revenue 12,345 억원'))\n"
    )
    env = dict(os.environ, TIKTOKEN_CACHE_DIR=str(tmp_path / "empty-cache"))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert int(out.stdout.strip()) > 3


def test_bundled_file_matches_the_official_hash():
    import hashlib
    from pathlib import Path

    import evidence_chunker

    data = (Path(evidence_chunker.__file__).parent / "data" / "9b5ad71b2ce5302211f9c61530b329a4922fc6a4").read_bytes()
    assert hashlib.sha256(data).hexdigest() == CL100K_SHA256


def test_import_does_not_load_the_encoding():
    code = "import evidence_chunker, evidence_chunker.tokens as t; print(t.get_encoding.cache_info().currsize)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
