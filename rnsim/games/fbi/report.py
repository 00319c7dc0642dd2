"""FBI's report (the protocol is in :mod:`rnsim.report.sections`): the answers
a designer of a multi-player card game asks for, for the whole run rather
than per rotation of a lineup (FBI's seats rotate, see ``FbiGame.rotate_seats``):

- is the start player (the first handcuffs) favoured, and does a seat's
  position after the start player matter, at 3, 4 and 5 players;
- which strategy wins;
- the score distributions;
- how often the bonus cards decide the winner (FR10);
- each variant against the base, paired on the same deals.

Rates pool observations that are not independent (one deal is replayed in
every rotation of a lineup; a strategy may hold several seats of one table),
so their intervals are clustered by game index
(:func:`rnsim.analysis.stats.clustered_rate_columns`)."""

from __future__ import annotations

from typing import Any

import polars as pl

from rnsim.analysis.paired import paired_differences
from rnsim.analysis.stats import (
    ALPHA,
    chance_words,
    clustered_rate_columns,
    holm_column,
    holm_query,
    interval_p_value,
    score_p_value,
)
from rnsim.games.fbi.state import SEAT_NAMES
from rnsim.report.sections import Figure, Para, ReportContext, Section, Table, p_is, p_text, pct, rate_ci

TITLE = "FBI"
NO_WINNER = "ended in a shared win (a tie for the most points, F13)"

F = "rnsim.games.fbi.figures"
PLAYED = pl.col("end_reason") != "error"

#: the player the verdict watches, for the strength band (rnsim.band): the
#: column naming them per game, and how the report names them
BAND_WATCH = ("first_handcuffs", "the start player")

DEFINITIONS = [
    "FBI's seats rotate: every rotation of a lineup of strategies is played on the same deals (game indices), "
    "so a strategy meets every seat on the same cards. The per-rotation cells are in Outcomes; the sections below "
    "pool them.",
    "Position = seats after the start player (the first handcuffs holder, the highest purple villain): 0 is "
    "the start player, 1 the player on their left, and so on. An even game gives every position 1/players.",
    "A win rate here counts a shared win as 1/k of a win for each of the k tied players (F13). Its 95% interval "
    "is clustered by game index (observations of one deal are not independent): Wilson's interval on the "
    "effective number of observations (Kish's design effect from the cluster-robust variance). Its coverage was "
    "checked by simulation (tests/test_clustered_rate.py).",
    "Whether position matters at all is one chi-square test per player count (the positions' wins against an "
    "even share, corrected for the design effect). The report tests several player counts (and variants) at once, "
    "so a finding, and a verdict on the start player, stands only when it survives Holm's correction across them "
    "(the chance of even one false finding among them stays under 5%); the raw p-values are printed beside the "
    "corrected ones.",
    "The bonus cards decide the winner (FR10) when the set of top scorers without the bonus cards differs from "
    "the set with them.",
    "Variants are compared on the same deals: the difference of the start player's win rate is paired on "
    "(players, lineup, game index), with a 95% interval. A variant's rotation cells are compared with the same "
    "rotation of the reference.",
]


def columns(names: list[str]) -> list[str]:
    wanted = ["game_index", "first_handcuffs", "bonus_decides", "tied"]
    for s in SEAT_NAMES:
        wanted += [f"score_{s}", f"bonus_points_{s}"]
    return [c for c in wanted if c in names]


def _seats(base: pl.LazyFrame) -> list[str]:
    names = base.collect_schema().names()
    return [s for s in SEAT_NAMES if f"share_{s}" in names]


def seat_rows(base: pl.LazyFrame) -> pl.LazyFrame:
    """One row per player of each played game: variant, players, game index,
    seat, position after the start player, strategy, share of the win, score."""
    index = {s: i for i, s in enumerate(SEAT_NAMES)}
    first = pl.col("first_handcuffs").cast(pl.String).replace_strict(index, return_dtype=pl.Int64)
    n = pl.col("players").cast(pl.String).cast(pl.Int64)
    parts = []
    for k, s in enumerate(_seats(base)):
        parts.append(
            base.filter(PLAYED & pl.col(f"share_{s}").is_not_null())
            .select(pl.col("variant").cast(pl.String), pl.col("players").cast(pl.String), "game_index",
                    pl.lit(s).alias("seat"), ((pl.lit(k) - first) % n).alias("position"),
                    pl.col(f"{s}_strategy").cast(pl.String).alias("strategy"),
                    pl.col(f"share_{s}").cast(pl.Float64).alias("share"),
                    pl.col(f"score_{s}").cast(pl.Int64).alias("score"),
                    pl.col(f"bonus_points_{s}").cast(pl.Int64).alias("bonus_points")))
    return pl.concat(parts, how="vertical")


