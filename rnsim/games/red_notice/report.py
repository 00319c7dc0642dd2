"""Red Notice's sections of the report (the protocol is in
:mod:`rnsim.report.sections`): identity pairs (map and table), identities,
upgrades (their causal values first when `rnsim levers --for-run` measured
them, then the association, with intervals for the difference), cash and
captures by round, and what stands out in them."""

from __future__ import annotations

import math
from typing import Any

import polars as pl

from rnsim.analysis.stats import chance_words
from rnsim.games.red_notice import analysis as rn
from rnsim.report.sections import Block, Figure, Para, ReportContext, Section, Table, p_is, p_text, share_text

TITLE = "Red Notice"
NO_WINNER = "ended in a timeout"

F = "rnsim.games.red_notice.figures"

#: a 95% interval wider than this (in rate units) is "too few games to be useful"
WIDE_INTERVAL = 0.20

#: rounds where fewer games than this are still in play are left out of the
#: flow figure (with fewer than ten times this many games in a cell, a tenth
#: of the cell's games, at least 10)
FLOW_MIN_GAMES = 100

DEFINITIONS = [
    "Angela (the forger) wins by cashing the money target (end reason million); Jessah (the FBI agent) wins by "
    "arresting her (arrest); a timeout is a game nobody won.",
    "A flagged identity pair (⚑) is one where Angela's win rate differs from her rate in the cell's other pairs "
    "(two-proportion test) after Holm's correction across the cell's pairs: with fifteen pairs tested at 5% each, "
    "chance alone would flag one in more than half the runs; after the correction, a false flag among them has a "
    "chance under 5%. The raw p-value and the corrected one are in the table.",
    f"An interval wider than {100 * WIDE_INTERVAL:.0f} points means too few games for a useful estimate.",
    "Upgrade differences compare games where Jessah gained the upgrade with games where she did not, with a 95% "
    "interval for the difference of two proportions (Newcombe's hybrid score method). This is an association, "
    "not a cause: Jessah gains an upgrade whenever a $200,000 check is cashed, mostly by Angela, i.e. when Angela "
    "is ahead.",
    "Causal values (shown when `rnsim levers CONFIG --restricted --for-run RUN` measured them for the cell's rules "
    "and strategies): the shift of Angela's win rate when an upgrade is removed from the deck or never chosen, "
    "or an identity is played as the plain identity, each paired game by game with the unchanged rules (95% "
    "interval for a paired difference).",
]


def columns(names: list[str]) -> list[str]:
    return rn.scalar_columns(names)


def tables(base: pl.LazyFrame, rows: pl.LazyFrame) -> dict[str, pl.LazyFrame]:
    return {
        "identity_pairs": rn.identity_pairs_query(base), "identities": rn.identities_query(base),
        "upgrades": rn.upgrades_query(base), "upgrade_rounds": rn.upgrade_rounds_query(base),
        "flow_by_round": rn.flow_by_round_query(rows),  # the by-round lists stream from the shards
    }


def _pct(x: float | None) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _ci(r: dict[str, Any], prefix: str, k: str | None = None, n: str = "games") -> str:
    """A rate and its 95% interval; with its count column ``k`` of ``n``, a
    rate that rounds to 0 or 100% is written as the counts ("2 of 3,000")."""
    v, lo, hi = r.get(prefix), r.get(prefix + "_lo"), r.get(prefix + "_hi")
    if v is None or lo is None or hi is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    shown = share_text(r[k], r[n]) if k is not None and r.get(n) else _pct(v)
    return f"{shown} [{100 * lo:.1f}, {100 * hi:.1f}]"


def _pts(r: dict[str, Any], prefix: str) -> str:
    v, lo, hi = r.get(prefix), r.get(prefix + "_lo"), r.get(prefix + "_hi")
    if v is None or lo is None or hi is None or math.isnan(v):
        return "–"
    return f"{100 * v:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def _n(x: int | float | None) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:,}" if isinstance(x, int) \
        else f"{x:,.1f}"


def _ident(x: str) -> str:
    return x.replace("_", " ").replace("+", " + ")


def _some(items: list[str], limit: int = 6) -> str:
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


def _causal(ctx: ReportContext) -> pl.DataFrame | None:
    """The causal values `rnsim levers --for-run` measured for this cell's
    rules and strategies (None when it did not)."""
    r = ctx.cell
    assert r is not None
    rules_hash = (ctx.manifest.get("rules_hash") or {}).get(r["variant"])
    return rn.causal_for_cell(rn.causal_values(ctx.run_dir), rules_hash, str(r["angela_strategy"]),
                              str(r["jessah_strategy"]))


