"""`sjt mcp`: the evidence index as a Model Context Protocol server (official `mcp` SDK 1.24+ or 2.x, stdio).

Tools, all read-only: ``search`` (a question → regions of original text), ``get_region`` (a region id → text,
pages, boxes, source), ``verify`` (a transport or region ids → verified or why not, PDF bytes included),
``check_answer`` (a cited answer → the citation oracle's report). Resource ``sjt://cited-answer-schema`` and
prompt ``answer_with_citations``: the function definition an LLM answers with, and how to use it.

Every call stands alone: regions are named by their stable citation ids (``DOC@c730-1921.3fa2b1c9``), which
resolve through the index (``SemanticRepository.get_region``), never through an earlier call of the same
session, because clients such as langchain-mcp-adapters open a new session (a new server process) per tool
call. ``search`` hands a compact text view as text content (what the model reads: ids, pages, region text)
and the full transport as structured content. A bad argument is a tool error (``isError``) whose
message says what is wrong; the server keeps running.

Needs the extra ``mcp``; nothing here imports the SDK unless `sjt mcp` runs. Annotations are evaluated (no
``from __future__ import annotations``): the SDK builds each tool's input schema from them, and the result
type is the SDK's own class, known only inside build_server.
"""

import argparse
import inspect
import json
from importlib import metadata, resources
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from .serving import (
    DEFAULT_K,
    MAX_K,
    ServingError,
    check_k,
    check_region,
    last_cli_result,
    open_repository,
    parse_transport,
    region_summary,
)

SERVER_NAME = "semantic-json-transport"
#: The distribution whose version the server reports.
DISTRIBUTION = "semantic-json-transport"
#: URI of the cited-answer schema resource.
SCHEMA_RESOURCE_URI = "sjt://cited-answer-schema"
#: Name of the prompt that asks for a cited answer.
PROMPT_NAME = "answer_with_citations"
#: What `citation_ids` holds when no search of the session limits it to an enum.
FREE_CITATION_IDS = (
    "Citation ids of the regions this sentence is drawn from, copied exactly as `search` printed them in "
    "brackets (document@c<start>-<end>.<hash>). An empty list marks the sentence as unsupported, and it will be "
    "dropped."
)
#: The text content of a search that found nothing.
NO_EVIDENCE_TEXT = "No evidence found: no region of the index matches this search."
INSTRUCTIONS = (
    "Answer questions from report PDFs with evidence: call `search` for regions of original text, answer as "
    "statements that cite the region ids `search` prints in brackets (the prompt answer_with_citations and the resource "
    f"{SCHEMA_RESOURCE_URI} give the schema), then call `check_answer` to drop uncited or wrongly cited "
    "statements. `get_region` and `verify` show where a region comes from and whether it still matches its "
    "source. Every call stands alone: a region id printed by any search resolves through the index."
)
#: What every tool declares: it reads the index and the indexed PDFs, changes nothing, and answers the same
#: call the same way.
READ_ONLY_TOOL = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True, "openWorldHint": False}
ANSWER_STEPS = (
    "1. Call the tool `search` with the question (k=5 is usually enough; `where` narrows it, e.g. "
    "{\"company\": \"3M\", \"fiscal_year\": \"2022\"}).\n"
    "2. Answer only from the regions it returns, as JSON of the cited-answer schema below: one statement per "
    "sentence, each with the ids of the regions it is drawn from, copied exactly as the search printed them "
    "(in brackets). A sentence no region supports gets [] and will be dropped. Write numbers as the cited "
    "region prints them, or the same value in another unit.\n"
    "3. Call `check_answer` with that JSON and tell the user only the accepted statements, with their pages."
)

# ----------------------------------------------------------------------------- arguments (the input schema)

FilterValues = str | list[str] | None


class Where(BaseModel):
    """A search filter as the tool advertises it (the fields of semantic_json's SearchFilter)."""

    model_config = ConfigDict(extra="forbid")

    company: FilterValues = Field(None, description="Filer: words of its name, its ticker or its initials, "
                                  "e.g. \"3M\", \"Johnson & Johnson\", \"JPM\".")
    form: FilterValues = Field(None, description="Filing form, e.g. \"10-K\", \"10-Q\".")
    fiscal_year: int | str | list[int | str] | None = Field(None, description="Fiscal year, e.g. 2022.")
    period: FilterValues = Field(None, description="Text the period holds, e.g. \"June 30, 2023\".")
    language: FilterValues = Field(None, description="Document language: \"en\", \"ko\".")
    documents: FilterValues = Field(None, description="Document ids.")
    kind: Literal["table", "text"] | list[Literal["table", "text"]] | None = Field(
        None, description="\"table\" for table rows only, \"text\" for prose only.")


