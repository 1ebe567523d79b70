"""The semantic-json-transport/context/v1 payload: shape, schema, parsing back, text view, PDF provenance."""

from __future__ import annotations

import json

import pytest
from sj_support import KOREAN_NEIGHBOURS_TEXT, QUICKSTART_TEXT

from semantic_json import TRANSPORT_SCHEMA_ID, SearchResult, SemanticRepository, compile, errors
from semantic_json.json_schemas import validate_transport

QUERY = "B기업의 중장기 채무상환능력은 어떤가?"
PDF_SHA = "ab" * 32


@pytest.fixture(scope="module")
def result() -> SearchResult:
    repo = SemanticRepository()
    repo.add(compile(QUICKSTART_TEXT, "company_b", source_uri="file:///credit/company_b.txt"))
    repo.add(compile(KOREAN_NEIGHBOURS_TEXT, "credit"))
    return repo.search(QUERY)


def test_transport_has_exactly_the_spec_keys(result: SearchResult) -> None:
    payload = result.to_dict()
    assert list(payload) == ["schema", "query", "region_count", "document_count", "documents"]
    assert payload["schema"] == TRANSPORT_SCHEMA_ID == "semantic-json-transport/context/v1"
    assert payload["query"] == QUERY
    assert payload["region_count"] == len(result) == 2
    assert payload["document_count"] == 2
    document = next(d for d in payload["documents"] if d["document_id"] == "company_b")
    assert list(document) == ["document_id", "source_uri", "document_sha256", "regions"]
    assert document["source_uri"] == "file:///credit/company_b.txt"
    region = document["regions"][0]
    assert list(region) == ["region_id", "citation_id", "score", "entities", "source", "anchors", "text"]
    assert list(region["source"]) == [
        "document_id", "uri", "start_char", "end_char", "start_line", "end_line", "document_sha256",
    ]
    assert region["region_id"] == "company_b:R1"
    assert region["entities"] == ["B_CORP"]
    assert region["anchors"] == ["P1", "P2"]
    assert (region["source"]["start_line"], region["source"]["end_line"]) == (2, 4)
    assert QUICKSTART_TEXT[region["source"]["start_char"] : region["source"]["end_char"]] == region["text"]


def test_transport_validates_against_shipped_schema(result: SearchResult) -> None:
    validate_transport(result.to_dict())
    validate_transport(json.loads(result.to_json()))


def test_schema_rejects_a_transport_with_a_wrong_schema_id(result: SearchResult) -> None:
    payload = result.to_dict()
    payload["schema"] = "semantic-json-transport/context/v0"
    with pytest.raises(errors.SchemaValidationError):
        validate_transport(payload)


def test_to_json_keeps_korean_text_readable(result: SearchResult) -> None:
    text = result.to_json()
    assert "B기업은" in text and text.startswith('{\n  "schema"')


def test_from_json_parses_the_transport_back(result: SearchResult) -> None:
    again = SearchResult.from_json(result.to_json())
    assert again == result
    assert [r.region_id for r in again] == [r.region_id for r in result]
    assert again[0].document_id == result[0].document_id and again[0].start_char == result[0].start_char
    assert SearchResult.from_json(result.to_dict()).to_json() == result.to_json()


@pytest.mark.parametrize(
    "payload",
    ["not json", "[]", '{"schema": "semantic-json-transport/context/v1"}'],
)
def test_from_json_rejects_what_is_not_a_v1_transport(payload: str) -> None:
    with pytest.raises(errors.TransportFormatError):
        SearchResult.from_json(payload)


def test_from_json_rejects_wrong_counts(result: SearchResult) -> None:
    payload = result.to_dict()
    payload["region_count"] = 7
    with pytest.raises(errors.TransportFormatError, match="7 regions"):
        SearchResult.from_json(payload)


def test_text_view_shows_coordinates_score_anchors_entities_and_text(result: SearchResult) -> None:
    view = result.to_text()
    assert f"Query: {QUERY}" in view
    assert "=== Document company_b <file:///credit/company_b.txt>" in view
    company_b = next(region for region in result if region.document_id == "company_b")
    assert f"--- company_b@c1-90.{company_b.document_sha256[:8]} | score " in view and "lines 2-4, chars 1-90" in view
    assert "anchors: P1, P2 | entities: B_CORP" in view
    assert result[0].text in view


