"""The expert's bidding prices denial (R2, R3): a POW! facing a token cancels
it, so the POW!'s owner performs both halves and the other does nothing.

Its own POW! facing the opponent's token counts what the cancelled half was
worth to her; a token of its own on a half whose other half is free counts
the chance the opponent's POW! lands facing it."""

from __future__ import annotations

import dataclasses
import random

from rnsim_strategies.red_notice.expert import Expert

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.components import MOVEMENT, POW
from tests.games.red_notice.scenario import scenario


class _Blind(Expert):
    """The expert not pricing the opponent's POW! facing its tokens."""

    DENY = 0.0


def _placing(**kw):
    return scenario(phase="place", initiative="jessah", angela="Paris", cards=("S1|C1", "M2|C1", "B|M1", "C1|J"),
                    **kw)


def _player(cls, seat):
    p = cls()
    p.new_game(seat, random.Random(1))
    return p


def test_the_forger_denies_a_movement_that_would_reach_her_and_not_one_that_would_not():
    # Jessah's token is on B|M1's Movement half (card 2, half 1); its Bank half is free.
    slots = [[None, None], [None, None], [None, ("jessah", 3)], [None, None]]
    tokens = {"angela": [4, 5, "POW"], "jessah": [1, 5]}
    belief = ["Paris", "Berlin", "London", "Rome"]
    near = _placing(jessah="London", slots=slots, tokens=tokens, belief=belief)  # one step from Paris
    assert _player(Expert, ANGELA).choose(build_view(near, ANGELA), near.pending) == (POW, 2, 0)
    far = _placing(jessah="Auckland", slots=slots, tokens=tokens, belief=belief)
    assert _player(Expert, ANGELA).choose(build_view(far, ANGELA), far.pending) != (POW, 2, 0)


def test_the_agent_guards_her_movement_with_her_pow_while_the_forgers_pow_is_in_hand():
    s = _placing(jessah="Rome", belief=["Paris", "Berlin", "London"],
                 tokens={"angela": [4, 5, "POW"], "jessah": [1, 3, "POW"]})
    view = build_view(s, JESSAH)
    # Six of Angela's tokens spent this cycle, her POW! not: it is in her hand,
    # and it would cancel a number on a free Movement half (R2).
    held = dataclasses.replace(view, spent=((1, 2, 2, 3, 3, 4), ()))
    got = _player(Expert, JESSAH).choose(held, s.pending)
    assert s.comps.cards[view.cards[got[1]]][got[2]].action == MOVEMENT
    assert got[0] == POW  # POW! against POW! is a tie: she moves all the same (R2, R3)
    blind = _player(_Blind, JESSAH).choose(held, s.pending)
    assert blind[0] != POW and blind[1:] == got[1:]
    # Her POW! spent this cycle: nothing can cancel a number there.
    gone = dataclasses.replace(view, spent=((1, 2, 2, 3, 3, POW), ()))
    assert _player(Expert, JESSAH).choose(gone, s.pending)[0] != POW
