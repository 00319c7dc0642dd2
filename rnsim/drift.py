"""Variants side by side (`rnsim compare`) and the balance-drift gate
(`rnsim baseline save`, `rnsim check`): the orchestration that plays games with
the tournament runner and hands the counts to :mod:`rnsim.analysis.paired` and
:mod:`rnsim.analysis.sequential`.

A baseline is a small JSON file: per cell the forger's and the agent's wins,
timeouts, errors and games, plus the config it came from, the rules hash of
every variant, the rnsim version, the master seed and the gate's design
(tolerance, error rates, batch, budget), so `rnsim check --baseline FILE`
needs nothing else.

Under the baseline's master seed the check first replays the baseline's first
games of each cell (the baseline stores their forger outcomes): a cell whose
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

import io
import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from rnsim.analysis.paired import ALL, paired_differences
from rnsim.analysis.sequential import (
    DRIFT,
    NO_DRIFT,
    UNDECIDED,
    GateDesign,
    SequentialGate,
    batch_sizes,
    replay_games_needed,
    replay_miss_bound,
)
from rnsim.config import Cell, RunConfig, Variant, config_from_mapping, load_config
from rnsim.errors import ConfigError, RnsimError

BASELINE_FORMAT = "rnsim-baseline/1"
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

EXIT_NO_DRIFT, EXIT_DRIFT, EXIT_USAGE, EXIT_UNDECIDED = 0, 1, 2, 3

Echo = Callable[[str], None]


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr)


# ------------------------------------------------------------------ playing games


def cell_labels(cfg: RunConfig, cell: Cell) -> dict[str, str]:
    """The cell as the result table names it: variant, setup, ``<seat>_strategy``."""
    return cfg.cell_labels(cell)


def cell_name(labels: dict[str, str]) -> str:
    """"variant · setup · strategy vs strategy ..." from a cell's labels (in table order)."""
    vals = list(labels.values())
    return f"{vals[0]} · {vals[1]} · {' vs '.join(str(v) for v in vals[2:])}"


def count_columns(seats: Sequence[str]) -> tuple[str, ...]:
    """Per-cell counts: games played out, each seat's wins, no-winner games, errors."""
    return ("games", *(f"{s}_wins" for s in seats), "timeouts", "errors")


def balance_seat(cfg: RunConfig) -> str:
    """The seat whose win rate the gate and the comparison watch (the game's
    ``balance_seat``, else seat 0)."""
    return cfg.seats[int(getattr(cfg.game_obj, "balance_seat", 0))]


def seat_title(cfg: RunConfig, seat: str) -> str:
    """How the reports name a seat: its role and name ("forger (Angela)") when the game gives roles."""
    role = getattr(cfg.game_obj, "seat_roles", {}).get(seat)
    return f"{role} ({seat.capitalize()})" if role else seat.capitalize()


def seat_role(cfg: RunConfig, seat: str) -> str:
    return str(getattr(cfg.game_obj, "seat_roles", {}).get(seat) or seat.capitalize())


def play_games(
    cfg: RunConfig, ranges: Sequence[tuple[int, int, int]], *, run_id: str = "drift-check",
    pool: GamePool | None = None,
) -> pl.DataFrame:
    """Play game indices ``[start, stop)`` of each ``(cell id, start, stop)``: one row
    per game (``cell``, ``game_index``, ``winner``, ``end_reason``). Without a
    ``pool`` the config's backend plays them (one run)."""
    from rnsim.tournament.schedule import Chunk
    from rnsim.tournament.worker import ChunkOutput

    total = sum(b - a for _, a, b in ranges)
    # small chunks when the batch is small, so every worker gets a share
    size = max(1, min(cfg.chunk_size, math.ceil(total / (2 * cfg.workers))))
    chunks = [Chunk(c, a, min(a + size, b)) for c, s, b in ranges for a in range(s, b, size)]
    frames: list[pl.DataFrame] = [pl.DataFrame(schema={"game_index": pl.Int64, "winner": pl.String,
                                                       "end_reason": pl.String, "cell": pl.Int64})]

    def on_result(out: ChunkOutput) -> None:
        rows = pl.read_parquet(io.BytesIO(out.rows), columns=["game_index", "winner", "end_reason"])
        frames.append(rows.with_columns(pl.lit(out.chunk.cell, dtype=pl.Int64).alias("cell")))

    if chunks:
        if pool is not None:
            pool.run(chunks, on_result)
        else:
            with GamePool(cfg, run_id, persistent=False) as once:
                once.run(chunks, on_result)
    return pl.concat(frames, how="vertical_relaxed")


