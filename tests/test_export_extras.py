"""The LangChain and LlamaIndex exporters are optional: absent extras give a clear error, never an
import failure of the package."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run_without(modules: list[str], body: str) -> subprocess.CompletedProcess:
    """Run ``body`` in a fresh interpreter where importing any of ``modules`` fails."""
    blocker = "import sys\n" + "".join(f"sys.modules[{m!r}] = None\n" for m in modules)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    return subprocess.run([sys.executable, "-c", blocker + textwrap.dedent(body)], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=300)


def test_package_and_exporters_import_without_langchain_or_llamaindex():
    result = run_without(["langchain_core", "llama_index", "llama_index.core"], """
        import evidence_chunker, evidence_chunker.export
        import evidence_chunker.export.langchain, evidence_chunker.export.llamaindex
        print("ok")
    """)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"


def test_langchain_exporter_without_its_extra_names_the_extra():
    result = run_without(["langchain_core"], """
        from evidence_chunker import ExtraNotInstalledError
        from evidence_chunker.corpus import TextChunk
        from evidence_chunker.export import langchain as lc
        chunk = TextChunk(chunk_id="d-t1", doc_id="d", text="x")
        for call in (lambda: lc.to_langchain([chunk]), lambda: lc.to_langchain_units([chunk]),
                     lambda: lc.EvidenceRetriever(object())):
            try:
                call()
            except ExtraNotInstalledError as exc:
                assert exc.extra == "langchain", exc
                print(exc)
            else:
                raise SystemExit("no error")
    """)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 3
    assert all("'langchain' extra" in line and "semantic-json-transport[langchain]" in line for line in lines)
    assert lines[0].startswith("to_langchain needs")


def test_llamaindex_exporter_without_its_extra_names_the_extra():
    result = run_without(["llama_index", "llama_index.core"], """
        from evidence_chunker import ExtraNotInstalledError
        from evidence_chunker.export import llamaindex as li
        for call in (lambda: li.to_llamaindex([]), lambda: li.to_llamaindex_units([]),
                     lambda: li.EvidenceRetriever(object())):
            try:
                call()
            except ExtraNotInstalledError as exc:
                assert exc.extra == "llamaindex", exc
                print(exc)
            else:
                raise SystemExit("no error")
    """)
    assert result.returncode == 0, result.stderr
    assert all("'llamaindex' extra" in line and "llama-index-core" in line for line in result.stdout.splitlines())


def test_importing_the_export_package_loads_neither_framework_nor_the_chunker():
    result = subprocess.run(
        [sys.executable, "-c",
         "import sys, evidence_chunker.export, evidence_chunker.corpus\n"
         "heavy = [m for m in ('langchain_core', 'llama_index', 'docling_core.transforms.chunker') if m in sys.modules]\n"
         "print(heavy)"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_text_chunks_without_semchunk_say_what_to_install():
    result = run_without(["semchunk"], """
        from docling_core.types.doc import DoclingDocument
        from evidence_chunker.corpus import ChunkerUnavailableError, make_text_chunks
        try:
            make_text_chunks(DoclingDocument(name="d"), "d")
        except ChunkerUnavailableError as exc:
            print(exc)
        else:
            raise SystemExit("no error")
    """)
    assert result.returncode == 0, result.stderr
    assert "semchunk" in result.stdout and "pip install" in result.stdout
