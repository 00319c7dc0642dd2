"""A compiled build is used only while it is complete and its stamp matches
every source it was built against (rnsim/compiled.py): an edit to a compiled
module or to a module it depends on (the expert's base class) makes it stale,
so the Python source runs instead of a native class built against an old base
(which can crash). The stamps are read beside the modules that run, in a
checkout or an installed copy, and what each target runs is named with why."""

from __future__ import annotations

import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from rnsim.compiled import CHOSEN, TARGETS, CompiledBuild


def _build(tmp: Path) -> CompiledBuild:
    (tmp / "hot.py").write_text("X = 1\n")
    (tmp / "base.py").write_text("class Base: ...\n")
    b = CompiledBuild("pkg", tmp, ("hot",), "test build", depends=(tmp / "base.py",))
    b.stamp.write_text(b.source_hash() + "\n")
    return b


def test_a_build_is_fresh_until_a_compiled_module_changes(tmp_path: Path) -> None:
    b = _build(tmp_path)
    assert b.is_fresh()
    (tmp_path / "hot.py").write_text("X = 2\n")
    assert not b.is_fresh()


def test_a_change_to_a_dependency_makes_the_build_stale(tmp_path: Path) -> None:
    b = _build(tmp_path)
    (tmp_path / "base.py").write_text("class Base:\n    slots = ()\n")
    assert not b.is_fresh()
    assert b.module_files() == [tmp_path / "hot.py"]  # what is compiled: not the dependencies


def test_the_expert_build_depends_on_its_base_class_and_the_engine() -> None:
    deps = {p.name for p in TARGETS["strategies"].depends}
    assert {"base.py", "strategy.py", "frames.py", "state.py"} <= deps


def test_the_fbi_builds_depend_on_what_they_were_type_checked_against() -> None:
    engine, expert = TARGETS["fbi-engine"], TARGETS["fbi-strategies"]
    assert {p.name for p in engine.module_files()} == {"state.py", "view.py"}
    assert {"rules.py", "components.py", "errors.py"} <= {p.name for p in engine.depends}
    assert {p.name for p in expert.module_files()} == {"model.py", "expert.py"}
    assert "strategy.py" in {p.name for p in expert.depends}
    # compiled with the engine: a change to the view or the state makes the
    # expert's build stale too (it reads their fields as C struct fields)
    assert set(engine.sources()) <= set(expert.depends)


def test_the_fbi_expert_is_compiled_with_the_fbi_engine() -> None:
    """The expert reads the view's and the decision's fields natively: its
    build is made with the engine's and used only with it (a probe that hands
    it a decision of another class fails in the compiled build)."""
    assert TARGETS["fbi-strategies"].native_deps == (TARGETS["fbi-engine"],)


def test_a_stale_build_is_not_used_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _build(tmp_path)
    (tmp_path / "fake.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")  # not loaded: the build is stale
    b = CompiledBuild("pkg_stale_test", tmp_path, ("hot", "fake"), "test build", depends=(tmp_path / "base.py",))
    (tmp_path / "fake.py").write_text("Y = 3\n")
    b.stamp.write_text("0" * 64 + "\n")
    monkeypatch.setitem(sys.modules, "pkg_stale_test", types.ModuleType("pkg_stale_test"))
    with pytest.warns(UserWarning, match="older than its source; using the Python source"):
        assert b.select() is False
    assert sys.modules["pkg_stale_test.fake"].Y == 3 and sys.modules["pkg_stale_test.hot"].X == 1
    monkeypatch.delitem(sys.modules, "pkg_stale_test.fake")
    monkeypatch.delitem(sys.modules, "pkg_stale_test.hot")