def test_build_context_is_the_text_view(result: SearchResult) -> None:
    assert SemanticRepository().build_context(result) == result.to_text()


def _pdf_document():
    text = (
        "B기업은 원리금을 정상적으로 상환하고 있다.\n\n"
        "표 3. B기업 차입금 현황\n"
        "구분 | 2022 | 2023\n"
        "단기차입금 | 100 | 140\n"
        "장기차입금 | 300 | 280\n"
    )
    table_start = text.index("표 3.")
    segments = [
        {
            "start_char": 0,
            "end_char": table_start - 2,
            "chunk_id": "rep-p1-0",
            "kind": "text",
            "page_span": [1],
            "boxes": [{"page": 1, "bbox": [50.0, 700.0, 550.0, 680.0], "coord_origin": "BOTTOMLEFT", "unit": "points"}],
            "pdf_sha256": PDF_SHA,
        },
        {
            "start_char": table_start,
            "end_char": len(text),
            "chunk_id": "rep-p2-1",
            "kind": "table",
            "page_span": [2],
            "boxes": [{"page": 2, "bbox": [40.0, 600.0, 560.0, 400.0], "coord_origin": "BOTTOMLEFT", "unit": "points"}],
            "pdf_sha256": PDF_SHA,
        },
    ]
    return compile(text, "rep", source_uri="file:///rep.pdf", segments=segments)


def test_segment_provenance_appears_in_transport_source() -> None:
    repo = SemanticRepository()
    repo.add(_pdf_document())
    result = repo.search("B기업 장기차입금")
    table = next(r for r in result if "장기차입금 | 300 | 280" in r.text)
    assert table.text.startswith("표 3. B기업 차입금 현황\n구분 | 2022 | 2023")
    source = table.to_dict()["source"]
    assert source["pages"] == [2] and table.pages == [2]
    assert source["chunk_ids"] == ["rep-p2-1"]
    assert source["kind"] == "table"
    assert source["pdf_sha256"] == PDF_SHA
    assert source["boxes"] == [
        {"page": 2, "bbox": [40.0, 600.0, 560.0, 400.0], "coord_origin": "BOTTOMLEFT", "unit": "points", "chunk_id": "rep-p2-1"}
    ]
    validate_transport(result.to_dict())
    assert "pages 2" in result.to_text()
    assert SearchResult.from_json(result.to_json()) == result


def test_regions_never_cross_into_another_segment() -> None:
    repo = SemanticRepository()
    repo.add(_pdf_document())
    for region in repo.search("B기업 원리금 상환 차입금"):
        assert region.source.chunk_ids is not None and len(region.source.chunk_ids) == 1


def test_plain_text_regions_have_no_pdf_keys(result: SearchResult) -> None:
    source = result.to_dict()["documents"][0]["regions"][0]["source"]
    assert not {"pages", "boxes", "chunk_ids", "kind", "pdf_sha256"} & set(source)
    assert result[0].pages is None


def test_caption_in_its_own_segment_joins_the_table_region() -> None:
    caption = "<표 4> B기업 신용등급 추이"
    table = "연도 | 등급\n2022 | BBB\n2023 | BBB-"
    text = f"{caption}\n{table}\n"
    segments = [
        {"start_char": 0, "end_char": len(caption), "chunk_id": "p3-cap", "kind": "text", "page_span": [3]},
        {"start_char": len(caption) + 1, "end_char": len(text), "chunk_id": "p3-tab", "kind": "table", "page_span": [3]},
    ]
    repo = SemanticRepository()
    repo.add(compile(text, "cap", segments=segments))
    region = repo.search("B기업 신용등급 2023")[0]
    assert region.text == text.rstrip("\n")
    assert region.source.chunk_ids == ["p3-cap", "p3-tab"]
    assert region.source.kind == "mixed" and region.pages == [3]


