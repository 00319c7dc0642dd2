"""FBI behind the game boundary (:class:`rnsim.game.Game`): ``GAME``.

Seats are named after the rulebook's example players, clockwise (F1): ann,
bert, chris, donna, emil; a 3-player game uses the first three. The setup a
tournament varies is the player count (``[run] players = [3, 4, 5]``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from rnsim.errors import ConfigError, IllegalOption, RnsimError
from rnsim.game import Knob, Outcome
from rnsim.games.fbi import narrative, position
from rnsim.games.fbi.components import DATA_DIR, MAX_PLAYERS, MIN_PLAYERS, Components, component_folder
from rnsim.games.fbi.rules import KNOB_BY_NAME, KNOBS, FbiRules
from rnsim.games.fbi.state import SEAT_NAMES, FbiState, check_players
from rnsim.games.fbi.view import build_view, play_decisions


class FbiGame:
    name: ClassVar[str] = "fbi"
    title: ClassVar[str] = "FBI"
    version: ClassVar[str] = "1"
    setup_key: ClassVar[str] = "players"
    setup_column: ClassVar[str] = "players"
    #: every seat name a game can have (results hold a column per seat)
    all_seats: ClassVar[tuple[str, ...]] = SEAT_NAMES
    #: built-in strategies by short name ("module:Class"), strongest last
    strategies: ClassVar[dict[str, str]] = {
        "random": "rnsim_strategies.fbi.random_play:RandomStrategy",
        "rule": "rnsim_strategies.fbi.rule:RuleStrategy",
        "expert": "rnsim_strategies.fbi.expert:ExpertStrategy",
    }
    #: every decision kind the engine asks (a strategy's ``on_<kind>`` must name one; state.py)
    decision_kinds: ClassVar[tuple[str, ...]] = ("bid", "agents", "arrest")
    #: the seat whose win rate `rnsim compare` / the drift gate watch by default
    balance_seat: ClassVar[int | str] = "first_handcuffs"
    #: the seats are the same in the rules: tournaments play every rotation of a lineup (FR13, docs/games/fbi.md)
    rotate_seats: ClassVar[bool] = True
    seat_roles: ClassVar[dict[str, str]] = {"first_handcuffs": "start player"}
    #: the probes `rnsim exploit --game fbi` and the strength band play (specialists that punish one
    #: habit of the expert; each takes every seat in turn)
    probes: ClassVar[str] = "rnsim_strategies.fbi.probes:PROBES"

    # the engine's builder itself: the play loop pays no extra call per decision
    view = staticmethod(build_view)
    # The play loop's decisions, compiled (rnsim.play.play_out): the
    # interpreted loop costs more per decision than the view and the rules.
    play_decisions = staticmethod(play_decisions)

    def __repr__(self) -> str:
        return "<game fbi>"

    def __reduce__(self) -> tuple[Any, ...]:
        # one game object per process: unpickling (in a worker) gives the registry's
        return (_game, ())

    # -- rules and components -------------------------------------------------
    def knobs(self) -> Sequence[Knob]:
        return KNOBS

    def rule_keys(self) -> tuple[str, ...]:
        return (*KNOB_BY_NAME, "components")

    def rule_value(self, key: str, value: Any, base_dir: Path) -> Any:
        """A component folder in a config is relative to that config file; a
        built-in set's name stays a name."""
        if key != "components" or not isinstance(value, str) or not value:
            return value
        if component_folder(value) == DATA_DIR / value:
            return value
        return str((base_dir / value).resolve())

    def rules(self, table: Mapping[str, Any] | None = None, source: str = "rules") -> FbiRules:
        try:
            return FbiRules.from_mapping(dict(table) if table is not None else {}, source)
        except RnsimError as e:
            raise ConfigError(str(e)) from None
        except TypeError as e:  # a knob given the wrong shape
            raise ConfigError(f"{source}: {e}") from None

    def components(self, rules: FbiRules) -> Components:
        return rules.load_components()

    def rules_hash(self, rules: FbiRules) -> str:
        return rules.digest()

    # -- seats and setups ---------------------------------------------------------
    def setups(self, rules: FbiRules, value: Any, source: str = "run") -> list[tuple[str, int]]:
        """``players = 4`` or ``players = [3, 4, 5]``: one cell per count (F16)."""
        if value is None:
            value = list(range(MIN_PLAYERS, MAX_PLAYERS + 1))
        counts = value if isinstance(value, list) else [value]
        if not counts:
            raise ConfigError(f"{source}: players: must name at least one player count (3, 4 or 5)")
        comps = rules.load_components()
        out: list[tuple[str, int]] = []
        for i, k in enumerate(counts):
            try:
                check_players(k, comps, f"{source}: players" + (f"[{i}]" if isinstance(value, list) else ""))
            except RnsimError as e:
                raise ConfigError(str(e)) from None
            if str(k) in [label for label, _ in out]:
                raise ConfigError(f"{source}: players: {k} is listed twice")
            out.append((str(k), k))
        return out

    def check_setup_value(self, value: Any, source: str = "run") -> None:
        """The shape of a ``[run] players`` value, before any rules are known (F16)."""
        counts = value if isinstance(value, list) else [value]
        key = f"{source}.{self.setup_key}" if source else self.setup_key
        if not counts or not all(isinstance(k, int) and not isinstance(k, bool) for k in counts):
            raise ConfigError(f"{key}: must be a player count (3, 4 or 5) or a list of them like [3, 4, 5], got {value!r}")

    def setup_label(self, rules: FbiRules, setup: Any, chance: random.Random) -> str:
        return str(4 if setup is None else setup)

    def seats(self, rules: FbiRules | None = None, setup: Any = None) -> tuple[str, ...]:
        """The seats of a game of ``setup`` players; without a setup, every seat
        a game can have (the result table holds a column per seat)."""
        if setup is None:
            return SEAT_NAMES
        return SEAT_NAMES[:check_players(setup, (rules or FbiRules()).load_components())]

    # -- the decision machine ----------------------------------------------------------
    def new_state(self, rules: FbiRules, chance: random.Random, setup: Any = None, seed: int = 0,
                  log: bool = False) -> FbiState:
        players = 4 if setup is None else setup
        return FbiState.new(rules, players, chance, seed=seed, log=log)

    def outcome(self, state: FbiState, decisions: int = 0) -> Outcome:
        n = state.n
        seats = SEAT_NAMES[:n]
        if not state.over:
            return Outcome(winner=None, end_reason="unfinished", rounds=state.turn, seed=state.seed,
                           decisions=decisions, record=self._record(state), events=state.log)
        winners = state.winners()
        shares = {seats[s]: (1.0 / len(winners) if s in winners else 0.0) for s in range(n)}
        return Outcome(
            winner=seats[winners[0]] if len(winners) == 1 else None,
            end_reason="deck_empty" if len(winners) == 1 else "shared_win",  # FR12
            rounds=state.turn,
            seed=state.seed,
            decisions=decisions,
            record=self._record(state),
            shares=shares,
            events=state.log,
        )

    # -- results -----------------------------------------------------------------------
    def record_schema(self, rules: FbiRules | Iterable[FbiRules]) -> dict[str, Any]:
        """FBI's own columns; ``bonus_<colour>`` for the colours of every rule set given."""
        import polars as pl

        many = [rules] if isinstance(rules, FbiRules) else list(rules)
        colours: list[str] = []
        for r in many:
            colours.extend(c for c in r.load_components().colours if c not in colours)

        cols: dict[str, Any] = {"first_handcuffs": pl.String, "tied": pl.Int8, "bonus_decides": pl.Boolean}
        for s in SEAT_NAMES:
            cols[f"score_{s}"] = pl.Int16
        for s in SEAT_NAMES:
            cols[f"rank_{s}"] = pl.Int8
        for s in SEAT_NAMES:
            cols[f"bonus_points_{s}"] = pl.Int16
        for c in colours:
            cols[f"bonus_{c}"] = pl.String
        for s in SEAT_NAMES:
            cols[f"share_{s}"] = pl.Float64
        return cols

    def _record(self, state: FbiState) -> dict[str, Any]:
        comps = state.comps
        n = state.n
        rec: dict[str, Any] = {"first_handcuffs": SEAT_NAMES[state.first_handcuffs]}
        over = state.over
        winners = state.winners() if over else []
        rec["tied"] = len(winners) if over else None
        if over:
            base = [state.base_score(s) for s in range(n)]
            best = max(base)
            rec["bonus_decides"] = [s for s in range(n) if base[s] == best] != winners  # FR10
        else:
            rec["bonus_decides"] = None
        ranks = state.ranks() if over else []
        bonus_pts = [0] * n
        for c, s in enumerate(state.bonus_to):
            if s >= 0:
                bonus_pts[s] += comps.bonus[c]
        for i, name in enumerate(SEAT_NAMES):
            here = over and i < n
            rec[f"score_{name}"] = state.scores[i] if here else None
            rec[f"rank_{name}"] = ranks[i] if here else None
            rec[f"bonus_points_{name}"] = bonus_pts[i] if here else None
            rec[f"share_{name}"] = ((1.0 / len(winners)) if i in winners else 0.0) if here else None
        for c, colour in enumerate(comps.colours):
            s = state.bonus_to[c] if over else -1
            rec[f"bonus_{colour}"] = SEAT_NAMES[s] if s >= 0 else None
        return rec

    # -- conformance -------------------------------------------------------------------
    def conceal(self, state: FbiState, seat: int, rng: random.Random) -> FbiState:
        """A copy where what ``seat`` cannot see is re-drawn: the deck order (and
        the seed it was dealt from), and the other players' chosen agents (F6),
        consistent with the agents they have played; the omniscient event log
        is not kept."""
        c = state.clone()
        rng.shuffle(c.deck)
        c.seed = rng.getrandbits(63)
        c.log = None if state.log is None else []
        comps = c.comps
        for s in range(c.n):
            if s == seat or c.pairs[s] is None:
                continue
            played = sorted(c.played[s])
            fits = []
            for pair in c.agent_options():
                cols = [comps.colours.index(a) for a in pair if a != comps.doubler]
                if len(cols) == 1 and comps.doubler in pair:
                    cols = cols * 2
                rest = cols[:]
                for p in played:
                    if p not in rest:
                        break
                    rest.remove(p)
                else:
                    fits.append((pair, rest))
            if fits:
                c.pairs[s], c.agents[s] = fits[rng.randrange(len(fits))]
        return c

    # -- narrative and positions ----------------------------------------------------
    #: the event type that ends a log (`rnsim replay` calls a log without it truncated)
    end_event: ClassVar[str] = "end"

    def narrate(self, events: Iterable[Mapping[str, Any]]) -> Iterator[str]:
        return narrative.narrate(events)

    def save_position(self, state: FbiState) -> dict[str, Any]:
        return position.save_position(state)

    def load_position(self, data: Mapping[str, Any], rules: Any = None, log: bool = False,
                      source: str = "position") -> FbiState:
        return position.load_position(data, rules, log, source)

    def summary(self, outcome: Outcome) -> list[str]:
        """What `rnsim play` prints under the winner line."""
        rec = outcome.record
        seats = [s for s in SEAT_NAMES if rec.get(f"score_{s}") is not None]
        scores = ", ".join(f"{s} {rec[f'score_{s}']}" for s in seats)
        bonus = ", ".join(f"{k[6:]} to {v}" for k, v in rec.items() if k.startswith("bonus_") and
                          not k.startswith("bonus_points_") and k != "bonus_decides" and v) or "none"
        return [f"scores: {scores}", f"bonus cards: {bonus}; first handcuffs: {rec['first_handcuffs']}"]


