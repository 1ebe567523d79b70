"""LiteParser on small PDFs built here with reportlab, and a recall floor on the shared Docling corpus."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("reportlab")
from docling_core.types.doc import CoordOrigin, DocItemLabel, TableItem, TextItem  # noqa: E402
from docling_core.types.doc.document import ContentLayer  # noqa: E402
from reportlab.lib import colors  # noqa: E402
from reportlab.lib.pagesizes import A4  # noqa: E402
from reportlab.lib.styles import ParagraphStyle  # noqa: E402
from reportlab.pdfgen import canvas  # noqa: E402
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle  # noqa: E402

from evidence_chunker.errors import ImageOnlyPdfError  # noqa: E402
from repo_paths import BENCHMARKS, SAMPLE_PDFS, SHARED_CORPUS  # noqa: E402
from evidence_chunker.parsing.lite.parser import LiteParser, LiteSettings  # noqa: E402
from evidence_chunker.parsing.lite.text import Char, Line, Phrase, Word, words_from_chars  # noqa: E402
from evidence_chunker.parsing.lite.values import attach_value_marks  # noqa: E402

BODY = ParagraphStyle("body", fontName="Helvetica", fontSize=10, leading=13)
HEADING = ParagraphStyle("heading", fontName="Helvetica-Bold", fontSize=15, leading=19, spaceAfter=6)
CAPTION = ParagraphStyle("caption", fontName="Helvetica-Bold", fontSize=10, leading=13, spaceAfter=3)

LOREM = (
    "Revenue grew in every region during the year, led by strong demand for automation equipment. "
    "Margins improved as the product mix shifted toward services and software subscriptions."
)


def _texts(doc, layer=ContentLayer.BODY) -> list[TextItem]:
    return [item for item, _ in doc.iterate_items(included_content_layers={layer}) if isinstance(item, TextItem)]


def _cell(table: TableItem, text: str):
    matches = [c for c in table.data.table_cells if c.text == text]
    assert matches, f"no cell {text!r} in {[c.text for c in table.data.table_cells]}"
    return matches[0]


# --------------------------------------------------------------------------------------------
# Documents
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def ruled_pdf(tmp_path_factory) -> Path:
    """A ruled income statement with a two-level header, built with reportlab's Table."""
    path = tmp_path_factory.mktemp("lite") / "ruled.pdf"
    data = [
        ["", "Year ended December 31", "", "Change"],
        ["", "2024", "2023", ""],
        ["Revenue", "12,480", "11,652", "7.1%"],
        ["Cost of sales", "(1,234)", "(1,101)", "12.1%"],
        ["Gross profit", "11,246", "10,551", "6.6%"],
        ["Other items", "007", "-", "3.5%"],
        ["Net income", "1,375", "1,109", "24.0%"],
    ]
    table = Table(data, colWidths=[150, 90, 90, 70])
    table.setStyle(
        TableStyle(
            [
                ("GRID", (0, 0), (-1, -1), 0.5, colors.black),
                ("SPAN", (1, 0), (2, 0)),
                ("SPAN", (0, 0), (0, 1)),
                ("SPAN", (3, 0), (3, 1)),
                ("FONTNAME", (0, 0), (-1, 1), "Helvetica-Bold"),
                ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
                ("FONTSIZE", (0, 0), (-1, -1), 9),
            ]
        )
    )
    story = [
        Paragraph("1. Results of Operations", HEADING),
        Paragraph(LOREM, BODY),
        Spacer(1, 8),
        Paragraph("Table 1: Consolidated Statement of Income", CAPTION),
        table,
        Spacer(1, 8),
        Paragraph("Net income rose on higher volumes and a lower effective tax rate.", BODY),
    ]
    SimpleDocTemplate(str(path), pagesize=A4).build(story)
    return path