Query = Annotated[str, Field(min_length=1, description="The question or keywords, in the documents' language.")]
K = Annotated[int, Field(ge=1, le=MAX_K, description=f"How many regions to return (1 to {MAX_K}).")]
DocumentIds = Annotated[list[Annotated[str, Field(min_length=1)]] | None, Field(
    min_length=1, description="Search only these document ids (omit to search every document).")]
WhereArg = Annotated[Where | None, Field(description="Search only the documents and units this filter admits; "
                                         "each field is one value or a list (any matches).")]
RegionId = Annotated[str, Field(min_length=1, description="A region id as a search printed it, e.g. "
                                "\"annual_report_en@c1520-2710.9f2c4e1a\" (document@characters.hash).")]
RegionIds = Annotated[list[Annotated[str, Field(min_length=1)]] | None, Field(
    min_length=1, description="Region ids to verify (pass this or `transport`).")]
Transport = Annotated[dict[str, Any] | None, Field(
    description="A semantic-json-transport/context/v1 search result (the structured content of `search`).")]


class Statement(BaseModel):
    """One sentence of a cited answer, as the tool advertises it (the oracle checks it in full)."""

    model_config = ConfigDict(extra="forbid")

    sentence: str = Field(description="One self-contained sentence of the answer, no citation markers.")
    citation_ids: list[str] = Field(description="Ids of the regions the sentence is drawn from; [] when none.")


class Answer(BaseModel):
    """A cited answer: the shape of the cited-answer schema."""

    model_config = ConfigDict(extra="forbid")

    statements: list[Statement] = Field(description="The answer, one statement per sentence, in reading order.")


Policy = Annotated[Literal["reject", "strip"], Field(
    description="`reject` drops a statement citing an unknown id; `strip` removes the unknown id and keeps the "
    "statement while a valid id remains.")]
LenientNumbers = Annotated[bool, Field(description="Only flag, not reject, a statement whose figures its cited "
                                       "regions do not print (after unit and scale normalisation).")]
Question = Annotated[str, Field(min_length=1, description="The question to answer from the indexed documents.")]

# ----------------------------------------------------------------------------- what the tools do


def compact_text(result) -> str:
    """The text a model reads for a search result: per region its id in brackets and its pages, then its text.

    Nothing else: the query is the caller's own, and scores, coordinates, hashes, anchors and boxes stay in
    the transport (the structured content)."""
    if not len(result):
        return NO_EVIDENCE_TEXT
    blocks = []
    for region in result:
        pages = ",".join(str(p) for p in region.source.pages or [])
        blocks.append(f"[{region.citation_id}]{f' p.{pages}' if pages else ''}\n{region.text}")
    return "\n\n".join(blocks)


def free_schema() -> dict[str, Any]:
    """The cited-answer function definition before any search: citation ids are any strings."""
    from semantic_json.citations import (
        CITED_ANSWER_SCHEMA_FILE,
        DEFAULT_TOOL_DESCRIPTION,
        DEFAULT_TOOL_NAME,
        SCHEMA_FILE_META_KEYS,
    )

    text = resources.files("semantic_json").joinpath("schemas", CITED_ANSWER_SCHEMA_FILE).read_text(encoding="utf-8")
    parameters = json.loads(text)
    for key in SCHEMA_FILE_META_KEYS:
        parameters.pop(key, None)
    statement = parameters["properties"]["statements"]["items"]["properties"]
    statement["citation_ids"]["description"] = FREE_CITATION_IDS
    return {"name": DEFAULT_TOOL_NAME, "description": DEFAULT_TOOL_DESCRIPTION, "parameters": parameters,
            "strict": True}


