"""Red Notice behind the game boundary (:class:`rnsim.game.Game`): ``GAME``.

Everything the core (play loop, tournament, results, drift gate) needs to know
about Red Notice and nothing it should not: seat names, rule knobs, setups
(Angela's identities), a new game, a seat's view, and the game's own result
columns. The engine and the rules stay in ``engine/`` and ``rules/``; this
module only translates.
"""

from __future__ import annotations

import difflib
import itertools
import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import polars as pl

from rnsim.errors import ConfigError, RnsimError
from rnsim.game import Knob, Lever, Outcome
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH, OPTION_TYPES, SEATS
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view, build_view_alone, play_decisions
from rnsim.games.red_notice.rules.components import Components
from rnsim.games.red_notice.rules.ruleset import KNOBS, RuleSet

#: per-game statistics taken from the engine's ``stats`` (Int16 columns)
STAT_COLUMNS = ("radar_triggers", "radars_placed", "barriers_placed", "barriers_moved", "security_spent", "inspections")


@dataclass
class GameResult:
    """Red Notice's typed view of an :class:`~rnsim.game.Outcome` (what
    ``rnsim.play_game`` returns)."""

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


class RedNotice:
    """Red Notice: A Million or Prison, two seats (Angela the forger, Jessah the FBI agent)."""

    name: ClassVar[str] = "red_notice"
    title: ClassVar[str] = "Red Notice: A Million or Prison"
    version: ClassVar[str] = "1"
    setup_key: ClassVar[str] = "identities"
    setup_column: ClassVar[str] = "identity_pair"
    #: built-in strategies by short name ("module:Class"), strongest last
    strategies: ClassVar[dict[str, str]] = {
        "random": "rnsim_strategies.red_notice.random_play:RandomStrategy",
        "rule": "rnsim_strategies.red_notice.rules_based:RuleBased",
        "expert": "rnsim_strategies.red_notice.expert:Expert",
        "search": "rnsim_strategies.red_notice.search:Search",
    }
    #: the strategy of a seat the config leaves out: the strongest a tournament
    #: can afford (search is stronger but plays about one game a second, some
    #: 300 times slower: a default run of it would take hours)
    default_strategy: ClassVar[str] = "expert"
    #: every decision kind the engine asks (a strategy's ``on_<kind>`` must name one)
    decision_kinds: ClassVar[tuple[str, ...]] = tuple(OPTION_TYPES)
    #: the seat whose win rate the drift gate and `rnsim compare` watch
    balance_seat: ClassVar[int] = ANGELA
    #: how a seat's role reads in prose (reports, the gate's messages)
    seat_roles: ClassVar[dict[str, str]] = {"angela": "forger", "jessah": "agent"}
    #: the seats with a command-line option of their own (`rnsim play --angela
    #: expert`, aliases of `--seat angela=expert`; `exploit`'s pair, `ladder`'s levels)
    seat_aliases: ClassVar[tuple[str, ...]] = ("angela", "jessah")
    #: `rnsim play --identities` (the option named after setup_key): its help
    setup_option_help: ClassVar[str] = 'Angela\'s identities, e.g. "journalist,pilot" (default: random).'
    #: the probes `rnsim exploit` plays (specialists that punish one habit)
    probes: ClassVar[str] = "rnsim_strategies.red_notice.probes:PROBES"
    #: `rnsim sweep`, `tune` and `levers` deal the identities as the rulebook
    #: does (R20): every game index is then one independent game, and a change
    #: of identities_per_game still pairs game i with game i
    lever_setups: ClassVar[str] = "random"

    # A strategy's view: the engine's builder itself, so the play loop pays no
    # extra call per decision.
    view = staticmethod(build_view)
    # ... and for a strategy that never samples View.worlds (play.py).
    view_without_worlds = staticmethod(build_view_alone)
    # The play loop's decisions, compiled (rnsim.play.play_out): the
    # interpreted loop costs more per decision than the engine's own step.
    play_decisions = staticmethod(play_decisions)

    def __init__(self) -> None:
        self._comps: dict[RuleSet, Components] = {}

    def __repr__(self) -> str:
        return "<game red_notice>"

    def __reduce__(self) -> tuple[Any, ...]:
        # One game object per process: unpickling (in a worker) gives the registry's.
        return (_game, ())

    # -- rules and components -------------------------------------------------
    def knobs(self) -> Sequence[Knob]:
        out = []
        for name, k in KNOBS.items():
            kind = getattr(k, "kind", "number")
            if kind == "choice":
                out.append(Knob(name, k.default, k.doc, choices=SEATS))
            elif kind == "number":
                notch = getattr(k, "notch", None)
                out.append(Knob(name, k.default, k.doc, low=k.lo, high=k.hi,
                                notch=None if notch is None else float(notch),
                                changes_setup=name == "identities_per_game"))
            else:  # a component knob (lists of ids or values)
                out.append(Knob(name, k.default, k.doc))
        return out

    def levers(self, rules: RuleSet) -> list[Lever]:
        """Beyond the knobs' notches: every upgrade removed from the deck, every
        identity played as the plain identity (its power's value), and, for
        restricted play, every upgrade never chosen while another is offered
        (the casher of a $200k check chooses Jessah's upgrade, so both seats
        are restricted)."""
        comps = self.components(rules)
        out: list[Lever] = []
        for u in comps.upgrade_ids:
            knobs: dict[str, Any] = {"upgrades_excluded": [*rules.upgrades_excluded, u]}
            if rules.upgrade_copies:
                knobs["upgrade_copies"] = {k: v for k, v in rules.upgrade_copies if k != u}
            out.append(Lever(f"no.{u}", f"upgrade {u} removed from the deck", knobs, "upgrade", u))
        for ident in comps.identities:
            if ident.id not in rules.identities_plain:
                out.append(Lever(f"plain.{ident.id}", f"identity {ident.id} -> plain identity",
                                 {"identities_plain": [*rules.identities_plain, ident.id]}, "identity", ident.id))
        out += [Lever(f"never-{u}", f"upgrade {u} never chosen (restricted play)", {}, "restricted", u,
                      never=u, decision="upgrade") for u in comps.upgrade_ids]
        return out

    def rule_keys(self) -> tuple[str, ...]:
        """The keys a ``[rules]`` table may hold."""
        return (*KNOBS, "components")

    def rule_value(self, key: str, value: Any, base_dir: Path) -> Any:
        """A ``[rules]`` value as read from a config file in ``base_dir``: a
        component folder is relative to that file, not to wherever rnsim runs;
        a built-in set's name ("classic") stays a name."""
        if key != "components":
            return value
        from rnsim.games.red_notice.rules.components import DATA_DIR, component_folder

        if not isinstance(value, str) or not value:
            return value  # RuleSet validation reports the type
        if component_folder(value) == DATA_DIR / value:
            return value
        return str((base_dir / value).resolve())

    def rules(self, table: Mapping[str, Any] | None = None, source: str = "rules") -> RuleSet:
        try:
            return RuleSet.from_mapping(dict(table or {}), source=source)
        except RnsimError as e:
            raise ConfigError(str(e)) from None
        except TypeError as e:  # e.g. a dataclass field given the wrong shape
            raise ConfigError(f"{source}: {e}") from None

    def rules_hash(self, rules: RuleSet) -> str:
        return rules.digest()

    def components(self, rules: RuleSet) -> Components:
        c = self._comps.get(rules)
        if c is None:
            c = self._comps[rules] = rules.load_components()
        return c

    # -- seats and setups ---------------------------------------------------------
    def seats(self, rules: Any = None, setup: Any = None) -> tuple[str, ...]:
        return SEATS

    def setups(self, rules: RuleSet, value: Any, source: str = "run") -> list[tuple[str, tuple[str, ...] | None]]:
        """``"all"`` (every identity set, default), ``"random"`` (drawn by the
        engine, R20) or a list of identity lists."""
        if value is None:
            value = "all"
        key = f"{source}.{self.setup_key}" if source else self.setup_key
        comps = self.components(rules)
        ids = [i.id for i in comps.identities]
        k = rules.identities_per_game
        if value == "random":
            return [("random", None)]
        if value == "all":
            return [("+".join(c), c) for c in itertools.combinations(ids, k)]
        if not isinstance(value, list):
            raise ConfigError(
                f'{key}: must be "all" (every pair), "random" (drawn as in the rulebook) '
                f'or a list of pairs like [["journalist", "pilot"]], got {value!r}'
            )
        if not value:
            raise ConfigError(f"{key}: the list of pairs is empty")
        out: list[tuple[str, tuple[str, ...] | None]] = []
        for n, pair in enumerate(value):
            k_n = f"{key}[{n}]"
            if not isinstance(pair, list) or not all(isinstance(x, str) for x in pair):
                raise ConfigError(f"{k_n}: must be a list of identity ids like [\"journalist\", \"pilot\"], got {pair!r}")
            for x in pair:
                if x not in ids:
                    close = difflib.get_close_matches(x, ids, n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    raise ConfigError(f"{k_n}: unknown identity {x!r}{hint}; identities are: {', '.join(ids)}")
            if len(pair) != k:
                raise ConfigError(f"{k_n}: gives Angela {k} identities (identities_per_game), got {len(pair)}: {pair}")
            if len(set(pair)) != len(pair):
                raise ConfigError(f"{k_n}: the same identity twice in {pair}")
            canon = tuple(sorted(pair, key=ids.index))
            if any(s == canon for _, s in out):
                raise ConfigError(f"{k_n}: pair {list(canon)} is listed twice")
            out.append(("+".join(canon), canon))
        return out

    def parse_setup(self, text: str, option: str) -> tuple[str, ...]:
        """`rnsim play --identities journalist,pilot`: Angela's identities, as given."""
        idents = tuple(x.strip() for x in text.split(","))
        twice = sorted({i for i in idents if idents.count(i) > 1})
        if twice:
            raise ConfigError(f"{option}: {', '.join(twice)} given twice; Angela's identities are distinct")
        return idents

    def check_setup_value(self, value: Any, source: str = "run") -> None:
        """The shape of a ``[run] identities`` value, before any rules are known."""
        key = f"{source}.{self.setup_key}" if source else self.setup_key
        if not (value in ("all", "random") or isinstance(value, list)):
            raise ConfigError(
                f'{key}: must be "all" (every pair), "random" (drawn as in the rulebook) '
                f'or a list of pairs like [["journalist", "pilot"]], got {value!r}'
            )
        if isinstance(value, list) and not value:
            raise ConfigError(f"{key}: the list of pairs is empty")

    def setup_label(self, rules: RuleSet, setup: tuple[str, ...] | None, chance: random.Random) -> str:
        """The setup column of a game whose play failed: the identities its
        chance stream gives (the stream's first draw, R20)."""
        if setup is not None:
            return "+".join(setup)
        s = GameState.new(rules, chance, comps=self.components(rules))
        comps = s.comps
        return "+".join(comps.identities[i].id for i in sorted(s.identities_up))

    # -- the decision machine ----------------------------------------------------------
    def new_state(self, rules: RuleSet, chance: random.Random, setup: tuple[str, ...] | None = None,
                  seed: int = 0, log: bool = False) -> GameState:
        return GameState.new(rules, chance, identities=setup, comps=self.components(rules), seed=seed, log=log)

    def outcome(self, state: GameState, decisions: int = 0) -> Outcome:
        comps = state.comps
        ids = [comps.identities[i].id for i in sorted(state.identities_up + state.identities_down)]
        st = state.stats
        rec: dict[str, Any] = {
            self.setup_column: "+".join(ids),
            "angela_cashed": state.cash_total[ANGELA],
            "jessah_cashed": state.cash_total[JESSAH],
            "captures": state.captures,
            "checks_cashed_angela": st.get("checks_cashed_angela", 0),
            "checks_cashed_jessah": st.get("checks_cashed_jessah", 0),
        }
        for k in STAT_COLUMNS:
            rec[k] = st.get(k, 0)
        rec["identities"] = ids
        rec["identities_burnt"] = list(state.burnt)
        gained = state.upgrade_rounds
        for u in comps.upgrade_ids:
            r = gained.get(u)
            rec[f"upgrade_{u}"] = r is not None
            rec[f"upgrade_{u}_round"] = r
        rec["angela_cash_by_round"] = list(state.cash_by_round[ANGELA])
        rec["jessah_cash_by_round"] = list(state.cash_by_round[JESSAH])
        rec["captures_by_round"] = list(state.captures_by_round)
        # not a column (keys starting "_" never are): the order Jessah gained them, for GameResult
        rec["_upgrades_gained"] = dict(gained)
        return Outcome(
            winner=None if state.winner is None else SEATS[state.winner],
            end_reason=state.end_reason or "",
            rounds=state.round,
            seed=state.seed,
            decisions=decisions,
            record=rec,
            events=state.log,
        )

    def summary(self, outcome: Outcome) -> list[str]:
        """What `rnsim play` prints under the winner line."""
        r = self.result(outcome)
        ups = ", ".join(f"{u} (round {n})" for u, n in r.upgrades_gained.items()) or "none"
        return [
            f"identities: {', '.join(r.identities)}; burnt: {', '.join(r.identities_burnt) or 'none'}",
            f"Angela cashed ${r.angela_cashed:,}; Jessah cashed ${r.jessah_cashed:,}; captures: {r.captures}",
            f"upgrades gained by Jessah: {ups}",
        ]

    def result(self, outcome: Outcome) -> GameResult:
        """Red Notice's typed view of an outcome."""
        rec = outcome.record
        stats = {k: rec[k] for k in ("checks_cashed_angela", "checks_cashed_jessah", *STAT_COLUMNS)}
        return GameResult(
            winner=outcome.winner, end_reason=outcome.end_reason, rounds=outcome.rounds,
            identities=tuple(rec["identities"]), angela_cashed=rec["angela_cashed"],
            jessah_cashed=rec["jessah_cashed"], captures=rec["captures"],
            upgrades_gained=dict(rec["_upgrades_gained"]),
            identities_burnt=tuple(rec["identities_burnt"]), stats=stats,
            angela_cash_by_round=rec["angela_cash_by_round"], jessah_cash_by_round=rec["jessah_cash_by_round"],
            captures_by_round=rec["captures_by_round"], seed=outcome.seed, decisions=outcome.decisions,
            events=outcome.events,
        )

    # -- results -----------------------------------------------------------------------
    def record_schema(self, rules: RuleSet | Iterable[RuleSet]) -> dict[str, pl.DataType]:
        """Red Notice's own columns (docs/architecture.md). ``upgrade_<id>`` and
        ``upgrade_<id>_round`` come from the component set's upgrades (of every
        rule set given, in first-seen order, so all shards of a run share one schema)."""
        many = [rules] if isinstance(rules, RuleSet) else list(rules)
        upgrade_ids: list[str] = []
        for r in many:
            for u in self.components(r).upgrade_ids:
                if u not in upgrade_ids:
                    upgrade_ids.append(u)
        s: dict[str, pl.DataType] = {
            "angela_cashed": pl.Int64(),
            "jessah_cashed": pl.Int64(),
            "captures": pl.Int8(),
            "checks_cashed_angela": pl.Int16(),
            "checks_cashed_jessah": pl.Int16(),
        }
        for c in STAT_COLUMNS:
            s[c] = pl.Int16()
        s["identities"] = pl.List(pl.String())
        s["identities_burnt"] = pl.List(pl.String())
        for u in upgrade_ids:
            s[f"upgrade_{u}"] = pl.Boolean()
            s[f"upgrade_{u}_round"] = pl.Int16()
        s["angela_cash_by_round"] = pl.List(pl.Int32())
        s["jessah_cash_by_round"] = pl.List(pl.Int32())
        s["captures_by_round"] = pl.List(pl.Int8())
        return s

    # -- narrative and positions ----------------------------------------------------
    #: the event type that ends a log (`rnsim replay` calls a log without it truncated)
    end_event: ClassVar[str] = "game_end"

    def narrate(self, events: Iterable[Mapping[str, Any]]) -> Iterator[str]:
        from rnsim.games.red_notice.engine.narrative import narrate

        return narrate(dict(e) for e in events)

    def conceal(self, state: GameState, seat: int, rng: random.Random) -> GameState:
        from rnsim.games.red_notice.conceal import conceal

        return conceal(state, seat, rng)

    def save_position(self, state: GameState) -> dict[str, Any]:
        from rnsim.games.red_notice.engine.position import save_position

        return save_position(state)

    def load_position(self, data: Mapping[str, Any], rules: RuleSet | None = None, log: bool = False,
                      source: str = "position") -> GameState:
        from rnsim.games.red_notice.engine.position import load_position

        return load_position(dict(data), rules=rules, log=log, source=source)


def _game() -> RedNotice:
    return GAME


GAME = RedNotice()
