"""Games per CPU-second, in a plain loop and through the runner, and as a
ratio to the toy yardstick played in the same run.

Each class measures once (``setup_cache``) and reports several numbers from
that one measurement: the loop's and the runner's rates, each over the toy's
rate (repeat by repeat, median of the paired ratios), and the runner's
overhead over the loop. The runner's rate is per game once a run is going:
the CPU of a ``run_tournament`` of N games with the serial backend less
that of a one-game run (its fixed cost: config, manifest, provenance, the
worker's set-up), over N - 1 games; the overhead is the loop's rate over
that rate, minus one (the issue's bound: 5%); the fixed cost is reported
apart, in CPU seconds. The games
are the same in every repeat (master seed 0, game indices from 0), so the
repeats differ only by the machine.
"""

from __future__ import annotations

import statistics
from typing import Any

from benchmarks.common import (
    FBI_EXPERT_4,
    FBI_EXPERT_5,
    RED_NOTICE_EXPERT,
    RED_NOTICE_RANDOM,
    RED_NOTICE_SEARCH,
    Loop,
    Matchup,
    Yardstick,
    interleaved,
    ratios,
    runner_cpu_seconds,
    size,
)


def measure(matchup: Matchup, games: int, repeats: int, runner: bool) -> dict[str, float]:
    loop = Loop(matchup)
    stick = Yardstick(loop.cpu_seconds(games))
    measures = {"loop": lambda: games / loop.cpu_seconds(games), "toy": stick.rate}
    fixed: list[float] = []
    if runner:
        def through_runner() -> float:
            cpu1, played1 = runner_cpu_seconds(matchup, 1)
            cpu, played = runner_cpu_seconds(matchup, games)
            fixed.append(cpu1)
            return (played - played1) / (cpu - cpu1)

        measures["runner"] = through_runner
    m = interleaved(measures, repeats)
    out = {"loop": statistics.median(m["loop"]), "toy": statistics.median(m["toy"]),
           "loop_over_toy": statistics.median(ratios(m["loop"], m["toy"]))}
    if runner:
        out["runner"] = statistics.median(m["runner"])
        out["runner_over_toy"] = statistics.median(ratios(m["runner"], m["toy"]))
        out["runner_overhead"] = statistics.median(ratios(m["loop"], m["runner"])) - 1
        out["runner_fixed"] = statistics.median(fixed)
    return out


def _unit(unit: str) -> Any:
    def mark(f: Any) -> Any:
        f.unit = unit
        return f
    return mark


class ExpertVsExpert:
    """Red Notice, the expert in both seats, identities drawn per game: the
    default config's matchup."""

    timeout = 1800

    def setup_cache(self) -> dict[str, float]:
        return measure(RED_NOTICE_EXPERT, size(40, 400), size(1, 7), runner=True)

    setup_cache.timeout = 1800  # type: ignore[attr-defined]

    @_unit("games/CPU-s")
    def track_loop(self, m: dict[str, float]) -> float:
        return m["loop"]

    @_unit("games/CPU-s")
    def track_runner(self, m: dict[str, float]) -> float:
        return m["runner"]

    @_unit("ratio to the toy")
    def track_loop_over_toy(self, m: dict[str, float]) -> float:
        return m["loop_over_toy"]

    @_unit("ratio to the toy")
    def track_runner_over_toy(self, m: dict[str, float]) -> float:
        return m["runner_over_toy"]

    @_unit("fraction")
    def track_runner_overhead(self, m: dict[str, float]) -> float:
        return m["runner_overhead"]

    @_unit("CPU seconds")
    def track_runner_fixed(self, m: dict[str, float]) -> float:
        return m["runner_fixed"]


class RandomVsRandom:
    """Red Notice, random legal moves in both seats (long games: the engine's
    cost per round)."""

    timeout = 1800

    def setup_cache(self) -> dict[str, float]:
        return measure(RED_NOTICE_RANDOM, size(100, 1500), size(1, 7), runner=True)

    setup_cache.timeout = 1800  # type: ignore[attr-defined]

    @_unit("games/CPU-s")
    def track_loop(self, m: dict[str, float]) -> float:
        return m["loop"]

    @_unit("games/CPU-s")
    def track_runner(self, m: dict[str, float]) -> float:
        return m["runner"]

    @_unit("ratio to the toy")
    def track_loop_over_toy(self, m: dict[str, float]) -> float:
        return m["loop_over_toy"]

    @_unit("fraction")
    def track_runner_overhead(self, m: dict[str, float]) -> float:
        return m["runner_overhead"]

    @_unit("CPU seconds")
    def track_runner_fixed(self, m: dict[str, float]) -> float:
        return m["runner_fixed"]


class SearchVsSearch:
    """Red Notice, ``search`` with a small budget (iterations 2) in both seats:
    rollouts of expert games from cloned states."""

    timeout = 1800

    def setup_cache(self) -> dict[str, float]:
        return measure(RED_NOTICE_SEARCH, size(2, 12), size(1, 3), runner=False)

    setup_cache.timeout = 1800  # type: ignore[attr-defined]

    @_unit("games/CPU-s")
    def track_loop(self, m: dict[str, float]) -> float:
        return m["loop"]

    @_unit("ratio to the toy")
    def track_loop_over_toy(self, m: dict[str, float]) -> float:
        return m["loop_over_toy"]


class FbiExpert4:
    """FBI at 4 players, the expert in every seat."""

    timeout = 1800

    def setup_cache(self) -> dict[str, float]:
        return measure(FBI_EXPERT_4, size(30, 300), size(1, 7), runner=True)

    setup_cache.timeout = 1800  # type: ignore[attr-defined]

    @_unit("games/CPU-s")
    def track_loop(self, m: dict[str, float]) -> float:
        return m["loop"]

    @_unit("games/CPU-s")
    def track_runner(self, m: dict[str, float]) -> float:
        return m["runner"]

    @_unit("ratio to the toy")
    def track_loop_over_toy(self, m: dict[str, float]) -> float:
        return m["loop_over_toy"]

    @_unit("fraction")
    def track_runner_overhead(self, m: dict[str, float]) -> float:
        return m["runner_overhead"]

    @_unit("CPU seconds")
    def track_runner_fixed(self, m: dict[str, float]) -> float:
        return m["runner_fixed"]


class FbiOverRedNotice:
    """CPU per expert game of FBI at 5 players over Red Notice's (expert vs
    expert), the two loops interleaved: how the two games' experts compare
    on the same machine at the same moment."""

    timeout = 1800

    def setup_cache(self) -> dict[str, float]:
        fbi, red = Loop(FBI_EXPERT_5), Loop(RED_NOTICE_EXPERT)
        games = size(20, 200)
        m = interleaved({"fbi": lambda: fbi.cpu_seconds(games), "red": lambda: red.cpu_seconds(games)}, size(1, 7))
        return {"ratio": statistics.median(ratios(m["fbi"], m["red"]))}

    setup_cache.timeout = 1800  # type: ignore[attr-defined]

    @_unit("ratio of CPU per game")
    def track_cpu_per_game(self, m: dict[str, float]) -> float:
        return m["ratio"]
