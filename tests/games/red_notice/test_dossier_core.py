"""Jessah's dossier runs its inner loops in C with the compiled build
(strategies/red_notice/_dossier_core.c): its guesses live in one C object
(``core.guesses``, the dossier's ``g``) whose methods read an announcement
(``Dossier._read_guesses``), answer per city (``Dossier._answer``),
restrict, normalise and resample the guesses after each event
(``Dossier._settle``), draw Angela's checks into every hand
(``Dossier._draw_each``), replace in every hand the checks Jessah drew
(``Dossier._jessah_drew``), make a cash's hands and weights
(``Dossier._cash_each``), fit the hands to what Angela holds
(``Dossier._fit_each``), weigh a sighting (``Dossier._reveal_each``) and a
Bank performed without a cash (``Dossier._decline_each``); a clone's
resampling, the guesses of her start (``Dossier._start_guesses``), her hunt
on the dossier's weights (``Expert._weighted_path``) and their spread for
her radar (``Expert._spread``) and her barriers' scores on them
(``Expert._weighted_barriers``) are C functions on lists. Both must do
exactly what the Python source does: the same new city for every guess, the same floats bit for bit, the same draws
from the dossier's stream."""

from __future__ import annotations

import math
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
from rnsim_strategies.red_notice.expert import Expert

from rnsim.games.red_notice.game import GAME
from rnsim.play import play_game

RULES = GAME.rules()
COMPS = RULES.load_components()
B = board_for(COMPS)


pytestmark = pytest.mark.skipif(not strategies.NATIVE,
                                reason="no fresh compiled build of the strategies (scripts/build_native.py)")

Lists = tuple[list[int], list[list[int]], list[float]]


def _core() -> Any:
    core = dossier_module.core
    assert core is not None, "the compiled build is in use but the dossier's C reading is not"
    return core


@contextmanager
def _pure() -> Iterator[None]:
    """The dossier's Python source alone, for a while (the reference)."""
    saved = dossier_module.core
    dossier_module.core = None
    try:
        yield
    finally:
        dossier_module.core = saved


def _twin(lists: Lists, state: Any, **terms: Any) -> Dossier:
    """A dossier of the Python source holding copies of ``lists`` as its
    guesses, its stream where the C object's was (``state``)."""
    cities, hands, w = lists
    d = Dossier(particles=terms.pop("particles", max(1, len(cities))), **terms)
    d.cities, d.hands, d.w = list(cities), [list(h) for h in hands], list(w)
    d.rng = random.Random()
    d.rng.setstate(state)
    return d


def _guesses(cities: list[int], hands: list[list[int]], w: list[float]) -> Any:
    g = _core().guesses(cities, hands, w)
    assert g is not None
    assert g.lists() == (cities, hands, w)
    return g


