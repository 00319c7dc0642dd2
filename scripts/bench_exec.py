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

A checkout's interpreter is DIR/.venv/bin/python (with rnsim installed from
DIR). The ratio must stay >= 0.95 for random-vs-random and expert-vs-expert.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

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
print(json.dumps({"games_per_s": games / dt, "generic": generic,
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


def _runs(xs: list[float]) -> str:
    return ", ".join(f"{x:.1f}" for x in xs)


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
    args = ap.parse_args()
    cases = [(c, c, args.games if c == "random" else args.expert_games) for c in args.cases.split(",")]
    rates: dict[tuple[str, str, str], list[float]] = {}
    for _ in range(args.repeat):
        for a, b, n in cases:
            for mode in args.modes.split(","):
                for label, root in (("old", args.old), ("new", args.new)):
                    rates.setdefault((f"{a} vs {b}", mode, label), []).append(measure(root, mode, a, b, n))
    print(f"bench_exec: old = {args.old}, new = {args.new}; median of {args.repeat}, interleaved; "
          f"compiled (engine, expert): old {NATIVE.get(str(args.old))}, new {NATIVE.get(str(args.new))}")
    worst = float("inf")
    for a, b, n in cases:
        for mode in args.modes.split(","):
            key = f"{a} vs {b}"
            old = statistics.median(rates[(key, mode, "old")])
            new = statistics.median(rates[(key, mode, "new")])
            worst = min(worst, new / old)
            print(f"  {key:18s} {mode:5s} {n:5d} games: old {old:8.1f} games/s, new {new:8.1f} games/s, "
                  f"ratio {new / old:.3f}   (runs old {_runs(rates[(key, mode, 'old')])}, "
                  f"new {_runs(rates[(key, mode, 'new')])})")
    print(f"  lowest ratio {worst:.3f} ({'ok' if worst >= 0.95 else 'BELOW 0.95'})")
    sys.exit(0 if worst >= 0.95 else 1)


if __name__ == "__main__":
    main()
