"""Experiments for Jessah's seat: the expert agent hunting on
other models of where the forger is. Not built-in players; they are probes
for ``rnsim exploit``, run from the repository root:

    PYTHONPATH=. rnsim exploit --probes none --probe jessah=benchmarks.hunt_models:WalkHunter \
        --probe jessah=benchmarks.hunt_models:AwayHunter --games 4000 --seed 11 --workers 1

Each is the expert with one change: the inspection path she hunts weighs
each city of the belief by a model's probability instead of counting it
(the expert counts the cities of the set-valued belief, those of a radar
removal's focus LEAK times). The path search, its tie-breaks (the path
ending closest to where the forger can go next) and its mixing among
near-equal paths are the expert's.

- ``WalkHunter``: the weighted public belief (``weighted.Tracker``, leak 10:
  a forger walking at random, the removal leak read as the expert does).
- ``AwayHunter`` (and ``AwayHunter05``, ``AwayHunter09``, ``AwayHunter13``):
  the expert's own belief times e^(avoid x distance from Jessah), the
  ``avoid`` prior of ``search`` (the expert forger keeps away from Jessah),
  at avoid 0.7 (0.5, 0.9, 1.3). ``AwayHunter0`` (avoid 0) is the expert up
  to rounding.
"""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar

from rnsim_strategies.red_notice.board import Board
from rnsim_strategies.red_notice.expert import Expert

from rnsim.games.red_notice.engine.decision import Decision, Option
from rnsim.games.red_notice.engine.view import View
from rnsim.games.red_notice.engine.weighted import Tracker

Path = tuple[float, int, tuple[int, ...]]


class _ModelHunter(Expert):
    uses_history = False

    def weights(self, view: View, b: Board) -> list[float]:
        raise NotImplementedError

    def _best_path(self, view: View, b: Board, start: int, steps: int) -> Path:
        if view.seat == 0:
            return super()._best_path(view, b, start, steps)  # type: ignore[no-any-return]
        belief = view.belief
        w = [p if belief >> c & 1 else 0.0 for c, p in enumerate(self.weights(view, b))]
        if sum(w) <= 0:
            return super()._best_path(view, b, start, steps)  # type: ignore[no-any-return]
        # the expert's path search with city c worth its probability
        return Expert._weighted_path(b, belief, start, steps, w, self._hunt_mix)


class WalkHunter(_ModelHunter):
    name = "walk_hunter"

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self._tracker = Tracker(leak=10.0)
        self._w: list[float] = []

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        self._tracker.reset()

    def choose(self, view: View, decision: Decision) -> Option:
        if view.seat == 1:  # every view, so that no public event is missed
            self._w = self._tracker.observe(view)
        return super().choose(view, decision)

    def weights(self, view: View, b: Board) -> list[float]:
        return self._w


class AwayHunter(_ModelHunter):
    name = "away_hunter"
    AVOID: ClassVar[float] = 0.7

    def weights(self, view: View, b: Board) -> list[float]:
        focus = self._leak_focus & view.belief
        row = b.dist[view.jessah_city]
        return [(self._leak_ratio if focus >> c & 1 else 1.0) * math.exp(self.AVOID * row[c]) for c in range(b.n)]


class AwayHunter0(AwayHunter):
    AVOID = 0.0


class AwayHunter05(AwayHunter):
    AVOID = 0.5


class AwayHunter09(AwayHunter):
    AVOID = 0.9


class AwayHunter13(AwayHunter):
    AVOID = 1.3