class _CheckedGuesses:
    """A C guesses object whose every call is compared with its Python twin,
    run on what the object held before the call, with the same stream."""

    def __init__(self, g: Any, kinds: Counter[str]) -> None:
        self.g = g
        self.kinds = kinds

    def lists(self) -> Lists:
        return self.g.lists()  # type: ignore[no-any-return]

    def _check(self, rng: random.Random, before: Lists, state: Any, twin: Dossier) -> None:
        assert self.g.lists() == (twin.cities, twin.hands, twin.w), before
        assert rng.getstate() == twin.rng.getstate()
        assert state is not None

    def announce(self, *args: Any) -> Any:
        (_tables, ann, steps, journalist, escape, pub, jessah, up, radars, barriers, precise, rand, tau, eps) = args
        rng = rand.__self__  # the dossier's stream, through its bound random()
        state, before = rng.getstate(), self.g.lists()
        got = self.g.announce(*args)
        assert got is True
        d = _twin(before, state, tau=tau, eps=eps)
        d.jessah, d.up, d.radars, d.barriers, d.precise = jessah, up, list(radars), tuple(barriers), precise
        d.pub = pub
        with _pure():
            wide, quiet = d._reach(B, steps, journalist)
            d.cities, d.w = d._read_guesses(B, steps, journalist, escape, ann, wide, quiet)
        self._check(rng, before, state, d)
        self.kinds["journalist" if journalist else "escape" if escape else "movement"] += 1
        self.kinds["precise"] += bool(precise)
        self.kinds["black radar"] += any(r == 2 for r in radars)
        self.kinds["triggers"] += bool(ann)
        self.kinds["barriers"] += any(barriers)
        return got

    def answer(self, belief: int, n: int, floor: float) -> Any:
        got = self.g.answer(belief, n, floor)
        d = _twin(self.g.lists(), random.Random().getstate(), floor=floor)
        assert got == d._answer(belief, n)
        self.kinds["answer"] += 1
        return got

    def settle(self, particles: int, keep: int | None, rand: Any) -> Any:
        rng = rand.__self__
        state, before = rng.getstate(), self.g.lists()
        got = self.g.settle(particles, keep, rand)
        d = _twin(before, state, particles=particles)
        with _pure():
            want = d._settle(keep)
        if want is None:
            assert got is False and self.g.lists() == before  # left as it was: the dossier starts over
        else:
            assert got is True
            d.cities, d.hands, d.w = want
            self._check(rng, before, state, d)
        self.kinds["resample" if rng.getstate() != state else "normalise"] += 1  # a resampling draws
        self.kinds["restrict"] += keep is not None
        return got

    def cash(self, check: int, miss: float, getrandbits: Any) -> Any:
        rng = getrandbits.__self__
        state, before = rng.getstate(), self.g.lists()
        got = self.g.cash(check, miss, getrandbits)
        assert miss == dossier_module._HAND_MISS
        d = _twin(before, state)
        d._cash_each(check)
        self._check(rng, before, state, d)
        self.kinds["cash"] += 1
        return got

    def draw(self, pool: list[int], drawn: int, getrandbits: Any) -> Any:
        rng = getrandbits.__self__
        state, before = rng.getstate(), self.g.lists()
        got = self.g.draw(pool, drawn, getrandbits)
        assert got is True
        d = _twin(before, state)
        d._draw_each(pool, drawn)
        self._check(rng, before, state, d)
        self.kinds["draw"] += 1
        return got

    def replace(self, got: int, pool: list[int], getrandbits: Any) -> Any:
        rng = getrandbits.__self__
        state, before = rng.getstate(), self.g.lists()
        done = self.g.replace(got, pool, getrandbits)
        assert done is True
        d = _twin(before, state)
        d._jessah_drew(got, pool)
        self._check(rng, before, state, d)
        self.kinds["replace"] += 1
        self.kinds["replaced"] += self.g.lists()[1] != before[1]
        return done

    def fit(self, size: int, mine: int, pool: list[int] | None, getrandbits: Any) -> Any:
        rng = getrandbits.__self__
        state, before = rng.getstate(), self.g.lists()
        got = self.g.fit(size, mine, pool, getrandbits)
        d = _twin(before, state)
        with _pure():
            want = d._fit_each(size, mine, pool)
        assert got == want
        self._check(rng, before, state, d)
        self.kinds["fit" if got >= 0 else "fit, pool wanted"] += 1
        return got

    def reveal(self, city: int) -> Any:
        before = self.g.lists()
        got = self.g.reveal(city)
        d = _twin(before, random.Random().getstate())
        d._reveal_each(city)
        assert self.g.lists() == (d.cities, d.hands, d.w)
        self.kinds["reveal"] += 1
        return got

    def decline(self, tables: Any, check_cont: Any, jessah: int, last: bool, decline: float) -> Any:
        before = self.g.lists()
        got = self.g.decline(tables, check_cont, jessah, last, decline)
        d = _twin(before, random.Random().getstate(), decline=decline)
        d.b, d.jessah, d.up = B, jessah, 0 if last else 1
        d._decline_each()
        assert self.g.lists() == (d.cities, d.hands, d.w)
        self.kinds["decline"] += 1
        self.kinds["declined"] += self.g.lists()[2] != before[2]
        return got


