"""The FBI expert's flat play-outs and scores in C (strategies/fbi/
_flat_core.c, used with the compiled build as ``model.core``) do exactly what
their Python twins in strategies/fbi/model.py do: the same end positions, the
same floats bit for bit, the same leaders, the same draws from the stream and
the same memo, on random tables and on every call of real expert games at 3,
4 and 5 players. Where the C answers None (an input outside what it handles)
the Python source answers, so that is checked too."""

from __future__ import annotations

import copy
import random
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import rnsim_strategies.fbi as strategies
from hypothesis import given, settings
from hypothesis import strategies as st
from rnsim_strategies.fbi import model
from rnsim_strategies.fbi.expert import ExpertStrategy
from rnsim_strategies.fbi.model import exact_scores, flat_position, front_first, softmax_cumulative

from rnsim.games.fbi.components import load_components
from rnsim.games.fbi.game import GAME, play

pytestmark = pytest.mark.skipif(not strategies.NATIVE,
                                reason="no fresh compiled build of the FBI strategies (`make native`)")

COMPS = load_components("classic")
K = len(COMPS.colours)
values = st.integers(min_value=-4, max_value=7)
tables = st.lists(st.lists(values, max_size=4), min_size=K, max_size=K)
weights = st.sampled_from([0.0, 0.1, 0.25, 0.3, 0.5, 1.0])
NAMES = ("colour_totals", "fictitious_play", "contest", "held_tables", "held_scores", "first_sums", "first_scores", "best_bid", "flat_turns",
         "flat_top", "flat_given_up")
#: the steps of another function's Python twin, which real games meet only
#: where that function's C declines: the random tables check them
STEPS = ("held_scores", "held_tables", "first_scores", "flat_turns", "flat_top", "flat_given_up")


def _core() -> Any:
    core = model.core
    assert core is not None, "the compiled build is in use but the model's C core is not"
    return core


@contextmanager
def _pure() -> Iterator[None]:
    """The model's Python source alone, for a while (the reference)."""
    saved = model.core
    model.core = None
    try:
        yield
    finally:
        model.core = saved


def _python(name: str) -> Callable[..., Any]:
    return getattr(model, name)  # type: ignore[no-any-return]


def agents(k: int) -> st.SearchStrategy[list[int]]:
    colour = st.integers(min_value=0, max_value=k - 1)
    return st.one_of(st.just([]), st.lists(colour, min_size=1, max_size=1), st.lists(colour, min_size=2, max_size=2))


def _turn(data: st.DataObject, table: list[list[int]], stacked: bool, n: int, k: int = K) -> tuple[Any, ...]:
    if not stacked:
        table = [sorted(t, reverse=True) for t in table]
    order = tuple(data.draw(st.permutations(list(range(n)))))
    me = data.draw(st.integers(min_value=0, max_value=n - 1))
    pairs = data.draw(st.lists(agents(k), min_size=1, max_size=6))
    points = data.draw(st.lists(values, min_size=n, max_size=n))
    totals = data.draw(st.lists(st.lists(values, min_size=n, max_size=n), min_size=k, max_size=k))
    return order, me, pairs, front_first(table, stacked), totals, points


def _same(name: str, *args: Any) -> Any:
    """Calls the C function and its Python twin on copies of ``args``: the
    same answer and the same changes to the arguments; returns the answer."""
    mine = copy.deepcopy(args)
    got = getattr(_core(), name)(*mine)
    theirs = copy.deepcopy(args)
    with _pure():
        want = _python(name)(*theirs)
    assert got is not None, f"{name} declined an input inside its range"
    assert type(got) is type(want)
    assert got == want, name
    assert mine == theirs, f"{name}: the arguments changed differently"
    return got


@settings(max_examples=300, deadline=None)
@given(data=st.data(), table=tables, stacked=st.booleans(), n=st.integers(min_value=3, max_value=5),
       needs=st.booleans(), weight=weights)
