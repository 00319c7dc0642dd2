"""The expert's model of the pick of field agents at every player count:
its number of candidate pairs depends on the player count
(``agent_pairs``, ``agent_pairs_5``), its arrests draw each rival's pair
from the odds of his pick, and every choice stays a function of its seat's
view and its own stream (docs/games/fbi.md, Probes; F6)."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest
from rnsim_strategies.fbi.expert import ExpertStrategy, _facts

from rnsim.games.fbi.game import GAME, seat_seeds
from rnsim.games.fbi.state import FbiState
from rnsim.games.fbi.view import build_view


def _games(players: int, games: int, seed: int = 23, **params: Any) -> Iterator[tuple[int, FbiState, Any, list[ExpertStrategy]]]:
    """Each decision of expert games, with the state before it and the players."""
    rules = GAME.rules({})
    for g in range(games):
        chance, seeds = seat_seeds(seed, g)
        strats = [ExpertStrategy(**params) for _ in range(players)]
        for s, st in enumerate(strats):
            st.new_game(s, random.Random(seeds[s]))
        state = FbiState.new(rules, players, random.Random(chance), seed=chance)
        while not state.over:
            d = state.pending
            yield g, state, d, strats
            state.apply(strats[d.seat].choose(build_view(state, d.seat), d))


def _fresh(seat: int, seed: int, **params: Any) -> ExpertStrategy:
    e = ExpertStrategy(**params)
    e.new_game(seat, random.Random(seed))
    return e


@pytest.mark.parametrize(("players", "params", "size"), [
    (3, {}, 6), (4, {}, 6), (5, {}, 6), (5, {"agent_pairs_5": 10}, 10), (4, {"agent_pairs_5": 10}, 6),
    (3, {"agent_pairs": 8, "agent_pairs_5": 4}, 8), (5, {"agent_pairs": 8, "agent_pairs_5": 4}, 4),
])
def test_the_model_weighs_the_candidates_of_its_player_count(players: int, params: dict, size: int) -> None:
    asked = 0
    for _, state, d, _ in _games(players, 2):
        if d.kind != "agents" or len(d.options) <= size:
            continue
        view = build_view(state, d.seat)
        e = _fresh(d.seat, 3, **params)
        e.choose(view, d)
        assert e._model_of is not None
        model = e._model_of[1]
        assert len(model.index) == size
        # the candidates are the pairs whose own two arrests score most
        f = _facts(view)
        assert min(f.score[i] for i in model.index) >= max(
            f.score[i] for i in range(len(f.legal)) if i not in model.index)
        asked += 1
    assert asked >= 5


def test_at_5_players_agent_pairs_5_lets_the_pick_reach_beyond_the_six_best_pairs_by_points() -> None:
    """Where every seat contests the colours, the pair worth most against the
    others is often one whose own two arrests score less: with
    ``agent_pairs_5`` 10 the pick at 5 players is drawn among 10 candidates,
    and lands outside the 6 best."""
    asked = beyond = 0
    for _, state, d, _ in _games(5, 3):
        if d.kind != "agents" or len(d.options) < 12:
            continue
        view = build_view(state, d.seat)
        f = _facts(view)
        six = {f.legal[i] for i in f.top_index(6)}
        for seed in range(6):
            pick = _fresh(d.seat, seed, agent_pairs_5=10).choose(view, d)
            assert pick in d.options
            asked += 1
            beyond += pick not in six
    assert asked >= 30
    assert beyond >= asked // 20, (beyond, asked)


def test_the_arrests_draw_each_rival_from_the_odds_of_his_pick() -> None:
    """In its first arrest, before a rival has played, the tables of agents
    the expert plays its arrests against hold each rival's pair as often as
    the odds of his pick say (his answer to the others' mixes at the pick's
    temperature), which a copy of him computes from the open table alone."""
    checked = 0
    for _, state, d, strats in _games(3, 4, samples=4):
        if d.kind != "arrest":
            continue
        view = build_view(state, d.seat)
        e = strats[d.seat]
        if e._model_of is None or e._model_of[0] != view.turn or view.step != 0:
            continue
        model = e._model_of[1]
        for s in range(view.players):
            if s == d.seat or view.played[s]:
                continue
            # a long draw with a fresh stream, the odds as the expert keeps them
            probe = _fresh(d.seat, 11, samples=64)
            probe._model_of = e._model_of
            got: Counter[tuple[int, ...]] = Counter()
            for _ in range(64):
                got.update(tuple(agents[s]) for agents in probe._held_samples(view, _table(view)))
            odds = _probabilities(model.odds[s])
            mix = _probabilities(model.cums[s])
            want = {tuple(model.cols[i]): p for i, p in enumerate(odds)}
            for pair, p in want.items():
                assert abs(got[pair] / 4096 - p) < 0.04, (pair, got[pair] / 4096, p)
            if sum(abs(a - b) for a, b in zip(odds, mix, strict=True)) > 0.3:
                checked += 1
    assert checked >= 3


def _table(view: Any) -> list[list[int]]:
    from rnsim_strategies.fbi.model import table_values

    return table_values(view)


def _probabilities(cum: list[float]) -> list[float]:
    out, last = [], 0.0
    for c in cum:
        out.append((c - last) / cum[-1])
        last = c
    return out


def test_arrest_mix_blends_the_odds_of_the_pick_with_the_mix() -> None:
    """``arrest_mix`` 1 draws the arrests' rivals from their mixes alone; 0
    from the odds of their pick, sharper than the mix (the pick answers at
    ``pick_temperature`` 0.5, the mix averages answers at 1.0); 0.5 halfway."""
    asked = sharper = 0
    for _, state, d, _ in _games(4, 2):
        if d.kind != "agents" or len(d.options) < 4:
            continue
        view = build_view(state, d.seat)
        models = {}
        for share in (0.0, 0.5, 1.0):
            e = _fresh(d.seat, 3, arrest_mix=share)
            e.choose(view, d)
            assert e._model_of is not None
            models[share] = e._model_of[1]
        for s in range(view.players):
            mix = _probabilities(models[1.0].cums[s])
            assert _probabilities(models[1.0].odds[s]) == pytest.approx(mix)
            pick = _probabilities(models[0.0].odds[s])
            half = _probabilities(models[0.5].odds[s])
            assert half == pytest.approx([(a + b) / 2 for a, b in zip(pick, mix, strict=True)])
            sharper += max(pick) > max(mix)
            asked += 1
    assert asked >= 20
    assert sharper > asked * 0.7, (sharper, asked)
