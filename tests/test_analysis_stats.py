"""Wilson intervals: known values, agreement with scipy, the numpy and Polars
forms, and invariants (hypothesis); the median's distribution-free interval
covers as it says."""

from __future__ import annotations

import math
import random

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from rnsim.analysis.stats import Z95, median_interval, rate_columns, wilson, wilson_exprs, z_for

# computed with 40-digit decimal arithmetic from the closed form (z = 1.959963984540054)
KNOWN = [
    (0, 10, 0.0, 0.2775327998628892045),
    (5, 10, 0.2365930905125640006, 0.7634069094874359994),
    (10, 10, 0.7224672001371107955, 1.0),
    (520, 1000, 0.4890177246575190264, 0.5508292050030587686),
]


@pytest.mark.parametrize(("k", "n", "lo", "hi"), KNOWN)
def test_wilson_known_values(k: int, n: int, lo: float, hi: float) -> None:
    got = wilson(k, n)
    assert isinstance(got[0], float)
    assert got[0] == pytest.approx(lo, abs=1e-9)
    assert got[1] == pytest.approx(hi, abs=1e-9)


def test_wilson_matches_scipy() -> None:
    for n in (1, 2, 7, 10, 33, 100, 1000, 12345):
        for k in sorted({0, 1, n // 3, n // 2, n - 1, n}):
            ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
            lo, hi = wilson(k, n)
            assert lo == pytest.approx(ci.low, abs=1e-9), (k, n)
            assert hi == pytest.approx(ci.high, abs=1e-9), (k, n)


def test_z_for_is_the_default() -> None:
    assert z_for(0.95) == pytest.approx(Z95, abs=1e-12)
    with pytest.raises(ValueError, match="confidence"):
        z_for(1.0)


def test_wilson_on_arrays_and_empty_cells() -> None:
    k = np.array([0, 5, 10, 520, 0])
    n = np.array([10, 10, 10, 1000, 0])
    lo, hi = wilson(k, n)
    for i, (_, _, elo, ehi) in enumerate(KNOWN):
        assert lo[i] == pytest.approx(elo, abs=1e-9)
        assert hi[i] == pytest.approx(ehi, abs=1e-9)
    assert math.isnan(lo[4]) and math.isnan(hi[4])
    assert all(math.isnan(x) for x in wilson(0, 0))


def test_wilson_rejects_impossible_counts() -> None:
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson(11, 10)
    with pytest.raises(ValueError, match="between 0 and n"):
        wilson(-1, 10)


def test_wilson_exprs_agree_with_wilson_in_a_lazy_query() -> None:
    ks, ns = [], []
    for n in (0, 1, 3, 10, 97, 1000):
        for k in range(0, n + 1, max(1, n // 7)):
            ks.append(k)
            ns.append(n)
    lo_e, hi_e = wilson_exprs("k", "n")
    out = pl.LazyFrame({"k": ks, "n": ns}).with_columns(*rate_columns("k", "n", "r"), lo=lo_e, hi=hi_e).collect()
    lo, hi = wilson(np.array(ks), np.array(ns))
    for i, row in enumerate(out.iter_rows(named=True)):
        if row["n"] == 0:
            assert row["lo"] is None and row["hi"] is None and row["r"] is None
            continue
        assert row["lo"] == pytest.approx(lo[i], abs=1e-12)
        assert row["hi"] == pytest.approx(hi[i], abs=1e-12)
        assert row["r_lo"] == row["lo"] and row["r_hi"] == row["hi"]
        assert row["r"] == row["k"] / row["n"]


@given(st.integers(1, 10**7).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))))
def test_wilson_invariants(kn: tuple[int, int]) -> None:
    k, n = kn
    lo, hi = wilson(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0
    # success and failure are mirror images
    flo, fhi = wilson(n - k, n)
    assert lo == pytest.approx(1.0 - fhi, abs=1e-12)
    assert hi == pytest.approx(1.0 - flo, abs=1e-12)
    # a wider confidence level gives a wider interval
    wlo, whi = wilson(k, n, z=z_for(0.99))
    assert wlo <= lo + 1e-15 and whi >= hi - 1e-15


# ---- many tests on one page: Holm's correction, and the p-values it corrects


def _holm_by_definition(p: list[float]) -> list[float]:
    """Holm's adjusted p, straight from the definition: the largest, over the
    tests at least as small, of min(1, (m - rank + 1) p)."""
    m = len(p)
    order = sorted(range(m), key=lambda i: p[i])
    out = [0.0] * m
    for rank, i in enumerate(order):
        out[i] = max(min(1.0, (m - r) * p[order[r]]) for r in range(rank + 1))
    return out


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=30))
def test_holm_is_the_step_down_procedure(p: list[float]) -> None:
    from rnsim.analysis.stats import holm

    assert holm(p) == pytest.approx(_holm_by_definition(p), abs=1e-12)


