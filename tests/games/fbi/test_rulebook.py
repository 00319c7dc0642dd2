"""Scenario tests, one per rulebook clause and example (F1..F16: docs/reference/rulings.md#fbi-f1f16;
FR1..: docs/games/fbi.md)."""

from __future__ import annotations

import random

import pytest

from rnsim.errors import IllegalOption, RulesError
from rnsim.games.fbi.rules import FbiRules
from rnsim.games.fbi.state import AGENTS, ARREST, FbiState
from tests.games.fbi.scenario import arrests, card, seat, state

RULES = FbiRules()


def new(players: int, seed: int = 0, rules: FbiRules = RULES) -> FbiState:
    return FbiState.new(rules, players, random.Random(seed))


def answer_all(s: FbiState, choose=lambda d: d.options[0]) -> None:
    while not s.over:
        s.apply(choose(s.pending))


# ------------------------------------------------------------------ contents

def test_contents_110_cards_and_bonus_values():
    comps = RULES.load_components()
    assert comps.n_cards == 110
    assert len(comps.coloured) == 59 and len(comps.purple) == 10
    assert sorted(comps.card_value[c] for c in comps.purple) == [-5, -4, -3, -2, -1, 1, 2, 3, 4, 5]
    assert dict(zip(comps.colours, comps.bonus, strict=True)) == {"red": 5, "yellow": 4, "blue": 3, "green": 2, "black": 1}
    assert comps.agent_copies * (len(comps.colours) + 1) == 30
    assert comps.slammer_values == (1, 2, 3, 4, 5)


# --------------------------------------------------------------------- setup

@pytest.mark.parametrize("players", [3, 4, 5])
def test_setup_per_player_count(players):
    """Each player gets purple k and -k for k = 1..players, shuffled; the rest is set aside."""
    s = new(players, seed=players)
    comps = s.comps
    villains = []
    for cards in s.slammer:
        vals = sorted(comps.card_value[c] for c in cards)
        assert len(vals) == 2 and vals[0] == -vals[1] and all(c in comps.purple for c in cards)
        villains.append(vals[1])
    assert sorted(villains) == list(range(1, players + 1))
    # the first turn placed 2 x players cards from the 59
    assert sum(len(t) for t in s.table) == 2 * players
    assert len(s.deck) == 59 - 2 * players


@pytest.mark.parametrize("seed", range(6))
def test_first_handcuffs_highest_purple_villain(seed):
    s = new(4, seed)
    holder = s.handcuffs
    assert max(s.comps.card_value[c] for c in s.slammer[holder]) == 4
    assert s.first_handcuffs == holder


def test_handcuffs_pass_to_the_left_each_turn():
    """F1: to the left = clockwise = the next seat number."""
    s = new(4, 3)
    first = s.handcuffs
    seen = []
    while not s.over:
        if not seen or seen[-1][0] != s.turn:
            seen.append((s.turn, s.handcuffs))
        s.apply(s.pending.options[0])
    assert [h for _, h in seen] == [(first + t - 1) % 4 for t, _ in seen]


def test_place_twice_as_many_cards_as_players_below_their_colour():
    s = new(5, 1)
    placed = [c for t in s.table for c in t]
    assert len(placed) == 10
    for colour, cards in enumerate(s.table):
        assert all(s.comps.card_colour[c] == colour for c in cards)


# ------------------------------------------------------------------ the bid