def position_test(positions: pl.LazyFrame) -> pl.LazyFrame:
    """Does a seat's position matter at all? Per variant and player count, the
    chi-square goodness-of-fit statistic of the positions' wins against an even
    share (df = players - 1), divided by the mean design effect of the
    positions' rates (one deal replayed in several rotations counts less than
    several deals; Rao and Scott's first-order correction). One test per player
    count, so "What stands out" does not flag a position by chance among many."""
    from scipy.stats import chi2

    def test(g: pl.DataFrame) -> pl.DataFrame:
        n = int(g["players"][0])
        games = float(g["observations"].cast(pl.Float64).to_numpy().max())
        expected = games / n
        stat = float((((g["wins"] - expected) ** 2) / expected).sum())
        deff = max(float(g["design_effect"].cast(pl.Float64).to_numpy().mean()), 1e-3)
        p = float(chi2.sf(stat / deff, n - 1))
        return pl.DataFrame({"variant": [g["variant"][0]], "players": [g["players"][0]], "games": [int(games)],
                             "chi2": [stat / deff], "df": [n - 1], "p_value": [p]})

    tests = positions.group_by(["variant", "players"]).map_groups(test, schema={
        "variant": pl.String, "players": pl.String, "games": pl.Int64, "chi2": pl.Float64, "df": pl.Int64,
        "p_value": pl.Float64})
    # one family: every player count and variant of the run is tested on the same page
    return holm_query(tests, "p_value", []).sort(["variant", "players"])


def _reference(base: pl.LazyFrame) -> tuple[str, list[str]]:
    variants = base.select(pl.col("variant").cast(pl.String).unique(maintain_order=True)).collect()["variant"]
    names = variants.to_list()
    ref = "base" if "base" in names else sorted(names)[0]
    return ref, [v for v in sorted(names) if v != ref]


def tables(base: pl.LazyFrame, rows: pl.LazyFrame) -> dict[str, pl.LazyFrame]:
    seats = seat_rows(base)
    games = base.filter(PLAYED).with_columns(pl.col("variant").cast(pl.String), pl.col("players").cast(pl.String))
    by = ["variant", "players"]
    positions = (clustered_rate_columns([*by, "position"], ["game_index"], pl.col("share"))(seats)
                 .with_columns((1.0 / pl.col("players").cast(pl.Float64)).alias("even")))
    out = {
        "fbi_positions": positions,
        "fbi_position_test": position_test(positions),
        "fbi_strategies": clustered_rate_columns([*by, "strategy"], ["game_index"], pl.col("share"))(seats)
        .join(seats.group_by([*by, "strategy"]).agg(pl.col("score").mean().alias("mean_score")),
              on=[*by, "strategy"], how="left").sort([*by, "strategy"]),
        "fbi_scores": seats.group_by([*by, "strategy"]).agg(
            pl.len().alias("seat_games"), pl.col("score").mean().alias("mean"),
            pl.col("score").quantile(0.1, "nearest").alias("p10"),
            pl.col("score").median().alias("median"),
            pl.col("score").quantile(0.9, "nearest").alias("p90"),
            pl.col("score").min().alias("min"), pl.col("score").max().alias("max"),
            pl.col("bonus_points").mean().alias("mean_bonus_points"),
            pl.col("score").filter(pl.col("share") > 0).mean().alias("mean_winning_score"),
        ).sort([*by, "strategy"]),
        "fbi_score_histogram": seats.group_by([*by, "score"]).agg(pl.len().alias("seat_games")).sort([*by, "score"]),
        "fbi_bonus": clustered_rate_columns(by, ["game_index"], pl.col("bonus_decides").cast(pl.Float64))(games)
        .join(clustered_rate_columns(by, ["game_index"], (pl.col("tied") > 1).cast(pl.Float64), "shared")(games)
              .select(*by, "shared", "shared_lo", "shared_hi"), on=by, how="left").sort(by),
    }
    ref, others = _reference(base)
    if others:
        strat = [f"{s}_strategy" for s in SEAT_NAMES if f"{s}_strategy" in base.collect_schema().names()]
        paired = [
            paired_differences(base.with_columns(pl.col("first_handcuffs").cast(pl.String)), ref, v,
                               seat="first_handcuffs", keys=["players", *strat])
            for v in others
        ]
        out["fbi_variants"] = pl.concat(paired, how="diagonal_relaxed").lazy()
    return out


