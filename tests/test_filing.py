"""The filing a document is, read from its own cover page (company, form, period)."""

from __future__ import annotations

from docbuilder import DocBuilder, table_data
from evidence_chunker.units.filing import filing_profile, filing_subject


def _cover(*lines: str) -> DocBuilder:
    """A first page holding ``lines`` from the top down, one line each."""
    b = DocBuilder()
    for n, line in enumerate(lines):
        b.text(line, page=1, top=800 - 20 * n, height=12)
    return b


def test_sec_cover_gives_company_form_and_fiscal_year():
    b = DocBuilder()
    b.text("FORM 10-K", page=1, top=800, height=12)
    b.text("For the fiscal year ended December 31, 2017 OR", page=1, top=780, height=12)
    b.text("Commission File Number: 001-35727", page=1, top=760, height=12)
    b.text("Netflix, Inc.", page=1, top=740, height=12)
    b.text("(Exact name of Registrant as specified in its charter)", page=1, top=725, height=12)
    facts = filing_profile(b.doc)
    assert facts["company"] == "Netflix, Inc." and facts["form"] == "10-K" and facts["fiscal_year"] == "2017"
    assert facts["profile"] == "Netflix, Inc. · FORM 10-K · For the fiscal year ended December 31, 2017 · FY2017"


def test_cover_laid_out_as_a_table_still_names_the_registrant():
    b = DocBuilder()
    b.text("FORM 10-Q", page=1, top=800, height=12)
    b.text("For the quarterly period ended June 30, 2023", page=1, top=780, height=12)
    cover = [["Commission File No. 000-22513", ""], ["AMAZON.COM, INC.", ""],
             ["(Exact name of registrant as specified in its charter)", ""]]
    b.table(table_data(cover, header_rows=0), page=1, top=760, height=60)
    facts = filing_profile(b.doc)
    assert (facts["company"], facts["form"], facts["fiscal_year"]) == ("AMAZON.COM, INC.", "10-Q", "2023")


def test_a_cover_without_the_registrant_note_names_the_company_below_its_file_number():
    # Microsoft's and 3M's covers print the name under the file number and no "(Exact name ...)" note
    b = _cover("FORM 10-K", "For the Fiscal Year Ended June 30, 2023", "Commission File Number 001-37845",
               "MICROSOFT CORPORATION", "WASHINGTON (STATE OF INCORPORATION)")
    assert filing_profile(b.doc)["company"] == "MICROSOFT CORPORATION"


def test_a_name_in_small_capitals_split_by_the_text_layer_is_joined_again():
    # MGM's 2018 cover: each word's first capital stands apart from its small capitals
    b = _cover("FORM 10-K", "For the fiscal year ended December 31, 2018", "MGM R ESORTS I NTERNATIONAL",
               "(Exact name of registrant as specified in its charter)")
    facts = filing_profile(b.doc)
    assert facts["company"] == "MGM RESORTS INTERNATIONAL"
    assert facts["profile"].startswith("MGM RESORTS INTERNATIONAL · FORM 10-K")


def test_a_period_interleaved_with_the_file_number_column_is_read():
    # JPMorgan's 10-Q cover: the text layer runs "Commission file number" into the period line
    b = _cover("FORM 10-Q", "For the quarterly period ended Commission file June 30, 2022 number 1-5805",
               "JPMorgan Chase & Co.", "(Exact name of registrant as specified in its charter)")
    facts = filing_profile(b.doc)
    assert facts["period"] == "For the quarterly period ended June 30, 2022"
    assert facts["fiscal_year"] == "2022"


def test_the_state_line_below_a_file_number_is_not_taken_for_the_name():
    b = _cover("FORM 10-K", "Commission file number 1-3285",
               "State of Incorporation: Delaware I.R.S. Employer Identification No. 41-0417775",
               "Principal executive offices: 3M Center, St. Paul, Minnesota 55144")
    assert "company" not in filing_profile(b.doc)


def test_a_cover_whose_name_is_a_logo_names_the_group_that_heads_the_statements():
    # Coca-Cola's 2017 cover prints its name as an image above the registrant note (and the form's
    # title above it is no name)
    b = _cover("FORM 10-K", "(Exact name of Registrant as specified in its charter)", "Delaware 58-0628465")
    b.text("THE COCA-COLA COMPANY AND SUBSIDIARIES", page=3, top=800, height=12)
    assert filing_profile(b.doc)["company"] == "THE COCA-COLA COMPANY"


def test_korean_business_report_cover():
    b = DocBuilder()
    b.text("사업보고서", page=1, top=800, height=16)
    b.text("(제 55 기)", page=1, top=780, height=12)
    b.text("사업연도 2023년 01월 01일 부터 2023년 12월 31일 까지", page=1, top=760, height=12)
    b.text("회사명 : 삼성전자주식회사", page=1, top=740, height=12)
    facts = filing_profile(b.doc)
    assert (facts["company"], facts["form"], facts["fiscal_year"]) == ("삼성전자주식회사", "사업보고서", "2023")


