"""`rnsim sweep`, `rnsim tune` and `rnsim levers`: which knob moves the balance,
by how much, and which value balances the game (docs/levers.md)."""

from __future__ import annotations

import math
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


_IDENTITIES = click.option(
    "--identities", type=click.Choice(["random", "config"]), default="random", show_default=True,
    help="Deal Angela's identities at random (R20; every game independent), or as the config's [run] identities "
         "says (with \"all\", a game index's identity cells are one deal: correlated games).")


def _play_options(f: Any) -> Any:
    for opt in reversed(_PLAY_OPTIONS):
        f = opt(f)
    return f


def _pct(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _pts(x: float) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:+.1f}"


def _sweep_grids(config: Path, knob: tuple[str, ...], values: tuple[str, ...]) -> tuple[list[str], list[list[int]]]:
    from rnsim.errors import ConfigError
    from rnsim.levers import parse_values, read_config

    if not knob:
        table = read_config(config).get("sweep")
        if not isinstance(table, dict) or not table:
            raise ConfigError(f"{config}: give --knob K --values V, or a [sweep] table such as "
                              '[sweep] money_target = "800000:1400000:100000"')
        knobs = list(table)
        raw = [v if isinstance(v, str) else ",".join(str(x) for x in v) for v in table.values()]
        return knobs, [parse_values(t, k, f"{config}: sweep.{k}") for k, t in zip(knobs, raw, strict=True)]
    if len(values) != len(knob):
        raise ConfigError(f"--values: give one --values per --knob ({len(knob)} knob(s), {len(values)} --values)")
    return list(knob), [parse_values(t, k) for k, t in zip(knob, values, strict=True)]


@click.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--knob", multiple=True, help="The knob to sweep (twice for a two-knob heat map).")
@click.option("--values", multiple=True, help='Values: "a,b,c" or "start:stop:step" (stop included), one per --knob.')
@click.option("--target", type=float, default=0.5, show_default=True, help="The forger's win rate to cross.")
@click.option("--per-pair", is_flag=True, help="Also the curve of every identity pair.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run directory (default runs/<config>-sweep-<knobs>).")
@_IDENTITIES
@_play_options
def sweep(config: Path, knob: tuple[str, ...], values: tuple[str, ...], target: float, per_pair: bool,
          out: Path | None, identities: str, games: int | None, seed: int | None, workers: str | None,
          backend: str | None, progress: bool) -> None:
    """Play CONFIG at every value of one or two knobs (the same game indices
    at every value) and report the forger's win rate curve and its crossing."""
    from rnsim.analysis.crossing import logit
    from rnsim.errors import ConfigError
    from rnsim.levers import fmt_value, run_sweep, write_table

    try:
        logit(target)
    except ValueError as e:
        raise ConfigError(f"--target: {e}") from None
    knobs, grids = _sweep_grids(config, knob, values)
    out = out or Path("runs") / f"{config.stem}-sweep-{'-'.join(knobs)}"
    t0 = time.perf_counter()
    res = run_sweep(config, knobs, grids, out=out, target=target, per_pair=per_pair,
                    identities=None if identities == "config" else "random", echo=lambda s: click.echo(s, err=True), games=games, seed=seed, workers=workers,
                    backend=backend, progress=progress and sys.stderr.isatty())
    files = write_table(res.table, out / "tables", "sweep")
    click.echo(f"sweep of {' x '.join(knobs)} on {config}: {len(res.table)} values, {res.played.games:,} games "
               f"({res.played.seconds:.1f} s playing, {time.perf_counter() - t0:.1f} s in all)")
    for row in res.table.iter_rows(named=True):
        point = ", ".join(f"{k} {fmt_value(row[k])}" for k in knobs)
        line = f"  {point}: forger wins {_pct(row['rate'])} [{_pct(row['rate_lo'])}, {_pct(row['rate_hi'])}] of {row['games']:,}"
        if len(knobs) == 1 and row.get("diff_prev") is not None:
            line += (f"; vs previous value {_pts(row['diff_prev'])} points "
                     f"[{_pts(row['diff_prev_lo'])}, {_pts(row['diff_prev_hi'])}] (paired)")
        click.echo(line)
    if res.crossing is not None:
        click.echo(_crossing_text(knobs[0], res.crossing, target))
    figs = _sweep_figures(res, out, target)
    if res.per_pair is not None:
        files += write_table(res.per_pair, out / "tables", "sweep_per_pair")
    click.echo("files: " + ", ".join(str(p) for p in [*files, *figs]))