def test_play_outs_and_scores_are_their_twins(data: st.DataObject, table: list[list[int]], stacked: bool, n: int,
                                              needs: bool, weight: float) -> None:
    order, me, pairs, front, totals, points = _turn(data, table, stacked, n)
    base = flat_position(totals, points)
    held = [data.draw(agents(K)) for _ in range(n)]
    bonus = COMPS.bonus
    got = _same("held_scores", order, me, pairs, held, front, base, bonus, weight, needs)
    assert isinstance(got, tuple) and len(got) == len(pairs)
    step = order.index(me)
    mine = data.draw(st.lists(st.integers(min_value=0, max_value=K - 1), min_size=2, max_size=2))
    firsts = data.draw(st.lists(st.sampled_from(mine), max_size=3))
    got = _same("first_scores", order, me, step, firsts, mine, held, front, totals, points, bonus, weight, needs)
    assert isinstance(got, list) and len(got) == len(firsts)
    others = data.draw(agents(K))
    states = _same("flat_turns", order, me, pairs, others, front, base)
    scores: list[float] = []
    leads: list[list[int]] = []
    top = _core().flat_top(me, states, n, K, bonus, weight, needs, scores, leads)
    with _pure():
        scores2: list[float] = []
        leads2: list[list[int]] = []
        assert model.flat_top(me, states, n, K, bonus, weight, needs, scores2, leads2) == top
    assert (scores, leads) == (scores2, leads2)
    colour = data.draw(st.integers(min_value=-1, max_value=K - 1))
    x = data.draw(st.integers(-3, 5).filter(bool))
    for given_scores in (None, scores) if exact_scores(weight, bonus) else (None,):
        lead = [0] * K
        _same("flat_given_up", me, states, n, K, bonus, weight, needs, lead, colour, x, given_scores, leads)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), table=tables, stacked=st.booleans(), n=st.integers(min_value=3, max_value=5),
       needs=st.booleans(), weight=weights)
def test_the_bids_choice_is_its_twins(data: st.DataObject, table: list[list[int]], stacked: bool, n: int,
                                      needs: bool, weight: float) -> None:
    """The bid's choice among options that give up cards of any value and
    colour (purple: -1) for any place: the same index, exact scores or not,
    and the position and pairs left as they were."""
    order, me, pairs, front, totals, points = _turn(data, table, stacked, n)
    rest = [s for s in order if s != me]
    count = data.draw(st.integers(min_value=1, max_value=8))
    values_ = [data.draw(st.integers(-4, 7)) for _ in range(count)]
    colours = [data.draw(st.integers(-1, K - 1)) for _ in range(count)]
    places = [data.draw(st.integers(0, n - 1)) for _ in range(count)]
    keep = data.draw(st.integers(-1, count - 1))
    others = data.draw(agents(K))
    got = _same("best_bid", rest, me, places, values_, colours, keep, pairs, others, front,
                flat_position(totals, points), COMPS.bonus, weight, needs)
    assert -1 <= got < count


@settings(max_examples=200, deadline=None)
@given(data=st.data(), stacked=st.booleans(), n=st.integers(min_value=2, max_value=8),
       k=st.integers(min_value=1, max_value=12), needs=st.booleans(), weight=weights)
def test_play_outs_at_every_size_are_their_twins(data: st.DataObject, stacked: bool, n: int, k: int, needs: bool,
                                                 weight: float) -> None:
    """Held scores and the bid's choice at every count of seats (up to 8)
    and colours (up to 12) the C takes, not only the classic set's five
    colours at 3-5 seats its play-outs are specialised for."""
    table = data.draw(st.lists(st.lists(values, max_size=4), min_size=k, max_size=k))
    order, me, pairs, front, totals, points = _turn(data, table, stacked, n, k)
    bonus = tuple(data.draw(st.lists(values, min_size=k, max_size=k)))
    base = flat_position(totals, points)
    held = [data.draw(agents(k)) for _ in range(n)]
    got = _same("held_scores", order, me, pairs, held, front, base, bonus, weight, needs)
    assert isinstance(got, tuple) and len(got) == len(pairs)
    count = data.draw(st.integers(min_value=1, max_value=8))
    options = [[data.draw(st.integers(-4, 7)) for _ in range(count)], [data.draw(st.integers(-1, k - 1))
                                                                        for _ in range(count)],
               [data.draw(st.integers(0, n - 1)) for _ in range(count)]]
    keep = data.draw(st.integers(-1, count - 1))
    rest = [s for s in order if s != me]
    got = _same("best_bid", rest, me, options[2], options[0], options[1], keep, pairs, data.draw(agents(k)), front,
                base, bonus, weight, needs)
    assert -1 <= got < count


@settings(max_examples=200, deadline=None)
@given(data=st.data(), table=tables, stacked=st.booleans(), n=st.integers(min_value=3, max_value=5),
       needs=st.booleans(), weight=weights, samples=st.integers(min_value=1, max_value=8),
       seed=st.integers(min_value=0, max_value=2**32))