def _lead_in_document(lead_in: str, rows: int) -> tuple[str, list[dict]]:
    """A paragraph ending in `lead_in`, then a table of `rows` payment rows in a segment of its own."""
    paragraph = f"Estimated future benefit payments. {lead_in}"
    table = "\n".join(["Year | Pension Benefits | Health Care"]
                      + [f"{2022 + k} | {1000 + k:,} | {800 + k}" for k in range(rows)])
    text = f"{paragraph}\n\n{table}\n\nThe Company expects no contributions to its qualified plans."
    segments = [
        {"start_char": 0, "end_char": len(paragraph), "chunk_id": "p94-t1", "kind": "text", "page_span": [94]},
        {"start_char": len(paragraph) + 2, "end_char": len(paragraph) + 2 + len(table), "chunk_id": "p94-eu1",
         "kind": "table", "page_span": [94]},
        {"start_char": len(paragraph) + 4 + len(table), "end_char": len(text), "chunk_id": "p94-t2", "kind": "text",
         "page_span": [94]},
    ]
    return text, segments


QUERY_RETIREES = "how much is expected to be paid to retirees as benefit payments"


@pytest.mark.parametrize("lead_in", [
    "The benefit payments to retirees are expected to be paid as follows:",
    "The benefit payments to retirees are set out below.",
])
def test_a_lead_in_sentence_takes_the_table_it_announces(lead_in: str) -> None:
    text, segments = _lead_in_document(lead_in, rows=3)
    repo = SemanticRepository()
    repo.add(compile(text, "benefits", segments=segments))
    region = repo.search(QUERY_RETIREES)[0]
    assert region.text.startswith("Estimated future benefit payments.")
    assert region.text.endswith("2024 | 1,002 | 802")  # the whole table, not the paragraph after it
    assert region.source.chunk_ids == ["p94-t1", "p94-eu1"] and region.source.kind == "mixed"


def test_a_reopened_index_file_takes_the_announced_table_too(tmp_path) -> None:
    text, segments = _lead_in_document("The benefit payments to retirees are expected to be paid as follows:", rows=3)
    repo = SemanticRepository.open(tmp_path / "index.sqlite")
    repo.add(compile(text, "benefits", segments=segments))
    repo.close()
    reopened = SemanticRepository.open(tmp_path / "index.sqlite", read_only=True)
    region = reopened.search(QUERY_RETIREES)[0]
    assert region.text.endswith("2024 | 1,002 | 802") and region.source.chunk_ids == ["p94-t1", "p94-eu1"]


def test_a_sentence_that_announces_nothing_keeps_to_itself() -> None:
    text, segments = _lead_in_document("The benefit payments to retirees are paid from plan assets.", rows=3)
    repo = SemanticRepository()
    repo.add(compile(text, "benefits", segments=segments))
    region = repo.search(QUERY_RETIREES)[0]
    assert region.text == text[: segments[0]["end_char"]]


def test_a_lead_in_leaves_a_table_too_long_to_take_whole() -> None:
    text, segments = _lead_in_document("The benefit payments to retirees are expected to be paid as follows:", rows=200)
    repo = SemanticRepository()
    repo.add(compile(text, "benefits", segments=segments))
    region = next(r for r in repo.search(QUERY_RETIREES) if r.text.startswith("Estimated"))
    assert region.text == text[: segments[0]["end_char"]]


def _lead_in_block_document(lead_in: str) -> tuple[str, list[dict]]:
    """A paragraph, a lead-in paragraph of its own, then a table: how 10-Ks introduce a note's table."""
    paragraph = ("We enter into derivative transactions to manage our exposure to fluctuations in foreign "
                 "currency exchange rates and interest rates. We do not hold derivatives for trading purposes.")
    table = "\n".join(["At December 31, | 2021 | 2020", "Interest rate swaps | 19,779 | 17,768",
                       "Cross currency swaps | 32,502 | 26,288"])
    text = f"{paragraph}\n\n{lead_in}\n\n{table}"
    lead_at = len(paragraph) + 2
    table_at = lead_at + len(lead_in) + 2
    segments = [
        {"start_char": 0, "end_char": len(paragraph), "chunk_id": "p85-t1", "kind": "text", "page_span": [85]},
        {"start_char": lead_at, "end_char": lead_at + len(lead_in), "chunk_id": "p85-t2", "kind": "text",
         "page_span": [85]},
        {"start_char": table_at, "end_char": len(text), "chunk_id": "p85-eu1", "kind": "table", "page_span": [85]},
    ]
    return text, segments


