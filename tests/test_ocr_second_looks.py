"""Second looks at a page read by OCR: figures that Korean's recogniser (no Latin letters) read are read
again by each language, and ink no word covers (a lone page number, a heading Tesseract's layout
analysis dropped) is read as a line, while a chart's bars are not read as words. Scans are made from
sample_pdfs/ (benchmarks/scans.py); the tests skip where Tesseract cannot run."""

from __future__ import annotations

from evidence_chunker.parsing import LiteParser
from evidence_chunker.parsing.lite.ocr_pages import read_missed_ink
from evidence_chunker.parsing.lite.settings import LiteSettings
from evidence_chunker.parsing.ocr import ocr_engine
from evidence_chunker.parsing.ocr_rereads import languages_without_latin
from ocr_support import TESSDATA, needs_tesseract, scan_pdf
from repo_paths import SAMPLE_PDFS

pytestmark = needs_tesseract


def test_which_languages_lack_latin_letters_comes_from_their_language_data():
    assert languages_without_latin(TESSDATA, ["kor", "eng"]) == {"kor"}
    assert languages_without_latin(TESSDATA / "missing", ["kor"]) == frozenset()  # unreadable: assumed to have them


def test_a_figure_with_a_latin_letter_in_a_korean_row_is_read_as_printed(tmp_path):
    # the operating-margin change "+0.6%p" sits in a row labelled in Korean; Korean's recogniser has no
    # "p" and read "+0.6%0"; English reads the line more confidently
    scan = scan_pdf(SAMPLE_PDFS / "mixed_brief.pdf", tmp_path / "brief.pdf", dpi=300)
    parsed = LiteParser().parse(scan)
    cells = [cell.text for table in parsed.document.tables for cell in table.data.table_cells]
    assert "+0.6%p" in cells
    assert {"8.0%", "8.5%", "9.1%"} <= set(cells)  # the row's other figures keep their reading
    footers = [t.text for t in parsed.document.texts if t.label == "page_footer"]
    assert footers == ["1"]  # the lone page number Tesseract's layout analysis dropped


def test_lone_page_numbers_and_a_dropped_heading_are_read_from_the_ink(tmp_path):
    scan = scan_pdf(SAMPLE_PDFS / "credit_review_ko.pdf", tmp_path / "review.pdf", dpi=300)
    parsed = LiteParser().parse(scan)
    footers = {t.prov[0].page_no: t.text.replace(" ", "") for t in parsed.document.texts if t.label == "page_footer"}
    assert footers == {1: "-1-", 2: "-2-", 3: "-3-"}
    assert "2. 재무 현황" in [t.text for t in parsed.document.texts if t.label == "section_header"]


def test_a_charts_bars_are_not_read_as_words(tmp_path):
    scan = scan_pdf(SAMPLE_PDFS / "annual_report_en.pdf", tmp_path / "chart.pdf", dpi=300, pages=[1])
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(str(scan))
    image = pdf[0].render(scale=300 / 72, grayscale=True).to_pil()
    pdf.close()
    engine = ocr_engine("kor+eng", "", scan, LiteSettings().ocr_psm)
    words = engine.read(image, 120).words
    assert words  # the page's text is read
    assert read_missed_ink(image, words, 300 / 72, engine, 120) == []
