"""The game-agnostic play loop and seeding (rnsim.play, rnsim.seeding)."""

from __future__ import annotations

import gc
import random
import weakref

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnsim import GameResult, play_game, seeding
from rnsim.errors import ConfigError
from rnsim.games import get_game
from rnsim.play import StrategyError, fewer_collections, play_out, run_game
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy


@settings(max_examples=200, deadline=None)
@given(master=st.integers(0, 2**63 - 1), index=st.integers(0, 2**40), seats=st.integers(1, 8))
def test_a_seats_stream_does_not_depend_on_the_number_of_seats(master: int, index: int, seats: int) -> None:
    """One stream per seat, prefix-stable: seat s of an n-seat game has the seed
    it has in a 2-seat game, and the chance seed never changes (two-seat games
    keep their streams; game i of a 5-player and a 3-player game share chance)."""
    two = game_seeds(master, index)
    n = game_seeds(master, index, seats)
    assert n.chance == two.chance and len(n.seats) == seats
    assert n.seats[:2] == two.seats[:seats]
    assert len(set(n.seats) | {n.chance}) == seats + 1  # independent streams
    assert all(0 <= x < 2**63 for x in (n.chance, *n.seats, n.copies))


@settings(max_examples=300, deadline=None)
@given(master=st.integers(0, 2**200), index=st.integers(0, 2**80), words=st.integers(1, 12))
def test_the_seeds_are_numpys_seed_sequence_words(master: int, index: int, words: int) -> None:
    """game_seeds computes SeedSequence's words itself (rnsim.seeding): the
    words numpy gives, for any master seed, game index and count, game after
    game of one master seed (its pool is kept) and after another seed."""
    ss = np.random.SeedSequence(master, spawn_key=(index,))
    want = [int(w) for w in ss.generate_state(words, dtype=np.uint64)]
    assert [seeding._seed_words(master, index, words) for _ in range(3)] == [want] * 3
    seeding._seed_words(master + 1, index, 1)
    assert seeding._seed_words(master, index, words) == want


@pytest.mark.parametrize(("master", "index", "words"), [(2**(32 * 600) - 1, 3, 2), (5, 2**(32 * 600), 1), (7, 1, 1200)],
                         ids=["long master seed", "long game index", "many words"])
def test_seeds_past_the_hash_tables_are_still_numpys(master: int, index: int, words: int) -> None:
    """A master seed or game index longer than the precomputed hash constants,
    or more words than they draw, is seeded by numpy itself: the same words."""
    ss = np.random.SeedSequence(master, spawn_key=(index,))
    assert seeding._seed_words(master, index, words) == [int(w) for w in ss.generate_state(words, dtype=np.uint64)]


def test_seeds_refuse_negative_input_and_no_seats() -> None:
    with pytest.raises(ValueError, match="non-negative"):
        game_seeds(-1, 0)
    with pytest.raises(ValueError, match="at least one seat"):
        game_seeds(0, 0, 0)


def test_play_game_takes_strategies_by_seat_name() -> None:
    r = play_game(angela="rule", jessah="expert", identities=("journalist", "pilot"), seed=4, game_index=2)
    assert isinstance(r, GameResult) and r.identities == ("journalist", "pilot")
    game = get_game("red_notice")
    out = run_game(game, game.rules(), [load_strategy("rule", None, game), load_strategy("expert", None, game)],
                   4, 2, setup=("journalist", "pilot"))
    assert (out.winner, out.rounds, out.decisions) == (r.winner, r.rounds, r.decisions)
    assert out.record["identity_pair"] == "journalist+pilot"


def test_play_game_names_what_it_accepts() -> None:
    with pytest.raises(ConfigError, match="unknown argument 'bob'.*accepted: angela, jessah"):
        play_game(bob="rule")
    with pytest.raises(ConfigError, match="unknown game 'chess'"):
        play_game(game="chess")


def test_run_game_wants_one_strategy_per_seat() -> None:
    game = get_game("red_notice")
    with pytest.raises(ValueError):
        run_game(game, game.rules(), [load_strategy("random", None, game)] * 3, 0, 0)


def _worlds_seen(watcher: type) -> list[bool]:
    """Whether each view handed to ``watcher`` (playing Angela against the
    rule player) at its own decisions had worlds to sample."""
    game = get_game("red_notice")
    player = watcher()
    run_game(game, game.rules(), [player, load_strategy("rule", None, game)], 5, 1)
    return player.seen  # type: ignore[no-any-return]


def test_a_strategy_that_never_samples_worlds_is_handed_views_without_them() -> None:
    """The expert declares ``uses_worlds = False``: its views skip the facts
    a sample needs. The flag is not inherited: a plugin subclassing the expert
    is handed worlds, as search is, unless its own class declares it too."""
    expert = type(load_strategy("expert", None, get_game("red_notice")))

    class Plugin(expert):  # type: ignore[misc, valid-type]
        def choose(self, view: object, decision: object) -> object:
            self.seen = [*getattr(self, "seen", []), getattr(view, "worlds", None) is not None]
            return super().choose(view, decision)

    class LeanPlugin(Plugin):
        uses_worlds = False

    assert not expert().samples_worlds() and Plugin().samples_worlds()
    assert any(_worlds_seen(Plugin))
    assert not any(_worlds_seen(LeanPlugin))


class _Node:
    """A cycle: only the collector can free it."""

    def __init__(self) -> None:
        self.me = self


def test_fewer_collections_puts_the_collector_back_even_after_an_error() -> None:
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), fewer_collections():
        assert gc.get_freeze_count() > 0 and gc.get_threshold()[0] >= 20_000
        raise RuntimeError("a game failed")
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == 0
    assert gc.isenabled()


