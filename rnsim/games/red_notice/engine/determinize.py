"""Determinization: a full game state consistent with one seat's view.

A search player cannot read hidden state; it plays out *samples* of it
instead. A sample (``View.worlds.sample``) is built from the view of the
deciding seat, which holds only what that seat may know (with
:class:`~.view.WorldFacts`: the engine's frames, and the sizes or unordered
contents of what is hidden), and draws from ``rng`` everything that seat
cannot see (R24, R25):

- Angela's city, for Jessah: from the weighted public belief (uniform over
  the set-valued belief by default; pass ``weights`` from
  :class:`.weighted.Tracker`), between movements only (mid-movement the
  belief describes the step in progress, and Jessah has no decision then);
- the opponent's hand: dealt from the checks the seat has not seen (not in
  its hand, not cashed), the rest forming the check deck;
- which of the opponent's unrevealed tokens is in her pool, her hand or face
  down on the board;
- the order of the check deck, of the upgrade deck and of what is left of
  the action deck (hidden from both);
- the chance stream itself (the future draws), seeded from ``rng``.

Each hidden fact is drawn from a canonical (sorted) order, so a sample
depends on the seat's view and ``rng`` only. The opponent's history in a
sample is the public one (her own hidden parts, e.g. Angela's steps, are
not re-drawn). A sample is a game to play forward, not a record: its seed
is 0 and its tallies (``stats``, cash and captures by round, upgrade rounds,
burnt identities) start empty. Not modelled: a Wiretap reveal of Angela's
hand is not kept in Jessah's samples (her hand is drawn from the unseen
checks).

Draw ``rng`` from the game's reserved ``copies`` stream
(:func:`copies_rng`) or the seat's own, never from the chance stream, so
sampling does not change the game being played. :func:`possible` lists what
a sample may contain, so tests can check the true state is always in the
support.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from typing import NamedTuple

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.history import public
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import View, WorldFacts, build_view, register_sampler
from rnsim.games.red_notice.rules.components import Components
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.seeding import game_seeds


def copies_rng(master_seed: int, game_index: int) -> random.Random:
    """The reserved stream for sampling hidden facts in game ``game_index``."""
    return random.Random(game_seeds(master_seed, game_index).copies)


def _city_is_hidden(state: GameState, seat: int) -> bool:
    d = state.pending
    return seat == JESSAH and state.angela_city >= 0 and (d is None or d.kind != "angela_move")


def determinize(state: GameState, seat: int, rng: random.Random, weights: Sequence[float] | None = None,
                angela: tuple[int, Sequence[int]] | None = None) -> GameState:
    """A sample of ``state`` for ``seat``, the seat deciding: what
    ``build_view(state, seat).worlds.sample`` gives (module doc)."""
    if angela is not None and seat != JESSAH:
        raise ValueError("determinize: only Jessah's samples take Angela's city and hand")
    worlds = build_view(state, seat).worlds
    if worlds is None:
        raise ValueError(f"determinize: no sample for seat {seat} here: only the seat whose decision is pending "
                         f"has worlds, and Jessah none while Angela's movement is in progress")
    return worlds.sample(rng, weights, angela)


def sample_world(v: View, rng: random.Random, weights: Sequence[float] | None = None,
                 angela: tuple[int, Sequence[int]] | None = None, history: bool = True) -> GameState:
    """A game built from ``v``, the view of the seat deciding, the hidden facts
    drawn from ``rng`` (module doc; View.worlds.sample). ``angela``, for
    Jessah only: Angela's (city, hand) drawn by the caller from a model of its
    own (a particle of search's filter), instead of the city from ``weights``
    and the hand from the unseen checks; the city must be in the public
    belief and the hand checks Jessah has not seen. ``history=False``: the
    game records no history (as after ``GameState.stop_history``), for
    players that read none; the draws are the same."""
    seat = v.seat
    if angela is not None and seat != JESSAH:
        raise ValueError("determinize: only Jessah's samples take Angela's city and hand")
    w = v._world
    if w is None:
        raise ValueError("determinize: this view has no worlds (it is not of the seat deciding)")
    s = _known(v, w, history)
    opponent = JESSAH if seat == ANGELA else ANGELA
    _deal_hand(s, v, opponent, rng, None if angela is None else angela[1])  # also orders the check deck
    _deal_tokens(s, v, w, opponent, rng)
    rng.shuffle(s.upgrade_deck)
    rng.shuffle(s.action_deck)
    if seat == JESSAH and w.angela_city >= 0:
        cities = [c for c in range(s.comps.n_cities) if s.belief >> c & 1]
        if angela is not None:
            if not s.belief >> angela[0] & 1:
                raise ValueError(f"determinize: city {angela[0]} is not in the public belief")
            s.angela_city = angela[0]
        elif weights is None:
            s.angela_city = rng.choice(cities)
        else:
            wt = [weights[c] for c in cities]
            if sum(wt) <= 0:
                raise ValueError("determinize: the weights give no probability to the public belief")
            s.angela_city = rng.choices(cities, weights=wt)[0]
    s.rng = random.Random(rng.getrandbits(63))
    return s


def _known(v: View, w: WorldFacts, history: bool = True) -> GameState:
    """A state of what the view holds: the hidden facts still to draw are left
    in sorted order (the opponent's hand and tokens empty, the decks sorted)."""
    comps = v.comps
    s = GameState()
    s.rules, s.comps, s.seed, s.log = v.rules, comps, 0, None
    s.round, s.initiative = v.round, v.initiative
    s.angela_city, s.jessah_city = w.angela_city, v.jessah_city
    s.radars, s.n_radars = list(v.radars), comps.radar_supply - v.radar_supply
    s.barriers, s.n_barriers = list(v.barriers), comps.barrier_supply - v.barrier_supply
    s.radar_pending = w.radar_pending
    s.belief, s.last_seen, s.last_announcement = v.belief, v.last_seen, v.last_announcement
    s.revealed_hand = v.revealed_hand
    s.cashed = [list(v.cashed[0]), list(v.cashed[1])]
    s.cash_total = list(v.cash_total)
    s.security, s.captures = v.security, v.captures
    s.identities_up = [comps.identity_index(x) for x in v.identities_up]
    s.identities_down = [comps.identity_index(x) for x in v.identities_down]
    s.upgrades_face_up, s.permanents, s.upgrades_gone = list(w.upgrades_face_up), list(w.permanents), list(w.upgrades_gone)
    s.upgrade_deck = _upgrades_left(comps, w)
    s.action_deck = [c for c in range(len(comps.cards)) if w.action_left >> c & 1]
    s.round_cards = list(v.cards)
    s.slots = [list(pair) for pair in v.slots]
    s.revealed = [bool(w.revealed >> i & 1) for i in range(len(v.slots))]
    s.spent = [list(v.spent[0]), list(v.spent[1])]
    s.hands, s.deck = [[], []], []
    s.hands[v.seat] = list(v.hand)
    s.token_pool, s.token_hand = [[], []], [[], []]
    s.token_pool[v.seat], s.token_hand[v.seat] = _in_dealing_order(comps.tokens, v.my_pool), list(v.my_tokens)
    s.stack = [f.copy() for f in w.stack]
    s.pending, s.over, s.winner, s.end_reason = w.decision, False, None, None
    s.stats = dict.fromkeys(_stat_names(), 0)
    s.cash_by_round, s.captures_by_round, s.upgrade_rounds, s.burnt = [[], []], [], {}, []
    # The seat's own events as at its decision; the opponent's, the public
    # ones (her own secrets are not re-drawn).
    if not history:
        s.history, s.recording = [[], []], False
        return s
    own = v.history._records[:v.history._n]
    s.history = [own, public(own, v.seat)] if v.seat == ANGELA else [public(own, v.seat), own]
    s.recording = v.history._kept
    return s


def _in_dealing_order(tokens: Sequence[int], pool: Sequence[int]) -> list[int]:
    """A token pool in the engine's order: a reset puts every token in it in
    component order and a draw takes one out, so what is left keeps that order."""
    left = list(pool)
    out = []
    for t in tokens:
        if t in left:
            left.remove(t)
            out.append(t)
    return out


@functools.cache
def _stat_names() -> tuple[str, ...]:
    """The names of the engine's counts (those of a new game, the same in every game)."""
    return tuple(GameState.new(RuleSet(), random.Random(0)).stats)


def _upgrades_left(comps: Components, w: WorldFacts) -> list[int]:
    """The upgrade deck's cards (public by counting: the deck dealt at setup,
    less the face-up, permanent and gone ones), sorted."""
    up_map = comps.upgrade_draw
    left = list(range(len(comps.upgrade_cards))) if up_map is None else [u for u in up_map if u >= 0]
    for u in (*w.upgrades_face_up, *w.permanents, *w.upgrades_gone):
        left.remove(u)
    left.sort()
    return left


def _deal_hand(s: GameState, v: View, seat: int, rng: random.Random, hand: Sequence[int] | None) -> None:
    """``seat``'s hand and the check deck, dealt from the checks the viewer
    has not seen (sorted); with ``hand`` given, the hand is that and the rest
    goes to the deck."""
    seen = set(v.hand).union(v.cashed[0], v.cashed[1])
    pool = [c for c in range(len(s.comps.checks)) if c not in seen]
    rng.shuffle(pool)
    n = v.hand_sizes[seat]
    if hand is None:
        s.hands[seat] = pool[:n]
        s.deck = pool[n:]
        return
    if len(hand) != n or len(set(hand)) != n or not set(hand) <= set(pool):
        raise ValueError(f"determinize: hand {sorted(hand)} is not {n} distinct checks the viewer has not seen")
    s.hands[seat] = list(hand)
    s.deck = [c for c in pool if c not in hand]


def _deal_tokens(s: GameState, v: View, w: WorldFacts, seat: int, rng: random.Random) -> None:
    """``seat``'s unrevealed tokens dealt over her pool, her hand and her
    face-down spots: all her tokens less those revealed this cycle (sorted),
    none before the first round deals them (R21)."""
    board = [(i, h) for i, pair in enumerate(s.slots) if not s.revealed[i]
             for h, x in enumerate(pair) if x is not None and x[0] == seat]
    n_pool, n_hand = w.opponent_pool, w.opponent_tokens
    values: list[int] = []
    if n_pool + n_hand + len(board):
        values = list(s.comps.tokens)
        for x in v.spent[seat]:
            values.remove(x)
        values.sort()
    rng.shuffle(values)
    s.token_pool[seat] = values[:n_pool]
    s.token_hand[seat] = sorted(values[n_pool:n_pool + n_hand])
    for (i, h), x in zip(board, values[n_pool + n_hand:], strict=True):
        s.slots[i][h] = (seat, x)


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


register_sampler(sample_world)  # View.worlds draws with it
