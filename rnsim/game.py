"""The game boundary: what rnsim's core (play loop, tournaments, analysis,
reports, the drift gate) knows about a game, and nothing more.

A game is a package under ``rnsim/games/<name>/`` (or any installed package
registered in the ``rnsim.games`` entry-point group) that exposes one object
satisfying :class:`Game`. The shape follows OpenSpiel and pgx: a ``Game``
(parameters validated with clear errors) creates ``State``s (the rules, as an
explicit decision machine that can be cloned at every decision), and
``Game.view(state, seat)`` is one seat's observation, the only thing a
strategy ever sees.

The core never imports a game's modules by name: it asks the registry
(:mod:`rnsim.games`) for the game a config names, and works with seat
indices, seat names and the columns the game declares.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Protocol, runtime_checkable


@runtime_checkable
class Decision(Protocol):
    """A question to one seat: ``options`` is the full list of legal answers."""

    seat: int
    kind: str
    options: Sequence[Any]


@runtime_checkable
class State(Protocol):
    """One game in progress. Strategies never see it; they get ``Game.view``."""

    over: bool
    seed: int  # the game's chance seed

    @property
    def pending(self) -> Decision | None:
        """The decision waiting for an answer (None once the game is over)."""
        ...

    def decision(self) -> Decision:
        """Advance the rules to the next decision and return it."""
        ...

    def apply(self, option: Any) -> None:
        """Answer the pending decision; an illegal answer raises IllegalOption."""
        ...

    def clone(self) -> State:
        """An independent copy: playing on the copy never changes this state."""
        ...


@dataclass(frozen=True)
class Knob:
    """One rule knob: a number or choice the rules use, with the rulebook's
    value as default. ``notch`` is the natural step a designer would try
    (numeric knobs); ``choices`` lists the allowed values of a choice knob."""

    name: str
    default: Any
    doc: str
    low: float | None = None
    high: float | None = None
    notch: float | None = None
    choices: tuple[Any, ...] | None = None
    #: a change of this knob deals other setups (Red Notice's identities_per_game
    #: changes the identity sets): two values' games pair by game index only
    #: when the setups are drawn game by game
    changes_setup: bool = False

    @property
    def numeric(self) -> bool:
        """A whole-number knob with a notch: swept, tuned and moved a notch by the levers commands."""
        return self.notch is not None


@dataclass(frozen=True)
class Lever:
    """A one-step change of the rules a designer weighs beyond a knob's notch
    (e.g. a card left out of the deck), declared by the game (``Game.levers``).

    ``knobs`` are the rule knobs it sets on top of the config's rules. A lever
    with ``never`` set is *restricted play* instead: the same rules and
    strategies, except that no seat chooses the option ``never`` (of decisions
    of kind ``decision``, any kind when None) while another option is offered
    (``rnsim levers --restricted``)."""

    name: str  # the variant's name in the run, e.g. "no.wiretap"
    label: str  # what a designer reads, e.g. "upgrade wiretap removed from the deck"
    knobs: Mapping[str, Any]
    kind: str  # what kind of thing it changes (a column of the levers table), e.g. "upgrade"
    subject: str  # the thing changed, e.g. "wiretap"
    never: str | None = None
    decision: str | None = None


@dataclass
class Outcome:
    """What the core needs from a finished game, whatever the game.

    ``winner`` is the winning seat's name, or None (no winner, a shared win, an
    error). ``shares`` gives every seat's share of a win (1 for the winner, 1/k
    each for k seats sharing it, 0 otherwise); a game with a single winner can
    leave it empty. ``record`` holds the game's own result columns (declared by
    ``Game.record_schema``) and ``events`` the event log when one was asked for.
    """

    winner: str | None
    end_reason: str
    rounds: int
    seed: int
    decisions: int
    record: dict[str, Any] = field(default_factory=dict)
    shares: dict[str, float] = field(default_factory=dict)
    events: list[dict[str, Any]] | None = field(default=None, repr=False)


@runtime_checkable
class Game(Protocol):
    """A game behind the boundary. See ``rnsim/games/red_notice`` for one."""

    name: ClassVar[str]  # registry name, e.g. "red_notice"
    title: ClassVar[str]  # e.g. "Red Notice: A Million or Prison"
    version: ClassVar[str]  # bumped when the rules change outcomes

    # -- rules and components -------------------------------------------------
    def knobs(self) -> Sequence[Knob]:
        """Every rule knob with its default, range and notch (a numeric knob,
        one a sweep or a tune can move, has a notch), or its choices."""
        ...

    def rules(self, table: Mapping[str, Any] | None = None, source: str = "rules") -> Any:
        """A validated, hashable rule set from a ``[rules]`` table (clear errors
        naming ``source`` and the key)."""
        ...

    def rules_hash(self, rules: Any) -> str:
        """A stable hash of the rules and the component data they use."""
        ...

    # -- seats and setups ---------------------------------------------------------
    #: the ``[run]`` key that chooses the setups a tournament plays (Red Notice:
    #: "identities"; FBI: "players"), and the result column holding a setup's label
    setup_key: ClassVar[str]
    setup_column: ClassVar[str]

    def setups(self, rules: Any, value: Any, source: str = "run") -> list[tuple[str, Any]]:
        """The (label, setup) pairs a ``[run] <setup_key>`` value asks for; one
        tournament cell per pair. ``value`` None means the game's default."""
        ...

    def seats(self, rules: Any, setup: Any = None) -> tuple[str, ...]:
        """The seat names of a game under these rules and setup (seat 0 first);
        with no setup, every seat a game can have (the result table holds a
        ``<seat>_strategy`` column per seat, null where a seat is not in the game)."""
        ...

    # Optional class attributes the core reads with defaults (getattr):
    #: ``rotate_seats = True`` when the seats are the same in the rules (only
    #: their order differs, e.g. FBI): a tournament then plays every rotation of
    #: each lineup of strategies as its own cell, on the same game indices, so
    #: each strategy meets each seat on the same deals. Default False (Red
    #: Notice's seats are different roles).
    #: ``balance_seat``: the seat whose win rate `compare` and `check` watch: a
    #: seat index (default 0), or the name of an own result column that holds a
    #: seat name per game (FBI: "first_handcuffs", the start player). It is
    #: also the balance `rnsim sweep`, `tune` and `levers` measure: the seat's
    #: share of the wins (a shared win counts 1/k), named by ``seat_roles``.
    #: ``fair_rate(rules, setup) -> float``: the watched seat's rate in a
    #: balanced game of that setup, the default target of `sweep` and `tune`
    #: (default: one over the number of seats, e.g. 0.5 for two).
    #: ``lever_setups``: the ``[run] <setup_key>`` value `sweep`, `tune` and
    #: `levers` play unless told to keep the config's (Red Notice: "random",
    #: identities dealt as the rulebook deals them); absent: the config's.
    #: ``levers(rules) -> Sequence[Lever]``: the game's one-step changes beyond
    #: the knobs' notches, and its restricted-play levers (``Lever.never``).
    #: ``seat_aliases``: the default game's seats that get a command-line option
    #: of their own (Red Notice: ``--angela``, an alias of ``--seat angela=``;
    #: rnsim/cli/seats.py); default none.
    #: ``parse_setup(text, option)`` and ``setup_option_help``: the default game's
    #: ``rnsim play --<setup_key>`` option (Red Notice: ``--identities``).
    #: ``probes``: "module:NAME" of the game's probes, each with ``name``,
    #: ``seat``, ``ref`` and ``habit`` (`rnsim exploit`); a game of two seats of
    #: different roles, the watched one first, is what `exploit` and `ladder` play.

    # -- the decision machine ----------------------------------------------------------
    def new_state(self, rules: Any, chance: random.Random, setup: Any = None, seed: int = 0,
                  log: bool = False) -> State:
        """A new game, every chance draw taken from ``chance``."""
        ...

    def view(self, state: State, seat: int) -> Any:
        """What ``seat`` may know: the only input a strategy gets."""
        ...

    def outcome(self, state: State, decisions: int = 0) -> Outcome:
        """The result of a finished game (or of a game stopped where it is)."""
        ...

    # -- results -----------------------------------------------------------------------
    def record_schema(self, rules: Any) -> Mapping[str, Any]:
        """The game's own result columns and their Polars dtypes."""
        ...

    # -- narrative and positions ----------------------------------------------------
    def narrate(self, events: Iterable[Mapping[str, Any]]) -> Iterator[str]:
        """A readable narrative of an event log."""
        ...

    def save_position(self, state: State) -> dict[str, Any]:
        """A readable, JSON-serialisable position."""
        ...

    def load_position(self, data: Mapping[str, Any], rules: Any = None, log: bool = False) -> State:
        """A state from a saved position (raises a clear error on bad data)."""
        ...

    # -- conformance -------------------------------------------------------------------
    def conceal(self, state: State, seat: int, rng: random.Random) -> State:
        """A copy of ``state`` in which what ``seat`` cannot see is re-drawn
        (others' hidden hands, deck orders, ...): ``seat``'s view of it must equal
        its view of ``state`` (the conformance suite's no-leak test)."""
        ...
