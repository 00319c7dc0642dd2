"""Jessah's dossier runs its inner loops in C with the compiled build
(strategies/red_notice/_dossier_core.c): reading an announcement
(``Dossier._read_guesses``), its answer per city (``Dossier._answer``),
restricting, normalising and resampling its guesses after each event
(``Dossier._settle``), drawing Angela's checks into
every hand (``Dossier._draw_each``), a cash's hands and weights
(``Dossier._cash_each``), fitting the hands to what Angela holds
(``Dossier._fit_hands``), the 0/1 likelihood of a sighting
(``Dossier._reveal``), a clone's resampling and the guesses of her start (``Dossier._start_guesses``).
Both must do exactly what the Python source does: the same new city for
every guess, the same floats bit for bit, the same draws from the
dossier's stream."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
import rnsim_strategies.red_notice as strategies
from hypothesis import example, given, settings
from hypothesis import strategies as st
from rnsim_strategies.red_notice import dossier as dossier_module
from rnsim_strategies.red_notice.board import board_for
from rnsim_strategies.red_notice.dossier import Dossier

from rnsim.games.red_notice.game import GAME
from rnsim.play import play_game

RULES = GAME.rules()
COMPS = RULES.load_components()
B = board_for(COMPS)


pytestmark = pytest.mark.skipif(not strategies.NATIVE,
                                reason="no fresh compiled build of the strategies (scripts/build_native.py)")


def _core() -> Any:
    core = dossier_module.core
    assert core is not None, "the compiled build is in use but the dossier's C reading is not"
    return core


def _python_reading(args: tuple[Any, ...], state: Any) -> tuple[tuple[list[int], list[float]], Any]:
    """What the Python source reads from the arguments announce() was given,
    with the dossier's stream where it was: (cities, weights), stream after."""
    (_tables, cities, hands, w, ann, steps, journalist, escape, wide, quiet, jessah, up, radars, barriers,
     precise, _open, _rand, tau, eps) = args
    d = Dossier(particles=len(cities), tau=tau, eps=eps)
    d.cities, d.hands, d.w = list(cities), [list(h) for h in hands], list(w)
    d.jessah, d.up, d.radars, d.barriers, d.precise = jessah, up, list(radars), tuple(barriers), precise
    d.rng = random.Random()
    d.rng.setstate(state)
    got = d._read_guesses(B, steps, journalist, escape, ann, wide, quiet)
    return got, d.rng.getstate()


@contextmanager
def _pure() -> Iterator[None]:
    """The dossier's Python source alone, for a while (the reference)."""
    saved = dossier_module.core
    dossier_module.core = None
    try:
        yield
    finally:
        dossier_module.core = saved


