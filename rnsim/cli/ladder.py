"""`rnsim ladder`: the strength ladder of the built-in strategies, for a game
of two seats of different roles (:class:`rnsim.cli.seats.Duel`; Red Notice:
the forger Angela, the agent Jessah).

Every level of the first seat plays every level of the second on the same game
indices under one master seed (so every cell sees the same deals: the cells
are comparable), and the win-rate matrices are printed with 95% Wilson
intervals. The ladder holds when, in every column, the first seat's win rate
rises with its level and, in every row, the second seat's win rate rises with
its level, each step with intervals that do not overlap.

A level is a strategy reference with optional params after ``@``
(``search@iterations=2``, ``expert@risk=0.8+greed=0.2``), so one strategy can
stand at several strengths. The seats may have their own levels (the game's
per-seat options, ``--<seat>-levels``): a plugin for one seat is then a row
(or a column) only, ordered against that seat's other levels. Where both
seats have the same levels, the diagonal (equal levels) is the skill curve:
the first seat's win rate as both players get stronger, the balance verdict a
designer reads at each strength.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import polars as pl

from rnsim.analysis.stats import wilson
from rnsim.cli.seats import (
    DEFAULT,
    Duel,
    SeatOptions,
    Table,
    duel_or_default,
    game_for,
    given_seats,
    parse_level,
    seat_title,
)
from rnsim.errors import ConfigError

DEFAULT_LEVELS = ("random", "rule", "expert")


@dataclass
class Cell:
    """One cell: the first seat's level (a row) against the second's (a column)."""

    first: str
    second: str
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)  # by seat
    timeout: int = 0
    error: int = 0
    rounds: int = 0
    seconds: float = 0.0

    def count(self, who: str) -> int:
        """A seat's wins, or the timeouts or errors."""
        return getattr(self, who) if who in ("timeout", "error") else self.wins.get(who, 0)

    def rate(self, who: str) -> tuple[float, float, float]:
        k = self.count(who)
        lo, hi = wilson(k, self.games)
        return k / self.games, lo, hi

    def record(self, duel: Duel) -> dict[str, Any]:
        """The cell as `--json` writes it: the levels by role, the wins by seat."""
        return {duel.roles[0]: self.first, duel.roles[1]: self.second, "games": self.games,
                **{seat: self.wins.get(seat, 0) for seat in duel.seats},
                "timeout": self.timeout, "error": self.error, "rounds": self.rounds, "seconds": self.seconds}