def test_a_period_printed_day_first_is_read():
    facts = filing_profile(_cover("Annual Report and Accounts", "Northwind Trading plc",
                                  "for the year ended 31 December 2022").doc)
    assert facts["fiscal_year"] == "2022" and facts["period"] == "for the year ended 31 December 2022"
    facts = filing_profile(_cover("Interim report", "for the financial year ended 31st March 2023").doc)
    assert facts["fiscal_year"] == "2023"


def test_an_annual_reports_cover_names_the_company_by_its_legal_name():
    facts = filing_profile(_cover("Annual Report and Accounts", "Northwind Trading plc",
                                  "for the year ended 31 December 2022").doc)
    assert facts["company"] == "Northwind Trading plc"
    assert filing_profile(_cover("Siemens AG", "Annual Report 2023").doc)["company"] == "Siemens AG"
    # a sentence that ends in a legal form is not a name line
    facts = filing_profile(_cover("Annual Report 2023", "The report was audited by the auditors of Siemens AG").doc)
    assert "company" not in facts


def test_an_annual_reports_cover_year_is_its_fiscal_year():
    assert filing_profile(_cover("Northwind Trading", "Annual Report 2023").doc)["fiscal_year"] == "2023"
    assert filing_profile(_cover("2021 Integrated Report", "Northwind Trading").doc)["fiscal_year"] == "2021"
    # a span of years says which fiscal year only by convention; a 10-K's "Annual Report on Form 10-K" none
    assert filing_profile(_cover("Northwind Trading", "Annual Report 2022/23").doc) == {}
    assert filing_profile(_cover("our Annual Report on Form 10-K").doc).get("fiscal_year") is None
    # the period the cover prints, where it prints one, comes first
    facts = filing_profile(_cover("2023 Annual Report", "For the fiscal year ended December 31, 2022").doc)
    assert facts["fiscal_year"] == "2022"


def test_a_document_without_a_cover_has_no_profile():
    b = DocBuilder()
    b.text("Revenue grew in every region.", page=1, top=800)
    assert filing_profile(b.doc) == {}


def _cover_with_symbols(*rows: str):
    return _cover("FORM 10-K", "For the fiscal year ended January 1, 2023",
                  "JOHNSON & JOHNSON (Exact name of registrant as specified in its charter)",
                  "SECURITIES REGISTERED PURSUANT TO SECTION 12(b) OF THE ACT", *rows).doc


def test_cover_gives_the_trading_symbol_and_a_name_on_the_line_of_its_note():
    facts = filing_profile(_cover_with_symbols(
        "Title of each class", "Trading Symbol", "Name of each exchange on which registered",
        "Common Stock, Par Value $1.00", "JNJ", "New York Stock Exchange", "0.650% Notes Due May 2024", "JNJ24C"))
    assert facts["company"] == "JOHNSON & JOHNSON" and facts["ticker"] == "JNJ"
    assert facts["profile"].startswith("JOHNSON & JOHNSON · JNJ · FORM 10-K")
    assert filing_subject(facts) == "JOHNSON & JOHNSON JNJ"


def test_a_cover_in_capitals_throughout_gives_no_symbol():
    facts = filing_profile(_cover_with_symbols(
        "TITLE OF EACH CLASS", "TRADING SYMBOL(S)", "CLASS B COMMON STOCK", "NKE", "NEW YORK STOCK EXCHANGE"))
    assert "ticker" not in facts and filing_subject(facts) == "JOHNSON & JOHNSON"


def test_the_12g_block_after_the_symbols_is_not_read_for_one():
    facts = filing_profile(_cover_with_symbols(
        "Trading Symbol(s)", "SECURITIES REGISTERED PURSUANT TO SECTION 12(G) OF THE ACT: NONE"))
    assert "ticker" not in facts


def _quarterly(period: str, notes: str | None) -> DocBuilder:
    """A 10-Q cover for ``period``, and on page 9 the notes' basis of presentation (``notes``)."""
    b = _cover("FORM 10-Q", f"For the quarterly period ended {period}", "Commission File Number 001-38932",
               "AMCOR PLC", "(Exact name of registrant as specified in its charter)")
    if notes:
        b.text(notes, page=9, top=700, height=40)
    return b


