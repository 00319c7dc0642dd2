"""Games per CPU-second of two checkouts of rnsim, in the same run,
interleaved: the current code against another commit (or the compiled build
against the Python source).

    git worktree add /tmp/wt-old COMMIT && make -C /tmp/wt-old install
    .venv/bin/python -m benchmarks.compare --against /tmp/wt-old
    .venv/bin/python -m benchmarks.compare --against /tmp/wt-old --instructions   # callgrind, load-free
    .venv/bin/python -m benchmarks.compare --against . --against-pure            # compiled over pure Python

Each checkout plays in its own interpreter (``DIR/.venv/bin/python``: its
own rnsim, its own compiled build if built), one fresh process per
measurement, the same games on both sides (master seed 0, game indices
from 0), two ways:

- ``loop``: a plain loop over ``rnsim.play.run_game`` (the game loop alone);
- ``chunk``: the tournament worker's ``play_chunk`` in chunks of 250 (the
  game loop plus the rows and the Parquet encoding a run pays per game).

A repeat measures both sides back to back, in alternating order (so a drift
of the machine's load favours neither); its ratio this / against is one
observation. Printed: each side's median rate, the median of the paired
ratios with a distribution-free 95% interval (order statistics of the
binomial(repeats, 1/2) law: no normality assumed; needs 6 repeats or more),
and whether both sides played the same games (winner, end, rounds and
decisions of every game of the loop: a change that keeps results
byte-identical says yes).

``--instructions`` counts instead the instructions a game costs with
valgrind's callgrind: the count of a run of 2N games less that of N games
(same imports, warm-up and first N games), over N. Counts do not depend on
the load, so one run per side suffices; they ignore cache misses and the
cost per instruction, hence both measures.

Exit status 0; with ``--require R``, 1 when a case's interval does not lie
wholly at or above R (e.g. ``--require 2`` for a 2x speed-up).
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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.common import FBI_EXPERT_4, RED_NOTICE_EXPERT, RED_NOTICE_RANDOM, RED_NOTICE_SEARCH, ROOT, Matchup
from benchmarks.common import median_interval as _median_interval

CASES: dict[str, tuple[Matchup, int]] = {  # name -> (matchup, default games per measurement)
    "expert": (RED_NOTICE_EXPERT, 300),
    "random": (RED_NOTICE_RANDOM, 1500),
    "search": (RED_NOTICE_SEARCH, 6),
    "fbi": (FBI_EXPERT_4, 300),
}

#: run by each checkout's own interpreter: only rnsim's public paths, no
#: module of this suite (the other checkout may not have it)
SNIPPET = r"""
import hashlib, importlib, json, sys, time
mode, raw, games = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
from rnsim.config import config_from_mapping
from rnsim.play import fewer_collections, run_game
from rnsim.strategy import load_strategy
cfg = config_from_mapping(raw, src="compare")
cell = cfg.cells()[0]
game, rules = cfg.game_obj, cfg.variants[0].rules
fingerprint = None
if mode == "loop":
    specs = [cfg.strategies[seat][i] for seat, i in zip(cfg.seats, cell.strategies)]
    strats = [load_strategy(s.ref, s.params, game) for s in specs]
    run_game(game, rules, strats, 0, 10**6, setup=cell.setup)  # warm-up
    t = time.process_time()
    with fewer_collections():
        outs = [run_game(game, rules, strats, 0, i, setup=cell.setup) for i in range(games)]
    dt = time.process_time() - t
    h = hashlib.sha256()
    for o in outs:
        h.update(repr((o.winner, o.end_reason, o.rounds, o.decisions)).encode())
    fingerprint = h.hexdigest()
else:
    from rnsim.tournament.schedule import Chunk
    from rnsim.tournament.worker import Plan, WorkerState, play_chunk
    ws = WorkerState(Plan.from_config(cfg, "compare"))
    play_chunk(ws, Chunk(0, 10**6, 10**6 + 1))  # warm-up
    t = time.process_time()
    for a in range(0, games, 250):
        play_chunk(ws, Chunk(0, a, min(a + 250, games)))
    dt = time.process_time() - t
