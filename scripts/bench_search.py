"""Benchmarks of the ``search`` player (issue 12, item 4). Not unit tests:
run them on an idle machine and quote the command next to each number.

    python scripts/bench_search.py costs --games 20 --samples 5
        clone and determinize microseconds, expert rollouts per second (CPU)
    python scripts/bench_search.py speed --games 20 --budgets 1,2,4,8
        games/s of search vs search per budget (CPU seconds of one core)
    python scripts/bench_search.py seat --angela search --games 300 --workers 2
        one seat's paired shift: the given pair against expert vs expert on
        the same game indices (cheaper than cells when tuning one seat)
    python scripts/bench_search.py cells --games 1000 --budget 4 --workers 2
        the ordering cells: search and expert in each seat, against expert
        and against search, on the same game indices (master seed --seed);
        Angela's win rate with 95% Wilson intervals, and each seat's paired
        shift from expert to search with its 95% interval

Build the compiled engine first (scripts/build_native.py): search is about
3x slower on the pure Python source.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rnsim.analysis.stats import wilson
from rnsim.games.red_notice.engine.determinize import copies_rng, determinize
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.game import GAME
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.play import play_out, run_game
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy


def costs(args: argparse.Namespace) -> None:
    rules = RuleSet()
    comps = rules.load_components()
    a, j = load_strategy("expert"), load_strategy("expert")
    ra, rj = load_strategy("expert"), load_strategy("expert")
    clone_s = det_s = roll_s = 0.0
    n_clone = n_roll = 0
    for g in range(args.games):
        s = game_seeds(args.seed, g)
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(rules, random.Random(s.chance), comps=comps, seed=s.chance)
        copies = copies_rng(args.seed, g)
        k = 0
        while not st.over:
            d = st.pending
            k += 1
            if k % 17 == 0 and n_clone < (g + 1) * args.samples:
                t = time.process_time()
                for _ in range(20):
                    st.clone()
                clone_s += (time.process_time() - t) / 20
                t = time.process_time()
                sample = determinize(st, d.seat, copies)
                det_s += time.process_time() - t
                n_clone += 1
                ra.new_game(0, random.Random(copies.getrandbits(63)))
                rj.new_game(1, random.Random(copies.getrandbits(63)))
                t = time.process_time()
                play_out(GAME, sample, (ra, rj))
                roll_s += time.process_time() - t
                n_roll += 1
            st.apply((a if d.seat == 0 else j).choose(build_view(st, d.seat), d))
    print(f"clone: {1e6 * clone_s / n_clone:.1f} us; determinize: {1e6 * det_s / n_clone:.1f} us; "
          f"expert rollout to the end: {1e3 * roll_s / n_roll:.2f} ms ({n_roll / roll_s:.0f} rollouts/s CPU); "
          f"{n_roll} samples")


def speed(args: argparse.Namespace) -> None:
    from rnsim_strategies.red_notice.search import Search

    rules = GAME.rules()
    for b in (int(x) for x in args.budgets.split(",")):
        a, j = Search(iterations=b), Search(iterations=b)
        t = time.process_time()
        for g in range(args.games):
            run_game(GAME, rules, [a, j], args.seed, g)
        el = time.process_time() - t
        roll = a.rollouts + j.rollouts
        print(f"budget {b}: {args.games / el:.2f} games/s search vs search (one core, CPU time), "
              f"{roll / args.games:.0f} rollouts/game (Angela {a.rollouts / args.games:.0f}, "
              f"Jessah {j.rollouts / args.games:.0f}), {roll / el:.0f} rollouts/s, "
              f"{(a.searched + j.searched) / args.games:.0f} searched decisions/game; "
              f"2,000 games on 2 cores: {2000 / (2 * args.games / el) / 60:.1f} min")
        for seat, p in (("Angela", a), ("Jessah", j)):
            print(f"  {seat}'s rollouts per game by kind: "
                  + ", ".join(f"{k} {v / args.games:.0f}" for k, v in sorted(p.spent.items())))


def _spec(name: str, budget: int) -> tuple[str, dict[str, Any]]:
    """``search`` at ``budget``, or a ladder level (``search@iterations=8+leak=0``)."""
    from rnsim.cli.ladder import parse_level

    if name == "search":
        return "search", {"iterations": budget}
    return parse_level(name)


def _play(job: tuple[str, str, int, int, int, int]) -> list[int]:
    """Angela's wins (1), Jessah's (0) or no winner (-1) in games lo..hi-1."""
    forger, agent, budget, seed, lo, hi = job
    rules = GAME.rules()
    fa, pa = _spec(forger, budget)
    fj, pj = _spec(agent, budget)
    strats = [load_strategy(fa, pa), load_strategy(fj, pj)]
    out = []
    for g in range(lo, hi):
        o = run_game(GAME, rules, strats, seed, g)
        out.append(1 if o.winner == "angela" else 0 if o.winner == "jessah" else -1)
    return out


def _paired(x: list[int], y: list[int]) -> tuple[float, float, float]:
    """Mean of y - x (Angela's win, per game) and its 95% normal interval."""
    d = [(b == 1) - (a == 1) for a, b in zip(x, y, strict=True)]
    n = len(d)
    m = sum(d) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in d) / (n - 1)) if n > 1 else 0.0
    h = 1.959964 * sd / math.sqrt(n)
    return m, m - h, m + h


