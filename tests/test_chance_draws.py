"""The engines' chance draws (rnsim/chance/draws.py) are the standard
library's, draw for draw: a game's seed keeps meaning the same game, in the
compiled build and the Python source alike."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rnsim.chance import draws


@given(seed=st.integers(0, 2**64 - 1), sizes=st.lists(st.integers(1, 300), min_size=1, max_size=30))
@settings(max_examples=200, deadline=None)
def test_below_and_shuffle_draw_what_randrange_and_shuffle_draw(seed: int, sizes: list[int]) -> None:
    ours, lib = random.Random(seed), random.Random(seed)
    for n in sizes:
        assert draws.below(ours, n) == lib.randrange(n)
        deck, ref = list(range(n)), list(range(n))
        draws.shuffle(ours, deck)
        lib.shuffle(ref)
        assert deck == ref
    assert ours.getstate() == lib.getstate()


@given(seed=st.integers(0, 2**64 - 1), n=st.integers(1, 40), data=st.data())
@settings(max_examples=200, deadline=None)
def test_take_pops_what_randrange_picks(seed: int, n: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, n))
    ours, lib = random.Random(seed), random.Random(seed)
    pool, ref = list(range(n)), list(range(n))
    assert draws.take(ours, pool, k) == [ref.pop(lib.randrange(len(ref))) for _ in range(k)]
    assert pool == ref and ours.getstate() == lib.getstate()


def test_both_engines_draw_with_them() -> None:
    from rnsim.games.fbi import state as fbi_state
    from rnsim.games.red_notice.engine import state as rn_state

    assert fbi_state.shuffle is draws.shuffle
    assert rn_state.take is draws.take and rn_state.shuffle is draws.shuffle
