"""The balance-drift gate: a sequential test of "did the forger's win rate move?".

The question per cell (variant x identity pair x strategy pair) is whether
Angela's win rate now, ``p``, differs from the baseline's, ``p0``. Write
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

The test is Sobel and Wald's pair of one-sided SPRTs on the normal
approximation of the difference: "up" tests ``theta = 0`` against
``theta = +2 delta`` and "down" tests ``theta = 0`` against
``theta = -2 delta``, each at level ``alpha / (2 cells)`` with Wald's bounds
``A = (1 - beta) / a`` and ``B = beta / (1 - a)``. Each side stops on its own
when its log-likelihood ratio leaves ``(log B, log A)``. A cell is "drift" as
soon as either side crosses ``log A``, "no drift" once both sides have crossed
``log B``. Wald's bounds ignore the overshoot of the last batch, which only
makes the real error rates smaller; the simulation tests measure them.

The baseline is an estimate too
-------------------------------
``p0`` comes from ``n0`` baseline games, not from an oracle. With ``S_n`` the
forger's wins in ``n`` current games (independent of the baseline's games: the
check plays fresh game indices), the estimate ``D_n = S_n / n - x0 / n0`` has
variance ``V_n = p(1-p)/n + p0(1-p0)/n0``, and the baseline's error is one
offset shared by every ``D_n``. In "information time" ``I_n = 1 / V_n`` the
score ``W_n = I_n D_n`` is exactly a Brownian motion with drift ``theta``
(``Cov(W_m, W_n) = I_m`` for ``m <= n``, the canonical joint distribution of
group-sequential tests), so the SPRT on ``W`` is valid with the baseline's
uncertainty counted once, not ignored. The price is honest: information can
never exceed ``n0 / (p0 (1 - p0))``, so a baseline too small for ``delta`` leaves
the gate undecided whatever the budget (``baseline_games_needed`` says how
many baseline games a design needs). The variances are plugged in from the
data with a +1/+2 (Agresti) smoothing so a cell with no wins yet still has a
finite information.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.stats import norm

from rnsim.errors import ConfigError

Z95 = float(norm.ppf(0.975))

RUNNING, ACCEPTED, REJECTED = 0, -1, 1  # state of one side's SPRT
DRIFT, NO_DRIFT, UNDECIDED = "drift", "no drift", "undecided"

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
        if not 0 < self.delta < 0.5:
            raise ConfigError(f"gate: delta: must be between 0 and 0.5 (a win-rate difference), got {self.delta}")
        if not 0 < self.alpha < 0.5:
            raise ConfigError(f"gate: alpha: must be between 0 and 0.5, got {self.alpha}")
        if not 0 < self.beta < 0.5:
            raise ConfigError(f"gate: beta: must be between 0 and 0.5, got {self.beta}")
        if self.cells < 1:
            raise ConfigError(f"gate: cells: must be at least 1, got {self.cells}")

    @property
    def theta1(self) -> float:
        """The alternative each side tests against: a move of 2 delta."""
        return 2 * self.delta

    @property
    def alpha_side(self) -> float:
        """False-alarm budget of one side of one cell (Bonferroni over cells and sides)."""
        return self.alpha / (2 * self.cells)

    @property
    def upper(self) -> float:
        """log A: a side's LLR at or above this says the rate moved."""
        return math.log((1 - self.beta) / self.alpha_side)

    @property
    def lower(self) -> float:
        """log B: a side's LLR at or below this says it did not move that way."""
        return math.log(self.beta / (1 - self.alpha_side))

    @property
    def fixed_information(self) -> float:
        """Information a fixed-sample two-sided z-test of the same alpha, beta and delta needs."""
        z = norm.ppf(1 - self.alpha_side) + norm.ppf(1 - self.beta)
        return float((z / self.theta1) ** 2)

    def fixed_games(self, p: float, p0: float, n0: int) -> float:
        """Current games one cell of that fixed-sample test needs against ``n0`` baseline
        games (infinite when the baseline alone is too imprecise)."""
        room = 1 / self.fixed_information - p0 * (1 - p0) / n0
        return math.inf if room <= 0 else p * (1 - p) / room

    def baseline_games_needed(self, p0: float, factor: float = 3.0) -> int:
        """Baseline games per cell so the baseline's own error takes at most
        ``1/factor`` of the variance the fixed-sample test allows."""
        return math.ceil(factor * p0 * (1 - p0) * self.fixed_information)


