"""The spec's Quick Start runs as written and gives a real result."""

from __future__ import annotations

import contextlib
import io
import json
import re

import pytest
from sj_support import PROJECT_ROOT

SPEC = PROJECT_ROOT.parent / "shared" / "spec" / "semantic_json_transport.md"

QUICKSTART = '''
from semantic_json import compile, SemanticRepository

text = """
B기업은 현재까지 원리금을 정상적으로 상환하고 있다.
다만 주요 거래계약이 내년에 만료될 예정이며,
중장기적으로 현재의 상환능력이 유지된다고 단정하기는 어렵다.
"""

doc = compile(
    text,
    document_id="company_b",
    source_uri="file:///credit/company_b.txt",
)
repo = SemanticRepository()
repo.add(doc)

result = repo.search("B기업의 중장기 채무상환능력은 어떤가?")

# Canonical structured transport
print(result.to_json())

# Human-readable retrieval inspection / plain-text LLM context
print(result.to_text())
'''

CONTINUATION = '''
first_region = result[0]
for region in result:
    print(region.document_id, region.text)

print(repo.build_context(result))
region = result[0]
repo.locate(region)
repo.get_source(region)
repo.get_source(region, context_before=500, context_after=500)
verified = repo.verify_source(region)
'''


def _spec_quickstart() -> str:
    spec = SPEC.read_text(encoding="utf-8")
    block = spec.split("Quick Start", 1)[1].split("SearchResult는", 1)[0]
    return block.strip() + "\n"


def _run(code: str) -> tuple[dict, str]:
    namespace: dict = {}
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "<quickstart>", "exec"), namespace)  # noqa: S102 - documentation code
    return namespace, out.getvalue()


def _check(namespace: dict, printed: str) -> None:
    payload = json.loads(printed[: printed.index("\nQuery: ")])
    assert payload["schema"] == "semantic-json-transport/context/v1"
    assert payload["region_count"] >= 1
    region = payload["documents"][0]["regions"][0]
    assert region["region_id"] == "company_b:R1"
    assert "원리금을 정상적으로 상환" in region["text"] and "단정하기는 어렵다" in region["text"]
    assert re.search(r"--- company_b@c1-90\.[0-9a-f]{8} \| score \d\.\d{4} \| lines 2-4", printed)


def test_quickstart_as_written_in_this_test_runs() -> None:
    namespace, printed = _run(QUICKSTART + CONTINUATION)
    _check(namespace, printed)
    assert namespace["verified"] is True


@pytest.mark.skipif(not SPEC.exists(), reason=f"spec not found at {SPEC}")
def test_quickstart_copied_from_the_spec_runs() -> None:
    code = _spec_quickstart()
    assert "repo.search(" in code
    namespace, printed = _run(code + CONTINUATION)
    _check(namespace, printed)
    assert namespace["verified"] is True
