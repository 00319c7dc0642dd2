"""The report's figures, drawn with matplotlib from the aggregated tables only
(never from raw rows, so drawing costs the same for a thousand games or a
million). Each function returns a Figure; :func:`save` writes PNG and SVG."""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless: reports are built on servers and in CI

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.patches import Rectangle  # noqa: E402

FORGER = "#b2182b"   # Angela
AGENT = "#2166ac"    # Jessah
TIMEOUT = "#878787"
REASON_COLOURS = {"million": FORGER, "arrest": AGENT, "timeout": TIMEOUT}

plt.rcParams.update({
    "figure.dpi": 100, "savefig.dpi": 110, "font.size": 9, "axes.titlesize": 10,
    "axes.spines.top": False, "axes.spines.right": False, "svg.fonttype": "none",
})


def save(fig: Figure, directory: Path, name: str, svg: bool = True) -> Path:
    """Write ``name.png`` (and ``name.svg``) into ``directory``; returns the PNG path."""
    directory.mkdir(parents=True, exist_ok=True)
    png = directory / f"{name}.png"
    # no "Software" tag: it carries a URL, and the report must hold none
    fig.savefig(png, bbox_inches="tight", metadata={"Software": None})
    if svg:
        # no date: the same tables give the same SVG
        fig.savefig(directory / f"{name}.svg", bbox_inches="tight", metadata={"Date": None})
    plt.close(fig)
    return png


def identity_order(pairs: pl.DataFrame) -> list[str]:
    """The identities of a pair table in component order: ``identity_1``
    always comes before ``identity_2`` in that order, so an identity's rank is
    how often it leads a pair minus how often it trails one."""
    lead = pairs.group_by(pl.col("identity_1").alias("identity")).len("lead")
    trail = pairs.group_by(pl.col("identity_2").alias("identity")).len("trail")
    both = lead.join(trail, on="identity", how="full", coalesce=True).fill_null(0)
    # counts are unsigned: subtract as signed integers
    both = both.with_columns(score=pl.col("lead").cast(pl.Int64) - pl.col("trail").cast(pl.Int64)).sort(["score", "identity"],
                                                                          descending=[True, False])
    return both["identity"].to_list()


def _pct(x: float | None) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.0f}%"


def pair_heatmap(pairs: pl.DataFrame, title: str) -> Figure:
    """The forger's win rate for each identity pair: a symmetric matrix over
    the identities present, diagonal empty, each cell annotated with the rate,
    its 95% interval and the game count; a black frame marks the pairs whose
    interval excludes the overall rate (``differs``)."""
    ids = identity_order(pairs)
    k = len(ids)
    pos = {x: i for i, x in enumerate(ids)}
    rate = np.full((k, k), np.nan)
    notes: dict[tuple[int, int], str] = {}
    for r in pairs.iter_rows(named=True):
        i, j = pos[r["identity_1"]], pos[r["identity_2"]]
        v = r["forger_rate"]
        text = (f"{_pct(v)}\n[{_pct(r['forger_rate_lo'])}–{_pct(r['forger_rate_hi'])}]\nn={r['games']:,}"
                if v is not None else f"no games\nn={r['games']:,}")
        for a, b in ((i, j), (j, i)):
            rate[a, b] = np.nan if v is None else v
            notes[(a, b)] = text
    size = max(4.5, 1.15 * k + 1.5)
    fig, ax = plt.subplots(figsize=(size + 1.2, size))
    cmap = matplotlib.colormaps["RdBu_r"].with_extremes(bad="#f0f0f0")
    im = ax.imshow(np.ma.masked_invalid(rate), cmap=cmap, vmin=0.0, vmax=1.0)
    for (a, b), text in notes.items():
        v = rate[a, b]
        dark = not np.isnan(v) and abs(v - 0.5) > 0.3
        ax.text(b, a, text, ha="center", va="center", fontsize=7, color="white" if dark else "black")
    for i in range(k):  # an identity does not pair with itself
        ax.text(i, i, "—", ha="center", va="center", fontsize=9, color="#9a9a9a")
    for r in pairs.filter(pl.col("differs").fill_null(False)).iter_rows(named=True) if "differs" in pairs.columns \
            else []:
        i, j = pos[r["identity_1"]], pos[r["identity_2"]]
        for a, b in ((i, j), (j, i)):  # a frame marks a pair whose interval excludes the overall rate
            ax.add_patch(Rectangle((b - 0.47, a - 0.47), 0.94, 0.94, fill=False, edgecolor="black", linewidth=1.6))
    ax.set_xticks(range(k), [x.replace("_", " ") for x in ids], rotation=30, ha="right")
    ax.set_yticks(range(k), [x.replace("_", " ") for x in ids])
    ax.set_title(title)
    ax.spines[:].set_visible(False)
    ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=2)
    ax.tick_params(which="minor", length=0)
    cb = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    cb.set_label("forger (Angela) win rate")
    return fig


