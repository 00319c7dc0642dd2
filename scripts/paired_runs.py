"""Paired comparison of two run directories of the same config and seed,
played by two versions of the code (e.g. before and after a rules change).

`rnsim compare` pairs rule variants played by one version of rnsim; this
pairs the same games (identity pair, strategy pair, game index: the same
chance streams) played by two versions, so the difference of win rates has
the paired 95% interval of rnsim.analysis.paired.

    python scripts/paired_runs.py BEFORE_RUN AFTER_RUN [--seat angela]

Prints, per identity pair and overall, both win rates, the difference
(after - before) with its paired and unpaired 95% intervals, and how many
games changed outcome.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import polars as pl

from rnsim.analysis.load import scan_results
from rnsim.analysis.paired import paired_differences
from rnsim.errors import RnsimError


def _master_seed(run: Path) -> object:
    return json.loads((run / "manifest.json").read_text(encoding="utf-8")).get("master_seed")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("before", type=Path)
    p.add_argument("after", type=Path)
    p.add_argument("--seat", default="angela", choices=("angela", "jessah"))
    a = p.parse_args(argv)
    try:
        frames = [scan_results(run).with_columns(pl.lit(name).alias("variant"))
                  for name, run in (("before", a.before), ("after", a.after))]
        if _master_seed(a.before) != _master_seed(a.after):
            print(f"{a.after}: played with another master seed than {a.before}: its games are not pairs",
                  file=sys.stderr)
            return 2
    except (RnsimError, OSError, json.JSONDecodeError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    # the first run's column order: the cell keys are read from the table's layout
    # (the setup column follows ``variant``), so a sorted order would pair wrongly
    after = set(frames[1].collect_schema().names())
    common = [c for c in frames[0].collect_schema().names() if c in after]
    both = pl.concat([f.select(common) for f in frames])
    table = paired_differences(both, "before", "after", seat=a.seat)
    pct = 100.0
    print(f"{a.seat}'s win rate, after - before, same games (95% intervals, percentage points)")
    for r in table.iter_rows(named=True):
        print(f"{r['identity_pair']:<28} {r['angela_strategy']}/{r['jessah_strategy']}  n={r['games']:>6}  "
              f"before {pct * r['rate_ref']:5.2f}%  after {pct * r['rate_var']:5.2f}%  "
              f"diff {pct * r['diff']:+6.2f} [{pct * r['paired_lo']:+6.2f}, {pct * r['paired_hi']:+6.2f}]  "
              f"unpaired [{pct * r['unpaired_lo']:+6.2f}, {pct * r['unpaired_hi']:+6.2f}]  "
              f"changed {r['discordant']}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