class _Checked:
    """dossier.core, reading every announcement both ways and comparing."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.tables = core.tables
        self.kinds: Counter[str] = Counter()

    def announce(self, *args: Any) -> Any:
        rng = args[16].__self__  # the dossier's stream, through its bound random()
        state = rng.getstate()
        got = self.core.announce(*args)
        assert got is not None
        want, after = _python_reading(args, state)
        assert got == want
        assert rng.getstate() == after
        journalist, escape, radars, precise = args[6], args[7], args[12], args[14]
        self.kinds["journalist" if journalist else "escape" if escape else "movement"] += 1
        self.kinds["precise"] += bool(precise)
        self.kinds["black radar"] += any(r == 2 for r in radars)
        self.kinds["triggers"] += bool(args[4])
        self.kinds["barriers"] += any(args[13])
        return got

    def answer(self, cities: list[int], w: list[float], belief: int, n: int, floor: float) -> Any:
        got = self.core.answer(cities, w, belief, n, floor)
        d = Dossier(floor=floor)
        d.cities, d.w = list(cities), list(w)
        assert got == d._answer(belief, n)
        self.kinds["answer"] += 1
        return got

    def settle(self, cities: list[int], hands: list[list[int]], w: list[float], particles: int, keep: int | None,
               rand: Any) -> Any:
        rng = rand.__self__
        state = rng.getstate()
        before = (list(cities), [list(h) for h in hands], list(w))
        got = self.core.settle(cities, hands, w, particles, keep, rand)
        assert (cities, hands, w) == before  # the lists given are left as they were
        want, after = _python_settle(cities, hands, w, particles, keep, state)
        assert (got, rng.getstate()) == (want, after)
        if got is not None:
            _assert_own_hands(got[1])
        self.kinds["resample" if got is not None and got[1] is not hands else "normalise"] += 1
        self.kinds["restrict"] += keep is not None
        return got

    def cash(self, hands: list[list[int]], w: list[float], check: int, miss: float, getrandbits: Any) -> Any:
        rng = getrandbits.__self__
        want = _python_cash([list(h) for h in hands], list(w), check, rng.getstate())
        got = self.core.cash(hands, w, check, miss, getrandbits)
        assert miss == dossier_module._HAND_MISS
        assert (got, hands, w, rng.getstate()) == want
        self.kinds["cash"] += 1
        return got

    def fsum(self, xs: list[float]) -> float:
        import math

        got = self.core.fsum(xs)
        assert got == math.fsum(xs)
        return got  # type: ignore[no-any-return]

    def restrict(self, cities: list[int], w: list[float], keep: int) -> Any:
        got = self.core.restrict(cities, w, keep)
        assert got == [w[i] if keep >> cities[i] & 1 else 0.0 for i in range(len(cities))]
        self.kinds["restrict"] += 1
        return got

    def systematic(self, w: list[float], n: int, rand: Any) -> Any:
        rng = rand.__self__
        state = rng.getstate()
        got = self.core.systematic(w, n, rand)
        after = rng.getstate()
        rng.setstate(state)
        with _pure():
            want = dossier_module._systematic(rng, w, n)
        assert (got, after) == (want, rng.getstate())
        self.kinds["resample"] += 1
        return got

    def fit(self, hands: list[list[int]], size: int, mine: int, pool: list[int] | None, getrandbits: Any) -> Any:
        rng = getrandbits.__self__
        state = rng.getstate()
        d = Dossier(particles=len(hands))
        d.hands = [list(h) for h in hands]
        d.rng = random.Random()
        d.rng.setstate(state)
        got = self.core.fit(hands, size, mine, pool, getrandbits)
        with _pure():
            want = d._fit_each(size, mine, pool)
        assert (got, hands, rng.getstate()) == (want, d.hands, d.rng.getstate())
        self.kinds["fit" if got >= 0 else "fit, pool wanted"] += 1
        return got

    def start(self, tables: Any, pool: list[int], size: int, cities: list[int], jessah: int, radar: float,
              particles: int, tau: float, eps: float, getrandbits: Any, rand: Any) -> Any:
        rng = rand.__self__
        state = rng.getstate()
        got = self.core.start(tables, pool, size, cities, jessah, radar, particles, tau, eps, getrandbits, rand)
        assert (got, rng.getstate()) == _python_start(pool, size, cities, jessah, radar, particles, tau, eps, state)
        self.kinds["start"] += 1
        return got

    def draw(self, hands: list[list[int]], pool: list[int], drawn: int, getrandbits: Any) -> Any:
        rng = getrandbits.__self__
        state = rng.getstate()
        before = [list(h) for h in hands]
        got = self.core.draw(hands, pool, drawn, getrandbits)
        assert got is True
        assert (hands, rng.getstate()) == _python_draw(before, pool, drawn, state)
        self.kinds["draw"] += 1
        return got


def _python_start(pool: list[int], size: int, cities: list[int], jessah: int, radar: float, particles: int,
                  tau: float, eps: float, state: Any) -> tuple[Any, Any]:
    d = Dossier(particles=particles, tau=tau, eps=eps)
    d.jessah = jessah
    d.rng = random.Random()
    d.rng.setstate(state)
    with _pure():
        got = d._start_guesses(B, pool, size, cities, radar)
    return got, d.rng.getstate()


def _python_settle(cities: list[int], hands: list[list[int]], w: list[float], particles: int, keep: int | None,
                   state: Any) -> tuple[Any, Any]:
    """What the Python source settles from settle()'s arguments, with the
    dossier's stream where it was: (cities, hands, w) or None, stream after."""
    d = Dossier(particles=particles)
    d.cities, d.hands, d.w = list(cities), [list(h) for h in hands], list(w)
    d.rng = random.Random()
    d.rng.setstate(state)
    with _pure():
        got = d._settle(keep)
    return got, d.rng.getstate()


def _python_cash(hands: list[list[int]], w: list[float], check: int, state: Any) -> tuple[Any, ...]:
    """What the Python source makes of a cash of ``check``: (None, hands,
    weights, stream after)."""
    d = Dossier(particles=len(hands))
    d.hands, d.w = hands, w
    d.rng = random.Random()
    d.rng.setstate(state)
    d._cash_each(check)
    return None, d.hands, d.w, d.rng.getstate()


