"""The engine's typed frames: each kind dispatches to its handlers, and a
clone shares only the frames that never change."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from rnsim.games.red_notice.engine import state as S
from rnsim.games.red_notice.engine.frames import KINDS, Frame, Move
from rnsim.games.red_notice.engine.position import FRAMES, frame_fields, save_position
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules.ruleset import RuleSet

RULES = RuleSet()


def _answer(g: GameState, rng: random.Random) -> None:
    opts = g.decision().options
    g.apply(opts[rng.randrange(len(opts))])


def test_every_kind_has_a_name_and_handlers():
    assert len({k.NAME for k in KINDS}) == len(KINDS) == len(S._STEP) == len(S._ANSWER)
    assert set(FRAMES) == {k.NAME for k in KINDS}
    # Kinds that ask a seat have an answer handler of their own.
    asking = {k.NAME for k in KINDS if hasattr(GameState, f"_a_{k.NAME}")}
    assert {"move", "j_security", "a_security", "identity", "upgrade", "place", "bank"} <= asking


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**31))
def test_frames_dispatch_and_clones_are_independent(seed):
    g = GameState.new(RULES, random.Random(seed))
    rng = random.Random(seed + 1)
    i = 0
    while not g.over:
        for f in g.stack:
            assert isinstance(f, Frame) and KINDS[f.kind] is type(f)
        if i % 17 == 0:
            before = json.dumps(save_position(g))
            c = g.clone()
            for a, b in zip(g.stack, c.stack, strict=True):
                # Immutable frames are shared; the others are copies.
                assert (a is b) != type(a).MUTABLE
            while not c.over:
                _answer(c, rng)
            assert json.dumps(save_position(g)) == before, "playing a clone changed the original"
        _answer(g, rng)
        i += 1


def test_frame_fields_by_name():
    fields = frame_fields("move", seat=0, left=2, mode=0, triggered=((3, -1),), radars=None, belief=5, steps=2)
    assert fields == [0, 2, 0, [[3, -1]], None, 5, 2]
    assert Move.FIELDS == ("seat", "left", "mode", "triggered", "radars", "belief", "steps")
    try:
        frame_fields("move", seat=0)
    except ValueError as e:
        assert "seat, left, mode" in str(e)
    else:
        raise AssertionError("a frame with missing fields was accepted")
