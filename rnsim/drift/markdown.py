"""The drift gate's and the comparison's Markdown: the results block a check
prints (to paste into a pull request) and `rnsim compare`'s report."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import polars as pl

from rnsim.analysis.paired import ALL
from rnsim.analysis.sequential import DRIFT, NO_DRIFT, UNDECIDED, GateDesign, replay_miss_bound

if TYPE_CHECKING:
    from rnsim.config import RunConfig
    from rnsim.drift.baseline import Baseline
    from rnsim.drift.outcome import CheckOutcome


def _pct(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:.1f}%"


def _pts(x: float) -> str:
    return "n/a" if math.isnan(x) else f"{100 * x:+.1f}"


def variance_removed_text(share: float | None) -> str:
    """The share of the variance the pairing removed, for a table cell:
    "none" when the paired variance is as large or larger (a negative share
    is no removal; it happens on few games by chance)."""
    if share is None or math.isnan(share):
        return "n/a"
    return "none" if share <= 0 else f"{100 * share:.0f}%"


def _seat_pct(r: dict[str, object], seat: str) -> str:
    """A seat's win rate in a row of the comparison, "–" where the seat is not
    in the cell's games (its strategy is null: FBI's fourth seat at 3 players)."""
    if f"{seat}_strategy" in r and r[f"{seat}_strategy"] is None:
        return "–"
    rate = r[f"{seat}_rate"]
    return _pct(float(rate)) if isinstance(rate, int | float) else "n/a"


def results_block(outcome: CheckOutcome, base: Baseline, design: GateDesign, master: int, offset: int,
                  replay_k: int = 0, beta_total: float | None = None, role: str = "seat 0") -> str:
    """The Markdown block to paste into a pull request."""
    beta_total = design.beta if beta_total is None else beta_total
    title = {DRIFT: "DRIFT", NO_DRIFT: "no drift", UNDECIDED: "UNDECIDED"}[outcome.verdict]
    settled = sum(c.replay_settled for c in outcome.cells)
    fresh = sum(c.counts["games"] + c.counts["errors"] for c in outcome.cells)
    replay_line = ""
    if replay_k:
        replay_line = (
            f" The first {replay_k} baseline games of each cell were replayed (same chance streams): the {role}'s "
            f"outcome was identical in every one of them in {settled} of {len(outcome.cells)} cell(s), which settles "
            f"those as no drift (a move of 2δ hides that way with probability at most "
            f"{100 * replay_miss_bound(design.delta, replay_k):.2g}%)"
            + ("." if settled == len(outcome.cells) else "; the other cells were tested on fresh games."))
    fresh_part = f", {fresh:,} of them fresh (seed {master}, game indices from {offset})" if fresh else ""
    lines = [
        f"### rnsim balance check: {title}",
        "",
        f"Baseline `{base.path}` (rnsim {base.data.get('rnsim_version')}, seed {base.master_seed}, "
        f"{base.games_per_cell:,} games per cell) against the current code: {outcome.games:,} games of a "
        f"{outcome.budget:,}-game budget{fresh_part}." + replay_line,
        f"{role[:1].upper() + role[1:]}'s win rate per cell; tolerance δ = {100 * design.delta:g} points: no change is flagged in at most "
        f"{100 * design.alpha:g}% of checks over all {design.cells} cell(s), a move of {200 * design.delta:g} points "
        f"(2δ) in at least {100 * (1 - beta_total):g}%.",
        "",
        "| cell | baseline | current | difference, points (95% CI) | LLR [bounds] | games | verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    for c, r in zip(outcome.cells, outcome.gate.results(), strict=True):
        if c.replay_settled:
            lines.append(
                f"| {c.name} | {_pct(r.baseline_rate)} | same outcome in all {c.replayed} replayed games | 0 (exact) | "
                f"replay | {c.replayed:,} replayed | {r.verdict} |"
            )
            continue
        ci = f"{_pts(r.diff)} ({_pts(r.low)}, {_pts(r.high)})"
        more = f" (+{c.replayed} replayed)" if c.replayed else ""
        lines.append(
            f"| {c.name} | {_pct(r.baseline_rate)} | {_pct(r.rate)} | {ci} | "
            f"{r.llr:+.2f} [{r.lower:.2f}, {r.upper:.2f}] | {r.games:,}{more} | {r.verdict} |"
        )
    for n in outcome.notes:
        lines.append(f"\nNote: {n}.")
    return "\n".join(lines)


def comparison_text(cfg: RunConfig, results: pl.LazyFrame, reference: str, tables: dict[str, pl.DataFrame]) -> str:
    from rnsim.analysis.paired import won
    from rnsim.analysis.stats import rate_columns
    from rnsim.drift.cells import balance_seat, cell_keys, counted_seats, seat_role, seat_title

    seat = balance_seat(cfg)
    keys = cell_keys(cfg)
    setup_col, strategy_cols = keys[0], keys[1:]
    setup_title = setup_col.replace("_", " ")
    others = [s for s in cfg.seats if s != seat]
    played = pl.col("end_reason") != "error"
    rates = (
        results.group_by(["variant", *keys])
        .agg(played.sum().alias("games"),
             *(won(s, results).sum().alias(f"{s}_wins") for s in counted_seats(cfg)),
             (pl.col("winner").is_null() & played).sum().alias("no_winner"))
        .with_columns(*rate_columns(f"{seat}_wins", "games", "rate"),
                      *(pl.when(pl.col("games") > 0).then(pl.col(f"{s}_wins") / pl.col("games")).alias(f"{s}_rate")
                        for s in others),
                      pl.when(pl.col("games") > 0).then(pl.col("no_winner") / pl.col("games")).alias("no_winner_rate"))
        .sort([setup_col, "variant", *strategy_cols])
        .collect()
    )
    role = seat_role(cfg, seat)
    title = seat_title(cfg, seat)
    lines = [
        f"## Variants compared on the same games ({cfg.games:,} per cell, seed {cfg.seed})",
        "",
        "Game i of every variant sees the same chance stream, so differences are paired per game. "
        f"Win rates are the {role}'s{'' if title == role else f' ({title})'}; games without a single winner count "
        "as no win; a seat absent from a cell's games (fewer players) shows –. "
        "Intervals are 95%.",
        "",
    ]
    # each variant's own rates per cell (Wilson intervals)
    head = f"| variant | {setup_title} | strategies | games | {role} | " + "".join(
        f"{seat_role(cfg, s)} | " for s in others) + "no winner |"
    lines += ["### Win rates", "", head, "|---|---|---|---|---|" + "---|" * len(others) + "---|"]
    for r in rates.iter_rows(named=True):
        lines.append(
            f"| {r['variant']} | {r[setup_col]} | {' vs '.join(str(r[c]) for c in strategy_cols if r[c] is not None)} | {r['games']:,} | "
            f"{_pct(r['rate'])} ({_pct(r['rate_lo'])}–{_pct(r['rate_hi'])}) | "
            + "".join(f"{_seat_pct(r, s)} | " for s in others) + f"{_pct(r['no_winner_rate'])} |"
        )
    for name, t in tables.items():
        overall = t.filter(pl.col(setup_col) == ALL).row(0, named=True)
        lines += [
            "",
            f"### {name} − {reference}: {role}'s win rate, paired",
            "",
            f"| {setup_title} | strategies | games | " + f"{reference} | {name} | difference, points (paired 95% CI) | "
            "unpaired CI | variance removed by pairing |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for r in t.iter_rows(named=True):
            everything = r[setup_col] == ALL
            strategies = "all" if everything else " vs ".join(str(r[c]) for c in strategy_cols if r[c] is not None)
            removed = variance_removed_text(r["variance_removed"])
            label = "**all cells**" if everything else r[setup_col]
            lines.append(
                f"| {label} | {strategies} | {r['games']:,} | {_pct(r['rate_ref'])} | {_pct(r['rate_var'])} | "
                f"{_pts(r['diff'])} ({_pts(r['paired_lo'])}, {_pts(r['paired_hi'])}) | "
                f"({_pts(r['unpaired_lo'])}, {_pts(r['unpaired_hi'])}) | {removed} |"
            )
        vr = overall["variance_removed"]
        if vr is not None and vr <= 0:
            lines += ["", "Pairing removed none of the variance of the overall difference on this run (the two "
                      "variants' outcomes were no more alike than independent games')."]
        elif vr is not None and vr < 1:
            lines += ["", f"Pairing removed {100 * vr:.0f}% of the variance of the overall difference on this run: "
                      f"the unpaired estimate would need {1 / (1 - vr):.1f}x as many games for the same interval."]
        elif vr is not None:
            lines += ["", "Every game ended the same way under both variants: the difference is exactly zero."]
    return "\n".join(lines)
