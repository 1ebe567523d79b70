"""The README's Python example runs as written (from a folder holding sample_pdfs/)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from repo_paths import REPO, SAMPLE_PDFS


def test_readme_python_example_runs(tmp_path):
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", readme, re.DOTALL).group(1)
    (tmp_path / "sample_pdfs").symlink_to(SAMPLE_PDFS)
    (tmp_path / "out").mkdir()
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         env=dict(os.environ), timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert '"schema": "semantic-json-transport/context/v1"' in out.stdout
    assert "[1]" in out.stdout and "credit_review_ko:R1" in out.stdout
