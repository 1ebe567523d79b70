"""Bad input gets a specific error naming the file; batches report it and carry on."""

from __future__ import annotations

import json

import pytest

from evidence_chunker import (
    CorruptPdfError,
    DoclingJsonError,
    EmptyPdfError,
    EncryptedPdfError,
    NotAPdfError,
    ParsedDoc,
    PdfNotFoundError,
    PdfTooLargeError,
)
from evidence_chunker.parsing import inspect_pdf
from pdf_factory import corrupt_pdf, encrypted_pdf, text_pdf, zero_page_pdf


def test_missing_file(tmp_path):
    with pytest.raises(PdfNotFoundError) as err:
        inspect_pdf(tmp_path / "nope.pdf")
    assert "nope.pdf" in str(err.value) and "not found" in str(err.value)


def test_not_a_pdf(tmp_path):
    path = tmp_path / "notes.pdf"
    path.write_text("just some text, no PDF header")
    with pytest.raises(NotAPdfError, match="notes.pdf"):
        inspect_pdf(path)


def test_empty_file(tmp_path):
    path = tmp_path / "empty.pdf"
    path.write_bytes(b"")
    with pytest.raises(NotAPdfError, match="empty"):
        inspect_pdf(path)


def test_corrupt(tmp_path):
    with pytest.raises(CorruptPdfError, match="broken.pdf"):
        inspect_pdf(corrupt_pdf(tmp_path / "broken.pdf"))


def test_corrupt_after_encrypted_does_not_carry_pdfium_s_last_error(tmp_path):
    with pytest.raises(EncryptedPdfError):
        inspect_pdf(encrypted_pdf(tmp_path / "locked.pdf"))
    with pytest.raises(CorruptPdfError) as caught:
        inspect_pdf(corrupt_pdf(tmp_path / "broken.pdf"))
    assert "PDFium:" not in str(caught.value) and "password" not in str(caught.value).lower()


def test_encrypted(tmp_path):
    with pytest.raises(EncryptedPdfError, match="locked.pdf.*encrypted"):
        inspect_pdf(encrypted_pdf(tmp_path / "locked.pdf"))


def test_zero_pages(tmp_path):
    with pytest.raises(EmptyPdfError, match="zero.pdf.*no pages"):
        inspect_pdf(zero_page_pdf(tmp_path / "zero.pdf"))


def test_too_large(tmp_path):
    path = text_pdf(tmp_path / "big.pdf")
    with pytest.raises(PdfTooLargeError, match="max_bytes"):
        inspect_pdf(path, max_bytes=100)
    with pytest.raises(PdfTooLargeError, match="max_pages"):
        inspect_pdf(path, max_pages=0)


def test_good_pdf_reports_hash_and_pages(tmp_path):
    info = inspect_pdf(text_pdf(tmp_path / "ok.pdf"))
    assert info.page_count == 1 and len(info.sha256) == 64


def test_malformed_docling_json(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(DoclingJsonError, match="bad.json.*invalid JSON"):
        ParsedDoc.from_docling_json(bad)
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"hello": "world"}))
    with pytest.raises(DoclingJsonError, match="not a DoclingDocument"):
        ParsedDoc.from_docling_json(other)
    with pytest.raises(DoclingJsonError, match="file not found"):
        ParsedDoc.from_docling_json(tmp_path / "missing.json")
