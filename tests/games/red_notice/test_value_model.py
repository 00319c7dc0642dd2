"""search's value model (strategies/red_notice/value.py): the fitted file
loads, its chance of Angela winning moves the right way with the money she
has banked, and a cut rollout returns a probability, the same one for the
same seed.

How well it predicts is measured by its fitting script (held-out log loss,
scripts/fit_value_model.py), and what it does to search's strength by paired
games (docs/explanation/player-evidence.md, "Search's settings"), not here."""

from __future__ import annotations

import random

import pytest
from rnsim_strategies.red_notice.expert import Expert
from rnsim_strategies.red_notice.search import Search
from rnsim_strategies.red_notice.value import FEATURES, ValueModel, features, shipped

from rnsim import play_game
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.game import GAME
from rnsim.seeding import game_seeds

RULES = GAME.rules()


def _states(seed: int, games: int, every: int = 9) -> list[GameState]:
    """Copies of the states of expert games, every ``every``-th decision."""
    out = []
    for g in range(games):
        s = game_seeds(seed, g)
        players = (Expert(), Expert())
        players[0].new_game(0, random.Random(s.seats[0]))
        players[1].new_game(1, random.Random(s.seats[1]))
        st = GameState.new(RULES, random.Random(s.chance), seed=s.chance)
        k = 0
        while not st.over:
            d = st.pending
            k += 1
            if k % every == 0:
                out.append(st.clone())
            st.apply(players[d.seat].choose(build_view(st, d.seat), d))
    return out


def test_the_shipped_model_loads_with_its_features_and_how_it_was_fitted():
    m = shipped()
    assert len(m.weights) == len(FEATURES) + 1
    assert m.meta["fitted_by"] == "scripts/fit_value_model.py"
    assert isinstance(m.meta["seed"], int) and m.meta["games"] > 0
    # fitted: it predicts better than Angela's base rate on the games held out of the fit
    assert m.meta["held_out_log_loss"] < m.meta["base_log_loss"]


def test_a_model_of_other_features_is_refused():
    with pytest.raises(ValueError, match="features"):
        ValueModel.from_mapping({"features": ["banked"], "weights": [0.0, 1.0]})
    with pytest.raises(ValueError, match="weights"):
        ValueModel([0.0, 1.0])


def test_angelas_chance_grows_with_the_money_she_has_banked_and_the_lives_she_has_left():
    m = shipped()
    for st in _states(3, 4):
        if st.over:
            continue
        base = m.angela_wins(st)
        assert 0.0 < base < 1.0
        richer = st.clone()
        richer.cash_total[0] += 100_000
        assert m.angela_wins(richer) > base
        if st.captures < RULES.captures_to_win - 1:
            caught = st.clone()
            caught.captures += 1
            assert m.angela_wins(caught) < base


def test_a_finished_game_is_scored_by_its_winner():
    m = shipped()
    st = _states(3, 1)[0]
    st.over, st.winner = True, 0
    assert m.angela_wins(st) == 1.0
    st.winner = 1
    assert m.angela_wins(st) == 0.0
    st.winner = None
    assert m.angela_wins(st) == 0.5


def test_features_read_the_state_and_are_scaled():
    for st in _states(4, 2):
        f = features(st)
        assert len(f) == len(FEATURES)
        assert all(-0.01 <= x <= 2.0 for x in f), dict(zip(FEATURES, f, strict=True))


@pytest.mark.parametrize("seat", [0, 1])
def test_a_cut_rollout_returns_a_probability_and_the_same_one_for_the_same_streams(seat: int):
    s = Search(iterations=1, horizon=1, steps=6)
    s._players[0].new_game(0, random.Random(0))
    s._players[1].new_game(1, random.Random(0))
    seen = set()
    for st in _states(5, 2, every=7):
        if st.over or st.pending is None or st.pending.seat != seat:
            continue
        st.stop_history()
        option = st.pending.options[0]
        p = s._rollout(st.clone(), option, (1, 2), seat)
        assert 0.0 <= p <= 1.0
        assert s._rollout(st.clone(), option, (1, 2), seat) == p
        seen.add(p)
    assert len(seen) > 3  # a chance, not a win or a loss


def test_search_with_cut_rollouts_plays_the_same_game_for_the_same_seed():
    params = {"iterations": 1, "horizon": 1, "steps": 8, "min_gain": 0.1, "kinds": "bank,check,angela_move"}
    runs = [play_game(angela="search", jessah="expert", angela_params=params, seed=3, game_index=2, log=True)
            for _ in range(2)]
    assert runs[0].events == runs[1].events
