"""`rnsim run`: a tournament from a config file."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click


@click.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--games", type=int, default=None, help="Games per cell (overrides run.games).")
@click.option("--seed", type=int, default=None, help="Master seed (overrides run.seed).")
@click.option("--workers", default=None, help='Worker processes, or "auto" for every core (overrides run.workers).')
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run directory (overrides run.out).")
@click.option("--backend", default=None, help='"process", "serial" or "ray" (overrides run.backend).')
@click.option("--address", default=None,
              help='Ray cluster to connect to, e.g. "10.0.0.5:6379" (backend "ray"; overrides run.address; '
                   "default: $RAY_ADDRESS, else a local Ray cluster is started for the run).")
@click.option("--chunk-size", type=int, default=None, help="Games per chunk / shard (overrides run.chunk_size).")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Show the progress bar.")
@click.option("--report/--no-report", "make_report", default=True, show_default=True,
              help="Write the report (rnsim report) into the run directory when the run is complete.")
@click.option("--max-errors", default="1%", show_default=True, metavar="SHARE|GAMES",
              help="Most games that may end in an error (a share of the run's games, e.g. 0.5%, or a number of "
                   "games, e.g. 0); above it the run exits 1 once its report is written.")
def run(config: Path, games: int | None, seed: int | None, workers: str | None, out: Path | None,
        backend: str | None, address: str | None, chunk_size: int | None, progress: bool,
        make_report: bool, max_errors: str) -> None:
    """Play the tournament described by CONFIG (a TOML file) into a run directory.

    Running the same command again resumes an interrupted run: finished games
    are kept and only the missing ones are played. Exit codes: 0 done, 1 the
    run could not finish or too many games ended in an error (--max-errors),
    2 bad input, 130 stopped by Ctrl-C, 143 stopped by SIGTERM (both resumable).
    """
    from rnsim.config import load_config
    from rnsim.results.error_budget import ErrorBudget
    from rnsim.tournament.run import run_tournament

    budget = ErrorBudget.parse(max_errors, "--max-errors")  # bad input fails before anything is created
    cfg = load_config(config, games=games, seed=seed, workers=workers, out=out, backend=backend,
                      chunk_size=chunk_size, address=address)
    n_cells = len(cfg.cells())
    from rnsim.band.plan import band_games

    band = band_games(cfg)  # the strength band's games
    click.echo(
        f"{config}: {len(cfg.variants)} variant(s) x {n_cells // len(cfg.variants)} cell(s) "
        f"({cfg.game_obj.setup_column.replace('_', ' ')} x strategies) "
        f"x {cfg.games:,} games{f' + {band:,} strength-band games' if band else ''} = {cfg.total_games + band:,} "
        "games; "
        f"backend {cfg.backend}"
        + (f", {cfg.workers} worker(s)" if cfg.backend != "serial" else "") + cfg.defaults_note(),
        err=True,
    )
    summary = run_tournament(cfg, progress=progress and sys.stderr.isatty(), echo=lambda s: click.echo(s, err=True))
    for line in summary.lines():
        click.echo(line)
    if not summary.complete:
        # the shell's convention: 128 + the signal's number (SIGINT 2, SIGTERM 15)
        sys.exit(143 if summary.terminated else 130)
    if make_report:
        from rnsim.report import write_report

        t = time.perf_counter()
        html = write_report(cfg.out)
        click.echo(f"report: {html} ({time.perf_counter() - t:.1f} s)")
    budget.check(summary.errors, summary.total_games, cfg.out)
