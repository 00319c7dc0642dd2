"""A Bank cashes one check of the forger's city's colour (rulebook, Bank).
With one check to cash in her city and her token already on a Bank half,
another Bank half cashes nothing more: she bids elsewhere (Expert.BANK_SPARE).
Her Joker (R4) performed as a Bank cashes nothing where no check of her hand
has her city's colour, nor what a Bank half of hers later this round, before
any movement of hers, will cash (R1, R3): she takes another action then
(Expert.JOKER_ROUND)."""

from __future__ import annotations

import random

from rnsim_strategies.red_notice.expert import Expert

from rnsim.games.red_notice.engine.decision import ANGELA
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.components import BANK, JOKER
from tests.games.red_notice.scenario import play, scenario


class _EveryBank(Expert):
    """The expert forger bidding every Bank half as her cash."""

    BANK_SPARE = False


class _JokerBank(Expert):
    """The expert forger whose Joker takes the Bank at its value in her bids."""

    JOKER_ROUND = False


def _choose(cls, s):
    p = cls()
    p.new_game(ANGELA, random.Random(1))
    return p.choose(build_view(s, ANGELA), s.pending)


def _bid_action(cls, s):
    got = _choose(cls, s)
    return s.comps.cards[build_view(s, ANGELA).cards[got[1]]][got[2]].action


def _second_bid(hand):
    # Paris (Europe, blue); her first token on the Bank half of card 0, Jessah's on card 3.
    s = scenario(phase="place", initiative="angela", angela="Paris", jessah="Auckland",
                 cards=("B|S1", "B|M1", "M2|S2", "S1|C1"), angela_hand=hand,
                 tokens={"angela": [3, 4, 5], "jessah": [1, 2, 3]})
    play(s, (3, 0, 0), (1, 3, 0))
    return s


def test_on_a_bank_half_with_one_check_to_cash_here_she_bids_off_the_next_bank():
    s = _second_bid(("blue 100k",))
    assert _bid_action(_EveryBank, s) == BANK
    assert _bid_action(Expert, s) not in (BANK, JOKER)


def test_with_two_checks_to_cash_here_the_second_bank_is_still_her_cash():
    s = _second_bid(("blue 100k", "blue 200k"))
    assert _bid_action(Expert, s) == _bid_action(_EveryBank, s) == BANK


def _joker(hand, later_bank):
    # Card 0: her token alone on the Joker (she performs it, then C1); card 1: on B|M1's Bank, or nobody.
    slots = [[None, ("angela", 3)], [("angela", 4), None] if later_bank else [None, None]]
    return scenario(phase="resolve", initiative="angela", angela="Paris", jessah="Auckland",
                    cards=("C1|J", "B|M1"), slots=slots, angela_hand=hand)


def test_her_joker_leaves_the_bank_to_her_later_bank_half():
    s = _joker(("blue 100k",), later_bank=True)
    assert s.decision().kind == "joker"
    assert _choose(_JokerBank, s) == "bank"
    assert _choose(Expert, s) != "bank"


def test_her_joker_cashes_when_no_later_bank_will():
    s = _joker(("blue 100k",), later_bank=False)
    assert _choose(Expert, s) == _choose(_JokerBank, s) == "bank"


def test_her_joker_takes_no_bank_with_nothing_to_cash_in_her_city():
    s = _joker(("orange 100k",), later_bank=False)  # Casablanca, a step away: nothing to cash in Paris
    assert _choose(_JokerBank, s) == "bank"
    assert _choose(Expert, s) != "bank"