def test_a_quarter_is_in_the_fiscal_year_its_annual_reports_end():
    """A fiscal year that ends on June 30: the quarter ended December 31, 2022 is in fiscal 2023."""
    notes = ("These statements should be read in conjunction with the consolidated financial statements in our "
             "Annual Report on Form 10-K for the fiscal year ended June 30, 2022.")
    facts = filing_profile(_quarterly("December 31, 2022", notes).doc)
    assert facts["fiscal_year"] == "2023"
    assert facts["profile"].endswith("For the quarterly period ended December 31, 2022 · FY2023")
    # the quarter that ends the fiscal year, and a calendar fiscal year, keep the period's year
    assert filing_profile(_quarterly("June 30, 2022", notes).doc)["fiscal_year"] == "2022"
    calendar = notes.replace("June 30, 2022", "December 31, 2022")
    assert filing_profile(_quarterly("June 30, 2023", calendar).doc)["fiscal_year"] == "2023"
    # no fiscal year end named: the calendar year of the quarter's end
    assert filing_profile(_quarterly("December 31, 2022", None).doc)["fiscal_year"] == "2022"


def test_every_corpus_record_names_its_filing_in_metadata_not_in_its_retrieval_text():
    # Fifty filings in one index: a cash flow statement's rows never say whose they are, so each record's
    # metadata carries the cover's line, for a filter; its retrieval text does not (see EvidenceUnit.filing).
    from evidence_chunker import EvidenceChunker
    from evidence_chunker.corpus import chunk_to_record

    b = DocBuilder(pages=3)
    b.text("FORM 10-K", page=1, top=800, height=12)
    b.text("For the fiscal year ended December 31, 2017 OR", page=1, top=780, height=12)
    b.text("Netflix, Inc.", page=1, top=740, height=12)
    b.text("(Exact name of Registrant as specified in its charter)", page=1, top=725, height=12)
    b.text("Streaming revenues grew in every region as paid memberships rose.", page=2, top=800, height=40)
    b.table(table_data([["", "2017", "2016"], ["Revenues", "11,692,713", "8,830,669"]], row_header_cols=1),
            page=3, top=400)
    corpus = EvidenceChunker(parser="lite").build_corpus_parsed(b.parsed(), doc_id="nflx")
    profile = "Netflix, Inc. · FORM 10-K · For the fiscal year ended December 31, 2017 · FY2017"
    kinds = [chunk.metadata["kind"] for chunk in corpus]
    assert kinds.count("table") == 1 and kinds.count("text") >= 1
    for chunk in corpus:
        assert chunk.filing == profile and chunk_to_record(chunk)["metadata"]["filing"] == profile
        assert profile not in chunk.retrieval_text
    # a document without a cover has no filing line
    plain = EvidenceChunker(parser="lite").build_corpus_parsed(_cover("Quarterly letter to partners").parsed(),
                                                               doc_id="letter")
    assert all(chunk.filing is None for chunk in plain)


def test_a_name_run_into_the_file_number_line_is_the_registrant():
    # inpixon's cover: the text layer ends the file-number line with the name; the state follows the note.
    b = _cover("FORM 10-K", "For the fiscal year ended December 31, 2019",
               "For the transition period from ____ to ____ Commission File Number 001-36404 INPIXON",
               "(Exact name of registrant as specified in its charter)", "Nevada", "88-0434915",
               "(State or other jurisdiction of")
    assert filing_profile(b.doc)["company"] == "INPIXON"


def test_a_52_week_year_ending_in_the_first_days_of_january_is_named_for_the_year_before():
    facts = filing_profile(_cover("FORM 10-K", "For the fiscal year ended January 1, 2023", "JOHNSON & JOHNSON",
                                  "(Exact name of registrant as specified in its charter)").doc)
    assert facts["fiscal_year"] == "2022" and facts["profile"].endswith("FY2022")
    # a retailer's year ending late in January is named for the year it ends in
    facts = filing_profile(_cover("FORM 10-K", "For the fiscal year ended January 28, 2017", "BEST BUY CO., INC.",
                                  "(Exact name of registrant as specified in its charter)").doc)
    assert facts["fiscal_year"] == "2017"


def test_a_korean_cover_without_a_company_line_names_the_company_by_its_legal_form():
    facts = filing_profile(_cover("기업신용평가 보고서", "은가람캐피탈㈜ 제 214-1회 무보증 공모사채 외", "평가일 2025.11.20").doc)
    assert facts["company"] == "은가람캐피탈"
    assert filing_profile(_cover("신용평가 보고서", "(주)한빛소재 제 3회 무보증사채").doc)["company"] == "한빛소재"
    assert filing_profile(_cover("신용평가 보고서", "주식회사 한빛소재").doc)["company"] == "한빛소재"


def test_a_bilingual_cover_line_in_cells_names_the_company_by_its_english_legal_name():
    facts = filing_profile(_cover("FY2024 Results Brief / 2024년 실적 브리프",
                                  "Kestrel Dynamics Korea Co., Ltd. | 케스트럴다이내믹스코리아(주) | March 2025").doc)
    assert facts["company"] == "Kestrel Dynamics Korea Co., Ltd."
    assert filing_subject(facts) == "Kestrel Dynamics Korea Co., Ltd. 케스트럴다이내믹스코리아"
