"""Importing the packages stays light: no model framework, no optional extra, no network. (What imports what,
read statically, is tests/test_layering.py's.)"""

from __future__ import annotations

import os
import subprocess
import sys

from repo_paths import SAMPLE_PDFS

HEAVY = ("torch", "transformers", "docling", "langchain_core", "llama_index", "sentence_transformers")


def test_importing_both_packages_loads_no_heavy_module():
    code = (
        "import sys, evidence_chunker, evidence_chunker.export, evidence_chunker.corpus, semantic_json\n"
        f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_scale_out_modules_import_their_engines_only_when_used():
    engines = ("ray", "lancedb", "psycopg", "pgvector")
    code = (
        "import sys, evidence_chunker.ingest.ray_ingest, evidence_chunker.export.vectorstores, semantic_json.store.postgresql\n"
        f"print(','.join(m for m in {engines!r} if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


#: Runs the CLI in-process, then prints which modules of ``names`` were imported (one line, on stdout).
_CLI_THEN_MODULES = (
    "import sys\n"
    "from evidence_chunker.cli import main\n"
    "names = sys.argv[1].split(',')\n"
    "sys.argv = ['sjt'] + sys.argv[2:]\n"
    "try:\n"
    "    main()\n"
    "except SystemExit as exc:\n"
    "    assert not exc.code, exc.code\n"
    "print('LOADED=' + ','.join(m for m in names if m in sys.modules))\n"
)


def _modules_after_cli(names: tuple[str, ...], *args: str) -> list[str]:
    out = subprocess.run([sys.executable, "-c", _CLI_THEN_MODULES, ",".join(names), *args],
                         capture_output=True, text=True, check=True)
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("LOADED=")][-1]
    return [m for m in line.removeprefix("LOADED=").split(",") if m]


def test_lite_ingest_and_search_import_no_model_framework(tmp_path):
    index = tmp_path / "index.sqlite"
    pdf = SAMPLE_PDFS / "mixed_brief.pdf"
    frameworks = ("torch", "transformers", "docling")
    # nor pandas (nor pyarrow) and OpenCV, which docling-core imports for exports ingest never makes
    assert _modules_after_cli((*frameworks, "pandas", "pyarrow", "cv2"), "ingest", str(pdf), "--index", str(index),
                              "--parser", "lite", "--no-progress") == []
    parsing_stack = (*frameworks, "docling_core", "pypdfium2", "pandas", "semchunk", "evidence_chunker.parsing")
    assert _modules_after_cli(parsing_stack, "search", "revenue", "--index", str(index)) == []
    assert _modules_after_cli(parsing_stack, "--version") == []


#: What answering from an index needs none of: the model frameworks, the PDF parsing stack, the compiler that
#: makes documents and the citation oracle's answer models.
NOT_FOR_ANSWERING = ("torch", "transformers", "docling", "docling_core", "pypdfium2", "pandas", "semchunk",
                     "evidence_chunker.parsing", "semantic_json.compilation.compiler", "semantic_json.citations.models")


def test_search_and_verify_load_neither_the_parsing_stack_nor_the_compiler_nor_the_answer_models(tmp_path):
    from semantic_json import SemanticRepository, compile

    index, result, answer = tmp_path / "index.sqlite", tmp_path / "result.json", tmp_path / "answer.json"
    repo = SemanticRepository.open(index)
    repo.add(compile("Kestrel Dynamics reported operating income of 1,234 million in 2024.\n\n"
                     "Revenue grew to 9,876 million.", "kestrel"))
    repo.close()
    assert _modules_after_cli(NOT_FOR_ANSWERING, "search", "operating income", "--index", str(index),
                              "-o", str(result)) == []
    assert _modules_after_cli(NOT_FOR_ANSWERING, "verify", str(result), "--index", str(index)) == []
    # the same probe sees the answer models where they are used
    answer.write_text('{"statements": [{"sentence": "Operating income was 1,234 million.", "citation_ids": '
                      '["kestrel:R1"]}]}', encoding="utf-8")
    assert _modules_after_cli(NOT_FOR_ANSWERING, "check-answer", "--result", str(result), str(answer)) == [
        "semantic_json.citations.models"]


def test_the_automatic_parser_choice_imports_no_model_framework():
    code = (
        "import sys\n"
        "from evidence_chunker.parsing import resolve_parser\n"
        "import warnings; warnings.simplefilter('ignore')\n"
        "parser = resolve_parser('auto')\n"
        "print(parser.name, ','.join(m for m in ('torch', 'transformers', 'docling') if m in sys.modules))"
    )
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}  # no network probe: the choice rests on what is on disk
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    name, _, loaded = out.stdout.strip().partition(" ")
    assert name in ("lite", "docling") and loaded == ""


def test_every_public_error_class_of_evidence_chunker_lives_in_errors_py():
    import ast
    from pathlib import Path

    import evidence_chunker

    package = Path(evidence_chunker.__file__).parent
    elsewhere = []
    for path in package.rglob("*.py"):
        if path.name == "errors.py" and path.parent == package:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                bases = {getattr(base, "id", getattr(base, "attr", "")) for base in node.bases}
                if any(base.endswith(("Error", "Exception")) for base in bases):
                    elsewhere.append(f"{path.relative_to(package)}: {node.name}")
    assert elsewhere == []


def test_pandas_deferred_while_docling_core_loads_is_there_when_used():
    code = (
        "import sys\n"
        "from evidence_chunker.parsing import LiteParser\n"
        f"doc = LiteParser().parse({str(SAMPLE_PDFS / 'mixed_brief.pdf')!r}).document\n"
        "before = 'pandas' in sys.modules\n"
        "frame = doc.tables[0].export_to_dataframe(doc)\n"
        "import pandas\n"
        "print(before, isinstance(frame, pandas.DataFrame), frame.shape[0] > 1)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "True"]
