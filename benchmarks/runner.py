"""The runner at scale: 1 against 2 worker processes, the parent's peak
memory over a whole run, and the Ray backend against the process backend.
"""

from __future__ import annotations

import math
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.common import (
    RED_NOTICE_EXPERT,
    RED_NOTICE_RANDOM,
    SHORT,
    Matchup,
    cpu_of,
    machine_busy_seconds,
    process_tree,
    ratios,
    size,
)


def _unit(unit: str) -> Any:
    def mark(f: Any) -> Any:
        f.unit = unit
        return f
    return mark


# --------------------------------------------------------------------------- scaling

def play_on_pool(matchup: Matchup, games: int, workers: int, chunk_size: int) -> dict[str, float]:
    """One measurement: a process pool of ``workers`` started and warmed up
    (every worker has played a game: imports, strategies, tables), then
    ``games`` games in chunks of ``chunk_size``, timed alone: the start-up a
    long run pays once is left out. CPU is this process's and its workers'
    (from /proc, as they stay alive); ``others`` is the CPU the rest of the
    machine took meanwhile, in cores."""
    from rnsim.tournament.backends import open_pool
    from rnsim.tournament.schedule import Chunk
    from rnsim.tournament.worker import Plan

    cfg = matchup.config(games, backend="process", workers=workers, chunk_size=chunk_size)
    plan = Plan.from_config(cfg, "benchmark")
    t = time.perf_counter()
    pool = open_pool(plan, "process", workers)
    try:
        warm = 10**6
        pool.play([Chunk(0, warm + i, warm + i + 1) for i in range(2 * workers)], lambda out: None)
        startup = time.perf_counter() - t
        chunks = [Chunk(0, a, min(a + chunk_size, games)) for a in range(0, games, chunk_size)]
        played: list[int] = []
        pids = process_tree(os.getpid())
        c0, b0, t0 = cpu_of(pids), machine_busy_seconds(), time.perf_counter()
        pool.play(chunks, lambda out: played.append(out.games))
        wall = time.perf_counter() - t0
        cpu = cpu_of(pids) - c0
        busy = machine_busy_seconds() - b0
    finally:
        pool.close()
    if sum(played) != games:
        raise RuntimeError(f"scaling benchmark: {sum(played)} games played of {games}")
    others = max(0.0, busy - cpu) / wall
    return {"rate": games / wall, "cpu_per_game": cpu / games, "startup": startup, "others": others,
            "available": max(0.05, min(float(workers), (os.cpu_count() or 2) - others))}


def scaling(matchup: Matchup, games: int, repeats: int, chunk_size: int) -> dict[str, float]:
    runs: dict[int, list[dict[str, float]]] = {1: [], 2: []}
    for r in range(repeats):
        for w in (1, 2) if r % 2 == 0 else (2, 1):
            runs[w].append(play_on_pool(matchup, games, w, chunk_size))

    def col(w: int, k: str) -> list[float]:
        return [x[k] for x in runs[w]]

    per_core = [ratios(col(w, "rate"), col(w, "available")) for w in (1, 2)]
    return {
        "two_over_one": statistics.median(ratios(col(2, "rate"), col(1, "rate"))),
        "two_over_one_if_free": statistics.median(2 * x for x in ratios(per_core[1], per_core[0])),
        "cpu_two_over_one": statistics.median(ratios(col(2, "cpu_per_game"), col(1, "cpu_per_game"))),
        "startup": statistics.median(col(2, "startup")),
        "others": statistics.median(col(1, "others") + col(2, "others")),
    }