def _assert_own_hands(hands: list[list[int]]) -> None:
    """No two guesses share a hand's list: a check drawn into one must not
    show in another."""
    assert len({id(h) for h in hands}) == len(hands)


def _python_draw(hands: list[list[int]], pool: list[int], drawn: int, state: Any) -> tuple[list[list[int]], Any]:
    d = Dossier(particles=len(hands))
    d.hands = hands
    d.rng = random.Random()
    d.rng.setstate(state)
    d._draw_each(pool, drawn)
    return d.hands, d.rng.getstate()


def test_the_c_reading_of_every_announcement_of_expert_games_is_the_python_one(monkeypatch):
    core = _core()
    checked = _Checked(core)
    monkeypatch.setattr(dossier_module, "core", checked)
    for i in range(120):
        play_game(seed=41, game_index=i, angela="expert", jessah="expert")
    seen = checked.kinds
    # the games met every case the reading distinguishes
    for kind in ("movement", "escape", "journalist", "precise", "black radar", "triggers", "barriers", "answer",
                 "normalise", "resample", "draw", "cash", "restrict", "fit", "fit, pool wanted", "start"):
        assert seen[kind] > 0, (kind, dict(seen))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 5), journalist=st.booleans(),
       escape=st.booleans(), precise=st.booleans(), up=st.integers(0, 2), particles=st.integers(1, 80))
def test_the_c_reading_is_the_python_one_on_any_map_state(seed, steps, journalist, escape, precise, up,
                                                          particles):
    """Random barriers, radars (white and black), Jessah's city, guesses and
    hands; the announcement is the triggers of a plan one guess could make,
    so that some guesses explain it and others do not."""
    core = _core()
    rng = random.Random(seed)
    n = B.n
    barriers = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in COMPS.routes)
    radars = [rng.choice((0, 0, 1, 2)) for _ in B.cont_mask]
    checks = len(COMPS.checks)
    d = Dossier(particles=particles)
    d.reset(random.Random(seed ^ 1))
    d.cities = [rng.randrange(n) for _ in range(particles)]
    d.hands = [rng.sample(range(checks), rng.randint(0, 4)) for _ in range(particles)]
    d.w = [rng.random() for _ in range(particles)]
    d.jessah, d.up, d.radars, d.barriers, d.precise = rng.randrange(n), up, radars, barriers, precise
    d.pub = B.all_mask if rng.random() < 0.5 else sum(1 << c for c in sorted(set(d.cities)))
    plans = d._states(B, rng.choice(d.cities), steps, journalist)
    ann = () if journalist else rng.choice(plans)[1]
    wide, quiet = d._reach(B, steps, journalist)
    tables = core.tables(B.n, B.nbr_routes, B.cont, B.dist, B.ball, B.cont_mask, B.check_mask)
    stream = random.Random(seed ^ 2)
    args = (tables, d.cities, d.hands, d.w, ann, steps, journalist, escape, wide, quiet, d.jessah, up, radars,
            barriers, precise, B.open_masks(barriers), stream.random, d.tau, d.eps)
    state = stream.getstate()
    got = core.announce(*args)
    want, after = _python_reading(args, state)
    assert got == want
    assert stream.getstate() == after


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80), floor=st.sampled_from([0.0, 0.15, 0.5, 1.0]),
       zeros=st.floats(0.0, 1.0))
def test_the_c_answer_is_the_python_one(seed, particles, floor, zeros):
    """Any guesses, weights (some zero) and belief, including a belief that
    holds no guess with weight (None: the dossier starts over)."""
    core = _core()
    rng = random.Random(seed)
    d = Dossier(particles=particles, floor=floor)
    d.cities = [rng.randrange(B.n) for _ in range(particles)]
    d.w = [0.0 if rng.random() < zeros else rng.random() for _ in range(particles)]
    belief = rng.getrandbits(B.n) or 1
    assert core.answer(d.cities, d.w, belief, B.n, floor) == d._answer(belief, B.n)


@settings(max_examples=300, deadline=None)
@given(w=st.lists(st.one_of(st.just(0.0), st.floats(0.0, 1e3)), min_size=1, max_size=80),
       extra=st.integers(-5, 5), seed=st.integers(0, 2**32 - 1), restrict=st.booleans())
