"""Optional mypyc-compiled builds of the hot modules, and the choice between
a build and its Python source.

Four packages have one: Red Notice's engine (rules, about 3x faster) and
expert strategy with Jessah's dossier (about 1.4x), FBI's engine and expert
strategy. scripts/build_native.py compiles them next to their source and
writes a stamp with the hash of the sources they were built from.
Each package calls ``select()`` before importing those modules: the compiled
build is used only when its stamp matches the current sources, so an edit is
never shadowed by a stale build; otherwise, or with ``RNSIM_PURE=1``, the
Python source is loaded. Both play identically (tested).

Standard library only: the build script loads this file by path, without
importing rnsim.
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

ROOT = Path(__file__).resolve().parent.parent


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

    @property
    def stamp(self) -> Path:
        return self.folder / "_native.sha256"

    @property
    def group(self) -> str:
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
        return h.hexdigest()

    def compiled_files(self) -> list[Path]:
        names = (*self.modules, *self.c_modules, "_group__mypyc")
        return [p for p in self.folder.glob("*.so") if p.name.split(".")[0] in names]

    def is_fresh(self) -> bool:
        return self.stamp.exists() and self.stamp.read_text().strip() == self.source_hash()

    def clean(self) -> None:
        for p in self.compiled_files():
            p.unlink()
        if self.stamp.exists():
            self.stamp.unlink()

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

    def select(self) -> bool:
        """Load the Python source unless a fresh compiled build exists (and
        RNSIM_PURE is not 1). Returns True when the compiled build is used."""
        if not self.compiled_files():
            return False
        fresh = self.is_fresh()
        if os.environ.get("RNSIM_PURE") == "1" or not fresh:
            if not fresh:
                warnings.warn(
                    f"the compiled {self.label} is older than its source; using the Python source "
                    "(run `make install` or `python scripts/build_native.py` to rebuild)",
                    stacklevel=3,
                )
            self._load_sources()
            return False
        return True


TARGETS: dict[str, CompiledBuild] = {
    "engine": CompiledBuild("rnsim.games.red_notice.engine", ROOT / "rnsim" / "games" / "red_notice" / "engine",
                            ("decision", "belief", "frames", "effects", "history", "state", "view"), "engine"),
    # The strategies/ folder is installed under the import name rnsim_strategies
    # (pyproject.toml), so its build is compiled from a staging tree laid out by
    # import name (scripts/build_native.py).
    "strategies": CompiledBuild(
        "rnsim_strategies.red_notice", ROOT / "strategies" / "red_notice", ("board", "dossier", "expert"),
        "expert strategy",
        depends=(ROOT / "strategies" / "red_notice" / "base.py", ROOT / "strategies" / "red_notice" / "__init__.py",
                 ROOT / "rnsim" / "strategy.py",
                 *(ROOT / "rnsim" / "games" / "red_notice" / "engine" / f"{m}.py"
                   for m in ("decision", "belief", "frames", "effects", "state", "view", "history"))),
        c_modules=("_dossier_core",)),
    # FBI's engine and expert, built the same way (a 5-player expert game is
    # mostly the expert's play-outs, then the engine's state machine and views).
    "fbi-engine": CompiledBuild(
        "rnsim.games.fbi", ROOT / "rnsim" / "games" / "fbi", ("state", "view"), "FBI engine",
        depends=(*(ROOT / "rnsim" / "games" / "fbi" / f"{m}.py" for m in ("__init__", "components", "rules")),
                 ROOT / "rnsim" / "errors.py")),
    "fbi-strategies": CompiledBuild(
        "rnsim_strategies.fbi", ROOT / "strategies" / "fbi", ("model", "expert"), "FBI expert strategy",
        depends=(ROOT / "strategies" / "fbi" / "__init__.py", ROOT / "rnsim" / "strategy.py")),
}