class Scaling:
    """Expert vs expert games with 2 worker processes over 1 (process
    backend, start-up excluded), alternating 1 and 2 workers.

    ``two_over_one`` is the wall-clock ratio (the issue's bound: 1.9 at
    least); on a machine other processes load it is low, so
    ``two_over_one_if_free`` estimates it for two free cores (each rate over
    the cores the run could have had: its workers, at most the cores the
    other processes left). ``cpu_two_over_one`` is the CPU per game with 2
    workers over 1 (1.0: the second worker costs no extra work; not
    distorted by load). ``others`` is the other processes' load, in cores,
    during the measurements."""

    timeout = 3600

    def setup_cache(self) -> dict[str, float]:
        return scaling(RED_NOTICE_EXPERT, size(160, 4000), size(1, 5), chunk_size=size(20, 250))

    setup_cache.timeout = 3600  # type: ignore[attr-defined]

    @_unit("ratio")
    def track_two_over_one(self, m: dict[str, float]) -> float:
        return m["two_over_one"]

    @_unit("ratio")
    def track_two_over_one_if_free(self, m: dict[str, float]) -> float:
        return m["two_over_one_if_free"]

    @_unit("ratio")
    def track_cpu_two_over_one(self, m: dict[str, float]) -> float:
        return m["cpu_two_over_one"]

    @_unit("seconds")
    def track_startup(self, m: dict[str, float]) -> float:
        return m["startup"]

    @_unit("cores")
    def track_others(self, m: dict[str, float]) -> float:
        return m["others"]


# --------------------------------------------------------------------------- memory

#: runs rnsim's CLI and, on its way out, prints its pid and its own peak RSS:
#: the high-water mark of its own memory (/proc/self/status VmHWM; the parent
#: alone, never its workers; a worker forked from it that exits the same way
#: prints its own pid, and is not read). Not getrusage's ru_maxrss: Linux
#: carries that over exec from the process that started it, so a benchmark
#: that had built a large synthetic run would be measured instead of rnsim.
PEAK_RSS_CLI = (
    "import atexit, os, sys\n"
    "def _hwm():\n"
    "    with open('/proc/self/status') as f:\n"
    "        return next(int(x.split()[1]) for x in f if x.startswith('VmHWM:'))\n"
    "atexit.register(lambda: sys.stderr.write(f'\\nrnsim-peak-rss-kib {os.getpid()} {_hwm()}\\n'))\n"
    "from rnsim.cli import main\n"
    "main()\n"
)