@example(w=[0.5, 0.5, 0.0, 0.0], extra=0, seed=0, restrict=False)  # the effective size exactly half
@example(w=[0.0, 0.0], extra=0, seed=0, restrict=False)  # no weight: None, the dossier starts over
@example(w=[0.25, 0.25, 0.25, 0.25], extra=0, seed=0, restrict=False)  # sums to 1: nothing divided
@example(w=[0.25, 0.25, 0.25, 0.25], extra=0, seed=1, restrict=True)
@example(w=[1.0, 1e-3, 1e-3, 1e-3, 1e-3], extra=0, seed=2, restrict=False)  # degenerate: resampled
def test_the_c_settling_is_the_python_one(w, extra, seed, restrict):
    """Weights restricted to some cities or not, normalised, the guesses
    resampled when the weights have degenerated: the same (cities, hands,
    weights), the same draws, the caller's lists left as they were, no hand
    shared by two guesses."""
    core = _core()
    rng = random.Random(seed)
    particles = max(1, len(w) + extra)
    cities = [rng.randrange(B.n) for _ in w]
    hands = [rng.sample(range(len(COMPS.checks)), rng.randint(0, 4)) for _ in w]
    keep = rng.getrandbits(B.n) if restrict else None
    before = (list(cities), [list(h) for h in hands], list(w))
    want, after = _python_settle(cities, hands, w, particles, keep, random.Random(seed ^ 7).getstate())
    stream = random.Random(seed ^ 7)
    got = core.settle(cities, hands, w, particles, keep, stream.random)
    assert (cities, hands, w) == before
    assert (got, stream.getstate()) == (want, after)
    if got is not None:
        _assert_own_hands(got[1])
        assert len(got[0]) == len(got[1]) == len(got[2])


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80), drawn=st.integers(0, 4),
       pool=st.lists(st.integers(0, 63), unique=True, max_size=30))
def test_the_c_draw_is_the_python_one(seed, particles, drawn, pool):
    """Hands that hold some of the pool or none, a pool smaller than the draw."""
    core = _core()
    rng = random.Random(seed)
    hands = [rng.sample(range(64), rng.randint(0, 5)) for _ in range(particles)]
    want = _python_draw([list(h) for h in hands], pool, drawn, random.Random(seed ^ 3).getstate())
    stream = random.Random(seed ^ 3)
    assert core.draw(hands, pool, drawn, stream.getrandbits) is True
    assert (hands, stream.getstate()) == want


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80), check=st.integers(0, 25),
       held=st.floats(0.0, 1.0))
def test_the_c_cash_is_the_python_one(seed, particles, check, held):
    """Hands that held the check cashed or not, empty hands, any weights:
    the same hands, weights and draws."""
    core = _core()
    rng = random.Random(seed)
    checks = len(COMPS.checks)
    hands = []
    for _ in range(particles):
        h = rng.sample(range(checks), rng.randint(0, 4))
        if rng.random() < held and check not in h:
            h.insert(rng.randint(0, len(h)), check)
        hands.append(h)
    w = [rng.random() for _ in range(particles)]
    want = _python_cash([list(h) for h in hands], list(w), check, random.Random(seed ^ 8).getstate())
    stream = random.Random(seed ^ 8)
    assert (core.cash(hands, w, check, dossier_module._HAND_MISS, stream.getrandbits), hands, w,
            stream.getstate()) == want


def _ties(draw: Any) -> list[float]:
    return draw(st.sampled_from([
        [1.0, 2.0**-53],  # exactly half an ulp of 1: stays at 1 (even)
        [1.0 + 2.0**-52, 2.0**-53],  # half an ulp of an odd mantissa: rounds up
        [1.0, 2.0**-53, 2.0**-110],  # just over half: up
        [0.5, 0.25, 2.0**-54, 2.0**-54, 2.0**-60],
        [1e-300, 1.0, 2.0**-1000],  # 2,000 bits apart: many limbs
        [5e-324, 1.0],  # a subnormal value: CPython's partials
        [0.1] * 10,
        [3.0, -1.0],  # a negative value: the partials
    ]))


@settings(max_examples=400, deadline=None)
@given(xs=st.one_of(st.lists(st.floats(0.0, 1e6), max_size=120),
                    st.lists(st.floats(0.0, 1.0).map(lambda x: x * 2.0**-40), max_size=40),
                    st.lists(st.floats(-1e3, 1e3), max_size=40),
                    st.composite(_ties)()))
