"""Playing game ranges of a run's cells in batches, without a run directory:
what the drift gate (baseline, replay, sequential batches), `rnsim compare`'s
helpers and the strength ladder need. The games are the tournament's: the same
plan, chunks, seeds and ``play_chunk`` on the config's backend, in one pool
kept open across batches (:class:`rnsim.tournament.backends.Pool`), so a
count never depends on the backend, the workers or the batch sizes."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

import polars as pl

from rnsim.config import RunConfig
from rnsim.tournament.backends import Pool, open_pool
from rnsim.tournament.schedule import Chunk
from rnsim.tournament.worker import ChunkOutput, Plan

#: the columns a batch returns per game (plus "cell")
COLUMNS = ("game_index", "winner", "end_reason", "rounds")


def pool_for(cfg: RunConfig, run_id: str, workers: int | None = None) -> Pool:
    """The config's backend, open for its plan (close it, or use ``with``)."""
    n = cfg.workers if workers is None else workers
    return open_pool(Plan.from_config(cfg, run_id), cfg.backend, max(1, n), cfg.address)


def chunks_for(ranges: Sequence[tuple[int, int, int]], chunk_size: int, workers: int) -> list[Chunk]:
    """Chunks covering game indices ``[start, stop)`` of each ``(cell, start, stop)``:
    small chunks when the batch is small, so every worker gets a share."""
    total = sum(b - a for _, a, b in ranges)
    size = max(1, min(chunk_size, math.ceil(total / (2 * max(1, workers)))))
    return [Chunk(c, a, min(a + size, b)) for c, s, b in ranges for a in range(s, b, size)]


def play_ranges(cfg: RunConfig, ranges: Sequence[tuple[int, int, int]], pool: Pool | None = None,
                run_id: str = "batch", extra: Sequence[str] = ()) -> pl.DataFrame:
    """Play game indices ``[start, stop)`` of each ``(cell id, start, stop)``: one
    row per game (``cell``, :data:`COLUMNS` and the result columns ``extra``), in
    no particular order. Without a ``pool`` the config's backend is opened for
    these games only."""
    chunks = chunks_for(ranges, cfg.chunk_size, cfg.workers)
    frames: list[pl.DataFrame] = [pl.DataFrame(schema={"game_index": pl.Int64, "winner": pl.String,
                                                       "end_reason": pl.String, "rounds": pl.Int16,
                                                       **dict.fromkeys(extra, pl.String), "cell": pl.Int64})]

    def on_result(out: ChunkOutput) -> None:
        rows = pl.read_parquet(io.BytesIO(out.rows), columns=[*COLUMNS, *extra])
        frames.append(rows.with_columns(pl.lit(out.chunk.cell, dtype=pl.Int64).alias("cell")))

    if chunks:
        if pool is not None:
            pool.play(chunks, on_result)
        else:
            with pool_for(cfg, run_id, min(cfg.workers, len(chunks))) as once:
                once.play(chunks, on_result)
    return pl.concat(frames, how="vertical_relaxed")
