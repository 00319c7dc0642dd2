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
- the order of the check deck, of the upgrade deck and of what is left of
  the action deck (hidden from both);
- the chance stream itself (the future draws), re-seeded from ``rng``.

Each hidden fact is put in a canonical order (sorted) before it is shuffled,
so a sample depends on the seat's view and ``rng`` only: re-drawing the
hidden facts first (Game.conceal) gives the very same sample. That is what
lets a search player (``View.worlds``) use samples without reading the real
game. The opponent's history in a sample is the public one (her own hidden
parts, e.g. Angela's steps, are not re-drawn). Not modelled: a Wiretap reveal of Angela's hand is not kept in
Jessah's samples (her hand is re-drawn from the unseen checks).

Draw ``rng`` from the game's reserved ``copies`` stream
(:func:`copies_rng`), never from a seat's or the chance stream, so sampling
does not change the game being played. :func:`possible` lists what a sample
may contain, so tests can check the true state is always in the support.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import NamedTuple

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.history import public
from rnsim.games.red_notice.engine.state import GameState
from rnsim.seeding import game_seeds


def copies_rng(master_seed: int, game_index: int) -> random.Random:
    """The reserved stream for sampling hidden facts in game ``game_index``."""
    return random.Random(game_seeds(master_seed, game_index).copies)


def _city_is_hidden(state: GameState, seat: int) -> bool:
    d = state.pending
    return seat == JESSAH and state.angela_city >= 0 and (d is None or d.kind != "angela_move")


def _redraw_hand(s: GameState, seat: int, rng: random.Random, hand: Sequence[int] | None = None) -> None:
    """``seat``'s hand and the check deck, re-dealt from their (sorted) union;
    with ``hand`` given, the hand is that and the rest goes to the deck."""
    pool = sorted(s.hands[seat] + s.deck)
    rng.shuffle(pool)
    n = len(s.hands[seat])
    if hand is None:
        s.hands[seat] = pool[:n]
        s.deck = pool[n:]
        return
    if len(hand) != n or len(set(hand)) != n or not set(hand) <= set(pool):
        raise ValueError(f"determinize: hand {sorted(hand)} is not {n} distinct checks the viewer has not seen")
    s.hands[seat] = list(hand)
    s.deck = [c for c in pool if c not in hand]


def _redraw_tokens(s: GameState, seat: int, rng: random.Random) -> None:
    """``seat``'s unrevealed tokens dealt anew over her pool, hand and face-down spots."""
    n_pool, n_hand = len(s.token_pool[seat]), len(s.token_hand[seat])
    board = [(i, h) for i, pair in enumerate(s.slots) if not s.revealed[i]
             for h, x in enumerate(pair) if x is not None and x[0] == seat]
    values = sorted(s.token_pool[seat] + s.token_hand[seat] + [s.slots[i][h][1] for i, h in board])
    rng.shuffle(values)
    s.token_pool[seat] = values[:n_pool]
    s.token_hand[seat] = sorted(values[n_pool:n_pool + n_hand])
    for (i, h), v in zip(board, values[n_pool + n_hand:], strict=True):
        s.slots[i][h] = (seat, v)


def determinize(state: GameState, seat: int, rng: random.Random, weights: Sequence[float] | None = None,
                angela: tuple[int, Sequence[int]] | None = None) -> GameState:
    """A copy of ``state`` with what ``seat`` cannot see re-drawn (module doc).
    ``angela``, for Jessah only: Angela's (city, hand) drawn by the caller
    from a model of its own (a particle of search's filter), instead of the
    city from ``weights`` and the hand from the unseen checks; the city must
    be in the public belief and the hand checks Jessah has not seen."""
    s = state.clone()
    s.log = None
    opponent = JESSAH if seat == ANGELA else ANGELA
    if angela is not None and seat != JESSAH:
        raise ValueError("determinize: only Jessah's samples take Angela's city and hand")
    _redraw_hand(s, opponent, rng, None if angela is None else angela[1])  # also re-orders the check deck
    _redraw_tokens(s, opponent, rng)
    s.upgrade_deck.sort()
    rng.shuffle(s.upgrade_deck)
    s.action_deck.sort()
    rng.shuffle(s.action_deck)
    # The opponent's own history holds her secrets (her steps, her draws):
    # the sample gives her the public history instead.
    s.history[opponent] = public(s.history[seat], seat)
    if _city_is_hidden(s, seat):
        cities = [c for c in range(s.comps.n_cities) if s.belief >> c & 1]
        if angela is not None:
            if not s.belief >> angela[0] & 1:
                raise ValueError(f"determinize: city {angela[0]} is not in the public belief")
            s.angela_city = angela[0]
        elif weights is None:
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
