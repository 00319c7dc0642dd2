"""Loading what a user writes or saves: config files, component sets and
saved positions, each from cold (the in-process caches of component sets
emptied first, as a fresh ``rnsim`` command finds them). CPU time per load,
asv's repeats and medians.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from benchmarks.common import ROOT


def _cold() -> None:
    """Empty the component caches a fresh process starts without."""
    from rnsim.games.fbi import components as fbi_components
    from rnsim.games.red_notice.rules import components, ruleset

    for module, name in ((components, "_CACHE"), (ruleset, "_DERIVED"), (fbi_components, "_CACHE")):
        cache = getattr(module, name, None)
        if isinstance(cache, dict):
            cache.clear()


class Configs:
    """``rnsim.config.load_config`` of the shipped files: Red Notice's
    default (``configs/classic.toml``), its CI config (``extends`` the
    default) and FBI's (two variants, three player counts)."""

    timer = time.process_time
    params = [["classic.toml", "ci/config.toml", "fbi.toml"]]
    param_names = ["config"]

    def time_load(self, config: str) -> None:
        from rnsim.config import load_config

        _cold()
        load_config(ROOT / "configs" / config)


class Components:
    """A built-in component set read and validated (six TOML files for Red
    Notice, three for FBI)."""

    timer = time.process_time
    params = [["red_notice", "fbi"]]
    param_names = ["game"]

    def time_load(self, game: str) -> None:
        from rnsim.games import get_game

        _cold()
        g = get_game(game)
        g.components(g.rules({}))


def saved_position(game_name: str, decisions: int) -> tuple[Any, dict[str, Any]]:
    """A position ``decisions`` decisions into random-vs-random game 3 (seed
    0), as ``save_position`` writes it, through JSON."""
    from rnsim.games import get_game
    from rnsim.play import play_out
    from rnsim.seeding import game_seeds
    from rnsim.strategy import load_strategy

    g = get_game(game_name)
    rules = g.rules({})
    setup = None if game_name == "red_notice" else 4
    seats = g.seats(rules, setup)
    strategies = [load_strategy("random", None, g) for _ in seats]
    seeds = game_seeds(0, 3, len(seats))
    for seat, (s, x) in enumerate(zip(strategies, seeds.seats, strict=True)):
        s.new_game(seat, random.Random(x))
    state = g.new_state(rules, random.Random(seeds.chance), setup=setup, seed=seeds.chance)
    count = [0]

    def stop(_: Any) -> bool:
        count[0] += 1
        return count[0] > decisions

    play_out(g, state, strategies, stop=stop)
    return g, json.loads(json.dumps(g.save_position(state)))


class Positions:
    """``Game.load_position`` of a saved mid-game position (40 decisions into
    a random game): JSON data back to a state that plays on."""

    timer = time.process_time
    params = [["red_notice", "fbi"]]
    param_names = ["game"]

    def setup(self, game: str) -> None:
        self.game, self.data = saved_position(game, 40)

    def time_load(self, game: str) -> None:
        self.game.load_position(self.data)
