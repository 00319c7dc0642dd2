"""How rnsim is built: the one build of the wheel, of `pip install .`, of an
editable install and of `make install`.

- Packages: every package under rnsim/, and strategies/ installed under the
  import name rnsim_strategies (so it cannot collide with another
  distribution's top-level ``strategies``), found, not listed.
- Data: the component TOML files, the C sources of the C cores (their
  builds' stamps hash them) and their type stubs; the example configs of the repository's
  configs/ ship as rnsim/configs (what `rnsim init` writes and `rnsim run
  classic` reads; in a checkout rnsim reads configs/ itself).
- The fast path: the compiled builds of rnsim/compiled.py (TARGETS), each
  compiled with mypyc, and the experts' with their C cores (Jessah's dossier,
  FBI's flat play-outs). Each build
  is optional and all or nothing: without a working C compiler, without mypy,
  or when one fails, setup.py warns and that target's Python source is used
  (same results, slower; `rnsim bench` and the run's manifest say which).
  Beside each build goes its stamp, the hash of its sources, so an installed
  copy checks its builds as a checkout does.

    pip install .                             # a wheel with the compiled builds
    python -m build --wheel                   # the same, into dist/
    python setup.py build_ext --inplace       # in a checkout (`make install`): the targets
                                              # missing or older than their sources
    python setup.py build_ext --inplace --force --targets fbi-engine,fbi-strategies
    python setup.py clean_compiled            # remove the in-place builds (`make pure`)

Each game's engine and expert are one mypyc build (compiled.py's
``native_deps``): two shared libraries, the expert's reading the engine's
native classes (the view, the decisions, the options) as C structs; building
either builds both; the engines' shared chance draws (rnsim/chance) are a
build of their own. The generated C of a build stays in
build/temp.*/mypyc/UNIT (engine+strategies, fbi-engine+fbi-strategies, chance) (for
`callgrind_annotate --auto=yes OUT FILE.c`).
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from setuptools import Command, Extension, find_namespace_packages, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

if TYPE_CHECKING:
    from rnsim.compiled import CompiledBuild

ROOT = Path(__file__).resolve().parent
STRATEGIES = "rnsim_strategies"  # the import name of the strategies/ folder


def _load_compiled() -> Any:
    """rnsim/compiled.py, loaded by path: rnsim is not installed while it builds."""
    spec = importlib.util.spec_from_file_location("_rnsim_compiled", ROOT / "rnsim" / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["_rnsim_compiled"] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


compiled = _load_compiled()
TARGETS: dict[str, CompiledBuild] = compiled.targets(ROOT / "rnsim", ROOT / "strategies")


def _warn(msg: str) -> None:
    print(f"warning: {msg}", file=sys.stderr, flush=True)


# A shared library's functions may call each other directly and be inlined into
# each other (mypyc's runtime helpers, such as a list's item access, are in the
# same file as the compiled code): nothing replaces them at load time.
_NO_INTERPOSITION = ["-fno-semantic-interposition"] if sys.platform.startswith("linux") else []


def _c_extensions(t: CompiledBuild, folder: Path) -> list[Extension]:
    """The C modules of a target, from ``folder`` (the target's, or staged).
    The floats must be the Python source's: no fused multiply-adds."""
    args = ["-O2", "-ffp-contract=off"] if os.name != "nt" else []
    return [Extension(f"{t.package}.{m}", [str(folder / f"{m}.c")], extra_compile_args=args) for m in t.c_modules]


def _stage(work: Path) -> Path:
    """A tree where a target's path is its import name (mypyc names a module
    by its path): strategies/ copied as rnsim_strategies/, beside a copy of
    rnsim/. Returns the tree. The whole package is copied, not only the
    compiled modules: mypy must see every module they import (a base class
    that mypy cannot find is typed ``Any`` and compiles into a class that
    crashes)."""
    shutil.rmtree(work, ignore_errors=True)
    skip = shutil.ignore_patterns("*.so", "*.sha256", "__pycache__", "*.pyc", "configs")
    shutil.copytree(ROOT / "strategies", work / STRATEGIES, ignore=skip)
    shutil.copytree(ROOT / "rnsim", work / "rnsim", ignore=skip)
    # mypy's settings only (the project's pyproject.toml would map the staged
    # package back to its folder); a module of the staged package that mypy
    # cannot find is an error, not ``Any``
    (work / "mypy.ini").write_text("[mypy]\npython_version = 3.11\nignore_missing_imports = True\n"
                                   f"[mypy-{STRATEGIES}.*]\nignore_missing_imports = False\n")
    return work


def _mypyc_extensions(unit: list[CompiledBuild], temp: Path) -> list[Extension]:
    """Type-check a unit of targets (_units) with mypy and generate their C
    (into ``temp``), in one mypyc build: per target one shared library
    (``<package>._group__mypyc``) and a small module per compiled module,
    then its C modules. Targets built together call each other's compiled
    code natively, through their libraries' export tables."""
    from mypyc.build import mypycify

    staged = any(t.folder.relative_to(ROOT) != Path(*t.package.split(".")) for t in unit)
    work = _stage(temp / "stage") if staged else ROOT
    old = os.getcwd()
    os.chdir(work)  # mypy reads its settings here; module names come from the paths
    try:
        groups: list[tuple[list[str], str | None]] = [
            ([str(Path(*t.package.split(".")) / p.name) for p in t.module_files()], t.group) for t in unit]
        paths = [p for files, _ in groups for p in files]
        if len(unit) == 1:
            exts = mypycify(paths, opt_level="3", group_name=unit[0].group, target_dir=str(temp / "c"))
        else:
            exts = mypycify(paths, opt_level="3", separate=groups, target_dir=str(temp / "c"))
    finally:
        os.chdir(old)
    for ext in exts:
        ext.extra_compile_args = [*ext.extra_compile_args, *_NO_INTERPOSITION]
    return [*exts, *(e for t in unit for e in _c_extensions(t, work / Path(*t.package.split("."))))]


def _units(names: list[str]) -> list[list[str]]:
    """The targets ``names`` as units built together: a target with its
    native dependencies (CompiledBuild.native_deps) and the targets that
    depend on it, each unit in TARGETS' order."""
    def linked(a: str, b: str) -> bool:
        return TARGETS[b] in TARGETS[a].native_deps or TARGETS[a] in TARGETS[b].native_deps

    units: list[set[str]] = []
    for name in names:
        unit = {name}
        grown = True
        while grown:
            more = {o for o in TARGETS for u in unit if o not in unit and linked(u, o)}
            unit |= more
            grown = bool(more)
        if unit not in units:
            units.append(unit)
    return [[n for n in TARGETS if n in unit] for unit in units]


def _compiler_problem() -> str | None:
    """Why C extensions cannot be built here (None: they can): a C compiler
    and Python's headers must work on a one-line module."""
    from distutils import ccompiler, sysconfig

    with tempfile.TemporaryDirectory(prefix="rnsim-cc-") as d:
        probe = Path(d) / "probe.c"
        probe.write_text("#include <Python.h>\nint rnsim_probe(void) { return 0; }\n")
        cc: Any = ccompiler.new_compiler()
        sysconfig.customize_compiler(cc)
        try:
            cc.compile([str(probe)], output_dir=d, include_dirs=[sysconfig.get_python_inc()])
        except Exception as e:  # distutils' errors, or setuptools' copy of them
            return f"no working C compiler with Python's headers ({cc.compiler_so[0]}: {type(e).__name__})"
    return None


class BuildCompiled(build_ext):
    """build_ext for the compiled targets: generates their C with mypyc when it
    runs (not when setup.py is read, so metadata and sdists need no mypy),
    builds each target all or nothing, writes its stamp, and replaces an
    in-place build file by file with renames (a process running the old build
    keeps its mapped file). In place, a target whose build is complete and
    fresh is left as it is unless --force."""

    extensions: list[Extension]
    user_options = [*build_ext.user_options,
                    ("targets=", None, f"comma-separated targets to build (default: all: {', '.join(TARGETS)})")]

    def initialize_options(self) -> None:
        super().initialize_options()
        self.targets: str | None = None

    def finalize_options(self) -> None:
        super().finalize_options()
        if getattr(self, "parallel", None) is None:  # each target is one large C file: two compile at once
            self.parallel = min(2, os.cpu_count() or 1)
        self._names = _target_names(self.targets)
        self._owner: dict[str, str] = {}  # extension name -> target
        self._failed: set[str] = set()
        self._hashes: dict[str, str] = {}

    def run(self) -> None:
        names = self._names
        if self.inplace and not self.force:
            fresh = [n for n in names if TARGETS[n].is_fresh() and TARGETS[n].is_complete()]
            if fresh:
                print(f"compiled builds up to date: {', '.join(fresh)}")
            names = [n for n in names if n not in fresh]
        units = _units(names)  # a target is rebuilt with those it is compiled with
        names = [n for unit in units for n in unit]
        if not names:
            self.extensions = []
            return
        problem = _compiler_problem()
        if problem:
            _warn(f"{problem}: nothing compiled; the Python source of {', '.join(names)} is used "
                  "(same results, slower)")
            self._clean_in_place(names)
            self.extensions = []
            return
        self.extensions = []
        for unit in units:
            self._generate(unit)
        self._adopt(self.extensions)
        super().run()
        for unit in units:  # a unit is built all or nothing
            if any(n in self._failed for n in unit):
                self._failed.update(unit)
        for name in names:
            if name in self._failed:
                self._drop(name)
            elif not self.inplace:
                self._stamp_dir(TARGETS[name]).joinpath(compiled.STAMP_NAME).write_text(self._hashes[name] + "\n")
        built = [n for n in names if n not in self._failed]
        print(f"compiled builds done: {', '.join(built) or 'none'}"
              + (f"; NOT built (Python source used): {', '.join(sorted(self._failed))}" if self._failed else ""))

    def _generate(self, unit: list[str]) -> None:
        """Generate the C of one unit of targets (_units) and add its extensions."""
        builds = [TARGETS[n] for n in unit]
        for name, t in zip(unit, builds, strict=True):
            self._hashes[name] = t.source_hash()  # before generating: what the build is made from
        try:
            exts = _mypyc_extensions(builds, Path(self.build_temp).resolve() / "mypyc" / "+".join(unit))
        except Exception as e:  # mypy missing, a type error, ...: these targets stay pure
            labels = " and ".join(t.label for t in builds)
            _warn(f"compiled {labels} not built ({type(e).__name__}: {e}); the Python source is used")
            self._failed.update(unit)
            return
        owners = {ext.name: next((n for n, t in zip(unit, builds, strict=True)
                                  if ext.name.rpartition(".")[0] == t.package), None) for ext in exts}
        strays = sorted(name for name, owner in owners.items() if owner is None)
        if strays:  # a module mypyc named outside the targets' packages: keep the unit pure, whole
            _warn(f"compiled {' and '.join(t.label for t in builds)} not built (mypyc made {', '.join(strays)}, "
                  "outside their packages); the Python source is used")
            self._failed.update(unit)
            return
        self._owner.update({name: owner for name, owner in owners.items() if owner is not None})
        self.extensions.extend(exts)

    def _adopt(self, exts: list[Extension]) -> None:
        """What setuptools' finalize_options records of each extension (it ran
        before the extensions were generated); none is a shared Library."""
        for ext in exts:
            ext._full_name = self.get_ext_fullname(ext.name)  # type: ignore[attr-defined]
            self.ext_map[ext._full_name] = ext  # type: ignore[attr-defined]
            ext._links_to_dynamic = ext._needs_stub = False  # type: ignore[attr-defined]
            ext._file_name = self.get_ext_filename(ext._full_name)  # type: ignore[attr-defined]

    def build_extension(self, ext: Extension) -> None:
        name = self._owner.get(ext.name)
        if name in self._failed:
            return
        try:
            super().build_extension(ext)
        except Exception as e:  # the compiler or linker failed: the target stays pure
            if name is None:
                raise
            _warn(f"compiled {TARGETS[name].label} not built ({ext.name}: {e}); its Python source is used")
            self._failed.add(name)

    def _stamp_dir(self, t: CompiledBuild) -> Path:
        return Path(self.build_lib, *t.package.split("."))

    def _built_file(self, ext: Extension) -> Path:
        return Path(self.build_lib) / self.get_ext_filename(ext.name)

    def _drop(self, name: str) -> None:
        """A target that failed: none of its modules in the build (a module
        without its shared library cannot be imported)."""
        for ext in self.extensions:
            if self._owner.get(ext.name) == name:
                self._built_file(ext).unlink(missing_ok=True)
        self._stamp_dir(TARGETS[name]).joinpath(compiled.STAMP_NAME).unlink(missing_ok=True)
        if self.inplace:
            self._clean_in_place([name])

    def _clean_in_place(self, names: list[str]) -> None:
        if self.inplace:
            for name in names:
                TARGETS[name].clean()

    def copy_extensions_to_source(self) -> None:
        for name in dict.fromkeys(self._owner.values()):
            if name in self._failed:
                continue
            t = TARGETS[name]
            t.stamp.unlink(missing_ok=True)  # no build is fresh while its files are replaced
            for ext in self.extensions:
                if self._owner.get(ext.name) == name:
                    src = self._built_file(ext)
                    dst = t.folder / src.name
                    part = dst.with_name(dst.name + ".part")
                    shutil.copy2(src, part)
                    os.replace(part, dst)
            t.stamp.write_text(self._hashes[name] + "\n")


class BuildPy(build_py):
    """build_py, plus the repository's configs/ as rnsim/configs (one copy of
    the example configs in the repository; an editable install reads configs/)."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            for src in self._configs():
                dst = Path(self.build_lib) / "rnsim" / "configs" / src.relative_to(ROOT / "configs")
                dst.parent.mkdir(parents=True, exist_ok=True)
                self.copy_file(str(src), str(dst))

    @staticmethod
    def _configs() -> list[Path]:
        found = sorted(p for p in (ROOT / "configs").rglob("*") if p.suffix in (".toml", ".json"))
        if not found:  # an sdist without them (MANIFEST.in) would make a wheel without `rnsim init`
            raise SystemExit(f"{ROOT / 'configs'}: no example configs to ship")
        return found

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        extra = [str(Path(self.build_lib) / "rnsim" / "configs" / p.relative_to(ROOT / "configs"))
                 for p in self._configs()]
        return [*super().get_outputs(include_bytecode), *extra]


class CleanCompiled(Command):
    """Remove the in-place compiled builds (the Python source is used)."""

    description = "remove the in-place compiled builds of rnsim/compiled.py's targets"
    user_options = [("targets=", None, "comma-separated targets to remove (default: all)")]

    def initialize_options(self) -> None:
        self.targets: str | None = None

    def finalize_options(self) -> None:
        self._names = _target_names(self.targets)

    def run(self) -> None:
        for name in self._names:
            TARGETS[name].clean()
            print(f"compiled {TARGETS[name].label} removed")


def _target_names(option: str | None) -> list[str]:
    """The targets a --targets option names (all when it is not given)."""
    names = [n.strip() for n in (option or "").split(",") if n.strip()] or list(TARGETS)
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        raise SystemExit(f"--targets: unknown target {unknown[0]!r}; targets: {', '.join(TARGETS)}")
    return names


def _packages() -> list[str]:
    """Every folder of rnsim/ and strategies/: some packages have no
    __init__.py (rnsim.games.red_notice), and a data folder is a package
    holding only data."""
    skip = ["__pycache__", "*.__pycache__", "configs", "configs.*"]
    return ["rnsim", *(f"rnsim.{p}" for p in find_namespace_packages(str(ROOT / "rnsim"), exclude=skip)),
            STRATEGIES, *(f"{STRATEGIES}.{p}" for p in find_namespace_packages(str(ROOT / "strategies"), exclude=skip))]


setup(
    packages=_packages(),
    package_dir={STRATEGIES: "strategies"},
    # the data in any package: component and test data (TOML), search's value
    # model (JSON), the C of a C extension (its build's stamp hashes it), its
    # type stubs, and the report's templates (Jinja2)
    package_data={"": ["*.toml", "*.json", "*.c", "*.pyi", "*.j2"]},
    # the dossier's C core is the static one (it makes the wheel a platform
    # wheel); the mypyc modules join it when build_ext runs
    ext_modules=_c_extensions(TARGETS["strategies"], Path("strategies") / "red_notice"),
    cmdclass={"build_ext": BuildCompiled, "build_py": BuildPy, "clean_compiled": CleanCompiled},
)