def counts_by_cell(games: pl.DataFrame, cells: Sequence[int], seats: Sequence[str]) -> dict[int, dict[str, int]]:
    """Per cell id: games played out (error rows apart), wins of each seat,
    games with no winner, errors."""
    cols = count_columns(seats)
    out: dict[int, dict[str, int]] = {c: dict.fromkeys(cols, 0) for c in cells}
    played = pl.col("end_reason") != "error"
    counts = games.group_by("cell").agg(
        played.sum().alias("games"),
        *((pl.col("winner") == s).fill_null(False).sum().alias(f"{s}_wins") for s in seats),
        (pl.col("winner").is_null() & played).sum().alias("timeouts"),
        (~played).sum().alias("errors"),
    )
    for row in counts.iter_rows(named=True):
        out[row["cell"]] = {k: int(row[k]) for k in cols}
    return out


def play_counts(
    cfg: RunConfig, ranges: Sequence[tuple[int, int, int]], *, run_id: str = "drift-check",
    pool: GamePool | None = None,
) -> dict[int, dict[str, int]]:
    """Play the ranges (see :func:`play_games`) and count per cell id."""
    return counts_by_cell(play_games(cfg, ranges, run_id=run_id, pool=pool), [c for c, _, _ in ranges], cfg.seats)


def seat_outcomes(games: pl.DataFrame, cell: int, seat: str) -> str:
    """A seat's outcome of each game of a cell in game-index order: "1" won,
    "0" did not (lost or no winner), "E" the game failed."""
    rows = games.filter(pl.col("cell") == cell).sort("game_index")
    return "".join(
        "E" if r == "error" else ("1" if w == seat else "0")
        for w, r in zip(rows["winner"].to_list(), rows["end_reason"].to_list(), strict=True)
    )


_WORKER: Any = None  # the WorkerState of a GamePool worker process
_WORKER_FAILED: str | None = None


def _pool_init(plan: Any) -> None:
    # An initializer that raises makes a Pool respawn workers forever: keep the
    # traceback and report it from the first chunk instead.
    global _WORKER, _WORKER_FAILED
    try:
        from rnsim.tournament.worker import WorkerState

        _WORKER = WorkerState(plan)
    except BaseException:
        import traceback

        _WORKER_FAILED = traceback.format_exc()


def _pool_play(chunk: Any) -> Any:
    from rnsim.tournament.worker import play_chunk

    if _WORKER_FAILED is not None:
        raise RuntimeError(f"the worker could not start:\n{_WORKER_FAILED}")
    return play_chunk(_WORKER, chunk)


class GamePool:
    """Where the check's batches are played. The check plays many small batches
    (small batches stop closer to the moment the test decides), so with the
    process backend the worker processes are started once and kept for every
    batch instead of once per batch; the serial backend plays in this process and
    any other backend (a cluster) runs each batch as a run. Every path plays the
    same games through the runner's ``play_chunk``, so counts never depend on it."""

    def __init__(self, cfg: RunConfig, run_id: str, persistent: bool = True) -> None:
        from rnsim.tournament.worker import Plan, WorkerState

        self.cfg = cfg
        self.plan = Plan.from_config(cfg, run_id)
        self.state: Any = None
        self.pool: Any = None
        self.persistent = persistent
        if cfg.backend == "serial" or (cfg.backend == "process" and cfg.workers == 1):
            self.state = WorkerState(self.plan)
        elif cfg.backend == "process" and persistent:
            import multiprocess as mp

            # spawn, as the runner does: the parent has Polars' thread pool running
            self.pool = mp.get_context("spawn").Pool(cfg.workers, initializer=_pool_init, initargs=(self.plan,))

    def run(self, chunks: Sequence[Any], on_result: Callable[[Any], None]) -> None:
        from rnsim.tournament.backends import get_backend
        from rnsim.tournament.worker import play_chunk

        if self.state is not None:
            for c in chunks:
                on_result(play_chunk(self.state, c))
        elif self.pool is not None:
            try:
                for out in self.pool.imap_unordered(_pool_play, chunks):
                    on_result(out)
            except RuntimeError as e:
                raise RnsimError(f"a worker process failed: {e}") from None
        else:
            get_backend(self.cfg.backend, min(self.cfg.workers, len(chunks))).run(self.plan, chunks, on_result)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.terminate()
            self.pool.join()
            self.pool = None

    def __enter__(self) -> GamePool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ------------------------------------------------------------------ baselines


