"""The crossing of a win-rate curve: the knob value where a seat's win rate
equals a target (by default 50%, the balanced game), with a 95% interval.

Method
------
A sweep plays the forger's win rate at knob values ``x_1 < ... < x_K``. Over a
short stretch of the knob a monotone win-rate curve is close to logistic, so
the crossing is estimated from a binomial logistic regression

    logit P(win | x) = b0 + b1 * x

fitted by maximum likelihood, and the crossing is ``theta = (logit(target) - b0) / b1``.

*Where the curve is fitted.* A wide grid (``money_target`` from $500k to $2M,
say) is not logistic over its whole range, and a misfit far from the crossing
would bias the estimate, so the fit uses a local window: the grid points that
bracket the target (consecutive points whose observed rates lie on either side
of it; when noise makes several brackets, from the first to the last) plus
``halo`` points on each side (default 1, so four points). When no pair of
points brackets the target the crossing lies outside the grid: every point is
used, the estimate is an extrapolation and ``inside_grid`` is False.

*The interval* is Fieller's interval for the ratio ``theta``: the set of
``t`` with ``(b0 + b1 t - logit(target))^2 <= z^2 Var(b0 + b1 t)``. Unlike the
delta method it is exact for a normally distributed ``(b0, b1)`` and is
asymmetric when the slope is uncertain; when the slope is not clearly
different from zero (``b1^2 <= z^2 Var(b1)``) the curve may never cross the
target and the interval is unbounded (``lo = -inf`` / ``hi = inf``): the data
cannot place the crossing, which is the honest answer.

*The covariance* of ``(b0, b1)`` is the robust (sandwich) one,
``I^-1 M I^-1``, where ``M`` sums the per-game score products. Two cases:

- independent points (each point plays its own games, as :mod:`rnsim.analysis.tuning`
  does): ``M`` is diagonal in the points and, when the model fits, equals the
  binomial information ``I``;
- paired points (a sweep plays the *same* game indices at every value, common
  random numbers): the outcomes of one game at neighbouring values are
  correlated, which narrows paired differences but makes the *level* of the
  curve less certain than independent binomials would say. Passing
  ``co_wins`` (the K x K counts of games won at both values) makes ``M`` the
  game-clustered meat ``sum_i s_i s_i^T``, so the interval accounts for that
  correlation. Ignoring it under-covers (measured in scripts/bench_tune.py).

Assumptions: the rate is monotone near the crossing and close to logistic over
the window (the sandwich keeps the interval honest about the noise but not
about a bias from a badly non-logistic window); enough games per point that
``(b0, b1)`` is close to normal (hundreds of games; the sandwich is the
large-sample HC0 one). Coverage is measured on synthetic curves with a known
crossing (tests/test_crossing.py, scripts/bench_tune.py).

Integer knobs (``hand_limit``, counts) have no value strictly between two grid
points: :func:`crossing` also reports the *bracket*, the two neighbouring
values whose observed rates lie on either side of the target, with their rates
and Wilson intervals.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rnsim.analysis.stats import Z95, wilson

FloatArray = npt.NDArray[np.float64]


def logit(p: float) -> float:
    if not 0.0 < p < 1.0:
        raise ValueError(f"target must be strictly between 0 and 1, got {p!r}")
    return math.log(p / (1.0 - p))


def expit(v: FloatArray | float) -> FloatArray:
    return np.asarray(1.0 / (1.0 + np.exp(-np.asarray(v, dtype=np.float64))))


@dataclass(frozen=True)
class Bracket:
    """Two neighbouring knob values whose observed rates lie on either side of the target."""

    x_low: float
    rate_low: float
    rate_low_ci: tuple[float, float]
    x_high: float
    rate_high: float
    rate_high_ci: tuple[float, float]


@dataclass(frozen=True)
class Crossing:
    """The knob value where the win rate equals ``target``.

    ``estimate`` is NaN and the bounds infinite when the data cannot place it.
    ``slope`` is the fitted change of the log-odds per unit of the knob (its
    sign says whether raising the knob helps the seat).
    """

    target: float
    estimate: float
    lo: float
    hi: float
    confidence: float
    intercept: float
    slope: float
    slope_se: float
    window: tuple[float, ...]  # the knob values the fit used
    games: int  # games in the window (a game counted once per value it was played at)
    paired: bool
    inside_grid: bool
    bracket: Bracket | None
    lack_of_fit_p: float  # Pearson goodness-of-fit p-value of the window (nan without spare points)

    @property
    def width(self) -> float:
        return self.hi - self.lo

    @property
    def bounded(self) -> bool:
        return math.isfinite(self.lo) and math.isfinite(self.hi)

    def covers(self, value: float) -> bool:
        return self.lo <= value <= self.hi


@dataclass(frozen=True)
class LogisticFit:
    """``logit p = b0 + b1 * x`` with the robust covariance of ``(b0, b1)`` (in x units)."""

    b0: float
    b1: float
    cov: FloatArray  # 2 x 2
    info: FloatArray  # model-based Fisher information (2 x 2, x units)
    converged: bool

    def rate(self, x: FloatArray | float) -> FloatArray:
        return expit(self.b0 + self.b1 * np.asarray(x, dtype=np.float64))


def _check_points(x: npt.ArrayLike, wins: npt.ArrayLike, n: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    xa = np.asarray(x, dtype=np.float64)
    wa = np.asarray(wins, dtype=np.float64)
    na = np.asarray(n, dtype=np.float64)
    if not (xa.ndim == wa.ndim == na.ndim == 1 and len(xa) == len(wa) == len(na)):
        raise ValueError("x, wins and n must be 1-D sequences of the same length")
    if len(xa) < 2:
        raise ValueError(f"a crossing needs at least two knob values, got {len(xa)}")
    if len(np.unique(xa)) != len(xa):
        raise ValueError("knob values must be distinct (merge repeated values first: see merge_points)")
    if np.any(na <= 0) or np.any(wa < 0) or np.any(wa > na):
        raise ValueError("every point needs n > 0 games and 0 <= wins <= n")
    return xa, wa, na


def merge_points(x: npt.ArrayLike, wins: npt.ArrayLike, n: npt.ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Sum the games of repeated knob values (independent batches at one value); sorted by x."""
    xa = np.asarray(x, dtype=np.float64)
    ux, inv = np.unique(xa, return_inverse=True)
    w = np.zeros(len(ux))
    m = np.zeros(len(ux))
    np.add.at(w, inv, np.asarray(wins, dtype=np.float64))
    np.add.at(m, inv, np.asarray(n, dtype=np.float64))
    return ux, w, m


