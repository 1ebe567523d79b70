"""The audit page: a Starlette application over one index file, server-rendered with Jinja2 (autoescaped).

Routes: ``/`` (search box and answer form), ``/search?q=&k=&where=`` (``where``: filter pairs such as
``company=3M; fiscal_year=2022``; regions with score, pages and verification
status), ``POST /answer`` (a cited answer with a badge per citation), ``/page.png?doc=&page=&box=`` (a
PDF page with boxes, drawn by `sjt show`'s renderer) and ``/static/``. Page images are only ever drawn from
the PDFs the index records for its documents; the request names a document id, never a path.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import OrderedDict
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from jinja2 import Environment, PackageLoader, select_autoescape
from pypdfium2 import PdfiumError
from semantic_json.provenance import PDF_CHANGED, PDF_MISSING, PDF_NOT_RECORDED, PDF_UNREADABLE
from starlette.applications import Starlette
from starlette.datastructures import MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from ...errors import PdfChangedError
from ..serving import DEFAULT_K, MAX_K, ServingError, check_k, check_region, last_cli_result, verified_pdf
from ..serving import NotServedError, open_repository, parse_transport, render_page_png
from .rows import NOTE_UNVERIFIED, PdfLines, cited_rows, whole_region

#: Pixels per PDF point of the page images (1.5 = 108 dpi: readable, and small enough to load fast).
PAGE_SCALE = 1.5
#: Most pages and boxes one page-image request may ask for.
MAX_IMAGE_PAGES = 4
MAX_IMAGE_BOXES = 64
#: Rendered page images kept in memory (most recent first out last).
IMAGE_CACHE_SIZE = 32
#: Verification failures about the recorded PDF itself: the page then shows the reason instead of an image.
PDF_PROBLEMS = (PDF_MISSING, PDF_CHANGED, PDF_UNREADABLE, PDF_NOT_RECORDED)
#: Largest pasted answer or transport accepted, in characters.
MAX_FORM_CHARS = 2_000_000
STATIC_DIR = Path(__file__).parent / "static"
#: Every response: no script, style or image from anywhere but this server, no framing, no referrer.
SECURITY_HEADERS = {
    "content-security-policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
}


class _SecurityHeaders:
    """ASGI middleware that adds SECURITY_HEADERS to every HTTP response."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in SECURITY_HEADERS.items():
                    headers[name] = value
            await send(message)

        await self.app(scope, receive, send_with_headers)


def page_image_url(document_id: str, pages: list[int], boxes: list[dict[str, Any]]) -> str:
    """The ``/page.png`` URL that draws ``boxes`` (transport box dicts) on ``pages`` of a document."""
    params: list[tuple[str, Any]] = [("doc", document_id)] + [("page", p) for p in pages]
    for box in boxes:
        params.append(("box", f"{box['page']}:" + ",".join(f"{v:.2f}" for v in box["bbox"])))
    return "/page.png?" + urlencode(params)


def _parse_box(text: str) -> dict[str, Any]:
    """``"page:l,t,r,b"`` (points, BOTTOMLEFT) → a transport box dict; ServingError when malformed."""
    try:
        page_text, coords = text.split(":", 1)
        values = [float(v) for v in coords.split(",")]
        page = int(page_text)
    except ValueError:
        raise ServingError(f"box {text!r}: expected page:l,t,r,b") from None
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        raise ServingError(f"box {text!r}: expected four finite numbers")
    return {"page": page, "bbox": values, "coord_origin": "BOTTOMLEFT", "unit": "points"}


def _region_view(repo, region) -> dict[str, Any]:
    """What the templates show of one region. A region whose recorded PDF is missing or changed gets no page
    image: ``pdf_problem`` says why in its place."""
    verified, why = check_region(repo, region)
    pages = region.source.pages or []
    boxes = region.source.boxes or []
    pdf_problem = why if not verified and why.startswith(PDF_PROBLEMS) else None
    return {
        "region_id": region.citation_id,  # the id shown and cited: stable, resolvable from the index
        "document_id": region.document_id,
        "score": region.score,
        "pages": pages,
        "verified": verified,
        "why": why,
        "text": region.text,
        "image_url": page_image_url(region.document_id, pages, boxes) if pages and not pdf_problem else None,
        "pdf_problem": pdf_problem,
    }


def _answer_payload(data: Any) -> Any:
    """A cited answer from pasted JSON: the answer itself, or the statements of a `check-answer` report."""
    if isinstance(data, dict) and "statements" not in data and {"accepted", "rejected"} <= data.keys():
        statements = sorted([*(data.get("accepted") or []), *(data.get("rejected") or [])],
                            key=lambda s: s.get("index", 0) if isinstance(s, dict) else 0)
        try:
            return {"statements": [{"sentence": s["sentence"], "citation_ids": s["citation_ids"]} for s in statements]}
        except (KeyError, TypeError):
            raise ServingError("a check-answer report whose statements lack sentence or citation_ids") from None
    return data


