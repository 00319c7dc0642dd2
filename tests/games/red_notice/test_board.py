"""The strategies' map helpers (strategies/red_notice/board.py)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from rnsim_strategies.red_notice.board import FAR, Board, board_for

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


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32))
def test_dist_to_mask_is_the_least_distance_to_a_city_of_the_mask(seed: int) -> None:
    rng = random.Random(seed)
    b = Board(BOARD.comps)  # a fresh cache: the question is computed
    mask = 0
    for t in rng.sample(range(b.n), rng.randint(0, 8)):
        mask |= 1 << t
    want = tuple(min((b.dist[t][x] for t in range(b.n) if mask >> t & 1), default=FAR) for x in range(b.n))
    assert b.dist_to_mask(mask) == want


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_barred_and_open_masks_follow_the_barriers_asked_not_the_last_ones(seed: int) -> None:
    # Both remember the last tuple asked: a new tuple (equal or not) must be
    # answered for itself.
    rng = random.Random(seed)
    b = Board(BOARD.comps)
    n_routes = len(b.route_ends)
    for _ in range(4):
        barriers = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in range(n_routes))
        for asked in (barriers, tuple(list(barriers))):  # the tuple, then an equal copy
            assert b.barred(asked) == sum(1 << r for r in range(n_routes) if asked[r])
            want = list(b.nbr_mask)
            for r in range(n_routes):
                if asked[r]:
                    x, y = b.route_ends[r]
                    want[x] &= ~(1 << y)
                    want[y] &= ~(1 << x)
            assert b.open_masks(asked) == want
