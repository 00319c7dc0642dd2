"""The balance-drift gate (`rnsim baseline save`, `rnsim check`): the
orchestration that plays games through the tournament backends and hands the
counts to :mod:`rnsim.analysis.sequential`.

A baseline is a small JSON file: per cell each seat's wins (and the watched
seat's, when the game names it game by game),
timeouts, errors and games, plus the config it came from, the rules hash of
every variant, the rnsim version, the master seed and the gate's design
(tolerance, error rates, batch, budget), so `rnsim check --baseline FILE`
needs nothing else.

Under the baseline's master seed the check first replays the baseline's first
games of each cell (the baseline stores the watched seat's outcomes): a cell whose
replayed outcomes all match is settled as no drift with an exact bound
(:func:`rnsim.analysis.sequential.replay_games_needed`). The other cells get the
SPRT on *fresh* games: game indices ``n0, n0+1, ...`` of the baseline's master
seed (``n0`` = the baseline's games per cell), or indices ``0, 1, ...`` of
another master seed given with ``--seed``. Fresh games are independent of the
baseline's, which is what the test's variance assumes (which cells reach the SPRT
depends on the first few baseline games, a share k/n0 of the baseline, which we
neglect); the fixed seed makes the verdict reproducible (the same code gives the
same verdict).
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from rnsim.analysis.sequential import (
    DRIFT,
    GateDesign,
    SequentialGate,
    batch_sizes,
    replay_games_needed,
)
from rnsim.config import RunConfig, Variant, config_from_mapping, load_config
from rnsim.drift.baseline import BASELINE_FORMAT, Baseline, load_baseline, relative_path, write_baseline
from rnsim.drift.cells import (
    balance_seat,
    cell_labels,
    cell_name,
    count_columns,
    counted_seats,
    counts_by_cell,
    play_counts,
    play_games,
    seat_outcomes,
    seat_role,
    seat_title,
)
from rnsim.drift.markdown import results_block
from rnsim.drift.outcome import CheckCell, CheckOutcome
from rnsim.errors import ConfigError, RnsimError
from rnsim.tournament.backends import Pool
from rnsim.tournament.batches import pool_for

# Budget: this many times the games the fixed-sample test would need (measured: a
# no-change check then ends undecided in well under 1% of runs).
BUDGET_FACTOR = 4
# Batches: about this many looks per fixed-sample test's worth of games. Small
# batches stop closer to the moment the test decides (the overshoot of the last
# batch is games spent for nothing): 20 looks cost ~10% more games than looking
# after every game, 8 looks ~25% more (measured with simulate_checks).
LOOKS = 20
MIN_BATCH = 20
# The exact replay (see rnsim.analysis.sequential) takes this share of beta; the
# SPRT keeps the rest, so a cell misses a 2-delta move with probability <= beta.
REPLAY_SHARE = 0.1
REPLAY_BATCH = 10  # replayed games per cell per batch: a differing game ends the replay early

Echo = Callable[[str], None]


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr)

def default_batch(design: GateDesign, fixed_games: float) -> int:
    """Games per open cell per batch, from the fixed-sample test's games per cell."""
    return max(MIN_BATCH, math.ceil(fixed_games / LOOKS / 5) * 5)


