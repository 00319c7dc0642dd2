"""Synthetic Red Notice result tables, written exactly to the result-table
contract (core columns, then Red Notice's own: identities as lists, upgrades,
cash by round), for tests (exact, hand-listed games with known counts) and for
the report benchmark (a million vectorised games in seconds). Write one as a
run directory with :func:`rnsim.analysis.synthetic.write_run`.

Nothing here plays the game: the numbers are made up, only their shape is real.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import polars as pl

from rnsim.analysis.synthetic import write_run

__all__ = ["CLASSIC_IDENTITIES", "CLASSIC_UPGRADES", "random_results", "schema_for", "table_from_games",
           "write_run"]

CLASSIC_IDENTITIES = ("lawyer", "journalist", "secret_agent", "doctor", "businesswoman", "pilot")
CLASSIC_UPGRADES = ("precise_radars", "permanent_units", "private_jet", "frozen_accounts", "bank_alert",
                    "wiretap", "satellite_sweep", "roadblocks", "rapid_response", "informant")

_STAT_COLUMNS = ("checks_cashed_angela", "checks_cashed_jessah", "radar_triggers", "radars_placed",
                 "barriers_placed", "barriers_moved", "security_spent", "inspections")

#: the core columns (docs/architecture.md), Red Notice's setup and seats filled in
CORE_SCHEMA: dict[str, pl.DataType] = {
    "run_id": pl.String(), "variant": pl.String(), "identity_pair": pl.String(),
    "angela_strategy": pl.String(), "jessah_strategy": pl.String(), "game_index": pl.Int64(),
    "seed": pl.Int64(), "rules_hash": pl.String(), "winner": pl.String(), "end_reason": pl.String(),
    "rounds": pl.Int16(),
}


def schema_for(upgrades: Sequence[str] = CLASSIC_UPGRADES) -> dict[str, pl.DataType]:
    """The full result-table schema for a component set's upgrade ids, in the
    column order the runner writes (core columns, then Red Notice's own)."""
    s: dict[str, pl.DataType] = dict(CORE_SCHEMA)
    s.update({"angela_cashed": pl.Int64(), "jessah_cashed": pl.Int64(), "captures": pl.Int8()})
    for c in _STAT_COLUMNS:
        s[c] = pl.Int16()
    s["identities"] = pl.List(pl.String())
    s["identities_burnt"] = pl.List(pl.String())
    for u in upgrades:
        s[f"upgrade_{u}"] = pl.Boolean()
        s[f"upgrade_{u}_round"] = pl.Int16()
    s["angela_cash_by_round"] = pl.List(pl.Int32())
    s["jessah_cash_by_round"] = pl.List(pl.Int32())
    s["captures_by_round"] = pl.List(pl.Int8())
    return s


def table_from_games(games: Iterable[Mapping[str, Any]], upgrades: Sequence[str] = CLASSIC_UPGRADES,
                     run_id: str = "synthetic") -> pl.DataFrame:
    """A result table from hand-listed games; each game gives what matters to
    the test and the rest is filled in consistently.

    Keys: ``pair`` (Angela's identity ids, component order: two, or more), ``winner``
    (``"angela"``/``"jessah"``/None), ``end_reason`` (default: ``million`` for
    Angela, ``arrest`` for Jessah, ``timeout`` otherwise; ``"error"`` makes an
    error row), ``rounds``, ``upgrades`` ({id: round gained}), ``burnt`` (ids
    in order), ``variant``, ``angela_strategy``, ``jessah_strategy``,
    ``angela_cash_by_round``, ``jessah_cash_by_round``, ``captures_by_round``,
    ``angela_cashed``, ``jessah_cashed``, ``captures``, ``game_index``.
    """
    rows: list[dict[str, Any]] = []
    for i, g in enumerate(games):
        winner = g.get("winner")
        reason = g.get("end_reason") or {"angela": "million", "jessah": "arrest", None: "timeout"}[winner]
        error = reason == "error"
        rounds = None if error else int(g.get("rounds", 10))
        pair = tuple(g.get("pair", ("journalist", "pilot")))
        gained: Mapping[str, int] = g.get("upgrades", {})
        unknown = set(gained) - set(upgrades)
        if unknown:
            raise ValueError(f"game {i}: upgrade(s) {sorted(unknown)} not in the component set {list(upgrades)}")
        burnt = list(g.get("burnt", ()))
        a_cash = g.get("angela_cash_by_round")
        j_cash = g.get("jessah_cash_by_round")
        caps = g.get("captures_by_round")
        if rounds is not None:
            a_final = int(g.get("angela_cashed", 1_000_000 if winner == "angela" else 400_000))
            j_final = int(g.get("jessah_cashed", 200_000))
            c_final = int(g.get("captures", len(burnt) + (1 if winner == "jessah" else 0)))
            a_cash = a_cash if a_cash is not None else [a_final * r // rounds for r in range(1, rounds + 1)]
            j_cash = j_cash if j_cash is not None else [j_final * r // rounds for r in range(1, rounds + 1)]
            caps = caps if caps is not None else [c_final * r // rounds for r in range(1, rounds + 1)]
        row: dict[str, Any] = {
            "run_id": run_id,
            "variant": g.get("variant", "base"),
            "identity_pair": "+".join(pair),
            "angela_strategy": g.get("angela_strategy", "random"),
            "jessah_strategy": g.get("jessah_strategy", "random"),
            "game_index": int(g.get("game_index", i)),
            "seed": 1000 + i,
            "rules_hash": "0" * 16,
            "winner": None if error else winner,
            "end_reason": reason,
            "rounds": rounds,
            "angela_cashed": None if error else (a_cash[-1] if a_cash else 0),
            "jessah_cashed": None if error else (j_cash[-1] if j_cash else 0),
            "captures": None if error else (caps[-1] if caps else 0),
            "identities": list(pair),
            "identities_burnt": None if error else burnt,
            "angela_cash_by_round": a_cash,
            "jessah_cash_by_round": j_cash,
            "captures_by_round": caps,
        }
        for c in _STAT_COLUMNS:
            row[c] = None if error else 0
        for u in upgrades:
            row[f"upgrade_{u}"] = None if error else (u in gained)
            row[f"upgrade_{u}_round"] = gained.get(u)
        rows.append(row)
        if error:  # a game's own columns are null in an error row
            row["identities"] = None
    return pl.DataFrame(rows, schema=schema_for(upgrades))


def random_results(n_games: int, seed: int = 0, *, variants: Sequence[str] = ("base",),
                   strategy_pairs: Sequence[tuple[str, str]] = (("random", "random"),),
                   identities: Sequence[str] = CLASSIC_IDENTITIES, upgrades: Sequence[str] = CLASSIC_UPGRADES,
                   timeout_share: float = 0.05, error_share: float = 0.001, max_rounds: int = 60,
                   run_id: str = "synthetic", per_game: int = 2) -> pl.DataFrame:
    """``n_games`` plausible-looking result rows, built with numpy (no Python
    loop over rows). Cells (variant x strategy pair x identity set of
    ``per_game`` identities) are dealt round-robin like a schedule; the
    forger's chance depends on the set and falls with each upgrade Jessah
    gains, so reports have something to find."""
    rng = np.random.default_rng(seed)
    pairs = list(combinations(identities, per_game))
    n_cells = len(variants) * len(strategy_pairs) * len(pairs)
    i = np.arange(n_games)
    cell = i % n_cells
    pair_i = cell % len(pairs)
    strat_i = (cell // len(pairs)) % len(strategy_pairs)
    var_i = cell // (len(pairs) * len(strategy_pairs))

    # the forger's base chance: pair-dependent, a little better in later variants
    pair_base = 0.40 + 0.15 * np.sin(np.arange(len(pairs)) * 1.3)
    p = pair_base[pair_i] + 0.03 * var_i - 0.04 * strat_i
    gained = rng.random((len(upgrades), n_games)) < np.linspace(0.15, 0.6, len(upgrades))[:, None]
    effect = np.linspace(-0.08, 0.02, len(upgrades))  # what each upgrade does to the forger's chance
    p = np.clip(p + (effect[:, None] * gained).sum(axis=0), 0.02, 0.98)

    u = rng.random(n_games)
    is_error = u < error_share
    is_timeout = ~is_error & (u < error_share + timeout_share)
    decided = ~is_error & ~is_timeout
    angela_wins = decided & (rng.random(n_games) < p)
    jessah_wins = decided & ~angela_wins

    rounds = np.where(is_timeout, max_rounds, rng.integers(4, max_rounds, n_games))
    up_round = np.minimum(rng.integers(1, max_rounds, (len(upgrades), n_games)), rounds)
    a_final = np.where(angela_wins, 1_000_000, rng.integers(0, 10, n_games) * 100_000)
    j_final = rng.integers(0, 6, n_games) * 100_000
    captures = np.where(jessah_wins, 3, rng.integers(0, 3, n_games))
    first = rng.random(n_games) < 0.5
    labels = np.array(["+".join(p) for p in pairs])[pair_i]
    ok = ~is_error
    sp = np.array(strategy_pairs)

    # plain numpy columns first, nulls applied afterwards by mask: polars
    # cannot build typed columns from object arrays holding None
    cols: dict[str, tuple[Any, Any]] = {  # name -> (values, null mask or None)
        "run_id": (np.full(n_games, run_id), None),
        "variant": (np.array(variants)[var_i], None),
        "identity_pair": (labels, None),
        "angela_strategy": (sp[strat_i, 0], None),
        "jessah_strategy": (sp[strat_i, 1], None),
        "game_index": (i // n_cells, None),
        "seed": (rng.integers(0, 2**62, n_games), None),
        "rules_hash": (np.array([f"{v:016x}" for v in range(len(variants))])[var_i], None),
        "winner": (np.where(angela_wins, "angela", "jessah"), ~decided),
        "end_reason": (np.where(is_error, "error", np.where(is_timeout, "timeout",
                                                            np.where(angela_wins, "million", "arrest"))), None),
        "rounds": (rounds, is_error),
        "angela_cashed": (a_final, is_error),
        "jessah_cashed": (j_final, is_error),
        "captures": (captures, is_error),
        "_first": (first, None),
    }
    for c in _STAT_COLUMNS:
        cols[c] = (rng.integers(0, 30, n_games), is_error)
    for k, up in enumerate(upgrades):
        cols[f"upgrade_{up}"] = (gained[k], is_error)
        cols[f"upgrade_{up}_round"] = (up_round[k], ~(ok & gained[k]))
    schema = schema_for(upgrades)
    scalar_schema = {k: v for k, v in schema.items() if not isinstance(v, pl.List)} | {"_first": pl.Boolean()}
    df = pl.DataFrame({k: pl.Series(k, cols[k][0]).cast(scalar_schema[k]) for k in scalar_schema})
    masks = pl.DataFrame({f"_null_{k}": m for k, (_, m) in cols.items() if m is not None})
    df = pl.concat([df, masks], how="horizontal").with_columns(
        pl.when(pl.col(f"_null_{k}")).then(None).otherwise(pl.col(k)).alias(k)
        for k, (_, m) in cols.items() if m is not None
    ).select(list(scalar_schema))
    # cumulative-by-round lists grow linearly to the final value; built with
    # list arithmetic so a million games take seconds, not minutes
    steps = pl.int_ranges(1, pl.col("rounds").cast(pl.Int64) + 1)
    r64 = pl.col("rounds").cast(pl.Int64)
    ids = pl.col("identity_pair").str.split("+")
    df = df.with_columns(
        identities=pl.when(pl.col("end_reason") != "error").then(ids),
        # burnt in dealt order or reversed, one per capture (a winning arrest is no burn)
        identities_burnt=pl.when(pl.col("end_reason") != "error").then(
            pl.when(pl.col("_first")).then(ids).otherwise(ids.list.reverse())
            .list.head(pl.min_horizontal(pl.col("captures").cast(pl.Int64), per_game))),
        angela_cash_by_round=(steps * pl.col("angela_cashed") // r64 // 100_000 * 100_000).cast(pl.List(pl.Int32)),
        jessah_cash_by_round=(steps * pl.col("jessah_cashed") // r64 // 100_000 * 100_000).cast(pl.List(pl.Int32)),
        captures_by_round=(steps * pl.col("captures").cast(pl.Int64) // r64).cast(pl.List(pl.Int8)),
    )
    return df.select(list(schema))
