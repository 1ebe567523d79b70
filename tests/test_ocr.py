"""Scanned pages become evidence: OCR in the lite parser, its provenance in the transport, and what happens
without Tesseract. Scans are made here from sample_pdfs/ (benchmarks/scans.py); the OCR tests skip, saying
why, where Tesseract's language data or tesserocr is missing (.ci/run installs them)."""

from __future__ import annotations

import json
import shutil
import sys

import pytest

from evidence_chunker.cli import main as sjt
from evidence_chunker.errors import ImageOnlyPdfError, OcrUnavailableError
from evidence_chunker.parsing import LiteParser, OcrOptions
from evidence_chunker.parsing.lite.ocr_pages import raster_rules
from evidence_chunker.parsing.lite.settings import LiteSettings
from evidence_chunker.parsing.lite.text_layer import check_text_layer, plausible_word
from evidence_chunker.parsing.ocr import find_tessdata
from ocr_support import TESSDATA as _FOLDER, WHY_NOT as _WHY, garble, needs_tesseract, scan_pdf
from repo_paths import SAMPLE_PDFS


@pytest.fixture(scope="module")
def mixed_folder(tmp_path_factory):
    """A born-digital report, an image-only scan (English and Korean) and a scan under a garbled text layer."""
    folder = tmp_path_factory.mktemp("mixed")
    shutil.copy(SAMPLE_PDFS / "annual_report_en.pdf", folder)
    scan_pdf(SAMPLE_PDFS / "mixed_brief.pdf", folder / "brief_scan.pdf", dpi=300)
    scan_pdf(SAMPLE_PDFS / "credit_review_ko.pdf", folder / "review_garbled.pdf", dpi=300, garbled=True, pages=[0])
    return folder


@pytest.fixture(scope="module")
def ocr_index(mixed_folder, tmp_path_factory):
    index = tmp_path_factory.mktemp("index") / "index.sqlite"
    code = sjt(["ingest", str(mixed_folder), "--index", str(index), "--parser", "lite", "--workers", "2",
                "--no-progress"])
    return code, index


def _words(path):
    import pypdfium2 as pdfium

    from evidence_chunker.parsing.lite.pdfium import PageFrame, extract_chars
    from evidence_chunker.parsing.lite.text import words_from_glyphs

    pdf = pdfium.PdfDocument(str(path))
    words = []
    for page in pdf:
        glyphs, _, _ = extract_chars(page, PageFrame(tuple(page.get_cropbox()), page.get_rotation()))
        words.append([w.text for w in words_from_glyphs(glyphs, LiteSettings())])
    pdf.close()
    return words


@pytest.mark.parametrize("name", ["annual_report_en.pdf", "credit_review_ko.pdf", "mixed_brief.pdf"])
def test_text_layer_test_keeps_real_text_and_rejects_garbled_text(name):
    s = LiteSettings()
    thresholds = (s.text_layer_min_words, s.text_layer_min_plausible, s.text_layer_min_letters,
                  s.text_layer_min_common_letters)
    for words in _words(SAMPLE_PDFS / name):
        real = check_text_layer(words, *thresholds)
        broken = check_text_layer([garble(w) for w in words], *thresholds)
        assert real.usable and real.plausible_share > 0.9
        assert not broken.usable
        # what gives it away: words that are no words, or (a shifted table: "rsmuyq" for "12,480") letters
        assert broken.plausible_share < 0.5 or broken.common_letters < 0.55


def test_plausible_words_are_words_of_filings_and_shifted_codes_are_not():
    for word in ("Company", "(1,234)", "24.0%", "10-K", "FY2024", "BBB+", "사업보고서", "1.6배", "U.S.", "non-GAAP"):
        assert plausible_word(word), word
    for word in ("&RPSDQ\\", "ZKLFK", "ì‚¬ì—…", "\ue012\ue013"):
        assert plausible_word(word) is False, word
    assert plausible_word("—") is None  # punctuation alone: nothing to judge


def test_rules_drawn_on_an_image_are_found_in_points():
    from PIL import Image, ImageDraw

    image = Image.new("L", (600, 400), 255)  # 2 pixels a point
    draw = ImageDraw.Draw(image)
    draw.line([(40, 100), (560, 100)], fill=0, width=2)  # a horizontal rule 260 points long at y = 50 pt
    draw.line([(300, 120), (300, 380)], fill=0, width=2)  # a vertical rule at x = 150 pt
    draw.text((40, 200), "Revenue 12,480", fill=0)  # letters are no rules
    edges = raster_rules(image, 2.0)
    horizontal = [e for e in edges if e.top == e.bottom]
    vertical = [e for e in edges if e.x0 == e.x1]
    assert len(horizontal) == 1 and len(vertical) == 1
    assert horizontal[0].x0 == pytest.approx(20, abs=1) and horizontal[0].x1 == pytest.approx(280, abs=1)
    assert horizontal[0].top == pytest.approx(50.5, abs=1)
    assert vertical[0].x0 == pytest.approx(150.5, abs=1) and vertical[0].bottom == pytest.approx(190, abs=1)


