"""Where search's forger gains over the expert forger, one decision kind at
a time (a measurement, not a built-in level; run it from the repository
root and quote the command next to each number).

    python -m benchmarks.forger_kinds gains --games 1500 --seed 83
        the expert forger, and search's forger searching one decision kind
        only (the expert everywhere else: ``search@kinds=angela.KIND:W`` with
        the weight search's default gives that kind), each against the same
        agent on games 0..games-1 of master seed --seed; per kind, Angela's
        win rate, the paired gain over the expert forger with its 95%
        interval, and the games whose outcome changed
    python -m benchmarks.forger_kinds log --kind place_token --games 300 --seed 5 --out d.jsonl
        the decisions of that kind where the searching forger overrules the
        expert (one JSON line each: the expert's option, search's, and
        features of the situation from Angela's view)

Search's forger with only one kind searched plays the expert elsewhere
decision for decision (search.py: its expert plays on the seat's own
stream, the search draws from a stream of its own), so a kind's gain is
what searching that kind adds, on top of the expert.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from rnsim_strategies.red_notice.board import board_for
from rnsim_strategies.red_notice.expert import Expert
from rnsim_strategies.red_notice.search import DEFAULT_KINDS, SEARCHABLE, Search

from benchmarks.search import _paired, _spec
from rnsim.analysis.stats import wilson
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH, Decision, Option
from rnsim.games.red_notice.engine.view import View
from rnsim.games.red_notice.game import GAME
from rnsim.games.red_notice.rules.components import BANK, JOKER, MOVEMENT, POW
from rnsim.play import run_game
from rnsim.strategy import Strategy, load_strategy


def default_weights() -> dict[str, str]:
    """Angela's searched kinds in search's default, kind -> weight."""
    out = {}
    for item in DEFAULT_KINDS.split(","):
        spec, _, w = item.partition(":")
        seat, _, kind = spec.rpartition(".")
        if seat == "angela":
            out[kind] = w or "1"
    return out


def _winners(forger: Strategy, agent: Strategy, seed: int, games: int) -> list[int]:
    rules = GAME.rules()
    out = []
    for g in range(games):
        o = run_game(GAME, rules, [forger, agent], seed, g)
        out.append(1 if o.winner == "angela" else 0 if o.winner == "jessah" else -1)
    return out


def gains(args: argparse.Namespace) -> None:
    weights = default_weights()
    kinds = [k.strip() for k in args.kinds.split(",")] if args.kinds else list(weights)
    agent_name, agent_params = _spec(args.jessah, 2)
    t0 = time.process_time()
    base = _winners(load_strategy("expert", {}), load_strategy(agent_name, agent_params), args.seed, args.games)
    k0 = sum(1 for w in base if w == 1)
    lo, hi = wilson(k0, args.games)
    print(f"jessah {args.jessah}, {args.games} games, master seed {args.seed}")
    print(f"{'forger':<34} {'Angela wins':>22} {'gain over the expert [95%]':>28} {'changed':>8} {'CPU s':>7}")
    print(f"{'expert':<34} {100 * k0 / args.games:6.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}] "
          f"{'':>28} {'':>8} {time.process_time() - t0:7.0f}", flush=True)
    for kind in kinds:
        spec = "all" if kind == "all" else f"angela.{kind}:{weights.get(kind, '1')}"
        params: dict[str, Any] = {} if kind in ("all", "move_spend", "move_step") else {"kinds": spec}
        forger: Strategy = (MoveSpendSearch() if kind == "move_spend" else MoveStepSearch() if kind == "move_step"
                            else load_strategy("search", params))
        t1 = time.process_time()
        res = _winners(forger, load_strategy(agent_name, agent_params), args.seed, args.games)
        k = sum(1 for w in res if w == 1)
        lo, hi = wilson(k, args.games)
        m, dlo, dhi = _paired(base, res)
        changed = sum(1 for a, b in zip(base, res, strict=True) if (a == 1) != (b == 1))
        label = ("search (every kind)" if kind == "all" else f"search, {kind.replace('_', ' ')}s only"
                 if kind.startswith("move_") else f"search@kinds={spec}")
        print(f"{label:<34} {100 * k / args.games:6.1f}% [{100 * lo:4.1f}, {100 * hi:4.1f}] "
              f"{100 * m:+9.1f} [{100 * dlo:+5.1f}, {100 * dhi:+5.1f}] {changed:>8} "
              f"{time.process_time() - t1:7.0f}", flush=True)


class LoggingSearch(Search):
    """Search's forger on the kinds it is given, writing down every decision
    where its choice differs from the expert's, with features of the
    situation read from Angela's own view."""

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        self.log: list[dict[str, Any]] = []
        self.game_index = -1
        self.log_all = False

    def _search(self, view: View, decision: Decision, pick: Option, n: int, opts: list[Option]) -> Option:
        got = super()._search(view, decision, pick, n, opts)
        if got != pick or self.log_all:
            self.log.append({"game": self.game_index, "kind": decision.kind, "expert": pick, "search": got,
                             **features(view, decision)})
        return got


