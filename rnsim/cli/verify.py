"""`rnsim verify RUN_DIR`: check a run directory's integrity from its files alone:
every shard readable, each holding exactly its chunk's games, every planned game
present once (the check of :mod:`rnsim.results.integrity`, which every reader of
a run directory makes). Also the checks `rnsim report` makes before writing anything."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import click

from rnsim.errors import RnsimError
from rnsim.results.integrity import RunCheck, check_run
from rnsim.results.manifest import read_manifest


def read_manifest_strict(run_dir: Path) -> dict[str, Any] | None:
    """The manifest, None when absent; RnsimError naming the file when it cannot be read."""
    return read_manifest(run_dir)


def _writable(d: Path) -> str | None:
    try:
        with tempfile.TemporaryFile(dir=d):
            pass
    except OSError as e:
        return e.strerror or str(e)
    return None


def check_report_inputs(run_dir: Path, partial: bool = False) -> RunCheck:
    """What `rnsim report` needs, checked before it writes any file: a readable manifest,
    the run whole against its plan (or ``partial``: the readable shards), and a run
    directory (and its report folders) it may write to. Returns the run's check."""
    from rnsim.analysis.load import checked
    from rnsim.report.render import PARTIAL_HINT

    read_manifest(run_dir)
    check = checked(run_dir, partial, PARTIAL_HINT)
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
    return check


def verify_run(run_dir: Path) -> tuple[list[str], list[str]]:
    """(facts, problems) about ``run_dir``; no problem means every planned game is on disk once."""
    check = check_run(run_dir)
    facts: list[str] = []
    if check.moved_aside:
        facts.append(f"{run_dir / 'shards' / 'corrupt'}: {check.moved_aside} shard(s) moved aside earlier "
                     "(unreadable; their games were played again)")
    if check.plan is not None:
        cells, games = check.plan
        status = check.manifest.get("status") if check.manifest else None
        band = (f" + {len(check.band_games)} band cell(s) of {sum(check.band_games):,} games = {check.planned:,}"
                if check.band_games else "")
        facts.append(f"plan: {cells} cell(s) x {games:,} games = {cells * games:,}{band}; manifest status: {status}")
    facts.append(f"shards: {len(check.shards):,} holding {check.rows:,} games; {check.counts()}")
    return facts, check.problems()


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