def test_arrest_order_example():
    """Rulebook: Ann (handcuffs) moves -4, Bert none, Chris 1, Donna none:
    Chris, Bert, Donna, Ann; then Ann, Donna, Bert, Chris (F4, F5)."""
    s = state(players=4, handcuffs="ann",
              slammers={"ann": ["purple 4", "purple -4"], "bert": [], "chris": ["purple 1", "purple -1"], "donna": []},
              table={"red": [3, 2, 1, -1], "yellow": [4, 2, 1, -2]})
    assert s.pending.seat == seat("ann") and s.pending.kind == "bid"
    s.apply(card(s, "purple -4", "ann"))
    # Bert has no card: "none" is his only bid and is answered for him
    assert s.pending.seat == seat("chris")
    s.apply(card(s, "purple 1", "chris"))
    assert s.phase == AGENTS
    names = ["ann", "bert", "chris", "donna"]
    assert [names[x] for x in s.order] == ["chris", "bert", "donna", "ann"]
    assert [names[s.arrest_seat(i)] for i in range(8)] == [
        "chris", "bert", "donna", "ann", "ann", "donna", "bert", "chris"]


def test_bid_ties_in_seat_order_from_the_handcuffs_holder():
    """F4: equal bids: the holder first, then clockwise."""
    s = state(players=5, handcuffs="donna", table={"red": [1, 2, 3], "blue": [1, 2]})
    assert s.phase == AGENTS  # nobody has a card: every bid is "none"
    assert s.order == [3, 4, 0, 1, 2]


def test_bids_are_made_in_turn_clockwise_and_openly():
    """F2: later bidders are asked after earlier ones, and see their bids."""
    s = state(players=3, handcuffs="bert",
              slammers={"ann": ["purple 1"], "bert": ["purple 2"], "chris": ["purple 3"]}, table={"red": [1, 2], "blue": [1]})
    asked = []
    while s.phase != AGENTS:
        asked.append(s.pending.seat)
        s.apply(s.pending.options[-1])
    assert asked == [1, 2, 0]


def test_any_slammer_card_may_be_bid_and_leaves_the_game():
    """F3: coloured cards from earlier turns may be bid; a bid card is out of the game."""
    s = state(players=3, handcuffs="ann", slammers={"ann": ["purple 3", "red 5", "blue -2"]}, table={"red": [1], "blue": [1]})
    opts = s.pending.options
    assert {s.comps.card_name(o) for o in opts if o != "none"} == {"purple 3", "red 5", "blue -2"}
    red5 = card(s, "red 5", "ann")
    s.apply(red5)
    assert red5 in s.released and red5 not in s.slammer[0]
    assert s.order[0] == 0  # 5 beats the others' 0


def test_bid_cards_knob_purple_only():
    rules = FbiRules(bid_cards="purple")
    s = state(players=3, rules=rules, slammers={"ann": ["purple 3", "red 5"]}, table={"red": [1]})
    assert [s.comps.card_name(o) for o in s.pending.options if o != "none"] == ["purple 3"]


def test_bystander_bid_is_lower_than_no_card():
    """Negative cards are the lowest bids: below "none" (0)."""
    s = state(players=3, handcuffs="ann", slammers={"ann": ["purple -2"]}, table={"red": [1], "blue": [1]})
    s.apply(card(s, "purple -2", "ann"))
    assert s.order == [1, 2, 0]


# ------------------------------------------------------------ field agents

def test_agents_only_in_colours_on_the_table():
    """F6: no blue agent without a blue card on the table; the 2x needs a partner."""
    s = state(players=3, table={"red": [1], "yellow": [2]})
    assert s.pending.kind == "agents"
    assert sorted(s.pending.options) == sorted([("red", "yellow"), ("red", "2x"), ("yellow", "2x")])


def test_2x_example_yellow_twice_with_one_yellow_card():
    """Rulebook: yellow + 2x is yellow twice, allowed with one yellow card on
    the table; the second yellow finds nothing and passes (F7)."""
    s = state(players=3, handcuffs="ann", table={"yellow": [3], "red": [5, 4, 2]}, log=True)
    assert s.pending.seat == 0 and ("yellow", "2x") in s.pending.options
    s.apply(("yellow", "2x"))
    assert s.agents[0] == [1, 1]
    s.apply(("red", "2x"))  # bert
    s.apply(("red", "yellow"))  # chris
    assert s.phase == ARREST
    s.apply("red")  # chris, round 1 (ann and bert had one colour: forced)
    assert arrests(s) == [("ann", "yellow 3"), ("bert", "red 5"), ("chris", "red 4"),
                          ("chris", None), ("bert", "red 2"), ("ann", None)]


