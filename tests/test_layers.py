"""The architecture, read from the source (docs/architecture.md, "Layers"):

    game.py, errors, seeding, chance, compiled  <-  games/*  <-  strategy, play, results
    <-  config, examples, tournament/*  <-  analysis  <-  report  <-  drift  <-  cli

A module may import its own layer or any layer below it, never one above
(function-local imports count too: a lazy upward import is still a cycle in
waiting). The analysis and the report never import a game's modules (only the
registry, rnsim.games). A game's report sections (``rnsim/games/<g>/report*``,
``analysis*``, ``figures*``, ``synthetic*``) are plug-ins of the report layer.

And the core knows no game by name: no Red Notice word appears in the code
(names, attributes, arguments, string literals; docstrings, comments and the
command line's help texts are prose and may give examples) of any module
outside rnsim/games/ but the few in GAME_WORDS_ALLOWED. A command asks the
game for its seats, roles, watched seat, setups and knobs (rnsim/game.py,
rnsim/cli/seats.py).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent / "rnsim"

LAYERS: list[tuple[str, ...]] = [
    ("rnsim.game", "rnsim.errors", "rnsim.schema", "rnsim.seeding", "rnsim.chance", "rnsim.compiled"),
    ("rnsim.games",),
    ("rnsim.strategy", "rnsim.play", "rnsim.results"),
    ("rnsim.config", "rnsim.examples", "rnsim.provenance", "rnsim.tournament", "rnsim.band"),
    ("rnsim.analysis", "rnsim.band.analysis"),
    ("rnsim.report", "rnsim.band.words"),
    ("rnsim.drift", "rnsim.levers"),
    ("rnsim.cli",),
]

#: modules outside rnsim/games/ that may name a game, and why
GAME_WORDS_ALLOWED = {
    # the package face: `rnsim.play_game`, `GameResult`, `RuleSet` of the built-in game
    "rnsim",
    # the list of compiled modules of each game, which setup.py reads by path
    # before anything can be imported (standard library only)
    "rnsim.compiled",
    # `rnsim init`'s example files: text that configures the games by name
    "rnsim.examples",
}

RED_NOTICE_WORDS = re.compile(
    r"angela|jessah|forger|identit|upgrade|red_notice|rednotice|radar|barrier|journalist|wiretap|interpol",
    re.IGNORECASE,
)


def _modules() -> dict[str, Path]:
    out = {}
    for p in sorted(ROOT.rglob("*.py")):
        parts = list(p.relative_to(ROOT.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


MODULES = _modules()


def layer_of(module: str) -> int | None:
    parts = module.split(".")
    if len(parts) >= 4 and parts[:2] == ["rnsim", "games"] and parts[3].startswith(("report", "analysis", "figures", "synthetic")):
        return 5  # a game's report sections
    best: tuple[int, int] | None = None  # (prefix length, layer)
    for n, names in enumerate(LAYERS):
        for name in names:
            if module == name or module.startswith(name + "."):
                if best is None or len(name) > best[0]:
                    best = (len(name), n)
    return None if best is None else best[1]


def imports_of(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.append((node.lineno, node.module))
            # "from rnsim.x import y" may import the submodule rnsim.x.y
            out += [(node.lineno, f"{node.module}.{a.name}") for a in node.names
                    if f"{node.module}.{a.name}" in MODULES]
    return [(n, m) for n, m in out if m == "rnsim" or m.startswith("rnsim.")]


def test_every_module_has_a_layer() -> None:
    missing = [m for m in MODULES if m != "rnsim" and layer_of(m) is None]
    assert not missing, f"modules outside every layer (add them to LAYERS): {missing}"


@pytest.mark.parametrize("module", [m for m in MODULES if m != "rnsim"])
def test_no_upward_import(module: str) -> None:
    mine = layer_of(module)
    assert mine is not None
    bad = []
    for line, target in imports_of(MODULES[module]):
        if target == "rnsim":
            continue  # the package facade (version, re-exports), imported lazily
        theirs = layer_of(target)
        if theirs is not None and theirs > mine:
            bad.append(f"line {line}: {target} (layer {theirs} > {mine})")
        if mine in (4, 5) and not module.startswith("rnsim.games.") and target.startswith("rnsim.games."):
            bad.append(f"line {line}: {target} (the analysis and report never import a game's modules)")
    assert not bad, f"{module} imports upward: " + "; ".join(bad)


def _docstrings(tree: ast.AST) -> set[int]:
    """The prose of a module: its docstrings, and the strings of ``help=``
    arguments (the command line's help texts)."""
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
        elif isinstance(node, ast.keyword) and node.arg == "help":
            ids |= {id(n) for n in ast.walk(node.value) if isinstance(n, ast.Constant)}
    return ids


def game_words(path: Path) -> list[str]:
    """Red Notice words in the code of a module (not in docstrings or comments)."""
    tree = ast.parse(path.read_text())
    skip = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        words: list[str] = []
        if isinstance(node, ast.Name):
            words = [node.id]
        elif isinstance(node, ast.Attribute):
            words = [node.attr]
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words = [node.name]
        elif isinstance(node, ast.arg):
            words = [node.arg]
        elif isinstance(node, ast.keyword) and node.arg:
            words = [node.arg]
        elif isinstance(node, ast.alias):
            words = [node.name, node.asname or ""]
        elif isinstance(node, ast.ImportFrom) and node.module:
            words = [node.module]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            words = [node.value]
        for w in words:
            if RED_NOTICE_WORDS.search(w):
                found.append(f"line {getattr(node, 'lineno', '?')}: {w[:60]!r}")
    return found


def _core_modules() -> list[str]:
    """Every module outside rnsim/games/ (a game's own package names it) but
    those allowed to name a game."""
    return [m for m in MODULES if m != "rnsim.games" and not m.startswith("rnsim.games.")
            and m not in GAME_WORDS_ALLOWED]


def test_the_core_is_every_module_outside_the_games() -> None:
    core = _core_modules()
    assert {"rnsim.cli.exploit", "rnsim.cli.ladder", "rnsim.cli.play", "rnsim.levers.balance",
            "rnsim.drift.gate", "rnsim.analysis.sequential"} <= set(core)
    assert not any(m.startswith("rnsim.games") for m in core)


@pytest.mark.parametrize("module", _core_modules())
def test_core_names_no_game(module: str) -> None:
    found = game_words(MODULES[module])
    assert not found, f"{module} names Red Notice: " + "; ".join(found)


def test_the_checks_can_fail(tmp_path: Path) -> None:
    """The checks above catch what they are meant to catch."""
    p = tmp_path / "m.py"
    p.write_text('"""Docstrings may say angela."""\nimport rnsim.cli\n\ndef f(jessah):\n    return "forger"\n'
                 'o = option("--x", help="Help texts may say " + "angela", default="jessah")\n')
    assert [w.split(":")[1].strip() for w in game_words(p)] == ["'jessah'", "'forger'", "'jessah'"]
    assert imports_of(p) == [(2, "rnsim.cli")]
    assert layer_of("rnsim.cli.run") > layer_of("rnsim.tournament.worker")  # type: ignore[operator]
    assert layer_of("rnsim.games.red_notice.report") == 5


def test_the_command_line_starts_without_scipy() -> None:
    """scipy.stats takes most of a second to import: `rnsim --version`, and
    every command that computes no normal quantile, start without it."""
    import subprocess
    import sys

    code = "import sys, rnsim.cli; print(sorted(m for m in ('scipy.stats', 'scipy.optimize') if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]", out


def _module_imports(path: Path) -> set[str]:
    """The rnsim modules a module imports: ``from pkg import sub`` is an import
    of ``pkg.sub`` (and of ``pkg`` only when it also takes a name defined there)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            subs = {f"{node.module}.{a.name}" for a in node.names if f"{node.module}.{a.name}" in MODULES}
            out |= subs if len(subs) == len(node.names) else subs | {node.module}
    return {m for m in out if m in MODULES and m != "rnsim"}


def import_cycles(graph: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[tuple[str, ...]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(tuple(sorted(group)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def test_no_import_cycles() -> None:
    """No module imports, even lazily or for a type only, one that imports it
    back: each dependency runs one way (e.g. Red Notice's effects know the
    state and register under a card's name, engine/registry.py; the state
    looks them up there)."""
    graph = {m: _module_imports(p) - {m} for m, p in MODULES.items()}
    assert import_cycles(graph) == []


def test_the_cycle_finder_finds_a_loop() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles(graph) == [("a", "b", "c")]
