"""The band's table from a run directory: each lineup's win rate, and its
paired difference from the lineup it is measured against.

A level lineup is measured against the main pair; a probe against its base
(the main pair when its base is the main player of its seat). The watched
outcome is the verdict's: seat 0's win for a game of fixed seats (Red
Notice's Angela), the start player's for a game whose seats rotate and whose
report names the column of its start player (``BAND_WATCH`` in the game's
report module; FBI's first handcuffs). A game of fixed seats is answered per
variant (its setups pooled, as the paired overall row of
:mod:`rnsim.analysis.paired`); a game whose seats rotate per variant and
setup (FBI's player counts, each with its own even share).

A probe's gain is in its own seat's favour: in a game of fixed seats the
paired shift of seat 0's rate, negated for a probe in another seat; in a
game whose seats rotate (FBI) the paired difference of its seat's share of
the games won (``share_<seat>``: a shared win counts 1/k, F13, as the game's
report counts a player's wins), probe minus the lineup it is measured
against, game by game, with a normal 95% interval over the games.

The rows are what the lineup played, main cells and band cells alike: the
same games of every cell, so every number here is an association with the
players named in its row, on this run's rules and component set.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from rnsim.analysis.paired import ALL, outcome, paired_differences
from rnsim.analysis.stats import Z95, wilson
from rnsim.band.plan import MAIN, Lineup
from rnsim.results.integrity import RunCheck

#: the band table's name in the report's tables/
TABLE = "band"


def lineups_of(manifest: dict[str, Any]) -> list[Lineup]:
    """The lineups a run's manifest lists (none without a band)."""
    band = manifest.get("band")
    if not isinstance(band, dict):
        return []
    return [Lineup.from_dict(d) for d in band.get("lineups", [])]


def _rows_of(rows: pl.DataFrame, ln: Lineup, seats: tuple[str, ...]) -> pl.DataFrame:
    """The games ``ln`` played: each seat its label (a seat absent from a
    game, FBI's fourth at three players, has none)."""
    return rows.filter(*((pl.col(f"{s}_strategy") == lab) | pl.col(f"{s}_strategy").is_null()
                         for s, lab in zip(seats, ln.labels, strict=True)))


def _paired(ref: pl.DataFrame, var: pl.DataFrame, watched: str, setup: str
            ) -> tuple[float, float, float, float] | None:
    """(difference, low, high, the reference's rate on the paired games) of
    the watched win rate, var minus ref, paired on the game index per setup;
    None when no setup has two paired games."""
    both = pl.concat([ref.with_columns(pl.lit("ref").alias("variant")), var.with_columns(pl.lit("var").alias("variant"))],
                     how="vertical_relaxed")
    try:
        d = paired_differences(both, "ref", "var", seat=watched, keys=[setup])
    except ValueError:
        return None
    r = d.filter(pl.col(setup) == ALL).row(0, named=True)
    return float(r["diff"]), float(r["paired_lo"]), float(r["paired_hi"]), float(r["rate_ref"])


def band_table(check: RunCheck, manifest: dict[str, Any], watched: str | None = None,
               partial: bool = False) -> pl.DataFrame | None:
    """One row per variant (and setup, in a game whose seats rotate) and lineup:
    games, ``wins`` (an Int64 count of wins alone, or where a win can be
    shared a Float64 sum of shares, :func:`rnsim.analysis.paired.outcome`)
    and ``rate`` of the watched seat with its 95% Wilson interval, ``even`` (its share in an even game), and ``diff``/``diff_lo``/
    ``diff_hi``, the paired difference from the lineup in ``reference``
    (null for the main pair), and ``ref_rate``, that lineup's rate on the
    paired games. A probe's ``gain`` is the difference in its
    own seat's favour. None when the run has no band."""
    found = lineups_of(manifest)
    if len(found) < 2:
        return None
    main_rows = check.scan(partial)
    names = main_rows.collect_schema().names()
    seats = tuple(c[: -len("_strategy")] for c in names if c.endswith("_strategy"))
    setup = names[names.index("variant") + 1]
    watch = watched or seats[0]
    per_setup = watch in names  # a start player per game: its even share depends on the setup
    shares = [f"share_{s}" for s in seats if per_setup and f"share_{s}" in names]
    cols = ["variant", setup, *(f"{s}_strategy" for s in seats), "game_index", "winner", "end_reason",
            *([watch] if watch in names else []), *shares]
    rows = pl.concat([main_rows.select(cols), check.scan(partial, band=True).select(cols)]).collect()
    # the verdict's outcome: a win alone, or the start player's share of a shared win (FBI, F13)
    rows = rows.with_columns(pl.col(setup).cast(pl.String), outcome(watch, cols).alias("_y"))
    groups = [["variant", setup]] if per_setup else [["variant"]]
    by_name = {ln.name: ln for ln in found}
    out: list[dict[str, Any]] = []
    for key, part in rows.group_by(groups[0], maintain_order=True):
        played = {ln.name: _rows_of(part, ln, seats).filter(pl.col("end_reason") != "error") for ln in found}
        n_seats = len(seats) if not per_setup else sum(1 for s in seats if part[f"{s}_strategy"][0] is not None)
        for ln in found:
            out.append(_row(ln, key, played, by_name, watch, setup, n_seats, per_setup))
    return pl.DataFrame(out, infer_schema_length=None).with_columns(pl.col(pl.Null).cast(pl.Float64))


