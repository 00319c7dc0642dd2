"""Choosing between the compiled engine (scripts/build_native.py) and its
Python source. Imported by rnsim.engine before anything else of the engine."""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
MODULES = ("decision", "belief", "state", "view")  # in import order
STAMP = HERE / "_native.sha256"


def source_hash() -> str:
    h = hashlib.sha256()
    for m in MODULES:
        h.update((HERE / f"{m}.py").read_bytes())
    return h.hexdigest()


def compiled_files() -> list[Path]:
    return [p for p in HERE.glob("*.so") if p.name.split(".")[0] in (*MODULES, "_group")]


def clean() -> None:
    for p in compiled_files():
        p.unlink()
    if STAMP.exists():
        STAMP.unlink()


def _load_sources() -> None:
    package = sys.modules["rnsim.engine"]
    for m in MODULES:
        name = f"rnsim.engine.{m}"
        loader = importlib.machinery.SourceFileLoader(name, str(HERE / f"{m}.py"))
        spec = importlib.util.spec_from_loader(name, loader)
        assert spec is not None
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        loader.exec_module(mod)
        setattr(package, m, mod)


def select() -> bool:
    """Load the Python source when there is no fresh compiled build, or when
    RNSIM_PURE=1. Returns True when the compiled engine is in use."""
    if not compiled_files():
        return False
    fresh = STAMP.exists() and STAMP.read_text().strip() == source_hash()
    if os.environ.get("RNSIM_PURE") == "1" or not fresh:
        if not fresh:
            warnings.warn(
                "the compiled engine is older than its source; using the Python source "
                "(run `make install` or `python scripts/build_native.py` to rebuild)",
                stacklevel=3,
            )
        _load_sources()
        return False
    return True
