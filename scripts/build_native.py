"""Compile the hot modules with mypyc: the engine (about 3x faster games) and
the expert strategy (about 1.4x). See rnsim/compiled.py for how a build is
chosen over its Python source (only while its stamp matches the sources).
`make install` runs this; it is safe to run again at any time.

    python scripts/build_native.py                 # build both
    python scripts/build_native.py strategies      # build one: engine or strategies
    python scripts/build_native.py --clean         # remove the compiled modules
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rnsim.compiled import CompiledBuild

ROOT = Path(__file__).resolve().parent.parent
# Load rnsim/compiled.py by path: importing the rnsim package would import
# the engine, which is what is being rebuilt.
_spec = importlib.util.spec_from_file_location("_rnsim_compiled", ROOT / "rnsim" / "compiled.py")
assert _spec is not None and _spec.loader is not None
compiled = importlib.util.module_from_spec(_spec)
sys.modules["_rnsim_compiled"] = compiled  # dataclasses look the module up by name
_spec.loader.exec_module(compiled)


def _stage_package(target: CompiledBuild, import_path: Path, work: Path) -> None:
    """Copy the whole installed package (e.g. strategies/ as rnsim_strategies/)
    into ``work``, laid out by import name. Only ``target.modules`` are
    compiled, but mypy must see every module they import: with only the
    compiled modules staged, strategies/red_notice/base.py was missing, mypy
    took the expert's base class for ``Any``, and the native Expert built that
    way crashed (segfault) in ``Strategy.__init__`` under ``rnsim run``."""
    rel = target.folder.relative_to(ROOT)
    if len(rel.parts) != len(import_path.parts) or rel.parts[1:] != import_path.parts[1:]:
        raise SystemExit(f"cannot stage {rel} as {import_path}: only the top folder may be renamed")
    src_top, dst_top = ROOT / rel.parts[0], work / import_path.parts[0]
    shutil.copytree(src_top, dst_top, ignore=shutil.ignore_patterns("*.so", "*.sha256", "__pycache__", "*.pyc"))
    missing = [m for m in target.modules if not (dst_top.joinpath(*import_path.parts[1:]) / f"{m}.py").is_file()]
    if missing:
        raise SystemExit(f"staging {import_path}: compiled module(s) {', '.join(missing)} not found")


def build(target: CompiledBuild) -> None:
    from mypyc.build import mypycify
    from setuptools import setup

    target.clean()
    tmp = tempfile.mkdtemp(prefix="rnsim-native-")
    # mypyc names a module by its path, so the sources are compiled where their
    # path is their import name: in place for rnsim, in a staging tree for a
    # folder installed under another name (strategies/ -> rnsim_strategies).
    import_path = Path(*target.package.split("."))
    staged = target.folder.relative_to(ROOT) != import_path
    work = Path(tmp) / "stage" if staged else ROOT
    if staged:
        _stage_package(target, import_path, work)
        # mypy's settings only: the project's pyproject.toml would make setuptools
        # map the staged package back to its folder.
        # A module of the staged package that mypy cannot find is an error, not
        # ``Any``: a base class typed ``Any`` compiles into a crashing class.
        top = import_path.parts[0]
        (work / "mypy.ini").write_text("[mypy]\npython_version = 3.11\nignore_missing_imports = True\n"
                                       f"[mypy-{top}.*]\nignore_missing_imports = False\n")
        (work / "rnsim").symlink_to(ROOT / "rnsim")
    paths = [str((work / import_path / p.name).relative_to(work)) for p in target.module_files()]
    old = os.getcwd()
    os.chdir(work)  # mypy reads its settings from pyproject.toml here
    try:
        setup(
            name=f"rnsim-native-{target.package}",
            packages=[],
            ext_modules=mypycify(paths, opt_level="3", group_name=target.group),
            script_args=["-q", "build_ext", "--inplace", "--build-temp", tmp, "--build-lib", tmp],
        )
        if staged:
            for built in (work / import_path).glob("*.so"):
                shutil.copy2(built, target.folder / built.name)
    finally:
        os.chdir(old)
        shutil.rmtree(tmp, ignore_errors=True)
        shutil.rmtree(ROOT / "build", ignore_errors=True)
    target.stamp.write_text(target.source_hash() + "\n")
    print(f"compiled {target.label} built: {', '.join(target.modules)}")


def main(argv: list[str]) -> int:
    names = [a for a in argv if not a.startswith("-")] or list(compiled.TARGETS)
    unknown = [n for n in names if n not in compiled.TARGETS]
    if unknown:
        print(f"unknown target {unknown[0]!r}; targets: {', '.join(compiled.TARGETS)}", file=sys.stderr)
        return 2
    for name in names:
        target = compiled.TARGETS[name]
        if "--clean" in argv:
            target.clean()
            print(f"compiled {target.label} removed")
        else:
            build(target)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
