"""Compile the hot modules with mypyc: Red Notice's engine (about 3x faster
games) and expert strategy (about 1.4x), FBI's engine and expert (about 2x
faster expert games). See rnsim/compiled.py for how a build is chosen over
its Python source (only while its stamp matches the sources).
`make install` runs this with --stale; it is safe to run again at any time.

    python scripts/build_native.py                 # build them all
    python scripts/build_native.py --stale         # build those missing or older than their sources
    python scripts/build_native.py fbi-strategies  # build some: engine, strategies, fbi-engine, fbi-strategies
    python scripts/build_native.py --jobs 1        # one at a time (default: 2 at once, at most one per core)
    python scripts/build_native.py --clean         # remove the compiled modules

The builds are independent (each type-checks the Python sources, never a
compiled module), so they run in separate processes, two at a time: on two
cores that halves the wall time of `make install` (each build is one C file,
compiled by one process).

With RNSIM_KEEP_BUILD=1 the generated C is kept (the path is printed), so
that `callgrind_annotate --auto=yes OUT FILE.c` can show a profile line by
line.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
import time
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
    from setuptools import Extension, setup

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
    # C modules beside the compiled ones, from the (staged) folder; the
    # floats must be the Python source's, so no fused multiply-adds
    c_exts = [Extension(f"{target.package}.{m}", [str(import_path / f"{m}.c")],
                        extra_compile_args=["-O2", "-ffp-contract=off"]) for m in target.c_modules]
    old = os.getcwd()
    os.chdir(work)  # mypy reads its settings from pyproject.toml here
    try:
        setup(
            name=f"rnsim-native-{target.package}",
            packages=[],
            # the generated C in this build's own folder, not ./build: builds
            # of the tree in place run at the same time (main)
            ext_modules=[*mypycify(paths, opt_level="3", group_name=target.group, target_dir=str(Path(tmp) / "c")),
                         *c_exts],
            script_args=["-q", "build_ext", "--inplace", "--build-temp", tmp, "--build-lib", tmp],
        )
        if staged:
            for built in (work / import_path).glob("*.so"):
                # beside it, then renamed over it: a process running the old
                # build keeps its mapped file (copying over it in place can
                # crash a tournament that is running)
                part = target.folder / (built.name + ".part")
                shutil.copy2(built, part)
                os.replace(part, target.folder / built.name)
    finally:
        os.chdir(old)
        if not os.environ.get("RNSIM_KEEP_BUILD"):
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"kept {tmp}")
    target.stamp.write_text(target.source_hash() + "\n")
    print(f"compiled {target.label} built: {', '.join(target.modules)}")


def build_all(names: list[str], jobs: int) -> int:
    """Build ``names``, each in its own process, ``jobs`` at a time (the
    longest first: they are listed so in TARGETS). A failed build leaves its
    target without a compiled module (the source is used) and does not stop
    the others; returns 1 if any failed."""
    if jobs <= 1 or len(names) <= 1:
        for name in names:
            build(compiled.TARGETS[name])
        return 0
    pending, running, failed = list(names), {}, []
    start = time.monotonic()
    while pending or running:
        while pending and len(running) < jobs:
            name = pending.pop(0)
            running[name] = subprocess.Popen([sys.executable, __file__, "--jobs", "1", name])
        for name, proc in list(running.items()):
            if proc.poll() is not None:
                del running[name]
                if proc.returncode:
                    failed.append(name)
                    print(f"compiled {compiled.TARGETS[name].label} NOT built (exit {proc.returncode}); "
                          "its Python source is used", file=sys.stderr)
        time.sleep(0.2)
    print(f"{len(names) - len(failed)} of {len(names)} compiled builds done in {time.monotonic() - start:.0f} s "
          f"({jobs} at a time)")
    return 1 if failed else 0


def main(argv: list[str]) -> int:
    jobs = min(2, os.cpu_count() or 1)
    args = list(argv)
    if "--jobs" in args:
        i = args.index("--jobs")
        try:
            jobs = int(args[i + 1])
            if jobs < 1:
                raise ValueError
        except (IndexError, ValueError):
            print("--jobs: a whole number of builds at a time, at least 1", file=sys.stderr)
            return 2
        del args[i:i + 2]
    names = [a for a in args if not a.startswith("-")] or list(compiled.TARGETS)
    unknown = [n for n in names if n not in compiled.TARGETS]
    if unknown:
        print(f"unknown target {unknown[0]!r}; targets: {', '.join(compiled.TARGETS)}", file=sys.stderr)
        return 2
    flags = [a for a in args if a.startswith("-")]
    bad = [f for f in flags if f not in ("--clean", "--stale")]
    if bad:
        print(f"unknown option {bad[0]!r}; options: --stale, --clean, --jobs N", file=sys.stderr)
        return 2
    if "--clean" in flags:
        for name in names:
            compiled.TARGETS[name].clean()
            print(f"compiled {compiled.TARGETS[name].label} removed")
        return 0
    if "--stale" in flags:
        names = [n for n in names if not (compiled.TARGETS[n].is_fresh() and compiled.TARGETS[n].compiled_files())]
    return build_all(names, jobs)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
