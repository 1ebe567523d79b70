"""Which filing a document is: company, form and reporting period, read from its own cover page.

A question over many reports names the company, the period and often the form ("3M's FY2018 10-K",
"AMCOR's Q2 of FY2023"); no table row says any of that. The SEC cover page does ("FORM 10-K", "For the
fiscal year ended December 31, 2018", the registrant's exact name above "(Exact name of registrant as
specified in its charter)", its trading symbol under "Trading Symbol(s)"), and so does a Korean report's
cover (사업보고서, 사업연도, 회사명).

A quarterly report's fiscal year is the one its quarter falls in: the cover prints only the quarter's end
("For the quarterly period ended December 31, 2022"), and the notes name the fiscal year end of the last
annual report ("... Form 10-K for the fiscal year ended June 30, 2022"), so AMCOR's quarter is in FY2023.

``filing_profile`` returns what it found as a dict and a one-line ``profile`` text; ingest stores it with
the document, and the repository's document prior matches questions against it.
"""

from __future__ import annotations

import re

from docling_core.types.doc import ContentLayer, DoclingDocument, TableItem, TextItem

from .titles import MONTH_NAMES

#: Pages read from the front of the document for the cover facts.
COVER_PAGES = 3
#: Text items read at most (a cover never needs more).
COVER_MAX_ITEMS = 400

FORM = re.compile(r"\bform\s+(10-k(?:/a)?|10-q(?:/a)?|8-k|20-f|40-f|6-k|s-1|10-kt)\b", re.IGNORECASE)
KOREAN_FORM = re.compile(r"(사업보고서|분기보고서|반기보고서|감사보고서)")
_MONTH = r"(?:" + MONTH_NAMES + r")"
#: Words of another cover column that the text layer may interleave between "ended" and the date ("For the
#: quarterly period ended Commission file June 30, 2022 number 1-5805"): at most this many.
PERIOD_INTERLEAVED_WORDS = 3
PERIOD = re.compile(
    r"for\s+the\s+(?P<kind>fiscal\s+year|year|quarterly\s+period|quarter|transition\s+period)\s+ended\s*:?\s*"
    r"(?P<skip>(?:[A-Za-z]+\s+){0," + str(PERIOD_INTERLEAVED_WORDS) + r"}?)"
    r"(?P<date>(?P<month>" + _MONTH + r")\s+(?P<day>\d{1,2})\s*,?\s*(?P<year>(?:19|20)\d{2}))",
    re.IGNORECASE,
)
#: The same period as reports outside the US print it: "for the year ended 31 December 2022", "for the
#: financial year ended 31st March 2023".
PERIOD_DAY_FIRST = re.compile(
    r"for\s+the\s+(?P<kind>(?:fiscal|financial)\s+year|year|quarterly\s+period|quarter|(?:three|six|nine)\s+months|"
    r"half[\s-]year|period)\s+ended\s*:?\s*"
    r"(?P<date>(?P<day>\d{1,2})(?:st|nd|rd|th)?\s+(?P<month>" + _MONTH + r")\s*,?\s*(?P<year>(?:19|20)\d{2}))",
    re.IGNORECASE,
)
#: An annual report's cover names its year: "Annual Report 2022", "2022 Annual Report", "Integrated Report
#: 2023" (not "Annual Report on Form 10-K", not a span of years such as "2022/23").
ANNUAL_REPORT_YEAR = re.compile(
    r"\b(?:annual|integrated)\s+report\s+(?P<year>(?:19|20)\d{2})\b(?![/-]\d)"
    r"|(?<![/-])\b(?P<year_first>(?:19|20)\d{2})\s+(?:annual|integrated)\s+report\b",
    re.IGNORECASE,
)
REPORT_DATE = re.compile(
    r"date\s+of\s+report[^:]{0,60}:?\s*(?P<date>" + _MONTH + r"\s+\d{1,2}\s*,?\s*(?P<year>(?:19|20)\d{2}))",
    re.IGNORECASE,
)
#: A quarterly report names its annual report's fiscal year end ("... read in conjunction with the Annual
#: Report on Form 10-K for the fiscal year ended June 30, 2022"): the month and day its fiscal years end on.
FISCAL_YEAR_END = re.compile(
    r"fiscal\s+year\s+end(?:ed|ing|s)?\s+(?:on\s+)?(?P<month>" + MONTH_NAMES + r")\s+(?P<day>\d{1,2})\b",
    re.IGNORECASE,
)
#: Pages of a quarterly report searched for its fiscal year end (the notes' basis of presentation).
FISCAL_YEAR_END_PAGES = 25
#: Period kinds of a quarterly report.
QUARTER_KINDS = ("quarterly period", "quarter")
KOREAN_PERIOD = re.compile(r"사업\s*연도\s*(?P<year>(?:19|20)\d{2})\s*년")
REGISTRANT_NOTE = re.compile(r"exact\s+name\s+of\s+(?:the\s+)?registrant", re.IGNORECASE)
KOREAN_COMPANY = re.compile(r"회\s*사\s*명\s*[:：]\s*(?P<name>[^\s(]+)")
#: A Korean company named with its legal form on a cover without a 회사명 line (a rating report's "은가람캐피탈㈜",
#: "주식회사 한빛", "(주)한빛"): the name itself, without the form.
KOREAN_LEGAL_NAME = re.compile(
    r"(?<![가-힣A-Za-z0-9])(?P<after>[가-힣][가-힣A-Za-z0-9]+) ?(?:㈜|\(주\)|주식회사)"
    r"|(?:㈜|\(주\)|주식회사) ?(?P<before>[가-힣][가-힣A-Za-z0-9]+)")
