"""The result table on disk: its schema, atomic shard files, and loading.

The columns are the contract in docs/architecture.md. One shard per finished
chunk under ``shards/``, named after the chunk, written to a temporary name and
renamed so a shard either exists whole or not at all; its presence is what
marks the chunk's games as done.
"""

from __future__ import annotations

import os
from pathlib import Path

import polars as pl

from rnsim.errors import RnsimError
from rnsim.results import ERROR_SCHEMA
from rnsim.tournament.schedule import Chunk

SHARDS = "shards"
ERRORS = "errors"
def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old state or the whole file."""
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def shard_path(run_dir: Path, chunk: Chunk, kind: str = SHARDS) -> Path:
    return run_dir / kind / f"{chunk.name}.parquet"


def finished_chunks(run_dir: Path) -> list[Chunk]:
    """Chunks whose result shard exists (complete by construction: renamed into place)."""
    d = run_dir / SHARDS
    if not d.is_dir():
        return []
    out = []
    for p in sorted(d.glob("part-*.parquet")):
        c = Chunk.from_name(p.name.removesuffix(".parquet"))
        if c is not None:
            out.append(c)
    return out


def clean_partial(run_dir: Path) -> int:
    """Remove what an interrupted session may leave half-done: temporary files,
    and error shards whose chunk has no result shard (the chunk will be
    replayed and its errors written again). Returns the number removed."""
    removed = 0
    for kind in (SHARDS, ERRORS):
        d = run_dir / kind
        if d.is_dir():
            for p in d.glob("*.tmp"):
                p.unlink()
                removed += 1
    done = {c.name for c in finished_chunks(run_dir)}
    d = run_dir / ERRORS
    if d.is_dir():
        for p in d.glob("part-*.parquet"):
            if p.name.removesuffix(".parquet") not in done:
                p.unlink()
                removed += 1
    return removed


def load_results(run_dir: str | os.PathLike[str], lazy: bool = True) -> pl.LazyFrame | pl.DataFrame:
    """The result table of a run directory: a LazyFrame over ``shards/*.parquet``
    (or a DataFrame with ``lazy=False``). Works on an unfinished run too."""
    d = Path(run_dir)
    if not (d / SHARDS).is_dir() or not any((d / SHARDS).glob("part-*.parquet")):
        raise RnsimError(f"{d}: no result shards (expected {d / SHARDS}/part-*.parquet); is this a run directory?")
    lf = pl.scan_parquet(d / SHARDS / "part-*.parquet")
    return lf if lazy else lf.collect()


def load_errors(run_dir: str | os.PathLike[str]) -> pl.DataFrame:
    """The error side table (empty, with its schema, when no game failed)."""
    d = Path(run_dir) / ERRORS
    if not d.is_dir() or not any(d.glob("part-*.parquet")):
        return pl.DataFrame(schema=ERROR_SCHEMA)
    return pl.scan_parquet(d / "part-*.parquet").collect()