def seat(args: argparse.Namespace) -> None:
    chunk = max(1, args.games // (4 * args.workers))
    t0 = time.time()
    res = {}
    with ProcessPoolExecutor(args.workers) as ex:
        for p in (("expert", "expert"), (args.angela, args.jessah)):
            jobs = [(p[0], p[1], args.budget, args.seed, lo, min(args.games, lo + chunk))
                    for lo in range(0, args.games, chunk)]
            res[p] = [w for part in ex.map(_play, jobs) for w in part]
            k = sum(1 for w in res[p] if w == 1)
            lo_, hi_ = wilson(k, args.games)
            print(f"angela {p[0]} vs jessah {p[1]}: Angela {100 * k / args.games:.1f}% "
                  f"[{100 * lo_:.1f}, {100 * hi_:.1f}]  ({time.time() - t0:.0f} s)", flush=True)
    m, lo, hi = _paired(res[("expert", "expert")], res[(args.angela, args.jessah)])
    print(f"shift of Angela's win rate from expert vs expert: {100 * m:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]; "
          f"{args.games} games, seed {args.seed}")


def cells(args: argparse.Namespace) -> None:
    pairs = [("expert", "expert"), ("search", "expert"), ("expert", "search"), ("search", "search")]
    chunk = max(1, args.games // (4 * args.workers))
    res: dict[tuple[str, str], list[int]] = {}
    t0 = time.time()
    with ProcessPoolExecutor(args.workers) as ex:
        for p in pairs:
            jobs = [(p[0], p[1], args.budget, args.seed, lo, min(args.games, lo + chunk))
                    for lo in range(0, args.games, chunk)]
            res[p] = [w for part in ex.map(_play, jobs) for w in part]
            k = sum(1 for w in res[p] if w == 1)
            lo_, hi_ = wilson(k, args.games)
            print(f"angela {p[0]:>6} vs jessah {p[1]:>6}: Angela {100 * k / args.games:.1f}% "
                  f"[{100 * lo_:.1f}, {100 * hi_:.1f}]  ({time.time() - t0:.0f} s)", flush=True)
    for seat, ref, var in (("angela", ("expert", "expert"), ("search", "expert")),
                           ("angela", ("expert", "search"), ("search", "search")),
                           ("jessah", ("expert", "expert"), ("expert", "search")),
                           ("jessah", ("search", "expert"), ("search", "search"))):
        m, lo, hi = _paired(res[ref], res[var])
        sign = 1 if seat == "angela" else -1
        print(f"{seat} expert -> search (opponent {ref[1] if seat == 'angela' else ref[0]}): "
              f"Angela {100 * m:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}], "
              f"gain for {seat} {100 * sign * m:+.1f}")
    print(f"{args.games} games per cell, budget {args.budget}, seed {args.seed}, "
          f"{args.workers} workers, {time.time() - t0:.0f} s")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("costs")
    c.add_argument("--games", type=int, default=20, help="games whose decisions are sampled")
    c.add_argument("--samples", type=int, default=5, help="decisions sampled per game")
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--budgets", default="2,4,8")
    o = sub.add_parser("cells")
    o.add_argument("--games", type=int, default=1000)
    o.add_argument("--budget", type=int, default=4)
    o.add_argument("--workers", type=int, default=2)
    e = sub.add_parser("seat")
    e.add_argument("--angela", default="expert", help="a level: expert, search, search@iterations=8+leak=0")
    e.add_argument("--jessah", default="expert")
    e.add_argument("--games", type=int, default=300)
    e.add_argument("--budget", type=int, default=4, help="iterations of a plain 'search'")
    e.add_argument("--workers", type=int, default=2)
    for p in (c, s, o, e):
        p.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    {"costs": costs, "speed": speed, "cells": cells, "seat": seat}[args.cmd](args)


if __name__ == "__main__":
    main()
