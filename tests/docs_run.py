"""Docs that run: every example block of README.md and docs/**/*.md, executed, and its shown output compared.

What a fenced block is, by its language and its first line:

- ```` ```python ````: Python, run in one namespace per page (a page's blocks build on each other, as a
  reader runs them in one session). A bare ```` ``` ```` block right after it is what it prints (stdout;
  its stderr is shown only when it fails).
- ```` ``` ```` opening with ``$ ``: a shell session. Each command runs in bash (a subprocess); the lines
  under it, up to the next ``$ ``, are its output (stdout and stderr as a terminal shows them). A command
  that is ``sjt`` alone (no pipe, redirection or variable) calls the console script's ``main`` in this
  process instead: the same output and exit status, without importing the package again per command.
- ```` ``` ```` opening with ``>>> ``: a Python console session in the page's namespace.
- ```` ```sh ```` / ```` ```bash ````: commands without shown output; each must succeed.

Markers, an HTML comment on the line before the fence (GitHub does not render it):

- ``<!-- docs-run: illustration: WHY -->``: not run (a synopsis, a fragment, needs a server or an LLM).
- ``<!-- docs-run: output -->``: this block is the output of the last command of the runnable block before it
  (a ```` ```json ```` block is compared as JSON: key order, values; "…" trims a string or ends a list).
- ``<!-- docs-run: file PATH -->``: the block's text is written to PATH (what the next commands read).
- ``<!-- docs-run: usage -->``: a synopsis ``sjt CMD [...]``, compared with ``sjt CMD --help`` by its option
  names, metavariables and choices (not by layout).

Any other block is an error of the page (``test_every_block_is_run_or_marked``).

Shown output may leave things out with "…": inside a line it stands for any text, a line of its own for any
number of lines. Before comparing, the actual output is normalised: the page's sandbox ``tmp/`` back to
``/tmp/``, this checkout's path to ``DOC_ROOT``, and timings and rates to placeholders (on both sides).

Each page runs in a sandbox folder of its own, as in a fresh clone: ``sample_pdfs`` links to the repository's,
there is no ``out/``, ``tmp/`` stands in for ``/tmp`` (paths in code and commands are rewritten), and
``sjt``, ``python``, ``.venv/bin/sjt``, ``.venv/bin/python`` and ``make demo`` run this checkout with this
interpreter.

Regenerate the shown outputs from the code (only blocks that differ are rewritten; trims are kept where they
still hold; tests/docs_regenerate.py):

    PYTHONPATH=. python tests/docs_run.py --regenerate [PAGE ...]      (make docs)
"""

from __future__ import annotations

import contextlib
import gc
import io
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import warnings
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: The checkout's path as the pages show it (in file:// URIs and summaries).
DOC_ROOT = "/work/main"
#: Every page whose blocks run: README.md and docs/**/*.md (docs/history/ included: its blocks, if any, are
#: marked illustration like any other page's).
PAGES = ("README.md", *sorted(p.relative_to(REPO).as_posix() for p in (REPO / "docs").rglob("*.md")))
ELLIPSIS = "…"
MARKER = re.compile(r"<!--\s*docs-run:\s*(illustration|output|file|usage)\b:?\s*(.*?)\s*-->\s*$")
#: What a usage synopsis is compared by: option names, metavariables and choices (not their layout).
USAGE_WORDS = re.compile(r"(?<![\w-])--?[a-zA-Z][\w-]*|\b[A-Z][A-Z_]+\b|\{[^}]*\}")
FENCE = re.compile(r"^```(\S*)[ \t]*\n(.*?)^```[ \t]*$", re.M | re.S)
TMP = re.compile(r"(?<![\w/.~-])/tmp/")
#: Timings and rates vary from run to run: (pattern, placeholder), applied to shown and actual output alike.
TIMINGS = (
    (re.compile(r"\d+(?:\.\d+)? s \(\d+(?:\.\d+)? pages/s indexed\)"), "<T> s (<R> pages/s indexed)"),
    (re.compile(r"\[[\d:]+<[\d:?]+, *[\d.?]+ ?[a-z]*/[a-z]+\]"), "[<progress>]"),
    (re.compile(r"in \d+\.\d+s \(\d+:\d\d:\d\d\)"), "in <T>"),
)
#: Width of a regenerated synopsis (argparse wraps the usage line to it).
USAGE_COLUMNS = 112
COMMAND_TIMEOUT = 600  # seconds; a doc example is a few seconds