def features(view: View, decision: Decision) -> dict[str, Any]:
    """What Angela sees at a decision (her seat's view only)."""
    b = board_for(view.comps)
    here = view.angela_city
    targets = 0
    for c in view.hand:
        targets |= b.cont_mask[b.check_cont[c]]
    return {
        "round": view.round, "here": here, "jessah": view.jessah_city, "dj": b.dist[view.jessah_city][here],
        "hand": [[b.check_cont[c], b.check_value[c]] for c in view.hand],
        "cashable_here": sum(1 for c in view.hand if b.check_cont[c] == b.cont[here]),
        "d_target": b.dist_to_mask(targets)[here] if targets else -1,
        "cash": view.cash_total[0], "ids_up": len(view.identities_up), "security": view.security,
        "belief": view.belief.bit_count(), "radars": list(view.radars),
        "cards": [list(map(list, b.halves[c])) for c in view.cards],
        "slots": [[list(x) if x is not None else None for x in row] for row in view.slots],
        "tokens_left": sorted(view.opponent_tokens_left()),
        "info": {k: v for k, v in decision.info.items() if isinstance(v, (int, float, str, bool))},
        "options": len(decision.options),
        "exposure": exposure(view),
        "permanents": list(view.permanents), "barriers": list(view.barriers),
    }


def exposure(view: View) -> list[float]:
    """Jessah's movement steps before Angela's next movement this round
    (``hunt_before_move``), on the expert's odds of Angela's tokens."""
    e = Expert()
    e.new_game(ANGELA, random.Random(0))
    odds = e._odds(view)
    pow_facing = 1.0 / max(1, e._opp_unrevealed) if e._opp_has_pow else 0.0
    jet = 1 if "private_jet" in view.permanents else 0
    return hunt_before_move(view, odds, pow_facing, board_for(view.comps).halves, jet)


