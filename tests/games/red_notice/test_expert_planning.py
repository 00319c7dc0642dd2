"""The forger's movement plan and the round's bank reach, held to their
textbook forms: the expert computes them on bitmasks and flat lists
(``_open_dist``; ``_Plan``, the movement's ends with int-coded
triggers, which ``Expert._movement_ends`` and ``Expert._plan_scores``
read; ``Expert._bank_reach``'s layers); here each is checked against the plain algorithm it replaces,
on arbitrary map states (hypothesis) and on every call of expert games.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rnsim_strategies.red_notice import expert as expert_module
from rnsim_strategies.red_notice.board import FAR, Board, board_for
from rnsim_strategies.red_notice.expert import _PROXIMITY, Expert, _belief_reach, _open_dist

from rnsim.games.red_notice.engine.decision import ANGELA
from rnsim.games.red_notice.engine.view import View
from rnsim.games.red_notice.rules.components import load_components
from rnsim.play import play_game

COMPS = load_components()
B = board_for(COMPS)
N_ROUTES = len(B.route_ends)
N_CONTS = len(B.cont_mask)


def _bfs_dist(b: Board, targets: int, barriers: tuple[int, ...]) -> list[int]:
    """Per city, the steps to the nearest target over open routes: a queue."""
    d = [FAR] * b.n
    queue = [c for c in range(b.n) if targets >> c & 1]
    for c in queue:
        d[c] = 0
    for x in queue:  # grows as it is read
        for y, r in b.nbr_routes[x]:
            if d[y] == FAR and not barriers[r]:
                d[y] = d[x] + 1
                queue.append(y)
    return d


def _textbook_ends(b: Board, here: int, left: int, barriers: tuple[int, ...], radars: tuple[int, ...],
                   precise: bool, journalist: bool, first_ok: set[int]) -> list[tuple[int, int, int, Any]]:
    """The movement's states as (city, tuple of triggers) keys, in the order
    a breadth-first walk meets them."""
    seen: dict[tuple[int, tuple[tuple[int, int], ...]], Any] = {(here, ()): "stop"}
    layer: list[tuple[int, tuple[tuple[int, int], ...], Any]] = [(here, (), "stop")]
    for _ in range(left):
        nxt = []
        for c, trig, first in layer:
            for nx, r in b.nbr_routes[c]:
                if first == "stop":
                    if nx not in first_ok:
                        continue
                elif barriers[r] and not journalist:
                    continue
                t2 = trig
                if not journalist:
                    k = b.cont[nx]
                    if radars[k] == 2 or (radars[k] == 1 and all(k != t[0] for t in trig)):
                        t2 = (*trig, (k, nx if precise else -1))
                if (nx, t2) not in seen:
                    f = ("move", nx) if first == "stop" else first
                    seen[(nx, t2)] = f
                    nxt.append((nx, t2, f))
        layer = nxt
    out = []
    for (c, trig), first in seen.items():
        seen_by = 0
        if trig:
            k, tc = trig[-1]
            seen_by = b.ball[tc][1] if tc >= 0 else b.cont_mask[k]
        out.append((c, len(trig), seen_by, first))
    return out


def _textbook_scores(p: Expert, view: View, b: Board, left: int, barriers: tuple[int, ...], first_ok: set[int],
                     journalist: bool, dt: list[int] | None, escape: bool) -> tuple[Any, float, dict[Any, float]]:
    """The plan's scores over the ends as tuples, a dict per first step."""
    ends = _textbook_ends(b, view.angela_city, left, barriers, view.radars, "precise_radars" in view.permanents,
                          journalist, first_ok)
    reach, quiet = _belief_reach(b, view.belief, left, barriers, view.radars, journalist)
    djrow = b.dist[view.jessah_city]
    ball = b.ball[view.jessah_city]
    w_danger = (10.0 if not view.identities_up else 4.0) * (1.4 - p.risk)
    w_way = 0.3 if escape else 1.0
    best: Any = "stop"
    best_s = -1e18
    by_first: dict[Any, float] = {}
    for c, n_trig, seen_by, first in ends:
        s = -0.1 * n_trig
        d = djrow[c]
        if d < len(_PROXIMITY):
            bp = ((seen_by & reach) if n_trig else quiet) | (1 << c)
            crowd = (bp & ball[d]).bit_count()
            s -= w_danger * (p.OWN_CITY_DANGER if d == 0 else _PROXIMITY[d]) * min(1.0, 2.0 / crowd)
        if dt is not None:
            s -= w_way * min(dt[c], 8)
        if escape:
            s += 0.2 * min(d, 5)
        if first == "stop":
            s += 0.01
        if s > by_first.get(first, -1e18):
            by_first[first] = s
        if s > best_s + 1e-9:
            best, best_s = first, s
    return best, best_s, by_first


