"""Where a win-rate curve crosses a target, from games played on a lattice of
knob values, with a 95% confidence set that needs no model of the curve.

What is estimated
-----------------
Games are played at knob values ``x_1 < ... < x_K`` (a sweep's grid, the
values a tune visited). Nothing is observed between two values, so the curve
between them is whatever a straight line says: the *crossing* is where the
piecewise-linear interpolation of the true rates ``r_1 .. r_K`` meets the
target ``t``. Between neighbours ``x_k, x_k+1`` whose rates straddle ``t``

    theta = x_k + (x_k+1 - x_k) * (r_k - t) / (r_k - r_k+1).

No logistic (or other) shape is assumed: a step, a kink or a plateau between
two lattice values changes the rates *at* the values, which is all the
estimate uses. For a curve that really is a step between two values (a money
target between two multiples of the check values, say) the honest answer is
the *bracket*, the two values and their rates; the interpolated value says
where between them a straight line would cross.

The confidence set
------------------
The set of knob values ``x`` at which the data do not reject "the interpolated
rate at ``x`` equals ``t``": ``|rhat(x) - t| <= z * se(rhat(x))``, where
``rhat(x) = (1-u) rhat_k + u rhat_k+1`` and its variance
``(1-u)^2 V_k + u^2 V_k+1 + 2u(1-u) C_k,k+1`` comes from the games themselves.
At the true crossing the test is a plain 95% test of one mean, so the set
covers it with 95% probability *whatever the curve's shape* (this is Fieller's
construction applied segment by segment). It can be a union of pieces (a curve
that is flat near the target, or not monotone); it reaches the first or last
value played when the crossing may lie there or beyond (``open_low`` /
``open_high``).

The variances and covariances are cluster-robust: every game belongs to a
cluster (its game index: game ``i`` of every value and every cell shares its
chance stream) and a stratum (its cell within a value: a setup and a strategy
per seat), and ``Cov(rhat_k, rhat_l) = sum_c R_ck R_cl / (n_k n_l)`` with
``R_ck`` the sum over cluster ``c``'s games at ``x_k`` of their residuals from
their stratum's mean (the small-sample factor ``m/(m-1)``, ``m`` the clusters
shared). Paired games (the same indices at every value, common random numbers)
have positive covariances, which narrow the differences between neighbours and
widen the level of the curve; independent values have none. The outcome of a
game may be a win (0/1) or a share of a win.

What was seen
-------------
Besides the crossing, :class:`Crossing` says what the curve looked like: per
pair of neighbours the paired difference with its interval and whether the two
values played *exactly the same games* (every shared game the same outcome:
the knob changes nothing there), and the overall shape (rises, falls, peaks,
dips, flat). When no two values bracket the target there is no crossing: the
closest value and its rate are what there is to report.

Coverage on synthetic curves of several shapes (logistic, steps, kinks,
plateaus) is checked in tests/test_crossing.py and benchmarks/crossing.py.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from rnsim.analysis.stats import Z95, wilson

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


def logit(p: float) -> float:
    """Validates a target rate (strictly between 0 and 1) and returns its log-odds."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"target must be strictly between 0 and 1, got {p!r}")
    return math.log(p / (1.0 - p))


# --------------------------------------------------------------------------- the games


@dataclass(frozen=True)
class Sample:
    """The games played at one knob value: per game its index (the cluster:
    game ``i`` of every value and cell shares a chance stream), its stratum
    (the cell within the value, 0 when there is one) and its outcome ``y``
    (a win 0/1, or the watched seat's share of the win)."""

    index: IntArray
    stratum: IntArray
    y: FloatArray

    @staticmethod
    def of(y: npt.ArrayLike, index: npt.ArrayLike | None = None, stratum: npt.ArrayLike | None = None) -> Sample:
        ya = np.asarray(y, dtype=np.float64)
        ia = np.arange(len(ya), dtype=np.int64) if index is None else np.asarray(index, dtype=np.int64)
        sa = np.zeros(len(ya), dtype=np.int64) if stratum is None else np.asarray(stratum, dtype=np.int64)
        if not (ya.ndim == ia.ndim == sa.ndim == 1 and len(ya) == len(ia) == len(sa)):
            raise ValueError("a sample's outcomes, indices and strata must be 1-D and of one length")
        return Sample(ia, sa, ya)

    def __len__(self) -> int:
        return len(self.y)

    def join(self, more: Sample) -> Sample:
        return Sample(np.concatenate([self.index, more.index]), np.concatenate([self.stratum, more.stratum]),
                      np.concatenate([self.y, more.y]))


