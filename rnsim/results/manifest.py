"""A run directory's manifest.json: reading it, and the names of its parts.

One ``rnsim run`` command on a run directory is an *invocation*; the manifest
keeps one entry per invocation under ``"invocations"`` (its games, seconds,
backend and provenance). Manifests written before that name keep the same
list under ``"sessions"``: :func:`read_manifest` gives it under the new name,
so an old run directory resumes, reports and verifies like a new one.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from rnsim.errors import RnsimError

MANIFEST = "manifest.json"
INVOCATIONS = "invocations"
#: the key older manifests used for INVOCATIONS
LEGACY_INVOCATIONS = "sessions"


def read_manifest(run_dir: Path, error: type[RnsimError] = RnsimError) -> dict[str, Any] | None:
    """The manifest of ``run_dir`` (None when there is none); ``error`` naming
    the file when it cannot be read or is not a JSON object."""
    p = Path(run_dir) / MANIFEST
    if not p.is_file():
        return None
    try:
        data = json.loads(p.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise error(f"{p}: unreadable manifest ({e})") from None
    if not isinstance(data, dict):
        raise error(f"{p}: unreadable manifest (expected a JSON object)")
    if LEGACY_INVOCATIONS in data and INVOCATIONS not in data:
        data[INVOCATIONS] = data.pop(LEGACY_INVOCATIONS)
    return data


def invocations(manifest: dict[str, Any]) -> list[dict[str, Any]]:
    """The manifest's invocation entries, oldest first (whatever the key it was written with)."""
    found = manifest.get(INVOCATIONS, manifest.get(LEGACY_INVOCATIONS))
    return found if isinstance(found, list) else []


def plan_of(manifest: dict[str, Any] | None) -> tuple[int, int] | None:
    """(cells, games per cell) of the run's plan, or None when the manifest holds none."""
    if not manifest:
        return None
    try:
        cells, games = int(manifest["cells"]), int(manifest["games_per_cell"])
    except (KeyError, TypeError, ValueError):
        return None
    return (cells, games) if cells >= 0 and games >= 0 else None