def run_ladder(
    levels: tuple[str, ...] = DEFAULT_LEVELS,
    games: int = 5000,
    seed: int = 1,
    workers: int = 1,
    chunk: int = 250,
    params: dict[str, dict[str, Any]] | None = None,
    progress: bool = False,
    backend: str | None = None,
    second_levels: tuple[str, ...] | None = None,
    duel: Duel | None = None,
) -> dict[tuple[str, str], Cell]:
    """Play the ladder; returns the cells keyed by (first seat's level, second seat's level).

    ``levels`` are the first seat's levels, and the second's too unless
    ``second_levels`` gives them. The ladder is a tournament (a round robin of
    the first seat's levels against the second's, setups drawn as the game
    deals them for its balance measures, ``lever_setups``) of ``duel`` (default:
    the default game's) played through the tournament backends: the same game indices
    ``0..games-1`` in every cell, so the results do not depend on ``workers``,
    ``chunk`` or the backend.
    """
    from rnsim.config import config_from_mapping
    from rnsim.tournament.batches import play_ranges, pool_for

    params = params or {}
    if games < 1:
        raise ConfigError(f"ladder: games must be at least 1, got {games}")
    d = duel_or_default(duel)
    agents = levels if second_levels is None else second_levels

    def specs(lvs: tuple[str, ...]) -> list[dict[str, Any]]:
        out = []
        for lv in lvs:
            ref, p = parse_level(lv)
            out.append({"ref": ref, "params": {**p, **params.get(lv, {})}, "label": lv})
        return out

    run: dict[str, Any] = {"game": d.game.name, "games": games, "seed": seed, "chunk_size": chunk}
    if getattr(d.game, "lever_setups", None) is not None:
        run[d.game.setup_key] = d.game.lever_setups
    raw = {"run": run, "strategies": {d.seats[0]: specs(levels), d.seats[1]: specs(agents)}}
    cfg = config_from_mapping(raw, src="ladder", workers=max(1, workers),
                              backend=backend or ("process" if workers > 1 else "serial"))
    cells = {(f, a): Cell(f, a) for f in levels for a in agents}
    by_id = {c.id: cells[(levels[c.strategies[0]], agents[c.strategies[1]])] for c in cfg.cells()}
    n_cells = len(cells)

    from tqdm import tqdm

    bar = tqdm(total=games * n_cells, unit="game", disable=not progress, smoothing=0.05)
    t0 = time.perf_counter()
    with pool_for(cfg, "ladder") as pool:
        # block by block of game indices, so the bar moves and every cell advances together
        for start in range(0, games, chunk):
            stop = min(games, start + chunk)
            rows = play_ranges(cfg, [(cid, start, stop) for cid in by_id], pool=pool)
            counts = rows.group_by("cell").agg(
                pl.len().alias("games"),
                *((pl.col("winner") == seat).sum().alias(seat) for seat in d.seats),
                (pl.col("winner").is_null() & (pl.col("end_reason") != "error")).sum().alias("timeout"),
                (pl.col("end_reason") == "error").sum().alias("error"),
                pl.col("rounds").cast(pl.Int64).sum().alias("rounds"),
            )
            for r in counts.iter_rows(named=True):
                c = by_id[r["cell"]]
                for k in ("games", "timeout", "error"):
                    setattr(c, k, getattr(c, k) + int(r[k]))
                for seat in d.seats:
                    c.wins[seat] = c.wins.get(seat, 0) + int(r[seat])
                c.rounds += int(r["rounds"] or 0)
            bar.update(rows.height)
    bar.close()
    wall = time.perf_counter() - t0
    for c in cells.values():  # wall time, shared out by games (the pool plays cells together)
        c.seconds = wall * c.games / max(1, games * n_cells)
    errors = sum(c.error for c in cells.values())
    if errors:
        click.echo(f"warning: {errors} game(s) ended in a strategy or engine error (run the cell with "
                   "`rnsim run` to see the tracebacks)", err=True)
    return cells


def ladder_holds(cells: dict[tuple[str, str], Cell], levels: tuple[str, ...],
                 second_levels: tuple[str, ...] | None = None, duel: Duel | None = None) -> list[str]:
    """The failures of the ladder's ordering (empty when it holds)."""
    d = duel_or_default(duel)
    (one, two), (r1, r2) = d.seats, d.roles
    agents = levels if second_levels is None else second_levels
    bad = []
    for a in agents:  # the first seat's win rate rises down every column
        for lo_lv, hi_lv in zip(levels, levels[1:], strict=False):
            _, _, hi_of_low = cells[(lo_lv, a)].rate(one)
            _, lo_of_high, _ = cells[(hi_lv, a)].rate(one)
            if not lo_of_high > hi_of_low:
                bad.append(f"{r1} {hi_lv} does not beat {r1} {lo_lv} against {r2} {a}")
    for f in levels:  # the second seat's win rate rises along every row
        for lo_lv, hi_lv in zip(agents, agents[1:], strict=False):
            _, _, hi_of_low = cells[(f, lo_lv)].rate(two)
            _, lo_of_high, _ = cells[(f, hi_lv)].rate(two)
            if not lo_of_high > hi_of_low:
                bad.append(f"{r2} {hi_lv} does not beat {r2} {lo_lv} against {r1} {f}")
    return bad


def skill_curve(cells: dict[tuple[str, str], Cell], levels: tuple[str, ...],
                second_levels: tuple[str, ...] | None = None, duel: Duel | None = None) -> list[str]:
    """The first seat's win rate at equal levels, weakest first, and whether the
    verdict is stable at the top (the two strongest levels' intervals overlap).
    Empty when the seats have no level in common."""
    d = duel_or_default(duel)
    agents = levels if second_levels is None else second_levels
    equal = [lv for lv in levels if lv in agents]
    if not equal:
        return []
    rates = [(lv, *cells[(lv, lv)].rate(d.seats[0])) for lv in equal]
    out = [f"Skill curve (equal levels), {d.titles[0]}'s win rate: " + "; ".join(
        f"{lv} {100 * p:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]" for lv, p, lo, hi in rates)]
    if len(rates) >= 2:
        (a, _, alo, ahi), (b, _, blo, bhi) = rates[-2], rates[-1]
        if alo <= bhi and blo <= ahi:
            out.append(f"the verdict is stable at the top: {a} and {b} give overlapping intervals")
        else:
            out.append(f"the verdict is NOT stable at the top: {a} and {b} give different balances "
                       "(a stronger pair may move it again)")
    return out


