"""FBI's physical components, loaded from a folder of TOML files and validated.

The classic set in ``rnsim/games/fbi/data/classic`` is a reconstruction (F14):
the rulebook gives every count but not the colour and value of the 59
character cards. A designer swaps in another set with ``[rules] components =
"path/to/folder"`` holding the same three files; every error names the file,
the key and what is allowed.

Cards become small integers: character card ``i`` has ``card_colour[i]``
(a colour index, or ``PURPLE``) and ``card_value[i]``. Purple cards come
first (ids ``0 .. len(purple) - 1``), then the coloured cards in file order.
"""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from rnsim.errors import ComponentError, did_you_mean, shown_path
from rnsim.schema import Problem, SchemaError, Table, convert

FILES = ("agents.toml", "characters.toml", "bonus.toml")
PURPLE = -1
MIN_PLAYERS, MAX_PLAYERS = 3, 5  # F16


@dataclass(frozen=True, eq=False)
class Components:
    """One validated FBI component set. Immutable; shared by every game."""

    name: str
    colours: tuple[str, ...]  # the bonus colours, in a fixed order
    doubler: str  # the 2x field agent's name
    agent_copies: int
    slammer_values: tuple[int, ...]
    handcuffs: int
    purple: tuple[int, ...]  # card ids of the purple cards
    coloured: tuple[int, ...]  # card ids of the deck (coloured character cards)
    card_colour: tuple[int, ...]  # per card id: colour index or PURPLE
    card_value: tuple[int, ...]
    bonus: tuple[int, ...]  # per colour: the bonus card's value
    raw: dict[str, Any] = field(repr=False)
    max_players: int = field(init=False)

    def __post_init__(self) -> None:
        pairs = 0
        values = [self.card_value[c] for c in self.purple]
        while pairs + 1 in values and -(pairs + 1) in values:
            pairs += 1
        object.__setattr__(
            self, "max_players", min(MAX_PLAYERS, self.agent_copies, len(self.slammer_values), pairs)
        )

    @property
    def n_cards(self) -> int:
        """Every card of the set (field agents, slammer, handcuffs, characters, bonus)."""
        return (
            self.agent_copies * (len(self.colours) + 1)
            + len(self.slammer_values)
            + self.handcuffs
            + len(self.card_value)
            + len(self.bonus)
        )

    def colour_name(self, c: int) -> str:
        return "purple" if c == PURPLE else self.colours[c]

    def card_name(self, card: int) -> str:
        """``red 4``, ``blue -2``, ``purple 5``."""
        return f"{self.colour_name(self.card_colour[card])} {self.card_value[card]}"

    def purple_card(self, value: int) -> int:
        for c in self.purple:
            if self.card_value[c] == value:
                return c
        raise ComponentError(f"component set {self.name!r} has no purple card {value}")

    def bid_options(self, slammer: Iterable[int], mode: str) -> list[Any]:
        """The bids a slammer allows under the ``bid_cards`` knob (F3, FR3):
        "none", then one card per distinct colour and value (FR7), lowest id
        first."""
        opts: list[Any] = ["none"]
        if mode == "none":
            return opts
        seen = set()
        for card in sorted(slammer):
            if mode == "purple" and card not in self.purple:
                continue
            key = (self.card_colour[card], self.card_value[card])
            if key not in seen:
                seen.add(key)
                opts.append(card)
        return opts

    def digest(self) -> str:
        blob = json.dumps(self.raw, sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(blob).hexdigest()


DATA_DIR = Path(__file__).resolve().parent / "data"
# by resolved folder, and by (source, a Path?, working directory): one dict,
# so that emptying it (benchmarks/loading.py) empties both
_CACHE: dict[str | tuple[str, bool, str], Components] = {}


def component_folder(source: str | Path) -> Path:
    """A bare name is a built-in set (never shadowed by a folder of that name
    in the current directory); anything that looks like a path is a path."""
    text = str(source)
    if isinstance(source, Path) or "/" in text or "\\" in text or text.startswith("."):
        return Path(text)
    builtin = DATA_DIR / text
    return builtin if builtin.is_dir() else Path(text)


def load_components(source: str | Path = "classic") -> Components:
    # every new game asks (FbiState.new): the set loaded before for the same
    # source from the same directory, without resolving its path again
    asked = (str(source), isinstance(source, Path), os.getcwd())
    got = _CACHE.get(asked)
    if got is not None:
        return got
    folder = component_folder(source)
    key = str(folder.resolve())
    if key in _CACHE:
        _CACHE[asked] = _CACHE[key]
        return _CACHE[key]
    if not folder.is_dir():
        known = sorted(d.name for d in DATA_DIR.iterdir() if d.is_dir())
        raise ComponentError(
            f"FBI component set {str(source)!r} not found: not a folder, and not one of the "
            f"built-in sets ({', '.join(known)})"
        )
    raw: dict[str, Any] = {}
    for fname in FILES:
        f = folder / fname
        if not f.is_file():
            raise ComponentError(f"{shown_path(f)}: missing (an FBI component set needs {', '.join(FILES)})")
        try:
            with f.open("rb") as fh:
                raw[fname] = tomllib.load(fh)
        except tomllib.TOMLDecodeError as e:
            raise ComponentError(f"{shown_path(f)}: not valid TOML: {e}") from None
    comps = build_components(raw, name=folder.name, folder=folder)
    _CACHE[key] = _CACHE[asked] = comps
    return comps


# ------------------------------------------------------------------ schemas
# The three files' tables (rnsim.schema); characters.toml and bonus.toml are
# keyed by the colours agents.toml names. What a schema cannot say (distinct
# names, the slammer's 1..n, the purple pairs, non-zero values) is code below.

_INTS = Annotated[list[int], Meta(min_length=1, description="a non-empty list of whole numbers")]


class _FieldAgents(Table):
    colours: Annotated[list[Annotated[str, Meta(min_length=1, description="a colour name")]],
                       Meta(min_length=1, description="a non-empty list of colour names")]
    copies: Annotated[int, Meta(ge=MIN_PLAYERS, le=MAX_PLAYERS,
                                description=f"{MIN_PLAYERS}..{MAX_PLAYERS} (one per player)")]
    doubler: Annotated[str, Meta(min_length=1, description="a name distinct from the colours")] = "2x"


class _Slammer(Table):
    values: _INTS


class _Handcuffs(Table):
    count: Literal[1]


class AgentsFile(Table):
    field_agents: _FieldAgents
    slammer: _Slammer
    handcuffs: _Handcuffs


class _Purple(Table):
    values: _INTS


@cache
def _characters_schema(colours: tuple[str, ...]) -> Any:
    table = msgspec.defstruct("Characters", [(c, _INTS | None, None) for c in colours], bases=(Table,))
    return msgspec.defstruct("CharactersFile", [("purple", _Purple), ("characters", table)], bases=(Table,))


@cache
def _bonus_schema(colours: tuple[str, ...]) -> Any:
    value = Annotated[int, Meta(ge=0, description="a whole number >= 0 (every colour has a bonus card)")]
    table = msgspec.defstruct("Bonus", [(c, value) for c in colours], bases=(Table,))
    return msgspec.defstruct("BonusFile", [("bonus", table)], bases=(Table,))


class _Ctx:
    def __init__(self, folder: Path | None, fname: str) -> None:
        self.path = shown_path(folder / fname) if folder else fname

    def err(self, key: str, msg: str) -> ComponentError:
        return ComponentError(f"{self.path}: {key}: {msg}")

    def read(self, raw: Any, schema: Any) -> Any:
        """The file's tables as its schema reads them; a one-line error at the first problem."""
        try:
            return convert(raw, schema)
        except SchemaError as e:
            raise self.refused(e.problem) from None

    def refused(self, p: Problem) -> ComponentError:
        if p.kind == "unknown":
            return self.err(p.at(), f"unknown key{did_you_mean(p.key, p.allowed)}; allowed: {', '.join(sorted(p.allowed))}")
        if p.kind == "missing":
            return self.err(f"[{p.key}]", "missing table") if not p.path and p.expected == "a table" else \
                self.err(p.at(), f"missing; must be {p.expected}")
        if not p.path or (len(p.path) == 1 and not isinstance(p.value, dict)):
            return self.err(f"[{p.where()}]", f"must be a table, got {p.value!r}")
        if p.kind == "range" and not p.described:
            return self.err(p.where(), f"must be {p.bounds}, got {p.value}")
        return self.err(p.where(), f"must be {p.expected}, got {p.value!r}")

    def nonzero(self, values: list[int], key: str) -> list[int]:
        for v in values:
            if v == 0:
                raise self.err(key, f"must hold non-zero whole numbers only, got {v!r}")
        return values


def build_components(raw: dict[str, Any], name: str = "custom", folder: Path | None = None) -> Components:
    """Validate raw TOML tables (file name -> table) into Components."""
    ax = _Ctx(folder, "agents.toml")
    agents: AgentsFile = ax.read(raw.get("agents.toml", {}), AgentsFile)
    fa = agents.field_agents
    colours = fa.colours
    if len(set(colours)) != len(colours):
        raise ax.err("field_agents.colours", "colour names must be distinct")
    if "purple" in colours:
        raise ax.err("field_agents.colours", '"purple" is the colour of the setup cards, not a field agent colour')
    if fa.doubler in colours:
        raise ax.err("field_agents.doubler", f"must be a name distinct from the colours, got {fa.doubler!r}")
    slammer = agents.slammer.values
    if slammer != list(range(1, len(slammer) + 1)) or len(slammer) < MIN_PLAYERS:
        raise ax.err("slammer.values", f"must be 1, 2, ..., n with n >= {MIN_PLAYERS}, got {slammer}")

    cx = _Ctx(folder, "characters.toml")
    chars = cx.read(raw.get("characters.toml", {}), _characters_schema(tuple(colours)))
    purple = cx.nonzero(chars.purple.values, "purple.values")
    for k in range(1, MIN_PLAYERS + 1):
        if k not in purple or -k not in purple:
            raise cx.err("purple.values", f"must hold {k} and {-k} (one pair per player, setup)")
    if len(set(purple)) != len(purple):
        raise cx.err("purple.values", "values must be distinct (a player is dealt k and -k)")
    card_colour = [PURPLE] * len(purple)
    card_value = list(purple)
    for ci, c in enumerate(colours):
        vals = getattr(chars.characters, c)
        if vals is None:
            raise cx.err(f"characters.{c}", "missing (every field agent colour needs character cards)")
        card_colour.extend([ci] * len(vals))
        card_value.extend(cx.nonzero(vals, f"characters.{c}"))

    bx = _Ctx(folder, "bonus.toml")
    bt = bx.read(raw.get("bonus.toml", {}), _bonus_schema(tuple(colours))).bonus
    bonus = [getattr(bt, c) for c in colours]

    n_purple = len(purple)
    return Components(
        name=name,
        colours=tuple(colours),
        doubler=fa.doubler,
        agent_copies=fa.copies,
        slammer_values=tuple(slammer),
        handcuffs=1,
        purple=tuple(range(n_purple)),
        coloured=tuple(range(n_purple, len(card_value))),
        card_colour=tuple(card_colour),
        card_value=tuple(card_value),
        bonus=tuple(bonus),
        raw=raw,
    )
