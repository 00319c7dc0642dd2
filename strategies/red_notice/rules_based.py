"""A simple rule-based player for both seats: the middle rung of the ladder.

Angela (the forger): cash whenever she stands in a city of a colour she holds,
otherwise walk toward the nearest such city; draw checks when she holds none.
Jessah (the agent): walk toward where Angela was last seen and inspect there,
put radars on the continent where she was last seen.
Tokens go, highest first, on the card half with the most useful action.
Neither side reads anything beyond its own view.
"""

from __future__ import annotations

from rnsim_strategies.red_notice.base import RedNoticeStrategy as Strategy
from rnsim_strategies.red_notice.board import BANK, CHECK, FAR, JOKER, MOVEMENT, SECURITY, Board, board_for

from rnsim.games.red_notice.engine.decision import (
    ANGELA,
    AngelaMoveOption,
    BankOption,
    City,
    Continent,
    Decision,
    IdentityId,
    JessahMoveOption,
    JessahSecurityOption,
    JokerOption,
    StartOption,
    TokenPlacement,
    UpgradeId,
)
from rnsim.games.red_notice.engine.view import View


class RuleBased(Strategy):
    """Plays either seat with a handful of fixed rules."""

    name = "rule"
    uses_history = False
    uses_worlds = False

    def _board(self, view: View) -> Board:
        return board_for(view.comps)

    # ---------------------------------------------------------------- helpers

    def _hand_targets(self, view: View, b: Board) -> int:
        """Cities where a check of Angela's hand can be cashed."""
        m = 0
        for c in view.hand:
            m |= b.cont_mask[b.check_cont[c]]
        return m

    def _last_known(self, view: View, b: Board) -> int:
        """Jessah's idea of where Angela is: the city she was last seen in, or
        else the most central city of the continent she was last seen on."""
        ls = view.last_seen
        if ls is None:
            return view.jessah_city
        if ls[0] >= 0:
            return ls[0]
        cities = b.comps.continents[ls[1]].cities
        return min(cities, key=lambda c: (b.centrality[c], c))

    # ------------------------------------------------------------------ setup

    def on_start(self, view: View, decision: Decision[StartOption]) -> StartOption:
        b = self._board(view)
        if view.seat == ANGELA:
            best, best_key = decision.options[0], None
            for chk, city in decision.options:
                d = b.dist_to_mask(b.cash_targets(view.hand, shown=chk))[city]
                key = (d, -b.dist[city][view.jessah_city], chk, city)
                if best_key is None or key < best_key:
                    best, best_key = (chk, city), key
            return best
        return min(decision.options, key=lambda o: (b.centrality[o[1]], o))

    def on_setup_radar(self, view: View, decision: Decision[Continent]) -> Continent:
        b = self._board(view)
        return max(decision.options, key=lambda k: (b.cont_mask[k].bit_count(), -k))

    # ---------------------------------------------------------------- tokens

    def _half_value(self, view: View, b: Board, action: int, icons: int) -> float:
        if view.seat == ANGELA:
            here = view.angela_city
            can_cash = any(b.check_cont[c] == b.cont[here] for c in view.hand)
            if action == BANK:
                return 3.0 if can_cash else 0.0
            if action == MOVEMENT:
                return 0.5 if can_cash else 1.0 * icons
            if action == CHECK:
                return 1.5 if not view.hand else 0.4
            if action == SECURITY:
                return 0.2
            return max(3.0 if can_cash else 0.0, 1.0, 1.5 if not view.hand else 0.4)  # joker
        if action == MOVEMENT:
            return 1.0 * icons
        if action == SECURITY:
            return 0.5 * icons
        if action == JOKER:
            return 1.0
        if action == CHECK:
            return 0.2
        return 0.1

    def on_place_token(self, view: View, decision: Decision[TokenPlacement]) -> TokenPlacement:
        b = self._board(view)
        best, best_key = decision.options[0], None
        top = max(v for v, _, _ in decision.options)
        for v, i, half in decision.options:
            if v != top:
                continue  # the highest token first, on the best half
            action, icons = b.halves[view.cards[i]][half]
            key = (self._half_value(view, b, action, icons), -i, -half)
            if best_key is None or key > best_key:
                best, best_key = (v, i, half), key
        return best

    # --------------------------------------------------------------- actions

    def on_joker(self, view: View, decision: Decision[JokerOption]) -> JokerOption:
        b = self._board(view)
        if view.seat == ANGELA:
            if any(b.check_cont[c] == b.cont[view.angela_city] for c in view.hand):
                return "bank"
            return "check" if not view.hand else "movement"
        return "movement"

    def on_bank(self, view: View, decision: Decision[BankOption]) -> BankOption:
        b = self._board(view)
        cashable = [o for o in decision.options if o != "pass"]
        return max(cashable, key=lambda c: (b.check_value[c], -c))

    def on_upgrade(self, view: View, decision: Decision[UpgradeId]) -> UpgradeId:
        return decision.options[0]

    def on_identity(self, view: View, decision: Decision[IdentityId]) -> IdentityId:
        ids = {x.id: x for x in view.comps.identities}
        return max(decision.options, key=lambda i: (ids[i].moves, i))

    def on_angela_move(self, view: View, decision: Decision[AngelaMoveOption]) -> AngelaMoveOption:
        b = self._board(view)
        here = view.angela_city
        targets = self._hand_targets(view, b)
        if decision.info.get("escape"):
            # Run from Jessah, who is standing right here.
            moves = [o for o in decision.options if o != "stop" and o != "stay" and o[0] == "move"]
            if not moves:
                return "stop"
            return max(moves, key=lambda o: (b.dist[view.jessah_city][o[1]], -o[1]))
        if not targets or targets >> here & 1:
            return "stop"
        d = b.open_dist_from(targets, view.barriers)
        moves = [o for o in decision.options if isinstance(o, tuple) and o[0] == "move"]
        if not moves:
            return "stop"
        step = min(moves, key=lambda o: (d[o[1]], o[1]))
        return step if d[step[1]] < d[here] or d[here] >= FAR else "stop"

    def on_jessah_move(self, view: View, decision: Decision[JessahMoveOption]) -> JessahMoveOption:
        b = self._board(view)
        goal = self._last_known(view, b)
        here = view.jessah_city
        if goal == here:
            return "inspect" if view.belief >> here & 1 else "stop"
        moves = [o for o in decision.options if isinstance(o, tuple)]
        return min(moves, key=lambda o: (b.dist[o[1]][goal], o[1]))

    def on_jessah_security(self, view: View, decision: Decision[JessahSecurityOption]) -> JessahSecurityOption:
        b = self._board(view)
        goal = self._last_known(view, b)
        k = b.cont[goal]
        if ("radar", k) in decision.options:
            return ("radar", k)
        # a barrier on a route out of the last known city
        for _nb, r in b.nbr_routes[goal]:
            if ("barrier", r) in decision.options:
                return ("barrier", r)
        return "pass"

    def on_informant(self, view: View, decision: Decision[City]) -> City:
        b = self._board(view)
        return self._last_known(view, b)