def _interval_bars(ax: plt.Axes, labels: list[str], rate: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                   colour: str, offset: float = 0.0, label: str | None = None, height: float = 0.6) -> None:
    y = np.arange(len(labels)) + offset
    ax.barh(y, rate, height=height, color=colour, alpha=0.75, label=label)
    ax.errorbar(rate, y, xerr=[rate - lo, hi - rate], fmt="none", ecolor="black", elinewidth=1, capsize=2)


def _arr(df: pl.DataFrame, col: str) -> np.ndarray:
    return df[col].cast(pl.Float64).fill_null(float("nan")).to_numpy()


def identities_chart(idents: pl.DataFrame, overall: float | None, title: str) -> Figure:
    """Each identity's forger win rate over the pairs that contain it, and how
    often it was the first identity burnt, both with 95% intervals."""
    t = idents.sort("forger_rate", descending=False, nulls_last=False)
    labels = [x.replace("_", " ") for x in t["identity"].to_list()]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9, 0.45 * len(labels) + 1.6), sharey=True)
    _interval_bars(a1, labels, _arr(t, "forger_rate"), _arr(t, "forger_rate_lo"), _arr(t, "forger_rate_hi"), FORGER)
    if overall is not None:
        a1.axvline(overall, color="black", linestyle="--", linewidth=1, label=f"overall {_pct(overall)}")
        a1.legend(loc="lower right", fontsize=8)
    a1.set_yticks(range(len(labels)), labels)
    a1.set_xlim(0, 1)
    a1.set_xlabel("forger win rate in games with this identity")
    _interval_bars(a2, labels, _arr(t, "burnt_first_share"), _arr(t, "burnt_first_share_lo"),
                   _arr(t, "burnt_first_share_hi"), TIMEOUT)
    a2.set_xlim(0, 1)
    a2.set_xlabel("share of its games where it was burnt first")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def upgrades_chart(ups: pl.DataFrame, title: str) -> Figure:
    """Per upgrade: the agent's win rate in games where she gained it versus
    games where she did not (95% intervals), and how often she gained it."""
    t = ups.sort("effect", descending=False, nulls_last=False)
    labels = [x.replace("_", " ") for x in t["upgrade"].to_list()]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 0.5 * len(labels) + 1.8), sharey=True,
                                 gridspec_kw={"width_ratios": [3, 2]})
    _interval_bars(a1, labels, _arr(t, "agent_rate_with"), _arr(t, "agent_rate_with_lo"),
                   _arr(t, "agent_rate_with_hi"), AGENT, offset=0.2, label="gained", height=0.38)
    _interval_bars(a1, labels, _arr(t, "agent_rate_without"), _arr(t, "agent_rate_without_lo"),
                   _arr(t, "agent_rate_without_hi"), "#92c5de", offset=-0.2, label="not gained", height=0.38)
    a1.set_yticks(range(len(labels)), labels)
    a1.set_xlim(0, 1)
    a1.set_xlabel("agent (Jessah) win rate")
    a1.legend(loc="lower right", fontsize=8)
    _interval_bars(a2, labels, _arr(t, "gained_rate"), _arr(t, "gained_rate_lo"), _arr(t, "gained_rate_hi"), AGENT)
    for y, (hi, m) in enumerate(zip(_arr(t, "gained_rate_hi"), _arr(t, "median_round"), strict=True)):
        if not np.isnan(m):  # right of the error bar, so the label never hides it
            a2.text((0.0 if np.isnan(hi) else hi) + 0.03, y, f"round {m:g}", va="center", fontsize=7)
    a2.set_xlim(0, 1.25)
    a2.set_xticks([0, 0.25, 0.5, 0.75, 1.0])
    a2.set_xlabel("share of games where she gained it (median round)")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def game_length_chart(hist: pl.DataFrame, title: str) -> Figure:
    """How long games last, one bar series per end reason, stacked."""
    fig, ax = plt.subplots(figsize=(8, 3.4))
    if hist.height:
        lo, hi = int(hist["rounds"].min()), int(hist["rounds"].max())  # type: ignore[arg-type]
        xs = np.arange(lo, hi + 1)
        bottom = np.zeros(len(xs))
        for reason in ("million", "arrest", "timeout"):
            part = hist.filter(pl.col("end_reason") == reason)
            if not part.height:
                continue
            counts = np.zeros(len(xs))
            counts[part["rounds"].to_numpy().astype(int) - lo] = part["games"].to_numpy()
            who = {"million": "Angela wins (million)", "arrest": "Jessah wins (arrest)", "timeout": "timeout"}[reason]
            ax.bar(xs, counts, bottom=bottom, width=0.9, color=REASON_COLOURS[reason], label=who, alpha=0.85)
            bottom += counts
        ax.legend(fontsize=8)
    ax.set_xlabel("game length (rounds)")
    ax.set_ylabel("games")
    ax.set_title(title)
    fig.tight_layout()
    return fig


