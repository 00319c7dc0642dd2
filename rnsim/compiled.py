"""Optional compiled builds of the hot modules, and the choice between a build
and its Python source.

Five module sets (targets) have one: Red Notice's engine (rules, about 3x
faster) and expert strategy with its dossier (about 1.4x, its inner loops
in C), FBI's engine and expert strategy (its flat play-outs in C), and the
chance draws both engines share (rnsim/chance). setup.py compiles them with mypyc when
a wheel is built (`pip install .`, `python -m build`) or in place in a checkout
(`make install`, `python setup.py build_ext --inplace`), and writes beside
each build a stamp: the hash of the sources it was built from. Each game's
engine and expert are compiled in one mypyc build, each into its own shared
library (``native_deps``): the expert reads the view's, the decisions' and
the options' fields as C struct fields and calls the engine's functions
directly, not through Python attribute lookups and calls; so an expert's
build is used only with its engine's.

Each package calls ``select()`` before importing those modules: the compiled
build is used only when it is complete and its stamp matches the sources beside
it, so an edit is never shadowed by a stale build; otherwise, or with
``RNSIM_PURE=1``, the Python source is loaded. Both play identically (tested).
``CHOSEN`` records what each target runs and why (`rnsim bench`, the manifest).

Standard library only: setup.py loads this file by path, without importing
rnsim (nothing is installed while it builds).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from dataclasses import dataclass
from pathlib import Path

STAMP_NAME = "_native.sha256"

#: What select() chose per package: "compiled", or why the Python source runs
#: ("not built", "RNSIM_PURE=1", "stale build", "incomplete build").
CHOSEN: dict[str, str] = {}


@dataclass(frozen=True)
class CompiledBuild:
    package: str  # e.g. "rnsim.games.red_notice.engine"
    folder: Path  # the package's folder
    modules: tuple[str, ...]  # compiled modules, in import order
    label: str  # for messages
    # other sources the compiled code was type-checked against (a base class, a
    # compiled dependency): a change to one makes the build stale too, since a
    # native class built against an old base can crash rather than fail cleanly
    depends: tuple[Path, ...] = ()
    # C extension modules built with it, each from ``<name>.c`` in the folder
    # (hashed in the stamp, and used only with the compiled build)
    c_modules: tuple[str, ...] = ()
    # compiled builds this one is compiled with, in one mypyc build (each in
    # its own shared library): its compiled code reads their native classes'
    # fields and calls their functions natively, through their libraries'
    # export tables, so it is built with them and used only when they are
    native_deps: tuple[CompiledBuild, ...] = ()

    @property
    def stamp(self) -> Path:
        return self.folder / STAMP_NAME

    @property
    def group(self) -> str:
        """mypyc's shared library of the build (``<group>__mypyc``)."""
        return f"{self.package}._group"

    def module_files(self) -> list[Path]:
        """The compiled modules' sources."""
        return [self.folder / f"{m}.py" for m in self.modules]

    def sources(self) -> list[Path]:
        """What the stamp hashes: the compiled modules and what they depend on."""
        return [*self.module_files(), *self.depends, *(self.folder / f"{m}.c" for m in self.c_modules)]

    def source_hash(self) -> str:
        h = hashlib.sha256()
        for p in self.sources():
            h.update(p.read_bytes())
        for dep in self.native_deps:  # a build made apart from them is stale
            h.update(f"compiled with {dep.package}".encode())
        return h.hexdigest()

    def built_names(self) -> tuple[str, ...]:
        """The extension modules a complete build has in the folder."""
        return (*self.modules, *self.c_modules, "_group__mypyc")

    def compiled_files(self) -> list[Path]:
        names = self.built_names()
        return [p for p in self.folder.glob("*.so") if p.name.split(".")[0] in names]

    def is_complete(self) -> bool:
        """Every extension module of the build is there (a shim without its
        shared library, or the expert without the dossier's C, fails to import)."""
        present = {p.name.split(".")[0] for p in self.compiled_files()}
        return present >= set(self.built_names())

    def is_fresh(self) -> bool:
        try:
            return self.stamp.read_text().strip() == self.source_hash()
        except FileNotFoundError:
            return False

    def clean(self) -> None:
        if self.stamp.exists():
            self.stamp.unlink()
        for p in self.compiled_files():
            p.unlink()

    def _load_sources(self) -> None:
        package = sys.modules[self.package]
        for m in self.modules:
            name = f"{self.package}.{m}"
            loader = importlib.machinery.SourceFileLoader(name, str(self.folder / f"{m}.py"))
            spec = importlib.util.spec_from_loader(name, loader)
            assert spec is not None
            mod = importlib.util.module_from_spec(spec)
            sys.modules[name] = mod
            loader.exec_module(mod)
            setattr(package, m, mod)

    def _why_not(self) -> str | None:
        """Why the compiled build is not used (None: it is)."""
        if not self.compiled_files():
            return "not built"
        if os.environ.get("RNSIM_PURE") == "1":
            return "RNSIM_PURE=1"
        if not self.is_fresh():
            return "stale build"
        if not self.is_complete():
            return "incomplete build"
        for dep in self.native_deps:
            importlib.import_module(dep.package)  # the dependency chooses first
            if CHOSEN.get(dep.package) != "compiled":
                return f"the {dep.label} is not compiled"
        return None

    def select(self) -> bool:
        """Load the Python source unless a complete, fresh compiled build exists
        (and RNSIM_PURE is not 1). Returns True when the compiled build is used."""
        why = self._why_not()
        CHOSEN[self.package] = why or "compiled"
        if why is None:
            return True
        if why in ("stale build", "incomplete build"):
            warnings.warn(
                f"the compiled {self.label} is {'older than its source' if why == 'stale build' else 'incomplete'}; "
                "using the Python source (rebuild: `make install`, or `pip install .` for an installed copy)",
                stacklevel=3,
            )
        if why != "not built":  # the compiled modules are importable: load the sources over them
            self._load_sources()
        return False