class EvidenceSession:
    """What the tools do, over one open index. Every call stands alone: region ids resolve through the index.

    ``latest`` (the last search of this session) only narrows the schema resource's citation ids to that
    search's regions. Methods raise ServingError for requests they refuse; the MCP layer makes it a tool error.
    """

    def __init__(self, repo) -> None:
        self.repo = repo
        self.latest = None

    def search(self, query: str, k: int = DEFAULT_K, documents: list[str] | None = None,
               where: dict[str, Any] | None = None):
        """The SearchResult for ``query``."""
        from semantic_json.errors import SemanticJsonError

        check_k(k)
        try:
            result = self.repo.search(query, k=k, documents=documents, where=where)
        except SemanticJsonError as exc:
            raise ServingError(str(exc)) from exc
        self.latest = result
        return result

    def region(self, region_id: str):
        """The region ``region_id`` names, from the index (or the last `sjt search` beside it)."""
        from semantic_json.errors import UnknownRegionError

        try:
            return self.repo.get_region(region_id)
        except UnknownRegionError as exc:
            failure = exc
        for region in last_cli_result(self.repo) or ():
            if region.region_id == region_id:
                return region
        raise ServingError(str(failure)) from None

    def get_region(self, region_id: str) -> dict[str, Any]:
        region = self.region(region_id)
        summary = region_summary(region)
        summary["verified"], summary["why"] = check_region(self.repo, region)
        return summary

    def verify(self, transport: dict[str, Any] | str | None = None,
               region_ids: list[str] | None = None) -> dict[str, Any]:
        if (transport is None) == (region_ids is None):
            raise ServingError("pass exactly one of `transport` (a search result) or `region_ids`")
        regions = list(parse_transport(transport)) if transport is not None else [self.region(r) for r in region_ids]
        checks = []
        for region in regions:
            verified, why = check_region(self.repo, region)
            checks.append({"citation_id": region.citation_id, "region_id": region.region_id,
                           "document_id": region.document_id,
                           "pages": region.source.pages or [], "verified": verified, "why": why})
        return {"verified": all(c["verified"] for c in checks), "regions": checks}

    def check_answer(self, answer: dict[str, Any] | str, transport: dict[str, Any] | str | None = None,
                     policy: str = "reject", lenient_numbers: bool = False) -> dict[str, Any]:
        """The oracle's report for ``answer``: against ``transport``, or else against the regions its citation
        ids name in the index (an id the index does not resolve, or whose document changed, is an invalid
        citation that says why)."""
        from semantic_json import validate_cited_answer
        from semantic_json.errors import SemanticJsonError

        against = {"result": parse_transport(transport)} if transport is not None else {"repository": self.repo}
        try:
            report = validate_cited_answer(answer, policy=policy, strict_numbers=not lenient_numbers, **against)
        except (SemanticJsonError, ValueError, TypeError) as exc:
            raise ServingError(f"answer: {exc}") from exc
        return report.to_dict()

    def cited_answer_schema(self) -> dict[str, Any]:
        """The function definition for the latest search of this session, else with free-form ids."""
        from semantic_json import cited_answer_schema

        return cited_answer_schema(self.latest) if self.latest is not None else free_schema()

    def answer_prompt(self, question: str) -> str:
        """The answer_with_citations prompt: the question, the steps and the schema (free-form ids)."""
        if not question.strip():
            raise ServingError("question is empty; pass the question to answer")
        schema = json.dumps(free_schema(), ensure_ascii=False)
        return (f"Answer this question from the indexed documents, citing evidence: {question.strip()}\n\n"
                f"{ANSWER_STEPS}\n\nCited-answer schema (a function definition):\n{schema}")


# ----------------------------------------------------------------------------- the MCP layer


def _sdk():
    """``(server class, ToolError, CallToolResult, ToolAnnotations)`` of the installed SDK: mcp 2.x renamed
    FastMCP to MCPServer; both take the same decorators and camelCase protocol fields."""
    try:
        from mcp.server.mcpserver import MCPServer as Server
        from mcp.server.mcpserver.exceptions import ToolError
    except ImportError:  # mcp 1.x
        from mcp.server.fastmcp import FastMCP as Server
        from mcp.server.fastmcp.exceptions import ToolError
    from mcp.types import CallToolResult, ToolAnnotations

    return Server, ToolError, CallToolResult, ToolAnnotations


def server_version() -> str:
    """The installed package's version (the server reports it at initialisation)."""
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


def _new_server(server_class):
    # WARNING: the SDK logs every refused call at INFO on stderr, which an MCP client shows as noise.
    options = {"instructions": INSTRUCTIONS, "log_level": "WARNING"}
    if "version" in inspect.signature(server_class).parameters:
        return server_class(SERVER_NAME, version=server_version(), **options)
    server = server_class(SERVER_NAME, **options)
    # mcp 1.x's FastMCP takes no version and would report the SDK's own; its low-level server holds it.
    server._mcp_server.version = server_version()
    return server


