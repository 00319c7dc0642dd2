"""Peak memory of `rnsim run` (parent + workers), to show it is flat in the
number of games. Runs the CLI in a subprocess at each size and samples the
process tree from /proc every 0.2 s: the sum of RSS (counts shared library
pages once per process, so it overstates) and the sum of PSS (shared pages
split between the processes that map them: the honest total).

    python scripts/bench_runner.py --games 20000,200000 --workers 2
    python scripts/bench_runner.py --games 10000 --scaling 5     # 1 vs 2 workers

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
        peak_rss = peak_pss = peak_parent = peak_playing = 0
        while p.poll() is None:
            pids = _tree(p.pid)
            rss = sum(_kib(x, "status", "VmRSS") for x in pids)
            peak_rss = max(peak_rss, rss)
            peak_pss = max(peak_pss, sum(_kib(x, "smaps_rollup", "Pss") for x in pids))
            peak_parent = max(peak_parent, _kib(p.pid, "status", "VmRSS"))
            if len(pids) > 2:  # workers alive (the tree also holds multiprocess's resource tracker)
                peak_playing = max(peak_playing, rss)
            time.sleep(0.2)
        secs = time.perf_counter() - t0
        out = p.stdout.read() if p.stdout else ""
        if p.returncode != 0:
            err.seek(0)
            print(f"rnsim run failed ({p.returncode}):\n{out}\n{err.read()[-3000:]}", file=sys.stderr)
        err.close()
        shards = sum(f.stat().st_size for f in (Path(d) / "run" / "shards").glob("*.parquet"))
    return {"games": games, "seconds": secs, "games_per_s": games / secs, "peak_rss_mb": peak_rss / 1024,
            "peak_pss_mb": peak_pss / 1024, "parent_rss_mb": peak_parent / 1024,
            "playing_rss_mb": peak_playing / 1024, "shards_mb": shards / 2**20}


def _busy_seconds() -> float:
    """CPU seconds spent by the whole machine (every process), from /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    idle = v[3] + v[4]
    return (sum(v[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def scaling(games: int, trials: int, angela: str, jessah: str, chunk: int) -> None:
    """Wall time of the same run with 1 and with 2 workers, alternating. The
    machine is shared, so each run also records how much CPU other processes
    took meanwhile (machine busy time minus this run's own CPU); runs where
    others took more than a tenth of a core are reported but not counted."""
    import resource
    import statistics

    print(f"rnsim run scaling: {games:,} games of {angela} vs {jessah}, chunk {chunk}, {trials} trials")
    clean: dict[int, list[float]] = {1: [], 2: []}
    per_core: dict[int, list[float]] = {1: [], 2: []}
    cores = os.cpu_count() or 2
    for t in range(trials):
        for w in (1, 2):
            with tempfile.TemporaryDirectory(prefix="rnsim-scale-") as d:
                cfg = Path(d) / "s.toml"
                cfg.write_text(
                    f'[run]\ngames = {games}\nseed = 1\nidentities = "random"\nchunk_size = {chunk}\n'
                    f'[strategies]\nangela = "{angela}"\njessah = "{jessah}"\n'
                )
                cmd = [sys.executable, "-W", "ignore", "-c", "from rnsim.cli import main; main()", "run", str(cfg),
                       "--out", str(Path(d) / "run"), "--workers", str(w), "--no-progress", "--no-report"]
                r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
                b0, t0 = _busy_seconds(), time.perf_counter()
                subprocess.run(cmd, check=True, capture_output=True)
                wall = time.perf_counter() - t0
                r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
                own = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
                others = max(0.0, (_busy_seconds() - b0) - own) / wall
                ok = others < 0.1
                if ok:
                    clean[w].append(games / wall)
                # the cores this run could have had while the others ran
                avail = max(0.05, min(float(w), cores - others))
                per_core[w].append(games / wall / avail)
                print(f"  trial {t + 1} workers {w}: {games / wall:7.1f} games/s  (other processes: "
                      f"{others:.2f} cores{'' if ok else ', not counted'}; {games / wall / avail:6.1f} games/s "
                      f"per core available)", flush=True)
    if clean[1] and clean[2]:
        one, two = statistics.median(clean[1]), statistics.median(clean[2])
        print(f"median of clean runs: 1 worker {one:.1f} games/s ({len(clean[1])} runs), "
              f"2 workers {two:.1f} games/s ({len(clean[2])} runs): {two / one:.2f}x")
    else:
        print("no clean run for one of the worker counts: the machine was busy throughout")
    one, two = statistics.median(per_core[1]), statistics.median(per_core[2])
    print(f"games/s per available core (median of all runs): 1 worker {one:.1f}, 2 workers {two:.1f}; "
          f"2 free cores would give about {2 * two / one:.2f}x one worker")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", default="20000,200000", help="comma-separated run sizes")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--angela", default="random")
    ap.add_argument("--jessah", default="random")
    ap.add_argument("--chunk-size", type=int, default=250)
    ap.add_argument("--report", action="store_true", help="also write the report at the end (rnsim run --report)")
    ap.add_argument("--scaling", type=int, default=0, metavar="TRIALS",
                    help="instead: time 1 vs 2 workers TRIALS times each (games = the first --games size)")
    a = ap.parse_args()
    if a.scaling:
        scaling(int(a.games.split(",")[0]), a.scaling, a.angela, a.jessah, a.chunk_size)
        return
    print(f"rnsim run memory: {a.angela} vs {a.jessah}, {a.workers} workers, chunk {a.chunk_size}")
    print(f"{'games':>10} {'seconds':>8} {'games/s':>8} {'peak RSS sum':>13} {'peak PSS sum':>13} {'parent RSS':>11} {'shards':>8} {'RSS while playing':>18}")
    for n in (int(x) for x in a.games.split(",")):
        r = measure(n, a.workers, a.angela, a.jessah, a.chunk_size, a.report)
        print(f"{n:>10,} {r['seconds']:>8.1f} {r['games_per_s']:>8.0f} {r['peak_rss_mb']:>10.0f} MB "
              f"{r['peak_pss_mb']:>10.0f} MB {r['parent_rss_mb']:>8.0f} MB {r['shards_mb']:>5.0f} MB {r['playing_rss_mb']:>15.0f} MB", flush=True)


if __name__ == "__main__":
    main()
