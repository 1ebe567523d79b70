#!/usr/bin/env python3
"""Build the sample report PDFs in this folder.

    python sample_pdfs/generate.py [--out DIR]

Writes three born-digital PDFs (see README.md beside this file for a page-by-page map):

* ``annual_report_en.pdf``  - English annual report, 6 A4 pages, seven tables and one bar chart.
* ``credit_review_ko.pdf``  - Korean credit review (신용평가 보고서), 3 A4 pages.
* ``mixed_brief.pdf``       - one-page Korean/English brief with a bilingual table.

Every figure printed in a table is computed here from a few base numbers, so totals, margins and
ratios agree with each other (the generator asserts the identities it relies on).

Output is byte-for-byte reproducible: reportlab runs in invariant mode with a fixed creation date,
and the Korean font is the vendored NanumSquare in ``fonts/`` (never a system font). Rebuilding
with another reportlab version may change bytes, not content; ``REPORTLAB_VERSION`` records the
version the committed files were made with.
"""

from __future__ import annotations

import argparse
import calendar
import os
import sys
from contextlib import contextmanager
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Iterator, Sequence

from reportlab.graphics.charts.barcharts import VerticalBarChart
from reportlab.graphics.charts.legends import Legend
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_JUSTIFY, TA_LEFT
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import cm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import (
    CondPageBreak,
    Flowable,
    KeepTogether,
    PageBreak,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

HERE = Path(__file__).resolve().parent
FONT_DIR = HERE / "fonts"
KO_REGULAR = FONT_DIR / "NanumSquareR.ttf"
KO_BOLD = FONT_DIR / "NanumSquareB.ttf"

#: reportlab version the committed PDFs were built with (the byte-identity test checks against it).
REPORTLAB_VERSION = "5.1.0"
#: Creation/modification date written into every PDF: 2025-03-14 00:00:00 UTC.
FIXED_EPOCH = calendar.timegm((2025, 3, 14, 0, 0, 0))

OUTPUT_NAMES = ("annual_report_en.pdf", "credit_review_ko.pdf", "mixed_brief.pdf")

PAGE_W, PAGE_H = A4
MARGIN_X = 2.0 * cm
MARGIN_TOP = 2.3 * cm
MARGIN_BOTTOM = 2.2 * cm
FRAME_W = PAGE_W - 2 * MARGIN_X

GRID_COLOR = colors.HexColor("#4d4d4d")
HEAD_FILL = colors.HexColor("#e6e9ef")
TOTAL_FILL = colors.HexColor("#f3f4f7")
ACCENT = colors.HexColor("#1f3a5f")


# --------------------------------------------------------------------------------------------------
# number formatting: every cell is a plain string, exactly as printed
# --------------------------------------------------------------------------------------------------

def _q(value: Decimal | int | float | str, places: int) -> Decimal:
    exp = Decimal(1).scaleb(-places)
    return Decimal(str(value)).quantize(exp, rounding=ROUND_HALF_UP)


def fmt_num(value: Decimal | int | float, places: int = 0, paren: bool = True) -> str:
    """``12345`` -> ``"12,345"``; negatives in parentheses: ``-1234`` -> ``"(1,234)"``."""
    d = _q(value, places)
    body = f"{abs(d):,.{places}f}"
    if d < 0:
        return f"({body})" if paren else f"-{body}"
    return body


def fmt_pct(value: Decimal | float, places: int = 1, paren: bool = True) -> str:
    """``3.54`` -> ``"3.5%"``; negatives ``"(13.5%)"``."""
    d = _q(value, places)
    body = f"{abs(d):,.{places}f}%"
    if d < 0:
        return f"({body})" if paren else f"-{body}"
    return body


def ratio_pct(num: int | Decimal, den: int | Decimal) -> Decimal:
    return Decimal(num) * 100 / Decimal(den)


def growth_pct(new: int | Decimal, old: int | Decimal) -> Decimal:
    return (Decimal(new) / Decimal(old) - 1) * 100


# --------------------------------------------------------------------------------------------------
# shared layout helpers
# --------------------------------------------------------------------------------------------------

def top_of_page(*flowables: Flowable) -> list[Flowable]:
    """Start a new page and put ``flowables`` first on it."""
    return [PageBreak(), *flowables]


def ruled_style(font: str, bold: str, size: float, header_rows: int = 1, first_col_left: bool = True,
                extra: Sequence[tuple] = ()) -> TableStyle:
    cmds: list[tuple] = [
        ("FONTNAME", (0, 0), (-1, -1), font),
        ("FONTSIZE", (0, 0), (-1, -1), size),
        ("LEADING", (0, 0), (-1, -1), size + 2),
        ("GRID", (0, 0), (-1, -1), 0.5, GRID_COLOR),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.8),
        ("LEFTPADDING", (0, 0), (-1, -1), 5),
        ("RIGHTPADDING", (0, 0), (-1, -1), 5),
        ("BACKGROUND", (0, 0), (-1, header_rows - 1), HEAD_FILL),
        ("FONTNAME", (0, 0), (-1, header_rows - 1), bold),
        ("ALIGN", (0, 0), (-1, header_rows - 1), "CENTER"),
    ]
    if first_col_left:
        cmds.append(("ALIGN", (0, header_rows), (0, -1), "LEFT"))
    cmds.extend(extra)
    return TableStyle(cmds)


def bold_rows(rows: Sequence[int], bold: str, fill: bool = True) -> list[tuple]:
    out: list[tuple] = []
    for r in rows:
        out.append(("FONTNAME", (0, r), (-1, r), bold))
        if fill:
            out.append(("BACKGROUND", (0, r), (-1, r), TOTAL_FILL))
    return out


@contextmanager
def fixed_timestamp() -> Iterator[None]:
    """reportlab reads SOURCE_DATE_EPOCH for the document date; pin it while we build."""
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(FIXED_EPOCH)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


def make_doc(path: Path, title: str, author: str, subject: str, lang: str) -> SimpleDocTemplate:
    return SimpleDocTemplate(
        str(path),
        pagesize=A4,
        leftMargin=MARGIN_X,
        rightMargin=MARGIN_X,
        topMargin=MARGIN_TOP,
        bottomMargin=MARGIN_BOTTOM,
        title=title,
        author=author,
        subject=subject,
        creator="sample_pdfs/generate.py (semantic-json-transport)",
        invariant=1,
        lang=lang,
    )


def register_korean_fonts() -> tuple[str, str]:
    """Register the vendored NanumSquare pair (embedded as subsets with a ToUnicode map)."""
    regular, bold = "NanumSquare", "NanumSquare-Bold"
    if regular not in pdfmetrics.getRegisteredFontNames():
        for p in (KO_REGULAR, KO_BOLD):
            if not p.is_file():
                raise SystemExit(f"missing vendored font {p}; see sample_pdfs/README.md")
        pdfmetrics.registerFont(TTFont(regular, str(KO_REGULAR)))
        pdfmetrics.registerFont(TTFont(bold, str(KO_BOLD)))
        pdfmetrics.registerFontFamily(regular, normal=regular, bold=bold, italic=regular, boldItalic=bold)
    return regular, bold


def text_styles(font: str, bold: str, size: float = 9.8, leading: float = 14.2) -> dict[str, ParagraphStyle]:
    return {
        "title": ParagraphStyle("title", fontName=bold, fontSize=21, leading=26, textColor=ACCENT,
                                spaceAfter=4),
        "subtitle": ParagraphStyle("subtitle", fontName=font, fontSize=11.5, leading=15,
                                   textColor=colors.HexColor("#444444"), spaceAfter=14),
        "h1": ParagraphStyle("h1", fontName=bold, fontSize=13.5, leading=17, textColor=ACCENT,
                             spaceBefore=10, spaceAfter=6, keepWithNext=1),
        "h2": ParagraphStyle("h2", fontName=bold, fontSize=11, leading=14, textColor=ACCENT,
                             spaceBefore=6, spaceAfter=4, keepWithNext=1),
        "body": ParagraphStyle("body", fontName=font, fontSize=size, leading=leading, alignment=TA_JUSTIFY,
                               spaceAfter=7),
        "caption": ParagraphStyle("caption", fontName=bold, fontSize=9.2, leading=12, alignment=TA_LEFT,
                                  spaceBefore=6, spaceAfter=4),
        "figcaption": ParagraphStyle("figcaption", fontName=font, fontSize=9, leading=12, alignment=TA_CENTER,
                                     spaceBefore=2, spaceAfter=8),
        "note": ParagraphStyle("note", fontName=font, fontSize=7.8, leading=10,
                               textColor=colors.HexColor("#555555"), spaceBefore=3, spaceAfter=8),
    }


