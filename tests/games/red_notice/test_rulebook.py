"""Every worked example of the rulebook, and every identity and upgrade, as a
scenario driven by scripted answers."""

from __future__ import annotations

import pytest

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.state import BLACK, WHITE
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet
from tests.games.red_notice.scenario import (
    announced,
    bank,
    belief_cities,
    capture,
    check,
    city,
    events,
    kind,
    move,
    options,
    play,
    scenario,
    security,
)

# ------------------------------------------------------------ worked examples


def test_radar_example_cape_town_via_santiago_to_caracas():
    s = scenario(angela="Cape Town", radars="AF SA", then=[move("angela", 2)])
    play(s, "Santiago", "Caracas")
    assert announced(s) == ["SA"]  # once, although she passed through 2 SA cities
    af, sa = s.comps.continent_of_id("AF"), s.comps.continent_of_id("SA")
    assert s.radars[sa] == 0 and s.radars[af] == WHITE  # leaving Africa triggers nothing
    assert s.angela_city == city(s, "Caracas")


def test_capture_in_auckland_with_the_pilot_after_port_douglas_stay_inspect():
    s = scenario(angela="Auckland", jessah="Port Douglas", then=[move("jessah", 2)])
    play(s, "inspect")
    assert s.captures == 0 and "Port Douglas" not in belief_cities(s)
    play(s, "Auckland")
    assert s.captures == 1 and kind(s) == "identity"
    play(s, "pilot")
    d = s.decision()
    assert d.kind == "angela_move" and d.info == {"left": 3, "escape": True}
    play(s, "Santiago", "Lima", "Caracas")
    assert s.angela_city == city(s, "Caracas")
    assert s.identities_down == [s.comps.identity_index("pilot")]


def test_joker_example_jessah_alone_check_side_then_joker():
    s = scenario(phase="resolve", cards=("C1|J",), slots=[[("jessah", 1), None]])
    assert (s.decision().seat, kind(s)) == (JESSAH, "check")
    play(s, "draw")
    assert len(s.hands[JESSAH]) == 1
    assert (s.decision().seat, kind(s)) == (JESSAH, "joker")


def test_bank_then_movement_example():
    s = scenario(angela="Kolkata", jessah="Paris", angela_hand=("yellow 200k",), phase="resolve",
                 cards=("B|M1",), slots=[[("angela", 4), ("jessah", 2)]], upgrades_face_up="precise_radars wiretap")
    assert (s.decision().seat, kind(s)) == (ANGELA, "bank")
    play(s, "yellow 200k", "precise_radars")
    assert (s.decision().seat, kind(s)) == (ANGELA, "angela_move")
    play(s, "Dubai")
    assert (s.decision().seat, kind(s)) == (JESSAH, "jessah_move")
    assert s.decision().info["left"] == 1


def test_barrier_removal_before_moving_helsinki_ulaanbaatar():
    s = scenario(angela="Helsinki", security=2, barriers="Helsinki|Ulaanbaatar", then=[move("angela", 1)])
    assert ("move", city(s, "Ulaanbaatar")) not in options(s)
    play(s, "remove barrier Helsinki|Ulaanbaatar")
    assert s.security == 0 and s.barriers == [0] * len(s.comps.routes)
    play(s, "Ulaanbaatar")
    assert s.angela_city == city(s, "Ulaanbaatar")


def test_angela_cashing_in_kolkata_reveals_her_position():
    s = scenario(angela="Kolkata", belief="all", angela_hand=("yellow 200k",), then=[bank("angela")])
    play(s, "yellow 200k")
    assert belief_cities(s) == {"Kolkata"}
    assert events(s, "cash")[-1]["city"] == "Kolkata"
    assert build_view(s, JESSAH).last_seen == (city(s, "Kolkata"), s.comps.continent_of_id("AS"), 3)


