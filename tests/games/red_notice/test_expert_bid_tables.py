"""The expert's bids read the halves' values from tables by action * 4 +
icons (``Expert._placement_values``), the token odds from lists by value
(``Expert._count_odds``) and each half's terms once for its tokens
(``Expert.on_place_token``); here each is held to the dicts and the loop it
replaces, on every bid of expert games, both seats.
"""

from __future__ import annotations

from typing import Any

from rnsim_strategies.red_notice import expert as expert_module
from rnsim_strategies.red_notice.board import FAR, Board
from rnsim_strategies.red_notice.expert import _PROXIMITY, Expert, _open_dist

from rnsim.games.red_notice.engine.decision import ANGELA, Decision
from rnsim.games.red_notice.engine.view import View
from rnsim.play import play_game

BANK, CHECK, JOKER = expert_module.BANK, expert_module.CHECK, expert_module.JOKER
MOVEMENT, SECURITY, POW = expert_module.MOVEMENT, expert_module.SECURITY, expert_module.POW


def _textbook_angela(p: Expert, view: View, b: Board) -> dict[tuple[int, int], float]:
    here = view.angela_city
    targets = p._angela_targets(view, b)
    hand_here = [c for c in view.hand if b.check_cont[c] == b.cont[here]]
    can_cash = bool(hand_here)
    need = view.rules.money_target - view.cash_total[ANGELA]
    win_now = any(b.check_value[c] >= need for c in hand_here)
    d_open = _open_dist(b, targets, view.barriers)[here] if targets else FAR
    dj = b.dist[view.jessah_city][here]
    threat = _PROXIMITY[dj] if dj < len(_PROXIMITY) else 0.0
    vals: dict[tuple[int, int], float] = {}
    bank = (12.0 if win_now else 3.0) if can_cash else (1.2 if d_open <= 2 else 0.2)
    vals[(BANK, 1)] = bank
    for n in (1, 2, 3):
        if can_cash:
            mv = 0.3 * n + 1.5 * threat * n
        elif targets:
            mv = 1.0 * min(n, d_open) + 0.2 + 1.2 * threat
        else:
            mv = 0.4 * n + 1.2 * threat
        vals[(MOVEMENT, n)] = mv
        room = view.rules.hand_limit - len(view.hand)
        far = d_open >= 3
        vals[(CHECK, n)] = 0.0 if room <= 0 else (1.0 if (not view.hand or far) else 0.35) * min(n, room)
        vals[(SECURITY, n)] = 0.1 * n if view.security >= view.rules.security_cap else 0.25 * n
    vals[(JOKER, 1)] = max(bank, vals[(MOVEMENT, 1)], vals[(CHECK, 1)], vals[(SECURITY, 1)])
    return vals


def _textbook_jessah(view: View, b: Board, angela_city: int) -> dict[tuple[int, int], float]:
    here = view.jessah_city
    jet = 1 if "private_jet" in view.permanents else 0
    cap_w = 6.0 if len(view.identities_up) == 0 else 4.0
    vals: dict[tuple[int, int], float] = {}
    for n in (1, 2, 3):
        steps = n + jet
        if angela_city >= 0:
            p = 1.0 if b.dist[here][angela_city] <= steps else 0.0
            p /= max(1, min(view.belief.bit_count(), 4)) ** 0.5
        else:
            p = Expert._capture_bound(view, b, steps)
        vals[(MOVEMENT, n)] = cap_w * p + 0.35 * steps
    supply = view.radar_supply + view.barrier_supply
    room = view.rules.hand_limit - view.hand_sizes[1]
    for n in (1, 2):
        vals[(SECURITY, n)] = (0.55 if supply else 0.25) * n
        vals[(CHECK, n)] = 0.3 * min(n, room) if view.check_deck_size else 0.0
    if view.seat != ANGELA:
        bank = 0.0
        for c in view.hand:
            if b.check_cont[c] == b.cont[here]:
                bank = max(bank, 1.6 if b.check_value[c] == view.rules.upgrade_check_value else 0.8)
    else:
        bank = 0.2
    vals[(BANK, 1)] = bank
    vals[(JOKER, 1)] = max(bank, vals[(MOVEMENT, 1)], vals[(SECURITY, 1)], vals[(CHECK, 1)])
    for n in (1, 2, 3):
        vals.setdefault((SECURITY, n), 0.5 * n)
        vals.setdefault((CHECK, n), 0.3 * n)
    return vals


def _textbook_generic() -> dict[tuple[int, int], float]:
    v = {(BANK, 1): 1.8, (JOKER, 1): 1.8}
    for n in (1, 2, 3):
        v[(MOVEMENT, n)] = 0.7 * n
        v[(CHECK, n)] = 0.35 * n
        v[(SECURITY, n)] = 0.2 * n
    return v


def _textbook_odds(view: View) -> dict[int, tuple[float, float, int]]:
    opp = view.opponent_tokens_left()
    n_opp = max(1, len(opp))
    odds: dict[int, tuple[float, float, int]] = {}
    for v in set(view.comps.tokens):
        below = sum(1 for o in opp if o < v and o != v)
        same = sum(1 for o in opp if o == v)
        if v == POW:
            odds[v] = (1.0 - same / n_opp, same / n_opp, 6)
        else:
            odds[v] = (below / n_opp, same / n_opp, v)
    return odds