def test_ocr_off_keeps_image_only_pdfs_an_error(tmp_path):
    scan = scan_pdf(SAMPLE_PDFS / "mixed_brief.pdf", tmp_path / "scan.pdf", dpi=100)
    with pytest.raises(ImageOnlyPdfError, match="OCR is turned off"):
        LiteParser(settings={"ocr": False}).parse(scan)


@needs_tesseract
def test_scans_and_born_digital_pdfs_are_ingested_together(ocr_index, capsys):
    code, index = ocr_index
    assert code == 0
    assert sjt(["diagnose", "--index", str(index), "--json"]) == 0
    rows = {row["document_id"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["annual_report_en"]["ocr_pages"] == 0 and rows["annual_report_en"]["ocr_confidence"] is None
    assert rows["brief_scan"]["ocr_pages"] == 1 and rows["review_garbled"]["ocr_pages"] == 1
    assert rows["brief_scan"]["ocr_confidence"] > 0.8
    assert rows["brief_scan"]["tables"] == 1  # "Table 1. Key figures", ruled, found on the image
    assert sjt(["diagnose", "--index", str(index)]) == 0
    assert "pages read by OCR: 1, mean word confidence 0." in capsys.readouterr().out


@needs_tesseract
def test_ocr_regions_say_so_and_verify_and_tampered_ones_fail(ocr_index, tmp_path, capsys):
    _code, index = ocr_index
    capsys.readouterr()
    assert sjt(["search", "--index", str(index), "케스트럴다이내믹스코리아 매출액 2024", "-k", "3"]) == 0
    transport = json.loads(capsys.readouterr().out)
    regions = [r for d in transport["documents"] for r in d["regions"] if d["document_id"] == "brief_scan"]
    assert regions, "the scan's regions are found"
    source = regions[0]["source"]
    assert source["ocr_pages"] == [1] and 0.8 < source["ocr_confidence"] <= 1
    assert source["boxes"] and all(box["page"] == 1 for box in source["boxes"])
    text = " ".join(r["text"] for r in regions)
    assert "2,236" in text and "매출액" in text
    from semantic_json.json_schemas import validate_transport

    validate_transport(transport)
    saved = tmp_path / "result.json"
    saved.write_text(json.dumps(transport, ensure_ascii=False), encoding="utf-8")
    assert sjt(["verify", "--index", str(index), str(saved)]) == 0
    assert "verified" in capsys.readouterr().out

    for tamper in ("text", "ocr_confidence", "ocr_pages"):
        changed = json.loads(saved.read_text(encoding="utf-8"))
        region = next(r for d in changed["documents"] for r in d["regions"] if d["document_id"] == "brief_scan")
        if tamper == "text":
            region["text"] = region["text"].replace("2,236", "2,263")
        elif tamper == "ocr_confidence":
            region["source"]["ocr_confidence"] = 0.99
        else:
            del region["source"]["ocr_pages"]  # passing OCR text off as printed text
        bad = tmp_path / f"tampered-{tamper}.json"
        bad.write_text(json.dumps(changed, ensure_ascii=False), encoding="utf-8")
        capsys.readouterr()
        assert sjt(["verify", "--index", str(index), str(bad)]) == 1, tamper
        assert ("slice differs" if tamper == "text" else "provenance differs") in capsys.readouterr().out


@needs_tesseract
def test_a_garbled_text_layer_is_read_again_by_ocr(mixed_folder):
    parsed = LiteParser().parse(mixed_folder / "review_garbled.pdf")
    assert list(parsed.ocr_pages) == [1]
    text = parsed.document.export_to_markdown()
    assert "신용평가 보고서" in text and "2025년 3월 14일" in text
    assert "ì" not in text and "VKRUW" not in text  # nothing of the garbled layer is left


def test_without_tesseract_born_digital_pdfs_work_and_scans_fail_naming_the_packages(tmp_path, monkeypatch, capsys):
    folder = tmp_path / "pdfs"
    folder.mkdir()
    shutil.copy(SAMPLE_PDFS / "mixed_brief.pdf", folder)
    scan_pdf(SAMPLE_PDFS / "mixed_brief.pdf", folder / "scan.pdf", dpi=100)
    empty = tmp_path / "no-tessdata"
    empty.mkdir()
    monkeypatch.setenv("TESSDATA_PREFIX", str(empty))  # Tesseract's language data is not installed
    index = tmp_path / "index.sqlite"
    assert sjt(["ingest", str(folder), "--index", str(index), "--parser", "lite", "--no-progress"]) == 1
    err = capsys.readouterr().err
    assert "scan.pdf" in err and "tesseract-ocr tesseract-ocr-kor tesseract-ocr-eng" in err
    assert "indexed 1" in err and "failed 1" in err
    assert sjt(["diagnose", "--index", str(index), "--json"]) == 0
    assert [row["document_id"] for row in json.loads(capsys.readouterr().out)] == ["mixed_brief"]


def test_without_the_binding_the_error_names_it_and_the_packages(tmp_path, monkeypatch):
    from evidence_chunker.parsing import ocr

    if _FOLDER is None:
        pytest.skip(f"no Tesseract language data to get past first: {_WHY}")
    monkeypatch.setattr(ocr, "_ENGINES", {})
    monkeypatch.setitem(sys.modules, "tesserocr", None)  # import tesserocr raises ImportError
    scan = scan_pdf(SAMPLE_PDFS / "mixed_brief.pdf", tmp_path / "scan.pdf", dpi=100)
    with pytest.raises(OcrUnavailableError) as info:
        LiteParser().parse(scan)
    message = str(info.value)
    assert "tesserocr binding is not installed" in message and "tesseract-ocr-kor" in message
    assert LiteParser().parse(SAMPLE_PDFS / "mixed_brief.pdf").ocr_pages == {}  # born-digital needs none of it


def test_ocr_languages_are_checked_and_reach_the_parser(capsys):
    assert sjt(["chunk", str(SAMPLE_PDFS / "mixed_brief.pdf"), "--parser", "lite", "--ocr-languages", "kor eng"]) == 2
    assert "ocr_languages" in capsys.readouterr().err
    from evidence_chunker.chunker import EvidenceChunker

    parser = EvidenceChunker(parser="lite", ocr=OcrOptions(languages="eng")).parser
    assert parser.settings.ocr_languages == "eng" and parser.settings.ocr is True
    assert EvidenceChunker(parser="lite", ocr=OcrOptions(enabled=False)).parser.settings.ocr is False


def test_docling_follows_the_same_ocr_choice(tmp_path):
    pytest.importorskip("docling", reason="Docling is not installed (the docling extra)")
    from evidence_chunker.parsing import DoclingParser

    options = DoclingParser(ocr=OcrOptions(languages="eng")).pipeline_options()
    if _FOLDER is None:
        assert options.do_ocr is False
    else:
        assert options.do_ocr is True and options.ocr_options.lang == ["eng"]
        assert options.ocr_options.path.rstrip("/") == str(find_tessdata("eng")[0])
    missing = DoclingParser(ocr=OcrOptions(tessdata=str(tmp_path)))
    assert missing.pipeline_options().do_ocr is False and "no language data for kor+eng" in missing.ocr_missing
    assert DoclingParser().pipeline_options().do_ocr is False  # off unless asked for


@needs_tesseract
def test_docling_reads_a_scan_where_its_models_exist(tmp_path):
    pytest.importorskip("docling", reason="Docling is not installed (the docling extra)")
    from evidence_chunker.parsing.docling_parser import DoclingParser, models_status

    ok, why = models_status()
    if not ok:
        pytest.skip(f"Docling's models cannot be had here: {why}")
    scan = scan_pdf(SAMPLE_PDFS / "mixed_brief.pdf", tmp_path / "scan.pdf", dpi=300)
    parsed = DoclingParser(ocr=OcrOptions()).parse(scan)
    assert "2,236" in parsed.document.export_to_markdown()


def test_a_short_scan_is_read_in_page_batches_by_several_workers(tmp_path):
    from evidence_chunker.ingest import workers as ingest_module

    scan = scan_pdf(SAMPLE_PDFS / "credit_review_ko.pdf", tmp_path / "scan.pdf", dpi=72)  # 3 pages, no text
    assert ingest_module._page_batches((scan, "lite", None, "scan", None, None, OcrOptions()), 2) == [(0, 2), (2, 3)]
    # the same 3 pages with their text layer are too few to be worth cutting
    born_digital = (SAMPLE_PDFS / "credit_review_ko.pdf", "lite", None, "k", None, None, OcrOptions())
    assert ingest_module._page_batches(born_digital, 2) is None