# ==================================================================================================
# 1. annual_report_en.pdf
# ==================================================================================================

EN_COMPANY = "Kestrel Dynamics, Inc."
EN_REPORT = "Annual Report 2024"

# --- income statement (USD millions); expenses negative --------------------------------------------
IS = {
    2024: dict(revenue=12480, cost_of_sales=-7362, sga=-2134, rnd=-1046, interest=-212, other=37, tax=-388),
    2023: dict(revenue=11652, cost_of_sales=-6991, sga=-2018, rnd=-962, interest=-245, other=-14, tax=-313),
}
for _y, _d in IS.items():
    _d["gross_profit"] = _d["revenue"] + _d["cost_of_sales"]
    _d["operating_income"] = _d["gross_profit"] + _d["sga"] + _d["rnd"]
    _d["pretax"] = _d["operating_income"] + _d["interest"] + _d["other"]
    _d["net_income"] = _d["pretax"] + _d["tax"]
assert IS[2024]["net_income"] == 1375 and IS[2023]["net_income"] == 1109

# --- revenue by region ------------------------------------------------------------------------------
REGIONS = ["North America", "Europe", "Asia Pacific", "Latin America", "Middle East & Africa"]
REGION_REV = {
    2024: [5312, 3405, 2618, 689, 456],
    2023: [5021, 3188, 2341, 650, 452],
}
for _y in (2024, 2023):
    assert sum(REGION_REV[_y]) == IS[_y]["revenue"]

# --- cash flows -------------------------------------------------------------------------------------
CF_LINES = {
    "operating": [("Net income", "net_income"), ("Depreciation and amortization", "dna"),
                  ("Share-based compensation", "sbc"), ("Changes in working capital", "wc")],
    "investing": [("Capital expenditures", "capex"), ("Acquisitions, net of cash acquired", "acq"),
                  ("Other investing activities, net", "oth_inv")],
    "financing": [("Repayment of borrowings, net", "debt"), ("Dividends paid", "div"),
                  ("Repurchases of common stock", "buyback")],
}
CF = {
    2024: dict(net_income=IS[2024]["net_income"], dna=612, sbc=148, wc=-203, capex=-741, acq=-310, oth_inv=22,
               debt=-300, div=-412, buyback=-250, fx=-15, cash_begin=2115),
    2023: dict(net_income=IS[2023]["net_income"], dna=575, sbc=131, wc=-96, capex=-688, acq=-45, oth_inv=-18,
               debt=-250, div=-376, buyback=-200, fx=9, cash_begin=1964),
}
for _y, _d in CF.items():
    for _k in CF_LINES:
        _d[_k] = sum(_d[key] for _, key in CF_LINES[_k])
    _d["net_change"] = _d["operating"] + _d["investing"] + _d["financing"] + _d["fx"]
    _d["cash_end"] = _d["cash_begin"] + _d["net_change"]
assert CF[2023]["cash_end"] == CF[2024]["cash_begin"]

# --- balance sheet (December 31) --------------------------------------------------------------------
BS_CURRENT_ASSETS = [
    ("Cash and cash equivalents", CF[2024]["cash_end"], CF[2023]["cash_end"]),
    ("Short-term investments", 480, 420),
    ("Trade receivables, net", 2206, 2034),
    ("Inventories", 1588, 1502),
    ("Prepaid expenses and other current assets", 397, 361),
]
BS_NONCURRENT_ASSETS = [
    ("Property, plant and equipment, net", 4215, 3986),
    ("Operating lease right-of-use assets", 512, 498),
    ("Goodwill", 2874, 2690),
    ("Intangible assets, net", 968, 904),
    ("Deferred tax assets", 221, 236),
    ("Other non-current assets", 305, 287),
]
BS_CURRENT_LIAB = [
    ("Trade payables", 1462, 1388),
    ("Accrued expenses", 1035, 968),
    ("Short-term borrowings", 250, 310),
    ("Current portion of long-term debt", 400, 300),
    ("Income taxes payable", 142, 118),
    ("Contract liabilities", 611, 574),
    ("Operating lease liabilities, current", 118, 112),
]
BS_NONCURRENT_LIAB = [
    ("Long-term debt", 3150, 3550),
    ("Operating lease liabilities, non-current", 421, 410),
    ("Deferred tax liabilities", 356, 331),
    ("Pension and post-retirement obligations", 388, 402),
    ("Other non-current liabilities", 214, 197),
]
_RE_2023 = 5616
BS_EQUITY = [
    ("Common stock", 40, 40),
    ("Additional paid-in capital", 2170 + CF[2024]["sbc"], 2170),
    ("Retained earnings", _RE_2023 + IS[2024]["net_income"] + CF[2024]["div"], _RE_2023),
    ("Treasury stock, at cost", -1200 + CF[2024]["buyback"], -1200),
    ("Accumulated other comprehensive loss", -331, -348),
]
BS_NCI = ("Noncontrolling interests", 104, 95)


def _col_sum(rows: Sequence[tuple[str, int, int]]) -> tuple[int, int]:
    return sum(r[1] for r in rows), sum(r[2] for r in rows)


_ca, _nca = _col_sum(BS_CURRENT_ASSETS), _col_sum(BS_NONCURRENT_ASSETS)
_cl, _ncl = _col_sum(BS_CURRENT_LIAB), _col_sum(BS_NONCURRENT_LIAB)
_eq = _col_sum(BS_EQUITY)
BS_TOTALS = {
    "current_assets": _ca, "noncurrent_assets": _nca,
    "assets": (_ca[0] + _nca[0], _ca[1] + _nca[1]),
    "current_liab": _cl, "noncurrent_liab": _ncl,
    "liab": (_cl[0] + _ncl[0], _cl[1] + _ncl[1]),
    "sh_equity": _eq,
    "equity": (_eq[0] + BS_NCI[1], _eq[1] + BS_NCI[2]),
}
BS_TOTALS["liab_and_equity"] = (BS_TOTALS["liab"][0] + BS_TOTALS["equity"][0],
                                BS_TOTALS["liab"][1] + BS_TOTALS["equity"][1])
assert BS_TOTALS["assets"] == BS_TOTALS["liab_and_equity"] == (15807, 15033), BS_TOTALS

# --- segments (2024), revenue by segment x region group ---------------------------------------------
SEG_REGIONS = ["Americas", "EMEA", "Asia Pacific"]
SEGMENTS = [
    # name, revenue by SEG_REGIONS, operating income
    ("Industrial Automation", (2950, 1820, 1310), 1034),
    ("Energy Systems", (1985, 1410, 905), 688),
    ("Digital Services", (1066, 631, 403), 483),
]
SEG_CORPORATE_OI = -267
_r24 = dict(zip(REGIONS, REGION_REV[2024]))
assert [sum(s[1][i] for s in SEGMENTS) for i in range(3)] == [
    _r24["North America"] + _r24["Latin America"], _r24["Europe"] + _r24["Middle East & Africa"],
    _r24["Asia Pacific"]]
assert sum(s[2] for s in SEGMENTS) + SEG_CORPORATE_OI == IS[2024]["operating_income"]

# --- ten years of quarterly data -----------------------------------------------------------------------
#: year -> (revenue, gross margin %, operating margin %, diluted shares in millions)
ANNUAL_HISTORY = {
    2015: (7214, "37.2", "11.8", 455), 2016: (7530, "37.6", "12.1", 451), 2017: (8046, "38.1", "12.6", 447),
    2018: (8612, "38.4", "13.0", 442), 2019: (8905, "38.9", "13.2", 436), 2020: (8317, "37.5", "10.9", 431),
    2021: (9688, "38.8", "12.8", 424), 2022: (10944, "39.4", "13.7", 416), 2023: (None, None, None, 409),
    2024: (None, None, None, 402),
}
Q_WEIGHTS = {
    "revenue": ("0.236", "0.247", "0.252"),
    "gross_profit": ("0.232", "0.246", "0.253"),
    "operating_income": ("0.225", "0.243", "0.254"),
    "net_income": ("0.222", "0.242", "0.255"),
}


