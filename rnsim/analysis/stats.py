"""Interval statistics for win rates.

Every win rate rnsim reports comes with a 95% Wilson score interval: unlike the
normal ("Wald") interval it stays inside [0, 1] and keeps its coverage at rates
near 0 or 1 and at small game counts, which is exactly where balance questions
live (a pair that almost never wins, a cell with 40 games).
"""

from __future__ import annotations

from typing import overload

import numpy as np
import numpy.typing as npt
import polars as pl
from scipy.stats import norm

#: two-sided 95% normal quantile, norm.ppf(0.975), written out so the default is
#: the same bit pattern everywhere (and importable without calling scipy).
Z95 = 1.959963984540054


def z_for(confidence: float) -> float:
    """The two-sided normal quantile for a confidence level, e.g. 0.95 -> 1.96."""
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be strictly between 0 and 1, got {confidence!r}")
    return float(norm.ppf(0.5 + confidence / 2.0))


FloatArray = npt.NDArray[np.float64]


@overload
def wilson(successes: int | float, n: int | float, z: float = Z95) -> tuple[float, float]: ...
@overload
def wilson(successes: npt.ArrayLike, n: npt.ArrayLike, z: float = Z95) -> tuple[FloatArray, FloatArray]: ...


def wilson(successes, n, z=Z95):  # type: ignore[no-untyped-def]
    """Wilson score interval ``(low, high)`` for ``successes`` out of ``n``.

    Works on scalars (returns floats) and on numpy arrays (returns arrays,
    broadcast). ``n == 0`` gives ``(nan, nan)``: no games, no information, and
    a NaN cannot be mistaken for a measured rate. For Polars lazy queries use
    :func:`wilson_exprs`.
    """
    k = np.asarray(successes, dtype=np.float64)
    m = np.asarray(n, dtype=np.float64)
    if np.any(k < 0) or np.any(k > m):
        raise ValueError(f"wilson: successes must be between 0 and n, got successes={successes!r}, n={n!r}")
    with np.errstate(invalid="ignore", divide="ignore"):
        p = k / m
        z2 = z * z
        denom = 1.0 + z2 / m
        centre = (p + z2 / (2.0 * m)) / denom
        half = z * np.sqrt(p * (1.0 - p) / m + z2 / (4.0 * m * m)) / denom
        # at k = 0 or k = n the bound is exactly 0 or 1; rounding could leave
        # it a hair outside [0, 1], so clip
        low = np.clip(centre - half, 0.0, 1.0)
        high = np.clip(centre + half, 0.0, 1.0)
        low = np.where(k == 0, 0.0, low)
        high = np.where(k == m, 1.0, high)
        low = np.where(m > 0, low, np.nan)
        high = np.where(m > 0, high, np.nan)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def wilson_exprs(k: pl.Expr | str, n: pl.Expr | str, z: float = Z95) -> tuple[pl.Expr, pl.Expr]:
    """Wilson interval bounds as Polars expressions, for use inside lazy
    queries: ``lo, hi = wilson_exprs("wins", "games")``. Rows with ``n == 0``
    give null bounds. Same numbers as :func:`wilson` (tested to 1e-12)."""
    kx = pl.col(k) if isinstance(k, str) else k
    nx = pl.col(n) if isinstance(n, str) else n
    kf = kx.cast(pl.Float64)
    nf = nx.cast(pl.Float64)
    z2 = z * z
    p = kf / nf
    denom = 1.0 + z2 / nf
    centre = (p + z2 / (2.0 * nf)) / denom
    half = z * (p * (1.0 - p) / nf + z2 / (4.0 * nf * nf)).sqrt() / denom
    low = pl.when(nf <= 0).then(None).when(kf <= 0).then(0.0).otherwise((centre - half).clip(0.0, 1.0))
    high = pl.when(nf <= 0).then(None).when(kf >= nf).then(1.0).otherwise((centre + half).clip(0.0, 1.0))
    return low, high


def rate_columns(k: str, n: str, prefix: str, z: float = Z95) -> list[pl.Expr]:
    """``<prefix>``, ``<prefix>_lo`` and ``<prefix>_hi`` columns: the rate
    ``k / n`` (null when ``n == 0``) and its Wilson interval."""
    lo, hi = wilson_exprs(k, n, z)
    rate = pl.when(pl.col(n) > 0).then(pl.col(k).cast(pl.Float64) / pl.col(n).cast(pl.Float64)).otherwise(None)
    return [rate.alias(prefix), lo.alias(f"{prefix}_lo"), hi.alias(f"{prefix}_hi")]
