"""Re-drawing what one seat cannot see, for the conformance suite's no-leak tests.

``conceal(state, seat, rng)`` returns a copy of ``state`` in which the facts
hidden from ``seat`` are changed, while everything ``seat`` may know stays:
the opponent's hand (exchanged with checks of the deck, sizes kept), which of
the opponent's tokens is where among her pool, hand and face-down tokens, the
order of the check deck, of the upgrade deck and of the action deck, the
chance stream (the future draws) and the seed it came from, and, when Jessah
is the viewer, Angela's city within the public belief (R24, R25); the
opponent's own history loses its hidden parts and the omniscient event log
is not kept. If anything reachable from the seat's view of the copy differs
from what is reachable from its view of the original, the view leaks.
"""

from __future__ import annotations

import random

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.history import public
from rnsim.games.red_notice.engine.state import GameState


def shuffle_hidden_tokens(s: GameState, seat: int, rng: random.Random) -> None:
    """Permute ``seat``'s tokens among her pool, her hand and her face-down
    tokens on the board: which token is where is hidden from the opponent."""
    spots: list[tuple[str, int, int]] = []
    values: list[int] = []
    for j, v in enumerate(s.token_pool[seat]):
        spots.append(("pool", j, 0))
        values.append(v)
    for j, v in enumerate(s.token_hand[seat]):
        spots.append(("hand", j, 0))
        values.append(v)
    for i, pair in enumerate(s.slots):
        if s.revealed[i]:
            continue
        for h, x in enumerate(pair):
            if x is not None and x[0] == seat:
                spots.append(("board", i, h))
                values.append(x[1])
    rng.shuffle(values)
    for (where, i, h), v in zip(spots, values, strict=True):
        if where == "pool":
            s.token_pool[seat][i] = v
        elif where == "hand":
            s.token_hand[seat][i] = v
        else:
            s.slots[i][h] = (seat, v)
    s.token_hand[seat].sort()


def swap_hand_with_deck(s: GameState, seat: int, rng: random.Random) -> None:
    """Exchange ``seat``'s hand for other checks of the deck (sizes stay public)."""
    pool = s.hands[seat] + s.deck
    rng.shuffle(pool)
    n = len(s.hands[seat])
    s.hands[seat] = pool[:n]
    s.deck = pool[n:]


def move_angela_within_belief(s: GameState, rng: random.Random) -> None:
    """Put Angela on another city Jessah cannot rule out (between movements)."""
    cities = [c for c in range(s.comps.n_cities) if s.belief >> c & 1]
    s.angela_city = rng.choice(cities)


def conceal(state: GameState, seat: int, rng: random.Random) -> GameState:
    """A copy of ``state`` that ``seat`` cannot tell from it (see the module doc)."""
    other = state.clone()
    opponent = JESSAH if seat == ANGELA else ANGELA
    swap_hand_with_deck(other, opponent, rng)
    # The opponent's secrets in her own history (her steps, the checks she
    # drew, her face-down tokens) are dropped: if a view showed them, it changes.
    other.history[opponent] = public(other.history[seat], seat)
    shuffle_hidden_tokens(other, opponent, rng)
    # Mid-movement the belief describes the step in progress, and before
    # setup there is no city yet: only then is her city left where it is.
    d = other.pending
    if seat == JESSAH and other.angela_city >= 0 and (d is None or d.kind != "angela_move"):
        move_angela_within_belief(other, rng)
    # Hidden from both seats: the decks' order and the chance stream.
    rng.shuffle(other.upgrade_deck)
    rng.shuffle(other.action_deck)
    other.seed = rng.getrandbits(63)
    other.rng = random.Random(other.seed)
    other.log = None if state.log is None else []
    return other
