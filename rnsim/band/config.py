"""The run config's ``[band]`` table: which band cells a run plays.

::

    [band]
    enabled = true          # default true when the table is there; a file without [band] plays none
    games = 40              # games per level cell (cell = variant x setup x lineup); default run.games / 50
    probe_games = 80        # games per probe cell (and per base cell); default twice games
    levels = ["search"]     # the strategies the verdict is checked at besides the main pair
    probes = "all"          # "all", "none", a seat's name, or a list of probe names

Both counts are at most ``run.games``. A run whose games per cell are set on
the command line (``--games``) plays the band in proportion: ``ceil(games x
N / run.games)`` per cell, at least 1, so a quick run stays quick. Every
error is one line naming the file and the key.
"""

from __future__ import annotations

import importlib
import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rnsim.errors import ConfigError, RnsimError

KEYS = ("enabled", "games", "probe_games", "levels", "probes")
STRATEGY_KEYS = ("ref", "params", "label")


@dataclass(frozen=True)
class Probe:
    """A built-in probe: its name, the seat it takes over, its reference and
    the built-in strategy it is built on (its base; None: measured against
    the main pair's player of its seat)."""

    name: str
    seat: str
    ref: str
    base: str | None


@dataclass(frozen=True)
class BandConfig:
    games: int  # games per level cell, as played (scaled with --games)
    probe_games: int  # games per probe and base cell, as played
    levels: tuple[Level, ...]
    probes: tuple[Probe, ...]

    def resolved(self) -> dict[str, Any]:
        """What the band plays (part of the run's identity, its config hash)."""
        return {"games": self.games, "probe_games": self.probe_games,
                "levels": [s.to_dict(marked=False) for s in self.levels],
                "probes": [{"name": p.name, "seat": p.seat, "ref": p.ref, "base": p.base} for p in self.probes]}


def game_probes(game_name: str) -> tuple[Any, ...]:
    """The game's built-in probes (``rnsim_strategies.<game>.probes.PROBES``:
    name, seat, ref per probe); none when the game has no probe module."""
    try:
        module = importlib.import_module(f"rnsim_strategies.{game_name}.probes")
    except ModuleNotFoundError:
        return ()
    return tuple(getattr(module, "PROBES", ()))