#: Cover lines that are never the registrant's name.
NOT_A_NAME = re.compile(r"commission|file\s+n(?:o|umber)|transition\s+period|\d{3}-\d{4,}|^\(|^_+$|\bform\s+\d",
                        re.IGNORECASE)
#: A registrant name line is at most this long.
NAME_MAX_CHARS = 80
#: The cover line that the registrant's name follows when no "(Exact name of registrant ...)" note is printed.
FILE_NUMBER = re.compile(r"commission\s+file\s+n(?:o\.?|umber)", re.IGNORECASE)
#: A file number and the name the text layer ran into its line.
FILE_NUMBER_THEN_NAME = re.compile(r"commission\s+file\s+n(?:o\.?|umber)\s*:?\s*[\d-]+\s+(?P<name>\S.*)$",
                                   re.IGNORECASE)
#: Lines after the file number that are the state, the address or a label, not the name.
NOT_A_NAME_AFTER_FILE_NUMBER = re.compile(r"[:()]|\bstate\b|incorporat|\d{5}", re.IGNORECASE)
#: Cover lines after the file number in which the name is looked for.
FILE_NUMBER_WINDOW = 2
#: The group's title that heads the statements ("THE COCA-COLA COMPANY AND SUBSIDIARIES"): the registrant's
#: name, when the cover prints it only as a logo.
GROUP_TITLE = re.compile(r"^(?P<name>.+?),?\s+and\s+(?:its\s+)?(?:consolidated\s+)?subsidiaries$", re.IGNORECASE)
#: A name printed in small capitals whose text layer splits each word's first letter from the rest ("MGM
#: R ESORTS I NTERNATIONAL"): a lone capital before a word of capitals.
SMALL_CAPS_SPLIT = re.compile(r"\b([A-Z]) (?=[A-Z]{2,}\b)")
#: The heading of the cover's column of trading symbols (SEC covers since 2019).
SYMBOL_HEADING = re.compile(r"trading\s+symbols?(?:\(s\))?", re.IGNORECASE)
#: A trading symbol as printed there: two to five capitals standing alone ("JNJ", "VZ"; not "JNJ24C").
TICKER = re.compile(r"(?<![\w$.&'()-])([A-Z]{2,5})(?![\w$.%&'()-])")
#: Characters after the heading searched for the first symbol (the heading row, then the first class).
TICKER_WINDOW = 400
#: Where the cover's table of securities registered under Section 12(b) ends.
SYMBOLS_END = re.compile(r"section\s+12\s*\(g\)|indicate\s+by\s+check", re.IGNORECASE)
#: Capitalised words of that row that are not symbols.
NOT_A_TICKER = frozenset({"II", "III", "AND", "CO", "INC", "LLC", "NA", "NYSE", "OF", "THE", "TO", "USD"})
#: A cover printed in capitals throughout has no symbol to tell from its words: above this share of
#: capital letters in the searched text, no symbol is read.
TICKER_MAX_CAPITALS = 0.5


def _cover_texts(doc: DoclingDocument) -> list[str]:
    texts: list[str] = []
    for item, _level in doc.iterate_items(with_groups=False, included_content_layers={ContentLayer.BODY, ContentLayer.FURNITURE}):
        if not isinstance(item, (TextItem, TableItem)) or not item.prov:
            continue
        if item.prov[0].page_no > COVER_PAGES:
            break
        if isinstance(item, TableItem):  # a cover laid out as a grid: its cells, row by row
            lines = [cell.text for row in item.data.grid for cell in row if cell.text.strip()]
        else:
            lines = [item.text]
        texts.extend(" ".join(line.split()) for line in dict.fromkeys(lines) if line.strip())
        if len(texts) >= COVER_MAX_ITEMS:
            break
    return texts


_MONTH_NUMBER = {name: n for n, name in enumerate(MONTH_NAMES.split("|"), start=1)}


def _month_day(month: str, day: str) -> tuple[int, int]:
    return _MONTH_NUMBER[month.lower()], int(day)