def fit_logistic(
    x: npt.ArrayLike, wins: npt.ArrayLike, n: npt.ArrayLike, co_wins: npt.ArrayLike | None = None
) -> LogisticFit:
    """Maximum-likelihood logistic fit by Newton steps, with the sandwich covariance.

    ``co_wins[k, l]`` (paired points only) counts the games won at both ``x_k``
    and ``x_l``; every point then has the same ``n`` (the same game indices).
    """
    xa, wa, na = _check_points(x, wins, n)
    # work on a centred, scaled knob so that $1,000,000 and a count of 3 are
    # equally well conditioned
    x0 = float(xa.mean())
    s = float(xa.std()) or 1.0
    z = np.column_stack([np.ones_like(xa), (xa - x0) / s])
    r = np.clip(wa / na, 0.5 / na, 1 - 0.5 / na)  # start from the empirical logits, kept finite
    beta = np.linalg.lstsq(z, np.log(r / (1 - r)), rcond=None)[0]
    converged = False
    for _ in range(100):
        p = expit(z @ beta)
        w = na * p * (1 - p)
        info = z.T @ (z * w[:, None])
        grad = z.T @ (wa - na * p)
        try:
            step = np.linalg.solve(info, grad)
        except np.linalg.LinAlgError:
            break
        beta = beta + step
        if np.max(np.abs(beta)) > 50:  # separated data: the fit runs off to a step function
            break
        if np.max(np.abs(step)) < 1e-10:
            converged = True
            break
    p = expit(z @ beta)
    info = z.T @ (z * (na * p * (1 - p))[:, None])
    if co_wins is None:
        # independent points: per-game residuals (y - p) summed per point
        c = np.diag(wa - 2 * p * wa + na * p * p)
    else:
        cw = np.asarray(co_wins, dtype=np.float64)
        if cw.shape != (len(xa), len(xa)):
            raise ValueError(f"co_wins must be {len(xa)} x {len(xa)}, got {cw.shape}")
        if not np.allclose(np.diag(cw), wa):
            raise ValueError("co_wins' diagonal must equal wins (a game won at x_k is won at x_k)")
        if not np.allclose(na, na[0]):
            raise ValueError("paired points play the same games: every point needs the same n")
        # sum over games of (y_ik - p_k)(y_il - p_l), from counts
        c = cw - np.outer(wa, p) - np.outer(p, wa) + na[0] * np.outer(p, p)
    meat = z.T @ c @ z
    try:
        bread = np.linalg.inv(info)
        cov_u = bread @ meat @ bread
    except np.linalg.LinAlgError:
        cov_u = np.full((2, 2), np.inf)
        converged = False
    # back to x units: b1 = g1 / s, b0 = g0 - g1 * x0 / s
    t = np.array([[1.0, -x0 / s], [0.0, 1.0 / s]])
    b = t @ beta
    cov = t @ cov_u @ t.T
    info_x = np.linalg.inv(t).T @ info @ np.linalg.inv(t) if np.all(np.isfinite(info)) else info
    return LogisticFit(float(b[0]), float(b[1]), cov, info_x, converged)