def annual_totals(year: int) -> dict[str, int]:
    if year in IS:
        d = IS[year]
        return {k: d[k] for k in ("revenue", "gross_profit", "operating_income", "net_income")}
    rev, gm, om, _ = ANNUAL_HISTORY[year]
    gp = int(_q(Decimal(rev) * Decimal(gm) / 100, 0))
    oi = int(_q(Decimal(rev) * Decimal(om) / 100, 0))
    ni = int(_q(Decimal(oi) * Decimal("0.70"), 0))
    return {"revenue": rev, "gross_profit": gp, "operating_income": oi, "net_income": ni}


def quarterly_rows() -> list[list[str]]:
    rows: list[list[str]] = []
    for year in sorted(ANNUAL_HISTORY):
        tot = annual_totals(year)
        shares = Decimal(ANNUAL_HISTORY[year][3])
        split: dict[str, list[int]] = {}
        for key, weights in Q_WEIGHTS.items():
            first = [int(_q(Decimal(tot[key]) * Decimal(w), 0)) for w in weights]
            split[key] = first + [tot[key] - sum(first)]
        for q in range(4):
            rev, gp = split["revenue"][q], split["gross_profit"][q]
            oi, ni = split["operating_income"][q], split["net_income"][q]
            rows.append([f"Q{q + 1} {year}", fmt_num(rev), fmt_num(gp), fmt_pct(ratio_pct(gp, rev)),
                         fmt_num(oi), fmt_num(ni), fmt_num(Decimal(ni) / shares, 2)])
    return rows


# --- prose ---------------------------------------------------------------------------------------------

def en_income_table() -> Table:
    a, b = IS[2024], IS[2023]

    def line(label: str, key: str, change: bool = True) -> list[str]:
        chg = fmt_pct(growth_pct(abs(a[key]), abs(b[key]))) if change else "n/m"
        return [label, fmt_num(a[key]), fmt_num(b[key]), chg]

    rows = [
        ["", "Year ended December 31", "", "Change (%)"],
        ["", "2024", "2023", ""],
        line("Revenue", "revenue"),
        line("Cost of sales", "cost_of_sales"),
        line("Gross profit", "gross_profit"),
        line("Selling, general and administrative expenses", "sga"),
        line("Research and development expenses", "rnd"),
        line("Operating income", "operating_income"),
        line("Interest expense, net", "interest"),
        line("Other income (expense), net", "other", change=False),
        line("Income before income taxes", "pretax"),
        line("Income tax expense", "tax"),
        line("Net income", "net_income"),
        ["Gross margin", fmt_pct(ratio_pct(a["gross_profit"], a["revenue"])),
         fmt_pct(ratio_pct(b["gross_profit"], b["revenue"])), "n/m"],
        ["Operating margin", fmt_pct(ratio_pct(a["operating_income"], a["revenue"])),
         fmt_pct(ratio_pct(b["operating_income"], b["revenue"])), "n/m"],
    ]
    style = ruled_style("Helvetica", "Helvetica-Bold", 8.6, header_rows=2, extra=[
        ("SPAN", (0, 0), (0, 1)), ("SPAN", (1, 0), (2, 0)), ("SPAN", (3, 0), (3, 1)),
        *bold_rows([4, 7, 12], "Helvetica-Bold"),
    ])
    return Table(rows, colWidths=[7.4 * cm, 3.0 * cm, 3.0 * cm, 3.0 * cm], style=style, hAlign="LEFT")


def en_region_chart() -> Drawing:
    d = Drawing(FRAME_W, 6.4 * cm)
    chart = VerticalBarChart()
    chart.x, chart.y = 1.6 * cm, 1.0 * cm
    chart.width, chart.height = FRAME_W - 6.2 * cm, 4.9 * cm
    chart.data = [REGION_REV[2023], REGION_REV[2024]]
    chart.categoryAxis.categoryNames = ["North America", "Europe", "Asia Pacific", "Latin America", "MEA"]
    chart.categoryAxis.labels.fontName = "Helvetica"
    chart.categoryAxis.labels.fontSize = 7.5
    chart.categoryAxis.labels.dy = -3
    chart.valueAxis.valueMin, chart.valueAxis.valueMax, chart.valueAxis.valueStep = 0, 6000, 1000
    chart.valueAxis.labels.fontName = "Helvetica"
    chart.valueAxis.labels.fontSize = 7.5
    chart.valueAxis.labelTextFormat = "{:,.0f}".format
    chart.valueAxis.visibleGrid = True
    chart.valueAxis.gridStrokeColor = colors.HexColor("#d0d0d0")
    chart.valueAxis.gridStrokeWidth = 0.4
    chart.bars[0].fillColor = colors.HexColor("#9fb3cf")
    chart.bars[1].fillColor = ACCENT
    chart.bars.strokeWidth = 0
    chart.barSpacing = 1.5
    chart.groupSpacing = 10
    d.add(chart)
    legend = Legend()
    legend.x, legend.y = FRAME_W - 4.0 * cm, 4.6 * cm
    legend.fontName, legend.fontSize = "Helvetica", 8
    legend.alignment = "right"
    legend.colorNamePairs = [(ACCENT, "2024"), (colors.HexColor("#9fb3cf"), "2023")]
    legend.boxAnchor = "nw"
    d.add(legend)
    return d


def en_region_table() -> Table:
    rows = [["Region", "2024", "2023", "Change (%)", "Share of 2024 revenue"]]
    total24, total23 = IS[2024]["revenue"], IS[2023]["revenue"]
    for name, v24, v23 in zip(REGIONS, REGION_REV[2024], REGION_REV[2023]):
        rows.append([name, fmt_num(v24), fmt_num(v23), fmt_pct(growth_pct(v24, v23)),
                     fmt_pct(ratio_pct(v24, total24))])
    rows.append(["Total", fmt_num(total24), fmt_num(total23), fmt_pct(growth_pct(total24, total23)), "100.0%"])
    style = ruled_style("Helvetica", "Helvetica-Bold", 8.6, extra=bold_rows([len(rows) - 1], "Helvetica-Bold"))
    return Table(rows, colWidths=[5.2 * cm, 2.6 * cm, 2.6 * cm, 2.6 * cm, 3.6 * cm], style=style, hAlign="LEFT")


def en_cashflow_table() -> Table:
    a, b = CF[2024], CF[2023]
    rows = [["", "2024", "2023"]]
    bold_at: list[int] = []
    titles = {"operating": "Net cash provided by operating activities",
              "investing": "Net cash used in investing activities",
              "financing": "Net cash used in financing activities"}
    for section, lines in CF_LINES.items():
        for label, key in lines:
            rows.append([label, fmt_num(a[key]), fmt_num(b[key])])
        rows.append([titles[section], fmt_num(a[section]), fmt_num(b[section])])
        bold_at.append(len(rows) - 1)
    rows.append(["Effect of exchange rate changes on cash", fmt_num(a["fx"]), fmt_num(b["fx"])])
    rows.append(["Net increase (decrease) in cash and cash equivalents", fmt_num(a["net_change"]),
                 fmt_num(b["net_change"])])
    bold_at.append(len(rows) - 1)
    rows.append(["Cash and cash equivalents at beginning of year", fmt_num(a["cash_begin"]),
                 fmt_num(b["cash_begin"])])
    rows.append(["Cash and cash equivalents at end of year", fmt_num(a["cash_end"]), fmt_num(b["cash_end"])])
    bold_at.append(len(rows) - 1)
    style = ruled_style("Helvetica", "Helvetica-Bold", 8.6, extra=bold_rows(bold_at, "Helvetica-Bold"))
    return Table(rows, colWidths=[9.6 * cm, 3.2 * cm, 3.2 * cm], style=style, hAlign="LEFT")