def _as_table(vals: dict[tuple[int, int], float]) -> list[float]:
    t = [0.0] * 20
    for (a, n), v in vals.items():
        t[a * 4 + n] = v
    return t


def _textbook_bid(p: Expert, view: View, decision: Decision, m_h: list[float], m_o: list[float],
                  o_h: list[float]) -> Any:
    """on_place_token's choice: every option scored on its own, the odds from the dict."""
    me = view.seat
    slots = view.slots
    placed_opp = sum(1 for row in slots for x in row if x is not None and x[0] != me)
    free = [i for i, row in enumerate(slots) if not any(x is not None and x[0] != me for x in row)]
    pairs = sorted(((o_h[2 * i] + o_h[2 * i + 1], i) for i in free if slots[i][0] is None and slots[i][1] is None),
                   key=lambda t: -t[0])
    best_pairs = [(pair, i) for pair, i in pairs if pair > 0.0][:2]
    alt1, alt_card = best_pairs[0] if best_pairs else (0.0, -1)
    alt2 = best_pairs[1][0] if len(best_pairs) > 1 else 0.0
    opp_left = view.rules.tokens_per_round - placed_opp
    q = min(1.0, opp_left / len(free)) * p._contest if free else 0.0
    odds = _textbook_odds(view)
    n_opp = max(1, len(view.opponent_tokens_left()))
    has_pow = POW in view.opponent_tokens_left()
    pow_left = min(1.0, opp_left / n_opp) if has_pow else 0.0
    pow_facing = 1.0 / n_opp if has_pow else 0.0
    threat = pow_left * p._deny
    use = 1.0 if me == ANGELA else 0.0
    exposed = Expert._denial_stakes(slots, me, m_h, m_o, o_h) if threat > 0.0 else 0.0
    scored = []
    for n, (v, i, half) in enumerate(decision.options):
        p_win, p_tie, strength = odds[v]
        k = 2 * i + half
        mh, mo, oh = m_h[k], m_o[k], o_h[k]
        if slots[i][1 - half] is not None:
            if v == POW:
                score = mh + (mo + oh + use * o_h[k ^ 1]) * p_win + oh * p_tie
            else:
                score = mh * (1.0 - pow_facing) + (mo + oh) * p_win + oh * p_tie
        else:
            score = mh + mo * (1 - q) + mo * q * p_win
            if v != POW and threat > 0.0:
                stakes = mh + mo + oh + o_h[k ^ 1]
                if stakes >= exposed and stakes >= (alt2 if alt_card == i else alt1):
                    score -= threat * (score + oh)
        score -= p._token_cost * strength
        scored.append((-score, strength, i, half, n))
    return decision.options[min(scored)[4]]


class _Checked(Expert):
    """The expert whose every bid, value table and odds are checked against
    the textbook's (counted per case met)."""

    met: dict[str, int] = {}

    def _count(self, case: str) -> None:
        self.met[case] = self.met.get(case, 0) + 1

    def _placement_values(self, view: View, b: Board) -> tuple[list[float], list[float]]:
        mine, theirs = super()._placement_values(view, b)
        if view.seat == ANGELA:
            want = (_textbook_angela(self, view, b), _textbook_jessah(view, b, view.angela_city))
        else:
            want = (_textbook_jessah(view, b, -1), _textbook_generic())
        assert (mine, theirs) == (_as_table(want[0]), _as_table(want[1]))
        self._count("angela values" if view.seat == ANGELA else "jessah values")
        return mine, theirs

    def on_place_token(self, view: View, decision: Decision) -> Any:
        got = super().on_place_token(view, decision)
        assert self._odds(view) == _textbook_odds(view)
        assert self._opp_unrevealed == len(view.opponent_tokens_left())
        assert self._opp_has_pow == (POW in view.opponent_tokens_left())
        m_h, m_o, o_h = self._bid_values(view, self._b(view))
        want = _textbook_bid(self, view, decision, m_h, m_o, o_h)
        assert got == want, (got, want)
        self._count("bid")
        if view.spent[1 - view.seat]:
            self._count("her tokens spent")
        if not self._opp_has_pow:
            self._count("her POW! spent")
        if any(x is not None and x[0] != view.seat for row in view.slots for x in row):
            self._count("facing her token")
        if got[0] == POW:
            self._count("my POW!")
        return got

    def on_joker(self, view: View, decision: Decision) -> Any:
        b = self._b(view)
        if view.seat == ANGELA:
            assert self._angela_half_values(view, b) == _textbook_angela(self, view, b)
        else:
            assert self._jessah_half_values(view, b, -1) == _textbook_jessah(view, b, -1)
        self._count("joker")
        return super().on_joker(view, decision)


def test_every_bid_of_expert_games_is_the_textbook_one():
    _Checked.met = {}
    for i in range(40):
        play_game(seed=47, game_index=i, angela=_Checked(), jessah=_Checked())
    for case in ("angela values", "jessah values", "bid", "her tokens spent", "her POW! spent",
                 "facing her token", "my POW!", "joker"):
        assert _Checked.met.get(case, 0) > 0, (case, _Checked.met)
    assert _Checked._generic_angela_values() == _textbook_generic()