# ---------------------------------------------------------------- text

def _pts(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:+.1f}"


def _players_order(df: pl.DataFrame) -> pl.DataFrame:
    return df.sort(pl.col("variant"), pl.col("players").cast(pl.Int64))


def _start_rows(t: dict[str, pl.DataFrame]) -> list[dict[str, Any]]:
    """The start player's rate per variant and player count, each with its test
    against an even share (``p_value``: the score test on the effective number
    of games, which the clustered Wilson interval inverts) and ``p_holm``
    (Holm's correction across the verdicts: the page gives them all at once)."""
    rows = _players_order(t["fbi_positions"].filter(pl.col("position") == 0))
    n_eff = (rows["observations"].cast(pl.Float64) / rows["design_effect"].cast(pl.Float64)).to_list()
    p = [score_p_value(r * n, n, e) if n else None
         for r, n, e in zip(rows["rate"].to_list(), n_eff, rows["even"].to_list(), strict=True)]
    return list(holm_column(rows.with_columns(pl.Series("p_value", p, dtype=pl.Float64)), "p_value")
                .iter_rows(named=True))


def run_verdict(t: dict[str, pl.DataFrame], ctx: ReportContext) -> list[str]:
    """Per variant and player count: is the start player favoured? Said only
    when the test survives Holm's correction across the verdicts."""
    out = []
    rows = _start_rows(t)
    tests = sum(r["p_value"] is not None for r in rows)
    for r in rows:
        pre = f"Variant {r['variant']}, " if ctx.several_variants else ""
        held = tests <= 1 or (r["p_holm"] is not None and r["p_holm"] < ALPHA)
        if r["rate_lo"] > r["even"] and held:
            who = "the start player is favoured"
        elif r["rate_hi"] < r["even"] and held:
            who = "the start player is at a disadvantage"
        elif r["rate_lo"] > r["even"] or r["rate_hi"] < r["even"]:
            who = f"the start player is not measurably favoured or disadvantaged once the {tests} verdicts are " \
                  "corrected for chance"
        else:
            who = "the start player is not measurably favoured or disadvantaged"
        stat = (f"; {p_is(r['p_value'])}, {p_text(r['p_holm'])} after Holm's correction for {tests} verdicts"
                if tests > 1 else "")
        out.append(f"{pre}{r['players']} players: {who}: the player with the first handcuffs wins "
                   f"{rate_ci(r, 'rate', 'wins', 'observations')} of {int(r['observations']):,} games, against {pct(r['even'])} in an even "
                   f"game ({_pts(r['rate'] - r['even'])} points{stat}).")
    return out


def _variant_rows(t: dict[str, pl.DataFrame]) -> pl.DataFrame:
    """The variants' pooled paired differences ('all' rows), each with its
    p-value (from the paired interval) and Holm's correction across them."""
    v = t.get("fbi_variants", pl.DataFrame())
    if not v.height:
        return v
    v = v.filter(pl.col("players") == "all")
    p = [interval_p_value(d, lo, hi) for d, lo, hi in
         zip(v["diff"].to_list(), v["paired_lo"].to_list(), v["paired_hi"].to_list(), strict=True)]
    return holm_column(v.with_columns(pl.Series("p_value", p, dtype=pl.Float64).fill_nan(None)), "p_value")


def run_findings(t: dict[str, pl.DataFrame], ctx: ReportContext) -> list[str]:
    out = _position_findings(t)
    for r in _players_order(t["fbi_bonus"]).iter_rows(named=True):
        out.append(f"{r['variant']}, {r['players']} players: the bonus cards decide the winner in "
                   f"{rate_ci(r, 'rate', 'wins', 'observations')} of games.")
    strat = t["fbi_strategies"]
    for (variant, players), g in _players_order(strat).group_by(["variant", "players"], maintain_order=True):
        if g.height > 1:
            best = g.sort("rate", descending=True).row(0, named=True)
            out.append(f"{variant}, {players} players: {best['strategy']} wins most, {rate_ci(best, 'rate', 'wins', 'observations')} of its "
                       f"seat-games.")
    variants = _variant_rows(t)
    for r in variants.iter_rows(named=True):
        if r["p_holm"] is not None and r["p_holm"] < ALPHA:
            tail = (f", {p_is(r['p_value'])}, {p_text(r['p_holm'])} after Holm's correction for {variants.height} "
                    f"variants" if variants.height > 1 else f", {p_is(r['p_value'])}")
            out.append(f"Variant {r['variant']} moves the start player's win rate by {_pts(r['diff'])} points "
                       f"[{_pts(r['paired_lo'])}, {_pts(r['paired_hi'])}] against {r['reference']} (paired{tail}).")
    return out