class _Checked:
    """dossier.core, every call of its guesses and functions made both ways
    and compared."""

    def __init__(self, core: Any) -> None:
        self.core = core
        self.tables = core.tables
        self.kinds: Counter[str] = Counter()

    def guesses(self, cities: list[int], hands: list[list[int]], w: list[float]) -> Any:
        g = self.core.guesses(cities, hands, w)
        assert g is not None  # the shipped map and checks fit
        assert g.lists() == (cities, hands, w)
        self.kinds["guesses"] += 1
        return _CheckedGuesses(g, self.kinds)

    def state_words(self, rng: random.Random, k: int) -> Any:
        got = self.core.state_words(rng, k)
        assert got is not None  # the seats' streams are random.Random's own
        assert got == rng.getstate()[1][:k]
        self.kinds["state words"] += 1
        return got

    def fsum(self, xs: list[float]) -> float:
        got = self.core.fsum(xs)
        assert got == math.fsum(xs)
        return got  # type: ignore[no-any-return]

    def systematic(self, w: list[float], n: int, rand: Any) -> Any:
        rng = rand.__self__
        state = rng.getstate()
        got = self.core.systematic(w, n, rand)
        after = rng.getstate()
        rng.setstate(state)
        with _pure():
            want = dossier_module._systematic(rng, w, n)
        assert (got, after) == (want, rng.getstate())
        self.kinds["systematic"] += 1
        return got

    def hunt(self, tables: Any, belief: int, start: int, steps: int, weights: list[float], mix: float,
             ahead: float, reach: int, open_masks: Any) -> Any:
        got = self.core.hunt(tables, belief, start, steps, weights, mix, ahead, reach, open_masks)
        assert got is not None  # the shipped map and the dossier's weights fit
        assert got == Expert._weighted_path(B, belief, start, steps, weights, mix, ahead, reach, open_masks), (
            belief, start, steps)
        self.kinds["hunt"] += 1
        self.kinds["hunt, near-equal firsts"] += len(got[2]) > 1
        self.kinds["hunt, nothing in reach"] += got[1] == -2
        return got

    def spread(self, w: list[float], masks: list[int], steps: int) -> Any:
        got = self.core.spread(w, masks, steps)
        assert got is not None
        assert got == Expert._spread(w, masks, steps)
        self.kinds["spread"] += 1
        return got

    def barriers(self, tables: Any, w: list[float], masks: list[int], nroutes: int, scale: float) -> Any:
        got = self.core.barriers(tables, w, masks, nroutes, scale)
        assert got is not None
        assert scale == Expert.SECURITY_WEIGHT
        assert got == Expert()._weighted_barriers(B, w, masks)
        self.kinds["barrier scores"] += 1
        self.kinds["barrier scores, some cut"] += any(got)
        return got

    def start(self, tables: Any, pool: list[int], size: int, cities: list[int], jessah: int, radar: float,
              particles: int, tau: float, eps: float, getrandbits: Any, rand: Any) -> Any:
        rng = rand.__self__
        state = rng.getstate()
        got = self.core.start(tables, pool, size, cities, jessah, radar, particles, tau, eps, getrandbits, rand)
        assert (got, rng.getstate()) == _python_start(pool, size, cities, jessah, radar, particles, tau, eps, state)
        self.kinds["start"] += 1
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