def flow_chart(flow: pl.DataFrame, title: str) -> Figure:
    """Mean cumulative cash of each side and mean captures by round, over the
    games still in play, with the number of such games."""
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.4))
    r = flow["round"].to_numpy()
    a1.plot(r, _arr(flow, "angela_cash_mean") / 1000, color=FORGER, label="Angela cashed")
    a1.plot(r, _arr(flow, "jessah_cash_mean") / 1000, color=AGENT, label="Jessah cashed")
    a1.set_xlabel("round")
    a1.set_ylabel("mean cumulative cash ($k)")
    a1.legend(fontsize=8, loc="upper left")
    a2.plot(r, _arr(flow, "captures_mean"), color=AGENT, label="captures")
    a2.set_xlabel("round")
    a2.set_ylabel("mean captures")
    a2.set_ylim(bottom=0)
    twin = a2.twinx()
    twin.fill_between(r, _arr(flow, "games_in_play"), color=TIMEOUT, alpha=0.2, step="mid", label="games in play")
    twin.set_ylabel("games still in play")
    twin.spines["right"].set_visible(True)
    h1, l1 = a2.get_legend_handles_labels()
    h2, l2 = twin.get_legend_handles_labels()
    a2.legend(h1 + h2, l1 + l2, fontsize=8, loc="upper left")
    a2.set_zorder(twin.get_zorder() + 1)
    a2.patch.set_visible(False)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def matchup_heatmap(mu: pl.DataFrame, title: str) -> Figure:
    """Forger win rate for each strategy pair of one variant (rows: Angela's
    strategy, columns: Jessah's), annotated with interval and game count."""
    rows = sorted(mu["angela_strategy"].unique().to_list())
    cols = sorted(mu["jessah_strategy"].unique().to_list())
    m = np.full((len(rows), len(cols)), np.nan)
    fig, ax = plt.subplots(figsize=(1.8 * len(cols) + 2.5, 0.9 * len(rows) + 1.8))
    for r in mu.iter_rows(named=True):
        i, j = rows.index(r["angela_strategy"]), cols.index(r["jessah_strategy"])
        v = r["forger_rate"]
        m[i, j] = np.nan if v is None else v
        ax.text(j, i, f"{_pct(v)}\n[{_pct(r['forger_rate_lo'])}–{_pct(r['forger_rate_hi'])}]\nn={r['games']:,}",
                ha="center", va="center", fontsize=7)
    cmap = matplotlib.colormaps["RdBu_r"].with_extremes(bad="#f0f0f0")
    im = ax.imshow(np.ma.masked_invalid(m), cmap=cmap, vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=20, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel("Jessah's strategy")
    ax.set_ylabel("Angela's strategy")
    ax.set_title(title)
    fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04).set_label("forger win rate")
    return fig


def headline_chart(head: pl.DataFrame, title: str) -> Figure:
    """Outcome shares per cell (Angela / Jessah / timeout), with the forger's
    95% interval."""
    labels = [f"{r['variant']}: {r['angela_strategy']} vs {r['jessah_strategy']}" for r in head.iter_rows(named=True)]
    fig, ax = plt.subplots(figsize=(8, 0.5 * len(labels) + 1.4))
    y = np.arange(len(labels))
    fr, ar, tr = _arr(head, "forger_rate"), _arr(head, "agent_rate"), _arr(head, "timeout_rate")
    ax.barh(y, fr, color=FORGER, label="Angela wins")
    ax.barh(y, tr, left=fr, color=TIMEOUT, label="timeout")
    ax.barh(y, ar, left=fr + tr, color=AGENT, label="Jessah wins")
    ax.errorbar(fr, y, xerr=[fr - _arr(head, "forger_rate_lo"), _arr(head, "forger_rate_hi") - fr],
                fmt="none", ecolor="black", capsize=3)
    ax.set_yticks(y, labels)
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of played games")
    # The legend sits between the title and the bars, where it can never cover
    # the axis label, however many cells there are.
    ax.legend(fontsize=8, ncols=3, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    ax.set_title(title, pad=20)
    fig.tight_layout()
    return fig
