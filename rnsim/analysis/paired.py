"""Paired differences of win rates between rule variants.

Game ``i`` of every variant sees the same chance stream (common random
numbers), so the same deals, draws and setup under two rule sets: the
two outcomes of game ``i`` are a pair, and the difference of win rates is
estimated from the per-game differences ``D_i = Y_variant,i - Y_reference,i``.
Its variance is ``Var(Y_ref) + Var(Y_var) - 2 Cov`` over ``n``: whatever the two
variants agree on cancels. The unpaired estimate (the same games treated as two
independent samples) drops the covariance term; the share of variance the
pairing removed, ``1 - Var_paired / Var_unpaired``, is measured on the run itself.

Games are joined on the cell (the game's setup column and one
``<seat>_strategy`` per seat; read from the table's layout unless given) and
the game index. Error rows
(``end_reason = "error"``) are dropped with their partner; a timeout is a game
nobody won, never a win (the definitions of :mod:`rnsim.analysis.aggregate`).

The interval is the normal (Wald) interval of the mean paired difference:
two identical variants give ``D_i = 0`` for every game and so an interval of
exactly zero width, which is the truth (the rules did not change a single game).
The variances are computed from integer counts so that zero is exact. Like any
normal interval it is approximate when only a handful of games changed outcome
(the ``discordant`` column says how many); with tens of discordant games it is
accurate.
"""

from __future__ import annotations

import math

import polars as pl

from rnsim.analysis.stats import Z95, sorted_sum

ALL = "all"  # the setup label of the row pooling every cell

Results = pl.LazyFrame | pl.DataFrame


def won(watched: str, columns: Results | list[str] | tuple[str, ...]) -> pl.Expr:
    """1 for a game the watched seat won alone: ``watched`` is a seat name, or
    the name of a result column that holds a seat name per game (e.g. FBI's
    ``first_handcuffs``, the start player)."""
    names = _names(columns)
    target = pl.col(watched) if watched in names else pl.lit(watched)
    return (pl.col("winner") == target).fill_null(False)


def outcome(watched: str, columns: Results | list[str] | tuple[str, ...]) -> pl.Expr:
    """The watched seat's outcome of a game as its verdict counts it: where
    the table holds ``share_<seat>`` columns (a game whose win can be shared,
    FBI's F13), its share of the win (1/k of a win shared by k, a Float64);
    else :func:`won` (1 for a win alone, an Int64)."""
    names = _names(columns)
    shares = [c for c in names if c.startswith("share_")]
    if not shares:
        return won(watched, names).cast(pl.Int64)
    if watched not in names:
        return pl.col(f"share_{watched}").fill_null(0.0).cast(pl.Float64)
    expr = pl.lit(0.0, dtype=pl.Float64)
    for c in reversed(shares):
        expr = pl.when(pl.col(watched) == c[len("share_"):]).then(pl.col(c).fill_null(0.0)).otherwise(expr)
    return expr.cast(pl.Float64)


def _names(columns: Results | list[str] | tuple[str, ...]) -> list[str]:
    return (columns.collect_schema().names() if isinstance(columns, pl.LazyFrame)
            else columns.columns if isinstance(columns, pl.DataFrame) else list(columns))


def _outcomes(results: Results, variant: str, seat: str, name: str, keys: list[str]) -> pl.LazyFrame:
    lf = results.lazy() if isinstance(results, pl.DataFrame) else results
    return (
        lf.filter((pl.col("variant") == variant) & (pl.col("end_reason") != "error"))
        .select(*keys, "game_index", outcome(seat, results).alias(name))
    )


def cell_keys(results: Results) -> list[str]:
    """A result table's cell columns: its setup column, then ``<seat>_strategy`` per seat."""
    from rnsim.analysis.aggregate import layout

    lay = layout(results)
    return [*([lay.setup] if lay.setup else []), *(f"{s}_strategy" for s in lay.seats)]


def first_seat(results: Results) -> str:
    from rnsim.analysis.aggregate import layout

    return layout(results).seats[0]


def paired_games(results: Results, reference: str, variant: str, seat: str | None = None,
                 keys: list[str] | None = None) -> pl.LazyFrame:
    """One row per game played (without error) under both variants: the keys,
    ``y_ref`` and ``y_var`` (1 when ``seat`` won; default seat 0). ``keys`` are
    the cell columns (default :func:`cell_keys` of the table)."""
    seat = seat or first_seat(results)
    cell = list(keys or cell_keys(results))
    # null-safe: a seat absent from a game (FBI's 4th and 5th seats at 3 players)
    # has a null ``<seat>_strategy``, and such games pair like any other
    return _outcomes(results, reference, seat, "y_ref", cell).join(
        _outcomes(results, variant, seat, "y_var", cell), on=[*cell, "game_index"], how="inner", nulls_equal=True
    )


def _moments() -> list[pl.Expr]:
    n = pl.len().cast(pl.Int64).alias("games")
    a = pl.col("y_ref").sum().alias("wins_ref")
    b = pl.col("y_var").sum().alias("wins_var")
    ab = (pl.col("y_ref") * pl.col("y_var")).sum().alias("wins_both")
    # sums of squares: equal to the wins for 0/1 outcomes, not for shares of a win
    aa = (pl.col("y_ref") * pl.col("y_ref")).sum().alias("_sq_ref")
    bb = (pl.col("y_var") * pl.col("y_var")).sum().alias("_sq_var")
    changed = (pl.col("y_ref") != pl.col("y_var")).sum().cast(pl.Int64).alias("_changed")
    return [n, a, b, ab, aa, bb, changed]


