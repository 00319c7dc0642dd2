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


def test_the_view_constructor_takes_every_field_in_order():
    # View's __init__ is written out (the generated one is interpreted even
    # when the engine is compiled). It must stay the field list's mirror: a
    # field added without it would be missing from every view.
    import ast
    import dataclasses
    from pathlib import Path

    from rnsim.games.red_notice.engine import view as view_module
    from rnsim.games.red_notice.engine.view import View

    src = Path(view_module.__file__).parent / "view.py"  # the source, also when compiled
    cls = next(n for n in ast.parse(src.read_text()).body if isinstance(n, ast.ClassDef) and n.name == "View")
    init = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "__init__")
    params = [a.arg for a in init.args.args[1:]]
    assigned = [t.attr for n in init.body if isinstance(n, ast.Assign) for t in n.targets
                if isinstance(t, ast.Attribute)]
    names = [f.name for f in dataclasses.fields(View)]
    assert params == names and assigned == names


def test_a_view_is_the_state_seen_by_its_seat_field_by_field():
    import dataclasses

    from rnsim.games.red_notice.engine.view import View

    for s in _positions(3, every=11):
        for seat in (ANGELA, JESSAH):
            v = build_view(s, seat)
            assert v.round == s.round and v.jessah_city == s.jessah_city and v.belief == s.belief
            assert v.angela_city == (s.angela_city if seat == ANGELA else -1)
            assert v.hand == tuple(s.hands[seat]) and v.my_tokens == tuple(s.token_hand[seat])
            # rebuilt from its own fields, and replaced one at a time, it is the same view
            same = View(**{f.name: getattr(v, f.name) for f in dataclasses.fields(View)})
            assert same == v
            assert dataclasses.replace(v, round=v.round + 1).round == v.round + 1


def _public_now(s: GameState) -> tuple:
    """The shared view fields as the state's lists say at this moment."""
    ids, cards = s.comps.identity_ids, s.comps.upgrade_card_ids
    return (tuple(s.radars), tuple(s.barriers), (tuple(s.cashed[0]), tuple(s.cashed[1])),
            tuple(ids[i] for i in s.identities_up), tuple(ids[i] for i in s.identities_down),
            tuple(cards[u] for u in s.permanents), tuple(cards[u] for u in s.upgrades_face_up))


def _shared(v) -> tuple:
    return (v.radars, v.barriers, v.cashed, v.identities_up, v.identities_down, v.permanents, v.upgrades_face_up)


@pytest.mark.parametrize("seed", range(40))
def test_views_share_the_boards_tuples_and_keep_their_snapshot(seed):
    # A view's board and public sets are tuples the state keeps until they
    # change (GameState.radars_tuple, barriers_tuple, public_sets): every view
    # shows the state as it is at its decision, and an older view keeps what
    # it showed when the state moves on (radars, barriers, cashes, burnt
    # identities, upgrades gained and destroyed all change them).
    s = GameState.new(RULES, random.Random(seed))
    rng = random.Random(seed + 100)
    kept: list[tuple] = []
    prev = None
    shared = changed = 0
    while not s.over:
        d = s.decision()
        v = build_view(s, d.seat)
        assert _shared(v) == _public_now(s), f"decision {len(kept)}"
        if d.seat == 1 and rng.random() < 0.5:
            c = s.clone()  # a clone's views show its own changes, not the original's
            c.apply(d.options[rng.randrange(len(d.options))])
            if not c.over:
                assert _shared(build_view(c, c.decision().seat)) == _public_now(c)
        if prev is not None:
            if prev.radars == v.radars:
                assert prev.radars is v.radars
                shared += 1
            else:
                changed += 1
        kept.append((v, _shared(v)))
        prev = v
        s.apply(d.options[rng.randrange(len(d.options))])
    for v, then in kept:
        assert _shared(v) == then
    assert shared and changed