builds = {}
for label, name in (("Red Notice engine", "rnsim.games.red_notice.engine.state"),
                    ("Red Notice expert", "rnsim_strategies.red_notice.expert"),
                    ("dossier core", "rnsim_strategies.red_notice._dossier_core"),
                    ("FBI engine", "rnsim.games.fbi.state"), ("FBI expert", "rnsim_strategies.fbi.expert"),
                    ("chance draws", "rnsim.chance.draws")):
    try:
        f = getattr(importlib.import_module(name), "__file__", "") or ""
        builds[label] = "compiled" if not f.endswith(".py") else "Python"
    except ImportError:
        builds[label] = "absent"
print(json.dumps({"rate": games / dt if dt > 0 else 0.0, "fingerprint": fingerprint, "builds": builds}))
"""


@dataclass(frozen=True)
class Side:
    label: str
    root: Path
    pure: bool

    @property
    def python(self) -> Path:
        return self.root / ".venv" / "bin" / "python"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k != "RNSIM_PURE"}
        # one BLAS thread: numpy's idle BLAS threads spin, and callgrind counts them
        env.update(PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", PYTHONWARNINGS="ignore")
        if self.pure:
            env["RNSIM_PURE"] = "1"
        return env

    def describe(self) -> str:
        return f"{self.root}{' (RNSIM_PURE=1)' if self.pure else ''}"

    def measure(self, mode: str, matchup: Matchup, games: int) -> dict[str, Any]:
        cmd = [str(self.python), "-c", SNIPPET, mode, json.dumps(matchup.raw(games)), str(games)]
        out = subprocess.run(cmd, cwd=self.root, capture_output=True, text=True, env=self.env())
        if out.returncode != 0:
            raise SystemExit(f"compare: {self.describe()}: the measurement failed:\n{out.stderr[-3000:]}")
        result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
        return result

    def instructions(self, mode: str, matchup: Matchup, games: int) -> tuple[int, str]:
        """The instructions of the measurement under callgrind, and its games' fingerprint."""
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", str(self.python), "-c", SNIPPET,
               mode, json.dumps(matchup.raw(games)), str(games)]
        out = subprocess.run(cmd, cwd=self.root, capture_output=True, text=True, env=self.env())
        m = re.search(r"Collected\s*:\s*(\d+)", out.stderr)
        if out.returncode != 0 or m is None:
            raise SystemExit(f"compare: {self.describe()}: callgrind gave no count:\n{out.stderr[-2000:]}")
        return int(m.group(1)), str(json.loads(out.stdout.strip().splitlines()[-1])["fingerprint"])


def _checkout(path: str, flag: str) -> Path:
    root = Path(path).resolve()
    if not (root / ".venv" / "bin" / "python").is_file():
        raise SystemExit(f"compare: {flag} {path}: no .venv/bin/python there (run `make install` in that checkout)")
    return root


def _cases(text: str) -> list[str]:
    names = [c.strip() for c in text.split(",") if c.strip()]
    bad = [c for c in names if c not in CASES]
    if bad or not names:
        raise SystemExit(f"compare: --cases: {', '.join(bad) or 'nothing'}: not a case; "
                         f"choose among {', '.join(CASES)}")
    return names


def _modes(text: str) -> list[str]:
    modes = [m.strip() for m in text.split(",") if m.strip()]
    if not modes or any(m not in ("loop", "chunk") for m in modes):
        raise SystemExit(f"compare: --modes {text!r}: use loop, chunk or loop,chunk")
    return modes


