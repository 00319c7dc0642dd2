"""Jessah's hunt, radar and barriers on her dossier's weights run in C with
the compiled build (strategies/red_notice/_dossier_core.c ``hunt``,
``spread`` and ``barriers``): each must answer exactly what its Python twin
answers (``Expert._weighted_path``, ``Expert._spread`` and
``Expert._weighted_barriers``, what ``RNSIM_PURE=1`` plays): the same first step, the same near-equal first steps and the same
floats bit for bit, on any belief, weights, barriers and settings.
tests/games/red_notice/test_dossier_core.py holds them to their twins on
every call of real expert games too."""

from __future__ import annotations

import random
from typing import Any

import pytest
import rnsim_strategies.red_notice as strategies
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rnsim_strategies.red_notice import dossier as dossier_module
from rnsim_strategies.red_notice.board import board_for
from rnsim_strategies.red_notice.expert import Expert

from rnsim.games.red_notice.game import GAME

COMPS = GAME.rules().load_components()
B = board_for(COMPS)

pytestmark = pytest.mark.skipif(not strategies.NATIVE,
                                reason="no fresh compiled build of the strategies (scripts/build_native.py)")


def _core() -> Any:
    core = dossier_module.core
    assert core is not None, "the compiled build is in use but the dossier's C core is not"
    return core


def _weights(rng: random.Random, belief: int, zeros: float) -> list[float]:
    """Weights over the belief's cities (some zero), summing to about 1,
    and a little off it (as the dossier's floor leaves)."""
    w = [0.0] * B.n
    for c in range(B.n):
        if rng.random() < zeros:
            continue
        w[c] = rng.random() if belief >> c & 1 else rng.random() * 1e-3
    total = sum(w)
    return [x / total for x in w] if total > 0 else w


def _map_state(rng: random.Random, size: int) -> tuple[int, list[int]]:
    """A belief of about ``size`` cities and the open routes' masks of some barriers."""
    belief = 0
    for c in rng.sample(range(B.n), size):
        belief |= 1 << c
    barriers = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in COMPS.routes)
    return belief, list(B.open_masks(barriers))


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(0, 20), steps=st.integers(-1, 6),
       mix=st.sampled_from((0.0, 0.3, 0.05, 2.0)), ahead=st.sampled_from((0.0, 0.3, 1.0, -0.5)),
       reach=st.integers(0, 12), zeros=st.sampled_from((0.0, 0.3, 1.0)))
@example(seed=0, size=1, steps=1, mix=0.3, ahead=0.3, reach=2, zeros=0.0)
@example(seed=5, size=6, steps=4, mix=0.3, ahead=0.0, reach=2, zeros=0.0)
def test_the_c_hunt_is_the_python_one(seed, size, steps, mix, ahead, reach, zeros):
    core = _core()
    rng = random.Random(seed)
    belief, masks = _map_state(rng, size)
    w = _weights(rng, belief, zeros)
    start = rng.randrange(B.n)
    t = dossier_module._tables(B)
    got = core.hunt(t, belief, start, steps, w, mix, ahead, reach, masks)
    want = Expert._weighted_path(B, belief, start, steps, w, mix, ahead, reach, masks)
    assert got == want
    assert [type(x) for x in got] == [float, int, tuple]


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(1, 30), steps=st.integers(0, 4),
       zeros=st.sampled_from((0.0, 0.5)))
def test_the_c_spread_is_the_python_one(seed, size, steps, zeros):
    core = _core()
    rng = random.Random(seed)
    belief, masks = _map_state(rng, size)
    w = _weights(rng, belief, zeros)
    got = core.spread(w, masks, steps)
    assert got == Expert._spread(w, masks, steps)
    assert all(type(x) is float for x in got)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(0, 32), zeros=st.sampled_from((0.0, 0.5, 1.0)),
       off=st.booleans())
def test_the_c_barrier_scores_are_the_python_ones(seed, size, zeros, off):
    core = _core()
    rng = random.Random(seed)
    belief, masks = _map_state(rng, size)
    w = _weights(rng, belief, zeros)
    if not off:  # only the belief's cities weigh: routes out of it score
        w = [x if belief >> c & 1 else 0.0 for c, x in enumerate(w)]
    t = dossier_module._tables(B)
    got = core.barriers(t, w, masks, len(B.route_ends), Expert.SECURITY_WEIGHT)
    assert got == Expert()._weighted_barriers(B, w, masks)
    assert all(type(x) is float for x in got)


def test_what_the_c_hunt_and_spread_cannot_read_is_left_to_python():
    """None (the caller then runs the Python twin) for inputs outside what
    the C holds: a belief past the map, weights that are not n floats, a
    negative reach, masks past the weights, more than 64 weights."""
    core = _core()
    t = dossier_module._tables(B)
    n = B.n
    w = [1.0 / n] * n
    masks = list(B.open_masks((0,) * len(COMPS.routes)))
    assert core.hunt(t, 1 << n, 0, 3, w, 0.3, 0.3, 2, masks) is None
    assert core.hunt(t, 1 << 70, 0, 3, w, 0.3, 0.3, 2, masks) is None
    assert core.hunt(t, 3, 0, 3, w[:-1], 0.3, 0.3, 2, masks) is None
    assert core.hunt(t, 3, 0, 3, [1] * n, 0.3, 0.3, 2, masks) is None
    assert core.hunt(t, 3, 0, 3, w, 0.3, 0.3, -1, masks) is None
    assert core.hunt(t, 3, 0, 3, w, 0.3, 0.3, 2, ()) is None
    assert core.hunt(t, 3, n, 3, w, 0.3, 0.3, 2, masks) is None
    assert core.hunt(t, 3, 0, 3, w, 0.3, 0.3, 2, masks) is not None
    assert core.spread([0.5, 0.5], [1 << 2, 0], 1) is None
    assert core.spread([1.0] * 65, [0] * 65, 1) is None
    assert core.spread([1, 0.5], [2, 1], 1) is None
    assert core.spread([0.5, 0.5], [2, 1], 1) == [0.5, 0.5]
    nr = len(B.route_ends)
    assert core.barriers(t, w[:-1], masks, nr, 10.0) is None
    assert core.barriers(t, [1] * n, masks, nr, 10.0) is None
    assert core.barriers(t, w, masks, nr + 1, 10.0) is None
    assert core.barriers(t, w, [1 << n] * n, nr, 10.0) is None
    assert core.barriers(t, w, masks, nr, 10.0) is not None
