"""The expert forger's bids, Jokers and cashes against search's (a
measurement, not a built-in level; run it from the repository root and
quote the command next to each number).

    python -m benchmarks.forger_bids log --kind joker --games 3000 --seed 5 --out d.jsonl
        every searched decision of that kind, as ``forger_kinds log --all``
        writes it, with what Angela still performs this round: the card
        being resolved, its performances and how many have started, her
        tokens still in hand, the initiative
    python -m benchmarks.forger_bids table d.jsonl
        the Joker decisions grouped by situation: the card's other half and
        whether she performs it after the Joker, a Bank of hers still to come
        this round, a check cashable in her city; per group the expert's
        choice and how often search overrules it, and with what
    python -m benchmarks.forger_bids versus ExpertWithoutJokerRound expert --games 4000 --seed 7
        forger_kinds versus, with this module's forgers too
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from typing import Any

from rnsim_strategies.red_notice.board import board_for
from rnsim_strategies.red_notice.expert import Expert
from rnsim_strategies.red_notice.search import Search

import benchmarks.forger_kinds as fk
from benchmarks.forger_kinds import LoggingSearch, default_weights
from benchmarks.search import _spec
from rnsim.games.red_notice.engine.decision import ANGELA, Decision, Option
from rnsim.games.red_notice.engine.view import View
from rnsim.games.red_notice.rules.components import BANK, JOKER, MOVEMENT
from rnsim.strategy import Strategy, load_strategy


def round_left(view: View) -> dict[str, Any]:
    """What Angela still performs this round, from her view (R1-R3): on the
    card being resolved, her performances not started yet; on the cards
    after it, the halves her tokens are on (her own half, and the other
    half when nobody faces her)."""
    b = board_for(view.comps)
    later: list[list[int]] = []
    i = view.resolving
    if 0 <= i < len(view.cards):
        card = b.halves[view.cards[i]]
        for s, h in view.performances[view.performed:]:
            if s == ANGELA:
                later.append(list(card[h]))
    for j in range(max(0, i + 1), len(view.cards)):
        card = b.halves[view.cards[j]]
        row = view.slots[j]
        for h in (0, 1):
            x = row[h]
            if x is not None and x[0] == ANGELA:
                later.append(list(card[h]))
                if row[1 - h] is None:
                    later.append(list(card[1 - h]))
    return {
        "resolving": i, "performed": view.performed,
        "performances": [list(p) for p in view.performances],
        "later": later,
        "bank_later": sum(1 for a, _ in later if a == BANK),
        "move_later": sum(n if a == MOVEMENT else 1 for a, n in later if a in (MOVEMENT, JOKER)),
        "my_tokens": list(view.my_tokens), "initiative": view.initiative,
    }


class BidLoggingSearch(LoggingSearch):
    """LoggingSearch with ``round_left``'s features in every row."""

    def _search(self, view: View, decision: Decision, pick: Option, n: int, opts: list[Option]) -> Option:
        before = len(self.log)
        got = super()._search(view, decision, pick, n, opts)
        if len(self.log) > before:
            self.log[-1].update(round_left(view))
        return got


def log(args: argparse.Namespace) -> None:
    weights = default_weights()
    player = BidLoggingSearch(kinds=f"angela.{args.kind}:{weights.get(args.kind, '1')}")
    player.log_all = True
    fk.write_log(player, args)
    print(f"{args.out}: every searched decision of kind {args.kind}, {args.games} games of master seed "
          f"{args.seed}, {player.searched} searched")


def _joker_group(r: dict[str, Any]) -> tuple[Any, ...]:
    """The situation of a Joker decision: the card's other half and whether
    it comes after the Joker, a Bank of hers later this round, a check
    cashable here, Jessah's distance (0, 1, 2, 3+)."""
    i = r["resolving"]
    card = r["cards"][i] if 0 <= i < len(r["cards"]) else None
    other = "?"
    if card is not None:
        other = "".join("CBSMJ"[a] + (str(n) if a not in (BANK, JOKER) else "") for a, n in card
                        if a != JOKER)
    after = any(s == ANGELA for s, _ in r["performances"][r["performed"]:])
    return (other, "after" if after else "before", min(r["bank_later"], 1), min(r["cashable_here"], 2),
            min(r["dj"], 3))


def table(args: argparse.Namespace) -> None:
    rows = [json.loads(x) for x in open(args.file, encoding="utf-8")]
    groups: dict[tuple[Any, ...], Counter[str]] = defaultdict(Counter)
    for r in rows:
        g = _joker_group(r) + (str(r["expert"]),)
        groups[g]["n"] += 1
        if r["search"] != r["expert"]:
            groups[g]["over"] += 1
            groups[g]["to " + str(r["search"])] += 1
    print(f"{args.file}: {len(rows)} decisions")
    print("other half, performed, bank later, cashable here, dist, expert: n, overruled, to")
    for g in sorted(groups, key=lambda x: -groups[x]["n"]):
        c = groups[g]
        to = ", ".join(f"{k[3:]} {v}" for k, v in c.most_common() if k.startswith("to "))
        print(f"{g}: {c['n']}, {c['over']} ({100 * c['over'] / c['n']:.0f}%) {to}")