def timed(this: Side, other: Side, cases: list[str], modes: list[str], games: dict[str, int], repeat: int,
          require: float | None) -> int:
    print(f"compare: this = {this.describe()}, against = {other.describe()}; games per CPU-second, "
          f"{repeat} repeats interleaved (alternating order), same games on both sides", flush=True)
    failed = False
    builds: dict[str, Any] = {}
    for name in cases:
        matchup, _ = CASES[name]
        for mode in modes:
            rates: dict[str, list[float]] = {"this": [], "against": []}
            prints: dict[str, set[str]] = {"this": set(), "against": set()}
            for r in range(repeat):
                order = [("this", this), ("against", other)]
                for label, side in order if r % 2 == 0 else order[::-1]:
                    res = side.measure(mode, matchup, games[name])
                    rates[label].append(res["rate"])
                    builds[label] = res["builds"]
                    if res["fingerprint"]:
                        prints[label].add(res["fingerprint"])
            pairs = [a / b for a, b in zip(rates["this"], rates["against"], strict=True)]
            med, lo, hi = _median_interval(pairs)
            same = "" if mode != "loop" else ("; same games: yes" if prints["this"] == prints["against"]
                                              else "; same games: NO (the players or rules play differently)")
            print(f"  {matchup.title:45s} {mode:5s} {games[name]:5d} games: this {statistics.median(rates['this']):8.1f}, "
                  f"against {statistics.median(rates['against']):8.1f} (medians); this/against {med:.3f} "
                  f"[{lo:.3f}, {hi:.3f}] (median of {repeat} paired ratios, 95%){same}", flush=True)
            print(f"      ratios {', '.join(f'{x:.3f}' for x in pairs)}", flush=True)
            if require is not None and lo < require:
                failed = True
    for label in ("this", "against"):
        print(f"  builds, {label}: " + ", ".join(f"{k} {v}" for k, v in builds[label].items()))
    return 1 if failed else 0


def counted(this: Side, other: Side, cases: list[str], modes: list[str], games: dict[str, int],
            require: float | None) -> int:
    if shutil.which("valgrind") is None:
        raise SystemExit("compare: --instructions needs valgrind (apt-get install valgrind)")
    print(f"compare --instructions: this = {this.describe()}, against = {other.describe()}; callgrind "
          f"instructions per game (a run of 2N games less one of N); speed ratio = against / this", flush=True)
    failed = False
    for name in cases:
        matchup, _ = CASES[name]
        n = games[name]
        for mode in modes:
            per: dict[str, float] = {}
            prints: dict[str, str] = {}
            for label, side in (("this", this), ("against", other)):
                (many, prints[label]), (few, _) = side.instructions(mode, matchup, 2 * n), side.instructions(mode, matchup, n)
                per[label] = (many - few) / n
            ratio = per["against"] / per["this"]
            same = "" if mode != "loop" else ("; same games: yes" if prints["this"] == prints["against"]
                                              else "; same games: NO (the players or rules play differently)")
            print(f"  {matchup.title:45s} {mode:5s} N={n:4d}: this {per['this'] / 1e6:8.2f} M instructions a game, "
                  f"against {per['against'] / 1e6:8.2f} M; speed this/against {ratio:.3f}{same}", flush=True)
            if require is not None and ratio < require:
                failed = True
    return 1 if failed else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.compare", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--against", required=True, metavar="DIR", help="the other checkout (with its .venv)")
    ap.add_argument("--this", default=str(ROOT), metavar="DIR", help="this side's checkout (default: this one)")
    ap.add_argument("--pure", action="store_true", help="this side plays its Python source (RNSIM_PURE=1)")
    ap.add_argument("--against-pure", action="store_true", help="the other side plays its Python source")
    ap.add_argument("--cases", default="expert,random", help=f"among {', '.join(CASES)} (default expert,random)")
    ap.add_argument("--modes", default="loop,chunk", help="loop, chunk or both (default)")
    ap.add_argument("--games", type=int, default=None,
                    help="games per measurement for every case (default per case: " +
                         ", ".join(f"{k} {v[1]}" for k, v in CASES.items()) + "; --instructions: a fifth)")
    ap.add_argument("--repeat", type=int, default=15, help="repeats (default 15; 6 at least for a 95%% interval)")
    ap.add_argument("--instructions", action="store_true", help="count instructions with callgrind instead")
    ap.add_argument("--require", type=float, default=None, metavar="R",
                    help="exit 1 unless every case's ratio this/against is at least R (its whole interval)")
    a = ap.parse_args(argv)
    if a.repeat < 1 or (a.games is not None and a.games < 1):
        raise SystemExit("compare: --repeat and --games must be at least 1")
    this = Side("this", _checkout(a.this, "--this"), a.pure)
    other = Side("against", _checkout(a.against, "--against"), a.against_pure)
    cases, modes = _cases(a.cases), _modes(a.modes)
    games = {c: a.games or (max(1, CASES[c][1] // 5) if a.instructions else CASES[c][1]) for c in cases}
    if a.instructions:
        return counted(this, other, cases, modes, games, a.require)
    return timed(this, other, cases, modes, games, a.repeat, a.require)


if __name__ == "__main__":
    sys.exit(main())
