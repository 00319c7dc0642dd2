"""`rnsim sweep`: one knob (a curve) or two (a grid) played on the same game
indices at every value, the balance at each value and, for one knob, where the
curve crosses the target (:mod:`rnsim.analysis.crossing`)."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from rnsim.analysis.crossing import Crossing, Curve, crossing, curve
from rnsim.errors import ConfigError
from rnsim.levers.balance import Balance, balance_of, fair_rate, samples, stratum_keys
from rnsim.levers.knobs import check_knob, fmt_value, refusal
from rnsim.levers.play import DEALT, Echo, Played, drawn, play_changes
from rnsim.levers.source import Change, LeverConfig, lever_config

#: at most this many fixed setups get a crossing each in the printed output
#: (every setup's rates are in the per-setup table whatever their number)
SETUP_CROSSINGS = 6


@dataclass
class SweepResult:
    knobs: list[str]
    table: pl.DataFrame  # one row per point
    crossing: Crossing | None  # one knob: the cells pooled (stratified by cell)
    played: Played
    balance: Balance
    target: float
    target_note: str  # how the target was chosen, for the output
    setup_column: str
    per_setup: dict[str, Crossing] = field(default_factory=dict)  # one knob, fixed setups
    setup_table: pl.DataFrame | None = None  # rates per setup and point


def sweep_changes(knobs: Sequence[str], grids: Sequence[Sequence[int]]) -> list[tuple[Change, tuple[int, ...]]]:
    out = []
    for combo in itertools.product(*grids):
        name = "+".join(f"{k}.{v}" for k, v in zip(knobs, combo, strict=True))
        label = ", ".join(f"{k} {fmt_value(v)}" for k, v in zip(knobs, combo, strict=True))
        out.append((Change(name, label, dict(zip(knobs, combo, strict=True))), tuple(combo)))
    return out


def default_target(game: Any, cfg: Any) -> tuple[float, str]:
    """The balanced rate of the base variant's cells, pooled as the games are
    (every cell plays the same number of games), and how to say it."""
    rules = cfg.variants[0].rules
    cells = [c for c in cfg.cells() if c.variant == 0]
    fairs = [fair_rate(game, rules, c.setup) for c in cells]
    target = float(np.mean(fairs))
    if len(set(fairs)) <= 1:
        return target, "a balanced game"
    by_setup = dict(sorted({c.setup_label: f for c, f in zip(cells, fairs, strict=True)}.items()))
    parts = ", ".join(f"{100 * f:.1f}% at {s}" for s, f in by_setup.items())
    return target, f"the mean of a balanced game's {parts}, the cells pooled"


def run_sweep(config: LeverConfig | Path, knobs: Sequence[str], grids: Sequence[Sequence[int]], *, out: Path,
              target: float | None = None, per_setup: bool = False, setups: str = "game", echo: Echo = print,
              **play: Any) -> SweepResult:
    """Play every point of the grid on the same game indices (``setups``:
    "game" plays the game's ``lever_setups``, "config" the config's; a config
    with variants varies the rules of the one :class:`LeverConfig` names)."""

    if not 1 <= len(knobs) <= 2:
        raise ConfigError(f"--knob: a sweep varies one or two knobs, got {len(knobs)}")
    if len(set(knobs)) != len(knobs):
        raise ConfigError("--knob: the same knob is given twice")
    source = lever_config(config)
    base = source.base()
    game = base.game_obj
    for k in knobs:
        check_knob(game, k)
    points = sweep_changes(knobs, grids)
    for ch, _ in points:
        why = refusal(game, base.variants[0].rules, ch.knobs)
        if why is not None:
            raise ConfigError(f"--values: {ch.label}: {why}")
    played = play_changes(source, [c for c, _ in points], out=out, echo=echo, setups=source.setups(setups), **play)
    cfg = played.cfg
    balance = balance_of(game, cfg.seats)
    setup_col = game.setup_column
    names = [c.name for c, _ in points]
    keys = stratum_keys(played.results, setup_col)
    xs = [float(v[0]) if len(knobs) == 1 else float(i) for i, (_, v) in enumerate(points)]
    cur = curve(xs, samples(played.results, names, keys))
    fair, note = default_target(game, cfg)
    goal = fair if target is None else target
    if target is not None:
        note = "as asked"
    table = _table(knobs, points, cur)
    cross = None
    if len(knobs) == 1:
        cross = crossing(cur, goal)
        table = pl.concat([table, _steps(cross)], how="horizontal")
    res = SweepResult(list(knobs), table, cross, played, balance, goal, note, setup_col)
    fixed = not drawn(cfg)
    n_setups = played.results[setup_col].n_unique()
    if per_setup or (fixed and n_setups > 1):
        res.setup_table, res.per_setup = _by_setup(played.results, cfg, knobs, points, xs, target,
                                                   crossings=len(knobs) == 1 and fixed
                                                   and n_setups <= SETUP_CROSSINGS)
    return res


def _table(knobs: Sequence[str], points: list[tuple[Change, tuple[int, ...]]], cur: Curve) -> pl.DataFrame:
    lo, hi = cur.rate_interval()
    cols: dict[str, Any] = {k: [v[i] for _, v in points] for i, k in enumerate(knobs)}
    return pl.DataFrame({**cols, "games": cur.games, "rate": cur.rate, "rate_lo": lo, "rate_hi": hi})


def _steps(c: Crossing) -> pl.DataFrame:
    """Per value, the paired difference to the previous value (none for the first)."""
    rows: list[dict[str, Any]] = [{"diff_prev": None, "diff_prev_lo": None, "diff_prev_hi": None,
                                   "shared_prev": None, "changed_prev": None}]
    rows += [{"diff_prev": s.diff, "diff_prev_lo": s.diff_lo, "diff_prev_hi": s.diff_hi, "shared_prev": s.shared,
              "changed_prev": s.changed} for s in c.steps]
    return pl.DataFrame(rows, schema={"diff_prev": pl.Float64, "diff_prev_lo": pl.Float64,
                                      "diff_prev_hi": pl.Float64, "shared_prev": pl.Int64,
                                      "changed_prev": pl.Int64})


def _by_setup(results: pl.DataFrame, cfg: Any, knobs: Sequence[str], points: list[tuple[Change, tuple[int, ...]]],
              xs: list[float], target: float | None, crossings: bool) -> tuple[pl.DataFrame, dict[str, Crossing]]:
    """Rates per setup (the one dealt, when setups are drawn) and point, and
    per fixed setup its own crossing (its balanced rate as the target unless one was given)."""
    game = cfg.game_obj
    col = DEALT if DEALT in results.columns else game.setup_column
    names = [c.name for c, _ in points]
    keys = [k for k in stratum_keys(results, game.setup_column) if k != game.setup_column]
    setup_of = {c.setup_label: c.setup for c in cfg.cells()}
    frames = []
    found: dict[str, Crossing] = {}
    for label in sorted(set(results[col].drop_nulls().to_list())):
        part = results.filter(pl.col(col) == label)
        got = samples(part, names, keys)
        keep = [i for i, s in enumerate(got) if len(s)]
        cur = curve([xs[i] for i in keep], [got[i] for i in keep])
        lo, hi = cur.rate_interval()
        cols = {k: [points[i][1][j] for i in keep] for j, k in enumerate(knobs)}
        frames.append(pl.DataFrame({"setup": label, **cols, "games": cur.games, "rate": cur.rate,
                                    "rate_lo": lo, "rate_hi": hi}))
        if crossings and len(keep) == len(names):
            goal = target if target is not None else fair_rate(game, cfg.variants[0].rules, setup_of.get(label))
            found[label] = crossing(cur, goal)
    return pl.concat(frames), found
