"""The report's figure of causal values measured by `rnsim levers` (drawn in a
report worker through ``ctx.figure``, so it takes plain tables and returns a
matplotlib Figure)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure

#: one colour per way of measuring, in the order the kinds are given
PALETTE = ("#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3")


def causal_chart(rows: pl.DataFrame, kinds: dict[str, str], sign: float, xlabel: str, title: str) -> Figure:
    """Per subject (e.g. a card), one bar per kind of measurement (e.g.
    removed from the deck, never chosen): ``sign`` x the paired shift of the
    watched seat's win rate, with its 95% interval. ``kinds`` maps each kind to its legend label; subjects are
    sorted by the size of their first kind's value, largest at the top."""
    first = next(iter(kinds))
    order = (rows.filter(pl.col("kind") == first).with_columns((sign * pl.col("shift")).alias("_v"))
             .sort("_v")["subject"].to_list())
    order += sorted(set(rows["subject"].to_list()) - set(order))
    n, k = len(order), len(kinds)
    fig, ax = plt.subplots(figsize=(8, 0.45 * n * max(1, k) ** 0.5 + 1.6))
    h = 0.8 / k
    for j, (kind, label) in enumerate(kinds.items()):
        part = {r["subject"]: r for r in rows.filter(pl.col("kind") == kind).iter_rows(named=True)}
        ys = [i + (k - 1 - 2 * j) * h / 2 for i, s in enumerate(order) if s in part]
        got = [part[s] for s in order if s in part]
        if not got:
            continue
        v = np.array([sign * r["shift"] for r in got])
        a = np.array([sign * r["shift_lo"] for r in got])
        b = np.array([sign * r["shift_hi"] for r in got])
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        ax.barh(ys, 100 * v, height=h * 0.9, color=PALETTE[j % len(PALETTE)], alpha=0.8, label=label)
        ax.errorbar(100 * v, ys, xerr=[100 * (v - lo), 100 * (hi - v)], fmt="none", ecolor="black", elinewidth=1,
                    capsize=2)
    ax.set_yticks(range(n), [s.replace("_", " ") for s in order])
    ax.axvline(0, color="black", linewidth=0.8)
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:+.0f}")
    ax.set_xlabel(xlabel)
    if k > 1:
        ax.legend(fontsize=8)
    ax.set_title(title)
    fig.tight_layout()
    return fig
