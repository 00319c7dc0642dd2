"""FBI's compiled builds (the engine's state and view, the expert's model and
expert, scripts/build_native.py) play exactly like their Python source.

mypyc checks types at run time where the source does not (a variable
inferred ``str`` that is later given a card id fails only when compiled), so
the parity games cover every knob, the expert's parameters and mixed tables,
and positions saved from a compiled state; the event logs, records and
decision counts must be equal. The suite itself runs on whatever build is in
use, so with `make install` every other FBI test exercises the compiled build.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
import rnsim_strategies.fbi as strategies

import rnsim.games.fbi as engine

_PARITY = """
import json
import rnsim.games.fbi as engine
import rnsim_strategies.fbi as strategies
from rnsim.games.fbi.game import GAME, play
from rnsim.games.fbi.position import load_position, save_position
from rnsim_strategies.fbi.expert import ExpertStrategy
from rnsim_strategies.fbi.random_play import RandomStrategy
from rnsim_strategies.fbi.rule import RuleStrategy

def expert(**params):
    return lambda: ExpertStrategy(**params)

KNOBS = [{}, {"stacked": True}, {"bid_cards": "purple"}, {"bid_cards": "none"},
         {"bonus_needs_positive": False}, {"doubler": False}, {"cards_per_player": 1},
         {"cards_per_player": 3, "stacked": True}]
EXPERTS = [expert(), expert(samples=0), expert(samples=2, rounds=1, temperature=0.0), expert(bonus_weight=0.0),
           expert(bonus_weight=1.0, bid_pairs=15, agent_pairs=15), expert(bid_pairs=1, rival_temperature=0.0)]
out = {"native": [engine.NATIVE, strategies.NATIVE], "games": []}
g = 0
for players in (3, 4, 5):
    for k, knobs in enumerate(KNOBS):
        rules = GAME.rules(knobs)
        for mixed in (False, True):
            make = EXPERTS[(g + players) % len(EXPERTS)]
            lineup = [make() for _ in range(players)]
            if mixed:  # the expert asked at every decision of a mixed table
                lineup[1], lineup[-1] = RandomStrategy(), RuleStrategy()
            st, o = play(rules, players, lineup, 11, g, log=True)
            out["games"].append([players, k, st.log, o.record, st.decisions])
            g += 1
# the probes subclass the compiled expert and override its helpers: the
# compiled expert must call the overrides as the source does
import importlib
from rnsim_strategies.fbi.probes import PROBES
out["probes"] = []
for p in PROBES:
    for players in (3, 4):
        for i in range(3):
            module, name = p.ref.split(":")
            lineup = [getattr(importlib.import_module(module), name)()] + [ExpertStrategy() for _ in range(players - 1)]
            st, o = play(GAME.rules({}), players, lineup, 13, i, log=True)
            out["probes"].append([p.name, players, st.log, o.record])
# a position saved from a (compiled) state plays on like the state
rules = GAME.rules({})
st, _ = play(rules, 4, [ExpertStrategy() for _ in range(4)], 3, 0)
from rnsim.games.fbi.state import FbiState
import random
s = FbiState.new(rules, 5, random.Random(8), seed=8)
rng = random.Random(2)
for _ in range(23):
    s.apply(s.pending.options[rng.randrange(len(s.pending.options))])
saved = save_position(s)
again = load_position(json.loads(json.dumps(saved)))
out["position"] = [saved, save_position(again), save_position(s.clone())]
print(json.dumps(out, sort_keys=True, default=str))
"""


def _play(pure: str) -> dict:
    import json

    env = {**os.environ, "RNSIM_PURE": pure, "PYTHONHASHSEED": "5"}
    got = subprocess.run([sys.executable, "-c", _PARITY], env=env, capture_output=True, text=True, check=True,
                         timeout=600)
    return json.loads(got.stdout)


def test_compiled_fbi_plays_like_its_source() -> None:
    if not (engine.NATIVE or strategies.NATIVE):
        pytest.skip("no fresh compiled FBI build (make install, or python scripts/build_native.py fbi-engine "
                    "fbi-strategies)")
    compiled, pure = _play("0"), _play("1")
    assert compiled["native"] == [engine.NATIVE, strategies.NATIVE]
    assert pure["native"] == [False, False]
    assert len(compiled["games"]) == 48 and all(len(g[2]) > 20 for g in compiled["games"])
    for c, p in zip(compiled["games"], pure["games"], strict=True):
        assert c == p, f"{c[0]} players, knobs #{c[1]}: the compiled build played differently"
    assert len(compiled["probes"]) == 18
    for c, p in zip(compiled["probes"], pure["probes"], strict=True):
        assert c == p, f"probe {c[0]} at {c[1]} players: the compiled expert played its overrides differently"
    saved, reloaded, cloned = compiled["position"]
    assert saved == reloaded == cloned == pure["position"][0]
