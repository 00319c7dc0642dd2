"""The engine without the players: building the deciding seat's view, and
the rules alone (the same answers replayed on a fresh game, no view, no
strategy). Expert games (Red Notice, FBI at 4 players), played once in
``setup`` with the history recorded; CPU time per game's worth of views or
of rules.
"""

from __future__ import annotations

import random
import time
from typing import Any

#: games recorded, the same in both modes (the times are per this many games)
GAMES = 20


def record_games(game_name: str, games: int) -> tuple[Any, Any, Any, list[tuple[int, list[tuple[Any, int]], list[Any]]]]:
    """Expert games 0.. of master seed 0: per game its chance seed, the state
    (a clone) and seat at each decision, and the answers given."""
    from rnsim.games import get_game
    from rnsim.seeding import game_seeds
    from rnsim.strategy import load_strategy

    g = get_game(game_name)
    rules = g.rules({})
    setup = None if game_name == "red_notice" else 4
    seats = g.seats(rules, setup)
    out = []
    for i in range(games):
        seeds = game_seeds(0, i, len(seats))
        strategies = [load_strategy("expert", None, g) for _ in seats]
        for seat, (s, x) in enumerate(zip(strategies, seeds.seats, strict=True)):
            s.new_game(seat, random.Random(x))
        state = g.new_state(rules, random.Random(seeds.chance), setup=setup, seed=seeds.chance)
        at: list[tuple[Any, int]] = []
        answers: list[Any] = []
        while not state.over:
            d = state.pending
            at.append((state.clone(), d.seat))
            answers.append(strategies[d.seat].choose(g.view(state, d.seat), d))
            state.apply(answers[-1])
        out.append((seeds.chance, at, answers))
    return g, rules, setup, out


class Engine:
    """The CPU seconds of every view 20 expert games ask for, and of their
    rules alone."""

    timer = time.process_time
    params = [["red_notice", "fbi"]]
    param_names = ["game"]
    timeout = 600

    def setup(self, game: str) -> None:
        self.g, self.rules, self.setup_value, self.recorded = record_games(game, GAMES)

    def time_views(self, game: str) -> None:
        view = self.g.view
        for _, at, _ in self.recorded:
            for state, seat in at:
                view(state, seat)

    def time_rules(self, game: str) -> None:
        g, rules, setup = self.g, self.rules, self.setup_value
        for chance, _, answers in self.recorded:
            state = g.new_state(rules, random.Random(chance), setup=setup, seed=chance)
            for a in answers:
                state.apply(a)
