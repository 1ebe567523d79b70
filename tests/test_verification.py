"""`sjt verify` / SemanticRepository.check_source answer from the index, never from a transport's own claims.

The hostile transports of issue 13 (removed or substituted PDF hash, forged pages, boxes and chunk ids, a
uri naming another file) each fail with their reason, and a hypothesis fuzz of mutated transports never
yields "verified" for a region whose text, document, coordinates, pages, boxes or PDF differ from the index.
"""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evidence_chunker.cli import main as sjt
from repo_paths import SAMPLE_PDFS
from semantic_json import EvidenceRegion, SearchResult, SemanticRepository, compile
from semantic_json.provenance import (
    COORDINATES_DIFFER,
    DOCUMENT_ID_DIFFERS,
    HASH_DIFFERS,
    PDF_CHANGED,
    PDF_MISSING,
    PROVENANCE_DIFFERS,
    REGION_ID_DIFFERS,
    SLICE_DIFFERS,
    SPAN_OUT_OF_RANGE,
    UNKNOWN_DOCUMENT,
)

#: Examples the fuzz runs (the issue asks for at least 2,000).
FUZZ_EXAMPLES = 2_000
#: A text document added from Python, whose uri names files a hostile transport would like probed.
PLAIN_TEXT = "Revenue was 1,200 in 2024.\n\nOperating income rose to 310 in 2024, up from 250.\n"
QUERIES = ("operating income 2024", "원리금 상환 합계", "Revenue 2024")


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """An index of two sample PDFs plus a document added from Python (no PDF), and a saved result with
    regions of all three."""
    root = tmp_path_factory.mktemp("verify")
    pdfs = root / "pdfs"
    pdfs.mkdir()
    for name in ("mixed_brief.pdf", "credit_review_ko.pdf"):
        shutil.copy(SAMPLE_PDFS / name, pdfs / name)
    index = root / "index.sqlite"
    assert sjt(["ingest", str(pdfs), "--index", str(index), "--parser", "lite", "--no-progress"]) == 0
    repo = SemanticRepository.open(index)
    repo.add(compile(PLAIN_TEXT, "plain_notes", source_uri="file:///etc/passwd"))
    regions: dict[str, EvidenceRegion] = {}
    for query in QUERIES:
        for region in repo.search(query, k=6):
            regions.setdefault(f"{region.document_id}@{region.source.start_char}", region)
    repo.close()
    assert {r.document_id for r in regions.values()} == {"mixed_brief", "credit_review_ko", "plain_notes"}
    numbers: dict[str, int] = {}  # regions of several searches: positional ids renumbered, unique in one transport
    for key, region in regions.items():
        numbers[region.document_id] = numbers.get(region.document_id, 0) + 1
        regions[key] = region.model_copy(update={"region_id": f"{region.document_id}:R{numbers[region.document_id]}"})
    result = SearchResult("fixture", list(regions.values()))
    saved = root / "result.json"
    saved.write_text(result.to_json(), encoding="utf-8")
    return root, pdfs, index, saved


def _verify(index: Path, transport: dict, tmp_path: Path, capsys) -> tuple[int, str]:
    path = tmp_path / "t.json"
    path.write_text(json.dumps(transport, ensure_ascii=False), encoding="utf-8")
    capsys.readouterr()
    code = sjt(["verify", "--index", str(index), str(path)])
    return code, capsys.readouterr().out


def _pdf_region(transport: dict) -> dict:
    return next(r for d in transport["documents"] if d["document_id"] == "mixed_brief" for r in d["regions"])


def test_a_fresh_result_verifies_region_by_region(built, capsys):
    _, _, index, saved = built
    assert sjt(["verify", "--index", str(index), str(saved)]) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out and out.count("verified") == len(SearchResult.from_json(saved.read_text()))


def test_removing_the_pdf_hash_from_the_transport_does_not_skip_the_pdf_check(built, tmp_path, capsys):
    _, pdfs, index, saved = built
    transport = json.loads(saved.read_text())
    del _pdf_region(transport)["source"]["pdf_sha256"]
    code, out = _verify(index, transport, tmp_path, capsys)
    assert code == 1 and f"{PROVENANCE_DIFFERS}: pdf_sha256 absent" in out


