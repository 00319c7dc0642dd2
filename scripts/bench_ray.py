"""Games/s of the ray backend against the process backend on the same config,
and Ray's start-up cost.

    .venv/bin/python scripts/bench_ray.py                      # random vs random, 3000 games, 2 workers
    .venv/bin/python scripts/bench_ray.py --config configs/classic.toml --games 40 --repeat 3

Throughput is measured "once the cluster is up": a local Ray cluster of
``--workers`` CPUs is started first (its start-up is timed apart), then runs of
the two backends alternate (so a change in the machine's load hits both) and
the medians are compared. Each run is a real ``run_tournament`` into a fresh
temporary directory: shards written, manifest kept. One more run lets the ray
backend start its own cluster, as ``rnsim run --backend ray`` does, to show the
end-to-end cost. Results are checked equal across every run.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import polars as pl

from rnsim.config import RunConfig, config_from_mapping, load_config
from rnsim.tournament import load_results, run_tournament

KEY = ["variant", "identity_pair", "angela_strategy", "jessah_strategy", "game_index"]


def make_config(args: argparse.Namespace, backend: str, out: Path) -> RunConfig:
    over: dict[str, Any] = {"backend": backend, "workers": args.workers, "out": out, "chunk_size": args.chunk_size}
    if args.config:
        return load_config(args.config, games=args.games, **over)
    raw = {"run": {"games": args.games, "seed": 0, "identities": "random"},
           "strategies": {"angela": args.angela, "jessah": args.jessah}}
    return config_from_mapping(raw, src="bench", **over)


def one_run(args: argparse.Namespace, backend: str) -> tuple[float, float, pl.DataFrame]:
    """(games/s as the runner measures it, wall seconds of run_tournament, the table)."""
    with tempfile.TemporaryDirectory(prefix="rnsim-bench-ray-") as d:
        cfg = make_config(args, backend, Path(d) / "run")
        t = time.perf_counter()
        s = run_tournament(cfg, progress=False)
        wall = time.perf_counter() - t
        assert s.complete, "run did not complete"
        table = load_results(Path(d) / "run", lazy=False)
        assert isinstance(table, pl.DataFrame)
        return s.games_per_s, wall, table.sort(KEY)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--config", help="a tournament config (default: random vs random, random identities)")
    ap.add_argument("--games", type=int, default=3000, help="games per cell (default 3000)")
    ap.add_argument("--angela", default="random")
    ap.add_argument("--jessah", default="random")
    ap.add_argument("--workers", type=int, default=2, help="process workers = local Ray cluster CPUs (default 2)")
    ap.add_argument("--chunk-size", type=int, default=250)
    ap.add_argument("--repeat", type=int, default=3, help="runs per backend; medians are reported")
    args = ap.parse_args()

    import ray

    cfg = make_config(args, "process", Path("unused"))
    print(f"bench_ray: {cfg.total_games:,} games ({len(cfg.cells())} cell(s) x {cfg.games:,}), "
          f"{args.workers} workers, chunk {args.chunk_size}, median of {args.repeat}; "
          f"python {sys.version.split()[0]}, ray {ray.__version__}")

    # --- start-up: a local cluster, then the first task (a worker process starting)
    t = time.perf_counter()
    ray.init(address="local", num_cpus=args.workers, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)
    init_s = time.perf_counter() - t
    t = time.perf_counter()
    ray.get(ray.remote(lambda: None).remote())
    first_task_s = time.perf_counter() - t

    rates: dict[str, list[float]] = {"process": [], "ray": []}
    walls: dict[str, list[float]] = {"process": [], "ray": []}
    reference: pl.DataFrame | None = None
    try:
        for _ in range(args.repeat):
            for backend in ("process", "ray"):
                rate, wall, table = one_run(args, backend)
                rates[backend].append(rate)
                walls[backend].append(wall)
                if reference is None:
                    reference = table
                elif not table.equals(reference):
                    print(f"MISMATCH: the {backend} backend gave a different table", file=sys.stderr)
                    return 1
    finally:
        t = time.perf_counter()
        ray.shutdown()
        shutdown_s = time.perf_counter() - t

    # --- end to end: the backend starts (and stops) its own local cluster
    cold_rate, cold_wall, table = one_run(args, "ray")
    if reference is not None and not table.equals(reference):
        print("MISMATCH: the ray backend (own cluster) gave a different table", file=sys.stderr)
        return 1

    p = statistics.median(rates["process"])
    r = statistics.median(rates["ray"])
    print(f"  ray start-up: ray.init (local, {args.workers} CPUs) {init_s:.2f} s, first task {first_task_s:.2f} s, "
          f"ray.shutdown {shutdown_s:.2f} s")
    print(f"  process backend          {p:8.1f} games/s   runs: {', '.join(f'{x:.1f}' for x in rates['process'])}")
    print(f"  ray backend (cluster up) {r:8.1f} games/s   runs: {', '.join(f'{x:.1f}' for x in rates['ray'])}"
          f"   ({100 * (r / p - 1):+.1f}% vs process)")
    print(f"  ray backend, own cluster {cold_rate:8.1f} games/s   ({cold_wall:.1f} s wall, start-up included)")
    print("  tables: identical across every run")
    return 0


if __name__ == "__main__":
    sys.exit(main())
