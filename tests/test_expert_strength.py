"""The expert's habits that make it harder to exploit: Jessah reads
the leak of a radar removal, both seats pick among near-equal options from
their own stream, and the agent's risk does something over its whole range."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from rnsim_strategies.red_notice.board import board_for
from rnsim_strategies.red_notice.expert import Expert

from rnsim.errors import ConfigError
from rnsim.games.red_notice.engine.belief import expand
from rnsim.games.red_notice.engine.decision import JESSAH
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import View, build_view
from rnsim.games.red_notice.game import GAME
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.play import play_game, run_game
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy

RULES = RuleSet()
COMPS = RULES.load_components()
B = board_for(COMPS)


def _jessah_view() -> View:
    """Jessah's view at her first decision after Angela's start."""
    st = GameState.new(RULES, random.Random(3), comps=COMPS, seed=3)
    a, j = load_strategy("rule"), load_strategy("rule")
    a.new_game(0, random.Random(1))
    j.new_game(1, random.Random(2))
    while st.last_seen is None:
        d = st.pending
        st.apply((a if d.seat == 0 else j).choose(build_view(st, d.seat), d))
    return build_view(st, JESSAH)


def _watched(before: View, after: View) -> int:
    e = Expert()
    e.new_game(JESSAH, random.Random(0))
    e._watch(before)
    e._watch(after)
    return e._leak_focus


def test_a_white_radar_removed_with_security_spent_puts_her_near_it():
    v = _jessah_view()
    k = next(x for x in range(len(v.radars)) if not v.radars[x])
    wide = dataclasses.replace(v, belief=B.all_mask)
    radars = list(v.radars)
    radars[k] = 1
    before = dataclasses.replace(wide, radars=tuple(radars), security=3)
    after = dataclasses.replace(wide, security=1)  # the radar is gone, 2 points spent, no announcement
    near = expand(B.cont_mask[k], B.nbr_mask)
    assert _watched(before, after) == near
    # Gone with no security spent (the Lawyer's discard): nothing to read.
    assert _watched(before, dataclasses.replace(wide, security=3)) == 0
    # Gone because she tripped it (announced): the announcement says it all.
    tripped = dataclasses.replace(after, last_announcement=((k, -1),))
    assert _watched(before, tripped) == 0


def test_the_leak_weighs_the_hunt():
    # Two belief cities, each one step from Jessah: she inspects the one the
    # leak points at, and her chance counts it 1 + extra times.
    start = next(c for c in range(B.n) if len(B.nbr[c]) >= 2)
    x, y = B.nbr[start][0], B.nbr[start][1]
    belief = (1 << x) | (1 << y)
    for target in (x, y):
        p, first, _ = Expert._search_path(B, belief, start, 1, 1 << target, 9.0)
        assert first == target
        assert abs(p - 10 / 11) < 1e-12


def test_near_equal_hunts_are_listed_and_include_the_best():
    belief = B.cont_mask[2]
    for start in range(B.n):
        p, first, alts = Expert._search_path(B, belief, start, 3, 0, 0.0, 0.5)
        if p > 0:
            assert first in alts
        assert Expert._search_path(B, belief, start, 3)[2] == ()  # no mixing asked: none listed


def _winners(params: dict, games: int = 12) -> list[str | None]:
    a, j = load_strategy("expert"), load_strategy("expert", params)
    return [run_game(GAME, RULES, [a, j], 11, i).winner for i in range(games)]


def _decisions(params: dict, games: int = 6) -> list[int]:
    a, j = load_strategy("expert"), load_strategy("expert", params)
    return [run_game(GAME, RULES, [a, j], 11, i).decisions for i in range(games)]


def test_agent_risk_changes_play_above_one_half():
    # It used to enter only as max(0, 0.5 - risk): 0.5..1 all played alike.
    assert _decisions({"risk": 0.6}) != _decisions({"risk": 1.0})


def test_mixing_draws_only_from_the_seats_stream():
    # Same master seed: the same games, decision for decision.
    assert _decisions({}) == _decisions({})


# ------------------------------------------------- Jessah's dossier


def test_the_agent_hunts_on_her_dossier_of_public_facts_only():
    """The expert Jessah hunts on her dossier's probabilities: over the
    public belief exactly, summing to one, never zero on Angela's true city.
    An expert Jessah handed, at every decision, the view of a copy of the
    game whose hidden facts were re-drawn (Game.conceal: Angela's city
    within the belief, her hand, both sides' unrevealed tokens) makes the
    same choice every time and draws the same numbers: nothing hidden
    reaches her hunt."""
    decisions = 0
    for g in range(3):
        s = game_seeds(23, g)
        a, j, twin = Expert(), Expert(), Expert()
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        twin.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(RULES, random.Random(s.chance), seed=s.chance)
        while not st.over:
            d = st.pending
            v = build_view(st, d.seat)
            if d.seat == 0:
                st.apply(a.choose(v, d))
                continue
            pick = j.choose(v, d)
            other = GAME.conceal(st, 1, random.Random(decisions))
            assert twin.choose(build_view(other, 1), d) == pick, (g, d.kind)
            assert twin.rng.getstate() == j.rng.getstate()
            w = j.hunt_weights
            if w is not None and v.belief:
                assert sum(1 << c for c, p in enumerate(w) if p > 0) == v.belief
                assert abs(sum(w) - 1.0) < 1e-9
                if st.angela_city >= 0 and v.belief >> st.angela_city & 1:
                    assert w[st.angela_city] > 0
            decisions += 1
            st.apply(pick)
    assert decisions > 100


def test_only_the_agent_with_a_dossier_makes_a_game_keep_its_history():
    """The dossier reads view.history: an expert Jessah with one asks the game
    to record it; the forger, and Jessah with ``dossier = 0`` (the bare-set
    agent), do not. A plugin subclassing the expert still gets the history."""
    def reads(seat: int, **params: int) -> bool:
        e = Expert(**params)
        e.new_game(seat, random.Random(0))
        return e.reads_history()

    assert reads(1) and not reads(0) and not reads(1, dossier=0)

    class Plugin(Expert):
        pass

    p = Plugin(dossier=0)
    p.new_game(0, random.Random(0))
    assert p.reads_history()


def test_without_a_dossier_the_agent_hunts_on_the_bare_set_and_differs():
    """``dossier = 0`` leaves her hunt weights unset (every belief city
    counts one); with the default dossier, her movements part from that
    agent's on the same games."""
    def moves(**params: int) -> list:
        out = []
        for g in range(4):
            j = Expert(**params)
            run_game(GAME, RULES, [Expert(), j], 4, g)
            out.append(j.hunt_weights)
        return out

    assert all(w is None for w in moves(dossier=0))

    def path(**params: int) -> list:
        r = play_game(angela="expert", jessah="expert", jessah_params=params, seed=9, game_index=0, log=True)
        return [e for e in r.events if e["t"] in ("jessah_move", "inspect")]

    assert path(dossier=0) != path()


def test_a_bad_dossier_size_says_what_is_allowed():
    with pytest.raises(ConfigError, match="param 'dossier' must be in 0..100000"):
        Expert(dossier=-1)
    with pytest.raises(ConfigError, match="param 'dossier' must be int"):
        Expert(dossier=1.5)


def test_a_plugin_with_its_own_params_keeps_the_experts_defaults():
    """A subclass written before ``dossier`` existed, declaring its own PARAMS,
    still builds, and as Jessah keeps the default dossier (the expert agent's
    strength is not lost by subclassing her)."""
    class Older(Expert):
        PARAMS = {"risk": 0.5, "greed": 0.5, "reach": 2}

    j = Older(reach=3)
    j.new_game(1, random.Random(0))
    assert j.dossier is not None and j.dossier.particles == Expert.PARAMS["dossier"]
    run_game(GAME, RULES, [Expert(), Older()], 4, 0)


def _paths(start: int, steps: int) -> list[tuple[int, list[int]]]:
    """Every hunting path of 1..steps steps from ``start``: (first step,
    cities inspected in order); an inspection where she stands (-1) only as
    the first step."""
    out: list[tuple[int, list[int]]] = []

    def walk(city: int, path: list[int], first: int) -> None:
        if path:
            out.append((first, path))
        if len(path) == steps:
            return
        for nx in B.nbr[city]:
            walk(nx, [*path, nx], nx if not path else first)

    walk(start, [], -3)
    for _first, path in list(out):
        if len(path) < steps:
            out.append((-1, [start, *path]))
    out.append((-1, [start]))
    return out


@pytest.mark.parametrize("seed", range(40))
def test_the_look_ahead_hunt_takes_the_path_its_own_score_ranks_first(seed: int) -> None:
    # Against brute force over every path: the chosen path inspects the mass
    # the answer says, and no path scores more under the look-ahead's score
    # (mass inspected + ahead x mass left x mass within reach of the end once
    # she moved again), among the paths that inspect some mass. With ahead 0
    # that is the most mass any path inspects.
    rng = random.Random(seed)
    belief = 0
    for c in rng.sample(range(B.n), rng.randint(1, 10)):
        belief |= 1 << c
    weights = [rng.random() if belief >> c & 1 else 0.0 for c in range(B.n)]
    start, steps = rng.randrange(B.n), rng.randint(1, 3)
    om = B.open_masks(tuple(rng.choice((0, 0, 1)) for _ in range(len(COMPS.routes))))
    size, total = belief.bit_count(), sum(weights)
    wn = [w * size / total for w in weights]
    after = [0.0] * B.n
    for c in range(B.n):
        if belief >> c & 1:
            m = om[c] | (1 << c)
            for y in range(B.n):
                if m >> y & 1:
                    after[y] += wn[c] / m.bit_count()
    for ahead in (0.0, 0.3, 0.6):
        p, first, alts = Expert._weighted_path(B, belief, start, steps, weights, 0.5, ahead, 2, om)

        def score(path: list[int], ahead: float = ahead) -> tuple[float, float]:
            got = sum(wn[c] for c in set(path))
            near = sum(after[y] for y in range(B.n) if B.ball[path[-1]][2] >> y & 1)
            return got + ahead * (size - got) / size * near, got

        # a path is scored only if it inspects some mass
        best = max((sc for _, path in _paths(start, steps) if (sc := score(path))[1] > 0), default=(0.0, 0.0))
        if best[1] <= 0:
            assert (p, first) == (0.0, -2)
            continue
        firsts = {f for f, path in _paths(start, steps) if abs(score(path)[0] - best[0]) < 1e-9}
        assert first in firsts and first in alts
        assert any(abs(score(path)[1] / size - p) < 1e-9 and abs(score(path)[0] - best[0]) < 1e-9
                   for f, path in _paths(start, steps) if f == first)


def test_with_look_ahead_the_agent_ends_her_hunt_near_the_mass_she_left() -> None:
    # Two belief cities next to Jessah, equally likely; the rest of the mass
    # sits far from one of them and near the other. Inspecting either finds
    # her as often; the look-ahead inspects the one that leaves her nearest
    # to where the forger can be next, and without it she may take either.
    for start in range(B.n):
        x, y = B.nbr[start][0], B.nbr[start][1]
        far = [c for c in range(B.n) if B.dist[x][c] >= 4 and B.dist[y][c] <= 2 and c not in (start, x, y)]
        if far:
            break
    belief = (1 << x) | (1 << y) | (1 << far[0])
    weights = [0.0] * B.n
    weights[x] = weights[y] = 0.25
    weights[far[0]] = 0.5
    om = B.open_masks(tuple(0 for _ in COMPS.routes))
    p, first, _ = Expert._weighted_path(B, belief, start, 1, weights, 0.0, 0.3, 2, om)
    assert first == y and abs(p - 0.25) < 1e-12


def test_the_forger_spends_her_security_at_once_on_a_radar_drawn_from_her_stream():
    """Below her cap, with two points, she removes a white radar now (at a
    Security gain and before a movement step alike), drawn at random from
    her seat's stream, so that a removal says nothing of where she is; with
    SPEND_AT_ONCE off she keeps them below her cap (spending only on the
    radar her next step would trip)."""
    from tests.games.red_notice.scenario import move, scenario, security

    class Keeper(Expert):
        SPEND_AT_ONCE = False

    radars = {("remove_radar", k) for k in range(3)}  # NA, SA, EU
    for then in ([security("angela", 1)], [move("angela", 2)]):
        s = scenario(angela="Cape Town", radars="NA SA EU", security=2, then=then)
        drawn = set()
        for seed in range(40):
            me, keeper = Expert(), Keeper()
            me.new_game(0, random.Random(seed))
            keeper.new_game(0, random.Random(seed))
            v = build_view(s, 0)
            got = me.choose(v, s.pending)
            assert got in radars
            drawn.add(got)
            again = Expert()
            again.new_game(0, random.Random(seed))
            assert again.choose(v, s.pending) == got  # the same stream, the same radar
            if s.pending.kind == "angela_security":  # SPEND_AT_ONCE off: below the cap, gain
                assert keeper.choose(v, s.pending) == "gain"
        assert drawn == radars  # any of them, not a fixed pick


def _security_choice(view: View, decision: Any, weights: list[float] | None, weight: float = 10.0) -> Any:
    class Agent(Expert):
        SECURITY_WEIGHT = weight

    e = Agent()
    e.new_game(JESSAH, random.Random(0))
    e.hunt_weights = weights
    return e.on_jessah_security(view, decision)


def test_jessah_bars_the_way_out_of_the_city_her_dossier_weighs_most():
    """With a dossier, Jessah's barrier goes on an exit of the belief from
    the city her dossier weighs most, and follows the weight when it moves
    (placed on the bare set, her security leaves the forger 7-8 points
    more). Without weights, or with SECURITY_WEIGHT 0, she plays the bare
    set's scores."""
    from tests.games.red_notice.scenario import scenario, security

    cont = COMPS.city_continent
    africa = [c for c in range(COMPS.n_cities) if cont[c] == cont[COMPS.city("Cape Town")]]
    inside = sum(1 << c for c in africa)
    # the cities of the belief with a route out of it, each with its exits
    exits = {c: [r for r, (x, y) in enumerate(B.route_ends) if c in (x, y) and not inside >> (x + y - c) & 1]
             for c in africa}
    border = [c for c in africa if exits[c]]
    assert len(border) >= 2
    s = scenario(angela="Cape Town", jessah="Paris", belief=[COMPS.cities[c] for c in africa],
                 then=[security("jessah", 1)])
    view = build_view(s, JESSAH)
    assert s.pending.kind == "jessah_security"
    for heavy in border[:2]:
        w = [0.0] * COMPS.n_cities
        for c in africa:
            w[c] = 0.02
        w[heavy] = 1.0 - 0.02 * (len(africa) - 1)
        got = _security_choice(view, s.pending, w)
        assert got[0] == "barrier" and got[1] in exits[heavy], (COMPS.cities[heavy], got)
    bare = _security_choice(view, s.pending, None)
    assert _security_choice(view, s.pending, w, weight=0.0) == bare


def test_the_weighted_radar_goes_where_her_weight_splits_best():
    """Weight spread two steps on: a radar scores 2 x the lesser of the
    weight inside its continent and outside, plus 1.5 x her weight on it
    now, plus 0.3 x the weight inside; uniform weights over the belief on
    one continent put it there."""
    cont = COMPS.city_continent
    k0 = cont[COMPS.city("Paris")]
    belief = [c for c in range(COMPS.n_cities) if cont[c] == k0]
    w = [1.0 / len(belief) if c in belief else 0.0 for c in range(COMPS.n_cities)]
    view = dataclasses.replace(_jessah_view(), radars=tuple(0 for _ in COMPS.continents),
                               barriers=tuple(0 for _ in COMPS.routes))
    nxt = Expert._spread(w, B.open_masks(view.barriers), 2)
    assert abs(sum(nxt) - 1.0) < 1e-12  # spreading moves weight, never loses it
    e = Expert()
    e.new_game(JESSAH, random.Random(0))
    k, score = e._weighted_radar(view, B, w, B.open_masks(view.barriers))
    assert k == k0
    share = sum(nxt[c] for c in belief)
    assert abs(score - (2.0 * min(share, 1 - share) + 1.5 + 0.3 * share)) < 1e-12


def _forgers(classes: tuple[type[Expert], ...], seed: int) -> list[Expert]:
    """One forger of each class, in Angela's seat on the stream of ``seed``."""
    players = []
    for cls in classes:
        p = cls()
        p.new_game(0, random.Random(seed))
        players.append(p)
    return players


def test_boxed_in_by_barriers_the_forger_removes_the_one_that_opens_her_best_way_out():
    """With half or more of the routes out of her city closed by Jessah's
    barriers (R18), a movement opens with the removal of one of them (R11),
    not with the random radar: the barrier whose other end is farthest from
    Jessah when no cash draws her anywhere. One closed route of three leaves
    her the random radar, and so does UNBOX off."""
    from tests.games.red_notice.scenario import move, scenario

    class Unboxed(Expert):
        UNBOX = False

    radars = {("remove_radar", k) for k in range(3)}
    # Rome's routes: Paris (22), Berlin (27), Cairo (30); Jessah in Berlin
    boxed = scenario(angela="Rome", jessah="Berlin", radars="NA SA EU", barriers="Paris|Rome,Berlin|Rome",
                     security=2, then=[move("angela", 2)])
    open_ = scenario(angela="Rome", jessah="Berlin", radars="NA SA EU", barriers="Paris|Rome",
                     security=2, then=[move("angela", 2)])
    for seed in range(10):
        players = _forgers((Expert, Unboxed, Expert), seed)
        assert players[0].choose(build_view(boxed, 0), boxed.pending) == ("remove_barrier", 22)
        assert players[1].choose(build_view(boxed, 0), boxed.pending) in radars
        assert players[2].choose(build_view(open_, 0), open_.pending) in radars


def test_a_barrier_across_her_way_comes_off_when_it_costs_her_a_step():
    """One closed route (not boxed in, UNBOX's half) still comes off as her
    movement starts when it lies across her way to her cashes: in New York
    with a European check and one step to move, Jessah far away in Sydney,
    the barrier New York|London leaves her 4 steps from Europe instead of 0
    after the step, and removing it (R11) raises her best movement's score
    by more than OPEN_GAIN. A barrier on a route she does not need (New
    York|Miami) leaves her the random radar, and so does OPEN_GAIN 0."""
    from tests.games.red_notice.scenario import move, scenario

    class Closed(Expert):
        OPEN_GAIN = 0.0

    radars = {("remove_radar", k) for k in (1, 3, 4)}
    london = [r for r, (x, y) in enumerate(B.route_ends) if {x, y} == {COMPS.city("New York"), COMPS.city("London")}]
    across = scenario(angela="New York", jessah="Sydney", radars="SA AF AS", barriers="London|New York",
                      angela_hand=("blue 100k",), security=2, then=[move("angela", 1)])
    aside = scenario(angela="New York", jessah="Sydney", radars="SA AF AS", barriers="Miami|New York",
                     angela_hand=("blue 100k",), security=2, then=[move("angela", 1)])
    for seed in range(10):
        players = _forgers((Expert, Closed, Expert), seed)
        assert players[0].choose(build_view(across, 0), across.pending) == ("remove_barrier", london[0])
        assert players[1].choose(build_view(across, 0), across.pending) in radars
        assert players[2].choose(build_view(aside, 0), aside.pending) in radars


def test_jessahs_own_city_is_feared_less_than_the_cities_next_to_her():
    """Jessah inspects the city she stands in only by spending a step that
    moves her nowhere (rulebook, Movement; R16), so the forger's plan weighs
    ending there OWN_CITY_DANGER (0.2) against 0.7 next to her: every end
    city's score but Jessah's own is the same with OWN_CITY_DANGER 1.0, and
    hers is higher by 0.8 x the danger weight."""
    from tests.games.red_notice.scenario import move, scenario

    class Fearful(Expert):
        OWN_CITY_DANGER = 1.0

    s = scenario(angela="Rome", jessah="Paris", radars="", barriers="", angela_hand=("orange 100k",),
                 belief=["Rome"], security=0, then=[move("angela", 1)])
    view = build_view(s, 0)
    scores = []
    for cls in (Expert, Fearful):
        p = cls()
        p.new_game(0, random.Random(0))
        first_ok = {o[1] for o in s.pending.options if isinstance(o, tuple) and o[0] == "move"}
        _, _, by_first = p._plan_scores(view, B, 1, view.barriers, first_ok, False, None, False)
        scores.append(by_first)
    paris = ("move", COMPS.city("Paris"))
    assert set(scores[0]) == set(scores[1]) and paris in scores[0]
    w_danger = 4.0 * (1.4 - 0.5)
    for first in scores[0]:
        gap = scores[0][first] - scores[1][first]
        assert abs(gap - (0.8 * w_danger if first == paris else 0.0)) < 1e-9, (first, gap)


def test_with_no_identity_left_the_forger_cashes_next_to_jessah():
    """With no identity left a capture ends the game, but declining a cash
    next to Jessah hides nothing her danger does not: the forger cashes
    her check in Rome with Jessah next door in Paris (rulebook, Bank: the
    cash reveals her city). LAST_CASH_PASS (c50e101's forger) passes there,
    and cashes with an identity left."""
    from tests.games.red_notice.scenario import bank, scenario

    class Passing(Expert):
        LAST_CASH_PASS = True

    def bank_at(identities: str) -> tuple[Any, Any]:
        s = scenario(angela="Rome", jessah="Paris", identities=identities, identities_down="",
                     angela_hand=("blue 200k",), then=[bank("angela")])
        assert s.pending.kind == "bank" and "pass" in s.pending.options
        cash = next(o for o in s.pending.options if o != "pass")
        answers = tuple(p.choose(build_view(s, 0), s.pending) for p in _forgers((Expert, Passing), 0))
        return cash, answers

    cash, (expert, passing) = bank_at("")
    assert (expert, passing) == (cash, "pass")
    cash, (expert, passing) = bank_at("pilot")
    assert (expert, passing) == (cash, cash)
