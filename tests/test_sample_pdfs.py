"""The committed sample PDFs (sample_pdfs/): present, readable, laid out as sample_pdfs/README.md says,
and reproducible byte for byte from sample_pdfs/generate.py."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from repo_paths import SAMPLE_PDFS

pdfplumber = pytest.importorskip("pdfplumber")

SAMPLES = SAMPLE_PDFS
EN = SAMPLES / "annual_report_en.pdf"
KO = SAMPLES / "credit_review_ko.pdf"
MIXED = SAMPLES / "mixed_brief.pdf"

PAGE_COUNTS = {EN: 6, KO: 3, MIXED: 1}

EN_HEADER = "Kestrel Dynamics, Inc. Annual Report 2024"
BS_HEADER_ROW = ["(in millions of USD)", "December 31, 2024", "December 31, 2023"]
KO_STORY = ("B기업은 현재까지 원리금을 정상적으로 상환하고 있다. 다만 주요 거래계약이 내년에 만료될 예정이며, "
            "중장기적으로 현재의 상환능력이 유지된다고 단정하기는 어렵다.")


def _pages_text(path: Path) -> list[str]:
    with pdfplumber.open(path) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def _pages_tables(path: Path) -> list[list[list[list[str | None]]]]:
    with pdfplumber.open(path) as pdf:
        return [page.extract_tables() for page in pdf.pages]


def _body_lines(text: str) -> list[str]:
    """Lines of a page without the running header (first line) and footer (last line)."""
    return text.split("\n")[1:-1]


@pytest.fixture(scope="module")
def en_text() -> list[str]:
    return _pages_text(EN)


@pytest.fixture(scope="module")
def ko_text() -> list[str]:
    return _pages_text(KO)


@pytest.mark.parametrize("path", list(PAGE_COUNTS), ids=lambda p: p.name)
def test_pdf_exists_opens_and_has_expected_pages(path: Path) -> None:
    assert path.is_file(), f"{path} missing: run python sample_pdfs/generate.py"
    with pdfplumber.open(path) as pdf:
        assert len(pdf.pages) == PAGE_COUNTS[path]
        assert all(abs(p.width - 595.28) < 1 and abs(p.height - 841.89) < 1 for p in pdf.pages)  # A4
        assert pdf.metadata["CreationDate"] == "D:20250314000000+00'00'"


def test_font_licence_is_vendored() -> None:
    fonts = SAMPLES / "fonts"
    assert (fonts / "NanumSquareR.ttf").is_file() and (fonts / "NanumSquareB.ttf").is_file()
    assert "SIL OPEN FONT LICENSE" in (fonts / "OFL.txt").read_text(encoding="utf-8")


# ---------------------------------------------------------------- annual_report_en.pdf

def test_en_running_header_and_footer_on_every_page(en_text: list[str]) -> None:
    for number, text in enumerate(en_text, start=1):
        lines = text.split("\n")
        assert lines[0] == EN_HEADER
        assert lines[-1] == f"Kestrel Dynamics, Inc. | Annual Report 2024 Page {number}"


def test_en_captions_are_on_the_documented_pages(en_text: list[str]) -> None:
    expected = {
        "Table 1: Consolidated Statement of Income (in millions of USD)": 1,
        "Figure 1: Revenue by region": 2,
        "Table 2: Revenue by region (in millions of USD)": 2,
        "Table 3: Consolidated Statement of Cash Flows (in millions of USD)": 3,
        "Table 4: Segment information": 3,
        "Table 5: Consolidated Balance Sheet (in millions of USD)": 4,
        "Table 6: Financial outlook for 2025": 5,
        "Table 7: Quarterly financial data, 2015-2024 (in millions of USD, except per-share data)": 6,
    }
    for caption, page in expected.items():
        found = [i + 1 for i, text in enumerate(en_text) if caption in text.split("\n")]
        assert found == [page], (caption, found)


def test_en_income_statement_has_two_level_header_and_printed_numbers() -> None:
    table = _pages_tables(EN)[0][0]
    assert table[0] == ["", "Year ended December 31", None, "Change (%)"]
    assert table[1][1:3] == ["2024", "2023"]
    rows = {r[0]: r[1:] for r in table[2:]}
    assert rows["Revenue"] == ["12,480", "11,652", "7.1%"]
    assert rows["Cost of sales"] == ["(7,362)", "(6,991)", "5.3%"]
    assert rows["Net income"] == ["1,375", "1,109", "24.0%"]
    assert len(table) == 15


def test_en_figure_caption_sits_directly_above_table_2_caption(en_text: list[str]) -> None:
    lines = en_text[1].split("\n")
    i = lines.index("Figure 1: Revenue by region")
    assert lines[i + 1] == "Table 2: Revenue by region (in millions of USD)"


def test_en_last_paragraph_of_page_2_explains_table_at_top_of_page_3(en_text: list[str]) -> None:
    p2, p3 = _body_lines(en_text[1]), _body_lines(en_text[2])
    tail = " ".join(p2[-3:])
    assert "Table 3 on the following page summarises the consolidated statement of cash" in tail
    assert p3[0] == "Table 3: Consolidated Statement of Cash Flows (in millions of USD)"
    with pdfplumber.open(EN) as pdf:
        page = pdf.pages[2]
        first_word = page.extract_words()[6]  # after the six words of the running header
        assert first_word["text"] == "Table" and first_word["top"] < 80


def test_en_balance_sheet_continues_on_next_page_with_repeated_header(en_text: list[str]) -> None:
    tables = _pages_tables(EN)
    part1 = [t for t in tables[3] if t[0] == BS_HEADER_ROW]
    part2 = [t for t in tables[4] if t[0] == BS_HEADER_ROW]
    assert len(part1) == 1 and len(part2) == 1
    part1, part2 = part1[0], part2[0]
    assert len(part1) == 31 and len(part2) == 16  # header + 30 rows, repeated header + 15 rows
    assert part1[1][0] == "ASSETS" and part1[-1][0] == "Operating lease liabilities, non-current"
    assert part2[1][0] == "Deferred tax liabilities"
    assert part2[-1] == ["Total liabilities and equity", "15,807", "15,033"]
    # the second part starts at the top of page 5 with no caption in between
    assert _body_lines(en_text[4])[0] == " ".join(BS_HEADER_ROW)
    assert "Table 5" not in en_text[4]


def test_en_segment_table_is_borderless(en_text: list[str]) -> None:
    lines = _body_lines(en_text[2])
    i = lines.index("Table 4: Segment information")
    assert lines[i + 1] == ("Segment Americas EMEA Asia Pacific Total revenue Operating income "
                            "Operating margin")
    assert lines[i + 6] == "Total 6,001 3,861 2,618 12,480 1,938 15.5%"
    # pdfplumber's ruling-line strategy finds only the ruled cash-flow table on page 3
    page3_tables = _pages_tables(EN)[2]
    assert len(page3_tables) == 1 and page3_tables[0][0] == ["", "2024", "2023"]


def test_en_quarterly_table_is_long_and_adds_up() -> None:
    table = _pages_tables(EN)[5][0]
    assert len(table) == 41 and all(len(r) == 7 for r in table)
    assert table[0][0] == "Quarter" and table[-1][0] == "Q4 2024"
    as_int = lambda s: int(s.replace(",", ""))  # noqa: E731
    rev = {r[0]: as_int(r[1]) for r in table[1:]}
    assert sum(v for k, v in rev.items() if k.endswith("2024")) == 12480
    assert sum(v for k, v in rev.items() if k.endswith("2023")) == 11652
    markdown = "\n".join("| " + " | ".join(c or "" for c in row) + " |" for row in table)
    try:
        from evidence_chunker.tokens import count_tokens

        n = count_tokens(markdown)
    except Exception:  # tokenizer unavailable: fall back to a lower bound (a token is at most ~4 chars)
        n = len(markdown) // 4
    assert n > 512


# ---------------------------------------------------------------- credit_review_ko.pdf

def test_ko_text_extracts_as_korean(ko_text: list[str]) -> None:
    everything = "\n".join(ko_text)
    for word in ("B기업", "원리금", "신용평가 보고서", "1. 회사 개요", "2. 재무 현황", "3. 상환능력 평가"):
        assert word in everything
    assert "(cid:" not in everything


def test_ko_story_paragraph_recoverable_and_a_company_paragraph_separate(ko_text: list[str]) -> None:
    joined = " ".join(_body_lines(ko_text[1]))
    assert KO_STORY in joined
    after = joined[joined.index(KO_STORY) + len(KO_STORY):]
    assert after.lstrip().startswith("한편, 동종 업계의 A기업은")


def test_ko_captions_and_tables(ko_text: list[str]) -> None:
    expected = {
        "<표 1> 요약 재무제표 (단위: 억원)": 1,
        "[표 2] 주요 재무비율": 2,
        "표 3. 원리금 상환 일정표 (단위: 억원)": 2,
        "<표 4> 주요 거래처 현황": 3,
        "<표 5> 신용등급 이력": 3,
    }
    for caption, page in expected.items():
        found = [i + 1 for i, text in enumerate(ko_text) if caption in text.split("\n")]
        assert found == [page], (caption, found)
    tables = _pages_tables(KO)
    schedule = next(t for t in tables[1] if t[0] == ["연도", "원금", "이자", "합계"])
    assert schedule[1] == ["2025년", "1,200", "350.3", "1,550.3"]
    assert schedule[-1] == ["합계", "6,200", "1,011.4", "7,211.4"]
    ratios = next(t for t in tables[1] if t[0][0] == "구분")
    assert ratios[1] == ["부채비율", "207.1%", "203.2%", "201.9%", "165.0%"]
    assert ratios[3] == ["이자보상배율", "1.6배", "1.8배", "1.7배", "3.2배"]


# ---------------------------------------------------------------- mixed_brief.pdf

def test_mixed_brief_bilingual_table() -> None:
    text = _pages_text(MIXED)[0]
    assert "Table 1. Key figures / 주요 지표 (단위: 억원 / KRW 100 million)" in text.split("\n")
    table = _pages_tables(MIXED)[0][0]
    assert table[0] == ["항목 (Item)", "2022", "2023", "2024", "전년 대비 (YoY)"]
    assert table[1] == ["매출액 (Revenue)", "1,842", "2,015", "2,236", "11.0%"]
    assert "Kestrel Dynamics Korea, the Korean subsidiary" in text
    assert "케스트럴다이내믹스코리아의 2024년 매출액은" in text


# ---------------------------------------------------------------- determinism

def _load_generator():
    spec = importlib.util.spec_from_file_location("sample_pdfs_generate", SAMPLES / "generate.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


def test_generator_reproduces_committed_pdfs_byte_for_byte(tmp_path: Path) -> None:
    reportlab = pytest.importorskip("reportlab")
    generator = _load_generator()
    if reportlab.Version != generator.REPORTLAB_VERSION:
        pytest.skip(f"committed PDFs were made with reportlab {generator.REPORTLAB_VERSION}, "
                    f"this is {reportlab.Version}")
    written = generator.generate(tmp_path)
    assert sorted(p.name for p in written) == sorted(generator.OUTPUT_NAMES)
    for path in written:
        assert path.read_bytes() == (SAMPLES / path.name).read_bytes(), path.name
    again = generator.generate(tmp_path / "again")
    for path in again:
        assert path.read_bytes() == (tmp_path / path.name).read_bytes(), path.name
