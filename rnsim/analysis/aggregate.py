"""The aggregations behind the report, as Polars queries over a result table.

Each public function takes the result rows (a ``LazyFrame`` from
:func:`rnsim.analysis.scan_results`, or a ``DataFrame``) and returns a Polars
``DataFrame``; the ``*_query`` twins return the ``LazyFrame`` so several can be
collected together over one scan (the report does that).

Definitions, used everywhere:

- a *cell* is one variant and one strategy pair: every table is per cell
  (columns ``variant``, ``angela_strategy``, ``jessah_strategy``);
- ``games`` counts the games that were played out (every row whose
  ``end_reason`` is not ``"error"``); error rows are counted apart in
  ``errors`` and never enter a rate;
- the forger's (Angela's) win rate is ``angela_wins / games``, the agent's
  (Jessah's) is ``jessah_wins / games``, the timeout rate ``timeouts / games``:
  a timeout is a game nobody won, never a win;
- every rate comes with its 95% Wilson interval (``<rate>_lo``, ``<rate>_hi``).
"""

from __future__ import annotations

import polars as pl

from rnsim.analysis.load import upgrade_ids
from rnsim.analysis.stats import Z95, rate_columns

CELL = ["variant", "angela_strategy", "jessah_strategy"]

Results = pl.LazyFrame | pl.DataFrame

_PLAYED = pl.col("end_reason") != "error"
_ANGELA = (pl.col("winner") == "angela").fill_null(False)
_JESSAH = (pl.col("winner") == "jessah").fill_null(False)
_TIMEOUT = pl.col("end_reason") == "timeout"


def scalar_columns(results: Results) -> list[str]:
    """The columns every table but :func:`flow_by_round` reads: loading just
    these once is far cheaper than scanning thousands of shards per table."""
    names = _lazy(results).collect_schema().names()
    fixed = [*CELL, "identity_pair", "identity_1", "identity_2", "winner", "end_reason", "rounds", "identity_burnt_1"]
    return [c for c in names if c in fixed or c.startswith("upgrade_")]


def _lazy(results: Results) -> pl.LazyFrame:
    return results.lazy() if isinstance(results, pl.DataFrame) else results


def _outcome_aggs() -> list[pl.Expr]:
    """Counts over all rows of a group, errors included (and kept apart)."""
    return [
        _PLAYED.sum().cast(pl.Int64).alias("games"),
        _ANGELA.sum().cast(pl.Int64).alias("angela_wins"),
        _JESSAH.sum().cast(pl.Int64).alias("jessah_wins"),
        _TIMEOUT.sum().cast(pl.Int64).alias("timeouts"),
        (~_PLAYED).sum().cast(pl.Int64).alias("errors"),
    ]


def _rates(z: float) -> list[pl.Expr]:
    return [*rate_columns("angela_wins", "games", "forger_rate", z),
            *rate_columns("jessah_wins", "games", "agent_rate", z),
            *rate_columns("timeouts", "games", "timeout_rate", z)]


# ---------------------------------------------------------------- headline

def headline_query(results: Results, z: float = Z95) -> pl.LazyFrame:
    """Per cell: games, errors, wins of each side, timeouts, the three rates
    with intervals, mean and median game length (rounds, played games only)."""
    played_rounds = pl.col("rounds").filter(_PLAYED).cast(pl.Float64)
    return (
        _lazy(results)
        .group_by(CELL)
        .agg(*_outcome_aggs(),
             played_rounds.mean().alias("mean_rounds"),
             played_rounds.median().alias("median_rounds"))
        .with_columns(_rates(z))
        .sort(CELL)
    )


def headline(results: Results, z: float = Z95) -> pl.DataFrame:
    return headline_query(results, z).collect()


# ---------------------------------------------------------------- identity pairs

def identity_pairs_query(results: Results, z: float = Z95) -> pl.LazyFrame:
    """Per cell and identity pair: counts and rates, the cell's overall forger
    rate, ``differs`` (the pair's interval excludes the overall rate) and
    ``rank`` (1 = best pair for the forger). Sorted best to worst per cell."""
    lf = _lazy(results)
    overall = lf.group_by(CELL).agg(
        (_ANGELA.sum() / _PLAYED.sum()).alias("overall_forger_rate"))
    return (
        lf.group_by([*CELL, "identity_pair", "identity_1", "identity_2"])
        .agg(*_outcome_aggs())
        .with_columns(_rates(z))
        .join(overall, on=CELL, how="left", nulls_equal=True)
        .with_columns(
            differs=((pl.col("overall_forger_rate") < pl.col("forger_rate_lo"))
                     | (pl.col("overall_forger_rate") > pl.col("forger_rate_hi"))).fill_null(False),
        )
        # ties broken by name, so the ranking never depends on scan order
        .sort([*CELL, "forger_rate", "identity_pair"], descending=[False, False, False, True, False], nulls_last=True)
        .with_columns(rank=(pl.int_range(pl.len()).over(CELL) + 1).cast(pl.Int32))
    )


