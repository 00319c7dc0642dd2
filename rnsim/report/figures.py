"""The core report's figures, drawn with matplotlib from the aggregated tables
only (never from raw rows, so drawing costs the same for a thousand games or a
million). Each function returns a Figure; :func:`save` writes PNG and SVG.
A game's own figures live beside it and use the helpers here."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # headless: reports are built on servers and in CI

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import polars as pl  # noqa: E402
from matplotlib.colors import TwoSlopeNorm  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402
from matplotlib.ticker import MaxNLocator, PercentFormatter  # noqa: E402

from rnsim.report.sections import pct  # noqa: E402,F401  (a figure's text and the report's agree)

#: one colour per seat, seat 0 first (red, then blue: a two-seat game reads as red vs blue)
SEAT_COLOURS = ("#b2182b", "#2166ac", "#1b7837", "#762a83", "#e08214", "#35978f", "#8c510a", "#c51b7d")
NO_WINNER = "#878787"

plt.rcParams.update({
    "figure.dpi": 100, "savefig.dpi": 110, "font.size": 9, "axes.titlesize": 10,
    "axes.spines.top": False, "axes.spines.right": False, "svg.fonttype": "none",
    # the SVG's element ids from a fixed salt, not a random one: the same
    # tables give the same file
    "svg.hashsalt": "rnsim",
})


def seat_colour(i: int) -> str:
    return SEAT_COLOURS[i % len(SEAT_COLOURS)]


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


def arr(df: pl.DataFrame, col: str) -> np.ndarray:
    return df[col].cast(pl.Float64).fill_null(float("nan")).to_numpy()


def percent_ticks(axis: Any, digits: int = 0) -> None:
    """Label an axis (``ax.xaxis``, ``ax.yaxis``, a colorbar's axis) in percent,
    as the report's tables are: a rate of 0.42 reads 42%, never 0.42."""
    axis.set_major_formatter(PercentFormatter(xmax=1.0, decimals=digits))


def integer_ticks(ax: plt.Axes, axis: str = "x") -> None:
    """Rounds are whole numbers: never a tick at round 2.5."""
    (ax.xaxis if axis == "x" else ax.yaxis).set_major_locator(MaxNLocator(integer=True))


def diverging_norm(values: np.ndarray, centre: float) -> TwoSlopeNorm:
    """A colour scale centred on ``centre`` whose range is set by the data
    (symmetric, so equal distances look equally strong): 41% against 47% is
    visible, where a fixed 0-100% scale makes both the same pale colour."""
    finite = values[np.isfinite(values)]
    spread = float(np.max(np.abs(finite - centre))) if finite.size else 0.0
    spread = max(spread, 0.01)
    return TwoSlopeNorm(vcenter=centre, vmin=centre - spread, vmax=centre + spread)


def interval_bars(ax: plt.Axes, labels: Sequence[str], rate: np.ndarray, lo: np.ndarray, hi: np.ndarray,
                  colour: str, offset: float = 0.0, label: str | None = None, height: float = 0.6) -> None:
    y = np.arange(len(labels)) + offset
    ax.barh(y, rate, height=height, color=colour, alpha=0.75, label=label)
    ax.errorbar(rate, y, xerr=[rate - lo, hi - rate], fmt="none", ecolor="black", elinewidth=1, capsize=2)


def headline_chart(head: pl.DataFrame, seats: Sequence[str], labels: Sequence[str], cells: Sequence[str],
                   title: str) -> Figure:
    """Outcome shares per cell (each seat's wins, then games nobody won), with
    seat 0's 95% interval and a reference line at an even game (50% for two
    seats, 1/n for n)."""
    fig, ax = plt.subplots(figsize=(8.5, 0.55 * len(cells) + 1.6))
    y = np.arange(len(cells))
    left = np.zeros(len(cells))
    parts = [(f"{s}_rate", f"{lab} wins", seat_colour(i)) for i, (s, lab) in enumerate(zip(seats, labels, strict=True))]
    parts.insert(1, ("no_winner_rate", "no winner", NO_WINNER))
    for col, lab, colour in parts:
        v = np.nan_to_num(arr(head, col))
        ax.barh(y, v, left=left, color=colour, label=lab, height=0.6)
        left += v
    r0 = arr(head, f"{seats[0]}_rate")
    ax.errorbar(r0, y, xerr=[r0 - arr(head, f"{seats[0]}_rate_lo"), arr(head, f"{seats[0]}_rate_hi") - r0],
                fmt="none", ecolor="black", capsize=3)
    even = 1.0 / max(len(seats), 1)
    ax.axvline(even, color="black", linestyle="--", linewidth=1.2, label=f"even game ({pct(even)})")
    ax.set_yticks(y, list(cells))
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    percent_ticks(ax.xaxis)
    ax.set_xlabel("share of played games")
    # The legend sits between the title and the bars, where it can never cover
    # the axis label, however many cells there are.
    ax.legend(fontsize=8, ncols=len(parts) + 1, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    ax.set_title(title, pad=22)
    fig.tight_layout()
    return fig


def matchup_heatmap(head: pl.DataFrame, seats: Sequence[str], labels: Sequence[str], title: str) -> Figure:
    """Seat 0's win rate for each strategy pair of one variant of a two-seat
    game (rows: seat 0's strategy, columns: seat 1's), annotated with
    interval and game count, coloured around an even game."""
    a, b = (f"{s}_strategy" for s in seats[:2])
    rate_col = f"{seats[0]}_rate"
    rows = sorted(head[a].unique().to_list())
    cols = sorted(head[b].unique().to_list())
    m = np.full((len(rows), len(cols)), np.nan)
    fig, ax = plt.subplots(figsize=(1.8 * len(cols) + 2.5, 0.9 * len(rows) + 1.8))
    for r in head.iter_rows(named=True):
        i, j = rows.index(r[a]), cols.index(r[b])
        v = r[rate_col]
        m[i, j] = np.nan if v is None else v
        ax.text(j, i, f"{pct(v)}\n[{pct(r[rate_col + '_lo'])}, {pct(r[rate_col + '_hi'])}]\nn={r['games']:,}",
                ha="center", va="center", fontsize=7)
    cmap = matplotlib.colormaps["RdBu_r"].with_extremes(bad="#f0f0f0")
    im = ax.imshow(np.ma.masked_invalid(m), cmap=cmap, norm=diverging_norm(m, 0.5), aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=20, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xlabel(f"{labels[1]}'s strategy")
    ax.set_ylabel(f"{labels[0]}'s strategy")
    ax.set_title(title)
    cb = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    cb.set_label(f"{labels[0]}'s win rate (white: 50%)")
    cb.formatter = matplotlib.ticker.FuncFormatter(lambda v, _: f"{100 * v:.0f}%")
    cb.update_ticks()
    return fig


#: the game-length chart shows the lengths of this share of the games; the
#: longest few (a timeout at round 60 when games end by round 15) would
#: otherwise stretch the axis and squeeze the bulk into a corner
LENGTH_BULK = 0.995


def length_cut(hist: pl.DataFrame, bulk: float = LENGTH_BULK) -> tuple[int, int, int]:
    """Where the game-length axis ends: ``(last round shown, games longer, longest)``;
    the last round shown is the smallest that covers ``bulk`` of the games."""
    if not hist.height:
        return 0, 0, 0
    per = hist.group_by("rounds").agg(pl.col("games").sum()).sort("rounds")
    rounds, games = per["rounds"].to_numpy().astype(int), per["games"].to_numpy()
    share = np.cumsum(games) / games.sum()
    last = int(rounds[min(int(np.searchsorted(share, bulk - 1e-12)), len(rounds) - 1)])
    longer = int(games[rounds > last].sum())
    return last, longer, int(rounds.max())


def longer_note(longer: int, longest: int) -> str:
    """ "2 games longer, up to round 60, not shown" (empty when none)."""
    if not longer:
        return ""
    return f"{longer:,} game{'s' if longer > 1 else ''} longer, up to round {longest}, not shown"


def game_length_chart(hist: pl.DataFrame, reasons: Mapping[str, tuple[str, str]], title: str) -> Figure:
    """How long games last, one stacked bar series per end reason;
    ``reasons`` maps an end reason to its legend label and colour. The axis
    ends where LENGTH_BULK of the games have ended; the games beyond are
    counted in a note under the axis."""
    fig, ax = plt.subplots(figsize=(8, 3.4))
    note = ""
    if hist.height:
        last, longer, longest = length_cut(hist)
        note = longer_note(longer, longest)
        shown = hist.filter(pl.col("rounds") <= last)
        lo, hi = int(shown["rounds"].min()), last  # type: ignore[arg-type]
        xs = np.arange(lo, hi + 1)
        bottom = np.zeros(len(xs))
        for reason, (label, colour) in reasons.items():
            part = shown.filter(pl.col("end_reason") == reason)
            if not part.height:
                continue
            counts = np.zeros(len(xs))
            counts[part["rounds"].to_numpy().astype(int) - lo] = part["games"].to_numpy()
            ax.bar(xs, counts, bottom=bottom, width=0.9, color=colour, label=label, alpha=0.85)
            bottom += counts
        ax.set_xlim(lo - 0.6, hi + 0.6)
        ax.legend(fontsize=8)
    integer_ticks(ax, "x")
    integer_ticks(ax, "y")
    ax.set_xlabel("game length (rounds)" + (f"\n{note}" if note else ""))
    ax.set_ylabel("games")
    ax.set_title(title)
    fig.tight_layout()
    return fig
