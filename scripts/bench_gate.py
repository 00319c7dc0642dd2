"""How many games the drift gate needs, against a fixed-sample test of the same
alpha, beta and delta.

    .venv/bin/python scripts/bench_gate.py            # synthetic binomial data (seconds)
    .venv/bin/python scripts/bench_gate.py --real     # plus real games on configs/ci (minutes)

Synthetic: for each design, ``--checks`` whole gates are simulated (a fresh
baseline of the size `rnsim baseline save` picks, then batches, the same stopping
and budget code as `rnsim check`), for a clear no-drift (no change), the design
point (a move of 2 delta) and a clear drift (4 delta); each is repeated with
``--repeats`` seeds and the median of the averages is shown. The fixed-sample
test is a two-sided z-test at level alpha/cells with power 1 - beta at 2 delta,
given the same baseline (``GateDesign.fixed_games``).

Real (``--real``): `rnsim check` on the shipped CI baseline: unchanged code under
the baseline's seed (settled by the exact replay), the same rules under other
master seeds (the SPRT alone), and the money target at $800k (drift) under both;
games used against the fixed-sample test's games for the baseline's cells.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from rnsim.analysis.sequential import GateDesign, simulate_checks
from rnsim.drift import BUDGET_FACTOR, default_batch, load_baseline, run_check

ROOT = Path(__file__).resolve().parent.parent


def synthetic(checks: int, repeats: int) -> None:
    print(f"Synthetic binomial data: {checks} simulated checks per row, median of {repeats} seeds; p0 = 0.40")
    print("| cells | delta | alpha | beta | true move | drift verdicts | undecided | games per cell (gate) "
          "| fixed-sample games per cell | gate / fixed |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    p0 = 0.4
    for cells, delta in ((1, 0.03), (3, 0.05), (15, 0.05), (15, 0.03)):
        design = GateDesign(delta=delta, alpha=0.05, beta=0.05, cells=cells)
        n0 = design.baseline_games_needed(0.5)
        fixed = design.fixed_games(p0, n0)
        batch = default_batch(design, fixed)
        budget = int(BUDGET_FACTOR * fixed * cells)
        for label, move in (("none (clear no drift)", 0.0), ("2δ (design point)", 2 * delta),
                            ("4δ (clear drift)", 4 * delta)):
            runs = [simulate_checks(design, p0, [p0 + move] + [p0] * (cells - 1), n0=n0, batch=batch,
                                    budget=budget, checks=checks, seed=1000 * r + cells) for r in range(repeats)]
            # games of the cell that moved (all cells when none moved)
            per_cell = statistics.median(s.mean_games_per_cell for s in runs) if move == 0 else None
            if move != 0:
                per_cell = statistics.median(_moved_cell_games(design, p0, move, n0, batch, budget, checks, r)
                                             for r in range(repeats))
            assert per_cell is not None
            drift = statistics.median(s.drift for s in runs)
            und = statistics.median(s.undecided for s in runs)
            print(f"| {cells} | {delta:g} | 0.05 | 0.05 | {label} | {100 * drift:.1f}% | {100 * und:.1f}% | "
                  f"{per_cell:,.0f} | {fixed:,.0f} | {per_cell / fixed:.2f} |")


def _moved_cell_games(design: GateDesign, p0: float, move: float, n0: int, batch: int, budget: int,
                      checks: int, r: int) -> float:
    """Mean games the moved cell used: a one-cell gate with the family's alpha/cells."""
    one = GateDesign(delta=design.delta, alpha=design.alpha_cell, beta=design.beta, cells=1)
    s = simulate_checks(one, p0, p0 + move, n0=n0, batch=batch, budget=budget, checks=checks, seed=7000 + r)
    return s.mean_games_per_cell


def real(repeats: int) -> None:
    base_file = ROOT / "configs/ci/baseline.json"
    base = load_baseline(base_file)
    design = GateDesign(delta=base.gate["delta"], alpha=base.gate["alpha"], beta=base.gate["beta"],
                        cells=len(base.cells))
    fixed = sum(design.fixed_games(c["angela_wins"] / c["games"], c["games"]) for c in base.cells)
    print(f"\nReal games: {base_file.relative_to(ROOT)} ({len(base.cells)} cells, delta {design.delta}); "
          f"fixed-sample test: {fixed:,.0f} games")
    print("| case | command | verdict | games (median) | gate / fixed | seconds (median) |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        t800 = Path(tmp) / "target-800k.toml"
        t800.write_text((ROOT / "configs/ci/config.toml").read_text().replace(
            'extends = "../classic.toml"', f'extends = "{ROOT / "configs/classic.toml"}"\nmoney_target = 800_000'))
        cases: list[tuple[str, int | None, Path | None]] = [("unchanged, baseline's seed (exact replay)", None, None)]
        cases += [("same rules, other seed (SPRT)", 1 + r, None) for r in range(repeats)]
        cases += [("money target $800k, baseline's seed (replay, then SPRT)", None, t800)]
        cases += [("money target $800k, other seed (SPRT)", 1 + r, t800) for r in range(repeats)]
        rows: dict[str, list[tuple[str, int, float]]] = {}
        for label, seed, config in cases:
            t = time.perf_counter()
            out = run_check(base_file, config=config, seed=seed, echo=lambda s: None)
            rows.setdefault(label, []).append((out.verdict, out.games, time.perf_counter() - t))
        for label, results in rows.items():
            games = statistics.median(g for _, g, _ in results)
            secs = statistics.median(s for _, _, s in results)
            verdicts = ", ".join(sorted({v for v, _, _ in results}))
            cmd = "rnsim check --baseline configs/ci/baseline.json"
            if "other seed" in label:
                cmd += " --seed S"
            if "800k" in label:
                cmd += " --config target-800k.toml"
            runs = f" (S = 1..{repeats})" if "other seed" in label else ""
            print(f"| {label} | `{cmd}`{runs} | {verdicts} | {games:,.0f} | {games / fixed:.2f} | {secs:.1f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--checks", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--real", action="store_true", help="also run the gate on real games (configs/ci)")
    args = ap.parse_args()
    synthetic(args.checks, args.repeats)
    if args.real:
        real(args.repeats)


if __name__ == "__main__":
    main()
