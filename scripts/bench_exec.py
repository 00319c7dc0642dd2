"""Same-run benchmark of the execution path: games per CPU-second of two checkouts of rnsim
(e.g. main before a change and the change), interleaved so load changes hit
both alike; medians of the repeats and the ratio new / old.

Each checkout runs in its own interpreter (its own venv, its own compiled
build, if built), playing the same games two ways:

- ``loop``: a plain loop over ``run_game`` (the game loop alone);
- ``chunk``: the tournament worker's ``play_chunk`` (the game loop plus the row
  building and the Parquet encoding a run pays per game).

    python scripts/bench_exec.py OLD_DIR NEW_DIR [--games 2000] [--expert-games 300] [--repeat 3]

Rates are over the process's CPU time (``time.process_time``), not wall time,
so other load on a shared machine distorts them much less (it still shares
caches and memory bandwidth: interleave and take medians).

The verdict is on *paired* ratios: each repeat measures old and new back to
back (in alternating order, so a drift of the load favours neither), its
ratio new / old is one observation, and the script prints the median of the
repeats' ratios with a distribution-free 95% interval for it (order
statistics of the binomial(repeats, 1/2) law; assumes only that the repeats'
ratios are independent draws of one distribution: no normality). A pair's
two measurements share the machine's load of that minute, so their ratio
is far steadier than either rate (on this machine rates spread +-25% between
runs while pair ratios spread about +-8%). Use short measurements and many
repeats (e.g. --games 500 --repeat 15).

``--instructions`` measures instead the instructions a game costs, counted by
valgrind's callgrind (installed from Debian's `valgrind` package): the count
of a run of 2N games minus that of N games (the same imports, warm-up and
first N games), divided by N. Counts do not depend on the machine's load, so
one run of each suffices; they are a proxy for time (they ignore cache misses
and the cost per instruction), which is why both measures are reported.

    python scripts/bench_exec.py OLD NEW --instructions --games 100 --expert-games 40

A checkout's interpreter is DIR/.venv/bin/python (with rnsim installed from
DIR). The ratio must stay >= 0.95 for random-vs-random and expert-vs-expert.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from scipy.stats import binom

SNIPPET = r"""
import json, sys, time
mode, a, b, games = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
import rnsim
try:
    from rnsim.games.red_notice import engine as _engine
    import rnsim_strategies.red_notice as _strats
except ImportError:
    _engine = _strats = None
from rnsim.config import config_from_mapping
from rnsim.strategy import load_strategy
from rnsim.play import run_game
raw = {"run": {"games": games, "seed": 0, "identities": "random", "chunk_size": games, "backend": "serial"},
       "strategies": {"angela": a, "jessah": b}}
cfg = config_from_mapping(raw, src="bench")
rules = cfg.variants[0].rules
try:  # the game-boundary API
    from rnsim.games import get_game
    game = get_game("red_notice")
    strats = [load_strategy(a, None, game), load_strategy(b, None, game)]
    play = lambda i: run_game(game, rules, strats, 0, i)
    generic = True
except ImportError:  # before it
    comps = rules.load_components()
    sa, sb = load_strategy(a), load_strategy(b)
    play = lambda i: run_game(rules, sa, sb, 0, i, comps=comps)
    generic = False
if mode == "loop":
    play(0)  # warm-up: imports, component loading
    t = time.process_time()
    for i in range(games):
        play(i)
    dt = time.process_time() - t
else:
    from rnsim.tournament.schedule import Chunk
    from rnsim.tournament.worker import Plan, WorkerState, play_chunk
    ws = WorkerState(Plan.from_config(cfg, "bench"))
    play_chunk(ws, Chunk(0, 0, 1))
    t = time.process_time()
    out = play_chunk(ws, Chunk(0, 0, games))
    dt = time.process_time() - t
print(json.dumps({"games_per_s": games / dt if dt > 0 else 0.0, "generic": generic,
                  "native": [getattr(_engine, "NATIVE", None), getattr(_strats, "NATIVE", None)]}))
"""


NATIVE: dict[str, object] = {}


def measure(root: Path, mode: str, a: str, b: str, games: int) -> float:
    py = root / ".venv" / "bin" / "python"
    out = subprocess.run([str(py), "-c", SNIPPET, mode, a, b, str(games)], cwd=root, capture_output=True,
                         text=True, check=True)
    res = json.loads(out.stdout.strip().splitlines()[-1])
    NATIVE[str(root)] = res["native"]
    return float(res["games_per_s"])


def instructions(root: Path, mode: str, a: str, b: str, games: int) -> int:
    """Instructions of one run of ``games`` games (callgrind's total)."""
    py = root / ".venv" / "bin" / "python"
    # one OpenBLAS thread: numpy's idle BLAS threads spin, and callgrind counts
    # their spinning (tens of millions of instructions, varying run to run)
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(py), "-c", SNIPPET,
                          mode, a, b, str(games)], cwd=root, capture_output=True, text=True, check=True, env=env)
    m = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
    if m is None:
        raise RuntimeError(f"no instruction count from callgrind: {out.stderr[-500:]}")
    return int(m.group(1))


