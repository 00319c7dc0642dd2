"""The strategies' map helpers (strategies/red_notice/board.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rnsim_strategies.red_notice.board import FAR, board_for

from rnsim.games.red_notice.game import GAME

BOARD = board_for(GAME.rules().load_components())


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_staggered_dist_is_the_least_start_layer_plus_steps_over_open_routes(seed: int) -> None:
    # The way to a cash (the expert forger's and the dossier's): per city,
    # min over the start cities t of t's layer + the steps from t over routes
    # without a barrier, by brute force: one search per start city.
    rng = random.Random(seed)
    b = BOARD
    barriers = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in range(len(b.comps.routes)))
    starts = [0] * rng.randint(1, 5)
    for t in rng.sample(range(b.n), rng.randint(0, 12)):
        starts[rng.randrange(len(starts))] |= 1 << t
    want = [FAR] * b.n
    for k, mask in enumerate(starts):
        for t in range(b.n):
            if not mask >> t & 1:
                continue
            steps = {t: k}
            layer = [t]
            while layer:
                nxt = []
                for x in layer:
                    for y, r in b.nbr_routes[x]:
                        if not barriers[r] and y not in steps:
                            steps[y] = steps[x] + 1
                            nxt.append(y)
                layer = nxt
            for x, n in steps.items():
                want[x] = min(want[x], n)
    assert b.staggered_dist(starts, barriers) == want