def en_segment_table() -> Table:
    """Borderless: no rules at all, only column alignment and a bold header row."""
    rows = [["Segment", *SEG_REGIONS, "Total revenue", "Operating income", "Operating margin"]]
    for name, by_region, oi in SEGMENTS:
        total = sum(by_region)
        rows.append([name, *(fmt_num(v) for v in by_region), fmt_num(total), fmt_num(oi),
                     fmt_pct(ratio_pct(oi, total))])
    rows.append(["Corporate and eliminations", "-", "-", "-", "-", fmt_num(SEG_CORPORATE_OI), "-"])
    region_tot = [sum(s[1][i] for s in SEGMENTS) for i in range(3)]
    oi_tot = IS[2024]["operating_income"]
    rows.append(["Total", *(fmt_num(v) for v in region_tot), fmt_num(sum(region_tot)), fmt_num(oi_tot),
                 fmt_pct(ratio_pct(oi_tot, sum(region_tot)))])
    style = TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), "Helvetica"),
        ("FONTSIZE", (0, 0), (-1, -1), 8.2),
        ("LEADING", (0, 0), (-1, -1), 10.2),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
        ("FONTNAME", (0, -1), (-1, -1), "Helvetica-Bold"),
        ("ALIGN", (1, 0), (-1, -1), "RIGHT"),
        ("ALIGN", (0, 0), (0, -1), "LEFT"),
        ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
        ("TOPPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2.5),
        ("BOTTOMPADDING", (0, 0), (-1, 0), 6),
        ("TOPPADDING", (0, -1), (-1, -1), 6),
    ])
    widths = [4.1 * cm, 1.8 * cm, 1.5 * cm, 2.0 * cm, 2.3 * cm, 2.7 * cm, 2.6 * cm]
    return Table(rows, colWidths=widths, style=style, hAlign="LEFT")


def en_balance_sheet_table() -> Table:
    rows: list[list[str]] = [["(in millions of USD)", "December 31, 2024", "December 31, 2023"]]
    bold_at: list[int] = []
    label_at: list[int] = []

    def label(text: str) -> None:
        rows.append([text, "", ""])
        label_at.append(len(rows) - 1)

    def items(lines: Sequence[tuple[str, int, int]]) -> None:
        for name, v24, v23 in lines:
            rows.append([name, fmt_num(v24), fmt_num(v23)])

    def total(text: str, key: str) -> None:
        v24, v23 = BS_TOTALS[key]
        rows.append([text, fmt_num(v24), fmt_num(v23)])
        bold_at.append(len(rows) - 1)

    label("ASSETS")
    label("Current assets")
    items(BS_CURRENT_ASSETS)
    total("Total current assets", "current_assets")
    label("Non-current assets")
    items(BS_NONCURRENT_ASSETS)
    total("Total non-current assets", "noncurrent_assets")
    total("Total assets", "assets")
    label("LIABILITIES AND EQUITY")
    label("Current liabilities")
    items(BS_CURRENT_LIAB)
    total("Total current liabilities", "current_liab")
    label("Non-current liabilities")
    items(BS_NONCURRENT_LIAB)
    total("Total non-current liabilities", "noncurrent_liab")
    total("Total liabilities", "liab")
    label("Equity")
    items(BS_EQUITY)
    total("Total shareholders' equity", "sh_equity")
    items([BS_NCI])
    total("Total equity", "equity")
    total("Total liabilities and equity", "liab_and_equity")

    extra = bold_rows(bold_at, "Helvetica-Bold")
    for r in label_at:
        extra.append(("FONTNAME", (0, r), (0, r), "Helvetica-BoldOblique"))
    style = ruled_style("Helvetica", "Helvetica-Bold", 8.6, extra=extra)
    return Table(rows, colWidths=[9.0 * cm, 3.5 * cm, 3.5 * cm], style=style, hAlign="LEFT", repeatRows=1)


def en_quarterly_table() -> Table:
    rows = [["Quarter", "Revenue", "Gross profit", "Gross margin", "Operating income", "Net income",
             "Diluted EPS (USD)"]]
    rows.extend(quarterly_rows())
    style = ruled_style("Helvetica", "Helvetica-Bold", 7.8)
    style.add("TOPPADDING", (0, 0), (-1, -1), 1.6)
    style.add("BOTTOMPADDING", (0, 0), (-1, -1), 2.2)
    for r in range(4, len(rows), 8):  # light banding, one band per second year
        style.add("BACKGROUND", (0, r + 1), (-1, min(r + 4, len(rows) - 1)), colors.HexColor("#f6f7f9"))
    widths = [2.2 * cm, 2.3 * cm, 2.3 * cm, 2.3 * cm, 2.6 * cm, 2.3 * cm, 2.8 * cm]
    return Table(rows, colWidths=widths, style=style, hAlign="LEFT", repeatRows=1)


GUIDANCE = [
    ("Revenue growth", fmt_pct(growth_pct(IS[2024]["revenue"], IS[2023]["revenue"])), "5.0% - 7.0%"),
    ("Operating margin", fmt_pct(ratio_pct(IS[2024]["operating_income"], IS[2024]["revenue"])),
     "15.5% - 16.5%"),
    ("Capital expenditures (USD millions)", fmt_num(-CF[2024]["capex"]), "780 - 820"),
    ("Effective tax rate", fmt_pct(ratio_pct(-IS[2024]["tax"], IS[2024]["pretax"])), "21.0% - 23.0%"),
    ("Dividend per share (USD)", "1.02", "1.10"),
]


def en_guidance_table() -> Table:
    rows = [["Metric", "2024 actual", "2025 outlook"], *[list(r) for r in GUIDANCE]]
    style = ruled_style("Helvetica", "Helvetica-Bold", 8.6)
    return Table(rows, colWidths=[7.4 * cm, 3.4 * cm, 3.6 * cm], style=style, hAlign="LEFT")


def en_header_footer(canvas, doc) -> None:  # noqa: ANN001 - reportlab callback signature
    canvas.saveState()
    canvas.setStrokeColor(ACCENT)
    canvas.setLineWidth(0.6)
    y_top = PAGE_H - 1.35 * cm
    canvas.setFont("Helvetica-Bold", 8.5)
    canvas.setFillColor(ACCENT)
    canvas.drawString(MARGIN_X, y_top, EN_COMPANY)
    canvas.setFont("Helvetica", 8.5)
    canvas.drawRightString(PAGE_W - MARGIN_X, y_top, EN_REPORT)
    canvas.line(MARGIN_X, y_top - 4, PAGE_W - MARGIN_X, y_top - 4)
    canvas.setFillColor(colors.HexColor("#555555"))
    canvas.setFont("Helvetica", 8)
    canvas.line(MARGIN_X, 1.45 * cm, PAGE_W - MARGIN_X, 1.45 * cm)
    canvas.drawString(MARGIN_X, 1.0 * cm, f"{EN_COMPANY} | {EN_REPORT}")
    canvas.drawRightString(PAGE_W - MARGIN_X, 1.0 * cm, f"Page {doc.page}")
    canvas.restoreState()


