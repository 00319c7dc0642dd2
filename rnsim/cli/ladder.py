"""`rnsim ladder`: the strength ladder of the built-in strategies.

Every forger level plays every agent level on the same game indices under one
master seed (so every cell sees the same deals: the cells are comparable), and
the win-rate matrices are printed with 95% Wilson intervals. The ladder holds
when, in every column, the forger's win rate rises with the forger's level and,
in every row, the agent's win rate rises with the agent's level, each step with
intervals that do not overlap.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click
import polars as pl

from rnsim.analysis.stats import wilson
from rnsim.errors import ConfigError

DEFAULT_LEVELS = ("random", "rule", "expert")


@dataclass
class Cell:
    forger: str
    agent: str
    games: int = 0
    angela: int = 0
    jessah: int = 0
    timeout: int = 0
    error: int = 0
    rounds: int = 0
    seconds: float = 0.0

    def rate(self, who: str) -> tuple[float, float, float]:
        k = getattr(self, who)
        lo, hi = wilson(k, self.games)
        return k / self.games, lo, hi


def run_ladder(
    levels: tuple[str, ...] = DEFAULT_LEVELS,
    games: int = 5000,
    seed: int = 1,
    workers: int = 1,
    chunk: int = 250,
    params: dict[str, dict[str, Any]] | None = None,
    progress: bool = False,
    backend: str | None = None,
) -> dict[tuple[str, str], Cell]:
    """Play the ladder; returns the cells keyed by (forger level, agent level).

    The ladder is a tournament (every level in both seats, a round robin, setups
    drawn as in the rulebook) played through the tournament backends: the same
    game indices ``0..games-1`` in every cell, so the results do not depend on
    ``workers``, ``chunk`` or the backend.
    """
    from rnsim.config import config_from_mapping
    from rnsim.tournament.batches import play_ranges, pool_for

    params = params or {}
    if games < 1:
        raise ConfigError(f"ladder: games must be at least 1, got {games}")
    specs = [{"ref": lv, "params": params.get(lv, {}), "label": lv} for lv in levels]
    raw = {"run": {"games": games, "seed": seed, "identities": "random", "chunk_size": chunk},
           "strategies": {"angela": specs, "jessah": specs}}
    cfg = config_from_mapping(raw, src="ladder", workers=max(1, workers),
                              backend=backend or ("process" if workers > 1 else "serial"))
    cells = {(f, a): Cell(f, a) for f in levels for a in levels}
    by_id = {c.id: cells[(levels[c.strategies[0]], levels[c.strategies[1]])] for c in cfg.cells()}

    from tqdm import tqdm

    bar = tqdm(total=games * len(levels) ** 2, unit="game", disable=not progress, smoothing=0.05)
    t0 = time.perf_counter()
    with pool_for(cfg, "ladder") as pool:
        # block by block of game indices, so the bar moves and every cell advances together
        for start in range(0, games, chunk):
            stop = min(games, start + chunk)
            rows = play_ranges(cfg, [(cid, start, stop) for cid in by_id], pool=pool)
            counts = rows.group_by("cell").agg(
                pl.len().alias("games"),
                (pl.col("winner") == "angela").sum().alias("angela"),
                (pl.col("winner") == "jessah").sum().alias("jessah"),
                (pl.col("winner").is_null() & (pl.col("end_reason") != "error")).sum().alias("timeout"),
                (pl.col("end_reason") == "error").sum().alias("error"),
                pl.col("rounds").cast(pl.Int64).sum().alias("rounds"),
            )
            for r in counts.iter_rows(named=True):
                c = by_id[r["cell"]]
                for k in ("games", "angela", "jessah", "timeout", "error"):
                    setattr(c, k, getattr(c, k) + int(r[k]))
                c.rounds += int(r["rounds"] or 0)
            bar.update(rows.height)
    bar.close()
    wall = time.perf_counter() - t0
    for c in cells.values():  # wall time, shared out by games (the pool plays cells together)
        c.seconds = wall * c.games / max(1, games * len(levels) ** 2)
    errors = sum(c.error for c in cells.values())
    if errors:
        click.echo(f"warning: {errors} game(s) ended in a strategy or engine error (run the cell with "
                   "`rnsim run` to see the tracebacks)", err=True)
    return cells


def ladder_holds(cells: dict[tuple[str, str], Cell], levels: tuple[str, ...]) -> list[str]:
    """The failures of the ladder's ordering (empty when it holds)."""
    bad = []
    for a in levels:  # forger's win rate rises down every column
        for lo_lv, hi_lv in zip(levels, levels[1:], strict=False):
            _, _, hi_of_low = cells[(lo_lv, a)].rate("angela")
            _, lo_of_high, _ = cells[(hi_lv, a)].rate("angela")
            if not lo_of_high > hi_of_low:
                bad.append(f"forger {hi_lv} does not beat forger {lo_lv} against agent {a}")
    for f in levels:  # agent's win rate rises along every row
        for lo_lv, hi_lv in zip(levels, levels[1:], strict=False):
            _, _, hi_of_low = cells[(f, lo_lv)].rate("jessah")
            _, lo_of_high, _ = cells[(f, hi_lv)].rate("jessah")
            if not lo_of_high > hi_of_low:
                bad.append(f"agent {hi_lv} does not beat agent {lo_lv} against forger {f}")
    return bad


