"""FBI against the game boundary: determinism, clone, positions, no-leak views,
the result record, strategies legal at every seat."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest
from rnsim_strategies.fbi.expert import ExpertStrategy
from rnsim_strategies.fbi.random_play import RandomStrategy
from rnsim_strategies.fbi.rule import RuleStrategy

from rnsim.errors import ConfigError, PositionError
from rnsim.game import Game
from rnsim.games import get_game
from rnsim.games.fbi.game import GAME, play
from rnsim.games.fbi.position import load_position, save_position
from rnsim.games.fbi.state import FbiState
from rnsim.games.fbi.view import build_view

RULES = GAME.rules({})


def test_registered_and_satisfies_the_protocol():
    assert get_game("fbi") is GAME
    assert isinstance(GAME, Game)
    assert GAME.seats(RULES, 3) == ("ann", "bert", "chris")


def _log(players: int, seed: int, strat=RuleStrategy) -> list:
    st, out = play(RULES, players, [strat() for _ in range(players)], seed, 3, log=True)
    return [st.log, out.record, out.shares]


def test_play_is_deterministic_across_processes_and_hash_seeds():
    code = (
        "import json; from rnsim.games.fbi.game import GAME, play; "
        "from rnsim_strategies.fbi.expert import ExpertStrategy as E; "
        "st, out = play(GAME.rules({}), 5, [E() for _ in range(5)], 42, 7, log=True); "
        "print(json.dumps([st.log, out.record]))"
    )
    outs = []
    for hs in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": hs}
        outs.append(subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                                   check=True).stdout)
    assert outs[0] == outs[1]
    st, out = play(RULES, 5, [ExpertStrategy() for _ in range(5)], 42, 7, log=True)
    assert json.loads(outs[0]) == json.loads(json.dumps([st.log, out.record]))


def test_clone_is_equal_and_independent():
    s = FbiState.new(RULES, 4, random.Random(5))
    rng = random.Random(1)
    for _ in range(15):
        s.apply(s.pending.options[rng.randrange(len(s.pending.options))])
    c = s.clone()
    assert save_position(c) == save_position(s)
    before = save_position(s)
    while not c.over:
        c.apply(c.pending.options[-1])
    assert save_position(s) == before


@pytest.mark.parametrize("players", [3, 4, 5])
def test_positions_round_trip_and_play_on_identically(players):
    s = FbiState.new(RULES, players, random.Random(players))
    rng = random.Random(9)
    k = 0
    while not s.over:
        k += 1
        if k % 7 == 0:
            data = json.loads(json.dumps(save_position(s)))
            t = load_position(data)
            assert save_position(t) == save_position(s)
            a, b = s.clone(), t
            r1, r2 = random.Random(k), random.Random(k)
            while not a.over:
                a.apply(a.pending.options[r1.randrange(len(a.pending.options))])
                b.apply(b.pending.options[r2.randrange(len(b.pending.options))])
            assert a.scores == b.scores and a.bonus_to == b.bonus_to
        s.apply(s.pending.options[rng.randrange(len(s.pending.options))])
    assert load_position(save_position(s)).scores == s.scores


def test_bad_positions_are_refused_with_the_key():
    s = FbiState.new(RULES, 3, random.Random(0))
    data = save_position(s)
    bad = dict(data, deck=data["deck"][1:])
    with pytest.raises(PositionError, match="deck: 1 coloured cards are nowhere"):
        load_position(bad)
    with pytest.raises(PositionError, match="handcuffs: must be one of ann, bert, chris"):
        load_position(dict(data, handcuffs="donna"))
    with pytest.raises(PositionError, match="players: FBI is played by"):
        load_position(dict(data, players=7))
    with pytest.raises(PositionError, match="not a card"):
        load_position(dict(data, released=["pink 3"]))


def _pair_options(s: FbiState) -> list:
    return [o for o in s.pending.options]


def test_views_leak_no_other_choice_and_no_deck_order():
    """F6: a seat sees its own agents only; the deck order is hidden."""
    s = FbiState.new(RULES, 4, random.Random(21))
    while s.pending.kind != "agents":
        s.apply(s.pending.options[0])
    first = s.pending.seat
    watcher = s.order[-1]
    opts = s.pending.options
    a, b = s.clone(), s.clone()
    a.apply(opts[0])
    b.apply(opts[-1])
    assert build_view(a, watcher) == build_view(b, watcher)
    assert build_view(a, first) != build_view(b, first)
    # a different deck order behind the same table: the same view for everyone
    c = a.clone()
    c.deck = c.deck[::-1]
    for seat in range(4):
        assert build_view(c, seat) == build_view(a, seat)


@pytest.mark.parametrize("seed", range(4))
def test_conceal_redraws_what_a_seat_cannot_see(seed):
    s = FbiState.new(RULES, 5, random.Random(seed))
    rng = random.Random(seed)
    while not s.over:
        d = s.pending
        c = GAME.conceal(s, d.seat, random.Random(seed))
        assert build_view(c, d.seat) == build_view(s, d.seat)
        c.apply(d.options[0])  # the concealed copy plays on
        s.apply(d.options[rng.randrange(len(d.options))])


@pytest.mark.parametrize("players,knobs", [(3, {}), (4, {"stacked": True}), (5, {"bid_cards": "purple"}),
                                            (4, {"doubler": False, "cards_per_player": 1})])
def test_views_share_the_public_tuples_only_while_nothing_changed(players, knobs):
    """A view hands out the state's tuples of the public fields, built after
    each change (FbiState.shown_*): at every decision each seat's view equals
    one built from a copy holding none of them."""
    s = FbiState.new(GAME.rules(knobs), players, random.Random(players))
    rng = random.Random(7)
    views = 0
    while not s.over:
        fresh = s.clone()
        for seat in range(players):
            assert build_view(s, seat) == build_view(fresh, seat)
            views += 1
        d = s.pending
        s.apply(d.options[rng.randrange(len(d.options))])
    assert views > 40


def test_views_show_played_agents_after_they_are_played():
    s = FbiState.new(RULES, 3, random.Random(2))
    while s.pending is not None and s.pending.kind != "arrest":
        s.apply(s.pending.options[0])
    d = s.pending
    s.apply(d.options[0])
    other = (d.seat + 1) % 3
    assert build_view(s, other).played[d.seat] == (s.comps.colours.index(d.options[0]),)


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("strat", [RandomStrategy, RuleStrategy, ExpertStrategy])
def test_strategies_play_legally_at_every_seat(players, strat):
    """play() raises IllegalOption on an illegal answer; mixed tables too."""
    for g in range(2):
        lineup = [strat() if (i + g) % 2 == 0 else RuleStrategy() for i in range(players)]
        _, out = play(RULES, players, lineup, 5, g)
        assert sum(out.shares.values()) == pytest.approx(1.0)
    for stacked in (True,):
        _, out = play(GAME.rules({"stacked": stacked}), players, [strat() for _ in range(players)], 6, 0)
        assert out.end_reason in ("deck_empty", "shared_win")


def test_expert_params_are_checked():
    with pytest.raises(ConfigError, match="bonus_weight"):
        ExpertStrategy(bonus_weight=2)
    with pytest.raises(ConfigError, match="unknown param"):
        ExpertStrategy(depth=3)


def test_result_record_matches_the_schema():
    schema = GAME.record_schema(RULES)
    for players in (3, 5):
        _, out = play(RULES, players, [RuleStrategy() for _ in range(players)], 1, 0)
        assert set(out.record) == set(schema)
        assert out.record["first_handcuffs"] in GAME.seats(RULES, players)
        seats = GAME.seats(RULES, players)
        assert all(out.record[f"score_{s}"] is not None for s in seats)
        assert all(out.record[f"score_{s}"] is None for s in ("ann", "bert", "chris", "donna", "emil")
                   if s not in seats)
        assert sum(out.record[f"share_{s}"] for s in seats) == pytest.approx(1.0)
        assert out.winner is None or out.record[f"rank_{out.winner}"] == 1


def test_setups_give_a_cell_per_player_count():
    assert GAME.setups(RULES, [3, 4, 5]) == [("3", 3), ("4", 4), ("5", 5)]
    assert GAME.setups(RULES, 4) == [("4", 4)]
    with pytest.raises(ConfigError, match=r"run: players\[1\]: FBI is played by 3, 4, 5 players \(F16\), got 6"):
        GAME.setups(RULES, [3, 6])


def test_narrative_reads_the_rulebook_words():
    st, _ = play(RULES, 4, [RuleStrategy() for _ in range(4)], 2, 0, log=True)
    text = "\n".join(GAME.narrate(st.log))
    assert "takes the handcuffs" in text and "Order of arrests" in text and "GAME OVER" in text


def test_seats_without_a_setup_are_every_seat_a_game_can_have():
    assert GAME.seats(None) == ("ann", "bert", "chris", "donna", "emil")
    assert GAME.seats(None, 4) == ("ann", "bert", "chris", "donna")