def _statistics() -> list[pl.Expr]:
    n = pl.col("games").cast(pl.Float64)
    a = pl.col("wins_ref")
    b = pl.col("wins_var")
    ab = pl.col("wins_both")
    # Every (n-1)-denominator variance from sums: for 0/1 outcomes these are
    # integer counts (sum(y^2) = sum(y)), so a zero variance is exact.
    sq_d = (pl.col("_sq_ref") + pl.col("_sq_var") - 2 * ab).cast(pl.Float64)
    net = (b - a).cast(pl.Float64)
    var_ref = (pl.col("_sq_ref") - a * a / n) / (n - 1)
    var_var = (pl.col("_sq_var") - b * b / n) / (n - 1)
    var_d = (sq_d - net * net / n) / (n - 1)
    return [
        (a / n).alias("rate_ref"),
        (b / n).alias("rate_var"),
        (net / n).alias("diff"),
        pl.col("_changed").alias("discordant"),  # the games whose outcome changed
        (var_d / n).alias("var_paired"),
        ((var_ref + var_var) / n).alias("var_unpaired"),
    ]


def _intervals(z: float) -> list[pl.Expr]:
    sp = pl.col("var_paired").clip(0.0, None).sqrt()
    su = pl.col("var_unpaired").clip(0.0, None).sqrt()
    return [
        sp.alias("se_paired"),
        (pl.col("diff") - z * sp).alias("paired_lo"),
        (pl.col("diff") + z * sp).alias("paired_hi"),
        su.alias("se_unpaired"),
        (pl.col("diff") - z * su).alias("unpaired_lo"),
        (pl.col("diff") + z * su).alias("unpaired_hi"),
        pl.when(pl.col("var_unpaired") > 0)
        .then(1 - pl.col("var_paired") / pl.col("var_unpaired"))
        .otherwise(None)
        .alias("variance_removed"),
    ]


def paired_differences(
    results: Results, reference: str, variant: str, seat: str | None = None, z: float = Z95,
    keys: list[str] | None = None,
) -> pl.DataFrame:
    """Per cell (setup x a strategy per seat) and overall (every key ``"all"``):
    ``games`` paired, both win rates of ``seat`` (default seat 0; a seat name or a
    column naming a seat per game, see :func:`won`), ``diff`` (variant - reference), the
    paired interval (``paired_lo``, ``paired_hi``), the unpaired one for comparison
    and ``variance_removed`` by the pairing.

    The overall row is stratified by cell: the difference is the games-weighted mean
    of the cells' differences, so the cells' different base rates do not inflate
    its variance; that variance is clustered on the game index, because game i of
    every cell shares its chance stream (see the comment below).
    """
    seat = seat or first_seat(results)
    keys = list(keys or cell_keys(results))
    # the join of the two variants' games, once: the cells and the overall row read it
    pairs = paired_games(results, reference, variant, seat, keys).collect().lazy()
    cells = (
        pairs
        .group_by(keys)
        .agg(_moments())
        .filter(pl.col("games") >= 2)
        .with_columns(_statistics())
        .drop("_sq_ref", "_sq_var", "_changed")
        .sort(keys)
        .collect()
    )
    if cells.height == 0:
        raise ValueError(
            f"no game was played (without error) under both variants {reference!r} and {variant!r} "
            "with the same setup, strategies and game index"
        )
    total = cells["games"].sum()
    w = pl.col("games").cast(pl.Float64) / total
    overall = cells.select(
        *(pl.lit(ALL).alias(k) for k in keys),
        pl.col("games").sum(),
        pl.col("wins_ref").sum(),
        pl.col("wins_var").sum(),
        pl.col("wins_both").sum(),
        (w * pl.col("rate_ref")).sum().alias("rate_ref"),
        (w * pl.col("rate_var")).sum().alias("rate_var"),
        (w * pl.col("diff")).sum().alias("diff"),
        pl.col("discordant").sum(),
        (w * w * pl.col("var_paired")).sum().alias("var_paired"),
        (w * w * pl.col("var_unpaired")).sum().alias("var_unpaired"),
    )
    # Game i of every cell shares its chance stream (the same deck order under
    # another setup or strategy pair), so the cells' differences are not
    # independent: the overall variance is clustered on the game index (each
    # game's difference centred on its cell's), which reduces to the
    # stratified one when the cells are unrelated.
    centred = (
        pairs
        .join(cells.lazy().select(*keys, pl.col("diff").alias("_cell_diff")), on=keys, how="inner", nulls_equal=True)
        .group_by("game_index")
        .agg(sorted_sum(pl.col("y_var") - pl.col("y_ref") - pl.col("_cell_diff")).alias("u"))
        .collect()
    )
    clusters = centred.height
    if clusters > 1:
        # fsum: correctly rounded, so the games' arrival order cannot move the last digits
        var_cl = clusters / (clusters - 1) * math.fsum((centred["u"] ** 2).to_list()) / float(total) ** 2
        overall = overall.with_columns(pl.lit(var_cl).alias("var_paired"))
    out = pl.concat([cells, overall], how="vertical_relaxed").with_columns(_intervals(z))
    return out.with_columns(
        pl.lit(reference).alias("reference"), pl.lit(variant).alias("variant"), pl.lit(seat).alias("seat")
    )
