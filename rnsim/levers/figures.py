"""The figures of `rnsim sweep`, `rnsim tune` and `rnsim levers` (PNG and SVG,
their tables written beside them by the commands)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402


def _save(fig: Any, stem: Path) -> list[Path]:
    stem.parent.mkdir(parents=True, exist_ok=True)
    png, svg = stem.with_suffix(".png"), stem.with_suffix(".svg")
    fig.savefig(png, dpi=120)
    fig.savefig(svg)
    plt.close(fig)
    return [png, svg]


def _crossing_marks(ax: Any, c: Any) -> None:
    for i, (a, b) in enumerate(c.pieces):
        ax.axvspan(a, b, color="tab:orange", alpha=0.2, label="crossing, 95% set" if i == 0 else None)
    if c.found:
        ax.axvline(c.estimate, color="tab:orange", lw=1)


def sweep_figures(res: Any, out: Path) -> list[Path]:
    t = res.table
    title = res.balance.title
    figs = out / "figures"
    if len(res.knobs) == 2:
        return _heat_map(res, figs / "sweep_heatmap")
    k = res.knobs[0]
    fig, ax = plt.subplots(figsize=(7, 4))
    x = t[k].to_numpy()
    y = t["rate"].to_numpy()
    ax.errorbar(x, 100 * y, yerr=[100 * (y - t["rate_lo"].to_numpy()), 100 * (t["rate_hi"].to_numpy() - y)],
                fmt="o-", capsize=3, label=f"{title} (95%)")
    ax.axhline(100 * res.target, color="grey", ls="--", lw=1, label=f"target {100 * res.target:.1f}%")
    if res.crossing is not None:
        _crossing_marks(ax, res.crossing)
    ax.set_xlabel(k)
    ax.xaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:,.0f}"))
    ax.set_ylabel(f"{title} (%)")
    ax.legend(fontsize=8)
    ax.set_title(f"{title.capitalize()} by {k} ({res.played.games:,} games)")
    fig.tight_layout()
    paths = _save(fig, figs / "sweep")
    if res.setup_table is not None:
        pp = res.setup_table
        fig, ax = plt.subplots(figsize=(8, 5))
        for p in sorted(set(pp["setup"].to_list())):
            d = pp.filter(pl.col("setup") == p).sort(k)
            ax.plot(d[k].to_numpy(), 100 * d["rate"].to_numpy(), marker=".", lw=1, label=p)
        ax.axhline(100 * res.target, color="grey", ls="--", lw=1)
        ax.set_xlabel(k)
        ax.set_ylabel(f"{title} (%)")
        ax.legend(fontsize=6, ncol=2)
        ax.set_title(f"{title.capitalize()} by {k}, per setup")
        fig.tight_layout()
        paths += _save(fig, figs / "sweep_per_setup")
    return paths


def _heat_map(res: Any, stem: Path) -> list[Path]:
    t = res.table
    k1, k2 = res.knobs
    v1 = sorted(set(t[k1].to_list()))
    v2 = sorted(set(t[k2].to_list()))
    grid = np.full((len(v2), len(v1)), np.nan)
    for row in t.iter_rows(named=True):
        grid[v2.index(row[k2]), v1.index(row[k1])] = row["rate"]
    fig, ax = plt.subplots(figsize=(1.2 * len(v1) + 2, 0.6 * len(v2) + 2))
    span = max(0.05, float(np.nanmax(np.abs(grid - res.target))))
    im = ax.imshow(100 * grid, cmap="RdBu_r", vmin=100 * (res.target - span), vmax=100 * (res.target + span),
                   origin="lower", aspect="auto")
    for i in range(len(v2)):
        for j in range(len(v1)):
            ax.text(j, i, f"{100 * grid[i, j]:.1f}", ha="center", va="center", fontsize=8)
    ax.set_xticks(range(len(v1)), [f"{v:,}" for v in v1], rotation=45, fontsize=8)
    ax.set_yticks(range(len(v2)), [f"{v:,}" for v in v2], fontsize=8)
    ax.set_xlabel(k1)
    ax.set_ylabel(k2)
    fig.colorbar(im, label=f"{res.balance.title} (%)")
    ax.set_title(f"{res.balance.title.capitalize()} ({res.played.games:,} games)")
    fig.tight_layout()
    return _save(fig, stem)


def tune_figure(run: Any, out: Path) -> list[Path]:
    c = run.result.crossing
    x = np.asarray(c.x)
    r = np.asarray(c.rate)
    lo, hi = np.asarray(c.rate_lo), np.asarray(c.rate_hi)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.errorbar(x, 100 * r, yerr=[100 * (r - lo), 100 * (hi - r)], fmt="o-", capsize=3, label="values played (95%)")
    for xi, ni, ri in zip(x, c.games, r, strict=True):
        ax.annotate(f"{ni:,}", (xi, 100 * ri), textcoords="offset points", xytext=(4, 4), fontsize=7)
    ax.axhline(100 * c.target, color="grey", ls="--", lw=1, label=f"target {100 * c.target:.1f}%")
    _crossing_marks(ax, c)
    ax.set_xlabel(run.knob)
    ax.xaxis.set_major_formatter(matplotlib.ticker.StrMethodFormatter("{x:,.0f}"))
    ax.set_ylabel(f"{run.balance.title} (%)")
    ax.set_title(f"Lattice search: {run.result.games:,} games (numbers: games per value)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    return _save(fig, out / "figures" / "tune")


def tornado(t: Any, out: Path, games: int, title: str) -> list[Path]:
    d = t.reverse()  # largest at the top
    y = np.arange(len(d))
    shift = 100 * d["shift"].to_numpy()
    lo = 100 * d["shift_lo"].to_numpy()
    hi = 100 * d["shift_hi"].to_numpy()
    fig, ax = plt.subplots(figsize=(9, 0.28 * len(d) + 1.5))
    colours = ["tab:red" if s > 0 else "tab:blue" for s in shift]
    ax.barh(y, shift, color=colours, alpha=0.7)
    ax.errorbar(shift, y, xerr=[shift - lo, hi - shift], fmt="none", ecolor="black", capsize=2, lw=1)
    ax.set_yticks(y, d["change"].to_list(), fontsize=7)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel(f"shift of the {title} (points; paired 95% interval)")
    who = title.removesuffix("'s win rate")
    ax.set_title(f"What moves the balance ({games:,} games; red helps the {who})")
    fig.tight_layout()
    return _save(fig, out / "figures" / "levers")
