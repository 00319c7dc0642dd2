"""Where search's forger overrules the expert forger on her movement steps
(a measurement, not a built-in level; run it from the repository root and
quote the command next to each number).

    python -m benchmarks.forger_steps log --games 1000 --seed 5 --out steps.jsonl
        every movement of the forger where search searches her first step
        (search's forger on her movement steps only, ``MoveStepSearch``:
        not where the expert opens the movement with a security spend),
        one JSON line each: the expert's step, search's, and what Angela saw
        (her seat's view only)
    python -m benchmarks.forger_steps table steps.jsonl
        those decisions grouped by situation: Jessah's distance, the steps
        Jessah may take before Angela's next movement, the identities left;
        per group how often search overrules the expert and whether its
        step leaves her nearer Jessah, nearer her cashes, or stays
"""

from __future__ import annotations

import argparse
import json
import math
from collections import Counter, defaultdict
from typing import Any

from rnsim_strategies.red_notice.board import board_for
from rnsim_strategies.red_notice.expert import _PROXIMITY, Expert, _belief_reach

from benchmarks.forger_kinds import MoveStepSearch, _spec, default_weights, exposure, features
from rnsim.games.red_notice.engine.decision import Decision, Option
from rnsim.games.red_notice.engine.view import View
from rnsim.games.red_notice.game import GAME
from rnsim.play import run_game
from rnsim.strategy import load_strategy


class LoggingStepSearch(MoveStepSearch):
    """``MoveStepSearch`` writing down every first step it searches, with
    where the expert's step and search's leave her."""

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.log: list[dict[str, Any]] = []
        self.game_index = -1

    def _search(self, view: View, decision: Decision, pick: Option, n: int, opts: list[Option]) -> Option:
        got = super()._search(view, decision, pick, n, opts)
        if self._searched(view, pick):
            row = {"game": self.game_index, "expert": pick, "search": got,
                   **step_features(view, decision, pick, got)}
            row.update(plan_ends(self.expert, view, decision, pick, got))
            self.log.append(row)
        return got


def _after(here: int, o: Option) -> int:
    """The city a first step leaves her in (a spend or a stop: her city)."""
    return o[1] if isinstance(o, tuple) and o[0] == "move" else here


def step_features(view: View, decision: Decision, pick: Option, got: Option) -> dict[str, Any]:
    """``features`` and, for the expert's step and search's, the city it
    leaves her in, its distance from Jessah and from her cashes."""
    b = board_for(view.comps)
    f = features(view, decision)
    targets = 0
    for c in view.hand:
        targets |= b.cont_mask[b.check_cont[c]]
    dt = b.open_dist_from(targets, view.barriers) if targets else None
    jrow = b.dist[view.jessah_city]
    here = view.angela_city
    for name, o in (("e", pick), ("s", got)):
        c = _after(here, o)
        f[f"{name}_city"] = c
        f[f"{name}_dj"] = jrow[c]
        f[f"{name}_dt"] = dt[c] if dt is not None else -1
    f["dt_here"] = dt[here] if dt is not None else -1
    f["exposure"] = exposure(view)
    return f


