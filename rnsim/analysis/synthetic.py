"""Writing a result table as a run directory, for tests and benchmarks of the
analysis and the report (any game). A game's own synthetic tables (made-up
numbers, real shape) live beside it, ``rnsim.games.<name>.synthetic``.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import polars as pl

from rnsim.analysis.aggregate import layout


def write_run(run_dir: str | Path, results: pl.DataFrame, shard_rows: int = 50_000,
              manifest: Mapping[str, Any] | None = None) -> Path:
    """Write ``results`` as a run directory: ``shards/part-NNNNN.parquet``
    (``shard_rows`` rows each), an ``errors/`` side table for the error rows
    (blamed on seat 0), and a ``manifest.json``."""
    run_dir = Path(run_dir)
    (run_dir / "shards").mkdir(parents=True, exist_ok=True)
    for k, start in enumerate(range(0, max(results.height, 1), shard_rows)):
        results.slice(start, shard_rows).write_parquet(run_dir / "shards" / f"part-{k:05d}.parquet")
    errors = results.filter(pl.col("end_reason") == "error")
    lay = layout(results.columns)
    if errors.height and lay.seats:
        (run_dir / "errors").mkdir(exist_ok=True)
        keys = ["run_id", "variant", *([lay.setup] if lay.setup else []), *(f"{s}_strategy" for s in lay.seats),
                "game_index", "seed"]
        errors.select(
            *keys, seat=pl.lit(lay.seats[0]), strategy=pl.col(f"{lay.seats[0]}_strategy"),
            decision=pl.lit("synthetic_decision"), message=pl.lit("synthetic error"),
            traceback=pl.lit("Traceback: synthetic"),
        ).write_parquet(run_dir / "errors" / "part-00000.parquet")
    info: dict[str, Any] = {
        "run_id": results["run_id"][0] if results.height else "synthetic",
        "rnsim_version": "synthetic",
        "games": results.height,
        "master_seed": 0,
        "backend": "synthetic",
    }
    info.update(manifest or {})
    (run_dir / "manifest.json").write_text(json.dumps(info, indent=2, default=str))
    return run_dir