QUERY_HEDGES = "which derivative transactions manage exposure to foreign currency exchange rates and interest rates"


def test_a_lead_in_block_between_a_paragraph_and_its_table_brings_the_table() -> None:
    text, segments = _lead_in_block_document("The following table sets forth the amounts of our outstanding instruments:")
    repo = SemanticRepository()
    repo.add(compile(text, "hedges", segments=segments))
    region = repo.search(QUERY_HEDGES)[0]
    assert region.text.startswith("We enter into derivative transactions")
    assert region.text.endswith("Cross currency swaps | 32,502 | 26,288")
    assert region.source.chunk_ids == ["p85-t1", "p85-t2", "p85-eu1"]


def test_a_paragraph_between_a_region_and_a_table_that_announces_nothing_keeps_them_apart() -> None:
    text, segments = _lead_in_block_document("Our counterparties are banks with high credit ratings.")
    repo = SemanticRepository()
    repo.add(compile(text, "hedges", segments=segments))
    region = repo.search(QUERY_HEDGES)[0]
    assert region.text == text[: segments[0]["end_char"]]


def _long_table_document(filler_rows: int = 60, second_caption: str = "Consolidated Statements of Cash Flows",
                         between: str = "") -> tuple[str, list[dict]]:
    """A cash-flow statement in two parts, each under the caption (how a long table is split row-wise),
    then a paragraph on operating cash. The first part's last row and the second part's first row hold
    the two line items a free-cash-flow question asks for, ``filler_rows`` rows of other items apart."""
    caption = "Consolidated Statements of Cash Flows"
    filler = [f"Other operating item {k} | {100 + k} | {90 + k}" for k in range(filler_rows)]
    first = "\n".join([caption, "Fiscal year | 2023 | 2022", *filler, "Net cash provided by operating activities | 4,296 | 3,317"])
    second = "\n".join([second_caption, "Purchases of land, buildings and equipment | (774) | (568)", *filler])
    closing = "Net cash provided by operating activities rose on higher earnings."
    parts = [first] + ([between] if between else []) + [second, closing]
    text = "\n\n".join(parts)
    segments, at = [], 0
    kinds = ["table"] + (["text"] if between else []) + ["table", "text"]
    for index, (part, kind) in enumerate(zip(parts, kinds)):
        segments.append({"start_char": at, "end_char": at + len(part), "chunk_id": f"p52-{index}", "kind": kind,
                         "page_span": [52]})
        at += len(part) + 2
    return text, segments


QUERY_CASH = "net cash provided by operating activities and purchases of land, buildings and equipment"


def test_rows_asked_for_in_two_parts_of_a_table_come_back_as_one_region() -> None:
    text, segments = _long_table_document(filler_rows=2)
    repo = SemanticRepository()
    repo.add(compile(text, "cashflow", segments=segments))
    regions = repo.search(QUERY_CASH)
    assert [r.source.chunk_ids for r in regions] == [["p52-0", "p52-1"], ["p52-2"]]
    assert regions[0].text == text[: segments[1]["end_char"]]  # both parts, as the table would be taken whole


def _store_table_document(second_kind: str = "Store") -> tuple[str, list[dict]]:
    """A store list in two parts under one caption (a long table split row-wise): Haeundae's row in the
    first, Ilsan's in the second, 60 other stores in each (of ``second_kind`` in the second); then a
    paragraph on net sales."""
    caption = "Net sales by store"

    def rows(first: int, kind: str) -> list[str]:
        return [f"{kind} {k} net sales | {1000 + k} | {900 + k}" for k in range(first, first + 60)]

    first = "\n".join([caption, "Store | 2025 | 2024", "Haeundae store net sales | 2,221 | 2,277", *rows(0, "Store")])
    second = "\n".join([caption, *rows(60, second_kind), "Ilsan store net sales | 944 | 979"])
    closing = "Net sales of the stores rose in 2025 on new openings."
    return _segments_of([(first, "table"), (second, "table"), (closing, "text")], 52)