def build_annual_report(path: Path) -> None:
    st = text_styles("Helvetica", "Helvetica-Bold")
    P = lambda text, style="body": Paragraph(text, st[style])  # noqa: E731
    a, b = IS[2024], IS[2023]
    rev_growth = fmt_pct(growth_pct(a["revenue"], b["revenue"]))
    om24 = fmt_pct(ratio_pct(a["operating_income"], a["revenue"]))
    om23 = fmt_pct(ratio_pct(b["operating_income"], b["revenue"]))
    ni_growth = fmt_pct(growth_pct(a["net_income"], b["net_income"]))
    tax_rate = fmt_pct(ratio_pct(-a["tax"], a["pretax"]))
    story: list[Flowable] = []

    # ---- page 1: income statement ----------------------------------------------------------------
    story += [
        P(EN_REPORT, "title"),
        P(f"{EN_COMPANY} - Management Discussion and Analysis of Financial Condition and Results of "
          "Operations for the fiscal year ended December 31, 2024", "subtitle"),
        P("1. Results of Operations", "h1"),
        P("Fiscal 2024 was a year of broad-based growth for Kestrel Dynamics. Consolidated revenue rose "
          f"{rev_growth} to USD {fmt_num(a['revenue'])} million, driven by strong demand for our industrial "
          "automation platforms in North America and a recovery in project deliveries across Asia Pacific. "
          "Pricing actions taken in the second half of 2023 were fully reflected in our results for the "
          "first time, while supply-chain costs normalised."),
        P("The discussion below compares our consolidated results for the years ended December 31, 2024 "
          "and 2023. All amounts are presented in millions of US dollars unless otherwise stated, and "
          "figures in parentheses denote expenses or negative values. Table 1 summarises the consolidated "
          "statement of income."),
        KeepTogether([P("Table 1: Consolidated Statement of Income (in millions of USD)", "caption"),
                      en_income_table()]),
        Spacer(1, 8),
        P(f"Gross profit increased to USD {fmt_num(a['gross_profit'])} million, and gross margin expanded by "
          f"one percentage point to {fmt_pct(ratio_pct(a['gross_profit'], a['revenue']))}, reflecting a richer "
          "product mix and lower freight and component costs. Operating income grew "
          f"{fmt_pct(growth_pct(a['operating_income'], b['operating_income']))} to USD "
          f"{fmt_num(a['operating_income'])} million, lifting the operating margin from {om23} to {om24}, "
          "even as we increased research and development spending on next-generation motion controllers."),
        P(f"Net income rose {ni_growth} to USD {fmt_num(a['net_income'])} million. Lower average borrowings "
          f"reduced net interest expense to USD {fmt_num(-a['interest'])} million, and the effective tax "
          f"rate was {tax_rate}, broadly in line with the prior year. Other income in 2024 included a "
          "one-time gain on the sale of a non-core warehouse facility in Rotterdam."),
        P("Order intake reached USD 13,240 million, a book-to-bill ratio of 1.06, and the order backlog rose to "
          "a record USD 9,870 million at year-end. Service and software revenue, which is largely recurring, "
          "accounted for 23% of consolidated revenue, up from 21% in 2023."),
    ]

    # ---- page 2: figure + regional table, then the paragraph that explains the top of page 3 -------
    story += top_of_page(
        P("2. Revenue by Region", "h1"),
        P("Our geographic footprint remained balanced. North America continues to be our largest market, "
          "while Asia Pacific delivered the fastest growth as delayed semiconductor-fab and battery-plant "
          "projects moved into the delivery phase. Figure 1 compares revenue by region for the last two "
          "fiscal years; the underlying amounts are set out in Table 2."),
        en_region_chart(),
        P("Figure 1: Revenue by region", "figcaption"),
        KeepTogether([P("Table 2: Revenue by region (in millions of USD)", "caption"), en_region_table()]),
        Spacer(1, 8),
        P("Europe grew despite a soft first half, supported by grid-modernisation orders in Germany and the "
          "Nordics. Latin America benefited from mining-sector automation contracts in Chile and Peru, and "
          "revenue in the Middle East & Africa was stable as large desalination projects reached completion."),
        P("3. Liquidity and Cash Flows", "h1"),
        P(f"We ended the year with USD {fmt_num(CF[2024]['cash_end'])} million of cash and cash equivalents "
          f"and USD {fmt_num(480)} million of short-term investments. Our primary sources of liquidity are "
          "cash generated from operations and an undrawn USD 1,500 million revolving credit facility that "
          "matures in 2029. We believe these sources are sufficient to fund our operating needs, planned "
          "capital expenditures and shareholder returns for at least the next twelve months."),
        P(f"Cash generated from operating activities increased to USD {fmt_num(CF[2024]['operating'])} million "
          f"in 2024 from USD {fmt_num(CF[2023]['operating'])} million in 2023, as higher net income more than "
          "offset a larger investment in working capital. We invested USD "
          f"{fmt_num(-CF[2024]['capex'])} million in capacity and automation, completed the acquisition of a "
          "software company specialising in predictive maintenance, and returned USD "
          f"{fmt_num(-(CF[2024]['div'] + CF[2024]['buyback']))} million to shareholders through dividends and "
          "share repurchases. Table 3 on the following page summarises the consolidated statement of cash "
          "flows for both years."),
    )

    # ---- page 3: cash-flow table at the very top, then the borderless segment table ---------------
    story += top_of_page(
        KeepTogether([P("Table 3: Consolidated Statement of Cash Flows (in millions of USD)", "caption"),
                      en_cashflow_table()]),
        Spacer(1, 6),
        P("Free cash flow, defined as net cash provided by operating activities less capital expenditures, "
          f"was USD {fmt_num(CF[2024]['operating'] + CF[2024]['capex'])} million in 2024 compared with USD "
          f"{fmt_num(CF[2023]['operating'] + CF[2023]['capex'])} million in 2023."),
        P("4. Segment Information", "h1"),
        P("We manage the business in three reportable segments. Corporate and eliminations comprises "
          "unallocated headquarters costs and intersegment eliminations. The segment figures below are for "
          "fiscal 2024; Americas combines North America and Latin America, and EMEA combines Europe and "
          "the Middle East & Africa."),
        KeepTogether([P("Table 4: Segment information", "caption"), en_segment_table()]),
        Spacer(1, 8),
        P("Industrial Automation, our largest segment, grew on the back of robotics cell and motion-control "
          "orders from automotive and electronics customers. Energy Systems improved its margin as "
          "grid-storage projects in the Americas reached scale, while Digital Services remained our most "
          "profitable segment, with recurring software subscriptions accounting for more than half of its "
          "revenue."),
    )

    # ---- page 4-5: balance sheet, split by reportlab with the header row repeated ------------------
    story += top_of_page(
        P("5. Financial Position", "h1"),
        P("Total assets increased to USD "
          f"{fmt_num(BS_TOTALS['assets'][0])} million at December 31, 2024 from USD "
          f"{fmt_num(BS_TOTALS['assets'][1])} million a year earlier, mainly reflecting goodwill and intangible "
          "assets recognised on acquisitions and continued investment in property, plant and equipment."),
        P("Working capital remained well controlled. Trade receivables grew more slowly than revenue as "
          "collection periods shortened, and inventories rose only modestly despite higher production "
          "volumes. Contract liabilities increased with customer prepayments on large automation projects."),
        P("Total borrowings, including short-term borrowings and the current portion of long-term debt, "
          f"declined to USD {fmt_num(250 + 400 + 3150)} million from USD {fmt_num(310 + 300 + 3550)} million, "
          "as we repaid a maturing term loan from operating cash flow. Shareholders' equity increased as "
          "retained earnings grew, partly offset by share repurchases and foreign-currency translation losses "
          "recorded in other comprehensive loss. The consolidated balance sheet is presented below."),
        P("Table 5: Consolidated Balance Sheet (in millions of USD)", "caption"),
        en_balance_sheet_table(),
        Spacer(1, 8),
        P(f"Our net debt, defined as total borrowings less cash, cash equivalents and short-term investments, "
          f"was USD {fmt_num(250 + 400 + 3150 - CF[2024]['cash_end'] - 480)} million at year-end, or 0.5 times "
          "EBITDA. Our long-term debt is rated investment grade by two rating agencies."),
        P("6. Outlook for 2025", "h1"),
        P("We enter 2025 with a record order backlog of USD 9,870 million, of which approximately 70% is "
          "expected to convert into revenue during the year. Our outlook assumes stable exchange rates, no "
          "further acquisitions and a modest slowdown in European industrial activity."),
        KeepTogether([P("Table 6: Financial outlook for 2025", "caption"), en_guidance_table()]),
        Spacer(1, 8),
        P("Capital expenditures will remain elevated as we complete the expansion of our motion-control plant "
          "in Monterrey, Mexico, and open a new service hub in Singapore. We intend to continue returning "
          "cash to shareholders through a progressive dividend and opportunistic share repurchases."),
        P("Forward-looking statements", "h2"),
        P("This report contains forward-looking statements, including statements regarding our outlook, "
          "backlog conversion and capital allocation. These statements are based on current expectations and "
          "are subject to risks and uncertainties, including changes in demand, supply-chain disruptions, "
          "exchange-rate movements and the other factors described in our risk disclosures. Actual results "
          "may differ materially. We undertake no obligation to update any forward-looking statement.",
          "note"),
    )

    # ---- page 6: the long quarterly table (more than 512 cl100k tokens) ---------------------------
    story += top_of_page(
        P("7. Selected Quarterly Financial Data", "h1"),
        P("The following table presents unaudited quarterly results for the last ten fiscal years. Quarterly "
          "amounts add up to the annual totals reported in our consolidated financial statements; diluted "
          "earnings per share are calculated independently for each quarter."),
        P("Table 7: Quarterly financial data, 2015-2024 (in millions of USD, except per-share data)", "caption"),
        en_quarterly_table(),
        Spacer(1, 6),
        P("Revenue is seasonally strongest in the fourth quarter, when customers complete capital projects "
          "before their fiscal year-end. The decline in 2020 reflects site-access restrictions during the "
          "pandemic."),
    )

    doc = make_doc(path, f"{EN_COMPANY} {EN_REPORT}", EN_COMPANY, "Annual report (sample document)", "en-US")
    doc.build(story, onFirstPage=en_header_footer, onLaterPages=en_header_footer)


