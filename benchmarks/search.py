"""Benchmarks of the ``search`` player (strength and cost; not part of the asv
suite, whose runs must stay short). Not unit tests: run them from the
repository root on an idle machine and quote the command next to each number.

    python -m benchmarks.search costs --games 20 --samples 5
        clone and determinize microseconds, expert rollouts per second (CPU)
    python -m benchmarks.search speed --games 20 --budgets 1,2,4,8
        games/s of search vs search per budget (CPU seconds of one core)
    python -m benchmarks.search stakes --first 100 --games 40 --worlds 20 --share 0.3
        where the stakes are: decisions of expert-vs-expert games played out
        on many paired worlds per option; a search rule (--rule-worlds) picks
        on some worlds and is scored on the others (held-out gain per kind);
        --seat jessah --kinds jessah_move,place_token restricts it, --leak 0
        draws Jessah's worlds uniformly (as the first table did)
    python -m benchmarks.search seat --angela search --games 300 --workers 2 --out a.json
        one seat's paired shift: the given pair against expert vs expert on
        the same game indices (cheaper than cells when tuning one seat)
    python -m benchmarks.search compare a.json b.json
        the paired shift between two such runs (b against a, same games)
    python -m benchmarks.search predict --games 100 --seed 7
        how well models of where the forger is predict the expert forger's
        city: the weighted public belief (search's Jessah worlds), the
        uniform set, the expert's set with its leak focus, each with the
        ``avoid`` prior (search's param) at several strengths
    python -m benchmarks.search oracle --games 1000 --seed 1
        what information is worth to Jessah: the expert agent handed
        Angela's true city, or a belief with half its wrong cities struck
    python -m benchmarks.search cells --games 1000 --budget 2 --workers 2
        the ordering cells: search and expert in each seat, against expert
        and against search, on the same game indices (master seed --seed);
        Angela's win rate with 95% Wilson intervals, and each seat's paired
        shift from expert to search with its 95% interval

Build the compiled engine first (scripts/build_native.py): search is about
3x slower on the pure Python source.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from rnsim.analysis.stats import wilson
from rnsim.games.red_notice.engine.determinize import copies_rng, determinize
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.game import GAME
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.play import play_out, run_game
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy


def costs(args: argparse.Namespace) -> None:
    rules = RuleSet()
    comps = rules.load_components()
    a, j = load_strategy("expert"), load_strategy("expert")
    ra, rj = load_strategy("expert"), load_strategy("expert")
    clone_s = det_s = roll_s = 0.0
    n_clone = n_roll = 0
    for g in range(args.games):
        s = game_seeds(args.seed, g)
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(rules, random.Random(s.chance), comps=comps, seed=s.chance)
        copies = copies_rng(args.seed, g)
        k = 0
        while not st.over:
            d = st.pending
            k += 1
            if k % 17 == 0 and n_clone < (g + 1) * args.samples:
                t = time.process_time()
                for _ in range(20):
                    st.clone()
                clone_s += (time.process_time() - t) / 20
                t = time.process_time()
                sample = determinize(st, d.seat, copies)
                det_s += time.process_time() - t
                n_clone += 1
                ra.new_game(0, random.Random(copies.getrandbits(63)))
                rj.new_game(1, random.Random(copies.getrandbits(63)))
                t = time.process_time()
                play_out(GAME, sample, (ra, rj))
                roll_s += time.process_time() - t
                n_roll += 1
            st.apply((a if d.seat == 0 else j).choose(build_view(st, d.seat), d))
    print(f"clone: {1e6 * clone_s / n_clone:.1f} us; determinize: {1e6 * det_s / n_clone:.1f} us; "
          f"expert rollout to the end: {1e3 * roll_s / n_roll:.2f} ms ({n_roll / roll_s:.0f} rollouts/s CPU); "
          f"{n_roll} samples")


def speed(args: argparse.Namespace) -> None:
    rules = GAME.rules()
    for b in (int(x) for x in args.budgets.split(",")):
        a, j = (load_strategy(*_spec(args.angela, b)), load_strategy(*_spec(args.jessah, b)))
        t = time.process_time()
        for g in range(args.games):
            run_game(GAME, rules, [a, j], args.seed, g)
        el = time.process_time() - t
        # an expert in one seat (e.g. --angela expert) has no rollouts
        ra, rj = getattr(a, "rollouts", 0), getattr(j, "rollouts", 0)
        roll = ra + rj
        print(f"budget {b}: {args.games / el:.2f} games/s {args.angela} vs {args.jessah} (one core, CPU time), "
              f"{roll / args.games:.0f} rollouts/game (Angela {ra / args.games:.0f}, "
              f"Jessah {rj / args.games:.0f}), {roll / el:.0f} rollouts/s, "
              f"{(getattr(a, 'searched', 0) + getattr(j, 'searched', 0)) / args.games:.0f} searched decisions/game; "
              f"2,000 games on 2 cores: {2000 / (2 * args.games / el) / 60:.1f} min")
        for seat, p in (("Angela", a), ("Jessah", j)):
            print(f"  {seat}'s rollouts per game by kind: "
                  + ", ".join(f"{k} {v / args.games:.0f}" for k, v in sorted(getattr(p, "spent", {}).items())))


def _spec(name: str, budget: int) -> tuple[str, dict[str, Any]]:
    """``search`` at ``budget``, or a ladder level (``search@iterations=8+leak=0``)."""
    from rnsim.cli.ladder import parse_level

    if name == "search":
        return "search", {"iterations": budget}
    return parse_level(name)


def _play(job: tuple[str, str, int, int, int, int]) -> list[int]:
    """Angela's wins (1), Jessah's (0) or no winner (-1) in games lo..hi-1."""
    forger, agent, budget, seed, lo, hi = job
    rules = GAME.rules()
    fa, pa = _spec(forger, budget)
    fj, pj = _spec(agent, budget)
    strats = [load_strategy(fa, pa), load_strategy(fj, pj)]
    out = []
    for g in range(lo, hi):
        o = run_game(GAME, rules, strats, seed, g)
        out.append(1 if o.winner == "angela" else 0 if o.winner == "jessah" else -1)
    return out


def _paired(x: list[int], y: list[int]) -> tuple[float, float, float]:
    """Mean of y - x (Angela's win, per game) and its 95% normal interval."""
    d = [(b == 1) - (a == 1) for a, b in zip(x, y, strict=True)]
    n = len(d)
    m = sum(d) / n
    sd = math.sqrt(sum((v - m) ** 2 for v in d) / (n - 1)) if n > 1 else 0.0
    h = 1.959964 * sd / math.sqrt(n)
    return m, m - h, m + h


STAKE_KINDS = ("angela_move,jessah_move,bank,check,joker,identity,upgrade,angela_security,place_token,"
               "start,jessah_security,setup_radar")


def _stakes_chunk(job: tuple[int, int, int, float, int, str, str, float, bool]) -> list[dict[str, Any]]:
    from rnsim_strategies.red_notice.search import Search

    lo, hi, n_worlds, share, seed, kind_list, seats, leak, memory = job
    rules = RuleSet()
    comps = rules.load_components()
    kinds = set(kind_list.split(","))
    wanted = {i for i, name in enumerate(("angela", "jessah")) if seats in ("both", name)}
    # Worlds as search draws them: Jessah's from the weighted belief (leak > 0),
    # rollouts from the deciding player's own memory (memory = true).
    players = [Search(iterations=0, leak=leak, memory=memory), Search(iterations=0, leak=leak, memory=memory)]
    rs = random.Random(12345 + lo)
    out = []
    for g in range(lo, hi):
        s = game_seeds(seed, g)
        players[0].new_game(0, random.Random(s.seats[0]))
        players[1].new_game(1, random.Random(s.seats[1]))
        st = GameState.new(rules, random.Random(s.chance), comps=comps, seed=s.chance)
        while not st.over:
            d = st.pending
            v = build_view(st, d.seat)
            pl = players[d.seat]
            pick = pl.choose(v, d)
            # (with iterations 0 the player does not feed its tracker itself)
            weights = pl._tracker.observe(v) if d.seat == 1 and pl._tracker is not None else None
            if d.seat in wanted and d.kind in kinds and 1 < len(d.options) <= 20 and rs.random() < share:
                opts = list(d.options)
                sc: list[list[float]] = [[] for _ in opts]
                for _ in range(n_worlds):
                    world = v.worlds.sample(rs, weights)
                    seeds = (rs.getrandbits(63), rs.getrandbits(63))
                    for k in range(len(opts)):
                        sc[k].append(pl._rollout(world.clone(), opts[k], seeds, d.seat))
                out.append({"g": g, "seat": d.seat, "kind": d.kind, "p": opts.index(pick), "sc": sc})
            st.apply(pick)
    return out


def _rule(sc: list[list[float]], p: int, order: list[int], n: int, margin: float) -> tuple[int, int]:
    """Search's rule (search.py) on the worlds ``order[:n]``: (choice, rollouts)."""
    alive = list(range(len(sc)))
    used = 0
    cols: list[list[float]] = [[] for _ in sc]
    for i in range(n):
        for k in alive:
            cols[k].append(sc[k][order[i]])
            used += 1
        if i + 1 < 2:
            continue
        base = cols[p]
        if all(cols[k] == base[:len(cols[k])] for k in alive):
            break
        alive = [k for k in alive if k == p or sum(a - b for a, b in zip(cols[k], base, strict=False)) > -2]
        if alive == [p]:
            break
    best, bg = p, 0.0
    for k in alive:
        d = [a - b for a, b in zip(cols[k], cols[p], strict=True)]
        g = sum(d)
        if g >= 2 and g >= margin * math.sqrt(sum(x * x for x in d)) and g > bg:
            best, bg = k, g
    return best, used


def stakes(args: argparse.Namespace) -> None:
    chunk = args.chunk
    unknown = set(args.kinds.split(",")) - set(STAKE_KINDS.split(","))
    if unknown:
        raise SystemExit(f"benchmarks.search stakes: --kinds: unknown {', '.join(sorted(unknown))}; "
                         f"allowed: {STAKE_KINDS}")
    jobs = [(lo, min(args.first + args.games, lo + chunk), args.worlds, args.share, args.seed,
             args.kinds, args.seat, args.leak, args.memory)
            for lo in range(args.first, args.first + args.games, chunk)]
    with ProcessPoolExecutor(args.workers) as ex:
        rows = [r for part in ex.map(_stakes_chunk, jobs) for r in part]
    rnd = random.Random(3)
    agg: dict[tuple[int, str], list[float]] = {}
    for r in rows:
        sc, p = r["sc"], r["p"]
        a = agg.setdefault((r["seat"], r["kind"]), [0, 0.0, 0.0, 0.0, 0.0, 0.0])
        a[4] += 1
        a[5] += sum(1 for w in range(args.worlds) if len({x[w] for x in sc}) > 1) / args.worlds
        for _ in range(6):
            order = list(range(args.worlds))
            rnd.shuffle(order)
            best, used = _rule(sc, p, order, args.rule_worlds, args.margin)
            held = order[args.rule_worlds:]
            g = sum(sc[best][w] - sc[p][w] for w in held) / len(held)
            a[0] += 1
            a[1] += g
            a[2] += g * g
            a[3] += used
    print(f"{len(rows)} decisions of {args.games} games (seed {args.seed}, from index {args.first}), "
          f"{args.worlds} worlds per option; rule on {args.rule_worlds} worlds, margin {args.margin}, "
          f"scored on the rest; Jessah's worlds {'weighted, leak ' + str(args.leak) if args.leak else 'uniform'}, "
          f"rollouts {'with' if args.memory else 'without'} the decider's memory")
    for (st, kind), a in sorted(agg.items(), key=lambda kv: -kv[1][1] / kv[1][0]):
        n, m = a[0], a[1] / a[0]
        se = math.sqrt(max(a[2] / n - m * m, 0.0) / a[4])
        print(f"{('Angela', 'Jessah')[st]} {kind:16} {a[4] / args.games / args.share:5.1f}/game "
              f"differ {a[5] / a[4]:4.0%} gain/decision {m:+.4f} +- {se:.4f} "
              f"rollouts/decision {a[3] / n:5.1f}")


def _play_cells(args: argparse.Namespace, pairs: list[tuple[str, str]], width: int = 0) -> dict[tuple[str, str], list[int]]:
    """Each (forger, agent) pair on games 0..games-1 of the same seed, printing
    Angela's win rate with its 95% Wilson interval as each cell finishes."""
    chunk = max(1, args.games // (4 * args.workers))
    t0 = time.time()
    res: dict[tuple[str, str], list[int]] = {}
    with ProcessPoolExecutor(args.workers) as ex:
        for p in pairs:
            jobs = [(p[0], p[1], args.budget, args.seed, lo, min(args.games, lo + chunk))
                    for lo in range(0, args.games, chunk)]
            res[p] = [w for part in ex.map(_play, jobs) for w in part]
            k = sum(1 for w in res[p] if w == 1)
            lo_, hi_ = wilson(k, args.games)
            print(f"angela {p[0]:>{width}} vs jessah {p[1]:>{width}}: Angela {100 * k / args.games:.1f}% "
                  f"[{100 * lo_:.1f}, {100 * hi_:.1f}]  ({time.time() - t0:.0f} s)", flush=True)
    return res


def seat(args: argparse.Namespace) -> None:
    res = _play_cells(args, [("expert", "expert"), (args.angela, args.jessah)])
    m, lo, hi = _paired(res[("expert", "expert")], res[(args.angela, args.jessah)])
    print(f"shift of Angela's win rate from expert vs expert: {100 * m:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]; "
          f"{args.games} games, seed {args.seed}")
    if args.out:
        # per game, for paired comparisons between two runs (same indices and seed)
        with open(args.out, "w") as f:
            json.dump({"seed": args.seed, "angela": args.angela, "jessah": args.jessah,
                       "expert": res[("expert", "expert")], "pair": res[(args.angela, args.jessah)]}, f)


def cells(args: argparse.Namespace) -> None:
    pairs = [("expert", "expert"), ("search", "expert"), ("expert", "search"), ("search", "search")]
    t0 = time.time()
    res = _play_cells(args, pairs, width=6)
    for seat, ref, var in (("angela", ("expert", "expert"), ("search", "expert")),
                           ("angela", ("expert", "search"), ("search", "search")),
                           ("jessah", ("expert", "expert"), ("expert", "search")),
                           ("jessah", ("search", "expert"), ("search", "search"))):
        m, lo, hi = _paired(res[ref], res[var])
        sign = 1 if seat == "angela" else -1
        print(f"{seat} expert -> search (opponent {ref[1] if seat == 'angela' else ref[0]}): "
              f"Angela {100 * m:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}], "
              f"gain for {seat} {100 * sign * m:+.1f}")
    print(f"{args.games} games per cell, budget {args.budget}, seed {args.seed}, "
          f"{args.workers} workers, {time.time() - t0:.0f} s")


def predict(args: argparse.Namespace) -> None:
    """How well four models predict the expert forger's city (the weighted
    belief of search's walk worlds, the uniform set-valued belief, the
    expert agent's set with its leak focus x10, and search's dossier), each
    with the ``avoid`` prior at several strengths: mean log2 of the
    probability given to her true city at Jessah's movement steps (belief of
    2+ cities)."""
    from rnsim_strategies.red_notice.board import board_for
    from rnsim_strategies.red_notice.dossier import Dossier
    from rnsim_strategies.red_notice.expert import Expert

    from rnsim.games.red_notice.engine.weighted import Tracker

    rules = GAME.rules()
    rows: list[tuple[list[float], int, int, list[int], int, list[float]]] = []
    dossier = Dossier()
    for g in range(args.first, args.first + args.games):
        s = game_seeds(args.seed, g)
        a, j = Expert(), Expert()
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(rules, random.Random(s.chance), seed=s.chance)
        tracker = Tracker(leak=args.leak)
        dossier.reset(random.Random(g))
        while not st.over:
            d = st.pending
            v = build_view(st, d.seat)
            if d.seat == 1:
                w = tracker.observe(v)
                dw = dossier.observe(v)
            o = (a if d.seat == 0 else j).choose(v, d)
            if d.seat == 1 and d.kind == "jessah_move" and v.belief.bit_count() > 1:
                # the expert's own belief after reading this view: the set, its leak focus
                rows.append((w, v.belief, j._leak_focus & v.belief, list(board_for(v.comps).dist[v.jessah_city]),
                             st.angela_city, dw))
            st.apply(o)
    print(f"{len(rows)} movement steps of Jessah in {args.games} expert-vs-expert games "
          f"(seed {args.seed}, from index {args.first}); mean log2 of the probability each model gives "
          "her true city, times e^(avoid x its distance from Jessah)")
    print(f"{'avoid':>6} {'weighted (leak ' + str(args.leak) + ')':>20} {'uniform set':>12} {'set + focus x10':>16} "
          f"{'dossier':>8}")

    def score(model: Callable[[tuple[list[float], int, int, list[int], int, list[float]], int], float],
              beta: float) -> float:
        ll = 0.0
        for r in rows:
            z = [model(r, c) * math.exp(beta * r[3][c]) for c in range(len(r[0]))]
            ll += math.log2(z[r[4]] / sum(z))
        return ll / len(rows)

    for beta in (float(x) for x in args.avoid.split(",")):
        print(f"{beta:6.1f} {score(lambda r, c: r[0][c], beta):+20.3f} "
              f"{score(lambda r, c: float(r[1] >> c & 1), beta):+12.3f} "
              f"{score(lambda r, c: (10.0 if r[2] >> c & 1 else 1.0) * (r[1] >> c & 1), beta):+16.3f} "
              f"{score(lambda r, c: r[5][c], beta):+8.3f}")


def _oracle_chunk(job: tuple[str, int, int, int]) -> list[int]:
    """Expert vs expert games lo..hi-1 with Jessah's belief rewritten by the
    harness (a measurement: no strategy ever sees this)."""
    import dataclasses

    from rnsim_strategies.red_notice.expert import Expert

    mode, seed, lo, hi = job
    rules = GAME.rules()
    out = []
    for g in range(lo, hi):
        s = game_seeds(seed, g)
        a, j = Expert(), Expert()
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(rules, random.Random(s.chance), seed=s.chance)
        st.stop_history()
        strike = random.Random(f"oracle {seed} {g}")
        while not st.over:
            d = st.pending
            v = build_view(st, d.seat)
            if d.seat == 1 and st.angela_city >= 0:
                true = 1 << st.angela_city
                if mode == "true":
                    v = dataclasses.replace(v, belief=true)
                elif mode == "half":  # each wrong city struck with probability 1/2: one bit
                    keep = true
                    for c in range(st.comps.n_cities):
                        if v.belief >> c & 1 and not true >> c & 1 and strike.random() < 0.5:
                            keep |= 1 << c
                    v = dataclasses.replace(v, belief=keep)
            st.apply((a if d.seat == 0 else j).choose(v, d))
        out.append(1 if st.winner == 0 else 0 if st.winner == 1 else -1)
    return out


def oracle(args: argparse.Namespace) -> None:
    """What information about Angela is worth to Jessah: the expert agent
    handed her true city, or a belief with each wrong city struck at random
    with probability 1/2 (one bit), against expert vs expert on the same games."""
    chunk = max(1, args.games // (4 * args.workers))
    res = {}
    with ProcessPoolExecutor(args.workers) as ex:
        for mode in ("none", "half", "true"):
            jobs = [(mode, args.seed, lo, min(args.games, lo + chunk)) for lo in range(0, args.games, chunk)]
            res[mode] = [w for part in ex.map(_oracle_chunk, jobs) for w in part]
            k = sum(1 for w in res[mode] if w == 1)
            lo_, hi_ = wilson(k, args.games)
            line = f"Jessah's belief {mode:>4}: Angela {100 * k / args.games:.1f}% [{100 * lo_:.1f}, {100 * hi_:.1f}]"
            if mode != "none":
                m, lo2, hi2 = _paired(res["none"], res[mode])
                line += f", paired {100 * m:+.1f} [{100 * lo2:+.1f}, {100 * hi2:+.1f}]"
            print(line, flush=True)


def compare(args: argparse.Namespace) -> None:
    runs = []
    for path in (args.a, args.b):
        with open(path) as f:
            runs.append(json.load(f))
    a, b = runs
    if a["seed"] != b["seed"] or len(a["pair"]) != len(b["pair"]):
        raise SystemExit(f"benchmarks.search compare: {args.a} and {args.b} are not on the same games "
                         f"(seed {a['seed']} vs {b['seed']}, {len(a['pair'])} vs {len(b['pair'])} games)")
    m, lo, hi = _paired(a["pair"], b["pair"])
    print(f"angela {b['angela']} vs jessah {b['jessah']} against angela {a['angela']} vs jessah {a['jessah']}: "
          f"Angela {100 * m:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}]; {len(a['pair'])} paired games, "
          f"seed {a['seed']}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("costs")
    c.add_argument("--games", type=int, default=20, help="games whose decisions are sampled")
    c.add_argument("--samples", type=int, default=5, help="decisions sampled per game")
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=10)
    s.add_argument("--budgets", default="2,4,8", help="iterations of a plain 'search'")
    s.add_argument("--angela", default="search", help="a search level: search, search@iterations=8+leak=0")
    s.add_argument("--jessah", default="search")
    o = sub.add_parser("cells")
    o.add_argument("--games", type=int, default=1000)
    o.add_argument("--budget", type=int, default=2)
    o.add_argument("--workers", type=int, default=2)
    e = sub.add_parser("seat")
    e.add_argument("--angela", default="expert", help="a level: expert, search, search@iterations=8+leak=0")
    e.add_argument("--jessah", default="expert")
    e.add_argument("--games", type=int, default=300)
    e.add_argument("--budget", type=int, default=2, help="iterations of a plain 'search'")
    e.add_argument("--workers", type=int, default=2)
    e.add_argument("--out", default="", help="write each game's winner (1 Angela, 0 Jessah, -1 none) to this JSON file")
    k = sub.add_parser("stakes")
    k.add_argument("--first", type=int, default=100, help="first game index")
    k.add_argument("--games", type=int, default=40)
    k.add_argument("--chunk", type=int, default=20, help="games per job (each job its own sampling stream)")
    k.add_argument("--worlds", type=int, default=20, help="paired worlds per option")
    k.add_argument("--share", type=float, default=0.3, help="share of eligible decisions played out")
    k.add_argument("--rule-worlds", type=int, default=4)
    k.add_argument("--margin", type=float, default=1.0)
    k.add_argument("--kinds", default=STAKE_KINDS, help="decision kinds played out (comma-separated)")
    k.add_argument("--seat", choices=("angela", "jessah", "both"), default="both", help="whose decisions")
    k.add_argument("--leak", type=float, default=10.0,
                   help="Jessah's worlds from the weighted belief with this leak (0: uniform over the public belief)")
    k.add_argument("--memory", action=argparse.BooleanOptionalAction, default=True,
                   help="rollouts start from the deciding player's expert memory (search's 'memory')")
    k.add_argument("--workers", type=int, default=2)
    for p in (c, s, o, e, k):
        p.add_argument("--seed", type=int, default=1)
    f = sub.add_parser("predict", help="how well the avoid prior predicts the expert forger's city")
    f.add_argument("--first", type=int, default=0)
    f.add_argument("--games", type=int, default=100)
    f.add_argument("--leak", type=float, default=10.0)
    f.add_argument("--avoid", default="0,0.5,1,1.3,1.6,2,2.5")
    f.add_argument("--seed", type=int, default=7)
    q = sub.add_parser("oracle", help="what knowing where Angela is would be worth to the expert agent")
    q.add_argument("--games", type=int, default=1000)
    q.add_argument("--seed", type=int, default=1)
    q.add_argument("--workers", type=int, default=2)
    m = sub.add_parser("compare", help="paired shift between two 'seat --out' files (same games)")
    m.add_argument("a")
    m.add_argument("b")
    args = ap.parse_args()
    {"costs": costs, "speed": speed, "cells": cells, "seat": seat, "stakes": stakes,
     "compare": compare, "predict": predict, "oracle": oracle}[args.cmd](args)


if __name__ == "__main__":
    main()