def test_a_missing_pdf_fails_even_when_the_transport_has_no_pdf_hash(built, tmp_path, capsys):
    root, pdfs, index, saved = built
    transport = json.loads(saved.read_text())
    for document in transport["documents"]:  # drop every claim about the PDF: the index still knows
        for region in document["regions"]:
            region["source"].pop("pdf_sha256", None)
    moved = root / "moved.pdf"
    shutil.move(pdfs / "mixed_brief.pdf", moved)
    try:
        repo = SemanticRepository.open(index, read_only=True)
        region = next(r for r in SearchResult.from_json(saved.read_text()) if r.document_id == "mixed_brief")
        check = repo.check_source(region)
        repo.close()
        code, _ = _verify(index, transport, tmp_path, capsys)
    finally:
        shutil.move(moved, pdfs / "mixed_brief.pdf")
    assert not check.ok and check.reason == PDF_MISSING and "mixed_brief.pdf" in check.detail
    assert code == 1


def test_a_substituted_pdf_fails_even_when_the_transport_claims_its_hash(built, tmp_path, capsys):
    _, pdfs, index, saved = built
    target = pdfs / "mixed_brief.pdf"
    original = target.read_bytes()
    shutil.copy(SAMPLE_PDFS / "annual_report_en.pdf", target)
    try:
        transport = json.loads(saved.read_text())
        _pdf_region(transport)["source"]["pdf_sha256"] = _sha256(target)
        code, out = _verify(index, transport, tmp_path, capsys)
        untouched, out_untouched = _verify(index, json.loads(saved.read_text()), tmp_path, capsys)
    finally:
        target.write_bytes(original)
    assert code == 1 and PROVENANCE_DIFFERS in out  # the claimed hash is not the recorded one
    assert untouched == 1 and f"{PDF_CHANGED}: {target}" in out_untouched  # the bytes on disk changed


@pytest.mark.parametrize(
    "forge, reason, words",
    [
        (lambda s: s.update(pages=[p + 1 for p in s["pages"]]), PROVENANCE_DIFFERS, "pages"),
        (lambda s: s["boxes"][0].update(bbox=[0, 0, 10, 10]), PROVENANCE_DIFFERS, "boxes"),
        (lambda s: s["boxes"][0].update(page=s["boxes"][0]["page"] + 1), PROVENANCE_DIFFERS, "pages"),
        (lambda s: s.update(boxes=[]), PROVENANCE_DIFFERS, "boxes"),
        (lambda s: s.update(chunk_ids=["mixed_brief-p9-9"]), PROVENANCE_DIFFERS, "chunk_ids"),
        (lambda s: s.update(kind="text" if s["kind"] != "text" else "table"), PROVENANCE_DIFFERS, "kind"),
        (lambda s: s.update(uri="file:///etc/shadow"), COORDINATES_DIFFER, "uri"),
        (lambda s: s.update(start_line=s["start_line"] + 1, end_line=s["end_line"] + 1), COORDINATES_DIFFER, "lines"),
        (lambda s: s.update(document_sha256="0" * 64), HASH_DIFFERS, "sha256"),
        (lambda s: s.update(end_char=10**9), SPAN_OUT_OF_RANGE, "outside"),
    ],
    ids=["pages", "box", "box-page", "no-boxes", "chunk-ids", "kind", "uri", "lines", "doc-hash", "span"],
)
def test_forged_source_coordinates_fail_against_the_index(built, tmp_path, capsys, forge, reason, words):
    _, _, index, saved = built
    transport = json.loads(saved.read_text())
    forge(_pdf_region(transport)["source"])
    code, out = _verify(index, transport, tmp_path, capsys)
    line = next(line for line in out.splitlines() if line.startswith("FAIL"))
    assert code == 1 and reason in line and words in line


def test_page_2_text_claimed_as_page_3_fails(built, tmp_path, capsys):
    _, _, index, saved = built
    transport = json.loads(saved.read_text())
    region = next(r for d in transport["documents"] if d["document_id"] == "credit_review_ko" for r in d["regions"]
                  if r["source"]["pages"] == [2])
    region["source"]["pages"] = [3]
    for box in region["source"]["boxes"]:
        box["page"] = 3
    code, out = _verify(index, transport, tmp_path, capsys)
    assert code == 1 and f"FAIL {region['citation_id']}" in out and "pages [3] is not what the index records: [2]" in out


