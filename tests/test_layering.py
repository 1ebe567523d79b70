"""The shape of the two packages, read statically from their source (ast), never by importing them.

- ``semantic_json`` never imports ``evidence_chunker`` (any module, at any depth, inside functions too).
- ``evidence_chunker`` imports only ``semantic_json``'s public names: those of the modules in PUBLIC_MODULES.
- No import circle between modules. Every import counts: module level, inside functions, under
  ``TYPE_CHECKING``; importing ``a.b.c`` imports the packages ``a`` and ``a.b`` too (not the importer's own
  ancestors, which Python has loaded before it).
- Within each package, imports run from later stages to earlier ones (STAGES), never back.
- No module (or package) name is used twice across the packages (``__init__``, ``__main__``, ``errors`` aside).
- At most MAX_TOP_LEVEL_MODULES modules at ``evidence_chunker``'s top level; no module over MAX_MODULE_LINES.

Each checker is a function over {module name: path}, so the negative tests below feed it fake violating
modules and see it fail.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from repo_paths import REPO

PACKAGES = ("evidence_chunker", "semantic_json")
#: A module longer than this holds more than one concept: split it.
MAX_MODULE_LINES = 500
#: Modules at evidence_chunker's top level: the rest lives in the folder of its stage.
MAX_TOP_LEVEL_MODULES = 10
#: Names a module of either package may share with another.
SHARED_NAMES = frozenset({"__init__", "__main__", "errors"})

#: What evidence_chunker may import of semantic_json: these modules, and of each only its public names (its
#: ``__all__``, plus the names its lazy ``_EXPORTS`` table serves; every top-level name not starting with
#: "_" for a module without either).
PUBLIC_MODULES = frozenset({
    "semantic_json",                 # the package's API (__all__)
    "semantic_json.errors",          # every exception class
    "semantic_json.store",           # open_store, is_server_url, redact, the store errors
    "semantic_json.search",          # parse_where, SearchFilterError
    "semantic_json.citations",       # the citation oracle
    "semantic_json.provenance",      # recorded_pdf: the PDF an indexed document came from
    "semantic_json.transport",       # the transport's types and their id helpers (repeated_ids)
    "semantic_json.embedder_choice",  # embedders by name: the choices a command line offers
    "semantic_json.rules",           # report-text rules both packages use
    "semantic_json.rules.patterns",
    "semantic_json.rules.textnorm",
    "semantic_json.lazy",            # lazy_exports: public names imported on first use
})

#: The stages of each package in data-flow order; a module may import modules of its own stage or earlier.
#: A module's stage is that of its first sub-package, or of its own name for a top-level module.
#: The package's own ``__init__`` is its facade: it may name any stage (its imports are lazy) and any
#: module may import it (for ``__version__``); circles through it are still caught.
STAGES = {
    "evidence_chunker": [
        ("base", {"errors", "deferred_imports", "dict_records", "output_files"}),
        ("parsing", {"parsing"}),
        ("units", {"units", "tokens"}),
        ("corpus", {"corpus"}),
        ("export", {"export"}),
        ("pipeline", {"pipeline", "chunker"}),
        ("ingest", {"ingest"}),
        ("serve", {"serve"}),
        ("cli", {"cli"}),
    ],
    "semantic_json": [
        ("base", {"errors", "lazy", "json_schemas", "model", "transport", "index", "provenance", "token_cost"}),
        ("rules", {"rules"}),
        ("lexicon", {"lexicon"}),
        ("compilation", {"compilation"}),
        ("embedding", {"embedders"}),
        # search/ and store/ are one stage until the search-at-scale issue separates a document's search
        # record (store/records.py reads region rules of search/) from the search over it
        ("index", {"search", "store"}),
        ("repository", {"repository", "region_access", "embedder_choice"}),
        ("citations", {"citations"}),
    ],
}


# --- reading the source ----------------------------------------------------------------------------------

def package_modules(root: Path, packages=PACKAGES) -> dict[str, Path]:
    """Every module of ``packages`` under ``root``, by dotted name (a package by its ``__init__.py``)."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def imports_of(name: str, path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) for every import statement of module ``name`` (file ``path``), anywhere in it, with
    relative imports resolved; ``names`` is empty for ``import a.b``."""
    is_package = path.name == "__init__.py"
    base = name.split(".") if is_package else name.split(".")[:-1]
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.extend((alias.name, []) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            anchor = base[: len(base) - node.level + 1] if node.level else []
            found.append((".".join(anchor + ([node.module] if node.module else [])), [a.name for a in node.names]))
    return found


def import_edges(modules: dict[str, Path]) -> dict[str, set[str]]:
    """Module → the modules of ``modules`` it imports (the packages on the way included, its own ancestors
    left out)."""
    edges: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        for module, names in imports_of(name, path):
            targets = [module] + [f"{module}.{n}" for n in names if f"{module}.{n}" in modules]
            for target in targets:
                parts = target.split(".")
                for k in range(1, len(parts) + 1):
                    step = ".".join(parts[:k])
                    if step in modules and step != name and not name.startswith(step + "."):
                        edges[name].add(step)
    return edges


def public_names(path: Path) -> set[str]:
    """A module's public names: ``__all__`` and the keys of a lazy ``_EXPORTS`` table; or, without either,
    every top-level name not starting with "_"."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    declared = False
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            target = node.targets[0].id
            if target == "__all__":
                declared = True
                names.update(ast.literal_eval(node.value))
            elif target == "_EXPORTS" and isinstance(node.value, ast.Dict):
                declared = True
                for key, value in zip(node.value.keys, node.value.values):
                    if key is not None:
                        names.add(ast.literal_eval(key))
                    elif isinstance(value, ast.DictComp):
                        names.update(ast.literal_eval(value.generators[0].iter))
    if declared:
        return names
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return {n for n in names if not n.startswith("_")}