def _crossing_text(knob: str, c: Any, target: float) -> str:
    from rnsim.levers import fmt_value

    if not math.isfinite(c.estimate):
        head = f"crossing ({_pct(target)}): cannot be placed: the rate does not change clearly with {knob}"
    elif not c.bounded:
        head = (f"crossing ({_pct(target)}): {knob} ~ {fmt_value(round(c.estimate))}, but its 95% interval is "
                "unbounded (the slope is not clearly different from zero); play more games")
    else:
        head = (f"crossing ({_pct(target)}): {knob} = {fmt_value(round(c.estimate))} "
                f"[{fmt_value(round(c.lo))}, {fmt_value(round(c.hi))}] (95%, logistic fit on "
                f"{len(c.window)} values, Fieller interval{', paired games' if c.paired else ''})")
    if not c.inside_grid:
        head += "; no two values bracket the target: the crossing is extrapolated outside the values played"
    if c.bracket is not None:
        b = c.bracket
        head += (f"\n  bracket: {knob} {fmt_value(b.x_low)}: {_pct(b.rate_low)} [{_pct(b.rate_low_ci[0])}, "
                 f"{_pct(b.rate_low_ci[1])}] and {fmt_value(b.x_high)}: {_pct(b.rate_high)} "
                 f"[{_pct(b.rate_high_ci[0])}, {_pct(b.rate_high_ci[1])}]")
    return head


def _sweep_figures(res: Any, out: Path, target: float) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    import numpy as np

    figs = out / "figures"
    figs.mkdir(parents=True, exist_ok=True)
    t = res.table
    paths = []
    if len(res.knobs) == 1:
        k = res.knobs[0]
        fig, ax = plt.subplots(figsize=(7, 4))
        x = t[k].to_numpy()
        y = t["rate"].to_numpy()
        ax.errorbar(x, 100 * y, yerr=[100 * (y - t["rate_lo"].to_numpy()), 100 * (t["rate_hi"].to_numpy() - y)],
                    fmt="o-", capsize=3, label="forger's win rate (95% Wilson)")
        ax.axhline(100 * target, color="grey", ls="--", lw=1, label=f"target {100 * target:.0f}%")
        c = res.crossing
        if c is not None and c.bounded:
            ax.axvspan(c.lo, c.hi, color="tab:orange", alpha=0.2, label="crossing, 95% interval")
            ax.axvline(c.estimate, color="tab:orange", lw=1)
        ax.set_xlabel(k)
        ax.xaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:,.0f}"))
        ax.set_ylabel("forger wins (%)")
        ax.legend(fontsize=8)
        ax.set_title(f"Forger's win rate by {k} ({res.played.games:,} games)")
        fig.tight_layout()
        paths += _save(fig, figs / "sweep")
        if res.per_pair is not None:
            pp = res.per_pair
            pairs = sorted(set(pp["identity_pair"].to_list()))
            fig, ax = plt.subplots(figsize=(8, 5))
            for p in pairs:
                d = pp.filter(pp["identity_pair"] == p).sort(k)
                ax.plot(d[k].to_numpy(), 100 * d["rate"].to_numpy(), marker=".", lw=1, label=p)
            ax.axhline(100 * target, color="grey", ls="--", lw=1)
            ax.set_xlabel(k)
            ax.set_ylabel("forger wins (%)")
            ax.legend(fontsize=6, ncol=2)
            ax.set_title(f"Forger's win rate by {k}, per identity pair")
            fig.tight_layout()
            paths += _save(fig, figs / "sweep_per_pair")
    else:
        k1, k2 = res.knobs
        v1 = sorted(set(t[k1].to_list()))
        v2 = sorted(set(t[k2].to_list()))
        grid = np.full((len(v2), len(v1)), np.nan)
        for row in t.iter_rows(named=True):
            grid[v2.index(row[k2]), v1.index(row[k1])] = row["rate"]
        fig, ax = plt.subplots(figsize=(1.2 * len(v1) + 2, 0.6 * len(v2) + 2))
        span = max(0.05, float(np.nanmax(np.abs(grid - target))))
        im = ax.imshow(100 * grid, cmap="RdBu_r", vmin=100 * (target - span), vmax=100 * (target + span),
                       origin="lower", aspect="auto")
        for i in range(len(v2)):
            for j in range(len(v1)):
                ax.text(j, i, f"{100 * grid[i, j]:.1f}", ha="center", va="center", fontsize=8)
        ax.set_xticks(range(len(v1)), [f"{v:,}" for v in v1], rotation=45, fontsize=8)
        ax.set_yticks(range(len(v2)), [f"{v:,}" for v in v2], fontsize=8)
        ax.set_xlabel(k1)
        ax.set_ylabel(k2)
        fig.colorbar(im, label="forger wins (%)")
        ax.set_title(f"Forger's win rate ({res.played.games:,} games)")
        fig.tight_layout()
        paths += _save(fig, figs / "sweep_heatmap")
    plt.close("all")
    return paths


