"""Invariants over many random FBI games at 3, 4 and 5 players, checked after
every decision: card conservation, legal choices only, the end exactly after
the turn that empties the deck (F9)."""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rnsim.games.fbi.rules import FbiRules
from rnsim.games.fbi.state import AGENTS, ARREST, BID, FbiState

RULES = {False: FbiRules(), True: FbiRules(stacked=True)}


def check_invariants(s: FbiState) -> None:
    comps = s.comps
    # conservation: every coloured card is in exactly one place
    places = list(s.deck) + list(s.released) + [c for t in s.table for c in t] + [c for sl in s.slammer for c in sl]
    coloured = [c for c in places if c not in comps.purple]
    assert sorted(coloured) == sorted(comps.coloured)
    purple = [c for c in places if c in comps.purple]
    assert len(purple) == len(set(purple)) == 2 * s.n
    for colour, cards in enumerate(s.table):
        assert all(comps.card_colour[c] == colour for c in cards)
    d = s.pending
    if d is None:
        return
    if d.kind == "bid":
        assert s.phase == BID
        assert all(o == "none" or o in s.slammer[d.seat] for o in d.options)
    elif d.kind == "agents":
        assert s.phase == AGENTS
        on_table = {comps.colours[c] for c in range(len(comps.colours)) if s.table[c]}
        for pair in d.options:
            assert len(pair) == 2 and pair[0] != pair[1]
            assert all(a in on_table or a == comps.doubler for a in pair)  # F6
    else:
        assert s.phase == ARREST
        assert {comps.colours.index(o) for o in d.options} == set(s.agents[d.seat])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([3, 4, 5]), seed=st.integers(0, 2**32), stacked=st.booleans())
def test_random_games_keep_the_invariants_and_end_when_the_deck_is_empty(players, seed, stacked):
    s = FbiState.new(RULES[stacked], players, random.Random(seed))
    rng = random.Random(seed + 1)
    turns_with_empty_deck = set()
    while not s.over:
        check_invariants(s)
        if not s.deck:
            turns_with_empty_deck.add(s.turn)
        d = s.pending
        s.apply(d.options[rng.randrange(len(d.options))])
    check_invariants(s)
    per_turn = 2 * players
    assert s.turn == math.ceil(59 / per_turn)  # F9
    assert not s.deck and turns_with_empty_deck == {s.turn}
    # every player made exactly two arrest turns per game turn: the slammers
    # gained at most 2 cards a turn each
    assert all(len(sl) <= 2 + 2 * s.turn for sl in s.slammer)
    assert sum(s.scores) == sum(s.base_score(p) for p in range(players)) + sum(
        s.comps.bonus[c] for c, w in enumerate(s.bonus_to) if w >= 0)
