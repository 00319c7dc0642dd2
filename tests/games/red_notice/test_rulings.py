"""One scenario per ruling R1..R27 of docs/reference/rulings.md, set up from a
position and driven by scripted answers."""

from __future__ import annotations

import random

import pytest

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.position import load_position, save_position
from rnsim.games.red_notice.engine.state import BLACK, WHITE, GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.components import POW
from rnsim.games.red_notice.rules.ruleset import RuleSet
from tests.games.red_notice.scenario import (
    announced,
    bank,
    belief_cities,
    capture,
    check,
    city,
    events,
    joker,
    kind,
    move,
    options,
    play,
    scenario,
    security,
)


def performers(s: GameState) -> list[tuple[str, str]]:
    """(seat, decision kind) of the decisions met while answering 'pass'/'stop' to everything
    until the round is over."""
    seen = []
    start_round = s.round
    while not s.over and s.round == start_round:
        d = s.decision()
        seen.append((("angela", "jessah")[d.seat], d.kind))
        opts = d.options
        s.apply("stop" if "stop" in opts else "pass" if "pass" in opts else opts[0])
    return seen


# ------------------------------------------------------------------ board and pieces


def test_r01_cards_resolve_in_draw_order_and_one_token_per_player_per_card():
    s = scenario(phase="place", cards=("C1|J", "B|M1", "S2|M1", "M2|C1"),
                 tokens={"angela": [1, 2, 3], "jessah": [2, 3, 4]})
    assert kind(s) == "place_token" and s.decision().seat == ANGELA
    play(s, (1, 0, 0))
    # Jessah may face Angela's token on card 0 ...
    assert (2, 0, 1) in options(s)
    play(s, (2, 0, 1))
    # ... but Angela may never place on card 0 again: not beside, not facing her own token.
    assert all(o[1] != 0 for o in options(s))
    play(s, (2, 1, 0), (3, 2, 0), (3, 3, 0), (4, 1, 1))
    cards = [e["card"] for e in events(s, "card")]
    while not s.over and s.round == 3:
        o = options(s)
        s.apply("stop" if "stop" in o else "pass" if "pass" in o else o[0])
        cards = [e["card"] for e in events(s, "card")]
    assert cards == [0, 1, 2, 3]


def test_r02_pow_beats_any_number_and_the_cancelled_token_is_spent():
    s = scenario(phase="resolve", cards=("M2|C1",), slots=[[("angela", "POW"), ("jessah", 5)]])
    assert 5 in s.spent[JESSAH] and POW in s.spent[ANGELA]  # revealed, both spent
    assert performers(s) == [("angela", "angela_move"), ("angela", "check")]


def test_r02_pow_against_pow_is_a_tie():
    s = scenario(phase="resolve", cards=("M2|C1",), slots=[[("angela", "POW"), ("jessah", "POW")]],
                 initiative="jessah")
    # tie: each her own half, initiative (Jessah) first
    assert performers(s) == [("jessah", "check"), ("angela", "angela_move")]


def test_r03_higher_token_does_both_own_half_first_then_the_other_her_half():
    s = scenario(phase="resolve", cards=("M2|C1",), slots=[[("angela", 2), ("jessah", 4)]])
    assert performers(s) == [("jessah", "check"), ("jessah", "jessah_move"), ("angela", "angela_move")]


def test_r03_tie_initiative_first():
    for init, expected in (("angela", [("angela", "angela_move"), ("jessah", "check")]),
                           ("jessah", [("jessah", "check"), ("angela", "angela_move")])):
        s = scenario(phase="resolve", cards=("M2|C1",), slots=[[("angela", 3), ("jessah", 3)]], initiative=init)
        assert performers(s) == expected


def test_r04_joker_offers_each_action_once():
    s = scenario(then=[joker("jessah")])
    assert options(s) == ["check", "bank", "security", "movement", "pass"]
    play(s, "movement")
    assert kind(s) == "jessah_move" and s.decision().info["left"] == 1
    s = scenario(then=[joker("angela")])
    play(s, "security")
    assert kind(s) == "angela_security" and s.decision().info["left"] == 1


