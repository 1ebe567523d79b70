"""The audit page in a real headless browser (Debian's chromium, driven by selenium through chromium-driver).

`.ci/run` installs chromium, chromium-driver and a Korean font; where the browser cannot start the test is
skipped with the reason. Set SJT_SCREENSHOT_DIR to keep the screenshots (docs/audit_page_*.png come from it).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import threading
import time
from io import BytesIO
from pathlib import Path

import pytest

from evidence_chunker.cli import main as sjt
from repo_paths import SAMPLE_PDFS

pytest.importorskip("starlette", reason="the `serve` extra is not installed")
uvicorn = pytest.importorskip("uvicorn", reason="the `serve` extra is not installed")
pytest.importorskip("selenium", reason="selenium (dev extra) is not installed")
from selenium import webdriver  # noqa: E402
from selenium.common.exceptions import WebDriverException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402

from evidence_chunker.serve.audit.app import PAGE_SCALE, create_app  # noqa: E402
from evidence_chunker.serve.audit.rows import NOTE_NO_FIGURE  # noqa: E402
from evidence_chunker.serve.render import BOX_COLOUR  # noqa: E402

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1280,860"]
#: Seconds to wait for the server to listen, and for a page or an image to appear.
SERVER_START_TIMEOUT_S = 30
PAGE_TIMEOUT_S = 30
#: Line pitch of the sample reports' body and table text (10-point type), in points; a row's box is under
#: ROW_MAX_LINES of them at the page images' scale.
TEXT_LINE_PT = 15.6
ROW_MAX_LINES = 3
#: Colours kept in the screenshots saved for the docs (a palette PNG is a fraction of the size).
SCREENSHOT_COLOURS = 96

#: Per language: the question, a statement citing the first region, a statement citing nothing.
QUESTIONS = {
    "en": ("What was Kestrel Dynamics' operating income in 2024?",
           "Kestrel Dynamics' operating income was USD 1,938 million in 2024.",
           "Kestrel Dynamics will double its revenue next year."),
    "ko": ("B기업의 중장기 채무상환능력은 어떤가?", "B기업은 현재까지 원리금을 정상적으로 상환하고 있다.",
           "B기업의 신용등급은 AA이다."),
}

# Counts pixels of the box colour in the viewer's image (drawn at its natural size onto a canvas) and the
# height of their bounding box, in the image's pixels: [count, height] ([-1, 0] until the image has loaded).
COUNT_BOX_PIXELS_JS = """
const img = document.getElementById('page-image');
if (!img.complete || img.naturalWidth === 0) return [-1, 0];
const canvas = document.createElement('canvas');
canvas.width = img.naturalWidth; canvas.height = img.naturalHeight;
const ctx = canvas.getContext('2d');
ctx.drawImage(img, 0, 0);
const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
let n = 0, top = canvas.height, bottom = -1;
for (let i = 0; i < data.length; i += 4) {
  if (data[i] === arguments[0] && data[i + 1] === arguments[1] && data[i + 2] === arguments[2]) {
    n++;
    const y = Math.floor(i / 4 / canvas.width);
    if (y < top) top = y;
    if (y > bottom) bottom = y;
  }
}
return [n, n ? bottom - top + 1 : 0];
"""

# Draws two different Hangul syllables in the font the page uses: a missing Korean font renders both as
# the same "tofu" box, a real one as two different glyphs.
HANGUL_GLYPHS_DIFFER_JS = """
const font = getComputedStyle(document.body).fontFamily;
function draw(ch) {
  const c = document.createElement('canvas'); c.width = 64; c.height = 64;
  const ctx = c.getContext('2d'); ctx.font = '40px ' + font; ctx.fillStyle = '#000';
  ctx.fillText(ch, 8, 48);
  return Array.from(ctx.getImageData(0, 0, 64, 64).data).join(',');
}
const a = draw('한'), b = draw('국'), blank = draw(' ');
return a !== b && a !== blank && b !== blank;
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """`sjt serve`'s app under uvicorn on a free loopback port, on an index of sample_pdfs."""
    root = tmp_path_factory.mktemp("browser")
    pdfs = root / "pdfs"
    shutil.copytree(SAMPLE_PDFS, pdfs, ignore=shutil.ignore_patterns("*.py", "*.md", "fonts"))
    index = root / "index.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    port = free_port()
    config = uvicorn.Config(create_app(index), host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + SERVER_START_TIMEOUT_S
    while not srv.started:
        if time.monotonic() > deadline or not thread.is_alive():
            pytest.fail("the audit server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(SERVER_START_TIMEOUT_S)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not CHROMIUM.is_file() or not CHROMEDRIVER.is_file():
        pytest.skip(f"chromium or chromium-driver is not installed ({CHROMIUM}, {CHROMEDRIVER}); .ci/run installs them")
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in CHROMIUM_FLAGS + [f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"]:
        options.add_argument(flag)
    try:
        driver = webdriver.Chrome(options=options, service=webdriver.ChromeService(executable_path=str(CHROMEDRIVER)))
    except WebDriverException as exc:
        pytest.skip(f"headless chromium could not start: {exc.msg or exc}")
    driver.set_page_load_timeout(PAGE_TIMEOUT_S)
    yield driver
    driver.quit()


def save_screenshot(driver, name: str) -> None:
    folder = os.environ.get("SJT_SCREENSHOT_DIR")
    if not folder:
        return
    from PIL import Image

    image = Image.open(BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    image = image.quantize(colors=SCREENSHOT_COLOURS)
    Path(folder).mkdir(parents=True, exist_ok=True)
    image.save(Path(folder) / f"audit_page_{name}.png", optimize=True)


def wait_for_box(driver) -> tuple[int, int]:
    """Wait until the viewer shows a loaded page image; the number of box-coloured pixels in it and the
    height of their bounding box (pixels)."""
    wait = WebDriverWait(driver, PAGE_TIMEOUT_S)
    wait.until(lambda d: d.find_element(By.ID, "viewer").is_displayed())
    wait.until(lambda d: d.execute_script(COUNT_BOX_PIXELS_JS, *BOX_COLOUR)[0] >= 0)
    count, height = driver.execute_script(COUNT_BOX_PIXELS_JS, *BOX_COLOUR)
    return count, height


@pytest.mark.slow
@pytest.mark.parametrize("lang", ["en", "ko"])
def test_search_open_a_badge_and_see_the_page_with_the_box(server, browser, lang):
    question, sentence, uncited = QUESTIONS[lang]
    wait = WebDriverWait(browser, PAGE_TIMEOUT_S)
    browser.get(server + "/")
    box = browser.find_element(By.ID, "q")
    box.send_keys(question)
    browser.find_element(By.ID, "k").clear()
    browser.find_element(By.ID, "k").send_keys("5")
    browser.find_element(By.ID, "search-button").click()
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "article.region"))
    assert browser.find_element(By.CSS_SELECTOR, "h1.query").text == question
    assert "verified" in browser.find_element(By.ID, "summary").text
    assert browser.execute_script(HANGUL_GLYPHS_DIFFER_JS), "Korean text renders as boxes: no Korean font"

    # The region that prints the statement's figure (the first one when the statement has none): a statement
    # citing a region that does not print its figure is rejected.
    figure = re.search(r"\d[\d,]*", sentence)
    first = next(article for article in browser.find_elements(By.CSS_SELECTOR, "article.region")
                 if figure is None or figure.group() in article.text)
    region_id = first.find_element(By.CSS_SELECTOR, ".rid").text
    first.find_element(By.CSS_SELECTOR, "a.badge.show").click()
    pixels, region_height = wait_for_box(browser)  # the search page boxes the whole region
    assert pixels > 100
    browser.find_element(By.ID, "viewer-close").click()

    # Answer with the first region cited, plus one uncited statement; the transport is already in the form.
    answer = {"statements": [{"sentence": sentence, "citation_ids": [region_id]},
                             {"sentence": uncited, "citation_ids": []}]}
    browser.execute_script("document.getElementById('answer').value = arguments[0];",
                           json.dumps(answer, ensure_ascii=False))
    browser.find_element(By.ID, "answer-button").click()
    wait.until(lambda d: d.find_elements(By.ID, "statements"))
    assert "1 of 2 statement(s) accepted, 1 rejected" in browser.find_element(By.ID, "summary").text
    badge = browser.find_element(By.CSS_SELECTOR, "li.statement.accepted a.badge.cite")
    assert badge.text == "[1]"
    badge.click()
    pixels, height = wait_for_box(browser)
    assert pixels > 100
    caption = browser.find_element(By.ID, "viewer-caption").text
    assert caption.startswith(f"[1] {region_id}")
    if figure is not None:  # the statement's figure: its row is boxed, not the table
        assert f"({figure.group()})" in caption and " · row: " in caption
        assert height < ROW_MAX_LINES * TEXT_LINE_PT * PAGE_SCALE
        assert height < region_height / 3
    else:  # no figure: the whole region, as on the search page
        assert NOTE_NO_FIGURE in caption and height == region_height
    save_screenshot(browser, lang)
