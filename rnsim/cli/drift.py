"""`rnsim compare`, `rnsim baseline save` and `rnsim check`: rule variants side by
side, and the balance-drift gate for CI.

Exit codes of `rnsim check`: 0 no drift, 1 drift, 2 usage or config error,
3 undecided within the game budget (0 with ``--allow-undecided``).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from rnsim.drift import EXIT_NO_DRIFT, EXIT_UNDECIDED


def _echo_err(msg: str) -> None:
    click.echo(msg, err=True)


@click.command()
@click.argument("configs", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option("--games", type=int, default=None, help="Games per cell (overrides run.games of the first file).")
@click.option("--seed", type=int, default=None, help="Master seed (overrides run.seed).")
@click.option("--workers", default=None, help='Worker processes, or "auto" (overrides run.workers).')
@click.option("--backend", default=None, help='"process", "serial" or a cluster backend (overrides run.backend).')
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run directory (default runs/compare-<names>).")
@click.option("--progress/--no-progress", default=True, show_default=True, help="Show the progress bar.")
def compare(configs: tuple[Path, ...], games: int | None, seed: int | None, workers: str | None,
            backend: str | None, out: Path | None, progress: bool) -> None:
    """Play rule variants on the same games and report paired differences.

    Give two or more config files (each file's [rules] is one variant, named after
    the file; run settings and strategies come from the first), or one file with
    several [[variants]]. Every variant plays the same cells and game indices, so
    game i sees the same chance stream everywhere: per cell (the game's setup, e.g.
    Red Notice's identity pair or FBI's player count, and a strategy per seat) and
    overall, the report gives each variant's win rates and the paired difference against
    the first variant with a 95% interval, the unpaired interval, and how much
    variance the pairing removed. It is printed and written to RUN_DIR/compare.md.
    """
    from rnsim.drift import compare_config, compare_run

    cfg = compare_config(list(configs), games=games, seed=seed, workers=workers, backend=backend, out=out,
                         echo=_echo_err)
    names = ", ".join(v.name for v in cfg.variants)
    n_cells = len(cfg.cells())
    _echo_err(f"compare: {len(cfg.variants)} variants ({names}) x {n_cells // len(cfg.variants)} cell(s) x "
              f"{cfg.games:,} games = {cfg.total_games:,} games -> {cfg.out}" + cfg.defaults_note())
    result = compare_run(cfg, progress=progress and sys.stderr.isatty(), echo=_echo_err)
    click.echo(result.text)
    _echo_err(f"written: {result.run_dir / 'compare.md'} and {result.run_dir / 'tables'}/paired_*.csv")


@click.group()
def baseline() -> None:
    """Baselines for the balance-drift gate (`rnsim check`)."""


@baseline.command("save")
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True, help="Baseline file to write (JSON).")
@click.option("--games", type=int, default=None,
              help="Games per cell (default: as many as the gate's tolerance needs, printed).")
@click.option("--seed", type=int, default=None, help="Master seed (overrides run.seed).")
@click.option("--workers", default=None, help='Worker processes, or "auto" (overrides run.workers).')
@click.option("--backend", default=None, help='"process" or "serial" (overrides run.backend).')
@click.option("--delta", type=float, default=0.05, show_default=True,
              help="Tolerance: a move of the watched seat's win rate (Red Notice: the forger's; FBI: the start "
                   "player's) by 2*delta is "
                   "flagged with probability 1-beta.")
@click.option("--alpha", type=float, default=0.05, show_default=True, help="False-alarm rate over all cells.")
@click.option("--beta", type=float, default=0.05, show_default=True, help="Miss rate for a move of 2*delta.")
def baseline_save(config: Path, out: Path, games: int | None, seed: int | None, workers: str | None,
                  backend: str | None, delta: float, alpha: float, beta: float) -> None:
    """Play CONFIG and store a baseline: win rates and counts per cell, rules hash,
    rnsim version, config, seed and the gate's design."""
    from rnsim.drift import cell_name, save_baseline

    b = save_baseline(config, out, games=games, seed=seed, workers=workers, backend=backend,
                      delta=delta, alpha=alpha, beta=beta, echo=_echo_err)
    g = b.gate
    click.echo(f"baseline written: {out} ({len(b.cells)} cell(s) x {b.games_per_cell:,} games, seed {b.master_seed}; "
               f"gate delta {g['delta']}, alpha {g['alpha']}, beta {g['beta']}, batch {g['batch']}, budget {g['budget']:,})")
    seat = str(g["seat"])
    who = str(g.get("statistic", seat)).removesuffix(" win rate per cell")  # e.g. "forger (Angela)"
    for c in b.cells:
        labels = {k: v for k, v in c.items() if k == "variant" or isinstance(v, str) and k not in ("replay",)}
        wins = int(c[f"{seat}_wins"])
        click.echo(f"  {cell_name(labels)}: {who} {wins:,}/{c['games']:,} = {100 * wins / max(1, c['games']):.1f}%")


