"""What the commands ask a game about its seats, so the command line names
no game: the options the default game declares per seat (Red Notice's
``--angela`` and ``--jessah``, aliases of ``--seat angela=...``), and the
seats, roles and watched win rate of a two-seat game (:class:`Duel`), or
the seats of a game whose seats are alike and rotate at one setup
(:class:`Table`, FBI), that `rnsim ladder` and `rnsim exploit` play, and a
level's strategy and params as they name one (:func:`parse_level`).

The per-seat options are built from the default game's ``seat_aliases`` when
a command first parses its arguments or shows its help (:class:`SeatOptions`),
so starting the command line imports no game.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import click

from rnsim.errors import ConfigError, RnsimError

#: makes a command's options for one seat: (game, seat, index among the aliased seats)
PerSeat = Callable[[Any, str, int], list[click.Option]]


def seat_title(seat: str) -> str:
    """How prose names a seat: ``angela`` -> ``Angela``."""
    return seat[:1].upper() + seat[1:]


def game_label(game: Any) -> str:
    """A game's short name in help texts: its title up to a colon."""
    return str(game.title).partition(":")[0]


def alias_seats(game: Any) -> tuple[str, ...]:
    """The seats with options of their own (``Game.seat_aliases``; none by default)."""
    return tuple(getattr(game, "seat_aliases", ()))


def default_game() -> Any:
    from rnsim.games import DEFAULT_GAME, get_game

    return get_game(DEFAULT_GAME)


def given_seats(game: Any, values: dict[str, Any], suffix: str = "") -> dict[str, Any]:
    """The per-seat options given (not None), keyed by seat: ``values`` holds
    the command's keyword arguments named ``<seat><suffix>``."""
    return {seat: values[seat + suffix] for seat in alias_seats(game) if values.get(seat + suffix) is not None}


