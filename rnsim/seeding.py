"""Per-game random streams derived from (master seed, game index).

Every random draw of a game comes from a stream made here: one chance stream
(shuffles, deals, token draws, a random identity pair) and one stream per
seat for its strategy. The streams depend only on the master seed and the
game index, so results are the same whatever the worker count, chunking,
backend or finishing order, and game ``i`` of two rule variants sees the same
chance stream (common random numbers: variant comparisons are paired).

``random.Random`` instances (never the module-level functions) are used for the
draws themselves: they are much cheaper per call than a numpy Generator, and
they are seeded from numpy's SeedSequence, which gives independent,
well-mixed seeds.
"""

from __future__ import annotations

import random
from typing import NamedTuple

import numpy as np


class GameSeeds(NamedTuple):
    chance: int  # the game's chance stream (also the "seed" column of results)
    angela: int  # Angela's strategy stream
    jessah: int  # Jessah's strategy stream
    copies: int  # for strategies that re-sample hidden facts (determinization)


def game_seeds(master_seed: int, game_index: int) -> GameSeeds:
    if master_seed < 0 or game_index < 0:
        raise ValueError(f"seeds must be non-negative, got master_seed={master_seed}, game_index={game_index}")
    ss = np.random.SeedSequence(master_seed, spawn_key=(game_index,))
    words = ss.generate_state(4, dtype=np.uint64)
    # 63 bits so the chance seed fits a signed Int64 column.
    return GameSeeds(*(int(w) & 0x7FFF_FFFF_FFFF_FFFF for w in words))


def game_rngs(master_seed: int, game_index: int) -> tuple[random.Random, random.Random, random.Random, int]:
    """The chance stream, Angela's and Jessah's streams, and the chance seed."""
    s = game_seeds(master_seed, game_index)
    return random.Random(s.chance), random.Random(s.angela), random.Random(s.jessah), s.chance
