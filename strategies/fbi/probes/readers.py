"""FBI probes: the expert with one opinion added, each reading one habit of
the expert players around it.

The expert decides from what is open on the table (slammers, table, bids,
played agents, F2, F6) and its own seat, so its choices can be predicted by
a copy of it sat in another seat's chair: a *rival view* is the probe's own
view with the seat changed and its secret agents left out (``my_pair`` none,
``my_agents`` empty). Nothing hidden from the probe's seat enters one: not
the deck order, not a rival's chosen agents (F6), only what the rival's copy
would choose from the public table. Against players who are not experts the
prediction is just wrong, and the probe plays worse than its base; against
experts it is one draw from the odds the rival draws his pick from.

- :class:`PairReader` (agents): the expert draws its field agents from odds
  it computes on the open table (its own stream draws the pick); the probe
  predicts each rival's pair with a copy of the expert (its own draw from
  the same odds) and picks the pair whose turn, played out against those
  pairs in the known order of arrests (F4, F5), ends best.
- :class:`ArrestReader` (arrests): the expert plays its arrests against
  rivals' agents drawn from its odds of their pairs; the probe assumes the
  pair a copy of the expert predicts for him.
- :class:`BidReader` (bid): the expert values its bid assuming the later
  bidders dump their worst bystander (the rule player's bid); the probe
  predicts each later bidder's bid with a copy of the expert, in bidding
  order (F2), given its own bid, and values its bid against those.
"""

from __future__ import annotations

import random
from typing import Any

from rnsim_strategies.fbi.expert import NO_CARD, NOT_YET, ExpertStrategy
from rnsim_strategies.fbi.model import pair_colours, table_values

from rnsim.games.fbi.state import Decision
from rnsim.games.fbi.view import FbiView


def rival_view(view: Any, seat: int, table: Any = None, slammers: Any = None, bids: Any = None) -> FbiView:
    """``view`` as ``seat`` would see the open table: the probe's own secret
    agents left out (and the rival's, which the probe does not know); the
    table, slammers or bids replaced when given."""
    return FbiView(seat, view.players, view.rules, view.comps, view.turn, view.last_turn, view.handcuffs,
                   view.first_handcuffs, view.deck_size, view.table if table is None else table,
                   view.slammers if slammers is None else slammers, view.released,
                   view.bids if bids is None else bids, view.order, view.phase, view.step, None, (),
                   view.played, view.arrests)


class _Reader(ExpertStrategy):
    """The expert, with a copy of the expert (default params) to predict the
    others with."""

    base = "expert"

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        self._model = ExpertStrategy()
        # the copy draws its mixed choices from a stream of its own (the
        # probe's, forked): it cannot know the rivals' streams
        self._model.new_game(seat, random.Random(rng.getrandbits(64)))
        self._predicted: tuple[int, list[list[int]]] | None = None  # (turn, colours per seat)

    def _as(self, seat: int) -> ExpertStrategy:
        self._model.seat = seat
        return self._model

    def predict_pairs(self, view: Any, options: list[tuple[str, ...]], table: Any = None,
                      slammers: Any = None) -> list[list[int]]:
        """Per seat, the colours a copy of the expert picks on this table
        (``options``: the legal pairs, the same for every seat, F6); the
        probe's own entry is empty."""
        comps = view.comps
        out: list[list[int]] = []
        for s in range(view.players):
            if s == self.seat:
                out.append([])
                continue
            got = self._as(s).on_agents(rival_view(view, s, table, slammers), Decision(s, "agents", options))
            out.append(pair_colours(got, comps.colours, comps.doubler))
        return out


class PairReader(_Reader):
    """Picks its agents against the pairs a copy of the expert predicts for
    the others: each pair's turn played out in the order of arrests."""

    name = "pair_reader"

    def on_agents(self, view: Any, decision: Any) -> Any:
        others = self.predict_pairs(view, decision.options)
        self._predicted = (view.turn, others)
        totals, points = self._position(view)
        table = table_values(view)
        best, best_v = decision.options[0], -1e9
        for pair in decision.options:
            v = self._turn_value(view, view.order, table, totals, points, pair, others)
            if v > best_v + 1e-9:
                best, best_v = pair, v
        return best


class ArrestReader(_Reader):
    """Picks its agents as the expert does; in its arrests a rival who has
    played no agent holds the pair a copy of the expert predicted for him
    when the agents were chosen, and one who has played one its partner."""

    name = "arrest_reader"

    def on_agents(self, view: Any, decision: Any) -> Any:
        self._predicted = (view.turn, self.predict_pairs(view, decision.options))
        return super().on_agents(view, decision)

    def _held_samples(self, view: Any, table: list[list[int]]) -> list[list[list[int]]]:
        """One table of the agents held: the predicted pairs (the expert's
        samples when nothing was predicted this turn)."""
        if self._predicted is None or self._predicted[0] != view.turn:
            return super()._held_samples(view, table)
        return [self._agents_held(view, table)]

    def _agents_held(self, view: Any, table: list[list[int]]) -> list[list[int]]:
        held = super()._agents_held(view, table)
        if self._predicted is None or self._predicted[0] != view.turn:
            return held  # agents were forced this turn (FR2): nothing predicted
        pairs = self._predicted[1]
        for s in range(view.players):
            if s == self.seat or not pairs[s]:
                continue
            played = list(view.played[s])
            rest = pairs[s][:]
            for c in played:
                if c not in rest:
                    break  # the prediction was wrong: keep the expert's reading
                rest.remove(c)
            else:
                held[s] = rest
        return held


class BidReader(_Reader):
    """Values its bid against the later bidders' bids as copies of the
    expert would make them, in bidding order, given the bid the expert
    would make in its place."""

    name = "bid_reader"
    _later: dict[int, int] | None = None  # the later bidders' predicted bids, while a bid is valued

    def on_bid(self, view: Any, decision: Any) -> Any:
        mine = super().on_bid(view, decision)
        self._later = self._expert_bids(view, mine)
        try:
            return super().on_bid(view, decision)
        finally:
            self._later = None

    def _later_bids(self, view: Any) -> list[int]:
        out = list(super()._later_bids(view))  # per seat: made, the rule player's for a later bidder, mine NOT_YET
        if self._later is not None:
            for s, card in self._later.items():
                out[s] = card
        return out

    def _expert_bids(self, view: Any, mine: Any) -> dict[int, int]:
        """Each later bidder's bid (a card id or ``NO_CARD``) as a copy of
        the expert makes it, clockwise from the handcuffs holder (F2)."""
        n = view.players
        bids = list(view.bids)
        bids[self.seat] = NO_CARD if mine == "none" else mine
        out: dict[int, int] = {}
        for k in range(n):
            s = (view.handcuffs + k) % n
            if s == self.seat or bids[s] != NOT_YET:
                continue
            options = bid_options(view, s)
            got = options[0] if len(options) == 1 else self._as(s).on_bid(
                rival_view(view, s, bids=tuple(bids)), Decision(s, "bid", options))
            bids[s] = out[s] = NO_CARD if got == "none" else got
        return out


def bid_options(view: Any, seat: int) -> list[Any]:
    """A seat's legal bids, as the rules offer them: its open slammer's (F3, FR3, FR7)."""
    return view.comps.bid_options(view.slammers[seat], view.rules.bid_cards)