def test_agent_choices_are_secret_until_played():
    """F6: another seat's view holds no trace of a chosen pair."""
    from rnsim.games.fbi.view import build_view

    s = state(players=3, table={"red": [1, 2], "yellow": [2], "blue": [3]})
    before = build_view(s, 2)
    s.apply(("red", "yellow"))  # ann picks
    after = build_view(s, 2)
    assert (after.my_pair, after.my_agents, after.played) == (None, (), ((), (), ()))
    assert before.table == after.table
    assert build_view(s, 0).my_pair == ("red", "yellow")


# ------------------------------------------------------------------- arrests

def _arrest_setup(table, stacked=False):
    rules = FbiRules(stacked=stacked)
    # a second and third colour, so the turn waits for the agents decision
    s = state(players=3, handcuffs="ann", table={"blue": [1], "green": [1], **table}, rules=rules)
    return s


def test_most_valuable_card_villain_before_bystander_least_bad_bystander():
    """F8: the highest value; among bystanders -1 before -3."""
    s = _arrest_setup({"red": [-3, 2, -1, 4]})
    red = 0
    assert s.comps.card_name(s.arrest_card(red)) == "red 4"
    s.table[red] = [c for c in s.table[red] if s.comps.card_value[c] < 0]
    assert s.comps.card_name(s.arrest_card(red)) == "red -1"


def test_forced_arrest_of_a_bystander_when_the_colour_is_on_the_table():
    """F7: an agent whose colour is on the table must arrest, even a bystander."""
    s = _arrest_setup({"red": [-2], "yellow": [3, 2, 1]})
    s.apply(("red", "yellow"))  # ann
    s.apply(("yellow", "2x"))
    s.apply(("yellow", "2x"))
    assert s.pending.kind == "arrest" and s.pending.options == ["red", "yellow"]
    s.apply("red")
    assert [s.comps.card_name(c) for c in s.slammer[0]] == ["red -2"]


def test_variant_takes_the_top_card_stacked_across_turns():
    """F15: cards stack in placement order; an arrest takes the top (last placed)."""
    s = _arrest_setup({"red": [5, -3, 1]}, stacked=True)
    assert s.comps.card_name(s.arrest_card(0)) == "red 1"
    s2 = _arrest_setup({"red": [5, -3, 1]}, stacked=False)
    assert s2.comps.card_name(s2.arrest_card(0)) == "red 5"


def test_second_round_starts_with_the_last_slammer_card_even_after_a_pass():
    """F5: the last player of round 1 arrests again at once, even if he passed;
    F7: an agent whose colour is gone passes."""
    s = state(players=3, handcuffs="ann", table={"red": [3], "yellow": [2, 2, 1, 1]}, log=True)
    s.apply(("red", "yellow"))  # ann
    s.apply(("yellow", "2x"))  # bert
    s.apply(("red", "yellow"))  # chris, last in the order
    s.apply("red")  # ann takes the red 3
    assert s.pending.seat == 2  # bert's yellows were forced
    s.apply("red")  # chris plays red: nothing left, a pass
    assert arrests(s) == [("ann", "red 3"), ("bert", "yellow 2"), ("chris", None),
                          ("chris", "yellow 2"), ("bert", "yellow 1"), ("ann", "yellow 1")]


def test_arrest_sequence_is_order_then_reverse():
    s = state(players=5, handcuffs="chris", table={"red": [1, 2, 3, 4, 5], "blue": [1, 2, 3, 4, 5]})
    order = s.order
    assert [s.arrest_seat(i) for i in range(10)] == order + order[::-1]


# ---------------------------------------------------------------------- the end

