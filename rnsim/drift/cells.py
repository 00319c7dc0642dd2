"""A drift check's cells and the counts it tests: the labels a result table
gives a cell, per-cell win counts of every seat, and the seat the gate watches
(the game's ``balance_seat``). Games are played by the tournament
(:mod:`rnsim.tournament.batches`): the same chunks, seeds and backends as a run."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from rnsim.analysis.paired import won
from rnsim.config import Cell, RunConfig
from rnsim.tournament.backends import Pool
from rnsim.tournament.batches import play_ranges


def cell_labels(cfg: RunConfig, cell: Cell) -> dict[str, str | None]:
    """The cell as the result table names it: variant, setup, ``<seat>_strategy``."""
    return cfg.cell_labels(cell)


def cell_keys(cfg: RunConfig) -> list[str]:
    """The result-table columns that, with the variant, name a cell: the game's
    setup column and ``<seat>_strategy`` per seat."""
    return [cfg.game_obj.setup_column, *(f"{s}_strategy" for s in cfg.seats)]


def cell_name(labels: Mapping[str, str | None]) -> str:
    """"variant · setup · strategy vs strategy ..." from a cell's labels (in table order)."""
    vals = list(labels.values())
    return f"{vals[0]} · {vals[1]} · {' vs '.join(str(v) for v in vals[2:] if v is not None)}"


def count_columns(seats: Sequence[str]) -> tuple[str, ...]:
    """Per-cell counts: games played out, each seat's wins, no-winner games, errors."""
    return ("games", *(f"{s}_wins" for s in seats), "timeouts", "errors")


def balance_seat(cfg: RunConfig) -> str:
    """The seat whose win rate the gate and the comparison watch (the game's
    ``balance_seat``, else seat 0): a seat name, or the name of a result
    column holding a seat per game (see :func:`watched_column`)."""
    watched = getattr(cfg.game_obj, "balance_seat", 0)
    return watched if isinstance(watched, str) else cfg.seats[int(watched)]


def watched_column(cfg: RunConfig) -> str | None:
    """The result column naming the watched seat game by game (FBI: the start
    player, ``first_handcuffs``), or None when a fixed seat is watched."""
    seat = balance_seat(cfg)
    return None if seat in cfg.seats else seat


def counted_seats(cfg: RunConfig) -> tuple[str, ...]:
    """Whose wins a check counts: every seat, and the watched one when it is a column."""
    col = watched_column(cfg)
    return (*cfg.seats, col) if col else cfg.seats


def seat_title(cfg: RunConfig, seat: str) -> str:
    """How the reports name a seat: its role and name ("forger (Angela)") when the game gives roles."""
    role = getattr(cfg.game_obj, "seat_roles", {}).get(seat)
    if role and seat not in cfg.seats:
        return str(role)  # a seat named game by game, e.g. "the start player"
    return f"{role} ({seat.capitalize()})" if role else seat.capitalize()


def seat_role(cfg: RunConfig, seat: str) -> str:
    return str(getattr(cfg.game_obj, "seat_roles", {}).get(seat) or seat.capitalize())

def play_games(
    cfg: RunConfig, ranges: Sequence[tuple[int, int, int]], *, run_id: str = "drift-check",
    pool: Pool | None = None,
) -> pl.DataFrame:
    """Play game indices ``[start, stop)`` of each ``(cell id, start, stop)``: one row
    per game (``cell``, ``game_index``, ``winner``, ``end_reason``, ``rounds``).
    Without a ``pool`` the config's backend plays them (opened for these games)."""
    col = watched_column(cfg)
    return play_ranges(cfg, ranges, pool=pool, run_id=run_id, extra=(col,) if col else ())


def counts_by_cell(games: pl.DataFrame, cells: Sequence[int], seats: Sequence[str]) -> dict[int, dict[str, int]]:
    """Per cell id: games played out (error rows apart), wins of each seat,
    games with no winner, errors."""
    cols = count_columns(seats)
    out: dict[int, dict[str, int]] = {c: dict.fromkeys(cols, 0) for c in cells}
    played = pl.col("end_reason") != "error"
    counts = games.group_by("cell").agg(
        played.sum().alias("games"),
        *(won(s, games).sum().alias(f"{s}_wins") for s in seats),
        (pl.col("winner").is_null() & played).sum().alias("timeouts"),
        (~played).sum().alias("errors"),
    )
    for row in counts.iter_rows(named=True):
        out[row["cell"]] = {k: int(row[k]) for k in cols}
    return out


def play_counts(
    cfg: RunConfig, ranges: Sequence[tuple[int, int, int]], *, run_id: str = "drift-check",
    pool: Pool | None = None,
) -> dict[int, dict[str, int]]:
    """Play the ranges (see :func:`play_games`) and count per cell id."""
    return counts_by_cell(play_games(cfg, ranges, run_id=run_id, pool=pool), [c for c, _, _ in ranges],
                          counted_seats(cfg))


def seat_outcomes(games: pl.DataFrame, cell: int, seat: str) -> str:
    """A seat's outcome of each game of a cell in game-index order: "1" won,
    "0" did not (lost or no winner), "E" the game failed."""
    rows = games.filter(pl.col("cell") == cell).sort("game_index")
    wins = rows.select(won(seat, rows))[:, 0].to_list()
    return "".join(
        "E" if r == "error" else ("1" if w else "0")
        for w, r in zip(wins, rows["end_reason"].to_list(), strict=True)
    )
