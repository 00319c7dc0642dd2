"""Playing whole games: the loop between the engine and two strategies.

``play_game`` is the public one-call entry point; ``run_game`` is what the
tournament runner calls with already-built rules and strategy instances.
"""

from __future__ import annotations

import random
import traceback
from dataclasses import dataclass, field
from typing import Any

from rnsim.errors import IllegalOption, RnsimError
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH, SEATS
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.components import Components
from rnsim.games.red_notice.rules.ruleset import RuleSet
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


@dataclass
class GameResult:
    winner: str | None  # "angela", "jessah", or None (timeout)
    end_reason: str  # "million", "arrest", "timeout"
    rounds: int
    identities: tuple[str, ...]  # Angela's identities at setup
    angela_cashed: int
    jessah_cashed: int
    captures: int
    upgrades_gained: dict[str, int]  # upgrade id -> round first gained
    identities_burnt: tuple[str, ...]  # in the order Angela used them
    stats: dict[str, int]
    angela_cash_by_round: list[int]  # cumulative, at the end of each round
    jessah_cash_by_round: list[int]
    captures_by_round: list[int]
    seed: int
    decisions: int
    events: list[dict[str, Any]] | None = field(default=None, repr=False)

    @property
    def cashed(self) -> int:
        return self.angela_cashed


def run_game(
    rules: RuleSet,
    angela: Strategy,
    jessah: Strategy,
    master_seed: int,
    game_index: int,
    identities: tuple[str, ...] | None = None,
    comps: Components | None = None,
    log: bool = False,
) -> GameResult:
    """Play one game. A strategy failure raises StrategyError."""
    seeds = game_seeds(master_seed, game_index)
    chance = random.Random(seeds.chance)
    angela.new_game(ANGELA, random.Random(seeds.angela))
    jessah.new_game(JESSAH, random.Random(seeds.jessah))
    state = GameState.new(rules, chance, identities=identities, comps=comps, seed=seeds.chance, log=log)
    return play_out(state, (angela, jessah))


def play_out(state: GameState, strategies: tuple[Strategy, Strategy]) -> GameResult:
    """Play a state to its end with the given strategies, one per seat."""
    decisions = 0
    while not state.over:
        d = state.pending
        assert d is not None
        strat = strategies[d.seat]
        try:
            view = build_view(state, d.seat) if strat.uses_view else None
            opt = strat.choose(view, d)  # type: ignore[arg-type]
        except Exception as e:
            raise StrategyError(
                f"strategy {type(strat).__name__} ({SEATS[d.seat]}) raised {type(e).__name__}: {e} "
                f"in a {d.kind!r} decision, round {state.round}, game seed {state.seed}",
                SEATS[d.seat], type(strat).__name__, d.kind, state.seed, traceback.format_exc(),
            ) from e
        try:
            state.apply(opt)
        except IllegalOption as e:
            raise StrategyError(
                f"strategy {type(strat).__name__} ({SEATS[d.seat]}): {e}",
                SEATS[d.seat], type(strat).__name__, d.kind, state.seed, traceback.format_exc(),
            ) from e
        decisions += 1
    return result_of(state, decisions)


def result_of(state: GameState, decisions: int = 0) -> GameResult:
    comps = state.comps
    return GameResult(
        winner=None if state.winner is None else SEATS[state.winner],
        end_reason=state.end_reason or "",
        rounds=state.round,
        identities=tuple(comps.identities[i].id for i in sorted(state.identities_up + state.identities_down)),
        angela_cashed=state.cash_total[ANGELA],
        jessah_cashed=state.cash_total[JESSAH],
        captures=state.captures,
        upgrades_gained=dict(state.upgrade_rounds),
        identities_burnt=tuple(state.burnt),
        stats=dict(state.stats),
        angela_cash_by_round=list(state.cash_by_round[ANGELA]),
        jessah_cash_by_round=list(state.cash_by_round[JESSAH]),
        captures_by_round=list(state.captures_by_round),
        seed=state.seed,
        decisions=decisions,
        events=state.log,
    )


def play_game(
    rules: RuleSet | None = None,
    *,
    angela: str | Strategy = "random",
    jessah: str | Strategy = "random",
    angela_params: dict[str, Any] | None = None,
    jessah_params: dict[str, Any] | None = None,
    identities: tuple[str, ...] | None = None,
    seed: int = 0,
    game_index: int = 0,
    log: bool = False,
) -> GameResult:
    """Play one game of Red Notice and return its result.

    ``rules`` defaults to the classic rules; strategies are references
    (``"random"``, ``"module:Class"``) or instances; ``identities`` fixes
    Angela's identities (else drawn at random, R20); ``seed`` and ``game_index``
    determine every random draw; ``log=True`` keeps the event log in
    ``result.events``.
    """
    rules = rules if rules is not None else RuleSet()
    a = load_strategy(angela, angela_params)
    j = load_strategy(jessah, jessah_params)
    return run_game(rules, a, j, seed, game_index, identities=identities, log=log)


def play_from(
    position: dict[str, Any],
    *,
    angela: str | Strategy = "random",
    jessah: str | Strategy = "random",
    angela_params: dict[str, Any] | None = None,
    jessah_params: dict[str, Any] | None = None,
    games: int = 1,
    seed: int = 0,
    keep_chance: bool = False,
    rules: RuleSet | None = None,
) -> list[GameResult]:
    """Play ``games`` games on from a saved position ("from here, who wins?").

    Game ``i`` continues the position with strategy streams from (seed, i).
    The chance stream (decks and token draws still to come) is re-drawn from
    (seed, i) too, so the games sample the futures a player at that position
    cannot foresee; ``keep_chance=True`` keeps the position's own stream, so
    every game sees the same future draws and only the players' choices vary.
    """
    from rnsim.games.red_notice.engine.position import load_position  # positions sit above the core engine

    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    a = load_strategy(angela, angela_params)
    j = load_strategy(jessah, jessah_params)
    results = []
    for i in range(games):
        state = load_position(position, rules=rules)
        seeds = game_seeds(seed, i)
        if not keep_chance:
            state.rng = random.Random(seeds.chance)
        a.new_game(ANGELA, random.Random(seeds.angela))
        j.new_game(JESSAH, random.Random(seeds.jessah))
        results.append(play_out(state, (a, j)) if not state.over else result_of(state))
    return results