def plan_ends(e: Expert, view: View, decision: Decision, pick: Option, got: Option) -> dict[str, Any]:
    """For the expert's first step and search's, the end the expert's plan
    scores best through it (``Expert._plan_scores``' terms): its score, its
    distance from Jessah, its way to her cashes, its radar triggers, and
    the danger term, and the end city."""
    b = board_for(view.comps)
    here = view.angela_city
    left = int(decision.info.get("left", 1))
    escape = bool(decision.info.get("escape"))
    first_ok = {o[1] for o in decision.options if isinstance(o, tuple) and o[0] == "move"}
    journalist = any(view.barriers[r] and nx in first_ok for nx, r in b.nbr_routes[here])
    targets = e._angela_targets(view, b)
    dt = e._way(view, b, targets) if targets else None
    ends = e._movement_ends(b, here, left, view.barriers, view.radars, "precise_radars" in view.permanents,
                            journalist, first_ok)
    reach, quiet = _belief_reach(b, view.belief, left, view.barriers, view.radars, journalist)
    jrow = b.dist[view.jessah_city]
    ball = b.ball[view.jessah_city]
    w_danger = (10.0 if not view.identities_up else 4.0) * (1.4 - e.risk)
    best: dict[Any, tuple[float, int, int, int, float, int]] = {}
    for c, n_trig, seen_by, first in ends:
        d = jrow[c]
        danger = 0.0
        if d < len(_PROXIMITY):
            bp = ((seen_by & reach) if n_trig else quiet) | (1 << c)
            crowd = (bp & ball[d]).bit_count()
            danger = w_danger * (e._own_city_danger if d == 0 else _PROXIMITY[d]) * min(1.0, 2.0 / crowd)
        way = min(dt[c], 8) if dt is not None else 0
        sc = -0.1 * n_trig - danger - (0.3 if escape else 1.0) * way + (0.2 * min(d, 5) if escape else 0.0)
        key = first if not isinstance(first, tuple) else tuple(first)
        cand = (sc, d, way, n_trig, danger, c)
        if key not in best or sc > best[key][0]:
            best[key] = cand
    out: dict[str, Any] = {"top": max(v[0] for v in best.values())}
    for name, o in (("e", pick), ("s", got)):
        k = o if not isinstance(o, (tuple, list)) else tuple(o)
        out[f"{name}_end"] = best.get("stop" if k == "stay" else k)
    return out


def log(args: argparse.Namespace) -> None:
    weights = default_weights()
    player = LoggingStepSearch(kinds=f"angela.angela_move:{weights.get('angela_move', '1')}")
    agent_name, agent_params = _spec(args.jessah, 2)
    agent = load_strategy(agent_name, agent_params)
    rules = GAME.rules()
    n = 0
    with open(args.out, "w", encoding="utf-8") as f:
        for g in range(args.games):
            player.game_index = g
            o = run_game(GAME, rules, [player, agent], args.seed, g)
            for row in player.log:
                row["winner"] = o.winner
                f.write(json.dumps(row, default=list) + "\n")
                n += 1
            player.log.clear()
    print(f"{args.out}: {n} searched first steps of the forger's movements, "
          f"{args.games} games of master seed {args.seed}, jessah {args.jessah}")


def _step(o: Any) -> str:
    return "move" if isinstance(o, list) and o[0] == "move" else str(o if not isinstance(o, list) else o[0])


def _exp_bucket(e: list[float]) -> str:
    """Jessah's expected movement steps before Angela's next movement this round."""
    m = sum(i * p for i, p in enumerate(e))
    return "0" if m < 0.25 else "<1" if m < 1.0 else "1-2" if m < 2.0 else "2+"


def _group(r: dict[str, Any], args: argparse.Namespace) -> tuple[str, str, str]:
    """A decision's group: Jessah's distance from where Angela stands (or,
    with ``--ends``, from where the expert's step leaves her, "enter" when
    it enters Jessah's city), the steps Jessah may take before Angela's
    next movement, the identities left."""
    if args.ends:
        d = "enter" if r["e_dj"] == 0 and r["dj"] > 0 else str(min(r["e_dj"], 4))
    else:
        d = str(min(r["dj"], 4))
    return (d, _exp_bucket(r["exposure"]) if args.exposure else "",
            str(min(r["ids_up"], 1)) if args.ids else "")


