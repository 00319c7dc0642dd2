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
    """Write ``results`` as a run directory, as the runner lays one out: its
    cells (variant, setup, strategies; in order of first appearance) as shards
    named after their chunks (``shards/part-<cell>-<start>-<stop>.parquet``,
    runs of consecutive game indices, at most ``shard_rows`` rows each), an
    ``errors/`` side table for the error rows (blamed on seat 0), and a
    ``manifest.json`` whose plan (``cells``, ``games_per_cell``) asks for game
    indices 0..n-1 of every cell, n the highest index + 1: a cell holding fewer
    is a partial run, as a stopped one would be."""
    run_dir = Path(run_dir)
    (run_dir / "shards").mkdir(parents=True, exist_ok=True)
    lay = layout(results.columns)
    cell_cols = ["variant", *([lay.setup] if lay.setup else []), *(f"{s}_strategy" for s in lay.seats)]
    cells = results.select(cell_cols).unique(maintain_order=True).with_row_index("_cell")
    tagged = (results.with_row_index("_row").join(cells, on=cell_cols, how="left", nulls_equal=True)
              .sort("_cell", "game_index", "_row"))
    # a new shard where the game index does not follow on, or the shard is full
    step = (pl.col("game_index") != pl.col("game_index").shift(1) + 1) | (pl.col("_cell") != pl.col("_cell").shift(1))
    tagged = tagged.with_columns(step.fill_null(True).cum_sum().alias("_run"))
    tagged = tagged.with_columns((pl.int_range(pl.len()).over("_run") // shard_rows).alias("_part"))
    keys = ["run_id", *cell_cols, "game_index", "seed"]
    for (cell, _, _), part in tagged.group_by("_cell", "_run", "_part", maintain_order=True):
        first, last = int(part["game_index"][0]), int(part["game_index"][-1])
        name = f"part-{int(cell):05d}-{first:010d}-{last + 1:010d}.parquet"  # type: ignore[call-overload]
        rows = part.sort("_row").drop("_row", "_cell", "_run", "_part")
        rows.write_parquet(run_dir / "shards" / name)
        errors = rows.filter(pl.col("end_reason") == "error")
        if errors.height and lay.seats:  # beside its chunk's shard, as the runner writes it
            (run_dir / "errors").mkdir(exist_ok=True)
            errors.select(
                *keys, seat=pl.lit(lay.seats[0]), strategy=pl.col(f"{lay.seats[0]}_strategy"),
                decision=pl.lit("synthetic_decision"), message=pl.lit("synthetic error"),
                traceback=pl.lit("Traceback: synthetic"),
            ).write_parquet(run_dir / "errors" / name)
    info: dict[str, Any] = {
        "run_id": results["run_id"][0] if results.height else "synthetic",
        "rnsim_version": "synthetic",
        "games": results.height,
        "cells": cells.height,
        "games_per_cell": int(results["game_index"].max()) + 1 if results.height else 0,  # type: ignore[arg-type]
        "master_seed": 0,
        "backend": "synthetic",
    }
    info.update(manifest or {})
    (run_dir / "manifest.json").write_text(json.dumps(info, indent=2, default=str))
    return run_dir
