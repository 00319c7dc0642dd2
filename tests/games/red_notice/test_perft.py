"""Perft-style golden counts: replay each case of the game's data file
(rnsim/games/red_notice/data/perft.toml) and compare every decision's seat,
kind and number of legal options."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest

from rnsim.games.red_notice.engine.decision import SEATS
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules.components import DATA_DIR
from rnsim.games.red_notice.rules.ruleset import RuleSet

PERFT = DATA_DIR / "perft.toml"
CASES: list[dict[str, Any]] = tomllib.loads(PERFT.read_text())["case"]


def _pick(options: Any, answer: str) -> Any:
    return options[0] if answer == "first" else options[len(options) // 2]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden_counts(case: dict[str, Any]) -> None:
    assert case["answer"] in ("first", "middle"), f"{PERFT}: answer must be first or middle"
    g = GameState.new(RuleSet(), random.Random(case["chance_seed"]))
    got = []
    for _ in case["decisions"]:
        assert not g.over, f"the game ended ({g.end_reason}) after {len(got)} decisions"
        d = g.decision()
        got.append({"seat": SEATS[d.seat], "kind": d.kind, "options": len(d.options)})
        g.apply(_pick(d.options, case["answer"]))
    assert got == case["decisions"]
    if "end" in case:
        assert g.over and g.end_reason == case["end"]
    else:
        assert not g.over
