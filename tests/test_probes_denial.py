"""The denial probes added to the built-in set: the forger who denies the
movement that would find her (``pow_seer``) and the agent who denies the
forger's movement or cash (``pow_pinner``). POW! facing a token cancels it
and its owner performs both halves (R2, R3)."""

from __future__ import annotations

import random

from rnsim_strategies.red_notice.probes import probe
from rnsim_strategies.red_notice.probes.agents import PowPinner
from rnsim_strategies.red_notice.probes.forgers import PowSeer

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.components import POW
from tests.games.red_notice.scenario import scenario

CARDS = ("S1|C1", "M2|C1", "B|M1", "C1|J")


def _placing(**kw):
    return scenario(phase="place", angela="Paris", cards=CARDS, **kw)


def _player(cls, seat):
    p = cls()
    p.new_game(seat, random.Random(1))
    return p


def test_both_are_registered_in_their_seats():
    assert probe("pow_seer").seat == "angela" and probe("pow_seer").ref.endswith(":PowSeer")
    assert probe("pow_pinner").seat == "jessah" and probe("pow_pinner").ref.endswith(":PowPinner")


def test_the_seer_keeps_her_pow_until_a_movement_token_would_find_her():
    tokens = {"angela": [4, 5, "POW"], "jessah": [1, 5]}
    belief = ["Paris", "Berlin", "London", "Rome"]
    # Nothing of Jessah's on the board yet: a number goes down, the POW! waits.
    s = _placing(initiative="angela", jessah="London", belief=belief, tokens={"angela": [4, 5, "POW"],
                                                                             "jessah": [1, 3, 5]})
    assert _player(PowSeer, ANGELA).choose(build_view(s, ANGELA), s.pending)[0] != POW
    # Jessah's token on B|M1's Movement half, one step from Paris: the POW! faces it.
    s = _placing(initiative="jessah", jessah="London", belief=belief, tokens=tokens,
                 slots=[[None, None], [None, None], [None, ("jessah", 3)], [None, None]])
    assert _player(PowSeer, ANGELA).choose(build_view(s, ANGELA), s.pending) == (POW, 2, 0)


def test_the_pinner_denies_the_forgers_movement_or_cash_and_otherwise_keeps_her_pow():
    belief = ["Paris", "Berlin", "London", "Rome"]
    # The forger's token on B|M1's Bank half (card 2, half 0); its Movement half is free.
    s = _placing(initiative="angela", jessah="Rome", belief=belief,
                 slots=[[None, None], [None, None], [("angela", 3), None], [None, None]],
                 tokens={"angela": [4, 5], "jessah": [1, 3, "POW"]})
    assert _player(PowPinner, JESSAH).choose(build_view(s, JESSAH), s.pending) == (POW, 2, 1)
    # Her token on a Check half only: the POW! waits, a number goes down.
    s = _placing(initiative="angela", jessah="Rome", belief=belief,
                 slots=[[None, None], [None, None], [None, None], [("angela", 3), None]],
                 tokens={"angela": [4, 5], "jessah": [1, 3, "POW"]})
    got = _player(PowPinner, JESSAH).choose(build_view(s, JESSAH), s.pending)
    assert got[0] != POW
