"""Red Notice's report figures, drawn from its aggregated tables
(:mod:`rnsim.games.red_notice.analysis`) with the core's figure helpers."""

from __future__ import annotations

import math

import matplotlib
import matplotlib.pyplot as plt
import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from rnsim.analysis.stats import Z95
from rnsim.report.figures import (
    NO_WINNER,
    arr,
    diverging_norm,
    integer_ticks,
    interval_bars,
    pct,
    percent_ticks,
    seat_colour,
)

FORGER = seat_colour(0)  # Angela
AGENT = seat_colour(1)  # Jessah


def _ids(label: str) -> list[str]:
    return label.split("+")


def identity_order(pairs: pl.DataFrame) -> list[str]:
    """The identities of a pair table in component order: within a pair the
    identities are in that order, so an identity's rank is how often it leads
    a pair minus how often it trails one."""
    score: dict[str, int] = {}
    for label in pairs["identity_pair"].to_list():
        ids = _ids(label)
        for k, x in enumerate(ids):
            score[x] = score.get(x, 0) + (len(ids) - 1 - 2 * k)
    return sorted(score, key=lambda x: (-score[x], x))


def _short(x: float | None) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.0f}"


def pair_heatmap(pairs: pl.DataFrame, overall: float | None, title: str) -> Figure:
    """Angela's win rate for each identity pair, each pair once (the lower
    triangle), coloured on a diverging scale centred on the overall rate with
    its range set by the data; each square gives the rate, its 95% interval
    and the game count, and a black frame marks a pair whose interval
    excludes the overall rate (``differs``)."""
    ids = identity_order(pairs)
    k = len(ids)
    pos = {x: i for i, x in enumerate(ids)}
    rate = np.full((k, k), np.nan)
    notes: dict[tuple[int, int], str] = {}
    framed: list[tuple[int, int]] = []
    for r in pairs.iter_rows(named=True):
        a, b = sorted((pos[x] for x in _ids(r["identity_pair"])), reverse=True)  # row below column: lower triangle
        v = r["forger_rate"]
        rate[a, b] = np.nan if v is None else v
        notes[(a, b)] = (f"{pct(v)}\n[{_short(r['forger_rate_lo'])}, {_short(r['forger_rate_hi'])}]\n"
                         f"n={r['games']:,}" if v is not None else f"no games\nn={r['games']:,}")
        if r.get("differs"):
            framed.append((a, b))
    centre = overall if overall is not None and not math.isnan(overall) else 0.5
    norm = diverging_norm(rate, centre)
    size = max(4.5, 1.1 * k + 1.5)
    fig, ax = plt.subplots(figsize=(size + 1.4, size))
    cmap = matplotlib.colormaps["RdBu_r"].with_extremes(bad="#ffffff")
    im = ax.imshow(np.ma.masked_invalid(rate), cmap=cmap, norm=norm)
    for (a, b), text in notes.items():
        v = rate[a, b]
        dark = not np.isnan(v) and abs(norm(v) - 0.5) > 0.35
        ax.text(b, a, text, ha="center", va="center", fontsize=7, color="white" if dark else "black")
    for a, b in framed:
        ax.add_patch(Rectangle((b - 0.47, a - 0.47), 0.94, 0.94, fill=False, edgecolor="black", linewidth=1.6))
    labels = [x.replace("_", " ") for x in ids]
    # the triangle below the diagonal: rows from the second identity, columns up to the one before last
    ax.set_xlim(-0.5, k - 1.5)
    ax.set_ylim(k - 0.5, 0.5)
    ax.set_xticks(range(k - 1), labels[:-1], rotation=30, ha="right")
    ax.set_yticks(range(1, k), labels[1:])
    ax.set_title(title)
    ax.spines[:].set_visible(False)
    ax.tick_params(length=0)
    cb = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    cb.set_label(f"Angela's win rate (white: overall {pct(centre)})")
    cb.formatter = matplotlib.ticker.FuncFormatter(lambda v, _: f"{100 * v:.0f}%")
    cb.update_ticks()
    return fig