def test_every_call_of_the_c_guesses_in_expert_games_is_the_python_one(monkeypatch):
    core = _core()
    checked = _Checked(core)
    monkeypatch.setattr(dossier_module, "core", checked)
    for i in range(120):
        play_game(seed=41, game_index=i, angela="expert", jessah="expert")
    seen = checked.kinds
    # the games met every case the reading distinguishes
    for kind in ("movement", "escape", "journalist", "precise", "black radar", "triggers", "barriers", "answer",
                 "normalise", "resample", "draw", "replace", "replaced", "cash", "restrict", "fit", "fit, pool wanted", "start", "reveal",
                 "decline", "declined", "guesses", "hunt", "hunt, near-equal firsts", "hunt, nothing in reach",
                 "spread", "barrier scores", "barrier scores, some cut", "state words"):
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
    d.pub = rng.choice((B.all_mask, sum(1 << c for c in sorted(set(d.cities))), rng.getrandbits(n)))
    plans = d._states(B, rng.choice(d.cities), steps, journalist)
    ann = () if journalist else rng.choice(plans)[1]
    wide, quiet = d._reach(B, steps, journalist)
    tables = core.tables(B.n, B.nbr_routes, B.cont, B.dist, B.ball, B.cont_mask, B.check_mask)
    g = _guesses(d.cities, d.hands, d.w)
    stream = random.Random(seed ^ 2)
    d.rng = random.Random(seed ^ 2)
    assert g.announce(tables, ann, steps, journalist, escape, d.pub, d.jessah, up, radars, barriers, precise,
                      stream.random, d.tau, d.eps) is True
    with _pure():
        d.cities, d.w = d._read_guesses(B, steps, journalist, escape, ann, wide, quiet)
    assert g.lists() == (d.cities, d.hands, d.w)
    assert stream.getstate() == d.rng.getstate()


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80), floor=st.sampled_from([0.0, 0.15, 0.5, 1.0]),
       zeros=st.floats(0.0, 1.0))
def test_the_c_answer_is_the_python_one(seed, particles, floor, zeros):
    """Any guesses, weights (some zero) and belief, including a belief that
    holds no guess with weight (None: the dossier starts over)."""
    rng = random.Random(seed)
    d = Dossier(particles=particles, floor=floor)
    d.cities = [rng.randrange(B.n) for _ in range(particles)]
    d.hands = [[] for _ in range(particles)]
    d.w = [0.0 if rng.random() < zeros else rng.random() for _ in range(particles)]
    belief = rng.getrandbits(B.n) or 1
    assert _guesses(d.cities, d.hands, d.w).answer(belief, B.n, floor) == d._answer(belief, B.n)


@settings(max_examples=300, deadline=None)
@given(w=st.lists(st.one_of(st.just(0.0), st.floats(0.0, 1e3)), min_size=1, max_size=80),
       extra=st.integers(-5, 5), seed=st.integers(0, 2**32 - 1), restrict=st.booleans())
@example(w=[0.5, 0.5, 0.0, 0.0], extra=0, seed=0, restrict=False)  # the effective size exactly half
@example(w=[0.0, 0.0], extra=0, seed=0, restrict=False)  # no weight: False, the dossier starts over
@example(w=[0.25, 0.25, 0.25, 0.25], extra=0, seed=0, restrict=False)  # sums to 1: nothing divided
@example(w=[0.25, 0.25, 0.25, 0.25], extra=0, seed=1, restrict=True)
@example(w=[1.0, 1e-3, 1e-3, 1e-3, 1e-3], extra=0, seed=2, restrict=False)  # degenerate: resampled
def test_the_c_settling_is_the_python_one(w, extra, seed, restrict):
    """Weights restricted to some cities or not, normalised, the guesses
    resampled (to another number of guesses, too) when the weights have
    degenerated: the same (cities, hands, weights), the same draws; nothing
    touched when no weight is left."""
    rng = random.Random(seed)
    particles = max(1, len(w) + extra)
    cities = [rng.randrange(B.n) for _ in w]
    hands = [rng.sample(range(len(COMPS.checks)), rng.randint(0, 4)) for _ in w]
    keep = rng.getrandbits(B.n) if restrict else None
    g = _guesses(cities, hands, w)
    d = _twin((cities, hands, w), random.Random(seed ^ 7).getstate(), particles=particles)
    with _pure():
        want = d._settle(keep)
    stream = random.Random(seed ^ 7)
    got = g.settle(particles, keep, stream.random)
    assert stream.getstate() == d.rng.getstate()
    if want is None:
        assert got is False and g.lists() == (cities, hands, w)
    else:
        assert got is True and g.lists() == want


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80), drawn=st.integers(0, 4),
       pool=st.lists(st.integers(0, 63), unique=True, max_size=30))
