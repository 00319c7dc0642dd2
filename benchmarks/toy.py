"""The yardstick: a plain Python loop of a toy two-player race game.

Its games per CPU-second measure how fast this machine runs ordinary Python
(attribute access, small lists, method calls, draws of ``random.Random``)
at the moment of a measurement. The suite divides an rnsim rate by the toy's
rate measured in the same run, interleaved with it, so the ratio moves with
rnsim's code and much less with the machine or its load.

The game, fixed once for all (changing it breaks the history of every
ratio): two racers on an 80-square track, seat 0 first. Each turn the mover
draws a card (1-6) from a shuffled 36-card deck (reshuffled when empty) and
picks one of its legal moves with its own stream: forward by the card, by
half of it, or (on an even card) back by one. Landing on the other racer
sends it to the start. The first at square 80 wins; a game stops after 200
turns. A game lasts about 40 rounds, as long as a random Red Notice game.
"""

from __future__ import annotations

import random
import time

TRACK = 80
MAX_TURNS = 200
DECK = [v for v in range(1, 7) for _ in range(6)]


class _Race:
    __slots__ = ("chance", "deck", "pos", "turn", "winner")

    def __init__(self, seed: int) -> None:
        self.chance = random.Random(seed)
        self.deck: list[int] = []
        self.pos = [0, 0]
        self.turn = 0
        self.winner = -1

    @property
    def over(self) -> bool:
        return self.winner >= 0 or self.turn >= MAX_TURNS

    def draw(self) -> int:
        if not self.deck:
            self.deck = DECK[:]
            self.chance.shuffle(self.deck)
        return self.deck.pop()

    def options(self, card: int) -> list[int]:
        opts = [card, max(1, card // 2)]
        if card % 2 == 0 and self.pos[self.turn % 2] > 0:
            opts.append(-1)
        return opts

    def apply(self, step: int) -> None:
        me = self.turn % 2
        here = min(TRACK, self.pos[me] + step)
        self.pos[me] = here
        if here == self.pos[1 - me] and here > 0:
            self.pos[1 - me] = 0
        if here >= TRACK:
            self.winner = me
        self.turn += 1


def play(seed: int) -> tuple[int, int]:
    """One toy game: (winner or -1, turns)."""
    g = _Race(seed)
    movers = [random.Random(seed * 2 + 1), random.Random(seed * 2 + 2)]
    while not g.over:
        card = g.draw()
        opts = g.options(card)
        g.apply(movers[g.turn % 2].choice(opts))
    return g.winner, g.turn


def cpu_seconds(games: int, first: int = 0) -> float:
    """CPU seconds of this process to play toy games ``first`` .. ``first + games - 1``."""
    t = time.process_time()
    for i in range(first, first + games):
        play(i)
    return time.process_time() - t
