"""The result-table schema (docs/architecture.md): one definition shared by
the runner that writes the shards and the analysis that reads them.

Every game's table starts with the CORE columns (run, variant, the game's
setup column, one ``<seat>_strategy`` per seat name, game index, seed, rules
hash, winner, end reason, rounds), followed by the game's OWN columns
(``Game.record_schema``). Depends on Polars and the game registry only, so
both layers can import it without importing each other."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import polars as pl

from rnsim.games import DEFAULT_GAME, get_game


def _game(game: Any) -> Any:
    return get_game(game) if isinstance(game, str) else game


def seat_columns(game: Any) -> list[str]:
    """``<seat>_strategy`` for every seat name the game can have."""
    return [f"{s}_strategy" for s in _game(game).seats(None)]


def _game_key(g: Any) -> dict[str, pl.DataType]:
    """The columns that name one game of a run: its cell and its index and seed
    (the first columns of the result table and of the error table alike)."""
    s: dict[str, pl.DataType] = {"run_id": pl.String(), "variant": pl.String(), g.setup_column: pl.String()}
    for c in seat_columns(g):
        s[c] = pl.String()
    s.update({"game_index": pl.Int64(), "seed": pl.Int64()})
    return s


def core_schema(game: Any = DEFAULT_GAME) -> dict[str, pl.DataType]:
    s = _game_key(_game(game))
    s.update({
        "rules_hash": pl.String(),
        "winner": pl.String(),
        "end_reason": pl.String(),
        "rounds": pl.Int16(),
    })
    return s


def result_schema(game: Any = DEFAULT_GAME, rules: Any | Sequence[Any] = ()) -> dict[str, pl.DataType]:
    """Columns and dtypes of a game's result table: the core columns, then the
    game's own for the given rule set(s) (with none, its default rules)."""
    g = _game(game)
    many: list[Any] = list(rules) if isinstance(rules, list | tuple) else [rules]
    if not many:
        many = [g.rules()]
    own = g.record_schema(many if len(many) > 1 else many[0])
    core = core_schema(g)
    clash = [k for k in own if k in core]
    if clash:
        raise ValueError(f"game {g.name!r} declares core column(s) {clash} among its own")
    return {**core, **own}


def error_schema(game: Any = DEFAULT_GAME) -> dict[str, pl.DataType]:
    """The error side table (errors/*.parquet)."""
    s = _game_key(_game(game))
    s.update({
        "seat": pl.String(),
        "strategy": pl.String(),
        "decision": pl.String(),
        "message": pl.String(),
        "traceback": pl.String(),
    })
    return s


def own_columns(schema: Iterable[str], game: Any = DEFAULT_GAME) -> list[str]:
    """The game's own columns of a result table (everything after the core)."""
    core = core_schema(game)
    return [c for c in schema if c not in core]