def identity_pairs(results: Results, z: float = Z95) -> pl.DataFrame:
    return identity_pairs_query(results, z).collect()


# ---------------------------------------------------------------- identities

def identities_query(results: Results, z: float = Z95) -> pl.LazyFrame:
    """Per cell and identity: the forger's record over the games whose pair
    contains it, and how often it was the first identity burnt (``burnt_first``,
    and ``burnt_first_share`` of the games it was dealt in)."""
    lf = _lazy(results).select(*CELL, "winner", "end_reason", "identity_1", "identity_2", "identity_burnt_1")
    long = lf.unpivot(on=["identity_1", "identity_2"], index=[*CELL, "winner", "end_reason", "identity_burnt_1"],
                      variable_name="slot", value_name="identity")
    return (
        long.group_by([*CELL, "identity"])
        .agg(*_outcome_aggs(),
             (pl.col("identity_burnt_1") == pl.col("identity")).fill_null(False).sum().cast(pl.Int64)
             .alias("burnt_first"))
        .with_columns(*_rates(z), *rate_columns("burnt_first", "games", "burnt_first_share", z))
        .sort([*CELL, "forger_rate", "identity"], descending=[False, False, False, True, False], nulls_last=True)
    )


def identities(results: Results, z: float = Z95) -> pl.DataFrame:
    return identities_query(results, z).collect()


# ---------------------------------------------------------------- upgrades

def upgrades_query(results: Results, z: float = Z95) -> pl.LazyFrame:
    """Per cell and upgrade (discovered from the ``upgrade_<id>`` columns):
    how often Jessah gained it, her win rate in games where she gained it and
    where she did not, the difference (``effect``), and the round it was
    gained (median, mean). Played games only."""
    lf = _lazy(results)
    ups = upgrade_ids(lf.collect_schema())
    if not ups:
        return pl.LazyFrame(schema={**{c: pl.String for c in CELL}, "upgrade": pl.String, "games": pl.Int64})
    played = lf.filter(_PLAYED)
    aggs: list[pl.Expr] = [pl.len().cast(pl.Int64).alias("games"), _JESSAH.sum().cast(pl.Int64).alias("jessah_wins")]
    for i, u in enumerate(ups):
        got = pl.col(f"upgrade_{u}").fill_null(False)
        aggs += [
            got.sum().cast(pl.Int64).alias(f"g{i}"),
            (got & _JESSAH).sum().cast(pl.Int64).alias(f"w{i}"),
        ]
        rnd = f"upgrade_{u}_round"
        if rnd in lf.collect_schema().names():
            r = pl.col(rnd).filter(got).cast(pl.Float64)
            aggs += [r.median().alias(f"md{i}"), r.mean().alias(f"mn{i}")]
        else:
            aggs += [pl.lit(None, pl.Float64).alias(f"md{i}"), pl.lit(None, pl.Float64).alias(f"mn{i}")]
    wide = played.group_by(CELL).agg(aggs)
    parts = [
        wide.select(
            *CELL,
            pl.lit(u).alias("upgrade"),
            pl.lit(i).alias("_order"),
            "games",
            pl.col(f"g{i}").alias("gained"),
            pl.col(f"w{i}").alias("agent_wins_with"),
            (pl.col("games") - pl.col(f"g{i}")).alias("games_without"),
            (pl.col("jessah_wins") - pl.col(f"w{i}")).alias("agent_wins_without"),
            pl.col(f"md{i}").alias("median_round"),
            pl.col(f"mn{i}").alias("mean_round"),
        )
        for i, u in enumerate(ups)
    ]
    return (
        pl.concat(parts, how="vertical")
        .with_columns(*rate_columns("gained", "games", "gained_rate", z),
                      *rate_columns("agent_wins_with", "gained", "agent_rate_with", z),
                      *rate_columns("agent_wins_without", "games_without", "agent_rate_without", z))
        .with_columns(effect=pl.col("agent_rate_with") - pl.col("agent_rate_without"))
        .select(*CELL, "upgrade", "games", "gained", "gained_rate", "gained_rate_lo", "gained_rate_hi",
                "agent_wins_with", "agent_rate_with", "agent_rate_with_lo", "agent_rate_with_hi",
                "games_without", "agent_wins_without", "agent_rate_without", "agent_rate_without_lo",
                "agent_rate_without_hi", "effect", "median_round", "mean_round", "_order")
        .sort([*CELL, "_order"])  # component order within a cell
        .drop("_order")
    )


