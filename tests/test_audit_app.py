"""`sjt serve`'s routes through Starlette's TestClient, on an index built from sample_pdfs."""

from __future__ import annotations

import io
import json
import re
import shutil
from html import unescape
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pdfplumber
import pytest

from evidence_chunker.cli import main as sjt
from repo_paths import SAMPLE_PDFS

pytest.importorskip("starlette", reason="the `serve` extra is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (dev extra)")
from PIL import Image  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from evidence_chunker.serve.audit.app import SECURITY_HEADERS, create_app  # noqa: E402
from evidence_chunker.serve.audit.rows import NOTE_NO_FIGURE, NOTE_NO_ROW, ROW_PADDING_PT  # noqa: E402
from evidence_chunker.serve.audit.rows import PrintedLine, cited_rows  # noqa: E402
from evidence_chunker.serve.render import BOX_COLOUR  # noqa: E402

KOREAN_QUESTION = "B기업의 중장기 채무상환능력은 어떤가?"
ENGLISH_QUESTION = "What was Kestrel Dynamics' operating income in 2024?"
OPERATING_INCOME = "Kestrel Dynamics' operating income was USD 1,938 million in 2024."
SCRIPT = "<script>alert('x')</script>"


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("audit")
    pdfs = root / "pdfs"
    shutil.copytree(SAMPLE_PDFS, pdfs, ignore=shutil.ignore_patterns("*.py", "*.md", "fonts"))
    path = root / "index.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(path), "--parser", "lite", "--no-progress"]) == 0
    return path


@pytest.fixture(scope="module")
def client(index):
    with TestClient(create_app(index, allowed_hosts=["testserver"])) as c:
        yield c


def transport_of(client, query: str, k: int = 2) -> dict:
    page = client.get("/search", params={"q": query, "k": k})
    assert page.status_code == 200
    text = re.search(r'<textarea name="transport"[^>]*>(.*?)</textarea>', page.text, re.S).group(1)
    return json.loads(unescape(text))


def regions_of(transport: dict) -> list[dict]:
    return [region for document in transport["documents"] for region in document["regions"]]


def answer_badge(client, transport: dict, sentence: str, region: dict) -> tuple[str, str]:
    """The href and caption of the one badge of an answer whose one statement cites ``region``."""
    answer = {"statements": [{"sentence": sentence, "citation_ids": [region["citation_id"]]}]}
    page = client.post("/answer", data={"answer": json.dumps(answer, ensure_ascii=False),
                                        "transport": json.dumps(transport)})
    assert "1 of 1 statement(s) accepted" in page.text
    href, caption = re.search(r'<a class="badge cite ok" href="([^"]+)" data-caption="([^"]+)"', page.text).groups()
    return unescape(href), unescape(caption)


def boxes_in(url: str) -> list[tuple[int, list[float]]]:
    """The (page, [l, t, r, b]) boxes a page-image URL asks for."""
    boxes = []
    for value in parse_qs(urlsplit(url).query)["box"]:
        page, coords = value.split(":")
        boxes.append((int(page), [float(v) for v in coords.split(",")]))
    return boxes


def red_pixels(png: bytes) -> int:
    pixels = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))
    return int(np.all(pixels == np.array(BOX_COLOUR, dtype=pixels.dtype), axis=-1).sum())


def test_home_lists_the_documents_and_sends_security_headers(client):
    page = client.get("/")
    assert page.status_code == 200
    for name in ("annual_report_en", "credit_review_ko", "mixed_brief"):
        assert f"<code>{name}</code>" in page.text
    for header, value in SECURITY_HEADERS.items():
        assert page.headers[header] == value


def test_korean_search_shows_regions_with_score_pages_and_verification(client):
    page = client.get("/search", params={"q": KOREAN_QUESTION, "k": 2})
    assert page.status_code == 200
    assert re.search(r'id="region-credit_review_ko@c\d+-\d+\.[0-9a-f]{8}"', page.text)
    assert "B기업은 현재까지 원리금을 정상적으로 상환하고 있다." in page.text
    assert "2 region(s), 2 verified" in page.text
    assert re.search(r"score [01]\.\d{3} · pages 2", page.text)
    image_url = unescape(re.search(r'class="badge show" href="([^"]+)"', page.text).group(1))
    assert image_url.startswith("/page.png?doc=credit_review_ko&page=2&box=2%3A")
    image = client.get(image_url)
    assert image.status_code == 200 and image.headers["content-type"] == "image/png"
    assert red_pixels(image.content) > 100  # the region's box outline is drawn