def test_another_part_of_a_long_table_gives_its_place_to_other_evidence() -> None:
    text, segments = _store_table_document()
    repo = SemanticRepository()
    repo.add(compile(text, "stores", segments=segments))
    query = "Haeundae store net sales in 2025"
    # the second part matches nothing the first does not print: it is the table again, so the paragraph
    # takes the second place, and the part ranks after it
    assert [r.source.chunk_ids for r in repo.search(query, k=2)] == [["p52-0"], ["p52-2"]]
    three = repo.search(query, k=3)
    assert [r.source.chunk_ids for r in three] == [["p52-0"], ["p52-2"], ["p52-1"]]
    assert [r.score for r in three] == sorted((r.score for r in three), reverse=True)


def test_a_part_that_prints_another_thing_asked_for_keeps_its_place() -> None:
    text, segments = _store_table_document()
    repo = SemanticRepository()
    repo.add(compile(text, "stores", segments=segments))
    # two stores compared: the second part holds the other one, so it comes before the paragraph
    found = [r.source.chunk_ids for r in repo.search("Haeundae and Ilsan store net sales in 2025", k=3)]
    assert found[:2] in ([["p52-0"], ["p52-1"]], [["p52-1"], ["p52-0"]])


def test_a_word_printed_on_every_row_of_a_part_is_no_reason_to_keep_it() -> None:
    from semantic_json.rules.textnorm import normalized_terms
    from semantic_json.search.regions import NAME_MAX_PRINTS, RegionDraft, _asks_more

    text, segments = _store_table_document(second_kind="Outlet")
    doc = compile(text, "stores", segments=segments)

    def part(word: str) -> RegionDraft:
        position = next(p for p, u in enumerate(doc.units) if u.text.startswith(word))
        return RegionDraft(position, position, {position: 0.5}, frozenset(), doc.units[position].segment, is_table=True)

    kept = [part("Haeundae")]
    # "Outlet" is new beside Haeundae's part but printed on 60 rows: no row the question picks out
    assert text.count("Outlet") > NAME_MAX_PRINTS
    assert not _asks_more(doc, part("Outlet 61"), kept, frozenset(normalized_terms("Haeundae outlet net sales")))
    # "Ilsan" is printed once: the second of two stores the question compares
    assert _asks_more(doc, part("Ilsan"), kept, frozenset(normalized_terms("Haeundae and Ilsan net sales")))


def test_the_first_regions_are_the_same_whatever_k_is() -> None:
    text, segments = _store_table_document()
    repo = SemanticRepository()
    repo.add(compile(text, "stores", segments=segments))
    for query in ("Haeundae store net sales in 2025", "Haeundae and Ilsan store net sales in 2025"):
        ids = [r.source.chunk_ids for r in repo.search(query, k=3)]
        assert [r.source.chunk_ids for r in repo.search(query, k=2)] == ids[:2]


def test_a_reopened_index_file_knows_the_parts_of_a_long_table(tmp_path) -> None:
    text, segments = _store_table_document()
    repo = SemanticRepository.open(tmp_path / "index.sqlite")
    repo.add(compile(text, "stores", segments=segments))
    repo.close()
    reopened = SemanticRepository.open(tmp_path / "index.sqlite", read_only=True)
    assert [r.source.chunk_ids for r in reopened.search("Haeundae store net sales in 2025", k=2)] == [["p52-0"], ["p52-2"]]


@pytest.mark.parametrize("second_caption, between", [
    ("Consolidated Balance Sheets", ""),  # another table
    ("Consolidated Statements of Cash Flows", "Investing activities are discussed under Liquidity."),
])
def test_tables_that_are_not_parts_of_one_each_keep_their_place(second_caption: str, between: str) -> None:
    text, segments = _long_table_document(second_caption=second_caption, between=between)
    repo = SemanticRepository()
    repo.add(compile(text, "cashflow", segments=segments))
    tables = [s["chunk_id"] for s in segments if s["kind"] == "table"]
    assert [r.source.chunk_ids for r in repo.search(QUERY_CASH, k=2)] == [[tables[1]], [tables[0]]]


