"""What played a run, pinned in its manifest, and a run's config rebuilt from
the manifest alone.

A table is only as trustworthy as the knowledge of what made it: the rnsim
version and exact source (the git commit, or a hash of the installed source when
there is no git), whether the compiled build or the Python source played, the
versions of the libraries that touch results, and the command line with the
flags that overrode the config file.
"""

from __future__ import annotations

import hashlib
import importlib
import platform
import subprocess
import sys
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rnsim.config import RunConfig

PACKAGES = ("polars", "numpy", "multiprocess", "click")


def _roots() -> dict[str, Path]:
    import rnsim_strategies

    import rnsim

    return {"rnsim": Path(rnsim.__file__).parent, "rnsim_strategies": Path(rnsim_strategies.__file__).parent}


def source_hash() -> str:
    """SHA-256 of rnsim's and the built-in strategies' source and data files (by
    path and content), so an install without git is still pinned to its code."""
    h = hashlib.sha256()
    for name, root in sorted(_roots().items()):
        files = sorted(p for p in root.rglob("*") if p.suffix in (".py", ".toml") and "__pycache__" not in p.parts)
        for p in files:
            h.update(f"{name}/{p.relative_to(root).as_posix()}\0".encode())
            h.update(p.read_bytes())
            h.update(b"\0")
    return h.hexdigest()


def git_state(where: Path) -> dict[str, Any] | None:
    """The commit checked out at ``where`` and whether tracked files differ from it
    (None when ``where`` is not in a git work tree or git is missing)."""
    def git(*args: str) -> str | None:
        try:
            r = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
        return r.stdout.strip() if r.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    if not commit:
        return None
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": bool(status) if status is not None else None}


def builds() -> dict[str, str]:
    """For each module set with an optional compiled build: "compiled" or "pure"."""
    from rnsim.compiled import TARGETS

    out = {}
    for key, t in TARGETS.items():
        try:
            mod = importlib.import_module(f"{t.package}.{t.modules[0]}")
        except ImportError:
            continue
        out[key] = "compiled" if str(getattr(mod, "__file__", "")).endswith((".so", ".pyd")) else "pure"
    return out


def provenance(argv: list[str] | None = None) -> dict[str, Any]:
    from rnsim import __version__

    versions: dict[str, str | None] = {}
    for p in PACKAGES:
        try:
            versions[p] = metadata.version(p)
        except metadata.PackageNotFoundError:
            versions[p] = None
    return {
        "rnsim_version": __version__,
        "git": git_state(_roots()["rnsim"]),
        "source_sha256": source_hash(),
        "build": builds(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "packages": versions,
        "platform": platform.platform(),
        "command": list(sys.argv if argv is None else argv),
    }


def config_from_manifest(manifest: dict[str, Any], out: Path) -> RunConfig:
    """The run's config rebuilt from its manifest's resolved ``config`` alone (no
    config file, extends file or command line needed), writing to ``out``. Raises
    RnsimError when the rebuilt config is not the run's (e.g. a component folder
    named by the run has changed since)."""
    from rnsim.config import config_from_mapping
    from rnsim.errors import RnsimError
    from rnsim.games import DEFAULT_GAME, get_game

    try:
        c = manifest["config"]
        game = c.get("game", manifest.get("game", DEFAULT_GAME))
        setup_key = get_game(game).setup_key
        raw = {
            "run": {"game": game, "games": c["games"], "seed": c["seed"], setup_key: c[setup_key]},
            "variants": [{"name": v["name"], **v["rules"]} for v in c["variants"]],
            "strategies": c["strategies"],
        }
    except (KeyError, TypeError) as e:
        raise RnsimError(f"manifest: lacks the resolved config ({e}); it predates rnsim 0.2") from None
    cfg = config_from_mapping(raw, src="manifest.json", out=out)
    if cfg.config_hash() != manifest.get("config_hash"):
        changed = [v["name"] for v, w in zip(c["variants"], cfg.variants, strict=False) if v["rules_hash"] != w.digest]
        raise RnsimError("manifest.json: the rebuilt config differs from the run's"
                         + (f" (rules or components of variant(s) {', '.join(changed)} changed)" if changed else ""))
    return cfg