@dataclass
class Part:
    """One comparison: what ran (code or a command) and the expected output's span in the page."""

    label: str
    expected: str
    start: int  # offsets of the expected text in the page (start == end: nothing shown)
    end: int
    as_json: bool = False
    as_usage: bool = False
    compare: bool = True  # False for code whose output the page does not show
    actual: str | None = None


@dataclass
class Block:
    """A fenced block of a page: kind is python, shell, console, commands, output, file or illustration."""

    page: str
    line: int
    lang: str
    body: str
    body_start: int
    kind: str
    note: str = ""
    parts: list[Part] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.page}:{self.line}"


def parse_page(page: str, text: str | None = None) -> list[Block]:
    """The fenced blocks of a page, classified, with their expected outputs attached as parts."""
    text = (REPO / page).read_text(encoding="utf-8") if text is None else text
    blocks: list[Block] = []
    previous_end = 0
    for match in FENCE.finditer(text):
        before = text[previous_end:match.start()]
        lines_before = before.rstrip("\n").splitlines()
        marker = MARKER.match(lines_before[-1].strip()) if lines_before else None
        lang, body = match.group(1), match.group(2)
        block = Block(page, text.count("\n", 0, match.start()) + 1, lang, body, match.start(2), _kind(lang, body))
        if marker:
            block.kind, block.note = marker.group(1), marker.group(2)
        elif block.kind == "bare" and blocks and blocks[-1].kind == "python" and not before.strip():
            block.kind = "output"  # a bare block right under a Python block is its output
        if block.kind == "output":
            _attach_output(blocks, block)
        else:
            block.parts = _parts(block)
        blocks.append(block)
        previous_end = match.end()
    return blocks


def _kind(lang: str, body: str) -> str:
    if lang == "python":
        return "console" if body.startswith(">>> ") else "python"
    if lang in ("sh", "bash"):
        return "commands"
    if lang == "":
        return "shell" if body.startswith("$ ") else "console" if body.startswith(">>> ") else "bare"
    return "bare"


def _attach_output(blocks: list[Block], block: Block) -> None:
    runnable = next((b for b in reversed(blocks) if b.parts), None)
    if runnable is None:
        raise ValueError(f"{block.name}: an output block with no runnable block before it")
    last = runnable.parts[-1]
    if last.expected.strip():
        raise ValueError(f"{block.name}: {runnable.name} already shows the output of {last.label!r}")
    last.expected, last.start, last.end = block.body, block.body_start, block.body_start + len(block.body)
    last.as_json, last.compare = block.lang == "json", True


def _parts(block: Block) -> list[Part]:
    start = block.body_start
    if block.kind == "python":
        return [Part(block.body, "", start + len(block.body), start + len(block.body), compare=False)]
    if block.kind == "commands":
        return [Part(cmd, "", start, start, compare=False) for cmd in _command_lines(block.body)]
    if block.kind == "usage":  # a synopsis: compared with the subcommand's own --help
        command = " ".join(block.body.split()[:2])
        return [Part(f"{command} --help", block.body, start, start + len(block.body), as_usage=True)]
    if block.kind not in ("shell", "console"):
        return []
    prompt = "$ " if block.kind == "shell" else ">>> "
    parts: list[Part] = []
    offset = 0
    for line in block.body.splitlines(keepends=True):
        is_continuation = (block.kind == "console" and line.startswith("... ") and parts
                           and parts[-1].start == parts[-1].end)
        if line.startswith(prompt):
            at = start + offset + len(line)
            parts.append(Part(line[len(prompt):].rstrip("\n"), "", at, at))
        elif is_continuation:
            parts[-1].label += "\n" + line[4:].rstrip("\n")
            parts[-1].start = parts[-1].end = start + offset + len(line)
        else:
            parts[-1].expected += line
            parts[-1].end = start + offset + len(line)
        offset += len(line)
    return parts


def _command_lines(body: str) -> list[str]:
    """A commands block's commands: one per line, a trailing backslash continuing it."""
    commands, current = [], ""
    for line in body.splitlines():
        current += line[:-1] + " " if line.endswith("\\") else line
        if not line.endswith("\\"):
            if current.strip() and not current.lstrip().startswith("#"):
                commands.append(current.strip())
            current = ""
    return commands


