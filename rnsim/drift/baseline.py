"""The baseline file (JSON, ``rnsim-baseline/1``): per cell the labels, every
seat's wins, no-winner games, errors and games, the first games' outcomes for
the exact replay, plus the config it came from, the rules hash and rules of
every variant, the rnsim version, the master seed and the gate's design
(tolerance, error rates, batch, budget, the seat watched), so
`rnsim check --baseline FILE` needs nothing else."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rnsim.errors import ConfigError

BASELINE_FORMAT = "rnsim-baseline/1"


@dataclass
class Baseline:
    path: Path
    data: dict[str, Any]

    @property
    def cells(self) -> list[dict[str, Any]]:
        cells: list[dict[str, Any]] = self.data["cells"]
        return cells

    @property
    def gate(self) -> dict[str, Any]:
        gate: dict[str, Any] = self.data["gate"]
        return gate

    @property
    def games_per_cell(self) -> int:
        return int(self.data["games_per_cell"])

    @property
    def master_seed(self) -> int:
        return int(self.data["master_seed"])

    def config_path(self) -> Path | None:
        ref = self.data.get("config_file")
        return None if ref is None else (self.path.parent / ref)


def relative_path(target: Path, start: Path) -> str:
    import os

    try:
        return os.path.relpath(target.resolve(), start.resolve())
    except ValueError:  # another drive
        return str(target.resolve())

def load_baseline(path: Path) -> Baseline:
    src = str(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"{src}: baseline file not found (make one with `rnsim baseline save CONFIG --out {src}`)") from None
    except (OSError, json.JSONDecodeError) as e:
        raise ConfigError(f"{src}: not a readable baseline file ({e})") from None
    if not isinstance(data, dict) or data.get("format") != BASELINE_FORMAT:
        raise ConfigError(f"{src}: format: expected {BASELINE_FORMAT!r}, got {data.get('format') if isinstance(data, dict) else data!r}")
    for key in ("config", "master_seed", "games_per_cell", "gate", "cells", "rules_hash"):
        if key not in data:
            raise ConfigError(f"{src}: missing key {key!r}")
    for key in ("delta", "alpha", "beta", "batch", "budget"):
        if key not in data["gate"]:
            raise ConfigError(f"{src}: gate: missing key {key!r}")
    for i, c in enumerate(data["cells"]):
        if not isinstance(c, dict) or len(c) < 4:
            raise ConfigError(f"{src}: cells[{i}]: expected a table of labels and counts, got {c!r}")
        for key in ("variant", "games"):
            if key not in c:
                raise ConfigError(f"{src}: cells[{i}]: missing key {key!r}")
    return Baseline(path, data)


def write_baseline(out: Path, data: dict[str, Any]) -> Baseline:
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=2) + "\n")
    return Baseline(out, data)