def table(args: argparse.Namespace) -> None:
    rows = [json.loads(line) for line in open(args.file, encoding="utf-8")]
    if args.no_escapes:
        rows = [r for r in rows if not r["info"].get("escape")]
    groups: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    for r in rows:
        g = groups[_group(r, args)]
        g["n"] += 1
        if _step(r["expert"]) == "stop":
            g["e_stop"] += 1
        if r["expert"] == r["search"]:
            continue
        g["over"] += 1
        g["s_" + _step(r["search"])] += 1
        g["nearerJ"] += r["s_dj"] < r["e_dj"]
        g["fartherJ"] += r["s_dj"] > r["e_dj"]
        g["nearerT"] += 0 <= r["s_dt"] < r["e_dt"]
        g["fartherT"] += r["s_dt"] > r["e_dt"] >= 0
        g["s_intoJ"] += r["s_dj"] == 0
        g["e_intoJ"] += r["e_dj"] == 0
    cols = ["n", "e_stop", "over", "s_stop", "s_stay", "s_move", "s_remove_radar", "s_remove_barrier",
            "nearerJ", "fartherJ", "nearerT", "fartherT", "s_intoJ", "e_intoJ"]
    print(f"{len(rows)} searched first steps; 'over': search overrules the expert; nearer/farther: search's step "
          f"against the expert's, in steps from Jessah (J) and from her cashes (T)")
    print(f"{'dj':>5} {'exp':>4} {'ids':>3} " + " ".join(f"{c:>8}" for c in cols))
    for k in sorted(groups):
        g = groups[k]
        print(f"{k[0]:>5} {k[1]:>4} {k[2]:>3} " + " ".join(f"{g[c]:>8}" for c in cols))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    l_ = sub.add_parser("log")
    l_.add_argument("--out", required=True)
    l_.add_argument("--games", type=int, default=1000)
    l_.add_argument("--seed", type=int, default=5)
    l_.add_argument("--jessah", default="expert", help="the agent: expert, search, a ladder level")
    t = sub.add_parser("table")
    t.add_argument("file")
    t.add_argument("--exposure", action="store_true", help="group by Jessah's steps before Angela's next movement")
    t.add_argument("--ids", action="store_true", help="group by identities left (0 or some)")
    t.add_argument("--ends", action="store_true", help="group by where the expert's step leaves her")
    t.add_argument("--no-escapes", action="store_true", help="leave out the escapes' movements (R17)")
    args = ap.parse_args()
    {"log": log, "table": table}[args.cmd](args)




class PlanMix05(Expert):
    """The expert forger drawing among plans within 0.5 of her best
    movement's score (Expert.PLAN_MIX, against 0.25): harder to predict."""

    PLAN_MIX = 0.5


class _EnterDanger(Expert):
    """The expert forger weighing the end of a movement in Jessah's city
    ENTER when she is not there as the movement starts (OWN_CITY_DANGER,
    0.2, when she is): search's forger overrules the expert on a quarter of
    the steps that enter Jessah's city."""

    ENTER = 0.5

    def _plan_scores(self, view: View, b: Any, left: int, barriers: tuple[int, ...], first_ok: set[int],
                     journalist: bool, dt: list[int] | None, escape: bool) -> Any:
        if view.angela_city == view.jessah_city:
            return super()._plan_scores(view, b, left, barriers, first_ok, journalist, dt, escape)
        own = self._own_city_danger
        self._own_city_danger = self.ENTER
        try:
            return super()._plan_scores(view, b, left, barriers, first_ok, journalist, dt, escape)
        finally:
            self._own_city_danger = own


class Enter05(_EnterDanger):
    ENTER = 0.5


class Enter00(_EnterDanger):
    ENTER = 0.0


class _KeepLater(Expert):
    """The expert forger choosing her escape (R17) for the identity she
    keeps as well: she burns the one worth most now less KEEP x what it is
    worth at any escape (its movements, and the Journalist's 0.4 for
    crossing barriers), keeping the better mover for her last escape."""

    KEEP = 1.0

    def on_identity(self, view: View, decision: Decision) -> Any:
        opts = decision.options
        if len(opts) < 2:
            return super().on_identity(view, decision)
        ids = {x.id: x for x in view.comps.identities}
        b = board_for(view.comps)
        now = {i: self._identity_value(view, b, ids[i]) for i in opts}

        def value(i: str) -> tuple[float, str]:
            x = ids[i]
            general = float(x.moves) + (0.4 if x.effect == "journalist" else 0.0)
            return (now[i] - self.KEEP * general, i)

        return max(opts, key=value)

class Keep10(_KeepLater):
    KEEP = 1.0


class Keep15(_KeepLater):
    KEEP = 1.5