def plot_skill_curve(cells: dict[tuple[str, str], Cell], levels: tuple[str, ...], path: Path,
                     second_levels: tuple[str, ...] | None = None, duel: Duel | None = None) -> None:
    """The first seat's win rate at equal levels with 95% intervals, and each of
    its levels against the second seat's other levels as lighter points (the
    cross cells)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    d = duel_or_default(duel)
    agents = levels if second_levels is None else second_levels
    fig, ax = plt.subplots(figsize=(max(5.0, 1.3 * len(levels)), 4.0))
    for x, f in enumerate(levels):
        for a in agents:
            p, lo, hi = cells[(f, a)].rate(d.seats[0])
            same = a == f
            ax.errorbar([x + (0 if same else 0.12)], [100 * p], yerr=[[100 * (p - lo)], [100 * (hi - p)]],
                        fmt="o" if same else ".", color="C0" if same else "0.6", capsize=3,
                        label=None if not same else "equal levels")
            if not same:
                ax.annotate(a, (x + 0.14, 100 * p), fontsize=7, color="0.4")
    ax.set_xticks(range(len(levels)), levels)
    ax.set_xlabel(f"{d.roles[0]} level (grey: against the other {d.roles[1]} levels)")
    ax.set_ylabel(f"{d.titles[0]} wins (%), 95% Wilson interval")
    ax.set_title("Skill curve: the balance as players get stronger")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def format_ladder(cells: dict[tuple[str, str], Cell], levels: tuple[str, ...],
                  second_levels: tuple[str, ...] | None = None, duel: Duel | None = None) -> str:
    d = duel_or_default(duel)
    agents = levels if second_levels is None else second_levels
    w = max(10, *(len(x) for x in (*levels, *agents))) + 2
    col = 24

    def table(title: str, who: str) -> list[str]:
        lines = [title, f"{d.roles[0]} \\ {d.roles[1]}".ljust(w + 6) + "".join(a.ljust(col) for a in agents)]
        for f in levels:
            row = f.ljust(w + 6)
            for a in agents:
                p, lo, hi = cells[(f, a)].rate(who)
                row += f"{100 * p:5.1f}% [{100 * lo:4.1f}, {100 * hi:5.1f}]".ljust(col)
            lines.append(row)
        return lines

    out = []
    for k, (seat, role) in enumerate(zip(d.seats, d.roles, strict=True)):
        if k:
            out.append("")
        out += table(f"{seat_title(role)} ({seat_title(seat)}) win rate, 95% Wilson interval:", seat)
    out.append("")
    out += table("Timeouts (no winner):", "timeout")
    errors = sum(c.error for c in cells.values())
    out.append("")
    n = {c.games for c in cells.values()}
    out.append(f"games per cell: {', '.join(map(str, sorted(n)))}; errors: {errors}")
    out.append("mean rounds: " + ", ".join(
        f"{f}/{a} {c.rounds / max(1, c.games - c.error):.1f}" for (f, a), c in cells.items()))
    curve = skill_curve(cells, levels, second_levels, d)
    if curve:
        out.append("")
        out += curve
    return "\n".join(out)


def _level_options(game: Any, seat: str, i: int) -> list[click.Option]:
    roles = getattr(game, "seat_roles", {})
    tail = "; e.g. one-seat plugins." if i == 0 else "."
    return [click.Option([f"--{seat}-levels"], default=None,
                         help=f"The {roles.get(seat, seat)}'s levels (default --levels){tail}")]


def _levels(text: str, flag: str) -> tuple[str, ...]:
    out = tuple(x.strip() for x in text.split(",") if x.strip())
    if len(out) < 1:
        raise ConfigError(f"ladder: {flag} names no strategy, got {text!r}")
    return out


@click.command(cls=SeatOptions, per_seat=_level_options, after="levels")
@click.option("--game", "game_name", default=DEFAULT, show_default=True,
              help="The game: Red Notice's seats (forger levels against agent levels), or a game of equal "
                   "seats (FBI: each level alone among players of each other level, seats rotated).")
@click.option("--setup", default=None,
              help="A game of equal seats: the setup played (FBI: the player count, 3, 4 or 5; default 4).")
@click.option("--games", type=int, default=5000, show_default=True, help="Games per cell (same indices in every cell).")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed.")
@click.option("--levels", default=",".join(DEFAULT_LEVELS), show_default=True,
              help="Comma-separated levels, weakest first, each played in both seats: a strategy reference "
                   "with optional params after @ (search@iterations=2, expert@risk=0.8+greed=0.2).")
@click.option("--workers", type=int, default=os.cpu_count() or 1, show_default=True, help="Worker processes.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the cell counts here as JSON.")
@click.option("--plot", "plot_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also draw the skill curve (equal levels, with the cross cells) to this PNG/SVG/PDF.")
def ladder(game_name: str, setup: str | None, games: int, seed: int, levels: str, workers: int,
           json_out: Path | None, plot_out: Path | None, **seat_levels: str | None) -> None:
    """Play every forger level against every agent level and print the win-rate
    matrices with 95% Wilson intervals, and the skill curve (Red Notice); in a
    game of equal seats (FBI), each level alone among each other level, seats
    rotated, and the start player's advantage at each level."""
    found = game_for(game_name, "ladder", lambda x: f"{x.roles[0]} levels against {x.roles[1]} levels", setup)
    if isinstance(found, Table):
        _ladder_table(found, levels, games, seed, workers, json_out, plot_out, seat_levels)
        return
    d = found
    own = given_seats(d.game, seat_levels, "_levels")
    lv, jv = (_levels(own[seat], f"--{seat}-levels") if seat in own else _levels(levels, "--levels")
              for seat in d.seats)
    if len(lv) < 2 and len(jv) < 2:
        raise ConfigError(f"ladder: --levels needs at least two strategies, got {levels!r}")
    if plot_out is not None and plot_out.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise ConfigError(f"ladder: --plot {str(plot_out)!r}: the file must end in .png, .svg or .pdf")
    for x in (*lv, *jv):
        parse_level(x)  # a malformed level fails before any game
    t0 = time.perf_counter()
    cells = run_ladder(lv, games=games, seed=seed, workers=workers, progress=True, second_levels=jv, duel=d)
    wall = time.perf_counter() - t0
    click.echo(format_ladder(cells, lv, jv, d))
    total = sum(c.games for c in cells.values())
    click.echo(f"{total} games in {wall:.0f} s with {workers} worker(s); master seed {seed}")
    if plot_out is not None:
        plot_skill_curve(cells, lv, plot_out, jv, d)
        click.echo(f"skill curve written to {plot_out}")
    bad = ladder_holds(cells, lv, jv, d)
    if bad:
        click.echo("ladder ordering FAILS:\n  " + "\n  ".join(bad))
    else:
        click.echo("ladder ordering holds: every level beats the one below it in every row and column "
                   "(non-overlapping 95% intervals)")
    if json_out is not None:
        json_out.write_text(json.dumps(
            {"seed": seed, "games": games, "levels": list(lv), f"{d.seats[1]}_levels": list(jv),
             "cells": [c.record(d) for c in cells.values()]}, indent=1))