def save_baseline(
    config: Path,
    out: Path,
    *,
    games: int | None = None,
    seed: int | None = None,
    workers: int | str | None = None,
    backend: str | None = None,
    delta: float = 0.05,
    alpha: float = 0.05,
    beta: float = 0.05,
    echo: Echo = _stderr,
) -> Baseline:
    """Play the config's cells and write the baseline file."""
    from rnsim import __version__

    cfg = load_config(config, seed=seed, workers=workers, backend=backend)
    cells = cfg.cells()
    design = GateDesign(delta=delta, alpha=alpha, beta=beta, cells=len(cells))
    # The baseline's own error must stay small against delta; size it for the
    # worst case (a 50% win rate) unless told otherwise.
    needed = design.baseline_games_needed(0.5)
    n0 = games if games is not None else needed
    if n0 < 1:
        raise ConfigError(f"--games: must be at least 1, got {n0}")
    if n0 < needed:
        echo(f"warning: {n0:,} baseline games per cell is fewer than the {needed:,} this gate "
             f"(delta {delta}, {len(cells)} cells) needs; checks may end undecided")
    echo(f"{config}: {len(cells)} cell(s) x {n0:,} games = {len(cells) * n0:,} games "
         f"(backend {cfg.backend}" + (f", {cfg.workers} workers)" if cfg.backend != "serial" else ")")
         + cfg.defaults_note())
    played = play_games(cfg, [(c.id, 0, n0) for c in cells], run_id="baseline")
    counts = counts_by_cell(played, [c.id for c in cells], counted_seats(cfg))
    seat = balance_seat(cfg)
    replay_miss = REPLAY_SHARE * beta
    replay_k = min(n0, replay_games_needed(delta, replay_miss))
    rows = []
    fixed_total = 0.0
    for c in cells:
        k = counts[c.id]
        if k["games"] == 0:
            raise RnsimError(f"cell {cell_name(cell_labels(cfg, c))}: every baseline game failed; see `rnsim run`")
        p0 = k[f"{seat}_wins"] / k["games"]
        fixed_total += design.fixed_games(min(max(p0, 0.01), 0.99), k["games"])
        rows.append({**cell_labels(cfg, c), **k, f"{seat}_rate": round(p0, 6),
                     "replay": seat_outcomes(played, c.id, seat)[:replay_k]})
        if k["errors"]:
            echo(f"warning: {k['errors']} game(s) of cell {cell_name(cell_labels(cfg, c))} ended in an error")
    if not math.isfinite(fixed_total):
        raise ConfigError(
            f"--games: {n0:,} baseline games per cell cannot support a tolerance of {delta}: "
            f"use at least {needed:,} (or a larger --delta)")
    budget = math.ceil(BUDGET_FACTOR * fixed_total)
    data = {
        "format": BASELINE_FORMAT,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
        "rnsim_version": __version__,
        "config_file": relative_path(config, out.parent),
        "config": cfg.sources.get("raw"),
        "master_seed": cfg.seed,
        "games_per_cell": n0,
        "rules_hash": {v.name: v.digest for v in cfg.variants},
        "rules": {v.name: v.rules.to_dict() for v in cfg.variants},
        "gate": {
            "statistic": f"{seat_title(cfg, seat)} win rate per cell",
            "seat": seat,
            "delta": delta, "alpha": alpha, "beta": beta,
            "batch": default_batch(design, fixed_total / len(cells)),
            "budget": budget,
            # the watched seat's outcomes of each cell's first games ("replay" below), for
            # the exact replay a check under this seed starts with
            "replay_games": replay_k,
            "replay_miss": replay_miss,
        },
        "cells": rows,
    }
    return write_baseline(out, data)

# ------------------------------------------------------------------ the check


def _current_config(
    baseline: Baseline, config: Path | None, seed: int | None, workers: int | str | None, backend: str | None
) -> RunConfig:
    path = config or baseline.config_path()
    if path is not None and path.is_file():
        return load_config(path, seed=seed, workers=workers, backend=backend)
    if config is not None:
        raise ConfigError(f"--config: file not found: {config}")
    # the config file is gone: replay the copy stored in the baseline
    return config_from_mapping(baseline.data["config"], src=f"{baseline.path}: config", base_dir=baseline.path.parent,
                               seed=seed, workers=workers, backend=backend)


