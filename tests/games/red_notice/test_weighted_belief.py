"""The weighted public belief agrees with exact enumeration of Angela's paths
under its model (a uniformly random choice among open neighbours, stay and
stop at each step), and its support is the set-valued belief (R14, R15)."""

from __future__ import annotations

import math
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnsim.games.red_notice.engine import belief as bel
from rnsim.games.red_notice.engine import weighted as wb
from rnsim.games.red_notice.rules.ruleset import RuleSet

COMPS = RuleSet().load_components()
N = COMPS.n_cities


def _open_masks(barriers: frozenset[int]) -> list[int]:
    return bel.open_masks(COMPS.neighbour_mask, COMPS.routes, [1 if r in barriers else 0 for r in range(len(COMPS.routes))])


def _enumerate(prior: list[float], steps: int, masks: list[int], radars: list[int], precise: bool):
    """Exact: per announcement, the probability mass of each end city, by
    walking every path explicitly."""
    out: dict[tuple[tuple[int, int], ...], list[float]] = defaultdict(lambda: [0.0] * N)

    def walk(city: int, left: int, active: tuple[int, ...], ann: tuple[tuple[int, int], ...], p: float) -> None:
        if not left:
            out[ann][city] += p
            return
        nbrs = [c for c in range(N) if masks[city] >> c & 1]
        share = p / (len(nbrs) + 2)
        out[ann][city] += share  # stop
        for c in [city, *nbrs]:
            k = COMPS.city_continent[c]
            if active[k]:
                act = active if radars[k] == 2 else tuple(0 if i == k else a for i, a in enumerate(active))
                walk(c, left - 1, act, (*ann, (k, c if precise else -1)), share)
            else:
                walk(c, left - 1, active, ann, share)

    for c, p in enumerate(prior):
        if p > 0:
            walk(c, steps, tuple(1 if r else 0 for r in radars), (), p)
    return out


@st.composite
def _movements(draw):
    k = draw(st.integers(1, 5))
    starts = draw(st.lists(st.integers(0, N - 1), min_size=1, max_size=k, unique=True))
    raw = draw(st.lists(st.floats(0.05, 1.0), min_size=len(starts), max_size=len(starts)))
    prior = [0.0] * N
    for c, x in zip(starts, raw, strict=True):
        prior[c] = x
    prior = wb.normalised(prior)
    steps = draw(st.integers(0, 3))
    radars = draw(st.lists(st.sampled_from([0, 0, 1, 2]), min_size=len(COMPS.continents), max_size=len(COMPS.continents)))
    barriers = frozenset(draw(st.lists(st.integers(0, len(COMPS.routes) - 1), max_size=4)))
    precise = draw(st.booleans())
    return prior, steps, radars, barriers, precise


@settings(max_examples=60, deadline=None)
@given(_movements())
def test_weighted_belief_equals_exact_enumeration(case):
    prior, steps, radars, barriers, precise = case
    masks = _open_masks(barriers)
    exact = _enumerate(prior, steps, masks, radars, precise)
    for ann, mass in exact.items():
        total = math.fsum(mass)
        if total <= 0:
            continue
        want = [m / total for m in mass]
        got = wb.after_movement(prior, steps, masks, radars, COMPS.continent_mask, ann)
        assert got == pytest.approx(want, abs=1e-12)
        # Its support is the set-valued public belief.
        assert wb.support(got) == bel.after_movement(wb.support(prior), steps, masks, radars, COMPS.continent_mask, ann)


def test_an_announcement_no_path_makes_is_refused():
    # One step trips at most one radar: two triggers cannot be announced.
    w = wb.reveal(0, N)
    with pytest.raises(ValueError, match="ruled out"):
        wb.after_movement(w, 1, COMPS.neighbour_mask, [2] * len(COMPS.continents), COMPS.continent_mask,
                          [(0, -1), (0, -1)])


def test_journalist_spreads_by_the_walk_and_trips_nothing():
    w = wb.reveal(0, N)
    got = wb.after_movement(w, 2, COMPS.neighbour_mask, [2] * len(COMPS.continents), COMPS.continent_mask, (),
                            journalist=True)
    assert wb.support(got) == bel.reach(1, COMPS.neighbour_mask, 2)
    assert math.fsum(got) == pytest.approx(1.0)


def test_restrict_reveal_and_entropy():
    w = wb.uniform(0b1111, N)
    assert wb.entropy_bits(w) == pytest.approx(2.0)
    after = wb.restrict(w, 0b0111)  # a failed inspection of city 3
    assert after[3] == 0.0 and after[0] == pytest.approx(1 / 3)
    assert wb.entropy_bits(wb.reveal(5, N)) == 0.0
    with pytest.raises(ValueError):
        wb.restrict(w, 0b10000)


def test_radar_removal_leak():
    w = wb.uniform(0b1111, N)
    assert wb.after_radar_removal(w, 0b0011, 1.0) == pytest.approx(w)  # leak 1 says nothing
    got = wb.after_radar_removal(w, 0b0011, 9.0)
    assert got[0] == pytest.approx(0.45) and got[2] == pytest.approx(0.05)


@pytest.mark.parametrize("walk, leak", [(True, 1.0), (False, 10.0)])
def test_tracker_follows_the_public_belief_through_whole_games(walk, leak):
    # From Jessah's views alone the tracker's support is exactly the public
    # belief at every one of her decisions, and the weights are a distribution.
    import random

    from rnsim.games.red_notice.engine.state import GameState
    from rnsim.games.red_notice.engine.view import build_view
    from rnsim.seeding import game_seeds
    from rnsim.strategy import load_strategy

    rules = RuleSet()
    a, j = load_strategy("expert"), load_strategy("expert")
    for g in range(2):
        s = game_seeds(5, g)
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(rules, random.Random(s.chance), comps=COMPS, seed=s.chance)
        tr = wb.Tracker(leak=leak, walk=walk)
        while not st.over:
            d = st.pending
            v = build_view(st, d.seat)
            if d.seat == 1:
                w = tr.observe(v)
                assert wb.support(w) == v.belief
                assert math.fsum(w) == pytest.approx(1.0)
                assert w[st.angela_city] > 0  # never rules out where she is
            st.apply((a if d.seat == 0 else j).choose(v, d))
