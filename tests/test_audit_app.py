"""`sjt serve`'s routes through Starlette's TestClient, on an index built from sample_pdfs."""

from __future__ import annotations

import io
import json
import re
import shutil
from html import unescape

import numpy as np
import pytest

from evidence_chunker.cli import main as sjt
from repo_paths import SAMPLE_PDFS

pytest.importorskip("starlette", reason="the `serve` extra is not installed")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx (dev extra)")
from PIL import Image  # noqa: E402
from starlette.testclient import TestClient  # noqa: E402

from evidence_chunker.audit.app import SECURITY_HEADERS, create_app  # noqa: E402
from evidence_chunker.render import BOX_COLOUR  # noqa: E402

KOREAN_QUESTION = "B기업의 중장기 채무상환능력은 어떤가?"
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