def test_r05_every_action_is_optional_and_a_movement_may_stop_early():
    s = scenario(then=[check("angela", 2)])
    assert options(s) == ["draw", "pass"]
    play(s, "pass")
    assert len(s.hands[ANGELA]) == 0
    s = scenario(angela="Cape Town", then=[move("angela", 2), move("jessah", 2)])
    play(s, "Nairobi", "stop")
    assert s.angela_city == city(s, "Nairobi")
    assert kind(s) == "jessah_move"  # the rest of Angela's movement is lost


# ------------------------------------------------------------------ checks


def test_r06_an_empty_deck_draws_nothing_and_is_never_reshuffled():
    every = [f"{c} {v}k" for c in ("red", "green", "blue", "orange", "yellow", "purple") for v in (100, 100, 200)]
    s = scenario(angela_hand=tuple(every[:2]), jessah_hand=tuple(every[2:5]), jessah_cashed=tuple(every[5:]),
                 check_deck=(), then=[check("angela", 2), move("jessah", 1)])
    # no check decision at all: nothing can be drawn
    assert kind(s) == "jessah_move"
    assert len(s.hands[ANGELA]) == 2 and s.deck == []
    assert len(s.cashed[JESSAH]) == 13


def test_r07_jessah_cashes_for_effects_only():
    s = scenario(jessah="Lima", jessah_hand=("green 100k", "green 200k"),
                 jessah_cashed=("red 200k", "blue 200k", "orange 200k", "purple 200k", "yellow 200k"),
                 then=[bank("jessah"), bank("jessah")])
    play(s, "green 100k")
    assert not s.over  # $1.1M cashed by Jessah wins nothing
    assert kind(s) == "jessah_move" and s.decision().info["left"] == 1  # the $100k movement
    play(s, "stop", "green 200k")
    assert kind(s) == "upgrade" and s.decision().seat == JESSAH  # she chooses her own upgrade
    assert s.cash_total == [0, 1_300_000]


def test_r08_cashing_reveals_angela_city_but_not_her_bonus_movement():
    s = scenario(angela="Kolkata", belief="all", angela_hand=("yellow 100k",), then=[bank("angela")])
    play(s, "yellow 100k")
    assert belief_cities(s) == {"Kolkata"}
    assert s.last_seen == (city(s, "Kolkata"), s.comps.continent_of_id("AS"), 3)
    assert kind(s) == "angela_move" and s.decision().info["left"] == 1
    play(s, "Dubai")
    # hidden: Kolkata or any neighbour (no radar on the board)
    assert belief_cities(s) == {"Kolkata", "Dubai", "Beijing", "Singapore"}


def test_r09_no_upgrade_left_gives_security_then_movement():
    s = scenario(angela="Kolkata", angela_hand=("yellow 200k",), upgrades_face_up="", upgrade_deck="",
                 then=[bank("angela")])
    assert s.upgrade_deck == [] and s.upgrades_face_up == []
    play(s, "yellow 200k")
    assert kind(s) == "jessah_security" and s.decision().info["left"] == 1
    play(s, "radar AS")
    assert kind(s) == "jessah_move" and s.decision().info["left"] == 1
    assert s.radars[s.comps.continent_of_id("AS")] == WHITE


# ------------------------------------------------------------------ security


def test_r10_jessah_security_places_or_moves_a_barrier_never_moves_a_radar():
    s = scenario(radars="AF", barriers="Helsinki|Ulaanbaatar", then=[security("jessah", 2)])
    opts = options(s)
    kinds = {o[0] if isinstance(o, tuple) else o for o in opts}
    assert kinds == {"radar", "barrier", "move_barrier", "pass"}
    af = s.comps.continent_of_id("AF")
    hu = s.comps.route("Helsinki", "Ulaanbaatar")
    assert ("radar", af) not in opts  # one radar per space
    assert ("barrier", hu) not in opts  # one barrier per route
    assert len([o for o in opts if o[0] == "move_barrier"]) == len(s.comps.routes) - 1
    play(s, "move barrier Helsinki|Ulaanbaatar to Los Angeles|Beijing", "radar SA")
    assert s.barriers[hu] == 0 and s.barriers[s.comps.route("Los Angeles", "Beijing")] == WHITE
    # supply exhausted: no more new pieces, moving is still possible
    s = scenario(radars="NA SA EU AF AS OC",
                 barriers="Helsinki|Ulaanbaatar, Los Angeles|Beijing, Paris|Rome, Lima|Santiago",
                 then=[security("jessah", 1)])
    kinds = {o[0] if isinstance(o, tuple) else o for o in options(s)}
    assert kinds == {"move_barrier", "pass"}


