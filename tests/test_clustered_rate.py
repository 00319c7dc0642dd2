"""The clustered rate interval (rnsim.analysis.stats.clustered_rate_columns):
its coverage, measured by simulation, and its agreement with Wilson when the
observations are independent."""

from __future__ import annotations

import numpy as np
import polars as pl

from rnsim.analysis.stats import clustered_rate_columns, wilson


def _covered(rng: np.random.Generator, clusters: int, size: int, p: float, rho_kind: str) -> bool:
    """One simulated table: ``clusters`` games of ``size`` observations each."""
    if rho_kind == "positive":  # one deal replayed in every rotation: outcomes share the deal's strength
        q = rng.beta(p, 1 - p, size=clusters)  # mean p, intra-cluster correlation 1/2
        wins = rng.random((clusters, size)) < q[:, None]
    else:  # a strategy at `size` of the table's seats, of whom at most one wins
        probs = [p] * size + [(1 - size * p) / 2] * 2
        winner = rng.choice(len(probs), size=clusters, p=probs)
        wins = np.arange(size)[None, :] == winner[:, None]
    truth = p
    df = pl.DataFrame({"g": np.repeat(np.arange(clusters), size), "k": ["x"] * (clusters * size),
                       "w": wins.ravel().astype(np.float64)})
    row = clustered_rate_columns(["k"], ["g"], pl.col("w"))(df.lazy()).collect().row(0, named=True)
    return bool(row["rate_lo"] <= truth <= row["rate_hi"])


def test_clustered_interval_covers_95_percent_when_observations_are_correlated() -> None:
    rng = np.random.default_rng(20261201)
    for kind, p, size in (("positive", 0.3, 3), ("positive", 0.15, 5), ("negative", 0.2, 2), ("negative", 0.1, 3)):
        hits = sum(_covered(rng, 200, size, p, kind) for _ in range(1000))
        assert 930 <= hits <= 975, (kind, p, size, hits / 1000)


def test_plain_wilson_would_undercover_the_replayed_deals() -> None:
    """Why the design effect is there: the same tables with the naive interval."""
    rng = np.random.default_rng(7)
    hits = 0
    for _ in range(400):
        q = rng.beta(0.3, 0.7, size=200)
        wins = rng.random((200, 3)) < q[:, None]
        lo, hi = wilson(int(wins.sum()), wins.size)
        hits += lo <= 0.3 <= hi
    assert hits / 400 < 0.90


def test_independent_observations_give_about_the_wilson_interval() -> None:
    rng = np.random.default_rng(3)
    wins = (rng.random(4000) < 0.4).astype(np.float64)
    df = pl.DataFrame({"g": np.arange(4000), "k": "x", "w": wins})
    row = clustered_rate_columns(["k"], ["g"], pl.col("w"))(df.lazy()).collect().row(0, named=True)
    lo, hi = wilson(int(wins.sum()), 4000)
    assert abs(row["rate_lo"] - lo) < 0.003 and abs(row["rate_hi"] - hi) < 0.003
    assert row["observations"] == 4000 and row["clusters"] == 4000


def test_the_same_rows_in_another_order_give_the_same_bits() -> None:
    """Two reports of one run must agree to the last digit, though the parallel
    scan hands the rows over in a different order each time: shares of a tied
    win (thirds, fifths) summed in another order round differently."""
    rng = np.random.default_rng(11)
    n = 6000
    shares = rng.choice([0.0, 1 / 3, 1 / 5, 1 / 2, 1.0], size=n)
    df = pl.DataFrame({"g": rng.integers(0, 500, size=n), "k": rng.choice(["a", "b"], size=n), "w": shares})
    query = clustered_rate_columns(["k"], ["g"], pl.col("w"))
    first = query(df.lazy()).collect()
    for seed in range(8):
        shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed)
        assert query(shuffled.lazy()).collect().equals(first), seed
