"""Wilson intervals: known values, agreement with scipy, the numpy and Polars
forms, and invariants (hypothesis)."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy.stats import binomtest

from rnsim.analysis.stats import Z95, rate_columns, wilson, wilson_exprs, z_for

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