# ----------------------------------------------------------------------------------------- comparing


def as_shown(text: str, sandbox: Path | None = None) -> str:
    """Output as the pages show it: sandbox paths back to /tmp and DOC_ROOT, a progress bar in its final
    state, trailing spaces and blank lines dropped."""
    if sandbox is not None:
        text = text.replace(f"{sandbox}/tmp/", "/tmp/").replace(str(sandbox), DOC_ROOT)
    text = text.replace(str(REPO), DOC_ROOT)
    lines = [line.rsplit("\r", 1)[-1].rstrip() for line in text.split("\n")]
    return "\n".join(lines).strip("\n")


def normalise(text: str) -> str:
    """Text to compare: as shown, with timings and rates as placeholders."""
    text = as_shown(text)
    for pattern, placeholder in TIMINGS:
        text = pattern.sub(placeholder, text)
    return text


def line_pattern(line: str) -> re.Pattern:
    return re.compile(".*".join(re.escape(piece) for piece in line.split(ELLIPSIS)), re.S)


def lines_match(expected: list[str], actual: list[str]) -> bool:
    """Shown lines against actual lines: "…" in a line is any text, a line of only "…" any lines."""
    memo: dict[tuple[int, int], bool] = {}

    def match(i: int, j: int) -> bool:
        if (i, j) not in memo:
            if i == len(expected):
                memo[i, j] = j == len(actual)
            elif expected[i].strip() == ELLIPSIS:
                memo[i, j] = match(i + 1, j) or (j < len(actual) and match(i, j + 1))
            else:
                memo[i, j] = (j < len(actual) and line_pattern(expected[i]).fullmatch(actual[j]) is not None
                              and match(i + 1, j + 1))
        return memo[i, j]

    return match(0, 0)


def json_match(expected, actual) -> bool:
    """JSON values alike: same keys in the same order; a string with "…" trims; a list ending in "…" is a
    prefix of the actual list."""
    if isinstance(expected, dict):
        return (isinstance(actual, dict) and list(expected) == list(actual)
                and all(json_match(v, actual[k]) for k, v in expected.items()))
    if isinstance(expected, list):
        if not isinstance(actual, list):
            return False
        if expected and expected[-1] == ELLIPSIS:
            expected = expected[:-1]
            actual = actual[:len(expected)] if len(actual) >= len(expected) else None
        return actual is not None and len(expected) == len(actual) and all(map(json_match, expected, actual))
    if isinstance(expected, str) and ELLIPSIS in expected:
        return isinstance(actual, str) and line_pattern(expected).fullmatch(actual) is not None
    return type(expected) is type(actual) and expected == actual


def part_matches(part: Part) -> bool:
    """Whether the part's actual output is what the page shows."""
    actual = part.actual or ""
    if part.as_usage:
        return sorted(set(USAGE_WORDS.findall(part.expected))) == sorted(set(USAGE_WORDS.findall(actual)))
    if part.as_json:
        try:
            shown = json.loads(part.expected)
        except ValueError:
            shown = None
        if shown is not None:
            try:
                return json_match(shown, json.loads(normalise(actual)))
            except ValueError:
                return False
    return lines_match(normalise(part.expected).split("\n") if part.expected.strip() else [],
                       normalise(actual).split("\n") if actual else [])


# ------------------------------------------------------------------------------------------- running