def test_upgrade_example_precise_radars_then_r9():
    s = scenario(angela="Kolkata", angela_hand=("yellow 200k", "yellow 100k"),
                 upgrades_face_up="precise_radars wiretap", upgrade_deck="",
                 then=[bank("angela"), move("angela", 1), bank("angela")])
    assert options(s)[:1] == [s.hands[ANGELA][0]]
    play(s, "yellow 200k")
    assert (s.decision().seat, kind(s)) == (ANGELA, "upgrade")  # the casher chooses
    assert options(s) == ["precise_radars", "wiretap"]
    play(s, "precise_radars")
    ids = [s.comps.upgrade_cards[u].id for u in s.permanents]
    assert ids == ["precise_radars"]
    assert "wiretap" in [s.comps.upgrade_cards[u].id for u in s.upgrades_gone]  # discarded for good
    assert s.upgrades_face_up == [] and s.upgrade_deck == []
    play(s, "stop")
    # Jessah cashes a $200k later: no upgrade left, R9 gives Security then Movement.
    s2 = scenario(jessah="Lima", jessah_hand=("green 200k",), upgrades_face_up="", upgrade_deck="",
                  permanents="precise_radars", then=[bank("jessah")])
    play(s2, "green 200k")
    assert kind(s2) == "jessah_security"
    play(s2, "pass")
    assert kind(s2) == "jessah_move"


def test_placement_example_not_facing_her_own_token():
    s = scenario(phase="place", initiative="jessah", cards=("C1|J", "B|M1", "S2|M1", "M2|C1"),
                 slots=[[("angela", 2), None], [("jessah", 1), ("angela", 3)], [("jessah", 2), None],
                        [("jessah", 3), None]],
                 tokens={"angela": [4], "jessah": []})
    assert (s.decision().seat, kind(s)) == (ANGELA, "place_token")
    assert options(s) == [(4, 2, 1), (4, 3, 1)]  # 3 spaces empty, 2 allowed


def test_pow_cancels_the_opposing_token():
    s = scenario(phase="resolve", cards=("B|M1",), slots=[[("angela", 5), ("jessah", "POW")]])
    assert (s.decision().seat, kind(s)) == (JESSAH, "jessah_move")  # POW!: Jessah alone, her half first
    play(s, "stop")
    # her second action is the bank half: nothing to cash, so no decision; Angela's 5 did nothing
    assert all(e["seat"] == "jessah" for e in events(s, "jessah_move"))
    assert not any(e["t"] in ("angela_step", "cash") for e in events(s))


def test_ties_initiative_first():
    s = scenario(phase="resolve", cards=("M2|S2",), slots=[[("angela", 4), ("jessah", 4)]], initiative="jessah")
    assert (s.decision().seat, kind(s)) == (JESSAH, "jessah_security")
    play(s, "pass", "pass")
    assert (s.decision().seat, kind(s)) == (ANGELA, "angela_move")
    assert s.decision().info["left"] == 2


def test_hand_limit_of_5():
    s = scenario(angela_hand=("red 100k", "red 100k", "blue 100k", "green 100k"),
                 then=[check("angela", 2), check("angela", 1), move("jessah", 1)])
    deck = len(s.deck)
    play(s, "draw")
    assert len(s.hands[ANGELA]) == 5 and len(s.deck) == deck - 1  # the second draw is not made
    assert kind(s) == "jessah_move"  # a full hand has nothing to decide


def test_security_cap_4_and_spending_before_gaining():
    s = scenario(security=3, radars="NA", then=[security("angela", 2)])
    play(s, "gain")
    assert s.security == 4
    play(s, "remove radar NA", "gain")
    assert s.security == 3 and s.radars == [0] * 6


def test_jessah_security_example_radar_and_barrier():
    s = scenario(then=[security("jessah", 2)])
    play(s, "radar NA", "barrier Los Angeles|Beijing")
    assert s.radars[s.comps.continent_of_id("NA")] == WHITE
    assert s.barriers[s.comps.route("Los Angeles", "Beijing")] == WHITE


def test_initiative_switching():
    s = scenario(round=1, initiative="angela", then=[])
    assert s.round == 2 and s.initiative == JESSAH
    assert s.decision().seat == JESSAH and kind(s) == "place_token"