@pytest.mark.parametrize("players,turns", [(3, 10), (4, 8), (5, 6)])
def test_game_ends_after_the_turn_in_which_the_deck_runs_out(players, turns):
    """F9: 2 x players cards a turn from 59; the short last turn is played in full."""
    s = new(players, 11)
    last_turn_seen = []
    while not s.over:
        last_turn_seen.append((s.turn, len(s.deck)))
        s.apply(s.pending.options[0])
    assert s.turn == turns
    assert not s.deck
    # the deck was empty only during the last turn
    assert all(deck > 0 for t, deck in last_turn_seen if t < turns)


def _final(slammers, players=3):
    s = state(players=players, slammers=slammers, deck=[], last_turn=True, phase="over")
    return s


def test_bonus_card_to_the_single_highest_colour_total():
    """F10/F11: red totals 4 vs 3: ann gets red (5); yellow tied: nobody."""
    s = _final({"ann": ["red 4", "yellow 2"], "bert": ["red 3", "yellow 2"], "chris": []})
    assert s.bonus_to[0] == 0 and s.bonus_to[1] == -1
    assert s.scores == [4 + 2 + 5, 3 + 2, 0]


def test_no_bonus_for_a_total_of_zero_or_less():
    """F11: only a total above 0 wins a bonus card (knob bonus_needs_positive)."""
    s = _final({"ann": ["blue -1"], "bert": ["blue -2"], "chris": ["blue -3"]})
    assert s.bonus_to[2] == -1
    rules = FbiRules(bonus_needs_positive=False)
    s2 = state(players=3, slammers={"ann": ["blue -1"], "bert": ["blue -2"], "chris": ["blue -3"]},
               deck=[], last_turn=True, phase="over", rules=rules)
    assert s2.bonus_to[2] == 0 and s2.scores[0] == -1 + 3


def test_scoring_villains_plus_bonus_minus_bystanders_purple_included():
    """F12: every card once, purple included; cards on the table score nothing."""
    s = _final({"ann": ["purple 3", "purple -3", "red 5", "red -2", "green 1"], "bert": ["green 2"], "chris": []})
    assert s.scores[0] == 3 - 3 + 5 - 2 + 1 + 5  # red bonus
    assert s.scores[1] == 2 + 2  # green bonus


def test_shared_win_on_equal_highest_scores():
    """F13: tied highest scores share the win; ranks record the tie."""
    from rnsim.games.fbi.game import GAME

    s = _final({"ann": ["red 3"], "bert": ["yellow 4"], "chris": ["green 1"]})  # 3 + 5 = 4 + 4
    assert s.scores[0] == s.scores[1]
    out = GAME.outcome(s)
    assert out.winner is None and out.end_reason == "shared_win"
    assert out.shares == {"ann": 0.5, "bert": 0.5, "chris": 0.0}
    assert (out.record["rank_ann"], out.record["rank_bert"], out.record["rank_chris"]) == (1, 1, 3)
    assert out.record["tied"] == 2


def test_bonus_decides_the_winner_when_it_changes_who_leads():
    from rnsim.games.fbi.game import GAME

    s = _final({"ann": ["red 3"], "bert": ["blue 4"], "chris": []})
    out = GAME.outcome(s)
    assert out.winner == "ann" and out.record["bonus_decides"] is True  # 3 + 5 beats 4 + 3


# ------------------------------------------------------------- player counts

@pytest.mark.parametrize("players", [0, 1, 2, 6, "4", True])
def test_player_counts_other_than_3_to_5_are_refused(players):
    """F16."""
    with pytest.raises(RulesError, match=r"FBI is played by 3, 4, 5 players \(F16\)"):
        FbiState.new(RULES, players, random.Random(0))


def test_illegal_option_is_refused_with_the_legal_ones():
    s = state(players=3, table={"red": [1]})
    with pytest.raises(IllegalOption, match="legal options"):
        s.apply(("blue", "2x"))


def test_whole_game_with_first_options():
    s = new(3, 2)
    answer_all(s)
    assert s.over and len(s.scores) == 3
