"""`sjt mcp` end to end: the official MCP SDK's own client (mcp 1.x or 2.x) talks to the server over stdio, on
an index built from sample_pdfs; and langchain-mcp-adapters drives it with a new session per tool call."""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
from importlib import metadata

import pytest

from evidence_chunker.cli import main as sjt
from evidence_chunker.serve.mcp_server import NO_EVIDENCE_TEXT, EvidenceSession, Where, compact_text
from evidence_chunker.serve.serving import MAX_K, ServingError
from evidence_chunker.tokens import count_tokens
from repo_paths import SAMPLE_PDFS
from semantic_json.search.filters import SearchFilter

mcp = pytest.importorskip("mcp", reason="the `mcp` extra is not installed")
import anyio  # noqa: E402  (installed with mcp)

from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

KOREAN_QUESTION = "B기업의 중장기 채무상환능력은 어떤가?"
#: A stable region id: document@c<start>-<end>.<first 8 hex of the document's sha256>.
CITATION_ID = re.compile(r".+@c[0-9]+-[0-9]+\.[0-9a-f]{8}")
EPS_QUESTION = "What was the diluted EPS in Q3 2019?"
#: Seconds one whole client conversation may take before the test gives up (the server start dominates).
CONVERSATION_TIMEOUT_S = 120
#: The issue's bound on search text content: tokens at most this many times the evidence text's own.
TEXT_TOKEN_RATIO = 1.2
SERVER_COMMAND = [sys.executable, "-c", "import sys; from evidence_chunker.cli import main; sys.exit(main())", "mcp"]


@pytest.fixture(scope="module")
def index(tmp_path_factory):
    root = tmp_path_factory.mktemp("mcp")
    pdfs = root / "pdfs"
    shutil.copytree(SAMPLE_PDFS, pdfs, ignore=shutil.ignore_patterns("*.py", "*.md", "fonts"))
    path = root / "index.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(path), "--parser", "lite", "--no-progress"]) == 0
    return path, pdfs


def server_env() -> dict[str, str]:
    return {"PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}


def converse(index_path, steps):
    """Start `sjt mcp` as a subprocess, run ``steps(session, init)`` (a coroutine function; ``init`` is the
    initialize result as a dict) and return its value."""
    params = StdioServerParameters(command=SERVER_COMMAND[0], args=[*SERVER_COMMAND[1:], "--index", str(index_path)],
                                   env=server_env())

    async def run():
        with anyio.fail_after(CONVERSATION_TIMEOUT_S):
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write) as session:
                    init = wire(await session.initialize())
                    return await steps(session, init)

    return anyio.run(run)


def wire(message) -> dict:
    """A protocol message as its JSON (camelCase field names on mcp 1.x and 2.x alike)."""
    return message.model_dump(by_alias=True, mode="json", exclude_none=True)


def reply(result) -> tuple[str, dict]:
    """(text content, structured content) of a successful tool call."""
    data = wire(result)
    assert not data.get("isError"), data["content"]
    return data["content"][0]["text"], data["structuredContent"]


def payload(result) -> dict:
    """The structured content of a tool call whose text content is the same JSON."""
    text, data = reply(result)
    assert json.loads(text) == data
    return data


def error_text(result) -> str:
    data = wire(result)
    assert data.get("isError")
    return " ".join(c.get("text", "") for c in data["content"])


def regions_of(transport: dict) -> list[dict]:
    return [region for document in transport["documents"] for region in document["regions"]]