def _segments_of(parts: list[tuple[str, str]], page: int) -> tuple[str, list[dict]]:
    """One document of ``parts`` ((text, segment kind), in order, a blank line apart), all on ``page``."""
    segments, at = [], 0
    for n, (part, kind) in enumerate(parts):
        segments.append({"start_char": at, "end_char": at + len(part), "chunk_id": f"p{page}-{n}", "kind": kind,
                         "page_span": [page]})
        at += len(part) + 2
    return "\n\n".join(part for part, _ in parts), segments


@pytest.mark.parametrize("page_number", [None, "57", "F-12"])
@pytest.mark.parametrize("stored", [False, True])
def test_a_lead_in_takes_its_table_over_a_short_heading_between_them(page_number: str | None, stored: bool,
                                                                     tmp_path) -> None:
    """The parser may read a table's column labels as a heading of their own, between lead-in and rows; and
    the previous page's number, when the page broke after the lead-in."""
    parts = [
        ("At the end of fiscal years 2022 and 2021, inventories were comprised of:", "text"),
        ("(Dollars in Millions) 2022 2021", "heading"),
        ("3. Inventories · (Dollars in Millions)\nRaw materials and supplies | $ 2,070; 1,592\n"
         "Goods in process | 1,700; 2,075\nFinished goods | 4,497; 4,538", "table"),
        ("4. Property, Plant and Equipment", "heading"),
    ]
    if page_number:
        parts.insert(1, (page_number, "text"))
    text, segments = _segments_of(parts, 58)
    repo = SemanticRepository.open(tmp_path / "index.sqlite") if stored else SemanticRepository()
    repo.add(compile(text, "inventories", segments=segments))
    if stored:
        repo.close()
        repo = SemanticRepository.open(tmp_path / "index.sqlite", read_only=True)
    region = repo.search("what were inventories comprised of at the end of fiscal 2022")[0]
    assert region.source.chunk_ids == [f"p58-{n}" for n in range(len(parts) - 1)]
    assert region.text.endswith("Finished goods | 4,497; 4,538")


def _list_document(after: str) -> tuple[str, list[dict]]:
    """A lead-in, three list items (each a paragraph of its own, as the parser gives them), then ``after``."""
    return _segments_of([
        ("Other income—net increased $6.1 billion, mainly due to:", "text"),
        ("- net periodic benefit credits recorded in 2021 versus costs in 2020;", "text"),
        ("- lower asset impairment charges;", "text"),
        ("- higher net gains on equity securities.", "text"),
        (after, "text"),
    ], 44)


QUERY_OTHER_INCOME = "why did other income net increase"


@pytest.mark.parametrize("after", [
    "Research and development expenses rose on higher spending.",  # not a list item
    "- In 2020, other income decreased, mainly due to:",  # another lead-in: another list
])
@pytest.mark.parametrize("stored", [False, True])
def test_a_lead_in_takes_the_list_it_announces_and_stops_where_the_list_ends(after: str, stored: bool,
                                                                            tmp_path) -> None:
    text, segments = _list_document(after)
    repo = SemanticRepository.open(tmp_path / "index.sqlite") if stored else SemanticRepository()
    repo.add(compile(text, "pfizer", segments=segments))
    if stored:  # a reopened file reads the lead-in flags from the stored layout
        repo.close()
        repo = SemanticRepository.open(tmp_path / "index.sqlite", read_only=True)
    region = repo.search(QUERY_OTHER_INCOME)[0]
    assert region.text.startswith("Other income—net increased $6.1 billion, mainly due to:")
    assert region.text.endswith("- higher net gains on equity securities.")
    assert region.source.chunk_ids == ["p44-0", "p44-1", "p44-2", "p44-3"]


@pytest.mark.parametrize("text, page_number", [
    ("86", True), ("- 12 -", True), ("F-7", True), ("Page 3 of 9", True), ("xii", True),
    ("Revenue", False), ("12,345", False), ("(1)", False), ("mix", False), ("Item 7", False), ("", False),
])
def test_a_page_number_alone_is_page_furniture(text: str, page_number: bool) -> None:
    from semantic_json.rules.patterns import is_page_number

    assert is_page_number(text) is page_number
