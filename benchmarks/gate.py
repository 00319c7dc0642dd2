"""The drift gate's games against a fixed-sample test of the same alpha,
beta and delta, given the same baseline (``GateDesign.fixed_games``: a
two-sided z-test at level alpha / cells with power 1 - beta at a move of
2 delta).

Simulated: whole gates on binomial data (a fresh baseline of the size
``rnsim baseline save`` picks, then batches: the stopping and budget code
of ``rnsim check``), p0 = 0.40, for no move, the design point (2 delta) and
a clear drift (4 delta); the games of the moved cell (every cell when none
moved) over the fixed test's, median over seeds of the mean over checks.

Real (full mode): ``rnsim check`` on the shipped CI baseline
(configs/ci/baseline.json) under other master seeds (the sequential test
alone; the baseline's own seed is settled by the exact replay), for the same
rules and for a drift (the money target at $800k): games over the fixed
test's games for the baseline's cells.
"""

from __future__ import annotations

import statistics
from typing import Any

from benchmarks.common import ROOT, SHORT, size

DESIGNS = {"1 cell, delta 0.03": (1, 0.03), "3 cells, delta 0.05": (3, 0.05), "15 cells, delta 0.05": (15, 0.05),
           "15 cells, delta 0.03": (15, 0.03)}
MOVES = {"none": 0.0, "2 delta": 2.0, "4 delta": 4.0}
P0 = 0.40


def _unit(unit: str) -> Any:
    def mark(f: Any) -> Any:
        f.unit = unit
        return f
    return mark


def simulated(checks: int, repeats: int) -> dict[tuple[str, str], float]:
    from rnsim.analysis.sequential import GateDesign, simulate_checks
    from rnsim.drift import BUDGET_FACTOR, default_batch

    out: dict[tuple[str, str], float] = {}
    for name, (cells, delta) in DESIGNS.items():
        design = GateDesign(delta=delta, alpha=0.05, beta=0.05, cells=cells)
        n0 = design.baseline_games_needed(0.5)
        fixed = design.fixed_games(P0, n0)
        batch = default_batch(design, fixed)
        budget = int(BUDGET_FACTOR * fixed * cells)
        for move_name, k in MOVES.items():
            if k == 0:  # every cell unmoved: the family's gate
                runs = [simulate_checks(design, P0, P0, n0=n0, batch=batch, budget=budget, checks=checks,
                                        seed=1000 * r + cells).mean_games_per_cell for r in range(repeats)]
            else:  # the moved cell alone: a one-cell gate at the family's alpha / cells
                one = GateDesign(delta=delta, alpha=design.alpha_cell, beta=design.beta, cells=1)
                runs = [simulate_checks(one, P0, P0 + k * delta, n0=n0, batch=batch, budget=budget, checks=checks,
                                        seed=7000 + r).mean_games_per_cell for r in range(repeats)]
            out[(name, move_name)] = statistics.median(runs) / fixed
    return out


class GateSimulated:
    """Games per cell the gate uses over the fixed-sample test's, simulated."""

    params = [list(DESIGNS), list(MOVES)]
    param_names = ["design", "true move"]
    timeout = 1200

    def setup_cache(self) -> dict[tuple[str, str], float]:
        return simulated(size(300, 2000), size(1, 3))

    setup_cache.timeout = 1200  # type: ignore[attr-defined]

    @_unit("ratio to the fixed test")
    def track_games_over_fixed(self, m: dict[tuple[str, str], float], design: str, move: str) -> float:
        return m[(design, move)]


def real(seeds: list[int]) -> dict[str, float]:
    import tempfile
    from pathlib import Path

    from rnsim.analysis.sequential import GateDesign
    from rnsim.drift import load_baseline, run_check

    base_file = ROOT / "configs/ci/baseline.json"
    base = load_baseline(base_file)
    design = GateDesign(delta=base.gate["delta"], alpha=base.gate["alpha"], beta=base.gate["beta"],
                        cells=len(base.cells))
    fixed = sum(design.fixed_games(c["angela_wins"] / c["games"], c["games"]) for c in base.cells)
    out: dict[str, float] = {}
    with tempfile.TemporaryDirectory(prefix="rnsim-bench-gate-") as d:
        drifted = Path(d) / "target-800k.toml"
        drifted.write_text((ROOT / "configs/ci/config.toml").read_text().replace(
            'extends = "../classic.toml"', f'extends = "{ROOT / "configs/classic.toml"}"\nmoney_target = 800_000'))
        for case, config in (("same rules", None), ("money target 800k", drifted)):
            games = [run_check(base_file, config=config, seed=s, echo=lambda _: None).games for s in seeds]
            out[case] = statistics.median(games) / fixed
    return out


class GateReal:
    """``rnsim check --baseline configs/ci/baseline.json --seed S`` (S = 1,
    2, 3, so the sequential test decides, not the exact replay) on the same
    rules and with the money target at $800k (a drift): games used over the
    fixed-sample test's. Full mode only (minutes)."""

    params = [["same rules", "money target 800k"]]
    param_names = ["case"]
    timeout = 3600

    def setup_cache(self) -> dict[str, Any]:
        return {"skip": "short mode"} if SHORT else real([1, 2, 3])

    setup_cache.timeout = 3600  # type: ignore[attr-defined]

    def setup(self, m: dict[str, Any], case: str) -> None:
        if "skip" in m:
            raise NotImplementedError(m["skip"])

    @_unit("ratio to the fixed test")
    def track_games_over_fixed(self, m: dict[str, Any], case: str) -> float:
        return float(m[case])
