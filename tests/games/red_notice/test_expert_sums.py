"""Jessah's radar on her dossier's weights (strategies/red_notice/expert.py:
``Expert._weighted_radar``) sums each free continent's weight, now and two
steps on, in a local float over the continent's cities. A pass over every
city adding each to its continent's total is the rule it follows; the test
holds it to that bit for bit (the same floats, not close ones), so that the
expert plays the same games whichever way the sums are taken."""

from __future__ import annotations

import dataclasses
import random

from rnsim_strategies.red_notice.board import board_for
from rnsim_strategies.red_notice.expert import Expert

from rnsim.games.red_notice.engine.decision import JESSAH
from rnsim.games.red_notice.rules.ruleset import RuleSet

RULES = RuleSet()
COMPS = RULES.load_components()
B = board_for(COMPS)


def _push_spread(w: list[float], masks: list[int], steps: int) -> list[float]:
    # each city's weight handed out over it and its open neighbours, city by city
    cur = list(w)
    n = len(cur)
    for _ in range(steps):
        out = [0.0] * n
        for c in range(n):
            p = cur[c]
            if p > 0:
                m = masks[c] | (1 << c)
                share = p / m.bit_count()
                for x in range(n):
                    if m >> x & 1:
                        out[x] = out[x] + share
        cur = out
    return cur


def _case(rng: random.Random) -> tuple[list[float], list[int], int, tuple[int, ...]]:
    barriers = tuple(rng.choice((0, 0, 0, 1, 2)) for _ in COMPS.routes)
    masks = B.open_masks(barriers)
    belief = 0
    for c in rng.sample(range(B.n), rng.randint(1, B.n)):
        belief |= 1 << c
    w = [rng.random() ** 3 if belief >> c & 1 else 0.0 for c in range(B.n)]
    total = sum(w)
    w = [x / total for x in w]
    return w, masks, belief, barriers


def test_weighted_radar_sums_each_continent_in_city_order():
    from rnsim.games.red_notice.engine.view import build_view
    from tests.games.red_notice.scenario import scenario, security

    s = scenario(angela="Cape Town", jessah="Paris", then=[security("jessah", 1)])
    base = build_view(s, JESSAH)
    rng = random.Random(7)
    e = Expert()
    e.new_game(JESSAH, random.Random(0))
    for _ in range(200):
        w, masks, _, barriers = _case(rng)
        radars = tuple(rng.choice((0, 0, 1, 2)) for _ in COMPS.continents)
        if all(radars):
            continue
        view = dataclasses.replace(base, radars=radars, barriers=barriers)
        nxt = _push_spread(w, masks, 2)
        best, best_s = -1, -1.0
        for k in range(len(radars)):
            if radars[k]:
                continue
            inside = 0.0
            now = 0.0
            for c in range(B.n):
                if B.cont[c] == k:
                    inside = inside + nxt[c]
                    now = now + w[c]
            sc = 2.0 * min(inside, 1.0 - inside) + 1.5 * now + 0.3 * inside
            if sc > best_s:
                best, best_s = k, sc
        assert e._weighted_radar(view, B, w, masks) == (best, best_s)
