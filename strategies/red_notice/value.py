"""A model of Angela's chance to win from a full game state: ``search``'s cut rollouts.

``search`` plays each rollout only to the start of a later round
(``horizon``) and scores the state it reaches with this model instead of
playing on to the end. The model is a logistic regression of the game's
winner on features of the state: money banked and in hand against the
target, the captures left, the round, where Angela stands against Jessah
and against her cashes, the security on the board, the public set of
cities she can be in. It is fitted offline on expert games
(scripts/fit_value_model.py, its seed and games in the data file,
strategies/red_notice/data/value_model.json), on the states at the start of
each round, the states a cut rollout reaches.

It reads the full state, hidden facts included: a searching seat scores the
worlds it drew from its own view (``View.worlds``), never the real state.
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any

from rnsim_strategies.red_notice.board import Board, board_for

from rnsim.games.red_notice.engine.state import GameState

#: the feature names, in the order of the model's coefficients (after the intercept)
FEATURES = (
    "banked", "in_hand", "can_finish", "checks_in_hand", "lives", "round", "jessah_dist", "cash_dist",
    "belief_cities", "radars", "barriers", "upgrades", "security", "jessah_checks",
)
DATA = "value_model.json"


@cache
def _continent_dist(b: Board) -> tuple[tuple[int, ...], ...]:
    """[city][continent]: the fewest steps from the city to a city of the continent."""
    n_k = len(b.cont_mask)
    return tuple(tuple(min(b.dist[c][x] for x in range(b.n) if b.cont_mask[k] >> x & 1) for k in range(n_k))
                 for c in range(b.n))


def features(state: GameState) -> list[float]:
    """The model's features of ``state`` (see FEATURES), each scaled to about 0..1."""
    rules = state.rules
    b = board_for(state.comps)
    target = rules.money_target
    here = state.angela_city
    hand = state.hands[0]
    in_hand = sum(b.check_value[c] for c in hand)
    banked = state.cash_total[0]
    # steps from Angela's city to the nearest city where a check of her hand cashes
    cash_dist = 6
    if here >= 0 and hand:
        row = _continent_dist(b)[here]
        for c in hand:
            cash_dist = min(cash_dist, row[b.check_cont[c]])
    jd = b.dist[state.jessah_city][here] if here >= 0 and state.jessah_city >= 0 else 6
    return [
        banked / target,
        in_hand / target,
        1.0 if banked + in_hand >= target else 0.0,
        len(hand) / 5,
        (rules.captures_to_win - state.captures) / 3,
        state.round / 10,
        min(jd, 6) / 6,
        min(cash_dist, 6) / 6,
        state.belief.bit_count() / b.n,
        state.n_radars / 4,
        state.n_barriers / 4,
        len(state.permanents) / 4,
        state.security / 4,
        len(state.hands[1]) / 5,
    ]


class ValueModel:
    """P(Angela wins | features) = 1 / (1 + e^-(w0 + w . features))."""

    def __init__(self, weights: list[float], meta: dict[str, Any] | None = None) -> None:
        if len(weights) != len(FEATURES) + 1:
            raise ValueError(f"value model: {len(weights)} weights for {len(FEATURES)} features and an intercept")
        self.weights = [float(w) for w in weights]
        self.meta = dict(meta or {})

    def angela_wins(self, state: GameState) -> float:
        """Angela's chance to win from ``state`` (1 or 0 once the game is over with a winner)."""
        if state.over:
            return 0.5 if state.winner is None else 1.0 - state.winner
        w = self.weights
        f = features(state)
        dot = 0.0  # summed in the order of the features, as sum() would
        for i in range(len(f)):
            dot += w[i + 1] * f[i]
        z = w[0] + dot
        if z < -30.0:
            return 0.0
        return 1.0 / (1.0 + math.exp(-z))

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> ValueModel:
        names = data.get("features")
        if names != list(FEATURES):
            raise ValueError(f"value model: features {names!r} are not this code's {list(FEATURES)!r}")
        return cls(list(data["weights"]), {k: v for k, v in data.items() if k not in ("features", "weights")})


@cache
def shipped() -> ValueModel:
    """The fitted model shipped with the package (data/value_model.json)."""
    text = resources.files("rnsim_strategies.red_notice").joinpath("data", DATA).read_text()
    return ValueModel.from_mapping(json.loads(text))