def test_contest_draws_and_scores_as_its_twin(data: st.DataObject, table: list[list[int]], stacked: bool, n: int,
                                              needs: bool, weight: float, samples: int, seed: int) -> None:
    order, me, pairs, front, totals, points = _turn(data, table, stacked, n)
    m = len(pairs)
    temperature = data.draw(st.sampled_from([0.0, 0.5, 2.0]))
    cums = [softmax_cumulative([float(data.draw(values)) for _ in range(m)], temperature) for _ in range(n)]
    memo: dict[int, bytes] = {}
    twin_memo: dict[int, bytes] = {}
    rng, twin_rng = random.Random(seed), random.Random(seed)
    for _ in range(2):  # the second call meets tables the first kept
        got = _core().contest(order, me, pairs, cums, memo, samples, rng.random, front, totals, points,
                              COMPS.bonus, weight, needs)
        with _pure():
            want = model.contest(order, me, pairs, cums, twin_memo, samples, twin_rng.random, front, totals, points,
                                 COMPS.bonus, weight, needs)
        assert got == want
        assert memo == twin_memo
        assert rng.getstate() == twin_rng.getstate()


@settings(max_examples=150, deadline=None)
@given(data=st.data(), table=tables, stacked=st.booleans(), n=st.integers(min_value=3, max_value=5),
       needs=st.booleans(), weight=weights, samples=st.integers(min_value=1, max_value=6),
       rounds=st.integers(min_value=1, max_value=4), seed=st.integers(min_value=0, max_value=2**32))
def test_fictitious_play_draws_and_mixes_as_its_twin(data: st.DataObject, table: list[list[int]], stacked: bool,
                                                    n: int, needs: bool, weight: float, samples: int, rounds: int,
                                                    seed: int) -> None:
    """The rounds of the field-agent pick's model: the same mixes and odds to
    the bit, the same draws from the stream and the same memo."""
    order, _, pairs, front, totals, points = _turn(data, table, stacked, n)
    temperatures = st.sampled_from([0.0, 0.25, 0.5, 1.0, 2.0])
    start = softmax_cumulative([float(data.draw(values)) for _ in pairs], data.draw(temperatures))
    knobs = (rounds, data.draw(temperatures), data.draw(temperatures), data.draw(st.sampled_from([0.0, 0.3, 0.5, 1.0])))
    memo: dict[int, bytes] = {}
    twin_memo: dict[int, bytes] = {}
    rng, twin_rng = random.Random(seed), random.Random(seed)
    got = _core().fictitious_play(order, pairs, start, memo, samples, rng.random, front, totals, points, COMPS.bonus,
                                  weight, needs, *knobs)
    with _pure():
        want = model.fictitious_play(order, pairs, start, twin_memo, samples, twin_rng.random, front, totals, points,
                                     COMPS.bonus, weight, needs, *knobs)
    assert got is not None, "fictitious_play declined an input inside its range"
    assert got == want
    mixes, odds = got
    assert len(mixes) == len(odds) == n and all(len(row) == len(pairs) for row in mixes + odds)
    assert memo == twin_memo and len(memo) > 0
    assert rng.getstate() == twin_rng.getstate()


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(min_value=3, max_value=5), samples=st.integers(min_value=0, max_value=6),
       seed=st.integers(min_value=0, max_value=2**32))
def test_held_tables_draw_as_their_twin(data: st.DataObject, n: int, samples: int, seed: int) -> None:
    """The arrests' sampled agents: the same tables (new tables holding the
    given lists themselves, which stay unchanged) and the same draws from
    the stream."""
    me = data.draw(st.integers(min_value=0, max_value=n - 1))
    mine = data.draw(agents(K))
    choices: list[list[list[int]]] = []
    cums: list[list[float]] = []
    for _ in range(n):
        kept = data.draw(st.lists(agents(K), max_size=6))
        choices.append(kept)
        cums.append(softmax_cumulative([float(data.draw(values)) for _ in kept], data.draw(st.sampled_from([0.0, 2.0]))))
    rng, twin_rng = random.Random(seed), random.Random(seed)
    before = copy.deepcopy((mine, choices, cums))
    got = _core().held_tables(me, mine, choices, cums, samples, rng.random)
    with _pure():
        want = model.held_tables(me, mine, choices, cums, samples, twin_rng.random)
    assert got is not None and got == want
    assert (mine, choices, cums) == before
    assert rng.getstate() == twin_rng.getstate()
    assert len(got) == samples and all(len(table) == n and table[me] is mine for table in got)
    for table in got:  # a seat's agents are the list drawn, not a copy (nor the twin's)
        for s in range(n):
            held = table[s]
            assert s == me or (any(held is kept for kept in choices[s]) if cums[s] else held == [])
    assert all(got[i] is not got[j] for i in range(samples) for j in range(i))


