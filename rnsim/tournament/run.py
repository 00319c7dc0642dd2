"""Run a tournament: prepare (or resume) the run directory, play the missing
chunks on a backend, write shards as they arrive, keep the manifest.

Resume is by construction: a chunk is done when its shard exists; a new
invocation (one ``rnsim run`` on the directory) plays exactly the games no
shard covers. A directory holding a run of a different config is refused.
"""

from __future__ import annotations

import json
import os
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import FrameType
from typing import Any

import polars as pl

from rnsim.band.plan import band_games, band_plan, manifest_entry
from rnsim.config import RunConfig
from rnsim.errors import ConfigError, RnsimError
from rnsim.results.integrity import RunCheck, check_run
from rnsim.results.manifest import INVOCATIONS, MANIFEST, invocations
from rnsim.results.manifest import read_manifest as _read_manifest
from rnsim.results.shares import share_text
from rnsim.tournament.backends import Terminated, get_backend
from rnsim.tournament.lock import LOCK, run_lock
from rnsim.tournament.schedule import covered, overlaps, plan_chunks
from rnsim.tournament.shards import (
    ERRORS,
    SHARDS,
    ShardWriteError,
    clean_partial,
    finished_chunks,
    load_errors,
    move_aside,
    shard_path,
    unreadable_shards,
    write_atomic,
)
from rnsim.tournament.worker import ChunkOutput, Plan

__all__ = ["MANIFEST", "RunIncomplete", "RunSummary", "prepare_run_dir", "read_manifest", "run_tournament"]

# How often an invocation's running totals (games, seconds) reach the manifest.
PROGRESS_EVERY_S = 1.0


