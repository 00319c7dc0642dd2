"""`rnsim bench`: games/s of the engine in a plain loop, of the runner (its
overhead), and of the process backend for each worker count (scaling), each
overhead read as the median of the rounds' paired ratios with its
distribution-free interval."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from rnsim.cli.seats import SeatOptions, game_label, given_seats, seat_title
from rnsim.errors import RnsimError


def _strategy_aliases(game: Any, seat: str, _i: int) -> list[click.Option]:
    return [click.Option([f"--{seat}"], default=None,
                         help=f"{game_label(game)}: {seat_title(seat)}'s strategy (same as --seat {seat}=...).")]


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the workers)."""
    import resource

    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + c.ru_utime + c.ru_stime


def _level(rounds: int) -> float:
    """The intervals' level: 95% from 6 rounds on; with fewer, no order
    statistics reach 95%, so the widest interval (lowest to highest ratio)
    and its exact level, 1 - 2^(1 - rounds) (94% for 5 rounds)."""
    return 0.95 if rounds >= 6 else 1 - 2.0 ** (1 - rounds)


def _spread(xs: Sequence[float], show: Callable[[float], str], unit: str) -> str:
    """The median of per-round ratios, with its interval from 3 rounds on."""
    if len(xs) < 3:
        return show(statistics.median(xs)) + unit
    from rnsim.analysis.stats import median_interval

    med, lo, hi = median_interval(xs, _level(len(xs)))
    return f"{show(med)}{unit} [{show(lo)}, {show(hi)}]"


def pct(xs: Sequence[float]) -> str:
    """Ratios (this over that, one per round) as a change: "+3.1% [+1.2, +5.0]"."""
    return _spread(xs, lambda x: f"{100 * (x - 1):+.1f}", "%")


def times(xs: Sequence[float]) -> str:
    """Ratios (one per round) as a factor: "1.93x [1.88, 1.97]"."""
    return _spread(xs, lambda x: f"{x:.2f}", "x")


class Rounds:
    """Every measurement's wall and CPU seconds, round by round, and the games
    behind them: ``games`` in the plain loop of this process, ``n_run`` in a
    runner's run (every cell of the setup) and in plain loops on workers."""

    def __init__(self, games: int, n_run: int) -> None:
        self.games = games
        self.n_run = n_run
        self.wall: dict[str, list[float]] = {}
        self.cpu: dict[str, list[float]] = {}

    def note(self, key: str, m: tuple[float, float]) -> None:
        self.wall.setdefault(key, []).append(m[0])
        self.cpu.setdefault(key, []).append(m[1])

    def per_game(self, key: str, start: str | None = None) -> list[float]:
        """CPU seconds per game of ``key`` in each round, less the start-up
        measurement ``start`` of the same round."""
        n = self.games if key == "plain" else self.n_run
        return [(c - (self.cpu[start][r] if start else 0.0)) / n for r, c in enumerate(self.cpu[key])]

    def over(self, a: list[float], b: list[float]) -> list[float]:
        return [x / y for x, y in zip(a, b, strict=True)]

    def rate(self, key: str) -> float:
        """Median games per wall second."""
        return (self.games if key == "plain" else self.n_run) / statistics.median(self.wall[key])


def _echo_going(r: Rounds, n_one: int) -> None:
    """The serial runner's CPU per game once a run is going, over the plain
    loop's, and the run's fixed cost (config, manifest, provenance, the
    worker's set-up, the final check and summary) apart, as
    benchmarks/games.py reports them: ``fixed`` is the CPU of the same run
    with one game per cell (``n_one`` games). Nothing when the run has no
    more games than that."""
    if r.n_run <= n_one:
        return
    plain = r.per_game("plain")
    going = [(s - f) / (r.n_run - n_one) for s, f in zip(r.cpu["serial"], r.cpu["fixed"], strict=True)]
    fixed = statistics.median(f - n_one * p for f, p in zip(r.cpu["fixed"], plain, strict=True))
    click.echo(f"    CPU per game once a run is going: {pct(r.over(going, plain))} over the plain loop; "
               f"the run's fixed cost {fixed:.3f} CPU-s (its {n_one} game(s) apart)")


