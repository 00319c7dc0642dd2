"""How well hidden is Angela? A report section.

From the weighted public belief (engine/weighted.py), the section shows

- the entropy of Jessah's belief over Angela's city by round, in bits
  (0: pinned down; log2 of the number of cities: anywhere), with a 95%
  interval band for the mean and the 10th–90th percentile band;
- the information each kind of public event gives away: the mean drop of
  that entropy over the events of that kind, with a 95% interval. A
  movement spreads the belief (negative bits), so movements are split by
  whether the radars announced anything: the difference is what the
  announcement gave away.

The belief is the one a careful agent keeps from her own views only
(``weighted.Tracker``): Angela walks uniformly among her options, and a white
radar removed with no announcement makes her ``LEAK`` times as likely on
that continent or next to it: 1, since the expert forger spends her
security at once on a radar drawn at random (a forger who clears the radar
on her way leaks about 10 times as much). With a forger whose
removals do point at her, the security-spend row understates what they
give away. The numbers come from a sample of games replayed with the cell's
rules and strategies (``HIDING_GAMES`` per cell, master seed of the run),
not from the run's result tables, which keep no belief.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import polars as pl

from rnsim.games.red_notice.engine import weighted
from rnsim.games.red_notice.engine.decision import JESSAH
from rnsim.games.red_notice.engine.view import build_view

#: games replayed per report cell (a search player's games are far slower: fewer)
HIDING_GAMES = 120
SLOW_GAMES = 12
#: the likelihood ratio of a radar removal (engine/weighted.py; the expert
#: forger's removals are drawn at random: 1, they say nothing)
LEAK = 1.0
Z95 = 1.959963984540054


def removal_words(leak: float) -> str:
    """What the belief assumes a white radar removed with no announcement
    says about Angela, in words: nothing at a likelihood ratio of 1 (the
    expert forger's habit), else how much likelier it makes her near it."""
    if leak == 1.0:
        return ("a white radar removed with no announcement says nothing of where she is (the expert forger "
                "removes one drawn at random)")
    return (f"a white radar removed with no announcement makes her {leak:g} times as likely on that continent or "
            "next to it")


#: event kinds, most telling first: a window of play holding several is
#: counted under the first (e.g. a capture ends a movement)
KINDS = (
    "capture",
    "cash by Angela",
    "informant or satellite sweep",
    "movement with a radar announcement",
    "failed inspection",
    "security spend (radar removed)",
    "security spend (barrier removed)",
    "movement without announcement",
)


_AT_ONCE = ("capture", "security_spent", "cash")


def information_bits(before: Sequence[float], after: Sequence[float]) -> float:
    """The information an event gave away: the drop in the belief's entropy, in bits."""
    return weighted.entropy_bits(before) - weighted.entropy_bits(after)


def classify(events: Sequence[dict[str, Any]]) -> str | None:
    """The kind of a window of public events (log entries), or None when it
    holds none of :data:`KINDS`."""
    found = set()
    for e in events:
        t = e.get("t")
        if t == "capture":
            found.add(KINDS[0])
        elif t == "cash" and e.get("seat") == "angela":
            found.add(KINDS[1])
        elif t in ("informant", "satellite_sweep"):
            found.add(KINDS[2])
        elif t == "announce":
            found.add(KINDS[3] if e.get("triggers") else KINDS[7])
        elif t == "inspect" and not e.get("found"):
            found.add(KINDS[4])
        elif t == "security_spent":
            found.add(KINDS[5] if e.get("removed") == "radar" else KINDS[6])
    for k in KINDS:
        if k in found:
            return k
    return None


def trace_game(state: Any, strategies: Sequence[Any], leak: float = LEAK) -> tuple[list[float], list[tuple[str, float]]]:
    """Play ``state`` (made with ``log=True``) to its end and follow Jessah's
    weighted belief from her views: the entropy at the end of each round
    (index 0 = round 1) and (kind, bits) for each window of public events.

    The belief is observed after every decision except inside one of
    Angela's movements (her steps are hidden; the movement is one window,
    less a capture, security spend or cash in it, observed when it happens)."""
    if state.log is None:
        raise ValueError("trace_game: the state must keep its event log (new_state(..., log=True))")
    tracker = weighted.Tracker(leak=leak)
    w = tracker.observe(build_view(state, JESSAH)) if state.angela_city >= 0 else None
    seen = len(state.log)
    by_round: list[float] = []
    events: list[tuple[str, float]] = []
    while not state.over:
        d = state.pending
        state.apply(strategies[d.seat].choose(build_view(state, d.seat), d))
        nxt = state.pending
        if state.angela_city < 0:
            continue
        window = state.log[seen:]
        # Inside a movement the public belief stands still until it ends;
        # only a capture, a security spend or a cash (before a bonus move) is observed at once, so
        # it is not mixed up with the movement.
        if nxt is not None and nxt.kind == "angela_move" and not any(e["t"] in _AT_ONCE for e in window):
            continue
        seen = len(state.log)
        if state.over:
            break
        new = tracker.observe(build_view(state, JESSAH))
        if w is not None:
            kind = classify(window)
            if kind is not None:
                events.append((kind, information_bits(w, new)))
        w = new
        h = weighted.entropy_bits(new)
        while len(by_round) < state.round - 1:
            by_round.append(by_round[-1] if by_round else h)
        if len(by_round) == state.round - 1:
            by_round.append(h)
        else:
            by_round[state.round - 1] = h
    return by_round, events


def measure(game: Any, rules: Any, strategies: Sequence[Any], master_seed: int, games: int,
            leak: float = LEAK) -> tuple[pl.DataFrame, pl.DataFrame]:
    """Replay games ``0..games-1`` (setups drawn from the chance stream) and
    return the entropy by round and the bits by event kind, with intervals.
    A game in which a strategy raises or answers illegally is left out (the
    run counts it as an error game; the report's errors section names it)."""
    from rnsim.seeding import game_seeds

    rounds: list[list[float]] = []
    bits: dict[str, list[float]] = {}
    for i in range(games):
        seeds = game_seeds(master_seed, i, len(strategies))
        for seat, (s, x) in enumerate(zip(strategies, seeds.seats, strict=True)):
            s.new_game(seat, random.Random(x))
        state = game.new_state(rules, random.Random(seeds.chance), seed=seeds.chance, log=True)
        try:
            r, ev = trace_game(state, strategies, leak)
        except Exception:  # noqa: BLE001 - any strategy failure ends that game's replay, as it ended the game
            continue
        rounds.append(r)
        for k, b in ev:
            bits.setdefault(k, []).append(b)
    by_round = []
    for j in range(max((len(r) for r in rounds), default=0)):
        xs = np.array([r[j] for r in rounds if len(r) > j])
        m, h = _mean_ci(xs)
        by_round.append({"round": j + 1, "games": len(xs), "mean_bits": m, "lo": m - h, "hi": m + h,
                         "p10": float(np.percentile(xs, 10)), "p90": float(np.percentile(xs, 90))})
    by_kind = []
    for k in KINDS:
        xs = np.array(bits.get(k, []))
        if len(xs):
            m, h = _mean_ci(xs)
            by_kind.append({"kind": k, "events": len(xs), "per_game": len(xs) / len(rounds), "mean_bits": m,
                            "lo": m - h, "hi": m + h})
    schema_r = {"round": pl.Int64, "games": pl.Int64, "mean_bits": pl.Float64, "lo": pl.Float64,
                "hi": pl.Float64, "p10": pl.Float64, "p90": pl.Float64}
    schema_k = {"kind": pl.Utf8, "events": pl.Int64, "per_game": pl.Float64, "mean_bits": pl.Float64,
                "lo": pl.Float64, "hi": pl.Float64}
    return pl.DataFrame(by_round, schema=schema_r), pl.DataFrame(by_kind, schema=schema_k)


def _games(n: int) -> str:
    return f"{n:,} game" if n == 1 else f"{n:,} games"


def _mean_ci(xs: np.ndarray) -> tuple[float, float]:
    m = float(xs.mean())
    h = Z95 * float(xs.std(ddof=1)) / math.sqrt(len(xs)) if len(xs) > 1 else float("nan")
    return m, h


def entropy_chart(by_round: pl.DataFrame, max_bits: float, title: str) -> Any:
    """Entropy of Jessah's belief by round: mean, 95% band of the mean, 10th–90th percentile band;
    rounds with fewer than a tenth of the games (at least 3) still in play are left out."""
    import matplotlib.pyplot as plt

    least = max(3, int(by_round["games"].to_numpy().max(initial=0)) // 10)
    kept = by_round.filter(pl.col("games") >= least)
    by_round = kept if kept.height else by_round
    by_round = by_round.with_columns(pl.col("lo").clip(0.0, max_bits), pl.col("hi").clip(0.0, max_bits))
    fig, ax = plt.subplots(figsize=(6.4, 3.4))
    r = by_round["round"].to_numpy()
    ax.fill_between(r, by_round["p10"].to_numpy(), by_round["p90"].to_numpy(), color="C0", alpha=0.12,
                    linewidth=0, label="10th–90th percentile of games")
    ax.fill_between(r, by_round["lo"].to_numpy(), by_round["hi"].to_numpy(), color="C0", alpha=0.35,
                    linewidth=0, label="95% interval of the mean")
    ax.plot(r, by_round["mean_bits"].to_numpy(), color="C0", label="mean")
    ax.axhline(max_bits, color="0.5", linestyle=":", linewidth=1, label="anywhere on the map")
    ax.set_xlabel("round (end of)")
    ax.set_ylabel("entropy of Jessah's belief (bits)")
    ax.set_ylim(bottom=0)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7, loc="lower left")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig


def _cell_setup(ctx: Any) -> tuple[Any, Any, list[Any], int, int] | None:
    """The cell's game, rules, fresh strategies, master seed and sample size, from the manifest."""
    from rnsim.errors import RnsimError
    from rnsim.provenance import config_from_manifest
    from rnsim.strategy import load_strategy

    try:
        cfg = config_from_manifest(ctx.manifest, ctx.run_dir)
    except RnsimError:
        return None
    r = ctx.cell
    variant = next((v for v in cfg.variants if v.name == r.get("variant")), None)
    if variant is None:
        return None
    strats = []
    slow = False
    for seat, specs in cfg.strategies.items():
        spec = next((s for s in specs if s.label == r.get(f"{seat}_strategy")), None)
        if spec is None:
            return None
        strats.append(load_strategy(spec.ref, spec.params, cfg.game_obj))
        slow = slow or type(strats[-1]).__name__ == "Search"
    # never more games than the run played per cell (a quick run stays quick)
    return cfg.game_obj, variant.rules, strats, cfg.seed, min(cfg.games, SLOW_GAMES if slow else HIDING_GAMES)


def section(ctx: Any) -> Any:
    """The "How well hidden is Angela?" section of the current cell, or None
    when the run cannot be replayed (e.g. its components changed since)."""
    from rnsim.report.sections import Figure, Para, Section, Table

    setup = _cell_setup(ctx)
    if setup is None:
        return None
    game, rules, strats, seed, n = setup
    by_round, by_kind = measure(game, rules, strats, seed, n)
    if not by_round.height:
        return None
    n_cities = game.components(rules).n_cities
    top = math.log2(n_cities)

    def bits(x: float) -> str:
        return "–" if x is None or math.isnan(x) else f"{x:+.2f}"

    return Section("How well hidden is Angela?", [
        Para(f"The entropy of Jessah's belief about Angela's city, from public facts only: 0 bits when she is pinned "
             f"down, {top:.1f} bits when she could be anywhere ({n_cities} cities); each bit halves where she can "
             f"be. The belief assumes Angela walks at random among her options and that {removal_words(LEAK)}. "
             f"Measured on {_games(int(by_round['games'][0]))} replayed with this cell's rules and strategies."),
        Figure(ctx.figure("hiding", "rnsim.games.red_notice.report_hiding:entropy_chart", by_round, top,
                          f"How well hidden is Angela — {ctx.cell_label}"),
               "Entropy of Jessah's belief at the end of each round, over the games still in play: the mean with "
               "its 95% interval band, and the 10th–90th percentile of games; rounds that fewer than a tenth of "
               "the games reach are left out."),
        Table(["public event", "per game", "bits given away, mean [95%]"],
              [[k["kind"], f"{k['per_game']:.1f}", f"{bits(k['mean_bits'])} [{bits(k['lo'])}, {bits(k['hi'])}]"]
               for k in by_kind.iter_rows(named=True)],
              "Bits given away: the drop in entropy over one event (negative: the belief spread). A movement "
              "spreads the belief; comparing movements with and without a radar announcement shows what the "
              "announcement gives away.",
              numeric=[False, True, True]),
    ], f"{ctx.cell_slug}-hiding")
