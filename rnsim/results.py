"""The result-table schema (docs/architecture.md): one definition shared by
the runner that writes the shards and the analysis that reads them. Depends
on Polars only, so both layers can import it without importing each other."""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl

#: per-game statistics taken from GameResult.stats
STAT_COLUMNS = ("radar_triggers", "radars_placed", "barriers_placed", "barriers_moved", "security_spent", "inspections")


def result_schema(upgrade_ids: Iterable[str] = ()) -> dict[str, pl.DataType]:
    """Columns and dtypes of the result table. ``upgrade_<id>`` and
    ``upgrade_<id>_round`` come from the component set's upgrades."""
    s: dict[str, pl.DataType] = {
        "run_id": pl.String(),
        "variant": pl.String(),
        "identity_pair": pl.String(),
        "identity_1": pl.String(),
        "identity_2": pl.String(),
        "angela_strategy": pl.String(),
        "jessah_strategy": pl.String(),
        "game_index": pl.Int64(),
        "seed": pl.Int64(),
        "rules_hash": pl.String(),
        "winner": pl.String(),
        "end_reason": pl.String(),
        "rounds": pl.Int16(),
        "angela_cashed": pl.Int64(),
        "jessah_cashed": pl.Int64(),
        "captures": pl.Int8(),
        "checks_cashed_angela": pl.Int16(),
        "checks_cashed_jessah": pl.Int16(),
    }
    for c in STAT_COLUMNS:
        s[c] = pl.Int16()
    s["identity_burnt_1"] = pl.String()
    s["identity_burnt_2"] = pl.String()
    for u in upgrade_ids:
        s[f"upgrade_{u}"] = pl.Boolean()
        s[f"upgrade_{u}_round"] = pl.Int16()
    s["angela_cash_by_round"] = pl.List(pl.Int32())
    s["jessah_cash_by_round"] = pl.List(pl.Int32())
    s["captures_by_round"] = pl.List(pl.Int8())
    return s


#: the error side table (errors/*.parquet)
ERROR_SCHEMA: dict[str, pl.DataType] = {
    "run_id": pl.String(),
    "variant": pl.String(),
    "identity_pair": pl.String(),
    "angela_strategy": pl.String(),
    "jessah_strategy": pl.String(),
    "game_index": pl.Int64(),
    "seed": pl.Int64(),
    "seat": pl.String(),
    "strategy": pl.String(),
    "decision": pl.String(),
    "message": pl.String(),
    "traceback": pl.String(),
}
