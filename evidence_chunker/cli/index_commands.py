"""``sjt`` commands over an index: ingest, search, show, verify, diagnose."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..ingest.batch import collect_inputs
from ..output_files import atomic_output
from ..serve.diagnose import diagnose_index_file
from ..serve.serving import LAST_SEARCH_NOTE, last_result_path
from .common import (
    CliError,
    add_command,
    add_document_timeout,
    add_embedder,
    add_index,
    add_inputs,
    add_no_progress,
    add_output,
    add_page_range,
    add_parser_choice,
    ocr_options,
    check_inputs_exist,
    check_output_path,
    finite_above_zero,
    positive_int,
    say,
)

#: Largest `sjt show --scale` (pixels per point): 8 is 576 dpi, an A4 page of about 4760 x 6740 pixels.
MAX_SCALE = 8.0
#: Problems of SQLite's check of the index file that `sjt diagnose` prints (the rest are counted).
MAX_FILE_PROBLEMS = 5
#: What `--ray` without an ADDRESS stands for: start a local Ray cluster.
RAY_LOCAL = "local"


def register(sub) -> None:
    """Add ``ingest``, ``search``, ``show``, ``verify`` and ``diagnose`` to the subcommands ``sub``."""
    ingest = add_command(
        sub, "ingest", cmd_ingest,
        help="PDFs → evidence index: parse, chunk, compile and store (resumable)",
        description="Parse each PDF, build its Evidence Units and Text Chunks, compile them into semantic "
        "anchors and store everything in the index (one SQLite file, or a PostgreSQL server with pgvector when "
        "--index is a postgresql:// URL), one transaction per document. PDFs already "
        "indexed from the same path with the same bytes are skipped, so rerunning after an interruption "
        "resumes. A document's id is its file name; a name taken by another file gets a stable suffix and a "
        "warning. A failing PDF is reported by name and skipped (exit status 1). Workers die with the main "
        "process; SIGTERM stops them and exits with status 143. A summary line ends the run. An input path "
        "that does not exist is refused before the index is opened or created.",
        epilog="examples:\n  sjt ingest sample_pdfs/ --index out/index.sqlite --parser lite --workers 2\n"
        "  sjt ingest reports/ --index postgresql://rag@db.internal/evidence --ray auto\n"
        "  sjt ingest filing.pdf --index out/e5.sqlite --embedder e5 --page-range 1-40 --document-timeout 300",
    )
    add_inputs(ingest, "PDF files or folders (searched for *.pdf)", metavar="PATH")
    add_index(ingest)
    add_parser_choice(ingest)
    ingest.add_argument("--workers", type=positive_int, default=1, metavar="N",
                        help="parse in N processes (default: 1; the machine's cores is a good value); with --ray "
                        "and no ADDRESS, the CPUs of the local Ray cluster")
    ingest.add_argument("--ray", nargs="?", const=RAY_LOCAL, default=None, metavar="ADDRESS",
                        help="parse on a Ray cluster, one PDF a task (the ray extra): ADDRESS of a running cluster "
                        "(auto, host:6379, ray://host:10001), or none to start a local one (write --ray after the "
                        "PATHs); the PDFs must be readable by the workers at the same paths")
    add_embedder(ingest, "An index keeps the embedder it was built with: searches use it, and adding to the "
                 "index with another is refused (default: the index's own; lite for a new index)")
    add_page_range(ingest)
    add_document_timeout(ingest)
    add_no_progress(ingest)

    search = add_command(
        sub, "search", cmd_search,
        help="ask the index a question; the evidence comes back as the JSON transport (or text)",
        description="Search the index and print the result: the semantic-json-transport/context/v1 JSON "
        "(default) or the plain-text view. Regions from PDFs carry their pages, boxes and chunk ids. Search "
        "never writes to the index (a read-only index works); the result is also kept beside it, in "
        "INDEX.last-search.json, so `sjt show` can draw its regions (a warning, not an error, if that file "
        "cannot be written).",
        epilog='examples:\n  sjt search --index out/index.sqlite "What was operating income in 2024?" -k 3 --text\n'
        '  sjt search --index filings.sqlite "capital expenditure" --where company=3M --where fiscal_year=2022',
    )
    search.add_argument("query", help="the question")
    add_index(search)
    search.add_argument("-k", type=positive_int, default=5, metavar="N", help="number of regions (default: 5)")
    search.add_argument(
        "--where", action="append", default=[], metavar="FIELD=VALUE",
        help="keep to documents or units a field admits (repeatable; a field given twice matches either "
        "value): company (words of the filer's name, or its ticker), form (10-K), fiscal_year (2022), period "
        "(text of the period: 'June 30, 2023'), language (en, ko), documents (a document id), kind (table or "
        "text). Example: --where company=3M --where fiscal_year=2022")
    view = search.add_mutually_exclusive_group()
    view.add_argument("--json", dest="view", action="store_const", const="json", help="the JSON transport (default)")
    view.add_argument("--text", dest="view", action="store_const", const="text", help="the plain-text view")
    add_output(search, "also write the JSON transport here")
    add_embedder(search, "Needed only for a model loaded from a local folder (default: the one the index records)")
    search.set_defaults(view="json")

    show = add_command(
        sub, "show", cmd_show,
        help="draw a region's boxes on its PDF page(s) as a PNG",
        description="Render the PDF page(s) a region comes from with its boxes drawn in red, so a person can "
        "see where the evidence sits. REGION_ID is a citation id (DOC@c<start>-<end>.<hash>, as `sjt search` "
        "prints), resolved from the index alone; a positional id (DOC:R1) is looked up in --result (a saved "
        "transport) or else in the last `sjt search` run on this index file. The region must verify against "
        "the index (as `sjt verify`); the PDF drawn is the one recorded at ingest, never a file the transport "
        "names.",
        epilog="example:\n  sjt show --index out/index.sqlite 'annual_report_en@c730-1921.3fa2b1c9' -o region.png",
    )
    show.add_argument("region_id", metavar="REGION_ID")
    add_index(show)
    show.add_argument("--result", metavar="FILE", help="a transport JSON saved from `sjt search`")
    add_output(show, "the image to write", metavar="PNG", required=True)
    show.add_argument("--scale", type=render_scale, default=2.0,
                      help=f"pixels per PDF point, above 0 and at most {MAX_SCALE:g} (default: 2.0 = 144 dpi)")

    verify = add_command(
        sub, "verify", cmd_verify,
        help="re-verify the regions of a saved transport, or citation ids, against the index and the PDFs",
        description="For every region of a saved transport (or every citation id given, resolved from the "
        "index alone), checked against what the index recorded (never "
        "against the transport's own claims): the document's sha256, the exact text slice, lines and uri, the "
        "pages, boxes, chunk ids and PDF hash its source segments give, and the bytes of the PDF recorded at "
        "ingest (a missing PDF fails). A document added without a PDF is checked by its text alone; no file "
        "the transport names is opened. Prints one line per region; exit status 1 if any fails, 2 if the "
        "files cannot be read.",
        epilog="example:\n  sjt search --index out/index.sqlite \"net income\" > result.json\n"
        "  sjt verify --index out/index.sqlite result.json\n"
        "  sjt verify --index out/index.sqlite 'annual_report_en@c730-1921.3fa2b1c9'",
    )
    verify.add_argument("result", metavar="RESULT_JSON|CITATION_ID", nargs="+",
                        help="a transport saved from `sjt search` (or - for stdin), or citation ids "
                        "(DOC@c<start>-<end>.<hash>)")
    add_index(verify)

    diagnose = add_command(
        sub, "diagnose", cmd_diagnose,
        help="evidence-quality figures per document: tables, captions, splits, context, dropped chunks",
        description="Print, per indexed document, the figures a person checks before trusting an index: "
        "tables found, captions by source (direct, numbered caption, title block, running title, heading, none), running lines dropped from the text flow, split tables, context paragraphs adopted, text chunks "
        "dropped as consumed by a table, and anchors or PDFs that fail verification. Every document is read "
        "whole and SQLite checks the file (quick_check; integrity_check with --full): a damaged document is "
        "named in its row, damage that belongs to no one document is an error line. Exit status 0 when every "
        "document is ok, 1 when any has a problem or the file is damaged, 2 when the index cannot be opened.",
        epilog="example:\n  sjt diagnose --index out/index.sqlite\n  sjt diagnose --index out/index.sqlite --full",
    )
    add_index(diagnose)
    diagnose.add_argument("--json", action="store_true", help="print the figures as JSON")
    diagnose.add_argument("--full", action="store_true",
                          help="SQLite's integrity_check instead of its quick_check: also compares every index of the "
                          "file with its table (slower on a large index)")


def render_scale(text: str) -> float:
    """argparse type: a finite scale above 0 and at most MAX_SCALE."""
    return finite_above_zero(text, "a number", f"above 0 and at most {MAX_SCALE:g}", MAX_SCALE)


def _open_index(path: str, must_exist: bool = True, read_only: bool = True, embedder: str | None = None):
    """The repository in ``path`` (read-only unless a command writes), embedding with ``embedder`` (an
    ``--embedder`` choice) or else the embedder the index records; CliError naming the file when it cannot
    be used."""
    from semantic_json import SemanticRepository
    from semantic_json.errors import EmbedderMismatchError
    from semantic_json.store import IndexFileError

    from semantic_json.store import is_server_url

    if must_exist and not is_server_url(path) and not Path(path).is_file():
        raise CliError(f"{path}: index file not found (create it with `sjt ingest ... --index {path}`)")
    try:
        repo = SemanticRepository.open(path, embedder=_index_embedder(path, embedder), read_only=read_only)
    except (IndexFileError, EmbedderMismatchError) as exc:
        raise CliError(f"{exc}") from exc
    for document_id, why in repo.damaged.items():
        print(f"warning: {path}: document {document_id!r} is damaged and was left out ({why})", file=sys.stderr)
    return repo


def _index_embedder(path: str, choice: str | None):
    """The embedder to open ``path`` with: ``choice`` when given, else the neural one the index records,
    loaded from the local Hugging Face cache (None, the repository's default LiteEmbedder, for a lite, new or
    empty index)."""
    from semantic_json.embedder_choice import embedder_for_name, make_embedder, recorded_embedder_name
    from semantic_json.errors import ModelUnavailableError
    from semantic_json.store import is_server_url

    if choice is not None:
        return make_embedder(choice)
    if not is_server_url(path) and not Path(path).is_file():
        return None
    recorded = recorded_embedder_name(path)
    if recorded is None or recorded.startswith("lite-hash/"):
        return None
    try:
        return embedder_for_name(recorded, local_files_only=True)  # a search never waits on a download
    except ModelUnavailableError as exc:
        raise CliError(f"{path}: built with embedder {recorded!r}, which cannot be loaded by that name ({exc}); "
                       "pass --embedder st:MODEL_FOLDER with the model it was built with") from exc


def _check_query(query: str) -> None:
    try:
        query.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise CliError(f"query: not valid UTF-8 text (byte {exc.object[exc.start:exc.end]!r} at {exc.start}); "
                       "pass the question as UTF-8") from None


def cmd_ingest(args: argparse.Namespace) -> int:
    from ..ingest.run import ingest

    check_inputs_exist(args.inputs)  # before the index is opened: a typo must not leave an empty index behind
    inputs = collect_inputs(args.inputs, suffixes=(".pdf",))
    if not inputs:
        raise CliError("no PDF files found in the given paths")
    repo = _open_index(args.index, must_exist=False, read_only=False, embedder=args.embedder)
    try:
        if args.ray is not None:
            summary = _ray_ingest(args, inputs, repo)
        else:
            summary = ingest(inputs, repo, parser=args.parser, artifacts_path=args.artifacts_path,
                             workers=args.workers, progress=not args.no_progress, page_range=args.page_range,
                             document_timeout=args.document_timeout, ocr=ocr_options(args))
    finally:
        repo.close()
    say(args, summary.as_text())
    return 1 if summary.failures else 0


def _ray_ingest(args: argparse.Namespace, inputs: list[Path], repo):
    from ..errors import RayUnavailableError
    from ..ingest.ray_ingest import ray_ingest

    local = args.ray == RAY_LOCAL
    try:
        return ray_ingest(inputs, repo, parser=args.parser, artifacts_path=args.artifacts_path,
                          address=None if local else args.ray,
                          num_cpus=args.workers if local and args.workers > 1 else None,
                          progress=not args.no_progress, page_range=args.page_range,
                          document_timeout=args.document_timeout, ocr=ocr_options(args))
    except RayUnavailableError as exc:
        raise CliError(f"{exc}") from exc


def cmd_search(args: argparse.Namespace) -> int:
    from semantic_json.errors import SemanticJsonError
    from semantic_json.search import parse_where

    _check_query(args.query)
    check_output_path(args.output)
    try:
        where = parse_where(args.where) if args.where else None
    except SemanticJsonError as exc:
        raise CliError(f"{exc}") from exc
    repo = _open_index(args.index, embedder=args.embedder)
    try:
        try:
            result = repo.search(args.query, k=args.k, where=where)
        except SemanticJsonError as exc:
            raise CliError(f"{exc}") from exc
        transport = result.to_json(indent=2)
        if args.output:
            with atomic_output(args.output) as out:
                out.write(transport + "\n")
        _keep_last_result(args.index, transport, repo)
    finally:
        repo.close()
    print(result.to_text() if args.view == "text" else transport)
    return 0


def _keep_last_result(index: str, transport: str, repo) -> None:
    """Keep the result for `sjt show`: beside the index file, or on a server index as its note
    LAST_SEARCH_NOTE. A read-only folder or a server that refuses the write only costs that convenience."""
    from semantic_json.store import is_server_url

    if is_server_url(index):
        from psycopg import Error as ServerError

        try:
            repo.set_note(LAST_SEARCH_NOTE, transport)
        except ServerError as exc:
            print(f"warning: {index}: cannot keep the result for `sjt show` ({exc}); "
                  "pass `sjt show --result FILE` with a saved result instead", file=sys.stderr)
        return
    target = last_result_path(index)
    try:
        with atomic_output(target) as out:
            out.write(transport + "\n")
    except OSError as exc:
        print(f"warning: {target}: cannot keep the result for `sjt show` ({exc.strerror or exc}); "
              "pass `sjt show --result FILE` with a saved result instead", file=sys.stderr)


def _load_result(path: str):
    from semantic_json import SearchResult
    from semantic_json.errors import SemanticJsonError

    try:
        data = sys.stdin.buffer.read() if path == "-" else Path(path).read_bytes()
    except OSError as exc:
        raise CliError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    try:
        return SearchResult.from_json(data)
    except (SemanticJsonError, ValueError) as exc:
        raise CliError(f"{path}: not a semantic-json-transport result ({exc})") from exc


def _region_of(repo, args: argparse.Namespace):
    """The region `sjt show` draws: a citation id from the index, a positional id from a saved result."""
    from semantic_json import SearchResult, parse_citation_id
    from semantic_json.errors import SemanticJsonError, UnknownRegionError
    from semantic_json.store import is_server_url

    if not args.result and parse_citation_id(args.region_id) is not None:
        try:
            return repo.get_region(args.region_id)
        except UnknownRegionError as exc:
            raise CliError(str(exc)) from exc
    if args.result:
        result = _load_result(args.result)
    elif is_server_url(args.index):  # a server keeps the last search as its note
        saved = repo.get_note(LAST_SEARCH_NOTE)
        if saved is None:
            raise CliError(f"{args.index}: {args.region_id!r} is not a citation id (DOC@c<start>-<end>.<hash>), and "
                           "positional ids need --result FILE or a search run on this index (none kept yet)")
        try:
            result = SearchResult.from_json(saved)
        except (SemanticJsonError, ValueError) as exc:
            raise CliError(f"{args.index}: the last search kept on the server is not a result ({exc}); "
                           "search again or pass --result FILE") from exc
    else:
        saved = last_result_path(args.index)
        if not saved.is_file():
            raise CliError(f"{args.index}: {args.region_id!r} is not a citation id (DOC@c<start>-<end>.<hash>), and "
                           f"positional ids need --result FILE or a search run on this index file (no {saved.name})")
        result = _load_result(str(saved))
    region = next((r for r in result if args.region_id in (r.region_id, r.citation_id)), None)
    if region is None:
        known = ", ".join(r.citation_id for r in result) or "none"
        raise CliError(f"region {args.region_id!r} is not in that result (regions: {known})")
    return region


def cmd_show(args: argparse.Namespace) -> int:
    from semantic_json.provenance import recorded_pdf

    from ..serve.render import render_boxes
    from ..serve.serving import ServingError, verified_pdf
    from ..units.evidence_unit import PageBox

    check_output_path(args.output)
    repo = _open_index(args.index)
    try:
        region = _region_of(repo, args)
        check = repo.check_source(region)
        if not check.ok:
            raise CliError(f"{args.region_id}: does not verify against {args.index} ({check.explain()}); not drawn")
        pdf, _ = recorded_pdf(repo.get_document(region.document_id), repo.document_info(region.document_id))
        # pdf: the PDF recorded at ingest (or by the bridge, with the document); a transport's uri is never opened
        if not pdf:
            raise CliError(f"{args.region_id}: document {region.document_id!r} has no recorded PDF (it was not "
                           "ingested from a PDF)")
        try:  # its bytes read once and checked again: what is drawn is what was verified
            _, data = verified_pdf(repo, region.document_id)
        except ServingError as exc:
            raise CliError(f"{args.region_id}: {exc}") from exc
    finally:
        repo.close()
    boxes = [PageBox.from_dict(b) for b in (region.source.boxes or [])]
    if not boxes and not region.source.pages:
        raise CliError(f"region {args.region_id} has no pages or boxes (it did not come from a PDF)")
    try:
        pages = render_boxes(data, boxes, args.output, pages=region.source.pages or None, scale=args.scale)
    except ValueError as exc:
        raise CliError(f"{pdf}: {exc}") from exc
    say(args, f"wrote {args.output}: {Path(pdf).name} page(s) {', '.join(map(str, pages))}, {len(boxes)} box(es)")
    return 0


def _verify_targets(repo, targets: list[str]) -> list[tuple[str, object]]:
    """(label, region or error text) for every region of the transports and citation ids named; a region
    whose region id or citation id another region of its transport holds too is an error."""
    from semantic_json import parse_citation_id
    from semantic_json.transport import repeated_ids
    from semantic_json.errors import UnknownRegionError

    items: list[tuple[str, object]] = []
    for target in targets:
        if target != "-" and parse_citation_id(target) is not None and not Path(target).exists():
            try:
                items.append((target, repo.get_region(target)))
            except UnknownRegionError as exc:
                items.append((target, str(exc)))
            continue
        regions = list(_load_result(target))
        repeated = repeated_ids(((region.region_id, region.citation_id), region.model_dump_json()) for region in regions)
        for region in regions:
            twice = [f"{region_id!r} names {repeated[region_id]} regions" for region_id in
                     dict.fromkeys((region.region_id, region.citation_id)) if region_id in repeated]
            items.append((region.citation_id, f"region id not unique in {target}: {'; '.join(twice)}" if twice
                          else region))
    return items


def cmd_verify(args: argparse.Namespace) -> int:
    repo = _open_index(args.index)
    try:
        items = _verify_targets(repo, args.result)
        hashes: dict[str, str] = {}
        checks = [repo.check_source(region, hashes=hashes) if not isinstance(region, str) else None
                  for _, region in items]
    finally:
        repo.close()
    failed = 0
    for (label, region), check in zip(items, checks):
        if check is None:
            failed += 1
            print(f"FAIL {label}  {region}")
            continue
        failed += not check.ok
        print(f"{'ok  ' if check.ok else 'FAIL'} {label}  pages {region.pages or '-'}  {check.explain()}")
    say(args, f"{len(items) - failed} of {len(items)} region(s) verified")
    return 1 if failed else 0


def cmd_diagnose(args: argparse.Namespace) -> int:
    repo = _open_index(args.index)
    try:
        rows, file_problems = diagnose_index_file(repo, full=args.full)
    finally:
        repo.close()
    if file_problems:
        from semantic_json.store import REBUILD_HINT

        shown = "; ".join(file_problems[:MAX_FILE_PROBLEMS])
        more = f"; and {len(file_problems) - MAX_FILE_PROBLEMS} more" if len(file_problems) > MAX_FILE_PROBLEMS else ""
        print(f"error: {args.index}: the index file is damaged (SQLite {shown}{more}); {REBUILD_HINT}", file=sys.stderr)
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=2))
    else:
        header = (f"{'document':<28} {'pages':>5} {'tables':>6} {'direct/caption/block/running/heading/none':>41} "
                  f"{'split':>5} {'context':>7} {'dropped':>7} {'anchors':>7}  problems")
        print(header)
        from ..units.titles import CAPTION_SOURCES

        for row in rows:
            sources = row.get("caption_sources") or {}
            counts = "/".join(str(sources.get(source, 0)) for source in CAPTION_SOURCES) if sources else "-"
            print(
                f"{row['document_id'][:28]:<28} {row.get('pages') or '-':>5} {row.get('tables') if row.get('tables') is not None else '-':>6} "
                f"{counts:>41} "
                f"{row.get('split_tables') if row.get('split_tables') is not None else '-':>5} "
                f"{row.get('context_paragraphs') if row.get('context_paragraphs') is not None else '-':>7} "
                f"{row.get('text_chunks_dropped') if row.get('text_chunks_dropped') is not None else '-':>7} "
                f"{row.get('anchors', '-'):>7}  {'; '.join(row['problems']) or 'ok'}"
            )
            dropped = row.get("dropped_lines") or {}
            if dropped.get("count"):
                examples = ", ".join(json.dumps(text, ensure_ascii=False) for text in dropped.get("examples", []))
                print(f"    running lines dropped from the text flow: {dropped['count']} (most frequent: {examples})")
            if row.get("ocr_pages"):
                print(f"    pages read by OCR: {row['ocr_pages']}, mean word confidence {row['ocr_confidence']:.2f}"
                      + (f"; OCR timed out on pages {row['ocr_timeouts']}" if row.get("ocr_timeouts") else ""))
    return 1 if file_problems or any(row["problems"] for row in rows) else 0
