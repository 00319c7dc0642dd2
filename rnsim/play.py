"""Playing whole games, whatever the game: the one loop between a game's rules
and its strategies (one per seat).

``run_game`` is what the tournament runner calls with already-built rules and
strategy instances; ``play_out`` plays any state to its end (a new game, or a
saved position); ``play_game`` and ``play_from`` are the public one-call entry
points, with strategies given per seat name. ``fewer_collections`` is how a
batch of games is played (the runner's chunks, exploit, bench).
"""

from __future__ import annotations

import gc
import random
import traceback
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from rnsim.errors import ConfigError, IllegalOption, RnsimError
from rnsim.game import Outcome
from rnsim.games import DEFAULT_GAME, get_game
from rnsim.seeding import game_seeds
from rnsim.strategy import Strategy, load_strategy


class StrategyError(RnsimError):
    """A strategy raised, or answered with an illegal option. Carries what a
    designer needs to replay the game: the seat, strategy, decision and seed."""

    def __init__(self, message: str, seat: str, strategy: str, decision: str, seed: int, tb: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.strategy = strategy
        self.decision = decision
        self.seed = seed
        self.traceback = tb


# Young objects the collector lets pile up before a pass, while games are played
# (CPython's default is 700).
_CHUNK_GEN0 = 20_000


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Play with the cyclic garbage collector mostly out of the way, then
    put it back as it was.

    A game's garbage is freed by reference counting: 300 expert games made
    no reference cycle at all (the collector's passes found nothing), yet
    those passes cost about 5% of an expert game's instructions and 8% of
    its time, most of it walking the long-lived objects (modules, component
    tables, strategies' caches) again and again. So while games are played,
    what existed before them is frozen (``gc.freeze``: left out of every
    pass) and young objects are collected after 20,000 allocations instead
    of 700. A strategy that does make cycles still has them collected, a
    little later. Both are undone on the way out, error or not. Nested, or
    with the collector off or frozen by someone else, it changes nothing."""
    if not gc.isenabled() or gc.get_freeze_count():
        yield
        return
    threshold = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(max(threshold[0], _CHUNK_GEN0), *threshold[1:])
    try:
        yield
    finally:
        gc.set_threshold(*threshold)
        gc.unfreeze()


def _game(game: Any) -> Any:
    return get_game(game) if isinstance(game, str) else game


def seat_names(game: Any, state: Any) -> tuple[str, ...]:
    """The seat names of a game in progress."""
    return tuple(game.seats(getattr(state, "rules", None)))


def run_game(
    game: Any,
    rules: Any,
    strategies: Sequence[Strategy],
    master_seed: int,
    game_index: int,
    setup: Any = None,
    log: bool = False,
) -> Outcome:
    """Play game ``game_index`` of master seed ``master_seed``, one strategy
    per seat (seat 0 first). A strategy failure raises StrategyError."""
    seats = game.seats(rules, setup)
    if len(strategies) != len(seats):
        raise ValueError(f"game {game.name!r} has {len(seats)} seats ({', '.join(seats)}) under these rules "
                         f"and setup; got {len(strategies)} strategies")
    seeds = game_seeds(master_seed, game_index, len(strategies))
    chance = random.Random(seeds.chance)
    for seat, (s, x) in enumerate(zip(strategies, seeds.seats, strict=True)):
        s.new_game(seat, random.Random(x))
    state = game.new_state(rules, chance, setup=setup, seed=seeds.chance, log=log)
    if not any(_reads_history(s) for s in strategies):
        # Nobody reads the history: a game may skip recording what only views
        # show (Red Notice's View.history: ~8% of a random game, ~2% of an
        # expert one, and a shorter copy for every clone search makes).
        stop_history = getattr(state, "stop_history", None)
        if stop_history is not None:
            stop_history()
    return play_out(game, state, strategies)


def _reads_history(strategy: Any) -> bool:
    # Strategy.reads_history, or a duck-typed player's uses_view alone.
    method = getattr(strategy, "reads_history", None)
    return bool(strategy.uses_view if method is None else method())


def _view_builder(game: Any, strategy: Any) -> Any:
    # The game's view without what only search players sample (Red Notice's
    # View.worlds), for a strategy that says it never samples them.
    lean = getattr(game, "view_without_worlds", None)
    method = getattr(strategy, "samples_worlds", None)
    return lean if lean is not None and method is not None and not method() else game.view


def play_out(game: Any, state: Any, strategies: Sequence[Strategy], stop: Any = None) -> Outcome:
    """Play ``state`` with the given strategies, one per seat, to its end (or
    until ``stop(state)`` is true before a decision: the state is then left at
    that decision and the outcome is of the game so far)."""
    # Per seat, looked up once a game rather than once a decision (the loop
    # is interpreted): its strategy, its view builder (None: it reads no
    # view) and its choose.
    seats = [(s, _view_builder(game, s) if s.uses_view else None, s.choose) for s in strategies]
    fast = getattr(game, "play_decisions", None) if stop is None else None
    if fast is not None:
        # The game's own loop (Red Notice's is compiled): the same decisions, views and calls.
        at: list[Any] = [None, False]  # the decision playing, and whether its answer is being applied
        try:
            decisions = fast(state, [v for _, v, _ in seats], [c for _, _, c in seats], at)
        except IllegalOption as e:
            if not at[1]:
                raise _strategy_raised(game, state, seats, at[0], e) from e
            raise _illegal(game, state, seats, at[0], e) from e
        except Exception as e:
            if at[1]:
                raise
            raise _strategy_raised(game, state, seats, at[0], e) from e
        return game.outcome(state, decisions)
    apply = state.apply
    decisions = 0
    while not state.over:
        if stop is not None and stop(state):
            break
        d = state.pending
        assert d is not None
        _, view_of, choose = seats[d.seat]
        try:
            opt = choose(None if view_of is None else view_of(state, d.seat), d)
        except Exception as e:
            raise _strategy_raised(game, state, seats, d, e) from e
        try:
            apply(opt)
        except IllegalOption as e:
            raise _illegal(game, state, seats, d, e) from e
        decisions += 1
    return game.outcome(state, decisions)


def _strategy_raised(game: Any, state: Any, seats: Sequence[tuple[Any, Any, Any]], d: Any,
                     e: Exception) -> StrategyError:
    # Called in the handler of ``e``: traceback.format_exc() is its traceback.
    strat = seats[d.seat][0]
    seat = seat_names(game, state)[d.seat]
    rnd = getattr(state, "round", None)
    return StrategyError(
        f"strategy {type(strat).__name__} ({seat}) raised {type(e).__name__}: {e} "
        f"in a {d.kind!r} decision{'' if rnd is None else f', round {rnd}'}, game seed {state.seed}",
        seat, type(strat).__name__, d.kind, state.seed, traceback.format_exc(),
    )


def _illegal(game: Any, state: Any, seats: Sequence[tuple[Any, Any, Any]], d: Any, e: Exception) -> StrategyError:
    # As _strategy_raised, for an answer the game refused.
    strat = seats[d.seat][0]
    seat = seat_names(game, state)[d.seat]
    return StrategyError(
        f"strategy {type(strat).__name__} ({seat}): {e}",
        seat, type(strat).__name__, d.kind, state.seed, traceback.format_exc(),
    )


def seat_strategies(game: Any, seats: Sequence[str], options: Mapping[str, Any],
                    extra: Sequence[str] = ()) -> list[Strategy]:
    """One strategy per seat from keyword options: ``<seat>=ref`` (default
    "random") and ``<seat>_params={...}``. Any other keyword is refused, naming
    the accepted ones."""
    allowed = [*seats, *(f"{s}_params" for s in seats), *extra]
    for k in options:
        if k not in allowed and k not in extra:
            raise ConfigError(f"unknown argument {k!r} for game {game.name!r}; accepted: {', '.join(allowed)}")
    return [load_strategy(options.get(s, "random"), options.get(f"{s}_params"), game) for s in seats]


def _typed(game: Any, outcome: Outcome) -> Any:
    typed = getattr(game, "result", None)
    return typed(outcome) if typed is not None else outcome


def play_game(
    rules: Any = None,
    *,
    game: Any = DEFAULT_GAME,
    seed: int = 0,
    game_index: int = 0,
    log: bool = False,
    **seats: Any,
) -> Any:
    """Play one game and return its result (the game's typed result when it
    has one, e.g. Red Notice's GameResult; else the Outcome).

    ``rules`` defaults to the game's rulebook rules; each seat's strategy is a
    keyword named after the seat (``angela="expert"``; a reference such as
    ``"random"``, ``"module:Class"``, or an instance; default "random") with
    its params as ``<seat>_params``; the game's setup key (Red Notice:
    ``identities``) fixes the setup, else it is drawn from the chance stream.
    ``seed`` and ``game_index`` determine every random draw; ``log=True`` keeps
    the event log in ``result.events``.
    """
    g = _game(game)
    rules = rules if rules is not None else g.rules()
    setup = seats.pop(g.setup_key, None)
    names = g.seats(rules, setup)
    strats = seat_strategies(g, names, seats)
    return _typed(g, run_game(g, rules, strats, seed, game_index, setup=setup, log=log))


def play_from(
    position: dict[str, Any],
    *,
    game: Any = DEFAULT_GAME,
    games: int = 1,
    seed: int = 0,
    keep_chance: bool = False,
    rules: Any = None,
    **seats: Any,
) -> list[Any]:
    """Play ``games`` games on from a saved position ("from here, who wins?").

    Game ``i`` continues the position with strategy streams from (seed, i).
    The chance stream (decks and draws still to come) is re-drawn from
    (seed, i) too, so the games sample the futures a player at that position
    cannot foresee; ``keep_chance=True`` keeps the position's own stream, so
    every game sees the same future draws and only the players' choices vary.
    Strategies are given per seat as in :func:`play_game`.
    """
    g = _game(game)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    results = []
    strats: list[Strategy] | None = None
    for i in range(games):
        state = g.load_position(position, rules=rules)
        if strats is None:
            strats = seat_strategies(g, seat_names(g, state), seats)
        s = game_seeds(seed, i, len(strats))
        if not keep_chance:
            state.rng = random.Random(s.chance)
        for seat, (st, x) in enumerate(zip(strats, s.seats, strict=True)):
            st.new_game(seat, random.Random(x))
        results.append(_typed(g, play_out(g, state, strats) if not state.over else g.outcome(state)))
    return results