def _save(fig: Any, stem: Path) -> list[Path]:
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    fig.savefig(png, dpi=120)
    fig.savefig(svg)
    return [png, svg]


@click.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--knob", required=True, help="The numeric knob to tune.")
@click.option("--target", type=float, default=0.5, show_default=True, help="The forger's win rate to reach.")
@click.option("--tolerance", type=float, required=True, help="Stop when the crossing's 95% interval is narrower than this (knob units).")
@click.option("--range", "span", default=None, help='Search range "lo:hi" (default: 5 notches either side of the config\'s value).')
@click.option("--step", type=int, default=None, help="Lattice step of the values played (default: the knob's notch).")
@click.option("--batch", type=int, default=100, show_default=True,
              help="Games of the first look at each value (later batches are sized from --tolerance).")
@click.option("--max-games", type=int, default=200_000, show_default=True, help="Budget of games.")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Directory of the batches' runs (default runs/<config>-tune-<knob>).")
@click.option("--seed", type=int, default=None, help="Master seed (overrides run.seed).")
@click.option("--workers", default=None, help='Worker processes, or "auto" (overrides run.workers).')
@click.option("--backend", default=None, help='"process", "serial" or "ray" (overrides run.backend).')
@_IDENTITIES
def tune(config: Path, knob: str, target: float, tolerance: float, span: str | None, step: int | None, batch: int,
         max_games: int, out: Path | None, seed: int | None, workers: str | None, backend: str | None,
         identities: str) -> None:
    """Find the value of KNOB where the forger wins TARGET of the games,
    spending games near it instead of on a grid (docs/levers.md)."""
    import polars as pl

    from rnsim.analysis.crossing import logit
    from rnsim.errors import ConfigError
    from rnsim.levers import KNOBS, base_rules, check_knob, fmt_value, run_tune, write_table

    check_knob(knob)
    try:
        logit(target)
    except ValueError as e:
        raise ConfigError(f"--target: {e}") from None
    if tolerance <= 0:
        raise ConfigError(f"--tolerance: must be positive, got {tolerance}")
    if batch < 1 or max_games < 1:
        raise ConfigError("--batch and --max-games: must be at least 1")
    k = KNOBS[knob]
    assert k.notch is not None and k.lo is not None and k.hi is not None
    if span is None:
        cur = getattr(base_rules(config), knob)
        lo, hi = max(k.lo, cur - 5 * k.notch), min(k.hi, cur + 5 * k.notch)
    else:
        try:
            lo, hi = (int(p.replace("_", "")) for p in span.split(":"))
        except ValueError:
            raise ConfigError(f'--range: must be "lo:hi" with whole numbers, got {span!r}') from None
    out = out or Path("runs") / f"{config.stem}-tune-{knob}"
    res, seconds = run_tune(config, knob, lo, hi, out=out, target=target, tolerance=tolerance, batch=batch,
                            step=step, max_games=max_games, seed=seed, echo=lambda s: click.echo(s, err=True),
                            identities=None if identities == "config" else "random", workers=workers,
                            backend=backend)
    c = res.crossing
    click.echo(f"tune {knob} on {config}, range {fmt_value(lo)}..{fmt_value(hi)}: {res.games:,} games in "
               f"{len(res.batches)} batches ({seconds:.1f} s)"
               + ("" if res.converged else f"; STOPPED before the tolerance {fmt_value(tolerance)} (budget spent)"))
    click.echo(_crossing_text(knob, c, target))
    click.echo(f"  a grid of {res.grid_points} values over the range would need about {res.grid_games:,.0f} "
               f"independent games for the same precision (model-based; a paired sweep needs more)")
    table = pl.DataFrame([{"batch": i, knob: b.value, "first_game": b.first_game, "games": b.games, "wins": b.wins,
                           "rate": b.wins / b.games} for i, b in enumerate(res.batches)])
    files = write_table(table, out / "tables", "tune_batches")
    files += _tune_figure(res, knob, target, out)
    click.echo("files: " + ", ".join(str(p) for p in files))


