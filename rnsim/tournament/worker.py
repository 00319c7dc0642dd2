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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import accumulate, chain
from operator import itemgetter
from typing import Any, cast

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
        self.read_own = _reader(self.own)
        self.layout = FrameLayout.of(self.schema)

    def strategy(self, seat: int, idx: int) -> Strategy:
        # One instance per seat and spec: run_game calls new_game before each game.
        key = (seat, idx)
        s = self._strategies.get(key)
        if s is None:
            spec = self.plan.strategies[seat][idx]
            s = self._strategies[key] = load_strategy(spec.ref, spec.params, self.game)
        return s


def _reader(keys: Sequence[str]) -> Callable[[Mapping[str, Any]], tuple[Any, ...]]:
    """The values of ``keys`` in a record, as a tuple, in one C call; KeyError
    when one is missing."""
    if len(keys) > 1:
        return cast(Callable[[Mapping[str, Any]], tuple[Any, ...]], itemgetter(*keys))
    return lambda rec: tuple(rec[k] for k in keys)


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
    errs: dict[str, list[Any]] = {k: [] for k in ws.error_schema}
    # Per game, one tuple of the columns that vary (setup, seed, winner, end
    # reason, rounds) and one of the game's own columns, read off its record
    # in one C call (itemgetter): the columns are the tuples transposed at the
    # end, and the ones constant over the chunk are built there once.
    core: list[tuple[Any, ...]] = []
    own: list[tuple[Any, ...]] = []
    keys = ws.own
    read_own = ws.read_own
    no_record = (None,) * len(keys)
    setup_col = ws.setup_column
    master = plan.master_seed
    n_err = 0

    for i in range(chunk.start, chunk.stop):
        try:
            out = run_game(game, rules, strategies, master, i, setup=cell.setup)
        except StrategyError as e:
            err: dict[str, Any] = {"seat": e.seat, "strategy": e.strategy, "decision": e.decision,
                                   "message": str(e), "traceback": e.traceback}
        except Exception as e:  # an engine fault must not stop the run either
            err = {"seat": None, "strategy": None, "decision": None, "message": f"{type(e).__name__}: {e}",
                   "traceback": traceback.format_exc()}
        else:
            rec = out.record
            # a setup drawn by chance is in the record; a given one is the cell's
            core.append((rec.get(setup_col, cell.setup_label), out.seed, out.winner, out.end_reason, out.rounds))
            try:
                own.append(read_own(rec))
            except KeyError:  # a record without some column: None there
                own.append(tuple(map(rec.get, keys)))
            continue
        n_err += 1
        seed = game_seeds(master, i, len(strategies)).chance
        try:
            label = game.setup_label(rules, cell.setup, random.Random(seed))
        except Exception:
            label = cell.setup_label
        core.append((label, seed, None, "error", None))
        own.append(no_record)
        for k, v in (("run_id", plan.run_id), ("variant", var.name), (setup_col, label), *seat_labels,
                     ("game_index", i), ("seed", seed)):
            errs[k].append(v)
        for k, v in err.items():
            errs[k].append(v)

    n = chunk.games
    made: dict[str, Sequence[Any]] = {"run_id": [plan.run_id] * n, "variant": [var.name] * n,
                                      "game_index": range(chunk.start, chunk.stop), "rules_hash": [var.digest] * n}
    for k, v in seat_labels:
        made[k] = [v] * n
    names = (setup_col, "seed", "winner", "end_reason", "rounds", *keys)
    made.update(zip(names, chain(zip(*core, strict=True), zip(*own, strict=True)), strict=False))
    cols = {k: made.get(k, ()) for k in ws.schema}
    rows = _parquet(_frame(cols, ws.schema, ws.layout))
    errors = _parquet(pl.DataFrame(errs, schema=ws.error_schema)) if n_err else None
    return ChunkOutput(chunk, rows, errors, chunk.games, n_err, time.perf_counter() - t0)


