"""No leaks: a seat's view never depends on the opponent's hidden facts (R24, R25)."""

from __future__ import annotations

import random

import pytest

from rnsim.games.red_notice.conceal import move_angela_within_belief, shuffle_hidden_tokens, swap_hand_with_deck
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet

RULES = RuleSet()


def _positions(seed: int, every: int = 7):
    """States at many decisions of a random game (no Angela movement in progress,
    so that her true city is anywhere in the belief)."""
    s = GameState.new(RULES, random.Random(seed))
    rng = random.Random(seed + 1)
    i = 0
    while not s.over:
        if i % every == 0 and s.angela_city >= 0 and s.decision().kind != "angela_move":
            yield s
        opts = s.decision().options
        s.apply(opts[rng.randrange(len(opts))])
        i += 1


@pytest.mark.parametrize("seed", range(8))
def test_jessah_view_ignores_angela_hidden_facts(seed):
    rng = random.Random(seed)
    changed = 0
    for s in _positions(seed):
        other = s.clone()
        move_angela_within_belief(other, rng)
        swap_hand_with_deck(other, ANGELA, rng)
        shuffle_hidden_tokens(other, ANGELA, rng)
        assert build_view(other, JESSAH) == build_view(s, JESSAH)
        changed += build_view(other, ANGELA) != build_view(s, ANGELA)
    assert changed > 10  # the changes were real: Angela's own view sees them


@pytest.mark.parametrize("seed", range(8))
def test_angela_view_ignores_jessah_hidden_facts(seed):
    rng = random.Random(100 + seed)
    changed = 0
    for s in _positions(seed):
        other = s.clone()
        swap_hand_with_deck(other, JESSAH, rng)
        shuffle_hidden_tokens(other, JESSAH, rng)
        assert build_view(other, ANGELA) == build_view(s, ANGELA)
        changed += build_view(other, JESSAH) != build_view(s, JESSAH)
    assert changed > 10


def test_view_holds_no_reference_to_the_state():
    s = next(_positions(3))
    v = build_view(s, JESSAH)
    before = v
    s.apply(s.decision().options[0])
    assert v == before
    for name in v.__dataclass_fields__:
        assert not isinstance(getattr(v, name), (list, dict, set, GameState))