def format_ladder(cells: dict[tuple[str, str], Cell], levels: tuple[str, ...]) -> str:
    w = max(10, *(len(x) for x in levels)) + 2
    col = 24

    def table(title: str, who: str) -> list[str]:
        lines = [title, "forger \\ agent".ljust(w + 6) + "".join(a.ljust(col) for a in levels)]
        for f in levels:
            row = f.ljust(w + 6)
            for a in levels:
                p, lo, hi = cells[(f, a)].rate(who)
                row += f"{100 * p:5.1f}% [{100 * lo:4.1f}, {100 * hi:5.1f}]".ljust(col)
            lines.append(row)
        return lines

    out = []
    out += table("Forger (Angela) win rate, 95% Wilson interval:", "angela")
    out.append("")
    out += table("Agent (Jessah) win rate, 95% Wilson interval:", "jessah")
    out.append("")
    out += table("Timeouts (no winner):", "timeout")
    errors = sum(c.error for c in cells.values())
    out.append("")
    n = {c.games for c in cells.values()}
    out.append(f"games per cell: {', '.join(map(str, sorted(n)))}; errors: {errors}")
    out.append("mean rounds: " + ", ".join(
        f"{f}/{a} {c.rounds / max(1, c.games - c.error):.1f}" for (f, a), c in cells.items()))
    return "\n".join(out)


@click.command()
@click.option("--games", type=int, default=5000, show_default=True, help="Games per cell (same indices in every cell).")
@click.option("--seed", type=int, default=1, show_default=True, help="Master seed.")
@click.option("--levels", default=",".join(DEFAULT_LEVELS), show_default=True,
              help="Comma-separated strategy references, weakest first; each plays both roles.")
@click.option("--workers", type=int, default=os.cpu_count() or 1, show_default=True, help="Worker processes.")
@click.option("--json", "json_out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the cell counts here as JSON.")
def ladder(games: int, seed: int, levels: str, workers: int, json_out: Path | None) -> None:
    """Play every forger level against every agent level and print the win-rate
    matrices with 95% Wilson intervals."""
    lv = tuple(x.strip() for x in levels.split(",") if x.strip())
    if len(lv) < 2:
        raise ConfigError(f"ladder: --levels needs at least two strategies, got {levels!r}")
    t0 = time.perf_counter()
    cells = run_ladder(lv, games=games, seed=seed, workers=workers, progress=True)
    wall = time.perf_counter() - t0
    click.echo(format_ladder(cells, lv))
    total = sum(c.games for c in cells.values())
    click.echo(f"{total} games in {wall:.0f} s with {workers} worker(s); master seed {seed}")
    bad = ladder_holds(cells, lv)
    if bad:
        click.echo("ladder ordering FAILS:\n  " + "\n  ".join(bad))
    else:
        click.echo("ladder ordering holds: every level beats the one below it in every row and column "
                   "(non-overlapping 95% intervals)")
    if json_out is not None:
        json_out.write_text(json.dumps(
            {"seed": seed, "games": games, "levels": list(lv),
             "cells": [vars(c) for c in cells.values()]}, indent=1))
