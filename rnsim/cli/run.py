"""`rnsim run` (a tournament from a config file) and `rnsim bench` (games/s,
scaling across workers, and the runner's overhead over a plain loop)."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import click

from rnsim.cli.seats import SeatOptions, game_label, given_seats, seat_title


def _strategy_aliases(game: Any, seat: str, _i: int) -> list[click.Option]:
    return [click.Option([f"--{seat}"], default=None,
                         help=f"{game_label(game)}: {seat_title(seat)}'s strategy (same as --seat {seat}=...).")]


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


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the workers)."""
    import resource

    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + c.ru_utime + c.ru_stime


def _echo_going(serial: float, fixed: float, n_run: int, n_one: int, plain: float) -> None:
    """The serial runner's CPU per game once a run is going, over the plain
    loop's (``plain``: CPU per game), and the run's fixed cost (config,
    manifest, provenance, the worker's set-up, the final check and summary)
    apart, as benchmarks/games.py reports them: ``serial`` is the CPU of the
    run of ``n_run`` games, ``fixed`` that of the same run with one game per
    cell (``n_one`` games). Nothing when the run has no more games than that."""
    if n_run <= n_one:
        return
    per_game = (serial - fixed) / (n_run - n_one)
    click.echo(f"    CPU per game once a run is going: {100 * (per_game / plain - 1):+.1f}% over the plain loop; "
               f"the run's fixed cost {fixed - n_one * plain:.3f} CPU-s (its {n_one} game(s) apart)")


@click.command(cls=SeatOptions, per_seat=_strategy_aliases, after="setup_value")
@click.option("--games", type=int, default=3000, show_default=True, help="Games per measurement.")
@click.option("--game", "game_name", default=None, help="The game (a registered name; default: Red Notice).")
@click.option("--seat", "seat_refs", multiple=True, metavar="SEAT=STRATEGY",
              help="A seat's strategy, e.g. --seat ann=expert (default: random at every seat).")
@click.option("--setup", "setup_value", default=None,
              help="The game's setup to play (e.g. FBI's player count; default: Red Notice's random identities).")
@click.option("--workers", "worker_counts", default="1,2", show_default=True,
              help="Comma-separated worker counts to measure with the process backend.")
@click.option("--repeat", type=int, default=3, show_default=True,
              help="Rounds of measurements (interleaved, so load changes hit all alike); medians are shown.")
