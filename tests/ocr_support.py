"""What the OCR tests share: whether Tesseract can run here (a skip marker saying what to install), and
the scans made from born-digital PDFs (benchmarks/scans.py)."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from evidence_chunker.parsing.lite.settings import LiteSettings
from evidence_chunker.parsing.ocr import find_tessdata
from repo_paths import BENCHMARKS

sys.path.insert(0, str(BENCHMARKS))

from scans import garble, scan_pdf  # noqa: E402

__all__ = ["TESSDATA", "WHY_NOT", "needs_tesseract", "garble", "scan_pdf"]

TESSDATA, WHY_NOT = find_tessdata(LiteSettings().ocr_languages)
needs_tesseract = pytest.mark.skipif(
    TESSDATA is None or importlib.util.find_spec("tesserocr") is None,
    reason=f"Tesseract cannot run here ({WHY_NOT or 'tesserocr is not installed'}): "
    "apt-get install tesseract-ocr tesseract-ocr-kor tesseract-ocr-eng; pip install tesserocr",
)
