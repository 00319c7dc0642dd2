"""The result table on disk: its schema, atomic shard files, and loading.

The columns are the contract in docs/architecture.md. One shard per finished
chunk under ``shards/``, named after the chunk, written to a temporary name and
renamed so a shard either exists whole or not at all; its presence is what
marks the chunk's games as done.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import polars as pl

from rnsim.errors import RnsimError
from rnsim.games import DEFAULT_GAME
from rnsim.results import error_schema
from rnsim.results.chunks import Chunk
from rnsim.results.integrity import CORRUPT, ERRORS, SHARDS, CorruptShardError, check_run, file_stats

__all__ = ["CORRUPT", "ERRORS", "SHARDS", "CorruptShardError", "ShardWriteError", "clean_partial", "finished_chunks",
           "load_errors", "load_results", "move_aside", "shard_path", "shard_rows", "unreadable_shards",
           "write_atomic"]


class ShardWriteError(RnsimError):
    """The parent could not write a result file (disk full, permissions): the run
    stops, resumable, rather than losing the chunk. Exit code 1: not bad input."""

    exit_code = 1


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old state or the whole file.
    A failed write (e.g. ENOSPC) removes its temporary file and raises ShardWriteError."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        try:
            tmp.unlink(missing_ok=True)
        except OSError:
            pass
        raise ShardWriteError(
            f"cannot write {path}: {e.strerror or e}"
            + (" (the disk is full)" if e.errno == errno.ENOSPC else "")
            + "; the run stopped and is resumable: free the problem and run the same command again"
        ) from e


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


def shard_rows(run_dir: Path) -> dict[Chunk, int]:
    """Rows in each finished chunk's shard.
    Raises CorruptShardError naming the first shard that cannot be read."""
    chunks = finished_chunks(run_dir)
    stats = file_stats([shard_path(run_dir, c) for c in chunks])
    out = {}
    for c in chunks:
        p = shard_path(run_dir, c)
        s = stats[p]
        if isinstance(s, str):
            raise CorruptShardError(p, s)
        out[c] = s[0]
    return out


def unreadable_shards(run_dir: Path) -> list[tuple[Path, str]]:
    """Every shard that cannot be read or whose row count is not its chunk's size."""
    chunks = finished_chunks(run_dir)
    stats = file_stats([shard_path(run_dir, c) for c in chunks])
    bad = []
    for c in chunks:
        p = shard_path(run_dir, c)
        s = stats[p]
        if isinstance(s, str):
            bad.append((p, s))
        elif s[0] != c.games:
            bad.append((p, f"{s[0]} rows, expected {c.games}"))
    return bad


def move_aside(run_dir: Path, paths: list[Path]) -> Path:
    """Move unreadable shards to shards/corrupt/ (kept for inspection, never loaded);
    their games count as missing and are played again."""
    dest = run_dir / SHARDS / CORRUPT
    dest.mkdir(exist_ok=True)
    for p in paths:
        target = dest / p.name
        n = 1
        while target.exists():
            target = dest / f"{p.name}.{n}"
            n += 1
        os.replace(p, target)
        e = run_dir / ERRORS / p.name
        if e.exists():
            e.unlink()
    return dest


def clean_partial(run_dir: Path) -> int:
    """Remove what an interrupted invocation may leave half-done: temporary files,
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


def load_results(run_dir: str | os.PathLike[str], lazy: bool = True, *,
                 partial: bool = False) -> pl.LazyFrame | pl.DataFrame:
    """The result table of a run directory: a LazyFrame over its result shards
    (or a DataFrame with ``lazy=False``).

    The run is checked first (:func:`rnsim.results.integrity.check_run`): a
    run with games missing or on disk twice is refused (RunNotWhole, naming
    them), an unreadable shard is named (CorruptShardError). With
    ``partial=True`` it reads what is there, each planned game once (an
    unfinished run, or one whose shards were lost)."""
    d = Path(run_dir)
    if not (d / SHARDS).is_dir() or not any((d / SHARDS).glob("part-*.parquet")):
        raise RnsimError(f"{d}: no result shards (expected {d / SHARDS}/part-*.parquet); is this a run directory?")
    check = check_run(d)
    check.require(partial, hint="load_results(..., partial=True) reads the games that are there")
    lf = check.scan(partial)
    return lf if lazy else lf.collect()


def load_errors(run_dir: str | os.PathLike[str], game: str | None = None) -> pl.DataFrame:
    """The error side table (empty, with the game's error schema, when no game
    failed; the game is the manifest's unless given)."""
    d = Path(run_dir) / ERRORS
    if not d.is_dir() or not any(d.glob("part-*.parquet")):
        if game is None:
            import json

            try:
                game = json.loads((Path(run_dir) / "manifest.json").read_text()).get("game")
            except (OSError, ValueError):
                game = None
        return pl.DataFrame(schema=error_schema(game or DEFAULT_GAME))
    return pl.scan_parquet(d / "part-*.parquet").collect()
