"""The conformance suite every registered game must pass (in the spirit of
pgx's api_test and OpenSpiel's random_sim_test), parametrised over
``rnsim.games.available_games()``:

- random playouts are legal and end;
- an illegal answer is refused;
- ``clone`` is equal and independent;
- positions round-trip and play on identically;
- play is deterministic across processes and PYTHONHASHSEED values;
- views leak nothing (``Game.conceal`` re-draws what a seat cannot see);
- the compiled build, where a game has one, plays like the source.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from rnsim.errors import IllegalOption
from rnsim.games import available_games, get_game

GAMES = available_games()
SEEDS = range(6)
MAX_DECISIONS = 200_000


def _setups(game: Any, rules: Any) -> list[Any]:
    return [setup for _label, setup in game.setups(rules, None)]


def _new(game: Any, seed: int, setup_index: int = 0, log: bool = False) -> Any:
    return _new_with_seats(game, seed, setup_index, log)[0]


def _new_with_seats(game: Any, seed: int, setup_index: int = 0, log: bool = False) -> tuple[Any, tuple[str, ...]]:
    rules = game.rules()
    setups = _setups(game, rules)
    setup = setups[setup_index % len(setups)]
    state = game.new_state(rules, random.Random(seed), setup=setup, seed=seed, log=log)
    return state, tuple(game.seats(rules, setup))


def _playout(state: Any, rng: random.Random, limit: int = MAX_DECISIONS) -> int:
    """Answer every decision with a uniformly random legal option."""
    n = 0
    while not state.over:
        d = state.decision()
        assert 0 <= d.seat, d
        assert len(d.options) > 0, f"a {d.kind!r} decision without options"
        state.apply(d.options[rng.randrange(len(d.options))])
        n += 1
        assert n < limit, "the game did not end"
    return n


def _fingerprint(game: Any, state: Any) -> str:
    """Everything about a state, as text (its saved position)."""
    return json.dumps(game.save_position(state), sort_keys=True)


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> Any:
    return get_game(request.param)


def test_registered_games_follow_the_protocol(game: Any) -> None:
    from rnsim.game import Game

    assert isinstance(game, Game)
    assert game.name in GAMES and game.title and game.version
    rules = game.rules()
    assert isinstance(game.rules_hash(rules), str) and game.rules_hash(rules) == game.rules_hash(game.rules())
    for knob in game.knobs():
        assert knob.name and knob.doc
    for _label, setup in game.setups(rules, None):
        seats = game.seats(rules, setup)
        assert len(seats) >= 2 and len(set(seats)) == len(seats)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_are_legal_and_end(game: Any, seed: int) -> None:
    state, seats = _new_with_seats(game, seed, setup_index=seed)
    decisions = _playout(state, random.Random(1000 + seed))
    outcome = game.outcome(state, decisions)
    assert outcome.winner is None or outcome.winner in seats
    assert outcome.end_reason
    assert outcome.rounds >= 1
    if outcome.shares:
        # shares of a win: each in [0, 1], summing to 1 when someone won
        assert set(outcome.shares) <= set(seats)
        assert all(0.0 <= v <= 1.0 for v in outcome.shares.values())
        total = sum(outcome.shares.values())
        assert abs(total - 1.0) < 1e-9 or total == 0.0
        if outcome.winner is not None:
            assert outcome.shares[outcome.winner] == 1.0
    assert state.pending is None


def test_an_illegal_answer_is_refused(game: Any) -> None:
    state = _new(game, 7)
    state.decision()
    before = _fingerprint(game, state)
    with pytest.raises(IllegalOption):
        state.apply(object())
    assert _fingerprint(game, state) == before


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_clone_is_equal_and_independent(game: Any, seed: int) -> None:
    state = _new(game, seed)
    rng = random.Random(seed)
    steps = 0
    while not state.over:
        d = state.decision()
        if steps % 23 == 0:
            copy = state.clone()
            assert _fingerprint(game, copy) == _fingerprint(game, state)
            snapshot = _fingerprint(game, state)
            # Playing the copy to its end never touches the original...
            _playout(copy, random.Random(steps))
            assert _fingerprint(game, state) == snapshot
            # ...and the same answers on the original and a fresh copy give the same game.
            twin = state.clone()
            a, b = random.Random(steps), random.Random(steps)
            _playout(twin, a)
            other = state.clone()
            _playout(other, b)
            assert _fingerprint(game, twin) == _fingerprint(game, other)
        state.apply(d.options[rng.randrange(len(d.options))])
        steps += 1


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_positions_round_trip_and_play_on_identically(game: Any, seed: int) -> None:
    state = _new(game, seed)
    rng = random.Random(seed)
    steps = 0
    while not state.over:
        d = state.decision()
        if steps % 29 == 0:
            data = json.loads(json.dumps(game.save_position(state)))  # through real JSON
            loaded = game.load_position(data)
            assert _fingerprint(game, loaded) == _fingerprint(game, state)
            a, b = state.clone(), loaded
            _playout(a, random.Random(steps))
            _playout(b, random.Random(steps))
            assert _fingerprint(game, a) == _fingerprint(game, b)
        state.apply(d.options[rng.randrange(len(d.options))])
        steps += 1


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_views_leak_nothing(game: Any, seed: int) -> None:
    """A seat's view of a state equals its view of any state that differs only
    in what that seat cannot see; the re-drawn facts were real changes (some
    other seat's view, or the fingerprint, changed)."""
    state, seats = _new_with_seats(game, seed, setup_index=seed)
    rng = random.Random(seed)
    changed = checked = steps = 0
    while not state.over:
        d = state.decision()
        if steps % 5 == 0:
            for seat in range(len(seats)):
                other = game.conceal(state, seat, random.Random(steps * 31 + seat))
                assert game.view(other, seat) == game.view(state, seat), f"seat {seat} sees hidden facts"
                changed += _fingerprint(game, other) != _fingerprint(game, state)
                checked += 1
        state.apply(d.options[rng.randrange(len(d.options))])
        steps += 1
    assert checked > 0 and changed > checked // 4, "conceal changed (almost) nothing: the test would not catch a leak"


_PLAY = """
import json, random, sys
from rnsim.games import get_game
g = get_game(sys.argv[1])
rules = g.rules()
setups = [s for _l, s in g.setups(rules, None)]
out = []
for seed in range(3):
    st = g.new_state(rules, random.Random(seed), setup=setups[seed % len(setups)], seed=seed, log=True)
    rng = random.Random(seed)
    n = 0
    while not st.over:
        d = st.decision()
        st.apply(d.options[rng.randrange(len(d.options))])
        n += 1
    o = g.outcome(st, n)
    out.append([o.winner, o.end_reason, o.rounds, n, o.events])
print(json.dumps(out, sort_keys=True, default=str))
"""


def _play_in_subprocess(name: str, **env: str) -> str:
    full = {**os.environ, **env}
    got = subprocess.run([sys.executable, "-c", _PLAY, name], env=full, capture_output=True, text=True,
                         timeout=300, check=True)
    return got.stdout


def test_play_is_deterministic_across_processes_and_hash_seeds(game: Any) -> None:
    a = _play_in_subprocess(game.name, PYTHONHASHSEED="1")
    b = _play_in_subprocess(game.name, PYTHONHASHSEED="2")
    assert a == b and len(a) > 100


def test_compiled_build_plays_like_the_source(game: Any) -> None:
    compiled = _play_in_subprocess(game.name, PYTHONHASHSEED="3", RNSIM_PURE="0")
    pure = _play_in_subprocess(game.name, PYTHONHASHSEED="3", RNSIM_PURE="1")
    assert compiled == pure
