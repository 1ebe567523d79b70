"""`sjt mcp` end to end: the official MCP SDK's own client talks to the server over stdio, on an index
built from sample_pdfs."""

from __future__ import annotations

import json
import os
import shutil
import sys

import pytest

from evidence_chunker.cli import main as sjt
from repo_paths import SAMPLE_PDFS

mcp = pytest.importorskip("mcp", reason="the `mcp` extra is not installed")
import anyio  # noqa: E402  (installed with mcp)

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

KOREAN_QUESTION = "B기업의 중장기 채무상환능력은 어떤가?"
#: Seconds one whole client conversation may take before the test gives up (the server start dominates).
CONVERSATION_TIMEOUT_S = 120


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp")
    pdfs = root / "pdfs"
    shutil.copytree(SAMPLE_PDFS, pdfs, ignore=shutil.ignore_patterns("*.py", "*.md", "fonts"))
    path = root / "index.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(path), "--parser", "lite", "--no-progress"]) == 0
    return path, pdfs


def converse(index_path, steps):
    """Start `sjt mcp` as a subprocess, run ``steps(session)`` (a coroutine function) and return its value."""
    params = StdioServerParameters(
        command=sys.executable,
        args=["-c", "import sys; from evidence_chunker.cli import main; sys.exit(main())", "mcp", "--index", str(index_path)],
        env={"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)},
    )

    async def run():
        with anyio.fail_after(CONVERSATION_TIMEOUT_S):
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    return await steps(session)

    return anyio.run(run)


def payload(result):
    """The JSON a tool returned (its text content, the same as its structured content)."""
    assert not result.is_error, result.content
    data = json.loads(result.content[0].text)
    assert result.structured_content == data
    return data


def error_text(result) -> str:
    assert result.is_error
    return " ".join(getattr(c, "text", "") for c in result.content)


def test_client_searches_fetches_verifies_and_checks_an_answer(index):
    index_path, _ = index

    async def steps(session):
        tools = {t.name for t in (await session.list_tools()).tools}
        resources = [str(r.uri) for r in (await session.list_resources()).resources]
        transport = payload(await session.call_tool("search", {"query": KOREAN_QUESTION, "k": 2}))
        first = transport["documents"][0]["regions"][0]["region_id"]
        region = payload(await session.call_tool("get_region", {"region_id": first}))
        by_ids = payload(await session.call_tool("verify", {"region_ids": [first]}))
        by_transport = payload(await session.call_tool("verify", {"transport": transport}))
        schema = json.loads((await session.read_resource("sjt://cited-answer-schema")).contents[0].text)
        answer = {"statements": [
            {"sentence": "B기업은 현재까지 원리금을 정상적으로 상환하고 있다.", "citation_ids": [first]},
            {"sentence": "B기업의 신용등급은 AA이다.", "citation_ids": []},
            {"sentence": "A기업은 부담이 크지 않다.", "citation_ids": ["credit_review_ko:R9"]},
        ]}
        report = payload(await session.call_tool("check_answer", {"answer": answer}))
        return tools, resources, transport, first, region, by_ids, by_transport, schema, report

    tools, resources, transport, first, region, by_ids, by_transport, schema, report = converse(index_path, steps)
    assert tools == {"search", "get_region", "verify", "check_answer"}
    assert resources == ["sjt://cited-answer-schema"]
    assert transport["schema"] == "semantic-json-transport/context/v1"
    assert transport["region_count"] == 2 and first == "credit_review_ko:R1"
    assert "원리금을 정상적으로 상환" in region["text"]
    assert region["pages"] == [2] and region["boxes"][0]["page"] == 2 and region["verified"] is True
    assert region["source"]["pdf_sha256"]
    assert by_ids == {"verified": True, "regions": [{"region_id": first, "document_id": "credit_review_ko",
                                                    "pages": [2], "verified": True, "why": "verified"}]}
    assert by_transport["verified"] is True and len(by_transport["regions"]) == 2
    enum = schema["parameters"]["properties"]["statements"]["items"]["properties"]["citation_ids"]["items"]["enum"]
    assert enum == sorted(r["citation_id"] for d in transport["documents"] for r in d["regions"])
    assert report["counts"]["accepted"] == 1 and report["counts"]["unsupported"] == 1
    assert report["counts"]["invalid_citation"] == 1
    assert report["accepted"][0]["sources"][0]["pages"] == [2]


def test_bad_arguments_are_tool_errors_and_the_server_keeps_serving(index):
    index_path, _ = index

    async def steps(session):
        errors = {
            "blank query": await session.call_tool("search", {"query": "   "}),
            "k too large": await session.call_tool("search", {"query": "revenue", "k": 10_000}),
            "k not a number": await session.call_tool("search", {"query": "revenue", "k": "many"}),
            "unknown document": await session.call_tool("search", {"query": "revenue", "documents": ["nope"]}),
            "unknown region": await session.call_tool("get_region", {"region_id": "nope:R1"}),
            "verify without input": await session.call_tool("verify", {}),
            "not a transport": await session.call_tool("verify", {"transport": {"schema": "x"}}),
            "answer before search": await session.call_tool("check_answer", {"answer": {"statements": []}}),
        }
        await session.call_tool("search", {"query": "operating income 2024"})
        errors["answer of the wrong shape"] = await session.call_tool("check_answer", {"answer": {"statements": "x"}})
        errors["unknown policy"] = await session.call_tool(
            "check_answer", {"answer": {"statements": []}, "policy": "ignore"})
        still = await session.call_tool("search", {"query": "net income", "k": 1})
        return errors, still

    errors, still = converse(index_path, steps)
    texts = {name: error_text(result) for name, result in errors.items()}
    assert "query is empty" in texts["blank query"]
    assert "between 1 and" in texts["k too large"]
    assert "nope" in texts["unknown document"]
    assert "unknown region id 'nope:R1'" in texts["unknown region"]
    assert "exactly one of" in texts["verify without input"]
    assert "not a semantic-json-transport result" in texts["not a transport"]
    assert "no search run in this session" in texts["answer before search"]
    assert "statements" in texts["answer of the wrong shape"]
    assert all(texts.values())
    assert payload(still)["region_count"] == 1


def test_verify_reports_a_changed_pdf(index, tmp_path):
    index_path, pdfs = index
    copy = tmp_path / "index.sqlite"
    shutil.copy(index_path, copy)
    pdf = pdfs / "mixed_brief.pdf"
    original = pdf.read_bytes()

    async def steps(session):
        transport = payload(await session.call_tool("search", {"query": "Kestrel Dynamics Korea revenue", "k": 1,
                                                                "documents": ["mixed_brief"]}))
        pdf.write_bytes(original + b"\n% appended\n")
        try:
            return payload(await session.call_tool("verify", {"transport": json.dumps(transport)}))
        finally:
            pdf.write_bytes(original)

    checked = converse(copy, steps)
    assert checked["verified"] is False
    assert checked["regions"][0]["why"].startswith("PDF changed")


def test_region_ids_of_the_last_cli_search_resolve_in_a_new_session(index, tmp_path):
    index_path, _ = index
    copy = tmp_path / "index.sqlite"
    shutil.copy(index_path, copy)
    assert sjt(["search", "--index", str(copy), "What was the diluted EPS in Q3 2019?", "-k", "1"]) == 0

    async def steps(session):
        region = payload(await session.call_tool("get_region", {"region_id": "annual_report_en:R1"}))
        checked = payload(await session.call_tool("verify", {"region_ids": ["annual_report_en:R1"]}))
        return region, checked

    region, checked = converse(copy, steps)
    assert region["document_id"] == "annual_report_en" and region["pages"] == [6]
    assert checked["verified"] is True


def test_mcp_refuses_a_missing_index(tmp_path, capsys):
    assert sjt(["mcp", "--index", str(tmp_path / "none.sqlite")]) == 2
    assert "none.sqlite: index file not found" in capsys.readouterr().err


def test_a_search_tool_filter_keeps_to_the_documents_it_admits_and_a_bad_one_is_a_tool_error(index):
    index_path, _ = index

    async def steps(session):
        kept = await session.call_tool("search", {"query": "revenue", "k": 5, "where": {"language": "ko"}})
        bad = await session.call_tool("search", {"query": "revenue", "where": {"colour": "red"}})
        return kept, bad

    kept, bad = converse(index_path, steps)
    transport = payload(kept)
    assert transport["region_count"] > 0 and {d["document_id"] for d in transport["documents"]} == {"credit_review_ko"}
    assert "unknown filter field 'colour'" in error_text(bad)