# --- the checks --------------------------------------------------------------------------------------------

def semantic_json_imports_of_evidence_chunker(modules: dict[str, Path]) -> list[str]:
    return [f"{name} imports {module}" for name, path in modules.items() if name.split(".")[0] == "semantic_json"
            for module, _ in imports_of(name, path) if module.split(".")[0] == "evidence_chunker"]


def private_semantic_json_imports(modules: dict[str, Path], public=PUBLIC_MODULES) -> list[str]:
    """Imports of evidence_chunker that reach past semantic_json's public names."""
    wrong = []
    for name, path in modules.items():
        if name.split(".")[0] != "evidence_chunker":
            continue
        for module, names in imports_of(name, path):
            if module.split(".")[0] != "semantic_json":
                continue
            if module not in public:
                wrong.append(f"{name} imports {module}")
                continue
            allowed = public_names(modules[module]) | {n for n in names if f"{module}.{n}" in public}
            wrong.extend(f"{name} imports {module}.{n}" for n in names if n not in allowed)
    return wrong


def import_circles(modules: dict[str, Path]) -> list[list[str]]:
    edges = import_edges(modules)
    circles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(name: str, trail: list[str]) -> None:
        state[name] = 1
        for target in sorted(edges[name]):
            if state.get(target) == 1:
                circles.append(trail[trail.index(target):] + [target])
            elif target not in state:
                visit(target, trail + [target])
        state[name] = 2

    for name in sorted(modules):
        if name not in state:
            visit(name, [name])
    return circles


def stage_of(name: str, stages=STAGES) -> int | None:
    """The position of module ``name``'s stage in its package's STAGES; None for the package's facade."""
    package, *rest = name.split(".")
    if not rest:
        return None
    for rank, (_, members) in enumerate(stages[package]):
        if rest[0] in members:
            return rank
    raise AssertionError(f"{name}: no stage in STAGES names {rest[0]!r}: add it to the stage it belongs to")


def backward_imports(modules: dict[str, Path], stages=STAGES) -> list[str]:
    """Imports from an earlier stage to a later one of the same package."""
    wrong = []
    for name, targets in import_edges(modules).items():
        for target in targets:
            if target.split(".")[0] != name.split(".")[0]:
                continue
            here, there = stage_of(name, stages), stage_of(target, stages)
            if here is not None and there is not None and there > here:
                package = name.split(".")[0]
                wrong.append(f"{name} ({stages[package][here][0]}) imports {target} ({stages[package][there][0]})")
    return sorted(wrong)


def names_used_twice(modules: dict[str, Path]) -> dict[str, list[str]]:
    by_name: dict[str, list[str]] = {}
    for name, path in modules.items():
        short = path.stem if path.name != "__init__.py" else path.parent.name
        if short not in SHARED_NAMES and "." in name:
            by_name.setdefault(short, []).append(name)
    return {short: names for short, names in by_name.items() if len(names) > 1}


