"""Tournament configuration: one TOML file -> a validated, resolved :class:`RunConfig`.

The whole file is checked before anything runs. Every error names the file, the
key and what is allowed; an unknown key suggests the closest valid one. The
format (every key has a default, so a file holding only ``[rules]`` is a valid
run)::

    [run]
    game = "NAME"           # the game (a registered name; default: rnsim.games.DEFAULT_GAME)
    games = 1000            # games per cell (cell = variant x setup x a strategy per seat)
    seed = 0                # master seed
    workers = "auto"        # "auto" = every core, or a number
    backend = "process"     # "process", "serial", or a registered cluster backend
    out = "runs/NAME"       # run directory (relative to the current directory)
    chunk_size = 250        # games per work unit / Parquet shard
    <setup key> = ...       # the game's setups to play (Game.setup_key; see configs/ for each game)

    [rules]
    extends = "other.toml"  # start from that file's [rules]; state only what differs
    <knob> = <value>        # the game's rule knobs (Game.knobs)

    [[variants]]            # optional; without it the run has one variant, "base"
    name = "short-hands"
    <knob> = <value>        # overrides on top of [rules]

    [strategies]            # keyed by the game's seat names; several per seat = a round robin
    <seat> = ["random", { ref = "module:Class", params = { depth = 2 }, label = "y2" }]

A seat left out of ``[strategies]`` plays the game's default strategy (see
:func:`default_strategy`): a file holding only ``[rules]`` is a run of the
default against itself. That is said, not silent: the run's first line names
the seats that play the default (:meth:`RunConfig.defaults_note`), and the
manifest marks their strategy ``"default": true``.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import json
import os
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from rnsim.errors import ConfigError, RnsimError, read_utf8
from rnsim.games import DEFAULT_GAME, available_games, get_game
from rnsim.schema import Problem, SchemaError, Table, convert, fields

MAX_GAMES = 1_000_000_000
MAX_SEED = 2**63 - 1
MAX_WORKERS = 1024
MAX_CHUNK = 1_000_000
DEFAULT_GAMES = 1000
DEFAULT_CHUNK = 250
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]*$")


# ---------------------------------------------------------------- the schema
# The file's tables (rnsim.schema): their keys, types and ranges, whence the
# structural checks and their messages. The game's parts (its setup key, rule
# knobs and seats) are added per game. A new table is one more field of File.


class File(Table):
    """The top level of a config file."""

    run: dict[str, Any] = {}
    rules: Annotated[dict[str, Any], Meta(description="a table of rule knobs")] = {}
    variants: Annotated[list[dict[str, Any]], Meta(min_length=1, description="one or more [[variants]] tables")] | None = None
    strategies: Any = None
    band: Any = None  # checked by rnsim.band.config.parse_band


class Run(Table):
    """``[run]``; the game adds its setup key (Game.setup_key)."""

    game: Any = DEFAULT_GAME  # read first, to know the game (_game_of)
    games: Annotated[int, Meta(ge=1, le=MAX_GAMES)] = DEFAULT_GAMES
    seed: Annotated[int, Meta(ge=0, le=MAX_SEED)] = 0
    workers: Literal["auto"] | Annotated[int, Meta(ge=1, le=MAX_WORKERS)] = "auto"
    backend: Any = "process"  # a registered backend (_backend)
    address: Annotated[str, Meta(min_length=1, description='a Ray cluster address like "10.0.0.5:6379" or "auto"')] | None = None
    out: Annotated[str, Meta(min_length=1, description="a directory path")] | None = None
    chunk_size: Annotated[int, Meta(ge=1, le=MAX_CHUNK)] = DEFAULT_CHUNK


class Strategy(Table):
    """One strategy of a seat, as a table."""

    ref: Annotated[str, Meta(min_length=1, description="a strategy name like 'random' or 'module:Class'")]
    params: Annotated[dict[str, Any], Meta(description="a table of parameters")] = {}
    label: Annotated[str, Meta(min_length=1, description="a non-empty string")] | None = None


_ONE = "a strategy name or a table { ref = ..., params = {...}, label = ... }"
StrategyItem = Annotated[str | Strategy, Meta(description=_ONE)]
SeatStrategies = Annotated[
    str | Strategy | Annotated[list[StrategyItem], Meta(min_length=1)],
    Meta(description=f"{_ONE}, or a non-empty list of them"),
]
_EXTENDS = Annotated[str, Meta(min_length=1, description="a path to another config file")]

TOP_KEYS = fields(File)
RUN_KEYS = fields(Run)
STRATEGY_KEYS = fields(Strategy)
VARIANT_META_KEYS = ("name", "extends")


@cache
def _run_schema(setup_key: str) -> type[Run]:
    schema: Any = msgspec.defstruct("Run", [(setup_key, Any, None)], bases=(Run,))
    return schema


@cache
def _rules_schema(knobs: tuple[str, ...], variant: bool) -> type[Table]:
    """``[rules]`` (its knobs, then extends) or a ``[[variants]]`` table
    (name, extends, then its knobs); a knob's value is the game's to check."""
    meta: list[Any] = [("name", Any, None), ("extends", _EXTENDS, None)] if variant else []
    schema: Any = msgspec.defstruct(
        "Variant" if variant else "Rules",
        [*meta, *((k, Any, None) for k in knobs), *([] if variant else [("extends", _EXTENDS, None)])], bases=(Table,))
    return schema


@cache
def _strategies_schema(seats: tuple[str, ...]) -> type[Table]:
    schema: Any = msgspec.defstruct("Strategies", [(seat, SeatStrategies | None, None) for seat in seats],
                                            bases=(Table,))
    return schema


def _checked(src: str, raw: Any, schema: type[Any], where: str = "", sources: Mapping[str, str] | None = None) -> Any:
    """``raw`` converted to ``schema``; the first problem as a one-line error
    naming the file (or the flag that gave the value: ``sources``, by key)."""
    try:
        return convert(raw, schema)
    except SchemaError as e:
        raise _refused(src, e.problem, where, sources or {}) from None


def _refused(src: str, p: Problem, where: str, sources: Mapping[str, str]) -> ConfigError:
    if p.kind == "unknown":
        return _unknown(src, p.where(where), p.key, p.allowed)
    key = p.where(where)
    if p.kind == "missing":
        return ConfigError(f"{src}: {key}: missing {p.key!r} ({p.expected})")
    s = sources.get(key, src)
    if p.kind == "range" and isinstance(p.value, int):
        return ConfigError(f"{s}: {key}: must be {p.bounds}, got {p.value}")
    return ConfigError(f"{s}: {key}: must be {p.expected}, got {p.value!r}")


def default_strategy(game: Any = DEFAULT_GAME) -> str:
    """The default strategy of every seat a config leaves out: the game's
    ``default_strategy`` when it names one (the strongest a tournament can
    afford), else the last built-in its registry lists, strongest last."""
    from rnsim.games import get_game
    from rnsim.strategy import builtin_strategies

    g = get_game(game) if isinstance(game, str) else game
    names = list(builtin_strategies(g))
    chosen = getattr(g, "default_strategy", None)
    if isinstance(chosen, str) and chosen in names:
        return chosen
    return names[-1] if names else "random"


@dataclass(frozen=True)
class StrategySpec:
    ref: str
    params: dict[str, Any]
    label: str
    # the config left this seat out and it plays the game's default; not part of
    # the strategy's identity (a label names one strategy whoever chose it)
    default: bool = field(default=False, compare=False)

    def to_dict(self, marked: bool = True) -> dict[str, Any]:
        """The spec as the manifest lists it; ``marked=False`` leaves out the
        ``default`` mark (the resolved config, whose hash is the run's identity)."""
        out: dict[str, Any] = {"ref": self.ref, "params": dict(self.params), "label": self.label}
        if marked and self.default:
            out["default"] = True
        return out


@dataclass(frozen=True)
class Variant:
    name: str
    rules: Any  # the game's rule set
    digest: str
    # the setups to play as (label, setup); setup None = drawn from the chance stream
    setups: tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Cell:
    """One series of games: a variant, a setup and a strategy per seat."""

    id: int
    variant: int  # index into RunConfig.variants
    setup: Any  # the game's setup (None = drawn from the chance stream)
    setup_label: str
    strategies: tuple[int, ...]  # per seat: index into RunConfig.strategies[seat]


@dataclass
class RunConfig:
    path: Path | None
    games: int
    seed: int
    workers: int
    backend: str
    out: Path
    chunk_size: int
    setups: Any  # the [run] value of the game's setup key (None = the game's default)
    variants: list[Variant]
    strategies: dict[str, list[StrategySpec]]  # seat name -> its strategies, in seat order
    game: str = DEFAULT_GAME
    sources: dict[str, Any] = field(default_factory=dict)
    address: str | None = None  # cluster to connect to (backend "ray"); None = RAY_ADDRESS or a local cluster
    # seat -> how many of its strategies enter the round robin, when its list
    # also holds the other seats' (a rotating game); absent = all of them
    choices: dict[str, int] = field(default_factory=dict)
    band: Any = None  # rnsim.band.config.BandConfig: the band cells the run also plays (None: none)

    @property
    def game_obj(self) -> Any:
        return get_game(self.game)

    @property
    def seats(self) -> tuple[str, ...]:
        return tuple(self.strategies)

    def cells(self) -> list[Cell]:
        """Every cell, in a fixed order: variant, then setup, then strategies
        (seat 0's slowest: every combination, a round robin). A setup with
        fewer seats than the game can have (FBI's 3 players of 5) uses the
        first seats' strategies. When the game rotates seats, every rotation of
        each combination is a cell too, after it (duplicates dropped)."""
        out: list[Cell] = []
        g = self.game_obj
        rotate = bool(getattr(g, "rotate_seats", False))
        seats = self.seats
        lists = [range(self.choices.get(s, len(v))) for s, v in self.strategies.items()]
        # a rotated lineup's strategies, as indices into each seat's list
        # (a rotating game's lists hold every seat's strategies, see load)
        where = [{spec.label: i for i, spec in enumerate(self.strategies[s])} for s in seats]
        for v, var in enumerate(self.variants):
            for label, setup in var.setups:
                n = len(g.seats(var.rules, setup)) if setup is not None else len(lists)
                seen: set[tuple[int, ...]] = set()
                for combo in itertools.product(*lists[:n]):
                    specs = [self.strategies[seats[k]][i].label for k, i in enumerate(combo)]
                    for r in range(n if rotate else 1):
                        turned = specs[n - r:] + specs[:n - r]
                        lineup = tuple(where[k][lab] for k, lab in enumerate(turned))
                        if lineup not in seen:
                            seen.add(lineup)
                            out.append(Cell(len(out), v, setup, label, lineup))
        return out

    def cell_labels(self, cell: Cell) -> dict[str, str | None]:
        """The result-table labels of a cell: variant, setup column and ``<seat>_strategy``."""
        g = self.game_obj
        out: dict[str, str | None] = {"variant": self.variants[cell.variant].name, g.setup_column: cell.setup_label}
        for k, seat in enumerate(self.seats):  # a seat not in this setup's games: null, as in the table
            out[f"{seat}_strategy"] = self.strategies[seat][cell.strategies[k]].label if k < len(cell.strategies) else None
        return out

    def resolved(self) -> dict[str, Any]:
        """What determines the results (the run's identity). Workers, backend,
        chunk size and output directory are excluded: they never change a row."""
        g = self.game_obj
        out: dict[str, Any] = {"game": self.game} if self.game != DEFAULT_GAME else {}
        out.update({
            "games": self.games,
            "seed": self.seed,
            g.setup_key: self.setups,
            "variants": [
                {"name": v.name, "rules": _rules_dict(v.rules), "rules_hash": v.digest,
                 "setups": [[label, _jsonable(setup)] for label, setup in v.setups]}
                for v in self.variants
            ],
            "strategies": {seat: [s.to_dict(marked=False) for s in specs] for seat, specs in self.strategies.items()},
        })
        if self.choices:
            out["choices"] = dict(self.choices)
        if self.band is not None:
            out["band"] = self.band.resolved()
        return out

    def config_hash(self) -> str:
        blob = json.dumps(self.resolved(), sort_keys=True, separators=(",", ":"), default=str).encode()
        return hashlib.sha256(blob).hexdigest()

    def execution(self) -> dict[str, Any]:
        out = {"workers": self.workers, "backend": self.backend, "chunk_size": self.chunk_size, "out": str(self.out)}
        if self.address is not None:
            out["address"] = self.address
        return out

    @property
    def total_games(self) -> int:
        """The games of the run's cells (its band's are rnsim.band.plan.band_games)."""
        return self.games * len(self.cells())

    def defaults(self) -> dict[str, str]:
        """The seats the config left out that play in some cell -> the label
        of the game's default strategy they play (seat order)."""
        playing = max((len(c.strategies) for c in self.cells()), default=0)
        return {seat: specs[0].label for k, (seat, specs) in enumerate(self.strategies.items())
                if k < playing and specs and specs[0].default}

    def defaults_note(self) -> str:
        """"; SEAT, SEAT: not in [strategies], play the default 'LABEL'" (the
        game's seat names and default strategy), for the first line a command prints ("" when every seat that plays is
        in the config)."""
        by_label: dict[str, list[str]] = {}
        for seat, label in self.defaults().items():
            by_label.setdefault(label, []).append(seat)
        return "".join(f"; {', '.join(seats)}: not in [strategies], play the default {label!r}"
                       for label, seats in by_label.items())


# --------------------------------------------------------------------- helpers


def _rules_dict(rules: Any) -> Any:
    to_dict = getattr(rules, "to_dict", None)
    return to_dict() if to_dict is not None else rules


def _jsonable(x: Any) -> Any:
    if isinstance(x, tuple | list):
        return [_jsonable(v) for v in x]
    return x


def _unknown(src: str, where: str, key: str, allowed: list[str] | tuple[str, ...]) -> ConfigError:
    close = difflib.get_close_matches(key, list(allowed), n=1, cutoff=0.5)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    place = f"{where}.{key}" if where else key
    return ConfigError(f"{src}: unknown key {place!r}{hint}; valid keys{' in ' + where if where else ''}: {', '.join(allowed)}")


def _read_toml(path: Path, src: str) -> dict[str, Any]:
    if not path.exists():
        raise ConfigError(f"{src}: file not found: {path}")
    try:
        return tomllib.loads(read_utf8(path, ConfigError))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None


def _resolve_extends(game: Any, src: str, key: str, ref: Any, base_dir: Path, chain: tuple[Path, ...]) -> dict[str, Any]:
    """The knob table of the [rules] of the file ``ref`` (its own extends resolved)."""
    path = (base_dir / ref).resolve()
    if path in chain:
        cycle = " -> ".join(str(p) for p in (*chain, path))
        raise ConfigError(f"{src}: {key}: extends cycle: {cycle}")
    if not path.is_file():
        raise ConfigError(f"{src}: {key}: file not found: {ref!r} (looked for {path})")
    raw = _read_toml(path, src)
    _checked(str(path), raw, File)
    return _rules_table(game, str(path), raw.get("rules", {}), "rules", path.parent, (*chain, path))


def _rule_value(game: Any, key: str, value: Any, base_dir: Path) -> Any:
    """A rule value as the game reads it from a file in ``base_dir`` (e.g. a
    component folder relative to that file)."""
    hook = getattr(game, "rule_value", None)
    return hook(key, value, base_dir) if hook is not None else value


def _rule_keys(game: Any) -> list[str]:
    keys = getattr(game, "rule_keys", None)
    return list(keys()) if keys is not None else [k.name for k in game.knobs()]


def _rules_table(
    game: Any, src: str, table: Any, where: str, base_dir: Path, chain: tuple[Path, ...]
) -> dict[str, Any]:
    """Flatten a rules table: the extended file's knobs, then this table's."""
    _checked(src, table, _rules_schema(tuple(_rule_keys(game)), False), where)
    out: dict[str, Any] = {}
    if "extends" in table:
        out.update(_resolve_extends(game, src, f"{where}.extends", table["extends"], base_dir, chain))
    for k, v in table.items():
        if k != "extends":
            out[k] = _rule_value(game, k, v, base_dir)
    return out


def _strategy_label(ref: str, params: Mapping[str, Any]) -> str:
    if not params:
        return ref
    inner = ",".join(f"{k}={json.dumps(params[k], sort_keys=True)}" for k in sorted(params))
    return f"{ref}({inner})"


def _strategies(game: Any, src: str, seat: str, value: str | Strategy | list[str | Strategy]) -> list[StrategySpec]:
    """A seat's strategies (as the schema read them), each built once to check it."""
    from rnsim.strategy import load_strategy

    key = f"strategies.{seat}"
    items = value if isinstance(value, list) else [value]
    specs: list[StrategySpec] = []
    for n, item in enumerate(items):
        k = f"{key}[{n}]" if isinstance(value, list) else key
        ref, params, label = (item, {}, None) if isinstance(item, str) else (item.ref, item.params, item.label)
        try:
            load_strategy(ref, params, game)  # unknown strategies and params fail here, before any game
        except RnsimError as e:
            raise ConfigError(f"{src}: {k}: {e}") from None
        except Exception as e:  # a plugin's constructor may raise anything
            raise ConfigError(f"{src}: {k}: strategy {ref!r} cannot be built: {type(e).__name__}: {e}") from None
        spec = StrategySpec(ref, dict(params), label or _strategy_label(ref, params))
        if any(s.label == spec.label for s in specs):
            raise ConfigError(f"{src}: {k}: label {spec.label!r} is used twice for {seat}; give each a distinct 'label'")
        specs.append(spec)
    return specs


def _pooled(src: str, strategies: dict[str, list[StrategySpec]]
            ) -> tuple[dict[str, list[StrategySpec]], dict[str, int]]:
    """A rotating game moves strategies between seats, so each seat's list is
    extended with the other seats' strategies (after its own, which alone
    enter the round robin). A label names one strategy across the seats."""
    by_label: dict[str, StrategySpec] = {}
    for seat, specs in strategies.items():
        for spec in specs:
            other = by_label.setdefault(spec.label, spec)
            if other != spec:
                raise ConfigError(
                    f"{src}: strategies.{seat}: label {spec.label!r} names two different strategies; seats "
                    f"rotate in this game, so give each strategy its own 'label'")
    # another seat's strategy, pooled here, was not this seat's default
    pooled = {seat: specs + [replace(s, default=False) for s in by_label.values() if s not in specs]
              for seat, specs in strategies.items()}
    return pooled, {seat: len(specs) for seat, specs in strategies.items()}


def _setups(game: Any, src: str, value: Any, variant: str, rules: Any) -> tuple[tuple[str, Any], ...]:
    try:
        return tuple(game.setups(rules, value, source=f"{src}: run"))
    except ConfigError as e:
        msg = str(e)
        raise ConfigError(msg if variant == "base" else f"{msg} (variant {variant!r})") from None


def _game_of(src: str, run: dict[str, Any]) -> tuple[str, Any]:
    name = run.get("game", DEFAULT_GAME)
    if not isinstance(name, str) or not name:
        raise ConfigError(f"{src}: run.game: must be a game name ({', '.join(available_games())}), got {name!r}")
    try:
        return name, get_game(name)
    except ConfigError as e:
        raise ConfigError(f"{src}: run.game: {e}") from None


# ------------------------------------------------------------------------ load


def load_config(
    path: str | Path,
    *,
    games: int | None = None,
    seed: int | None = None,
    workers: int | str | None = None,
    out: str | Path | None = None,
    backend: str | None = None,
    chunk_size: int | None = None,
    address: str | None = None,
) -> RunConfig:
    """Read and validate a tournament config; keyword arguments override ``[run]``
    (the CLI flags). Raises ConfigError naming the file and key on any problem."""
    from rnsim.examples import resolve_config

    path = resolve_config(Path(path))  # a bare name: NAME.toml here, else the example config NAME
    src = str(path)
    raw = _read_toml(path, src)
    return config_from_mapping(
        raw, src=src, base_dir=path.parent, path=path, games=games, seed=seed, workers=workers, out=out,
        backend=backend, chunk_size=chunk_size, address=address,
    )


def _flag_value(key: str, v: Any) -> Any:
    """A flag's value as the file would hold it: digits for a number of
    workers, a path as text."""
    if key == "workers" and isinstance(v, str) and v.isdigit():
        return int(v)
    return str(v) if isinstance(v, os.PathLike) else v


def _backend(s: str, v: Any) -> str:
    """run.backend: a registered backend whose requirements are installed."""
    from rnsim.tournament.backend_registry import BACKENDS, backend_missing

    if v not in BACKENDS:
        close = difflib.get_close_matches(str(v), list(BACKENDS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ConfigError(f"{s}: run.backend: unknown backend {v!r}{hint}; backends: {', '.join(BACKENDS)}")
    backend_name = str(v)
    missing = backend_missing(backend_name)
    if missing:
        raise ConfigError(f"{s}: run.backend: {missing}")
    return backend_name


def _address(s: str, v: str | None, backend_name: str) -> str | None:
    """run.address: a Ray cluster's address, with the 'ray' backend only."""
    if v is not None and backend_name != "ray":
        raise ConfigError(f"{s}: run.address: only the 'ray' backend connects to a cluster; backend is {backend_name!r}")
    return v


def _variant(game: Any, src: str, n: int, vt: Any, variants: list[Variant], base_table: dict[str, Any],
             setups_value: Any, base_dir: Path, chain: tuple[Path, ...]) -> Variant:
    """``[[variants]]`` table ``n``: its name, and the rules of [rules] (or of
    the file it extends) with its knobs on top."""
    where = f"variants[{n}]"
    name = vt.get("name")
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise ConfigError(
            f"{src}: {where}.name: every variant needs a name of letters, digits, '_', '.', '+' or '-', got {name!r}"
        )
    if any(x.name == name for x in variants):
        raise ConfigError(f"{src}: {where}.name: variant name {name!r} is used twice")
    _checked(src, vt, _rules_schema(tuple(_rule_keys(game)), True), f"variants[{name}]")
    table = dict(base_table)
    if "extends" in vt:
        table.update(_resolve_extends(game, src, f"{where}.extends", vt["extends"], base_dir, chain))
    for k, val in vt.items():
        if k not in VARIANT_META_KEYS:
            table[k] = _rule_value(game, k, val, base_dir)
    rules = game.rules(table, f"{src}: variants[{name}]")
    return Variant(name, rules, game.rules_hash(rules), _setups(game, src, setups_value, name, rules))


def _variants(game: Any, src: str, raw_variants: Any, base_table: dict[str, Any], base_rules: Any,
              setups_value: Any, base_dir: Path, chain: tuple[Path, ...]) -> list[Variant]:
    """The run's rule variants: one named "base" (the [rules]) without any
    ``[[variants]]``, else one per table."""
    if raw_variants is None:
        return [Variant("base", base_rules, game.rules_hash(base_rules),
                        _setups(game, src, setups_value, "base", base_rules))]
    variants: list[Variant] = []
    for n, vt in enumerate(raw_variants):
        variants.append(_variant(game, src, n, vt, variants, base_table, setups_value, base_dir, chain))
    return variants


def _seat_strategies(game: Any, src: str, strat: Any, base_rules: Any
                     ) -> tuple[dict[str, list[StrategySpec]], dict[str, int]]:
    """[strategies]: per seat, its strategies (the game's default for a seat
    left out); pooled over the seats in a game whose seats rotate."""
    seats = tuple(game.seats(base_rules))
    if not isinstance(strat, dict):  # the schema would say "a table"; this names the seats
        names = " and ".join(repr(x) for x in seats)
        raise ConfigError(f"{src}: strategies: must be a table with {names}, got {strat!r}")
    given = _checked(src, strat, _strategies_schema(seats), "strategies")
    best = default_strategy(game)
    strategies = {seat: _strategies(game, src, seat, getattr(given, seat)) if getattr(given, seat) is not None
                  else [replace(spec, default=True) for spec in _strategies(game, src, seat, best)]
                  for seat in seats}
    choices: dict[str, int] = {}
    if getattr(game, "rotate_seats", False):
        strategies, choices = _pooled(src, strategies)
    return strategies, choices


def config_from_mapping(
    raw: dict[str, Any],
    *,
    src: str = "config",
    base_dir: Path = Path("."),
    path: Path | None = None,
    games: int | None = None,
    seed: int | None = None,
    workers: int | str | None = None,
    out: str | Path | None = None,
    backend: str | None = None,
    chunk_size: int | None = None,
    address: str | None = None,
) -> RunConfig:
    top = _checked(src, raw, File)
    run = top.run
    game_name, game = _game_of(src, run)
    flags = {"games": games, "seed": seed, "workers": workers, "backend": backend, "address": address,
             "chunk_size": chunk_size, "out": out}
    # Overrides are validated like the file's values, but named as flags.
    given = {k: _flag_value(k, v) for k, v in flags.items() if v is not None}
    sources = {f"run.{k}": f"--{k.replace('_', '-')} (overriding {src})" for k in given}
    r = _checked(src, {**run, **given}, _run_schema(game.setup_key), "run", sources)
    n_workers = max(1, os.cpu_count() or 1) if r.workers == "auto" else r.workers
    backend_name = _backend(sources.get("run.backend", src), r.backend)
    ray_address = _address(sources.get("run.address", src), r.address, backend_name)
    out_dir = Path(r.out if r.out is not None else f"runs/{path.stem if path is not None else 'run'}")

    setups_value = run.get(game.setup_key)
    check = getattr(game, "check_setup_value", None)
    if check is not None and setups_value is not None:
        check(setups_value, source=f"{src}: run")

    chain = (path.resolve(),) if path else ()
    base_table = _rules_table(game, src, top.rules, "rules", base_dir, chain)
    base_rules = game.rules(base_table, f"{src}: rules")
    variants = _variants(game, src, top.variants, base_table, base_rules, setups_value, base_dir, chain)
    strategies, choices = _seat_strategies(game, src, {} if top.strategies is None else top.strategies, base_rules)
    from rnsim.band.config import parse_band
    band = parse_band(game, game_name, src, top.band, strategies, r.games, run.get("games", DEFAULT_GAMES))

    return RunConfig(
        path=path, games=r.games, seed=r.seed, workers=n_workers, backend=backend_name, out=out_dir, address=ray_address,
        chunk_size=r.chunk_size, setups=setups_value, variants=variants, strategies=strategies, game=game_name,
        choices=choices, band=band,
        sources={"config": str(path) if path else None, "raw": raw, "overrides": {
            k: str(v) if isinstance(v, Path) else v for k, v in (
                ("games", games), ("seed", seed), ("workers", workers), ("out", out), ("backend", backend),
                ("chunk_size", chunk_size), ("address", address)) if v is not None}},
    )