def test_region_moved_to_another_document_fails(built, tmp_path, capsys):
    _, _, index, saved = built
    transport = json.loads(saved.read_text())
    transport["documents"][0]["regions"][0]["source"]["document_id"] = transport["documents"][1]["document_id"]
    code, out = _verify(index, transport, tmp_path, capsys)
    assert code == 1 and DOCUMENT_ID_DIFFERS in out


class _OpenedFiles:
    """Paths opened by this process while recording (an audit hook: it sees every open())."""

    def __init__(self):
        self.recording = False
        self.paths: list[str] = []
        sys.addaudithook(self._hook)

    def _hook(self, event, args):
        if self.recording and event == "open" and isinstance(args[0], (str, bytes, Path)):
            self.paths.append(str(args[0]))


_OPENED: list[_OpenedFiles] = []


def _opened_files() -> _OpenedFiles:
    """The recorder, installed on first use (an audit hook cannot be removed, so only one is ever added)."""
    if not _OPENED:
        _OPENED.append(_OpenedFiles())
    return _OPENED[0]


def test_a_document_without_a_pdf_is_verified_by_its_text_and_no_named_file_is_opened(built, tmp_path, capsys):
    _, _, index, saved = built
    secret = tmp_path / "id_rsa"
    secret.write_text("secret")
    transport = json.loads(saved.read_text())
    plain = next(d for d in transport["documents"] if d["document_id"] == "plain_notes")
    honest = copy.deepcopy(transport)
    for region in plain["regions"]:
        region["source"]["uri"] = secret.as_uri()
        region["source"]["pdf_sha256"] = _sha256(secret)  # a guess of the file's content, to be confirmed
    path = tmp_path / "hostile.json"
    path.write_text(json.dumps(transport), encoding="utf-8")
    capsys.readouterr()
    opened = _opened_files()
    opened.recording = True
    try:
        code = sjt(["verify", "--index", str(index), str(path)])
        show = sjt(["show", "--index", str(index), "--result", str(path), plain["regions"][0]["region_id"],
                    "-o", str(tmp_path / "x.png")])
    finally:
        opened.recording = False
    captured = capsys.readouterr()
    assert opened.paths  # the recorder works: the transport and the index were opened
    assert not [p for p in opened.paths if "id_rsa" in p or p == "/etc/passwd"]
    assert code == 1 and show == 2
    assert "id_rsa" not in captured.out.replace(f"'{secret.as_uri()}'", "")  # named only as the claim refused
    assert "not found" not in captured.out and "PDF changed" not in captured.out
    code, out = _verify(index, honest, tmp_path, capsys)
    assert code == 0 and all("verified" in line for line in out.splitlines() if "plain_notes" in line)