def _tune_figure(res: Any, knob: str, target: float, out: Path) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker
    import numpy as np

    from rnsim.analysis.crossing import expit, merge_points
    from rnsim.analysis.stats import wilson

    x, w, n = merge_points([b.value for b in res.batches], [b.wins for b in res.batches],
                           [b.games for b in res.batches])
    lo, hi = wilson(w, n)
    r = w / n
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar(x, 100 * r, yerr=[100 * (r - lo), 100 * (hi - r)], fmt="o", capsize=3, label="values played (95%)")
    for xi, ni, ri in zip(x, n, r, strict=True):
        ax.annotate(f"{int(ni):,}", (xi, 100 * ri), textcoords="offset points", xytext=(4, 4), fontsize=7)
    c = res.crossing
    xs = np.linspace(res.lo, res.hi, 200)
    ax.plot(xs, 100 * expit(c.intercept + c.slope * xs), lw=1, label="logistic fit")
    ax.axhline(100 * target, color="grey", ls="--", lw=1)
    if c.bounded:
        ax.axvspan(c.lo, c.hi, color="tab:orange", alpha=0.2, label="crossing, 95% interval")
    ax.set_xlabel(knob)
    ax.xaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:,.0f}"))
    ax.set_ylabel("forger wins (%)")
    ax.set_title(f"Adaptive search: {res.games:,} games")
    ax.legend(fontsize=8)
    fig.tight_layout()
    (out / "figures").mkdir(parents=True, exist_ok=True)
    paths = _save(fig, out / "figures" / "tune")
    plt.close(fig)
    return paths