def identities_chart(idents: pl.DataFrame, overall: float | None, title: str) -> Figure:
    """Each identity's forger win rate over the games it was dealt in, and how
    often it was the first identity burnt, both with 95% intervals."""
    t = idents.sort("forger_rate", descending=False, nulls_last=False)
    labels = [x.replace("_", " ") for x in t["identity"].to_list()]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 0.45 * len(labels) + 1.6), sharey=True)
    interval_bars(a1, labels, arr(t, "forger_rate"), arr(t, "forger_rate_lo"), arr(t, "forger_rate_hi"), FORGER)
    if overall is not None:
        a1.axvline(overall, color="black", linestyle="--", linewidth=1, label=f"overall {pct(overall)}")
    a1.axvline(0.5, color="#666666", linestyle=":", linewidth=1, label="even game 50.0%")
    a1.legend(loc="lower right", fontsize=8)
    a1.set_yticks(range(len(labels)), labels)
    a1.set_xlim(0, 1)
    percent_ticks(a1.xaxis)
    a1.set_xlabel("Angela's win rate in games with this identity")
    interval_bars(a2, labels, arr(t, "burnt_first_share"), arr(t, "burnt_first_share_lo"),
                  arr(t, "burnt_first_share_hi"), NO_WINNER)
    a2.set_xlim(0, 1)
    percent_ticks(a2.xaxis)
    a2.set_xlabel("share of its games where it was burnt first")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def upgrades_chart(ups: pl.DataFrame, rounds: pl.DataFrame, title: str) -> Figure:
    """Per upgrade: the difference in Jessah's win rate between games where
    she gained it and games where she did not (95% interval), and in which
    rounds she gained it (share of its gains per round)."""
    t = ups.sort("effect", descending=False, nulls_last=False)
    order = t["upgrade"].to_list()
    labels = [x.replace("_", " ") for x in order]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 0.5 * len(labels) + 1.9), sharey=True,
                                 gridspec_kw={"width_ratios": [3, 3]})
    y = np.arange(len(labels))
    d, lo, hi = arr(t, "effect"), arr(t, "effect_lo"), arr(t, "effect_hi")
    a1.barh(y, d, color=[AGENT if v >= 0 else FORGER for v in np.nan_to_num(d)], alpha=0.75, height=0.6)
    a1.errorbar(d, y, xerr=[d - lo, hi - d], fmt="none", ecolor="black", elinewidth=1, capsize=2)
    a1.axvline(0, color="black", linewidth=0.8)
    a1.set_yticks(y, labels)
    a1.xaxis.set_major_formatter(lambda v, _: f"{100 * v:+.0f}")
    a1.set_xlabel("Jessah's win rate with it minus without it (points)")
    a1.set_title("association, not cause", fontsize=8, color="#444444")
    if rounds.height:
        last = int(rounds["round"].max())  # type: ignore[arg-type]
        grid = np.zeros((len(order), last))
        for r in rounds.iter_rows(named=True):
            if r["upgrade"] in order:
                grid[order.index(r["upgrade"]), int(r["round"]) - 1] += r["games"]
        totals = grid.sum(axis=1, keepdims=True)
        share = np.divide(grid, totals, out=np.zeros_like(grid), where=totals > 0)
        im = a2.imshow(share, aspect="auto", cmap="Greys", extent=(0.5, last + 0.5, len(order) - 0.5, -0.5),
                       vmin=0, vmax=max(float(share.max()), 0.01))
        cb = fig.colorbar(im, ax=a2, fraction=0.05, pad=0.02)
        cb.set_label("share of its gains")
        percent_ticks(cb.ax.yaxis)
        integer_ticks(a2, "x")
    a2.set_xlabel("round gained")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def flow_chart(flow: pl.DataFrame, min_games: int, title: str) -> Figure:
    """Mean cumulative cash of each side and mean captures by round, over the
    games still in play, with 95% interval bands for the means; rounds with
    fewer than ``min_games`` games in play are left out (their means say
    little)."""
    f = flow.filter(pl.col("games_in_play") >= min_games)
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.4))
    r = f["round"].to_numpy()
    n = np.sqrt(np.maximum(arr(f, "games_in_play"), 1))

    def line(ax: plt.Axes, name: str, colour: str, label: str, scale: float = 1.0) -> None:
        m, sd = arr(f, f"{name}_mean") / scale, np.nan_to_num(arr(f, f"{name}_sd")) / scale
        ax.plot(r, m, color=colour, label=label)
        ax.fill_between(r, m - Z95 * sd / n, m + Z95 * sd / n, color=colour, alpha=0.2, linewidth=0)

    line(a1, "angela_cash", FORGER, "Angela cashed", 1000)
    line(a1, "jessah_cash", AGENT, "Jessah cashed", 1000)
    a1.set_xlabel("round")
    a1.set_ylabel("mean cumulative cash ($k)")
    a1.legend(fontsize=8, loc="upper left")
    integer_ticks(a1)
    line(a2, "captures", AGENT, "captures")
    a2.set_xlabel("round")
    a2.set_ylabel("mean captures")
    a2.set_ylim(bottom=0)
    integer_ticks(a2)
    twin = a2.twinx()
    twin.fill_between(r, arr(f, "games_in_play"), color=NO_WINNER, alpha=0.15, step="mid", label="games in play")
    twin.set_ylabel("games still in play")
    twin.set_ylim(bottom=0)
    twin.spines["right"].set_visible(True)
    h1, l1 = a2.get_legend_handles_labels()
    h2, l2 = twin.get_legend_handles_labels()
    a2.legend(h1 + h2, l1 + l2, fontsize=8, loc="upper left")
    a2.set_zorder(twin.get_zorder() + 1)
    a2.patch.set_visible(False)
    fig.suptitle(title)
    fig.tight_layout()
    return fig
