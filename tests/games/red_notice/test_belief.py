"""The public belief after one of Angela's movements equals the exact set of
cities that brute-force path enumeration allows (R14, R15)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from rnsim.games.red_notice.engine import belief as bel
from rnsim.games.red_notice.rules.ruleset import RuleSet

COMPS = RuleSet().load_components()
N = COMPS.n_cities


def _open_masks(barriers: frozenset[int]) -> list[int]:
    masks = list(COMPS.neighbour_mask)
    for r in barriers:
        a, b = COMPS.routes[r]
        masks[a] &= ~(1 << b)
        masks[b] &= ~(1 << a)
    return masks


def _paths(start: int, steps: int, masks: list[int], radars: list[int], precise: bool):
    """Every (announcement, end city) of a movement of up to ``steps`` steps."""
    out = set()

    def walk(city: int, left: int, active: tuple[int, ...], ann: tuple[tuple[int, int], ...]) -> None:
        out.add((ann, city))
        if not left:
            return
        nxt = [city] + [c for c in range(N) if masks[city] >> c & 1]
        for c in nxt:
            k = COMPS.city_continent[c]
            if active[k]:
                trig = ((k, c if precise else -1),)
                act = active if radars[k] == 2 else tuple(0 if i == k else a for i, a in enumerate(active))
                walk(c, left - 1, act, ann + trig)
            else:
                walk(c, left - 1, active, ann)

    walk(start, steps, tuple(radars), ())
    return out


@settings(max_examples=150, deadline=None)
@given(
    radars=st.lists(st.sampled_from([0, 0, 1, 2]), min_size=6, max_size=6),
    barriers=st.frozensets(st.integers(0, len(COMPS.routes) - 1), max_size=4),
    start_cities=st.lists(st.integers(0, N - 1), min_size=1, max_size=5, unique=True),
    steps=st.integers(1, 3),
    precise=st.booleans(),
    pick=st.integers(0, 10**6),
)
def test_after_movement_is_exact(radars, barriers, start_cities, steps, precise, pick):
    masks = _open_masks(barriers)
    start = 0
    for c in start_cities:
        start |= 1 << c
    outcomes = set()
    for c in start_cities:
        outcomes |= _paths(c, steps, masks, radars, precise)
    # Angela took one of the possible paths; the public hears its announcement.
    ordered = sorted(outcomes)
    ann, _ = ordered[pick % len(ordered)]
    exact = 0
    for a, end in outcomes:
        if a == ann:
            exact |= 1 << end
    got = bel.after_movement(start, steps, masks, radars, COMPS.continent_mask, list(ann))
    assert got == exact


@settings(max_examples=150, deadline=None)
@given(
    radars=st.lists(st.sampled_from([0, 0, 1, 2]), min_size=6, max_size=6),
    barriers=st.frozensets(st.integers(0, len(COMPS.routes) - 1), max_size=4),
    start_cities=st.lists(st.integers(0, N - 1), min_size=1, max_size=5, unique=True),
    steps=st.integers(1, 4),
)
def test_a_movement_announcing_nothing_is_exact(radars, barriers, start_cities, steps):
    """A movement that triggered no radar (after_movement's path without
    layers): every city some path from the start reaches without a trigger."""
    masks = _open_masks(barriers)
    start = 0
    exact = 0
    for c in start_cities:
        start |= 1 << c
        for a, end in _paths(c, steps, masks, radars, False):
            if not a:
                exact |= 1 << end
    if exact:  # else no path announces nothing
        assert bel.after_movement(start, steps, masks, radars, COMPS.continent_mask, []) == exact