def _position_findings(t: dict[str, pl.DataFrame]) -> list[str]:
    """Whether seat position matters, per player count: said only where the
    chi-square test survives Holm's correction across the player counts (and
    variants) of the run; the raw p-values that do not are named as such."""
    pos = t["fbi_positions"]
    tests = {(r["variant"], r["players"]): r for r in t["fbi_position_test"].iter_rows(named=True)}
    n = sum(r["p_value"] is not None for r in tests.values())
    out = [f"Seat position: {chance_words(n, 'player counts (one test per variant)', 'say position matters in')}"
           ] if n > 1 else []
    weak = []
    for (variant, players), g in _players_order(pos).group_by(["variant", "players"], maintain_order=True):
        test = tests.get((variant, players))
        if test is None or test["p_value"] is None or test["p_value"] >= ALPHA:
            continue
        if test["p_holm"] is None or test["p_holm"] >= ALPHA:
            weak.append(f"{variant}, {players} players ({p_is(test['p_value'])}, {p_text(test['p_holm'])} after "
                        "the correction)")
            continue
        g = g.with_columns((pl.col("rate") - pl.col("even")).abs().alias("gap")).sort("gap", descending=True)
        which = ", ".join(f"position {r['position']} wins {rate_ci(r, 'rate', 'wins', 'observations')}" for r in g.head(2).iter_rows(named=True))
        out.append(f"{variant}, {players} players: seat position matters (χ² test across positions, "
                   f"{p_is(test['p_value'])}; {p_text(test['p_holm'])} after Holm's correction for {n} tests): "
                   f"{which}, against an even {pct(g['even'][0])}.")
    if weak:
        out.append("Seat position is not shown to matter where only the raw p is under 5%, as chance alone would "
                   "give: " + "; ".join(weak) + ".")
    return out


def _positions(t: dict[str, pl.DataFrame], ctx: ReportContext) -> Section:
    pos = _players_order(t["fbi_positions"])
    blocks: list[Any] = [Para(
        "Win rate by position after the start player (the first handcuffs holder), per player count. The dashed "
        "line of each group is an even game (1/players).")]
    for variant in pos["variant"].unique(maintain_order=True).to_list():
        part = pos.filter(pl.col("variant") == variant)
        blocks.append(Figure(ctx.figure(f"positions-{variant}", f"{F}:positions_chart", part,
                                        f"Win rate by seat position ({variant})"),
                             f"Win rate [95% interval] of each position after the start player ({variant})."))
    blocks.append(Table(
        ["variant", "players", "position", "games", "win rate [95% CI]", "even", "design effect"],
        [[r["variant"], r["players"], "start player (0)" if r["position"] == 0 else str(r["position"]),
          f"{int(r['observations']):,}", rate_ci(r, "rate", "wins", "observations"), pct(r["even"]), f"{r['design_effect']:.2f}"]
         for r in pos.iter_rows(named=True)],
        "Win rate by position; shared wins count 1/k.", numeric=[False, True, True, True, True, True, True]))
    tests = _players_order(t["fbi_position_test"])
    blocks.append(Table(
        ["variant", "players", "games", "χ² (design-effect corrected)", "df", "p", "p (Holm)"],
        [[r["variant"], r["players"], f"{r['games']:,}", f"{r['chi2']:.2f}", str(r["df"]), p_text(r["p_value"]),
          p_text(r["p_holm"])] for r in tests.iter_rows(named=True)],
        "Does position matter at all? One chi-square test per player count of the positions' wins against an "
        f"even share (a small p-value: it does); p (Holm): corrected across the {tests.height} tests, the one to "
        "read.", numeric=[False, True, True, True, True, True, True]))
    return Section("Start player and seat position", blocks, "fbi-positions")