def test_the_c_draw_is_the_python_one(seed, particles, drawn, pool):
    """Hands that hold some of the pool or none, a pool smaller than the draw."""
    rng = random.Random(seed)
    hands = [rng.sample(range(64), rng.randint(0, 5)) for _ in range(particles)]
    g = _guesses([0] * particles, hands, [1.0] * particles)
    d = _twin(g.lists(), random.Random(seed ^ 3).getstate())
    d._draw_each(pool, drawn)
    stream = random.Random(seed ^ 3)
    assert g.draw(pool, drawn, stream.getrandbits) is True
    assert (g.lists(), stream.getstate()) == ((d.cities, d.hands, d.w), d.rng.getstate())


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80),
       got=st.lists(st.integers(0, 63), max_size=3), pool=st.lists(st.integers(0, 63), unique=True, max_size=30))
def test_the_c_replacing_of_jessahs_checks_is_the_python_one(seed, particles, got, pool):
    """Hands holding checks Jessah drew or not, a pool that has no check a
    hand lacks."""
    rng = random.Random(seed)
    hands = [rng.sample(range(64), rng.randint(0, 5)) for _ in range(particles)]
    for h in hands:
        if got and rng.random() < 0.5 and got[0] not in h:
            h.append(got[0])
    mask = sum(1 << c for c in sorted(set(got)))
    g = _guesses([0] * particles, hands, [1.0] * particles)
    d = _twin(g.lists(), random.Random(seed ^ 9).getstate())
    d._jessah_drew(mask, pool)
    stream = random.Random(seed ^ 9)
    assert g.replace(mask, pool, stream.getrandbits) is True
    assert (g.lists(), stream.getstate()) == ((d.cities, d.hands, d.w), d.rng.getstate())


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80), check=st.integers(0, 25),
       held=st.floats(0.0, 1.0))
def test_the_c_cash_is_the_python_one(seed, particles, check, held):
    """Hands that held the check cashed or not, empty hands, any weights:
    the same hands, weights and draws."""
    rng = random.Random(seed)
    checks = len(COMPS.checks)
    hands = []
    for _ in range(particles):
        h = rng.sample(range(checks), rng.randint(0, 4))
        if rng.random() < held and check not in h:
            h.insert(rng.randint(0, len(h)), check)
        hands.append(h)
    w = [rng.random() for _ in range(particles)]
    g = _guesses([0] * particles, hands, w)
    d = _twin(g.lists(), random.Random(seed ^ 8).getstate())
    d._cash_each(check)
    stream = random.Random(seed ^ 8)
    assert g.cash(check, dossier_module._HAND_MISS, stream.getrandbits) is None
    assert (g.lists(), stream.getstate()) == ((d.cities, d.hands, d.w), d.rng.getstate())


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
        [1.0, 2.0**-57, 2.0**-20],  # a smaller exponent after a larger: the sum shifted up
        [2.0**-57, 1.0 + 2.0**-52, 2.0**-58],  # a span of 57, then of 58: the limbs
        [1.5, 2.0**-30, 2.0**-57 * 1.5, 2.0**-54],  # half an ulp and a bit, met smallest last
    ]))