def test_client_searches_fetches_verifies_and_checks_an_answer(index):
    index_path, _ = index

    async def steps(session, init):
        free = json.loads((await session.read_resource("sjt://cited-answer-schema")).contents[0].text)
        text, transport = reply(await session.call_tool("search", {"query": KOREAN_QUESTION, "k": 2}))
        first = regions_of(transport)[0]["citation_id"]
        region_text, region = reply(await session.call_tool("get_region", {"region_id": first}))
        by_ids = payload(await session.call_tool("verify", {"region_ids": [first]}))
        by_transport = payload(await session.call_tool("verify", {"transport": transport}))
        schema = json.loads((await session.read_resource("sjt://cited-answer-schema")).contents[0].text)
        answer = {"statements": [
            {"sentence": "B기업은 현재까지 원리금을 정상적으로 상환하고 있다.", "citation_ids": [first]},
            {"sentence": "B기업의 신용등급은 AA이다.", "citation_ids": []},
            {"sentence": "A기업은 부담이 크지 않다.", "citation_ids": ["credit_review_ko@c0-9.00000000"]},
        ]}
        report = payload(await session.call_tool("check_answer", {"answer": answer}))
        against_transport = payload(await session.call_tool("check_answer", {"answer": answer,
                                                                             "transport": transport}))
        return free, text, transport, first, region_text, region, by_ids, by_transport, schema, report, against_transport

    free, text, transport, first, region_text, region, by_ids, by_transport, schema, report, against = \
        converse(index_path, steps)
    assert transport["schema"] == "semantic-json-transport/context/v1"
    assert transport["region_count"] == 2 and regions_of(transport)[0]["region_id"] == "credit_review_ko:R1"
    assert CITATION_ID.fullmatch(first) and first.startswith("credit_review_ko@c")
    assert text.startswith(f"[{first}] p.2\n") and "원리금을 정상적으로 상환" in text
    assert "score" not in text and "sha256" not in text  # kept in the structured transport only
    assert "원리금을 정상적으로 상환" in region["text"] and region_text.startswith(f"[{first}] p.2 verified\n")
    assert region["pages"] == [2] and region["boxes"][0]["page"] == 2 and region["verified"] is True
    assert region["source"]["pdf_sha256"]
    assert region["citation_id"] == first
    assert by_ids == {"verified": True, "regions": [{"citation_id": first, "region_id": "credit_review_ko:R1",
                                                    "document_id": "credit_review_ko", "pages": [2],
                                                    "verified": True, "why": "verified"}]}
    assert by_transport["verified"] is True and len(by_transport["regions"]) == 2
    free_ids = free["parameters"]["properties"]["statements"]["items"]["properties"]["citation_ids"]
    assert free["name"] == "generate_cited_answer" and free_ids["items"] == {"type": "string"}
    assert "as `search` printed them" in free_ids["description"]
    enum = schema["parameters"]["properties"]["statements"]["items"]["properties"]["citation_ids"]["items"]["enum"]
    assert enum == sorted(r["citation_id"] for r in regions_of(transport))
    for checked in (report, against):
        assert checked["counts"]["accepted"] == 1 and checked["counts"]["unsupported"] == 1
        assert checked["counts"]["invalid_citation"] == 1
        assert checked["accepted"][0]["sources"][0]["pages"] == [2]
    assert "credit_review_ko@c0-9.00000000" in report["rejected"][-1]["detail"]
    assert "does not resolve" in report["rejected"][-1]["detail"]


def test_tools_advertise_described_bounded_read_only_arguments_and_the_server_version(index):
    index_path, _ = index

    async def steps(session, init):
        return init, wire(await session.list_tools())["tools"]

    init, tools = converse(index_path, steps)
    assert init["serverInfo"] == {"name": "semantic-json-transport",
                                  "version": metadata.version("semantic-json-transport")}
    by_name = {tool["name"]: tool for tool in tools}
    assert set(by_name) == {"search", "get_region", "verify", "check_answer"}
    for tool in tools:
        assert tool["annotations"]["readOnlyHint"] is True and tool["annotations"]["idempotentHint"] is True
        assert tool["annotations"]["destructiveHint"] is False and tool["description"]
        for name, prop in tool["inputSchema"]["properties"].items():
            assert prop.get("description") or "$ref" in prop, (tool["name"], name)
    search = by_name["search"]["inputSchema"]
    assert search["required"] == ["query"] and search["properties"]["query"]["minLength"] == 1
    k = search["properties"]["k"]
    assert (k["type"], k["minimum"], k["maximum"], k["default"]) == ("integer", 1, MAX_K, 5)
    documents = search["properties"]["documents"]["anyOf"][0]
    assert documents["type"] == "array" and documents["items"]["type"] == "string"
    where = search["$defs"]["Where"]
    assert set(where["properties"]) == set(SearchFilter.model_fields) and where["additionalProperties"] is False
    assert all(field["description"] for field in where["properties"].values())
    assert {"enum": ["table", "text"], "type": "string"} in where["properties"]["kind"]["anyOf"]
    answer = by_name["check_answer"]["inputSchema"]
    assert answer["properties"]["policy"]["enum"] == ["reject", "strip"]
    assert answer["$defs"]["Statement"]["required"] == ["sentence", "citation_ids"]


