"""Importing the packages stays light: no model framework, no optional extra, no network."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("torch", "transformers", "docling", "langchain_core", "llama_index", "sentence_transformers")


def test_importing_both_packages_loads_no_heavy_module():
    code = (
        "import sys, evidence_chunker, evidence_chunker.export, semantic_json\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_semantic_json_never_imports_evidence_chunker():
    code = "import sys, semantic_json; print('evidence_chunker' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_scale_out_modules_import_their_engines_only_when_used():
    engines = ("ray", "lancedb", "psycopg", "pgvector")
    code = (
        "import sys, evidence_chunker.ray_ingest, evidence_chunker.export.vectorstores, semantic_json.store.postgresql\n"
        f"print(','.join(m for m in {engines!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