@click.command()
@click.option("--baseline", "baseline_file", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="Baseline file written by `rnsim baseline save`.")
@click.option("--config", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Config to check (default: the baseline's config file, as it is now).")
@click.option("--seed", type=int, default=None,
              help="Master seed of the fresh games (default: the baseline's, past its game indices).")
@click.option("--delta", type=float, default=None, help="Tolerance (default: the baseline's).")
@click.option("--alpha", type=float, default=None, help="False-alarm rate over all cells (default: the baseline's).")
@click.option("--beta", type=float, default=None, help="Miss rate for a move of 2*delta (default: the baseline's).")
@click.option("--budget", type=int, default=None, help="Most games to play, all cells together (default: the baseline's).")
@click.option("--batch", type=int, default=None, help="Games per open cell per batch (default: the baseline's).")
@click.option("--workers", default=None, help='Worker processes, or "auto" (overrides run.workers).')
@click.option("--backend", default=None, help='"process" or "serial" (overrides run.backend).')
@click.option("--fail-fast", is_flag=True, help="Stop at the first cell that drifts (the other cells stay undecided).")
@click.option("--allow-undecided", is_flag=True, help="Exit 0 instead of 3 when the budget runs out undecided.")
@click.option("--no-replay", is_flag=True,
              help="Skip the exact replay of the baseline's first games (under the baseline's seed).")
@click.option("--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the results block (Markdown) to this file.")
def check(baseline_file: Path, config: Path | None, seed: int | None, delta: float | None, alpha: float | None,
          beta: float | None, budget: int | None, batch: int | None, workers: str | None, backend: str | None,
          fail_fast: bool, allow_undecided: bool, no_replay: bool, output: Path | None) -> None:
    """The balance-drift gate: has the watched seat's win rate moved since the baseline?

    The watched seat is the game's (Red Notice: the forger; FBI: the start player).
    Plays the baseline's config with the current code and rules in batches. Under
    the baseline's seed it first replays the baseline's first games of each cell: a
    cell whose watched-seat outcomes all come out the same is settled as no drift (an
    exact bound). The other cells get fresh games and a sequential test (SPRT) per
    cell that stops as soon as every cell is decided or the budget is spent. Prints
    a results block to paste into a pull request. Exit code: 0 no drift, 1 drift, 2 usage or config error,
    3 undecided within the budget (0 with --allow-undecided).
    """
    from rnsim.drift import run_check

    outcome = run_check(baseline_file, config=config, seed=seed, delta=delta, alpha=alpha, beta=beta,
                        budget=budget, batch=batch, workers=workers, backend=backend, fail_fast=fail_fast,
                        replay=not no_replay, echo=_echo_err)
    click.echo(outcome.block)
    if output is not None:
        output.write_text(outcome.block + "\n")
    code = outcome.exit_code
    if code == EXIT_UNDECIDED and allow_undecided:
        _echo_err("undecided within the budget; --allow-undecided: exit 0")
        code = EXIT_NO_DRIFT
    sys.exit(code)