def _echo_process(r: Rounds, w: int) -> float:
    """The process backend's lines for ``w`` workers; its median rate without
    start-up (games per wall second)."""
    plain = r.per_game("plain")
    n = r.n_run
    start = statistics.median(r.wall[f"s{w}"])
    steady = statistics.median(n / max(p - s, 1e-9) for p, s in zip(r.wall[f"p{w}"], r.wall[f"s{w}"], strict=True))
    click.echo(f"  runner, process backend, {w} w    {r.rate(f'p{w}'):8.1f} games/s wall, {steady:8.1f} "
               f"without the {start:.1f} s start-up")
    # wall per worker: the plain loop's rate over each worker's share of the pool's
    wall = [w * p * r.games / (q * n) for p, q in zip(r.wall[f"p{w}"], r.wall["plain"], strict=True)]
    runner, runner_going = r.per_game(f"p{w}"), r.per_game(f"p{w}", f"s{w}")
    click.echo(f"    overhead vs plain loop: wall {pct(wall)} per worker; CPU {pct(r.over(runner, plain))} "
               f"({pct(r.over(runner_going, plain))} without start-up)")
    loops = r.per_game(f"q{w}", f"t{w}")
    them = f"plain loops in {w} worker process{'es' if w > 1 else ''}"
    click.echo(f"    {them}: {1 / statistics.median(loops):8.1f} games/CPU-s without start-up; "
               f"CPU per game {pct(r.over(loops, plain))} over the plain loop in this process")
    click.echo(f"    overhead vs {them}: CPU {pct(r.over(runner_going, loops))} without start-up (like for like)")
    return steady


def _echo_scaling(r: Rounds, counts: list[int]) -> None:
    if 1 not in counts:
        return
    for w in counts:
        if w == 1:
            continue
        wall = r.over(r.wall["p1"], r.wall[f"p{w}"])  # the same games: the ratio of rates
        steady = r.over([p - s for p, s in zip(r.wall["p1"], r.wall["s1"], strict=True)],
                        [max(p - s, 1e-9) for p, s in zip(r.wall[f"p{w}"], r.wall[f"s{w}"], strict=True)])
        click.echo(f"  scaling {w} workers / 1 worker: {times(wall)} wall, {times(steady)} without start-up")