def hunt_before_move(view: View, odds: dict[int, tuple[float, float, int]], pow_facing: float,
                     halves: Sequence[Sequence[tuple[int, int]]], jet: int) -> list[float]:
    """Angela's exposure for the rest of the round (R1-R3): per number of
    movement steps (0 to 4, 4 meaning 4 or more), the chance Jessah performs
    that many before Angela's next movement, on the performances left on the
    card being resolved and on the cards after it. A card whose two halves
    are contested is resolved on each value Jessah's token can have, as
    likely as her unrevealed tokens say (``odds``: Angela's chance to win or
    tie with each of her values, ``pow_facing`` the chance Jessah's token
    is her POW!, which cancels Angela's); a Joker half counts as a movement."""
    open_ = [1.0, 0.0, 0.0, 0.0, 0.0]  # steps so far, Angela not yet moved
    out = [0.0, 0.0, 0.0, 0.0, 0.0]  # Angela moved (or the round ended) at that many steps
    rest: list[tuple[float, list[tuple[int, int, int]]]] = []
    i = view.resolving
    if 0 <= i < len(view.cards):
        card = halves[view.cards[i]]
        rest.append((1.0, [(s, card[h][0], card[h][1]) for s, h in view.performances[view.performed:]]))
    outcomes: list[list[tuple[float, list[tuple[int, int, int]]]]] = [rest] if rest else []
    for j in range(max(0, i + 1), len(view.cards)):
        card = halves[view.cards[j]]
        a, c = view.slots[j]
        if a is None and c is None:
            continue
        if a is None or c is None:
            seat = a[0] if a is not None else c[0]  # type: ignore[index]
            h = 0 if a is not None else 1
            outcomes.append([(1.0, [(seat, card[h][0], card[h][1]), (seat, card[1 - h][0], card[1 - h][1])])])
            continue
        mine_h = 0 if a[0] == ANGELA else 1
        va = (a if mine_h == 0 else c)[1]
        p_win, p_tie, _ = odds.get(va, (0.5, 0.0, 0))
        ah = (ANGELA, card[mine_h][0], card[mine_h][1])
        ao = (ANGELA, card[1 - mine_h][0], card[1 - mine_h][1])
        jh = (JESSAH, card[1 - mine_h][0], card[1 - mine_h][1])
        jo = (JESSAH, card[mine_h][0], card[mine_h][1])
        first_a = view.initiative == ANGELA
        cases = [(p_win, [ah, ao] if va == POW else [ah, ao, jh]),
                 (p_tie, [ah, jh] if first_a else [jh, ah]),
                 (min(pow_facing, max(0.0, 1.0 - p_win - p_tie)), [jh, jo]),
                 (max(0.0, 1.0 - p_win - p_tie - pow_facing), [jh, jo, ah])]
        outcomes.append([(p, seq) for p, seq in cases if p > 0.0])
    for card_cases in outcomes:
        nxt = [0.0, 0.0, 0.0, 0.0, 0.0]
        for p, seq in card_cases:
            for s0 in range(5):
                q = open_[s0] * p
                if q == 0.0:
                    continue
                s = s0
                moved = False
                for seat, action, icons in seq:
                    if action == MOVEMENT or action == JOKER:
                        if seat == ANGELA:
                            moved = True
                            break
                        s = min(4, s + (icons if action == MOVEMENT else 1) + jet)
                if moved:
                    out[s] += q
                else:
                    nxt[s] += q
        open_ = nxt
    for s in range(5):
        out[s] += open_[s]
    return out



def log(args: argparse.Namespace) -> None:
    weights = default_weights()
    player = LoggingSearch(kinds=f"angela.{args.kind}:{weights.get(args.kind, '1')}")
    player.log_all = args.all
    write_log(player, args)
    print(f"{args.out}: decisions of kind {args.kind} where search overrules the expert, "
          f"{args.games} games of master seed {args.seed}, {player.searched} searched")


def write_log(player: LoggingSearch, args: argparse.Namespace) -> None:
    """Play ``player`` as Angela against ``args.jessah`` on ``args.games``
    games of ``args.seed`` and write its log to ``args.out``, a JSON line each."""
    agent_name, agent_params = _spec(args.jessah, 2)
    agent = load_strategy(agent_name, agent_params)
    rules = GAME.rules()
    with open(args.out, "w", encoding="utf-8") as f:
        for g in range(args.games):
            player.game_index = g
            run_game(GAME, rules, [player, agent], args.seed, g)
            for row in player.log:
                f.write(json.dumps(row, default=list) + "\n")
            player.log.clear()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gains")
    g.add_argument("--kinds", default="", help="comma-separated kinds (default: Angela's searched kinds); "
                   "'all' is search's default forger")
    l_ = sub.add_parser("log")
    l_.add_argument("--kind", required=True, choices=SEARCHABLE, metavar="KIND",
                    help="a kind search decides (move_spend and move_step are gains' kinds, not logged)")
    l_.add_argument("--out", required=True)
    l_.add_argument("--all", action="store_true", help="every searched decision, not only those search overrules")
    for p in (g, l_):
        p.add_argument("--games", type=int, default=1000)
        p.add_argument("--seed", type=int, default=83)
        p.add_argument("--jessah", default="expert", help="the agent: expert, search, a ladder level")
    v = sub.add_parser("versus")
    v.add_argument("a", help="the forger compared against: a level or a class of this module")
    v.add_argument("b")
    v.add_argument("--games", type=int, default=1000)
    v.add_argument("--seed", type=int, default=97)
    v.add_argument("--jessah", default="expert")
    args = ap.parse_args()
    {"gains": gains, "log": log, "versus": versus}[args.cmd](args)



