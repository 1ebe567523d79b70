"""Fixtures shared by the semantic_json tests (texts live in sj_support.py)."""

from __future__ import annotations

import pytest
from sj_support import QUICKSTART_TEXT


@pytest.fixture
def quickstart_text() -> str:
    """The spec's Quick Start document text."""
    return QUICKSTART_TEXT