def _textbook_bank_reach(p: Expert, view: View, b: Board) -> tuple[bool, float, float, float, float, float, float]:
    """_bank_reach with a breadth-first search per check of her hand."""
    here = view.angela_city
    need = view.rules.money_target - view.cash_total[ANGELA]
    cash_here = False
    reach = [0.0, 0.0, 0.0, 0.0]
    for c in view.hand:
        if b.check_cont[c] == b.cont[here]:
            cash_here = True
        d = _bfs_dist(b, b.check_mask[c], view.barriers)[here]
        v = 12.0 if b.check_value[c] >= need else 3.0
        for steps in range(max(1, d), 4):
            reach[steps] = max(reach[steps], v)
    early = min(p._values[0][expert_module.BANK * 4 + 1], p.BANK_EARLY)
    room = view.rules.hand_limit - len(view.hand)
    f = sum(1 for k in b.check_cont if k == b.cont[here]) / max(1, len(b.check_cont))
    p1 = 1.0 - (1.0 - f) ** min(1, room) if room > 0 else 0.0
    p2 = 1.0 - (1.0 - f) ** min(2, room) if room > 0 else 0.0
    return cash_here, early, reach[1], reach[2], reach[3], p1, p2


def _barriers(draw: Any) -> tuple[int, ...]:
    return tuple(draw(st.lists(st.sampled_from((0, 0, 0, 1, 2)), min_size=N_ROUTES, max_size=N_ROUTES)))


@settings(max_examples=300, deadline=None)
@given(targets=st.integers(0, (1 << B.n) - 1), data=st.data())
def test_the_distances_on_bitmasks_are_the_breadth_first_ones(targets, data):
    barriers = _barriers(data.draw)
    b = Board(COMPS)  # a fresh cache: every question is computed
    assert _open_dist(b, targets, barriers) == _bfs_dist(b, targets, barriers)
    assert _open_dist(b, targets, barriers) == b.open_dist_from(targets, barriers)


@settings(max_examples=300, deadline=None)
@given(here=st.integers(0, B.n - 1), left=st.integers(1, 4), precise=st.booleans(), journalist=st.booleans(),
       data=st.data())
def test_the_movement_ends_are_the_textbook_walk(here, left, precise, journalist, data):
    barriers = _barriers(data.draw)
    radars = tuple(data.draw(st.lists(st.sampled_from((0, 1, 1, 2)), min_size=N_CONTS, max_size=N_CONTS)))
    nbrs = [nx for nx, _ in B.nbr_routes[here]]
    first_ok = set(data.draw(st.lists(st.sampled_from(nbrs), unique=True)))
    got = Expert._movement_ends(B, here, left, barriers, radars, precise, journalist, first_ok)
    assert got == _textbook_ends(B, here, left, barriers, radars, precise, journalist, first_ok)


class _Checked(Expert):
    """The expert whose every plan and bank reach is checked against the
    textbook's (counted per case met)."""

    met: dict[str, int] = {}

    def _plan_scores(self, view: View, b: Board, left: int, barriers: tuple[int, ...], first_ok: set[int],
                     journalist: bool, dt: list[int] | None, escape: bool) -> Any:
        got = super()._plan_scores(view, b, left, barriers, first_ok, journalist, dt, escape)
        want = _textbook_scores(self, view, b, left, barriers, first_ok, journalist, dt, escape)
        assert got == want and list(got[2]) == list(want[2])  # the same floats, first steps in the same order
        for case, on in (("plan", True), ("escape", escape), ("journalist", journalist), ("way", dt is not None),
                         ("triggers", any(view.radars)), ("precise", "precise_radars" in view.permanents)):
            if on:
                self.met[case] = self.met.get(case, 0) + 1
        return got

    def _bank_reach(self, view: View, b: Board) -> tuple[bool, float, float, float, float, float, float]:
        got = super()._bank_reach(view, b)
        assert got == _textbook_bank_reach(self, view, b)
        self.met["bank reach"] = self.met.get("bank reach", 0) + 1
        if any(got[2:5]):
            self.met["cash in reach"] = self.met.get("cash in reach", 0) + 1
        return got


def test_every_plan_and_bank_reach_of_expert_games_is_the_textbook_one():
    _Checked.met = {}
    for i in range(60):
        play_game(seed=43, game_index=i, angela=_Checked(), jessah="expert")
    for case in ("plan", "escape", "journalist", "way", "triggers", "precise", "bank reach", "cash in reach"):
        assert _Checked.met.get(case, 0) > 0, (case, _Checked.met)


def test_a_plans_first_steps_are_stop_then_the_allowed_moves_in_route_order():
    here = 0
    nbrs = [nx for nx, _ in B.nbr_routes[here]]
    allowed = set(nbrs[1:])
    plan = expert_module._Plan(B, here, 2, (0,) * N_ROUTES, (0,) * N_CONTS, False, False, allowed)
    assert plan.firsts == ["stop", *(("move", nx) for nx in nbrs[1:])]
    assert ("move", nbrs[0]) not in plan.firsts and plan.first[0] == 0 and plan.cities[0] == here


def test_the_checked_expert_plays_as_the_expert():
    """The checking subclass changes nothing: the same game as the expert."""
    a = play_game(seed=43, game_index=3, angela=_Checked(), jessah="expert", log=True)
    b = play_game(seed=43, game_index=3, angela="expert", jessah="expert", log=True)
    assert a.events == b.events


@settings(max_examples=500, deadline=None)
@given(x=st.one_of(st.integers(0, 2**64), st.integers(0, 62).map(lambda k: (1 << k) - 1),
                   st.integers(0, 70).map(lambda k: 1 << k)))
def test_popcount_counts_the_bits_below_and_above_a_machine_int(x):
    assert expert_module._popcount(x) == bin(x).count("1")