@dataclass
class Baseline:
    path: Path
    data: dict[str, Any]

    @property
    def cells(self) -> list[dict[str, Any]]:
        cells: list[dict[str, Any]] = self.data["cells"]
        return cells

    @property
    def gate(self) -> dict[str, Any]:
        gate: dict[str, Any] = self.data["gate"]
        return gate

    @property
    def games_per_cell(self) -> int:
        return int(self.data["games_per_cell"])

    @property
    def master_seed(self) -> int:
        return int(self.data["master_seed"])

    def config_path(self) -> Path | None:
        ref = self.data.get("config_file")
        return None if ref is None else (self.path.parent / ref)


def _relative(target: Path, start: Path) -> str:
    import os

    try:
        return os.path.relpath(target.resolve(), start.resolve())
    except ValueError:  # another drive
        return str(target.resolve())


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
         f"(backend {cfg.backend}" + (f", {cfg.workers} workers)" if cfg.backend != "serial" else ")"))
    played = play_games(cfg, [(c.id, 0, n0) for c in cells], run_id="baseline")
    counts = counts_by_cell(played, [c.id for c in cells], cfg.seats)
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
        "config_file": _relative(config, out.parent),
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
            # the forger's outcomes of each cell's first games ("replay" below), for
            # the exact replay a check under this seed starts with
            "replay_games": replay_k,
            "replay_miss": replay_miss,
        },
        "cells": rows,
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(data, indent=2) + "\n")
    return Baseline(out, data)


def load_baseline(path: Path) -> Baseline:
    src = str(path)
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError:
        raise ConfigError(f"{src}: baseline file not found (make one with `rnsim baseline save CONFIG --out {src}`)") from None
    except (OSError, json.JSONDecodeError) as e:
        raise ConfigError(f"{src}: not a readable baseline file ({e})") from None
    if not isinstance(data, dict) or data.get("format") != BASELINE_FORMAT:
        raise ConfigError(f"{src}: format: expected {BASELINE_FORMAT!r}, got {data.get('format') if isinstance(data, dict) else data!r}")
    for key in ("config", "master_seed", "games_per_cell", "gate", "cells", "rules_hash"):
        if key not in data:
            raise ConfigError(f"{src}: missing key {key!r}")
    for key in ("delta", "alpha", "beta", "batch", "budget"):
        if key not in data["gate"]:
            raise ConfigError(f"{src}: gate: missing key {key!r}")
    for i, c in enumerate(data["cells"]):
        if not isinstance(c, dict) or len(c) < 4:
            raise ConfigError(f"{src}: cells[{i}]: expected a table of labels and counts, got {c!r}")
        for key in ("variant", "games"):
            if key not in c:
                raise ConfigError(f"{src}: cells[{i}]: missing key {key!r}")
    return Baseline(path, data)


# ------------------------------------------------------------------ the check


@dataclass
class CheckCell:
    name: str
    cell_id: int
    baseline: dict[str, Any]
    counts: dict[str, int] = field(default_factory=dict)
    replayed: int = 0  # baseline games replayed
    replay_differs: int | None = None  # game index of the first replayed game that ended otherwise
    replay_settled: bool = False  # decided "no drift" by the replay


