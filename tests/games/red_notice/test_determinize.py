"""Determinization: over many decisions of many games the
true state is in the sampler's support, and no sample contradicts the view
of the seat it was drawn for (R24, R25)."""

from __future__ import annotations

import random

import pytest

from rnsim.games.red_notice.engine.determinize import copies_rng, determinize, possible
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy

RULES = RuleSet()
COMPS = RULES.load_components()


def _decisions(games: int, seed: int):
    """(state, seat) at every decision of ``games`` expert-vs-rule games."""
    a, j = load_strategy("expert"), load_strategy("rule")
    for g in range(games):
        s = game_seeds(seed, g)
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(RULES, random.Random(s.chance), comps=COMPS, seed=s.chance)
        while not st.over:
            d = st.pending
            yield st, d.seat
            st.apply((a if d.seat == 0 else j).choose(build_view(st, d.seat), d))


def test_true_state_is_in_the_support_and_samples_keep_the_view():
    rng = copies_rng(9, 0)
    n = 0
    for st, seat in _decisions(3, 9):
        n += 1
        if n % 3:
            continue  # every third decision keeps the test short
        sup = possible(st, seat)
        other = 1 - seat
        assert sup.angela_cities >> st.angela_city & 1 if st.angela_city >= 0 else True
        assert set(st.hands[other]) <= sup.opponent_checks
        sample = determinize(st, seat, rng)
        # The sample is in the support too...
        if sample.angela_city >= 0:
            assert sup.angela_cities >> sample.angela_city & 1
        assert set(sample.hands[other]) <= sup.opponent_checks
        assert possible(sample, seat).opponent_tokens == sup.opponent_tokens
        # ...and the seat cannot tell it from the real game.
        assert build_view(sample, seat) == build_view(st, seat)
        # The real game is untouched.
        assert sample is not st and sample.pending.kind == st.pending.kind
    assert n > 100


def test_weights_choose_angelas_city():
    for st, seat in _decisions(2, 4):
        if seat == 1 and st.angela_city >= 0 and st.belief.bit_count() >= 2 and st.pending.kind != "angela_move":
            cities = [c for c in range(COMPS.n_cities) if st.belief >> c & 1]
            w = [0.0] * COMPS.n_cities
            w[cities[-1]] = 1.0
            for i in range(5):
                assert determinize(st, 1, random.Random(i), w).angela_city == cities[-1]
            with pytest.raises(ValueError, match="no probability"):
                determinize(st, 1, random.Random(0), [0.0] * COMPS.n_cities)
            return
    pytest.fail("no Jessah decision with an uncertain belief")


def test_same_stream_same_sample():
    for st, seat in _decisions(1, 2):
        if st.round >= 2:
            a = determinize(st, seat, random.Random(5))
            b = determinize(st, seat, random.Random(5))
            assert (a.angela_city, a.hands, a.deck, a.upgrade_deck) == (b.angela_city, b.hands, b.deck, b.upgrade_deck)
            return


def test_a_sample_does_not_depend_on_the_hidden_facts():
    """Re-drawing what the seat cannot see (Game.conceal) before sampling gives
    the very same sample: a search player using samples reads nothing hidden."""
    from rnsim.games.red_notice.game import GAME

    n = 0
    for st, seat in _decisions(2, 11):
        n += 1
        if n % 5:
            continue
        other = GAME.conceal(st, seat, random.Random(n))
        a = GAME.save_position(determinize(st, seat, random.Random(n)))
        b = GAME.save_position(determinize(other, seat, random.Random(n)))
        assert a == b, (st.pending, seat)
    assert n > 100


def test_worlds_sample_only_while_the_decision_is_pending():
    a, j = load_strategy("expert"), load_strategy("rule")
    s = game_seeds(3, 0)
    a.new_game(0, random.Random(s.seats[0]))
    j.new_game(1, random.Random(s.seats[1]))
    st = GameState.new(RULES, random.Random(s.chance), comps=COMPS, seed=s.chance)
    d = st.pending
    view = build_view(st, d.seat)
    assert view.worlds is not None
    sample = view.worlds.sample(random.Random(1))
    assert build_view(sample, d.seat) == view  # the worlds handle is not part of the compared view
    st.apply(j.choose(view, d))
    with pytest.raises(RuntimeError, match="has been answered"):
        view.worlds.sample(random.Random(1))