def build_server(session: EvidenceSession):
    """An MCP server (MCPServer on mcp 2.x, FastMCP on 1.x) whose tools, resource and prompt call ``session``.

    Tools are coroutines so they run on the event loop's thread, the one that opened the index's SQLite
    connection (the SDK may run plain functions in worker threads, where that connection may not be used).
    """
    server_class, tool_error, call_tool_result, tool_annotations = _sdk()
    server = _new_server(server_class)

    def call(method, *args):
        try:
            return method(*args)
        except ServingError as exc:
            raise tool_error(str(exc)) from exc

    def reply(text: str, data: dict[str, Any]):
        return call_tool_result.model_validate({"content": [{"type": "text", "text": text}],
                                                "structuredContent": data})

    def as_json(data: dict[str, Any]):
        return reply(json.dumps(data, ensure_ascii=False, separators=(",", ":")), data)

    def annotations(title: str):
        return tool_annotations.model_validate({"title": title, **READ_ONLY_TOOL})

    @server.tool(annotations=annotations("Search the evidence"), description=(
        "Search the indexed report PDFs. Text: per region its id in brackets and its pages, then its "
        "original text, best document first. Structured content: the semantic-json-transport/context/v1 "
        "transport (scores, source spans, document hashes, boxes). Cite regions by the ids in brackets."))
    async def search(query: Query, k: K = DEFAULT_K, documents: DocumentIds = None,
                     where: WhereArg = None) -> call_tool_result:
        filters = where.model_dump(exclude_none=True) if where is not None else None
        result = call(session.search, query, k, documents, filters)
        return reply(compact_text(result), result.to_dict())

    @server.tool(annotations=annotations("Get a region"), description=(
        "One region by id, from the index (no earlier search needed): its text, pages, boxes (PDF points, "
        "BOTTOMLEFT origin), source span, and whether it still verifies against the index and the PDF."))
    async def get_region(region_id: RegionId) -> call_tool_result:
        summary = call(session.get_region, region_id)
        status = "verified" if summary["verified"] else f"NOT verified: {summary['why']}"
        pages = ",".join(str(p) for p in summary["pages"]) or "-"
        return reply(f"[{summary['citation_id']}] p.{pages} {status}\n{summary['text']}", summary)

    @server.tool(annotations=annotations("Verify regions"), description=(
        "Re-check regions against the index and the PDF bytes: pass a transport or region ids. Returns "
        "verified per region and why not (e.g. 'PDF changed')."))
    async def verify(transport: Transport = None, region_ids: RegionIds = None) -> call_tool_result:
        return as_json(call(session.verify, transport, region_ids))

    @server.tool(annotations=annotations("Check a cited answer"), description=(
        "Check a cited answer against its evidence: the transport if given, else the regions its citation ids "
        "name in the index. A statement citing no region, an id that does not resolve, or a figure its regions "
        "do not print is rejected. Returns accepted statements with their sources and rejected ones with the "
        "reason."))
    async def check_answer(answer: Answer, transport: Transport = None, policy: Policy = "reject",
                           lenient_numbers: LenientNumbers = False) -> call_tool_result:
        return as_json(call(session.check_answer, answer.model_dump(), transport, policy, lenient_numbers))

    @server.resource(SCHEMA_RESOURCE_URI, name="cited_answer_schema", mime_type="application/json",
                     description="The cited-answer function definition (name, description, parameters, strict). "
                     "After a search in this session its citation ids are that search's region ids; otherwise "
                     "any string.")
    async def cited_answer_schema() -> str:
        return json.dumps(session.cited_answer_schema(), ensure_ascii=False)

    @server.prompt(name=PROMPT_NAME, description="Answer a question from the indexed documents as statements "
                   "that cite evidence regions: the steps (search, answer, check_answer) and the cited-answer "
                   "schema.")
    async def answer_with_citations(question: Question) -> str:
        return call(session.answer_prompt, question)

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
        description="Run a Model Context Protocol server on stdin/stdout with the read-only tools search, "
        "get_region, verify and check_answer, the resource sjt://cited-answer-schema and the prompt "
        "answer_with_citations. Point an MCP client at the command `sjt mcp --index FILE`. Needs the extra `mcp`.",
        epilog="example:\n  sjt mcp --index out/index.sqlite",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--index", required=True, metavar="FILE", help="the index file (SQLite; created by ingest)")
    p.set_defaults(func=cmd_mcp)
