"""`rnsim tune` on real games: the lattice search of
:func:`rnsim.analysis.tuning.tune`, every value a variant of the user's
config, every batch a range of game indices of that variant's cells played on
one pool of workers kept open (:func:`rnsim.tournament.batches.play_ranges`).

Every value plays game indices ``0, 1, 2, ...`` of the same master seed, so
two values' games ``i`` are the same deal (paired), and a sweep with the same
seed plays the very same games at the values they share."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from rnsim.analysis.crossing import Sample
from rnsim.analysis.tuning import Batch, TuneResult, lattice_values, tune
from rnsim.errors import ConfigError
from rnsim.levers.balance import Balance, balance_of
from rnsim.levers.knobs import bounds, check_knob, fmt_value, refusal
from rnsim.levers.play import Echo
from rnsim.levers.source import Change, LeverConfig, lever_config
from rnsim.levers.sweep import default_target

#: most lattice values a tune may search (each is a variant of the run)
MAX_VALUES = 201


@dataclass
class TuneRun:
    result: TuneResult
    knob: str
    balance: Balance
    target: float
    target_note: str
    seconds: float
    cells: int  # cells per value (setups x strategies)
    setups: list[str]  # the setup labels of a value's cells
    games: pl.DataFrame  # every game played: value, setup, game_index, y


def tune_lattice(game: Any, rules: Any, knob: str, lo: int, hi: int, step: int | None) -> list[int]:
    """The knob's values from ``lo`` to ``hi`` by ``step`` (default its notch), each accepted by the rules."""
    k = check_knob(game, knob)
    assert k.notch is not None
    notch = int(step if step is not None else k.notch)
    if notch < 1:
        raise ConfigError(f"--step: must be a positive whole number, got {notch}")
    low, high = bounds(k)
    if not low <= lo < hi <= high:
        raise ConfigError(f"--range: {knob} must satisfy {low} <= lo < hi <= {high}, got {lo}:{hi}")
    values = [int(v) for v in lattice_values(lo, hi, notch)]
    if len(values) < 2:
        raise ConfigError(f"--range: {lo}:{hi} holds a single value on the lattice of step {notch}")
    if len(values) > MAX_VALUES:
        raise ConfigError(f"--range: {len(values):,} values on the lattice of step {fmt_value(notch)}; at most "
                          f"{MAX_VALUES}: narrow the range or raise --step")
    for v in values:
        why = refusal(game, rules, {knob: v})
        if why is not None:
            raise ConfigError(f"--range: {knob} = {fmt_value(v)}: {why}")
    return values


def run_tune(config: LeverConfig | Path, knob: str, lo: int, hi: int, *, tolerance: float, target: float | None = None,
             batch: int = 100, step: int | None = None, max_games: int = 200_000, seed: int | None = None,
             setups: str = "game", workers: str | int | None = None, backend: str | None = None,
             echo: Echo = print) -> TuneRun:
    """Search ``knob`` over ``lo..hi`` for the value where the game's balance
    reaches ``target`` (default: a balanced game), within ``tolerance``."""
    from rnsim.results import result_schema
    from rnsim.tournament.batches import play_ranges, pool_for

    source = lever_config(config)
    base = source.base()
    game = base.game_obj
    lattice = tune_lattice(game, base.variants[0].rules, knob, lo, hi, step)
    changes = [Change(f"{knob}.{v}", f"{knob} {fmt_value(v)}", {knob: v}) for v in lattice]
    cfg = source.with_changes(changes, setups=source.setups(setups), seed=seed, workers=workers, backend=backend)
    balance = balance_of(game, cfg.seats)
    goal, note = default_target(game, cfg)
    if target is not None:
        goal, note = target, "as asked"
    cells: dict[int, list[Any]] = {}
    for c in cfg.cells():
        cells.setdefault(c.variant, []).append(c)
    per_value = len(cells[0])
    extra = balance.columns(list(result_schema(game, [cfg.variants[0].rules])))
    shares = [c for c in extra if c.startswith("share_")]
    frames: list[pl.DataFrame] = []
    t0 = time.perf_counter()

    with pool_for(cfg, "tune") as pool:

        def play(value: float, start: int, stop: int) -> tuple[Sample, int]:
            vi = lattice.index(int(value))
            group = cells[vi]
            df = play_ranges(cfg, [(c.id, start, stop) for c in group], pool=pool, run_id="tune", extra=extra)
            # play_ranges hands extra columns back as text; a share is a float
            df = df.with_columns(*(pl.col(s).cast(pl.Float64) for s in shares))
            label = {c.id: c.setup_label for c in group}
            df = df.with_columns(balance.outcome(df.columns), (pl.col("cell") - group[0].id).alias("stratum"),
                                 pl.col("cell").replace_strict(label, return_dtype=pl.String).alias("setup"),
                                 pl.lit(int(value)).alias(knob))
            frames.append(df.select(knob, "setup", "game_index", "stratum", "y"))
            ok = df.filter(pl.col("y").is_not_null())
            return (Sample(ok["game_index"].to_numpy().astype(np.int64), ok["stratum"].to_numpy().astype(np.int64),
                           ok["y"].to_numpy().astype(np.float64)), df.height)

        def told(b: Batch) -> None:
            echo(f"  {knob} = {fmt_value(b.value)}: games {b.start:,}..{b.stop - 1:,} of {per_value} cell(s), "
                 f"{b.games:,} games: {balance.title} {100 * b.mean:.1f}%")

        res = tune(play, [float(v) for v in lattice], target=goal, tolerance=tolerance,
                   batch=max(1, math.ceil(batch / per_value)), max_games=max_games, on_batch=told)
    # batches come back in the order their chunks finish; the table is in game order
    games = pl.concat(frames).sort(knob, "stratum", "game_index") if frames else pl.DataFrame()
    labels = sorted({c.setup_label for c in cells[0]})
    return TuneRun(res, knob, balance, goal, note, time.perf_counter() - t0, per_value, labels, games)
