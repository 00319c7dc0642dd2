"""The expert's pick of field agents is mixed: drawn from its seat's own
stream, by odds computed from its seat's view alone, so a copy of it on the
same open table cannot name its pick (docs/games/fbi.md, Probes)."""

from __future__ import annotations

import random

import pytest
from rnsim_strategies.fbi.expert import ExpertStrategy

from rnsim.games.fbi.game import GAME, seat_seeds
from rnsim.games.fbi.state import FbiState
from rnsim.games.fbi.view import build_view


def _games(players: int, games: int, knobs: dict | None = None):  # noqa: ANN202
    """Each decision of expert games, with the state before it."""
    rules = GAME.rules(knobs or {})
    for g in range(games):
        chance, seeds = seat_seeds(17, g)
        strats = [ExpertStrategy() for _ in range(players)]
        for s, st in enumerate(strats):
            st.new_game(s, random.Random(seeds[s]))
        state = FbiState.new(rules, players, random.Random(chance), seed=chance)
        while not state.over:
            d = state.pending
            yield g, state, d
            state.apply(strats[d.seat].choose(build_view(state, d.seat), d))


def _fresh(seat: int, seed: int, **params: object) -> ExpertStrategy:
    e = ExpertStrategy(**params)
    e.new_game(seat, random.Random(seed))
    return e


@pytest.mark.parametrize("players", [3, 4, 5])
def test_two_streams_pick_different_pairs_on_the_same_table_sometimes(players: int) -> None:
    asked = differ = 0
    for _, state, d in _games(players, 3):
        if d.kind != "agents" or len(d.options) < 2:
            continue
        view = build_view(state, d.seat)
        picks = {_fresh(d.seat, seed).choose(view, d) for seed in range(4)}
        assert picks <= set(d.options)
        assert _fresh(d.seat, 1).choose(view, d) == _fresh(d.seat, 1).choose(view, d)  # one stream, one pick
        asked += 1
        differ += len(picks) > 1
    assert asked >= 15
    assert differ > asked // 2, (differ, asked)


def test_with_samples_0_the_pick_is_a_function_of_the_open_table() -> None:
    asked = 0
    for _, state, d in _games(4, 2):
        if d.kind == "agents" and len(d.options) > 1:
            view = build_view(state, d.seat)
            assert len({_fresh(d.seat, seed, samples=0).choose(view, d) for seed in (1, 2, 3)}) == 1
            asked += 1
    assert asked >= 10


@pytest.mark.parametrize(("players", "knobs"), [(4, {}), (4, {"stacked": True}), (3, {}), (5, {})])
def test_what_its_seat_cannot_see_redrawn_the_same_stream_gives_the_same_answers(players: int, knobs: dict) -> None:
    """The deck order and the others' chosen agents (F6) re-drawn
    (``GAME.conceal``): two experts on one stream answer every decision of
    seat 0 alike, so the odds of each pick (and of the rivals' picks its
    arrests draw from) depend on the view alone, at every player count."""
    seen = {"bid": 0, "agents": 0, "arrest": 0}
    game = -1
    a = b = _fresh(0, 5)
    for g, state, d in _games(players, 2, knobs):
        if g != game:
            game, a, b = g, _fresh(0, 5), _fresh(0, 5)
        if d.seat != 0:
            continue
        hidden = GAME.conceal(state, 0, random.Random(sum(seen.values())))
        assert a.choose(build_view(state, 0), d) == b.choose(build_view(hidden, 0), d)
        seen[d.kind] += 1
    assert min(seen.values()) >= 5, seen
