"""How well the FBI expert's model of the pick of field agents reads the
picks, and where a pair that answers the others' picks lies (the diagnosis
behind ``agent_pairs_5`` and ``arrest_mix``, docs/games/fbi.md, Probes):

    .venv/bin/python -m benchmarks.fbi_pick_reading --players 5 --games 10

Expert games (master seed 99); at each pick of agents with every legal pair
a candidate-eligible option, for every seat:

- P: how often the expert in that seat picks each pair, over ``--streams``
  streams of its own (the odds a copy of it draws from);
- the model's mix for that seat (``_rival_model``: what the arrests of
  commit c01cc5a drew from) and the arrests' odds (``odds``); the mean total
  variation distance of each to P, and P's and the mix's most likely pair;
- for the deciding seat, 4 draws of the others' pairs from their P: the pair
  whose turn (everyone greedy after, ``_turn_value``) ends best against
  them, how often it lies outside the model's candidates, and the turn
  value lost by keeping to the best candidate.
"""

from __future__ import annotations

import argparse
import math
import random
from typing import Any

from rnsim_strategies.fbi.expert import ExpertStrategy, _facts
from rnsim_strategies.fbi.model import pair_colours, table_values

from rnsim.games.fbi.game import GAME, seat_seeds
from rnsim.games.fbi.state import FbiState
from rnsim.games.fbi.view import build_view


def _dist(f: Any, index: list[int], cum: list[float]) -> dict[Any, float]:
    out, last = {}, 0.0
    for i, c in enumerate(cum):
        out[f.legal[index[i]]] = (c - last) / cum[-1]
        last = c
    return out


def _tv(p: dict[Any, float], q: dict[Any, float]) -> float:
    # in a fixed order (not a set's): the last bits of the sum do not depend on the hash seed
    return 0.5 * math.fsum(abs(p.get(k, 0.0) - q.get(k, 0.0)) for k in sorted(set(p) | set(q)))


def _draw(dist: dict[Any, float], u: float) -> Any:
    acc = 0.0
    items = sorted(dist.items())
    for k, v in items:
        acc += v
        if u < acc:
            return k
    return items[-1][0]


def measure(players: int, games: int, streams: int) -> dict[str, float]:
    rules = GAME.rules({})
    t = {"seats": 0, "tv_mix": 0.0, "tv_odds": 0.0, "top_p": 0.0, "top_mix": 0.0, "answers": 0, "outside": 0,
         "lost": 0.0}
    for g in range(games):
        chance, seeds = seat_seeds(99, g)
        strats = [ExpertStrategy() for _ in range(players)]
        for s, st in enumerate(strats):
            st.new_game(s, random.Random(seeds[s]))
        state = FbiState.new(rules, players, random.Random(chance), seed=chance)
        while not state.over:
            d = state.pending
            view = build_view(state, d.seat)
            f = _facts(view)
            if d.kind == "agents" and len(d.options) > 1 and len(d.options) == len(f.legal):
                e = strats[d.seat]
                totals, points = e._position(view)
                model = e._rival_model(view, f, totals, points, int(e.params["samples"]))
                picks = []
                for s in range(players):
                    got: dict[Any, float] = {}
                    for r in range(streams):
                        x = ExpertStrategy()
                        x.new_game(s, random.Random(1000 + r))
                        p = x.on_agents(build_view(state, s), d)
                        got[p] = got.get(p, 0.0) + 1.0 / streams
                    picks.append(got)
                    mix = _dist(f, model.index, model.cums[s])
                    t["tv_mix"] += _tv(got, mix)
                    t["tv_odds"] += _tv(got, _dist(f, model.index, model.odds[s]))
                    t["top_p"] += max(got.values())
                    t["top_mix"] += max(mix.values())
                    t["seats"] += 1
                cands = {f.legal[i] for i in model.index}
                table = table_values(view)
                rng = random.Random(g * 1000 + view.turn)
                for _ in range(4):
                    others = [[] if s == d.seat else pair_colours(_draw(picks[s], rng.random()), view.comps.colours,
                                                                   view.comps.doubler) for s in range(players)]
                    vals = {pair: e._turn_value(view, view.order, table, totals, points, pair, others)
                            for pair in d.options}
                    best = max(d.options, key=lambda p: vals[p])
                    t["answers"] += 1
                    t["outside"] += best not in cands
                    t["lost"] += vals[best] - max(vals[p] for p in cands)
            state.apply(strats[d.seat].choose(view, d))
    return t


def main() -> None:
    a = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    a.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    a.add_argument("--games", type=int, default=10)
    a.add_argument("--streams", type=int, default=12)
    args = a.parse_args()
    t = measure(args.players, args.games, args.streams)
    n, m = t["seats"], t["answers"]
    print(f"{args.players} players, {args.games} games, {n} seat-picks: total variation to P: mix "
          f"{t['tv_mix'] / n:.3f}, arrests' odds {t['tv_odds'] / n:.3f}; most likely pair: P {t['top_p'] / n:.3f}, "
          f"mix {t['top_mix'] / n:.3f}")
    print(f"answers to draws of the others' picks: {m}, outside the candidates {t['outside'] / m:.3f}, "
          f"turn value lost keeping to the candidates {t['lost'] / m:.3f}")


if __name__ == "__main__":
    main()
