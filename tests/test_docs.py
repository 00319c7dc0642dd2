"""Every example in the docs runs, so the docs cannot go stale.

The fenced blocks of README.md and docs/**/*.md are run page by page, in
order, in a fresh project folder as `rnsim init` writes it (classic.toml,
fbi.toml, variants/, ci/: what a reader has after the README's quick start,
and what configs/ holds in a checkout), with the `rnsim` of the interpreter
running the tests first on the PATH:

- ```sh (or bash, shell, console): each command (a line; a trailing \\
  continues it) must exit 0, or the code an ``<!-- exit: N -->`` comment
  right before the block declares; ``cd DIR`` moves the rest of the page
  into DIR, as it would a reader's shell;
- ```python: run in one namespace per page, with the page's current folder
  as the current directory and on sys.path; a block whose first line is a
  comment naming a .py file (``# hunter_lib/cautious.py``) is that file,
  written, not run;
- ```toml: parsed; with ``title="name.toml"`` it is written as that file
  (a later block of the same name replaces it, as a reader edits it);
- a block after ``<!-- not run: why -->`` is left out and listed (a Ray
  cluster, the test suite itself); a fenced block without a language that
  holds a command is an error: tag it ``sh`` (or mark it not run), and so
  is an indented code block holding one (it would be shown, never run).

Other languages (text, yaml) are shown, not run; a ```text block may hold
a recorded run, its command marked ``$ ``. Sizes in the docs are small
(``--games 20``): the whole file takes about 2 CPU-minutes, mostly the
games of the README, the tutorial and the levers page.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
SHELL = {"sh", "bash", "shell", "console"}
COMMAND = re.compile(r"^\s*(\$ )?(PYTHONPATH=\S+ |RNSIM_\w+=\S+ )?(rnsim|make|python|pip|\.venv/bin/\S+) ")
CD = re.compile(r"cd (\S+)")
FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[\w-]*)(?P<attrs>.*)$")
TIMEOUT = 300


@dataclass
class Block:
    page: str
    line: int  # 1-based line of the opening fence
    lang: str
    title: str | None
    body: str
    exit_code: int = 0
    not_run: str | None = None

    def where(self) -> str:
        return f"{self.page}:{self.line}"


def parse(text: str, page: str) -> list[Block]:
    """The fenced blocks of a Markdown page, with the directive comment (if
    any) on the lines just before each."""
    lines = text.splitlines()
    blocks: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, lang = m["indent"], m["lang"].lower()
        title = re.search(r'title="([^"]+)"', m["attrs"])
        body: list[str] = []
        j = i + 1
        while j < len(lines) and lines[j].strip() != "```":
            body.append(lines[j][len(indent):] if lines[j].startswith(indent) else lines[j].lstrip())
            j += 1
        block = Block(page, i + 1, lang, title[1] if title else None, "\n".join(body) + "\n")
        k = i - 1
        while k >= 0 and not lines[k].strip():
            k -= 1
        if k >= 0:
            d = re.fullmatch(r"\s*<!--\s*(not run|exit):\s*(.*?)\s*-->\s*", lines[k])
            if d and d[1] == "not run":
                block.not_run = d[2] or "(no reason given)"
            elif d:
                block.exit_code = int(d[2])
        blocks.append(block)
        i = j + 1
    return blocks


def commands(body: str) -> list[str]:
    """The commands of a shell block: one a line, `\\` continuing it; blank
    and comment lines skipped."""
    out: list[str] = []
    pending = ""
    for raw in body.splitlines():
        line = pending + raw
        if line.rstrip().endswith("\\"):
            pending = line.rstrip()[:-1] + " "
            continue
        pending = ""
        if line.strip() and not line.lstrip().startswith("#"):
            out.append(line.strip().removeprefix("$ "))
    return out


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["MPLBACKEND"] = "Agg"
    return env


def _run_shell(b: Block) -> list[str]:
    failures = []
    for cmd in commands(b.body):
        cd = CD.fullmatch(cmd)
        if cd:  # the rest of the page runs there, as in the reader's shell
            if b.exit_code == 0 and not Path(cd[1]).is_dir():
                failures.append(f"{b.where()}: `{cmd}`: no such folder")
            else:
                os.chdir(cd[1])
                sys.path[0] = os.getcwd()
            continue
        r = subprocess.run(["bash", "-c", cmd], cwd=os.getcwd(), env=_env(), capture_output=True, text=True,
                           timeout=TIMEOUT)
        if r.returncode != b.exit_code:
            tail = (r.stderr.strip() or r.stdout.strip()).splitlines()[-3:]
            failures.append(f"{b.where()}: `{cmd}` exited {r.returncode}, expected {b.exit_code}: " + " | ".join(tail))
    return failures


def _run_python(b: Block, namespace: dict[str, object]) -> list[str]:
    first = b.body.splitlines()[0] if b.body.strip() else ""
    target = re.fullmatch(r"#\s*(\S+\.py)\s*", first)
    if target:  # a module of the example: written where the next blocks import it
        path = Path(target[1])
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.parent != Path("."):
            (path.parent / "__init__.py").touch()
        path.write_text(b.body)
        return []
    try:
        exec(compile(b.body, b.where(), "exec"), namespace)  # noqa: S102 - the docs' own examples
    except Exception as e:  # noqa: BLE001 - every failure is reported with its block
        return [f"{b.where()}: python block raised {type(e).__name__}: {e}"]
    return []


def _check_toml(b: Block) -> list[str]:
    if b.title:
        Path(b.title).write_text(b.body)
    try:
        tomllib.loads(b.body)
    except tomllib.TOMLDecodeError as e:
        return [f"{b.where()}: invalid TOML: {e}"]
    return []


def _check_untagged(b: Block) -> list[str]:
    cmds = [ln for ln in b.body.splitlines() if COMMAND.match(ln)]
    if not cmds:
        return []
    return [f"{b.where()}: an untagged block holds a command ({cmds[0].strip()!r}): "
            "tag it ```sh, or mark it <!-- not run: why -->"]


def indented_commands(text: str, page: str) -> list[str]:
    """Commands in indented code blocks (four spaces, outside any fence):
    Markdown shows them as code, and the runner would never see them."""
    out, fenced = [], False
    for i, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line) or line.strip() == "```":
            fenced = not fenced if line.strip().startswith("```") else fenced
            continue
        if not fenced and line.startswith("    ") and COMMAND.match(line):
            out.append(f"{page}:{i}: a command in an indented code block ({line.strip()!r}): "
                       "put it in a ```sh block (or mark that block <!-- not run: why -->)")
    return out


def run_page(page: Path, work: Path, root: Path = ROOT) -> list[str]:
    """Run a page's blocks in ``work``, a project as `rnsim init` writes it;
    returns the failures, one line each."""
    from rnsim.examples import write_project

    write_project(work, force=True)
    text, name = page.read_text(), page.relative_to(root).as_posix()
    failures = indented_commands(text, name)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    old_cwd, old_path, old_modules = os.getcwd(), list(sys.path), set(sys.modules)
    os.chdir(work)
    sys.path.insert(0, str(work))
    try:
        for b in parse(text, name):
            if b.not_run is not None:
                continue
            if b.lang in SHELL:
                failures += _run_shell(b)
            elif b.lang == "python":
                failures += _run_python(b, namespace)
            elif b.lang == "toml":
                failures += _check_toml(b)
            elif not b.lang:
                failures += _check_untagged(b)
    finally:
        os.chdir(old_cwd)
        sys.path[:] = old_path
        for mod in set(sys.modules) - old_modules:  # the pages' own modules (hunter_lib, ...)
            if str(work) in str(getattr(sys.modules[mod], "__file__", None)):
                del sys.modules[mod]
    return failures


@pytest.mark.parametrize("page", PAGES, ids=[p.relative_to(ROOT).as_posix() for p in PAGES])
def test_every_example_of_the_page_runs(page: Path, tmp_path: Path) -> None:
    failures = run_page(page, tmp_path)
    assert not failures, "\n".join(failures)


def test_blocks_left_out_are_few_and_say_why(capsys: pytest.CaptureFixture[str]) -> None:
    """Every block that is not run says why; they are listed, and counted so
    that a new one is a deliberate choice."""
    left_out = [b for p in PAGES for b in parse(p.read_text(), p.relative_to(ROOT).as_posix()) if b.not_run]
    with capsys.disabled():
        print(f"\ndocs: {len(left_out)} block(s) not run:")
        for b in left_out:
            print(f"  {b.where()}: {b.not_run}")
    assert all(b.not_run != "(no reason given)" for b in left_out)
    assert len(left_out) <= 8, [b.where() for b in left_out]
    ran = [b for p in PAGES for b in parse(p.read_text(), p.relative_to(ROOT).as_posix())
           if b.lang in SHELL and not b.not_run]
    assert sum(len(commands(b.body)) for b in ran) >= 40


def test_the_runner_fails_on_a_broken_example(tmp_path: Path) -> None:
    """A wrong exit code, a failing command, a raising Python block, bad TOML,
    an untagged command, a command in an indented block and a `cd` to no
    folder are each reported with their line; a `cd` holds for the rest of
    the page."""
    page = tmp_path / "page.md"
    page.write_text(
        "```sh\nrnsim --version\nfalse\n```\n\n"
        "<!-- exit: 2 -->\n```sh\nrnsim run classic.toml --games 0\n```\n\n"
        "<!-- exit: 2 -->\n```sh\nrnsim --version\n```\n\n"
        "```python\nraise ValueError('stale')\n```\n\n"
        "```toml\n[run\n```\n\n"
        "```\nrnsim run classic.toml\n```\n\n"
        "Shown, never run:\n\n    rnsim run classic.toml\n\n"
        "```sh\ncd variants\ntest -f target-900k.toml\n```\n\n"
        "```python\nimport os\nassert os.path.isfile('target-900k.toml')\n```\n\n"
        "```sh\ncd nowhere\n```\n\n"
        "<!-- not run: an example -->\n```sh\nfalse\n```\n")
    work = tmp_path / "work"
    work.mkdir()
    failures = run_page(page, work, root=tmp_path)
    joined = "\n".join(failures)
    assert len(failures) == 7, joined
    assert "`false` exited 1" in joined and "`rnsim --version` exited 0, expected 2" in joined
    assert "ValueError: stale" in joined and "invalid TOML" in joined and "untagged block" in joined
    assert "page.md:30: a command in an indented code block" in joined
    assert "`cd nowhere`: no such folder" in joined


@pytest.mark.parametrize(("doc", "module"), [
    ("docs/reference/rules.md", "rnsim.games.red_notice.rules.ruleset"),
    ("docs/games/fbi.md", "rnsim.games.fbi.rules"),
])
def test_the_knob_tables_are_the_games_own(doc: str, module: str) -> None:
    """The knob tables are the ones each game prints from its knob
    declarations (defaults, ranges, meanings), not a copy that can drift."""
    import importlib

    table = importlib.import_module(module).knob_docs().strip()
    assert table in (ROOT / doc).read_text(), f"{doc}: the knob table differs from {module}.knob_docs()"


def test_rulings_are_each_findable() -> None:
    """The code cites R1..R27 and F1..F16: each has its own anchor."""
    text = (ROOT / "docs" / "reference" / "rulings.md").read_text()
    for rid in [f"R{i}" for i in range(1, 28)] + [f"F{i}" for i in range(1, 17)]:
        assert f"{{: #{rid} }}" in text and f"**{rid} ·" in text, rid


def test_no_development_history() -> None:
    """The docs speak of the product, not of its making; one `rnsim run` on a
    run directory is an invocation (the manifest's key `sessions` is only
    read from old manifests)."""
    pattern = re.compile(r"session [0-9]+|this\swave|\bissue [0-9]+|previously|(?<!`)\bsessions?\b(?!`)", re.I)
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in PAGES for i, ln in enumerate(p.read_text().splitlines(), 1)
            if pattern.search(ln)]
    assert not hits, hits


def test_no_development_history_in_the_code() -> None:
    """Code, comments, tests, configs and scripts say what the code does,
    not when it changed."""
    pattern = re.compile(r"session [0-9]+|this\swave|\bissue [0-9]+", re.I)
    files = [p for d in ("rnsim", "strategies", "tests", "configs", "scripts", "benchmarks", ".ci")
             for p in sorted((ROOT / d).rglob("*")) if p.suffix in (".py", ".toml", ".json", ".c", "")
             and p.is_file() and ".so" not in p.name]
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in files
            for i, ln in enumerate(p.read_text(errors="replace").splitlines(), 1) if pattern.search(ln)]
    assert not hits, hits


def test_the_workflow_shown_is_the_one_init_writes() -> None:
    """The CI guide shows the GitHub Actions workflow `rnsim init` writes,
    word for word from its `name:` line on (its comments aside)."""
    from rnsim import __version__
    from rnsim.examples import WORKFLOW

    page = ROOT / "docs" / "how-to" / "ci-gate.md"
    shown = [b.body for b in parse(page.read_text(), "ci-gate.md") if b.lang == "yaml"]
    written = WORKFLOW.format(version=__version__)
    assert len(shown) == 1
    assert shown[0][shown[0].index("name: balance"):] == written[written.index("name: balance"):]