def _levers_source(ctx: ReportContext) -> str:
    found = rn.causal_values(ctx.run_dir)
    meta = found[1] if found is not None else {}
    return (f"measured by rnsim levers on {meta.get('config', 'this config')} ({_n(meta.get('games'))} games, "
            f"{_n(meta.get('seconds'))} s; identities {meta.get('identities', '?')}), each change paired game by game "
            f"with the same rules and strategies")


#: how the report names each way `rnsim levers` measures a causal value
CAUSAL_KINDS = {"upgrade": "removed from the deck", "restricted": "never chosen (restricted play)"}


def _shift(r: dict[str, Any] | None, sign: float = 1.0) -> str:
    """A paired shift of the forger's rate as signed points [95%] (sign -1:
    the other way round, e.g. with the power minus without it)."""
    if r is None or r.get("shift") is None:
        return "–"
    # + 0.0: a zero times -1 is printed as +0.0, not -0.0
    lo, hi = sorted((sign * r["shift_lo"] + 0.0, sign * r["shift_hi"] + 0.0))
    return f"{100 * sign * r['shift'] + 0.0:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]"


def _causal_upgrades(causal: pl.DataFrame, ctx: ReportContext) -> Section | None:
    ups = causal.filter(pl.col("kind").is_in(list(CAUSAL_KINDS)))
    if not ups.height:
        return None
    by = {(x["kind"], x["subject"]): x for x in ups.iter_rows(named=True)}
    subjects = sorted(set(ups["subject"].to_list()),
                      key=lambda u: -abs((by.get(("upgrade", u)) or by.get(("restricted", u)) or {"shift": 0})["shift"]))
    kinds = {k: v for k, v in CAUSAL_KINDS.items() if k in set(ups["kind"].to_list())}
    rows = []
    for u in subjects:
        row = [_ident(u)]
        for k in kinds:
            x = by.get((k, u))
            row += [_shift(x), _n(x["games"]) if x else "–"]
        rows.append(row)
    cols = ["upgrade"]
    for k in kinds:
        cols += [f"Angela's win rate when {CAUSAL_KINDS[k]}, shift in points [95%]", "paired games"]
    return Section("Upgrades: what each is worth (causal)", [
        Para(f"Each upgrade's effect on the balance, {_levers_source(ctx)}: Angela's win rate when the upgrade is "
             "removed from the deck, and when it stays in the deck but nobody chooses it while another upgrade is "
             "offered (restricted play: the same strategies otherwise), minus her rate under these rules. A "
             "positive shift means the upgrade helps Jessah: without it Angela wins more. These are causes, unlike "
             "the association below."),
        Figure(ctx.figure("upgrades-causal", "rnsim.levers.charts:causal_chart", ups, kinds, 1.0,
                          "Angela's win rate without the upgrade minus with it (points)",
                          f"Upgrades, causal — {ctx.cell_label}"),
               "Angela's win rate without each upgrade minus with it, paired on the game index, with its 95% "
               "interval; longest bar at the top. Blue: removed from the deck; orange: never chosen."),
        Table(cols, rows, "Paired shifts of Angela's win rate (points, 95% interval), largest first. Table: "
              "levers/tables/levers.csv.", numeric=[False] + [True] * (len(cols) - 1)),
    ], f"{ctx.cell_slug}-upgrades-causal")


def _causal_identities(causal: pl.DataFrame) -> list[Block]:
    ids = causal.filter(pl.col("kind") == "identity").sort("shift")
    if not ids.height:
        return []
    return [Table(
        ["identity", "its power's value to Angela, points [95%]", "paired games"],
        [[_ident(x["subject"]), _shift(x, -1.0), _n(x["games"])] for x in ids.iter_rows(named=True)],
        "Causal: Angela's win rate with the identity as printed minus with it played as the plain identity (an "
        "escape of up to 2 movements, no power), paired on the game index (rnsim levers). Below: the games she "
        "was dealt it in, an association.", numeric=[False, True, True])]


