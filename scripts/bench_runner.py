"""Peak memory of `rnsim run` (parent + workers), to show it is flat in the
number of games. Runs the CLI in a subprocess at each size and samples the
process tree from /proc every 0.2 s: the sum of RSS (counts shared library
pages once per process, so it overstates) and the sum of PSS (shared pages
split between the processes that map them: the honest total).

    python scripts/bench_runner.py --games 20000,200000 --workers 2

Games are per run (one cell: identities drawn at random), random strategies by
default; the report step of `rnsim run` is left out unless --report. Speed
and scaling: `rnsim bench`.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _children(pid: int) -> list[int]:
    out = []
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        if ppid == pid:
            out.append(int(d))
    return out


def _tree(pid: int) -> list[int]:
    todo, seen = [pid], []
    while todo:
        p = todo.pop()
        seen.append(p)
        todo.extend(_children(p))
    return seen


def _kib(pid: int, path: str, field: str) -> int:
    try:
        with open(f"/proc/{pid}/{path}") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def measure(games: int, workers: int, angela: str, jessah: str, chunk: int, report: bool) -> dict[str, float]:
    with tempfile.TemporaryDirectory(prefix="rnsim-mem-") as d:
        cfg = Path(d) / "mem.toml"
        cfg.write_text(
            f'[run]\ngames = {games}\nseed = 1\nidentities = "random"\nchunk_size = {chunk}\n'
            f'[strategies]\nangela = "{angela}"\njessah = "{jessah}"\n'
        )
        cmd = [sys.executable, "-W", "ignore", "-c", "from rnsim.cli import main; main()", "run", str(cfg),
               "--out", str(Path(d) / "run"), "--workers", str(workers), "--no-progress",
               "--report" if report else "--no-report"]
        t0 = time.perf_counter()
        err = open(Path(d) / "stderr.txt", "w+")
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err, text=True)
        peak_rss = peak_pss = peak_parent = 0
        while p.poll() is None:
            pids = _tree(p.pid)
            peak_rss = max(peak_rss, sum(_kib(x, "status", "VmRSS") for x in pids))
            peak_pss = max(peak_pss, sum(_kib(x, "smaps_rollup", "Pss") for x in pids))
            peak_parent = max(peak_parent, _kib(p.pid, "status", "VmRSS"))
            time.sleep(0.2)
        secs = time.perf_counter() - t0
        out = p.stdout.read() if p.stdout else ""
        if p.returncode != 0:
            err.seek(0)
            print(f"rnsim run failed ({p.returncode}):\n{out}\n{err.read()[-3000:]}", file=sys.stderr)
        err.close()
        shards = sum(f.stat().st_size for f in (Path(d) / "run" / "shards").glob("*.parquet"))
    return {"games": games, "seconds": secs, "games_per_s": games / secs, "peak_rss_mb": peak_rss / 1024,
            "peak_pss_mb": peak_pss / 1024, "parent_rss_mb": peak_parent / 1024, "shards_mb": shards / 2**20}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="20000,200000", help="comma-separated run sizes")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--angela", default="random")
    ap.add_argument("--jessah", default="random")
    ap.add_argument("--chunk-size", type=int, default=250)
    ap.add_argument("--report", action="store_true", help="also write the report at the end (rnsim run --report)")
    a = ap.parse_args()
    print(f"rnsim run memory: {a.angela} vs {a.jessah}, {a.workers} workers, chunk {a.chunk_size}")
    print(f"{'games':>10} {'seconds':>8} {'games/s':>8} {'peak RSS sum':>13} {'peak PSS sum':>13} {'parent RSS':>11} {'shards':>8}")
    for n in (int(x) for x in a.games.split(",")):
        r = measure(n, a.workers, a.angela, a.jessah, a.chunk_size, a.report)
        print(f"{n:>10,} {r['seconds']:>8.1f} {r['games_per_s']:>8.0f} {r['peak_rss_mb']:>10.0f} MB "
              f"{r['peak_pss_mb']:>10.0f} MB {r['parent_rss_mb']:>8.0f} MB {r['shards_mb']:>5.0f} MB", flush=True)


if __name__ == "__main__":
    main()