def _kib(pid: int, path: str, field: str) -> int:
    try:
        with open(f"/proc/{pid}/{path}") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_cli(args: list[str], cwd: Path) -> dict[str, float]:
    """``rnsim ARGS`` in a fresh process: its own peak RSS (exact), the peak
    of RSS and PSS summed over it and its workers (sampled every 0.2 s), its
    wall and CPU seconds (its children's included)."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryFile("w+") as err:
        t = time.perf_counter()
        p = subprocess.Popen([sys.executable, "-W", "ignore", "-c", PEAK_RSS_CLI, *args], cwd=cwd,
                             stdout=subprocess.DEVNULL, stderr=err, text=True)
        tree_rss = tree_pss = 0
        while p.poll() is None:
            pids = process_tree(p.pid)
            tree_rss = max(tree_rss, sum(_kib(x, "status", "VmRSS") for x in pids))
            tree_pss = max(tree_pss, sum(_kib(x, "smaps_rollup", "Pss") for x in pids))
            time.sleep(0.2)
        wall = time.perf_counter() - t
        err.seek(0)
        text = err.read()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    peak = [line.split()[2] for line in text.splitlines() if line.startswith(f"rnsim-peak-rss-kib {p.pid} ")]
    others = [line for line in text.splitlines() if line.startswith("rnsim-peak-rss-kib ") and str(p.pid) not in line]
    if others:
        sys.stderr.write(f"benchmark: ignored the peak RSS of other processes: {others}\n")
    if p.returncode != 0 or not peak:
        raise RuntimeError(f"rnsim {' '.join(args)} failed ({p.returncode}):\n{text[-3000:]}")
    return {"parent_mb": int(peak[-1]) / 1024, "tree_rss_mb": tree_rss / 1024, "tree_pss_mb": tree_pss / 1024,
            "wall": wall, "cpu": after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime}


def run_memory(total: int, workers: int = 2) -> dict[str, float]:
    """``rnsim run`` of about ``total`` random-vs-random games over the 15
    identity pairs (15 cells), ``workers`` processes, the default chunk of
    250 games, no report; fails unless every game is in the shards."""
    import polars as pl

    per_cell = math.ceil(total / 15)
    with tempfile.TemporaryDirectory(prefix="rnsim-bench-mem-") as d:
        cfg = Path(d) / "memory.toml"
        cfg.write_text(f'[run]\ngames = {per_cell}\nseed = 1\nidentities = "all"\nchunk_size = 250\n'
                       '[strategies]\nangela = "random"\njessah = "random"\n')
        out = run_cli(["run", str(cfg), "--out", str(Path(d) / "run"), "--workers", str(workers),
                       "--no-progress", "--no-report"], Path(d))
        rows = pl.scan_parquet(Path(d) / "run" / "shards" / "*.parquet").select(pl.len()).collect().item()
    if rows != 15 * per_cell:
        raise RuntimeError(f"memory benchmark: {rows} rows for {15 * per_cell} games")
    return {**out, "games": rows}


class PeakMemory:
    """Peak resident memory of ``rnsim run`` (random vs random, 15 cells,
    2 workers, no report) at each size of games: the parent's own peak
    (exact: its getrusage; the issue's bound: 500 MB at a million games,
    whatever the cells) and the sum over the parent and its workers (RSS,
    and PSS: shared pages counted once), sampled."""

    params = [[5_000] if SHORT else [100_000, 1_000_000]]
    param_names = ["games"]
    timeout = 7200

    def setup_cache(self) -> dict[int, dict[str, float]]:
        return {n: run_memory(n) for n in self.params[0]}

    setup_cache.timeout = 7200  # type: ignore[attr-defined]

    @_unit("MB")
    def track_parent_rss(self, m: dict[int, dict[str, float]], games: int) -> float:
        return m[games]["parent_mb"]

    @_unit("MB")
    def track_tree_rss(self, m: dict[int, dict[str, float]], games: int) -> float:
        return m[games]["tree_rss_mb"]

    @_unit("MB")
    def track_tree_pss(self, m: dict[int, dict[str, float]], games: int) -> float:
        return m[games]["tree_pss_mb"]

    @_unit("games/s")
    def track_wall_rate(self, m: dict[int, dict[str, float]], games: int) -> float:
        return m[games]["games"] / m[games]["wall"]


# --------------------------------------------------------------------------- ray

def _ray_runs(games: int, repeats: int) -> dict[str, Any]:
    import logging

    import polars as pl

    try:
        import ray
    except ImportError:
        return {"skip": "the ray extra is not installed"}
    from rnsim.tournament import load_results, run_tournament

    key = ["variant", "identity_pair", "angela_strategy", "jessah_strategy", "game_index"]

    def one(backend: str) -> tuple[float, Any]:
        with tempfile.TemporaryDirectory(prefix="rnsim-bench-ray-") as d:
            cfg = RED_NOTICE_RANDOM.config(games, backend=backend, workers=2, out=Path(d) / "run", chunk_size=250)
            t = time.perf_counter()
            s = run_tournament(cfg, progress=False)
            wall = time.perf_counter() - t
            if not s.complete:
                raise RuntimeError(f"ray benchmark: the {backend} run did not complete")
            return games / wall, load_results(Path(d) / "run", lazy=False).drop("run_id").sort(key)

    t = time.perf_counter()
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    init = time.perf_counter() - t
    rates: dict[str, list[float]] = {"process": [], "ray": []}
    reference: pl.DataFrame | None = None
    try:
        for r in range(repeats):
            for backend in ("process", "ray") if r % 2 == 0 else ("ray", "process"):
                rate, table = one(backend)
                rates[backend].append(rate)
                if reference is None:
                    reference = table
                elif not table.equals(reference):
                    raise RuntimeError(f"ray benchmark: the {backend} backend played other games")
    finally:
        ray.shutdown()
    return {"ray_over_process": statistics.median(ratios(rates["ray"], rates["process"])), "init": init}


class RayBackend:
    """Random-vs-random games/s of the Ray backend over the process backend
    (2 CPUs each, a local cluster already up; wall clock, alternating; the
    tables must be equal), and the seconds ``ray.init`` takes. Full mode
    only, with the ray extra installed."""

    timeout = 3600

    def setup_cache(self) -> dict[str, Any]:
        return {"skip": "short mode"} if SHORT else _ray_runs(3000, 3)

    setup_cache.timeout = 3600  # type: ignore[attr-defined]

    def setup(self, m: dict[str, Any]) -> None:
        if "skip" in m:
            raise NotImplementedError(m["skip"])

    @_unit("ratio")
    def track_ray_over_process(self, m: dict[str, float]) -> float:
        return m["ray_over_process"]

    @_unit("seconds")
    def track_ray_init(self, m: dict[str, float]) -> float:
        return m["init"]
