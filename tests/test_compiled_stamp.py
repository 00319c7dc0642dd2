"""A compiled build is used only while its stamp matches every source it was
built against (rnsim/compiled.py): an edit to a compiled module or to a module
it depends on (the expert's base class) makes it stale, so the Python source
runs instead of a native class built against an old base (which can crash)."""

from __future__ import annotations

from pathlib import Path

from rnsim.compiled import TARGETS, CompiledBuild


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