class _MoveSplit(Search):
    """Search's forger on her movements only, and only on those where the
    expert's first choice is (``SPEND`` True) or is not (False) a security
    spend: which half of the movements' gain is which."""

    SPEND = True

    def __init__(self, **params: Any) -> None:
        params.setdefault("kinds", "angela.angela_move")
        super().__init__(**params)

    def _searched(self, view: View, pick: Option) -> bool:
        """Whether search overrules the expert's ``pick`` here."""
        spend = isinstance(pick, tuple) and pick[0] in ("remove_radar", "remove_barrier")
        return spend == self.SPEND

    def _search(self, view: View, decision: Decision, pick: Option, n: int, opts: list[Option]) -> Option:
        if not self._searched(view, pick):
            return pick
        return super()._search(view, decision, pick, n, opts)


class MoveSpendSearch(_MoveSplit):
    SPEND = True


class MoveStepSearch(_MoveSplit):
    SPEND = False


class _MoveStepWhere(_MoveSplit):
    """Search's forger on her movement steps (not the spends) only where
    Jessah is within (``NEAR`` True) or beyond (False) 2 steps of her."""

    SPEND = False
    NEAR = True

    def _searched(self, view: View, pick: Option) -> bool:
        near = board_for(view.comps).dist[view.jessah_city][view.angela_city] <= 2
        return near == self.NEAR and super()._searched(view, pick)


class MoveStepNear(_MoveStepWhere):
    NEAR = True


class MoveStepFar(_MoveStepWhere):
    NEAR = False


class ExpertWithoutUnbox(Expert):
    """The expert forger opening every movement she can afford with a
    random radar removal, even boxed in by Jessah's barriers (Expert.UNBOX
    off, and neither OPEN_GAIN nor OWN_CITY_DANGER's lighter weight:
    commit 743a889's forger, game for game)."""

    JOKER_ROUND = False  # her Joker takes the Bank at its value in her bids
    BANK_SPARE = False  # every Bank half her cash while one is cashable here

    UNBOX = False
    OPEN_GAIN = 0.0
    OWN_CITY_DANGER = 1.0
    LAST_CASH_PASS = True
    BID_ORDER = False


def _forger(ref: str) -> Strategy:
    """A level (``expert``, ``search@kinds=...``) or a class of this module."""
    if ref in globals() and isinstance(globals()[ref], type):
        return globals()[ref]()  # type: ignore[no-any-return]
    name, params = _spec(ref, 2)
    return load_strategy(name, params)


def versus(args: argparse.Namespace, forger: Callable[[str], Strategy] = _forger) -> None:
    """Forgers ``args.a`` and ``args.b`` against one agent on the same
    games, paired; ``forger`` turns a name into a strategy."""
    agent_name, agent_params = _spec(args.jessah, 2)
    res = []
    for ref in (args.a, args.b):
        t0 = time.process_time()
        res.append(_winners(forger(ref), load_strategy(agent_name, agent_params), args.seed, args.games))
        k = sum(1 for w in res[-1] if w == 1)
        lo, hi = wilson(k, args.games)
        print(f"angela {ref} vs jessah {args.jessah}: {100 * k / args.games:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]  "
              f"({time.process_time() - t0:.0f} CPU s)", flush=True)
    m, lo, hi = _paired(res[0], res[1])
    changed = sum(1 for a, b in zip(res[0], res[1], strict=True) if (a == 1) != (b == 1))
    print(f"{args.b} - {args.a}: {100 * m:+.2f} points [{100 * lo:+.2f}, {100 * hi:+.2f}], paired, "
          f"{args.games} games of master seed {args.seed}, {changed} changed")



class BarrierReader(Expert):
    """A probe of the barrier rule (``Expert.UNBOX``): the expert agent whose
    dossier reads a barrier Angela removes with her security (R11) as her
    being at one of its ends, 10 times as likely as elsewhere, as it may
    read a radar removal (``Dossier(leak=...)``). Runs on the Python source
    only (``RNSIM_PURE=1``): the compiled dossier cannot be subclassed."""

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        if self.dossier is not None:
            self.dossier.__class__ = _barrier_dossier()


def _barrier_dossier() -> type:
    from rnsim_strategies.red_notice.dossier import Dossier

    class BarrierDossier(Dossier):
        __slots__ = ()

        def _removed(self, view: View, e: Any, b: Any) -> None:
            super()._removed(view, e, b)
            if e.name != "radar" and e.kind == "security_spent" and self.started:
                x, y = b.route_ends[e.route]
                ends = 1 << x | 1 << y
                self.w = [w * 10.0 if ends >> c & 1 else w for c, w in zip(self.cities, self.w, strict=True)]
                self._normalise(view)

    return BarrierDossier


