"""Rule changes played as variants of the user's config, through the ordinary
tournament (so game ``i`` of every variant sees the same chance stream: common
random numbers) into a run directory ``rnsim report`` can read."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from rnsim.errors import RnsimError
from rnsim.levers.balance import Balance, balance_of
from rnsim.levers.source import Change, LeverConfig, lever_config

Echo = Callable[[str], None]

#: the column that keeps the setup each game was dealt when the setups are
#: drawn game by game (the setup column then holds the cell's label, so game
#: i of two variants pairs whatever each was dealt)
DEALT = "dealt_setup"




@dataclass
class Played:
    results: pl.DataFrame  # with the balance outcome "y" per game
    run_dir: Path
    games: int  # games in the run directory (all variants)
    seconds: float  # time spent playing in this call
    cfg: Any = None
    variants: list[str] = field(default_factory=list)


def drawn(cfg: Any) -> bool:
    """Every cell's setup is drawn game by game (Red Notice's random identities)."""
    return all(c.setup is None for c in cfg.cells())


def with_outcome(results: pl.DataFrame, cfg: Any, balance: Balance) -> pl.DataFrame:
    """The results with the balance outcome ``y``, and drawn setups relabelled (see :data:`DEALT`)."""
    res = results.with_columns(balance.outcome(results.columns))
    if drawn(cfg):
        col = cfg.game_obj.setup_column
        res = res.with_columns(pl.col(col).alias(DEALT), pl.lit(cfg.variants[0].setups[0][0]).alias(col))
    return res


def play_changes(config: LeverConfig | Path, changes: Sequence[Change], *, out: Path, games: int | None = None,
                 seed: int | None = None, workers: str | int | None = None, backend: str | None = None,
                 progress: bool = False, echo: Echo = print, strategies: Mapping[str, list[Any]] | None = None,
                 setups: Any = None) -> Played:
    """Play every change as a variant of ``config`` into ``out`` (``strategies``
    replace the config's per seat, ``setups`` its setup value)."""
    from rnsim.tournament.run import run_tournament
    from rnsim.tournament.shards import load_results

    cfg = lever_config(config).with_changes(changes, setups=setups, strategies=strategies, games=games, seed=seed,
                                            workers=workers, out=out, backend=backend)
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
