"""An expert FBI player: plays the rest of the turn out in its head.

- Arrest: which colours can the others still take? A player who has played
  one agent keeps the partner that makes his best pair with it (F6, F7); one
  who has played none holds his best pair on the table as it was when agents
  were chosen (the view's arrests this turn are put back to rebuild it). It
  plays the rest of the turn out for each of its agents (everyone greedy
  afterwards) and keeps the better end position.
- Bid: what is the bid worth against the card's points? For each card it
  could move (or none) it predicts the later bids (rule players dump their
  worst bystander), the order of arrests (F4), and the turn's arrests with
  its best pairs of agents against rule-modelled rivals; a bystander is
  dumped, or a villain given up for a better place, when that is worth more
  than keeping the card.
- Agents: the pair whose two arrests leave the best end position. Assuming
  the others contest its colours (param ``contention``, 0..1) measured worse
  against mixed tables, so the default (0) scores a pair by its own arrests.

An end position is scored as its points minus the best rival's, each colour's
bonus card counted for its strict leader (F11): in full on the last turn (F9),
at ``bonus_weight`` before it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from rnsim_strategies.fbi.model import (
    evaluate,
    pair_colours,
    play_out,
    rule_pair,
    second_value,
    table_values,
    take_value,
)

from rnsim.strategy import Strategy

NOT_YET, NO_CARD = -2, -1


def legal_pairs(table: list[list[int]], colours: tuple[str, ...], doubler: str, with_doubler: bool) -> list[tuple[str, ...]]:
    legal = [c for c in range(len(colours)) if table[c]]
    out: list[tuple[str, ...]] = []
    for i, a in enumerate(legal):
        for b in legal[i + 1:]:
            out.append((colours[a], colours[b]))
        if with_doubler:
            out.append((colours[a], doubler))
    return out or [(colours[c],) for c in legal]


def top_pairs(pairs: list[tuple[str, ...]], table: list[list[int]], stacked: bool, colours: tuple[str, ...],
              doubler: str, k: int) -> list[tuple[str, ...]]:
    def score(p: tuple[str, ...]) -> int:
        cols = pair_colours(p, colours, doubler)
        if len(cols) == 2 and cols[0] == cols[1]:
            return take_value(table[cols[0]], stacked) + second_value(table[cols[0]], stacked)
        return sum(take_value(table[c], stacked) for c in cols)

    return sorted(pairs, key=score, reverse=True)[:k]


class ExpertStrategy(Strategy):
    name = "expert"
    AGENTS_RIVAL = 1.0
    PARAMS: ClassVar[dict[str, Any]] = {"bonus_weight": 0.5, "bid_pairs": 4, "contention": 0.0}
    PARAM_RANGES: ClassVar[dict[str, tuple[type, float | None, float | None]]] = {
        "bonus_weight": (float, 0.0, 1.0),
        "bid_pairs": (int, 1, 15),
        "contention": (float, 0.0, 1.0),
    }

    # ------------------------------------------------------------ shared facts

    def _position(self, view: Any) -> tuple[list[list[int]], list[int]]:
        comps = view.comps
        col, val = comps.card_colour, comps.card_value
        k = len(comps.colours)
        totals = [[0] * view.players for _ in range(k)]  # colour-major: totals[colour][seat]
        points = [0] * view.players
        for s, cards in enumerate(view.slammers):
            for c in cards:
                points[s] += val[c]
                if col[c] >= 0:
                    totals[col[c]][s] += val[c]
        return totals, points

    def _weight(self, view: Any) -> float:
        return 1.0 if view.last_turn else float(self.params["bonus_weight"])

    def _score(self, view: Any, totals: list[list[int]], points: list[int], rival: float = 1.0) -> float:
        return evaluate(self.seat, totals, points, view.comps.bonus, self._weight(view),
                        view.rules.bonus_needs_positive, rival)

    @staticmethod
    def _seq(order: list[int] | tuple[int, ...], start: int) -> list[int]:
        n = len(order)
        return [order[i] if i < n else order[2 * n - 1 - i] for i in range(start, 2 * n)]

    def _turn_value(self, view: Any, order: list[int] | tuple[int, ...], table: list[list[int]],
                    totals: list[list[int]], points: list[int], pair: tuple[str, ...],
                    others: list[list[int]]) -> float:
        comps = view.comps
        agents = [a[:] for a in others]
        agents[self.seat] = pair_colours(pair, comps.colours, comps.doubler)
        t = [x[:] for x in table]
        tot = [x[:] for x in totals]
        pts = points[:]
        play_out(self._seq(order, 0), agents, t, tot, pts, view.rules.stacked)
        return self._score(view, tot, pts, self.AGENTS_RIVAL)

    def _alone_value(self, view: Any, table: list[list[int]], totals: list[list[int]], points: list[int],
                     pair: tuple[str, ...]) -> float:
        """A pair's worth if nobody else took a card this turn: its two arrests
        (the second of a 2x pair takes the colour's next card)."""
        comps = view.comps
        stacked = view.rules.stacked
        cols = pair_colours(pair, comps.colours, comps.doubler)
        tot = [x[:] for x in totals]
        pts = points[:]
        me = self.seat
        if len(cols) == 2 and cols[0] == cols[1]:
            c = cols[0]
            gains = [(c, take_value(table[c], stacked)), (c, second_value(table[c], stacked))]
        else:
            gains = [(c, take_value(table[c], stacked)) for c in cols]
        for c, v in gains:
            tot[c][me] += v
            pts[me] += v
        return self._score(view, tot, pts)

    def _others_pairs(self, view: Any, table: list[list[int]]) -> list[list[int]]:
        comps = view.comps
        opts = legal_pairs(table, comps.colours, comps.doubler, view.rules.doubler)
        pair = rule_pair(opts, table, view.rules.stacked, comps.colours, comps.doubler)
        cols = pair_colours(pair, comps.colours, comps.doubler)
        return [cols[:] for _ in range(view.players)]

    # --------------------------------------------------------------- decisions

    def on_agents(self, view: Any, decision: Any) -> Any:
        table = table_values(view)
        totals, points = self._position(view)
        c = float(self.params["contention"])
        others = self._others_pairs(view, table) if c > 0 else []
        alone: list[list[int]] = [[] for _ in range(view.players)]
        best, best_v = decision.options[0], -1e9
        for pair in decision.options:
            v = c * self._turn_value(view, view.order, table, totals, points, pair, others) if c > 0 else 0.0
            if c < 1:
                v += (1 - c) * (self._alone_value(view, table, totals, points, pair) if c == 0 else
                                self._turn_value(view, view.order, table, totals, points, pair, alone))
            if v > best_v + 1e-9:
                best, best_v = pair, v
        return best

    def on_arrest(self, view: Any, decision: Any) -> Any:
        comps = view.comps
        val, col = comps.card_value, comps.card_colour
        table = table_values(view)
        stacked = view.rules.stacked
        # the table as it was when the agents were chosen: put this turn's
        # arrests back, last first (restores the stacks exactly, F15)
        before = [t[:] for t in table]
        for _, card in reversed(view.arrests):
            if card >= 0:
                before[col[card]].append(val[card])
        if not stacked:
            for t in before:
                t.sort(reverse=True)
        opts_then = legal_pairs(before, comps.colours, comps.doubler, view.rules.doubler)
        agents: list[list[int]] = []
        for s in range(view.players):
            if s == self.seat:
                agents.append(list(view.my_agents))
                continue
            played = list(view.played[s])
            if len(played) >= 2:
                agents.append([])
            elif not played:
                pair = rule_pair(opts_then, before, stacked, comps.colours, comps.doubler)
                agents.append(pair_colours(pair, comps.colours, comps.doubler))
            else:
                p = comps.colours[played[0]]
                with_p = [o for o in opts_then if p in o]
                if not with_p:
                    agents.append([])
                    continue
                pair = rule_pair(with_p, before, stacked, comps.colours, comps.doubler)
                cols = pair_colours(pair, comps.colours, comps.doubler)
                cols.remove(played[0])
                agents.append(cols)
        totals, points = self._position(view)
        seq = self._seq(view.order, view.step)
        best, best_v = decision.options[0], -1e9
        greedy = max(decision.options, key=lambda o: take_value(table[comps.colours.index(o)], stacked))
        for opt in decision.options:
            a = [x[:] for x in agents]
            t = [x[:] for x in table]
            tot = [x[:] for x in totals]
            pts = points[:]
            play_out(seq, a, t, tot, pts, stacked, first=comps.colours.index(opt))
            v = self._score(view, tot, pts) + (1e-6 if opt == greedy else 0.0)
            if v > best_v:
                best, best_v = opt, v
        return best

    def on_bid(self, view: Any, decision: Any) -> Any:
        comps = view.comps
        val = comps.card_value
        n = view.players
        h = view.handcuffs
        table = table_values(view)
        totals, points = self._position(view)
        others = self._others_pairs(view, table)
        # only the pairs that look best on their own: a bid changes the order,
        # rarely which colours are worth taking
        my_pairs = top_pairs(legal_pairs(table, comps.colours, comps.doubler, view.rules.doubler),
                             table, view.rules.stacked, comps.colours, comps.doubler, int(self.params["bid_pairs"]))
        mode = view.rules.bid_cards
        # the later bidders, modelled as the rule player: dump the worst bystander
        later: dict[int, int] = {}
        for s in range(n):
            if s != self.seat and view.bids[s] == NOT_YET:
                cards = [c for c in view.slammers[s] if mode == "any" or (mode == "purple" and c in comps.purple)]
                worst = min(cards, key=lambda c: val[c], default=None)
                later[s] = worst if worst is not None and val[worst] < 0 else NO_CARD
        base_tot = [x[:] for x in totals]
        base_pts = points[:]
        for s, c in later.items():
            if c >= 0:
                base_pts[s] -= val[c]
                if comps.card_colour[c] >= 0:
                    base_tot[comps.card_colour[c]][s] -= val[c]
        # The arrests add cards whatever the bid removed, so the turn is played
        # out once per distinct order of arrests and pair, and every bid with
        # that order is then scored by taking its card off the result.
        outcomes: dict[tuple[int, ...], list[tuple[list[list[int]], list[int]]]] = {}
        best, best_v = "none", -1e9
        for opt in decision.options:  # "none" first: keep the card on equal value
            bid_val = [0] * n
            for s in range(n):
                b = view.bids[s] if s != self.seat else (NO_CARD if opt == "none" else opt)
                if s in later:
                    b = later[s]
                bid_val[s] = val[b] if b >= 0 else 0
            order = tuple(sorted(range(n), key=lambda s: (-bid_val[s], (s - h) % n)))
            results = outcomes.get(order)
            if results is None:
                results = []
                for pair in my_pairs:
                    agents = [a[:] for a in others]
                    agents[self.seat] = pair_colours(pair, comps.colours, comps.doubler)
                    t = [x[:] for x in table]
                    tot = [x[:] for x in base_tot]
                    pts = base_pts[:]
                    play_out(self._seq(order, 0), agents, t, tot, pts, view.rules.stacked)
                    results.append((tot, pts))
                outcomes[order] = results
            v = -1e9
            for tot, pts in results:
                if opt != "none":
                    tot = [x[:] for x in tot]
                    pts = pts[:]
                    pts[self.seat] -= val[opt]
                    if comps.card_colour[opt] >= 0:
                        tot[comps.card_colour[opt]][self.seat] -= val[opt]
                v = max(v, self._score(view, tot, pts))
            if v > best_v + 1e-9:
                best, best_v = opt, v
        return best