@settings(max_examples=200, deadline=None)
@given(data=st.data(), table=tables, stacked=st.booleans(), n=st.integers(min_value=3, max_value=5),
       needs=st.booleans(), weight=weights, count=st.integers(min_value=0, max_value=6))
def test_first_sums_score_as_their_twin(data: st.DataObject, table: list[list[int]], stacked: bool, n: int,
                                        needs: bool, weight: float, count: int) -> None:
    """My first arrest scored over tables of what every seat holds: the
    same sums to the bit, nothing given changed."""
    order, me, _, front, totals, points = _turn(data, table, stacked, n)
    step = order.index(me)
    mine = data.draw(st.lists(st.integers(min_value=0, max_value=K - 1), min_size=2, max_size=2))
    firsts = data.draw(st.lists(st.sampled_from(mine), max_size=3))
    held = [[data.draw(agents(K)) for _ in range(n)] for _ in range(count)]
    got = _same("first_sums", order, me, step, firsts, mine, held, front, totals, points, COMPS.bonus, weight, needs)
    assert len(got) == len(firsts)


@settings(max_examples=200, deadline=None)
@given(data=st.data(), n=st.integers(min_value=0, max_value=5))
def test_colour_totals_count_as_their_twin(data: st.DataObject, n: int) -> None:
    """The slammers' colour totals and points, purple cards in the points
    only: the same new lists, nothing given changed."""
    cards = st.integers(min_value=0, max_value=len(COMPS.card_value) - 1)
    slammers = tuple(tuple(data.draw(st.lists(cards, max_size=12))) for _ in range(n))
    totals, points = _same("colour_totals", slammers, COMPS.card_colour, COMPS.card_value, K)
    for s in range(n):
        assert points[s] == sum(COMPS.card_value[c] for c in slammers[s])
        for c in range(K):
            assert totals[c][s] == sum(COMPS.card_value[x] for x in slammers[s] if COMPS.card_colour[x] == c)


def test_outside_its_range_the_c_leaves_the_call_to_python() -> None:
    """A seat out of the order, a colour beyond the table, a weight that is
    not a float: None, nothing changed, and the model's function answers
    as its source does."""
    core = _core()
    front = [[5, 3], [4], [], [2], [1]]
    base = flat_position([[0] * 3 for _ in range(K)], [0, 0, 0])
    assert core.held_scores((0, 1, 2), 3, [[0, 1]], [[], [], []], front, base, COMPS.bonus, 0.5, True) is None
    assert core.flat_turns((0, 1, 2), 0, [[0, 9]], [1], front, base) is None
    assert core.held_scores((0, 1, 2), 0, [[0, 1]], [[], [1], [2]], front, base, COMPS.bonus, 1, True) is None
    memo: dict[int, bytes] = {}
    rng = random.Random(1)
    state = rng.getstate()
    assert core.contest((0, 1, 2), 0, [[0, 1]], [[1.0]] * 3, memo, 0, rng.random, front,
                        [[0] * 3 for _ in range(K)], [0, 0, 0], COMPS.bonus, 0.5, True) is None
    assert memo == {} and rng.getstate() == state
    position = ([[0] * 3 for _ in range(K)], [0, 0, 0], COMPS.bonus, 0.5, True)
    # a seat missing from the order; a start shorter than the pairs; rounds 0
    for order, start, rounds in (((0, 1, 1), [1.0], 2), ((0, 1, 2), [1.0], 2), ((0, 1, 2), [1.0, 2.0], 0)):
        assert core.fictitious_play(order, [[0, 1], [1, 3]], start, memo, 2, rng.random, front, *position,
                                    rounds, 1.0, 0.5, 0.5) is None
    assert memo == {} and rng.getstate() == state
    # fewer choices than chances; a chance that is not a float
    assert core.held_tables(0, [1], [[], [[2]]], [[], [1.0, 2.0]], 2, rng.random) is None
    assert core.held_tables(0, [1], [[], [[2]]], [[], [1]], 2, rng.random) is None
    assert rng.getstate() == state
    # a place beyond the order; me among the others; a colour beyond the table
    bid = ([[0, 1]], [1], front, base, COMPS.bonus, 0.5, True)
    for rest, place, colour in (([1, 2], 3, 0), ([0, 2], 1, 0), ([1, 2], 0, K)):
        assert core.best_bid(rest, 0, [0, place], [0, 3], [-1, colour], 0, *bid) is None
    assert core.best_bid([1, 2], 0, [0, 2], [0, 3], [-1, 1], 0, *bid) in (0, 1)  # inside its range
    # a table of fewer seats than the order; a colour beyond the table
    first = ((0, 1, 2), 0, 0, [1], [1, 2])
    rest = (front, [[0] * 3 for _ in range(K)], [0, 0, 0], COMPS.bonus, 0.5, True)
    assert core.first_sums(*first, [[[1, 2], [3]]], *rest) is None
    assert core.first_sums(*first, [[[1, 2], [3], []], [[1, 2], [9], []]], *rest) is None
    assert core.first_sums(*first, [[[1, 2], [3], []], [[1, 2], [], [4]]], *rest) is not None
    with pytest.raises(IndexError):  # the source's own error
        model.flat_turns((0, 1, 2), 0, [[0, 9]], [1], front, base)
    # a card id beyond the components, a negative one, a colour beyond k, a value that is not an int
    col, val = COMPS.card_colour, COMPS.card_value
    coloured = COMPS.coloured[0]
    for slammers, k, vals in ((((len(val),),), K, val), (((-1,),), K, val), (((coloured,),), 0, val),
                              (((0,),), K, (0.5,) * len(val))):
        assert core.colour_totals(slammers, col, vals, k) is None
    assert model.colour_totals(((-1,),), col, val, K)[1] == [val[-1]]  # the source indexes from the end


