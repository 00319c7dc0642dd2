"""The ``search`` player (issue 12, item 4): legal, deterministic games, and
choices that never depend on what its seat cannot see (R24, R25).

Its strength against the expert is a benchmark (scripts/bench_search.py
cells), not a unit test: it needs thousands of games."""

from __future__ import annotations

import random

import pytest
from rnsim_strategies.red_notice.search import Search

from rnsim import play_game
from rnsim.errors import ConfigError
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.game import GAME
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy

RULES = GAME.rules()
# Few kinds and one world keep a whole game to a few seconds on the Python source.
CHEAP = {"iterations": 1, "kinds": "bank,identity,upgrade,check"}


def test_search_plays_whole_legal_games_in_both_seats_deterministically():
    # An illegal answer would raise (StrategyError); the same seed replays the same game.
    runs = [play_game(angela="search", jessah="search", angela_params=CHEAP, jessah_params=CHEAP,
                      seed=3, game_index=1, log=True) for _ in range(2)]
    assert runs[0].events == runs[1].events
    assert runs[0].end_reason in ("million", "arrest", "timeout")


def test_zero_iterations_is_the_expert_and_a_budget_searches():
    r0 = play_game(angela="search", jessah="search", angela_params={"iterations": 0},
                   jessah_params={"iterations": 0}, seed=5, game_index=0, log=True)
    rx = play_game(angela="expert", jessah="expert", seed=5, game_index=0, log=True)
    assert r0.events == rx.events
    s = Search(**CHEAP)
    play_game(angela=s, jessah="expert", seed=5, game_index=0)
    assert s.searched > 0 and s.rollouts >= 2 * s.searched  # each search tries every option in a world


def test_choices_do_not_move_when_the_hidden_facts_are_redrawn():
    """Search the same decision on the real game and on a copy whose hidden
    facts (for this seat) are re-drawn: same choice, same rollout outcomes."""
    params = {"iterations": 2, "kinds": "bank,check,joker,identity,upgrade,angela_security,jessah_move"}
    a, j = load_strategy("expert"), load_strategy("expert")
    s = game_seeds(7, 0)
    a.new_game(0, random.Random(s.seats[0]))
    j.new_game(1, random.Random(s.seats[1]))
    st = GameState.new(RULES, random.Random(s.chance), seed=s.chance)
    checked = {0: 0, 1: 0}
    n = 0
    while not st.over and min(checked.values()) < 3:
        d = st.pending
        n += 1
        if d.kind in params["kinds"] and len(d.options) > 1 and n % 2 == 0:
            other = GAME.conceal(st, d.seat, random.Random(n))
            answers = []
            for game in (st, other):
                p = Search(**params)
                p.new_game(d.seat, random.Random(n))
                answers.append((p.choose(build_view(game, d.seat), game.pending), p.rollouts))
            assert answers[0] == answers[1], (d, answers)
            checked[d.seat] += answers[0][1] > 0
        st.apply((a if d.seat == 0 else j).choose(build_view(st, d.seat), d))
    assert min(checked.values()) >= 3, checked


def test_kinds_set_worlds_per_seat_and_kind_and_iterations_scales_them():
    s = Search(iterations=4, kinds="angela.place_token:0.75,bank:2,jessah.check")
    assert s.budgets == ({"place_token": 3, "bank": 8}, {"bank": 8, "check": 4})
    assert Search(iterations=8, kinds="bank:2").budgets == ({"bank": 16}, {"bank": 16})
    assert Search(iterations=0).budgets == ({k: 0 for k in Search().budgets[0]}, {k: 0 for k in Search().budgets[1]})


def test_a_seat_searches_only_its_kinds():
    # Jessah's bids are left to the expert by the default kinds: a game where
    # only bids are searched for Angela spends no rollout in Jessah's seat.
    params = {"iterations": 1, "kinds": "angela.place_token:2"}
    a, j = Search(**params), Search(**params)
    play_game(angela=a, jessah=j, seed=2, game_index=0)
    assert a.spent.keys() == {"place_token"} and a.rollouts > 0
    assert j.rollouts == 0 and j.searched == 0


def test_bad_params_name_the_key_and_what_is_allowed():
    with pytest.raises(ConfigError, match="kinds.*unknown kind 'place'.*allowed: angela_move"):
        Search(kinds="place")
    with pytest.raises(ConfigError, match="'iterations' must be in 0..10000"):
        Search(iterations=-1)
    with pytest.raises(ConfigError, match="'first_step' must be true or false"):
        Search(first_step="yes")
    with pytest.raises(ConfigError, match="unknown seat 'forger' in 'forger.bank'; allowed: angela, jessah"):
        Search(kinds="forger.bank")
    with pytest.raises(ConfigError, match=r"weight 'x' in 'bank:x' must be a number in \(0, 100\]"):
        Search(kinds="bank:x")
    with pytest.raises(ConfigError, match="weight '0' in 'bank:0'"):
        Search(kinds="bank:0")