def upgrades(results: Results, z: float = Z95) -> pl.DataFrame:
    return upgrades_query(results, z).collect()


# ---------------------------------------------------------------- matchups

def matchups_query(results: Results, z: float = Z95) -> pl.LazyFrame:
    """Per variant, Angela's strategy x Jessah's strategy: counts and rates
    (the strategy win-rate matrix in long form; see :func:`matchup_matrix`)."""
    return (
        _lazy(results)
        .group_by(CELL)
        .agg(*_outcome_aggs())
        .with_columns(_rates(z))
        .sort(CELL)
    )


def matchups(results: Results, z: float = Z95) -> pl.DataFrame:
    return matchups_query(results, z).collect()


def matchup_matrix(matchups_table: pl.DataFrame, variant: str, value: str = "forger_rate") -> pl.DataFrame:
    """One variant's matchups as a matrix: a row per Angela strategy, a column
    per Jessah strategy, cells ``value`` (default: the forger's win rate)."""
    t = matchups_table.filter(pl.col("variant") == variant)
    cols = sorted(t["jessah_strategy"].unique().to_list())
    return (t.pivot(on="jessah_strategy", index="angela_strategy", values=value)
            .select("angela_strategy", *cols).sort("angela_strategy"))


# ---------------------------------------------------------------- game flow

def game_length_query(results: Results) -> pl.LazyFrame:
    """Per cell and end reason (``million``, ``arrest``, ``timeout``): games,
    share of the cell's played games, and the distribution of game length in
    rounds (mean, median, 10th and 90th percentile, min, max)."""
    r = pl.col("rounds").cast(pl.Float64)
    return (
        _lazy(results).filter(_PLAYED)
        .group_by([*CELL, "end_reason", "winner"])
        .agg(pl.len().cast(pl.Int64).alias("games"), r.mean().alias("mean_rounds"),
             r.median().alias("median_rounds"),
             r.quantile(0.1, "nearest").alias("p10_rounds"), r.quantile(0.9, "nearest").alias("p90_rounds"),
             r.min().alias("min_rounds"), r.max().alias("max_rounds"))
        .with_columns(share=pl.col("games") / pl.col("games").sum().over(CELL))
        .sort([*CELL, "end_reason"])
    )


def game_length(results: Results) -> pl.DataFrame:
    return game_length_query(results).collect()


def game_length_histogram_query(results: Results) -> pl.LazyFrame:
    """Per cell, end reason and length in rounds: how many games."""
    return (
        _lazy(results).filter(_PLAYED)
        .group_by([*CELL, "end_reason", "rounds"])
        .agg(pl.len().cast(pl.Int64).alias("games"))
        .sort([*CELL, "end_reason", "rounds"])
    )


def game_length_histogram(results: Results) -> pl.DataFrame:
    return game_length_histogram_query(results).collect()


def flow_by_round_query(results: Results) -> pl.LazyFrame:
    """Per cell and round: how many games were still in play at the end of
    that round, and their mean cumulative cash of each side and captures. The
    means are over the games still in play (a game that ended earlier no
    longer counts), so the last rounds describe the long games only."""
    lists = ["angela_cash_by_round", "jessah_cash_by_round", "captures_by_round"]
    return (
        _lazy(results).filter(_PLAYED)
        .select(*CELL, *lists)
        .with_columns(round=pl.int_ranges(1, pl.col("angela_cash_by_round").list.len() + 1, dtype=pl.Int32))
        .explode(["round", *lists])
        .group_by([*CELL, "round"])
        .agg(pl.len().cast(pl.Int64).alias("games_in_play"),
             pl.col("angela_cash_by_round").cast(pl.Float64).mean().alias("angela_cash_mean"),
             pl.col("jessah_cash_by_round").cast(pl.Float64).mean().alias("jessah_cash_mean"),
             pl.col("captures_by_round").cast(pl.Float64).mean().alias("captures_mean"))
        .drop_nulls("round")
        .sort([*CELL, "round"])
    )


def flow_by_round(results: Results) -> pl.DataFrame:
    return flow_by_round_query(results).collect()


# ---------------------------------------------------------------- errors

def errors_by_cell_query(results: Results) -> pl.LazyFrame:
    """Per cell and identity pair: how many games ended in a strategy error."""
    return (
        _lazy(results).filter(~_PLAYED)
        .group_by([*CELL, "identity_pair"])
        .agg(pl.len().cast(pl.Int64).alias("errors"))
        .sort([*CELL, "identity_pair"])
    )


def errors_by_cell(results: Results) -> pl.DataFrame:
    return errors_by_cell_query(results).collect()