def test_where_argument_holds_exactly_the_search_filter_fields():
    where = Where(company="3M", fiscal_year=2022, kind=["table"])
    parsed = SearchFilter.from_mapping(where.model_dump(exclude_none=True))
    assert parsed.company == ["3M"] and parsed.fiscal_year == ["2022"] and parsed.kind == ["table"]
    assert set(Where.model_fields) == set(SearchFilter.model_fields)


def test_answer_with_citations_prompt_hands_the_question_the_steps_and_the_schema(index):
    index_path, _ = index

    async def steps(session, init):
        listed = wire(await session.list_prompts())["prompts"]
        got = wire(await session.get_prompt("answer_with_citations", {"question": EPS_QUESTION}))
        return init, listed, got

    init, listed, got = converse(index_path, steps)
    assert "prompts" in init["capabilities"]
    assert [(p["name"], [(a["name"], a["required"]) for a in p["arguments"]]) for p in listed] == [
        ("answer_with_citations", [("question", True)])]
    assert listed[0]["arguments"][0]["description"]
    [message] = got["messages"]
    text = message["content"]["text"]
    assert message["role"] == "user" and EPS_QUESTION in text
    assert "`search`" in text and "`check_answer`" in text
    schema = json.loads(text[text.index("{\"name\""):])
    assert schema["name"] == "generate_cited_answer"
    assert schema["parameters"]["required"] == ["statements"]


def test_search_text_is_the_regions_own_text_within_the_token_bound(index):
    index_path, _ = index

    async def steps(session, init):
        found = [reply(await session.call_tool("search", {"query": q, "k": 5}))
                 for q in (EPS_QUESTION, KOREAN_QUESTION, "Kestrel Dynamics Korea revenue")]
        nothing = reply(await session.call_tool("search", {"query": "revenue", "where": {"language": "fr"}}))
        return found, nothing

    found, nothing = converse(index_path, steps)
    text_tokens = evidence_tokens = 0
    for text, transport in found:
        regions = regions_of(transport)
        assert len(regions) == 5
        for region in regions:
            assert f"[{region['citation_id']}]" in text and region["text"] in text
        text_tokens += count_tokens(text)
        evidence_tokens += sum(count_tokens(region["text"]) for region in regions)
    assert text_tokens <= TEXT_TOKEN_RATIO * evidence_tokens, (text_tokens, evidence_tokens)
    assert nothing == (NO_EVIDENCE_TEXT, {**nothing[1], "region_count": 0})


def test_compact_text_lists_id_and_pages_then_text_per_region():
    from semantic_json import EvidenceRegion, SearchResult, SourceSpan

    def region(region_id, text, pages):
        source = SourceSpan(document_id="d", start_char=0, end_char=len(text), start_line=1, end_line=1,
                            document_sha256="a" * 64, pages=pages)
        return EvidenceRegion(region_id=region_id, document_id="d", score=0.5, source=source, anchors=["x"], text=text)

    result = SearchResult("q", [region("d:R1", "Revenue | 1,234", [3, 4]), region("d:R2", "Plain text", None)])
    assert compact_text(result) == "[d@c0-15.aaaaaaaa] p.3,4\nRevenue | 1,234\n\n[d@c0-10.aaaaaaaa]\nPlain text"
    assert compact_text(SearchResult("q", [])) == NO_EVIDENCE_TEXT