# ==================================================================================================
# 2. credit_review_ko.pdf
# ==================================================================================================

KO_AGENCY = "한빛신용평가"
KO_YEARS = (2022, 2023, 2024)
#: 요약 재무제표 (억원)
KO_FIN = {
    2022: dict(rev=7315, cogs=6218, sga=585, fin_cost=318, ni=142, liab=9310, equity=4496, debt=6650),
    2023: dict(rev=7862, cogs=6644, sga=621, fin_cost=341, ni=189, liab=9520, equity=4685, debt=6480),
    2024: dict(rev=8236, cogs=6984, sga=640, fin_cost=358, ni=193, liab=9850, equity=4878, debt=6200),
}
for _y, _d in KO_FIN.items():
    _d["gp"] = _d["rev"] - _d["cogs"]
    _d["oi"] = _d["gp"] - _d["sga"]
    _d["assets"] = _d["liab"] + _d["equity"]
assert KO_FIN[2023]["equity"] == KO_FIN[2022]["equity"] + KO_FIN[2023]["ni"]
assert KO_FIN[2024]["equity"] == KO_FIN[2023]["equity"] + KO_FIN[2024]["ni"]
KO_CURRENT_RATIO = {2022: "112.4%", 2023: "108.9%", 2024: "104.6%"}
KO_INDUSTRY = {"debt_ratio": "165.0%", "current": "121.3%", "icr": "3.2배", "dep": "35.4%", "om": "6.8%"}
KO_DNA_2024 = 428  # 감가상각비 (억원)
KO_RATE = Decimal("0.0565")
KO_PRINCIPAL = [(2025, 1200), (2026, 1400), (2027, 1500), (2028, 1100), (2029, 1000)]
assert sum(p for _, p in KO_PRINCIPAL) == KO_FIN[2024]["debt"]


def ko_schedule() -> list[tuple[int, int, Decimal]]:
    out, balance = [], KO_FIN[2024]["debt"]
    for year, principal in KO_PRINCIPAL:
        out.append((year, principal, _q(Decimal(balance) * KO_RATE, 1)))
        balance -= principal
    return out


KO_CUSTOMERS = [
    # 거래처, 매출 비중(%), 계약 형태, 계약 만료
    ("C자동차", "46.3", "장기공급계약 (5년)", "2026.06"),
    ("D모빌리티", "18.7", "장기공급계약 (3년)", "2027.09"),
    ("E중공업", "9.5", "연간 단가계약", "2025.12"),
    ("기타", "25.5", "개별 발주", "-"),
]
assert sum(Decimal(c[1]) for c in KO_CUSTOMERS) == 100

KO_STORY = ("B기업은 현재까지 원리금을 정상적으로 상환하고 있다. 다만 주요 거래계약이 내년에 만료될 예정이며, "
            "중장기적으로 현재의 상환능력이 유지된다고 단정하기는 어렵다.")


def ko_fin_table(font: str, bold: str) -> Table:
    rows = [["구분", *(f"{y}년" for y in KO_YEARS)]]
    spec = [("매출액", "rev"), ("매출원가", "cogs"), ("매출총이익", "gp"), ("판매비와관리비", "sga"),
            ("영업이익", "oi"), ("금융비용", "fin_cost"), ("당기순이익", "ni"), ("자산총계", "assets"),
            ("부채총계", "liab"), ("자본총계", "equity"), ("총차입금", "debt")]
    for label, key in spec:
        rows.append([label, *(fmt_num(KO_FIN[y][key]) for y in KO_YEARS)])
    style = ruled_style(font, bold, 8.8, extra=bold_rows([3, 5, 8], bold))
    return Table(rows, colWidths=[4.2 * cm, 3.2 * cm, 3.2 * cm, 3.2 * cm], style=style, hAlign="LEFT")


def ko_ratio_rows() -> list[list[str]]:
    f = KO_FIN
    return [
        ["부채비율", *(fmt_pct(ratio_pct(f[y]["liab"], f[y]["equity"])) for y in KO_YEARS), KO_INDUSTRY["debt_ratio"]],
        ["유동비율", *(KO_CURRENT_RATIO[y] for y in KO_YEARS), KO_INDUSTRY["current"]],
        ["이자보상배율", *(fmt_num(Decimal(f[y]["oi"]) / f[y]["fin_cost"], 1) + "배" for y in KO_YEARS),
         KO_INDUSTRY["icr"]],
        ["차입금의존도", *(fmt_pct(ratio_pct(f[y]["debt"], f[y]["assets"])) for y in KO_YEARS), KO_INDUSTRY["dep"]],
        ["영업이익률", *(fmt_pct(ratio_pct(f[y]["oi"], f[y]["rev"])) for y in KO_YEARS), KO_INDUSTRY["om"]],
    ]


def ko_ratio_table(font: str, bold: str) -> Table:
    rows = [["구분", *(f"{y}년" for y in KO_YEARS), "업종 평균"], *ko_ratio_rows()]
    style = ruled_style(font, bold, 8.8)
    return Table(rows, colWidths=[4.2 * cm, 2.9 * cm, 2.9 * cm, 2.9 * cm, 2.9 * cm], style=style, hAlign="LEFT")


def ko_schedule_table(font: str, bold: str) -> Table:
    rows = [["연도", "원금", "이자", "합계"]]
    sched = ko_schedule()
    for year, principal, interest in sched:
        rows.append([f"{year}년", fmt_num(principal), fmt_num(interest, 1), fmt_num(principal + interest, 1)])
    tp = sum(p for _, p, _ in sched)
    ti = sum(i for _, _, i in sched)
    rows.append(["합계", fmt_num(tp), fmt_num(ti, 1), fmt_num(tp + ti, 1)])
    style = ruled_style(font, bold, 8.8, extra=[*bold_rows([len(rows) - 1], bold), ("ALIGN", (0, 0), (0, -1), "CENTER")])
    return Table(rows, colWidths=[3.4 * cm, 3.2 * cm, 3.2 * cm, 3.2 * cm], style=style, hAlign="LEFT")


def ko_customer_table(font: str, bold: str) -> Table:
    rows = [["거래처", "매출 비중", "계약 형태", "계약 만료"]]
    for name, share, kind, until in KO_CUSTOMERS:
        rows.append([name, f"{share}%", kind, until])
    style = ruled_style(font, bold, 8.8, extra=[("ALIGN", (2, 1), (3, -1), "CENTER")])
    return Table(rows, colWidths=[3.4 * cm, 2.6 * cm, 4.4 * cm, 2.6 * cm], style=style, hAlign="LEFT")


KO_HISTORY = [
    ("2025.03.14", "정기평가", "BBB+", "부정적 검토"),
    ("2024.03.15", "정기평가", "A-", "부정적"),
    ("2023.03.17", "정기평가", "A-", "안정적"),
    ("2022.06.10", "본평가", "A-", "안정적"),
]


def ko_history_table(font: str, bold: str) -> Table:
    rows = [["평가일", "평가 구분", "등급", "등급 전망"], *[list(r) for r in KO_HISTORY]]
    style = ruled_style(font, bold, 8.8, extra=[("ALIGN", (0, 1), (-1, -1), "CENTER")])
    return Table(rows, colWidths=[3.4 * cm, 3.2 * cm, 2.6 * cm, 3.4 * cm], style=style, hAlign="LEFT")