def test_holm_in_a_lazy_query_per_group_and_without_nans() -> None:
    from rnsim.analysis.stats import holm, holm_column, holm_query

    rng = np.random.default_rng(1)
    df = pl.DataFrame({"cell": np.repeat(["a", "b", "c"], 15), "p": rng.random(45) ** 3})
    df = df.with_columns(pl.when(pl.int_range(pl.len()) == 7).then(None).otherwise(pl.col("p")).alias("p"))
    got = holm_query(df.lazy(), "p", ["cell"]).collect().sort("cell", "p", nulls_last=True)
    for _, part in got.group_by("cell"):
        raw = part["p"].drop_nulls().to_numpy()
        assert part["p_holm"].drop_nulls().to_numpy() == pytest.approx(holm(raw))
        assert part["p_holm"].null_count() == part["p"].null_count()  # a missing p is not a test
    eager = holm_column(df, "p", ["cell"]).sort("cell", "p", nulls_last=True)
    assert eager["p_holm"].to_list() == pytest.approx(got["p_holm"].to_list(), nan_ok=True)
    whole = holm_query(df.lazy(), "p", []).collect()  # one family: the whole table
    assert whole["p_holm"].drop_nulls().to_numpy() == pytest.approx(holm(np.sort(df["p"].drop_nulls().to_numpy())))