def test_cited_answer_gets_a_badge_per_citation_and_rejections_say_why(client):
    transport = transport_of(client, KOREAN_QUESTION)
    answer = {"statements": [
        {"sentence": "B기업은 현재까지 원리금을 정상적으로 상환하고 있다.", "citation_ids": ["credit_review_ko:R1"]},
        {"sentence": "B기업의 신용등급은 AA이다.", "citation_ids": []},
        {"sentence": "A기업은 부담이 크지 않다.", "citation_ids": ["credit_review_ko:R9"]},
    ]}
    page = client.post("/answer", data={"answer": json.dumps(answer, ensure_ascii=False),
                                        "transport": json.dumps(transport)})
    assert page.status_code == 200
    assert "1 of 3 statement(s) accepted, 2 rejected" in page.text
    badges = re.findall(r'<a class="badge cite ok" href="([^"]+)"[^>]*>\[(\d)\]</a>', page.text)
    assert [number for _, number in badges] == ["1"]
    assert client.get(unescape(badges[0][0])).status_code == 200
    assert "rejected (unsupported)" in page.text and "rejected (invalid_citation)" in page.text
    assert 'title="not in the transport">credit_review_ko:R9?</span>' in page.text


def test_a_check_answer_report_is_accepted_as_the_answer(client, tmp_path, index, capsys):
    result = tmp_path / "result.json"
    assert sjt(["search", "--index", str(index), KOREAN_QUESTION, "-k", "2", "-o", str(result)]) == 0
    answer = tmp_path / "answer.json"
    answer.write_text(json.dumps({"statements": [
        {"sentence": "B기업은 원리금을 정상 상환하고 있다.", "citation_ids": ["credit_review_ko:R1"]}]}), encoding="utf-8")
    capsys.readouterr()
    sjt(["check-answer", "--result", str(result), str(answer), "--format", "json"])
    report = capsys.readouterr().out
    # No transport pasted: the page takes the result `sjt search` kept in the index.
    page = client.post("/answer", data={"answer": report, "transport": ""})
    assert page.status_code == 200, page.text
    assert "1 of 1 statement(s) accepted" in page.text
    assert re.search(r'<a class="badge cite ok" href="/page\.png\?doc=credit_review_ko[^"]*"', page.text)


