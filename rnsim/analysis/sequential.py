"""The balance-drift gate: a sequential test of "did the watched seat's win rate move?".

The question per cell (variant x setup x strategy pair) is whether the
watched seat's win rate (Red Notice: Angela's) now, ``p``, differs from the
baseline's, ``p0``. Write
``theta = p - p0`` and ``delta`` for the designer's tolerance.

Hypotheses and errors (per cell)
--------------------------------
The gate is built so that

* with no change (``theta = 0``) it says "drift" with probability at most
  ``alpha / cells`` (so at most ``alpha`` for the whole family of cells,
  Bonferroni), and
* with a change of ``2 delta`` in either direction it says "drift" with
  probability at least ``1 - beta``.

``delta`` is therefore the tipping point: a move smaller than ``delta`` is
more likely to pass than to be flagged, a larger one the opposite ("moved by
less than delta" against "moved by more than delta"), and the band between 0
and ``2 delta`` is the indifference zone that makes a finite test possible.

The test is a mixture SPRT on the normal approximation of the difference:
the likelihood ratio of the data under "moved by 2 delta, up or down with
equal weight" against "not moved",

    LLR = log cosh(2 delta W) - (2 delta)^2 I / 2,

with ``W`` and ``I`` below. A cell says "drift" when the LLR reaches
``log A = log(cells / alpha)`` and "no drift" when it falls to
``log B = log(beta / (1 - alpha / cells))``. Under no change the mixture
likelihood ratio of that Brownian model is a martingale of mean 1, so by Ville's inequality it ever
reaches ``A`` with probability at most ``1/A = alpha / cells`` even under
continuous monitoring; Bonferroni over the cells keeps the family-wise false
alarm rate at ``alpha``. Against a move of ``2 delta`` the ratio is at least
half the one-sided ratio, so the miss rate is about ``beta`` (Wald). Batches
overshoot the bounds a little, which only lowers both error rates; the
simulation tests measure them. (The mixture accepts "no drift" sooner than
Sobel and Wald's pair of one-sided SPRTs: about 15% fewer games in the
benchmark.)

The baseline is an estimate too
-------------------------------
``p0`` comes from ``n0`` baseline games, not from an oracle. With ``S_n`` the
watched seat's wins in ``n`` current games (independent of the baseline's games: the
check plays fresh game indices), the estimate ``D_n = S_n / n - x0 / n0`` has
variance ``V_n = p(1-p)/n + p0(1-p0)/n0``, and the baseline's error is one
offset shared by every ``D_n``. In "information time" ``I_n = 1 / V_n`` the
score ``W_n = I_n D_n`` is, in the normal approximation, a Brownian motion
with drift ``theta``
(``Cov(W_m, W_n) = I_m`` for ``m <= n``, the canonical joint distribution of
group-sequential tests), so the SPRT on ``W`` is valid with the baseline's
uncertainty counted once, not ignored. The price is honest: information can
never exceed ``n0 / (p0 (1 - p0))``, so a baseline too small for ``delta`` leaves
the gate undecided whatever the budget (``baseline_games_needed`` says how
many baseline games a design needs).

The variance is plugged in from the data, pooled over baseline and current
games as the two-proportion score test does (under "no change" the two rates
are one rate), with a +1/+2 smoothing so a cell with no wins yet still has a
finite information. Pooling keeps false alarms under alpha even for rates near
0 or 1, where the unpooled plug-in over-alarms (measured: 7% instead of 5% at
a 15% win rate over 6 cells); it costs a little power for upward moves from
rates under about 10%, where the normal approximation is coarse anyway.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rnsim.analysis._normal import norm
from rnsim.analysis.stats import Z95
from rnsim.errors import ConfigError

DRIFT, NO_DRIFT, UNDECIDED = "drift", "no drift", "undecided"
VERDICT_NAMES = {1: DRIFT, -1: NO_DRIFT, 0: UNDECIDED}  # cell state codes

# The normal approximation needs a few games per cell before a decision is trusted.
MIN_GAMES = 30


@dataclass(frozen=True, slots=True)
class GateDesign:
    """Tolerance and error rates of the gate, and how many cells it covers."""

    delta: float
    alpha: float = 0.05
    beta: float = 0.05
    cells: int = 1

    def __post_init__(self) -> None:
        if not 0 < self.delta < 0.25:
            raise ConfigError(f"gate: delta: must be between 0 and 0.25 (a win-rate difference), got {self.delta}")
        if not 0 < self.alpha < 0.5:
            raise ConfigError(f"gate: alpha: must be between 0 and 0.5, got {self.alpha}")
        if not 0 < self.beta < 0.5:
            raise ConfigError(f"gate: beta: must be between 0 and 0.5, got {self.beta}")
        if self.cells < 1:
            raise ConfigError(f"gate: cells: must be at least 1, got {self.cells}")

    @property
    def theta1(self) -> float:
        """The alternative: a move of 2 delta (either way)."""
        return 2 * self.delta

    @property
    def alpha_cell(self) -> float:
        """False-alarm budget of one cell (Bonferroni)."""
        return self.alpha / self.cells

    @property
    def upper(self) -> float:
        """log A: an LLR at or above this says the cell drifted."""
        return math.log(1 / self.alpha_cell)

    @property
    def lower(self) -> float:
        """log B: an LLR at or below this says it did not."""
        return math.log(self.beta / (1 - self.alpha_cell))

    @property
    def fixed_information(self) -> float:
        """Information a fixed-sample two-sided z-test with the same alpha (per cell),
        beta and delta needs: level alpha/cells, power 1 - beta at a move of 2 delta
        (variance taken as equal under both hypotheses)."""
        z = norm.ppf(1 - self.alpha_cell / 2) + norm.ppf(1 - self.beta)
        return float((z / self.theta1) ** 2)

    def fixed_games(self, p0: float, n0: int) -> float:
        """Current games one cell of the fixed-sample z-test needs against ``n0`` baseline
        games at rate ``p0``: level ``alpha/cells`` under no change, power ``1 - beta``
        against a move of ``2 delta`` in the harder direction (the one nearer 50%).
        Infinite when the baseline alone is too imprecise."""
        za = float(norm.ppf(1 - self.alpha_cell / 2))
        zb = float(norm.ppf(1 - self.beta))
        p1 = p0 + self.theta1 if p0 < 0.5 else p0 - self.theta1
        p1 = min(max(p1, 1e-9), 1 - 1e-9)
        base = p0 * (1 - p0) / n0

        def shortfall(n: float) -> float:
            return za * math.sqrt(p0 * (1 - p0) / n + base) + zb * math.sqrt(p1 * (1 - p1) / n + base) - self.theta1

        if za * math.sqrt(base) + zb * math.sqrt(base) >= self.theta1:
            return math.inf
        hi = 1.0
        while shortfall(hi) > 0:
            hi *= 2
        from scipy.optimize import brentq

        return float(brentq(shortfall, 1e-9, hi, xtol=1e-6))

    def baseline_games_needed(self, p0: float, factor: float = 4.0) -> int:
        """Baseline games per cell so the baseline's own error takes at most
        ``1/factor`` of the variance the fixed-sample test allows."""
        return math.ceil(factor * p0 * (1 - p0) * self.fixed_information)


def drift_statistics(x0, n0, x, n):  # type: ignore[no-untyped-def]
    """Difference, its variance, the information and the score W (arrays or floats).

    ``x0`` of ``n0`` baseline games and ``x`` of ``n`` current games were won by the watched seat.
    """
    x0 = np.asarray(x0, dtype=float)
    n0 = np.asarray(n0, dtype=float)
    x = np.asarray(x, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        pooled = (x0 + x + 1) / (n0 + n + 2)
        var = pooled * (1 - pooled) * (1 / n + 1 / n0)
        diff = np.where(n > 0, x / n, np.nan) - x0 / n0
        info = np.where(n > 0, 1 / var, 0.0)
        score = np.where(n > 0, diff * info, 0.0)
    return diff, var, info, score


def interval_variance(x0: int, n0: int, x: int, n: int) -> float:
    """Variance of the difference for its 95% interval: each rate's own (smoothed)
    variance, since under a move the two rates differ (the test pools them because
    under its null they are equal)."""
    if n == 0:
        return math.nan
    p0s, ps = (x0 + 1) / (n0 + 2), (x + 1) / (n + 2)
    return ps * (1 - ps) / n + p0s * (1 - p0s) / n0


def mixture_llr(design: GateDesign, score, info):  # type: ignore[no-untyped-def]
    """log of (LR(+2 delta) + LR(-2 delta)) / 2 against no move, on the Brownian score."""
    t = design.theta1
    tw = t * np.asarray(score, dtype=float)
    return np.logaddexp(tw, -tw) - math.log(2) - t * t * np.asarray(info, dtype=float) / 2


def advance(design: GateDesign, state: np.ndarray, llr, n) -> np.ndarray:  # type: ignore[no-untyped-def]
    """New cell states after looking at the latest LLRs; decided cells stay decided."""
    running = (state == 0) & (np.asarray(n) >= MIN_GAMES)
    out = np.where(running & (llr >= design.upper), 1, state)
    return np.where(running & (llr <= design.lower), -1, out).astype(np.int8)


@dataclass(frozen=True, slots=True)
class CellResult:
    """Where one cell stands: the numbers the pull-request block prints."""

    baseline_wins: int
    baseline_games: int
    wins: int
    games: int
    diff: float
    low: float  # 95% interval of the difference (fixed-sample, not adjusted for stopping)
    high: float
    llr: float
    lower: float
    upper: float
    verdict: str

    @property
    def baseline_rate(self) -> float:
        return self.baseline_wins / self.baseline_games

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else math.nan


class SequentialGate:
    """The SPRT of every cell, fed cumulative counts batch after batch."""

    def __init__(self, design: GateDesign, baseline: Sequence[tuple[int, int]]) -> None:
        if len(baseline) != design.cells:
            raise ValueError(f"the design covers {design.cells} cells but the baseline has {len(baseline)}")
        for wins, games in baseline:
            if games <= 0 or not 0 <= wins <= games:
                raise ConfigError(f"baseline: a cell has {wins} wins of the watched seat in {games} games")
        self.design = design
        self.x0 = np.array([w for w, _ in baseline], dtype=np.int64)
        self.n0 = np.array([g for _, g in baseline], dtype=np.int64)
        self.x = np.zeros(design.cells, dtype=np.int64)
        self.n = np.zeros(design.cells, dtype=np.int64)
        self.state = np.zeros(design.cells, dtype=np.int8)

    def update(self, counts: Sequence[tuple[int, int]]) -> None:
        """Give the cumulative (watched seat's wins, games) of the current run, per cell.
        Decided cells keep their verdict and numbers whatever comes after."""
        x = np.array([w for w, _ in counts], dtype=np.int64)
        n = np.array([g for _, g in counts], dtype=np.int64)
        if len(x) != self.design.cells or (n < self.n).any() or (x < self.x).any() or (x > n).any():
            raise ValueError("counts must be cumulative (wins <= games, never decreasing), one per cell")
        open_ = self.state == 0
        self.x = np.where(open_, x, self.x)
        self.n = np.where(open_, n, self.n)
        _, _, info, score = drift_statistics(self.x0, self.n0, self.x, self.n)
        self.state = advance(self.design, self.state, mixture_llr(self.design, score, info), self.n)

    def settle_no_drift(self, i: int) -> None:
        """Close cell ``i`` as "no drift" on other evidence (an exact replay, see
        :func:`replay_games_needed`); it gets no more games."""
        if self.state[i] == 0:
            self.state[i] = -1

    @property
    def undecided(self) -> list[int]:
        return [i for i, v in enumerate(self.state) if v == 0]

    @property
    def done(self) -> bool:
        return not self.undecided

    @property
    def overall(self) -> str:
        """Drift if any cell drifted (family-wise error alpha), else undecided if any
        cell is still open, else no drift."""
        if (self.state == 1).any():
            return DRIFT
        return UNDECIDED if (self.state == 0).any() else NO_DRIFT

    def results(self) -> list[CellResult]:
        diff, _, info, score = drift_statistics(self.x0, self.n0, self.x, self.n)
        llr = mixture_llr(self.design, score, info)
        out = []
        for i, code in enumerate(self.state):
            half = Z95 * math.sqrt(interval_variance(self.x0[i], self.n0[i], self.x[i], self.n[i]))
            out.append(CellResult(
                baseline_wins=int(self.x0[i]), baseline_games=int(self.n0[i]),
                wins=int(self.x[i]), games=int(self.n[i]),
                diff=float(diff[i]), low=float(diff[i] - half), high=float(diff[i] + half),
                llr=float(llr[i]), lower=self.design.lower, upper=self.design.upper,
                verdict=VERDICT_NAMES[int(code)],
            ))
        return out


@dataclass(frozen=True, slots=True)
class SimulationSummary:
    """Operating characteristics of the gate measured on synthetic binomial data."""

    checks: int
    drift: float  # share of checks whose overall verdict was drift
    no_drift: float
    undecided: float
    mean_games_per_cell: float  # current games used, averaged over cells and checks
    mean_games: float  # current games used by a whole check


def simulate_checks(
    design: GateDesign,
    p0: float | Sequence[float],
    p: float | Sequence[float],
    n0: int,
    batch: int,
    budget: int,
    checks: int,
    seed: int,
) -> SimulationSummary:
    """Run ``checks`` whole gates on synthetic data: a fresh binomial baseline of
    ``n0`` games per cell with true rate ``p0``, then current batches with true
    rate ``p``, with the same stopping, budget and decision code as ``rnsim check``
    (``budget`` counts current games over all cells, as the real gate does)."""
    m = design.cells
    p0a = np.broadcast_to(np.asarray(p0, dtype=float), (m,))
    pa = np.broadcast_to(np.asarray(p, dtype=float), (m,))
    rng = np.random.default_rng(seed)
    x0 = rng.binomial(n0, p0a, size=(checks, m))
    n0a = np.full((checks, m), n0)
    x = np.zeros((checks, m), dtype=np.int64)
    n = np.zeros((checks, m), dtype=np.int64)
    state = np.zeros((checks, m), dtype=np.int8)
    used = np.zeros(checks, dtype=np.int64)
    while True:
        open_cells = state == 0
        n_open = open_cells.sum(axis=1)
        per_cell = batch_sizes(batch, budget - used, n_open)
        active = per_cell > 0
        if not active.any():
            break
        k = np.where(open_cells & active[:, None], per_cell[:, None], 0)
        x += rng.binomial(k, pa)
        n += k
        used += k.sum(axis=1)
        _, _, info, score = drift_statistics(x0, n0a, x, n)
        state = advance(design, state, mixture_llr(design, score, info), n)
    drift = (state == 1).any(axis=1)
    undecided = ~drift & (state == 0).any(axis=1)
    return SimulationSummary(
        checks=checks,
        drift=float(drift.mean()),
        no_drift=float((~drift & ~undecided).mean()),
        undecided=float(undecided.mean()),
        mean_games_per_cell=float(n.mean()),
        mean_games=float(used.mean()),
    )


def batch_sizes(batch: int, remaining, open_cells):  # type: ignore[no-untyped-def]
    """Games each open cell plays next: a full batch, or an even share of what is
    left of the budget (0 when nothing is open or the budget is spent)."""
    remaining = np.asarray(remaining)
    open_cells = np.asarray(open_cells)
    share = remaining // np.maximum(open_cells, 1)
    return np.where(open_cells > 0, np.clip(np.minimum(batch, share), 0, None), 0)


# ------------------------------------------------------------------ exact replay
#
# When the check runs under the baseline's own master seed it can first replay
# the baseline's first games: game i gets the same chance stream, so the watched seat's
# outcome under the current code and under the baseline's code form a pair. A move
# of the win rate by theta needs the two outcomes to differ in a share of at least
# |theta| of the games (theta = P(win now, lost then) - P(lost now, won then)), so if
# the first k replayed games all end the same way for the watched seat, a move of 2 delta
# had probability at most (1 - 2 delta)^k of hiding: an exact bound, no
# approximation. The usual case in CI, a change that does not touch the balance,
# is then decided in k games per cell instead of hundreds; a cell where one replayed
# game differs goes on to the SPRT on fresh games.


def replay_games_needed(delta: float, miss: float) -> int:
    """Identical replayed games that bound the chance of missing a move of 2 delta by ``miss``."""
    if not 0 < delta < 0.25 or not 0 < miss < 1:
        raise ConfigError(f"replay: needs 0 < delta < 0.25 and 0 < miss < 1, got delta={delta}, miss={miss}")
    return math.ceil(math.log(miss) / math.log(1 - 2 * delta))


def replay_miss_bound(delta: float, games: int) -> float:
    """Most probability that ``games`` identical replayed games hide a move of 2 delta."""
    return float((1 - 2 * delta) ** games)
