"""FBI benchmarks: the strength ladder and games/s per core.

    python scripts/bench_fbi.py ladder --games 1200 --players 3
    python scripts/bench_fbi.py speed --games 200 --players 5
    python scripts/bench_fbi.py versus-red-notice --games 100
    python scripts/bench_fbi.py games --game fbi --games 30   # no timing: for callgrind

``ladder`` plays tables holding random, rule and expert together (3 players:
one each; 4 and 5 players: the strongest fills the extra seats in turn...),
rotating the strategies over every seat permutation so seat position cancels
out, and prints each strategy's win rate per seat it held (shared wins count
1/k, F13) with a 95% Wilson interval; the ladder holds when the intervals are
strictly ordered and do not overlap. ``speed`` plays games of one strategy in
every seat on one core and prints games/s. ``games`` only plays expert games
(FBI at ``--players``, or Red Notice): run it under
``valgrind --tool=callgrind`` and subtract a ``--games 0`` run for the
instructions per game, a cost a loaded machine does not change.
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


def speed(games: int, players_list: list[int], seed: int, stacked: bool) -> None:
    """Games/s per core: CPU time of this process (``time.process_time``), so a
    loaded machine slows the wall clock but not the figure much."""
    rules = GAME.rules({"stacked": stacked})
    for players in players_list:
        for name, cls in STRATS.items():
            t = time.process_time()
            for g in range(games):
                play(rules, players, [cls() for _ in range(players)], seed, g)
            dt = time.process_time() - t
            print(f"{players} players, {name:7s}: {games / dt:8.1f} games/s per core "
                  f"({1000 * dt / games:.1f} ms CPU per game, {games} games)")


def versus_red_notice(games: int, seed: int, runs: int) -> None:
    """CPU time per expert game: FBI at 5 players against Red Notice, game by
    game interleaved so both see the same machine; ``runs`` runs (run r plays
    master seed ``seed + r``), and the median run's ratio is the figure."""
    import statistics

    from rnsim.play import play_game
    from rnsim.strategy import load_strategy

    def build(module: str) -> str:
        return "compiled" if _compiled(module) else "pure Python"

    print(f"builds: Red Notice engine {build('rnsim.games.red_notice.engine.state')}, "
          f"expert {build('rnsim_strategies.red_notice.expert')}; "
          f"FBI engine {build('rnsim.games.fbi.state')}, expert {build('rnsim_strategies.fbi.expert')}")
    rules = GAME.rules({})
    rn_a, rn_j = load_strategy("expert"), load_strategy("expert")
    # warm up both (imports, first-call set-up), on games no run plays
    for g in range(3):
        play(rules, 5, [ExpertStrategy() for _ in range(5)], seed + runs, g)
        play_game(angela=rn_a, jessah=rn_j, seed=seed + runs, game_index=g)
    ratios = []
    for r in range(runs):
        # each run its own games: no cache of either game sees a game twice
        t_fbi = t_rn = 0.0
        for g in range(games):
            t = time.process_time()
            play(rules, 5, [ExpertStrategy() for _ in range(5)], seed + r, g)
            t_fbi += time.process_time() - t
            t = time.process_time()
            play_game(angela=rn_a, jessah=rn_j, seed=seed + r, game_index=g)
            t_rn += time.process_time() - t
        ratios.append(t_fbi / t_rn)
        print(f"run {r + 1}: expert game CPU, FBI 5 players {1000 * t_fbi / games:.1f} ms; "
              f"Red Notice {1000 * t_rn / games:.1f} ms; ratio FBI / Red Notice {t_fbi / t_rn:.2f} ({games} games each)")
    print(f"median ratio over {runs} runs: {statistics.median(ratios):.2f} "
          f"(min {min(ratios):.2f}, max {max(ratios):.2f})")


def games_only(game: str, games: int, players: int, seed: int) -> None:
    if game == "fbi":
        rules = GAME.rules({})
        for g in range(games):
            play(rules, players, [ExpertStrategy() for _ in range(players)], seed, g)
        return
    from rnsim.play import play_game
    from rnsim.strategy import load_strategy

    a, j = load_strategy("expert"), load_strategy("expert")
    for g in range(games):
        play_game(angela=a, jessah=j, seed=seed, game_index=g)


def _compiled(module: str) -> bool:
    import importlib

    f = getattr(importlib.import_module(module), "__file__", "") or ""
    return not f.endswith(".py")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("ladder", "speed", "versus-red-notice", "games"))
    ap.add_argument("--game", choices=("fbi", "red-notice"), default="fbi", help="games: which game's expert games")
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--players", type=int, nargs="+", default=[3],
                    help="player counts (ladder: the first; speed: each)")
    ap.add_argument("--runs", type=int, default=5, help="versus-red-notice: runs, the median ratio is reported")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--stacked", action="store_true", help="the rulebook's variant (F15)")
    a = ap.parse_args()
    if a.what == "ladder":
        return 0 if ladder(a.games, a.players[0], a.seed, {"stacked": a.stacked}) else 1
    if a.what == "games":
        games_only(a.game, a.games, a.players[0] if a.game == "fbi" else 2, a.seed)
        return 0
    if a.what == "versus-red-notice":
        versus_red_notice(a.games, a.seed, a.runs)
        return 0
    speed(a.games, a.players, a.seed, a.stacked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
