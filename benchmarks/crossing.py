"""Coverage and cost of the crossing on synthetic curves of several shapes.

Every trial draws a curve with a known crossing (placed at random between two
lattice values), plays paired binary games on it (common random numbers: a
share ``--coupling`` of each game's draws is common to every value) and
checks whether the 95% confidence set covers:

- the *interpolated* crossing (where straight lines between the true rates at
  the lattice values meet the target), which is what the set estimates;
- the *true* crossing of the continuous curve, with the set widened to the
  lattice values around it (the bracket a designer can set).

Two designs on the same lattice (``--lo``..``--hi`` by ``--step``):

- sweep: ``--points`` values spread over the lattice (all of it by default),
  ``--games`` games at each, the same game indices at every value;
- tune: :func:`rnsim.analysis.tuning.tune` with the tolerance set to the
  sweep's median width on that shape, so the two reach the same precision;
  its games are compared with the sweep's.

    python -m benchmarks.crossing                     # 1,000 trials per shape
    python -m benchmarks.crossing --trials 200 --shape step --coupling 0

Prints a Markdown table: per shape and design, coverage of the interpolated
crossing with its 95% Wilson interval, coverage of the true crossing by the
bracket, median width, median games.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from rnsim.analysis.crossing import crossing, curve
from rnsim.analysis.stats import wilson
from rnsim.analysis.tuning import SyntheticCurve, lattice_values, tune

MONOTONE = ("logistic", "step", "staircase", "kink", "plateau")


def draw(shape: str, lat: list[float], scale: float, coupling: float, rng: np.random.Generator, seed: int) -> SyntheticCurve:
    """A curve whose crossing lies at a random place in the lattice's middle half."""
    a, b = lat[len(lat) // 4], lat[(3 * len(lat)) // 4]
    return SyntheticCurve(shape, float(rng.uniform(a, b)), scale, coupling=coupling, seed=seed)


def sweep_trials(shape: str, lat: list[float], xs: list[float], games: int, trials: int, args: argparse.Namespace,
                 seed: int) -> dict[str, list[float]]:
    rng = np.random.default_rng(seed)
    out: dict[str, list[float]] = {"cover": [], "bracket": [], "width": [], "games": []}
    for t in range(trials):
        c = draw(shape, lat, args.scale, args.coupling, rng, seed + t)
        res = crossing(curve(xs, c.sweep(xs, games)))
        truth = c.lattice_crossing(xs)
        hull = res.lattice_hull()
        out["cover"].append(res.covers(truth))
        out["bracket"].append(hull is not None and hull[0] <= c.crossing <= hull[1])
        out["width"].append(res.width)
        out["games"].append(games * len(xs))
    return out


def tune_trials(shape: str, lat: list[float], tolerance: float, trials: int, args: argparse.Namespace,
                seed: int) -> dict[str, list[float]]:
    rng = np.random.default_rng(seed)
    out: dict[str, list[float]] = {"cover": [], "bracket": [], "width": [], "games": [], "converged": []}
    for t in range(trials):
        c = draw(shape, lat, args.scale, args.coupling, rng, seed + t)
        res = tune(c.play, lat, tolerance=tolerance, batch=args.batch, max_games=args.max_games)
        truth = c.lattice_crossing(lat)
        hull = res.crossing.lattice_hull()
        out["cover"].append(res.crossing.covers(truth))
        out["bracket"].append(hull is not None and hull[0] <= c.crossing <= hull[1])
        out["width"].append(res.crossing.width)
        out["games"].append(res.games)
        out["converged"].append(res.converged)
    return out


def row(shape: str, design: str, r: dict[str, list[float]]) -> str:
    n = len(r["cover"])
    k = int(sum(r["cover"]))
    lo, hi = wilson(k, n)
    return (f"| {shape} | {design} | {k / n:.3f} [{lo:.3f}, {hi:.3f}] | {np.mean(r['bracket']):.3f} | "
            f"{np.median(r['width']):,.0f} | {np.median(r['games']):,.0f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--trials", type=int, default=1000)
    ap.add_argument("--shape", choices=MONOTONE, action="append")
    ap.add_argument("--lo", type=float, default=600_000)
    ap.add_argument("--hi", type=float, default=1_400_000)
    ap.add_argument("--step", type=float, default=100_000)
    ap.add_argument("--scale", type=float, default=300_000, help="the curve's scale (a logistic falls 8 points "
                    "per step of 100,000 at the crossing with 300,000)")
    ap.add_argument("--points", type=int, default=0, help="sweep values (0: the whole lattice)")
    ap.add_argument("--games", type=int, default=1000, help="sweep games per value")
    ap.add_argument("--coupling", type=float, default=0.8)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--max-games", type=int, default=200_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    lat = lattice_values(args.lo, args.hi, args.step)
    xs = lat if not args.points else [lat[int(round(i))] for i in np.linspace(0, len(lat) - 1, args.points)]
    t0 = time.perf_counter()
    print(f"lattice {args.lo:,.0f}..{args.hi:,.0f} by {args.step:,.0f}; sweep {len(xs)} values x {args.games:,} "
          f"games; coupling {args.coupling}; {args.trials:,} trials per line")
    print("| shape | design | covers the interpolated crossing [95%] | bracket covers the true crossing | "
          "median width | median games |")
    print("|---|---|---|---|---|---|")
    for shape in args.shape or MONOTONE:
        sw = sweep_trials(shape, lat, xs, args.games, args.trials, args, args.seed)
        tolerance = float(np.median(sw["width"]))
        tu = tune_trials(shape, lat, tolerance, args.trials, args, args.seed + 10**6)
        print(row(shape, "sweep", sw))
        print(row(shape, f"tune (tolerance {tolerance:,.0f}; {np.mean(tu['converged']):.0%} converged)", tu))
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
