"""Perft-style golden test: the number of legal options at the first decisions
of a fixed seed, always answering with the first option.

Checked by hand against the deal of chance seed 2026 (Jessah holds OC $200k,
AS $200k, AF $100k; Angela OC $100k, SA $100k, OC $100k; round 1 cards
M2|S1, B|C2, C2|M1, M2|B; tokens Angela 1 2 4, Jessah 3 4 4):

  0  Jessah start      15 = OC 4 cities + AS 6 + AF 5
  1  setup radar        6 continents
  2  setup radar        5 (not the continent of the first radar, NA)
  3  Angela start      13 = OC 4 + SA 5 + OC 4 (two OC checks: distinct options)
  4  place (Angela)    24 = 8 spaces x 3 distinct values (1, 2, 4); she plays 1 on card 0 half 0
  5  place (Jessah)    14 = 7 free spaces x 2 distinct values (3, 4); she plays 3 facing it
  6  place (Angela)    12 = 6 spaces (cards 1-3: card 0 holds her token) x 2 values (2, 4)
  7  place (Jessah)     5 = card 1 half 1 + 4 spaces on cards 2-3, x 1 value (4, 4)
  8  place (Angela)     4 = cards 2-3 only, x 1 value
  9  place (Jessah)     3 = card 2 half 1 + card 3's two halves
 10  Jessah security   57: card 0 (M2|S1): Jessah's 3 beats Angela's 1, so Jessah
                           does her S1 half first: 4 radars (free continents, 4 left
                           in supply) + 52 barriers (every route free) + 0 moves + pass
 11  Jessah move        5 = Port Douglas's 3 neighbours + inspect + stop
"""

from __future__ import annotations

import random

from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules.ruleset import RuleSet

EXPECTED = [
    (1, "start", 15),
    (1, "setup_radar", 6),
    (1, "setup_radar", 5),
    (0, "start", 13),
    (0, "place_token", 24),
    (1, "place_token", 14),
    (0, "place_token", 12),
    (1, "place_token", 5),
    (0, "place_token", 4),
    (1, "place_token", 3),
    (1, "jessah_security", 57),
    (1, "jessah_move", 5),
]


def test_first_decisions_of_seed_2026():
    g = GameState.new(RuleSet(), random.Random(2026))
    got = []
    for _ in EXPECTED:
        d = g.decision()
        got.append((d.seat, d.kind, len(d.options)))
        g.apply(d.options[0])
    assert got == EXPECTED
