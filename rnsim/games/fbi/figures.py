"""FBI's report figures, drawn from its aggregated tables
(:mod:`rnsim.games.fbi.report`) with the core's figure helpers."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure

from rnsim.report.figures import arr, percent_ticks, seat_colour


def _counts(df: pl.DataFrame) -> list[str]:
    return sorted(df["players"].unique().to_list(), key=int)


def positions_chart(df: pl.DataFrame, title: str) -> Figure:
    """Win rate by position after the start player, one group per player count."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    x0 = 0.0
    ticks, labels = [], []
    for players in _counts(df):
        part = df.filter(pl.col("players") == players).sort("position")
        pos = part["position"].to_numpy()
        xs = x0 + pos
        rate, lo, hi = arr(part, "rate"), arr(part, "rate_lo"), arr(part, "rate_hi")
        ax.bar(xs, rate, width=0.8, color=[seat_colour(int(p)) for p in pos], alpha=0.85)
        ax.errorbar(xs, rate, yerr=[rate - lo, hi - rate], fmt="none", ecolor="black", capsize=3, lw=1)
        even = 1 / int(players)
        ax.hlines(even, xs[0] - 0.45, xs[-1] + 0.45, colors="black", linestyles="dashed", lw=1)
        ticks += list(xs)
        labels += ["start" if p == 0 else f"+{p}" for p in pos]
        ax.text(xs.mean(), -0.12, f"{players} players", ha="center", va="top", transform=ax.get_xaxis_transform())
        x0 = xs[-1] + 2
    ax.set_xticks(ticks, labels, fontsize=8)
    ax.set_ylabel("win rate")
    percent_ticks(ax.yaxis)
    ax.set_title(title)
    fig.subplots_adjust(bottom=0.22)
    return fig


def strategies_chart(df: pl.DataFrame, title: str) -> Figure:
    """Each strategy's win rate per player count (and variant), with intervals."""
    df = df.with_columns((pl.col("variant") + " · " + pl.col("players") + "p").alias("group"))
    groups = df["group"].unique(maintain_order=True).to_list()
    strategies = sorted(df["strategy"].unique().to_list())
    fig, ax = plt.subplots(figsize=(7, 3.2))
    width = 0.8 / max(1, len(strategies))
    for k, s in enumerate(strategies):
        part = df.filter(pl.col("strategy") == s)
        idx = np.array([groups.index(g) for g in part["group"].to_list()], dtype=float)
        rate, lo, hi = arr(part, "rate"), arr(part, "rate_lo"), arr(part, "rate_hi")
        xs = idx - 0.4 + width * (k + 0.5)
        ax.bar(xs, rate, width=width, color=seat_colour(k), label=s, alpha=0.85)
        ax.errorbar(xs, rate, yerr=[rate - lo, hi - rate], fmt="none", ecolor="black", capsize=2, lw=1)
    for i, g in enumerate(groups):
        even = 1 / int(g.rsplit(" · ", 1)[1][:-1])
        ax.hlines(even, i - 0.45, i + 0.45, colors="black", linestyles="dashed", lw=1)
    ax.set_xticks(range(len(groups)), groups, fontsize=8)
    ax.set_ylabel("share of seat-games won")
    percent_ticks(ax.yaxis)
    ax.legend(fontsize=8, frameon=False)
    ax.set_title(title)
    return fig


def scores_chart(hist: pl.DataFrame, title: str) -> Figure:
    """Final scores per player count, as the share of seat-games with each score."""
    fig, ax = plt.subplots(figsize=(7, 3.2))
    for k, players in enumerate(_counts(hist)):
        part = hist.filter(pl.col("players") == players).sort("score")
        n = part["seat_games"].sum()
        ax.step(part["score"].to_numpy(), part["seat_games"].to_numpy() / n, where="mid", color=seat_colour(k),
                label=f"{players} players ({n:,} seat-games)")
    ax.set_xlabel("final score")
    ax.set_ylabel("share of seat-games")
    percent_ticks(ax.yaxis)
    ax.legend(fontsize=8, frameon=False)
    ax.set_title(title)
    return fig