@click.command()
@click.argument("config", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Run directory (default runs/<config>-levers).")
@click.option("--restricted", is_flag=True,
              help="Also value each upgrade by restricted play: the same strategies, except that it is never chosen.")
@click.option("--for-run", "for_run", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Write into RUN/levers, where `rnsim report RUN` finds the causal values (the run must play "
                   "CONFIG's rules).")
@_IDENTITIES
@click.option("--precision", type=float, default=2.0, show_default=True,
              help="Play in stages until every shift's 95% interval is within +- this many points "
                   "(0: one stage of --games).")
@click.option("--max-games", type=int, default=400_000, show_default=True,
              help="Budget of games for the stages.")
@_play_options
def levers(config: Path, out: Path | None, restricted: bool, for_run: Path | None, identities: str,
           precision: float, max_games: int, games: int | None, seed: int | None, workers: str | None,
           backend: str | None, progress: bool) -> None:
    """Play every one-notch change of CONFIG's rules against the rules
    themselves, paired game by game: each numeric knob one notch down and up,
    each upgrade removed, each identity played as the plain identity (and,
    with --restricted, each upgrade never taken by Jessah). Prints and plots
    the shifts of the forger's win rate, largest first."""
    import json

    from rnsim.errors import ConfigError
    from rnsim.levers import check_for_run, run_levers, write_table

    if not 0 <= precision < 100:
        raise ConfigError(f"--precision: must be 0 (one stage) or a half-width in points below 100, got {precision}")
    if max_games < 1:
        raise ConfigError(f"--max-games: must be at least 1, got {max_games}")
    if for_run is not None:
        if out is not None:
            raise ConfigError("--for-run and --out: give one (--for-run RUN writes into RUN/levers)")
        check_for_run(config, for_run)
        out = for_run / "levers"
    out = out or Path("runs") / f"{config.stem}-levers"
    t0 = time.perf_counter()
    res = run_levers(config, out=out, restricted=restricted, identities=None if identities == "config" else "random",
                     precision=precision / 100 or None, max_games=max_games, echo=lambda s: click.echo(s, err=True),
                     games=games, seed=seed, workers=workers, backend=backend,
                     progress=progress and sys.stderr.isatty())
    t = res.table
    widest = 100 * float(t["half_width"].max())  # type: ignore[arg-type]
    click.echo(f"levers of {config}: {len(t)} changes against the base rules, {res.played.games:,} games "
               f"({res.played.seconds:.1f} s playing, {time.perf_counter() - t0:.1f} s in all); "
               f"widest paired 95% interval +-{widest:.1f} points"
               + (f"; {int((100 * t['half_width'] <= precision + 1e-9).sum())} of {len(t)} within +-{precision:g}"
                  if precision else ""))
    for row in t.iter_rows(named=True):
        click.echo(f"  {row['change']:<55s} {_pts(row['shift']):>6s} points [{_pts(row['shift_lo'])}, "
                   f"{_pts(row['shift_hi'])}]  ({_pct(row['rate_base'])} -> {_pct(row['rate_changed'])}, "
                   f"{row['games']:,} games)")
    for s in res.skipped:
        click.echo(f"  skipped: {s}")
    files = write_table(t, out / "tables", "levers")
    meta = out / "levers.json"
    meta.write_text(json.dumps({**res.meta, "skipped": res.skipped}, indent=2) + "\n")
    files += [meta, *_tornado(t, out, res.played.games)]
    click.echo("files: " + ", ".join(str(p) for p in files))


def _tornado(t: Any, out: Path, games: int) -> list[Path]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    d = t.reverse()  # largest at the top
    y = np.arange(len(d))
    shift = 100 * d["shift"].to_numpy()
    lo = 100 * d["shift_lo"].to_numpy()
    hi = 100 * d["shift_hi"].to_numpy()
    fig, ax = plt.subplots(figsize=(9, 0.28 * len(d) + 1.5))
    colours = ["tab:red" if s > 0 else "tab:blue" for s in shift]
    ax.barh(y, shift, color=colours, alpha=0.7)
    ax.errorbar(shift, y, xerr=[shift - lo, hi - shift], fmt="none", ecolor="black", capsize=2, lw=1)
    ax.set_yticks(y, d["change"].to_list(), fontsize=7)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("shift of the forger's win rate (points; paired 95% interval)")
    ax.set_title(f"What moves the balance ({games:,} games; red helps the forger)")
    fig.tight_layout()
    (out / "figures").mkdir(parents=True, exist_ok=True)
    paths = _save(fig, out / "figures" / "levers")
    plt.close(fig)
    return paths
