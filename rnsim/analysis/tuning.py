"""Find the crossing adaptively: spend games near the balanced value, not on a grid.

The design (a sequential two-point design for a logistic curve's crossing)
---------------------------------------------------------------------------
1. *Locate.* Play ``batch`` games at ``start_points`` evenly spaced values over
   ``[lo, hi]``.
2. *Refine.* Fit the crossing (:func:`rnsim.analysis.crossing.crossing`: a
   local logistic fit with Fieller's interval) on every value played so far.
   Play the next games at two values ``theta_hat +- delta``, where ``delta`` is
   where the fitted curve is ``spread`` (default 0.15) away from the target:
   close enough to the crossing that almost every game there informs the
   *level* of the curve at the crossing (which is what pins it down), far
   enough apart to keep the *slope* known (which turns a level into a knob
   value). When the interval is still unbounded the next games go to the
   bracket's ends instead.
3. *Stop* as soon as the interval is narrower than ``tolerance`` (or when
   ``max_games`` are spent: then ``converged`` is False and the result says so).
   For an integer knob the values are snapped to the notch lattice, and the two
   lattice values around the crossing are played (one batch each if the design
   skipped them), so the result brackets the target with two neighbouring values.

The batch size follows the interval: the width shrinks like ``1/sqrt(games)``
near the crossing, so the next batch is sized to reach the tolerance, at least
``batch`` and at most doubling the games already spent near it, so a noisy
early fit cannot squander the budget.

Every batch plays fresh game indices (the caller's ``play`` gets the first
index and a count), so the values' outcomes are independent and the crossing's
interval is the independent-points one. Probabilistic bisection (Waeber,
Frazier and Henderson 2013, "Bisection search with noisy responses") was the
alternative: it needs only the sign of each answer but assumes a constant
probability of a correct sign, which fails exactly near the crossing, where
the rate is close to the target and a batch's sign is a coin toss; the
logistic design uses the rates themselves and gives an interval whose
coverage can be checked (scripts/bench_tune.py).

Sequential stopping makes the final interval slightly optimistic in theory;
the coverage measured by simulation is reported in docs/levers.md.

:class:`SyntheticCurve` is a known win-rate curve with binomial outcomes (and
optional common-random-number coupling) used by the tests and the benchmark.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from rnsim.analysis.crossing import (
    Crossing,
    LogisticFit,
    crossing,
    crossing_width_for_design,
    expit,
    fit_logistic,
    logit,
    merge_points,
)
from rnsim.analysis.stats import Z95

#: play(value, first_game_index, games) -> (wins of the seat whose rate is
#: tuned, games actually played: a tournament may round up to whole cells)
PlayFn = Callable[[float, int, int], tuple[int, int]]


@dataclass(frozen=True)
class Batch:
    value: float
    first_game: int
    games: int
    wins: int


@dataclass(frozen=True)
class TuneResult:
    crossing: Crossing
    converged: bool  # the interval is narrower than the tolerance
    tolerance: float
    games: int  # games played in all
    batches: tuple[Batch, ...]
    grid_points: int
    grid_games: float  # games a grid of grid_points values over [lo, hi] needs for the same width (model-based)
    lo: float
    hi: float

    @property
    def savings(self) -> float:
        """Share of the grid's games the adaptive search did not need."""
        if not math.isfinite(self.grid_games) or self.grid_games <= 0:
            return math.nan
        return 1.0 - self.games / self.grid_games


@dataclass
class _Plan:
    lo: float
    hi: float
    integer: bool
    notch: float

    def snap(self, v: float) -> float:
        v = min(max(v, self.lo), self.hi)
        if self.integer:
            # integer knobs live on the notch lattice that starts at lo
            k = round((v - self.lo) / self.notch)
            v = self.lo + k * self.notch
            v = min(max(v, self.lo), self.hi)
        return float(v)


def grid_values(lo: float, hi: float, points: int, integer: bool = False, notch: float = 1.0) -> list[float]:
    """``points`` evenly spaced values over ``[lo, hi]`` (on the notch lattice for integer knobs)."""
    if points < 2:
        raise ValueError(f"a grid needs at least 2 points, got {points}")
    plan = _Plan(lo, hi, integer, notch)
    vals = sorted({plan.snap(float(v)) for v in np.linspace(lo, hi, points)})
    return vals