def test_reset_every_3_rounds():
    s = scenario(round=2, then=[])
    assert s.round == 3 and len(s.token_pool[ANGELA]) == 6  # no reset: the pool keeps shrinking
    s = scenario(round=3, phase="resolve", cards=("M2|S2",), slots=[[("angela", 4), ("jessah", 2)]])
    assert s.spent == [[4], [2]]
    while s.round == 3:
        o = options(s)
        s.apply("stop" if "stop" in o else "pass")
    assert s.round == 4
    assert s.spent == [[], []]
    assert len(s.token_pool[ANGELA]) == 6 and len(s.token_pool[JESSAH]) == 6  # 9 back, 3 drawn
    assert len(s.action_deck) == 8 and len(s.round_cards) == 4  # 12 reshuffled, 4 drawn


def test_angela_wins_with_a_million():
    s = scenario(angela="Kolkata", angela_hand=("yellow 200k",),
                 angela_cashed=("red 200k", "blue 200k", "green 200k", "orange 200k"),
                 then=[bank("angela")])
    play(s, "yellow 200k")
    assert s.over and s.winner == ANGELA and s.end_reason == "million"


def test_jessah_wins_with_the_third_capture():
    s = scenario(angela="Lima", jessah="Lima", identities="", identities_down="pilot journalist", captures=2,
                 then=[move("jessah", 1)])
    play(s, "inspect")
    assert s.over and s.winner == JESSAH and s.end_reason == "arrest"


def test_round_limit_timeout():
    s = scenario(rules=RuleSet().replace(max_rounds=5), round=5, then=[move("jessah", 1)])
    play(s, "stop")
    assert s.over and s.winner is None and s.end_reason == "timeout"


# ------------------------------------------------------------------ identities


def escape_with(identity: str, **kw):
    kw.setdefault("angela", "Auckland")
    kw.setdefault("upgrades_face_up", "wiretap informant")
    s = scenario(identities=f"{identity} pilot" if identity != "pilot" else "pilot journalist",
                 then=[capture(kw["angela"])], **kw)
    assert kind(s) == "identity"
    play(s, identity)
    return s


def test_identity_lawyer():
    s = escape_with("lawyer", radars={"OC": "white", "SA": "black", "AS": "white"},
                    barriers={"Sydney|Auckland": "white", "Perth|Sydney": "white", "Santiago|Auckland": "black"})
    assert kind(s) == "lawyer_barrier"
    assert sorted(options(s)) == sorted([s.comps.route("Sydney", "Auckland"), s.comps.route("Perth", "Sydney")])
    play(s, "Sydney|Auckland")
    assert kind(s) == "lawyer_radar"
    assert sorted(options(s)) == sorted([s.comps.continent_of_id("OC"), s.comps.continent_of_id("AS")])
    play(s, "OC")
    assert s.radars[s.comps.continent_of_id("OC")] == 0 and s.radars[s.comps.continent_of_id("SA")] == BLACK
    d = s.decision()
    assert d.kind == "angela_move" and d.info["left"] == 2
    assert ("move", city(s, "Santiago")) not in d.options  # black barrier stays
    play(s, "Sydney", "stay")
    assert announced(s) == []


def test_identity_journalist():
    s = escape_with("journalist", radars={"SA": "black", "OC": "white"}, barriers="Santiago|Auckland")
    assert ("move", city(s, "Santiago")) in options(s)  # through the barrier
    play(s, "Santiago", "Lima")
    assert announced(s) == [] and s.radars[s.comps.continent_of_id("OC")] == WHITE
    # The public only knows she went up to 2 steps from Auckland, barriers and radars aside.
    assert "Lima" in belief_cities(s) and "Caracas" in belief_cities(s)


def test_identity_secret_agent():
    s = escape_with("secret_agent", security=2, radars="OC")
    play(s, "remove radar OC")  # spent while applying the identity
    assert s.security == 0
    play(s, "Sydney", "Perth")
    assert s.security == 4


