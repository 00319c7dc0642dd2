"""`rnsim verify RUN_DIR`: check a run directory's integrity from its files alone:
every shard readable, each holding exactly its chunk's games, every planned game
present once. Also the checks `rnsim report` makes before writing anything."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import click
import polars as pl

from rnsim.errors import RnsimError
from rnsim.tournament.schedule import Chunk, covered, overlaps, plan_chunks
from rnsim.tournament.shards import CORRUPT, ERRORS, SHARDS, finished_chunks, shard_path, shard_rows

MANIFEST = "manifest.json"


def read_manifest_strict(run_dir: Path) -> dict[str, Any] | None:
    """The manifest, None when absent; RnsimError naming the file when it cannot be read."""
    p = run_dir / MANIFEST
    if not p.exists():
        return None
    try:
        data = json.loads(p.read_bytes().decode("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise RnsimError(f"{p}: unreadable manifest ({e})") from None
    if not isinstance(data, dict):
        raise RnsimError(f"{p}: unreadable manifest (expected a JSON object)")
    return data


def _writable(d: Path) -> str | None:
    try:
        with tempfile.TemporaryFile(dir=d):
            pass
    except OSError as e:
        return e.strerror or str(e)
    return None


def check_report_inputs(run_dir: Path) -> None:
    """What `rnsim report` needs, checked before it writes any file: a readable manifest,
    readable shards, and a run directory (and its report folders) it may write to."""
    read_manifest_strict(run_dir)
    shard_rows(run_dir)  # names an unreadable shard
    for d in (run_dir, run_dir / "figures", run_dir / "tables"):
        if d.is_dir():
            why = _writable(d)
            if why is not None:
                raise RnsimError(f"{d}: cannot write the report there ({why}); "
                                 "copy the run directory somewhere writable and report on the copy")
    for name in ("report.html", "report.md"):
        f = run_dir / name
        if f.exists() and not os.access(f, os.W_OK):
            raise RnsimError(f"{f}: cannot overwrite it (read-only)")


def verify_run(run_dir: Path) -> tuple[list[str], list[str]]:
    """(facts, problems) about ``run_dir``; no problem means every planned game is on disk once."""
    facts: list[str] = []
    problems: list[str] = []
    manifest = read_manifest_strict(run_dir)
    if manifest is None:
        problems.append(f"{run_dir / MANIFEST}: missing; the plan cannot be checked")
    chunks = finished_chunks(run_dir)
    d = run_dir / SHARDS
    for p in sorted(d.glob("*")) if d.is_dir() else []:
        if p.is_file() and (p.suffix != ".parquet" or Chunk.from_name(p.stem) is None):
            problems.append(f"{p}: not a result shard of this run (leftover or foreign file)")
    if (d / CORRUPT).is_dir() and any((d / CORRUPT).iterdir()):
        facts.append(f"{d / CORRUPT}: {sum(1 for _ in (d / CORRUPT).iterdir())} shard(s) moved aside earlier "
                     "(unreadable; their games were played again)")
    rows = 0
    for c in chunks:
        p = shard_path(run_dir, c)
        try:
            g = pl.read_parquet(p, columns=["game_index"])["game_index"]
        except Exception as e:  # polars raises several types for a damaged file
            problems.append(f"{p}: unreadable ({str(e).strip().splitlines()[0][:160] if str(e).strip() else e})")
            continue
        rows += g.len()
        if g.len() != c.games:
            problems.append(f"{p}: {g.len()} rows, expected {c.games}")
        if g.n_unique() != g.len():
            problems.append(f"{p}: duplicate game indices")
        lo, hi = (int(g.min()), int(g.max())) if g.len() else (c.start, c.stop - 1)  # type: ignore[arg-type]
        if (lo, hi) != (c.start, c.stop - 1):
            problems.append(f"{p}: game indices {lo}..{hi}, expected {c.start}..{c.stop - 1}")
    done = covered(chunks)
    for cell, a, b in overlaps(done):
        problems.append(f"cell {cell}: games {b[0]}..{min(a[1], b[1]) - 1} are in two shards (duplicate keys)")
    err_dir = run_dir / ERRORS
    names = {c.name for c in chunks}
    for p in sorted(err_dir.glob("part-*.parquet")) if err_dir.is_dir() else []:
        if p.name.removesuffix(".parquet") not in names:
            problems.append(f"{p}: error shard without its result shard")
    if manifest is not None:
        try:
            n_cells, games = int(manifest["cells"]), int(manifest["games_per_cell"])
        except (KeyError, TypeError, ValueError):
            problems.append(f"{run_dir / MANIFEST}: lacks cells / games_per_cell; the plan cannot be checked")
        else:
            missing = 0
            for cell in range(n_cells):
                gaps = plan_chunks(1, games, games, {0: done.get(cell, [])})
                n = sum(g.games for g in gaps)
                missing += n
                if n:
                    problems.append(f"cell {cell}: {n:,} of {games:,} games missing (first: games "
                                    + ", ".join(f"{g.start}..{g.stop - 1}" for g in gaps[:3]) + ")")
            extra = [c for c in chunks if c.cell >= n_cells or c.stop > games]
            for c in extra:
                problems.append(f"{shard_path(run_dir, c)}: outside the plan ({n_cells} cells x {games} games)")
            facts.append(f"plan: {n_cells} cell(s) x {games:,} games = {n_cells * games:,}; "
                         f"manifest status: {manifest.get('status')}")
    facts.append(f"shards: {len(chunks):,} holding {rows:,} games")
    return facts, problems


@click.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
def verify(run_dir: Path) -> None:
    """Check RUN_DIR: every shard readable and holding exactly its chunk's games, no game
    twice, every game of the plan present. Exit 0 when sound, 1 when not."""
    facts, problems = verify_run(run_dir)
    for f in facts:
        click.echo(f)
    for p in problems:
        click.echo(f"PROBLEM: {p}")
    if problems:
        click.echo(f"{run_dir}: {len(problems)} problem(s); `rnsim run` on it moves unreadable shards aside "
                   "and plays the missing games")
        raise SystemExit(1)
    click.echo(f"{run_dir}: OK")
