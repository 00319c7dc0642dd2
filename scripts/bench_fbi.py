"""FBI benchmarks: the strength ladder and games/s per core.

    python scripts/bench_fbi.py ladder --games 1200 --players 3
    python scripts/bench_fbi.py speed --games 200 --players 5
    python scripts/bench_fbi.py versus-red-notice --games 100

``ladder`` plays tables holding random, rule and expert together (3 players:
one each; 4 and 5 players: the strongest fills the extra seats in turn...),
rotating the strategies over every seat permutation so seat position cancels
out, and prints each strategy's win rate per seat it held (shared wins count
1/k, F13) with a 95% Wilson interval; the ladder holds when the intervals are
strictly ordered and do not overlap. ``speed`` plays games of one strategy in
every seat on one core and prints games/s.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time

from rnsim_strategies.fbi.expert import ExpertStrategy
from rnsim_strategies.fbi.random_play import RandomStrategy
from rnsim_strategies.fbi.rule import RuleStrategy

from rnsim.games.fbi.game import GAME, play

STRATS = {"random": RandomStrategy, "rule": RuleStrategy, "expert": ExpertStrategy}


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def ladder(games: int, players: int, seed: int, rules_table: dict) -> bool:
    rules = GAME.rules(rules_table)
    names = list(STRATS)
    base = (names * players)[:players]  # 3: one each; 4: random, rule, expert, random ...
    perms = sorted(set(itertools.permutations(base)))
    wins = dict.fromkeys(names, 0.0)
    seats = dict.fromkeys(names, 0)
    for g in range(games):
        lineup = perms[g % len(perms)]
        _, out = play(rules, players, [STRATS[s]() for s in lineup], seed, g)
        for i, s in enumerate(lineup):
            wins[s] += out.shares[GAME.seats(rules, players)[i]]
            seats[s] += 1
    rows = []
    for s in names:
        lo, hi = wilson(wins[s], seats[s])
        rows.append((s, wins[s] / seats[s], lo, hi))
        print(f"{s:7s} win rate per seat {wins[s] / seats[s]:.3f}  95% [{lo:.3f}, {hi:.3f}]  ({seats[s]} seat-games)")
    ok = all(rows[i][3] < rows[i + 1][2] for i in range(len(rows) - 1))
    print("ladder strictly ordered, intervals disjoint:", ok)
    return ok


def speed(games: int, players: int, seed: int) -> None:
    rules = GAME.rules({})
    for name, cls in STRATS.items():
        t = time.perf_counter()
        for g in range(games):
            play(rules, players, [cls() for _ in range(players)], seed, g)
        dt = time.perf_counter() - t
        print(f"{players} players, {name:7s}: {games / dt:8.1f} games/s on one core ({games} games, {dt:.1f} s)")


def versus_red_notice(games: int, seed: int) -> None:
    """Seconds per expert game: FBI at 5 players against Red Notice, interleaved
    so both see the same machine load."""
    from rnsim.play import play_game
    from rnsim.strategy import load_strategy

    rules = GAME.rules({})
    rn_a, rn_j = load_strategy("expert"), load_strategy("expert")
    t_fbi = t_rn = 0.0
    for g in range(games):
        t = time.perf_counter()
        play(rules, 5, [ExpertStrategy() for _ in range(5)], seed, g)
        t_fbi += time.perf_counter() - t
        t = time.perf_counter()
        play_game(angela=rn_a, jessah=rn_j, seed=seed, game_index=g)
        t_rn += time.perf_counter() - t
    print(f"expert game, FBI 5 players: {1000 * t_fbi / games:.1f} ms; Red Notice: {1000 * t_rn / games:.1f} ms "
          f"(ratio FBI / Red Notice {t_fbi / t_rn:.2f}, {games} games each)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("ladder", "speed", "versus-red-notice"))
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stacked", action="store_true", help="the rulebook's variant (F15)")
    a = ap.parse_args()
    if a.what == "ladder":
        return 0 if ladder(a.games, a.players, a.seed, {"stacked": a.stacked}) else 1
    if a.what == "versus-red-notice":
        versus_red_notice(a.games, a.seed)
        return 0
    speed(a.games, a.players, a.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
