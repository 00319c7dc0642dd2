"""The forger's bids see the order of a card's halves (R1, R3): alone on a
card, or winning it, she performs the half her token is on first, then the
other. A Bank half cashes only if a check of her hand cashes where she is by
then: so with nothing to cash in her city she bids on the Movement that takes
her to her cash, or on the Check that may draw one of her city's colour, and
performs the Bank after it."""

from __future__ import annotations

import random

from rnsim_strategies.red_notice.expert import Expert

from rnsim.games.red_notice.engine.decision import ANGELA
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.components import BANK, CHECK, MOVEMENT
from tests.games.red_notice.scenario import scenario


class _Unordered(Expert):
    """The expert forger valuing a Bank half the same wherever she performs it."""

    BID_ORDER = False


def _bid(cls, s):
    p = cls()
    p.new_game(ANGELA, random.Random(1))
    got = p.choose(build_view(s, ANGELA), s.pending)
    card = s.comps.cards[build_view(s, ANGELA).cards[got[1]]]
    return card[got[2]].action, card[1 - got[2]].action


def _placing(cards, hand, **kw):
    # Paris (Europe) with an African check in hand: Casablanca is one step away.
    return scenario(phase="place", initiative="angela", angela="Paris", jessah="Auckland", cards=cards,
                    angela_hand=hand, tokens={"angela": [3, 4, 5], "jessah": [1, 2, 3]}, **kw)


def test_with_her_cash_a_step_away_she_moves_first_and_banks_after():
    s = _placing(("B|M1", "S1|C1", "M2|S2", "C1|J"), ("orange 100k",))
    assert _bid(Expert, s) == (MOVEMENT, BANK)
    assert _bid(_Unordered, s) == (BANK, MOVEMENT)


def test_with_nothing_to_cash_here_she_draws_first_and_banks_after():
    s = _placing(("B|C2", "S1|C1", "B|S1", "M1|J"), ("purple 100k", "purple 200k"))
    assert _bid(Expert, s) == (CHECK, BANK)
    assert _bid(_Unordered, s) != (CHECK, BANK)


def test_with_a_check_to_cash_in_her_city_the_bank_comes_first_as_before():
    s = _placing(("B|M1", "S1|C1", "M2|S2", "C1|J"), ("blue 100k", "orange 100k"))
    assert _bid(Expert, s) == _bid(_Unordered, s)