def test_r10_a_moved_barrier_keeps_its_side():
    s = scenario(barriers={"Paris|Rome": "black"}, then=[security("jessah", 1)])
    play(s, "move barrier Paris|Rome to Rome|Cairo")
    assert s.barriers[s.comps.route("Rome", "Cairo")] == BLACK and s.barriers[s.comps.route("Paris", "Rome")] == 0
    assert s.n_barriers == 1


def test_r11_security_cap_and_spending_before_gaining():
    s = scenario(security=4, radars="AF", then=[security("angela", 2)])
    assert options(s)[:2] == ["gain", "pass"]
    assert ("remove_radar", s.comps.continent_of_id("AF")) in options(s)
    play(s, "gain")
    assert s.security == 4  # the excess point is lost
    play(s, "remove radar AF")  # spend 2 just before the next gain
    assert s.security == 2 and s.radars == [0] * 6
    assert kind(s) == "angela_security" and s.decision().info["left"] == 1  # the icon is still there
    play(s, "gain")
    assert s.security == 3


def test_r11_removal_is_offered_before_each_movement_step():
    s = scenario(security=2, barriers="Nairobi|Cape Town", then=[move("angela", 2)])
    route = s.comps.route("Nairobi", "Cape Town")
    assert ("remove_barrier", route) in options(s)
    play(s, "stay")
    assert ("remove_barrier", route) in options(s)
    play(s, "remove barrier Nairobi|Cape Town")
    assert s.security == 0 and ("move", city(s, "Nairobi")) in options(s)
    assert not [o for o in options(s) if o[0] == "remove_barrier"]  # too poor now


def test_r11_removal_is_offered_in_the_bonus_movement():
    s = scenario(angela="Kolkata", angela_hand=("yellow 100k",), radars="AS", then=[bank("angela")])
    play(s, "yellow 100k")
    assert kind(s) == "angela_move" and ("remove_radar", s.comps.continent_of_id("AS")) in options(s)
    play(s, "remove radar AS", "stay")
    assert announced(s) == [] and s.security == 0


def test_r12_black_tokens_cannot_be_removed_and_black_radars_stay():
    s = scenario(angela="Cape Town", security=4, radars={"AF": "black", "SA": "white"},
                 barriers={"Nairobi|Cape Town": "black"}, then=[move("angela", 3)])
    af, sa = s.comps.continent_of_id("AF"), s.comps.continent_of_id("SA")
    removable = [o for o in options(s) if isinstance(o, tuple) and o[0].startswith("remove")]
    assert removable == [("remove_radar", sa)]
    assert ("move", city(s, "Nairobi")) not in options(s)  # a black barrier blocks too
    play(s, "stay", "Lagos", "Cape Town")
    assert announced(s) == ["AF", "AF", "AF"]  # a black radar triggers on every step
    assert s.radars[af] == BLACK


# ------------------------------------------------------------------ movement and radars


def test_r13_a_movement_of_n_icons_is_up_to_n_steps_and_angela_may_stay():
    s = scenario(angela="Lima", then=[move("angela", 2)])
    assert "stay" in options(s)
    play(s, "stay", "Santiago")
    assert s.angela_city == city(s, "Santiago") and kind(s) != "angela_move"
    s = scenario(jessah="Lima", then=[move("jessah", 2)])
    assert "stay" not in options(s) and "inspect" in options(s)
    play(s, "Santiago", "Buenos Aires")
    assert s.jessah_city == city(s, "Buenos Aires") and kind(s) != "jessah_move"


def test_r14_radar_triggers_on_stay_step():
    s = scenario(angela="Cape Town", radars="AF", then=[move("angela", 1)])
    play(s, "stay")
    assert announced(s) == ["AF"] and s.radars == [0] * 6  # white: back to the supply


def test_r14_radar_triggers_within_a_continent_and_not_when_leaving():
    s = scenario(angela="Cape Town", radars="AF", then=[move("angela", 1)])
    play(s, "Nairobi")
    assert announced(s) == ["AF"]
    s = scenario(angela="Cape Town", radars="AF", then=[move("angela", 1)])
    play(s, "Perth")  # leaving Africa triggers nothing
    assert announced(s) == [] and s.radars[s.comps.continent_of_id("AF")] == WHITE


