"""Plain loops over ``run_game`` in worker processes started as the process
backend starts its own: the like-for-like baseline `rnsim bench` measures the
process backend's overhead against.

A worker of the process backend is a freshly spawned process sharing the
machine with the others; a plain loop in the bench's own long-lived process
is neither. Both change a game's CPU cost (memory layout, caches filled per
process, caches and memory bandwidth shared between the workers), so the
runner's own cost with w workers is read against the same games played here:
the same plan and chunks, handed out one at a time to w processes spawned
with the same context and the same hidden main module, each playing its
chunks under one ``fewer_collections`` and writing nothing (no rows, tables,
Parquet or shards)."""

from __future__ import annotations

import signal
import traceback
from collections import deque
from collections.abc import Sequence
from typing import Any

from rnsim.tournament.schedule import Chunk
from rnsim.tournament.worker import Plan

__all__ = ["play_plain"]


def _plain_main(conn: Any, plan: Plan) -> None:
    from rnsim.play import fewer_collections, run_game
    from rnsim.tournament.worker import WorkerState

    # Ctrl-C goes to the whole process group; the parent decides what to do.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ws = WorkerState(plan)  # the runner's strategy instances, one per seat and spec
        with fewer_collections():
            while (chunk := conn.recv()) is not None:
                cell = plan.cells[chunk.cell]
                rules = plan.variants[cell.variant].rules
                strategies = [ws.strategy(seat, idx) for seat, idx in enumerate(cell.strategies)]
                for i in range(chunk.start, chunk.stop):
                    run_game(ws.game, rules, strategies, plan.master_seed, i, setup=cell.setup)
                conn.send(chunk.games)
    except (EOFError, OSError):  # the parent is gone
        return
    except BaseException:
        conn.send(traceback.format_exc())


def play_plain(plan: Plan, chunks: Sequence[Chunk], workers: int) -> int:
    """Plays ``chunks`` of ``plan`` in plain loops on ``workers`` spawned
    processes (never more than chunks), one chunk in flight per process, the
    next chunk to whichever finishes first; returns the games played once
    every process has exited (so its CPU is in the parent's reaped children).
    A game that raises stops it with the worker's traceback."""
    import multiprocess as mp
    from multiprocess.connection import wait

    from rnsim.tournament.backends import spawn_worker

    ctx = mp.get_context("spawn")
    pending: deque[Chunk] = deque(chunks)
    procs: list[Any] = []
    conns: list[Any] = []
    played = 0
    try:
        for _ in range(min(workers, len(pending))):
            p, parent_end = spawn_worker(ctx, _plain_main, plan)
            procs.append(p)
            conns.append(parent_end)
            parent_end.send(pending.popleft())
        busy = set(conns)
        while busy:
            for c in wait(list(busy)):
                msg = c.recv()
                if isinstance(msg, str):
                    raise RuntimeError(f"a plain-loop worker failed:\n{msg}")
                played += msg
                if pending:
                    c.send(pending.popleft())
                else:
                    busy.discard(c)
    finally:
        for c in conns:
            try:
                c.send(None)
            except (OSError, ValueError):
                pass
        for p in procs:
            p.join(timeout=10)
            if p.is_alive():
                p.terminate()
                p.join(timeout=2)
    return played
