"""Interval statistics for win rates.

Every win rate rnsim reports comes with a 95% Wilson score interval: unlike the
normal ("Wald") interval it stays inside [0, 1] and keeps its coverage at rates
near 0 or 1 and at small game counts, which is exactly where balance questions
live (a pair that almost never wins, a cell with 40 games).

Speed measurements (``rnsim bench``, benchmarks/) read medians of paired
ratios with the distribution-free interval of :func:`median_interval`.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from typing import overload

import numpy as np
import numpy.typing as npt
import polars as pl

from rnsim.analysis._normal import norm

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


def difference_columns(k1: str, n1: str, k2: str, n2: str, prefix: str, z: float = Z95) -> list[pl.Expr]:
    """``<prefix>``, ``<prefix>_lo`` and ``<prefix>_hi``: the difference of two
    independent proportions ``k1/n1 - k2/n2`` and its 95% interval by
    Newcombe's hybrid score method (his method 10, built from the two Wilson
    intervals). Unlike the Wald interval it keeps its coverage when a rate is
    near 0 or 1 or a group is small (an event seen in 30 games). Null when
    either group is empty."""
    lo1, hi1 = wilson_exprs(k1, n1, z)
    lo2, hi2 = wilson_exprs(k2, n2, z)
    ok = (pl.col(n1) > 0) & (pl.col(n2) > 0)
    p1 = pl.col(k1).cast(pl.Float64) / pl.col(n1).cast(pl.Float64)
    p2 = pl.col(k2).cast(pl.Float64) / pl.col(n2).cast(pl.Float64)
    d = p1 - p2
    lo = d - ((p1 - lo1) ** 2 + (hi2 - p2) ** 2).sqrt()
    hi = d + ((hi1 - p1) ** 2 + (p2 - lo2) ** 2).sqrt()
    return [pl.when(ok).then(d).otherwise(None).alias(prefix),
            pl.when(ok).then(lo).otherwise(None).alias(f"{prefix}_lo"),
            pl.when(ok).then(hi).otherwise(None).alias(f"{prefix}_hi")]


def newcombe(k1: float, n1: float, k2: float, n2: float, z: float = Z95) -> tuple[float, float]:
    """Newcombe's hybrid score interval for ``k1/n1 - k2/n2`` (scalars; the
    reference for :func:`difference_columns`)."""
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    p1, p2 = k1 / n1, k2 / n2
    d = p1 - p2
    return d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def sorted_sum(x: pl.Expr) -> pl.Expr:
    """The sum of a group's values added one by one in sorted order: the same bits whatever order the
    rows came in (a cumulative sum, because a plain sum may drop the sort and add in parallel blocks)."""
    return x.sort().cum_sum().last()


def clustered_rate_columns(keys: list[str], cluster: list[str], win: pl.Expr, prefix: str = "rate",
                           z: float = Z95) -> Callable[[pl.LazyFrame], pl.LazyFrame]:
    """A rate pooled over observations that come in clusters, with a Wilson
    interval on the *effective* sample size (Kish's design effect).

    Used where one game gives several observations of the same thing: a
    strategy sitting at two seats of a table, or one deal replayed in every
    rotation of a lineup. Such observations are not independent, so the plain
    Wilson interval on the observation count would be too narrow (or too wide
    for negatively correlated seats, of whom exactly one wins).

    Method: per group ``keys``, with ``w_g`` the wins and ``n_g`` the
    observations of cluster ``g`` (of ``G``), the rate is ``r = Σw / Σn`` and its
    variance by the cluster-robust (sandwich) estimator of a ratio,
    ``G/(G-1) · Σ(w_g - r·n_g)² / (Σn)²``. The design effect is that variance over
    the binomial one, ``r(1-r)/Σn``; the interval is Wilson's on ``Σn / deff``
    observations. Assumptions: clusters are independent (distinct game
    indices) and there are enough of them (dozens) for the sandwich to be
    accurate; a win may be a share in [0, 1] (a shared win counts 1/k). When
    ``r`` is 0 or 1 the design effect is taken as 1. Coverage is checked by
    simulation in tests/analysis/test_clustered_rate.py.

    Returns a function of the observation rows (``keys``, ``cluster`` columns
    and whatever ``win`` reads) giving one row per group: ``clusters``,
    ``observations``, ``wins``, ``<prefix>``, ``<prefix>_lo``, ``<prefix>_hi``,
    ``design_effect``.
    """

    def query(rows: pl.LazyFrame) -> pl.LazyFrame:
        # Each sum runs over its values sorted: rows reach a group in whatever order the parallel scan
        # gives, and a float sum's last digits depend on its order, so unsorted sums would let two
        # reports of one run differ (shares of a tied win are thirds and fifths).
        per = (rows.group_by([*keys, *cluster])
               .agg(sorted_sum(win.cast(pl.Float64)).alias("_w"), pl.len().cast(pl.Float64).alias("_n")))
        g = (per.group_by(keys)
             .agg(pl.len().alias("clusters"), sorted_sum(pl.col("_n")).alias("_N"),
                  sorted_sum(pl.col("_w")).alias("wins"), sorted_sum(pl.col("_w") ** 2).alias("_ww"),
                  sorted_sum(pl.col("_w") * pl.col("_n")).alias("_wn"), sorted_sum(pl.col("_n") ** 2).alias("_nn")))
        r = pl.col("wins") / pl.col("_N")
        s2 = pl.col("_ww") - 2 * r * pl.col("_wn") + r**2 * pl.col("_nn")
        var_c = pl.col("clusters") / (pl.col("clusters") - 1) * s2 / pl.col("_N") ** 2
        var_b = r * (1 - r) / pl.col("_N")
        deff = (pl.when((var_b > 0) & (pl.col("clusters") > 1)).then(var_c / var_b).otherwise(1.0)
                .clip(lower_bound=1e-3))
        n_eff = pl.col("_N") / pl.col("design_effect")
        lo, hi = wilson_exprs(r * n_eff, n_eff, z)
        return (g.with_columns(deff.alias("design_effect"))
                .with_columns(r.alias(prefix), lo.alias(f"{prefix}_lo"), hi.alias(f"{prefix}_hi"))
                .with_columns(pl.col("_N").cast(pl.Int64).alias("observations"))
                .drop("_N", "_ww", "_wn", "_nn")
                .sort(keys))

    return query


# ---------------------------------------------------------------- many tests on one page
#
# A report tests many things at once: every setup of a cell against
# the cell, every player count's seat positions, every cell's verdict. At 5%
# each, chance alone flags about 5% of them in a game where nothing differs:
# one test in twenty. Every flag the report raises survives Holm's correction
# across the tests of its section instead (the family-wise error rate: the
# chance of even one false flag among them stays under 5%, whatever the
# dependence between the tests); the raw p-value stays printed beside it.

ALPHA = 0.05


def score_p_value(k: float, n: float, p0: float) -> float:
    """Two-sided p-value of the score test of ``k`` successes in ``n`` against
    a rate ``p0``: it is under 5% exactly when the 95% Wilson interval of
    ``k / n`` excludes ``p0`` (the interval inverts this test). NaN when ``n``
    is 0 or ``p0`` is 0 or 1."""
    if not n or not 0.0 < p0 < 1.0:
        return math.nan
    z = (k - n * p0) / math.sqrt(n * p0 * (1.0 - p0))
    return float(2.0 * norm.sf(abs(z)))


def two_proportion_p_value(k1: float, n1: float, k2: float, n2: float) -> float:
    """Two-sided p-value that ``k1/n1`` and ``k2/n2`` are the same rate (the
    pooled two-proportion z test, i.e. the chi-square test of the 2x2 table
    without continuity correction). NaN when a group is empty or the pooled
    rate is 0 or 1."""
    if not n1 or not n2:
        return math.nan
    pooled = (k1 + k2) / (n1 + n2)
    if not 0.0 < pooled < 1.0:
        return 1.0 if 0.0 <= pooled <= 1.0 else math.nan
    z = (k1 / n1 - k2 / n2) / math.sqrt(pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2))
    return float(2.0 * norm.sf(abs(z)))


def interval_p_value(estimate: float, lo: float, hi: float, z: float = Z95) -> float:
    """Two-sided p-value that a normal (Wald) estimate is 0, read back from
    its symmetric 95% interval ``[lo, hi]``. NaN when the interval is missing
    or has no width (0 when the estimate is not 0 and the interval is a point)."""
    if any(x is None or math.isnan(x) for x in (estimate, lo, hi)):
        return math.nan
    se = (hi - lo) / (2.0 * z)
    if se <= 0.0:
        return math.nan if estimate == 0 else 0.0
    return float(2.0 * norm.sf(abs(estimate) / se))


def holm(p_values: npt.ArrayLike) -> FloatArray:
    """Holm's step-down adjusted p-values (same order as given). A test is
    significant at ``alpha`` after the correction when its adjusted p is
    under ``alpha``; NaNs are not tests (kept NaN, not counted)."""
    p = np.asarray(p_values, dtype=np.float64)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    if not ok.size:
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    m = order.size
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out[order] = np.maximum.accumulate(stepped)
    return out


def holm_column(df: pl.DataFrame, p: str, groups: list[str] | None = None, out: str = "p_holm") -> pl.DataFrame:
    """``df`` with ``out``: Holm's adjusted ``p`` within each group of ``groups``
    (the whole table when None). Row order is kept."""
    values = df[p].cast(pl.Float64).fill_null(float("nan")).to_numpy()
    adjusted = np.full(df.height, np.nan)
    if groups:
        keys = df.select(groups).with_row_index("_i").group_by(groups, maintain_order=True).agg(pl.col("_i"))
        for idx in keys["_i"].to_list():
            adjusted[idx] = holm(values[idx])
    else:
        adjusted = holm(values)
    return df.with_columns(pl.Series(out, adjusted).fill_nan(None))


def holm_query(rows: pl.LazyFrame, p: str, groups: list[str], out: str = "p_holm") -> pl.LazyFrame:
    """``rows`` with ``out``: Holm's adjusted ``p`` within each group of
    ``groups`` (the same numbers as :func:`holm`), sorted by the groups and
    ``p`` (re-sort as needed). Null p-values are not tests."""
    by = groups or ["_all"]
    if not groups:  # one family: the whole table
        rows = rows.with_columns(pl.lit(0).alias("_all"))
    tested = pl.col(p).is_not_null()
    m = tested.sum().over(by)
    rank = tested.cum_sum().over(by)
    stepped = pl.when(tested).then(((m - rank + 1) * pl.col(p)).clip(upper_bound=1.0))
    out_rows = (rows.sort([*by, p], nulls_last=True)
                .with_columns(stepped.alias(out))
                .with_columns(pl.col(out).cum_max().over(by)))
    return out_rows if groups else out_rows.drop("_all")


def normal_p_expr(z: pl.Expr) -> pl.Expr:
    """Two-sided normal p-value of a z statistic, as a Polars expression."""
    return z.abs().map_batches(lambda s: pl.Series(2.0 * norm.sf(s.cast(pl.Float64).to_numpy())),
                               return_dtype=pl.Float64)


def two_proportion_p_expr(k1: pl.Expr, n1: pl.Expr, k2: pl.Expr, n2: pl.Expr) -> pl.Expr:
    """:func:`two_proportion_p_value` as a Polars expression (null where it is NaN)."""
    k1, n1, k2, n2 = (x.cast(pl.Float64) for x in (k1, n1, k2, n2))
    pooled = (k1 + k2) / (n1 + n2)
    se = (pooled * (1.0 - pooled) * (1.0 / n1 + 1.0 / n2)).sqrt()
    z = (k1 / n1 - k2 / n2) / se
    return (pl.when((n1 <= 0) | (n2 <= 0)).then(None)
            .when((pooled <= 0.0) | (pooled >= 1.0)).then(1.0)
            .otherwise(normal_p_expr(z)))


def chance_words(tests: int, things: str, flag: str = "flag", alpha: float = ALPHA) -> str:
    """How many flags chance alone would raise among ``tests``, in words, and
    what the correction does: "15 setups are tested at 5% each: where
    nothing differs, chance alone would flag about 0.75 of them ...". ``things``:
    what is tested, plural; ``flag``: the verb of a flag ("call a side
    favoured in")."""
    if tests <= 1:
        return f"One test, at {100 * alpha:.0f}%."
    anyone = 1.0 - (1.0 - alpha) ** tests
    return (f"{tests} {things} are tested at {100 * alpha:.0f}% each: where nothing differs, chance alone would "
            f"{flag} about {tests * alpha:.2g} of them (one or more in about {100 * anyone:.0f}% of runs). Here a "
            f"flag must survive Holm's correction across the {tests}, which keeps the chance of even one false flag "
            f"among them under {100 * alpha:.0f}%; the raw p-values are shown beside the corrected ones.")


def median_interval(xs: Sequence[float], level: float = 0.95) -> tuple[float, float, float]:
    """(median, low, high): the sample median with the distribution-free
    interval of order statistics x(k), x(n+1-k), k the largest rank whose
    binomial(n, 1/2) tail stays within (1 - level) / 2 (the sign test's
    inversion; assumes only independent draws of one distribution). Fewer
    than 6 values give no 95% interval: (median, -inf, inf)."""
    from scipy.stats import binom

    s = sorted(xs)
    n = len(s)
    med = statistics.median(s)
    alpha = (1 - level) / 2
    k = 0
    while k + 1 <= n and binom.cdf(k, n, 0.5) <= alpha:
        k += 1
    if k < 1:
        return med, -math.inf, math.inf
    return med, s[k - 1], s[n - k]
