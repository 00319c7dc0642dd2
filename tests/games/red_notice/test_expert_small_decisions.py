"""The expert's small decisions (start, setup radar, bank) pick their option
by loops over the options, and its ``choose`` reaches the frequent kinds'
handlers by method calls; here each loop is held to the max() / min() with a
key it replaces on every such decision of expert games, both seats, a
subclass's overrides are what ``choose`` reaches, and ``Expert._b`` hands
out the board of the view's own component set.
"""

from __future__ import annotations

import copy
import random
from typing import Any

from rnsim_strategies.red_notice.board import Board, board_for
from rnsim_strategies.red_notice.expert import _PROXIMITY, Expert

from rnsim.games.red_notice.engine.decision import ANGELA, Decision
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import View, build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.play import play_game


def _textbook_start(view: View, decision: Decision, b: Board) -> Any:
    if view.seat != ANGELA:
        return min(decision.options, key=lambda o: (b.centrality[o[1]], -b.check_value[o[0]], o))
    best, best_key = decision.options[0], None
    for chk, city in decision.options:
        d = b.dist_to_mask(b.cash_targets(view.hand, shown=chk))[city]
        dj = b.dist[view.jessah_city][city]
        radar = 1.5 if view.radars[b.cont[city]] else 0.0
        score = -1.0 * min(d, 4) + 0.6 * min(dj, 4) - radar - 0.3 * (b.check_value[chk] > 100_000)
        key = (score, -chk, -city)
        if best_key is None or key > best_key:
            best, best_key = (chk, city), key
    return best


def _textbook_setup_radar(view: View, decision: Decision, b: Board) -> Any:
    return max(decision.options, key=lambda k: (b.cont_mask[k].bit_count(),
                                                -sum(b.centrality[c] for c in view.comps.continents[k].cities), -k))


def _textbook_bank(p: Expert, view: View, decision: Decision, b: Board) -> Any:
    cashable = [o for o in decision.options if o != "pass"]
    if view.seat != ANGELA:
        return max(cashable, key=lambda c: (b.check_value[c], -c))
    need = view.rules.money_target - view.cash_total[ANGELA]
    winning = [c for c in cashable if b.check_value[c] >= need]
    if winning:
        return winning[0]
    dj = b.dist[view.jessah_city][view.angela_city]
    if p._last_cash_pass and not view.identities_up and dj <= 1 and p.risk < 0.9:
        return "pass"
    frozen = "frozen_accounts" in view.permanents

    def pref(c: int) -> tuple[float, int]:
        val = b.check_value[c]
        s = val / 100_000 * (0.5 + p.greed)
        if val == view.rules.bonus_move_check_value and not frozen:
            s += 1.5 * (_PROXIMITY[dj] if dj < len(_PROXIMITY) else 0.0) + 0.2
        if val == view.rules.upgrade_check_value:
            s -= 0.4
        return (s, -c)

    return max(cashable, key=pref)


class _Checked(Expert):
    """The expert whose start, setup radar and bank are checked against the
    textbook's, and which counts the kinds its handlers are called for."""

    met: dict[str, int] = {}

    def _count(self, case: str) -> None:
        self.met[case] = self.met.get(case, 0) + 1

    def on_start(self, view: View, decision: Decision) -> Any:
        got = super().on_start(view, decision)
        assert got == _textbook_start(view, decision, self._b(view))
        self._count("angela start" if view.seat == ANGELA else "jessah start")
        return got

    def on_setup_radar(self, view: View, decision: Decision) -> Any:
        got = super().on_setup_radar(view, decision)
        assert got == _textbook_setup_radar(view, decision, self._b(view))
        self._count("setup radar")
        return got

    def on_bank(self, view: View, decision: Decision) -> Any:
        got = super().on_bank(view, decision)
        assert got == _textbook_bank(self, view, decision, self._b(view))
        self._count("angela bank" if view.seat == ANGELA else "jessah bank")
        return got

    # the kinds choose calls by method: the override is what runs
    def on_place_token(self, view: View, decision: Decision) -> Any:
        self._count(decision.kind)
        return super().on_place_token(view, decision)

    def on_angela_move(self, view: View, decision: Decision) -> Any:
        self._count(decision.kind)
        return super().on_angela_move(view, decision)

    def on_jessah_move(self, view: View, decision: Decision) -> Any:
        self._count(decision.kind)
        return super().on_jessah_move(view, decision)

    def on_jessah_security(self, view: View, decision: Decision) -> Any:
        self._count(decision.kind)
        return super().on_jessah_security(view, decision)

    def on_angela_security(self, view: View, decision: Decision) -> Any:
        self._count(decision.kind)
        return super().on_angela_security(view, decision)

    def on_check(self, view: View, decision: Decision) -> Any:
        self._count(decision.kind)
        return super().on_check(view, decision)


def test_the_small_decisions_are_the_textbook_ones_and_reach_the_overrides():
    _Checked.met = {}
    for i in range(40):
        play_game(seed=53, game_index=i, angela=_Checked(), jessah=_Checked())
    for case in ("angela start", "jessah start", "setup radar", "angela bank", "jessah bank", "place_token",
                 "angela_move", "jessah_move", "jessah_security", "angela_security", "check"):
        assert _Checked.met.get(case, 0) > 0, (case, _Checked.met)


def test_the_board_is_the_views_component_sets():
    rules = RuleSet()
    comps = rules.load_components()
    other = copy.copy(comps)  # an equal set, another object: its own board
    views = []
    for c in (comps, other):
        st = GameState.new(rules, random.Random(1), comps=c, seed=1)
        d = st.pending
        assert d is not None
        views.append(build_view(st, d.seat))
    for view in (*views, *views, views[1], views[0]):
        b = Expert._b(view)
        assert b is board_for(view.comps)
        assert b.comps is view.comps