def _spans(draw: Any) -> list[float]:
    """Terms whose exponents span about 57, in any order: the one-pass sum
    shifts its integer up whenever a smaller one comes, or leaves the case
    when the span passes 57."""
    n = draw(st.integers(1, 60))
    return [math.ldexp(draw(st.floats(1.0, 2.0, exclude_max=True)), draw(st.integers(-62, 0))) for _ in range(n)]


@settings(max_examples=400, deadline=None)
@given(xs=st.one_of(st.lists(st.floats(0.0, 1e6), max_size=120),
                    st.lists(st.floats(0.0, 1.0).map(lambda x: x * 2.0**-40), max_size=40),
                    st.lists(st.floats(-1e3, 1e3), max_size=40),
                    st.composite(_ties)(), st.composite(_spans)()))
def test_the_c_fsum_is_math_fsum(xs):
    """Every sum in the C loops is math.fsum's: bit for bit, ties included
    (the exact sum correctly rounded, found another way)."""
    assert _core().fsum(xs) == math.fsum(xs)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 60), size=st.integers(0, 5),
       mine=st.lists(st.integers(0, 63), max_size=6), pool=st.none() | st.lists(st.integers(0, 63), unique=True,
                                                                                  max_size=25))
def test_the_c_fit_is_the_python_one(seed, particles, size, mine, pool):
    """Hands too big, too small, holding Jessah's checks or fitting already;
    no pool (it is asked for only when a hand needs one)."""
    rng = random.Random(seed)
    hands = [rng.sample(range(64), rng.choice((size, size, rng.randint(0, 7)))) for _ in range(particles)]
    mask = sum(1 << c for c in sorted(set(mine)))
    g = _guesses([0] * particles, hands, [1.0] * particles)
    d = _twin(g.lists(), random.Random(seed ^ 4).getstate())
    with _pure():
        want = d._fit_each(size, mask, pool)
    stream = random.Random(seed ^ 4)
    got = g.fit(size, mask, pool, stream.getrandbits)
    assert (got, g.lists(), stream.getstate()) == (want, (d.cities, d.hands, d.w), d.rng.getstate())
    if got == -1:
        assert pool is None


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80), zeros=st.floats(0.0, 1.0))
def test_the_c_sighting_is_the_python_one(seed, particles, zeros):
    """A cash or capture seen in a city: the guesses elsewhere lose their
    weight, unless none is there (then every weight is kept)."""
    rng = random.Random(seed)
    cities = [rng.randrange(B.n) for _ in range(particles)]
    w = [0.0 if rng.random() < zeros else rng.random() for _ in range(particles)]
    city = rng.choice(cities) if rng.random() < 0.8 else rng.randrange(B.n)
    g = _guesses(cities, [[] for _ in cities], w)
    d = _twin(g.lists(), random.Random().getstate())
    d._reveal_each(city)
    assert g.reveal(city) is None
    assert g.lists() == (d.cities, d.hands, d.w)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), particles=st.integers(1, 80), last=st.booleans(),
       decline=st.sampled_from([0.0, 0.15, 1.0]))
def test_the_c_bank_declined_is_the_python_one(seed, particles, last, decline):
    """Guesses whose hands cash on their continent or not, next to Jessah or
    not, on her last identity or not."""
    core = _core()
    rng = random.Random(seed)
    cities = [rng.randrange(B.n) for _ in range(particles)]
    hands = [rng.sample(range(len(COMPS.checks)), rng.randint(0, 4)) for _ in range(particles)]
    w = [rng.random() for _ in range(particles)]
    jessah = rng.choice(cities) if rng.random() < 0.5 else rng.randrange(B.n)
    tables = core.tables(B.n, B.nbr_routes, B.cont, B.dist, B.ball, B.cont_mask, B.check_mask)
    g = _guesses(cities, hands, w)
    d = _twin(g.lists(), random.Random().getstate(), decline=decline)
    d.b, d.jessah, d.up = B, jessah, 0 if last else 1
    d._decline_each()
    assert g.decline(tables, B.check_cont, jessah, last, decline) is None
    assert g.lists() == (d.cities, d.hands, d.w)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 100), particles=st.integers(1, 80))