@dataclass(frozen=True)
class Curve:
    """Rates at the knob values with their cluster-robust covariance, and per
    pair of neighbours the games played at both and how many of them changed."""

    x: FloatArray
    rate: FloatArray
    games: IntArray
    cov: FloatArray  # K x K
    shared: IntArray  # K-1: games (index and stratum) played at both x_k and x_k+1
    changed: IntArray  # K-1: of those, games whose outcome differs

    @property
    def se(self) -> FloatArray:
        return np.sqrt(np.clip(np.diag(self.cov), 0.0, None))

    def difference(self, k: int, m: int, z: float = Z95) -> tuple[float, float, float]:
        """``rate[m] - rate[k]`` with its interval (paired where games are shared)."""
        d = float(self.rate[m] - self.rate[k])
        var = float(self.cov[k, k] + self.cov[m, m] - 2 * self.cov[k, m])
        half = z * math.sqrt(max(var, 0.0))
        return d, d - half, d + half

    def rate_interval(self, z: float = Z95) -> tuple[FloatArray, FloatArray]:
        """Each value's rate interval: Wilson's, on the games' effective number
        (the games divided by the design effect of clusters and strata)."""
        p, n = self.rate, self.games.astype(np.float64)
        iid = p * (1 - p) / n
        var = np.clip(np.diag(self.cov), 0.0, None)
        deff = np.where((iid > 0) & (var > 0), var / np.where(iid > 0, iid, 1.0), 1.0)
        n_eff = n / deff
        return wilson(p * n_eff, n_eff, z)


def curve(x: Sequence[float] | FloatArray, samples: Sequence[Sample]) -> Curve:
    """The :class:`Curve` of the games ``samples[k]`` played at ``x[k]``."""
    xa = np.asarray(x, dtype=np.float64)
    if xa.ndim != 1 or len(xa) != len(samples):
        raise ValueError("one sample per knob value")
    if len(xa) < 1 or any(len(s) == 0 for s in samples):
        raise ValueError("every knob value needs at least one game")
    if np.any(np.diff(xa) <= 0):
        raise ValueError("knob values must be distinct and ascending")
    ids = np.unique(np.concatenate([s.index for s in samples]))
    k = len(xa)
    resid = np.zeros((len(ids), k))
    present = np.zeros((len(ids), k))
    rate = np.empty(k)
    games = np.empty(k, dtype=np.int64)
    for j, s in enumerate(samples):
        strata, inv = np.unique(s.stratum, return_inverse=True)
        means = np.bincount(inv, weights=s.y) / np.bincount(inv)
        pos = np.searchsorted(ids, s.index)
        resid[:, j] = np.bincount(pos, weights=s.y - means[inv], minlength=len(ids))
        present[:, j] = np.bincount(pos, minlength=len(ids)) > 0
        rate[j] = float(s.y.mean())
        games[j] = len(s)
    both = present.T @ present  # clusters shared by two values
    factor = np.where(both > 1, both / np.maximum(both - 1, 1), 1.0)
    cov = (resid.T @ resid) * factor / np.outer(games, games)
    shared = np.zeros(max(k - 1, 0), dtype=np.int64)
    changed = np.zeros(max(k - 1, 0), dtype=np.int64)
    for j in range(k - 1):
        shared[j], changed[j] = _common(samples[j], samples[j + 1])
    return Curve(xa, rate, games, cov, shared, changed)


def _common(a: Sample, b: Sample) -> tuple[int, int]:
    """Games (same index and stratum) played at both values, and how many changed outcome."""
    width = int(max(a.stratum.max(initial=0), b.stratum.max(initial=0))) + 1
    ka = a.index * width + a.stratum
    kb = b.index * width + b.stratum
    _, ia, ib = np.intersect1d(ka, kb, assume_unique=False, return_indices=True)
    return len(ia), int(np.count_nonzero(a.y[ia] != b.y[ib]))


# --------------------------------------------------------------------------- the crossing


@dataclass(frozen=True)
class Step:
    """Two neighbouring values: the paired difference of their rates and
    whether they played exactly the same games."""

    x_low: float
    x_high: float
    diff: float  # rate(x_high) - rate(x_low)
    diff_lo: float
    diff_hi: float
    shared: int
    changed: int

    @property
    def same_games(self) -> bool:
        """Every game played at both values had the same outcome (and there were some)."""
        return self.shared > 0 and self.changed == 0

    @property
    def trend(self) -> str:
        """"same" (no game changed), "up", "down" or "unclear" (the interval holds 0)."""
        if self.same_games:
            return "same"
        if self.diff_lo > 0:
            return "up"
        if self.diff_hi < 0:
            return "down"
        return "unclear"