def run_check(
    baseline_path: Path,
    *,
    config: Path | None = None,
    seed: int | None = None,
    delta: float | None = None,
    alpha: float | None = None,
    beta: float | None = None,
    budget: int | None = None,
    batch: int | None = None,
    workers: int | str | None = None,
    backend: str | None = None,
    fail_fast: bool = False,
    replay: bool = True,
    echo: Echo = _stderr,
) -> CheckOutcome:
    """Play the baseline's config with the current code and rules, batch by batch,
    until every cell is decided or the budget is spent: first (under the baseline's
    seed) an exact replay of the baseline's first games, then the SPRT on fresh games
    for the cells the replay did not settle."""
    base = load_baseline(baseline_path)
    d = float(delta if delta is not None else base.gate["delta"])
    b_total = float(beta if beta is not None else base.gate["beta"])
    replay_k = replay_games_needed(d, REPLAY_SHARE * b_total) if 0 < d < 0.25 and 0 < b_total < 1 else 0
    replay = (replay and (seed is None or seed == base.master_seed)
              and all(len(str(c.get("replay", ""))) >= replay_k for c in base.cells))
    design = GateDesign(
        delta=d,
        alpha=float(alpha if alpha is not None else base.gate["alpha"]),
        # the replay spends its share of beta; the SPRT keeps the rest
        beta=b_total * (1 - REPLAY_SHARE) if replay else b_total,
        cells=len(base.cells),
    )
    master = base.master_seed if seed is None else seed
    cfg = _current_config(base, config, master, workers, backend)
    seat = str(base.gate.get("seat") or balance_seat(cfg))
    wins = f"{seat}_wins"
    for i, b in enumerate(base.cells):
        if wins not in b:
            raise ConfigError(f"{baseline_path}: cells[{i}]: missing key {wins!r}")
    budget, batch = _sizes(base, design, wins, (delta, alpha, beta) != (None, None, None), budget, batch)
    if seed is not None and seed < 0:
        raise ConfigError(f"--seed: must be a non-negative whole number, got {seed}")

    # Fresh games: past the baseline's indices under its seed, from 0 under another.
    offset = base.games_per_cell if master == base.master_seed else 0
    cells = _cells(cfg, base, baseline_path)
    notes = _notes(cfg, base, len(cells))
    gate = SequentialGate(design, [(int(b[wins]), int(b["games"])) for b in base.cells])
    echo(f"check: {len(cells)} cell(s), batches of up to {batch} games per open cell, budget {budget:,} games, "
         f"master seed {master}, game indices from {offset}" + cfg.defaults_note())
    with pool_for(cfg, "drift-check") as pool:
        used = _replay(cfg, cells, gate, replay_k, budget, pool, echo, seat) if replay else 0
        used = _sprt(cfg, cells, gate, offset, (batch, budget, used), pool, echo, wins, fail_fast)
    errors = sum(c.counts["errors"] for c in cells)
    if errors:
        notes.append(f"{errors} game(s) ended in a strategy or engine error and were left out (see `rnsim run`)")
    outcome = CheckOutcome(gate.overall, gate, cells, used, budget, notes, "")
    outcome.block = results_block(outcome, base, design, master, offset, replay_k if replay else 0, b_total,
                                  role=seat_role(cfg, seat))
    return outcome


def _sizes(base: Baseline, design: GateDesign, wins: str, redesigned: bool, budget: int | None,
           batch: int | None) -> tuple[int, int]:
    """The check's game budget and batch: as given, else the baseline's, else
    (another design than the baseline's) sized for the new design."""
    gate_cfg = base.gate
    if redesigned:
        # another design: the stored budget and batch were sized for the baseline's own
        fixed = sum(design.fixed_games(min(max(int(c[wins]) / int(c["games"]), 0.01), 0.99), int(c["games"]))
                    for c in base.cells)
        if not math.isfinite(fixed):
            raise ConfigError(f"--delta: the baseline's {base.games_per_cell:,} games per cell are too few for a "
                              f"tolerance of {design.delta}; save a bigger baseline or use a larger --delta")
        gate_cfg = {**gate_cfg, "budget": math.ceil(BUDGET_FACTOR * fixed),
                    "batch": default_batch(design, fixed / design.cells)}
    budget = int(budget if budget is not None else gate_cfg["budget"])
    batch = int(batch if batch is not None else gate_cfg["batch"])
    if budget < 1:
        raise ConfigError(f"--budget: must be at least 1 game, got {budget}")
    if batch < 1:
        raise ConfigError(f"--batch: must be at least 1 game per cell, got {batch}")
    return budget, batch


def _cells(cfg: RunConfig, base: Baseline, baseline_path: Path) -> list[CheckCell]:
    """The current config's cell for each baseline cell, matched by its labels."""
    all_cells = cfg.cells()
    label_keys = list(cell_labels(cfg, all_cells[0])) if all_cells else []
    by_label = {tuple(cell_labels(cfg, c).values()): c for c in all_cells}
    cells: list[CheckCell] = []
    cols = count_columns(counted_seats(cfg))
    for i, b in enumerate(base.cells):
        labels = {k: None if b.get(k) is None else str(b.get(k)) for k in label_keys}
        c = by_label.get(tuple(labels.values()))
        if c is None:
            raise ConfigError(
                f"{baseline_path}: cells[{i}] ({cell_name(labels)}) "
                f"is not a cell of the current config {cfg.path or '(stored copy)'}; the check compares the same cells. "
                "Regenerate the baseline if the cells changed on purpose"
            )
        cells.append(CheckCell(cell_name(labels), c.id, b, dict.fromkeys(cols, 0)))
    return cells