def test_fewer_collections_still_frees_cycles_made_while_games_play() -> None:
    with fewer_collections():
        first = _Node()
        gone = weakref.ref(first)
        del first
        for _ in range(50_000):  # more young objects than the raised threshold
            _Node()
        assert gone() is None


def test_fewer_collections_leaves_a_collector_frozen_by_its_caller_alone() -> None:
    gc.freeze()
    try:
        frozen, threshold = gc.get_freeze_count(), gc.get_threshold()
        with fewer_collections():
            assert gc.get_threshold() == threshold
        # still frozen: not unfrozen (count 0) nor frozen anew (every object since);
        # a frozen object that reference counting frees meanwhile leaves the count
        assert 0.9 * frozen <= gc.get_freeze_count() <= frozen
    finally:
        gc.unfreeze()


class _Fails:
    """Wraps a strategy: raises at its ``at``-th decision, or (``illegal``)
    answers it with an option no decision offers."""

    def __init__(self, inner: object, at: int, illegal: bool) -> None:
        self.inner, self.at, self.illegal, self.n = inner, at, illegal, 0
        self.uses_view = True

    def new_game(self, seat: int, rng: random.Random) -> None:
        self.n = 0
        self.inner.new_game(seat, rng)  # type: ignore[attr-defined]

    def reads_history(self) -> bool:
        return True

    def choose(self, view: object, decision: object) -> object:
        self.n += 1
        if self.n == self.at:
            if self.illegal:
                return ("no such option",)
            raise ZeroDivisionError("boom")
        return self.inner.choose(view, decision)  # type: ignore[attr-defined]


def _both_loops(strategies: list[object], name: str = "red_notice", setup: object = None) -> list[object]:
    """Game 2 of seed 7 played by the game's own loop (play_out without
    ``stop``) and by the generic loop (a ``stop`` that never stops): the
    outcome, or the StrategyError's message, seat, decision and seed."""
    game = get_game(name)
    got: list[object] = []
    for stop in (None, lambda state: False):
        seeds = game_seeds(7, 2, len(strategies))
        for seat, (s, x) in enumerate(zip(strategies, seeds.seats, strict=True)):
            s.new_game(seat, random.Random(x))  # type: ignore[attr-defined]
        state = game.new_state(game.rules(), random.Random(seeds.chance), setup=setup, seed=seeds.chance)
        try:
            got.append(play_out(game, state, strategies, stop))  # type: ignore[arg-type]
        except StrategyError as e:
            got.append((str(e), e.seat, e.strategy, e.decision, e.seed))
    return got


def test_red_notices_own_loop_plays_and_fails_as_the_generic_loop() -> None:
    """Red Notice plays its decisions in its own (compiled) loop
    (``Game.play_decisions``): the same games, decision counts and
    StrategyErrors as rnsim.play's loop, for a raising strategy and for an
    illegal answer."""
    game = get_game("red_notice")
    expert, rule = (load_strategy(x, None, game) for x in ("expert", "rule"))
    own, generic = _both_loops([expert, rule])
    assert own == generic and own.decisions > 0  # type: ignore[attr-defined]
    for illegal in (False, True):
        own, generic = _both_loops([expert, _Fails(rule, 9, illegal)])
        assert isinstance(own, tuple) and own == generic
        assert ("boom" in own[0]) != illegal and own[1] == "jessah"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_fbis_own_loop_plays_and_fails_as_the_generic_loop(players: int) -> None:
    """FBI plays its decisions in its own (compiled) loop
    (``Game.play_decisions``): the same games, decision counts and
    StrategyErrors as rnsim.play's loop, for a raising strategy and for an
    illegal answer, at each player count."""
    game = get_game("fbi")
    assert game.play_decisions is not None  # type: ignore[attr-defined]
    seats = [load_strategy(("expert", "rule", "random")[i % 3], None, game) for i in range(players)]
    own, generic = _both_loops(seats, "fbi", players)
    assert own == generic and own.decisions > 0 and own.end_reason != "unfinished"  # type: ignore[attr-defined]
    for illegal in (False, True):
        failing = [*seats[:-1], _Fails(seats[-1], 7, illegal)]
        own, generic = _both_loops(failing, "fbi", players)
        assert isinstance(own, tuple) and own == generic
        assert ("boom" in own[0]) != illegal and own[1] == game.seats(None, players)[-1]


def test_fbis_own_loop_calls_a_view_builder_it_does_not_know() -> None:
    """FBI's loop hands a seat the view of whatever builder play_out gives
    it, not only the engine's own (which it calls natively)."""
    from rnsim.games.fbi.view import build_view, play_decisions

    game = get_game("fbi")
    seeds = game_seeds(7, 2, 3)
    shown: list[object] = []

    def builder(state: object, seat: int) -> object:
        shown.append(build_view(state, seat))  # type: ignore[arg-type]
        return shown[-1]

    rule = load_strategy("rule", None, game)
    rule.new_game(0, random.Random(seeds.seats[0]))
    seen: list[object] = []

    def choose(view: object, d: object) -> object:
        seen.append(view)
        return rule.choose(view, d)  # type: ignore[arg-type]

    state = game.new_state(game.rules(), random.Random(seeds.chance), setup=3, seed=seeds.chance)
    n = play_decisions(state, [builder, builder, builder], [choose] * 3, [None, False])
    assert n == len(seen) == len(shown) > 0 and all(a is b for a, b in zip(seen, shown, strict=True))