def ko_summary_box(font: str, bold: str) -> Table:
    """Rating summary box at the top of page 1 (a small table without a caption)."""
    rows = [
        ["평가 대상", "B기업 제15회 무보증 공모사채 (1,000억원)"],
        ["평가 등급", "BBB+ (등급 전망: 부정적 검토)"],
        ["직전 등급", "A- (2024.03.15)"],
        ["평가 일자", "2025년 3월 14일"],
    ]
    style = TableStyle([
        ("FONTNAME", (0, 0), (-1, -1), font), ("FONTNAME", (0, 0), (0, -1), bold),
        ("FONTSIZE", (0, 0), (-1, -1), 9), ("LEADING", (0, 0), (-1, -1), 12),
        ("BOX", (0, 0), (-1, -1), 0.9, ACCENT), ("LINEBELOW", (0, 0), (-1, -2), 0.3, colors.HexColor("#b8c2d0")),
        ("BACKGROUND", (0, 0), (0, -1), HEAD_FILL),
        ("TOPPADDING", (0, 0), (-1, -1), 3.5), ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ("LEFTPADDING", (0, 0), (-1, -1), 6),
    ])
    return Table(rows, colWidths=[3.2 * cm, FRAME_W - 3.2 * cm], style=style, hAlign="LEFT")


def build_credit_review(path: Path) -> None:
    font, bold = register_korean_fonts()
    st = text_styles(font, bold, size=9.8, leading=15.5)
    P = lambda text, style="body": Paragraph(text, st[style])  # noqa: E731
    f24, f23 = KO_FIN[2024], KO_FIN[2023]
    sched = ko_schedule()
    total_interest = sum(i for _, _, i in sched)
    ebitda = f24["oi"] + KO_DNA_2024
    y25 = sched[0][1] + sched[0][2]

    def header_footer(canvas, doc) -> None:  # noqa: ANN001
        canvas.saveState()
        canvas.setStrokeColor(ACCENT)
        canvas.setLineWidth(0.6)
        y_top = PAGE_H - 1.35 * cm
        canvas.setFillColor(ACCENT)
        canvas.setFont(bold, 8.5)
        canvas.drawString(MARGIN_X, y_top, KO_AGENCY)
        canvas.setFont(font, 8.5)
        canvas.drawRightString(PAGE_W - MARGIN_X, y_top, "B기업 정기평가 보고서")
        canvas.line(MARGIN_X, y_top - 4, PAGE_W - MARGIN_X, y_top - 4)
        canvas.setFillColor(colors.HexColor("#555555"))
        canvas.setFont(font, 8)
        canvas.drawCentredString(PAGE_W / 2, 1.0 * cm, f"- {doc.page} -")
        canvas.restoreState()

    story: list[Flowable] = [
        P("신용평가 보고서", "title"),
        P("B기업 | 회사채 정기평가 | 2024 회계연도 기준", "subtitle"),
        ko_summary_box(font, bold),
        Spacer(1, 6),
        P("1. 회사 개요", "h1"),
        P("B기업은 1998년 설립된 자동차 전장부품 전문 제조업체로, 차체 제어 모듈과 배터리 관리 시스템(BMS)용 "
          "전자부품을 주력으로 생산하고 있다. 경기도 화성과 충남 아산에 생산공장을 두고 있으며, 2024년 말 기준 "
          "임직원 수는 1,820명이다. 2019년 코스닥 시장에 상장하였고, 최대주주 및 특수관계인 지분율은 41.2%이다."),
        P("B기업의 매출은 국내 완성차업체 향 납품이 대부분을 차지하며, 전기차 부품 비중이 2022년 31.5%에서 "
          "2024년 44.8%로 확대되었다. 전기차용 제품은 기존 내연기관용 제품보다 단가가 높아 외형 성장에 기여하고 "
          "있으나, 신규 라인 증설에 따른 감가상각비 증가로 수익성 개선 폭은 제한적인 모습이다."),
        P("B기업은 2023년 아산 제2공장을 준공하여 BMS 모듈의 연간 생산능력을 120만 대로 확대하였다. 증설에 "
          "투입된 1,150억원은 영업현금흐름과 보유 현금으로 충당하였으며, 신규 라인의 가동률은 2024년 말 기준 "
          "78% 수준이다."),
        P("2. 재무 현황", "h1"),
        P(f"B기업의 2024년 매출액은 {fmt_num(f24['rev'])}억원으로 전년 대비 "
          f"{fmt_pct(growth_pct(f24['rev'], f23['rev']))} 증가하였고, 영업이익은 {fmt_num(f24['oi'])}억원을 "
          "기록하였다. 최근 3개년 요약 재무제표는 다음과 같다."),
        KeepTogether([P("&lt;표 1&gt; 요약 재무제표 (단위: 억원)", "caption"), ko_fin_table(font, bold)]),
        Spacer(1, 6),
        P("총차입금은 정기적인 원금 상환으로 2022년 이후 매년 감소하였으나, 자본 확충이 이익잉여금 적립에 "
          "그쳐 부채비율은 여전히 200%를 상회한다. 주요 재무비율은 아래 표와 같으며, 업종 평균과 비교하면 "
          "레버리지와 이자보상 측면 모두 열위한 수준이다."),
        KeepTogether([P("[표 2] 주요 재무비율", "caption"), ko_ratio_table(font, bold)]),
        Spacer(1, 6),
        P("유동비율은 2022년 112.4%에서 2024년 104.6%로 하락하여 단기 유동성 여유가 축소되었다. 이자보상배율은 "
          "1배 후반에 머물러 영업이익으로 금융비용을 감당할 수는 있으나 여유가 크지 않다."),
        CondPageBreak(6 * cm),
        P("3. 상환능력 평가", "h1"),
        P(f"B기업의 2024년 EBITDA는 {fmt_num(ebitda)}억원으로, 2025년 예정된 원리금 {fmt_num(y25, 1)}억원을 "
          "영업현금흐름만으로 충당하기에는 부족하다. 회사는 만기 도래 차입금 중 일부를 차환하고, 유휴 부동산 "
          "매각을 통해 상환 재원을 보완할 계획이다."),
        P(KO_STORY),
        P("한편, 동종 업계의 A기업은 2024년 하반기 해외 완성차업체와 7년 장기공급계약을 새로 체결하여 향후 "
          "매출 가시성이 높아졌다. A기업은 부채비율이 120%대로 낮고 보유 현금이 풍부하여 원리금 상환 부담이 "
          "크지 않은 것으로 판단되며, 이 점에서 B기업과 대조적이다."),
        P("B기업 매출의 46.3%를 차지하는 C자동차와의 장기공급계약은 2026년 6월에 만료된다. 회사는 계약 갱신을 "
          "위한 협의를 진행 중이나, 갱신 조건에 따라 물량과 단가가 변동될 수 있어 향후 현금창출력의 불확실성이 "
          "높다. 주요 거래처별 매출 비중과 계약 현황은 &lt;표 4&gt;에 정리하였다."),
        P(f"향후 5개년 원리금 상환 일정은 아래와 같다. 2025년부터 2029년까지 총 {fmt_num(KO_FIN[2024]['debt'])}억원의 "
          f"원금과 {fmt_num(total_interest, 1)}억원의 이자를 상환해야 하며, 상환 부담은 2026년과 2027년에 "
          "집중되어 있다. 이자는 가중평균 차입금리 5.65%를 적용하여 산출하였다."),
        KeepTogether([P("표 3. 원리금 상환 일정표 (단위: 억원)", "caption"), ko_schedule_table(font, bold)]),
        Spacer(1, 6),
        P("연간 원리금 상환액이 EBITDA를 상회하는 구조가 2027년까지 이어지므로, 차환 여건이 악화될 경우 "
          "유동성 부담이 빠르게 확대될 수 있다."),
        KeepTogether([P("&lt;표 4&gt; 주요 거래처 현황", "caption"), ko_customer_table(font, bold)]),
        Spacer(1, 6),
        P("상위 2개 거래처 의존도가 65%에 달해 거래처 집중도가 높은 편이다. 특히 C자동차 향 매출은 전기차 "
          "플랫폼 전환 일정과 연동되어 있어, 계약 갱신 시점의 협상력이 제한될 가능성이 있다."),
        P("4. 종합 의견", "h1"),
        P("B기업의 신용등급을 BBB+로 하향 조정한다. 전기차 부품 중심의 사업 재편과 안정적인 원리금 상환 이력은 "
          "긍정적이나, 높은 재무 레버리지와 거래처 집중도, 주요 계약 만료에 따른 현금흐름 불확실성을 반영하였다. "
          "향후 C자동차와의 계약 갱신 결과와 차환 진행 상황을 중점적으로 점검할 예정이다."),
        P("5. 등급 변동 요인", "h1"),
        P("(상향 요인) C자동차와의 공급계약이 현재와 유사한 조건으로 갱신되고, 차입금 감축을 통해 부채비율이 "
          "150% 이하로 안정적으로 유지되는 경우 등급 상향을 검토할 수 있다."),
        P("(하향 요인) 주요 거래계약이 갱신되지 않거나 불리한 조건으로 변경되어 EBITDA가 800억원을 하회하는 "
          "경우, 또는 차환 실패로 유동성 대응력이 크게 저하되는 경우 추가적인 등급 하향 압력이 발생할 수 있다."),
        KeepTogether([P("&lt;표 5&gt; 신용등급 이력", "caption"), ko_history_table(font, bold)]),
        Spacer(1, 6),
        P("※ 본 보고서의 재무 수치는 한국채택국제회계기준(K-IFRS) 연결 재무제표를 기준으로 작성되었으며, "
          "억원 미만은 반올림하였다. 재무비율은 당사 기준에 따라 재계산한 수치로, 회사 공시 수치와 다를 수 있다.",
          "note"),
    ]
    doc = make_doc(path, "B기업 신용평가 보고서", KO_AGENCY, "신용평가 보고서 (샘플 문서)", "ko-KR")
    doc.build(story, onFirstPage=header_footer, onLaterPages=header_footer)