def test_r14_a_radar_placed_on_her_continent_triggers_nothing_until_she_steps():
    s = scenario(angela="Cape Town", then=[security("jessah", 1), move("angela", 1)])
    play(s, "radar AF")
    assert s.last_announcement == ()
    play(s, "stop")
    assert announced(s) == [] and s.radars[s.comps.continent_of_id("AF")] == WHITE


def test_r14_white_radar_triggers_once_per_movement():
    s = scenario(angela="Cape Town", radars="SA", then=[move("angela", 3)])
    play(s, "Santiago", "Lima", "Caracas")
    assert announced(s) == ["SA"]


def test_r15_ordered_announcement_and_nothing_else_becomes_public():
    s = scenario(angela="Cape Town", radars="SA OC", belief="Cape Town", then=[move("angela", 3)])
    play(s, "Santiago", "Auckland", "Sydney")
    assert announced(s) == ["SA", "OC"]
    ev = events(s, "announce")[-1]
    assert ev["triggers"] == ["SA", "OC"]
    # Only the triggers are public: the belief is every city at the end of a
    # 3-step path from Cape Town that triggers SA then OC (both radars are off
    # after their trigger, so the third step may even go back to Santiago;
    # Perth by Santiago -> Cape Town -> Perth).
    assert belief_cities(s) == {"Auckland", "Sydney", "Port Douglas", "Santiago", "Perth"}
    jv = build_view(s, JESSAH)
    assert jv.angela_city == -1


def test_r15_staying_put_is_not_public():
    s = scenario(angela="Lima", belief="Lima", then=[move("angela", 1)])
    play(s, "stop")
    # Not moving looks exactly like moving: the belief covers both.
    assert belief_cities(s) == {"Lima", "Caracas", "Santiago"}


def test_r16_jessah_inspects_every_city_she_enters_and_angela_never_walks_into_capture():
    s = scenario(angela="Lima", jessah="Santiago", then=[move("angela", 1), move("jessah", 2)])
    play(s, "Santiago")  # into Jessah's city: no capture
    assert s.captures == 0 and s.angela_city == city(s, "Santiago")
    play(s, "Buenos Aires")
    assert [e["city"] for e in events(s, "inspect")] == ["Buenos Aires"]
    play(s, "Santiago")
    assert s.captures == 1 and events(s, "capture")[-1]["city"] == "Santiago"


def test_r16_stay_and_inspect_spends_a_step():
    s = scenario(angela="Santiago", jessah="Santiago", then=[move("jessah", 2)])
    play(s, "inspect")
    assert s.captures == 1


def test_r17_capture_ends_the_movement_but_the_next_action_of_the_card_happens():
    s = scenario(angela="Auckland", jessah="Sydney", phase="resolve", cards=("M2|S2",),
                 slots=[[("jessah", 3), None]])
    play(s, "Auckland")
    assert s.captures == 1 and belief_cities(s) == {"Auckland"}
    assert kind(s) == "identity" and s.decision().seat == ANGELA
    assert options(s) == ["journalist", "pilot"]
    play(s, "pilot")
    for _ in range(3):
        play(s, "stay")
    # the rest of Jessah's movement is lost; her Security half still happens
    assert kind(s) == "jessah_security"
    assert s.identities_down == [s.comps.identity_index("pilot")]


def test_r17_capture_without_identity_wins():
    s = scenario(angela="Auckland", jessah="Sydney", identities="", identities_down="journalist pilot",
                 captures=2, then=[move("jessah", 2)])
    play(s, "Auckland")
    assert s.over and s.winner == JESSAH and s.end_reason == "arrest" and s.captures == 3


def test_r18_barriers_block_both_ways_but_never_jessah():
    s = scenario(angela="Helsinki", barriers="Helsinki|Ulaanbaatar", then=[move("angela", 1)])
    assert ("move", city(s, "Ulaanbaatar")) not in options(s)
    s = scenario(angela="Ulaanbaatar", barriers="Helsinki|Ulaanbaatar", then=[move("angela", 1)])
    assert ("move", city(s, "Helsinki")) not in options(s)
    s = scenario(jessah="Ulaanbaatar", barriers="Helsinki|Ulaanbaatar", radars="EU", then=[move("jessah", 1)])
    assert ("move", city(s, "Helsinki")) in options(s)


