"""The lattice search for the crossing (rnsim.analysis.tuning.tune) on
synthetic curves of several shapes: where it spends games, when it stops,
and that its interval keeps its coverage."""

from __future__ import annotations

import numpy as np
import pytest

from rnsim.analysis.crossing import crossing, curve
from rnsim.analysis.tuning import SyntheticCurve, lattice_values, tune

LATTICE = lattice_values(600_000, 1_400_000, 100_000)


def test_tune_stops_at_the_tolerance_with_its_games_on_the_values_next_to_the_crossing() -> None:
    sc = SyntheticCurve("logistic", 735_000, 300_000).seeded(3)
    res = tune(sc.play, LATTICE, tolerance=50_000)
    assert res.reason == "tolerance" and res.converged
    assert res.crossing.width <= 50_000 and res.crossing.covers(sc.lattice_crossing(LATTICE))
    assert res.games == sum(b.games for b in res.batches)
    k = res.crossing.bracket
    assert k is not None and res.neighbours
    games = dict(zip(res.crossing.x, res.crossing.games, strict=True))
    # the two values around the crossing got the most games, the far end the fewest
    near = (res.crossing.x[k], res.crossing.x[k + 1])
    assert min(games[v] for v in near) == max(games.values()) > 4 * games[1_400_000]


def test_every_value_plays_a_prefix_of_the_game_indices() -> None:
    """Common random numbers: each value's games are indices 0..n-1, asked
    of the game in consecutive ranges, so two values' games i are the same deal."""
    sc = SyntheticCurve("staircase", 900_000, 300_000).seeded(4)
    asked: dict[float, list[tuple[int, int]]] = {}

    def play(value: float, start: int, stop: int):  # type: ignore[no-untyped-def]
        asked.setdefault(value, []).append((start, stop))
        return sc.play(value, start, stop)

    res = tune(play, LATTICE, tolerance=40_000)
    for ranges in asked.values():
        assert ranges[0][0] == 0 and all(a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False))
    assert {v: r[-1][1] for v, r in asked.items()} == dict(zip(res.crossing.x, res.crossing.games, strict=True))
    assert sorted((b.value, b.start, b.stop) for b in res.batches) == sorted(
        (v, a, b) for v, r in asked.items() for a, b in r)


@pytest.mark.parametrize("shape", ["logistic", "kink", "staircase"])
def test_a_search_stops_only_after_checking_the_values_around_its_set(shape: str) -> None:
    """Before stopping on its tolerance, every value at the ends of the
    segments the set touches has played at least CONFIRM first looks of games
    (four; a set narrow on a first look's games is often narrow by luck)."""
    for seed in range(8):
        sc = SyntheticCurve(shape, 950_000, 300_000).seeded(seed)
        res = tune(sc.play, LATTICE, tolerance=300_000, batch=50)
        assert res.reason == "tolerance"
        c = res.crossing
        games = dict(zip(c.x, c.games, strict=True))
        ends = {v for a, b in zip(c.x, c.x[1:], strict=False) if any(p <= b and q >= a for p, q in c.pieces)
                for v in (a, b)}
        assert min(games[v] for v in ends) >= 4 * 50, (seed, games, c.pieces)


def test_tune_is_deterministic_given_the_games() -> None:
    a = tune(SyntheticCurve("kink", 900_000, 300_000).seeded(9).play, LATTICE, tolerance=100_000)
    b = tune(SyntheticCurve("kink", 900_000, 300_000).seeded(9).play, LATTICE, tolerance=100_000)
    assert a.batches == b.batches and a.crossing == b.crossing


def test_tune_says_when_the_budget_ran_out() -> None:
    sc = SyntheticCurve("logistic", 900_000, 300_000).seeded(1)
    res = tune(sc.play, LATTICE, tolerance=1_000, max_games=5_000)
    assert res.reason == "budget" and not res.converged
    assert res.games <= 5_000


def test_a_count_with_a_tolerance_of_one_stops_once_two_neighbours_bracket_the_target() -> None:
    """A count balanced between 6 and 7: no value lies between them, and a
    tolerance of 1 stops as soon as the set lies between the two."""
    sc = SyntheticCurve("logistic", 6.4, 1.5).seeded(2)
    res = tune(sc.play, lattice_values(2, 12, 1), tolerance=1)
    assert res.reason == "tolerance"
    assert res.crossing.lattice_hull() == (6.0, 7.0)


def test_no_crossing_is_claimed_when_the_target_is_not_reached() -> None:
    """A curve that peaks 12 points below the target (hand_limit on the
    classic game): tune stops as soon as every value is clearly below."""
    sc = SyntheticCurve("bump", 4.0, 1.0).seeded(5)
    res = tune(sc.play, lattice_values(2, 7, 1), tolerance=1)
    assert res.reason == "not reached" and not res.converged
    assert not res.crossing.found and res.games <= 1_000
    # the value closest to the target was checked with more games before saying so
    assert res.crossing.games[res.crossing.closest] >= 4 * 100


def test_a_knob_that_changes_no_game_is_found_by_the_search_too() -> None:
    sc = SyntheticCurve("flat", 5.0, 1.0).seeded(6)
    res = tune(sc.play, lattice_values(0, 8, 1), tolerance=1)
    assert res.reason == "not reached"
    assert all(s.trend == "same" for s in res.crossing.steps)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"tolerance": 0}, "tolerance"),
        ({"tolerance": 1, "target": 1.0}, "strictly between"),
        ({"tolerance": 1, "batch": 0}, "batch"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        tune(SyntheticCurve("logistic", 1.0, 1.0).play, [0.0, 1.0, 2.0], **kwargs)


def test_the_lattice_needs_ascending_values() -> None:
    with pytest.raises(ValueError, match="ascending"):
        tune(SyntheticCurve("logistic", 1.0, 1.0).play, [2.0, 1.0], tolerance=1)
    with pytest.raises(ValueError, match="lo < hi"):
        lattice_values(3, 3, 1)


SHAPES = ("logistic", "step", "staircase", "kink", "plateau")


def test_tune_keeps_its_coverage_and_needs_fewer_games_than_a_paired_sweep() -> None:
    """On every shape (100 curves each, crossings placed at random), with the
    tolerance set to the median width a 9-value paired sweep of 400 games per
    value reaches: tune's set covers the interpolated crossing (pooled over
    the 500 searches, a band of +-3.5 standard errors; 1,000 per shape in
    benchmarks/crossing.py), and where the curve is steep at the crossing its
    median games are below the sweep's 3,600. (Where it is shallow over
    several values, a kink's flat side, the set spans those values and tune
    plays them all: no saving, see docs/levers.md.)"""
    rng = np.random.default_rng(23)
    covered = []
    median = {}
    for shape in SHAPES:
        curves = [SyntheticCurve(shape, float(rng.uniform(800_000, 1_200_000)), 300_000).seeded(t)
                  for t in range(100)]
        widths = [crossing(curve(LATTICE, c.sweep(LATTICE, 400))).width for c in curves[:30]]
        tolerance = float(np.median(widths))
        games = []
        for c in curves:
            res = tune(c.seeded(c.seed + 10_000).play, LATTICE, tolerance=tolerance)
            covered.append(res.crossing.covers(c.lattice_crossing(LATTICE)))
            games.append(res.games)
        median[shape] = float(np.median(games))
    assert all(median[s] < 9 * 400 for s in ("logistic", "step", "staircase")), median
    assert 0.92 <= np.mean(covered) <= 0.98, np.mean(covered)
