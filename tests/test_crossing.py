"""The crossing of a win-rate curve (rnsim.analysis.crossing): the knob value
where the forger's rate is 50%, with a 95% interval whose coverage is checked
on synthetic curves with a known crossing."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnsim.analysis.crossing import bracket, crossing, fit_logistic, merge_points
from rnsim.analysis.tuning import SyntheticCurve, grid_values


def exact_points(curve: SyntheticCurve, xs: list[float], n: int) -> tuple[np.ndarray, np.ndarray]:
    return np.round(curve.rate(xs) * n), np.full(len(xs), n)


def test_noise_free_logistic_curve_gives_its_crossing() -> None:
    curve = SyntheticCurve(crossing=1_150_000, scale=300_000)
    xs = grid_values(600_000, 1_800_000, 9)
    wins, n = exact_points(curve, xs, 10_000_000)
    res = crossing(xs, wins, n)
    assert res.estimate == pytest.approx(1_150_000, abs=500)
    assert res.lo < 1_150_000 < res.hi and res.width < 5_000
    assert res.slope < 0  # a higher money target hurts the forger
    assert res.inside_grid and res.bracket is not None
    assert (res.bracket.x_low, res.bracket.x_high) == (1_050_000, 1_200_000)


def test_other_target() -> None:
    curve = SyntheticCurve(crossing=5.0, scale=1.0, target=0.4, direction=1)
    xs = [1.0, 3.0, 4.0, 5.0, 6.0, 8.0]
    wins, n = exact_points(curve, xs, 10_000_000)
    assert crossing(xs, wins, n, target=0.4).estimate == pytest.approx(5.0, abs=0.01)


def test_flat_curve_cannot_place_the_crossing() -> None:
    # the rate does not depend on the knob: any value or none is the crossing
    res = crossing([1, 2, 3, 4], [500, 497, 503, 500], [1000] * 4)
    assert not res.bounded
    assert res.width == math.inf


def test_crossing_outside_the_grid_is_flagged() -> None:
    res = crossing([1, 2, 3], [700, 650, 600], [1000] * 3)
    assert not res.inside_grid
    assert res.bracket is None
    assert res.estimate > 3  # extrapolated beyond the last value


def test_integer_knob_bracket_names_the_two_values_and_their_rates() -> None:
    br = bracket([3, 4, 5, 6], [600, 550, 450, 400], [1000] * 4)
    assert br is not None
    assert (br.x_low, br.x_high) == (4, 5)
    assert (br.rate_low, br.rate_high) == (0.55, 0.45)
    assert br.rate_low_ci[0] < 0.55 < br.rate_low_ci[1]


def test_bracket_nearest_the_fitted_crossing_when_noise_makes_several() -> None:
    # rates 0.52, 0.49, 0.51, 0.40: three sign changes; the fit puts the crossing near the last
    br = bracket([1, 2, 3, 4], [520, 490, 510, 400], [1000] * 4, near=3.3)
    assert br is not None and (br.x_low, br.x_high) == (3, 4)


def test_merge_points_adds_repeated_values() -> None:
    x, w, n = merge_points([2, 1, 2], [10, 5, 20], [100, 50, 100])
    assert list(x) == [1, 2] and list(w) == [5, 30] and list(n) == [50, 200]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (([1, 2], [1, 2], [10]), "same length"),
        (([1], [1], [10]), "at least two"),
        (([1, 1], [1, 2], [10, 10]), "distinct"),
        (([1, 2], [11, 2], [10, 10]), "0 <= wins <= n"),
        (([1, 2], [1, 2], [0, 10]), "n > 0"),
    ],
)
def test_bad_points_are_refused(args: tuple, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        crossing(*args)


@pytest.mark.parametrize("target", [0.0, 1.0, -0.2, 1.5])
def test_target_must_be_a_rate(target: float) -> None:
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        crossing([1, 2], [3, 7], [10, 10], target=target)


def test_paired_counts_must_be_consistent() -> None:
    with pytest.raises(ValueError, match="diagonal"):
        crossing([1, 2], [3, 7], [10, 10], co_wins=[[4, 3], [3, 7]])
    with pytest.raises(ValueError, match="same n"):
        crossing([1, 2], [3, 7], [10, 12], co_wins=[[3, 3], [3, 7]])


@settings(max_examples=40, deadline=None)
@given(
    a=st.floats(0.01, 1000.0),
    b=st.floats(-1e6, 1e6),
    seed=st.integers(0, 10_000),
)
def test_crossing_follows_a_change_of_knob_units(a: float, b: float, seed: int) -> None:
    """Measuring the knob in other units (dollars vs thousands, an offset)
    moves the crossing and its interval with it: the estimate is equivariant."""
    curve = SyntheticCurve(crossing=5.0, scale=2.0).seeded(seed)
    xs = np.arange(0.0, 11.0)
    wins = np.array([curve.play(x, 0, 400)[0] for x in xs])
    n = np.full(len(xs), 400)
    r1 = crossing(xs, wins, n)
    r2 = crossing(a * xs + b, wins, n)
    assert r2.estimate == pytest.approx(a * r1.estimate + b, rel=1e-6, abs=1e-6 * max(1.0, abs(b)))
    if r1.bounded:
        assert r2.lo == pytest.approx(a * r1.lo + b, rel=1e-6, abs=1e-6 * max(1.0, abs(b)))
        assert r2.hi == pytest.approx(a * r1.hi + b, rel=1e-6, abs=1e-6 * max(1.0, abs(b)))


def test_paired_covariance_equals_independent_one_when_games_are_uncorrelated() -> None:
    # co-wins at their independence expectation: the clustered meat is the independent one
    x = [1.0, 2.0, 3.0]
    n = 1000
    wins = np.array([700.0, 500.0, 300.0])
    co = np.outer(wins, wins) / n
    np.fill_diagonal(co, wins)
    a = fit_logistic(x, wins, [n] * 3)
    b = fit_logistic(x, wins, [n] * 3, co_wins=co)
    assert np.allclose(a.cov, b.cov, rtol=1e-9)


def test_sweep_interval_covers_the_true_crossing_about_95_percent() -> None:
    """Coverage on a synthetic curve with common random numbers (the same
    games at every value, 70% of a game's draws shared): 300 trials, so the
    band is loose (about +-3.5 standard errors) but a wrong interval fails it.
    The full 1,000-trial measurement is scripts/bench_tune.py."""
    xs = grid_values(600_000, 1_800_000, 9)
    curve = SyntheticCurve(crossing=1_150_000, scale=500_000, coupling=0.7)
    trials = 300
    cover = naive = 0
    for t in range(trials):
        c = curve.seeded(t)
        wins, co = c.sweep(xs, 2000)
        n = np.full(len(xs), 2000)
        cover += crossing(xs, wins, n, co_wins=co).covers(curve.crossing)
        naive += crossing(xs, wins, n).covers(curve.crossing)
    assert 0.90 <= cover / trials <= 0.985
    # treating the paired games as independent would be overconfident
    assert naive / trials < 0.90