def test_an_incomplete_build_is_not_used_and_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "hot.py").write_text("X = 1\n")
    (tmp_path / "core.c").write_text("/* C */\n")
    b = CompiledBuild("pkg_incomplete_test", tmp_path, ("hot",), "test build", c_modules=("core",))
    b.stamp.write_text(b.source_hash() + "\n")  # fresh...
    for name in ("hot", "_group__mypyc"):  # ...but without its C module: the expert would fail to import
        (tmp_path / f"{name}.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    assert b.is_fresh() and not b.is_complete()
    monkeypatch.setitem(sys.modules, "pkg_incomplete_test", types.ModuleType("pkg_incomplete_test"))
    with pytest.warns(UserWarning, match="incomplete; using the Python source"):
        assert b.select() is False
    assert CHOSEN["pkg_incomplete_test"] == "incomplete build" and sys.modules["pkg_incomplete_test.hot"].X == 1
    monkeypatch.delitem(sys.modules, "pkg_incomplete_test.hot")


def test_a_build_compiled_with_another_is_used_only_with_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert's build reads the engine's native classes as C structs: with
    the engine's Python source running instead (its build stale, say), the
    expert's compiled code would be handed objects it cannot read, so its
    Python source runs too."""
    dep_dir, own_dir = tmp_path / "dep", tmp_path / "own"
    for d in (dep_dir, own_dir):
        d.mkdir()
    dep = CompiledBuild("pkg_dep_test", dep_dir, ("hot",), "test engine")
    own = CompiledBuild("pkg_own_test", own_dir, ("hot",), "test expert", native_deps=(dep,))
    for b in (dep, own):
        (b.folder / "hot.py").write_text("X = 1\n")
        b.stamp.write_text(b.source_hash() + "\n")
        for name in ("hot", "_group__mypyc"):
            (b.folder / f"{name}.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    assert own.is_fresh() and own.is_complete()
    for name in ("pkg_dep_test", "pkg_own_test"):
        monkeypatch.setitem(sys.modules, name, types.ModuleType(name))
    monkeypatch.setitem(CHOSEN, "pkg_dep_test", "stale build")  # the engine runs its Python source
    assert own.select() is False
    assert CHOSEN["pkg_own_test"] == "the test engine is not compiled" and sys.modules["pkg_own_test.hot"].X == 1
    monkeypatch.delitem(sys.modules, "pkg_own_test.hot")
    monkeypatch.delitem(CHOSEN, "pkg_own_test")


def test_the_expert_is_compiled_with_the_engine(tmp_path: Path) -> None:
    assert TARGETS["strategies"].native_deps == (TARGETS["engine"],)
    # a build of the same sources made apart from its native dependencies
    # (which reads their classes as Python objects) is not taken for one
    # made with them: its stamp differs, so it is rebuilt
    b = _build(tmp_path)
    joined = CompiledBuild("pkg", tmp_path, ("hot",), "test build", depends=(tmp_path / "base.py",),
                           native_deps=(TARGETS["engine"],))
    assert b.is_fresh() and not joined.is_fresh()


def test_the_builds_are_where_the_packages_were_imported_from() -> None:
    """A checkout's strategies/ and an installed copy's rnsim_strategies/ alike:
    the stamps are read beside the modules that run."""
    import rnsim_strategies.fbi
    import rnsim_strategies.red_notice

    import rnsim.games.fbi

    assert TARGETS["strategies"].folder == Path(rnsim_strategies.red_notice.__file__).parent
    assert TARGETS["fbi-strategies"].folder == Path(rnsim_strategies.fbi.__file__).parent
    assert TARGETS["fbi-engine"].folder == Path(rnsim.games.fbi.__file__).parent
    assert all(p.is_file() for t in TARGETS.values() for p in t.sources())


def test_the_path_each_target_runs_is_named_with_its_reason() -> None:
    code = "from rnsim.compiled import chosen; print(chosen())"
    env = {**os.environ, "RNSIM_PURE": "1"}
    out = eval(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                              check=True).stdout)
    built = {k for k, t in TARGETS.items() if t.compiled_files()}
    assert out == {k: "pure (RNSIM_PURE=1)" if k in built else "pure (not built)" for k in TARGETS}