def test_bad_arguments_are_tool_errors_and_the_server_keeps_serving(index):
    index_path, _ = index

    async def steps(session, init):
        errors = {
            "blank query": await session.call_tool("search", {"query": "   "}),
            "k too large": await session.call_tool("search", {"query": "revenue", "k": 10_000}),
            "k not a number": await session.call_tool("search", {"query": "revenue", "k": "many"}),
            "unknown document": await session.call_tool("search", {"query": "revenue", "documents": ["nope"]}),
            "unknown region": await session.call_tool("get_region", {"region_id": "nope:R1"}),
            "unknown document id": await session.call_tool("get_region", {"region_id": "nope@c0-10.0123abcd"}),
            "span off the units": await session.call_tool("verify", {"region_ids": ["mixed_brief@c1-2.0123abcd"]}),
            "verify without input": await session.call_tool("verify", {}),
            "not a transport": await session.call_tool("verify", {"transport": {"schema": "x"}}),
            "answer of the wrong shape": await session.call_tool("check_answer", {"answer": {"statements": "x"}}),
            "blank sentence": await session.call_tool(
                "check_answer", {"answer": {"statements": [{"sentence": " ", "citation_ids": []}]}}),
            "unknown policy": await session.call_tool("check_answer", {"answer": {"statements": []}, "policy": "x"}),
            "prompt without question": None,
        }
        try:
            await session.get_prompt("answer_with_citations", {"question": "  "})
        except Exception as exc:  # the SDK raises the server's error response  # noqa: BLE001
            errors["prompt without question"] = str(exc)
        still = await session.call_tool("search", {"query": "net income", "k": 1})
        return errors, still

    errors, still = converse(index_path, steps)
    prompt_error = errors.pop("prompt without question")
    texts = {name: error_text(result) for name, result in errors.items()}
    assert "query is empty" in texts["blank query"]
    assert "less than or equal to 50" in texts["k too large"]
    assert "valid integer" in texts["k not a number"]
    assert "nope" in texts["unknown document"]
    assert "unknown region id 'nope:R1'" in texts["unknown region"]
    assert "this index does not hold document 'nope'" in texts["unknown document id"]
    assert "mixed_brief@c1-2.0123abcd" in texts["span off the units"]
    assert "exactly one of" in texts["verify without input"]
    assert "not a semantic-json-transport result" in texts["not a transport"]
    assert "statements" in texts["answer of the wrong shape"]
    assert "statements[0].sentence: empty" in texts["blank sentence"]
    assert "policy" in texts["unknown policy"]
    assert prompt_error and "answer_with_citations" in prompt_error  # mcp 2.x does not pass on the reason
    with pytest.raises(ServingError, match="question is empty"):
        EvidenceSession(repo=None).answer_prompt("  ")
    text, transport = reply(still)
    assert transport["region_count"] == 1 and text.startswith("[")


def test_verify_reports_a_changed_pdf(index, tmp_path):
    index_path, pdfs = index
    copy = tmp_path / "index.sqlite"
    shutil.copy(index_path, copy)
    pdf = pdfs / "mixed_brief.pdf"
    original = pdf.read_bytes()

    async def steps(session, init):
        _, transport = reply(await session.call_tool("search", {"query": "Kestrel Dynamics Korea revenue", "k": 1,
                                                                 "documents": ["mixed_brief"]}))
        pdf.write_bytes(original + b"\n% appended\n")
        try:
            return payload(await session.call_tool("verify", {"transport": json.dumps(transport)}))
        finally:
            pdf.write_bytes(original)

    checked = converse(copy, steps)
    assert checked["verified"] is False
    assert checked["regions"][0]["why"].startswith("PDF changed")


def test_an_id_of_a_document_since_changed_fails_as_document_changed_in_a_new_session(index, tmp_path):
    _, pdfs = index
    own_pdfs, own_index = tmp_path / "pdfs", tmp_path / "index.sqlite"
    shutil.copytree(pdfs, own_pdfs)
    assert sjt(["ingest", str(own_pdfs), "--index", str(own_index), "--parser", "lite", "--no-progress"]) == 0

    async def search(session, init):
        return reply(await session.call_tool("search", {"query": KOREAN_QUESTION, "k": 1}))[1]

    old = regions_of(converse(own_index, search))[0]["citation_id"]
    # Another PDF under the same name: the same document id, other text.
    shutil.copy(own_pdfs / "mixed_brief.pdf", own_pdfs / "credit_review_ko.pdf")
    assert sjt(["ingest", str(own_pdfs), "--index", str(own_index), "--parser", "lite", "--no-progress"]) == 0

    async def resolve(session, init):
        fetched = await session.call_tool("get_region", {"region_id": old})
        report = payload(await session.call_tool("check_answer", {"answer": {"statements": [
            {"sentence": "B기업은 원리금을 상환하고 있다.", "citation_ids": [old]}]}}))
        return fetched, report

    fetched, report = converse(own_index, resolve)
    assert "document changed" in error_text(fetched)
    [rejected] = report["rejected"]
    assert rejected["reason"] == "invalid_citation" and "document changed" in rejected["detail"]