class _ProxShape(Expert):
    """The expert forger whose movement plan weighs ending d steps from
    Jessah by PROX[d] (``_PROXIMITY`` in ``Expert._plan_scores``: 1.0, 0.7,
    0.35, 0.12, 0.03; Jessah's own city OWN_CITY_DANGER all the same):
    ``_plan_scores`` in Python with that table."""

    PROX: tuple[float, ...] = _PROXIMITY

    def _scored_ends(self, view: View, b: Any, left: int, barriers: tuple[int, ...], first_ok: set[int],
                     journalist: bool, dt: list[int] | None, escape: bool) -> list[tuple[int, Option, float]]:
        """Each end city of the movement with its first step and the plan's score."""
        here = view.angela_city
        radars = view.radars
        precise = "precise_radars" in view.permanents
        key = ("ends", here, left, barriers, radars, precise, journalist)
        ends = b.memo.get(key)
        if ends is None:
            ends = self._movement_ends(b, here, left, barriers, radars, precise, journalist, first_ok)
            b.remember(key, ends)
        reach, quiet = _belief_reach(b, view.belief, left, barriers, radars, journalist)
        djrow = b.dist[view.jessah_city]
        ball = b.ball[view.jessah_city]
        w_danger = (10.0 if not view.identities_up else 4.0) * (1.4 - self.risk)
        w_way = 0.3 if escape else 1.0
        prox = self.PROX
        scored: list[tuple[int, Option, float]] = []
        for c, n_trig, seen_by, first in ends:
            s = -0.1 * n_trig
            d = djrow[c]
            if d < len(prox):
                bp = ((seen_by & reach) if n_trig else quiet) | (1 << c)
                crowd = (bp & ball[d]).bit_count()
                s -= w_danger * (self._own_city_danger if d == 0 else prox[d]) * min(1.0, 2.0 / crowd)
            if dt is not None:
                s -= w_way * min(dt[c], 8)
            if escape:
                s += 0.2 * min(d, 5)
            if first == "stop":
                s += 0.01
            scored.append((c, first, s))
        return scored

    @staticmethod
    def _best(scored: list[tuple[int, Option, float]]) -> Any:
        """The plan's answer: the best first step, its score, and each first step's best."""
        best: Option = "stop"
        best_s = -1e18
        by_first: dict[Option, float] = {}
        for _, first, s in scored:
            if s > by_first.get(first, -1e18):
                by_first[first] = s
            if s > best_s + 1e-9:
                best, best_s = first, s
        return best, best_s, by_first

    def _plan_scores(self, view: View, b: Any, left: int, barriers: tuple[int, ...], first_ok: set[int],
                     journalist: bool, dt: list[int] | None, escape: bool) -> Any:
        return self._best(self._scored_ends(view, b, left, barriers, first_ok, journalist, dt, escape))


class ProxSame(_ProxShape):
    """``_ProxShape`` with the expert's own table: the expert, game for game."""


class ProxFar(_ProxShape):
    """Less danger 2 and 3 steps from Jessah (0.2, 0.06 against 0.35, 0.12)."""

    PROX = (1.0, 0.7, 0.2, 0.06, 0.03)



class _AntiModel(_ProxShape):
    """The expert forger weighing how strongly her own plan, which Jessah's
    dossier uses as its model of her (a softmax of the plan's scores at its
    tau, 0.3), points at each end city: an end within 3 steps of Jessah
    scores K x the share of that softmax on its city less (she hunts where
    the model expects the forger)."""

    K = 2.0
    TAU = 0.3

    def _plan_scores(self, view: View, b: Any, left: int, barriers: tuple[int, ...], first_ok: set[int],
                     journalist: bool, dt: list[int] | None, escape: bool) -> Any:
        scored = self._scored_ends(view, b, left, barriers, first_ok, journalist, dt, escape)
        top = max(x[2] for x in scored)
        share: dict[int, float] = {}
        for c, _, s in scored:
            share[c] = share.get(c, 0.0) + math.exp((s - top) / self.TAU)
        z = sum(share.values())
        djrow = b.dist[view.jessah_city]
        return self._best([(c, first, s - self.K * share[c] / z if djrow[c] <= 3 else s)
                           for c, first, s in scored])


class AntiModel2(_AntiModel):
    K = 2.0


class AntiModel05(_AntiModel):
    K = 0.5


if __name__ == "__main__":
    main()