GAME = FbiGame()


def _game() -> FbiGame:
    return GAME


# ------------------------------------------------------------ a local play loop

def seat_seeds(master_seed: int, game_index: int) -> tuple[int, list[int]]:
    """The chance seed and one strategy seed per seat (up to 5), derived from
    (master seed, game index) only: results do not depend on chunking."""
    ss = np.random.SeedSequence(master_seed, spawn_key=(game_index,))
    words = ss.generate_state(1 + MAX_PLAYERS, dtype=np.uint64)
    w = [int(x) & 0x7FFF_FFFF_FFFF_FFFF for x in words]
    return w[0], w[1:]


def play(rules: FbiRules, players: int, strategies: Sequence[Any], master_seed: int = 0, game_index: int = 0,
         log: bool = False) -> tuple[FbiState, Outcome]:
    """Play one game with one strategy instance per seat (seat 0 first).

    The tournament runner has its own loop; this one serves tests, scripts and
    the benchmark."""
    if len(strategies) != players:
        raise ConfigError(f"players: {players} players need {players} strategies, got {len(strategies)}")
    chance_seed, seeds = seat_seeds(master_seed, game_index)
    for seat, strat in enumerate(strategies):
        strat.new_game(seat, random.Random(seeds[seat]))
    state = FbiState.new(rules, players, random.Random(chance_seed), seed=chance_seed, log=log)
    decisions = 0
    while not state.over:
        d = state.pending
        assert d is not None
        strat = strategies[d.seat]
        opt = strat.choose(build_view(state, d.seat) if strat.uses_view else None, d)
        try:
            state.apply(opt)
        except IllegalOption as e:
            raise IllegalOption(f"strategy {type(strat).__name__} ({SEAT_NAMES[d.seat]}): {e}") from None
        decisions += 1
    return state, GAME.outcome(state, decisions)
