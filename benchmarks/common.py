"""What the benchmarks share: the mode's sizes, matchups, CPU clocks, the
toy yardstick, and medians with a distribution-free interval
(``median_interval``, which lives in rnsim.analysis.stats so that `rnsim bench`
shares it).

Rates are over CPU time (``time.process_time``, plus reaped children where a
measurement has workers), not wall time: on a shared machine other load
stretches the wall clock far more than a process's CPU time. What other
load still changes (caches, memory bandwidth, frequency) is handled by
measuring the things compared in the same run, interleaved in alternating
order, and reading medians of the paired ratios.

Modes (environment variable ``RNSIM_BENCH``): ``short`` (CI: every benchmark
once, small sizes, about a minute) and ``full`` (the default: the sizes a
developer tracks over commits, and the million-game runs).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks import toy
from rnsim.analysis.stats import median_interval as median_interval

ROOT = Path(__file__).resolve().parent.parent
MODE = os.environ.get("RNSIM_BENCH", "full")
if MODE not in ("short", "full"):
    raise SystemExit(f"RNSIM_BENCH: {MODE!r} is not a mode; use 'short' or 'full'")
SHORT = MODE == "short"


def size(short: int, full: int) -> int:
    """The mode's size of a measurement."""
    return short if SHORT else full


@dataclass(frozen=True)
class Matchup:
    """One cell of one game: a strategy per seat (``params`` after ``@``, as
    ``rnsim ladder --levels`` writes them: ``search@iterations=2``) and the
    setup (Red Notice: identities drawn at random per game; FBI: the
    player count)."""

    title: str
    game: str
    seats: tuple[tuple[str, str], ...]
    setup: Any = None
    rules: dict[str, Any] = field(default_factory=dict)

    def raw(self, games: int) -> dict[str, Any]:
        run: dict[str, Any] = {"games": games, "seed": 0, "chunk_size": games, "backend": "serial"}
        if self.game != "red_notice":
            run["game"] = self.game
        run["players" if self.game == "fbi" else "identities"] = self.setup if self.setup is not None else "random"
        strategies: dict[str, Any] = {}
        for seat, ref in self.seats:
            name, _, params = ref.partition("@")
            strategies[seat] = {"ref": name, "params": _params(params)} if params else name
        return {"run": run, "rules": dict(self.rules), "strategies": strategies}

    def config(self, games: int, **over: Any) -> Any:
        from rnsim.config import config_from_mapping

        return config_from_mapping(self.raw(games), src="benchmark", **over)


def _params(text: str) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in text.split("+"):
        k, _, v = item.partition("=")
        out[k] = int(v) if v.lstrip("-").isdigit() else float(v) if _is_float(v) else v
    return out


def _is_float(v: str) -> bool:
    try:
        float(v)
    except ValueError:
        return False
    return True


RED_NOTICE_EXPERT = Matchup("Red Notice, expert vs expert", "red_notice", (("angela", "expert"), ("jessah", "expert")))
RED_NOTICE_RANDOM = Matchup("Red Notice, random vs random", "red_notice", (("angela", "random"), ("jessah", "random")))
RED_NOTICE_SEARCH = Matchup("Red Notice, search vs search (iterations 2)", "red_notice",
                            (("angela", "search@iterations=2"), ("jessah", "search@iterations=2")))
FBI_EXPERT_4 = Matchup("FBI, 4 experts", "fbi", tuple((s, "expert") for s in ("ann", "bert", "chris", "donna")),
                       setup=[4])
FBI_EXPERT_5 = Matchup("FBI, 5 experts", "fbi", tuple((s, "expert") for s in ("ann", "bert", "chris", "donna", "emil")),
                       setup=[5])


class Loop:
    """A plain loop over ``rnsim.play.run_game`` for one matchup: the game
    loop alone, strategies built once (as a worker builds them), the cyclic
    collector held back as the runner holds it."""

    def __init__(self, matchup: Matchup) -> None:
        from rnsim.strategy import load_strategy

        cfg = matchup.config(1)
        cell = cfg.cells()[0]
        self.game = cfg.game_obj
        self.rules = cfg.variants[0].rules
        self.setup = cell.setup
        self.strategies = [load_strategy(spec.ref, spec.params, self.game)
                           for spec in (cfg.strategies[seat][i] for seat, i in zip(cfg.seats, cell.strategies,
                                                                                   strict=False))]
        self.play(1, first=10**6)  # warm-up: imports, component tables, first-call caches

    def play(self, games: int, first: int = 0) -> list[Any]:
        from rnsim.play import fewer_collections, run_game

        with fewer_collections():
            return [run_game(self.game, self.rules, self.strategies, 0, i, setup=self.setup)
                    for i in range(first, first + games)]

    def cpu_seconds(self, games: int, first: int = 0) -> float:
        t = time.process_time()
        self.play(games, first)
        return time.process_time() - t


def runner_cpu_seconds(matchup: Matchup, games: int) -> tuple[float, int]:
    """CPU seconds of ``run_tournament`` with the serial backend (in this
    process): the game loop plus rows, Parquet encoding, shards and manifest;
    and the games it played (every cell of the matchup). Fails unless the run
    holds exactly its games."""
    import tempfile

    import polars as pl

    from rnsim.tournament import run_tournament

    with tempfile.TemporaryDirectory(prefix="rnsim-bench-") as d:
        cfg = matchup.config(games, out=Path(d) / "run", chunk_size=250)
        t = time.process_time()
        summary = run_tournament(cfg, progress=False)
        cpu = time.process_time() - t
        rows = pl.scan_parquet(Path(d) / "run" / "shards" / "*.parquet").select(pl.len()).collect().item()
    if not summary.complete or rows != cfg.total_games:
        raise RuntimeError(f"runner benchmark: {rows} rows for {cfg.total_games} games (complete: {summary.complete})")
    return cpu, rows


class Yardstick:
    """The toy game's loop (benchmarks/toy.py), sized to cost about as much
    CPU as the measurement it is paired with."""

    def __init__(self, target_seconds: float) -> None:
        probe = 200
        per_game = max(toy.cpu_seconds(probe) / probe, 1e-7)
        self.games = max(probe, int(target_seconds / per_game))

    def rate(self) -> float:
        return self.games / toy.cpu_seconds(self.games)


def interleaved(measures: dict[str, Callable[[], float]], repeats: int) -> dict[str, list[float]]:
    """Each measure ``repeats`` times, in an order that alternates between
    repeats (forward, then backward), so a drift of the machine's load
    favours none of them."""
    out: dict[str, list[float]] = {k: [] for k in measures}
    keys = list(measures)
    for r in range(repeats):
        for k in keys if r % 2 == 0 else keys[::-1]:
            out[k].append(measures[k]())
    return out


def ratios(num: Sequence[float], den: Sequence[float]) -> list[float]:
    """Paired ratios: repeat by repeat."""
    return [a / b for a, b in zip(num, den, strict=True)]


def process_tree(pid: int) -> list[int]:
    """``pid`` and its descendants, from /proc (Linux)."""
    children: dict[int, list[int]] = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(d))
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        out.append(p)
        todo.extend(children.get(p, []))
    return out


def cpu_of(pids: Sequence[int]) -> float:
    """CPU seconds (user + system) the live processes ``pids`` have used."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return total / tick


def machine_busy_seconds() -> float:
    """CPU seconds the whole machine has spent busy (every process), /proc/stat."""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v[:8]) - v[3] - v[4]) / os.sysconf("SC_CLK_TCK")
