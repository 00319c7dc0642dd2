"""`rnsim run` (a tournament from a config file) and `rnsim bench` (games/s,
scaling across workers, and the runner's overhead over a plain loop)."""

from __future__ import annotations

import sys
import tempfile
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
def run(config: Path, games: int | None, seed: int | None, workers: str | None, out: Path | None,
        backend: str | None, address: str | None, chunk_size: int | None, progress: bool) -> None:
    """Play the tournament described by CONFIG (a TOML file) into a run directory.

    Running the same command again resumes an interrupted run: finished games
    are kept and only the missing ones are played.
    """
    from rnsim.config import load_config
    from rnsim.tournament.run import run_tournament

    cfg = load_config(config, games=games, seed=seed, workers=workers, out=out, backend=backend,
                      chunk_size=chunk_size, address=address)
    n_cells = len(cfg.cells())
    click.echo(
        f"{config}: {len(cfg.variants)} variant(s) x {n_cells // len(cfg.variants)} identity/strategy cell(s) "
        f"x {cfg.games:,} games = {cfg.total_games:,} games; {cfg.workers} worker(s), backend {cfg.backend}",
        err=True,
    )
    summary = run_tournament(cfg, progress=progress and sys.stderr.isatty(), echo=lambda s: click.echo(s, err=True))
    for line in summary.lines():
        click.echo(line)
    if not summary.complete:
        sys.exit(130)


@click.command()
@click.option("--games", type=int, default=2000, show_default=True, help="Games per measurement.")
@click.option("--angela", default="random", show_default=True, help="Angela's strategy.")
@click.option("--jessah", default="random", show_default=True, help="Jessah's strategy.")
@click.option("--workers", "worker_counts", default="1,2", show_default=True,
              help="Comma-separated worker counts to measure with the process backend.")
@click.option("--repeat", type=int, default=1, show_default=True, help="Repeat each measurement; medians are shown.")
@click.option("--chunk-size", type=int, default=250, show_default=True)
def bench(games: int, angela: str, jessah: str, worker_counts: str, repeat: int, chunk_size: int) -> None:
    """Games/s of the engine in a plain loop, of the runner (serial backend: its
    overhead), and of the process backend for each worker count (scaling)."""
    import statistics

    from rnsim.config import config_from_mapping
    from rnsim.play import run_game
    from rnsim.strategy import load_strategy
    from rnsim.tournament.run import run_tournament

    raw = {"run": {"games": games, "seed": 0, "identities": "random", "chunk_size": chunk_size},
           "strategies": {"angela": angela, "jessah": jessah}}

    def plain() -> float:
        cfg = config_from_mapping(raw, src="bench")
        rules = cfg.variants[0].rules
        comps = rules.load_components()
        a = load_strategy(angela)
        j = load_strategy(jessah)
        t = time.perf_counter()
        for i in range(games):
            run_game(rules, a, j, 0, i, comps=comps)
        return games / (time.perf_counter() - t)

    def runner(backend: str, workers: int) -> float:
        with tempfile.TemporaryDirectory(prefix="rnsim-bench-") as d:
            cfg = config_from_mapping(raw, src="bench", out=Path(d) / "run", backend=backend, workers=workers)
            t = time.perf_counter()
            s = run_tournament(cfg, progress=False)
            assert s.complete
            return games / (time.perf_counter() - t)

    def med(f, *args) -> float:  # type: ignore[no-untyped-def]
        return statistics.median(f(*args) for _ in range(repeat))

    click.echo(f"bench: {games:,} games, {angela} vs {jessah}, median of {repeat}")
    base = med(plain)
    click.echo(f"  plain loop over run_game      {base:8.1f} games/s")
    ser = med(runner, "serial", 1)
    click.echo(f"  runner, serial backend        {ser:8.1f} games/s  (overhead {100 * (base / ser - 1):+.1f}%)")
    rates: dict[int, float] = {}
    for w in (int(x) for x in worker_counts.split(",") if x.strip()):
        rates[w] = med(runner, "process", w)
        extra = f"  ({rates[w] / rates[min(rates)]:.2f}x {min(rates)} worker)" if w != min(rates) else \
            f"  (overhead vs plain loop {100 * (base / rates[w] - 1):+.1f}%)" if w == 1 else ""
        click.echo(f"  runner, process backend, {w} w {rates[w]:8.1f} games/s{extra}")