class PageRun:
    """Runs one page's blocks in order, in its own sandbox and Python namespace, remembering the results."""

    def __init__(self, page: str, root: Path):
        self.page = page
        self.blocks = parse_page(page)
        self.sandbox = root / re.sub(r"\W", "_", page)
        self.namespace: dict = {"__name__": "__docs__"}
        self.done = 0
        self.failures: dict[int, str] = {}
        self.last_status = 0
        self._make_sandbox()

    def _make_sandbox(self) -> None:
        box = self.sandbox
        for sub in ("tmp", "bin", ".venv/bin"):  # no out/: a fresh clone has none
            (box / sub).mkdir(parents=True, exist_ok=True)
        for name in ("sample_pdfs", "benchmarks", "Makefile", "pyproject.toml"):
            if not (box / name).exists():
                (box / name).symlink_to(REPO / name)
        # Scripts, not links: a client that passes a trimmed environment (the MCP SDK's stdio client) still
        # runs this checkout.
        path = f'PYTHONPATH="{REPO}${{PYTHONPATH:+:$PYTHONPATH}}" exec "{sys.executable}"'
        for folder in (box / "bin", box / ".venv/bin"):
            for name, script in (("sjt", f'{path} -m evidence_chunker.cli "$@"'), ("python", f'{path} "$@"')):
                (folder / name).write_text(f"#!/bin/sh\n{script}\n")
                (folder / name).chmod(0o755)
        (box / ".venv/.core").touch()  # `make demo` finds its set-up done: this interpreter is the venv

    def env(self) -> dict[str, str]:
        # A shell session starts at the top level: when the suite itself runs under `make test`, make's own
        # variables would make a nested `make demo` print "Entering directory" lines the pages do not show.
        env = {key: value for key, value in os.environ.items() if key not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
        env["PATH"] = f"{self.sandbox / 'bin'}{os.pathsep}{env.get('PATH', '')}"
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)
        # As the pages were written: no network and no Docling models (an empty model cache), so the automatic
        # parser choice falls back to the lite parser on every machine and says why.
        env.update(PYTHONUNBUFFERED="1", HF_HUB_OFFLINE="1", COLUMNS="200", NO_COLOR="1",
                   HF_HUB_CACHE=str(self.sandbox / ".cache/hub"),
                   DOCLING_CACHE_DIR=str(self.sandbox / ".cache/docling"))
        return env

    def local(self, text: str) -> str:
        """Code or a command with /tmp/ paths moved into the sandbox."""
        return TMP.sub(f"{self.sandbox}/tmp/", text)

    def run_through(self, index: int) -> None:
        """Run blocks up to and including `index` (each once)."""
        while self.done <= index:
            block = self.blocks[self.done]
            try:
                self._run(block)
            except Exception as exc:  # a failing example is reported by its test, the page goes on
                self.failures[self.done] = f"{type(exc).__name__}: {exc}"
            self.done += 1

    def _run(self, block: Block) -> None:
        if block.kind == "file":
            target = Path(self.local(block.note))
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(block.body, encoding="utf-8")
        elif block.kind in ("python", "console"):
            for part in block.parts:
                part.actual = self._python(part.label, block, single=block.kind == "console")
        elif block.kind == "usage":
            part = block.parts[0]
            status, printed = self._sjt(shlex.split(part.label)[1:], columns=USAGE_COLUMNS)
            prefix = "usage: "
            lines = printed.split("\n\n", 1)[0].replace(" [-h]", "").splitlines()
            usage = "\n".join(line[len(prefix):] for line in lines)  # argparse indents under its prefix
            part.actual = usage.rstrip() if status == 0 else f"exit status {status}: {printed}"
        elif block.kind in ("shell", "commands"):
            for part in block.parts:
                part.actual = self._shell(part, must_succeed=block.kind == "commands")

    def _python(self, code: str, block: Block, single: bool) -> str:
        """What the code prints (stdout). Its stderr goes to a real file, which subprocesses can inherit (the
        MCP client's server logs there), and is shown only when the code fails."""
        out, err = io.StringIO(), _stderr_file()
        start = err.seek(0, os.SEEK_END)
        saved_env, saved_cwd = dict(os.environ), os.getcwd()
        os.environ.clear()
        os.environ.update(self.env())
        os.chdir(self.sandbox)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), _as_python_warns():
                exec(compile(self.local(code), block.name, "single" if single else "exec"), self.namespace)
                gc.collect()  # what the block left unclosed is reported now, to its stderr
        except Exception as exc:
            err.seek(start)
            raise RuntimeError(f"{type(exc).__name__}: {exc}\n{err.read()[-2000:]}") from exc
        finally:
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
        return as_shown(out.getvalue(), self.sandbox)

    def _shell(self, part: Part, must_succeed: bool) -> str:
        command = self.local(part.label)
        cat = re.fullmatch(r"cat (\S+)", command)
        if cat and not Path(cat.group(1)).exists() and part.expected.strip():
            Path(cat.group(1)).write_text(part.expected, encoding="utf-8")  # the file the session shows
        argv = plain_sjt(command)
        if argv is not None:
            self.last_status, printed = self._sjt(argv)
        else:
            done = subprocess.run(["bash", "-c", f"(exit {self.last_status}); {command}"], cwd=self.sandbox,
                                  env=self.env(), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  timeout=COMMAND_TIMEOUT)
            self.last_status, printed = done.returncode, done.stdout.decode("utf-8", "replace")
        actual = as_shown(printed, self.sandbox)
        shows_status = any(p.label == "echo $?" for p in self._block_of(part).parts)
        if self.last_status and (must_succeed or not shows_status):
            raise RuntimeError(f"`{part.label}` exited with status {self.last_status}:\n{actual[-2000:]}")
        return actual

    def _sjt(self, argv: list[str], columns: int = 200) -> tuple[int, str]:
        """`sjt ARGS` run as the console script runs it (its `main`), in this process: the same output and exit
        status without paying the package's imports again for every command (stdout and stderr interleaved,
        as a terminal shows them)."""
        from evidence_chunker.cli import main

        out = io.StringIO()
        saved_env, saved_cwd = dict(os.environ), os.getcwd()
        os.environ.clear()
        os.environ.update(self.env(), COLUMNS=str(columns))
        os.chdir(self.sandbox)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out), _as_python_warns():
                try:
                    status = main(argv)
                except SystemExit as exc:  # argparse and --version leave through sys.exit
                    status = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
        finally:
            os.chdir(saved_cwd)
            os.environ.clear()
            os.environ.update(saved_env)
        return status or 0, out.getvalue()

    def _block_of(self, part: Part) -> Block:
        return next(b for b in self.blocks if any(p is part for p in b.parts))


