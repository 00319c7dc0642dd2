"""The adaptive crossing search (rnsim.analysis.tuning.tune) on synthetic curves."""

from __future__ import annotations

import numpy as np
import pytest

from rnsim.analysis.crossing import crossing
from rnsim.analysis.tuning import SyntheticCurve, grid_values, tune

LO, HI = 600_000.0, 1_800_000.0


def test_tune_stops_at_the_tolerance_and_says_how_many_games_it_used() -> None:
    curve = SyntheticCurve(crossing=1_150_000, scale=500_000).seeded(3)
    res = tune(curve.play, LO, HI, tolerance=80_000)
    assert res.converged
    assert res.crossing.width <= 80_000
    assert res.games == sum(b.games for b in res.batches)
    # fresh game indices for every batch: the batches tile 0..games-1
    starts = [b.first_game for b in res.batches]
    assert starts == sorted(starts) and starts[0] == 0
    assert res.batches[-1].first_game + res.batches[-1].games == res.games
    assert res.grid_games > 0


def test_tune_is_deterministic_given_the_games() -> None:
    a = tune(SyntheticCurve(crossing=1_150_000, scale=500_000).seeded(9).play, LO, HI, tolerance=100_000)
    b = tune(SyntheticCurve(crossing=1_150_000, scale=500_000).seeded(9).play, LO, HI, tolerance=100_000)
    assert a.batches == b.batches and a.crossing == b.crossing


def test_tune_reports_when_the_budget_ran_out() -> None:
    curve = SyntheticCurve(crossing=1_150_000, scale=500_000).seeded(1)
    res = tune(curve.play, LO, HI, tolerance=1_000, max_games=5_000)
    assert not res.converged
    assert res.games <= 5_000 + 200  # at most the last batch's rounding above the budget


def test_integer_knob_is_searched_on_its_notches() -> None:
    # a count knob: forger's rate falls with it, balanced at 6.4
    curve = SyntheticCurve(crossing=6.4, scale=1.5).seeded(2)
    res = tune(curve.play, 2, 12, tolerance=1.0, integer=True, notch=1)
    assert all(float(b.value).is_integer() for b in res.batches)
    assert res.crossing.bracket is not None
    assert (res.crossing.bracket.x_low, res.crossing.bracket.x_high) == (6, 7)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tolerance": 0}, "tolerance"),
        ({"tolerance": 1, "target": 1.0}, "strictly between"),
        ({"tolerance": 1, "spread": 0.6}, "spread"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tune(SyntheticCurve(crossing=1.0, scale=1.0).play, 0, 2, **kwargs)


def test_tune_interval_covers_the_true_crossing_and_needs_under_half_the_grids_games() -> None:
    """Coverage (150 trials, a loose band; 1,000 in scripts/bench_tune.py) and
    efficiency: with the tolerance set to the width a 9-value sweep of 2,000
    paired games per value reaches, the search uses at most half the games."""
    xs = grid_values(LO, HI, 9)
    curve = SyntheticCurve(crossing=1_150_000, scale=500_000, coupling=0.7)
    widths = []
    for t in range(30):
        wins, co = curve.seeded(10_000 + t).sweep(xs, 2000)
        widths.append(crossing(xs, wins, np.full(9, 2000), co_wins=co).width)
    tolerance = float(np.median(widths))
    trials = 150
    cover = 0
    games = []
    for t in range(trials):
        res = tune(curve.seeded(t).play, LO, HI, tolerance=tolerance)
        cover += res.crossing.covers(curve.crossing)
        games.append(res.games)
    assert 0.87 <= cover / trials <= 0.99
    assert np.median(games) <= 0.5 * 9 * 2000