def tune(
    play: PlayFn,
    lo: float,
    hi: float,
    *,
    target: float = 0.5,
    tolerance: float,
    batch: int = 200,
    start_points: int = 5,
    spread: float = 0.15,
    integer: bool = False,
    notch: float = 1.0,
    max_games: int = 1_000_000,
    grid_points: int = 9,
    first_game: int = 0,
    z: float = Z95,
    on_batch: Callable[[Batch, Crossing | None], None] | None = None,
) -> TuneResult:
    """Search the knob value in ``[lo, hi]`` where the rate equals ``target``
    until its interval is narrower than ``tolerance`` (see the module docstring)."""
    logit(target)
    if not lo < hi:
        raise ValueError(f"the search range needs lo < hi, got {lo}..{hi}")
    if tolerance <= 0:
        raise ValueError(f"tolerance must be positive, got {tolerance}")
    if batch < 1 or start_points < 2:
        raise ValueError("batch must be >= 1 and start_points >= 2")
    if not 0 < spread < min(target, 1 - target):
        raise ValueError(f"spread must be between 0 and {min(target, 1 - target)}, got {spread}")
    plan = _Plan(lo, hi, integer, notch)
    batches: list[Batch] = []
    next_game = first_game

    def run(value: float, games: int) -> None:
        nonlocal next_game
        asked = int(max(1, games))
        wins, games = (int(v) for v in play(value, next_game, asked))
        if not (games >= 1 and 0 <= wins <= games):
            raise ValueError(f"play({value}, {next_game}, {asked}) returned {wins} wins of {games} games")
        b = Batch(value, next_game, games, wins)
        next_game += games
        batches.append(b)
        if on_batch is not None:
            on_batch(b, None)

    def spent() -> int:
        return sum(b.games for b in batches)

    for v in grid_values(lo, hi, start_points, integer, notch):
        run(v, batch)
    cur = _fit(batches, target, z, spread)
    while True:
        if cur.bounded and cur.width <= tolerance:
            break
        if spent() >= max_games:
            break
        pts = _next_values(cur, plan, target, spread)
        near = sum(b.games for b in batches if b.value in cur.window)
        if cur.bounded and cur.width > 0:
            # width ~ 1/sqrt(games near the crossing): aim straight at the tolerance
            need = near * ((cur.width / tolerance) ** 2 - 1.0)
            per_point = min(max(need / len(pts), batch), max(near, batch))
        else:
            per_point = batch
        per_point = min(per_point, max(1, (max_games - spent()) // len(pts)))
        for v in pts:
            run(v, int(math.ceil(per_point)))
        cur = _fit(batches, target, z, spread)
    if integer and math.isfinite(cur.estimate):
        # an integer knob's answer is the two neighbouring values around the
        # crossing, with their rates: make sure both were played
        below = plan.snap(math.floor((cur.estimate - lo) / notch) * notch + lo)
        played = {b.value for b in batches}
        missing = [v for v in sorted({below, plan.snap(below + notch)}) if v not in played]
        if missing and spent() < max_games:
            for v in missing:
                run(v, batch)
            cur = _fit(batches, target, z, spread)
    fit = _window_fit(batches, cur)
    grid = grid_values(lo, hi, grid_points, integer, notch)
    grid_games = _grid_games(fit, grid, cur, tolerance, target, z)
    return TuneResult(
        crossing=cur,
        converged=cur.bounded and cur.width <= tolerance,
        tolerance=tolerance,
        games=spent(),
        batches=tuple(batches),
        grid_points=len(grid),
        grid_games=grid_games,
        lo=lo,
        hi=hi,
    )


def _points(batches: list[Batch]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    return merge_points([b.value for b in batches], [b.wins for b in batches], [b.games for b in batches])


def _fit(batches: list[Batch], target: float, z: float, spread: float) -> Crossing:
    """The crossing from every value played within reach of the current
    estimate: a first fit on the bracket locates it, then the fit keeps the
    values where that curve is within ``2 * spread`` of the target (the
    two-point design's values sit at ``spread``), so the many games played
    there are all used while far values cannot bend the local fit."""
    x, w, n = _points(batches)
    first = crossing(x, w, n, target, z=z)
    if not (first.bounded and math.isfinite(first.estimate) and first.slope != 0):
        return first
    reach = abs((logit(min(target + 2 * spread, 0.99)) - logit(target)) / first.slope)
    sel = np.abs(x - first.estimate) <= reach
    if sel.sum() < 2:
        return first
    return crossing(x, w, n, target, window=(first.estimate - reach, first.estimate + reach), z=z)


def _window_fit(batches: list[Batch], cur: Crossing) -> LogisticFit:
    x, w, n = _points(batches)
    sel = np.isin(x, np.asarray(cur.window))
    return fit_logistic(x[sel], w[sel], n[sel])


def _next_values(cur: Crossing, plan: _Plan, target: float, spread: float) -> list[float]:
    if not cur.bounded or not math.isfinite(cur.estimate) or cur.slope == 0:
        if cur.bracket is not None:
            return [plan.snap(cur.bracket.x_low), plan.snap(cur.bracket.x_high)]
        return [plan.snap(plan.lo), plan.snap(plan.hi)]
    d = abs((logit(target + spread) - logit(target)) / cur.slope)
    centre = min(max(cur.estimate, plan.lo), plan.hi)
    a, b = plan.snap(centre - d), plan.snap(centre + d)
    if a == b:
        # an integer knob with a steep curve: the two lattice values around the crossing
        below = plan.snap(math.floor((centre - plan.lo) / plan.notch) * plan.notch + plan.lo)
        a, b = below, plan.snap(below + plan.notch)
        if a == b:
            a = plan.snap(b - plan.notch)
    return [a, b] if a != b else [a]


def _grid_games(fit: LogisticFit, grid: list[float], cur: Crossing, tolerance: float, target: float, z: float) -> float:
    """Games a grid over ``grid`` needs for an interval of width ``tolerance``,
    if the curve is ``fit``: the grid's crossing is fitted on the bracket and
    one value on each side (as :func:`crossing` does), and its width shrinks
    like ``1/sqrt(games per value)``."""
    if not (math.isfinite(cur.estimate) and fit.converged):
        return math.nan
    g = np.asarray(grid)
    k = int(np.searchsorted(g, cur.estimate))
    window = g[max(0, k - 2): min(len(g), k + 2)]
    if len(window) < 2:
        window = g[:2] if k == 0 else g[-2:]
    w1 = crossing_width_for_design(fit, window, 1.0, target, z)
    if not math.isfinite(w1):
        return math.nan
    per_value = (w1 / tolerance) ** 2
    return float(per_value * len(g))


# ----------------------------------------------------------------------- synthetic model


@dataclass
class SyntheticCurve:
    """A known win-rate curve ``rate(x) = shape((x - crossing) * direction / scale)``
    with binomial outcomes, for checking the crossing's coverage.

    ``shape`` is "logistic" (the fit's own model) or "probit" (a different
    curve, to check the local fit is not relying on the model being exact).
    ``coupling`` is the chance that game ``i``'s outcome at a value uses the
    game's shared uniform draw (common random numbers, as a sweep's paired
    games) rather than a fresh one; 0 gives independent points.
    """

    crossing: float
    scale: float
    target: float = 0.5
    direction: int = -1  # -1: the rate falls as the knob rises (money_target for the forger)
    shape: str = "logistic"
    coupling: float = 0.0
    _rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0), repr=False)

    def rate(self, x: npt.ArrayLike) -> npt.NDArray[np.float64]:
        # shift so that rate(crossing) == target exactly
        v = self.direction * (np.asarray(x, dtype=np.float64) - self.crossing) / self.scale
        if self.shape == "logistic":
            return expit(v + logit(self.target))
        if self.shape == "probit":
            from scipy.stats import norm

            return np.asarray(norm.cdf(v * 1.7 + norm.ppf(self.target)))
        raise ValueError(f"shape must be 'logistic' or 'probit', got {self.shape!r}")

    def seeded(self, seed: int) -> SyntheticCurve:
        return SyntheticCurve(self.crossing, self.scale, self.target, self.direction, self.shape, self.coupling,
                              np.random.default_rng(seed))

    def play(self, value: float, first_game: int, games: int) -> tuple[int, int]:
        """Independent games at one value (the PlayFn of :func:`tune`)."""
        return int(self._rng.binomial(games, float(self.rate(value)))), games

    def sweep(self, xs: npt.ArrayLike, games: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """The same ``games`` game indices at every value: ``(wins per value,
        co_wins matrix)`` with the coupling's correlation between values."""
        xa = np.asarray(xs, dtype=np.float64)
        p = self.rate(xa)
        shared = self._rng.random((games, 1))
        fresh = self._rng.random((games, len(xa)))
        use_shared = self._rng.random((games, len(xa))) < self.coupling
        u = np.where(use_shared, shared, fresh)
        y = (u < p[None, :]).astype(np.float64)
        return y.sum(axis=0), y.T @ y
