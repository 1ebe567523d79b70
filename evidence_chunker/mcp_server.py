"""`sjt mcp`: the evidence index as a Model Context Protocol server (official `mcp` SDK, stdio transport).

Tools: ``search`` (a question → the transport), ``get_region`` (a region id → text, pages, boxes, source),
``verify`` (a transport or region ids → verified or why not, PDF bytes included), ``check_answer`` (a cited
answer → the citation oracle's report). Resource ``sjt://cited-answer-schema``: the function definition an
LLM answers with, its citation ids limited to the latest search's regions. A bad argument is a tool error
(``isError``) with a message saying what is wrong; the server keeps running.

Needs the extra ``mcp``; nothing here is imported unless `sjt mcp` runs.
"""

from __future__ import annotations

import argparse
import json
from importlib import resources
from typing import Any, Literal

from .serving import (
    DEFAULT_K,
    ServingError,
    check_k,
    check_region,
    last_cli_result,
    open_repository,
    parse_transport,
    region_summary,
)

SERVER_NAME = "semantic-json-transport"
#: URI of the cited-answer schema resource.
SCHEMA_RESOURCE_URI = "sjt://cited-answer-schema"
INSTRUCTIONS = (
    "Answer questions from report PDFs with evidence: call `search` for regions of original text, answer as "
    f"statements that cite region ids (the schema is the resource {SCHEMA_RESOURCE_URI}), then call "
    "`check_answer` to drop uncited or wrongly cited statements. `get_region` and `verify` show where a "
    "region comes from and whether it still matches its source."
)


class EvidenceSession:
    """The tools' state: one open index and the latest search result of this session.

    Methods raise ServingError for requests they refuse; the MCP layer turns that into a tool error.
    """

    def __init__(self, repo) -> None:
        self.repo = repo
        self.latest = None

    def search(self, query: str, k: int = DEFAULT_K, documents: list[str] | None = None,
               where: dict[str, Any] | None = None) -> dict[str, Any]:
        from semantic_json.errors import SemanticJsonError

        check_k(k)
        try:
            result = self.repo.search(query, k=k, documents=documents, where=where)
        except SemanticJsonError as exc:
            raise ServingError(str(exc)) from exc
        self.latest = result
        return result.to_dict()

    def _region(self, region_id: str):
        """A region of this session's searches, else of the last `sjt search` on the index."""
        from semantic_json.errors import UnknownRegionError

        try:
            return self.repo.get_region(region_id)
        except UnknownRegionError:
            pass
        saved = last_cli_result(self.repo)
        for region in saved or ():
            if region.region_id == region_id:
                return region
        raise ServingError(f"unknown region id {region_id!r}: it is not in any search result of this session "
                           "(run `search` first, or pass the transport to `verify`)")

    def get_region(self, region_id: str) -> dict[str, Any]:
        region = self._region(region_id)
        summary = region_summary(region)
        verified, why = check_region(self.repo, region)
        summary["verified"] = verified
        summary["why"] = why
        return summary

    def verify(self, transport: dict[str, Any] | str | None = None,
               region_ids: list[str] | None = None) -> dict[str, Any]:
        if (transport is None) == (region_ids is None):
            raise ServingError("pass exactly one of `transport` (a search result) or `region_ids`")
        regions = list(parse_transport(transport)) if transport is not None else [self._region(r) for r in region_ids]
        checks = []
        for region in regions:
            verified, why = check_region(self.repo, region)
            checks.append({"region_id": region.region_id, "document_id": region.document_id,
                           "pages": region.source.pages or [], "verified": verified, "why": why})
        return {"verified": all(c["verified"] for c in checks), "regions": checks}

    def check_answer(self, answer: dict[str, Any] | str, transport: dict[str, Any] | str | None = None,
                     policy: str = "reject", strict: bool = False) -> dict[str, Any]:
        from semantic_json import validate_cited_answer
        from semantic_json.errors import SemanticJsonError

        result = parse_transport(transport) if transport is not None else self.latest
        if result is None:
            raise ServingError("no transport given and no search run in this session: pass `transport`")
        try:
            report = validate_cited_answer(answer, result, policy=policy, strict_numbers=strict)
        except (SemanticJsonError, ValueError, TypeError) as exc:
            raise ServingError(f"answer: {exc}") from exc
        return report.to_dict()

    def cited_answer_schema(self) -> str:
        """The function definition for the latest search (before any search: the schema file, any ids)."""
        from semantic_json import cited_answer_schema
        from semantic_json.citations import CITED_ANSWER_SCHEMA_FILE

        if self.latest is not None:
            return json.dumps(cited_answer_schema(self.latest), ensure_ascii=False, indent=2)
        return resources.files("semantic_json").joinpath("schemas", CITED_ANSWER_SCHEMA_FILE).read_text(encoding="utf-8")


