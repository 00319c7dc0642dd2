"""No leaks: a seat's view never depends on the opponent's hidden facts (R24, R25)."""

from __future__ import annotations

import random

import pytest

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet

RULES = RuleSet()


def _shuffle_hidden_tokens(s: GameState, seat: int, rng: random.Random) -> None:
    """Permute ``seat``'s tokens among her pool, her hand and her face-down
    tokens on the board: which token is where is hidden from the opponent."""
    spots: list[tuple[str, int, int]] = []
    values: list[int] = []
    for j, v in enumerate(s.token_pool[seat]):
        spots.append(("pool", j, 0))
        values.append(v)
    for j, v in enumerate(s.token_hand[seat]):
        spots.append(("hand", j, 0))
        values.append(v)
    for i, pair in enumerate(s.slots):
        if s.revealed[i]:
            continue
        for h, x in enumerate(pair):
            if x is not None and x[0] == seat:
                spots.append(("board", i, h))
                values.append(x[1])
    rng.shuffle(values)
    for (where, i, h), v in zip(spots, values, strict=True):
        if where == "pool":
            s.token_pool[seat][i] = v
        elif where == "hand":
            s.token_hand[seat][i] = v
        else:
            s.slots[i][h] = (seat, v)
    s.token_hand[seat].sort()


def _swap_hand_with_deck(s: GameState, seat: int, rng: random.Random) -> None:
    """Exchange ``seat``'s hand for other checks of the deck (sizes stay public)."""
    pool = s.hands[seat] + s.deck
    rng.shuffle(pool)
    n = len(s.hands[seat])
    s.hands[seat] = pool[:n]
    s.deck = pool[n:]


def _move_angela_within_belief(s: GameState, rng: random.Random) -> None:
    cities = [c for c in range(s.comps.n_cities) if s.belief >> c & 1]
    s.angela_city = rng.choice(cities)


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
        _move_angela_within_belief(other, rng)
        _swap_hand_with_deck(other, ANGELA, rng)
        _shuffle_hidden_tokens(other, ANGELA, rng)
        assert build_view(other, JESSAH) == build_view(s, JESSAH)
        changed += build_view(other, ANGELA) != build_view(s, ANGELA)
    assert changed > 10  # the changes were real: Angela's own view sees them


@pytest.mark.parametrize("seed", range(8))
def test_angela_view_ignores_jessah_hidden_facts(seed):
    rng = random.Random(100 + seed)
    changed = 0
    for s in _positions(seed):
        other = s.clone()
        _swap_hand_with_deck(other, JESSAH, rng)
        _shuffle_hidden_tokens(other, JESSAH, rng)
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
