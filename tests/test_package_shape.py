"""No module of either package grows past MAX_MODULE_LINES lines: a longer one holds more than one concept.
(That modules import each other without a circle is tests/test_imports.py's.)"""

from __future__ import annotations

import pytest

from repo_paths import REPO

PACKAGES = ("evidence_chunker", "semantic_json")
#: A module longer than this holds more than one concept: split it.
MAX_MODULE_LINES = 600


@pytest.mark.parametrize("package", PACKAGES)
def test_no_module_is_longer_than_the_limit(package):
    lengths = {str(path.relative_to(REPO)): len(path.read_text(encoding="utf-8").splitlines())
               for path in sorted((REPO / package).rglob("*.py"))}
    assert len(lengths) > 10  # the package was found
    assert {name: n for name, n in lengths.items() if n > MAX_MODULE_LINES} == {}