def build_server(session: EvidenceSession):
    """An MCPServer whose tools and resource call ``session``.

    Tools are coroutines so they run on the event loop's thread, the one that opened the index's SQLite
    connection (the SDK runs plain functions in worker threads, where that connection may not be used).
    """
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    # WARNING: the SDK logs every refused call at INFO on stderr, which an MCP client shows as noise.
    server = MCPServer(SERVER_NAME, instructions=INSTRUCTIONS, log_level="WARNING")

    def call(method, *args, **kwargs) -> dict[str, Any]:
        try:
            return method(*args, **kwargs)
        except ServingError as exc:
            raise ToolError(str(exc)) from exc

    @server.tool(description="Search the evidence index. Returns the semantic-json-transport/context/v1 JSON: "
                 "regions of original text with score, pages, boxes and source. `documents` limits the search "
                 "to those document ids; `where` to the documents and units a filter admits: company, form, "
                 "fiscal_year, period, language, kind ('table' or 'text'), e.g. {\"company\": \"3M\", "
                 "\"fiscal_year\": \"2022\"}.")
    async def search(query: str, k: int = DEFAULT_K, documents: list[str] | None = None,
                     where: dict[str, Any] | None = None) -> dict[str, Any]:
        return call(session.search, query, k, documents, where)

    @server.tool(description="One region of a search result by id (e.g. 'credit_review_ko:R1'): text, pages, "
                 "boxes (PDF points, BOTTOMLEFT origin), source span, and whether it still verifies.")
    async def get_region(region_id: str) -> dict[str, Any]:
        return call(session.get_region, region_id)

    @server.tool(description="Re-check regions against the index and the PDF bytes. Pass a transport (JSON "
                 "object or text) or region ids of this session's searches. Returns verified per region "
                 "and why not.")
    async def verify(transport: dict[str, Any] | str | None = None,
                     region_ids: list[str] | None = None) -> dict[str, Any]:
        return call(session.verify, transport, region_ids)

    @server.tool(description="Check a cited answer {'statements': [{'sentence', 'citation_ids'}]} against a "
                 "transport (default: this session's latest search). Returns the validation report: accepted "
                 "statements with their sources, rejected ones with the reason.")
    async def check_answer(answer: dict[str, Any] | str, transport: dict[str, Any] | str | None = None,
                           policy: Literal["reject", "strip"] = "reject", strict: bool = False) -> dict[str, Any]:
        return call(session.check_answer, answer, transport, policy, strict)

    @server.resource(SCHEMA_RESOURCE_URI, name="cited_answer_schema", mime_type="application/json",
                     description="The cited-answer function definition; citation ids are limited to the "
                     "regions of the latest search of this session.")
    async def cited_answer_schema() -> str:
        return session.cited_answer_schema()

    return server


def cmd_mcp(args: argparse.Namespace) -> int:
    """Serve the index over stdio until the client closes the connection."""
    import sys

    try:
        import mcp  # noqa: F401
    except ImportError:
        print("error: sjt mcp needs the `mcp` extra: pip install 'semantic-json-transport[mcp]'", file=sys.stderr)
        return 2
    try:
        repo = open_repository(args.index)
    except ServingError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        build_server(EvidenceSession(repo)).run("stdio")
    finally:
        repo.close()
    return 0


def register(sub) -> None:
    """Add the ``mcp`` subcommand."""
    p = sub.add_parser(
        "mcp",
        help="serve the index to LLM clients over the Model Context Protocol (stdio)",
        description="Run a Model Context Protocol server on stdin/stdout with the tools search, get_region, "
        "verify and check_answer and the resource sjt://cited-answer-schema. Point an MCP client at the "
        "command `sjt mcp --index FILE`. Needs the extra `mcp`.",
        epilog="example:\n  sjt mcp --index out/index.sqlite",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--index", required=True, metavar="FILE", help="the index file (SQLite; created by ingest)")
    p.set_defaults(func=cmd_mcp)
