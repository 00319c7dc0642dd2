"""Coverage and efficiency of the crossing estimate on synthetic win-rate curves.

A synthetic curve has a known crossing (the knob value where the forger's rate
is 50%); every trial plays binomial games on it, estimates the crossing and
checks whether the 95% interval covers the truth.

- sweep: a grid of ``--points`` values over [lo, hi] with ``--games`` games per
  value, the same game indices at every value (common random numbers, with
  ``--coupling`` of the games sharing their draw across values), crossing with
  the paired (game-clustered) interval; also the naive independent interval on
  the same data, to show what ignoring the pairing costs.
- tune: the adaptive search (rnsim.analysis.tuning.tune) with the tolerance set
  to the grid's median interval width; games used vs the grid's games.

    python scripts/bench_tune.py                      # 1,000 trials each, both shapes
    python scripts/bench_tune.py --trials 200 --shape logistic

Prints one line per (shape, method): coverage with its 95% Wilson interval,
median width and median games.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rnsim.analysis.crossing import crossing
from rnsim.analysis.stats import wilson
from rnsim.analysis.tuning import SyntheticCurve, grid_values, tune


def sweep_trials(curve: SyntheticCurve, xs: list[float], games: int, trials: int, seed: int) -> dict[str, float]:
    cover = cover_naive = bounded = 0
    widths = []
    for t in range(trials):
        c = curve.seeded(seed + t)
        wins, co = c.sweep(xs, games)
        n = np.full(len(xs), games)
        res = crossing(xs, wins, n, curve.target, co_wins=co)
        naive = crossing(xs, wins, n, curve.target)
        cover += res.covers(curve.crossing)
        cover_naive += naive.covers(curve.crossing)
        bounded += res.bounded
        widths.append(res.width)
    return {
        "coverage": cover / trials,
        "coverage_naive": cover_naive / trials,
        "bounded": bounded / trials,
        "median_width": float(np.median(widths)),
        "games": float(games * len(xs)),
    }


def tune_trials(curve: SyntheticCurve, lo: float, hi: float, tolerance: float, batch: int, trials: int,
                seed: int, integer: bool = False, notch: float = 1.0) -> dict[str, float]:
    cover = converged = 0
    widths, games, grid_games = [], [], []
    for t in range(trials):
        c = curve.seeded(seed + 100_000 + t)
        res = tune(c.play, lo, hi, target=curve.target, tolerance=tolerance, batch=batch, integer=integer,
                   notch=notch)
        cover += res.crossing.covers(curve.crossing)
        converged += res.converged
        widths.append(res.crossing.width)
        games.append(res.games)
        grid_games.append(res.grid_games)
    return {
        "coverage": cover / trials,
        "converged": converged / trials,
        "median_width": float(np.median(widths)),
        "games": float(np.median(games)),
        "mean_games": float(np.mean(games)),
        "model_grid_games": float(np.nanmedian(grid_games)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--games", type=int, default=2000, help="games per grid value")
    ap.add_argument("--points", type=int, default=9, help="grid values")
    ap.add_argument("--coupling", type=float, default=0.7, help="share of a game's draws common to all values")
    ap.add_argument("--shape", choices=["logistic", "probit", "both"], default="both")
    ap.add_argument("--batch", type=int, default=200, help="tune: first batch per value")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    # a money_target-like knob: balanced at $1.15M, the rate falls ~5 points per $100k there
    lo, hi = 600_000.0, 1_800_000.0
    xs = grid_values(lo, hi, args.points)
    shapes = ["logistic", "probit"] if args.shape == "both" else [args.shape]
    print(f"grid: {args.points} values {lo:,.0f}..{hi:,.0f}, {args.games} games each, coupling {args.coupling}; "
          f"{args.trials} trials")
    for shape in shapes:
        curve = SyntheticCurve(crossing=1_150_000.0, scale=500_000.0, shape=shape, coupling=args.coupling)
        t0 = time.perf_counter()
        s = sweep_trials(curve, xs, args.games, args.trials, args.seed)
        t1 = time.perf_counter()
        lo_c, hi_c = wilson(round(s["coverage"] * args.trials), args.trials)
        lo_n, hi_n = wilson(round(s["coverage_naive"] * args.trials), args.trials)
        print(f"{shape:8s} sweep  coverage {s['coverage']:.3f} [{lo_c:.3f}, {hi_c:.3f}]  "
              f"(ignoring the pairing: {s['coverage_naive']:.3f} [{lo_n:.3f}, {hi_n:.3f}])  "
              f"median width {s['median_width']:,.0f}  games {s['games']:,.0f}  ({t1 - t0:.1f}s)")
        tol = s["median_width"]
        t0 = time.perf_counter()
        r = tune_trials(curve, lo, hi, tol, args.batch, args.trials, args.seed)
        t1 = time.perf_counter()
        lo_c, hi_c = wilson(round(r["coverage"] * args.trials), args.trials)
        print(f"{shape:8s} tune   coverage {r['coverage']:.3f} [{lo_c:.3f}, {hi_c:.3f}]  converged {r['converged']:.3f}  "
              f"tolerance {tol:,.0f}  median width {r['median_width']:,.0f}  median games {r['games']:,.0f} "
              f"(mean {r['mean_games']:,.0f}) = {r['games'] / s['games']:.2f} of the grid's {s['games']:,.0f}  "
              f"[model-based grid estimate {r['model_grid_games']:,.0f}]  ({t1 - t0:.1f}s)")


if __name__ == "__main__":
    main()