# ------------------------------------------------------------------ setup


def test_r19_setup_order():
    g = GameState.new(RuleSet(), random.Random(11), log=True)
    d = g.decision()
    assert (d.seat, d.kind) == (JESSAH, "start")
    jessah_hand = list(g.hands[JESSAH])
    chk, where = d.options[0]
    g.apply((chk, where))
    assert g.deck[0] == chk and chk not in g.hands[JESSAH]  # shown, beneath the deck
    assert g.jessah_city == where and len(g.hands[JESSAH]) == len(jessah_hand) - 1
    assert g.decision().kind == "setup_radar"
    first = g.decision().options[0]
    g.apply(first)
    assert g.decision().kind == "setup_radar" and first not in g.decision().options  # 2 different continents
    g.apply(g.decision().options[0])
    assert (g.decision().seat, g.decision().kind) == (ANGELA, "start")
    chk, where = g.decision().options[0]
    g.apply((chk, where))
    k = g.comps.city_continent[where]
    assert g.belief == g.comps.continent_mask[k]  # her continent is public, not her city
    assert g.deck[0] == chk
    assert g.initiative == ANGELA and len(g.upgrades_face_up) == 2
    assert sum(1 for r in g.radars if r) == 2
    assert g.decision().kind == "place_token" and g.decision().seat == ANGELA


def test_r19_checks_are_dealt_alternately_angela_first():
    g = GameState.new(RuleSet(), random.Random(12))
    # The chance stream's order: identity draw, check shuffle, upgrade shuffle.
    rng = random.Random(12)
    rng.sample(range(6), 2)
    deck = list(range(18))
    rng.shuffle(deck)
    top = deck[::-1]  # the top of the deck is the end of the list
    assert g.hands[ANGELA] == top[0:6:2] and g.hands[JESSAH] == top[1:6:2]


def test_r20_identities_random_or_fixed_without_changing_the_deal():
    rules = RuleSet()
    drawn = GameState.new(rules, random.Random(5))
    assert len(drawn.identities_up) == 2
    fixed = GameState.new(rules, random.Random(5), identities=("lawyer", "doctor"))
    assert [fixed.comps.identities[i].id for i in fixed.identities_up] == ["lawyer", "doctor"]
    assert fixed.hands == drawn.hands and fixed.deck == drawn.deck and fixed.upgrade_deck == drawn.upgrade_deck
    seen = {tuple(GameState.new(rules, random.Random(s)).identities_up) for s in range(200)}
    assert len(seen) == 15  # every pair can come up


# ------------------------------------------------------------------ round and end


def test_r21_tokens_placement_initiative_and_reset():
    rules = RuleSet()
    g = GameState.new(rules, random.Random(3))
    rng = random.Random(4)
    while g.decision().kind != "place_token":
        g.apply(g.decision().options[rng.randrange(len(g.decision().options))])
    seen_rounds: dict[int, tuple[int, list[int], int]] = {}
    order: list[int] = []
    while not g.over and g.round <= 7:
        d = g.decision()
        if d.kind == "place_token":
            if g.round not in seen_rounds:
                assert len(g.token_hand[0]) == 3 and len(g.token_hand[1]) == 3
                seen_rounds[g.round] = (g.initiative, [len(g.token_pool[0]), len(g.token_pool[1])], 0)
                order = []
            order.append(d.seat)
            if len(order) == 6:
                ini = seen_rounds[g.round][0]
                assert order == [ini, 1 - ini] * 3
        g.apply(d.options[rng.randrange(len(d.options))])
    assert [seen_rounds[r][0] for r in (1, 2, 3, 4)] == [ANGELA, JESSAH, ANGELA, JESSAH]
    # pools after drawing: 6, 3, 0, then reset: 6 ...
    assert [seen_rounds[r][1] for r in (1, 2, 3, 4, 5, 6, 7)] == [[6, 6], [3, 3], [0, 0], [6, 6], [3, 3], [0, 0],
                                                                  [6, 6]]