@dataclass(frozen=True)
class FrameLayout:
    """A schema read once for :func:`_frame`: its list columns, and its other
    columns grouped by dtype, in schema order."""

    lists: tuple[tuple[str, pl.List], ...]
    by_dtype: tuple[tuple[pl.DataType, tuple[str, ...]], ...]

    @classmethod
    def of(cls, schema: Mapping[str, pl.DataType]) -> FrameLayout:
        groups: dict[pl.DataType, list[str]] = {}
        for k, dt in schema.items():
            if not isinstance(dt, pl.List):
                groups.setdefault(dt, []).append(k)
        return cls(tuple((k, dt) for k, dt in schema.items() if isinstance(dt, pl.List)),
                   tuple((dt, tuple(ks)) for dt, ks in groups.items()))


def _frame(cols: Mapping[str, Sequence[Any]], schema: dict[str, pl.DataType],
           layout: FrameLayout | None = None) -> pl.DataFrame:
    """``pl.DataFrame(cols, schema=schema)``: the same values and Parquet bytes,
    built from one Series per column in schema order (no concatenation, no
    reordering); ``layout`` is ``FrameLayout.of(schema)``, made once per worker.
    Polars makes a Series of each row's list (about 5.6 us a row, 28 of the
    30 us a Red Notice expert game's row took in the table; docs/performance.md,
    "The runner's own cost"), so a list column whose values are all lists (or
    tuples) is built from their items laid end to end: cut into rows of one
    width when they all have it, else sliced back into rows (:func:`_sliced`).
    A list column holding None (a game that ended in an error) is left to the
    Series constructor. The other columns of one dtype are made as one Series,
    each column a slice of it: a Series from Python values costs mostly per
    Series, not per value."""
    n = len(next(iter(cols.values()), ()))
    if not n:
        return pl.DataFrame(cols, schema=schema)
    layout = layout or FrameLayout.of(schema)
    made: dict[str, pl.Series] = {}
    for dt, names in layout.by_dtype:
        whole = pl.Series("", list(chain.from_iterable(cols[k] for k in names)), dtype=dt)
        for j, k in enumerate(names):
            made[k] = whole.slice(j * n, n).alias(k)
    ragged: list[pl.Expr] = []
    bounds: dict[tuple[int, ...], tuple[pl.Expr, pl.Expr]] = {}
    for k, dt in layout.lists:
        v = cols[k]
        if not set(map(type, v)) <= {list, tuple}:
            made[k] = pl.Series(k, v, dtype=dt)
            continue
        lengths = tuple(map(len, v))
        if len(set(lengths)) == 1 and lengths[0]:
            made[k] = pl.Series(k, list(chain.from_iterable(v)), dtype=dt.inner).reshape((n, lengths[0])).cast(dt)
        else:
            ragged.append(_sliced(k, v, dt, lengths, bounds))
    if ragged:
        made.update((s.name, s) for s in pl.select(*ragged))
    return pl.DataFrame([made[k] for k in schema])


def _sliced(name: str, values: Sequence[Any], dtype: pl.List, lengths: tuple[int, ...],
            bounds: dict[tuple[int, ...], tuple[pl.Expr, pl.Expr]]) -> pl.Expr:
    """The list column ``name`` of ``values`` (every one a list, of ``lengths``),
    as an expression: its items in one Series, each row a slice of it (start,
    length). ``bounds`` keeps the slices' starts and lengths by the rows'
    lengths, which columns counted per round share."""
    se = bounds.get(lengths)
    if se is None:
        starts = list(accumulate(lengths, initial=0))
        starts.pop()
        se = bounds[lengths] = (pl.lit(pl.Series(starts)), pl.lit(pl.Series(lengths)))
    items = pl.Series(name, list(chain.from_iterable(values)), dtype=dtype.inner)
    return pl.lit(items).implode().list.slice(*se).alias(name)


def _parquet(df: pl.DataFrame) -> bytes:
    buf = io.BytesIO()
    df.write_parquet(buf, compression="zstd", statistics=True)
    return buf.getvalue()
