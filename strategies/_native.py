"""Choosing between the mypyc-compiled build of the expert strategy
(scripts/build_strategies_native.py) and its Python source, as the engine
does (rnsim/engine/_native.py). Imported by the strategies package first.

A compiled module is used only when a stamp says it was built from exactly the
current sources; otherwise (or with RNSIM_PURE=1) the Python source is loaded,
so an edit is never shadowed by a stale build. Both play identically.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULES = ("board", "expert")  # in import order
STAMP = HERE / "_native.sha256"


def source_hash() -> str:
    h = hashlib.sha256()
    for m in MODULES:
        h.update((HERE / f"{m}.py").read_bytes())
    return h.hexdigest()


def compiled_files() -> list[Path]:
    return [p for p in HERE.glob("*.so") if p.name.split(".")[0] in (*MODULES, "_group__mypyc")]


def clean() -> None:
    for p in compiled_files():
        p.unlink()
    if STAMP.exists():
        STAMP.unlink()


def _load_sources() -> None:
    package = sys.modules["strategies"]
    for m in MODULES:
        name = f"strategies.{m}"
        loader = importlib.machinery.SourceFileLoader(name, str(HERE / f"{m}.py"))
        spec = importlib.util.spec_from_loader(name, loader)
        assert spec is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        loader.exec_module(mod)
        setattr(package, m, mod)


def select() -> bool:
    """Load the Python source when there is no fresh compiled build, or when
    RNSIM_PURE=1. Returns True when the compiled build is in use."""
    if not compiled_files():
        return False
    fresh = STAMP.exists() and STAMP.read_text().strip() == source_hash()
    if os.environ.get("RNSIM_PURE") == "1" or not fresh:
        if not fresh:
            warnings.warn(
                "the compiled expert strategy is older than its source; using the Python source "
                "(run `make install` or `python scripts/build_strategies_native.py` to rebuild)",
                stacklevel=3,
            )
        _load_sources()
        return False
    return True
