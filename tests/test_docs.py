"""Every example in the docs runs, so the docs cannot go stale.

The fenced blocks of README.md and docs/**/*.md are run page by page, in
order, in a fresh folder holding a copy of configs/, with the `rnsim` of the
interpreter running the tests first on the PATH:

- ```sh (or bash, shell, console): each command (a line; a trailing \\
  continues it) must exit 0, or the code an ``<!-- exit: N -->`` comment
  right before the block declares;
- ```python: run in one namespace per page, with the page's folder as the
  current directory and on sys.path; a block whose first line is a comment
  naming a .py file (``# hunter_lib/cautious.py``) is that file, written, not
  run;
- ```toml: parsed; with ``title="name.toml"`` it is written as that file
  (a later block of the same name replaces it, as a reader edits it);
- a block after ``<!-- not run: why -->`` is left out and listed (a Ray
  cluster, the test suite itself); a fenced block without a language that
  holds a command is an error: tag it ``sh`` (or mark it not run).

Other languages (text, yaml) are shown, not run. Sizes in the docs are small
(``--games 20``), so the whole file plays in about a minute on 2 cores.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
SHELL = {"sh", "bash", "shell", "console"}
# docs/levers.md is maintained with the levers commands: its commands are
# written at full size and its text is not yet held to the checks below, so it
# is exempt from the untagged-command and history checks (its tagged blocks
# still run) until it is rewritten as small `sh` blocks.
UNTAGGED_ALLOWED = {"docs/levers.md"}
COMMAND = re.compile(r"^\s*(\$ )?(PYTHONPATH=\S+ )?(rnsim|make|python|pip) ")
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


def _run_shell(b: Block, work: Path) -> list[str]:
    failures = []
    for cmd in commands(b.body):
        r = subprocess.run(["bash", "-c", cmd], cwd=work, env=_env(), capture_output=True, text=True,
                           timeout=TIMEOUT)
        if r.returncode != b.exit_code:
            tail = (r.stderr.strip() or r.stdout.strip()).splitlines()[-3:]
            failures.append(f"{b.where()}: `{cmd}` exited {r.returncode}, expected {b.exit_code}: " + " | ".join(tail))
    return failures


def _run_python(b: Block, work: Path, namespace: dict[str, object]) -> list[str]:
    first = b.body.splitlines()[0] if b.body.strip() else ""
    target = re.fullmatch(r"#\s*(\S+\.py)\s*", first)
    if target:  # a module of the example: written where the next blocks import it
        path = work / target[1]
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.parent != work:
            (path.parent / "__init__.py").touch()
        path.write_text(b.body)
        return []
    try:
        exec(compile(b.body, b.where(), "exec"), namespace)  # noqa: S102 - the docs' own examples
    except Exception as e:  # noqa: BLE001 - every failure is reported with its block
        return [f"{b.where()}: python block raised {type(e).__name__}: {e}"]
    return []


def _check_toml(b: Block, work: Path) -> list[str]:
    if b.title:
        (work / b.title).write_text(b.body)
    try:
        tomllib.loads(b.body)
    except tomllib.TOMLDecodeError as e:
        return [f"{b.where()}: invalid TOML: {e}"]
    return []


def _check_untagged(b: Block) -> list[str]:
    cmds = [ln for ln in b.body.splitlines() if COMMAND.match(ln)]
    if b.page in UNTAGGED_ALLOWED or not cmds:
        return []
    return [f"{b.where()}: an untagged block holds a command ({cmds[0].strip()!r}): "
            "tag it ```sh, or mark it <!-- not run: why -->"]


def run_page(page: Path, work: Path, root: Path = ROOT) -> list[str]:
    """Run a page's blocks in ``work``; returns the failures, one line each."""
    shutil.copytree(ROOT / "configs", work / "configs")
    failures: list[str] = []
    namespace: dict[str, object] = {"__name__": "__docs__"}
    old_cwd, old_path, old_modules = os.getcwd(), list(sys.path), set(sys.modules)
    os.chdir(work)
    sys.path.insert(0, str(work))
    try:
        for b in parse(page.read_text(), page.relative_to(root).as_posix()):
            if b.not_run is not None:
                continue
            if b.lang in SHELL:
                failures += _run_shell(b, work)
            elif b.lang == "python":
                failures += _run_python(b, work, namespace)
            elif b.lang == "toml":
                failures += _check_toml(b, work)
            elif not b.lang:
                failures += _check_untagged(b)
    finally:
        os.chdir(old_cwd)
        sys.path[:] = old_path
        for name in set(sys.modules) - old_modules:  # the pages' own modules (hunter_lib, ...)
            if str(work) in str(getattr(sys.modules[name], "__file__", None)):
                del sys.modules[name]
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
    """A wrong exit code, a failing command, a raising Python block, bad TOML
    and an untagged command are each reported with their line."""
    page = tmp_path / "page.md"
    page.write_text(
        "```sh\nrnsim --version\nfalse\n```\n\n"
        "<!-- exit: 2 -->\n```sh\nrnsim run configs/classic.toml --games 0\n```\n\n"
        "<!-- exit: 2 -->\n```sh\nrnsim --version\n```\n\n"
        "```python\nraise ValueError('stale')\n```\n\n"
        "```toml\n[run\n```\n\n"
        "```\nrnsim run configs/classic.toml\n```\n\n"
        "<!-- not run: an example -->\n```sh\nfalse\n```\n")
    work = tmp_path / "work"
    work.mkdir()
    failures = run_page(page, work, root=tmp_path)
    joined = "\n".join(failures)
    assert len(failures) == 5, joined
    assert "`false` exited 1" in joined and "`rnsim --version` exited 0, expected 2" in joined
    assert "ValueError: stale" in joined and "invalid TOML" in joined and "untagged block" in joined


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
    """The docs speak of the product, not of its making."""
    pattern = re.compile(r"session [0-9]+|this wave|\bissue [0-9]+|previously", re.I)
    hits = [f"{p.relative_to(ROOT)}:{i}" for p in PAGES for i, ln in enumerate(p.read_text().splitlines(), 1)
            if p.relative_to(ROOT).as_posix() not in UNTAGGED_ALLOWED and pattern.search(ln)]
    assert not hits, hits