def _notes(cfg: RunConfig, base: Baseline, checked: int) -> list[str]:
    """What changed since the baseline: the version, each variant's rules, cells not checked."""
    from rnsim import __version__

    notes: list[str] = []
    if base.data.get("rnsim_version") != __version__:
        notes.append(f"rnsim version {base.data.get('rnsim_version')} -> {__version__}")
    for v in cfg.variants:
        old = base.data["rules_hash"].get(v.name)
        if old is not None and old != v.digest:
            changed = _rule_changes(base.data.get("rules", {}).get(v.name, {}), v)
            notes.append(f"rules of variant {v.name!r} changed since the baseline ({old} -> {v.digest}"
                         + (f": {changed}" if changed else ", component data") + ")")
    extra = len(cfg.cells()) - checked
    if extra > 0:
        notes.append(f"{extra} cell(s) of the current config are not in the baseline and are not checked")
    return notes


def _sprt(cfg: RunConfig, cells: list[CheckCell], gate: SequentialGate, offset: int,
          sizes: tuple[int, int, int], pool: Pool, echo: Echo, wins: str, fail_fast: bool) -> int:
    """The SPRT on fresh games, batch by batch, until every cell is decided, the
    budget is spent or (``fail_fast``) a drift is found. ``sizes`` is (batch,
    budget, games used so far); returns the games used."""
    batch, budget, used = sizes
    cols = count_columns(counted_seats(cfg))
    next_index = [offset] * len(cells)
    while not gate.done and not (fail_fast and gate.overall == DRIFT):
        open_cells = gate.undecided
        k = int(batch_sizes(batch, budget - used, len(open_cells)))
        if k == 0:
            break
        counts = play_counts(cfg, [(cells[i].cell_id, next_index[i], next_index[i] + k) for i in open_cells],
                             pool=pool)
        for i in open_cells:
            for col in cols:
                cells[i].counts[col] += counts[cells[i].cell_id][col]
            next_index[i] += k
        used += k * len(open_cells)
        gate.update([(c.counts[wins], c.counts["games"]) for c in cells])
        decided = len(cells) - len(gate.undecided)
        echo(f"  {used:,} games played; {decided} of {len(cells)} cell(s) decided")
    return used


def _replay(cfg: RunConfig, cells: list[CheckCell], gate: SequentialGate, k: int, budget: int,
            pool: Pool, echo: Echo, seat: str) -> int:
    """Replay the baseline's first ``k`` games of every cell; settle as "no drift" each
    cell whose outcomes for ``seat`` all match the baseline's (exact bound, see
    rnsim.analysis.sequential). Returns the games played."""
    used = 0
    replaying = list(range(len(cells)))
    echo(f"replay: the first {k} baseline games of each cell, under the baseline's seed")
    while replaying:
        step = min(REPLAY_BATCH, k - cells[replaying[0]].replayed)
        if used + step * len(replaying) > budget:
            break
        ranges = [(cells[i].cell_id, cells[i].replayed, cells[i].replayed + step) for i in replaying]
        games = play_games(cfg, ranges, pool=pool)
        used += step * len(replaying)
        still = []
        for i in replaying:
            c = cells[i]
            now = seat_outcomes(games, c.cell_id, seat)
            then = str(c.baseline["replay"])[c.replayed:c.replayed + step]
            differs = [j for j, (x, y) in enumerate(zip(now, then, strict=True)) if x != y or x == "E"]
            if differs:
                c.replay_differs = c.replayed + differs[0]
                c.replayed += step
                continue
            c.replayed += step
            if c.replayed >= k:
                c.replay_settled = True
                gate.settle_no_drift(i)
            else:
                still.append(i)
        replaying = still
        echo(f"  {used:,} games replayed; {sum(c.replay_settled for c in cells)} of {len(cells)} cell(s) "
             f"settled, {sum(c.replay_differs is not None for c in cells)} differ")
    return used


def _rule_changes(old: dict[str, Any], variant: Variant) -> str:
    to_dict = getattr(variant.rules, "to_dict", None)
    new = to_dict() if to_dict is not None else {}
    diffs = [f"{k} {old.get(k)!r} -> {new.get(k)!r}" for k in new if k in old and old.get(k) != new.get(k)]
    return ", ".join(diffs)
