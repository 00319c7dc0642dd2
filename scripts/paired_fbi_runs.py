"""Paired comparison of two FBI run directories of the same config and seed,
played by two versions of the code: per variant and player count, the start
player's (the first handcuffs') share of the games won in each, and the
difference (after - before) over the same deals with a 95% normal interval
of the paired mean, and how many games changed.

    python scripts/paired_fbi_runs.py BEFORE_RUN AFTER_RUN
"""

from __future__ import annotations

import math
import sys

import polars as pl

from rnsim.analysis.load import scan_results
from rnsim.errors import RnsimError
from rnsim.games.fbi.report import seat_rows


def _start_player(run: str) -> pl.DataFrame:
    rows = seat_rows(scan_results(run)).filter(pl.col("position") == 0).collect()
    return rows.select("variant", "players", "game_index", "seat", "share")


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python scripts/paired_fbi_runs.py BEFORE_RUN AFTER_RUN", file=sys.stderr)
        return 2
    try:
        before, after = (_start_player(r) for r in argv)
    except (RnsimError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    both = before.join(after, on=["variant", "players", "game_index", "seat"], suffix="_after")
    print("the start player's share of the games won, after - before, same deals (95% interval, points)")
    groups = sorted(both.group_by(["variant", "players"]), key=lambda x: (str(x[0][0]), int(str(x[0][1]))))
    for (variant, players), g in groups:
        d = (g["share_after"] - g["share"]).to_numpy()
        n = len(d)
        mean = float(d.mean())
        half = 1.96 * float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
        print(f"{variant!s:9} {players} players  n={n:5d}  before {100 * g['share'].mean():5.1f}%  "
              f"after {100 * g['share_after'].mean():5.1f}%  {100 * mean:+5.1f} "
              f"[{100 * (mean - half):+5.1f}, {100 * (mean + half):+5.1f}]  changed {int((d != 0).sum())}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
