"""Every example of README.md and docs/**/*.md runs and prints what its page shows (the machinery and its
markers: tests/docs_run.py; `make docs` regenerates the shown outputs)."""

from __future__ import annotations

import re

import pytest

from docs_regenerate import align, difference, regenerated
from docs_run import PAGES, PageRun, json_match, lines_match, normalise, parse_page, part_matches

RUNNABLE = ("python", "console", "shell", "commands", "output", "file", "usage", "illustration")
BLOCKS = [pytest.param(page, i, id=block.name) for page in PAGES for i, block in enumerate(parse_page(page))
          if block.parts]


@pytest.fixture(scope="session")
def page_run(tmp_path_factory):
    """One run per page, shared by its blocks' tests: each page's examples run once, in order."""
    root = tmp_path_factory.mktemp("docs-run")
    runs: dict[str, PageRun] = {}

    def get(page: str, through: int) -> PageRun:
        run = runs.setdefault(page, PageRun(page, root))
        run.run_through(through)
        return run

    return get


@pytest.mark.parametrize("page,index", BLOCKS)
def test_doc_example(page_run, page, index):
    run = page_run(page, index)
    block = run.blocks[index]
    if index in run.failures:
        pytest.fail(f"{block.name} fails: {run.failures[index]}")
    differ = [f"`{part.label.splitlines()[0]}` prints something else than the page shows:\n{difference(part)}"
              for part in block.parts if part.compare and not part_matches(part)]
    if differ:
        pytest.fail(f"{block.name} (regenerate with `make docs`):\n" + "\n".join(differ))


def test_every_block_is_run_or_marked():
    unmarked = [b.name for page in PAGES for b in parse_page(page) if b.kind not in RUNNABLE]
    assert unmarked == [], "mark these blocks <!-- docs-run: illustration: why --> or make them run"


def test_readme_python_example_verifies_the_region_it_found(page_run):
    run = page_run("README.md", max(i for i, b in enumerate(parse_page("README.md")) if b.kind == "python"))
    block = next(b for b in reversed(run.blocks) if b.kind == "python")
    assert "repo.verify_source(region)" in block.body
    assert re.search(r"^\[\d+(, \d+)*\] True$", block.parts[0].actual or "", re.M), block.parts[0].actual


def test_quickstart_python_example_verifies_the_region_it_found(page_run):
    blocks = parse_page("docs/quickstart.md")
    index = next(i for i, b in enumerate(blocks) if b.kind == "python" and "repo.verify_source(region)" in b.body)
    run = page_run("docs/quickstart.md", index)
    assert index not in run.failures, run.failures.get(index)
    assert (run.blocks[index].parts[0].actual or "").splitlines()[-1] == "True"


# ------------------------------------------------------------------------------- the comparison itself


def test_an_ellipsis_stands_for_any_text_in_a_line_and_any_lines_alone():
    assert lines_match(["id … end", "…", "last"], ["id middle end", "a", "b", "last"])
    assert lines_match(["…", "x"], ["x"])
    assert not lines_match(["id … end", "last"], ["id middle end", "extra", "last"])
    assert not lines_match(["exact"], ["exact but longer"])


def test_json_is_compared_by_keys_in_order_and_values_with_trims():
    assert json_match({"a": "long te…", "b": [1, "…"]}, {"a": "long text", "b": [1, 2, 3]})
    assert not json_match({"a": 1, "b": 2}, {"b": 2, "a": 1})
    assert not json_match({"a": [1, 2]}, {"a": [1, 2, 3]})
    assert not json_match({"a": 1}, {"a": 1.5})


def test_a_synopsis_is_compared_with_help_by_its_options_not_its_layout():
    from docs_run import Part

    shown = "sjt show --index FILE [--result FILE]\n         -o PNG REGION_ID"
    assert part_matches(Part("sjt show --help", shown, 0, 0, as_usage=True,
                             actual="sjt show --index FILE [--result FILE] -o PNG REGION_ID"))
    assert not part_matches(Part("sjt show --help", shown, 0, 0, as_usage=True,
                                 actual="sjt show [-q] --index FILE [--result FILE] -o PNG REGION_ID"))


def test_timings_paths_and_progress_bars_are_normalised():
    shown = "files 3 | 0.6 s (16.7 pages/s indexed)\ningest: 100%|█| 3/3 [00:00<00:00,  3.49file/s]"
    printed = "x\ringest: 100%|█| 3/3 [00:01<00:00,  2.01file/s]"
    assert normalise(shown).split("\n")[1] == normalise(printed)
    assert normalise("files 3 | 1.2 s (8.0 pages/s indexed)") == normalise(shown).split("\n")[0]


def test_regenerating_keeps_the_trims_of_the_page():
    shown = ["Query: q", "--- R1 | score 0.61 ---", "a long line that was trim…", "…", "end"]
    printed = ["Query: q", "--- R1 | score 0.75 ---", "a long line that was trimmed here", "x", "y", "end"]
    assert align(shown, printed) == ["Query: q", "--- R1 | score 0.75 ---", "a long line that was trim…", "…",
                                     "end"]
    assert align(["a", "b"], ["a", "c", "d"]) == ["a", "c", "d"]


def test_regenerating_never_lets_a_trim_hide_lines_that_moved_around_it():
    shown = ["=== D1", "--- R1", "row a", "…", "", "=== D2", "--- R2", "text"]
    printed = ["=== D2", "--- R2", "text", "", "=== D1", "--- R1", "row a", "row b"]
    regenerated_lines = align(shown, printed)
    assert lines_match(regenerated_lines, printed)
    assert set(printed) - {"row b"} <= set(regenerated_lines)


def test_a_changed_output_fails_until_the_page_is_regenerated():
    page = "x.md"
    text = "Run:\n\n```python\nprint('a 1')\nprint('b')\n```\n\n```\na 2\nb\n```\n"
    block = parse_page(page, text)[0]
    run_part = block.parts[0]
    run_part.actual = "a 1\nb"
    assert run_part.compare and not part_matches(run_part)
    fixed = text[:run_part.start] + regenerated(run_part) + text[run_part.end:]
    again = parse_page(page, fixed)[0].parts[0]
    again.actual = "a 1\nb"
    assert part_matches(again) and "```\na 1\nb\n```" in fixed
