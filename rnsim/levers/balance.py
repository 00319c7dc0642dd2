"""The balance a levers command measures, as the game declares it: the watched
seat's share of the wins (``Game.balance_seat``: a seat, or a result column
naming a seat game by game, such as the start player), its name in prose
(``Game.seat_roles``) and its rate in a balanced game of each setup
(``Game.fair_rate``, default one over the number of seats)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import polars as pl

from rnsim.analysis.crossing import Sample


@dataclass(frozen=True)
class Balance:
    watched: str  # a seat name, or a result column holding one per game
    who: str  # how a designer names it: "forger", "start player"
    seats: tuple[str, ...]  # every seat the game can have
    by_column: bool  # ``watched`` is a column

    @property
    def title(self) -> str:
        """E.g. "forger's win rate"."""
        return f"{self.who}'s win rate"

    def outcome(self, columns: Sequence[str]) -> pl.Expr:
        """Per game: the watched seat's share of the win (1 alone, 1/k in a
        k-way shared win, 0 otherwise) when the table has ``share_<seat>``
        columns, else 1 for its single win; null for an error row."""
        target = pl.col(self.watched) if self.by_column else pl.lit(self.watched)
        if all(f"share_{s}" in columns for s in self.seats):
            parts = [pl.when(target == s).then(pl.col(f"share_{s}").cast(pl.Float64)).otherwise(0.0)
                     for s in self.seats]
            y = pl.sum_horizontal(parts)
        else:
            y = (pl.col("winner") == target).fill_null(False).cast(pl.Float64)
        return pl.when(pl.col("end_reason") == "error").then(None).otherwise(y).alias("y")

    def columns(self, schema: Sequence[str]) -> tuple[str, ...]:
        """The result columns :meth:`outcome` reads beyond winner and end_reason."""
        extra = [f"share_{s}" for s in self.seats if f"share_{s}" in schema]
        if len(extra) != len(self.seats):
            extra = []
        return (*((self.watched,) if self.by_column else ()), *extra)


def balance_of(game: Any, seats: Sequence[str]) -> Balance:
    """The game's balance, for a run whose seats (seat 0 first) are ``seats``."""
    watched = getattr(game, "balance_seat", 0)
    name = watched if isinstance(watched, str) else seats[int(watched)]
    role = getattr(game, "seat_roles", {}).get(name)
    who = str(role) if role else name.replace("_", " ").capitalize()
    return Balance(name, who, tuple(seats), name not in seats)


def fair_rate(game: Any, rules: Any, setup: Any) -> float:
    """The watched seat's rate in a balanced game of ``setup``."""
    hook = getattr(game, "fair_rate", None)
    if hook is not None:
        return float(hook(rules, setup))
    return 1.0 / len(game.seats(rules, setup))


def stratum_keys(results: pl.DataFrame, setup_column: str) -> list[str]:
    """The columns naming a game's cell within a variant: the setup and a strategy per seat."""
    return [c for c in results.columns if c == setup_column or c.endswith("_strategy")]


def samples(results: pl.DataFrame, variants: Sequence[str], keys: Sequence[str]) -> list[Sample]:
    """One :class:`Sample` per variant: the games played without error, their
    game index (the cluster) and their cell (the stratum), outcome ``y``."""
    df = results.filter(pl.col("y").is_not_null())
    codes = df.select(pl.concat_str([pl.col(k).cast(pl.String).fill_null("-") for k in keys], separator="|")
                      .alias("_s"))["_s"]
    labels = {v: i for i, v in enumerate(sorted(set(codes.to_list())))}
    df = df.with_columns(codes.replace_strict(labels, return_dtype=pl.Int64).alias("_stratum"))
    out = []
    for v in variants:
        part = df.filter(pl.col("variant") == v)
        out.append(Sample(part["game_index"].to_numpy().astype(np.int64), part["_stratum"].to_numpy(),
                          part["y"].to_numpy().astype(np.float64)))
    return out