def test_the_c_resampling_indices_are_the_python_ones(seed, n, particles):
    core = _core()
    rng = random.Random(seed)
    w = [rng.random() for _ in range(particles)]
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


def test_a_check_past_63_is_left_to_python():
    core = _core()
    assert core.guesses([0], [[1, 70]], [1.0]) is None  # the dossier keeps such guesses in lists
    assert core.guesses([64], [[1]], [1.0]) is None
    g = _guesses([0], [[1, 2]], [1.0])
    assert g.draw([3, 64], 1, random.Random(0).getrandbits) is False
    assert g.replace(1 << 1, [3, 64], random.Random(0).getrandbits) is False
    assert g.fit(1, 1 << 70, [3], random.Random(0).getrandbits) == -2
    assert g.fit(1, 0, [3, 64], random.Random(0).getrandbits) == -2
    assert g.lists() == ([0], [[1, 2]], [1.0])


def test_a_dossier_whose_guesses_c_cannot_hold_plays_on_in_python():
    """A guess holding a check past 63 keeps the guesses in the Python
    lists; the dossier answers as the Python source does."""
    d = Dossier(particles=3)
    d.b = B
    d.cities, d.hands, d.w = [0, 1, 2], [[1], [70], [2]], [0.2, 0.3, 0.5]
    d._push()
    assert d.g is None
    d.cities, d.hands, d.w = [0, 1, 2], [[1], [3], [2]], [0.2, 0.3, 0.5]
    d._push()
    assert d.g is not None and d.cities == [0, 1, 2] and d.w == [0.2, 0.3, 0.5]


def test_a_map_too_big_for_the_c_reading_is_left_to_python():
    core = _core()
    n = 65
    assert core.tables(n, [()] * n, [0] * n, [[0] * n] * n, [[0]] * n, [0], [0]) is None


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), draws=st.integers(1, 1500), n=st.integers(1, 64))
def test_the_c_draws_advance_the_stream_as_its_own_methods_do(seed, draws, n):
    """The C code reads a random.Random's state in place rather than calling
    its random() and getrandbits(): the same numbers, the stream left where
    the calls would leave it (past the twister's 624-word refills too)."""
    core = _core()
    rng, ref = random.Random(seed), random.Random(seed)
    fine = [1e-3] * 1000  # one index per thousandth of the draw
    for _ in range(draws):
        got = core.systematic(fine, 1, rng.random)
        with _pure():
            assert got == dossier_module._systematic(ref, fine, 1)
    assert rng.getstate() == ref.getstate()
    g = _guesses([0] * draws, [[1, 2, 3]] * draws, [1.0] * draws)
    g.cash(9, 0.5, rng.getrandbits)  # each hand misses 9: one check drawn out of three
    want = []
    for _ in range(draws):
        h = [1, 2, 3]
        h.pop(dossier_module._below(ref.getrandbits, 3))
        want.append(h)
    assert g.lists()[1] == want
    assert rng.getstate() == ref.getstate()
    one = _guesses([0], [[]], [1.0])
    one.draw(list(range(n)), 1, rng.getrandbits)
    assert one.lists()[1] == [[dossier_module._below(ref.getrandbits, n)]]
    assert rng.getstate() == ref.getstate()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**64), draws=st.integers(0, 1500), k=st.integers(0, 624))
def test_the_c_state_words_are_getstates(seed, draws, k):
    """The first k words of a random.Random's twister state, read in place,
    are getstate()'s (past the 624-word refills too), and a dossier's
    stream seeded from them is the one seeded from getstate()."""
    core = _core()
    rng = random.Random(seed)
    for _ in range(draws):
        rng.random()
    state = rng.getstate()
    assert core.state_words(rng, k) == state[1][:k]
    assert rng.getstate() == state
    want = random.Random("dossier " + " ".join(map(str, state[1][:16])))
    assert dossier_module.stream_from("dossier", rng).getstate() == want.getstate()