def targets(rnsim_dir: Path, strategies_dir: Path) -> dict[str, CompiledBuild]:
    """The compiled builds of the packages in ``rnsim_dir`` (rnsim) and
    ``strategies_dir`` (rnsim_strategies): a checkout's rnsim/ and strategies/,
    or an installed copy's rnsim/ and rnsim_strategies/."""
    rn_engine = rnsim_dir / "games" / "red_notice" / "engine"
    rn_strategies = strategies_dir / "red_notice"
    fbi, fbi_strategies = rnsim_dir / "games" / "fbi", strategies_dir / "fbi"
    engine = CompiledBuild("rnsim.games.red_notice.engine", rn_engine,
                           ("decision", "belief", "frames", "registry", "effects", "history", "state", "view",
                            "determinize"), "engine")
    fbi_engine = CompiledBuild(
        "rnsim.games.fbi", fbi, ("state", "view"), "FBI engine",
        depends=(*(fbi / f"{m}.py" for m in ("__init__", "components", "rules")), rnsim_dir / "errors.py"))
    return {
        "engine": engine,
        # compiled with the engine: the expert reads its view's fields (and the
        # decisions', the options') as struct fields, not Python attributes
        "strategies": CompiledBuild(
            "rnsim_strategies.red_notice", rn_strategies, ("board", "dossier", "expert", "value"), "expert strategy",
            depends=(rn_strategies / "base.py", rn_strategies / "__init__.py", rnsim_dir / "strategy.py",
                     *(rn_engine / f"{m}.py" for m in ("decision", "belief", "frames", "registry", "effects", "state",
                                                        "view", "history", "determinize"))),
            c_modules=("_dossier_core",), native_deps=(engine,)),
        # FBI's engine and expert, built the same way (a 5-player expert game is
        # mostly the expert's play-outs, then the engine's state machine and views).
        "fbi-engine": fbi_engine,
        # compiled with FBI's engine, as Red Notice's: the expert reads the
        # view's and the decision's fields as struct fields
        "fbi-strategies": CompiledBuild(
            "rnsim_strategies.fbi", fbi_strategies, ("model", "expert"), "FBI expert strategy",
            depends=(fbi_strategies / "__init__.py", rnsim_dir / "strategy.py", *fbi_engine.sources()),
            c_modules=("_flat_core",), native_deps=(fbi_engine,)),
        # the engines' library draws, built on its own: each engine calls it
        # through Python (a few calls a game), so neither engine's build is
        # tied to it nor to the other game's
        "chance": CompiledBuild("rnsim.chance", rnsim_dir / "chance", ("draws",), "chance draws"),
    }


def _strategies_dir(rnsim_dir: Path) -> Path:
    """Where rnsim_strategies is: strategies/ in a checkout (an editable install
    maps the name to it), rnsim_strategies/ beside rnsim in an installed copy."""
    mod = sys.modules.get("rnsim_strategies")  # importing: its __init__ selects its builds
    spec = mod.__spec__ if mod is not None else importlib.util.find_spec("rnsim_strategies")
    if spec is not None and spec.submodule_search_locations:
        return Path(next(iter(spec.submodule_search_locations)))
    return rnsim_dir.parent / "strategies"


_RNSIM = Path(__file__).resolve().parent
TARGETS: dict[str, CompiledBuild] = targets(_RNSIM, _strategies_dir(_RNSIM))


def chosen() -> dict[str, str]:
    """What each target runs, by target name: "compiled", or "pure (why)";
    importing the packages first (that is when they choose)."""
    out = {}
    for key, t in TARGETS.items():
        try:
            importlib.import_module(t.package)
        except ImportError:
            continue
        why = CHOSEN.get(t.package, "not built")
        out[key] = "compiled" if why == "compiled" else f"pure ({why})"
    return out