def test_the_c_fsum_is_math_fsum(xs):
    """Every sum in the C loops is math.fsum's: bit for bit, ties included
    (the exact sum correctly rounded, found another way)."""
    import math

    assert _core().fsum(xs) == math.fsum(xs)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 60), size=st.integers(0, 5),
       mine=st.lists(st.integers(0, 63), max_size=6), pool=st.none() | st.lists(st.integers(0, 63), unique=True,
                                                                                  max_size=25))
def test_the_c_fit_is_the_python_one(seed, particles, size, mine, pool):
    """Hands too big, too small, holding Jessah's checks or fitting already;
    no pool (it is asked for only when a hand needs one)."""
    core = _core()
    rng = random.Random(seed)
    hands = [rng.sample(range(64), rng.choice((size, size, rng.randint(0, 7)))) for _ in range(particles)]
    mask = sum(1 << c for c in sorted(set(mine)))
    d = Dossier(particles=particles)
    d.hands = [list(h) for h in hands]
    d.rng = random.Random(seed ^ 4)
    with _pure():
        want = d._fit_each(size, mask, pool)
    stream = random.Random(seed ^ 4)
    got = core.fit(hands, size, mask, pool, stream.getrandbits)
    assert (got, hands, stream.getstate()) == (want, d.hands, d.rng.getstate())
    if got == -1:
        assert pool is None


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80), n=st.integers(1, 100),
       zeros=st.floats(0.0, 1.0))
def test_the_c_restriction_and_resampling_are_the_python_ones(seed, particles, n, zeros):
    core = _core()
    rng = random.Random(seed)
    cities = [rng.randrange(B.n) for _ in range(particles)]
    w = [0.0 if rng.random() < zeros else rng.random() for _ in range(particles)]
    keep = rng.getrandbits(B.n)
    assert core.restrict(cities, w, keep) == [w[i] if keep >> cities[i] & 1 else 0.0 for i in range(particles)]
    t = sum(w) or 1.0
    w = [x / t for x in w]
    stream = random.Random(seed ^ 5)
    got = core.systematic(w, n, stream.random)
    ref = random.Random(seed ^ 5)
    with _pure():
        assert got == dossier_module._systematic(ref, w, n)
    assert stream.getstate() == ref.getstate()


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80), size=st.integers(0, 7),
       pool=st.lists(st.integers(0, len(COMPS.checks) - 1), unique=True, max_size=24), cont=st.integers(0, 5),
       radar=st.sampled_from([0.0, 1.5]), tau=st.sampled_from([0.05, 0.3, 2.0]), eps=st.sampled_from([0.0, 0.1]))
def test_the_c_start_is_the_python_one(seed, particles, size, pool, cont, radar, tau, eps):
    """Any pool, hand size (past what random.sample's list path takes: then
    Python draws, and C draws nothing), continent and model terms."""
    core = _core()
    cities = [c for c in range(B.n) if B.cont_mask[cont % len(B.cont_mask)] >> c & 1]
    jessah = random.Random(seed).randrange(B.n)
    size = min(size, len(pool))
    stream = random.Random(seed ^ 6)
    state = stream.getstate()
    tables = core.tables(B.n, B.nbr_routes, B.cont, B.dist, B.ball, B.cont_mask, B.check_mask)
    got = core.start(tables, pool, size, cities, jessah, radar, particles, tau, eps, stream.getrandbits,
                     stream.random)
    if got is None:
        assert size > 5 or len(pool) > 21
        assert stream.getstate() == state
        return
    assert (got, stream.getstate()) == _python_start(pool, size, cities, jessah, radar, particles, tau, eps, state)


def test_a_check_past_64_is_left_to_python():
    core = _core()
    hands = [[1, 2]]
    assert core.draw(hands, [3, 64], 1, random.Random(0).getrandbits) is False
    assert hands == [[1, 2]]
    hands = [[1, 70]]
    assert core.fit(hands, 1, 0, [3], random.Random(0).getrandbits) == -2
    assert core.fit(hands, 1, 1 << 70, [3], random.Random(0).getrandbits) == -2
    assert hands == [[1, 70]]


def test_a_map_too_big_for_the_c_reading_is_left_to_python():
    core = _core()
    n = 65
    assert core.tables(n, [()] * n, [0] * n, [[0] * n] * n, [[0]] * n, [0], [0]) is None