#: the functions that draw from a stream: where the stream and the memo are in their arguments
STREAMS: dict[str, tuple[int, int | None]] = {"contest": (6, 4), "fictitious_play": (5, 3), "held_tables": (5, None)}


def _twin(stream: Any) -> Any:
    """A stream that draws what ``stream`` (a Random, or the list of draws
    left that the pick model's fixed stream pops) draws from here on,
    independently."""
    if isinstance(stream, random.Random):
        twin = random.Random()
        twin.setstate(stream.getstate())
        return twin
    return stream[:]


def _where(stream: Any) -> Any:
    """How far a stream has drawn: a Random's state, the draws left."""
    return stream.getstate() if isinstance(stream, random.Random) else stream[:]


class _Checked:
    """Stands in for the C core: every call runs the C function and its
    Python twin on copies of the arguments and fails on any difference."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.calls = dict.fromkeys(NAMES, 0)

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name not in NAMES:
            raise AttributeError(name)

        def call(*args: Any) -> Any:
            self.calls[name] += 1
            if name in STREAMS:  # the stream: replayed for the twin from the same state
                at, memo = STREAMS[name]
                rnd = args[at].__self__
                twin = _twin(rnd)
                theirs = list(copy.deepcopy(args))
                theirs[at] = twin.random if isinstance(twin, random.Random) else twin.pop
                with _pure():
                    want = _python(name)(*theirs)
                got = getattr(self.core, name)(*args)
                assert got is not None, f"{name}: the C declined a real game's call"
                assert got == want, name
                if memo is not None:
                    assert args[memo] == theirs[memo]  # the memo
                assert _where(rnd) == _where(twin)
                return got
            mine = copy.deepcopy(args)
            got = getattr(self.core, name)(*mine)
            theirs = copy.deepcopy(args)
            with _pure():
                want = _python(name)(*theirs)
            assert got is not None, f"{name}: the C declined a real game's call"
            assert got == want, name
            assert mine == theirs, f"{name}: the arguments changed differently"
            # the caller's own arguments change as the source changes them
            for real, changed in zip(args, mine, strict=True):
                if isinstance(real, list) and real != changed:
                    real[:] = changed
            return got

        return call


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_call_of_real_expert_games_matches_the_python_twin(players: int) -> None:
    checked = _Checked(_core())
    saved = model.core
    model.core = checked
    try:
        for g, knobs in enumerate(({}, {"stacked": True}, {"bonus_needs_positive": False})):
            rules = GAME.rules(knobs)
            lineup = [ExpertStrategy(bonus_weight=1.0 if g == 2 else 0.5) for _ in range(players)]
            play(rules, players, lineup, 7, g)
    finally:
        model.core = saved
    assert all(checked.calls[name] > 0 for name in NAMES if name not in STEPS), checked.calls