def _cited_regions(repo, data: Any):
    """The regions an answer cites and, by id, why the others do not resolve: citation ids resolve from the
    index (no transport needed). An answer that cites positional ids (DOC:R1) is read against the result
    `sjt search` kept beside the index file."""
    from semantic_json import parse_citation_id
    from semantic_json.citations import resolve_citations

    statements = data.get("statements") if isinstance(data, dict) else None
    # ids of the schema's shape only: any other shape is refused by validate_cited_answer, with its JSON path
    cited = [cid for s in (statements if isinstance(statements, list) else []) if isinstance(s, dict)
             for cid in (s.get("citation_ids") if isinstance(s.get("citation_ids"), list) else [])
             if isinstance(cid, str)]
    if any(parse_citation_id(cid) is None for cid in cited):
        result = last_cli_result(repo)
        if result is None:
            raise ServingError("the answer cites positional ids (DOC:R1) and no transport was pasted: paste the "
                               "transport the answer was made from, or cite citation ids (DOC@c<start>-<end>.<hash>)")
        return result, {}
    return resolve_citations(repo, cited)


def _statement_rows(report, regions: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Accepted and rejected statements in the answer's order, each with its badges (number, region)."""
    numbers: dict[str, int] = {}
    rows = []
    tagged = [(s, True) for s in report.accepted] + [(s, False) for s in report.rejected]
    for statement, accepted in sorted(tagged, key=lambda pair: pair[0].index):
        badges = []
        for region_id in statement.citation_ids:
            region = regions.get(region_id)
            if region is not None:
                numbers.setdefault(region_id, len(numbers) + 1)
            badges.append({"region_id": region_id, "number": numbers.get(region_id), "region": region,
                           "image_url": region["image_url"] if region else None, "rows": [], "note": None})
        rows.append({
            "sentence": statement.sentence,
            "accepted": accepted,
            "reason": None if accepted else statement.reason,
            "detail": None if accepted else statement.detail,
            "flags": statement.flags if accepted else [],
            "badges": badges,
        })
    return rows


def _point_badges_at_rows(repo, rows: list[dict[str, Any]], regions: dict[str, Any]) -> None:
    """Point the badges of accepted statements at the rows their figures came from (see `rows`): each gets
    the ``image_url`` of its row boxes, the ``rows`` matched and a ``note`` when the whole region is boxed.
    Rejected statements keep the whole region. ``regions`` maps region and citation ids to regions."""
    readers: dict[str, PdfLines | None] = {}
    try:
        for row in rows:
            for badge in row["badges"] if row["accepted"] else []:
                view, region = badge["region"], regions.get(badge["region_id"])
                if view is None or region is None or not view["image_url"]:
                    continue
                boxes = region.source.boxes or []
                if not view["verified"]:
                    found = whole_region(boxes, NOTE_UNVERIFIED)
                else:
                    if region.document_id not in readers:
                        try:
                            readers[region.document_id] = PdfLines(verified_pdf(repo, region.document_id)[1])
                        except (ServingError, PdfiumError):
                            readers[region.document_id] = None
                    reader = readers[region.document_id]
                    if reader is None:
                        continue
                    found = cited_rows(row["sentence"], region.text, region.source.unit, boxes, reader.lines_in)
                badge["image_url"] = page_image_url(region.document_id, found.pages, found.boxes)
                badge["rows"], badge["note"] = found.rows, found.note
    finally:
        for reader in readers.values():
            if reader is not None:
                reader.close()


def create_app(index_path: str | Path, allowed_hosts: list[str] | None = None,
               page_scale: float = PAGE_SCALE) -> Starlette:
    """The audit application for the index at ``index_path`` (opened when the app starts).

    ``allowed_hosts`` are the Host header values accepted (DNS-rebinding guard); default 127.0.0.1 and
    localhost. Handlers are coroutines so that they run on the thread that opened the index's SQLite file.
    """
    env = Environment(loader=PackageLoader("evidence_chunker.serve.audit", "templates"),
                      autoescape=select_autoescape(default=True, default_for_string=True))
    images: OrderedDict[tuple, bytes] = OrderedDict()

    @asynccontextmanager
    async def lifespan(app: Starlette):
        app.state.repo = open_repository(index_path)
        try:
            yield
        finally:
            app.state.repo.close()

    def page(name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
        context.setdefault("k", DEFAULT_K)
        context.setdefault("max_k", MAX_K)
        context.setdefault("query", "")
        return HTMLResponse(env.get_template(name).render(**context), status_code=status_code)

    def documents(request: Request) -> list[str]:
        return list(request.app.state.repo.documents)

    async def home(request: Request) -> Response:
        return page("index.html", documents=documents(request))

    async def search(request: Request) -> Response:
        from semantic_json.search import SearchFilterError, parse_where

        repo = request.app.state.repo
        query = request.query_params.get("q", "")
        k_text = request.query_params.get("k", str(DEFAULT_K))
        where_text = request.query_params.get("where", "")
        try:
            try:
                k = int(k_text)
            except ValueError:
                raise ServingError(f"k must be a whole number, got {k_text!r}") from None
            check_k(k)
            if not query.strip():
                raise ServingError("the question is empty: type what to search for")
            try:  # "company=3M; fiscal_year=2022"
                where = parse_where([part for part in where_text.split(";") if part.strip()]) if where_text.strip() else None
            except SearchFilterError as exc:
                raise ServingError(f"filter: {exc}") from None
            result = repo.search(query, k=k, where=where)
        except ServingError as exc:
            return page("index.html", status_code=400, error=str(exc), query=query, where=where_text,
                        documents=documents(request))
        return page("results.html", query=query, k=k, where=where_text, regions=[_region_view(repo, r) for r in result],
                    transport=result.to_json(indent=2))

    async def answer(request: Request) -> Response:
        from semantic_json import validate_cited_answer
        from semantic_json.errors import SemanticJsonError

        repo = request.app.state.repo
        form = await request.form(max_fields=8, max_part_size=MAX_FORM_CHARS * 4)
        answer_text = str(form.get("answer") or "")
        transport_text = str(form.get("transport") or "")
        try:
            if len(answer_text) > MAX_FORM_CHARS or len(transport_text) > MAX_FORM_CHARS:
                raise ServingError(f"the pasted text is over {MAX_FORM_CHARS} characters")
            if not answer_text.strip():
                raise ServingError("paste a cited answer: {\"statements\": [{\"sentence\": …, \"citation_ids\": […]}]}")
            try:
                data = _answer_payload(json.loads(answer_text))
            except json.JSONDecodeError as exc:
                raise ServingError(f"answer: not JSON ({exc})") from None
            except RecursionError:
                raise ServingError("answer: nested too deeply to be a cited answer") from None
            result, unresolved = ((parse_transport(transport_text), {}) if transport_text.strip()
                                  else _cited_regions(repo, data))
            try:
                report = validate_cited_answer(data, result, unresolved=unresolved)
            except (SemanticJsonError, ValueError, TypeError) as exc:
                raise ServingError(f"answer: {exc}") from exc
        except ServingError as exc:
            return page("index.html", status_code=400, error=str(exc), answer=answer_text, transport=transport_text,
                        documents=documents(request))
        regions, objects = {}, {}
        for region in result:
            regions[region.region_id] = regions[region.citation_id] = _region_view(repo, region)
            objects[region.region_id] = objects[region.citation_id] = region
        rows = _statement_rows(report, regions)
        _point_badges_at_rows(repo, rows, objects)
        cited = [regions[i] for i in dict.fromkeys(b["region_id"] for row in rows for b in row["badges"]) if i in regions]
        return page("answer.html", rows=rows, counts=report.counts, ok=report.ok, cited=cited,
                    query=result.query, transport=result.to_json(indent=2))

    async def page_png(request: Request) -> Response:
        repo = request.app.state.repo
        params = request.query_params
        try:
            document_id = params.get("doc", "")
            try:
                pages = sorted({int(p) for p in params.getlist("page")})
            except ValueError:
                raise ServingError("page must be a whole number") from None
            boxes = [_parse_box(b) for b in params.getlist("box")]
            if not pages:
                pages = sorted({b["page"] for b in boxes})
            if not pages or len(pages) > MAX_IMAGE_PAGES or len(boxes) > MAX_IMAGE_BOXES:
                raise ServingError(f"ask for 1 to {MAX_IMAGE_PAGES} pages and at most {MAX_IMAGE_BOXES} boxes")
            _, pdf = verified_pdf(repo, document_id)  # read once, drawn as checked: never a replaced file
            key = (hashlib.sha256(pdf).hexdigest(), tuple(pages), tuple((b["page"], *b["bbox"]) for b in boxes))
            png = images.get(key)
            if png is None:
                png = render_page_png(pdf, pages, boxes, page_scale)
                images[key] = png
                while len(images) > IMAGE_CACHE_SIZE:
                    images.popitem(last=False)
        except ServingError as exc:
            status = 404 if isinstance(exc, NotServedError) else 409 if isinstance(exc, PdfChangedError) else 400
            return Response(str(exc), status_code=status, media_type="text/plain; charset=utf-8")
        return Response(png, media_type="image/png", headers={"cache-control": "private, max-age=300"})

    hosts = allowed_hosts or ["127.0.0.1", "localhost"]
    return Starlette(
        routes=[
            Route("/", home),
            Route("/search", search),
            Route("/answer", answer, methods=["POST"]),
            Route("/page.png", page_png),
            Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
        ],
        middleware=[Middleware(_SecurityHeaders), Middleware(TrustedHostMiddleware, allowed_hosts=hosts)],
        lifespan=lifespan,
    )