def _count(src: str, key: str, value: Any, top: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise ConfigError(f"{src}: {key}: must be a whole number 1..{top} (run.games), got {value!r}")
    if not 1 <= value <= top:
        raise ConfigError(f"{src}: {key}: must be 1..{top} (at most run.games), got {value}")
    return value


def _scaled(value: int, n_games: int, file_games: int) -> int:
    """A band count as played: in proportion when --games changed run.games."""
    if n_games == file_games:
        return value
    return max(1, min(n_games, math.ceil(value * n_games / file_games)))


@dataclass(frozen=True)
class Level:
    """A level of the band: a strategy, as ``[strategies]`` names one."""

    ref: str
    params: dict[str, Any]
    label: str

    def to_dict(self, marked: bool = False) -> dict[str, Any]:
        return {"ref": self.ref, "params": dict(self.params), "label": self.label}


def _label(ref: str, params: Mapping[str, Any]) -> str:
    """The label [strategies] gives a strategy without one: its reference and sorted params."""
    if not params:
        return ref
    return f"{ref}(" + ",".join(f"{k}={json.dumps(params[k], sort_keys=True)}" for k in sorted(params)) + ")"


def _level(game: Any, src: str, key: str, item: Any) -> Level:
    from rnsim.strategy import load_strategy

    if isinstance(item, str):
        ref, params, label = item, {}, None
    elif isinstance(item, dict):
        bad = [k for k in item if k not in STRATEGY_KEYS]
        if bad or not isinstance(item.get("ref"), str):
            raise ConfigError(f"{src}: {key}: a level is a strategy name, 'module:Class' or a table with 'ref' "
                              f"(and 'params', 'label'), got {item!r}")
        ref, params, label = item["ref"], item.get("params", {}), item.get("label")
        if not isinstance(params, dict) or (label is not None and (not isinstance(label, str) or not label)):
            raise ConfigError(f"{src}: {key}: 'params' must be a table and 'label' a non-empty string, got {item!r}")
    else:
        raise ConfigError(f"{src}: {key}: a level is a strategy name, 'module:Class' or a table, got {item!r}")
    try:
        load_strategy(ref, params, game)
    except RnsimError as e:
        raise ConfigError(f"{src}: {key}: {e}") from None
    except Exception as e:  # a plugin's constructor may raise anything
        raise ConfigError(f"{src}: {key}: strategy {ref!r} cannot be built: {type(e).__name__}: {e}") from None
    return Level(ref, dict(params), label or _label(ref, params))


def default_levels(game: Any, main: str) -> list[str]:
    """The built-in strategies listed after ``main`` (stronger, the registry
    lists the strongest last); when none is, those before it but random."""
    from rnsim.strategy import builtin_strategies

    names = list(builtin_strategies(game))
    if main not in names:
        return []
    after = names[names.index(main) + 1:]
    return after or [n for n in names[:names.index(main)] if n != "random"]


def _levels(game: Any, src: str, value: Any, main: Any) -> tuple[Level, ...]:
    items = default_levels(game, main.ref) if value is None else value if isinstance(value, list) else [value]
    specs = [_level(game, src, f"band.levels[{n}]" if isinstance(value, list) else "band.levels", item)
             for n, item in enumerate(items)]
    labels = [s.label for s in specs]
    for n, label in enumerate(labels):
        if label in labels[:n]:
            raise ConfigError(f"{src}: band.levels[{n}]: {label!r} is listed twice")
    return tuple(s for s in specs if s.label != main.label)  # the main pair is the band's centre already


def _probes(game: Any, game_name: str, src: str, value: Any, seats: tuple[str, ...]) -> tuple[Probe, ...]:
    known = game_probes(game_name)
    names = [p.name for p in known]
    allowed = "'all', 'none', a seat (" + ", ".join(seats) + ") or a list of probe names" \
        + (f" ({', '.join(names)})" if names else f" (the game {game_name!r} has none)")
    if value is None or value == "all":
        chosen = list(known)
    elif value == "none":
        chosen = []
    elif isinstance(value, str) and value in seats:
        chosen = [p for p in known if p.seat == value]
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        unknown = [v for v in value if v not in names]
        if unknown:
            raise ConfigError(f"{src}: band.probes: unknown probe {unknown[0]!r}; allowed: {allowed}")
        chosen = [p for p in known if p.name in value]
    else:
        raise ConfigError(f"{src}: band.probes: must be {allowed}, got {value!r}")
    return tuple(Probe(p.name, p.seat, p.ref, _base(game, src, p)) for p in chosen)


def _base(game: Any, src: str, p: Any) -> str | None:
    """The built-in strategy a probe is built on, as `rnsim exploit` finds it:
    its class attribute ``base``, else the nearest built-in strategy among the
    classes it derives from (None: neither, then it is measured against the
    main pair's player of its seat)."""
    from rnsim.strategy import probe_base

    try:
        return probe_base(p.ref, game)[0]
    except RnsimError as e:
        raise ConfigError(f"{src}: band.probes: probe {p.name!r}: {e}") from None


def parse_band(game: Any, game_name: str, src: str, table: Any, strategies: Mapping[str, list[Any]],
               n_games: int, file_games: Any) -> BandConfig | None:
    """The ``[band]`` table of the file ``src`` (None: no band). ``n_games``:
    the run's games per cell as played; ``file_games``: the file's run.games."""
    if table is None:
        return None
    if not isinstance(table, dict):
        raise ConfigError(f"{src}: band: must be a table ([band]), got {table!r}")
    for key in table:
        if key not in KEYS:
            import difflib

            close = difflib.get_close_matches(key, KEYS, n=1, cutoff=0.5)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"{src}: unknown key 'band.{key}'{hint}; valid keys in band: {', '.join(KEYS)}")
    enabled = table.get("enabled", True)
    if not isinstance(enabled, bool):
        raise ConfigError(f"{src}: band.enabled: must be true or false, got {enabled!r}")
    top = file_games if isinstance(file_games, int) and not isinstance(file_games, bool) else n_games
    games = _count(src, "band.games", table.get("games", max(1, math.ceil(top / 50))), top)
    probe_games = _count(src, "band.probe_games", table.get("probe_games", min(top, 2 * games)), top)
    seats = tuple(strategies)
    main = strategies[seats[0]][0]
    levels = _levels(game, src, table.get("levels"), main)
    probes = _probes(game, game_name, src, table.get("probes"), seats)
    if not enabled:
        return None
    return BandConfig(_scaled(games, n_games, top), _scaled(probe_games, n_games, top), levels, probes)


def band_table(resolved: Any) -> dict[str, Any]:
    """The ``[band]`` table that plays a manifest's resolved band again
    (:meth:`BandConfig.resolved`), for a config rebuilt from a manifest."""
    return {"games": resolved["games"], "probe_games": resolved["probe_games"], "levels": resolved["levels"],
            "probes": [p["name"] for p in resolved["probes"]]}
