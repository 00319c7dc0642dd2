"""Reading a run directory: the result shards, the error side table and the
manifest (layout in docs/architecture.md). Everything is lazy, so an
aggregation over a million games reads only the columns it needs. The run is
checked against its plan first (:mod:`rnsim.results.integrity`): a run with
games missing or doubled is refused unless a partial answer is asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from rnsim.errors import RnsimError
from rnsim.results.integrity import RunCheck, check_run
from rnsim.results.manifest import read_manifest as _read_manifest

#: the core columns the reports need (docs/architecture.md), besides one
#: ``<seat>_strategy`` column per seat; a shard missing one is rejected with a
#: message naming it, rather than failing deep inside a query.
REQUIRED = ("variant", "winner", "end_reason", "rounds")


class ResultsError(RnsimError):
    """A run directory or result table cannot be read."""


def shard_paths(run_dir: str | Path) -> list[Path]:
    shards = Path(run_dir) / "shards"
    if not shards.is_dir():
        raise ResultsError(f"{run_dir}: no shards/ directory; is this a run directory (written by `rnsim run`)?")
    paths = sorted(shards.glob("*.parquet"))
    if not paths:
        raise ResultsError(f"{shards}: no result shards (*.parquet) yet; the run has not finished any chunk")
    return paths


def checked(run_dir: str | Path, partial: bool = False, hint: str = "") -> RunCheck:
    """The run's check against its plan; raises when it is not whole, unless ``partial``
    (RunNotWhole naming the missing and repeated games, with ``hint`` on how to go on)."""
    shard_paths(run_dir)
    check = check_run(Path(run_dir))
    check.require(partial, hint or "scan_results(..., partial=True) reads the games that are there")
    return check


def scan_results(run_dir: str | Path, *, partial: bool = False, check: RunCheck | None = None) -> pl.LazyFrame:
    """A lazy frame over every result row of a run (``RUN_DIR/shards/``).

    Raises :class:`ResultsError` when the directory has no shards or a shard
    lacks a column the analysis needs, and
    :class:`rnsim.results.integrity.RunNotWhole` when games of the plan are
    missing or on disk twice, unless ``partial`` (then each planned game that
    is there is read once). ``check``: the run's check, when already made.
    """
    check = check or checked(run_dir, partial)
    lf = check.scan(partial)
    check_columns(lf.collect_schema().names(), source=str(Path(run_dir) / "shards"))
    return lf


def check_columns(names: list[str], source: str) -> None:
    missing = [c for c in REQUIRED if c not in names]
    if not any(c.endswith("_strategy") for c in names):
        missing.append("<seat>_strategy")
    if missing:
        raise ResultsError(f"{source}: result table lacks column(s) {', '.join(missing)}; "
                           f"expected the schema of docs/architecture.md")


def scan_errors(run_dir: str | Path) -> pl.LazyFrame | None:
    """The error side table (``RUN_DIR/errors/*.parquet``), or None when the
    run recorded no errors."""
    paths = sorted((Path(run_dir) / "errors").glob("*.parquet"))
    return pl.scan_parquet(paths) if paths else None


def game_name(manifest: dict[str, Any]) -> str:
    """The game a run played: the manifest's "game" (run directories written
    before games had names played the default game)."""
    from rnsim.games import DEFAULT_GAME

    name = manifest.get("game") or DEFAULT_GAME
    return str(name)


def read_manifest(run_dir: str | Path) -> dict[str, Any]:
    """``RUN_DIR/manifest.json`` as a dict ({} when absent: a bare directory of
    shards can still be reported on)."""
    return _read_manifest(Path(run_dir), ResultsError) or {}
