"""Find the crossing on a lattice of knob values: spend games on the two values
next to it, not on a grid.

The design: noisy binary search on the lattice, then the bracket
-------------------------------------------------------------------
The knob's values form a lattice ``lo, lo + step, ..., hi``; the answer is the
pair of neighbouring lattice values whose rates straddle the target, and where
between them the straight line crosses it (:mod:`rnsim.analysis.crossing`: no
model of the curve, a confidence set that holds whatever its shape). This is
the problem of Karp and Kleinberg's noisy binary search ("Noisy binary search
and its applications", SODA 2007: coins sorted by bias, find the neighbours
around a target probability), with one difference that matters: every value
plays the *same* game indices ``0, 1, 2, ...`` (common random numbers), so two
neighbours' games are paired. The steps:

1. *First look.* ``batch`` games at ``start_points`` values spread over the
   lattice (both ends included).
2. *Bisect.* Wherever the confidence set (or an observed crossing) lies between
   two values played that are not neighbours on the lattice, play the lattice
   value half-way between them (``batch`` games): the curve between played
   values is unknown, so the set there is only provisional.
3. *Refine the bracket.* Once the set lies between lattice neighbours, play
   more games at both ends of every segment it touches (so the values just
   outside it are checked too), all to the same number of games (so their
   games stay paired), sized by the ``1/sqrt(games)`` law to reach the
   tolerance (at least ``batch`` more, at most doubling).
4. *Stop* when the set is narrower than ``tolerance``, inside the range, and
   the values around it played at least ``CONFIRM`` first looks of games
   ("tolerance": for a count, a tolerance of 1 stops once the set lies
   between two neighbours, which is all a count can say); or when every value
   played is clearly on one side of the target, the closest one with
   ``CONFIRM`` first looks of games ("not reached": no crossing is claimed);
   or when the budget is spent ("budget").

Probabilistic bisection (Waeber, Frazier and Henderson 2013) and
Robbins-Monro were the alternatives: both walk a continuous knob and assume a
curve that changes everywhere; on a lattice where the answer is two
neighbouring values, and where a knob may change no game over part of its range
(a plateau), the bracket is the natural object, and its interval comes from the
games at its two ends alone.

A value's games are a prefix ``0..n-1`` of the game indices; growing it plays
``n..n'-1``. Every game of every value is used by the final confidence set
only through the values next to the crossing; the rest is the price of
finding them. Coverage under sequential stopping is measured by
benchmarks/crossing.py (and at a smaller size by tests/test_tuning.py).

:class:`SyntheticCurve` is a known curve with paired binary outcomes, of
several shapes, for the tests and the benchmark.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from rnsim.analysis.crossing import Crossing, Sample, crossing, curve, logit
from rnsim.analysis.stats import Z95

#: games (in first-look batches) the values around the crossing play before
#: the search stops on its tolerance, and the value closest to the target
#: before it says the target is not reached
CONFIRM = 4

#: play(value, first index, stop index) -> (the games played without error, games played)
PlayFn = Callable[[float, int, int], tuple[Sample, int]]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Batch:
    value: float
    start: int  # first game index
    stop: int  # one past the last
    games: int  # games played (every cell of every index)
    mean: float  # the statistic's mean over the batch's games played without error


@dataclass(frozen=True)
class TuneResult:
    crossing: Crossing  # over the values played
    lattice: tuple[float, ...]
    reason: str  # "tolerance", "not reached" or "budget"
    tolerance: float
    games: int
    batches: tuple[Batch, ...]

    @property
    def converged(self) -> bool:
        return self.reason == "tolerance"

    @property
    def neighbours(self) -> bool:
        """The values around the estimate are neighbours on the lattice (no value between them unplayed)."""
        k = self.crossing.bracket
        if k is None:
            return False
        a, b = self.crossing.x[k], self.crossing.x[k + 1]
        return self.lattice.index(b) - self.lattice.index(a) == 1


def lattice_values(lo: float, hi: float, step: float) -> list[float]:
    """``lo, lo + step, ...`` up to ``hi`` (included when it is on the lattice)."""
    if not lo < hi:
        raise ValueError(f"the range needs lo < hi, got {lo}..{hi}")
    if step <= 0:
        raise ValueError(f"the step must be positive, got {step}")
    n = int(math.floor((hi - lo) / step + 1e-9))
    return [lo + i * step for i in range(n + 1)]


def tune(
    play: PlayFn,
    lattice: Sequence[float],
    *,
    target: float = 0.5,
    tolerance: float,
    batch: int = 100,
    start_points: int = 5,
    max_games: int = 1_000_000,
    z: float = Z95,
    on_batch: Callable[[Batch], None] | None = None,
) -> TuneResult:
    """Search the lattice for the crossing of ``target`` (module docstring).
    ``batch`` counts game indices (a value with several cells plays each)."""
    logit(target)
    lat = [float(v) for v in lattice]
    if len(lat) < 2 or any(b <= a for a, b in zip(lat, lat[1:], strict=False)):
        raise ValueError("the lattice needs at least two ascending values")
    if tolerance <= 0:
        raise ValueError(f"tolerance must be positive, got {tolerance}")
    if batch < 1 or start_points < 2:
        raise ValueError("batch must be >= 1 and start_points >= 2")
    s = _Search(play, lat, target, z, max_games, on_batch)
    first = sorted({int(round(v)) for v in np.linspace(0, len(lat) - 1, min(start_points, len(lat)))})
    s.grow({j: batch for j in first})
    while True:
        cur = s.crossing()
        if s.spent >= max_games:
            reason = "budget"
            break
        plan, reason = _next(s, cur, tolerance, batch)
        if not plan:
            break
        if not s.grow(plan):
            reason = "budget"
            break
    return TuneResult(s.crossing(), tuple(lat), reason, tolerance, s.spent, tuple(s.batches))


@dataclass
class _Search:
    play: PlayFn
    lattice: list[float]
    target: float
    z: float
    max_games: int
    on_batch: Callable[[Batch], None] | None
    samples: dict[int, Sample] = field(default_factory=dict)
    n: dict[int, int] = field(default_factory=dict)  # game indices played per lattice index
    batches: list[Batch] = field(default_factory=list)
    spent: int = 0
    per_index: float = 1.0  # games per game index (the cells of a value), learnt from the first batch

    @property
    def played(self) -> list[int]:
        return sorted(self.samples)

    def crossing(self) -> Crossing:
        js = self.played
        return crossing(curve([self.lattice[j] for j in js], [self.samples[j] for j in js]), self.target, self.z)

    def grow(self, plan: dict[int, int]) -> bool:
        """Play each lattice index ``j`` up to ``plan[j]`` game indices, within
        the budget (every value cut to the same share). False when nothing fits."""
        todo = {j: u for j, u in plan.items() if u > self.n.get(j, 0)}
        extra = sum(u - self.n.get(j, 0) for j, u in todo.items()) * self.per_index
        left = self.max_games - self.spent
        if todo and extra > left:
            scale = left / extra
            todo = {j: self.n.get(j, 0) + int((u - self.n.get(j, 0)) * scale) for j, u in todo.items()}
            todo = {j: u for j, u in todo.items() if u > self.n.get(j, 0)}
        if not todo:
            return False
        for j, upto in sorted(todo.items()):
            start = self.n.get(j, 0)
            got, games = self.play(self.lattice[j], start, upto)
            if not self.batches:
                self.per_index = max(games / (upto - start), 1e-9)
            self.spent += games
            self.n[j] = upto
            if len(got):
                self.samples[j] = self.samples[j].join(got) if j in self.samples else got
            b = Batch(self.lattice[j], start, upto, games, float(got.y.mean()) if len(got) else math.nan)
            self.batches.append(b)
            if self.on_batch is not None:
                self.on_batch(b)
        return True


def _next(s: _Search, cur: Crossing, tolerance: float, batch: int) -> tuple[dict[int, int], str]:
    """The next games to play, or ``({}, reason)`` to stop."""
    js = s.played
    xs = [s.lattice[j] for j in js]
    if not cur.found:
        near = [j for j, x in zip(js, xs, strict=True) if cur.covers(x)]
        if not near:
            # every value is clearly on one side; before saying so, the value
            # closest to the target is checked with more games (a first look
            # of paired games can put every value on the wrong side at once)
            closest = js[cur.closest]
            if s.n[closest] < CONFIRM * batch:
                return {closest: CONFIRM * batch}, ""
            return {}, "not reached"
        # a value within noise of the target: more games there decide on which side it is
        top = max(s.n[j] for j in near)
        return {j: max(2 * top, top + batch) for j in near}, ""
    touched = [i for i in range(len(js) - 1) if _touches(cur, xs[i], xs[i + 1])]
    probes = {(js[i] + js[i + 1]) // 2 for i in touched if js[i + 1] - js[i] > 1}
    if probes:
        return {j: batch for j in sorted(probes)}, ""
    # the set reaches a value played whose outer lattice neighbour was not: look there
    outer = [js[0] - 1] if cur.open_low and js[0] > 0 else []
    outer += [js[-1] + 1] if cur.open_high and js[-1] < len(s.lattice) - 1 else []
    if outer:
        return {j: batch for j in outer}, ""
    # every segment the set touches, both ends: a value left at its first
    # games because they happened to put it outside the set keeps that error
    # (the design stops looking at it), so the values flanking the set are
    # checked with as many games as the bracket (Karp and Kleinberg's check of
    # the active interval's ends)
    ends = sorted({j for i in touched for j in (js[i], js[i + 1])})
    top = max(s.n[j] for j in ends)
    if not (cur.open_low or cur.open_high) and cur.width <= tolerance:
        # a set that is narrow on a first look's games is narrow by luck as
        # often as not: the ends play CONFIRM first looks before it counts
        if min(s.n[j] for j in ends) >= CONFIRM * batch:
            return {}, "tolerance"
        return {j: max(top, CONFIRM * batch) for j in ends}, ""
    ratio = (cur.width / tolerance) ** 2 * 1.1 if math.isfinite(cur.width) else 2.0
    want = int(math.ceil(min(max(top * ratio, top + batch), 2 * top)))
    return {j: want for j in ends}, ""


def _touches(cur: Crossing, a: float, b: float) -> bool:
    """The confidence set or an observed crossing meets the segment [a, b]."""
    return any(p <= b and q >= a for p, q in cur.pieces) or any(a <= c <= b for c in cur.crossings)


# ----------------------------------------------------------------------- synthetic curves

#: the shapes a synthetic curve can have (see SyntheticCurve.rate)
SHAPES = ("logistic", "step", "staircase", "kink", "plateau", "bump", "flat")


@dataclass
class SyntheticCurve:
    """A known win-rate curve with paired binary outcomes.

    ``rate(x) = g(direction * (x - crossing) / scale)`` with ``g`` increasing
    through the target at 0 for the monotone shapes:

    - "logistic": ``expit(w + logit(target))``;
    - "step": the target +- 0.1, one jump at 0 (flat everywhere else);
    - "staircase": a logistic rounded to steps of width 0.5 in ``w``, one
      jump through the target at 0 (a money target that matters only in
      multiples of the check values);
    - "kink": straight lines through the target, three times steeper on one side;
    - "plateau": a logistic, but flat 2.5 points above the target over
      ``0 <= w < 1.5`` (where a designer's lattice might sit on it);

    and two that never reach the target: "bump" (peaks 12 points below it)
    and "flat" (15 points below it everywhere).

    Game ``i`` at value ``x`` is won when ``u_i < rate(x)``, with ``u_i`` the
    game's shared uniform draw with probability ``coupling`` (common random
    numbers) and otherwise a fresh one drawn for the rate itself, so two values
    with the same rate play exactly the same games, as a knob that changes no
    game does. Draws are a function of (seed, game index), so a tune and a
    sweep with the same seed see the same games.
    """

    shape: str
    crossing: float
    scale: float
    target: float = 0.5
    direction: int = -1
    coupling: float = 0.8
    seed: int = 0
    _cache: dict[tuple[int, ...], FloatArray] = field(default_factory=dict, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.shape not in SHAPES:
            raise ValueError(f"shape must be one of {', '.join(SHAPES)}, got {self.shape!r}")

    def seeded(self, seed: int) -> SyntheticCurve:
        return replace(self, seed=seed, _cache={})

    def rate(self, x: npt.ArrayLike) -> FloatArray:
        w = self.direction * (np.asarray(x, dtype=np.float64) - self.crossing) / self.scale
        lt = logit(self.target)
        t = self.target
        if self.shape == "logistic":
            r = _expit(w + lt)
        elif self.shape == "step":
            r = np.where(w > 0, t + 0.1, t - 0.1)
        elif self.shape == "staircase":
            r = _expit((np.floor(2 * w) + 0.5) / 2 + lt)
        elif self.shape == "kink":
            r = t + np.where(w > 0, 0.12 * w, 0.04 * w)
        elif self.shape == "plateau":
            r = _expit(np.where(w < 0, w, np.where(w < 1.5, 0.1, w - 1.4)) + lt)
        elif self.shape == "bump":
            r = t - 0.25 + 0.13 * np.exp(-w * w)
        else:
            r = np.full_like(w, t - 0.15)
        return np.asarray(np.clip(r, 0.01, 0.99), dtype=np.float64)

    def lattice_crossing(self, lattice: Sequence[float]) -> float:
        """Where the straight lines between the true rates at ``lattice`` meet
        the target (NaN when they do not): what a crossing estimates."""
        xs = np.asarray(lattice, dtype=np.float64)
        d = self.rate(xs) - self.target
        for k in range(len(xs) - 1):
            if d[k] == 0:
                return float(xs[k])
            if d[k] * d[k + 1] < 0:
                return float(xs[k] + (xs[k + 1] - xs[k]) * d[k] / (d[k] - d[k + 1]))
        return float(xs[-1]) if d[-1] == 0 else math.nan

    def play(self, value: float, start: int, stop: int) -> tuple[Sample, int]:
        """Games ``start..stop-1`` at ``value`` (the PlayFn of :func:`tune`)."""
        idx = np.arange(start, stop, dtype=np.int64)
        p = float(self.rate(value))
        shared = self._uniform((0,), idx)
        mix = self._uniform((1,), idx)
        fresh = self._uniform((2, int(np.float64(p).view(np.uint64))), idx)
        u = np.where(mix < self.coupling, shared, fresh)
        return Sample.of((u < p).astype(np.float64), idx), stop - start

    def sweep(self, xs: Sequence[float], games: int) -> list[Sample]:
        """Games ``0..games-1`` at every value, paired."""
        return [self.play(x, 0, games)[0] for x in xs]

    def _uniform(self, stream: tuple[int, ...], idx: npt.NDArray[np.int64]) -> FloatArray:
        block = 4096
        out = np.empty(len(idx))
        for b in np.unique(idx // block):
            key = (*stream, int(b))
            if key not in self._cache:
                self._cache[key] = np.random.default_rng([self.seed, *key]).random(block)
            sel = idx // block == b
            out[sel] = self._cache[key][idx[sel] - b * block]
        return out


def _expit(v: FloatArray) -> FloatArray:
    return np.asarray(1.0 / (1.0 + np.exp(-v)), dtype=np.float64)
