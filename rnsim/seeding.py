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
well-mixed seeds. ``_seed_words`` computes those words without numpy: the
same hash (numpy/random/bit_generator.pyx), with the pool of a master seed
kept from one game to the next (it does not depend on the game index), at
half the cost of a SeedSequence made and asked per game (a test checks it
against numpy's).
"""

from __future__ import annotations

import random
from typing import NamedTuple

_MASK = 0x7FFF_FFFF_FFFF_FFFF  # 63 bits, so the chance seed fits a signed Int64 column


_M32 = 0xFFFF_FFFF
_POOL = 4  # SeedSequence's pool_size


def _hash_constants(init: int, mult: int, n: int) -> tuple[int, ...]:
    # SeedSequence's hash constant multiplies by ``mult`` after each word it
    # hashes, whatever the words: its k-th value is a constant
    out = []
    h = init
    for _ in range(n):
        out.append(h)
        h = h * mult & _M32
    return tuple(out)


# enough for seeds and game indexes of up to 500 words and 1,000 words drawn
# (longer ones are seeded by numpy itself)
_HASH_A = _hash_constants(0x43B0D7E5, 0x931E8875, 2048)  # mixing the entropy
_HASH_B = _hash_constants(0x8B51F9DD, 0x58F38DED, 2048)  # drawing the words


def _uint32_words(n: int) -> list[int]:
    # an int as SeedSequence reads it: 32-bit words, least significant first
    out = [n & _M32]
    n >>= 32
    while n:
        out.append(n & _M32)
        n >>= 32
    return out


def _hashmix(value: int, k: int) -> int:
    value = (value ^ _HASH_A[k]) * _HASH_A[k + 1] & _M32
    return value ^ value >> 16


def _mix(x: int, y: int) -> int:
    r = (0xCA01F9DD * x - 0x4973F715 * y) & _M32
    return r ^ r >> 16


def _master_pool(master_seed: int) -> tuple[list[int], list[int]]:
    """SeedSequence(master_seed, spawn_key=...)'s pool before the spawn key
    is mixed in (the same for every key), and the entropy words left to mix."""
    run = _uint32_words(master_seed)
    run += [0] * (_POOL - len(run))  # padded to the pool, as with a spawn key
    pool = [_hashmix(run[i], i) for i in range(_POOL)]
    k = _POOL
    for src in range(_POOL):
        for dst in range(_POOL):
            if src != dst:
                pool[dst] = _mix(pool[dst], _hashmix(pool[src], k))
                k += 1
    return pool, run[_POOL:]


# (master seed, its _master_pool) of the last game seeded: a run seeds game
# after game of one master seed
_LAST: list[tuple[int, tuple[list[int], list[int]]]] = []


def _seed_words(master_seed: int, game_index: int, n: int) -> list[int]:
    """``SeedSequence(master_seed, spawn_key=(game_index,))
    .generate_state(n, dtype=np.uint64)`` as ints."""
    if _LAST and _LAST[0][0] == master_seed:
        base, extra = _LAST[0][1]
    else:
        base, extra = got = _master_pool(master_seed)
        _LAST[:] = [(master_seed, got)]
    pool = base[:]
    k = _POOL * _POOL
    words = extra + _uint32_words(game_index)
    if k + _POOL * len(words) >= len(_HASH_A) or 2 * n >= len(_HASH_B):
        return _numpy_words(master_seed, game_index, n)  # past the tables: numpy's own
    for w in words:
        for dst in range(_POOL):
            pool[dst] = _mix(pool[dst], _hashmix(w, k))
            k += 1
    out = []
    for i in range(0, 2 * n, 2):
        lo = (pool[i % _POOL] ^ _HASH_B[i]) * _HASH_B[i + 1] & _M32
        hi = (pool[(i + 1) % _POOL] ^ _HASH_B[i + 1]) * _HASH_B[i + 2] & _M32
        out.append((lo ^ lo >> 16) | (hi ^ hi >> 16) << 32)
    return out


def _numpy_words(master_seed: int, game_index: int, n: int) -> list[int]:
    import numpy as np

    seq = np.random.SeedSequence(master_seed, spawn_key=(game_index,))
    return [int(w) for w in seq.generate_state(n, dtype=np.uint64)]


class GameSeeds(NamedTuple):
    chance: int  # the game's chance stream (also the "seed" column of results)
    seats: tuple[int, ...]  # one strategy stream per seat, seat 0 first
    copies: int  # for strategies that re-sample hidden facts (determinization)


def game_seeds(master_seed: int, game_index: int, seats: int = 2) -> GameSeeds:
    if master_seed < 0 or game_index < 0:
        raise ValueError(f"seeds must be non-negative, got master_seed={master_seed}, game_index={game_index}")
    if seats < 1:
        raise ValueError(f"a game has at least one seat, got {seats}")
    words = [w & _MASK for w in _seed_words(master_seed, game_index, seats + 2)]
    return GameSeeds(words[0], tuple(words[1:-1]), words[-1])


def chance_seed(master_seed: int, game_index: int) -> int:
    """The chance seed alone (the "seed" column of a game)."""
    return game_seeds(master_seed, game_index, 1).chance


def game_rngs(master_seed: int, game_index: int, seats: int = 2) -> tuple[random.Random, list[random.Random], int]:
    """The chance stream, one stream per seat, and the chance seed."""
    s = game_seeds(master_seed, game_index, seats)
    return random.Random(s.chance), [random.Random(x) for x in s.seats], s.chance
