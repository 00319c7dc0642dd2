"""Per-game random streams derived from (master seed, game index).

Every random draw of a game comes from a stream made here: one chance stream
(shuffles, deals, token draws, a random setup) and one stream per seat for its
strategy. The streams depend only on the master seed and the game index, so
results are the same whatever the worker count, chunking, backend or finishing
order, and game ``i`` of two rule variants sees the same chance stream (common
random numbers: variant comparisons are paired).

The seeds of game ``i`` are the words of
``SeedSequence(master, spawn_key=(i,)).generate_state(n + 2)``, laid out as
chance, seat 0 .. seat n-1, copies. ``generate_state`` is prefix-stable (the
first k words do not depend on how many are asked for), so seat ``s``'s seed is
the same whatever the number of seats, and a 2-seat game keeps the streams it
had before seats were counted.

``random.Random`` instances (never the module-level functions) are used for the
draws themselves: they are much cheaper per call than a numpy Generator, and
they are seeded from numpy's SeedSequence, which gives independent,
well-mixed seeds.
"""

from __future__ import annotations

import random
from typing import NamedTuple

import numpy as np

_MASK = 0x7FFF_FFFF_FFFF_FFFF  # 63 bits, so the chance seed fits a signed Int64 column


class GameSeeds(NamedTuple):
    chance: int  # the game's chance stream (also the "seed" column of results)
    seats: tuple[int, ...]  # one strategy stream per seat, seat 0 first
    copies: int  # for strategies that re-sample hidden facts (determinization)


def game_seeds(master_seed: int, game_index: int, seats: int = 2) -> GameSeeds:
    if master_seed < 0 or game_index < 0:
        raise ValueError(f"seeds must be non-negative, got master_seed={master_seed}, game_index={game_index}")
    if seats < 1:
        raise ValueError(f"a game has at least one seat, got {seats}")
    ss = np.random.SeedSequence(master_seed, spawn_key=(game_index,))
    words = [int(w) & _MASK for w in ss.generate_state(seats + 2, dtype=np.uint64)]
    return GameSeeds(words[0], tuple(words[1:-1]), words[-1])


def chance_seed(master_seed: int, game_index: int) -> int:
    """The chance seed alone (the "seed" column of a game)."""
    return game_seeds(master_seed, game_index, 1).chance


def game_rngs(master_seed: int, game_index: int, seats: int = 2) -> tuple[random.Random, list[random.Random], int]:
    """The chance stream, one stream per seat, and the chance seed."""
    s = game_seeds(master_seed, game_index, seats)
    return random.Random(s.chance), [random.Random(x) for x in s.seats], s.chance