def _strategies(t: dict[str, pl.DataFrame], ctx: ReportContext) -> Section:
    st = _players_order(t["fbi_strategies"])
    blocks: list[Any] = []
    if st["strategy"].n_unique() > 1:
        blocks.append(Figure(ctx.figure("strategies", f"{F}:strategies_chart", st, "Win rate by strategy"),
                             "Each strategy's share of its seat-games won, per player count, with 95% intervals "
                             "(clustered by deal); dashed: an even game."))
    else:
        blocks.append(Para(f"Every seat played {st['strategy'][0]}: the rates below are the table's, per player "
                           "count (each 1/players by symmetry)."))
    blocks.append(Table(
        ["variant", "players", "strategy", "seat-games", "win rate [95% CI]", "mean score"],
        [[r["variant"], r["players"], r["strategy"], f"{int(r['observations']):,}", rate_ci(r, "rate", "wins", "observations"),
          f"{r['mean_score']:.1f}"] for r in st.iter_rows(named=True)],
        "Win rate by strategy (seat-games: one per seat a strategy held).",
        numeric=[False, True, False, True, True, True]))
    return Section("Strategies", blocks, "fbi-strategies")


def _scores(t: dict[str, pl.DataFrame], ctx: ReportContext) -> Section:
    sc = _players_order(t["fbi_scores"])
    hist = t["fbi_score_histogram"]
    blocks: list[Any] = []
    for variant in sc["variant"].unique(maintain_order=True).to_list():
        blocks.append(Figure(ctx.figure(f"scores-{variant}", f"{F}:scores_chart",
                                        hist.filter(pl.col("variant") == variant), f"Scores ({variant})"),
                             f"Distribution of final scores, per player count ({variant})."))
    blocks.append(Table(
        ["variant", "players", "strategy", "seat-games", "mean", "10th pct", "median", "90th pct", "min", "max",
         "mean bonus points", "mean winning score"],
        [[r["variant"], r["players"], r["strategy"], f"{r['seat_games']:,}", f"{r['mean']:.1f}", str(r["p10"]),
          f"{r['median']:.0f}", str(r["p90"]), str(r["min"]), str(r["max"]), f"{r['mean_bonus_points']:.1f}",
          "–" if r["mean_winning_score"] is None else f"{r['mean_winning_score']:.1f}"]
         for r in sc.iter_rows(named=True)],
        "Final scores (villains minus bystanders, plus bonus cards).", numeric=[False, True, False] + [True] * 9))
    return Section("Scores", blocks, "fbi-scores")


def _bonus(t: dict[str, pl.DataFrame], ctx: ReportContext) -> Section:
    b = _players_order(t["fbi_bonus"])
    return Section("Bonus cards", [Table(
        ["variant", "players", "games", "bonus cards decide the winner [95% CI]", "shared wins [95% CI]"],
        [[r["variant"], r["players"], f"{int(r['observations']):,}", rate_ci(r, "rate", "wins", "observations"), rate_ci(r, "shared")]
         for r in b.iter_rows(named=True)],
        "How often the bonus cards change who wins (FR10), and how often the win is shared (F13).",
        numeric=[False, True, True, True, True])], "fbi-bonus")


def _variants(t: dict[str, pl.DataFrame], ctx: ReportContext) -> Section | None:
    v = t.get("fbi_variants")
    if v is None or v.height == 0:
        return None
    strat = [c for c in v.columns if c.endswith("_strategy")]
    rows = []
    for r in v.iter_rows(named=True):
        lineup = "all" if r["players"] == "all" else " vs ".join(str(r[c]) for c in strat if r[c] not in (None, "all"))
        rows.append([r["variant"], r["reference"], "**all**" if r["players"] == "all" else r["players"], lineup,
                     f"{r['games']:,}", pct(r["rate_ref"]), pct(r["rate_var"]),
                     f"{_pts(r['diff'])} [{_pts(r['paired_lo'])}, {_pts(r['paired_hi'])}]"])
    return Section("Variants, paired", [
        Para("The start player's win rate (strict wins) under each variant against the reference, on the same "
             "deals; the 'all' row is stratified by player count and lineup."),
        Table(["variant", "reference", "players", "lineup", "paired games", "reference rate", "variant rate",
               "difference, points [95% CI]"], rows, "Paired differences of the start player's win rate.",
              numeric=[False, False, True, False, True, True, True, True])], "fbi-variants")


def run_sections(t: dict[str, pl.DataFrame], ctx: ReportContext) -> list[Section]:
    out = [_positions(t, ctx), _strategies(t, ctx), _scores(t, ctx), _bonus(t, ctx)]
    v = _variants(t, ctx)
    return out + ([v] if v is not None else [])
