"""``rnsim report`` and ``rnsim verify`` on a synthetic run: made-up result
rows of the real shape (``rnsim.games.red_notice.synthetic``: 15 identity
pairs, upgrades, timeouts and a few error rows) written as shards, then the
real CLI in a fresh process, imports included. Writing the run is not timed.
"""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

from benchmarks.common import SHORT, size
from benchmarks.runner import run_cli


def _unit(unit: str) -> Any:
    def mark(f: Any) -> Any:
        f.unit = unit
        return f
    return mark


def synthetic_run(games: int, shard_rows: int, where: Path) -> Path:
    """A synthetic run directory of about ``games`` games in shards of ``shard_rows``."""
    from rnsim.games.red_notice.synthetic import random_results, write_run

    run_dir = where / f"synthetic-{games}-{shard_rows}"
    games -= games % 15  # whole cells of 15 identity pairs: a report refuses a run with games missing
    write_run(run_dir, random_results(games, seed=1), shard_rows=shard_rows)
    return run_dir


def report_runs(games: int, repeats: int, where: Path) -> dict[str, float]:
    run_dir = synthetic_run(games, 10_000, where)
    runs = [run_cli(["report", str(run_dir)], where) for _ in range(repeats)]
    if not (run_dir / "report.html").is_file():
        raise RuntimeError(f"report benchmark: {run_dir}/report.html was not written")
    return {k: statistics.median(r[k] for r in runs) for k in ("wall", "cpu", "parent_mb", "tree_rss_mb")}


class ReportTime:
    """``rnsim report RUN_DIR`` (figures in PNG and SVG): wall seconds, CPU
    seconds (the report's process and its figure workers: what the wall time
    would be on one idle core) and its own peak RSS; medians of the runs."""

    params = [[100_000] if SHORT else [1_000_000]]
    param_names = ["games"]
    timeout = 3600

    def setup_cache(self) -> dict[int, dict[str, float]]:
        return {n: report_runs(n, size(1, 3), Path.cwd()) for n in self.params[0]}

    setup_cache.timeout = 3600  # type: ignore[attr-defined]

    @_unit("seconds")
    def track_wall(self, m: dict[int, dict[str, float]], games: int) -> float:
        return m[games]["wall"]

    @_unit("CPU seconds")
    def track_cpu(self, m: dict[int, dict[str, float]], games: int) -> float:
        return m[games]["cpu"]

    @_unit("MB")
    def track_peak_rss(self, m: dict[int, dict[str, float]], games: int) -> float:
        return m[games]["parent_mb"]


class VerifyRun:
    """``rnsim verify RUN_DIR`` on a run laid out as ``rnsim run`` lays one out
    (shards of 250 games, the default chunk): the check every run ends with,
    which reads every shard's game indices. Its peak RSS is what the end of a
    run adds to the parent's (runner.PeakMemory), so it must not grow with
    the games."""

    params = [[100_000] if SHORT else [1_000_000]]
    param_names = ["games"]
    timeout = 3600

    def setup_cache(self) -> dict[int, dict[str, float]]:
        out = {}
        for n in self.params[0]:
            run_dir = synthetic_run(n, 250, Path.cwd())
            runs = [run_cli(["verify", str(run_dir)], Path.cwd()) for _ in range(size(1, 3))]
            out[n] = {k: statistics.median(r[k] for r in runs) for k in ("wall", "parent_mb")}
        return out

    setup_cache.timeout = 3600  # type: ignore[attr-defined]

    @_unit("seconds")
    def track_wall(self, m: dict[int, dict[str, float]], games: int) -> float:
        return m[games]["wall"]

    @_unit("MB")
    def track_peak_rss(self, m: dict[int, dict[str, float]], games: int) -> float:
        return m[games]["parent_mb"]