def fieller(fit: LogisticFit, target: float = 0.5, z: float = Z95) -> tuple[float, float, float]:
    """``(estimate, lo, hi)`` of the crossing of ``fit`` (Fieller's interval).
    Unbounded sides are infinite; with no usable slope the estimate is NaN."""
    c = logit(target)
    b0, b1 = fit.b0 - c, fit.b1
    v00, v01, v11 = fit.cov[0, 0], fit.cov[0, 1], fit.cov[1, 1]
    if not (fit.converged and np.all(np.isfinite(fit.cov))) or b1 == 0:
        return math.nan, -math.inf, math.inf
    est = -b0 / b1
    z2 = z * z
    # (b0 + b1 t)^2 - z^2 (v00 + 2 t v01 + t^2 v11) <= 0
    a = b1 * b1 - z2 * v11
    bq = 2 * (b0 * b1 - z2 * v01)
    cq = b0 * b0 - z2 * v00
    if a <= 0:
        return est, -math.inf, math.inf
    disc = bq * bq - 4 * a * cq
    if disc < 0:  # cannot happen when a > 0 (the estimate is always inside); guard rounding
        return est, est, est
    root = math.sqrt(disc)
    lo, hi = (-bq - root) / (2 * a), (-bq + root) / (2 * a)
    return est, lo, hi


def bracket(x: npt.ArrayLike, wins: npt.ArrayLike, n: npt.ArrayLike, target: float = 0.5, z: float = Z95,
            near: float | None = None) -> Bracket | None:
    """The neighbouring pair of knob values whose observed rates straddle
    ``target`` (nearest to ``near`` when noise makes several), or None."""
    xa, wa, na = _check_points(x, wins, n)
    order = np.argsort(xa)
    xa, wa, na = xa[order], wa[order], na[order]
    pairs = _bracket_pairs(wa / na, target)
    if not pairs:
        return None
    k = pairs[0] if near is None else min(pairs, key=lambda j: abs(0.5 * (xa[j] + xa[j + 1]) - near))
    lo_k = wilson(wa[k], na[k], z)
    lo_k1 = wilson(wa[k + 1], na[k + 1], z)
    return Bracket(float(xa[k]), float(wa[k] / na[k]), lo_k, float(xa[k + 1]), float(wa[k + 1] / na[k + 1]), lo_k1)


def _bracket_pairs(rates: FloatArray, target: float) -> list[int]:
    d = rates - target
    return [k for k in range(len(d) - 1) if d[k] * d[k + 1] <= 0 and not (d[k] == 0 and d[k + 1] == 0)]


