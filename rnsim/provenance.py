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
import os
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


#: What the source hash covers: the code, its C, its data (rules, components) and
#: the report's templates.
SOURCE_SUFFIXES = (".py", ".c", ".toml", ".j2")
#: The example configs (rnsim/configs in a wheel, configs/ beside rnsim/ in a
#: checkout) are not code: a run's config is pinned on its own.
NOT_SOURCE = ("rnsim", "configs")


def source_hash(roots: dict[str, Path] | None = None) -> str:
    """SHA-256 of rnsim's and the built-in strategies' source and data files (by
    path and content), so an install without git is still pinned to its code:
    a wheel and the checkout it was built from give the same hash. ``roots``:
    the folders of the packages rnsim and rnsim_strategies (default: those
    imported)."""
    h = hashlib.sha256()
    for name, root in sorted((roots or _roots()).items()):
        for parts in _source_files(name, root):
            h.update(f"{name}/{'/'.join(parts)}\0".encode())
            h.update(root.joinpath(*parts).read_bytes())
            h.update(b"\0")
    return h.hexdigest()


def _source_files(name: str, root: Path) -> list[tuple[str, ...]]:
    """The source files under ``root`` as path parts relative to it, in the
    order of their parts (as sorting their paths would give), found with
    os.walk and plain strings: every run hashes them, and Path.rglob with
    relative_to per file cost twice the time."""
    out: list[tuple[str, ...]] = []
    for top, dirs, files in os.walk(root):
        rel = () if top == str(root) else tuple(Path(top).relative_to(root).parts)
        if not rel:
            dirs[:] = [d for d in dirs if (name, d) != NOT_SOURCE]
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        out.extend((*rel, f) for f in files if os.path.splitext(f)[1] in SOURCE_SUFFIXES)
    out.sort()
    return out


def git_state(where: Path) -> dict[str, Any] | None:
    """The commit checked out at ``where`` and whether tracked files differ from it
    (None when ``where`` is not the top of a git work tree, or git is missing: an
    installed copy inside some other repository, e.g. a project's virtualenv,
    is not pinned to that repository's commit)."""
    def git(*args: str) -> str | None:
        try:
            r = subprocess.run(["git", "-C", str(where), *args], capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.SubprocessError):
            return None
        return r.stdout.strip() if r.returncode == 0 else None

    if not (where / ".git").exists():  # a work tree's top holds .git (a folder, or a file in a worktree)
        return None
    top, _, commit = (git("rev-parse", "--show-toplevel", "HEAD") or "").partition("\n")
    if not top or not commit or Path(top).resolve() != where.resolve():
        return None
    status = git("status", "--porcelain", "--untracked-files=no")
    return {"commit": commit, "dirty": bool(status) if status is not None else None}


def builds() -> tuple[dict[str, str], dict[str, str]]:
    """For each module set with an optional compiled build (rnsim/compiled.py
    TARGETS): "compiled" or "pure", from the module that was imported; and for
    each pure one, why (e.g. "not built", "RNSIM_PURE=1", "stale build")."""
    from rnsim.compiled import CHOSEN, TARGETS

    out, why = {}, {}
    for key, t in TARGETS.items():
        try:
            mod = importlib.import_module(f"{t.package}.{t.modules[0]}")
        except ImportError:
            continue
        out[key] = "compiled" if str(getattr(mod, "__file__", "")).endswith((".so", ".pyd")) else "pure"
        if out[key] == "pure":
            why[key] = CHOSEN.get(t.package, "not built")
    return out, why


def provenance(argv: list[str] | None = None) -> dict[str, Any]:
    from rnsim import __version__

    versions: dict[str, str | None] = {}
    for p in PACKAGES:
        try:
            versions[p] = metadata.version(p)
        except metadata.PackageNotFoundError:
            versions[p] = None
    build, pure_why = builds()
    return {
        "rnsim_version": __version__,
        # a checkout's commit: rnsim/ sits at the top of its work tree
        "git": git_state(_roots()["rnsim"].parent),
        "source_sha256": source_hash(),
        "build": build,
        "build_pure_why": pure_why,
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
        if "band" in c:  # the strength band it played (rnsim.band)
            from rnsim.band.config import band_table

            raw["band"] = band_table(c["band"])
    except (KeyError, TypeError) as e:
        raise RnsimError(f"manifest: lacks the resolved config ({e}); it predates rnsim 0.2") from None
    cfg = config_from_mapping(raw, src="manifest.json", out=out)
    if cfg.config_hash() != manifest.get("config_hash"):
        changed = [v["name"] for v, w in zip(c["variants"], cfg.variants, strict=False) if v["rules_hash"] != w.digest]
        raise RnsimError("manifest.json: the rebuilt config differs from the run's"
                         + (f" (rules or components of variant(s) {', '.join(changed)} changed)" if changed else ""))
    return cfg
