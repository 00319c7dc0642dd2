"""`rnsim ladder` for a game whose seats are alike and rotate
(:class:`rnsim.cli.seats.Table`; FBI): the strength ladder of equal seats.

For every two levels A and B, A sits alone among players of level B, in every
seat in turn (one cell per rotation, each on the game indices
``0..games-1``: the same deals), so seat position cancels; its win rate is
compared with an even share, 1/players. The ladder holds when, for every two
levels, the stronger alone wins more than an even share and the weaker alone
less, each with its whole 95% interval.

A shared win counts 1/k of a win for each of the k tied players (F13), as
FBI's report counts a strategy's and a position's wins; a rate's interval is
clustered by game index (one deal is replayed in every rotation:
:func:`rnsim.analysis.stats.clustered_rate_columns`, as the report's).

At each level, every seat of that level gives the start player's advantage:
the start player's (the game's ``balance_seat`` column, FBI's first
handcuffs) win rate against the even share.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import click
import polars as pl

from rnsim.cli.seats import Table
from rnsim.errors import ConfigError


@dataclass
class Lineup:
    """``alone`` in one seat (rotated over every seat), ``others`` in the rest;
    ``alone == others``: every seat the same level."""

    alone: str
    others: str
    games: int = 0  # seat-games of the lone level (games x rotations)
    wins: float = 0.0
    rate: float = 0.0
    lo: float = 0.0
    hi: float = 0.0
    errors: int = 0

    def record(self) -> dict[str, Any]:
        return {"alone": self.alone, "others": self.others, "seat_games": self.games, "wins": self.wins,
                "rate": self.rate, "lo": self.lo, "hi": self.hi, "errors": self.errors}


def _spec(level: str, params: dict[str, Any]) -> dict[str, Any]:
    from rnsim.cli.seats import parse_level

    ref, p = parse_level(level)
    return {"ref": ref, "params": {**p, **params}, "label": level}


def _config(t: Table, alone: str, others: str, games: int, seed: int, chunk: int, workers: int,
            backend: str | None, params: dict[str, dict[str, Any]]) -> Any:
    from rnsim.config import config_from_mapping

    seats = t.game.seats(None)
    strategies = {s: _spec(alone if k == 0 else others, params.get(alone if k == 0 else others, {}))
                  for k, s in enumerate(seats)}
    run = {"game": t.game.name, "games": games, "seed": seed, "chunk_size": chunk, t.game.setup_key: t.setup}
    return config_from_mapping({"run": run, "strategies": strategies}, src="ladder", workers=max(1, workers),
                               backend=backend or ("process" if workers > 1 else "serial"))


def _observations(cfg: Any, rows: pl.DataFrame, alone: str, watched: str) -> pl.DataFrame:
    """Per game: the lone level's share of the win (its seat in that rotation),
    or, every seat the same level, the start player's."""
    seat_of = {}
    for c in cfg.cells():
        labels = cfg.cell_labels(c)
        seat_of[c.id] = next((s for s in cfg.seats if labels.get(f"{s}_strategy") == alone), cfg.seats[0])
    played = rows.filter(pl.col("end_reason") != "error")
    seats = sorted(set(seat_of.values()))
    if len(seats) == 1 and len(cfg.cells()) == 1:  # every seat the same level: watch the start player
        share = pl.lit(0.0)
        for s in cfg.seats:
            if f"share_{s}" in played.columns:
                share = pl.when(pl.col(watched) == s).then(pl.col(f"share_{s}").cast(pl.Float64)).otherwise(share)
    else:
        share = pl.lit(0.0)
        for cid, s in seat_of.items():
            share = pl.when(pl.col("cell") == cid).then(pl.col(f"share_{s}").cast(pl.Float64)).otherwise(share)
    return played.select("game_index", share.fill_null(0.0).alias("share"))


def _rate(obs: pl.DataFrame) -> tuple[int, float, float, float, float]:
    from rnsim.analysis.stats import clustered_rate_columns

    if obs.height == 0:
        return 0, 0.0, float("nan"), float("nan"), float("nan")
    q = clustered_rate_columns(["k"], ["game_index"], pl.col("share"))
    r = q(obs.with_columns(pl.lit(0).alias("k")).lazy()).collect().row(0, named=True)
    return int(r["observations"]), float(r["wins"]), float(r["rate"]), float(r["rate_lo"]), float(r["rate_hi"])