@dataclass(frozen=True)
class Crossing:
    """Where the curve through the values played meets ``target``.

    ``crossings`` are where the observed (interpolated) curve meets the
    target: none when no two neighbours bracket it, several when noise or a
    curve that is not monotone makes it meet the target more than once.
    ``estimate`` is the only crossing, or the middle one (NaN with none).
    ``pieces`` is the 95% confidence set (possibly empty, possibly several
    intervals); ``lo``/``hi`` its hull.
    """

    target: float
    confidence: float
    x: tuple[float, ...]
    rate: tuple[float, ...]
    rate_lo: tuple[float, ...]
    rate_hi: tuple[float, ...]
    games: tuple[int, ...]
    crossings: tuple[float, ...]
    pieces: tuple[tuple[float, float], ...]
    steps: tuple[Step, ...]
    shape: str  # "rises", "falls", "peaks", "dips", "flat", "not monotone" or "one value"
    extreme: float | None  # the value of the peak or dip

    @property
    def estimate(self) -> float:
        if not self.crossings:
            return math.nan
        return self.crossings[len(self.crossings) // 2]

    @property
    def lo(self) -> float:
        return self.pieces[0][0] if self.pieces else math.nan

    @property
    def hi(self) -> float:
        return self.pieces[-1][1] if self.pieces else math.nan

    @property
    def width(self) -> float:
        return self.hi - self.lo if self.pieces else math.inf

    @property
    def open_low(self) -> bool:
        """The confidence set reaches the first value: the crossing may be there or below."""
        return bool(self.pieces) and self.pieces[0][0] <= self.x[0]

    @property
    def open_high(self) -> bool:
        return bool(self.pieces) and self.pieces[-1][1] >= self.x[-1]

    @property
    def found(self) -> bool:
        """The observed curve meets the target between the first and the last value."""
        return bool(self.crossings)

    @property
    def closed(self) -> bool:
        """Found, and the confidence set stays inside the values played."""
        return self.found and not (self.open_low or self.open_high)

    def covers(self, value: float) -> bool:
        return any(a <= value <= b for a, b in self.pieces)

    @property
    def bracket(self) -> int | None:
        """Index ``k`` of the neighbours ``x_k, x_k+1`` around the estimate (None without one)."""
        if not self.crossings:
            return None
        e = self.estimate
        k = int(np.searchsorted(np.asarray(self.x), e, side="right")) - 1
        return min(max(k, 0), len(self.x) - 2)

    @property
    def closest(self) -> int:
        """Index of the value whose rate is closest to the target."""
        return int(np.argmin(np.abs(np.asarray(self.rate) - self.target)))

    def lattice_hull(self) -> tuple[float, float] | None:
        """The confidence set widened to the values played around it (the
        bracket a designer can set): contains the true crossing of any curve
        that is monotone between those values, whenever the set covers the
        interpolated one."""
        if not self.pieces:
            return None
        xs = np.asarray(self.x)
        a = xs[max(int(np.searchsorted(xs, self.lo, side="right")) - 1, 0)]
        b = xs[min(int(np.searchsorted(xs, self.hi, side="left")), len(xs) - 1)]
        return float(a), float(b)


def crossing(c: Curve, target: float = 0.5, z: float = Z95) -> Crossing:
    """The crossing of ``c`` with ``target`` (see the module docstring)."""
    logit(target)
    k = len(c.x)
    lo, hi = c.rate_interval(z)
    steps = tuple(Step(float(c.x[j]), float(c.x[j + 1]), *c.difference(j, j + 1, z), int(c.shared[j]),
                       int(c.changed[j])) for j in range(k - 1))
    found: list[float] = []
    pieces: list[tuple[float, float]] = []
    if k == 1:
        if _accepts(c, 0, 0, 0.0, target, z):
            pieces.append((float(c.x[0]), float(c.x[0])))
        if c.rate[0] == target:
            found.append(float(c.x[0]))
    for j in range(k - 1):
        found += _observed(c, j, target)
        pieces += _segment_set(c, j, target, z)
    shape, extreme = _shape(c, z)
    return Crossing(
        target=target,
        confidence=float(2 * _norm_cdf(z) - 1),
        x=tuple(float(v) for v in c.x),
        rate=tuple(float(v) for v in c.rate),
        rate_lo=tuple(float(v) for v in lo),
        rate_hi=tuple(float(v) for v in hi),
        games=tuple(int(v) for v in c.games),
        crossings=tuple(sorted(set(found))),
        pieces=tuple(_merge(pieces)),
        steps=steps,
        shape=shape,
        extreme=extreme,
    )


def _observed(c: Curve, j: int, target: float) -> list[float]:
    """Where the observed line between values j and j+1 meets the target."""
    a = float(c.rate[j] - target)
    b = float(c.rate[j + 1] - target)
    x0, x1 = float(c.x[j]), float(c.x[j + 1])
    if a == 0 and b == 0:
        return [x0, x1]
    if a == 0:
        return [x0]
    if b == 0:
        return [x1]
    if a * b < 0:
        return [x0 + (x1 - x0) * a / (a - b)]
    return []


def _accepts(c: Curve, j: int, m: int, u: float, target: float, z: float) -> bool:
    r = (1 - u) * c.rate[j] + u * c.rate[m]
    v = (1 - u) ** 2 * c.cov[j, j] + u * u * c.cov[m, m] + 2 * u * (1 - u) * c.cov[j, m]
    return bool((r - target) ** 2 <= z * z * max(float(v), 0.0) * (1 + 1e-12) + 1e-300)


def _segment_set(c: Curve, j: int, target: float, z: float) -> list[tuple[float, float]]:
    """The part of [x_j, x_j+1] where the interpolated rate's test accepts the target."""
    a = float(c.rate[j] - target)
    d = float(c.rate[j] - c.rate[j + 1])
    v0, v1, cv = float(c.cov[j, j]), float(c.cov[j + 1, j + 1]), float(c.cov[j, j + 1])
    z2 = z * z
    qa = d * d - z2 * (v0 + v1 - 2 * cv)
    qb = -2 * a * d + 2 * z2 * (v0 - cv)
    qc = a * a - z2 * v0
    cuts = [0.0, 1.0]
    if qa != 0:
        disc = qb * qb - 4 * qa * qc
        if disc >= 0:
            r = math.sqrt(disc)
            cuts += [(-qb - r) / (2 * qa), (-qb + r) / (2 * qa)]
    elif qb != 0:
        cuts.append(-qc / qb)
    cuts = sorted({u for u in cuts if 0.0 <= u <= 1.0})
    x0, x1 = float(c.x[j]), float(c.x[j + 1])
    out: list[tuple[float, float]] = []
    for u0, u1 in zip(cuts, cuts[1:], strict=False):
        if _accepts(c, j, j + 1, 0.5 * (u0 + u1), target, z):
            out.append((x0 + (x1 - x0) * u0, x0 + (x1 - x0) * u1))
    for u in cuts:  # an isolated point (a value exactly at the target with no variance, a tangent)
        if _accepts(c, j, j + 1, u, target, z):
            x = x0 + (x1 - x0) * u
            if not any(p <= x <= q for p, q in out):
                out.append((x, x))
    return out


def _merge(pieces: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for a, b in sorted(pieces):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _shape(c: Curve, z: float) -> tuple[str, float | None]:
    """The curve's overall shape, from paired differences that are clear at
    95%: a peak (or dip) strictly inside the range, clearly above (below) both
    ends; else "rises" when some value is clearly above an earlier one and none
    clearly below, "falls" the other way round, "not monotone" when both
    happen, "flat" when no two values differ clearly."""
    k = len(c.x)
    if k == 1:
        return "one value", None
    top, bottom = int(np.argmax(c.rate)), int(np.argmin(c.rate))
    if 0 < top < k - 1 and c.difference(0, top, z)[1] > 0 and c.difference(k - 1, top, z)[1] > 0:
        return "peaks", float(c.x[top])
    if 0 < bottom < k - 1 and c.difference(0, bottom, z)[2] < 0 and c.difference(k - 1, bottom, z)[2] < 0:
        return "dips", float(c.x[bottom])
    up = down = False
    for i in range(k - 1):
        for j in range(i + 1, k):
            _, lo, hi = c.difference(i, j, z)
            up |= lo > 0
            down |= hi < 0
    if up and down:
        return "not monotone", None
    if up:
        return "rises", None
    if down:
        return "falls", None
    return "flat", None


def _norm_cdf(v: float) -> float:
    return 0.5 * (1.0 + math.erf(v / math.sqrt(2.0)))


def same_game_runs(steps: Sequence[Step]) -> list[tuple[float, float, int]]:
    """Stretches of neighbouring values that played exactly the same games:
    ``(first value, last value, fewest games shared)``."""
    out: list[tuple[float, float, int]] = []
    for s in steps:
        if not s.same_games:
            continue
        if out and out[-1][1] == s.x_low:
            out[-1] = (out[-1][0], s.x_high, min(out[-1][2], s.shared))
        else:
            out.append((s.x_low, s.x_high, s.shared))
    return out