@click.option("--chunk-size", type=int, default=250, show_default=True)
def bench(games: int, game_name: str | None, seat_refs: tuple[str, ...], setup_value: str | None,
          worker_counts: str, repeat: int, chunk_size: int, **seat_options: str | None) -> None:
    """Games/s of the engine in a plain loop, of the runner (serial backend: its
    overhead), and of the process backend for each worker count (scaling).

    Each rate is given over wall time; the process backend's also without the
    pool's fixed start-up (spawning workers, importing rnsim), which a long run
    pays once. Overheads are also given in CPU time (this process plus its
    workers), which other load on a shared machine does not distort; the
    serial runner's also per game once a run is going, with the run's fixed
    cost (a one-game run's CPU) apart.
    """
    import statistics

    from rnsim.cli.play import seat_args, setup_arg
    from rnsim.cli.seats import default_game
    from rnsim.compiled import chosen
    from rnsim.config import config_from_mapping
    from rnsim.games import DEFAULT_GAME, get_game
    from rnsim.play import fewer_collections, run_game
    from rnsim.strategy import load_strategy
    from rnsim.tournament.run import run_tournament

    counts = [int(x) for x in worker_counts.split(",") if x.strip()]
    g = get_game(game_name or DEFAULT_GAME)
    refs = seat_args(g, seat_refs, g.seats(None), given_seats(default_game(), seat_options))
    run: dict[str, object] = {"game": g.name, "games": games, "seed": 0, "chunk_size": chunk_size}
    if setup_value is not None:
        run[g.setup_key] = setup_arg(setup_value)
    elif getattr(g, "lever_setups", None) is not None:
        run[g.setup_key] = g.lever_setups  # setups drawn game by game, as the rulebook deals them
    raw = {"run": run, "strategies": {seat: refs.get(seat, "random") for seat in g.seats(None)}}
    cfg0 = config_from_mapping(raw, src="bench")
    cell = cfg0.cells()[0]
    if len(cfg0.cells()) > 1:
        raw["run"] = {**run, g.setup_key: cell.setup}  # one cell: the first setup
    lineup = [cfg0.strategies[seat][i] for seat, i in zip(cfg0.seats, cell.strategies, strict=False)]
    names = " vs ".join(s.label for s in lineup)

    def plain() -> tuple[float, float]:
        cfg = config_from_mapping(raw, src="bench")
        game = cfg.game_obj
        rules = cfg.variants[0].rules
        strats = [load_strategy(s.ref, s.params, game) for s in lineup]
        t, c = time.perf_counter(), _cpu()
        with fewer_collections():  # as the runner plays its chunks
            for i in range(games):
                run_game(game, rules, strats, 0, i, setup=cell.setup)
        return time.perf_counter() - t, _cpu() - c

    def runner(backend: str, workers: int, n: int = games) -> tuple[float, float]:
        with tempfile.TemporaryDirectory(prefix="rnsim-bench-") as d:
            cfg = config_from_mapping(raw, src="bench", out=Path(d) / "run", backend=backend, workers=workers,
                                      games=n, chunk_size=chunk_size if n == games else 1)
            t, c = time.perf_counter(), _cpu()
            s = run_tournament(cfg, progress=False)
            assert s.complete
            return time.perf_counter() - t, _cpu() - c

    wall: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}

    def note(key: str, m: tuple[float, float]) -> None:
        wall.setdefault(key, []).append(m[0])
        cpu.setdefault(key, []).append(m[1])

    for _ in range(repeat):
        note("plain", plain())
        note("serial", runner("serial", 1))
        note("fixed", runner("serial", 1, n=1))  # the run's fixed cost: one game per cell
        for w in counts:
            note(f"p{w}", runner("process", w))
            note(f"s{w}", runner("process", w, n=w))  # start-up: the same pool, one game per worker

    mw = {k: statistics.median(v) for k, v in wall.items()}
    mc = {k: statistics.median(v) for k, v in cpu.items()}
    # a runner plays every cell of the setup (a rotating game: each rotation of the lineup)
    n_run = config_from_mapping(raw, src="bench").total_games
    rate = {k: (games if k == "plain" else n_run) / v for k, v in mw.items()}
    # per game, so a runner's CPU compares with the plain loop's whatever it played
    mc = {k: v / (games if k == "plain" else n_run) for k, v in mc.items()}

    def pct(a: float, b: float) -> str:
        return f"{100 * (a / b - 1):+.1f}%"

    click.echo(f"bench: {games:,} {g.name} games of {names} ({g.setup_column} {cell.setup_label}; the runner "
               f"plays {n_run:,}: every cell of it), chunk {chunk_size}, median of {repeat}")
    # which path played, per compiled target: a copy installed without its
    # compiled builds is several times slower and says so here
    click.echo("  build: " + ", ".join(f"{target} {path}" for target, path in chosen().items()))
    # per CPU-second of one core too: what a search player is quoted in
    # (docs/performance.md), which other load on a shared machine distorts least
    click.echo(f"  plain loop over run_game        {rate['plain']:8.1f} games/s, {1 / mc['plain']:8.1f} games/CPU-s")
    click.echo(f"  runner, serial backend          {rate['serial']:8.1f} games/s  "
               f"(overhead: wall {pct(rate['plain'], rate['serial'])}, CPU {pct(mc['serial'], mc['plain'])})")
    _echo_going(statistics.median(cpu["serial"]), statistics.median(cpu["fixed"]), n_run,
                config_from_mapping(raw, src="bench", games=1).total_games, mc["plain"])
    steady: dict[int, float] = {}
    for w in counts:
        start = mw[f"s{w}"]
        steady[w] = n_run / max(mw[f"p{w}"] - start, 1e-9)
        click.echo(f"  runner, process backend, {w} w    {rate[f'p{w}']:8.1f} games/s wall, {steady[w]:8.1f} "
                   f"without the {start:.1f} s start-up")
        click.echo(f"    overhead vs plain loop: wall {pct(rate['plain'], rate[f'p{w}'] / w)} per worker; CPU "
                   f"{pct(mc[f'p{w}'], mc['plain'])} ({pct(mc[f'p{w}'] - mc[f's{w}'], mc['plain'])} "
                   f"without start-up)")
    if 1 in steady:
        for w in counts:
            if w != 1:
                click.echo(f"  scaling {w} workers / 1 worker: {rate[f'p{w}'] / rate['p1']:.2f}x wall, "
                           f"{steady[w] / steady[1]:.2f}x without start-up")