def drift_statistics(x0, n0, x, n):  # type: ignore[no-untyped-def]
    """Difference, its variance, the information and the score W (arrays or floats).

    ``x0`` of ``n0`` baseline games and ``x`` of ``n`` current games were won by the forger.
    """
    x0 = np.asarray(x0, dtype=float)
    n0 = np.asarray(n0, dtype=float)
    x = np.asarray(x, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        p0s = (x0 + 1) / (n0 + 2)
        ps = (x + 1) / (n + 2)
        var = ps * (1 - ps) / n + p0s * (1 - p0s) / n0
        diff = np.where(n > 0, x / n, np.nan) - x0 / n0
        info = np.where(n > 0, 1 / var, 0.0)
        score = np.where(n > 0, diff * info, 0.0)
    return diff, var, info, score


def side_llrs(design: GateDesign, score, info):  # type: ignore[no-untyped-def]
    """Log-likelihood ratios of the "up" and "down" SPRTs (theta = +-2 delta against 0)."""
    t = design.theta1
    half = t * t * np.asarray(info) / 2
    return t * np.asarray(score) - half, -t * np.asarray(score) - half


def advance_sides(design: GateDesign, sides: np.ndarray, llr_up, llr_down, n) -> np.ndarray:  # type: ignore[no-untyped-def]
    """New side states (shape ``(..., 2)``) after looking at the latest LLRs.
    A side that has stopped stays stopped (Sobel-Wald)."""
    out = sides.copy()
    ready = np.asarray(n) >= MIN_GAMES
    for k, llr in enumerate((llr_up, llr_down)):
        running = (out[..., k] == RUNNING) & ready
        out[..., k] = np.where(running & (llr >= design.upper), REJECTED, out[..., k])
        out[..., k] = np.where(running & (llr <= design.lower), ACCEPTED, out[..., k])
    return out


def cell_verdicts(sides: np.ndarray) -> np.ndarray:
    """Per cell: 1 = drift (either side moved), -1 = no drift (both sides held), 0 = undecided."""
    drift = (sides == REJECTED).any(axis=-1)
    held = (sides == ACCEPTED).all(axis=-1)
    return np.where(drift, 1, np.where(held, -1, 0))


VERDICT_NAMES = {1: DRIFT, -1: NO_DRIFT, 0: UNDECIDED}


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
    llr: float  # the side pointing the way the rate moved
    llr_up: float
    llr_down: float
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
                raise ConfigError(f"baseline: a cell has {wins} forger wins in {games} games")
        self.design = design
        self.x0 = np.array([w for w, _ in baseline], dtype=np.int64)
        self.n0 = np.array([g for _, g in baseline], dtype=np.int64)
        self.x = np.zeros(design.cells, dtype=np.int64)
        self.n = np.zeros(design.cells, dtype=np.int64)
        self.sides = np.full((design.cells, 2), RUNNING, dtype=np.int8)

    def update(self, counts: Sequence[tuple[int, int]]) -> None:
        """Give the cumulative (forger wins, games) of the current run, per cell.
        Decided cells keep their verdict whatever comes after."""
        x = np.array([w for w, _ in counts], dtype=np.int64)
        n = np.array([g for _, g in counts], dtype=np.int64)
        if len(x) != self.design.cells or (n < self.n).any() or (x < self.x).any() or (x > n).any():
            raise ValueError("counts must be cumulative (wins <= games, never decreasing), one per cell")
        decided = cell_verdicts(self.sides) != 0
        self.x = np.where(decided, self.x, x)
        self.n = np.where(decided, self.n, n)
        _, _, info, score = drift_statistics(self.x0, self.n0, self.x, self.n)
        up, down = side_llrs(self.design, score, info)
        self.sides = advance_sides(self.design, self.sides, up, down, self.n)

    @property
    def verdict_codes(self) -> np.ndarray:
        return cell_verdicts(self.sides)

    @property
    def undecided(self) -> list[int]:
        return [i for i, v in enumerate(self.verdict_codes) if v == 0]

    @property
    def done(self) -> bool:
        return not self.undecided

    @property
    def overall(self) -> str:
        """Drift if any cell drifted (family-wise error alpha), else undecided if any
        cell is still open, else no drift."""
        codes = self.verdict_codes
        if (codes == 1).any():
            return DRIFT
        return UNDECIDED if (codes == 0).any() else NO_DRIFT

    def results(self) -> list[CellResult]:
        diff, var, info, score = drift_statistics(self.x0, self.n0, self.x, self.n)
        up, down = side_llrs(self.design, score, info)
        out = []
        for i, code in enumerate(self.verdict_codes):
            half = Z95 * math.sqrt(var[i]) if self.n[i] else math.nan
            out.append(CellResult(
                baseline_wins=int(self.x0[i]), baseline_games=int(self.n0[i]),
                wins=int(self.x[i]), games=int(self.n[i]),
                diff=float(diff[i]), low=float(diff[i] - half), high=float(diff[i] + half),
                llr=float(max(up[i], down[i])), llr_up=float(up[i]), llr_down=float(down[i]),
                lower=self.design.lower, upper=self.design.upper, verdict=VERDICT_NAMES[int(code)],
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
    sides = np.full((checks, m, 2), RUNNING, dtype=np.int8)
    used = np.zeros(checks, dtype=np.int64)
    while True:
        open_cells = cell_verdicts(sides) == 0
        n_open = open_cells.sum(axis=1)
        per_cell = np.minimum(batch, (budget - used) // np.maximum(n_open, 1))
        active = (n_open > 0) & (per_cell > 0)
        if not active.any():
            break
        k = np.where(open_cells & active[:, None], per_cell[:, None], 0)
        x += rng.binomial(k, pa)
        n += k
        used += k.sum(axis=1)
        _, _, info, score = drift_statistics(x0, n0a, x, n)
        up, down = side_llrs(design, score, info)
        sides = advance_sides(design, sides, up, down, n)
    codes = cell_verdicts(sides)
    drift = (codes == 1).any(axis=1)
    undecided = ~drift & (codes == 0).any(axis=1)
    return SimulationSummary(
        checks=checks,
        drift=float(drift.mean()),
        no_drift=float((~drift & ~undecided).mean()),
        undecided=float(undecided.mean()),
        mean_games_per_cell=float(n.mean()),
        mean_games=float(used.mean()),
    )