def _fiscal_year_end(doc: DoclingDocument) -> tuple[int, int] | None:
    """(month, day) of the fiscal year end that the first FISCAL_YEAR_END_PAGES pages name most often."""
    counts: dict[tuple[int, int], int] = {}
    for item, _level in doc.iterate_items(with_groups=False):
        if not isinstance(item, TextItem) or not item.prov:
            continue
        if item.prov[0].page_no > FISCAL_YEAR_END_PAGES:
            break
        for match in FISCAL_YEAR_END.finditer(item.text):
            end = _month_day(match.group("month"), match.group("day"))
            counts[end] = counts.get(end, 0) + 1
    return max(counts, key=counts.__getitem__) if counts else None


#: A 52/53-week fiscal year that ends within this many days of January 1 is named for the year before
#: ("fiscal year ended January 1, 2023" is Johnson & Johnson's fiscal 2022): its weeks lie in that year.
WEEK_YEAR_SPILL_DAYS = 7


def annual_fiscal_year(period_month: str, period_day: str, period_year: str) -> str:
    """The fiscal year a year ended on the given date is named for: its calendar year, or the year before
    for a 52/53-week year that ends in the first days of January."""
    month, day = _month_day(period_month, period_day)
    return str(int(period_year) - 1) if month == 1 and day <= WEEK_YEAR_SPILL_DAYS else period_year


def quarter_fiscal_year(period_month: str, period_day: str, period_year: str, year_end: tuple[int, int]) -> str:
    """The fiscal year a quarter ended on the given date belongs to, for fiscal years ending on ``year_end``
    (month, day): the year of the first fiscal year end on or after the quarter's end. AMCOR's quarter ended
    December 31, 2022, of fiscal years ending June 30, is in fiscal 2023."""
    after_year_end = _month_day(period_month, period_day) > year_end
    return str(int(period_year) + 1) if after_year_end else period_year


def _is_name(text: str) -> bool:
    return 1 < len(text) <= NAME_MAX_CHARS and not set(text) <= set("_-–— ") and not NOT_A_NAME.search(text)


def _registrant(texts: list[str]) -> str | None:
    """The text right before "(Exact name of registrant as specified in its charter)": on its line, or
    the line above, or the end of the line above when the text layer ran the name into the file number
    ("… Commission File Number 001-36404 INPIXON")."""
    for i, text in enumerate(texts):
        note = REGISTRANT_NOTE.search(text)
        if note:
            same_line = text[: note.start()].rstrip(" (")
            if _is_name(same_line):
                return same_line
            for previous in reversed(texts[max(i - 3, 0) : i]):
                if _is_name(previous):
                    return previous
                run_in = FILE_NUMBER_THEN_NAME.search(previous)
                if run_in and _is_name(run_in.group("name")):
                    return run_in.group("name")
            return None
    return None


def _name_after_file_number(texts: list[str]) -> str | None:
    """The name printed right below "Commission File Number 001-37845" on a cover without the registrant
    note (Microsoft's and 3M's: "MICROSOFT CORPORATION", "3M COMPANY")."""
    for i, text in enumerate(texts):
        if FILE_NUMBER.search(text):
            for following in texts[i + 1 : i + 1 + FILE_NUMBER_WINDOW]:
                if _is_name(following) and not NOT_A_NAME_AFTER_FILE_NUMBER.search(following):
                    return following
            return None
    return None


#: A cover line that is a company's name alone: up to six capitalised words ending in a legal form
#: ("Northwind Trading plc", "Siemens AG", "SK hynix Inc.", "Toyota Motor Corporation").
LEGAL_NAME_LINE = re.compile(
    r"^(?:[A-Z0-9&][\w&.,'’-]*\s+|[a-z]{1,3}\s+){1,6}"
    r"(?:Inc\.?|Incorporated|Corporation|Corp\.?|plc|PLC|AG|SE|N\.V\.|S\.A\.|Ltd\.?|Limited|LLC|Co\.,?\s?Ltd\.?)$"
)


def _legal_name(texts: list[str]) -> str | None:
    """The first cover line (or cell of one) that is a company's name ending in its legal form (an annual
    report's cover, which has no registrant note)."""
    for text in texts:
        # a line laid out in cells ("Kestrel Dynamics Korea Co., Ltd. | 케스트럴다이내믹스코리아(주) | March 2025")
        for part in " ".join(text.split()).split(" | "):
            if _is_name(part) and LEGAL_NAME_LINE.match(part):
                return part
    return None


def _korean_legal_name(texts: list[str]) -> str | None:
    """The first Korean name with its legal form on a short cover line (a title, not a sentence of the
    body that mentions another company)."""
    for text in texts:
        text = " ".join(text.split())
        found = KOREAN_LEGAL_NAME.search(text) if len(text) <= NAME_MAX_CHARS else None
        if found:
            return found.group("after") or found.group("before")
    return None


