"""The band in the report: the headline's sentences and the section.

The headline says, per variant, who is favoured at every strength tried and
how far the players move the watched win rate, beside the sampling interval;
and says plainly when the verdict is not stable: who is favoured changes
across the players tried, or the players move the rate by as much as its
distance from an even game (a ladder level's move either way; in a two-seat
game, a probe's unless it plays its own seat measurably worse than its base,
which the headline names with its move). A run without a band says that its interval is
sampling error only, with the players given.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from rnsim.band.plan import MAIN
from rnsim.report.sections import Block, Heading, Para, Table, Verdict, pct, rate_ci, seat_label


def _pts(x: float | None, signed: bool = True) -> str:
    if x is None:
        return "–"
    return f"{100 * x:+.1f}" if signed else f"{100 * x:.1f}"


def _ci(r: dict[str, Any], key: str) -> str:
    """"+2.5 [+0.8, +4.2]" points, or "–" without pairs."""
    if r.get(key) is None:
        return "–"
    return f"{_pts(r[key])} [{_pts(r[key + '_lo'])}, {_pts(r[key + '_hi'])}]"


def _advantage(r: dict[str, Any]) -> str:
    """The watched player's rate minus an even share, with its interval."""
    if r["rate"] is None or r["rate_lo"] is None:
        return "–"
    e = r["even"]
    return f"{_pts(r['rate'] - e)} [{_pts(r['rate_lo'] - e)}, {_pts(r['rate_hi'] - e)}]"


def _side(r: dict[str, Any]) -> int:
    """+1: seat 0 (or the watched player) favoured, -1: at a disadvantage, 0: not measurably either."""
    if r["rate_lo"] is None:
        return 0
    return 1 if r["rate_lo"] > r["even"] else -1 if r["rate_hi"] < r["even"] else 0


def who_text(side: int, seats: Sequence[str], watched: str) -> str:
    if watched:
        return {1: f"{watched} is favoured", -1: f"{watched} is at a disadvantage"}.get(side, "nobody is favoured")
    if side == 1:
        return f"{seat_label(seats[0])} is favoured"
    if side == -1:
        return f"{seat_label(seats[1])} is favoured" if len(seats) == 2 else f"{seat_label(seats[0])} is at a disadvantage"
    return "no side is measurably favoured"


def players_text(r: dict[str, Any], seats: Sequence[str]) -> str:
    """A lineup in words: "the expert pair", "search as Angela (expert Jessah)"."""
    labels = str(r["players"]).split(" vs ")
    if len(set(labels)) == 1:
        return f"{labels[0]} players" if len(labels) > 2 else f"the {labels[0]} pair"
    if r["kind"] == "level" and r["seat"]:
        others = ", ".join(f"{lab} {seat_label(s)}" for s, lab in zip(seats, labels, strict=False) if s != r["seat"])
        return f"{r['level']} as {seat_label(r['seat'])} ({others})"
    return " vs ".join(f"{lab} ({seat_label(s)})" for s, lab in zip(seats, labels, strict=False))


