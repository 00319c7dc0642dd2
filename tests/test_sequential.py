"""The drift gate's SPRT, measured by simulation on synthetic binomial data (no games)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnsim.analysis.sequential import (
    DRIFT,
    NO_DRIFT,
    UNDECIDED,
    Z95,
    GateDesign,
    SequentialGate,
    batch_sizes,
    drift_statistics,
    mixture_llr,
    replay_games_needed,
    replay_miss_bound,
    simulate_checks,
)
from rnsim.errors import ConfigError

CHECKS = 2000


def sampling_slack(rate: float, checks: int = CHECKS) -> float:
    """Three binomial standard errors: the room a measured rate needs."""
    return 3 * math.sqrt(rate * (1 - rate) / checks)


def standard_run(design: GateDesign, p0, p, seed: int):  # type: ignore[no-untyped-def]
    """A baseline sized for the design and a budget of 4x the fixed-sample test, as `rnsim baseline save` picks."""
    base = float(np.max(p0)) if np.ndim(p0) else float(p0)
    n0 = design.baseline_games_needed(base)
    budget = math.ceil(4 * design.fixed_games(base, n0)) * design.cells
    return simulate_checks(design, p0, p, n0=n0, batch=50, budget=budget, checks=CHECKS, seed=seed)


@pytest.mark.parametrize(("p0", "delta", "cells"), [(0.3, 0.03, 1), (0.5, 0.05, 3), (0.15, 0.03, 6)])
def test_no_change_is_called_drift_in_at_most_alpha_of_checks(p0: float, delta: float, cells: int) -> None:
    design = GateDesign(delta=delta, alpha=0.05, beta=0.05, cells=cells)
    s = standard_run(design, p0, p0, seed=11)
    assert s.drift <= design.alpha + sampling_slack(design.alpha)
    # and the gate does decide: a no-change run that ends undecided would fail CI
    assert s.no_drift >= 0.9


@pytest.mark.parametrize(("p0", "delta", "sign"), [(0.3, 0.03, 1), (0.3, 0.03, -1), (0.5, 0.05, 1), (0.2, 0.02, -1), (0.2, 0.03, 1)])
def test_a_change_of_two_delta_is_called_drift_in_at_least_one_minus_beta(p0: float, delta: float, sign: int) -> None:
    design = GateDesign(delta=delta, alpha=0.05, beta=0.05, cells=1)
    s = standard_run(design, p0, p0 + sign * 2 * delta, seed=12)
    assert s.drift >= 1 - design.beta - sampling_slack(design.beta)


def test_two_delta_in_one_cell_of_three_is_still_found() -> None:
    # Bonferroni makes each cell stricter; the power per cell must survive it.
    design = GateDesign(delta=0.03, alpha=0.05, beta=0.1, cells=3)
    s = standard_run(design, [0.3, 0.3, 0.3], [0.36, 0.3, 0.3], seed=13)
    assert s.drift >= 1 - design.beta - sampling_slack(design.beta)


def test_family_wise_false_alarms_stay_at_alpha_with_many_cells() -> None:
    design = GateDesign(delta=0.05, alpha=0.1, beta=0.1, cells=15)
    s = standard_run(design, 0.35, 0.35, seed=14)
    assert s.drift <= design.alpha + sampling_slack(design.alpha)


def test_without_bonferroni_the_family_would_alarm_too_often() -> None:
    # The same 15 cells each tested at the full alpha: the check above could fail.
    per_cell = GateDesign(delta=0.05, alpha=0.1, beta=0.1, cells=1)
    n0 = per_cell.baseline_games_needed(0.35)
    one = simulate_checks(per_cell, 0.35, 0.35, n0=n0, batch=50, budget=10**6, checks=CHECKS, seed=15)
    family = 1 - (1 - one.drift) ** 15
    assert family > 0.1 + sampling_slack(0.1)


def test_a_baseline_too_small_for_delta_leaves_the_gate_undecided() -> None:
    # The baseline's own error caps the information: no budget can buy a decision.
    design = GateDesign(delta=0.02, alpha=0.05, beta=0.05, cells=1)
    s = simulate_checks(design, 0.3, 0.3, n0=200, batch=100, budget=20_000, checks=500, seed=16)
    assert s.undecided > 0.9


def test_clear_cases_stop_well_before_the_fixed_sample_test() -> None:
    design = GateDesign(delta=0.03, alpha=0.05, beta=0.05, cells=6)
    n0 = design.baseline_games_needed(0.3)
    fixed = design.fixed_games(0.3, n0)
    for p in (0.3, 0.3 + 4 * design.delta):
        s = standard_run(design, 0.3, p, seed=17)
        assert s.mean_games_per_cell < 0.5 * fixed


def test_the_fixed_sample_comparison_has_the_stated_alpha_and_power() -> None:
    # The benchmark's yardstick must itself be right: a z-test at that many games.
    design = GateDesign(delta=0.03, alpha=0.05, beta=0.05, cells=1)
    p0, n0 = 0.3, design.baseline_games_needed(0.3)
    n = math.ceil(design.fixed_games(p0, n0))
    rng = np.random.default_rng(18)
    from scipy.stats import norm

    z_crit = float(norm.ppf(1 - design.alpha_cell / 2))
    for p, lo, hi in ((p0, 0.0, design.alpha + sampling_slack(design.alpha, 20_000)),
                      (p0 + 2 * design.delta, 1 - design.beta - sampling_slack(design.beta, 20_000), 1.0)):
        x0 = rng.binomial(n0, p0, 20_000)
        x = rng.binomial(n, p, 20_000)
        diff, var, _, _ = drift_statistics(x0, n0, x, n)
        rejected = float((np.abs(diff) / np.sqrt(var) >= z_crit).mean())
        assert lo <= rejected <= hi


def test_the_gate_keeps_a_verdict_once_given() -> None:
    design = GateDesign(delta=0.05, cells=2)
    gate = SequentialGate(design, [(300, 1000), (500, 1000)])
    gate.update([(60, 100), (50, 100)])  # cell 0 moved from 30% to 60%
    assert [r.verdict for r in gate.results()][0] == DRIFT
    assert gate.overall == DRIFT and not gate.done
    gate.update([(60, 200), (100, 200)])  # a reversal in cell 0 changes nothing
    first = gate.results()[0]
    assert first.verdict == DRIFT and first.games == 100 and first.wins == 60


def test_the_gate_says_no_drift_when_every_cell_held() -> None:
    design = GateDesign(delta=0.05, cells=2)
    gate = SequentialGate(design, [(3000, 10000), (5000, 10000)])
    n = 0
    while not gate.done and n < 10_000:
        n += 100
        gate.update([(round(0.3 * n), n), (round(0.5 * n), n)])
    assert gate.overall == NO_DRIFT
    for r in gate.results():
        assert r.llr <= r.lower < 0 < r.upper
        # the interval uses each rate's own variance: under a move they differ
        p, p0 = (r.wins + 1) / (r.games + 2), (r.baseline_wins + 1) / (r.baseline_games + 2)
        se = math.sqrt(p * (1 - p) / r.games + p0 * (1 - p0) / r.baseline_games)
        assert r.low < 0 < r.high and r.high - r.low == pytest.approx(2 * Z95 * se)


def test_nothing_is_decided_on_too_few_games() -> None:
    gate = SequentialGate(GateDesign(delta=0.05), [(300, 1000)])
    gate.update([(20, 20)])  # 100% after 20 games: wild, but too few to trust a normal approximation
    assert gate.overall == UNDECIDED


def test_counts_must_be_cumulative() -> None:
    gate = SequentialGate(GateDesign(delta=0.05), [(300, 1000)])
    gate.update([(10, 40)])
    with pytest.raises(ValueError, match="cumulative"):
        gate.update([(9, 50)])
    with pytest.raises(ValueError, match="cumulative"):
        gate.update([(60, 50)])


@pytest.mark.parametrize(("field", "value"), [("delta", 0.0), ("delta", 0.3), ("alpha", 0.0), ("beta", 0.7), ("cells", 0)])
def test_bad_designs_are_refused_with_the_key_named(field: str, value: float) -> None:
    args = {"delta": 0.05, "alpha": 0.05, "beta": 0.05, "cells": 1, field: value}
    with pytest.raises(ConfigError, match=field):
        GateDesign(**args)  # type: ignore[arg-type]


@given(st.floats(-50, 50), st.floats(0.1, 5000), st.floats(0.001, 0.2))
def test_the_mixture_llr_is_symmetric_and_close_to_the_better_side(score: float, info: float, delta: float) -> None:
    d = GateDesign(delta=delta)
    t = d.theta1
    llr = float(mixture_llr(d, score, info))
    assert llr == pytest.approx(float(mixture_llr(d, -score, info)), abs=1e-9)
    best_side = t * abs(score) - t * t * info / 2
    assert best_side - math.log(2) - 1e-9 <= llr <= best_side + 1e-9


@given(st.integers(0, 10_000), st.integers(0, 500), st.integers(0, 50))
def test_batches_never_overspend_the_budget(remaining: int, batch: int, open_cells: int) -> None:
    k = int(batch_sizes(max(batch, 1), remaining, open_cells))
    assert 0 <= k <= max(batch, 1)
    assert k * open_cells <= remaining
    if open_cells and remaining >= open_cells * max(batch, 1):
        assert k == max(batch, 1)


@settings(max_examples=50, deadline=None)
@given(st.integers(1, 4), st.lists(st.lists(st.integers(0, 60), min_size=4, max_size=4), min_size=1, max_size=12),
       st.integers(0, 10_000))
def test_verdicts_never_change_once_given_and_overall_follows_the_cells(
        cells: int, batches: list[list[int]], seed: int) -> None:
    rng = np.random.default_rng(seed)
    gate = SequentialGate(GateDesign(delta=0.05, cells=cells),
                          [(int(rng.integers(0, 500)), 500) for _ in range(cells)])
    wins = [0] * cells
    games = [0] * cells
    seen: dict[int, str] = {}
    for batch in batches:
        for i in range(cells):
            games[i] += batch[i]
            wins[i] += int(rng.integers(0, batch[i] + 1))
        gate.update(list(zip(wins, games, strict=True)))
        verdicts = [r.verdict for r in gate.results()]
        for i, v in enumerate(verdicts):
            if i in seen:
                assert v == seen[i]
            elif v != UNDECIDED:
                seen[i] = v
        if DRIFT in verdicts:
            assert gate.overall == DRIFT
        elif UNDECIDED in verdicts:
            assert gate.overall == UNDECIDED and not gate.done
        else:
            assert gate.overall == NO_DRIFT and gate.done


@given(st.floats(0.005, 0.2), st.floats(0.001, 0.5))
def test_the_replay_length_is_the_shortest_that_bounds_the_miss(delta: float, miss: float) -> None:
    k = replay_games_needed(delta, miss)
    assert replay_miss_bound(delta, k) <= miss * (1 + 1e-9)
    assert k == 1 or replay_miss_bound(delta, k - 1) > miss


def test_a_move_of_two_delta_hides_from_the_replay_at_most_as_often_as_bounded() -> None:
    # The hardest case for the replay: the move of 2 delta is made of as few changed
    # games as possible, all one way (every changed game was lost and is now won).
    delta, miss, p0 = 0.05, 0.005, 0.4
    k = replay_games_needed(delta, miss)
    rng = np.random.default_rng(19)
    before = rng.random((20_000, k)) < p0
    flip = rng.random((20_000, k)) < 2 * delta / (1 - p0)  # P(lost then, won now) = 2 delta
    after = before | flip
    assert after.mean() - before.mean() == pytest.approx(2 * delta, abs=0.005)
    hidden = float((after == before).all(axis=1).mean())
    assert hidden <= miss + sampling_slack(miss, 20_000)