class SeatOptions(click.Command):
    """A command with options per seat of the default game (``per_seat``),
    placed after its option named ``after``; the callback receives them as
    keyword arguments named after the options (``angela``, ``angela_params``)."""

    def __init__(self, *args: Any, per_seat: PerSeat, after: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._per_seat = per_seat
        self._after = after
        self._built = False

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        if not self._built:
            self._built = True
            game = default_game()
            per_seat = [self._per_seat(game, seat, i) for i, seat in enumerate(alias_seats(game))]
            # kind by kind: every seat's strategy, then every seat's params
            made = [opts[k] for k in range(max(map(len, per_seat), default=0)) for opts in per_seat if k < len(opts)]
            at = [p.name for p in self.params].index(self._after) + 1
            self.params[at:at] = made
            for p in self.params:
                if p.name == "game_name" and p.default is DEFAULT:
                    p.default = game.name  # shown as the option's default
        return super().get_params(ctx)


#: the default of a ``--game`` option that shows the default game's name
DEFAULT = "(the default game)"


@dataclass(frozen=True)
class Duel:
    """A game of two seats, each a role of its own (Red Notice: Angela the
    forger, Jessah the agent), as the ladder and the probes play it: the first
    seat is the one whose win rate they report (the game's ``balance_seat``)."""

    game: Any
    seats: tuple[str, str]
    roles: tuple[str, str]

    @property
    def titles(self) -> tuple[str, str]:
        return seat_title(self.seats[0]), seat_title(self.seats[1])

    @property
    def label(self) -> str:
        return game_label(self.game)


def as_duel(game: Any) -> Duel | None:
    """``game`` as a duel, or None: two seats of different roles (not seats
    that rotate), the watched seat first."""
    if getattr(game, "rotate_seats", False):
        return None
    seats = tuple(game.seats(None))
    roles = getattr(game, "seat_roles", {})
    if len(seats) != 2 or getattr(game, "balance_seat", 0) != 0 or not all(s in roles for s in seats):
        return None
    return Duel(game, (seats[0], seats[1]), (str(roles[seats[0]]), str(roles[seats[1]])))


def duel_or_default(duel: Duel | None) -> Duel:
    """The duel given, or the default game's."""
    if duel is not None:
        return duel
    got = as_duel(default_game())
    assert got is not None, "the default game is not a game of two seats of different roles"
    return got


def duel_for(game_name: str, command: str, why: Callable[[Duel], str]) -> Duel:
    """The game ``game_name`` as a duel; otherwise a one-line error: ``command``
    plays duels only (``why``, said of the first duel installed)."""
    from rnsim.games import available_games, get_game

    if game_name == DEFAULT:  # the option's default, before the command shows it
        game_name = default_game().name
    try:
        game = get_game(game_name)
    except RnsimError as e:
        raise ConfigError(f"--game: {e}") from None
    duel = as_duel(game)
    if duel is not None:
        return duel
    duels = []
    for name in available_games():
        try:
            d = as_duel(get_game(name))
        except RnsimError:  # a registered game that cannot be loaded here
            continue
        if d is not None:
            duels.append(d)
    labels = " or ".join(d.label for d in duels) or "two-seat games"
    reason = f" ({why(duels[0])})" if duels else ""
    names = ", ".join(f"--game {d.game.name}" for d in duels) or "none installed"
    raise ConfigError(f"--game {game_name}: `rnsim {command}` plays {labels} only{reason}; "
                      f"supported: {names}; to compare strategies of another game, list several per seat "
                      "in its config and `rnsim run` it (a round robin)")


@dataclass(frozen=True)
class Table:
    """A game whose seats are alike in the rules and rotate (FBI): played at
    one setup (``players``, a player count), its seats those of that setup.
    `rnsim ladder` and `rnsim exploit` play one seat against the others,
    rotated over every seat so seat position cancels, and watch the start
    player (the game's ``balance_seat`` column, FBI's ``first_handcuffs``)."""

    game: Any
    setup: Any
    setup_label: str
    seats: tuple[str, ...]

    @property
    def label(self) -> str:
        return game_label(self.game)

    @property
    def watched(self) -> str:
        """The result column naming the start player of each game."""
        return str(self.game.balance_seat)

    @property
    def watched_name(self) -> str:
        return str(getattr(self.game, "seat_roles", {}).get(self.watched, self.watched))


def as_table(game: Any, setup: str | None, command: str) -> Table | None:
    """``game`` as a table of equal seats at ``setup`` (the game's default
    setup when None: its ``lever_setups``, else its first), or None when
    its seats do not rotate. A bad setup is a one-line error naming
    ``--setup`` and what the game allows."""
    if not getattr(game, "rotate_seats", False):
        return None
    rules = game.rules()
    given: Any = None
    if setup is not None:
        try:
            given = int(setup)
        except ValueError:
            given = setup
    try:
        found = game.setups(rules, given if setup is not None else getattr(game, "lever_setups", None),
                            f"{command}: --setup")
    except RnsimError as e:
        raise ConfigError(str(e)) from None
    if setup is None and getattr(game, "lever_setups", None) is None:
        found = found[1:2] or found[:1]  # the middle of the game's setups (FBI: 4 players)
    if len(found) != 1:
        raise ConfigError(f"{command}: --setup {setup!r}: name one setup of {game_label(game)}, got {len(found)}")
    label, value = found[0]
    return Table(game, value, label, tuple(game.seats(rules, value)))


def game_for(game_name: str, command: str, why: Callable[[Duel], str], setup: str | None) -> Duel | Table:
    """The game ``game_name`` as a table of equal seats (at ``setup``) when
    its seats rotate, else as a duel (:func:`duel_for`, which takes no setup)."""
    from rnsim.games import get_game

    name = default_game().name if game_name == DEFAULT else game_name
    try:
        game = get_game(name)
    except RnsimError as e:
        raise ConfigError(f"--game: {e}") from None
    table = as_table(game, setup, command)
    if table is not None:
        return table
    if setup is not None:
        raise ConfigError(f"{command}: --setup {setup!r}: only for a game whose seats are alike and rotate "
                          f"(e.g. --game fbi --setup 4); {game_label(game)} plays its setups as its ladder deals them")
    return duel_for(game_name, command, why)


def parse_level(level: str) -> tuple[str, dict[str, Any]]:
    """``ref@k=v+k=v`` -> (ref, params); values are TOML literals (``2``, ``0.8``,
    ``true``, ``"a,b"``), anything else a plain string."""
    ref, _, tail = level.partition("@")
    ref = ref.strip()
    if not ref:
        raise ConfigError(f"ladder: level {level!r} names no strategy (write e.g. 'search@iterations=2')")
    params: dict[str, Any] = {}
    for item in (x for x in tail.split("+") if x.strip()) if tail else ():
        key, eq, raw = item.partition("=")
        if not eq or not key.strip():
            raise ConfigError(f"ladder: level {level!r}: param {item!r} is not key=value "
                              "(write e.g. 'search@iterations=2+margin=1.5')")
        try:
            value = tomllib.loads(f"v = {raw.strip()}")["v"]
        except tomllib.TOMLDecodeError:
            value = raw.strip()
        params[key.strip()] = value
    return ref, params