def test_identity_doctor():
    s = escape_with("doctor", angela_hand=("red 100k", "red 100k", "blue 100k", "green 100k"))
    assert len(s.hands[ANGELA]) == 5  # 2 drawn, but the hand limit is 5
    assert kind(s) == "angela_move" and s.decision().info["left"] == 2


def test_identity_businesswoman_destroys_a_permanent_upgrade():
    s = escape_with("businesswoman", permanents="private_jet precise_radars")
    assert kind(s) == "destroy_upgrade" and options(s) == ["private_jet", "precise_radars"]
    play(s, "precise_radars")
    assert [s.comps.upgrade_cards[u].id for u in s.permanents] == ["private_jet"]
    assert kind(s) == "angela_move" and s.decision().info["left"] == 2


def test_identity_businesswoman_destroys_permanent_units():
    s = escape_with("businesswoman", permanents="permanent_units",
                    radars={"EU": "black", "NA": "black", "AF": "white"},
                    barriers={"Paris|Rome": "black", "Lima|Santiago": "black", "Cairo|Dubai": "white"})
    # the only permanent upgrade: destroyed without a question
    assert "permanent_units" in [e["upgrade"] for e in events(s, "upgrade_destroyed")]
    assert kind(s) == "remove_black_radar" and s.decision().seat == ANGELA
    play(s, "NA")
    assert kind(s) == "remove_black_barrier"
    play(s, "Lima|Santiago")
    comps = s.comps
    assert s.radars[comps.continent_of_id("NA")] == 0 and s.radars[comps.continent_of_id("EU")] == BLACK
    assert s.barriers[comps.route("Lima", "Santiago")] == 0 and s.barriers[comps.route("Paris", "Rome")] == BLACK
    assert s.n_radars == 2 and s.n_barriers == 2  # back to the supply
    assert kind(s) == "angela_move"


def test_identity_pilot():
    s = escape_with("pilot")
    assert s.decision().info == {"left": 3, "escape": True}


# -------------------------------------------------------------------- upgrades


def gain(upgrade_id: str, chooser: str = "angela", **kw):
    """Someone cashes a $200k check: the chooser picks ``upgrade_id`` for Jessah."""
    if chooser == "angela":
        kw.setdefault("angela", "Kolkata")
        kw.setdefault("angela_hand", ("yellow 200k",))
    else:
        kw.setdefault("jessah", "Lima")
        kw.setdefault("jessah_hand", ("green 200k",))
    then = kw.pop("then", [])
    other = "wiretap" if upgrade_id != "wiretap" else "informant"
    s = scenario(upgrades_face_up=f"{upgrade_id} {other}", then=[bank(chooser), *then], **kw)
    play(s, "yellow 200k" if chooser == "angela" else "green 200k", upgrade_id)
    return s


def test_upgrade_precise_radars():
    s = gain("precise_radars", radars="AS", then=[move("angela", 1)])
    play(s, "Beijing")
    assert announced(s) == ["AS Beijing"]
    assert belief_cities(s) == {"Beijing"}


def test_upgrade_permanent_units_black_side_tokens():
    s = gain("permanent_units", radars="AF")
    assert (s.decision().seat, kind(s)) == (JESSAH, "black_radar")
    play(s, "AF")  # flips the white radar already there
    assert kind(s) == "black_barrier"
    play(s, "Helsinki|Ulaanbaatar")
    assert s.radars[s.comps.continent_of_id("AF")] == BLACK
    assert s.barriers[s.comps.route("Helsinki", "Ulaanbaatar")] == BLACK
    assert s.n_radars == 1 and s.n_barriers == 1