class ExpertWithoutOpenWay(Expert):
    """The expert forger without the barrier-opening rule (Expert.OPEN_GAIN
    0: a barrier comes off only when half her city's routes are closed,
    UNBOX)."""

    JOKER_ROUND = False  # her Joker takes the Bank at its value in her bids
    BANK_SPARE = False  # every Bank half her cash while one is cashable here

    OPEN_GAIN = 0.0


class ExpertFullOwnCity(Expert):
    """The expert forger fearing Jessah's own city as much as her main
    expert (Expert.OWN_CITY_DANGER 1.0)."""

    JOKER_ROUND = False  # her Joker takes the Bank at its value in her bids
    BANK_SPARE = False  # every Bank half her cash while one is cashable here

    OWN_CITY_DANGER = 1.0


class ExpertC01(Expert):
    """Commit c01cc5a's expert forger, game for game: neither the
    barrier-opening rule nor the lighter danger of Jessah's own city; she
    declines a cash next to Jessah with no identity left; her bids ignore
    the order of a card's halves."""

    JOKER_ROUND = False  # her Joker takes the Bank at its value in her bids
    BANK_SPARE = False  # every Bank half her cash while one is cashable here

    OPEN_GAIN = 0.0
    OWN_CITY_DANGER = 1.0
    LAST_CASH_PASS = True
    BID_ORDER = False


class ExpertC50(Expert):
    """Commit c50e101's expert forger, game for game: with no identity left
    she declines a cash in Jessah's city or next to it (Expert.LAST_CASH_PASS),
    and she bids as if a Bank half were worth the same wherever she performs
    it (Expert.BID_ORDER off)."""

    JOKER_ROUND = False  # her Joker takes the Bank at its value in her bids
    BANK_SPARE = False  # every Bank half her cash while one is cashable here

    LAST_CASH_PASS = True
    BID_ORDER = False


class ExpertWithoutBidOrder(Expert):
    """The expert forger bidding as if a Bank half were worth the same
    wherever she performs it (Expert.BID_ORDER off; with LAST_CASH_PASS
    also on, it is commit c50e101's forger: ExpertC50)."""

    JOKER_ROUND = False  # her Joker takes the Bank at its value in her bids
    BANK_SPARE = False  # every Bank half her cash while one is cashable here

    BID_ORDER = False


class ExpertBankEarly0(Expert):
    """The bid-order forger with a Bank half she performs before anything
    that helps worth nothing (Expert.BANK_EARLY 0.0, against 0.2)."""

    JOKER_ROUND = False  # her Joker takes the Bank at its value in her bids
    BANK_SPARE = False  # every Bank half her cash while one is cashable here

    BANK_EARLY = 0.0


class ExpertBankEarly6(Expert):
    """... worth 0.6 (half the 1.2 of a Bank half with her cash within 2
    open steps)."""

    JOKER_ROUND = False  # her Joker takes the Bank at its value in her bids
    BANK_SPARE = False  # every Bank half her cash while one is cashable here

    BANK_EARLY = 0.6


class ExpertCashFirst(Expert):
    """The bid-order forger who, with a check cashable in her city, values
    a Movement (or Joker) half she performs before the card's Bank half and
    that Bank half at the better of the two, not their sum: she either stays
    to cash or moves away and cashes nothing there."""

    JOKER_ROUND = False  # her Joker takes the Bank at its value in her bids
    BANK_SPARE = False  # every Bank half her cash while one is cashable here

    def _angela_ordered(self, view: View, b: Any, m_h: list[float],
                        m_o: list[float]) -> tuple[list[float], list[float]]:
        h, o = super()._angela_ordered(view, b, m_h, m_o)
        if not self._order_ctx[0]:
            return h, o
        o = list(o)
        for i, c in enumerate(view.cards):
            card = b.halves[c]
            for half in (0, 1):
                if card[half][0] in (MOVEMENT, JOKER) and card[1 - half][0] == BANK:
                    o[2 * i + half] = max(0.0, o[2 * i + half] - h[2 * i + half])
        return h, o


if __name__ == "__main__":
    main()

