"""The type stubs of the C cores name exactly what each built module holds,
so mypy checks every call of them against a declared signature (and a
function added to the C cannot be called untyped)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from rnsim.compiled import TARGETS


def _c_modules() -> list[tuple[str, Path]]:
    return [(f"{t.package}.{m}", t.folder / f"{m}.pyi") for t in TARGETS.values() for m in t.c_modules]


def _stub_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


@pytest.mark.parametrize(("module", "stub"), _c_modules(), ids=lambda x: str(x).rsplit(".", 1)[-1])
def test_a_c_cores_stub_names_what_the_module_holds(module: str, stub: Path) -> None:
    try:
        mod = importlib.import_module(module)
    except ImportError:
        pytest.skip(f"{module} is not built (no C compiler): the Python source runs")
    held = {n for n in dir(mod) if not n.startswith("_")}
    declared = {n for n in _stub_names(stub) if not n.startswith("_")}
    declared -= {"Guesses"}  # a type only the stub names: its objects come from guesses()
    assert declared == held, f"{stub.name}: declared but absent {sorted(declared - held)}; held but undeclared " \
                             f"{sorted(held - declared)}"