def test_the_score_test_is_the_one_the_wilson_interval_inverts() -> None:
    from rnsim.analysis.stats import score_p_value

    for n in (10, 57, 300, 2000):
        for k in range(0, n + 1, max(1, n // 50)):
            for p0 in (0.2, 0.25, 1 / 3, 0.5):
                lo, hi = wilson(k, n)
                outside = lo > p0 or hi < p0
                p = score_p_value(k, n, p0)
                if abs(p - 0.05) > 1e-9:  # on the boundary either answer is right
                    assert (p < 0.05) == outside, (k, n, p0, p, lo, hi)


def test_two_proportion_p_is_the_chi_square_of_the_two_by_two_table() -> None:
    from scipy.stats import chi2_contingency

    from rnsim.analysis.stats import two_proportion_p_expr, two_proportion_p_value

    cases = [(30, 60, 400, 1400), (12, 60, 250, 840), (5, 9, 3, 11), (0, 20, 7, 40)]
    want = [chi2_contingency([[a, n - a], [b, m - b]], correction=False)[1] for a, n, b, m in cases]
    assert [two_proportion_p_value(*c) for c in cases] == pytest.approx(want, rel=1e-9)
    df = pl.DataFrame(cases, schema=["k1", "n1", "k2", "n2"], orient="row")
    got = df.select(two_proportion_p_expr(pl.col("k1"), pl.col("n1"), pl.col("k2"), pl.col("n2")).alias("p"))["p"]
    assert got.to_list() == pytest.approx(want, rel=1e-9)


def test_chance_words_say_how_many_flags_chance_alone_gives() -> None:
    from rnsim.analysis.stats import chance_words

    text = chance_words(15, "identity pairs")
    assert text.startswith("15 identity pairs are tested at 5% each: where nothing differs, chance alone would flag "
                           "about 0.75 of them (one or more in about 54% of runs).")
    assert "Holm's correction across the 15" in text


def _null_pairs(runs: int, games: int, rng: np.random.Generator, effect: float = 0.0) -> pl.DataFrame:
    """Result rows of ``runs`` independent cells of 15 identity pairs with
    ``games`` each; Angela wins 40% in every pair (plus ``effect`` in the first)."""
    from rnsim.games.red_notice.synthetic import CLASSIC_IDENTITIES

    pairs = ["+".join((a, b)) for i, a in enumerate(CLASSIC_IDENTITIES) for b in CLASSIC_IDENTITIES[i + 1:]]
    n = runs * len(pairs) * games
    pair = np.tile(np.repeat(np.arange(len(pairs)), games), runs)
    p = 0.40 + np.where(pair == 0, effect, 0.0)
    won = rng.random(n) < p
    return pl.DataFrame({
        "variant": np.repeat([f"run{i:04d}" for i in range(runs)], len(pairs) * games),
        "angela_strategy": "expert", "jessah_strategy": "expert",
        "identity_pair": np.array(pairs)[pair],
        "winner": np.where(won, "angela", "jessah"), "end_reason": np.where(won, "million", "arrest"),
    })


def test_identity_pair_flags_by_chance_stay_near_alpha_and_a_real_effect_survives() -> None:
    """400 simulated cells of 15 pairs, 200 games each, no pair different:
    a pair flagged at 5% one at a time (the raw p) appears in about half of
    the cells; after Holm's correction, in about 5% or fewer. A pair 15 points
    better than the rest is still flagged almost every time, and nothing else."""
    from rnsim.games.red_notice.analysis import identity_pairs

    rng = np.random.default_rng(2026)
    runs = 400
    null = identity_pairs(_null_pairs(runs, 200, rng))
    per_run = null.group_by("variant").agg(pl.col("differs").any().alias("flag"),
                                           (pl.col("p_value") < 0.05).any().alias("raw"))
    any_flag, any_raw = float(per_run["flag"].mean()), float(per_run["raw"].mean())  # type: ignore[arg-type]
    se = math.sqrt(0.05 * 0.95 / runs)
    assert 0.01 < any_flag < 0.05 + 3 * se, any_flag
    assert any_raw > 0.35, any_raw  # what the correction prevents
    real = identity_pairs(_null_pairs(runs, 200, rng, effect=0.15))
    first = real.filter(pl.col("identity_pair") == "lawyer+journalist")
    assert float(first["differs"].mean()) > 0.8  # type: ignore[arg-type]
    others = real.filter(pl.col("identity_pair") != "lawyer+journalist")
    assert float(others.group_by("variant").agg(pl.col("differs").any())["differs"].mean()) < 0.05 + 3 * se  # type: ignore[arg-type]


def test_cell_verdicts_by_chance_stay_near_alpha_and_a_real_imbalance_survives() -> None:
    """Runs of 6 cells of 400 balanced games: at most about 5% of them give a
    verdict "X is favoured" after the correction (a third of them would one
    cell at a time); a cell where Angela wins 60% is still called favoured."""
    from rnsim.report.render import verdict, with_verdict_tests

    rng = np.random.default_rng(7)
    runs, cells, games = 400, 6, 400

    def run(rates: list[float]) -> list[str]:
        wins = rng.binomial(games, rates)
        lo, hi = wilson(wins, games)
        head = pl.DataFrame({"variant": [f"v{i}" for i in range(cells)], "angela_wins": wins, "games": games,
                             "angela_rate": wins / games, "angela_rate_lo": lo, "angela_rate_hi": hi,
                             "errors": 0, "no_winner": 0, "angela_strategy": "expert", "jessah_strategy": "expert"})
        return [verdict(r, ("angela", "jessah"), True) for r in with_verdict_tests(head, ("angela", "jessah"))
                .iter_rows(named=True)]

    said = [run([0.5] * cells) for _ in range(runs)]
    share = sum(any("is favoured" in v for v in vs) for vs in said) / runs
    assert 0.01 < share < 0.05 + 3 * math.sqrt(0.05 * 0.95 / runs), share
    assert sum(any("corrected for chance" in v for v in vs) for vs in said) / runs > 0.15
    real = [run([0.62] + [0.5] * (cells - 1)) for _ in range(100)]
    assert sum(vs[0].startswith("Variant v0: Angela is favoured") for vs in real) >= 95


def _coverage(draw, true_median: float, n: int, trials: int, seed: int) -> float:
    rng = random.Random(seed)
    hits = 0
    for _ in range(trials):
        _, lo, hi = median_interval([draw(rng) for _ in range(n)])
        hits += lo <= true_median <= hi
    return hits / trials


@pytest.mark.parametrize("n", [6, 15, 40])
def test_median_interval_covers_on_skewed_and_bimodal_draws(n: int) -> None:
    """The order-statistics interval covers the median at least 95% of the
    time whatever the distribution (here a skewed and a two-humped one), and
    no more than its exact binomial level (so it is not needlessly wide)."""
    from scipy.stats import binom

    k = max(j for j in range(1, n) if binom.cdf(j - 1, n, 0.5) <= 0.025)
    exact = 1 - 2 * binom.cdf(k - 1, n, 0.5)
    trials = 4000
    se = math.sqrt(exact * (1 - exact) / trials)
    skewed = _coverage(lambda r: r.expovariate(1.0), math.log(2), n, trials, seed=n)
    # humps N(0, 1) and N(10, 1) weighing 40% and 60%: the median is where the
    # upper hump holds a sixth of its mass below: 10 + z(1/6)
    upper_q = 10 - 0.9674215661017013
    bimodal = _coverage(lambda r: r.gauss(0, 1) if r.random() < 0.4 else r.gauss(10, 1), upper_q, n, trials,
                        seed=100 + n)
    for cov in (skewed, bimodal):
        assert cov >= 0.95 - 4 * se
        assert abs(cov - exact) < 4 * se


def test_median_interval_needs_six_values_for_95_percent() -> None:
    assert median_interval([1.0, 2.0, 3.0, 4.0, 5.0])[1:] == (-math.inf, math.inf)
    assert median_interval([3.0, 1.0, 2.0, 6.0, 5.0, 4.0]) == (3.5, 1.0, 6.0)
