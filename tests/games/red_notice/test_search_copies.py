"""What search's rollouts start from is the world it drew, however cheaply
it is copied: a world sampled without a history is the sample with its
history stopped, and a copy handed a generator set to the world's chance
stream plays the game a full copy plays."""

from __future__ import annotations

import json
import random

from rnsim_strategies.red_notice.expert import Expert

from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy

RULES = RuleSet()
COMPS = RULES.load_components()


def _views(games: int, seed: int, every: int):
    """Every ``every``-th view of the seat deciding, with worlds, in expert games."""
    a, j = load_strategy("expert"), load_strategy("expert")
    n = 0
    for g in range(games):
        s = game_seeds(seed, g)
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(RULES, random.Random(s.chance), comps=COMPS, seed=s.chance)
        while not st.over:
            d = st.pending
            v = build_view(st, d.seat)
            if n % every == 0 and v.worlds is not None:
                yield v
            n += 1
            st.apply((a if d.seat == 0 else j).choose(v, d))


def _position(state: GameState) -> str:
    from rnsim.games.red_notice.game import GAME

    return json.dumps(GAME.save_position(state), sort_keys=True)


def _play_out(state: GameState, seed: int) -> tuple[object, ...]:
    # search's rollout players: experts reading no history (no dossier)
    players = (Expert(dossier=0), Expert(dossier=0))
    players[0].new_game(0, random.Random(seed))
    players[1].new_game(1, random.Random(seed + 1))
    decisions = []
    while not state.over:
        d = state.pending
        o = players[d.seat].choose(build_view(state, d.seat), d)
        decisions.append(o)
        state.apply(o)
    return state.winner, state.end_reason, state.round, tuple(decisions), state.rng.getstate()


def test_a_world_drawn_without_history_is_the_sample_with_its_history_stopped():
    n = 0
    for v in _views(3, 4, every=9):
        with_history = v.worlds.sample(random.Random(n))
        with_history.stop_history()
        rng = random.Random(n)
        without = v.worlds.sample(rng, history=False)
        assert without.history == [[], []] and not without.recording
        assert _position(without) == _position(with_history)
        assert without.rng.getstate() == with_history.rng.getstate()
        again = random.Random(n)
        v.worlds.sample(again)
        assert rng.getstate() == again.getstate()  # the same draws from the caller's stream
        n += 1
    assert n > 10


def test_a_copy_given_the_worlds_stream_plays_the_game_a_full_copy_plays():
    n = 0
    chance = random.Random(0)
    for v in _views(2, 5, every=11):
        world = v.worlds.sample(random.Random(n), history=False)
        chance.setstate(world.rng.getstate())
        cheap = world.clone(chance)
        full = world.clone()
        assert _position(cheap) == _position(full)
        assert _play_out(cheap, n) == _play_out(full, n)
        n += 1
    assert n > 5


def test_a_stream_set_again_draws_what_a_fresh_generator_of_its_seed_or_state_draws():
    from rnsim_strategies.red_notice.search import _Stream

    def by_bits(r: random.Random) -> list[object]:  # through getrandbits
        deck = list(range(9))
        r.shuffle(deck)
        return [r.randrange(7), r.choice("abcdef"), r.sample(range(20), 3), deck, r.getrandbits(40)]

    def by_floats(r: random.Random) -> list[object]:  # through random
        return [r.random(), r.choices("xyz", k=2), r.uniform(0, 3)]

    s = _Stream()
    a, b = random.Random(3).getstate(), random.Random(4).getstate()
    for start, draws in [(a, by_bits), (a, None), (a, by_floats), (b, None), (a, None), (a, by_bits), (a, by_bits)]:
        s.set_to(start)
        r = random.Random()
        r.setstate(start)
        if draws is None:
            assert s.getstate() == start
        else:
            assert draws(s) == draws(r)
    for seed, draws in [(5, by_bits), (5, None), (5, by_floats), (5, None), (9, None), (9, by_bits), (5, None),
                        (5, by_floats), (5, by_bits)]:
        s.restart(seed)
        if draws is None:
            assert s.getstate() == random.Random(seed).getstate()
        else:
            assert draws(s) == draws(random.Random(seed))


def test_a_view_built_without_worlds_is_the_same_view_with_no_worlds():
    a, j = Expert(dossier=0), Expert(dossier=0)
    s = game_seeds(6, 0)
    a.new_game(0, random.Random(s.seats[0]))
    j.new_game(1, random.Random(s.seats[1]))
    st = GameState.new(RULES, random.Random(s.chance), comps=COMPS, seed=s.chance)
    while not st.over:
        d = st.pending
        full, bare = build_view(st, d.seat), build_view(st, d.seat, False)
        assert bare.worlds is None and (full.worlds is not None or d.seat == 1)
        assert bare == full and repr(bare) == repr(full)
        st.apply((a if d.seat == 0 else j).choose(bare, d))