@dataclass
class CheckOutcome:
    verdict: str  # DRIFT, NO_DRIFT or UNDECIDED
    gate: SequentialGate
    cells: list[CheckCell]
    games: int
    budget: int
    notes: list[str]
    block: str

    @property
    def exit_code(self) -> int:
        return {NO_DRIFT: EXIT_NO_DRIFT, DRIFT: EXIT_DRIFT, UNDECIDED: EXIT_UNDECIDED}[self.verdict]


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
    from rnsim import __version__

    base = load_baseline(baseline_path)
    gate_cfg = base.gate
    d = float(delta if delta is not None else gate_cfg["delta"])
    b_total = float(beta if beta is not None else gate_cfg["beta"])
    replay_k = replay_games_needed(d, REPLAY_SHARE * b_total) if 0 < d < 0.25 and 0 < b_total < 1 else 0
    replay = (replay and (seed is None or seed == base.master_seed)
              and all(len(str(c.get("replay", ""))) >= replay_k for c in base.cells))
    design = GateDesign(
        delta=d,
        alpha=float(alpha if alpha is not None else gate_cfg["alpha"]),
        # the replay spends its share of beta; the SPRT keeps the rest
        beta=b_total * (1 - REPLAY_SHARE) if replay else b_total,
        cells=len(base.cells),
    )
    master = base.master_seed if seed is None else seed
    cfg = _current_config(base, config, master, workers, backend)
    seat = str(gate_cfg.get("seat") or balance_seat(cfg))
    wins = f"{seat}_wins"
    for i, b in enumerate(base.cells):
        if wins not in b:
            raise ConfigError(f"{baseline_path}: cells[{i}]: missing key {wins!r}")
    if (delta, alpha, beta) != (None, None, None):
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
    if seed is not None and seed < 0:
        raise ConfigError(f"--seed: must be a non-negative whole number, got {seed}")

    # Fresh games: past the baseline's indices under its seed, from 0 under another.
    offset = base.games_per_cell if master == base.master_seed else 0

    all_cells = cfg.cells()
    label_keys = list(cell_labels(cfg, all_cells[0])) if all_cells else []
    by_label = {tuple(cell_labels(cfg, c).values()): c for c in all_cells}
    cells: list[CheckCell] = []
    cols = count_columns(cfg.seats)
    for i, b in enumerate(base.cells):
        labels = {k: b.get(k) for k in label_keys}
        c = by_label.get(tuple(labels.values()))
        if c is None:
            raise ConfigError(
                f"{baseline_path}: cells[{i}] ({cell_name(labels)}) "
                f"is not a cell of the current config {cfg.path or '(stored copy)'}; the check compares the same cells. "
                "Regenerate the baseline if the cells changed on purpose"
            )
        cells.append(CheckCell(cell_name(labels), c.id, b, dict.fromkeys(cols, 0)))

    notes: list[str] = []
    if base.data.get("rnsim_version") != __version__:
        notes.append(f"rnsim version {base.data.get('rnsim_version')} -> {__version__}")
    for v in cfg.variants:
        old = base.data["rules_hash"].get(v.name)
        if old is not None and old != v.digest:
            changed = _rule_changes(base.data.get("rules", {}).get(v.name, {}), v)
            notes.append(f"rules of variant {v.name!r} changed since the baseline ({old} -> {v.digest}"
                         + (f": {changed}" if changed else ", component data") + ")")
    extra = len(cfg.cells()) - len(cells)
    if extra > 0:
        notes.append(f"{extra} cell(s) of the current config are not in the baseline and are not checked")

    gate = SequentialGate(design, [(int(b[wins]), int(b["games"])) for b in base.cells])
    used = 0
    next_index = [offset] * len(cells)
    echo(f"check: {len(cells)} cell(s), batches of up to {batch} games per open cell, budget {budget:,} games, "
         f"master seed {master}, game indices from {offset}")
    with GamePool(cfg, "drift-check") as pool:
        if replay:
            used = _replay(cfg, cells, gate, replay_k, budget, pool, echo, seat)
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
    errors = sum(c.counts["errors"] for c in cells)
    if errors:
        notes.append(f"{errors} game(s) ended in a strategy or engine error and were left out (see `rnsim run`)")
    outcome = CheckOutcome(gate.overall, gate, cells, used, budget, notes, "")
    outcome.block = results_block(outcome, base, design, master, offset, replay_k if replay else 0, b_total,
                                  role=seat_role(cfg, seat))
    return outcome


def _replay(cfg: RunConfig, cells: list[CheckCell], gate: SequentialGate, k: int, budget: int,
            pool: GamePool, echo: Echo, seat: str) -> int:
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


def _pct(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:.1f}%"


def _pts(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:+.1f}"