def per_game_instructions(root: Path, mode: str, a: str, b: str, games: int) -> float:
    return (instructions(root, mode, a, b, 2 * games) - instructions(root, mode, a, b, games)) / games


def main_instructions(args: argparse.Namespace, cases: list[tuple[str, str, int]]) -> None:
    if shutil.which("valgrind") is None:
        sys.exit("bench_exec --instructions needs valgrind (apt-get install valgrind)")
    print(f"bench_exec --instructions: old = {args.old}, new = {args.new}; callgrind instructions per game "
          f"(2N minus N games); speed ratio new/old = old instructions / new instructions")
    worst = float("inf")
    for a, b, n in cases:
        for mode in args.modes.split(","):
            old = per_game_instructions(args.old, mode, a, b, n)
            new = per_game_instructions(args.new, mode, a, b, n)
            worst = min(worst, old / new)
            print(f"  {a} vs {b:10s} {mode:5s} N={n:4d}: old {old / 1e6:8.2f} M instructions/game, "
                  f"new {new / 1e6:8.2f} M, ratio new/old {old / new:.3f}", flush=True)
    print(f"  lowest ratio {worst:.3f} ({'ok' if worst >= 0.95 else 'BELOW 0.95'})")
    sys.exit(0 if worst >= 0.95 else 1)


def _runs(xs: list[float]) -> str:
    return ", ".join(f"{x:.1f}" for x in xs)


def median_interval(xs: list[float], level: float = 0.95) -> tuple[float, float]:
    """Distribution-free interval for the median: the order statistics
    x(k), x(n+1-k) with k the largest rank whose binomial(n, 1/2) tail stays
    within (1 - level) / 2 (the sign test's inversion). Needs n >= 6 for 95%."""
    xs = sorted(xs)
    n = len(xs)
    k = int(binom.ppf((1 - level) / 2, n, 0.5))  # P(B <= k - 1) <= alpha/2
    while k > 0 and binom.cdf(k - 1, n, 0.5) > (1 - level) / 2:
        k -= 1
    if k < 1:
        return float("-inf"), float("inf")
    return xs[k - 1], xs[n - k]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--games", type=int, default=2000, help="games per measurement, random vs random")
    ap.add_argument("--expert-games", type=int, default=300, help="games per measurement, expert vs expert")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--modes", default="loop,chunk")
    ap.add_argument("--cases", default="random,expert",
                    help="strategies played against themselves: random (--games), others (--expert-games); "
                         "e.g. random,rule when the expert changed on purpose between the checkouts")
    ap.add_argument("--instructions", action="store_true",
                    help="count instructions per game with valgrind's callgrind instead of timing")
    args = ap.parse_args()
    cases = [(c, c, args.games if c == "random" else args.expert_games) for c in args.cases.split(",")]
    if args.instructions:
        main_instructions(args, cases)
    rates: dict[tuple[str, str, str], list[float]] = {}
    for r in range(args.repeat):
        for a, b, n in cases:
            for mode in args.modes.split(","):
                order = (("old", args.old), ("new", args.new))
                for label, root in (order if r % 2 == 0 else order[::-1]):
                    rates.setdefault((f"{a} vs {b}", mode, label), []).append(measure(root, mode, a, b, n))
    print(f"bench_exec: old = {args.old}, new = {args.new}; median of {args.repeat}, interleaved; "
          f"compiled (engine, expert): old {NATIVE.get(str(args.old))}, new {NATIVE.get(str(args.new))}")
    worst = float("inf")
    for a, b, n in cases:
        for mode in args.modes.split(","):
            key = f"{a} vs {b}"
            olds, news = rates[(key, mode, "old")], rates[(key, mode, "new")]
            old, new = statistics.median(olds), statistics.median(news)
            pairs = [y / x for x, y in zip(olds, news, strict=True)]
            ratio = statistics.median(pairs)
            lo, hi = median_interval(pairs)
            worst = min(worst, ratio)
            print(f"  {key:18s} {mode:5s} {n:5d} games: old {old:8.1f} games/s, new {new:8.1f} games/s (medians); "
                  f"paired ratio new/old {ratio:.3f} [{lo:.3f}, {hi:.3f}] (median of {len(pairs)}, 95%)\n"
                  f"      runs old {_runs(olds)}\n      runs new {_runs(news)}\n"
                  f"      ratios {', '.join(f'{x:.3f}' for x in pairs)}")
    print(f"  lowest median paired ratio {worst:.3f} ({'ok' if worst >= 0.95 else 'BELOW 0.95'})")
    sys.exit(0 if worst >= 0.95 else 1)


if __name__ == "__main__":
    main()