class _OwnState(random.Random):
    def getstate(self) -> Any:
        return (3, tuple(range(625)), None)


def test_a_stream_of_another_class_gives_its_getstate():
    core = _core()
    assert core.state_words(_OwnState(0), 16) is None
    assert dossier_module.state_words(_OwnState(0), 4) == (0, 1, 2, 3)
    with pytest.raises(ValueError):
        core.state_words(random.Random(0), 625)


class _Counting(random.Random):
    """A stream whose random() and getrandbits() are its own: the C code
    must call them, not read the state beneath them."""

    calls = 0

    def random(self) -> float:
        self.calls += 1
        return 0.5

    def getrandbits(self, k: int) -> int:
        self.calls += 1
        return 0


def test_a_stream_with_methods_of_its_own_is_called():
    core = _core()
    rng = _Counting(0)
    state = rng.getstate()
    assert core.systematic([0.5, 0.5], 2, rng.random) == [0, 1]  # u = 0.5 / 2
    g = _guesses([0, 0], [[1, 2], [3, 4]], [1.0, 1.0])
    g.cash(9, 0.5, rng.getrandbits)
    assert g.lists()[1] == [[2], [4]]  # getrandbits gave 0: the first check out
    assert rng.calls == 3 and rng.getstate() == state
    with pytest.raises(TypeError):  # another C method of the stream is called, not read as random()
        core.systematic([1.0], 1, random.Random(0).getrandbits)


def test_the_c_calls_check_their_arguments():
    """The guesses' methods and the functions the dossier and the expert call
    read their arguments without a format: a wrong count or a wrong kind is
    a TypeError, as a format's parsing gives, never a read past the
    arguments."""
    core = _core()
    g = _guesses([0, 1], [[1], [2]], [0.5, 0.5])
    t = dossier_module._tables(B)
    rand = random.Random(0).random
    with pytest.raises(TypeError):
        g.answer(1, B.n)
    with pytest.raises(TypeError):
        g.answer(1, B.n, 0.1, 0)
    with pytest.raises(TypeError):
        g.answer(1, 2.5, 0.1)
    with pytest.raises(TypeError):
        g.settle(2, None)
    with pytest.raises(TypeError):
        g.settle(2, None, rand, rand)
    ok = (t, (), 1, False, False, 3, 0, 1, [0] * len(COMPS.continents), (0,) * len(COMPS.routes), False, rand,
          0.3, 0.1)
    with pytest.raises(TypeError):
        g.announce(*ok[:-1])
    with pytest.raises(TypeError):
        g.announce(*ok, 0)
    with pytest.raises(TypeError):
        g.announce(ok[0], [], *ok[2:])  # the announcement must be a tuple
    with pytest.raises(TypeError):
        core.hunt(t, 1, 0, 2, [1.0] * B.n, 0.5, 0.0, 1)
    with pytest.raises(TypeError):
        core.hunt(t, 1, 0, 2, (1.0,) * B.n, 0.5, 0.0, 1, [])  # the weights must be a list
    bits = random.Random(0).getrandbits
    with pytest.raises(TypeError):
        g.reveal()
    with pytest.raises(TypeError):
        g.fit(1, 0, None)
    with pytest.raises(TypeError):
        g.draw((1, 2), 1, bits)  # the pool must be a list
    with pytest.raises(TypeError):
        core.spread((1.0,) * B.n, [0] * B.n, 1)  # the weights must be a list
    with pytest.raises(TypeError):
        core.systematic([1.0], 1)
    assert g.answer(3, B.n, 0.1) is not None
    assert g.settle(2, None, rand) is True
    assert g.announce(*ok) is True