def long_modules(modules: dict[str, Path], limit: int = MAX_MODULE_LINES) -> dict[str, int]:
    lengths = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in modules.items()}
    return {name: n for name, n in lengths.items() if n > limit}


# --- on the packages ---------------------------------------------------------------------------------------

MODULES = package_modules(REPO)


def test_both_packages_are_read():
    assert {name.split(".")[0] for name in MODULES} == set(PACKAGES)
    assert len(MODULES) > 100


def test_semantic_json_never_imports_evidence_chunker():
    assert semantic_json_imports_of_evidence_chunker(MODULES) == []


def test_evidence_chunker_imports_only_public_names_of_semantic_json():
    assert all(module in MODULES for module in PUBLIC_MODULES)
    assert private_semantic_json_imports(MODULES) == []


def test_no_import_circle_between_modules_of_either_package():
    assert import_circles(MODULES) == []


def test_imports_run_from_later_stages_to_earlier_ones_only():
    assert backward_imports(MODULES) == []


def test_no_module_name_is_used_twice_across_the_packages():
    assert names_used_twice(MODULES) == {}


def test_evidence_chunker_keeps_few_modules_at_its_top_level():
    top = sorted((REPO / "evidence_chunker").glob("*.py"))
    assert len(top) <= MAX_TOP_LEVEL_MODULES, [p.name for p in top]


def test_no_module_is_longer_than_the_limit():
    assert long_modules(MODULES) == {}


# --- the checks fail on violations -------------------------------------------------------------------------

def _fake(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package_modules(tmp_path)


def test_the_checks_catch_fake_violations(tmp_path):
    modules = _fake(tmp_path, {
        "evidence_chunker/__init__.py": "",
        "evidence_chunker/errors.py": "",
        "evidence_chunker/parsing/__init__.py": "",
        # a parser reaching forward into the serving stage, inside a function
        "evidence_chunker/parsing/reader.py": "def read():\n    from ..serve.show import draw\n",
        "evidence_chunker/serve/__init__.py": "",
        "evidence_chunker/serve/show.py": "from ..parsing.reader import read\nfrom semantic_json.store.base import x\n",
        "evidence_chunker/serve/index.py": "from semantic_json import compile, not_public\n",
        "semantic_json/__init__.py": "__all__ = ['compile']\n",
        "semantic_json/index.py": "def search():\n    import evidence_chunker.serve.show\n",
        "semantic_json/store/__init__.py": "",
        "semantic_json/store/base.py": "x = 1\n" + "# line\n" * MAX_MODULE_LINES,
    })
    assert semantic_json_imports_of_evidence_chunker(modules) == ["semantic_json.index imports evidence_chunker.serve.show"]
    assert sorted(private_semantic_json_imports(modules, public=frozenset({"semantic_json"}))) == [
        "evidence_chunker.serve.index imports semantic_json.not_public",
        "evidence_chunker.serve.show imports semantic_json.store.base",
    ]
    assert ["evidence_chunker.parsing.reader", "evidence_chunker.serve.show",
            "evidence_chunker.parsing.reader"] in import_circles(modules)
    assert backward_imports(modules) == [
        "evidence_chunker.parsing.reader (parsing) imports evidence_chunker.serve (serve)",
        "evidence_chunker.parsing.reader (parsing) imports evidence_chunker.serve.show (serve)",
    ]
    assert names_used_twice(modules) == {"index": ["evidence_chunker.serve.index", "semantic_json.index"]}
    assert long_modules(modules) == {"semantic_json.store.base": MAX_MODULE_LINES + 1}


def test_a_module_outside_every_stage_is_reported(tmp_path):
    modules = _fake(tmp_path, {"evidence_chunker/__init__.py": "", "evidence_chunker/misc.py": "from . import errors\n",
                               "evidence_chunker/errors.py": ""})
    with pytest.raises(AssertionError, match="misc"):
        backward_imports(modules)


@pytest.mark.parametrize("source, names", [
    ("__all__ = ['a', 'b']\n_EXPORTS = {'c': '.x', **{n: '.y' for n in ('d', 'e')}}\n", {"a", "b", "c", "d", "e"}),
    ("def f(): pass\nclass K: pass\nX = 1\n_hidden = 2\n", {"f", "K", "X"}),
])
def test_public_names_are_read_from_all_and_the_lazy_table(tmp_path, source, names):
    path = tmp_path / "m.py"
    path.write_text(source, encoding="utf-8")
    assert public_names(path) == names