def test_region_ids_of_the_last_cli_search_resolve_in_a_new_session(index, tmp_path):
    index_path, _ = index
    copy = tmp_path / "index.sqlite"
    shutil.copy(index_path, copy)
    assert sjt(["search", "--index", str(copy), EPS_QUESTION, "-k", "1"]) == 0

    async def steps(session, init):
        _, region = reply(await session.call_tool("get_region", {"region_id": "annual_report_en:R1"}))
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

    async def steps(session, init):
        kept = await session.call_tool("search", {"query": "revenue", "k": 5, "where": {"language": "ko"}})
        tables = await session.call_tool("search", {"query": "revenue", "k": 5, "where": {"kind": "table"}})
        bad = await session.call_tool("search", {"query": "revenue", "where": {"colour": "red"}})
        return kept, tables, bad

    kept, tables, bad = converse(index_path, steps)
    _, transport = reply(kept)
    assert transport["region_count"] > 0 and {d["document_id"] for d in transport["documents"]} == {"credit_review_ko"}
    _, table_transport = reply(tables)
    assert table_transport["region_count"] > 0
    assert {r["source"].get("kind") for r in regions_of(table_transport)} == {"table"}
    assert "colour" in error_text(bad) and "Extra inputs are not permitted" in error_text(bad)


def test_langchain_mcp_adapters_search_get_region_and_check_answer_with_a_new_session_per_call(index, tmp_path):
    """What a LangChain agent does: tools loaded by MultiServerMCPClient (one server process and session per
    call, its default), a region id read from the search text, the region fetched and an answer citing it
    checked, with no transport passed and no state shared between the calls."""
    client_module = pytest.importorskip("langchain_mcp_adapters.client",
                                        reason="langchain-mcp-adapters (extra dev) is not installed")
    index_path, _ = index
    starts = tmp_path / "starts.log"
    # each server process appends a line before it serves: the count of sessions the client opened
    counted = ("import sys; from pathlib import Path; from evidence_chunker.cli import main; "
               f"Path({str(starts)!r}).open('a').write('start\\n'); sys.exit(main())")
    client = client_module.MultiServerMCPClient({"sjt": {
        "transport": "stdio", "command": sys.executable, "args": ["-c", counted, "mcp", "--index", str(index_path)],
        "env": server_env()}})

    async def call(tool, args):
        message = await tool.ainvoke({"type": "tool_call", "name": tool.name, "args": args, "id": tool.name})
        blocks = message.content if isinstance(message.content, list) else [{"type": "text", "text": message.content}]
        return "".join(block["text"] for block in blocks), (message.artifact or {}).get("structured_content")

    async def run():
        with anyio.fail_after(CONVERSATION_TIMEOUT_S):
            tools = {tool.name: tool for tool in await client.get_tools()}
            found_text, transport = await call(tools["search"], {"query": EPS_QUESTION, "k": 2})
            region_id = found_text[1:found_text.index("]")]
            region_text, region = await call(tools["get_region"], {"region_id": region_id})
            answer = {"statements": [
                {"sentence": "Diluted EPS was 0.48 USD in Q3 2019.", "citation_ids": [region_id]},
                {"sentence": "Diluted EPS was 0.99 USD in Q3 2019.", "citation_ids": [region_id]},
                {"sentence": "The company will grow next year.", "citation_ids": []},
            ]}
            report_text, report = await call(tools["check_answer"], {"answer": answer})
            return tools, transport, region_id, region_text, region, report_text, report

    tools, transport, region_id, region_text, region, report_text, report = anyio.run(run)
    assert tools["search"].metadata["readOnlyHint"] is True and tools["check_answer"].metadata["idempotentHint"]
    assert CITATION_ID.fullmatch(region_id) and region_id == regions_of(transport)[0]["citation_id"]
    assert region["citation_id"] == region_id and region["document_id"] == "annual_report_en"
    assert "Q3 2019 | Revenue: 2,244" in region_text and "Diluted EPS (USD): 0.48" in region["text"]
    assert region["verified"] is True and region["pages"] == [6]
    assert json.loads(report_text) == report
    assert [s["sentence"] for s in report["accepted"]] == ["Diluted EPS was 0.48 USD in Q3 2019."]
    assert report["accepted"][0]["sources"][0]["pages"] == [6]
    assert {s["reason"] for s in report["rejected"]} == {"ungrounded_number", "unsupported"}
    assert starts.read_text().count("start") == 4  # tools listed, then one server per call
