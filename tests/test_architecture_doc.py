"""docs/architecture.md stays true: every path it names exists, every module of both packages is named in its
module map, in the row of its folder (a package's ``__init__`` may go unnamed), and every module a row names
is in that folder."""

from __future__ import annotations

import re
from pathlib import Path

from repo_paths import REPO

PAGE = REPO / "docs" / "architecture.md"
PACKAGES = ("evidence_chunker", "semantic_json")
#: A path in backticks: a file or folder of the repository.
PATH_RE = re.compile(r"`((?:evidence_chunker|semantic_json|tests|docs|benchmarks)/[\w./-]*)`")
#: A row of the module map: | `folder/` | `module` (what it holds), ... |
ROW_RE = re.compile(r"^\| `((?:evidence_chunker|semantic_json)/[\w/]*)` \| (.*) \|$")


def named_paths(text: str) -> set[str]:
    return set(PATH_RE.findall(text))


def module_rows(text: str) -> dict[str, set[str]]:
    """Folder → the module names its row of the module map gives in backticks, each before its gloss in
    parentheses (what the glosses name in backticks is not a module)."""
    rows = {}
    for line in text.splitlines():
        match = ROW_RE.match(line)
        if match:
            names = match.group(2)
            while re.search(r"\([^()]*\)", names):
                names = re.sub(r"\([^()]*\)", "", names)
            rows[match.group(1)] = set(re.findall(r"`(\w+)`", names))
    return rows


def package_folders(root: Path) -> dict[str, set[str]]:
    """Folder (``pkg/sub/``) → the names of its modules, for every package folder of both packages."""
    folders: dict[str, set[str]] = {}
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            folders.setdefault(path.parent.relative_to(root).as_posix() + "/", set()).add(path.stem)
    return folders


def unknown_paths(text: str, root: Path) -> list[str]:
    return sorted(p for p in named_paths(text) if not (root / p).exists())


def map_problems(text: str, root: Path) -> list[str]:
    rows, folders = module_rows(text), package_folders(root)
    problems = [f"{folder}: no row in the module map" for folder in sorted(set(folders) - set(rows))]
    for folder, modules in sorted(folders.items()):
        named = rows.get(folder, set())
        problems += [f"{folder}{m}.py: not named in its row" for m in sorted(modules - named - {"__init__"})
                     if folder in rows]
        problems += [f"{folder}{m}.py: named but not there" for m in sorted(named - modules)]
    problems += [f"{folder}: a row for a folder that is not a package" for folder in sorted(set(rows) - set(folders))]
    return problems


def test_every_path_the_page_names_exists():
    text = PAGE.read_text(encoding="utf-8")
    assert len(named_paths(text)) > 30
    assert unknown_paths(text, REPO) == []


def test_the_module_map_names_every_module_of_both_packages_in_its_folders_row():
    assert map_problems(PAGE.read_text(encoding="utf-8"), REPO) == []


def test_the_checks_fail_on_a_page_that_drifted(tmp_path):
    for relative in ("evidence_chunker/__init__.py", "evidence_chunker/units/__init__.py",
                     "evidence_chunker/units/split.py", "evidence_chunker/units/tables.py", "semantic_json/__init__.py"):
        (tmp_path / relative).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / relative).write_text("", encoding="utf-8")
    page = ("Cut in `evidence_chunker/units/split.py`, moved from `evidence_chunker/split.py`.\n\n"
            "| folder | modules |\n|---|---|\n"
            "| `evidence_chunker/` | `__init__` (the API) |\n"
            "| `evidence_chunker/units/` | `__init__`, `split` (pieces), `build` (units) |\n")
    assert unknown_paths(page, tmp_path) == ["evidence_chunker/split.py"]
    assert map_problems(page, tmp_path) == [
        "semantic_json/: no row in the module map",
        "evidence_chunker/units/tables.py: not named in its row",
        "evidence_chunker/units/build.py: named but not there",
    ]