@pytest.mark.parametrize("url", [
    "/page.png?doc=../../../../etc/passwd&page=1",
    "/page.png?doc=%2Fetc%2Fpasswd&page=1",
    "/page.png?doc=credit_review_ko/../../pyproject&page=1",
    "/static/../../../pyproject.toml",
    "/static/%2e%2e/%2e%2e/%2e%2e/pyproject.toml",
    "/static/..%2F..%2F..%2Fpyproject.toml",
])
def test_path_traversal_is_refused(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert b"[project]" not in response.content and b"root:" not in response.content


@pytest.mark.parametrize("url, why", [
    ("/page.png?doc=credit_review_ko&page=99", "page 99 does not exist"),
    ("/page.png?doc=credit_review_ko&page=x", "page must be a whole number"),
    ("/page.png?doc=credit_review_ko&box=2:1,2,3", "four finite numbers"),
    ("/page.png?doc=credit_review_ko&box=2:nan,1,2,3", "four finite numbers"),
    ("/page.png?doc=credit_review_ko", "ask for 1 to"),
])
def test_bad_page_image_requests_say_why(client, url, why):
    response = client.get(url)
    assert response.status_code == 400
    assert why in response.text


def test_script_in_a_query_is_escaped(client):
    page = client.get("/search", params={"q": SCRIPT + " revenue"})
    assert page.status_code == 200
    assert SCRIPT not in page.text
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page.text
    page = client.get("/search", params={"q": SCRIPT, "k": "not-a-number"})
    assert page.status_code == 400 and SCRIPT not in page.text


def test_script_in_an_answer_and_a_transport_is_escaped(client):
    transport = transport_of(client, "operating income 2024", k=1)
    region = transport["documents"][0]["regions"][0]
    injected = '"><img src=x onerror=alert(1)>'
    answer = {"statements": [
        {"sentence": SCRIPT + " Operating income rose.", "citation_ids": [region["region_id"]]},
        {"sentence": "x", "citation_ids": [injected]},
    ]}
    page = client.post("/answer", data={"answer": json.dumps(answer), "transport": json.dumps(transport)})
    assert page.status_code == 200
    assert SCRIPT not in page.text and "<img src=x" not in page.text
    assert "&lt;script&gt;" in page.text and "&lt;img src=x onerror=alert(1)&gt;" in page.text
    # Not JSON at all: the error page shows the pasted text back, escaped.
    page = client.post("/answer", data={"answer": SCRIPT, "transport": ""})
    assert page.status_code == 400 and SCRIPT not in page.text and "answer: not JSON" in page.text


def test_bad_answers_and_transports_say_why(client):
    page = client.post("/answer", data={"answer": '{"statements": "x"}', "transport": ""})
    assert page.status_code == 400 and "statements: expected an array" in unescape(page.text)
    page = client.post("/answer", data={"answer": '{"statements": []}', "transport": '{"schema": "nope"}'})
    assert page.status_code == 400 and "not a semantic-json-transport result" in page.text
    page = client.post("/answer", data={"answer": "", "transport": ""})
    assert page.status_code == 400 and "paste a cited answer" in page.text


def test_search_argument_errors(client):
    assert "the question is empty" in client.get("/search", params={"q": " "}).text
    page = client.get("/search", params={"q": "revenue", "k": "500"})
    assert page.status_code == 400 and "k must be between 1 and 50" in page.text


def test_an_unexpected_host_is_refused(index):
    with TestClient(create_app(index)) as c:  # default hosts: 127.0.0.1 and localhost only
        assert c.get("/").status_code == 400
        assert c.get("/", headers={"host": "127.0.0.1:8765"}).status_code == 200


def test_serve_refuses_a_missing_index(tmp_path, capsys):
    assert sjt(["serve", "--index", str(tmp_path / "none.sqlite")]) == 2
    assert "none.sqlite: index file not found" in capsys.readouterr().err


def test_a_filtered_search_shows_only_the_documents_it_admits_and_names_a_bad_filter(client):
    page = client.get("/search", params={"q": "revenue", "k": 5, "where": "documents=annual_report_en; kind=table"})
    assert page.status_code == 200 and "annual_report_en" in page.text
    assert "credit_review_ko:R" not in page.text and "mixed_brief:R" not in page.text
    bad = client.get("/search", params={"q": "revenue", "where": "colour=red"})
    assert bad.status_code == 400 and "unknown filter field" in bad.text


def test_an_accepted_statement_boxes_the_row_its_figure_came_from(client, index):
    transport = transport_of(client, ENGLISH_QUESTION, k=5)
    region = next(r for r in regions_of(transport) if r["text"].startswith("Table 1: Consolidated Statement of Income"))
    href, caption = answer_badge(client, transport, OPERATING_INCOME, region)
    assert caption.endswith(" · row: Operating income (1,938)")
    [(page_no, row)] = boxes_in(href)
    l, t, r, b = row
    region_box = next(box["bbox"] for box in region["source"]["boxes"]
                      if box["page"] == page_no and box["bbox"][3] <= b and t <= box["bbox"][1])
    assert (l, r) == pytest.approx((region_box[0] - ROW_PADDING_PT, region_box[2] + ROW_PADDING_PT), abs=0.01)
    # Where pdfplumber (not the page's own reader) finds the printed words, in BOTTOMLEFT points.
    with pdfplumber.open(index.parent / "pdfs" / "annual_report_en.pdf") as pdf:
        page = pdf.pages[page_no - 1]
        words = [(w["text"], w["x0"], page.height - w["top"], w["x1"], page.height - w["bottom"])
                 for w in page.extract_words()]
    in_region = [w for w in words if region_box[0] <= w[1] and w[3] <= region_box[2]
                 and region_box[3] <= w[4] and w[2] <= region_box[1]]
    [value] = [w for w in in_region if w[0] == "1,938"]
    [header] = [w for w in in_region if w[0] == "Operating" and abs(w[2] - value[2]) < 1]
    for _, x0, top, x1, bottom in (value, header):  # the box holds the value and its row header
        assert l <= x0 and x1 <= r and b <= bottom and top <= t
    line_height = value[2] - value[4]
    assert t - b - 2 * ROW_PADDING_PT < 1.5 * line_height  # one text line's height...
    assert t - b < (region_box[1] - region_box[3]) / 5  # ...well under the table piece's
    assert red_pixels(client.get(href).content) > 100


def test_a_statement_without_a_figure_boxes_the_whole_region(client):
    transport = transport_of(client, KOREAN_QUESTION)
    sentence = "B기업은 현재까지 원리금을 정상적으로 상환하고 있다."
    region = next(r for r in regions_of(transport) if sentence in r["text"])
    href, caption = answer_badge(client, transport, sentence, region)
    assert caption.endswith(f" · {NOTE_NO_FIGURE}")
    whole = [(box["page"], [round(v, 2) for v in box["bbox"]]) for box in region["source"]["boxes"]]
    assert boxes_in(href) == whole


def test_a_region_whose_pdf_changed_gets_no_page_image_and_says_why(tmp_path):
    pdf = tmp_path / "annual_report_en.pdf"
    shutil.copyfile(SAMPLE_PDFS / "annual_report_en.pdf", pdf)
    index = tmp_path / "index.sqlite"
    assert sjt(["ingest", str(pdf), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    with TestClient(create_app(index, allowed_hosts=["testserver"])) as c:
        transport = transport_of(c, ENGLISH_QUESTION, k=5)
        region = next(r for r in regions_of(transport) if r["text"].startswith("Table 1: Consolidated"))
        with pdf.open("ab") as f:  # still a PDF that renders, but not the bytes the index recorded
            f.write(b"\n% changed after indexing\n")
        answer = {"statements": [{"sentence": OPERATING_INCOME, "citation_ids": [region["citation_id"]]}]}
        page = c.post("/answer", data={"answer": json.dumps(answer), "transport": ""})
        image = c.get("/page.png", params={"doc": "annual_report_en", "page": region["source"]["pages"]})
    title = re.search(r'<span class="badge cite nopage" title="([^"]+)">', page.text).group(1)
    assert unescape(title).startswith(f"{region['citation_id']}: no page image: PDF changed: {pdf} has sha256 ")
    assert "/page.png" not in page.text
    assert image.status_code == 409 and image.text.startswith(f"PDF changed: {pdf} has sha256 ")


REGION_BOX = {"page": 1, "bbox": [50.0, 500.0, 550.0, 400.0], "coord_origin": "BOTTOMLEFT", "unit": "points"}
ROWS_TEXT = "Table 2: Results (in millions)\nRevenue | 2024: 12,480\nOperating income | 2024: 1,938; 2023: 1,681"


@pytest.mark.parametrize("printed, expected", [
    # the header word and the value on one line: that line, the region's width
    ([PrintedLine("Revenue 12,480", 480, 470), PrintedLine("Operating income 1,938 1,681", 465, 455)],
     [[47.5, 467.5, 552.5, 452.5]]),
    # a wrapped header: the value is printed on one line only, under the header's first word
    ([PrintedLine("Operating", 470, 460), PrintedLine("income 1,938 1,681", 458, 448)], [[47.5, 460.5, 552.5, 445.5]]),
    # the value printed twice and neither line carries the header: no row matched
    ([PrintedLine("Other 1,938", 470, 460), PrintedLine("More 1,938", 458, 448)], None),
    # the page prints another figure (a text layer that differs from the index): no row matched
    ([PrintedLine("Operating income 1,983 1,681", 465, 455)], None),
    ([], None),  # no text layer at all
])
def test_cited_rows_box_the_printed_line_or_fall_back_to_the_whole_region(printed, expected):
    found = cited_rows("Operating income was USD 1,938 million.", ROWS_TEXT, None, [REGION_BOX], lambda box: printed)
    if expected is None:
        assert found.note == NOTE_NO_ROW and found.boxes == [REGION_BOX] and found.rows == []
    else:
        assert found.note is None and [box["bbox"] for box in found.boxes] == expected
        assert found.rows == ["Operating income (1,938)"]


def test_a_row_under_a_section_is_found_by_its_own_label():
    text = "Table 3: Segments (in millions)\nBusiness Segments > Total Company | 2024: 1,938; 2023: 1,681"
    printed = [PrintedLine("Business Segments", 490, 480), PrintedLine("Safety and Industrial 1,938 1,500", 475, 465),
               PrintedLine("Total Company 1,938 1,681", 460, 450)]
    found = cited_rows("Operating income was $1,938 million.", text, None, [REGION_BOX], lambda box: printed)
    assert [box["bbox"][1:4:2] for box in found.boxes] == [[462.5, 447.5]]
    assert found.rows == ["Business Segments > Total Company (1,938)"]