# ==================================================================================================
# 3. mixed_brief.pdf
# ==================================================================================================

MX_YEARS = (2022, 2023, 2024)
MX = {
    2022: dict(rev=1842, oi=148, ni=104, staff=412),
    2023: dict(rev=2015, oi=171, ni=122, staff=436),
    2024: dict(rev=2236, oi=203, ni=149, staff=468),
}


def mixed_table(font: str, bold: str) -> Table:
    a, b = MX[2024], MX[2023]
    om = {y: ratio_pct(MX[y]["oi"], MX[y]["rev"]) for y in MX_YEARS}
    om_delta = _q(om[2024], 1) - _q(om[2023], 1)
    rows = [
        ["항목 (Item)", "2022", "2023", "2024", "전년 대비 (YoY)"],
        ["매출액 (Revenue)", *(fmt_num(MX[y]["rev"]) for y in MX_YEARS), fmt_pct(growth_pct(a["rev"], b["rev"]))],
        ["영업이익 (Operating income)", *(fmt_num(MX[y]["oi"]) for y in MX_YEARS),
         fmt_pct(growth_pct(a["oi"], b["oi"]))],
        ["영업이익률 (Operating margin)", *(fmt_pct(om[y]) for y in MX_YEARS), f"+{om_delta}%p"],
        ["당기순이익 (Net income)", *(fmt_num(MX[y]["ni"]) for y in MX_YEARS),
         fmt_pct(growth_pct(a["ni"], b["ni"]))],
        ["임직원 수 (Employees)", *(fmt_num(MX[y]["staff"]) for y in MX_YEARS),
         fmt_pct(growth_pct(a["staff"], b["staff"]))],
    ]
    style = ruled_style(font, bold, 8.8)
    return Table(rows, colWidths=[5.6 * cm, 2.3 * cm, 2.3 * cm, 2.3 * cm, 3.0 * cm], style=style, hAlign="LEFT")


def build_mixed_brief(path: Path) -> None:
    font, bold = register_korean_fonts()
    st = text_styles(font, bold, size=9.8, leading=15.0)
    P = lambda text, style="body": Paragraph(text, st[style])  # noqa: E731
    a, b = MX[2024], MX[2023]

    def header_footer(canvas, doc) -> None:  # noqa: ANN001
        canvas.saveState()
        canvas.setFillColor(ACCENT)
        canvas.setFont(bold, 8.5)
        canvas.drawString(MARGIN_X, PAGE_H - 1.35 * cm, "Kestrel Dynamics Korea | 케스트럴다이내믹스코리아")
        canvas.setFont(font, 8.5)
        canvas.drawRightString(PAGE_W - MARGIN_X, PAGE_H - 1.35 * cm, "Investor Brief / 투자자 브리프")
        canvas.setStrokeColor(ACCENT)
        canvas.setLineWidth(0.6)
        canvas.line(MARGIN_X, PAGE_H - 1.35 * cm - 4, PAGE_W - MARGIN_X, PAGE_H - 1.35 * cm - 4)
        canvas.setFillColor(colors.HexColor("#555555"))
        canvas.setFont(font, 8)
        canvas.drawRightString(PAGE_W - MARGIN_X, 1.0 * cm, f"{doc.page}")
        canvas.restoreState()

    story: list[Flowable] = [
        P("FY2024 Results Brief / 2024년 실적 브리프", "title"),
        P("Kestrel Dynamics Korea Co., Ltd. | 케스트럴다이내믹스코리아(주) | March 2025", "subtitle"),
        P("Summary", "h1"),
        P(f"Kestrel Dynamics Korea, the Korean subsidiary of {EN_COMPANY}, closed fiscal 2024 with revenue of "
          f"KRW {fmt_num(a['rev'])} hundred million, up {fmt_pct(growth_pct(a['rev'], b['rev']))} year on year. "
          "Growth came mainly from factory-automation orders placed by domestic battery and display makers. "
          f"Operating income rose to KRW {fmt_num(a['oi'])} hundred million as service contracts, which carry "
          "higher margins, made up a larger share of sales."),
        KeepTogether([P("Table 1. Key figures / 주요 지표 (단위: 억원 / KRW 100 million)", "caption"),
                      mixed_table(font, bold)]),
        Spacer(1, 8),
        P("요약", "h1"),
        Paragraph(f"케스트럴다이내믹스코리아의 2024년 매출액은 {fmt_num(a['rev'])}억원으로 전년 대비 "
                  f"{fmt_pct(growth_pct(a['rev'], b['rev']))} 증가하였다. 국내 이차전지 및 디스플레이 업체의 공장 "
                  f"자동화 수요가 성장을 이끌었으며, 수익성이 높은 유지보수 서비스 매출 비중이 확대되면서 "
                  f"영업이익은 {fmt_num(a['oi'])}억원을 기록하였다. 2025년에는 평택 서비스센터 개소에 맞춰 "
                  "엔지니어 인력을 추가로 채용할 계획이다.", st["body"]),
        P("Outlook / 전망", "h2"),
        P("For 2025, management expects mid-single-digit revenue growth and a stable operating margin. The "
          "order backlog at year-end stood at KRW 1,310 hundred million (수주잔고 1,310억원), of which roughly "
          "two thirds is scheduled for delivery within the year."),
    ]
    doc = make_doc(path, "Kestrel Dynamics Korea FY2024 Results Brief", "Kestrel Dynamics Korea",
                   "Bilingual results brief (sample document)", "ko-KR")
    doc.build(story, onFirstPage=header_footer, onLaterPages=header_footer)


# ==================================================================================================

BUILDERS = {
    "annual_report_en.pdf": build_annual_report,
    "credit_review_ko.pdf": build_credit_review,
    "mixed_brief.pdf": build_mixed_brief,
}


def generate(out_dir: Path | str = HERE) -> list[Path]:
    """Write all sample PDFs into ``out_dir``; return their paths."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    with fixed_timestamp():
        for name, build in BUILDERS.items():
            target = out / name
            build(target)
            written.append(target)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate the sample report PDFs (deterministic output).")
    parser.add_argument("--out", type=Path, default=HERE, help="output folder (default: this script's folder)")
    args = parser.parse_args(argv)
    for p in generate(args.out):
        print(p)
    return 0


if __name__ == "__main__":
    sys.exit(main())
