"""``random.Random``'s ``randrange(n)`` and ``shuffle`` as the library draws
them (CPython 3.11's ``_randbelow_with_getrandbits`` and ``shuffle``), the
same bits taken in the same order, without their Python-level frames and
argument checks: a game's seed keeps meaning the same deal. Compiled on its
own (rnsim/compiled.py, target ``chance``); an engine calls it through
Python, so a whole deal or shuffle is one call (a few a game: a round's
token hands and deck shuffle, a setup's deal). tests/test_chance_draws.py
holds them equal to the library's."""

from __future__ import annotations

import random


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for n > 0."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)``: the same draws and swaps."""
    for i in range(len(x) - 1, 0, -1):
        j = below(rng, i + 1)
        x[i], x[j] = x[j], x[i]


def take(rng: random.Random, pool: list[int], k: int) -> list[int]:
    """``k`` items taken from ``pool`` one at a time, each at
    ``rng.randrange(len(pool))`` (``pool.pop``), in the order drawn."""
    got = []
    for _ in range(k):
        got.append(pool.pop(below(rng, len(pool))))
    return got