class ExpertWithoutJokerRound(Expert):
    """The expert forger whose Joker takes the Bank at its value in her bids,
    wherever she performs it (Expert.JOKER_ROUND off)."""

    JOKER_ROUND = False


class ExpertWithoutBankSpare(Expert):
    """The expert forger bidding every Bank half as her cash while a check
    of her hand cashes in her city, however many Banks she is on
    (Expert.BANK_SPARE off)."""

    BANK_SPARE = False


class Expert1307(Expert):
    """Commit 1307f71's expert forger, game for game (JOKER_ROUND and
    BANK_SPARE off)."""

    JOKER_ROUND = False
    BANK_SPARE = False


class ExpertJokerNoCash(Expert):
    """JOKER_ROUND's half: her Joker skips the Bank only when no check of
    her hand cashes in her city (a later Bank of hers is not counted)."""

    def _joker_bank_spare(self, view: View, b: Any) -> bool:
        here_cont = b.cont[view.angela_city]
        return not any(b.check_cont[c] == here_cont for c in view.hand)


class ExpertJokerCheck(Expert):
    """JOKER_ROUND, her Joker drawing a check (or, with a full hand, taking
    Security) where its Bank cashes nothing a later Bank would not, rather
    than its best other action by her bid values."""

    def on_joker(self, view: View, decision: Decision) -> Any:
        b = board_for(view.comps)
        if view.seat == ANGELA and self._joker_bank_spare(view, b):
            here_cont = b.cont[view.angela_city]
            if any(b.check_cont[c] == here_cont for c in view.hand):
                room = view.rules.hand_limit - len(view.hand)
                for o in (("check", "security") if room > 0 else ("security",)):
                    if o in decision.options:
                        return o
        return super().on_joker(view, decision)


class ExpertMoveSpare(Expert):
    """A candidate: with nothing to cash in her city, the steps of her way
    to her cash that Movement halves she is already on will walk count
    once: a further Movement half is worth the steps of the way left."""

    def _angela_ordered(self, view: View, b: Any, m_h: list[float],
                        m_o: list[float]) -> tuple[list[float], list[float]]:
        h, o = super()._angela_ordered(view, b, m_h, m_o)
        if self._order_ctx[0]:
            return h, o
        targets = self._angela_targets(view, b)
        if not targets:
            return h, o
        d = b.open_dist_from(targets, view.barriers)[view.angela_city]
        halves = b.halves
        cards = view.cards
        steps = 0
        for i, row in enumerate(view.slots):
            for half in (0, 1):
                x = row[half]
                if x is not None and x[0] == ANGELA:
                    card = halves[cards[i]]
                    for a, n in ((card[half],) if row[1 - half] is not None else (card[half], card[1 - half])):
                        if a == MOVEMENT:
                            steps += n
        if not steps:
            return h, o
        h = list(h)
        o = list(o)
        left = max(0, d - steps)
        for i, c in enumerate(cards):
            card = halves[c]
            for half in (0, 1):
                a, n = card[half]
                if a == MOVEMENT:
                    cut = min(n, d) - min(n, left)
                    h[2 * i + half] -= cut
                    o[2 * i + 1 - half] -= cut
        return h, o


class Search1307(Search):
    """Search's forger built on Expert1307 (its prior and its play-outs):
    what the two rules add to search."""

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        style = {"risk": self.params["risk"], "greed": self.params["greed"]}
        look = self.expert.look_ahead
        self.expert = Expert1307(**style, dossier=self.expert._particles)
        self.expert.look_ahead = look
        self._players = (Expert1307(**style, dossier=0), Expert1307(**style, dossier=0))
        if self.rollout_dossier:
            self._players[1].look_ahead = look


def _forger(ref: str) -> Strategy:
    """A level (``expert``, ``search@kinds=...``) or a class of this module
    or of ``benchmarks.forger_kinds``."""
    for mod in (globals(), vars(fk)):
        if ref in mod and isinstance(mod[ref], type):
            return mod[ref]()  # type: ignore[no-any-return]
    name, params = _spec(ref, 2)
    return load_strategy(name, params)


def versus(args: argparse.Namespace) -> None:
    """``forger_kinds versus``, with this module's classes too."""
    fk.versus(args, forger=_forger)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    lg = sub.add_parser("log")
    lg.add_argument("--kind", required=True)
    lg.add_argument("--out", required=True)
    lg.add_argument("--games", type=int, default=1000)
    lg.add_argument("--seed", type=int, default=5)
    lg.add_argument("--jessah", default="expert")
    t = sub.add_parser("table")
    t.add_argument("file")
    v = sub.add_parser("versus")
    v.add_argument("a", help="the forger compared against: a level or a class of this module or forger_kinds")
    v.add_argument("b")
    v.add_argument("--games", type=int, default=1000)
    v.add_argument("--seed", type=int, default=97)
    v.add_argument("--jessah", default="expert")
    args = ap.parse_args()
    {"log": log, "table": table, "versus": versus}[args.cmd](args)


if __name__ == "__main__":
    main()
