"""The game-agnostic aggregations behind the report, as Polars queries over a
result table (the core columns of docs/architecture.md, whatever the game).

Each public function takes the result rows (a ``LazyFrame`` from
:func:`rnsim.analysis.scan_results`, or a ``DataFrame``) and returns a Polars
``DataFrame``; the ``*_query`` twins return the ``LazyFrame`` so several can be
collected together over one scan (the report does that).

Definitions, used everywhere:

- the *seats* are read from the table: one ``<seat>_strategy`` column per seat,
  seat 0 first (see :class:`Layout`);
- a *cell* is one variant and one strategy per seat: every table is per cell
  (columns ``variant``, ``<seat>_strategy``...);
- ``games`` counts the games that were played out (every row whose
  ``end_reason`` is not ``"error"``); error rows are counted apart in
  ``errors`` and never enter a rate;
- a seat's wins are its shares of wins, ``sum(share_<seat>)``, when the table
  has ``share_<seat>`` columns (a game with shared wins), else the games it
  won alone (``winner == seat``); its win rate is ``<seat>_wins / games`` and
  ``no_winner`` counts the played games nobody won alone (e.g. timeouts);
- every rate comes with its 95% Wilson interval (``<rate>_lo``, ``<rate>_hi``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import polars as pl

from rnsim.analysis.stats import Z95, rate_columns

Results = pl.LazyFrame | pl.DataFrame

PLAYED = pl.col("end_reason") != "error"

#: the core columns that are neither a seat's strategy nor the setup
CORE = ("run_id", "variant", "game_index", "seed", "rules_hash", "winner", "end_reason", "rounds")


def _lazy(results: Results) -> pl.LazyFrame:
    return results.lazy() if isinstance(results, pl.DataFrame) else results


def _names(results: Results | Sequence[str] | pl.Schema) -> list[str]:
    if isinstance(results, pl.LazyFrame):
        return results.collect_schema().names()
    if isinstance(results, pl.DataFrame):
        return results.columns
    if isinstance(results, pl.Schema):
        return results.names()
    return list(results)


@dataclass(frozen=True)
class Layout:
    """Where a result table keeps what the core reads: its seats (seat 0
    first), the cell columns, the setup column (the
    game's ``setup_column``, e.g. FBI's players) and whether wins come as shares."""

    seats: tuple[str, ...]
    setup: str | None
    shares: bool

    @property
    def cell(self) -> list[str]:
        return ["variant", *(f"{s}_strategy" for s in self.seats)]

    def wins(self, seat: str) -> pl.Expr:
        """A seat's share of each game's win (0 for error rows)."""
        if self.shares:
            return pl.col(f"share_{seat}").cast(pl.Float64).fill_null(0.0)
        return (pl.col("winner") == seat).fill_null(False)

    def scalar_columns(self) -> list[str]:
        """The core columns every table here reads."""
        cols = [*self.cell, "winner", "end_reason", "rounds"]
        if self.setup:
            cols.insert(1, self.setup)
        if self.shares:
            cols += [f"share_{s}" for s in self.seats]
        return cols


def layout(results: Results | Sequence[str] | pl.Schema, setup: str | None = None) -> Layout:
    """The layout of a result table. Seats come from the ``<seat>_strategy``
    columns in table order; the setup column, when not given, is the one the
    schema puts between ``variant`` and the first strategy column."""
    names = _names(results)
    seats = tuple(c[: -len("_strategy")] for c in names if c.endswith("_strategy"))
    if setup is None and "variant" in names:
        i = names.index("variant") + 1
        if i < len(names) and not names[i].endswith("_strategy") and names[i] not in CORE:
            setup = names[i]
    if setup is not None and setup not in names:
        setup = None
    shares = bool(seats) and all(f"share_{s}" in names for s in seats)
    return Layout(seats, setup, shares)


def _lay(results: Results, lay: Layout | None) -> Layout:
    return lay if lay is not None else layout(results)


def outcome_aggs(lay: Layout) -> list[pl.Expr]:
    """Counts over all rows of a group, errors included (and kept apart)."""
    wins = [(lay.wins(s).filter(PLAYED).sum()).alias(f"{s}_wins") for s in lay.seats]
    if not lay.shares:
        wins = [w.cast(pl.Int64) for w in wins]
    return [
        PLAYED.sum().cast(pl.Int64).alias("games"),
        *wins,
        (PLAYED & pl.col("winner").is_null()).sum().cast(pl.Int64).alias("no_winner"),
        (~PLAYED).sum().cast(pl.Int64).alias("errors"),
    ]


def rates(lay: Layout, z: float = Z95) -> list[pl.Expr]:
    out: list[pl.Expr] = []
    for s in lay.seats:
        out += rate_columns(f"{s}_wins", "games", f"{s}_rate", z)
    return [*out, *rate_columns("no_winner", "games", "no_winner_rate", z)]


# ---------------------------------------------------------------- headline

def headline_query(results: Results, lay: Layout | None = None, z: float = Z95) -> pl.LazyFrame:
    """Per cell: games, errors, each seat's wins and win rate with its
    interval, games nobody won, mean and median game length (rounds, played
    games only)."""
    lay = _lay(results, lay)
    played_rounds = pl.col("rounds").filter(PLAYED).cast(pl.Float64)
    return (
        _lazy(results)
        .group_by(lay.cell)
        .agg(*outcome_aggs(lay),
             played_rounds.mean().alias("mean_rounds"),
             played_rounds.median().alias("median_rounds"))
        .with_columns(rates(lay, z))
        .sort(lay.cell)
    )


def headline(results: Results, lay: Layout | None = None, z: float = Z95) -> pl.DataFrame:
    return headline_query(results, lay, z).collect()


# ---------------------------------------------------------------- setups

def by_setup_query(results: Results, lay: Layout | None = None, z: float = Z95) -> pl.LazyFrame:
    """Per cell and setup (the game's setup column): counts and every seat's
    win rate with its interval."""
    lay = _lay(results, lay)
    if lay.setup is None:
        return headline_query(results, lay, z).select(*lay.cell, "games").clear()
    return (
        _lazy(results)
        .group_by([*lay.cell, lay.setup])
        .agg(*outcome_aggs(lay))
        .with_columns(rates(lay, z))
        .sort([*lay.cell, lay.setup])
    )


def by_setup(results: Results, lay: Layout | None = None, z: float = Z95) -> pl.DataFrame:
    return by_setup_query(results, lay, z).collect()


# ---------------------------------------------------------------- matchups

def matchup_matrix(headline_table: pl.DataFrame, variant: str, lay: Layout, value: str | None = None) -> pl.DataFrame:
    """One variant's cells of a two-seat game as a matrix: a row per seat-0
    strategy, a column per seat-1 strategy, cells ``value`` (default: seat
    0's win rate)."""
    if len(lay.seats) != 2:
        raise ValueError(f"a matchup matrix needs two seats, the table has {len(lay.seats)}")
    a, b = (f"{s}_strategy" for s in lay.seats)
    t = headline_table.filter(pl.col("variant") == variant)
    cols = sorted(t[b].unique().to_list())
    return (t.pivot(on=b, index=a, values=value or f"{lay.seats[0]}_rate")
            .select(a, *cols).sort(a))


# ---------------------------------------------------------------- game length

def game_length_query(results: Results, lay: Layout | None = None) -> pl.LazyFrame:
    """Per cell, end reason and winner: games, share of the cell's played
    games, and the distribution of game length in rounds (mean, median, 10th
    and 90th percentile, min, max)."""
    lay = _lay(results, lay)
    r = pl.col("rounds").cast(pl.Float64)
    return (
        _lazy(results).filter(PLAYED)
        .group_by([*lay.cell, "end_reason", "winner"])
        .agg(pl.len().cast(pl.Int64).alias("games"), r.mean().alias("mean_rounds"),
             r.median().alias("median_rounds"),
             r.quantile(0.1, "nearest").alias("p10_rounds"), r.quantile(0.9, "nearest").alias("p90_rounds"),
             r.min().alias("min_rounds"), r.max().alias("max_rounds"))
        .with_columns(share=pl.col("games") / pl.col("games").sum().over(lay.cell))
        .sort([*lay.cell, "end_reason", "winner"], nulls_last=True)
    )


def game_length(results: Results, lay: Layout | None = None) -> pl.DataFrame:
    return game_length_query(results, lay).collect()


def game_length_histogram_query(results: Results, lay: Layout | None = None) -> pl.LazyFrame:
    """Per cell, end reason and length in rounds: how many games."""
    lay = _lay(results, lay)
    return (
        _lazy(results).filter(PLAYED)
        .group_by([*lay.cell, "end_reason", "rounds"])
        .agg(pl.len().cast(pl.Int64).alias("games"))
        .sort([*lay.cell, "end_reason", "rounds"])
    )


def game_length_histogram(results: Results, lay: Layout | None = None) -> pl.DataFrame:
    return game_length_histogram_query(results, lay).collect()


# ---------------------------------------------------------------- errors

def errors_by_cell_query(results: Results, lay: Layout | None = None) -> pl.LazyFrame:
    """Per cell (and setup): how many games ended in a strategy error."""
    lay = _lay(results, lay)
    keys = [*lay.cell, *([lay.setup] if lay.setup else [])]
    return (
        _lazy(results).filter(~PLAYED)
        .group_by(keys)
        .agg(pl.len().cast(pl.Int64).alias("errors"))
        .sort(keys)
    )


def errors_by_cell(results: Results, lay: Layout | None = None) -> pl.DataFrame:
    return errors_by_cell_query(results, lay).collect()
