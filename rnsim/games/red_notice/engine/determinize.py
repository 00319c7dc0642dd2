"""Determinization: a full game state consistent with one seat's view.

A search player cannot read hidden state; it plays out *samples* of it
instead. :func:`determinize` copies the state and re-draws everything
``seat`` cannot see (R24, R25):

- Angela's city, for Jessah: from the weighted public belief (uniform over
  the set-valued belief by default; pass ``weights`` from
  :class:`.weighted.Tracker`), between movements only (mid-movement the
  belief describes the step in progress, and Jessah has no decision then);
- the opponent's hand: exchanged with checks of the check deck (its size is
  public, its contents are not);
- which of the opponent's tokens is in her pool, her hand or face down on
  the board;
- the order of the check deck and of the upgrade deck (hidden from both);
- the chance stream itself (the future draws), re-seeded from ``rng``.

Draw ``rng`` from the game's reserved ``copies`` stream
(:func:`copies_rng`), never from a seat's or the chance stream, so sampling
does not change the game being played. :func:`possible` lists what a sample
may contain, so tests can check the true state is always in the support.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from rnsim.games.red_notice.conceal import shuffle_hidden_tokens, swap_hand_with_deck
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.state import GameState
from rnsim.seeding import game_seeds


def copies_rng(master_seed: int, game_index: int) -> random.Random:
    """The reserved stream for sampling hidden facts in game ``game_index``."""
    return random.Random(game_seeds(master_seed, game_index).copies)


def _city_is_hidden(state: GameState, seat: int) -> bool:
    d = state.pending
    return seat == JESSAH and state.angela_city >= 0 and (d is None or d.kind != "angela_move")


def determinize(state: GameState, seat: int, rng: random.Random, weights: Sequence[float] | None = None) -> GameState:
    """A copy of ``state`` with what ``seat`` cannot see re-drawn (module doc)."""
    s = state.clone()
    opponent = JESSAH if seat == ANGELA else ANGELA
    swap_hand_with_deck(s, opponent, rng)  # also re-orders the check deck
    shuffle_hidden_tokens(s, opponent, rng)
    rng.shuffle(s.upgrade_deck)
    if _city_is_hidden(s, seat):
        cities = [c for c in range(s.comps.n_cities) if s.belief >> c & 1]
        if weights is None:
            s.angela_city = rng.choice(cities)
        else:
            w = [weights[c] for c in cities]
            if sum(w) <= 0:
                raise ValueError("determinize: the weights give no probability to the public belief")
            s.angela_city = rng.choices(cities, weights=w)[0]
    s.rng = random.Random(rng.getrandbits(63))
    return s


class Support(NamedTuple):
    angela_cities: int  # bitmask
    opponent_checks: frozenset[int]  # checks the opponent's hand may hold
    opponent_tokens: tuple[int, ...]  # sorted values among her pool, hand and face-down tokens


def possible(state: GameState, seat: int) -> Support:
    """What a sample of :func:`determinize` for ``seat`` may contain."""
    opponent = JESSAH if seat == ANGELA else ANGELA
    if _city_is_hidden(state, seat):
        cities = state.belief
    else:
        cities = 1 << state.angela_city if state.angela_city >= 0 else 0  # 0: before her start
    checks = frozenset(state.hands[opponent]) | frozenset(state.deck)
    toks = list(state.token_pool[opponent]) + list(state.token_hand[opponent])
    for i, pair in enumerate(state.slots):
        if not state.revealed[i]:
            toks.extend(x[1] for x in pair if x is not None and x[0] == opponent)
    return Support(cities, checks, tuple(sorted(toks)))
