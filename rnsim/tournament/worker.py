"""What a worker does: build rules and strategies once, then play chunks.

A worker receives a :class:`Plan` once and then small chunk descriptors; it
returns each chunk's rows already encoded as Parquet bytes, so the parent only
writes files and never touches per-game data.
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
from rnsim.games.red_notice.rules.components import Components
from rnsim.play import GameResult, StrategyError, run_game
from rnsim.results import ERROR_SCHEMA, STAT_COLUMNS, result_schema
from rnsim.seeding import game_seeds
from rnsim.strategy import Strategy, load_strategy
from rnsim.tournament.schedule import Chunk


@dataclass(frozen=True)
class Plan:
    """Everything a worker needs, small and picklable."""

    run_id: str
    master_seed: int
    variants: tuple[Variant, ...]
    cells: tuple[Cell, ...]
    angela: tuple[StrategySpec, ...]
    jessah: tuple[StrategySpec, ...]
    upgrade_ids: tuple[str, ...]

    @classmethod
    def from_config(cls, cfg: RunConfig, run_id: str) -> Plan:
        return cls(run_id, cfg.seed, tuple(cfg.variants), tuple(cfg.cells()), tuple(cfg.angela),
                   tuple(cfg.jessah), upgrade_ids(cfg))


def upgrade_ids(cfg: RunConfig) -> tuple[str, ...]:
    """Upgrade ids of every variant's component set, in first-seen order, so all
    shards of a run share one schema."""
    seen: list[str] = []
    for v in cfg.variants:
        for u in v.rules.load_components().upgrade_ids:
            if u not in seen:
                seen.append(u)
    return tuple(seen)


@dataclass
class ChunkOutput:
    chunk: Chunk
    rows: bytes  # Parquet
    errors: bytes | None  # Parquet, when some game failed
    games: int
    n_errors: int
    seconds: float


class WorkerState:
    """Rules, components and strategy instances, built once per worker."""

    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.comps: list[Components] = [v.rules.load_components() for v in plan.variants]
        self._strategies: dict[tuple[int, int], Strategy] = {}
        self.schema = result_schema(plan.upgrade_ids)
        self.ident_ids = [[i.id for i in c.identities] for c in self.comps]

    def strategy(self, seat: int, idx: int) -> Strategy:
        # One instance per seat and spec: run_game calls new_game before each game.
        key = (seat, idx)
        s = self._strategies.get(key)
        if s is None:
            spec = (self.plan.angela if seat == 0 else self.plan.jessah)[idx]
            s = self._strategies[key] = load_strategy(spec.ref, spec.params)
        return s

    def drawn_identities(self, variant: int, game_index: int) -> tuple[str, ...]:
        """Angela's identities when the engine draws them, for an error row:
        the same setup draw the game made (it is the chance stream's first draw)."""
        from rnsim.games.red_notice.engine.state import GameState

        v = self.plan.variants[variant]
        s = GameState.new(v.rules, random.Random(game_seeds(self.plan.master_seed, game_index).chance),
                          comps=self.comps[variant])
        comps = self.comps[variant]
        return tuple(comps.identities[i].id for i in sorted(s.identities_up))


def play_chunk(ws: WorkerState, chunk: Chunk) -> ChunkOutput:
    t0 = time.perf_counter()
    plan = ws.plan
    cell = plan.cells[chunk.cell]
    var = plan.variants[cell.variant]
    comps = ws.comps[cell.variant]
    rules = var.rules
    angela = ws.strategy(0, cell.angela)
    jessah = ws.strategy(1, cell.jessah)
    a_label = plan.angela[cell.angela].label
    j_label = plan.jessah[cell.jessah].label
    cols: dict[str, list[Any]] = {k: [] for k in ws.schema}
    errs: dict[str, list[Any]] = {k: [] for k in ERROR_SCHEMA}
    ups = plan.upgrade_ids
    master = plan.master_seed
    n_err = 0

    for i in range(chunk.start, chunk.stop):
        res: GameResult | None = None
        err: dict[str, Any] | None = None
        try:
            res = run_game(rules, angela, jessah, master, i, identities=cell.identities, comps=comps)
        except StrategyError as e:
            err = {"seat": e.seat, "strategy": e.strategy, "decision": e.decision, "message": str(e),
                   "traceback": e.traceback}
        except Exception as e:  # an engine fault must not stop the run either
            err = {"seat": None, "strategy": None, "decision": None, "message": f"{type(e).__name__}: {e}",
                   "traceback": traceback.format_exc()}
        if res is not None:
            ids = res.identities
        elif cell.identities is not None:
            ids = cell.identities
        else:
            try:
                ids = ws.drawn_identities(cell.variant, i)
            except Exception:
                ids = ()
        pair = "+".join(ids)
        seed = res.seed if res is not None else game_seeds(master, i).chance
        c = cols
        c["run_id"].append(plan.run_id)
        c["variant"].append(var.name)
        c["identity_pair"].append(pair)
        c["identity_1"].append(ids[0] if len(ids) > 0 else None)
        c["identity_2"].append(ids[1] if len(ids) > 1 else None)
        c["angela_strategy"].append(a_label)
        c["jessah_strategy"].append(j_label)
        c["game_index"].append(i)
        c["seed"].append(seed)
        c["rules_hash"].append(var.digest)
        if res is None:
            assert err is not None
            n_err += 1
            c["winner"].append(None)
            c["end_reason"].append("error")
            for k in ws.schema:
                if len(c[k]) == len(c["run_id"]) - 1:
                    c[k].append(None)
            for k, v in (("run_id", plan.run_id), ("variant", var.name), ("identity_pair", pair),
                         ("angela_strategy", a_label), ("jessah_strategy", j_label), ("game_index", i),
                         ("seed", seed)):
                errs[k].append(v)
            for k, v in err.items():
                errs[k].append(v)
            continue
        st = res.stats
        c["winner"].append(res.winner)
        c["end_reason"].append(res.end_reason)
        c["rounds"].append(res.rounds)
        c["angela_cashed"].append(res.angela_cashed)
        c["jessah_cashed"].append(res.jessah_cashed)
        c["captures"].append(res.captures)
        c["checks_cashed_angela"].append(st.get("checks_cashed_angela", 0))
        c["checks_cashed_jessah"].append(st.get("checks_cashed_jessah", 0))
        for k in STAT_COLUMNS:
            c[k].append(st.get(k, 0))
        burnt = res.identities_burnt
        c["identity_burnt_1"].append(burnt[0] if len(burnt) > 0 else None)
        c["identity_burnt_2"].append(burnt[1] if len(burnt) > 1 else None)
        gained = res.upgrades_gained
        for u in ups:
            r = gained.get(u)
            c[f"upgrade_{u}"].append(r is not None)
            c[f"upgrade_{u}_round"].append(r)
        c["angela_cash_by_round"].append(res.angela_cash_by_round)
        c["jessah_cash_by_round"].append(res.jessah_cash_by_round)
        c["captures_by_round"].append(res.captures_by_round)

    rows = _parquet(pl.DataFrame(cols, schema=ws.schema))
    errors = _parquet(pl.DataFrame(errs, schema=ERROR_SCHEMA)) if n_err else None
    return ChunkOutput(chunk, rows, errors, chunk.games, n_err, time.perf_counter() - t0)


def _parquet(df: pl.DataFrame) -> bytes:
    buf = io.BytesIO()
    df.write_parquet(buf, compression="zstd", statistics=True)
    return buf.getvalue()
