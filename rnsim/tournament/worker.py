"""What a worker does: build rules and strategies once, then play chunks.

A worker receives a :class:`Plan` once and then small chunk descriptors; it
returns each chunk's rows already encoded as Parquet bytes, so the parent only
writes files and never touches per-game data. Nothing here knows which game
is played: rows are the core columns plus the game's own record
(rnsim/results.py).
"""

from __future__ import annotations

import io
import random
import time
import traceback
from dataclasses import dataclass
from typing import Any

import polars as pl

from rnsim.config import Cell, RunConfig, StrategySpec, Variant
from rnsim.games import get_game
from rnsim.play import StrategyError, fewer_collections, run_game
from rnsim.results import error_schema, result_schema
from rnsim.seeding import game_seeds
from rnsim.strategy import Strategy, load_strategy
from rnsim.tournament.schedule import Chunk


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs, small and picklable."""

    run_id: str
    master_seed: int
    game: str
    variants: tuple[Variant, ...]
    cells: tuple[Cell, ...]
    seats: tuple[str, ...]
    strategies: tuple[tuple[StrategySpec, ...], ...]  # per seat, in seat order

    @classmethod
    def from_config(cls, cfg: RunConfig, run_id: str) -> Plan:
        """The config's cells, then its band's (rnsim.band.plan), whose
        strategies follow the config's in each seat's list."""
        from rnsim.band.plan import band_plan

        bp = band_plan(cfg)
        return cls(run_id, cfg.seed, cfg.game, tuple(cfg.variants), (*cfg.cells(), *bp.cells), cfg.seats,
                   tuple(tuple(v) for v in bp.strategies.values()))

    @property
    def schema(self) -> dict[str, pl.DataType]:
        """The result table's columns: one schema for every shard of the run."""
        return result_schema(self.game, [v.rules for v in self.variants])


@dataclass
class ChunkOutput:
    chunk: Chunk
    rows: bytes  # Parquet
    errors: bytes | None  # Parquet, when some game failed
    games: int
    n_errors: int
    seconds: float


class WorkerState:
    """The game, the table schema and strategy instances, built once per worker."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.game: Any = get_game(plan.game)
        self._strategies: dict[tuple[int, int], Strategy] = {}
        self.schema = plan.schema
        self.error_schema = error_schema(self.game)
        self.setup_column: str = self.game.setup_column
        self.seat_columns = [f"{s}_strategy" for s in self.game.seats(None)]
        core = ("run_id", "variant", self.setup_column, *self.seat_columns, "game_index", "seed", "rules_hash",
                "winner", "end_reason", "rounds")
        self.own = [k for k in self.schema if k not in core]

    def strategy(self, seat: int, idx: int) -> Strategy:
        # One instance per seat and spec: run_game calls new_game before each game.
        key = (seat, idx)
        s = self._strategies.get(key)
        if s is None:
            spec = self.plan.strategies[seat][idx]
            s = self._strategies[key] = load_strategy(spec.ref, spec.params, self.game)
        return s


def play_chunk(ws: WorkerState, chunk: Chunk) -> ChunkOutput:
    with fewer_collections():
        return _play_chunk(ws, chunk)


def _play_chunk(ws: WorkerState, chunk: Chunk) -> ChunkOutput:
    t0 = time.perf_counter()
    plan = ws.plan
    game = ws.game
    cell = plan.cells[chunk.cell]
    var = plan.variants[cell.variant]
    rules = var.rules
    strategies = [ws.strategy(seat, idx) for seat, idx in enumerate(cell.strategies)]
    labels = {f"{seat}_strategy": plan.strategies[n][idx].label
              for n, (seat, idx) in enumerate(zip(plan.seats, cell.strategies, strict=False))}
    seat_labels = [(c, labels.get(c)) for c in ws.seat_columns]
    cols: dict[str, list[Any]] = {k: [] for k in ws.schema}
    errs: dict[str, list[Any]] = {k: [] for k in ws.error_schema}
    own = [(cols[k].append, k) for k in ws.own]
    setup_col = ws.setup_column
    master = plan.master_seed
    n_err = 0

    for i in range(chunk.start, chunk.stop):
        err: dict[str, Any] | None = None
        try:
            out = run_game(game, rules, strategies, master, i, setup=cell.setup)
        except StrategyError as e:
            err = {"seat": e.seat, "strategy": e.strategy, "decision": e.decision, "message": str(e),
                   "traceback": e.traceback}
        except Exception as e:  # an engine fault must not stop the run either
            err = {"seat": None, "strategy": None, "decision": None, "message": f"{type(e).__name__}: {e}",
                   "traceback": traceback.format_exc()}
        c = cols
        c["run_id"].append(plan.run_id)
        c["variant"].append(var.name)
        for k, v in seat_labels:
            c[k].append(v)
        c["game_index"].append(i)
        c["rules_hash"].append(var.digest)
        if err is None:
            rec = out.record
            # a setup drawn by chance is in the record; a given one is the cell's
            c[setup_col].append(rec.get(setup_col, cell.setup_label))
            c["seed"].append(out.seed)
            c["winner"].append(out.winner)
            c["end_reason"].append(out.end_reason)
            c["rounds"].append(out.rounds)
            for append, k in own:
                append(rec.get(k))
            continue
        n_err += 1
        seed = game_seeds(master, i, len(strategies)).chance
        try:
            label = game.setup_label(rules, cell.setup, random.Random(seed))
        except Exception:
            label = cell.setup_label
        c[setup_col].append(label)
        c["seed"].append(seed)
        c["winner"].append(None)
        c["end_reason"].append("error")
        c["rounds"].append(None)
        for append, _ in own:
            append(None)
        for k, v in (("run_id", plan.run_id), ("variant", var.name), (setup_col, label), *seat_labels,
                     ("game_index", i), ("seed", seed)):
            errs[k].append(v)
        for k, v in err.items():
            errs[k].append(v)

    rows = _parquet(pl.DataFrame(cols, schema=ws.schema))
    errors = _parquet(pl.DataFrame(errs, schema=ws.error_schema)) if n_err else None
    return ChunkOutput(chunk, rows, errors, chunk.games, n_err, time.perf_counter() - t0)


def _parquet(df: pl.DataFrame) -> bytes:
    buf = io.BytesIO()
    df.write_parquet(buf, compression="zstd", statistics=True)
    return buf.getvalue()