@dataclass
class RunSummary:
    run_dir: Path
    run_id: str
    total_games: int
    done_before: int
    played: int
    errors: int
    seconds: float
    complete: bool
    workers_replaced: int = 0
    end_reasons: dict[str, int] = field(default_factory=dict)
    terminated: bool = False  # stopped by SIGTERM (not Ctrl-C)

    @property
    def games_per_s(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0

    def lines(self) -> list[str]:
        state = "complete" if self.complete else "INTERRUPTED (run the same command again to resume)"
        out = [
            f"run {self.run_id}: {state}",
            f"  directory: {self.run_dir}",
            f"  games: {self.done_before + self.played:,} of {self.total_games:,} "
            f"({self.played:,} played now in {self.seconds:.1f} s, {self.games_per_s:,.0f} games/s"
            + (f"; {self.done_before:,} kept from before" if self.done_before else "") + ")",
        ]
        if self.end_reasons:
            out.append("  end reasons: " + ", ".join(f"{k} {v:,}" for k, v in sorted(self.end_reasons.items())))
        share = f" ({share_text(self.errors, self.total_games)} of the run's games)" if self.complete else ""
        out.append(f"  error games: {self.errors:,}"
                   + (f"{share}; tracebacks in {self.run_dir / ERRORS}" if self.errors else ""))
        if self.workers_replaced:
            out.append(f"  workers replaced after dying: {self.workers_replaced}")
        return out


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_manifest(run_dir: Path) -> dict[str, Any] | None:
    """The manifest of the run in ``run_dir`` (None for a new directory); its
    invocations under INVOCATIONS whatever the key they were written with."""
    return _read_manifest(run_dir, ConfigError)


def _write_manifest(run_dir: Path, data: dict[str, Any]) -> None:
    write_atomic(run_dir / MANIFEST, (json.dumps(data, indent=2, sort_keys=False, default=str) + "\n").encode())


def _differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    out = []
    for k in sorted(set(old) | set(new)):
        if old.get(k) != new.get(k):
            a, b = old.get(k), new.get(k)
            if isinstance(a, int | str | None) and isinstance(b, int | str | None):
                out.append(f"{k}: {a!r} -> {b!r}")
            else:
                out.append(k)
    return out


def prepare_run_dir(cfg: RunConfig) -> tuple[str, dict[str, Any] | None]:
    """Create the run directory, or check that it holds a run of this same config.
    Returns the run id and the existing manifest (None for a new run)."""
    out = cfg.out
    chash = cfg.config_hash()
    if out.exists() and not out.is_dir():
        raise ConfigError(f"run.out: {out} exists and is not a directory")
    entries = [p for p in out.iterdir() if p.name not in (MANIFEST + ".tmp", LOCK)] if out.is_dir() else []
    if entries:
        old = read_manifest(out)
        if old is None:
            raise ConfigError(
                f"run.out: {out} is not empty and holds no {MANIFEST}; choose another --out or empty it"
            )
        if old.get("config_hash") != chash:
            diff = _differences(old.get("config", {}), cfg.resolved())
            raise ConfigError(
                f"run.out: {out} holds a run of a different config ({old.get('config_file')}; differs in: "
                f"{', '.join(diff) or 'rnsim version or component data'}). Resume only with the same config; "
                "choose another --out for a new run"
            )
        return str(old["run_id"]), old
    out.mkdir(parents=True, exist_ok=True)
    stem = cfg.path.stem if cfg.path is not None else "run"
    return f"{stem}-{chash[:8]}", None


class RunIncomplete(RnsimError):
    """The backend finished but games the plan expects are not on disk."""

    exit_code = 1


def run_tournament(
    cfg: RunConfig, *, progress: bool = True, echo: Callable[[str], None] = print
) -> RunSummary:
    """Play (or resume) ``cfg``'s run. The run directory is locked for the invocation: a
    second one on it is refused at once (RunDirBusy)."""
    with run_lock(cfg.out):
        return _run_tournament(cfg, progress=progress, echo=echo)


def _recover(run_dir: Path, echo: Callable[[str], None]) -> None:
    """Before resuming: the partial files of an interrupted write go, and the
    shards that cannot be read are moved aside (their games are played again)."""
    clean_partial(run_dir)
    unreadable = unreadable_shards(run_dir)
    if unreadable:
        dest = move_aside(run_dir, [p for p, _ in unreadable])
        for p, why in unreadable:
            echo(f"unreadable shard {p} ({why}): moved to {dest}, its games are played again")


def _games_done(run_dir: Path, per_cell: list[tuple[int, int]]) -> dict[int, list[tuple[int, int]]]:
    """The games on disk, per cell (intervals); refused when they overlap or
    lie outside the config's plan (``per_cell``: each cell's game indices, start and stop)."""
    done = covered(finished_chunks(run_dir))
    bad = overlaps(done)
    if bad or any(c >= len(per_cell) or iv[0][0] < per_cell[c][0] or iv[-1][1] > per_cell[c][1]
                  for c, iv in done.items()):
        raise RnsimError(f"{run_dir}: its shards do not match the config (overlapping or out-of-range chunks: {bad[:3]})")
    return done


def _new_manifest(cfg: RunConfig, run_id: str, n_cells: int, plan: Plan) -> dict[str, Any]:
    """A new run's manifest: what is played (the resolved config, its hashes
    and sources, the seed, the plan's size and columns)."""
    from rnsim import __version__

    return {
        "rnsim_version": __version__,
        "game": cfg.game,
        "run_id": run_id,
        "config_file": str(cfg.path) if cfg.path else None,
        "config_hash": cfg.config_hash(),
        "config": cfg.resolved(),
        "source_config": cfg.sources.get("raw"),
        # the flags that overrode source_config (e.g. --games): `config` above is what played
        "overrides": cfg.sources.get("overrides", {}),
        "rules_hash": {v.name: v.digest for v in cfg.variants},
        "strategies": {seat: [s.to_dict() for s in specs] for seat, specs in cfg.strategies.items()},
        "master_seed": cfg.seed,
        "games_per_cell": cfg.games,
        "cells": n_cells,
        "games": cfg.total_games + band_games(cfg),  # the band's games too (rnsim.band)
        "columns": list(plan.schema),
        **({"band": band} if (band := manifest_entry(cfg)) is not None else {}),
        "started": _now(),
        INVOCATIONS: [],
    }


def _backend_for(cfg: RunConfig, n_chunks: int, echo: Callable[[str], None]) -> Any:
    """The run's backend, with never more workers than chunks to play: an idle
    worker still costs a process and its memory."""
    workers = min(cfg.workers, max(1, n_chunks))
    cores = os.cpu_count() or 1
    if cfg.backend == "process" and workers > cores:
        echo(f"warning: {workers} worker processes on {cores} cores: beyond one per core they only add memory "
             '(about 80 MB each) and switching; run.workers = "auto" starts one per core')
    return get_backend(cfg.backend, workers, cfg.address)


class _Recorder:
    """Writes each chunk's result as it arrives (its errors first: a result
    shard marks the chunk done, so its errors must already be there) and
    keeps the invocation's count of games and errors."""

    def __init__(self, run_dir: Path, manifest: dict[str, Any], invocation: dict[str, Any], bar: Any) -> None:
        self.run_dir = run_dir
        self.manifest = manifest
        self.invocation = invocation
        self.bar = bar
        self.played = 0
        self.errors_now = 0
        self.noted = time.perf_counter()
        self.t0 = self.noted

    def __call__(self, out: ChunkOutput) -> None:
        run_dir = self.run_dir
        if out.errors is not None:
            write_atomic(shard_path(run_dir, out.chunk, ERRORS), out.errors)
        write_atomic(shard_path(run_dir, out.chunk, SHARDS), out.rows)
        self.played += out.games
        self.errors_now += out.n_errors
        # The invocation's own games and seconds, kept as they happen: one killed
        # later still counts in the run's throughput (at most PROGRESS_EVERY_S is lost).
        now = time.perf_counter()
        self.invocation.update(games_played=self.played, seconds=round(now - self.t0, 3))
        if now - self.noted >= PROGRESS_EVERY_S:
            self.noted = now
            _write_manifest(run_dir, self.manifest)
        bar = self.bar
        if bar is not None:
            bar.update(out.games)
            if self.errors_now:
                bar.set_postfix(errors=self.errors_now, refresh=False)


def _progress_bar(cfg: RunConfig, run_id: str, done_games: int) -> Any:
    from tqdm import tqdm

    return tqdm(total=cfg.total_games + band_games(cfg), initial=done_games, unit="game", unit_scale=True, smoothing=0.05,
                dynamic_ncols=True, desc=run_id)


def _record_end(run_dir: Path, manifest: dict[str, Any], invocation: dict[str, Any], backend: Any, played: int,
                seconds: float, complete: bool, failed: RnsimError | None) -> None:
    """The invocation's end in the manifest, however it ended: complete,
    failed (its partial files cleaned) or interrupted."""
    invocation.update(finished=_now(), games_played=played, seconds=round(seconds, 3),
                      games_per_s=round(played / seconds, 1) if seconds > 0 else None,
                      workers_replaced=getattr(backend, "replaced", 0))
    if getattr(backend, "info", None):  # a cluster backend: where the games ran (nodes, resources)
        invocation["cluster"] = backend.info
    manifest["status"] = "complete" if complete else "failed" if failed is not None else "interrupted"
    if complete:
        manifest["finished"] = invocation["finished"]
    if failed is not None:
        invocation["error"] = str(failed)
        clean_partial(run_dir)
    try:
        _write_manifest(run_dir, manifest)
    except ShardWriteError:
        if failed is None:
            raise
        # The disk refuses the manifest too: it stays "running", which resumes the same way.


def _record_complete(run_dir: Path, manifest: dict[str, Any], summary: RunSummary, played: int) -> None:
    """A complete run's totals in the manifest: games, errors, end reasons,
    and the throughput over every invocation."""
    total_s = sum(float(s.get("seconds") or 0) for s in invocations(manifest))
    timed = sum(int(s.get("games_played") or 0) for s in invocations(manifest))
    manifest.update(
        games_played=summary.done_before + played, errors=summary.errors, end_reasons=summary.end_reasons,
        seconds=round(total_s, 3), games_per_s=round(timed / total_s, 1) if total_s > 0 else None,
    )
    _write_manifest(run_dir, manifest)


def _run_tournament(
    cfg: RunConfig, *, progress: bool = True, echo: Callable[[str], None] = print
) -> RunSummary:
    from rnsim import __version__
    from rnsim.provenance import provenance

    run_id, old = prepare_run_dir(cfg)
    run_dir = cfg.out
    if old is not None:
        _recover(run_dir, echo)
    cells = cfg.cells()
    bp = band_plan(cfg)  # the main cells, then the band's
    per_cell = [(0, cfg.games)] * len(cells) + [(a, a + n) for a, n in zip(bp.starts, bp.games, strict=True)]
    done = _games_done(run_dir, per_cell)
    done_games = sum(b - a for iv in done.values() for a, b in iv)
    chunks = plan_chunks(len(per_cell), per_cell, cfg.chunk_size, done)
    if old is not None:
        echo(f"resuming {run_id} in {run_dir}: {done_games:,} of {sum(b - a for a, b in per_cell):,} games already done"
             if chunks else f"{run_id} in {run_dir} is already complete")
    plan = Plan.from_config(cfg, run_id)

    manifest: dict[str, Any] = old or _new_manifest(cfg, run_id, len(cells), plan)
    manifest.setdefault(INVOCATIONS, [])
    invocation: dict[str, Any] = {
        "started": _now(), "rnsim_version": __version__, **cfg.execution(),
        "games_before": done_games, "games_played": 0,
        # per invocation: a resumed run may be played by other code than its first invocation
        "provenance": provenance(), "overrides": cfg.sources.get("overrides", {}),
    }
    if old is not None and not chunks and old.get("status") == "complete":
        before = check_run(run_dir, manifest)
        if before.whole:  # else the check at the end names what is wrong
            return _summarise(cfg, run_dir, run_id, done_games, 0, 0.0, before, 0)
    manifest[INVOCATIONS].append(invocation)
    manifest["status"] = "running"
    # The manifest first: a directory holding anything else always has one to resume from.
    _write_manifest(run_dir, manifest)
    (run_dir / SHARDS).mkdir(exist_ok=True)
    (run_dir / ERRORS).mkdir(exist_ok=True)

    backend = _backend_for(cfg, len(chunks), echo)
    bar = _progress_bar(cfg, run_id, done_games) if progress and chunks else None
    record = _Recorder(run_dir, manifest, invocation, bar)

    def on_term(signum: int, frame: FrameType | None) -> None:
        raise Terminated()

    prev_term = signal.signal(signal.SIGTERM, on_term) if _main_thread() else None
    t0 = record.t0 = time.perf_counter()
    complete = terminated = False
    failed: RnsimError | None = None
    check: RunCheck | None = None
    try:
        backend.run(plan, chunks, record)
        check, failed = _end_check(run_dir, manifest)
        complete = failed is None
    except KeyboardInterrupt as e:
        terminated = isinstance(e, Terminated)
    except ShardWriteError as e:
        failed = e
    finally:
        seconds = time.perf_counter() - t0
        if prev_term is not None:
            signal.signal(signal.SIGTERM, prev_term)
        if bar is not None:
            bar.close()
        _record_end(run_dir, manifest, invocation, backend, record.played, seconds, complete, failed)
    if failed is not None:
        raise failed

    summary = _summarise(cfg, run_dir, run_id, done_games, record.played, seconds, check if complete else None,
                         getattr(backend, "replaced", 0), record.errors_now)
    summary.terminated = terminated
    if complete:
        _record_complete(run_dir, manifest, summary, record.played)
    return summary


def _end_check(run_dir: Path, manifest: dict[str, Any]) -> tuple[RunCheck, RunIncomplete | None]:
    """The run checked against its plan once the backend is done: complete only
    when every planned game is on disk once (see rnsim.results.integrity)."""
    check = check_run(run_dir, manifest)
    if check.whole:
        return check, None
    return check, RunIncomplete(f"{run_dir}: after the run, {check.summary()}; not marked complete: run the same "
                                "command again to play the missing games")


def _summarise(cfg: RunConfig, run_dir: Path, run_id: str, done_before: int, played: int, seconds: float,
               check: RunCheck | None, replaced: int, errors_now: int = 0) -> RunSummary:
    """The summary of an invocation; ``check``: the run's check when it is complete."""
    complete = check is not None and check.whole
    summary = RunSummary(run_dir, run_id, cfg.total_games + band_games(cfg), done_before, played, errors_now, seconds, complete,
                         replaced)
    if check is not None and complete:
        summary.errors = load_errors(run_dir, cfg.game).height
        rows = check.scan()
        if check.band_games:  # the band's games are the run's too
            rows = pl.concat([rows.select("end_reason"), check.scan(band=True).select("end_reason")])
        counts = rows.group_by("end_reason").len().collect()
        summary.end_reasons = dict(zip(counts["end_reason"].to_list(), counts["len"].to_list(), strict=True))
    return summary


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()