def _ladder_table(t: Table, levels: str, games: int, seed: int, workers: int, json_out: Path | None,
                  plot_out: Path | None, seat_levels: dict[str, str | None]) -> None:
    """`rnsim ladder` for a game of equal seats (:mod:`rnsim.cli.ladder_table`)."""
    from rnsim.cli.ladder_table import ladder_table, table_json

    given = [k for k, v in seat_levels.items() if v is not None]
    if given:
        raise ConfigError(f"ladder: --{given[0].replace('_', '-')}: {t.label}'s seats are alike; give --levels only")
    if plot_out is not None:
        raise ConfigError(f"ladder: --plot: the skill curve is drawn for two seats of different roles, not for "
                          f"{t.label}'s equal seats")
    lv = _levels(levels, "--levels")
    if len(lv) < 2:
        raise ConfigError(f"ladder: --levels needs at least two strategies, got {levels!r}")
    if len(set(lv)) != len(lv):
        raise ConfigError(f"ladder: --levels {levels!r}: a level is listed twice")
    for x in lv:
        parse_level(x)  # a malformed level fails before any game
    cells, _ = ladder_table(t, lv, games, seed, workers)
    if json_out is not None:
        json_out.write_text(json.dumps(table_json(t, cells, lv, games, seed), indent=1))
