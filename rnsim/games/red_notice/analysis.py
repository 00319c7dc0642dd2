"""Red Notice's own aggregations of a result table (its report sections read
them; a notebook can too)::

    from rnsim.analysis import scan_results
    from rnsim.games.red_notice.analysis import identity_pairs, upgrades
    pairs = identity_pairs(scan_results("runs/classic"))

Words: Angela is the forger (seat 0), Jessah the agent (seat 1); a game's
identities are Angela's identities; a timeout is a game nobody won.

Identities are read from the setup column ``identity_pair`` (the identities
joined with "+", component order, any number of them), which every row has,
error rows included; the first identity burnt from ``identities_burnt``
(List) or, in run directories written before it, ``identity_burnt_1``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl

from rnsim.analysis.aggregate import PLAYED, Results
from rnsim.analysis.stats import (
    ALPHA,
    Z95,
    difference_columns,
    holm_query,
    rate_columns,
    two_proportion_p_expr,
)

CELL = ["variant", "angela_strategy", "jessah_strategy"]
SETUP = "identity_pair"

_ANGELA = (pl.col("winner") == "angela").fill_null(False)
_JESSAH = (pl.col("winner") == "jessah").fill_null(False)
_TIMEOUT = pl.col("end_reason") == "timeout"
_IDS = pl.col(SETUP).cast(pl.String).str.split("+")


def _lazy(results: Results) -> pl.LazyFrame:
    return results.lazy() if isinstance(results, pl.DataFrame) else results


def _names(results: Results) -> list[str]:
    return _lazy(results).collect_schema().names()


def upgrade_ids(schema: pl.Schema | dict[str, pl.DataType] | list[str]) -> list[str]:
    """Upgrade ids present in a result table, in column order: the Boolean
    ``upgrade_<id>`` columns (the ``upgrade_<id>_round`` columns are integers)."""
    if isinstance(schema, list):
        names = set(schema)
        return [c[len("upgrade_"):] for c in schema
                if c.startswith("upgrade_") and not (c.endswith("_round") and c[:-len("_round")] in names)]
    return [c[len("upgrade_"):] for c, t in schema.items() if c.startswith("upgrade_") and t == pl.Boolean]


def scalar_columns(names: list[str]) -> list[str]:
    """The columns of Red Notice's own tables other than the flow by round:
    loaded once, as categoricals, by the report."""
    keep = {SETUP, "identities_burnt", "identity_burnt_1"}
    return [c for c in names if c in keep or c.startswith("upgrade_")]


def _burnt_first(names: list[str]) -> pl.Expr:
    if "identities_burnt" in names:
        return pl.col("identities_burnt").list.first()
    if "identity_burnt_1" in names:  # run directories written before identities were lists
        return pl.col("identity_burnt_1")
    return pl.lit(None, pl.String)


def outcome_aggs() -> list[pl.Expr]:
    """Counts over all rows of a group, errors included (and kept apart)."""
    return [
        PLAYED.sum().cast(pl.Int64).alias("games"),
        _ANGELA.sum().cast(pl.Int64).alias("angela_wins"),
        _JESSAH.sum().cast(pl.Int64).alias("jessah_wins"),
        _TIMEOUT.sum().cast(pl.Int64).alias("timeouts"),
        (~PLAYED).sum().cast(pl.Int64).alias("errors"),
    ]


def rates(z: float = Z95) -> list[pl.Expr]:
    return [*rate_columns("angela_wins", "games", "forger_rate", z),
            *rate_columns("jessah_wins", "games", "agent_rate", z),
            *rate_columns("timeouts", "games", "timeout_rate", z)]


# ---------------------------------------------------------------- identity pairs

def identity_pairs_query(results: Results, z: float = Z95) -> pl.LazyFrame:
    """Per cell and identity set (a pair in the classic game): counts and
    rates, ``n_identities``, the cell's overall forger rate, and whether the
    set's forger rate differs from the rest of the cell's games: ``p_value``
    (the two-proportion test of the set against the cell's other sets),
    ``p_holm`` (Holm's correction across the cell's sets: a page of fifteen
    pairs tested at 5% flags one by chance in more than half the runs) and
    ``differs`` (``p_holm`` under 5%: the flag the report raises). ``rank``:
    1 = best for the forger. Sorted best to worst per cell."""
    lf = _lazy(results)
    cell = lf.group_by(CELL).agg((_ANGELA & PLAYED).sum().alias("_cell_wins"), PLAYED.sum().alias("_cell_games"),
                                 (_ANGELA.sum() / PLAYED.sum()).alias("overall_forger_rate"))
    rest_wins = pl.col("_cell_wins") - pl.col("angela_wins")
    rest_games = pl.col("_cell_games") - pl.col("games")
    pairs = (
        lf.group_by([*CELL, SETUP])
        .agg(*outcome_aggs())
        .with_columns(*rates(z), n_identities=_IDS.list.len().cast(pl.Int32))
        .join(cell, on=CELL, how="left", nulls_equal=True)
        .with_columns(p_value=two_proportion_p_expr(pl.col("angela_wins"), pl.col("games"), rest_wins, rest_games))
        .drop("_cell_wins", "_cell_games")
    )
    return (
        holm_query(pairs, "p_value", CELL)
        .with_columns(differs=(pl.col("p_holm") < ALPHA).fill_null(False))
        # ties broken by name, so the ranking never depends on scan order
        .sort([*CELL, "forger_rate", SETUP], descending=[False, False, False, True, False], nulls_last=True)
        .with_columns(rank=(pl.int_range(pl.len()).over(CELL) + 1).cast(pl.Int32))
    )


def identity_pairs(results: Results, z: float = Z95) -> pl.DataFrame:
    return identity_pairs_query(results, z).collect()


# ---------------------------------------------------------------- identities

def identities_query(results: Results, z: float = Z95) -> pl.LazyFrame:
    """Per cell and identity: the forger's record over the games she was dealt
    it in (every identity of a game counts, however many she holds), and how
    often it was the first identity burnt (``burnt_first``, and
    ``burnt_first_share`` of the games it was dealt in)."""
    lf = _lazy(results)
    first = _burnt_first(_names(lf))
    long = (lf.select(*CELL, "winner", "end_reason", _IDS.alias("identity"), first.alias("_burnt_first"))
            .explode("identity").filter(pl.col("identity") != ""))
    return (
        long.group_by([*CELL, "identity"])
        .agg(*outcome_aggs(),
             (pl.col("_burnt_first").cast(pl.String) == pl.col("identity")).fill_null(False).sum().cast(pl.Int64)
             .alias("burnt_first"))
        .with_columns(*rates(z), *rate_columns("burnt_first", "games", "burnt_first_share", z))
        .sort([*CELL, "forger_rate", "identity"], descending=[False, False, False, True, False], nulls_last=True)
    )


def identities(results: Results, z: float = Z95) -> pl.DataFrame:
    return identities_query(results, z).collect()


# ---------------------------------------------------------------- upgrades

def upgrades_query(results: Results, z: float = Z95) -> pl.LazyFrame:
    """Per cell and upgrade (discovered from the ``upgrade_<id>`` columns):
    how often Jessah gained it, her win rate in games where she gained it and
    where she did not, the difference (``effect``) with its 95% interval
    (Newcombe's hybrid score interval for a difference of two independent
    proportions), and the rounds it was gained in (10th and 90th percentile,
    mean). Played games only. An association, not a cause: Jessah gains an
    upgrade whenever a $200,000 check is cashed (mostly by Angela), so a game
    with more upgrades is a game where Angela is ahead."""
    lf = _lazy(results)
    names = _names(lf)
    ups = upgrade_ids(lf.collect_schema())
    if not ups:
        return pl.LazyFrame(schema={**{c: pl.String for c in CELL}, "upgrade": pl.String, "games": pl.Int64})
    played = lf.filter(PLAYED)
    aggs: list[pl.Expr] = [pl.len().cast(pl.Int64).alias("games"), _JESSAH.sum().cast(pl.Int64).alias("jessah_wins")]
    for i, u in enumerate(ups):
        got = pl.col(f"upgrade_{u}").fill_null(False)
        aggs += [got.sum().cast(pl.Int64).alias(f"g{i}"), (got & _JESSAH).sum().cast(pl.Int64).alias(f"w{i}")]
        rnd = f"upgrade_{u}_round"
        if rnd in names:
            r = pl.col(rnd).filter(got).cast(pl.Float64)
            aggs += [r.quantile(0.1, "nearest").alias(f"p10{i}"), r.quantile(0.9, "nearest").alias(f"p90{i}"),
                     r.mean().alias(f"mn{i}")]
        else:
            aggs += [pl.lit(None, pl.Float64).alias(f"{k}{i}") for k in ("p10", "p90", "mn")]
    wide = played.group_by(CELL).agg(aggs)
    parts = [
        wide.select(
            *CELL, pl.lit(u).alias("upgrade"), pl.lit(i).alias("_order"), "games",
            pl.col(f"g{i}").alias("gained"),
            pl.col(f"w{i}").alias("agent_wins_with"),
            (pl.col("games") - pl.col(f"g{i}")).alias("games_without"),
            (pl.col("jessah_wins") - pl.col(f"w{i}")).alias("agent_wins_without"),
            pl.col(f"p10{i}").alias("p10_round"), pl.col(f"p90{i}").alias("p90_round"),
            pl.col(f"mn{i}").alias("mean_round"),
        )
        for i, u in enumerate(ups)
    ]
    return (
        pl.concat(parts, how="vertical")
        .with_columns(*rate_columns("gained", "games", "gained_rate", z),
                      *rate_columns("agent_wins_with", "gained", "agent_rate_with", z),
                      *rate_columns("agent_wins_without", "games_without", "agent_rate_without", z),
                      *difference_columns("agent_wins_with", "gained", "agent_wins_without", "games_without",
                                          "effect", z))
        .select(*CELL, "upgrade", "games", "gained", "gained_rate", "gained_rate_lo", "gained_rate_hi",
                "agent_wins_with", "agent_rate_with", "agent_rate_with_lo", "agent_rate_with_hi",
                "games_without", "agent_wins_without", "agent_rate_without", "agent_rate_without_lo",
                "agent_rate_without_hi", "effect", "effect_lo", "effect_hi", "p10_round", "p90_round",
                "mean_round", "_order")
        .sort([*CELL, "_order"])  # component order within a cell
        .drop("_order")
    )


def upgrades(results: Results, z: float = Z95) -> pl.DataFrame:
    return upgrades_query(results, z).collect()


def upgrade_rounds_query(results: Results) -> pl.LazyFrame:
    """Per cell, upgrade and round: how many played games Jessah gained the
    upgrade in that round (the distribution behind the upgrade figure)."""
    lf = _lazy(results)
    names = _names(lf)
    ups = [u for u in upgrade_ids(lf.collect_schema()) if f"upgrade_{u}_round" in names]
    schema = {**{c: pl.String for c in CELL}, "upgrade": pl.String, "round": pl.Int32, "games": pl.Int64}
    if not ups:
        return pl.LazyFrame(schema=schema)
    return (
        lf.filter(PLAYED)
        .select(*CELL, *(pl.col(f"upgrade_{u}_round").cast(pl.Int32).alias(u) for u in ups))
        .unpivot(on=ups, index=CELL, variable_name="upgrade", value_name="round")
        .drop_nulls("round")
        .group_by([*CELL, "upgrade", "round"])
        .agg(pl.len().cast(pl.Int64).alias("games"))
        .sort([*CELL, "upgrade", "round"])
    )


def upgrade_rounds(results: Results) -> pl.DataFrame:
    return upgrade_rounds_query(results).collect()


# ---------------------------------------------------------------- game flow

def flow_by_round_query(results: Results) -> pl.LazyFrame:
    """Per cell and round: how many games were still in play at the end of
    that round, and over those games the mean and standard deviation of each
    side's cumulative cash and of the captures. A game that ended earlier no
    longer counts, so the last rounds describe the long games only."""
    lists = ["angela_cash_by_round", "jessah_cash_by_round", "captures_by_round"]
    names = ("angela_cash", "jessah_cash", "captures")
    sums: list[pl.Expr] = []
    for col, name in zip(lists, names, strict=True):
        # The values are whole numbers: their sums and sums of squares are kept
        # exact (128-bit), so they stream over any number of games in bounded
        # memory and two reports of one run agree to the last digit.
        x = pl.col(col).cast(pl.Int128)
        sums += [x.sum().alias(f"_{name}_s1"), (x * x).sum().alias(f"_{name}_s2")]
    n = pl.col("games_in_play").cast(pl.Int128)
    stats: list[pl.Expr] = []
    for name in names:
        s1, s2 = pl.col(f"_{name}_s1"), pl.col(f"_{name}_s2")
        spread = (n * s2 - s1 * s1).cast(pl.Float64)  # n^2 times the variance, exactly
        nf = n.cast(pl.Float64)
        stats += [(s1.cast(pl.Float64) / nf).alias(f"{name}_mean"),
                  pl.when(nf > 1).then((spread / (nf * (nf - 1))).sqrt()).alias(f"{name}_sd")]
    return (
        _lazy(results).filter(PLAYED)
        .select(*CELL, *lists)
        .with_columns(round=pl.int_ranges(1, pl.col("angela_cash_by_round").list.len() + 1, dtype=pl.Int32))
        .explode(["round", *lists])
        .group_by([*CELL, "round"])
        .agg(pl.len().cast(pl.Int64).alias("games_in_play"), *sums)
        .drop_nulls("round")
        .select(*CELL, "round", "games_in_play", *stats)
        .sort([*CELL, "round"])
    )


def flow_by_round(results: Results) -> pl.DataFrame:
    return flow_by_round_query(results).collect()


# ---------------------------------------------------------------- causal values (rnsim levers)

#: where `rnsim levers CONFIG --for-run RUN` writes, inside the run directory
LEVERS_DIR = "levers"


def causal_values(run_dir: str | Path) -> tuple[pl.DataFrame, dict[str, Any]] | None:
    """The causal values `rnsim levers` measured for a run, if it did: the
    levers table (one row per change, the paired shift of the forger's win
    rate with its 95% interval; ``kind`` "upgrade" = removed from the deck,
    "restricted" = never chosen while another upgrade is offered, "identity"
    = played as the plain identity; ``subject`` the upgrade or identity) and
    levers.json (the base rules' hash, the strategies, games, seconds).

    Looked for in ``RUN/levers/`` (``rnsim levers CONFIG --for-run RUN``),
    then in RUN itself (the report of a levers run directory)."""
    import json

    run_dir = Path(run_dir)
    for d in (run_dir / LEVERS_DIR, run_dir):
        table, meta = d / "tables" / "levers.parquet", d / "levers.json"
        if table.is_file() and meta.is_file():
            return pl.read_parquet(table), json.loads(meta.read_text())
    return None


def causal_for_cell(found: tuple[pl.DataFrame, dict[str, Any]] | None, rules_hash: str | None,
                    angela: str, jessah: str) -> pl.DataFrame | None:
    """The causal values that belong to a cell: measured on the same rules
    (hash) with the same strategies; None when there are none."""
    if found is None:
        return None
    table, meta = found
    if rules_hash is None or meta.get("rules_hash") != rules_hash:
        return None
    if [angela] != list(meta.get("angela_strategy") or []) or [jessah] != list(meta.get("jessah_strategy") or []):
        return None
    return table