def test_upgrade_private_jet():
    s = gain("private_jet", chooser="jessah")
    assert [s.comps.upgrade_cards[u].id for u in s.permanents] == ["private_jet"]
    # A card half's Movement gains a step ...
    s = scenario(permanents="private_jet", upgrades_face_up="wiretap informant", phase="resolve",
                 cards=("M2|S2", "M1|J"), slots=[[("jessah", 3), None], [None, ("jessah", 2)]])
    assert kind(s) == "jessah_move" and s.decision().info["left"] == 3
    play(s, "stop", "pass", "pass")
    # ... and so does a joker's (Jessah on the J half: joker first, then M1)
    play(s, "movement")
    assert kind(s) == "jessah_move" and s.decision().info["left"] == 2
    play(s, "stop")
    assert kind(s) == "jessah_move" and s.decision().info["left"] == 2
    # ... but not a bonus movement ($100k)
    s = scenario(permanents="private_jet", upgrades_face_up="wiretap informant", jessah="Lima",
                 jessah_hand=("green 100k",), then=[bank("jessah")])
    play(s, "green 100k")
    assert kind(s) == "jessah_move" and s.decision().info["left"] == 1


def test_upgrade_frozen_accounts():
    s = gain("frozen_accounts", angela_hand=("yellow 200k", "yellow 100k"), then=[bank("angela"), move("jessah", 1)])
    play(s, "yellow 100k")
    assert (s.decision().seat, kind(s)) == (JESSAH, "jessah_move")  # no bonus movement for Angela
    s = gain("frozen_accounts", chooser="jessah", jessah_hand=("green 200k", "green 100k"), then=[bank("jessah")])
    play(s, "green 100k")
    assert kind(s) == "jessah_move"  # Jessah's own bonus is untouched


def test_upgrade_bank_alert():
    s = gain("bank_alert", angela_hand=("yellow 200k", "yellow 100k"), then=[bank("angela")])
    # gained by this very cash: it applies from the next cash on
    assert (s.decision().seat, kind(s)) == (ANGELA, "bank")
    play(s, "yellow 100k")
    # Angela's cash effects (the bonus movement) first, then Jessah's movement
    assert (s.decision().seat, kind(s)) == (ANGELA, "angela_move")
    play(s, "stop")
    assert (s.decision().seat, kind(s)) == (JESSAH, "jessah_move") and s.decision().info["left"] == 1


def test_upgrade_wiretap():
    s = gain("wiretap", angela_hand=("yellow 200k", "red 100k", "blue 200k"), then=[move("jessah", 1)])
    rnd, hand = build_view(s, JESSAH).revealed_hand
    assert rnd == 3 and sorted(hand) == sorted(s.hands[ANGELA]) and len(hand) == 2


def test_upgrade_satellite_sweep():
    s = gain("satellite_sweep", chooser="jessah", angela="Perth", belief="all", then=[move("jessah", 1)])
    assert belief_cities(s) == {"Perth", "Sydney", "Auckland", "Port Douglas"}
    assert s.last_seen == (-1, s.comps.continent_of_id("OC"), 3)


def test_upgrade_roadblocks():
    s = gain("roadblocks")
    assert kind(s) == "jessah_security" and s.decision().info["left"] == 2
    play(s, "radar AS", "barrier Kolkata|Dubai")
    assert s.n_radars == 1 and s.n_barriers == 1


def test_upgrade_rapid_response():
    s = gain("rapid_response", jessah="Dubai")
    assert kind(s) == "jessah_move" and s.decision().info["left"] == 2
    play(s, "Kolkata")
    assert s.captures == 1  # with inspections


@pytest.mark.parametrize("named,answer", [("Beijing", True), ("Paris", False)])
def test_upgrade_informant(named, answer):
    s = gain("informant", chooser="jessah", angela="Kolkata", belief="all")
    assert kind(s) == "informant"
    play(s, named)
    assert events(s, "informant")[-1]["answer"] is answer
    near = {"Beijing", "Kolkata", "Ulaanbaatar", "Tokyo", "Los Angeles"}
    if answer:
        assert belief_cities(s) == near
    else:
        assert belief_cities(s) == set(s.comps.cities) - {"Paris", "London", "Rome", "Berlin", "Casablanca"}
    assert "Kolkata" in belief_cities(s)