@pytest.fixture(scope="module")
def borderless_pdf(tmp_path_factory) -> Path:
    """A borderless numeric table: right-aligned columns and no rules at all."""
    path = tmp_path_factory.mktemp("lite") / "borderless.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, "The segment figures below are for fiscal 2024, in millions of USD.")
    c.setFont("Helvetica-Bold", 10)
    c.drawString(72, 750, "Table 4: Segment information")
    rows = [
        ("Segment", "Americas", "EMEA", "Margin"),
        ("Industrial Automation", "2,950", "1,820", "17.0%"),
        ("Energy Systems", "1,985", "(1,410)", "16.0%"),
        ("Digital Services", "1,066", "631", "3.5%"),
        ("Corporate", "-", "-", "(267)"),
        ("Total", "6,001", "3,861", "15.5%"),
    ]
    y = 725
    for i, (label, a, b, m) in enumerate(rows):
        c.setFont("Helvetica-Bold" if i == 0 else "Helvetica", 9)
        c.drawString(72, y, label)
        c.drawRightString(330, y, a)
        c.drawRightString(410, y, b)
        c.drawRightString(490, y, m)
        y -= 16
    c.setFont("Helvetica", 10)
    c.drawString(72, y - 20, "Digital Services remained our most profitable segment this year.")
    c.showPage()
    c.save()
    return path


@pytest.fixture(scope="module")
def report_pdf(tmp_path_factory) -> Path:
    """Two pages with a running header and footer, headings, paragraphs, a caption and a bulleted list."""
    path = tmp_path_factory.mktemp("lite") / "report.pdf"

    def furniture(canv, doc):
        canv.saveState()
        canv.setFont("Helvetica", 8)
        canv.drawString(72, A4[1] - 40, "Kestrel Dynamics, Inc.")
        canv.drawRightString(A4[0] - 72, A4[1] - 40, "Annual Report 2024")
        canv.drawString(72, 30, "Kestrel Dynamics | Annual Report 2024")
        canv.drawRightString(A4[0] - 72, 30, f"Page {doc.page}")
        canv.restoreState()

    bullet = ParagraphStyle("bullet", parent=BODY, leftIndent=14, bulletIndent=2)
    story = [
        Paragraph("2. Revenue by Region", HEADING),
        Paragraph(LOREM + " " + LOREM, BODY),
        Spacer(1, 10),
        Paragraph("Figure 1: Revenue by region", CAPTION),
        Spacer(1, 10),
        Paragraph("Second paragraph. " + LOREM, BODY),
        Spacer(1, 10),
        Paragraph("Europe grew despite a soft first half.", bullet, bulletText="•"),
        Paragraph("Asia Pacific delivered the fastest growth.", bullet, bulletText="•"),
        Spacer(1, 500),
        Paragraph("3. Liquidity", HEADING),
        Paragraph("We ended the year with USD 2,041 million of cash. " + LOREM, BODY),
    ]
    SimpleDocTemplate(str(path), pagesize=A4, topMargin=72, bottomMargin=72).build(
        story, onFirstPage=furniture, onLaterPages=furniture
    )
    return path


@pytest.fixture(scope="module")
def two_column_pdf(tmp_path_factory) -> Path:
    """A page set in two columns: the left column must be read before the right one."""
    path = tmp_path_factory.mktemp("lite") / "columns.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    words = (LOREM + " ") * 3
    for column, x in enumerate((60, 315)):
        text = c.beginText(x, 760)
        text.setFont("Helvetica", 10)
        line = ""
        lines = []
        for word in (("LEFT START " if column == 0 else "RIGHT START ") + words).split():
            if c.stringWidth(line + " " + word, "Helvetica", 10) > 220:
                lines.append(line)
                line = word
            else:
                line = f"{line} {word}".strip()
        lines.append(line)
        for ln in lines[:20]:
            text.textLine(ln)
        c.drawText(text)
    c.showPage()
    c.save()
    return path