def _show_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Python's own way of printing a warning, to the stderr of the moment."""
    sys.stderr.write(warnings.formatwarning(message, category, filename, lineno, line))


@contextlib.contextmanager
def _as_python_warns():
    """Warnings as a plain `python` run prints them (ResourceWarning ignored), not as pytest records them."""
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        warnings.simplefilter("ignore", ResourceWarning)
        yield


_STDERR: list = []


def _stderr_file():
    """One real file for the stderr of every Python block of the session: a library may keep the stderr of its
    first import as a default (the MCP SDK's stdio client does), so it must stay open."""
    if not _STDERR:
        _STDERR.append(tempfile.TemporaryFile("w+", encoding="utf-8"))
    return _STDERR[0]


def plain_sjt(command: str) -> list[str] | None:
    """The arguments of a command that is `sjt` alone (no pipe, redirection, variable or second command),
    else None: such a command runs in this process, any other in bash."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        tokens = list(lexer)
    except ValueError:
        return None
    if not tokens or tokens[0] != "sjt" or "$" in command or "`" in command:
        return None
    if any(token and all(c in lexer.punctuation_chars for c in token) for token in tokens):
        return None
    return tokens[1:]


def run_page(page: str, root: Path) -> PageRun:
    run = PageRun(page, root)
    run.run_through(len(run.blocks) - 1)
    return run


def main(argv: list[str]) -> int:
    """`python tests/docs_run.py [--regenerate] [PAGE ...]`: check (or rewrite) the pages' shown outputs."""
    from docs_regenerate import difference, differing, regenerate_page

    regenerate = "--regenerate" in argv
    pages = [a for a in argv if not a.startswith("--")] or list(PAGES)
    with tempfile.TemporaryDirectory(prefix="docs-run-") as root:
        status = 0
        for page in pages:
            if regenerate:
                try:
                    labels = regenerate_page(page, Path(root))
                except RuntimeError as exc:
                    print(exc, file=sys.stderr)
                    status = 1
                    continue
                print(f"{page}: {len(labels)} output(s) rewritten" + "".join(f"\n    {x}" for x in labels))
            else:
                run = run_page(page, Path(root))
                bad = differing(run)
                print(f"{page}: {len(run.failures)} failed, {len(bad)} differ")
                for i, why in run.failures.items():
                    print(f"  FAILED {run.blocks[i].name}: {why}")
                for part in bad:
                    print(f"  DIFFERS `{part.label.splitlines()[0][:100]}`\n{difference(part)}")
                status |= bool(run.failures or bad)
    return status


if __name__ == "__main__":
    import docs_run  # one copy of this module, the one docs_regenerate imports

    sys.exit(docs_run.main(sys.argv[1:]))