def test_r22_angela_wins_the_moment_she_reaches_the_target():
    s = scenario(angela="Kolkata", angela_hand=("yellow 100k",),
                 angela_cashed=("red 200k", "blue 200k", "green 200k", "orange 200k", "purple 100k"),
                 then=[bank("angela"), move("jessah", 2)])
    play(s, "yellow 100k")
    assert s.over and s.winner == ANGELA and s.end_reason == "million" and s.cash_total[ANGELA] == 1_000_000
    assert s.stack == [] and s.pending is None  # no bonus movement, no Jessah movement


def test_r23_round_limit_is_a_timeout():
    rules = RuleSet().replace(max_rounds=3)
    s = scenario(rules=rules, round=3, then=[])
    assert s.over and s.winner is None and s.end_reason == "timeout"
    s = scenario(rules=rules, round=2, then=[])
    assert not s.over and s.round == 3


# ------------------------------------------------------------------ information


def test_r24_public_facts_in_both_views():
    s = scenario(angela="Kolkata", jessah="Paris", angela_hand=("yellow 100k", "red 200k"),
                 jessah_hand=("blue 100k",), security=3, radars="AF", then=[move("jessah", 1)])
    for seat in (ANGELA, JESSAH):
        v = build_view(s, seat)
        assert v.hand_sizes == (2, 1) and v.security == 3 and v.jessah_city == city(s, "Paris")
        assert v.radars[s.comps.continent_of_id("AF")] == WHITE
        assert v.identities_up == ("journalist", "pilot")
    assert build_view(s, ANGELA).angela_city == city(s, "Kolkata")
    assert build_view(s, JESSAH).angela_city == -1


def test_r25_a_view_never_shows_the_opponent_hidden_facts():
    s = scenario(phase="place", cards=("C1|J", "B|M1", "S2|M1", "M2|C1"),
                 tokens={"angela": [1, 2, 3], "jessah": [2, 3, 4]},
                 angela_hand=("yellow 100k",), jessah_hand=("blue 100k",))
    play(s, (3, 0, 0))
    jv = build_view(s, JESSAH)
    av = build_view(s, ANGELA)
    assert jv.slots[0][0] == (ANGELA, -1)  # Angela's face-down token
    assert av.slots[0][0] == (ANGELA, 3)
    assert jv.hand == (s.hands[JESSAH][0],) and av.hand == (s.hands[ANGELA][0],)
    assert jv.my_tokens == (2, 3, 4) and av.my_tokens == (1, 2)


# ------------------------------------------------------------------ added rulings

def _r26(icons: int = 2, seat: str = "angela", **kw) -> GameState:
    """A Check action of ``icons`` icons, then Jessah's movement (the rest of the card)."""
    return scenario(then=[check(seat, icons), move("jessah", 1)], **kw)


def test_r26_a_two_icon_check_may_draw_none():
    s = _r26()
    deck = list(s.deck)
    d = s.decision()
    assert d.kind == "check" and d.seat == ANGELA and d.options == ["draw", "pass"]
    assert d.info == {"left": 2, "drawn": 0}
    play(s, "pass")
    assert s.hands[ANGELA] == [] and s.deck == deck
    assert kind(s) == "jessah_move"  # declining the first icon declines the action
    assert events(s, "draw") == []


def test_r26_a_two_icon_check_may_draw_one():
    s = _r26()
    deck = list(s.deck)
    play(s, "draw")
    d = s.decision()
    assert d.kind == "check" and d.info == {"left": 1, "drawn": 1}  # the second icon is asked on its own
    play(s, "pass")
    assert s.hands[ANGELA] == [deck[-1]] and s.deck == deck[:-1]  # the top check
    assert kind(s) == "jessah_move"
    assert [e["n"] for e in events(s, "draw")] == [1]
    assert s.stats["checks_drawn_angela"] == 1


def test_r26_a_two_icon_check_may_draw_two():
    s = _r26()
    deck = list(s.deck)
    play(s, "draw", "draw")
    assert s.hands[ANGELA] == [deck[-1], deck[-2]] and s.deck == deck[:-2]
    assert kind(s) == "jessah_move"  # no third question
    assert [(e["seat"], e["n"]) for e in events(s, "draw")] == [("angela", 2)]  # one event per action
    assert s.stats["checks_drawn_angela"] == 2


