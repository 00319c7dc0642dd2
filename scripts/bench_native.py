"""Expert games/s with the compiled builds and with the Python source, in one
run: each round plays the same games once per build in a fresh subprocess
(interleaved, so load changes hit every build alike); medians are printed.

    python scripts/build_native.py                  # both builds first
    python scripts/bench_native.py [--games 60] [--repeat 3]

Builds compared:
  compiled   engine and expert strategy compiled (what `make install` gives)
  engine     engine compiled, expert strategy from its Python source
  pure       both from the Python source (RNSIM_PURE=1)

Rates are over CPU time of the subprocess (less distorted by other load on a
shared machine) and over wall time. Every build must play the same games
(same winners, rounds and decisions): a mismatch is an error.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

_CHILD = r"""
import json, os, sys, time
mode, games = sys.argv[1], int(sys.argv[2])
os.environ["RNSIM_PURE"] = "1" if mode == "pure" else "0"
import rnsim.games.red_notice.engine as engine  # selects the engine build
if mode == "engine":
    os.environ["RNSIM_PURE"] = "1"  # read when the strategies package selects its build
import rnsim_strategies.red_notice as strategies
from rnsim.games.red_notice.game import GAME
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.play import run_game
from rnsim.strategy import load_strategy
from rnsim.compiled import TARGETS
native = {"engine": bool(TARGETS["engine"].compiled_files()) and mode != "pure", "strategies": strategies.NATIVE}
rules = RuleSet()
t0, c0 = time.perf_counter(), time.process_time()
games_played = []
for i in range(games):
    r = run_game(GAME, rules, [load_strategy("expert"), load_strategy("expert")], 13, i)
    games_played.append([r.winner, r.rounds, r.decisions])
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
print(json.dumps({"native": native, "wall": wall, "cpu": cpu, "games": games_played}))
"""

MODES = ("compiled", "engine", "pure")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=60, help="expert vs expert games per measurement")
    p.add_argument("--repeat", type=int, default=3, help="rounds of measurements; medians are shown")
    a = p.parse_args(argv)
    if a.games < 1 or a.repeat < 1:
        print("--games and --repeat must be at least 1", file=sys.stderr)
        return 2
    cpu: dict[str, list[float]] = {m: [] for m in MODES}
    wall: dict[str, list[float]] = {m: [] for m in MODES}
    played: dict[str, object] = {}
    native: dict[str, object] = {}
    for _ in range(a.repeat):
        for m in MODES:
            out = subprocess.run([sys.executable, "-c", _CHILD, m, str(a.games)], capture_output=True, text=True,
                                 check=True, env={**os.environ, "PYTHONWARNINGS": "ignore"})
            r = json.loads(out.stdout)
            cpu[m].append(a.games / r["cpu"])
            wall[m].append(a.games / r["wall"])
            played.setdefault(m, r["games"])
            native[m] = r["native"]
    if native["compiled"] != {"engine": True, "strategies": True}:
        print(f"the compiled builds are not in use ({native['compiled']}): run scripts/build_native.py first",
              file=sys.stderr)
        return 2
    if not played["compiled"] == played["engine"] == played["pure"]:
        print("error: the builds played different games", file=sys.stderr)
        return 1
    print(f"expert vs expert, {a.games} games x {a.repeat} rounds, median games/s (CPU time | wall time)")
    base = statistics.median(cpu["pure"])
    for m in MODES:
        c, w = statistics.median(cpu[m]), statistics.median(wall[m])
        print(f"  {m:<9} {c:7.1f} | {w:7.1f}   x{c / base:.2f} of pure (CPU)   native={native[m]}")
    ec, cc = statistics.median(cpu["engine"]), statistics.median(cpu["compiled"])
    print(f"  compiled expert strategy on a compiled engine: x{cc / ec:.2f} (CPU)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