def test_show_refuses_a_region_that_does_not_verify(built, tmp_path, capsys):
    _, _, index, saved = built
    transport = json.loads(saved.read_text())
    region = _pdf_region(transport)
    region["source"]["boxes"][0]["bbox"] = [0, 0, 500, 800]
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(transport), encoding="utf-8")
    capsys.readouterr()
    assert sjt(["show", "--index", str(index), "--result", str(path), region["region_id"], "-o",
                str(tmp_path / "f.png")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {region['region_id']}: does not verify") and not (tmp_path / "f.png").exists()


# --------------------------------------------------------------------------- fuzz

HEX = "0123456789abcdef"


_STRATEGIES: dict[str, st.SearchStrategy] = {}


def _mutations(region: EvidenceRegion) -> st.SearchStrategy:
    """Strategies, each changing one thing a transport claims about `region` (built once per region).

    Keyed by the whole region, not its id: the saved transports hold regions of several searches, and
    two of them may share an id ("credit_review_ko:R1") with different boxes."""
    key = region.model_dump_json()
    if key not in _STRATEGIES:
        _STRATEGIES[key] = _build_mutations(region)
    return _STRATEGIES[key]


def _build_mutations(region: EvidenceRegion) -> st.SearchStrategy:
    source = region.source.to_dict()
    text = region.text
    ints = st.integers(min_value=-3, max_value=3).filter(bool)
    floats = st.floats(min_value=-50, max_value=50, allow_nan=False).filter(lambda x: abs(x) > 1e-6)
    out = [
        st.tuples(st.just("text.replace"), st.integers(0, max(len(text) - 1, 0)), st.characters()),
        st.tuples(st.just("text.insert"), st.integers(0, len(text)), st.characters()),
        st.tuples(st.just("text.delete"), st.integers(0, max(len(text) - 1, 0)), st.just("")),
        st.tuples(st.just("document_id"), st.sampled_from(["mixed_brief", "credit_review_ko", "plain_notes", "x"]), st.just("")),
        st.tuples(st.just("document_sha256"), st.text(HEX, min_size=64, max_size=64), st.just("")),
        st.tuples(st.just("start_char"), ints, st.just("")),
        st.tuples(st.just("end_char"), ints, st.just("")),
        st.tuples(st.just("start_line"), ints, st.just("")),
        st.tuples(st.just("uri"), st.sampled_from(["file:///etc/passwd", "file:///tmp/x.pdf", None]), st.just("")),
        st.tuples(st.just("pdf_sha256"), st.one_of(st.none(), st.text(HEX, min_size=64, max_size=64)), st.just("")),
        st.tuples(st.just("kind"), st.sampled_from(["table", "text", "mixed", None]), st.just("")),
        st.tuples(st.just("pages"), st.one_of(st.none(), st.lists(st.integers(1, 8), max_size=3)), st.just("")),
        st.tuples(st.just("chunk_ids"), st.one_of(st.none(), st.lists(st.sampled_from(
            ["mixed_brief-p1-1", "credit_review_ko-p2-1", "x"]), max_size=2)), st.just("")),
    ]
    if source.get("boxes"):
        n = len(source["boxes"])
        out += [
            st.tuples(st.just("box.bbox"), st.tuples(st.integers(0, n - 1), st.integers(0, 3)), floats),
            st.tuples(st.just("box.page"), st.integers(0, n - 1), ints),
            st.tuples(st.just("box.drop"), st.integers(0, n - 1), st.just("")),
            st.tuples(st.just("box.origin"), st.integers(0, n - 1), st.sampled_from(["TOPLEFT"])),
        ]
    return st.one_of(out)


def _apply(region: EvidenceRegion, mutation) -> tuple[EvidenceRegion, bool]:
    """The mutated region, and whether it now claims something about its text or source that the
    original (a true region, just produced by search) did not."""
    name, a, b = mutation
    data = {"region_id": region.region_id, "document_id": region.document_id, "score": region.score,
            "entities": region.entities, "anchors": region.anchors, "text": region.text,
            "source": copy.deepcopy(region.source.to_dict())}
    source = data["source"]
    if name == "text.replace":
        data["text"] = region.text[:a] + b + region.text[a + 1:]
    elif name == "text.insert":
        data["text"] = region.text[:a] + b + region.text[a:]
    elif name == "text.delete":
        data["text"] = region.text[:a] + region.text[a + 1:]
    elif name == "document_id":
        data["document_id"] = source["document_id"] = a
    elif name in ("start_char", "end_char", "start_line"):
        source[name] = max(source[name] + a, 1 if name == "start_line" else 0)
    elif name.startswith("box."):
        boxes = source["boxes"]
        if name == "box.bbox":
            (i, k), delta = a, b
            boxes[i]["bbox"][k] += delta
        elif name == "box.page":
            boxes[a]["page"] = max(1, boxes[a]["page"] + b)
        elif name == "box.drop":
            del boxes[a]
        else:
            boxes[a]["coord_origin"] = b
    else:
        source[name] = a
        if a is None:
            source.pop(name)
    try:
        mutated = EvidenceRegion.model_validate(data)
    except ValueError:
        return region, False  # not even a valid region: nothing to verify
    changed = mutated.text != region.text or mutated.document_id != region.document_id or \
        mutated.source.to_dict() != region.source.to_dict()
    return mutated, changed


@pytest.fixture(scope="module")
def fuzz_setup(built):
    _, pdfs, index, saved = built
    repo = SemanticRepository.open(index, read_only=True)
    regions = list(SearchResult.from_json(saved.read_text()))
    truth = {d: repo.get_document(d) for d in repo.documents}
    yield repo, regions, truth, pdfs / "mixed_brief.pdf"
    repo.close()


#: What happens to the PDF on disk during one example.
PDF_STATES = ("same", "appended", "replaced", "missing")


@settings(max_examples=FUZZ_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                         HealthCheck.too_slow])
@given(data=st.data())
def test_fuzz_a_mutated_transport_never_verifies(fuzz_setup, data):
    repo, regions, truth, pdf = fuzz_setup
    region = data.draw(st.sampled_from(regions), label="region")
    mutated, changed = _apply(region, data.draw(_mutations(region), label="mutation"))
    state = data.draw(st.sampled_from(PDF_STATES), label="pdf") if region.document_id == "mixed_brief" else "same"
    original = pdf.read_bytes() if state != "same" else b""
    try:
        if state == "appended":
            pdf.write_bytes(original + b"\n% edited\n")
        elif state == "replaced":
            shutil.copy(SAMPLE_PDFS / "annual_report_en.pdf", pdf)
        elif state == "missing":
            pdf.unlink()
        if state != "same" and data.draw(st.booleans(), label="claim the new hash") and pdf.exists():
            claimed = mutated.source.model_copy(update={"pdf_sha256": _sha256(pdf)})
            mutated = mutated.model_copy(update={"source": claimed})
            changed = True
        check = repo.check_source(mutated)
    finally:
        if state != "same":
            pdf.write_bytes(original)
    doc = truth.get(mutated.source.document_id)
    source = mutated.source
    slice_differs = doc is None or not (0 <= source.start_char <= source.end_char <= doc.char_count) or \
        doc.text[source.start_char:source.end_char] != mutated.text
    if state != "same" or slice_differs:
        assert not check.ok, (state, check)
    if changed and (source.start_char, source.end_char) == (region.source.start_char, region.source.end_char):
        assert not check.ok, check  # same span, any other claim changed: it differs from the index
    if not changed and state == "same":
        assert check.ok, check
    if not check.ok:
        assert check.reason in {UNKNOWN_DOCUMENT, DOCUMENT_ID_DIFFERS, REGION_ID_DIFFERS, HASH_DIFFERS, SPAN_OUT_OF_RANGE,
                                SLICE_DIFFERS, COORDINATES_DIFFER, PROVENANCE_DIFFERS, PDF_CHANGED, PDF_MISSING}


def test_a_document_the_bridge_made_from_python_verifies_against_its_pdf(tmp_path, capsys):
    """No info= needed: the bridge's document names its PDF (source_uri) and hash (segments); add stores
    both, so verify_source checks the PDF as `sjt verify` does, and `sjt show` draws from it."""
    from evidence_chunker import EvidenceChunker
    from evidence_chunker.export.semantic import corpus_to_semantic_document, pdf_uri

    pdf = tmp_path / "mixed_brief.pdf"
    shutil.copy(SAMPLE_PDFS / "mixed_brief.pdf", pdf)
    chunker = EvidenceChunker(parser="lite")
    parsed = chunker.parse(pdf)
    doc = corpus_to_semantic_document(chunker.build_corpus_parsed(parsed), "mixed_brief", pdf_uri(parsed.path),
                                      parsed.sha256)
    index = tmp_path / "index.sqlite"
    for repo in (SemanticRepository(), SemanticRepository.open(index)):
        repo.add(doc)
        result = repo.search("operating income 2024", k=1)
        assert repo.verify_source(result[0]), repo.explain_verification(result[0])
    saved = tmp_path / "result.json"
    saved.write_text(result.to_json(), encoding="utf-8")
    assert sjt(["show", "--index", str(index), "--result", str(saved), result[0].region_id,
                "-o", str(tmp_path / "r.png")]) == 0
    pdf.write_bytes(pdf.read_bytes() + b"\n%changed\n")
    check = repo.check_source(result[0])
    assert not check.ok and check.reason == PDF_CHANGED and str(pdf) in check.detail
    pdf.unlink()
    check = repo.check_source(result[0])
    assert not check.ok and check.reason == PDF_MISSING and f"no file at {pdf}" in check.detail
    repo.close()