@pytest.fixture(scope="module")
def continued_pdf(tmp_path_factory) -> Path:
    """A long ruled table that reportlab splits over two pages, repeating its header row."""
    path = tmp_path_factory.mktemp("lite") / "continued.pdf"
    data = [["Quarter", "Revenue", "Net income"]] + [
        [f"Q{q} {year}", f"{1000 + 37 * i:,}", f"({100 + i})"]
        for i, (year, q) in enumerate((y, q) for y in range(2010, 2025) for q in range(1, 5))
    ]
    table = Table(data, colWidths=[120, 100, 100], repeatRows=1)
    table.setStyle(TableStyle([("GRID", (0, 0), (-1, -1), 0.5, colors.black), ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold")]))
    SimpleDocTemplate(str(path), pagesize=A4).build([Paragraph("Quarterly data", HEADING), table])
    return path


@pytest.fixture(scope="module")
def ruled(ruled_pdf):
    return LiteParser().parse(ruled_pdf)


@pytest.fixture(scope="module")
def borderless(borderless_pdf):
    return LiteParser().parse(borderless_pdf)


@pytest.fixture(scope="module")
def report(report_pdf):
    return LiteParser().parse(report_pdf)


# --------------------------------------------------------------------------------------------
# ParsedDoc and pages
# --------------------------------------------------------------------------------------------


def test_parse_returns_lite_parsed_doc_with_page_sizes_in_points(ruled, ruled_pdf):
    assert ruled.parser == "lite"
    assert ruled.path == ruled_pdf
    assert re.fullmatch(r"[0-9a-f]{64}", ruled.sha256)
    assert ruled.page_count == 1
    page = ruled.document.pages[1]
    assert page.size.width == pytest.approx(A4[0], abs=0.5)
    assert page.size.height == pytest.approx(A4[1], abs=0.5)


def test_every_item_has_bottomleft_provenance_inside_the_page(ruled, report):
    for parsed in (ruled, report):
        doc = parsed.document
        items = [item for item, _ in doc.iterate_items(included_content_layers=set(ContentLayer))]
        assert items
        for item in items:
            if not hasattr(item, "prov"):
                continue
            assert item.prov, item
            prov = item.prov[0]
            size = doc.pages[prov.page_no].size
            bbox = prov.bbox
            assert bbox.coord_origin == CoordOrigin.BOTTOMLEFT
            assert 0 <= bbox.l < bbox.r <= size.width + 0.5
            assert 0 <= bbox.b < bbox.t <= size.height + 0.5
            if isinstance(item, TextItem):
                assert prov.charspan == (0, len(item.text))


# --------------------------------------------------------------------------------------------
# Ruled table with a two-level header
# --------------------------------------------------------------------------------------------


def test_ruled_table_keeps_cell_text_exactly_as_printed(ruled):
    (table,) = ruled.document.tables
    texts = {c.text for c in table.data.table_cells}
    for printed in ("(1,234)", "3.5%", "007", "12,480", "-", "Net income"):
        assert printed in texts


def test_ruled_table_has_seven_rows_and_four_columns(ruled):
    (table,) = ruled.document.tables
    assert (table.data.num_rows, table.data.num_cols) == (7, 4)


def test_merged_header_cell_spans_the_two_year_columns(ruled):
    (table,) = ruled.document.tables
    merged = _cell(table, "Year ended December 31")
    assert merged.col_span == 2
    assert (merged.start_col_offset_idx, merged.end_col_offset_idx) == (1, 3)
    assert (merged.start_row_offset_idx, merged.end_row_offset_idx) == (0, 1)
    change = _cell(table, "Change")
    assert change.row_span == 2


def test_ruled_table_marks_both_header_rows_and_the_label_column(ruled):
    (table,) = ruled.document.tables
    assert _cell(table, "Year ended December 31").column_header
    assert _cell(table, "2024").column_header
    assert _cell(table, "2023").column_header
    assert not _cell(table, "12,480").column_header
    assert _cell(table, "Revenue").row_header
    assert _cell(table, "Net income").row_header
    assert not _cell(table, "(1,234)").row_header


def test_table_cell_boxes_are_bottomleft_points_inside_the_table(ruled):
    (table,) = ruled.document.tables
    box = table.prov[0].bbox
    for cell in table.data.table_cells:
        assert cell.bbox.coord_origin == CoordOrigin.BOTTOMLEFT
        assert cell.bbox.t > cell.bbox.b
        assert box.l - 1 <= cell.bbox.l and cell.bbox.r <= box.r + 1
        assert box.b - 1 <= cell.bbox.b and cell.bbox.t <= box.t + 1
    above = _cell(table, "Revenue").bbox
    below = _cell(table, "Net income").bbox
    assert above.b > below.b  # later rows sit lower on the page


def test_text_inside_a_table_is_not_repeated_as_paragraphs(ruled):
    texts = " ".join(t.text for t in _texts(ruled.document))
    assert "(1,234)" not in texts
    assert "Cost of sales" not in texts
    assert "Net income rose on higher volumes" in texts


def test_caption_is_labelled_but_not_linked_to_the_table(ruled):
    doc = ruled.document
    captions = [t for t in _texts(doc) if t.label == DocItemLabel.CAPTION]
    assert [c.text for c in captions] == ["Table 1: Consolidated Statement of Income"]
    (table,) = doc.tables
    assert table.captions == []


def test_table_follows_its_caption_in_reading_order(ruled):
    order = [
        ("table" if isinstance(item, TableItem) else item.text)
        for item, _ in ruled.document.iterate_items()
        if isinstance(item, (TableItem, TextItem))
    ]
    caption = order.index("Table 1: Consolidated Statement of Income")
    assert order[caption + 1] == "table"
    assert order[0] == "1. Results of Operations"


# --------------------------------------------------------------------------------------------
# Borderless table
# --------------------------------------------------------------------------------------------


def test_borderless_numeric_table_is_found_with_exact_cells(borderless):
    (table,) = borderless.document.tables
    assert (table.data.num_rows, table.data.num_cols) == (6, 4)
    grid = table.data.grid
    assert [c.text for c in grid[0]] == ["Segment", "Americas", "EMEA", "Margin"]
    assert [c.text for c in grid[2]] == ["Energy Systems", "1,985", "(1,410)", "16.0%"]
    assert [c.text for c in grid[4]] == ["Corporate", "-", "-", "(267)"]


def test_borderless_table_detects_header_row_and_row_labels(borderless):
    (table,) = borderless.document.tables
    grid = table.data.grid
    assert all(c.column_header for c in grid[0])
    assert not any(c.column_header for row in grid[1:] for c in row)
    assert all(row[0].row_header for row in grid[1:])
    assert not any(c.row_header for row in grid[1:] for c in row[1:])


def test_borderless_table_leaves_surrounding_text_as_paragraphs(borderless):
    texts = [t.text for t in _texts(borderless.document)]
    assert "Digital Services remained our most profitable segment this year." in texts
    assert "Table 4: Segment information" in texts
    assert not any("2,950" in t for t in texts)


# --------------------------------------------------------------------------------------------
# Text: headings, paragraphs, captions, lists, furniture
# --------------------------------------------------------------------------------------------


def test_headings_paragraphs_and_caption_get_their_labels(report):
    doc = report.document
    by_text = {t.text: t for t in _texts(doc)}
    assert by_text["2. Revenue by Region"].label == DocItemLabel.SECTION_HEADER
    assert by_text["3. Liquidity"].label == DocItemLabel.SECTION_HEADER
    assert by_text["Figure 1: Revenue by region"].label == DocItemLabel.CAPTION
    paragraph = next(t for t in _texts(doc) if t.text.startswith("Revenue grew in every region"))
    assert paragraph.label == DocItemLabel.TEXT
    assert paragraph.text == LOREM + " " + LOREM  # lines joined back into one paragraph


def test_bullets_become_list_items_without_their_marker(report):
    items = [t for t in _texts(report.document) if t.label == DocItemLabel.LIST_ITEM]
    assert [t.text for t in items] == [
        "Europe grew despite a soft first half.",
        "Asia Pacific delivered the fastest growth.",
    ]


def test_text_comes_in_reading_order_across_pages(report):
    texts = [t.text for t in _texts(report.document)]
    order = [
        texts.index("2. Revenue by Region"),
        next(i for i, t in enumerate(texts) if t.startswith("Revenue grew")),
        texts.index("Figure 1: Revenue by region"),
        next(i for i, t in enumerate(texts) if t.startswith("Second paragraph.")),
        texts.index("3. Liquidity"),
    ]
    assert order == sorted(order)


def test_repeated_header_and_footer_are_furniture(report):
    doc = report.document
    furniture = _texts(doc, ContentLayer.FURNITURE)
    headers = [t for t in furniture if t.label == DocItemLabel.PAGE_HEADER]
    footers = [t for t in furniture if t.label == DocItemLabel.PAGE_FOOTER]
    assert [t.prov[0].page_no for t in headers] == [1, 2]
    assert [t.prov[0].page_no for t in footers] == [1, 2]
    assert all("Annual Report 2024" in t.text for t in headers + footers)
    assert "Page 2" in footers[1].text
    body = " ".join(t.text for t in _texts(doc))
    assert "Kestrel Dynamics, Inc." not in body
    assert "Page 1" not in body


def test_two_column_page_reads_left_column_first(two_column_pdf):
    doc = LiteParser().parse(two_column_pdf).document
    texts = [t.text for t in _texts(doc)]
    assert len(texts) == 2  # one paragraph per column, lines not interleaved
    assert texts[0].startswith("LEFT START Revenue grew")
    assert texts[1].startswith("RIGHT START Revenue grew")
    assert doc.tables == []


def test_table_continued_on_next_page_is_parsed_as_two_tables(continued_pdf):
    doc = LiteParser().parse(continued_pdf).document
    pages = [t.prov[0].page_no for t in doc.tables]
    assert pages == [1, 2]
    for table in doc.tables:
        assert [c.text for c in table.data.grid[0]] == ["Quarter", "Revenue", "Net income"]
        assert all(c.column_header for c in table.data.grid[0])
    rows = sum(t.data.num_rows - 1 for t in doc.tables)
    assert rows == 60


# --------------------------------------------------------------------------------------------
# Headings over value columns, and amounts printed in pieces (see also test_lite_10k.py)
# --------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def spanning_heading_pdf(tmp_path_factory) -> Path:
    """A borderless table whose heading "Year ended December 31" is one string centred over two amount
    columns (a word gap falls in the gutter between them), beside a two-line "Increase (Decrease)"."""
    path = tmp_path_factory.mktemp("lite") / "spanning.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    c.setFont("Helvetica", 10)
    c.drawString(72, 780, "Operating results for the last two years are summarised below.")
    c.setFont("Helvetica-Bold", 9)
    c.drawCentredString(370, 745, "Year ended December 31")
    c.drawCentredString(470, 745, "Increase")
    c.drawString(72, 730, "In millions")
    c.drawRightString(340, 730, "2024")
    c.drawRightString(410, 730, "2023")
    c.drawCentredString(470, 730, "(Decrease)")
    c.setFont("Helvetica", 9)
    rows = [("Revenue", "12,480", "11,652", "828"), ("Cost of sales", "(8,101)", "(7,734)", "(367)"),
            ("Gross profit", "4,379", "3,918", "461"), ("Net income", "1,375", "1,109", "266")]
    y = 712
    for label, a, b, d in rows:
        c.drawString(72, y, label)
        c.drawRightString(340, y, a)
        c.drawRightString(410, y, b)
        c.drawRightString(490, y, d)
        y -= 15
    c.drawString(72, y - 20, "Gross profit rose on a better product mix.")
    c.showPage()
    c.save()
    return path


def test_heading_centred_over_two_columns_stays_one_spanning_cell(spanning_heading_pdf):
    (table,) = LiteParser().parse(spanning_heading_pdf).document.tables
    heading = _cell(table, "Year ended December 31")
    assert (heading.start_col_offset_idx, heading.col_span) == (1, 2) and heading.column_header
    # a heading over one column alone is that column's label, not widened over the others
    assert _cell(table, "Increase").col_span == 1
    assert [c.text for c in table.data.grid[1]] == ["In millions", "2024", "2023", "(Decrease)"]
    assert [c.text for c in table.data.grid[3]] == ["Cost of sales", "(8,101)", "(7,734)", "(367)"]


def _char(text: str, x0: float, space: bool = False, printed: bool = False) -> Char:
    return Char(text, x0, 100.0, x0 + 5.0, 110.0, 10.0, "Times", False, space, printed)


def test_closing_parenthesis_set_apart_joins_its_amount_unless_a_space_is_printed():
    settings = LiteSettings()

    def words(gap: float, space: bool, printed: bool) -> list[str]:
        chars = [_char(ch, 10.0 + 5 * i) for i, ch in enumerate("(565")]
        chars.append(_char(")", 30.0 + gap, space=space, printed=printed))
        return [w.text for w in words_from_chars(chars, settings)]

    assert words(4.0, space=True, printed=False) == ["(565)"]  # a gap pdfium reports as a space
    assert words(4.0, space=True, printed=True) == ["(565", ")"]  # a space the page prints
    assert words(40.0, space=True, printed=False) == ["(565", ")"]  # too far: another cell
    plain = [_char(ch, 10.0 + 5 * i) for i, ch in enumerate("565")] + [_char(")", 29.0, space=True)]
    assert [w.text for w in words_from_chars(plain, settings)] == ["565", ")"]  # closes no "("


def _phrase(text: str, x0: float, x1: float) -> Phrase:
    return Phrase([Word(text, x0, 100.0, x1, 110.0, 10.0, False, "Times")])


def test_value_marks_join_the_amount_they_belong_to():
    settings = LiteSettings()
    line = Line([
        _phrase("Net income", 10, 60), _phrase("$", 200, 205), _phrase("96,995", 240, 270),
        _phrase("(565", 300, 322), _phrase(")", 334, 337), _phrase("3.5", 380, 395), _phrase("%", 405, 412),
    ])
    assert [p.text for p in attach_value_marks(line, settings).phrases] == ["Net income", "$ 96,995", "(565)", "3.5%"]
    words = Line([_phrase("Price", 10, 40), _phrase("$", 200, 205), _phrase("per share", 240, 280)])
    assert attach_value_marks(words, settings) is words  # a sign before words is left alone


# --------------------------------------------------------------------------------------------
# Errors and settings
# --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("content", ["rectangle", "image"])
def test_image_only_pdf_without_ocr_raises_image_only_error(tmp_path, content):
    path = tmp_path / f"scan-{content}.pdf"
    c = canvas.Canvas(str(path), pagesize=A4)
    for _ in range(2):
        if content == "image":
            from PIL import Image, ImageDraw
            from reportlab.lib.utils import ImageReader

            scan = Image.new("RGB", (400, 300), "white")
            ImageDraw.Draw(scan).text((20, 20), "Revenue 12,480", fill="black")  # text as pixels only
            c.drawImage(ImageReader(scan), 72, 400, width=400, height=300)
        else:
            c.setFillColor(colors.lightgrey)
            c.rect(72, 400, 300, 200, fill=1)
        c.showPage()
    c.save()
    # a page of ink without characters or images is blank to OCR; a scan is read by OCR unless it is off
    with pytest.raises(ImageOnlyPdfError) as info:
        LiteParser(settings={"ocr": False} if content == "image" else None).parse(path)
    assert info.value.path == path


def test_settings_accept_a_dict_and_reject_unknown_names(borderless_pdf):
    parser = LiteParser(settings={"borderless_tables": False})
    assert parser.settings.borderless_tables is False
    assert parser.parse(borderless_pdf).document.tables == []
    with pytest.raises(ValueError, match="no_such_setting"):
        LiteSettings.resolve({"no_such_setting": 1})



@pytest.mark.parametrize(
    ("field", "value"),
    [("line_overlap", 1.5), ("word_gap", -0.1), ("heading_max_lines", 2.5), ("phrase_gap", 0), ("borderless_tables", "no")],
)
def test_settings_reject_values_out_of_range_naming_the_field(field, value):
    with pytest.raises(ValueError, match=field):
        LiteSettings(**{field: value})
    with pytest.raises(ValueError, match=field):
        LiteParser(settings={field: value})

# --------------------------------------------------------------------------------------------
# The sample reports in sample_pdfs/ (see its README for what each page holds)
# --------------------------------------------------------------------------------------------

SAMPLES = SAMPLE_PDFS


@pytest.fixture(scope="module")
def annual_report():
    path = SAMPLES / "annual_report_en.pdf"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    return LiteParser().parse(path).document


@pytest.fixture(scope="module")
def credit_review():
    path = SAMPLES / "credit_review_ko.pdf"
    if not path.is_file():
        pytest.skip(f"{path} not found")
    return LiteParser().parse(path).document


def test_annual_report_finds_every_table_part_with_its_size(annual_report):
    sizes = [(t.prov[0].page_no, t.data.num_rows, t.data.num_cols) for t in annual_report.tables]
    # the balance sheet continues from page 4 to page 5 with its header repeated: two parts, 1 + 45 rows
    assert sizes == [(1, 15, 4), (2, 7, 5), (3, 18, 3), (3, 6, 7), (4, 31, 3), (5, 16, 3), (5, 6, 3), (6, 41, 7)]


def test_annual_report_borderless_segment_table_reads_like_the_page(annual_report):
    table = annual_report.tables[3]
    grid = table.data.grid
    assert [c.text for c in grid[0]] == [
        "Segment", "Americas", "EMEA", "Asia Pacific", "Total revenue", "Operating income", "Operating margin"
    ]
    assert [c.text for c in grid[4]] == ["Corporate and eliminations", "-", "-", "-", "-", "(267)", "-"]
    assert all(c.column_header for c in grid[0]) and not any(c.column_header for c in grid[1])
    assert all(row[0].row_header for row in grid[1:])


def test_annual_report_section_rows_of_the_balance_sheet_are_marked(annual_report):
    table = annual_report.tables[4]
    assert _cell(table, "Current assets").row_section
    assert not _cell(table, "Cash and cash equivalents").row_section
    assert _cell(table, "December 31, 2024").column_header


def test_figure_and_table_captions_are_both_labelled_in_order(annual_report):
    captions = [t.text for t in _texts(annual_report) if t.label == DocItemLabel.CAPTION]
    figure = captions.index("Figure 1: Revenue by region")
    assert captions[figure + 1] == "Table 2: Revenue by region (in millions of USD)"


def test_korean_report_keeps_captions_headings_and_cells(credit_review):
    texts = {t.text: t.label for t in _texts(credit_review)}
    assert texts["1. 회사 개요"] == DocItemLabel.SECTION_HEADER
    assert texts["<표 1> 요약 재무제표 (단위: 억원)"] == DocItemLabel.CAPTION
    assert texts["[표 2] 주요 재무비율"] == DocItemLabel.CAPTION
    assert texts["표 3. 원리금 상환 일정표 (단위: 억원)"] == DocItemLabel.CAPTION
    ratios = credit_review.tables[2]
    assert [c.text for c in ratios.data.grid[0]] == ["구분", "2022년", "2023년", "2024년", "업종 평균"]
    assert [c.text for c in ratios.data.grid[3]] == ["이자보상배율", "1.6배", "1.8배", "1.7배", "3.2배"]
    assert all(c.column_header for c in ratios.data.grid[0])
    assert ratios.data.grid[3][0].row_header


# --------------------------------------------------------------------------------------------
# The shared corpus of real PDFs with Docling's output
# --------------------------------------------------------------------------------------------

CORPUS = SHARED_CORPUS
#: Loose recall measured when this test was written: 96% (26 of 27 Docling tables); the floor is the
#: project's target and catches a real regression, not a single table lost.
RECALL_FLOOR = 0.75


@pytest.mark.slow
def test_loose_table_recall_on_the_docling_corpus_stays_above_the_floor():
    if not CORPUS.is_dir():
        pytest.skip(f"shared corpus not found at {CORPUS.resolve()}")
    import sys

    sys.path.insert(0, str(BENCHMARKS))
    from bench_lite_parser import corpus_pairs, docling_tables, lite_finder, score

    finder = lite_finder()
    found = total = 0
    for _, pdf, js in corpus_pairs(CORPUS):
        result = score("lite", finder, pdf, docling_tables(pdf, js))
        assert not result.errors, result.errors
        found += result.found
        total += result.gt_tables
    assert total > 0
    assert found / total >= RECALL_FLOOR


def test_pages_read_in_batches_elsewhere_give_the_same_document():
    import pickle

    parser = LiteParser()
    pdf = SAMPLE_PDFS / "annual_report_en.pdf"
    whole = parser.parse(pdf).document.export_to_dict()
    # as the workers of an ingest hand them over: pickled, in columns
    batches = pickle.loads(pickle.dumps([parser.read_pages(pdf, 0, 2), parser.read_pages(pdf, 2, 6)]))
    assert [len(b) for b in batches] == [2, 4]
    assert parser.parse(pdf, pages=batches).document.export_to_dict() == whole
    with pytest.raises(ValueError, match="not consecutive pages of the PDF's 6 in order"):
        parser.parse(pdf, pages=[batches[0], parser.read_pages(pdf, 4, 6)])  # pages 3 and 4 missing
    with pytest.raises(ValueError, match="not consecutive pages of the PDF's 6 in order"):
        parser.parse(pdf, pages=batches[::-1])
    tail = parser.parse(pdf, pages=batches[1:])  # consecutive pages are a page range: 3 to 6
    assert tail.page_count == 4 and sorted(tail.document.pages) == [3, 4, 5, 6]