def results_block(outcome: CheckOutcome, base: Baseline, design: GateDesign, master: int, offset: int,
                  replay_k: int = 0, beta_total: float | None = None, role: str = "seat 0") -> str:
    """The Markdown block to paste into a pull request."""
    beta_total = design.beta if beta_total is None else beta_total
    title = {DRIFT: "DRIFT", NO_DRIFT: "no drift", UNDECIDED: "UNDECIDED"}[outcome.verdict]
    settled = sum(c.replay_settled for c in outcome.cells)
    fresh = sum(c.counts["games"] + c.counts["errors"] for c in outcome.cells)
    replay_line = ""
    if replay_k:
        replay_line = (
            f" The first {replay_k} baseline games of each cell were replayed (same chance streams): the {role}'s "
            f"outcome was identical in every one of them in {settled} of {len(outcome.cells)} cell(s), which settles "
            f"those as no drift (a move of 2δ hides that way with probability at most "
            f"{100 * replay_miss_bound(design.delta, replay_k):.2g}%)"
            + ("." if settled == len(outcome.cells) else "; the other cells were tested on fresh games."))
    fresh_part = f", {fresh:,} of them fresh (seed {master}, game indices from {offset})" if fresh else ""
    lines = [
        f"### rnsim balance check: {title}",
        "",
        f"Baseline `{base.path}` (rnsim {base.data.get('rnsim_version')}, seed {base.master_seed}, "
        f"{base.games_per_cell:,} games per cell) against the current code: {outcome.games:,} games of a "
        f"{outcome.budget:,}-game budget{fresh_part}." + replay_line,
        f"{role[:1].upper() + role[1:]}'s win rate per cell; tolerance δ = {100 * design.delta:g} points: no change is flagged in at most "
        f"{100 * design.alpha:g}% of checks over all {design.cells} cell(s), a move of {200 * design.delta:g} points "
        f"(2δ) in at least {100 * (1 - beta_total):g}%.",
        "",
        "| cell | baseline | current | difference, points (95% CI) | LLR [bounds] | games | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for c, r in zip(outcome.cells, outcome.gate.results(), strict=True):
        if c.replay_settled:
            lines.append(
                f"| {c.name} | {_pct(r.baseline_rate)} | same outcome in all {c.replayed} replayed games | 0 (exact) | "
                f"replay | {c.replayed:,} replayed | {r.verdict} |"
            )
            continue
        ci = f"{_pts(r.diff)} ({_pts(r.low)}, {_pts(r.high)})"
        more = f" (+{c.replayed} replayed)" if c.replayed else ""
        lines.append(
            f"| {c.name} | {_pct(r.baseline_rate)} | {_pct(r.rate)} | {ci} | "
            f"{r.llr:+.2f} [{r.lower:.2f}, {r.upper:.2f}] | {r.games:,}{more} | {r.verdict} |"
        )
    for n in outcome.notes:
        lines.append(f"\nNote: {n}.")
    return "\n".join(lines)


# ------------------------------------------------------------------ compare


def compare_config(paths: Sequence[Path], *, games: int | None = None, seed: int | None = None,
                   workers: int | str | None = None, backend: str | None = None, out: Path | None = None,
                   echo: Echo = _stderr) -> RunConfig:
    """One run config holding every variant to compare: the variants of a single
    file (it needs at least two ``[[variants]]``), or one variant per file (its
    ``[rules]``, named after the file; the run settings and strategies come from the
    first file). Every variant plays the same cells and game indices."""
    if not paths:
        raise ConfigError("compare: give at least one config file")
    first = load_config(paths[0], games=games, seed=seed, workers=workers, backend=backend, out=out)
    if len(paths) == 1:
        if len(first.variants) < 2:
            raise ConfigError(f"{paths[0]}: variants: compare needs two or more [[variants]] in one file, or two files")
        cfg = first
    else:
        variants: list[Variant] = []
        for p in paths:
            c = first if p == paths[0] else load_config(p, games=games, seed=seed, workers=workers, backend=backend)
            labels = {seat: [s.label for s in specs] for seat, specs in c.strategies.items()}
            first_labels = {seat: [s.label for s in specs] for seat, specs in first.strategies.items()}
            ignored = [k for k, same in (
                ("run.game", c.game == first.game),
                ("strategies", labels == first_labels),
                (f"run.{first.game_obj.setup_key}", c.setups == first.setups), ("run.games", c.games == first.games),
                ("run.seed", c.seed == first.seed)) if not same]
            if ignored:
                echo(f"note: {p}: only its rules are used; {', '.join(ignored)} come from {paths[0]}")
            for v in c.variants:
                name = p.stem if len(c.variants) == 1 else f"{p.stem}.{v.name}"
                if any(x.name == name for x in variants):
                    raise ConfigError(f"{p}: variant name {name!r} is used twice; rename a file or a [[variants]] name")
                variants.append(Variant(name, v.rules, v.digest, v.setups))
        cfg = replace(first, variants=variants)
    if out is None:
        stem = "-vs-".join(p.stem for p in paths) if len(paths) > 1 else paths[0].stem
        cfg = replace(cfg, out=Path("runs") / f"compare-{stem}")
    return cfg


@dataclass
class Comparison:
    run_dir: Path
    reference: str
    tables: dict[str, pl.DataFrame]  # variant -> paired_differences (forger)
    text: str


def compare_run(cfg: RunConfig, *, progress: bool = True, echo: Echo = _stderr) -> Comparison:
    from rnsim.analysis.load import scan_results
    from rnsim.tournament.run import run_tournament

    summary = run_tournament(cfg, progress=progress, echo=echo)
    if not summary.complete:
        raise RnsimError(f"{cfg.out}: the run was interrupted; run the same command again to resume")
    results = scan_results(cfg.out)
    reference = cfg.variants[0].name
    tables = {v.name: paired_differences(results, reference, v.name) for v in cfg.variants[1:]}
    text = comparison_text(cfg, results, reference, tables)
    (cfg.out / "tables").mkdir(exist_ok=True)
    for name, t in tables.items():
        t.write_csv(cfg.out / "tables" / f"paired_{reference}_vs_{name}.csv")
    (cfg.out / "compare.md").write_text(text + "\n")
    return Comparison(cfg.out, reference, tables, text)


def comparison_text(cfg: RunConfig, results: pl.LazyFrame, reference: str, tables: dict[str, pl.DataFrame]) -> str:
    from rnsim.games.red_notice.analysis import identity_pairs

    rates = identity_pairs(results)
    lines = [
        f"## Variants compared on the same games ({cfg.games:,} per cell, seed {cfg.seed})",
        "",
        "Game i of every variant sees the same chance stream, so differences are paired per game. "
        "Win rates are the forger's (Angela's); timeouts count as no win. Intervals are 95%.",
        "",
    ]
    # each variant's own rates per identity pair (Wilson intervals)
    lines += ["### Win rates", "", "| variant | identity pair | strategies | games | forger | agent | timeouts |",
              "|---|---|---|---|---|---|---|"]
    for r in rates.sort(["identity_pair", "variant", "angela_strategy", "jessah_strategy"]).iter_rows(named=True):
        lines.append(
            f"| {r['variant']} | {r['identity_pair']} | {r['angela_strategy']} vs {r['jessah_strategy']} | {r['games']:,} | "
            f"{_pct(r['forger_rate'])} ({_pct(r['forger_rate_lo'])}–{_pct(r['forger_rate_hi'])}) | "
            f"{_pct(r['agent_rate'])} | {_pct(r['timeout_rate'])} |"
        )
    for name, t in tables.items():
        overall = t.filter(pl.col("identity_pair") == ALL).row(0, named=True)
        lines += [
            "",
            f"### {name} − {reference}: forger's win rate, paired",
            "",
            "| identity pair | strategies | games | " + f"{reference} | {name} | difference, points (paired 95% CI) | "
            "unpaired CI | variance removed by pairing |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in t.iter_rows(named=True):
            strategies = "all" if r["identity_pair"] == ALL else f"{r['angela_strategy']} vs {r['jessah_strategy']}"
            removed = "n/a" if r["variance_removed"] is None else f"{100 * r['variance_removed']:.0f}%"
            label = "**all cells**" if r["identity_pair"] == ALL else r["identity_pair"]
            lines.append(
                f"| {label} | {strategies} | {r['games']:,} | {_pct(r['rate_ref'])} | {_pct(r['rate_var'])} | "
                f"{_pts(r['diff'])} ({_pts(r['paired_lo'])}, {_pts(r['paired_hi'])}) | "
                f"({_pts(r['unpaired_lo'])}, {_pts(r['unpaired_hi'])}) | {removed} |"
            )
        vr = overall["variance_removed"]
        if vr is not None and vr < 1:
            lines += ["", f"Pairing removed {100 * vr:.0f}% of the variance of the overall difference on this run: "
                      f"the unpaired estimate would need {1 / (1 - vr):.1f}x as many games for the same interval."]
        elif vr is not None:
            lines += ["", "Every game ended the same way under both variants: the difference is exactly zero."]
    return "\n".join(lines)