def test_r26_jessah_takes_her_check_icon_by_icon_too():
    s = _r26(seat="jessah", jessah="Lima")
    assert s.decision().seat == JESSAH
    play(s, "draw", "pass")
    assert len(s.hands[JESSAH]) == 1 and s.hands[ANGELA] == []


def test_r26_the_second_icon_is_not_asked_when_the_hand_is_full():
    # Four checks in hand, hand limit five: the first draw fills the hand and
    # the second icon has nothing to give (rulebook: a full hand does not draw).
    s = _r26(angela_hand=("red 100k", "red 100k", "blue 200k", "green 200k"))
    play(s, "draw")
    assert len(s.hands[ANGELA]) == 5 and kind(s) == "jessah_move"
    assert [e["n"] for e in events(s, "draw")] == [1]


def test_r26_the_second_icon_is_not_asked_when_the_deck_runs_out():
    every = [f"{c} {v}k" for c in ("red", "green", "blue", "orange", "yellow", "purple") for v in (100, 100, 200)]
    s = scenario(angela_hand=(), jessah_hand=tuple(every[:3]), jessah_cashed=tuple(every[3:17]),
                 check_deck=(every[17],), then=[check("angela", 2), move("jessah", 1)])
    play(s, "draw")
    assert len(s.hands[ANGELA]) == 1 and s.deck == [] and kind(s) == "jessah_move"


def test_r26_a_full_hand_is_never_asked():
    s = _r26(angela_hand=("red 100k", "red 100k", "blue 200k", "green 200k", "green 100k"))
    assert kind(s) == "jessah_move" and len(s.hands[ANGELA]) == 5


def test_r26_a_joker_check_is_one_icon():
    s = scenario(then=[joker("angela"), move("jessah", 1)])
    play(s, "check")
    assert s.decision().info == {"left": 1, "drawn": 0}
    play(s, "draw")
    assert len(s.hands[ANGELA]) == 1 and kind(s) == "jessah_move"


def test_r26_a_position_saved_between_the_two_icons_plays_on_identically():
    s = _r26()
    play(s, "draw")
    saved = save_position(s)
    t = load_position(saved, rules=RuleSet(), log=True)
    assert t.decision().info == {"left": 1, "drawn": 1}
    for g in (s, t):
        play(g, "draw")
    assert t.hands == s.hands and t.deck == s.deck
    assert [e["n"] for e in events(t, "draw")] == [2]  # the first icon's draw is not lost
    assert save_position(t) == save_position(s)


def test_r27_the_lawyer_discards_return_to_jessah_supply():
    # Every radar and every barrier of Jessah's supply is on the board: she
    # could place none. After the Lawyer's discards she can place each again.
    comps = RuleSet().load_components()
    assert (comps.radar_supply, comps.barrier_supply) == (6, 4)  # the setup below relies on it
    radars = {"NA": "white", "SA": "white", "EU": "white", "AF": "black", "AS": "white", "OC": "white"}
    barriers = "Sydney|Auckland, Perth|Sydney, Santiago|Auckland, Lima|Santiago"
    s = scenario(angela="Auckland", identities="lawyer pilot", radars=radars, barriers=barriers,
                 then=[capture("Auckland"), security("jessah", 2)])
    assert (s.n_radars, s.n_barriers) == (6, 4)
    play(s, "lawyer", "Perth|Sydney", "OC", "stop")
    assert kind(s) == "jessah_security"
    assert (s.n_radars, s.n_barriers) == (5, 3)
    opts = options(s)
    oc = comps.continent_of_id("OC")
    assert [o for o in opts if o[0] == "radar"] == [("radar", oc)]
    assert ("barrier", comps.route("Perth", "Sydney")) in opts
    play(s, "radar OC", "barrier Perth|Sydney")
    assert s.radars[oc] == WHITE and s.barriers[comps.route("Perth", "Sydney")] == WHITE
    assert (s.n_radars, s.n_barriers) == (6, 4)


@pytest.mark.parametrize("ruling", [f"R{i}" for i in range(1, 28)])
def test_every_ruling_has_a_test(ruling):
    names = [n for n in globals() if n.startswith(f"test_r{int(ruling[1:]):02d}_")]
    assert names, f"no scenario test for {ruling}"