def _worker_counts(text: str, n_chunks: int, games: int, chunk_size: int) -> list[int]:
    """The worker counts of --workers; refused (exit 2, before anything is
    played) when one is not a positive whole number, or exceeds the run's
    chunks: the runner never starts more workers than chunks, so its line
    would be measured with fewer workers than it says."""
    try:
        counts = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        raise RnsimError(f"--workers: expected comma-separated worker counts of 1 or more, like 1,2; got {text!r}")
    if max(counts) > n_chunks:
        raise RnsimError(f"--workers: {max(counts)} workers need at least {max(counts)} chunks, and --games {games:,} "
                         f"makes {n_chunks} of --chunk-size {chunk_size:,}; give more games or a smaller chunk size")
    return counts


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
              help="Rounds of measurements (interleaved, so load changes hit all alike); rates are medians, "
                   "overheads medians of the rounds' paired ratios with a distribution-free interval "
                   "(95% from 6 rounds; lowest to highest below that, at its level: 94% for 5, 75% for 3).")
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
    cost (a one-game run's CPU) apart. The process backend's CPU overhead is
    given over the plain loop in this process and, like for like, over the
    same games played in plain loops (no rows, tables or shards) in as many
    worker processes, spawned as the backend spawns its own, start-up apart
    in both: fresh processes sharing the machine play at another speed than
    one warm process alone (a few percent either way), which is not the
    runner's cost. Each overhead is the
    median of the rounds' paired ratios, with its interval in brackets.
    """
    from rnsim.cli.play import seat_args, setup_arg
    from rnsim.cli.seats import default_game
    from rnsim.compiled import chosen
    from rnsim.config import config_from_mapping
    from rnsim.games import DEFAULT_GAME, get_game
    from rnsim.tournament.schedule import plan_chunks

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
    # a runner plays every cell of the setup (a rotating game: each rotation of the lineup)
    cfg = config_from_mapping(raw, src="bench")
    counts = _worker_counts(worker_counts, len(plan_chunks(len(cfg.cells()), cfg.games, chunk_size)), games, chunk_size)
    r = Rounds(games, cfg.total_games)
    _measure(r, raw, cell, lineup, counts, repeat, chunk_size)

    click.echo(f"bench: {games:,} {g.name} games of {' vs '.join(s.label for s in lineup)} ({g.setup_column} "
               f"{cell.setup_label}; the runner plays {r.n_run:,}: every cell of it), chunk {chunk_size}, median of "
               f"{repeat}" + (f"; [interval] at {100 * _level(repeat):.0f}%, distribution-free" if repeat >= 3 else ""))
    # which path played, per compiled target: a copy installed without its
    # compiled builds is several times slower and says so here
    click.echo("  build: " + ", ".join(f"{target} {path}" for target, path in chosen().items()))
    # per CPU-second of one core too: what a search player is quoted in
    # (docs/performance.md), which other load on a shared machine distorts least
    plain = r.per_game("plain")
    click.echo(f"  plain loop over run_game        {r.rate('plain'):8.1f} games/s, "
               f"{1 / statistics.median(plain):8.1f} games/CPU-s")
    wall = [s * games / (p * r.n_run) for s, p in zip(r.wall["serial"], r.wall["plain"], strict=True)]
    click.echo(f"  runner, serial backend          {r.rate('serial'):8.1f} games/s  "
               f"(overhead: wall {pct(wall)}, CPU {pct(r.over(r.per_game('serial'), plain))})")
    _echo_going(r, config_from_mapping(raw, src="bench", games=1).total_games)
    for w in counts:
        _echo_process(r, w)
    _echo_scaling(r, counts)


def _measure(r: Rounds, raw: dict[str, Any], cell: Any, lineup: list[Any], counts: list[int], repeat: int,
             chunk_size: int) -> None:
    """``repeat`` rounds of every measurement, into ``r``."""
    from rnsim.config import config_from_mapping
    from rnsim.play import fewer_collections, run_game
    from rnsim.strategy import load_strategy
    from rnsim.tournament.plain_loops import play_plain
    from rnsim.tournament.run import run_tournament
    from rnsim.tournament.schedule import plan_chunks
    from rnsim.tournament.worker import Plan

    games = r.games

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

    def sized(n: int, **over: Any) -> Any:
        return config_from_mapping(raw, src="bench", games=n, chunk_size=chunk_size if n == games else 1, **over)

    def runner(backend: str, workers: int, n: int = games) -> tuple[float, float]:
        with tempfile.TemporaryDirectory(prefix="rnsim-bench-") as d:
            cfg = sized(n, out=Path(d) / "run", backend=backend, workers=workers)
            t, c = time.perf_counter(), _cpu()
            s = run_tournament(cfg, progress=False)
            assert s.complete
            return time.perf_counter() - t, _cpu() - c

    def loops(workers: int, n: int = games) -> tuple[float, float]:
        # the runner's plan and chunks for the same games, played with nothing written
        cfg = sized(n)
        chunks = plan_chunks(len(cfg.cells()), cfg.games, cfg.chunk_size)
        t, c = time.perf_counter(), _cpu()
        played = play_plain(Plan.from_config(cfg, "bench"), chunks, workers)
        assert played == cfg.total_games
        return time.perf_counter() - t, _cpu() - c

    for _ in range(repeat):
        r.note("plain", plain())
        r.note("serial", runner("serial", 1))
        r.note("fixed", runner("serial", 1, n=1))  # the run's fixed cost: one game per cell
        for w in counts:
            # the runner and its like-for-like baseline back to back, so a change of load hits both alike
            r.note(f"p{w}", runner("process", w))
            r.note(f"q{w}", loops(w))  # the same games in plain loops on as many worker processes
            r.note(f"s{w}", runner("process", w, n=w))  # start-up: the same pool, one game per worker
            r.note(f"t{w}", loops(w, n=w))  # the plain loops' start-up, measured as the runner's
