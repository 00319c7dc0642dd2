"""Rule changes played as variants of the user's config, through the ordinary
tournament (so game ``i`` of every variant sees the same chance stream: common
random numbers) into a run directory ``rnsim report`` can read."""

from __future__ import annotations

import copy
import time
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from rnsim.errors import ConfigError, RnsimError
from rnsim.levers.balance import Balance, balance_of

Echo = Callable[[str], None]

#: the column that keeps the setup each game was dealt when the setups are
#: drawn game by game (the setup column then holds the cell's label, so game
#: i of two variants pairs whatever each was dealt)
DEALT = "dealt_setup"


@dataclass(frozen=True)
class Change:
    """One rule variant: ``knobs`` on top of the config's rules (or, with
    ``never``, restricted play under the config's rules)."""

    name: str  # the variant name in the run
    label: str  # what a designer reads, e.g. "money_target 1,000,000 -> 900,000"
    knobs: Mapping[str, Any]
    kind: str = "knob"  # "knob", "base", or the game's lever kind
    subject: str = ""  # the knob or the thing the lever changes
    never: str | None = None
    decision: str | None = None


BASE = Change("base", "base rules", {}, "base")


@dataclass
class Played:
    results: pl.DataFrame  # with the balance outcome "y" per game
    run_dir: Path
    games: int  # games in the run directory (all variants)
    seconds: float  # time spent playing in this call
    cfg: Any = None
    variants: list[str] = field(default_factory=list)


def _toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None


def whole_config(path: Path) -> Any:
    """The config as written, variants and all (its ``[sweep]`` table, which
    only `rnsim sweep` reads, set aside)."""
    from rnsim.config import config_from_mapping

    raw = {k: v for k, v in _toml(path).items() if k != "sweep"}
    return config_from_mapping(raw, src=str(path), base_dir=path.parent, path=path)


def read_config(path: Path, variant: str | None = None) -> dict[str, Any]:
    """The config as a levers command plays it: one rule set. A config with
    ``[[variants]]`` gives the rules of ``variant`` (default: the first, the
    reference `rnsim compare` uses), folded into ``[rules]``."""
    raw = _toml(path)
    if not raw.get("variants"):
        if variant is not None:
            raise ConfigError(f"--variant: {path} has no [[variants]]; leave --variant out")
        return raw
    variants = whole_config(path).variants
    names = [v.name for v in variants]
    chosen = variants[0] if variant is None else next((v for v in variants if v.name == variant), None)
    if chosen is None:
        raise ConfigError(f"--variant: {path} has no variant {variant!r}; its variants: {', '.join(names)}")
    raw = {k: v for k, v in raw.items() if k != "variants"}
    to_dict = getattr(chosen.rules, "to_dict", None)
    raw["rules"] = dict(to_dict()) if to_dict is not None else dict(raw.get("rules", {}))
    return raw


def variant_note(path: Path, variant: str | None) -> str | None:
    """What to tell a designer whose config has variants (None when it has none)."""
    try:
        with path.open("rb") as fh:
            raw = tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError):
        return None
    names = [str(v.get("name")) for v in raw.get("variants") or [] if isinstance(v, dict)]
    if not names:
        return None
    used = variant or names[0]
    return (f"note: {path} has variants {', '.join(names)}: these commands vary the rules of {used!r} "
            "(choose another with --variant)")


def base_config(config: Path, variant: str | None = None, **overrides: Any) -> Any:
    """The run config of the one rule set the levers commands start from."""
    from rnsim.config import config_from_mapping

    raw = copy.deepcopy(read_config(config, variant))
    raw.pop("sweep", None)
    return config_from_mapping(raw, src=str(config), base_dir=config.parent, path=config, **overrides)


def lever_setups(config: Path, mode: str) -> Any:
    """The setup value the levers commands play: the game's ``lever_setups``
    with mode "game" (None when the game keeps the config's), None with "config"."""
    if mode not in ("game", "config"):
        raise ConfigError(f'--setups: must be "game" or "config", got {mode!r}')
    return getattr(whole_config(config).game_obj, "lever_setups", None) if mode == "game" else None


def drawn(cfg: Any) -> bool:
    """Every cell's setup is drawn game by game (Red Notice's random identities)."""
    return all(c.setup is None for c in cfg.cells())


def variant_config(config: Path, changes: Sequence[Change], *, setups: Any = None,
                   strategies: Mapping[str, list[Any]] | None = None, variant: str | None = None,
                   **overrides: Any) -> Any:
    """The run config playing every change (and nothing else) as a variant of ``config``."""
    from rnsim.config import config_from_mapping

    raw = copy.deepcopy(read_config(config, variant))
    raw.pop("sweep", None)  # rnsim sweep's own table; the tournament does not know it
    raw["variants"] = [{"name": c.name, **c.knobs} for c in changes]
    if strategies is not None:
        for seat, specs in strategies.items():
            raw.setdefault("strategies", {})[seat] = specs
    if setups is not None:
        raw.setdefault("run", {})[whole_config(config).game_obj.setup_key] = setups
    return config_from_mapping(raw, src=str(config), base_dir=config.parent, path=config, **overrides)


def with_outcome(results: pl.DataFrame, cfg: Any, balance: Balance) -> pl.DataFrame:
    """The results with the balance outcome ``y``, and drawn setups relabelled (see :data:`DEALT`)."""
    res = results.with_columns(balance.outcome(results.columns))
    if drawn(cfg):
        col = cfg.game_obj.setup_column
        res = res.with_columns(pl.col(col).alias(DEALT), pl.lit(cfg.variants[0].setups[0][0]).alias(col))
    return res


def play_changes(config: Path, changes: Sequence[Change], *, out: Path, games: int | None = None,
                 seed: int | None = None, workers: str | int | None = None, backend: str | None = None,
                 progress: bool = False, echo: Echo = print, strategies: Mapping[str, list[Any]] | None = None,
                 setups: Any = None, variant: str | None = None) -> Played:
    """Play every change as a variant of ``config`` into ``out`` (``strategies``
    replace the config's per seat, ``setups`` its setup value)."""
    from rnsim.tournament.run import run_tournament
    from rnsim.tournament.shards import load_results

    cfg = variant_config(config, changes, setups=setups, strategies=strategies, variant=variant, games=games,
                         seed=seed, workers=workers, out=out, backend=backend)
    t0 = time.perf_counter()
    summary = run_tournament(cfg, progress=progress, echo=echo)
    seconds = time.perf_counter() - t0
    if not summary.complete:
        raise RnsimError(f"{out}: interrupted; run the same command again to resume")
    results = load_results(out, lazy=False)
    assert isinstance(results, pl.DataFrame)
    res = with_outcome(results, cfg, balance_of(cfg.game_obj, cfg.seats))
    return Played(res, out, cfg.total_games, seconds, cfg, [c.name for c in changes])


def write_table(df: pl.DataFrame, folder: Path, name: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    csv, pq = folder / f"{name}.csv", folder / f"{name}.parquet"
    df.write_csv(csv)
    df.write_parquet(pq)
    return [csv, pq]
