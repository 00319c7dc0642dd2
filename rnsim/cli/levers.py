"""`rnsim sweep`, `rnsim tune` and `rnsim levers`: which knob moves the balance,
by how much, and which value balances the game, for any game (docs/levers.md).
The knobs and the balance (the watched seat's win rate) are the game's."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

import click

_PLAY_OPTIONS = [
    click.option("--games", type=int, default=None, help="Games per cell (overrides run.games)."),
    click.option("--seed", type=int, default=None, help="Master seed (overrides run.seed)."),
    click.option("--workers", default=None, help='Worker processes, or "auto" (overrides run.workers).'),
    click.option("--backend", default=None, help='"process", "serial" or "ray" (overrides run.backend).'),
    click.option("--progress/--no-progress", default=True, show_default=True, help="Show the progress bar."),
]

_SETUPS = click.option(
    "--setups", type=click.Choice(["game", "config"]), default="game", show_default=True,
    help="The setups to play: \"game\", the game's choice for levers (Red Notice: identities dealt at random as "
         "in the rulebook, R20, so every game is independent; FBI: the config's player counts), or \"config\", "
         "the config's [run] setting.")


_VARIANT = click.option(
    "--variant", default=None,
    help="A config with [[variants]]: the variant whose rules are varied (default: the first).")


def _play_options(f: Any) -> Any:
    for opt in reversed(_PLAY_OPTIONS):
        f = opt(f)
    return f


def _check_target(target: float | None) -> None:
    from rnsim.analysis.crossing import logit
    from rnsim.errors import ConfigError

    if target is None:
        return
    try:
        logit(target)
    except ValueError as e:
        raise ConfigError(f"--target: {e}") from None


def _config_file(ctx: click.Context, param: click.Parameter, value: Path) -> Path:
    """CONFIG as every command reads it: a file, or a bare name (NAME.toml
    here, else the example config NAME)."""
    from rnsim.examples import resolve_config

    return resolve_config(value)


def _source(config: Path, variant: str | None = None) -> Any:
    """The config as the levers commands play it, read and checked once here
    (its rule set readable, the variant named when it has several)."""
    from rnsim.levers import LeverConfig

    source = LeverConfig.read(config, variant)
    note = source.note()
    if note:
        click.echo(note, err=True)
    return source


def _sweep_grids(source: Any, knob: tuple[str, ...], values: tuple[str, ...]) -> tuple[list[str], list[list[int]]]:
    from rnsim.errors import ConfigError
    from rnsim.levers import check_knob, parse_values

    game, config = source.game, source.path
    if not knob:
        table = source.sweep_table
        if not isinstance(table, dict) or not table:
            raise ConfigError(f"{config}: give --knob K --values V, or a [sweep] table such as "
                              '[sweep] knob = "start:stop:step"')
        knobs = list(table)
        raw = [v if isinstance(v, str) else ",".join(str(x) for x in v) for v in table.values()]
        return knobs, [parse_values(t, check_knob(game, k, f"{config}: sweep.{k}"), f"{config}: sweep.{k}")
                       for k, t in zip(knobs, raw, strict=True)]
    if len(values) != len(knob):
        raise ConfigError(f"--values: give one --values per --knob ({len(knob)} knob(s), {len(values)} --values)")
    return list(knob), [parse_values(t, check_knob(game, k)) for k, t in zip(knob, values, strict=True)]


def _pooled_note(cfg: Any) -> str:
    """How the cells of one value are pooled, when there are several."""
    labels = sorted({c.setup_label for c in cfg.cells() if c.variant == 0})
    cells = sum(1 for c in cfg.cells() if c.variant == 0)
    if cells == 1:
        return ""
    key = cfg.game_obj.setup_key
    named = ", ".join(labels) if len(labels) <= 6 else f"{len(labels)} of them"
    return (f"; each value pools {cells} cells ({key} {named}), every cell the same games at every "
            "value, the interval clustered on the game index")


@click.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path), callback=_config_file)
@click.option("--knob", multiple=True, help="The numeric knob to sweep (twice for a two-knob grid).")
@click.option("--values", multiple=True, help='Values: "a,b,c" or "start:stop:step" (stop included), one per --knob.')
@click.option("--target", type=float, default=None,
              help="The rate to cross (default: a balanced game's, e.g. 0.5 for two seats).")
@click.option("--per-setup", "--per-pair", "per_setup", is_flag=True,
              help="Also the curve of every setup (the one each game was dealt when setups are drawn).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run directory (default runs/<config>-sweep-<knobs>).")
@_SETUPS
@_VARIANT
@_play_options
def sweep(config: Path, knob: tuple[str, ...], values: tuple[str, ...], target: float | None, per_setup: bool,
          out: Path | None, setups: str, variant: str | None, games: int | None, seed: int | None,
          workers: str | None, backend: str | None, progress: bool) -> None:
    """Play CONFIG at every value of one or two knobs (the same game indices
    at every value) and report the game's balance at each value and, for one
    knob, where it crosses the target, or what was seen instead."""
    from rnsim.levers import run_sweep, write_table
    from rnsim.levers.figures import sweep_figures
    from rnsim.levers.text import crossing_lines, pct, pts

    _check_target(target)
    source = _source(config, variant)
    knobs, grids = _sweep_grids(source, knob, values)
    out = out or Path("runs") / f"{config.stem}-sweep-{'-'.join(knobs)}"
    t0 = time.perf_counter()
    res = run_sweep(source, knobs, grids, out=out, target=target, per_setup=per_setup, setups=setups,
                    echo=lambda s: click.echo(s, err=True), games=games, seed=seed, workers=workers,
                    backend=backend, progress=progress and sys.stderr.isatty())
    files = write_table(res.table, out / "tables", "sweep")
    title = res.balance.title
    click.echo(f"sweep of {' x '.join(knobs)} on {config}: {len(res.table)} values, {res.played.games:,} games "
               f"({res.played.seconds:.1f} s playing, {time.perf_counter() - t0:.1f} s in all); {title} with its "
               f"95% interval{_pooled_note(res.played.cfg)}")
    for row in res.table.iter_rows(named=True):
        point = ", ".join(f"{k} {_fmt(row[k])}" for k in knobs)
        line = f"  {point}: {pct(row['rate'])} [{pct(row['rate_lo'])}, {pct(row['rate_hi'])}] of {row['games']:,}"
        if len(knobs) == 1 and row.get("diff_prev") is not None:
            if row["changed_prev"] == 0 and row["shared_prev"]:
                line += f"; the same outcome as the previous value in all {row['shared_prev']:,} games"
            else:
                line += (f"; vs previous value {pts(row['diff_prev'])} points [{pts(row['diff_prev_lo'])}, "
                         f"{pts(row['diff_prev_hi'])}] (paired, {row['changed_prev']:,} games changed)")
        click.echo(line)
    if res.crossing is not None:
        for line in crossing_lines(knobs[0], res.crossing, title, res.target_note):
            click.echo(line)
    for label, c in res.per_setup.items():
        click.echo(f"{res.played.cfg.game_obj.setup_key} {label} alone:")
        for line in crossing_lines(knobs[0], c, title, "as asked" if target is not None
                                   else "a balanced game of this setup")[1:]:
            click.echo("  " + line)
    if res.setup_table is not None:
        files += write_table(res.setup_table, out / "tables", "sweep_per_setup")
    files += sweep_figures(res, out)
    click.echo("files: " + ", ".join(str(p) for p in files))


def _fmt(v: Any) -> str:
    from rnsim.levers import fmt_value

    return fmt_value(v)


@click.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path), callback=_config_file)
@click.option("--knob", required=True, help="The numeric knob to tune.")
@click.option("--target", type=float, default=None,
              help="The rate to reach (default: a balanced game's, e.g. 0.5 for two seats).")
@click.option("--tolerance", type=float, required=True,
              help="Stop when the crossing's 95% set is narrower than this (knob units).")
@click.option("--range", "span", default=None,
              help='Search range "lo:hi" (default: 5 notches either side of the config\'s value).')
@click.option("--step", type=int, default=None, help="Lattice step of the values played (default: the knob's notch).")
@click.option("--batch", type=int, default=100, show_default=True,
              help="Games of the first look at a value (later batches are sized from --tolerance).")
@click.option("--max-games", type=int, default=200_000, show_default=True, help="Budget of games.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory of the tables and figure (default runs/<config>-tune-<knob>).")
@click.option("--seed", type=int, default=None, help="Master seed (overrides run.seed).")
@click.option("--workers", default=None, help='Worker processes, or "auto" (overrides run.workers).')
@click.option("--backend", default=None, help='"process", "serial" or "ray" (overrides run.backend).')
@_SETUPS
@_VARIANT
def tune(config: Path, knob: str, target: float | None, tolerance: float, span: str | None, step: int | None,
         batch: int, max_games: int, out: Path | None, seed: int | None, workers: str | None, backend: str | None,
         setups: str, variant: str | None) -> None:
    """Find the value of KNOB where the game's balance reaches TARGET,
    spending games on the lattice values next to it (docs/levers.md)."""
    from rnsim.errors import ConfigError
    from rnsim.levers import check_knob, run_tune, write_table
    from rnsim.levers.figures import tune_figure
    from rnsim.levers.knobs import bounds
    from rnsim.levers.text import crossing_lines

    source = _source(config, variant)
    game = source.game
    k = check_knob(game, knob)
    _check_target(target)
    if tolerance <= 0:
        raise ConfigError(f"--tolerance: must be positive, got {tolerance}")
    if batch < 1 or max_games < 1:
        raise ConfigError("--batch and --max-games: must be at least 1")
    low, high = bounds(k)
    assert k.notch is not None
    if span is None:
        cur = getattr(source.base().variants[0].rules, knob)
        lo, hi = max(low, int(cur - 5 * k.notch)), min(high, int(cur + 5 * k.notch))
    else:
        try:
            lo, hi = (int(p.replace("_", "")) for p in span.split(":"))
        except ValueError:
            raise ConfigError(f'--range: must be "lo:hi" with whole numbers, got {span!r}') from None
    out = out or Path("runs") / f"{config.stem}-tune-{knob}"
    run = run_tune(source, knob, lo, hi, tolerance=tolerance, target=target, batch=batch, step=step,
                   max_games=max_games, seed=seed, setups=setups, workers=workers, backend=backend,
                   echo=lambda s: click.echo(s, err=True))
    res = run.result
    lat = res.lattice
    click.echo(f"tune {knob} on {config}: lattice {_fmt(lat[0])}..{_fmt(lat[-1])} by {_fmt(lat[1] - lat[0])} "
               f"({len(lat)} values), {res.games:,} games in {len(res.batches)} batches ({run.seconds:.1f} s); "
               f"{_stopped(res, knob)}")
    c = res.crossing
    played = ", ".join(f"{_fmt(x)} ({n:,})" for x, n in zip(c.x, c.games, strict=True))
    cells = (f"{run.cells} cells each ({game.setup_key} {', '.join(run.setups)}), pooled" if run.cells > 1
             else "one cell each")
    click.echo(f"  values played (games without error): {played}; every value plays game indices 0, 1, 2, ... "
               f"of seed {source.whole.seed if seed is None else seed}, {cells}")
    for line in crossing_lines(knob, c, run.balance.title, run.target_note):
        click.echo(line)
    tables = out / "tables"
    files = write_table(_batches(res, knob), tables, "tune_batches")
    files += write_table(_values(c, knob), tables, "tune_values")
    files += write_table(run.games, tables, "tune_games")
    files += tune_figure(run, out)
    click.echo("files: " + ", ".join(str(p) for p in files))


def _stopped(res: Any, knob: str) -> str:
    from rnsim.levers import fmt_value
    from rnsim.levers.text import between

    c = res.crossing
    if res.reason == "tolerance":
        return f"stopped: the 95% set is {between(c.width, c)} wide, within the tolerance {fmt_value(res.tolerance)}"
    if res.reason == "not reached":
        return "stopped: every value played is clearly on one side of the target: no crossing in the range"
    width = between(c.width, c) if c.found and c.pieces else "unbounded"
    return f"STOPPED by --max-games before the tolerance {fmt_value(res.tolerance)} (the 95% set: {width})"


def _batches(res: Any, knob: str) -> Any:
    import polars as pl

    return pl.DataFrame([{"batch": i, knob: b.value, "first_game": b.start, "last_game": b.stop - 1,
                          "games": b.games, "mean": b.mean} for i, b in enumerate(res.batches)],
                        schema={"batch": pl.Int64, knob: pl.Float64, "first_game": pl.Int64, "last_game": pl.Int64,
                                "games": pl.Int64, "mean": pl.Float64})


def _values(c: Any, knob: str) -> Any:
    import polars as pl

    return pl.DataFrame({knob: list(c.x), "games": list(c.games), "rate": list(c.rate), "rate_lo": list(c.rate_lo),
                         "rate_hi": list(c.rate_hi)})


@click.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path), callback=_config_file)
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run directory (default runs/<config>-levers).")
@click.option("--restricted", is_flag=True,
              help="Also the game's restricted play: the same strategies, except that an option is never chosen "
                   "(Red Notice: each upgrade).")
@click.option("--for-run", "for_run", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Write into RUN/levers, where `rnsim report RUN` finds the causal values (the run must play "
                   "CONFIG's rules).")
@_SETUPS
@_VARIANT
@click.option("--precision", type=float, default=2.0, show_default=True,
              help="Play in stages until every shift's 95% interval is within +- this many points "
                   "(0: one stage of --games).")
@click.option("--max-games", type=int, default=400_000, show_default=True,
              help="Budget of games for the stages.")
@_play_options
def levers(config: Path, out: Path | None, restricted: bool, for_run: Path | None, setups: str,
           variant: str | None, precision: float, max_games: int, games: int | None, seed: int | None,
           workers: str | None, backend: str | None, progress: bool) -> None:
    """Play every one-step change of CONFIG's rules against the rules
    themselves, paired game by game: each numeric knob one notch down and up,
    each choice knob set to each other choice, and the game's own levers (Red
    Notice: each upgrade removed, each identity played as the plain identity).
    Prints and plots the shifts of the game's balance, largest first."""
    import json

    from rnsim.errors import ConfigError
    from rnsim.levers import check_for_run, run_levers, write_table
    from rnsim.levers.figures import tornado
    from rnsim.levers.text import pct, pts

    source = _source(config, variant)
    if not 0 <= precision < 100:
        raise ConfigError(f"--precision: must be 0 (one stage) or a half-width in points below 100, got {precision}")
    if max_games < 1:
        raise ConfigError(f"--max-games: must be at least 1, got {max_games}")
    if for_run is not None:
        if out is not None:
            raise ConfigError("--for-run and --out: give one (--for-run RUN writes into RUN/levers)")
        check_for_run(source, for_run)
        out = for_run / "levers"
    out = out or Path("runs") / f"{config.stem}-levers"
    t0 = time.perf_counter()
    res = run_levers(source, out=out, restricted=restricted, setups=setups, precision=precision / 100 or None,
                     max_games=max_games, echo=lambda s: click.echo(s, err=True), games=games,
                     seed=seed, workers=workers, backend=backend, progress=progress and sys.stderr.isatty())
    t = res.table
    widest = 100 * float(t["half_width"].max())  # type: ignore[arg-type]
    click.echo(f"levers of {config}: {len(t)} changes against the base rules, {res.played.games:,} games "
               f"({res.played.seconds:.1f} s playing, {time.perf_counter() - t0:.1f} s in all); shifts of the "
               f"{res.balance.title}{_pooled_note(res.played.cfg)}; widest paired 95% interval +-{widest:.1f} points"
               + (f"; {int((100 * t['half_width'] <= precision + 1e-9).sum())} of {len(t)} within +-{precision:g}"
                  if precision else ""))
    for row in t.iter_rows(named=True):
        click.echo(f"  {row['change']:<55s} {pts(row['shift']):>6s} points [{pts(row['shift_lo'])}, "
                   f"{pts(row['shift_hi'])}]  ({pct(row['rate_base'])} -> {pct(row['rate_changed'])}, "
                   f"{row['games']:,} games)")
    for s in res.skipped:
        click.echo(f"  skipped: {s}")
    files = write_table(t, out / "tables", "levers")
    meta = out / "levers.json"
    meta.write_text(json.dumps({**res.meta, "skipped": res.skipped}, indent=2) + "\n")
    files += [meta, *tornado(t, out, res.played.games, res.balance.title)]
    click.echo("files: " + ", ".join(str(p) for p in files))