def report_sections(t: dict[str, pl.DataFrame], ctx: ReportContext) -> list[Section]:
    r = ctx.cell
    assert r is not None
    label = ctx.cell_label
    overall = r["angela_rate"]
    out: list[Section] = []

    pairs = ctx.in_cell(t["identity_pairs"])
    if pairs.height:
        two = bool((pairs["n_identities"] == 2).all())
        what = "pair" if two else "set"
        blocks: list[Block] = []
        if two and pairs.height > 1:
            blocks.append(Figure(
                ctx.figure("pairs", f"{F}:pair_heatmap", pairs, overall, f"Angela's win rate by identity pair\n{label}"),
                f"Angela's win rate for each pair of identities, each pair once, with its 95% interval and the number "
                f"of games. White is the overall rate ({_pct(overall)}); red pairs favour Angela, blue ones Jessah, "
                f"the colour range set by the data. A black frame marks a flagged pair: it differs from the rest of "
                f"the cell after Holm's correction across the {pairs.height} pairs."))
        tested = int(pairs["p_value"].is_not_null().sum())
        blocks.append(Para(chance_words(tested, f"identity {what}s")))
        blocks.append(Table(
            ["rank", f"identity {what}", "games", "Angela wins", "Jessah wins", "timeouts", "errors", "p", "p (Holm)",
             "flag"],
            [[str(p["rank"]), _ident(p["identity_pair"]), _n(p["games"]), _ci(p, "forger_rate", "angela_wins"),
              _ci(p, "agent_rate", "jessah_wins"), _n(p["timeouts"]), _n(p["errors"]), p_text(p["p_value"]),
              p_text(p["p_holm"]),
              ("⚑ above the rest" if (p["forger_rate"] or 0) > (p["overall_forger_rate"] or 0) else "⚑ below the rest")
              if p["differs"] else ""]
             for p in pairs.iter_rows(named=True)],
            f"Best to worst {what} for Angela; overall {_pct(overall)}. p: the {what} against the cell's other "
            f"{what}s (two-proportion test); p (Holm): corrected across the {tested}. ⚑ = p (Holm) under 5%.",
            numeric=[True, False, True, True, True, True, True, True, True, False]))
        out.append(Section(f"Identity {what}s", blocks, f"{ctx.cell_slug}-pairs"))

    causal = _causal(ctx)
    ids = ctx.in_cell(t["identities"])
    if ids.height:
        out.append(Section("Identities", [
            *(_causal_identities(causal) if causal is not None else []),
            Figure(ctx.figure("identities", f"{F}:identities_chart", ids, overall, f"Identities — {label}"),
                   f"Left: Angela's win rate over the games she was dealt the identity in (dashed: overall "
                   f"{_pct(overall)}; dotted: an even game). Right: how often it was the first identity she burnt. "
                   f"Bars: 95% intervals."),
            Table(["identity", "games dealt", "Angela wins", "burnt first", "burnt first share"],
                  [[_ident(i["identity"]), _n(i["games"]), _ci(i, "forger_rate", "angela_wins"), _n(i["burnt_first"]),
                    _ci(i, "burnt_first_share", "burnt_first")] for i in ids.iter_rows(named=True)],
                  "A game counts once for each identity Angela was dealt.",
                  numeric=[False, True, True, True, True])], f"{ctx.cell_slug}-identities"))

    ups = ctx.in_cell(t["upgrades"])
    lead = _causal_upgrades(causal, ctx) if causal is not None else None
    if lead is not None:
        out.append(lead)
    if ups.height and "effect" in ups.columns:
        ups = ups.sort(pl.col("effect").abs(), descending=True, nulls_last=True)
        rounds = ctx.in_cell(t["upgrade_rounds"])
        out.append(Section("Upgrades: an association, not a cause", [
            Para(("The causal values are above; this table is an association. " if lead is not None else
                  "Run rnsim levers CONFIG --restricted --for-run RUN for each upgrade's causal value. ")
                 + "Jessah gains an upgrade each time a $200,000 check is cashed, by either side, and the side that "
                 "cashed it picks one of the two on offer: upgrades come with cashing, mostly Angela's, i.e. when "
                 "Angela is ahead (and Angela picks the one that hurts her least). So these differences describe the "
                 "games in which an upgrade came up, not what the upgrade does: a negative difference is expected "
                 "even for a useful upgrade."),
            Figure(ctx.figure("upgrades", f"{F}:upgrades_chart", ups, rounds, f"Upgrades — {label}"),
                   "Left: Jessah's win rate in games where she gained the upgrade minus in games where she did not, "
                   "with its 95% interval (Newcombe). Right: the rounds she gained it in (share of its gains per "
                   "round)."),
            Table(["upgrade", "gained", "gained in", "Jessah wins with it", "Jessah wins without it",
                   "difference, points [95%]", "rounds gained (10th–90th pct)", "mean round"],
                  [[_ident(u["upgrade"]), _n(u["gained"]), _ci(u, "gained_rate", "gained"),
                    _ci(u, "agent_rate_with", "agent_wins_with", "gained"),
                    _ci(u, "agent_rate_without", "agent_wins_without", "games_without"), _pts(u, "effect"),
                    "–" if u["p10_round"] is None else f"{u['p10_round']:.0f}–{u['p90_round']:.0f}",
                    _n(u["mean_round"])] for u in ups.iter_rows(named=True)],
                  "An association: sorted by the size of the difference. Played games only. Difference interval: "
                  "Newcombe's hybrid score interval for a difference of two proportions.",
                  numeric=[False, True, True, True, True, True, True, True])], f"{ctx.cell_slug}-upgrades"))

    flow = ctx.in_cell(t["flow_by_round"])
    if flow.height:
        least = min(FLOW_MIN_GAMES, max(10, r["games"] // 10))
        kept = flow.filter(pl.col("games_in_play") >= least)
        last = f"up to round {int(kept['round'].max())}" if kept.height else "no round"  # type: ignore[arg-type]
        out.append(Section("Cash and captures by round", [Figure(
            ctx.figure("flow", f"{F}:flow_chart", flow, least, f"Cash and captures by round — {label}"),
            f"Mean cumulative cash of each side and mean captures at the end of each round, over the games still in "
            f"play then (grey: how many), with 95% interval bands for the means; {last}, where at least "
            f"{least:,} games were still in play. Late rounds describe long games only.")],
            f"{ctx.cell_slug}-flow"))

    from rnsim.games.red_notice.report_hiding import section as hiding_section

    hiding = hiding_section(ctx)  # replays a sample of the cell's games (report_hiding.py)
    if hiding is not None:
        out.append(hiding)
    return out


def findings(t: dict[str, pl.DataFrame], ctx: ReportContext) -> list[str]:
    r = ctx.cell
    assert r is not None
    out: list[str] = []
    overall = r["angela_rate"]
    pairs = ctx.in_cell(t["identity_pairs"]).filter(pl.col("games") > 0)
    if pairs.height:
        what = "pair" if bool((pairs["n_identities"] == 2).all()) else "set"
        best, worst = pairs.row(0, named=True), pairs.row(pairs.height - 1, named=True)
        out.append(f"the most favourable identities for Angela are {_ident(best['identity_pair'])} "
                   f"({_ci(best, 'forger_rate', 'angela_wins')}, {best['games']:,} games); the least favourable "
                   f"{_ident(worst['identity_pair'])} ({_ci(worst, 'forger_rate', 'angela_wins')}, {worst['games']:,} games); "
                   f"overall {_pct(overall)}.")
        out += _pair_flags(pairs, what, overall)
        wide = pairs.filter((pl.col("forger_rate_hi") - pl.col("forger_rate_lo")) > WIDE_INTERVAL)
        if wide.height:
            few = f"too few games for a useful interval (95% interval wider than {100 * WIDE_INTERVAL:.0f} points)"
            if wide.height == pairs.height:
                out.append(f"{few} in every identity {what} ({int(pairs['games'].min()):,} to "  # type: ignore[arg-type]
                           f"{int(pairs['games'].max()):,} games each): play more games per cell.")  # type: ignore[arg-type]
            else:
                out.append(f"{few} in {wide.height} {what}(s): " + _some(
                    [f"{_ident(x)} ({n:,} games)" for x, n in zip(wide["identity_pair"], wide["games"], strict=True)])
                    + ".")
    causal = _causal(ctx)
    out += _causal_findings(causal) if causal is not None else []
    ups = ctx.in_cell(t["upgrades"])
    if ups.height and "effect" in ups.columns and (causal is None or not causal.filter(
            pl.col("kind").is_in(list(CAUSAL_KINDS))).height):
        ups = ups.filter(pl.col("effect").is_not_null() & pl.col("effect").is_not_nan())
        if ups.height:
            big = ups.sort(pl.col("effect").abs(), descending=True).row(0, named=True)
            out.append(f"the upgrade with the biggest difference is {_ident(big['upgrade'])}: Jessah wins "
                       f"{_ci(big, 'agent_rate_with', 'agent_wins_with', 'gained')} of the {big['gained']:,} games where she "
                       f"gained it versus "
                       f"{_ci(big, 'agent_rate_without', 'agent_wins_without', 'games_without')} of the "
                       f"{big['games_without']:,} where she did not "
                       f"({_pts(big, 'effect')} points; an association, not a cause).")
    ids = ctx.in_cell(t["identities"]).filter(pl.col("games") > 0)
    if ids.height and ids["burnt_first"].sum():
        burnt = ids.sort("burnt_first_share", descending=True, nulls_last=True).row(0, named=True)
        out.append(f"{_ident(burnt['identity'])} is the identity most often burnt first "
                   f"({share_text(burnt['burnt_first'], burnt['games'])} of the games it was dealt in).")
    return out


def _pair_flags(pairs: pl.DataFrame, what: str, overall: float | None) -> list[str]:
    """The flagged identity sets (their difference from the rest of the cell
    survives Holm's correction), and those whose raw p alone is under 5%."""
    tested = int(pairs["p_value"].is_not_null().sum())
    chance = f"with {tested} {what}s tested at 5%, chance alone would flag about {tested * 0.05:.2g}"
    flagged = pairs.filter(pl.col("differs"))
    raw = pairs.filter(~pl.col("differs") & (pl.col("p_value") < 0.05))
    out = []
    if flagged.height:
        verb = "differs" if flagged.height == 1 else "differ"
        out.append(f"{flagged.height} of {tested} identity {what}s {verb} from the rest of the cell after Holm's "
                   f"correction ({chance}): " + _some([
                       f"{_ident(x['identity_pair'])} ({_pct(x['forger_rate'])}, {p_is(x['p_value'])}, Holm "
                       f"{p_text(x['p_holm'])})" for x in flagged.iter_rows(named=True)]) + ".")
    else:
        out.append(f"no identity {what} differs from the rest of the cell after Holm's correction ({chance}); "
                   f"overall {_pct(overall)}.")
    if raw.height:
        has = "has" if raw.height == 1 else "have"
        out.append(f"{raw.height} more {what}(s) {has} a raw p under 5% but not after the correction, as chance "
                   f"alone would give: " + _some([f"{_ident(x['identity_pair'])} ({p_is(x['p_value'])})"
                                                  for x in raw.iter_rows(named=True)]) + ".")
    return out


def _causal_findings(causal: pl.DataFrame) -> list[str]:
    """What stands out in the causal values: the upgrade and the identity
    power that move the balance most, and the ones that do not clearly move
    it at all."""
    out: list[str] = []
    for kind, what in (("upgrade", "removing"), ("restricted", "never choosing")):
        part = causal.filter(pl.col("kind") == kind)
        if not part.height:
            continue
        big = part.sort(pl.col("shift").abs(), descending=True).row(0, named=True)
        clear = big["shift_lo"] > 0 or big["shift_hi"] < 0
        out.append(f"the upgrade that moves the balance most is {_ident(big['subject'])}: {what} it changes Angela's "
                   f"win rate by {_shift(big)} points ({big['games']:,} paired games; causal"
                   f"{'' if clear else ', but its interval contains 0'}).")
        null = part.filter((pl.col("shift_lo") <= 0) & (pl.col("shift_hi") >= 0))
        if null.height and kind == "upgrade":
            out.append(f"{null.height} of {part.height} upgrades are not shown to move the balance when removed "
                       f"(interval contains 0): " + _some([_ident(x) for x in null["subject"].to_list()]) + ".")
    ids = causal.filter(pl.col("kind") == "identity")
    if ids.height:
        big = ids.sort(pl.col("shift").abs(), descending=True).row(0, named=True)
        clear = big["shift_lo"] > 0 or big["shift_hi"] < 0
        out.append(f"the identity power that moves the balance most is {_ident(big['subject'])}'s: Angela's win rate "
                   f"with it minus with the plain identity is {_shift(big, -1.0)} points ({big['games']:,} paired "
                   f"games; causal{'' if clear else ', but its interval contains 0'}).")
    return out


def verdict(ctx: ReportContext) -> str | None:
    """The core's sentence, with Red Notice's games without a winner called timeouts."""
    from rnsim.report.render import verdict as core

    assert ctx.cell is not None
    return core(ctx.cell, ctx.seats, ctx.several_variants).replace("have no winner", "are timeouts")
