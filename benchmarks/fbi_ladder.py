"""FBI's strength ladder: random, rule and expert at one table.

    python -m benchmarks.fbi_ladder --games 1200 --players 3

Plays tables holding random, rule and expert together (3 players: one each;
4 players: random again in the fourth seat; 5: random and rule again), rotating
the strategies over every seat permutation so seat position cancels out, and
prints each strategy's win rate per seat it held (shared wins count 1/k,
F13) with a 95% Wilson interval; the ladder holds when the intervals are
strictly ordered and do not overlap (exit 1 when not).

Speed is measured by the benchmark suite (benchmarks/games.py: FBI's expert
at 4 players, and at 5 against Red Notice's) and by
``rnsim bench --game fbi --setup N``; ``python -m benchmarks.profile
pyspy|callgrind --case fbi`` shows where its time goes.
"""

from __future__ import annotations

import argparse
import itertools
import sys

from rnsim_strategies.fbi.expert import ExpertStrategy
from rnsim_strategies.fbi.random_play import RandomStrategy
from rnsim_strategies.fbi.rule import RuleStrategy

from rnsim.analysis.stats import wilson
from rnsim.games.fbi.game import GAME, play

STRATS = {"random": RandomStrategy, "rule": RuleStrategy, "expert": ExpertStrategy}


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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--players", type=int, default=3, choices=(3, 4, 5))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stacked", action="store_true", help="the rulebook's variant (F15)")
    a = ap.parse_args()
    return 0 if ladder(a.games, a.players, a.seed, {"stacked": a.stacked}) else 1


if __name__ == "__main__":
    sys.exit(main())
