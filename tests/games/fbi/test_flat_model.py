"""The FBI expert's flat positions (one list of ints per position) play and
score exactly as the table-of-lists model: ``flat_turns`` as ``play_out``
over a turn, ``flat_score`` as ``evaluate`` to the bit (exact weights or
not), ``flat_given_up`` as ``evaluate`` with my bid card taken off, with or
without the bonus-card shortcut."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rnsim_strategies.fbi.model import (
    evaluate,
    exact_scores,
    flat_given_up,
    flat_position,
    flat_score,
    flat_top,
    flat_turns,
    flat_turns_held,
    front_first,
    leader,
    led_score,
    play_out,
)

from rnsim.games.fbi.components import load_components

COMPS = load_components("classic")
K = len(COMPS.colours)
values = st.integers(min_value=-4, max_value=7)
tables = st.lists(st.lists(values, max_size=4), min_size=K, max_size=K)
weights = st.sampled_from([0.0, 0.1, 0.25, 0.3, 0.5, 1.0])


def agents(k: int) -> st.SearchStrategy[list[int]]:
    """What a seat holds: nothing, one agent, two, or a 2x pair (a colour twice)."""
    colour = st.integers(min_value=0, max_value=k - 1)
    return st.one_of(st.just([]), st.lists(colour, min_size=1, max_size=1), st.lists(colour, min_size=2, max_size=2))


def unflat(flat: list[int], n: int) -> tuple[list[list[int]], list[int]]:
    return [flat[c * n:(c + 1) * n] for c in range(K)], flat[K * n:K * n + n]


@settings(max_examples=300, deadline=None)
@given(data=st.data(), table=tables, stacked=st.booleans(), n=st.integers(min_value=3, max_value=5))
def test_flat_turns_play_as_play_out(data: st.DataObject, table: list[list[int]], stacked: bool, n: int) -> None:
    if not stacked:
        table = [sorted(t, reverse=True) for t in table]
    order = tuple(data.draw(st.permutations(list(range(n)))))
    me = data.draw(st.integers(min_value=0, max_value=n - 1))
    pairs = data.draw(st.lists(agents(K), max_size=4))
    rule = data.draw(agents(K))
    points = data.draw(st.lists(values, min_size=n, max_size=n))
    totals = data.draw(st.lists(st.lists(values, min_size=n, max_size=n), min_size=K, max_size=K))
    base = flat_position(totals, points)
    before = base[:]
    got = flat_turns(order, me, pairs, rule, front_first(table, stacked), base)
    assert base == before  # the start position is not changed
    assert len(got) == len(pairs)
    for mine, flat in zip(pairs, got, strict=True):
        held = [list(rule) for _ in range(n)]
        held[me] = list(mine)
        t, tot, pts = [c[:] for c in table], [c[:] for c in totals], points[:]
        play_out(list(order) + list(reversed(order)), held, t, tot, pts, stacked)
        assert unflat(flat, n) == (tot, pts)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), table=tables, stacked=st.booleans(), n=st.integers(min_value=3, max_value=5))
def test_flat_turns_held_play_as_play_out(data: st.DataObject, table: list[list[int]], stacked: bool, n: int) -> None:
    """Each rival holding his own agents (the field-agent pick's play-outs)."""
    if not stacked:
        table = [sorted(t, reverse=True) for t in table]
    order = tuple(data.draw(st.permutations(list(range(n)))))
    me = data.draw(st.integers(min_value=0, max_value=n - 1))
    pairs = data.draw(st.lists(agents(K), max_size=4))
    rivals = [data.draw(agents(K)) for _ in range(n)]
    points = data.draw(st.lists(values, min_size=n, max_size=n))
    totals = data.draw(st.lists(st.lists(values, min_size=n, max_size=n), min_size=K, max_size=K))
    base = flat_position(totals, points)
    before = base[:]
    got = flat_turns_held(order, me, pairs, rivals, front_first(table, stacked), base)
    assert base == before  # the start position is not changed
    assert len(got) == len(pairs)
    for mine, flat in zip(pairs, got, strict=True):
        held = [list(r) for r in rivals]
        held[me] = list(mine)
        t, tot, pts = [c[:] for c in table], [c[:] for c in totals], points[:]
        play_out(list(order) + list(reversed(order)), held, t, tot, pts, stacked)
        assert unflat(flat, n) == (tot, pts)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(min_value=3, max_value=5), needs=st.booleans(), weight=weights)
def test_flat_scores_are_evaluate(data: st.DataObject, n: int, needs: bool, weight: float) -> None:
    columns = st.lists(st.lists(st.integers(-6, 12), min_size=n, max_size=n), min_size=K, max_size=K)
    states = [flat_position(data.draw(columns), data.draw(st.lists(st.integers(-10, 40), min_size=n, max_size=n)))
              for _ in range(data.draw(st.integers(0, 4)))]
    me = data.draw(st.integers(min_value=0, max_value=n - 1))
    colour = data.draw(st.integers(min_value=-1, max_value=K - 1))  # -1: a purple card
    x = data.draw(st.integers(-3, 5).filter(bool))
    bonus = COMPS.bonus

    def plain(flat: list[int], off: int) -> float:
        tot, pts = unflat(flat, n)
        pts[me] -= off
        if colour >= 0:
            tot[colour][me] -= off
        return evaluate(me, tot, pts, bonus, weight, needs)

    lead = [0] * K
    for flat in states:
        assert flat_score(me, flat, n, K, bonus, weight, needs, lead) == plain(flat, 0)
        # the leaders it leaves in ``lead`` are the rules' (F11), as ``led_score`` reads them
        assert lead == [leader(col, needs) for col in unflat(flat, n)[0]]
        assert led_score(me, flat, n, K, bonus, weight, lead) == plain(flat, 0)
    scores: list[float] = []
    leads: list[list[int]] = []
    top = flat_top(me, states, n, K, bonus, weight, needs, scores, leads)
    assert scores == [plain(f, 0) for f in states]
    assert top == max(scores, default=-1e9)
    before = [f[:] for f in states]
    expected = max((plain(f, x) for f in states), default=-1e9)
    assert flat_given_up(me, states, n, K, bonus, weight, needs, lead, colour, x, None, leads) == expected
    if exact_scores(weight, bonus):  # the bonus-card shortcut: exact, so the same to the bit
        assert flat_given_up(me, states, n, K, bonus, weight, needs, lead, colour, x, scores, leads) == expected
    assert states == before  # left as they were


def test_the_pick_models_fixed_stream_draws_as_random_0() -> None:
    """The model's fixed stream gives random.Random(0)'s draws from the
    start, each time it is asked for, also beyond the draws it keeps."""
    import random

    from rnsim_strategies.fbi import expert

    zero = random.Random(0)
    want = [zero.random() for _ in range(3000)]
    for draws in (5, 40, 3000, 7):  # 3000 extends the kept draws
        stream = expert._zero_stream(draws)
        assert [stream() for _ in range(draws)] == want[:draws]
        with pytest.raises(IndexError):  # no draw beyond those asked for
            stream()