def _row(ln: Lineup, key: tuple[Any, ...], played: dict[str, pl.DataFrame], by_name: dict[str, Lineup], watch: str,
         setup: str, n_seats: int, per_setup: bool) -> dict[str, Any]:
    g = played[ln.name]
    n = g.height
    k: float = float(g["_y"].sum()) if g["_y"].dtype == pl.Float64 else int(g["_y"].sum())
    lo, hi = wilson(k, n) if n else (None, None)
    reference = "" if ln.kind == "main" else ln.reference or MAIN
    diff: tuple[float, float, float, float] | None = None
    if reference and n and played[reference].height:
        diff = (_paired_column(played[reference], g, "_y") if g["_y"].dtype == pl.Float64
                else _paired(played[reference], g, watch, setup))
    gain = None
    if per_setup and ln.kind == "probe" and n and played[reference].height:
        got = _paired_column(played[reference], g, f"share_{ln.seat}")
        gain = got[:3] if got else None
    elif diff is not None and ln.kind == "probe":
        sign = -1.0 if _seat_index(ln, by_name) > 0 else 1.0  # the watched seat is seat 0
        a, b, c = (sign * x for x in diff[:3])
        gain = (a, min(b, c), max(b, c))
    return {
        "variant": key[0], "setup": str(key[1]) if per_setup else "all", "lineup": ln.name, "kind": ln.kind,
        "players": " vs ".join(ln.labels), "level": ln.level, "seat": ln.seat, "reference": reference,
        "base": ln.base, "games": n, "wins": k, "rate": k / n if n else None, "rate_lo": lo, "rate_hi": hi,
        "even": 1.0 / n_seats,
        "ref_rate": diff[3] if diff else None, "diff": diff[0] if diff else None, "diff_lo": diff[1] if diff else None, "diff_hi": diff[2] if diff else None,
        "gain": gain[0] if gain else None, "gain_lo": gain[1] if gain else None, "gain_hi": gain[2] if gain else None,
    }


def _paired_column(ref: pl.DataFrame, var: pl.DataFrame, column: str) -> tuple[float, float, float, float] | None:
    """(mean, low, high, ref's mean) of a share of the win (a shared win
    counts 1/k, F13), var minus ref, paired on the game index (a normal 95%
    interval over the games); None without two paired games or without the
    column."""
    if column not in var.columns:
        return None
    both = ref.select("game_index", pl.col(column).cast(pl.Float64).alias("a")).join(
        var.select("game_index", pl.col(column).cast(pl.Float64).alias("b")), on="game_index").drop_nulls()
    if both.height < 2:
        return None
    a, b = both["a"].to_numpy(), both["b"].to_numpy()
    d = b - a
    mean = float(d.mean())
    half = Z95 * float(d.std(ddof=1)) / both.height ** 0.5
    return mean, mean - half, mean + half, float(a.mean())


def _seat_index(ln: Lineup, by_name: dict[str, Lineup]) -> int:
    """The index of the seat a probe takes over (where its labels differ from the main pair's)."""
    main = by_name[MAIN].labels
    return next((i for i, (a, b) in enumerate(zip(ln.labels, main, strict=True)) if a != b), 0)
