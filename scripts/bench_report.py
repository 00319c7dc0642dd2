"""Time `rnsim report` on a synthetic run of a million games.

    .venv/bin/python scripts/bench_report.py [--games 1000000] [--shard-rows 10000] [--repeat 3]

Writes the synthetic run (schema of docs/architecture.md, 15 identity pairs x
the given strategy pairs) into a temporary directory, then runs the real CLI
(`rnsim report RUN_DIR`, a fresh process each time, imports included) and
prints each wall time and the median. Generating the shards is not timed.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rnsim.games.red_notice.synthetic import random_results, write_run


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--shard-rows", type=int, default=10_000,
                    help="rows per shard (the runner writes one shard per chunk; its default chunk is 250)")
    ap.add_argument("--strategy-pairs", type=int, default=1, help="how many strategy pairs (cells per variant)")
    ap.add_argument("--variants", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-svg", action="store_true")
    ap.add_argument("--keep", type=Path, default=None, help="write the run here and keep it")
    args = ap.parse_args()

    pairs = [("random", "random"), ("hunter", "random"), ("random", "hunter"), ("hunter", "hunter")]
    pairs = (pairs * (args.strategy_pairs // len(pairs) + 1))[: args.strategy_pairs]
    pairs = [(a if i < 4 else f"{a}{i}", b) for i, (a, b) in enumerate(pairs)]
    variants = ["base"] + [f"variant-{i}" for i in range(1, args.variants)]
    with tempfile.TemporaryDirectory(prefix="rnsim-bench-report-") as tmp:
        run_dir = args.keep or Path(tmp) / "run"
        t = time.perf_counter()
        # whole cells (15 identity pairs x strategy pairs x variants): a report refuses a partial run
        games = args.games - args.games % (15 * len(pairs) * len(variants))
        df = random_results(games, seed=1, variants=variants, strategy_pairs=pairs)
        write_run(run_dir, df, shard_rows=args.shard_rows)
        n_shards = len(list((run_dir / "shards").glob("*.parquet")))
        del df
        print(f"synthetic run: {games:,} games, {len(variants)} variant(s) x {len(pairs)} strategy pair(s) "
              f"x 15 identity pairs, {n_shards:,} shards ({time.perf_counter() - t:.1f} s to write, not timed)")
        cmd = [str(Path(sys.executable).with_name("rnsim")), "report", str(run_dir)]
        if args.no_svg:
            cmd.append("--no-svg")
        times, cpus = [], []
        for i in range(args.repeat):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True)
            times.append(time.perf_counter() - t)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            # CPU time (user + sys, the report and its figure workers): what the
            # wall time would be on an idle core, whatever else the machine runs
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            print(f"  run {i + 1}: {times[-1]:.2f} s wall, {cpus[-1]:.2f} s CPU")
        print(f"`{' '.join(cmd[1:])}` on {games:,} games: median {statistics.median(times):.2f} s wall "
              f"(min {min(times):.2f}, max {max(times):.2f}), median {statistics.median(cpus):.2f} s CPU, "
              f"over {args.repeat} runs; load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