def crossing(
    x: npt.ArrayLike,
    wins: npt.ArrayLike,
    n: npt.ArrayLike,
    target: float = 0.5,
    *,
    co_wins: npt.ArrayLike | None = None,
    halo: int = 1,
    window: tuple[float, float] | None = None,
    z: float = Z95,
) -> Crossing:
    """The crossing of the win-rate curve through points ``(x_k, wins_k, n_k)``.

    ``co_wins`` marks the points as paired (the same games at every value; see
    the module docstring). ``halo`` is the number of grid points kept on each
    side of the bracket for the fit; ``window = (a, b)`` instead fits every
    point with ``a <= x <= b`` (at least two are needed).
    """
    logit(target)  # validates the target
    if halo < 0:
        raise ValueError(f"halo must be >= 0, got {halo}")
    xa, wa, na = _check_points(x, wins, n)
    order = np.argsort(xa)
    xa, wa, na = xa[order], wa[order], na[order]
    cw = None if co_wins is None else np.asarray(co_wins, dtype=np.float64)[np.ix_(order, order)]
    pairs = _bracket_pairs(wa / na, target)
    if window is not None:
        sel = np.flatnonzero((xa >= window[0]) & (xa <= window[1]))
        if len(sel) < 2:
            raise ValueError(f"the window {window} holds {len(sel)} knob value(s); a fit needs two")
    elif pairs:
        first = max(0, pairs[0] - halo)
        last = min(len(xa) - 1, pairs[-1] + 1 + halo)
        sel = np.arange(first, last + 1)
    else:
        sel = np.arange(len(xa))
    fit = fit_logistic(xa[sel], wa[sel], na[sel], None if cw is None else cw[np.ix_(sel, sel)])
    est, lo, hi = fieller(fit, target, z)
    br = bracket(xa, wa, na, target, z, near=est if math.isfinite(est) else None)
    # Pearson goodness of fit of the window: with more points than parameters
    # a small p-value says the logistic shape (or independence) does not hold
    p = fit.rate(xa[sel])
    pearson = float(np.sum((wa[sel] - na[sel] * p) ** 2 / np.maximum(na[sel] * p * (1 - p), 1e-300)))
    df = len(sel) - 2
    if df > 0 and cw is None:
        from scipy.stats import chi2

        gof = float(chi2.sf(pearson, df))
    else:
        gof = math.nan
    conf = float(2 * _norm_cdf(z) - 1)
    return Crossing(
        target=target,
        estimate=est,
        lo=lo,
        hi=hi,
        confidence=conf,
        intercept=fit.b0,
        slope=fit.b1,
        slope_se=float(math.sqrt(fit.cov[1, 1])) if math.isfinite(fit.cov[1, 1]) and fit.cov[1, 1] >= 0 else math.inf,
        window=tuple(float(v) for v in xa[sel]),
        games=int(na[sel].sum()),
        paired=cw is not None,
        inside_grid=bool(pairs),
        bracket=br,
        lack_of_fit_p=gof,
    )


def _norm_cdf(v: float) -> float:
    return 0.5 * (1.0 + math.erf(v / math.sqrt(2.0)))


def crossing_width_for_design(
    fit: LogisticFit, xs: npt.ArrayLike, games_per_point: float, target: float = 0.5, z: float = Z95
) -> float:
    """Expected width of the crossing's interval for a design playing
    ``games_per_point`` independent games at each of ``xs``, if the curve is
    ``fit`` (delta method on the Fisher information: the large-sample width
    Fieller's interval tends to)."""
    xa = np.asarray(xs, dtype=np.float64)
    p = fit.rate(xa)
    w = games_per_point * p * (1 - p)
    zx = np.column_stack([np.ones_like(xa), xa])
    info = zx.T @ (zx * w[:, None])
    if fit.b1 == 0:
        return math.inf
    theta = (logit(target) - fit.b0) / fit.b1
    g = np.array([1.0, theta])
    try:
        var_level = float(g @ np.linalg.solve(info, g))
    except np.linalg.LinAlgError:
        return math.inf
    return 2 * z * math.sqrt(max(var_level, 0.0)) / abs(fit.b1)
