"""The "How well hidden is Angela?" report section: bits
given away on hand-built beliefs, event windows classified by kind, and the
entropy traced over real games stays within what the public facts allow."""

from __future__ import annotations

import math
import random

from hypothesis import given
from hypothesis import strategies as st

from rnsim.games.red_notice.engine import weighted
from rnsim.games.red_notice.game import GAME
from rnsim.games.red_notice.report_hiding import (
    KINDS,
    LEAK,
    classify,
    information_bits,
    measure,
    removal_words,
    trace_game,
)
from rnsim.strategy import load_strategy

N = 12  # a small map for hand-built beliefs


@given(st.lists(st.floats(0.01, 1.0), min_size=N, max_size=N), st.integers(0, N - 1))
def test_a_reveal_gives_away_exactly_the_priors_entropy(raw, city):
    prior = weighted.normalised(raw)
    after = weighted.reveal(city, N)
    assert math.isclose(information_bits(prior, after), weighted.entropy_bits(prior), abs_tol=1e-12)


@given(st.lists(st.floats(0.0, 1.0), min_size=N, max_size=N).filter(lambda w: sum(w) > 0.1),
       st.integers(0, (1 << N) - 1))
def test_an_event_that_rules_out_nothing_gives_zero_bits(raw, extra):
    prior = weighted.normalised(raw)
    # an inspection of cities she cannot be in (a mask covering her whole support, or more)
    same = weighted.restrict(prior, weighted.support(prior) | extra)
    assert abs(information_bits(prior, same)) < 1e-12  # 0 up to the rounding of a renormalisation
    # a radar removal read with leak 1 says nothing
    assert abs(information_bits(prior, weighted.after_radar_removal(prior, extra, 1.0))) < 1e-12


def test_uniform_halving_gives_one_bit():
    prior = weighted.uniform(0b1111_0000_1111, N)  # 8 cities
    assert information_bits(prior, weighted.restrict(prior, 0b1111)) == 1.0


def test_windows_are_classified_most_telling_first():
    assert classify([{"t": "angela_step"}, {"t": "announce", "triggers": ["EU"]}]) == KINDS[3]
    assert classify([{"t": "announce", "triggers": []}]) == "movement without announcement"
    assert classify([{"t": "inspect", "found": False}]) == "failed inspection"
    assert classify([{"t": "inspect", "found": True}, {"t": "capture"}]) == "capture"
    assert classify([{"t": "security_spent", "removed": "radar"}]) == "security spend (radar removed)"
    assert classify([{"t": "cash", "seat": "jessah"}]) is None  # Jessah's cash says nothing of Angela
    assert classify([{"t": "cash", "seat": "angela"}, {"t": "inspect", "found": False}]) == "cash by Angela"
    assert classify([]) is None


def test_traced_entropy_stays_within_the_public_belief():
    """Over real games: the entropy never exceeds log2 of the public belief's
    size at the end of each round, and a cash pins her (bits = the prior's
    entropy, so never negative). (A failed inspection may add doubt: ruling
    out the city she most likely was in spreads the rest.)"""
    rules = GAME.rules()
    top = math.log2(GAME.components(rules).n_cities)
    strats = [load_strategy("expert"), load_strategy("expert")]
    for i in range(4):
        for seat, s in enumerate(strats):
            s.new_game(seat, random.Random(100 * i + seat))
        state = GAME.new_state(rules, random.Random(i), seed=i, log=True)
        rounds, events = trace_game(state, strats)
        assert rounds and all(0.0 <= h <= top + 1e-9 for h in rounds)
        for kind, bits in events:
            if kind == "cash by Angela":
                assert bits >= -1e-9, (kind, bits)
    by_round, by_kind = measure(GAME, rules, strats, 1, 6)
    assert by_round["round"].to_list()[:3] == [1, 2, 3] and by_round["games"][0] == 6
    assert set(by_kind["kind"]) <= set(KINDS) and (by_kind["events"] > 0).all()


def test_the_section_says_a_removal_tells_nothing_when_it_is_read_so():
    """The section's caption follows LEAK: at 1 a removal says nothing (no
    "1 times as likely"); above 1 it gives the ratio."""
    assert "says nothing" in removal_words(1.0) and "times" not in removal_words(1.0)
    assert "10 times as likely" in removal_words(10.0)
    assert ("says nothing" in removal_words(LEAK)) == (LEAK == 1.0)


def test_a_strategy_that_raises_leaves_its_games_out_of_the_replay():
    """A plugin that raises in some games (the run's error games) does not
    stop the report: the replay leaves those games out and counts the rest."""
    from rnsim_strategies.red_notice.base import RedNoticeStrategy

    class BankFails(RedNoticeStrategy):
        def on_bank(self, view, decision):
            if self.rng.random() < 0.5:
                raise RuntimeError("a plugin's bug")
            return super().on_bank(view, decision)

    rules = GAME.rules({}, "test")
    by_round, by_kind = measure(GAME, rules, [BankFails(), load_strategy("rule")], 1, 12)
    assert 0 < by_round["games"][0] < 12
    assert ((by_kind["per_game"] * by_round["games"][0]).round(6) == by_kind["events"]).all()