def _group_name(texts: list[str]) -> str | None:
    """The name in the first "<name> AND SUBSIDIARIES" line of the cover pages (a cover whose name is a logo)."""
    for text in texts:
        group = GROUP_TITLE.match(text)
        if group and _is_name(group.group("name")):
            return group.group("name")
    return None


def _ticker(joined: str) -> str | None:
    """The first trading symbol under the cover's "Trading Symbol(s)" heading (the common stock's)."""
    heading = SYMBOL_HEADING.search(joined)
    if heading is None:
        return None
    window = joined[heading.end() : heading.end() + TICKER_WINDOW]
    end = SYMBOLS_END.search(window)
    window = window[: end.start()] if end else window
    letters = [c for c in window if c.isalpha()]
    if not letters or sum(c.isupper() for c in letters) > TICKER_MAX_CAPITALS * len(letters):
        return None
    return next((m.group(1) for m in TICKER.finditer(window) if m.group(1) not in NOT_A_TICKER), None)


def filing_subject(facts: dict[str, str]) -> str:
    """What names the filer in a question: its company name (in both scripts when a bilingual cover prints
    both) and its trading symbol ("JPMorgan Chase & Co. JPM"); a question may use either ("JPM's net revenue")."""
    return " ".join(facts[key] for key in ("company", "company_ko", "ticker") if facts.get(key))


def filing_profile(doc: DoclingDocument) -> dict[str, str]:
    """Cover facts of a filing: ``company``, ``ticker`` (its trading symbol), ``form``, ``period`` (as
    printed), ``fiscal_year``, and a ``profile`` line joining them ("Netflix, Inc. · FORM 10-K · fiscal year
    ended December 31, 2017 · FY2017").
    Empty when the document has no recognisable cover."""
    texts = _cover_texts(doc)
    joined = " \n ".join(texts)
    facts: dict[str, str] = {}
    company = _registrant(texts) or _name_after_file_number(texts) or _group_name(texts)
    korean_company = KOREAN_COMPANY.search(joined)
    if company is None and korean_company:
        company = korean_company.group("name")
    if company is None:
        company = _legal_name(texts)
    korean_name = _korean_legal_name(texts)
    if company is None:
        company = korean_name
    if company:
        facts["company"] = SMALL_CAPS_SPLIT.sub(r"\1", company)
        if korean_name and korean_name not in company:  # a bilingual cover names the filer in both scripts
            facts["company_ko"] = korean_name
    ticker = _ticker(joined)
    if ticker:
        facts["ticker"] = ticker
    form = FORM.search(joined) or KOREAN_FORM.search(joined)
    if form:
        facts["form"] = form.group(1).upper() if form.re is FORM else form.group(1)
    period = PERIOD.search(joined) or PERIOD_DAY_FIRST.search(joined) or REPORT_DATE.search(joined)
    korean_period = KOREAN_PERIOD.search(joined)
    annual_report = ANNUAL_REPORT_YEAR.search(joined)
    if period:
        printed = period.group(0)
        if period.re is PERIOD and period.group("skip"):  # the other column's words are not the period's
            printed = joined[period.start() : period.start("skip")] + joined[period.end("skip") : period.end()]
        facts["period"] = " ".join(printed.split())
        facts["fiscal_year"] = period.group("year")
        quarterly = period.re is not REPORT_DATE and " ".join(period.group("kind").split()).lower() in QUARTER_KINDS
        annual = period.re is not REPORT_DATE and " ".join(period.group("kind").split()).lower().endswith("year") and \
            "half" not in period.group("kind").lower()
        if annual:
            facts["fiscal_year"] = annual_fiscal_year(period.group("month"), period.group("day"), period.group("year"))
        year_end = _fiscal_year_end(doc) if quarterly else None
        if year_end is not None:  # a quarter of a fiscal year that ends mid-year is in the next one
            facts["fiscal_year"] = quarter_fiscal_year(period.group("month"), period.group("day"), period.group("year"),
                                                       year_end)
    elif korean_period:
        facts["period"] = korean_period.group(0)
        facts["fiscal_year"] = korean_period.group("year")
    elif annual_report:
        facts["period"] = " ".join(annual_report.group(0).split())
        facts["fiscal_year"] = annual_report.group("year") or annual_report.group("year_first")
    if not facts:
        return {}
    parts = [facts.get("company"), facts.get("company_ko"), facts.get("ticker"), f"FORM {facts['form']}" if facts.get("form", "").isascii() and "form" in facts
             else facts.get("form"), facts.get("period"), f"FY{facts['fiscal_year']}" if "fiscal_year" in facts else None]
    facts["profile"] = " · ".join(p for p in parts if p)
    return facts