def _strongest(probes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The probe that gains its seat most (its estimate)."""
    scored = [p for p in probes if p["gain"] is not None]
    return max(scored, key=lambda p: p["gain"]) if scored else None


def _probe_clause(probes: list[dict[str, Any]]) -> str:
    best = _strongest(probes)
    if best is None:
        return ""
    if best["gain"] <= 0:
        return f"; no built-in probe of the {len(probes)} tried gains its seat anything (the best: {best['lineup']}, {_ci(best, 'gain')} points)"
    return (f"; the strongest of the {len(probes)} built-in probes tried, {best['lineup']} "
            f"({seat_label(best['seat'])}, built on {best['base']}), moves it {_pts(best['gain'], False)} points "
            f"[{_pts(best['gain_lo'])}, {_pts(best['gain_hi'])}] in its seat's favour")


def _weaker(probes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The probes that play their own seat measurably worse than their base
    (the gain's whole interval below zero): weaker players, not exploits."""
    return [r for r in probes if r["gain_hi"] is not None and r["gain_hi"] < 0]


def _moved(r: dict[str, Any]) -> bool:
    return r["diff"] is not None and (r["diff_lo"] > 0 or r["diff_hi"] < 0)


def _judge(main: dict[str, Any], levels: list[dict[str, Any]], probes: list[dict[str, Any]], drop_weaker: bool = False
           ) -> tuple[dict[str, Any] | None, list[dict[str, Any]], float, float]:
    """(the first lineup whose verdict differs from the main pair's: another
    side favoured, or one where the main pair has none; the lineups where no
    side is measurably favoured while the main pair has one; the players'
    widest measured move of the rate, in rate units: a paired difference from
    the main pair (or a probe's from its base) whose interval excludes no
    change, so a small band's noise is not called a move; the main rate's
    distance from an even game). With ``drop_weaker`` (a two-seat game, where
    a probe's gain is its move of the watched rate), a probe that plays its
    own seat measurably worse than its base is a weaker player, not an
    exploit: the headline names its move (``_weaker_clause``) but it does
    not count here."""
    s0 = _side(main)
    changed = next((r for r in levels if _side(r) and _side(r) != s0), None)
    lost = [r for r in levels if s0 and not _side(r)]
    weaker = _weaker(probes) if drop_weaker else []
    moves = [abs(r["diff"]) for r in [*levels, *probes] if _moved(r) and r not in weaker]
    return changed, lost, max(moves, default=0.0), abs(main["rate"] - main["even"])


def _weaker_clause(main: dict[str, Any], probes: list[dict[str, Any]]) -> str:
    """The weaker probes whose move would otherwise reach the main rate's
    distance from an even game, named with their moves."""
    distance = abs(main["rate"] - main["even"])
    big = [r for r in _weaker(probes) if _moved(r) and abs(r["diff"]) >= distance]
    if not big:
        return ""
    named = ", ".join(f"{r['lineup']} ({seat_label(r['seat'])}, {_ci(r, 'gain')} points for its seat) moves it "
                      f"{_pts(r['diff'])} points" for r in big)
    return (f"; {named}: a probe playing its own seat worse than its base is a weaker player, not an exploit, "
            "so its move is not counted against the verdict")


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def _stability(main: dict[str, Any], levels: list[dict[str, Any]], probes: list[dict[str, Any]],
               seats: Sequence[str], watched: str) -> tuple[str, str]:
    """(the opening words, why it is not stable or "")."""
    changed, lost, spread, distance = _judge(main, levels, probes, drop_weaker=True)
    who = who_text(_side(main), seats, watched)
    subject = f"{watched}'s win rate" if watched else f"{seat_label(seats[0])}'s win rate"
    unstable = "The verdict is NOT stable across the players tried"
    if changed is not None:
        return unstable, (f"{who} with {players_text(main, seats)} but {who_text(_side(changed), seats, watched)} "
                          f"with {players_text(changed, seats)}")
    if spread >= distance and (levels or probes):
        return unstable, (f"the players move {subject} by up to {_pts(spread, False)} points, as much as its "
                          f"distance from an even game ({_pts(distance, False)} points)")
    if lost:
        return (f"{_upper(who)} with {players_text(main, seats)}; with "
                + ", ".join(players_text(r, seats) for r in lost) + " no side is measurably favoured", "")
    return f"{_upper(who)} at every strength tried", ""


def _setup_clause(setup: str, rows: list[dict[str, Any]], seats: Sequence[str], watched: str) -> tuple[str, bool]:
    """One player count of a game whose seats rotate: the rates by level, and
    whether the verdict holds across them (and across the probes' moves of
    the watched rate, a paired difference whose interval excludes none)."""
    main = next(r for r in rows if r["kind"] == "main")
    levels = [r for r in rows if r["kind"] == "level"]
    probes = [r for r in rows if r["kind"] == "probe"]
    changed, _, spread, distance = _judge(main, levels, probes)
    rates = ", ".join(f"{rate_ci(r, 'rate')} with {players_text(r, seats)}" for r in [main, *levels])
    if changed is not None:
        why = f"{who_text(_side(main), seats, watched)} with {players_text(main, seats)}, " \
              f"{who_text(_side(changed), seats, watched)} with {players_text(changed, seats)}"
    elif spread >= distance and (levels or probes):
        mover = "the level" if not probes else "the players (levels and probes)"
        why = f"{mover} move{'s' if not probes else ''} it {_pts(spread, False)} points, its distance from an " \
              f"even game is {_pts(distance, False)}"
    else:
        why = ""
    return f"{setup} players {rates}" + (f" (NOT stable: {why})" if why else " (the same verdict)"), bool(why)


def _per_setup(variant: str, t: pl.DataFrame, seats: Sequence[str], watched: str, several: bool) -> Verdict:
    clauses = [_setup_clause(str(setup), list(part.iter_rows(named=True)), seats, watched)
               for (setup,), part in t.group_by(["setup"], maintain_order=True)]
    bad = sum(b for _, b in clauses)
    pre = f"Variant {variant}: " if several else ""
    state = (f"the verdict is NOT stable at {bad} of the {len(clauses)} setups" if bad else
             "the verdict is the same at every level tried")
    subject = watched or seat_label(seats[0])
    return Verdict(f"{pre}{subject if pre else _upper(subject)}'s win rate by the players' level: "
                   + "; ".join(c for c, _ in clauses) + f": {state}{_seat_probe_clause(t)}.")


def _seat_probe_clause(t: pl.DataFrame) -> str:
    """A game whose seats rotate: the probe that gains its own seat most, at
    which setup, against the main players (a share of the games won)."""
    probes = [r for r in t.iter_rows(named=True) if r["kind"] == "probe"]
    best = _strongest(probes)
    if best is None:
        return ""
    names = len({r["lineup"] for r in probes})
    if best["gain"] <= 0:
        return (f"; no built-in probe of the {names} tried gains its seat anything against "
                f"{players_text(t.row(0, named=True), [])} (the best: {best['lineup']}, {_ci(best, 'gain')} points)")
    sure = " (its whole interval above 3 points)" if best["gain_lo"] > 0.03 else ""
    return (f"; the strongest of the {names} built-in probes tried, {best['lineup']} (built on {best['base']}), "
            f"gains its own seat {_pts(best['gain'], False)} points [{_pts(best['gain_lo'])}, "
            f"{_pts(best['gain_hi'])}] of the games won at {best['setup']} players against the main players{sure}")


def band_verdicts(t: pl.DataFrame | None, seats: Sequence[str], watched: str = "",
                  several_variants: bool = False) -> list[Block]:
    """The headline's band sentences: one per variant; ``watched`` names the
    watched player when it is not seat 0 (FBI's "the start player", answered
    per setup in one sentence)."""
    if t is None:
        return [Para("The intervals above are sampling error only, with the players given: they say nothing of "
                     "how the verdict moves with stronger or other players (a [band] table in the run config "
                     "plays the strength band).")]
    out: list[Block] = []
    for (variant,), part in t.group_by(["variant"], maintain_order=True):
        if part["setup"].unique().to_list() != ["all"]:
            out.append(_per_setup(str(variant), part, seats, watched, several_variants))
            continue
        rows = list(part.iter_rows(named=True))
        main = next(r for r in rows if r["kind"] == "main")
        if main["rate"] is None:
            continue
        levels = [r for r in rows if r["kind"] == "level"]
        probes = [r for r in rows if r["kind"] == "probe"]
        opening, why = _stability(main, levels, probes, seats, watched)
        pre = f"Variant {variant}: " if several_variants else ""
        opening = opening[:1].lower() + opening[1:] if pre and opening.startswith("The verdict") else opening
        subject = _upper(watched) if watched else seat_label(seats[0])
        rates = ", ".join(f"{rate_ci(r, 'rate')} with {players_text(r, seats)}" for r in [main, *levels])
        out.append(Verdict(f"{pre}{opening}{': ' + why if why else ''}. {subject} wins {rates}"
                           f"{_probe_clause(probes)}{_weaker_clause(main, probes)}."))
    if out:
        out.append(Para("Each interval is sampling error over its own games; the spread between them is how much the "
                        "verdict depends on the players tried (an association with these players on these rules and "
                        "components, not a bound over every player). See Strength band."))
    return out


def _counting(t: pl.DataFrame) -> str:
    """How a game counts: a table of shares of wins (a float ``wins``, see
    :func:`rnsim.band.analysis.band_table`) counts a shared win as the
    verdict does."""
    if t.schema["wins"] == pl.Float64:
        return ("A shared win counts 1/k of a win for each of the k tied players (F13), as in the verdict and as "
                "the report counts a position's wins; a game nobody won counts for nobody. A rate's Wilson interval "
                "treats each game as won or lost, so for shares of wins it is a little wider than it needs to be; "
                "an interval of a paired difference is normal over the games.")
    return "A game nobody won alone (a timeout, a shared win) counts as a win for nobody."


def band_section(t: pl.DataFrame | None, seats: Sequence[str], watched: str = "") -> list[Block]:
    """The section: the skill matrix and the probe shifts, each with its interval."""
    if t is None:
        return []
    subject = watched or seat_label(seats[0])
    setups = t["setup"].unique().to_list() != ["all"]
    doc: list[Block] = [Heading(2, "Strength band", "band"), Para(
        f"The same rules, master seed and game indices played by other players: each row is {subject}'s win rate "
        f"with its 95% Wilson interval, and its paired difference (the same games, game by game) from the main "
        f"pair, {players_text(t.row(0, named=True), seats)}. The band cells play fewer games than the main cells, "
        "so their intervals are wider. What the numbers depend on: the players listed, the rules and the component "
        "set of this run; a player not tried may move the verdict further. " + _counting(t))]
    levels = t.filter(pl.col("kind") != "probe")
    doc.append(Table(
        ["variant", *(["setup"] if setups else []), "players", "games", f"{subject} wins [95%]",
         *([f"{subject}'s advantage over an even share, points [95%]"] if setups else []),
         "the main pair on the same games", "vs the main pair, points [95%]"],
        [[r["variant"], *([r["setup"]] if setups else []), players_text(r, seats), f"{r['games']:,}",
          rate_ci(r, "rate"), *([_advantage(r)] if setups else []), "–" if r["ref_rate"] is None else pct(r["ref_rate"]),
          "(the main pair)" if r["lineup"] == MAIN else _ci(r, "diff")] for r in levels.iter_rows(named=True)],
        f"Skill matrix: {subject}'s win rate by players" + (
            f" (each level at every seat: {subject}'s advantage at that level)" if setups else "")
        + "; the difference is paired on the games both played.",
        numeric=[False] * (2 + setups) + [True] * (4 + setups)))
    probes = t.filter(pl.col("kind") == "probe")
    if probes.height:
        doc.append(Table(
            ["variant", *(["setup"] if setups else []), "probe", "seat", "base", "games", f"{subject} wins [95%]",
             f"shift of {subject}'s rate vs the base, points [95%]", "gain for its seat, points [95%]"],
            [[r["variant"], *([r["setup"]] if setups else []), r["lineup"], seat_label(r["seat"]), r["base"],
              f"{r['games']:,}", rate_ci(r, "rate"), _ci(r, "diff"), _ci(r, "gain")]
             for r in probes.sort("gain", descending=True, nulls_last=True).iter_rows(named=True)],
            "Probe shifts: each built-in probe (rnsim exploit) against the main pair's other seat, paired with its "
            "base (the strategy it is built on) on the same games; the gain is in the probe's seat's favour"
            + (": its seat's share of the games won (a shared win counts 1/k, F13), probe minus base, game by game."
               if setups else "."),
            numeric=[False] * (4 + setups) + [True] * 4))
    doc.append(Para(f"Band games: {int(t.filter(pl.col('lineup') != MAIN)['games'].sum()):,} "
                    f"(tables/band.csv); an even game gives {subject} {pct(t['even'][0])}."))
    return doc
