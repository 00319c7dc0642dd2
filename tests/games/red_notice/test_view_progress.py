"""What is resolving, in the View: the card being resolved,
its performances and how many have started, and the movement in progress
(Angela's only in her own view: her steps are hers to know)."""

from __future__ import annotations

import random

from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy

RULES = RuleSet()
ACTIONS = ("check", "bank", "jessah_security", "angela_security", "angela_move", "jessah_move", "joker")


def test_views_say_which_card_resolves_and_the_movement_in_progress():
    a, j = load_strategy("expert"), load_strategy("expert")
    kinds: set[str] = set()
    for g in range(3):
        s = game_seeds(4, g)
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(RULES, random.Random(s.chance), seed=s.chance)
        while not st.over:
            d = st.pending
            mine, other = build_view(st, d.seat), build_view(st, 1 - d.seat)
            assert mine.resolving == other.resolving and mine.performances == other.performances
            if d.kind == "place_token":
                assert mine.resolving == -1 and mine.movement is None
            if d.kind in ACTIONS and mine.resolving >= 0:
                kinds.add(d.kind)
                assert 0 <= mine.resolving < len(mine.cards)
                assert 1 <= mine.performed <= len(mine.performances)
                # (the seat deciding need not be the performer: upgrades and escapes hand the
                # other seat decisions inside a performance)
            if d.kind in ("angela_move", "jessah_move"):
                seat, steps, left = mine.movement
                assert seat == d.seat and left == d.info["left"] and 1 <= left <= steps
                if d.seat == 0:
                    assert other.movement is None  # Jessah does not see Angela's steps
                else:
                    assert other.movement == mine.movement  # Jessah's movement is public
            st.apply((a if d.seat == 0 else j).choose(mine, d))
    assert {"angela_move", "jessah_move", "check"} <= kinds