def run_table_ladder(t: Table, levels: tuple[str, ...], games: int = 1000, seed: int = 1, workers: int = 1,
                     chunk: int = 250, params: dict[str, dict[str, Any]] | None = None,
                     progress: bool = False, backend: str | None = None) -> dict[tuple[str, str], Lineup]:
    """Play every level alone among every other level (rotated over the
    seats), and every level at every seat; keyed by (alone, others)."""
    from tqdm import tqdm

    from rnsim.tournament.batches import play_ranges, pool_for

    if games < 2:
        raise ConfigError(f"ladder: games must be at least 2, got {games}")
    params = params or {}
    pairs = [(a, b) for a in levels for b in levels if a != b] + [(a, a) for a in levels]
    n = len(t.seats)
    total = sum(games * (n if a != b else 1) for a, b in pairs)
    extra = [t.watched, *(f"share_{s}" for s in t.seats)]
    out: dict[tuple[str, str], Lineup] = {}
    bar = tqdm(total=total, unit="game", disable=not progress, smoothing=0.05)
    for a, b in pairs:
        cfg = _config(t, a, b, games, seed, chunk, workers, backend, params)
        with pool_for(cfg, "ladder") as pool:
            rows = play_ranges(cfg, [(c.id, 0, games) for c in cfg.cells()], pool=pool, extra=extra)
        bar.update(rows.height)
        obs = _observations(cfg, rows, a, t.watched)
        m, wins, rate, lo, hi = _rate(obs)
        out[(a, b)] = Lineup(a, b, m, wins, rate, lo, hi, int((rows["end_reason"] == "error").sum()))
    bar.close()
    errors = sum(x.errors for x in out.values())
    if errors:
        click.echo(f"warning: {errors} game(s) ended in a strategy or engine error (run the lineup with "
                   "`rnsim run` to see the tracebacks)", err=True)
    return out


def table_holds(cells: dict[tuple[str, str], Lineup], levels: tuple[str, ...], players: int) -> list[str]:
    """The failures of the ladder (empty when it holds): for every two levels,
    the stronger alone above an even share and the weaker alone below it."""
    even = 1.0 / players
    bad = []
    for i, low in enumerate(levels):
        for high in levels[i + 1:]:
            up, down = cells[(high, low)], cells[(low, high)]
            if not up.lo > even:
                bad.append(f"{high} alone among {low} players does not win more than an even share "
                           f"({100 * up.rate:.1f}% [{100 * up.lo:.1f}, {100 * up.hi:.1f}], even {100 * even:.1f}%)")
            if not down.hi < even:
                bad.append(f"{low} alone among {high} players does not win less than an even share "
                           f"({100 * down.rate:.1f}% [{100 * down.lo:.1f}, {100 * down.hi:.1f}], even {100 * even:.1f}%)")
    return bad


def format_table_ladder(t: Table, cells: dict[tuple[str, str], Lineup], levels: tuple[str, ...], games: int) -> str:
    n = len(t.seats)
    even = 1.0 / n
    w = max(12, *(len(x) for x in levels)) + 2
    col = 24
    lines = [f"{t.label}, {t.setup_label} {t.game.setup_key}: one player of a level (row) alone among players of "
             f"another (column), in every seat in turn;",
             f"its share of the games won (a shared win counts 1/k, F13), 95% interval clustered by deal; "
             f"an even share is {100 * even:.1f}%.",
             "alone \\ among".ljust(w) + "".join(b.ljust(col) for b in levels)]
    for a in levels:
        row = a.ljust(w)
        for b in levels:
            if a == b:
                row += "-".ljust(col)
                continue
            c = cells[(a, b)]
            row += f"{100 * c.rate:5.1f}% [{100 * c.lo:4.1f}, {100 * c.hi:5.1f}]".ljust(col)
        lines.append(row)
    lines += ["", f"The {t.watched_name}'s advantage (result column {t.watched}), every seat the same level: "
                  f"the {t.watched_name}'s share of the games won against an even {100 * even:.1f}%:"]
    for a in levels:
        c = cells[(a, a)]
        lines.append(f"  {a.ljust(w)}{100 * c.rate:5.1f}% [{100 * c.lo:4.1f}, {100 * c.hi:5.1f}]  "
                     f"{100 * (c.rate - even):+5.1f} points [{100 * (c.lo - even):+.1f}, {100 * (c.hi - even):+.1f}] "
                     f"({c.games} games)")
    errors = sum(c.errors for c in cells.values())
    lines += ["", f"games per lineup and rotation: {games} (every rotation on the same deals); errors: {errors}"]
    return "\n".join(lines)


def table_json(t: Table, cells: dict[tuple[str, str], Lineup], levels: tuple[str, ...], games: int,
               seed: int) -> dict[str, Any]:
    n = len(t.seats)
    return {"game": t.game.name, t.game.setup_key: t.setup, "seed": seed, "games": games, "levels": list(levels),
            "even": 1.0 / n, "wins": "share: a shared win counts 1/k for each of the k tied players (F13)",
            "cells": [c.record() for (a, b), c in cells.items() if a != b],
            "start_player": [{**cells[(a, a)].record(), "level": a} for a in levels]}


def ladder_table(t: Table, levels: tuple[str, ...], games: int, seed: int, workers: int) -> tuple[
        dict[tuple[str, str], Lineup], list[str]]:
    """Play and print the ladder; returns the cells and its failures."""
    t0 = time.perf_counter()
    cells = run_table_ladder(t, levels, games=games, seed=seed, workers=workers, progress=True)
    wall = time.perf_counter() - t0
    click.echo(format_table_ladder(t, cells, levels, games))
    n = len(t.seats)
    total = sum(games * (n if a != b else 1) for a, b in cells)
    click.echo(f"{total} games in {wall:.0f} s with {workers} worker(s); master seed {seed}")
    bad = table_holds(cells, levels, n)
    if bad:
        click.echo("ladder ordering FAILS:\n  " + "\n  ".join(bad))
    else:
        click.echo("ladder ordering holds: for every two levels the stronger alone wins more than an even share "
                   "and the weaker alone less (95% intervals)")
    return cells, bad
