"""One seat's view of the game: public facts plus that seat's own hidden facts.

A strategy receives a View, never the GameState (R24, R25). The View is a
snapshot: changing the game changes nothing in it. Fields holding the
opponent's hidden facts are simply absent (``angela_city`` is -1 in Jessah's
view unless Angela is standing on a revealed city right now). The one thing
it shares with the state is the seat's own append-only history list, read
only up to its length at the view's decision (History), so a view costs the
same however long the game has run.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import overload

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH, Decision
from rnsim.games.red_notice.engine.frames import Card, Move
from rnsim.games.red_notice.engine.history import Event, Record, card_at, decode, decode_range
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules.components import Components
from rnsim.games.red_notice.rules.ruleset import RuleSet


class Worlds:
    """Samples of full game states consistent with one seat's view, for search.

    A search player needs whole states to play forward, but may not read the
    real one. ``sample`` hands out a determinization (engine/determinize.py):
    a copy in which everything the seat cannot see is re-drawn from ``rng``
    before any of it is used, in a canonical order, so a sample depends on the
    seat's view and ``rng`` only, never on the hidden facts (a test re-draws
    them with Game.conceal and checks the samples do not move). It answers
    only while the decision it was built for is pending: a view kept for later
    cannot peek at the game as it moves on.
    """

    __slots__ = ("_state", "_seat", "_decision")

    def __init__(self, state: GameState, seat: int, decision: Decision | None) -> None:
        self._state = state
        self._seat = seat
        self._decision = decision

    def sample(self, rng: random.Random, weights: Sequence[float] | None = None,
               angela: tuple[int, Sequence[int]] | None = None) -> GameState:
        """A full state the seat cannot tell from the real one, drawn from ``rng``
        (Angela's city from ``weights`` over cities if given, else uniform over
        the public belief; for Jessah, ``angela`` = (city, hand) sets both
        from a model of the caller's own). Draw ``rng`` from the seat's own stream."""
        if self._state.pending is not self._decision or self._state.over:
            raise RuntimeError("Worlds.sample: this view's decision has been answered; "
                               "sample only while deciding")
        from rnsim.games.red_notice.engine.determinize import determinize

        return determinize(self._state, self._seat, rng, weights, angela)


class History:
    """The events one seat has seen so far, oldest first, as :class:`Event`
    (engine/history.py; every kind is listed in docs/strategies.md).

    A snapshot: it holds the seat's append-only record list and its length
    when the view was built, so building it costs the same at round 1 and
    round 20, and events recorded later never show. Records are decoded when
    read; a strategy that follows the game reads only what is new since its
    last decision (``view.history[self.seen:]``).
    """

    __slots__ = ("_records", "_n", "_kept")

    def __init__(self, records: list[Record], n: int, kept: bool = True) -> None:
        self._records = records
        self._n = n
        self._kept = kept

    def _check(self) -> None:
        if not self._kept:
            raise RuntimeError("view.history: this game keeps no history (GameState.stop_history: it was "
                               "started for strategies that read no view)")

    def __len__(self) -> int:
        self._check()
        return self._n

    @overload
    def __getitem__(self, i: int) -> Event: ...

    @overload
    def __getitem__(self, i: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, i: int | slice) -> Event | tuple[Event, ...]:
        self._check()
        if isinstance(i, slice):
            start, stop, step = i.indices(self._n)
            if step == 1:
                return tuple(decode_range(self._records, start, max(start, stop)))
            return tuple(decode_range(self._records, 0, self._n)[i])
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(f"history index out of range (0..{self._n - 1})")
        return decode(self._records[i], card_at(self._records, i))

    def __iter__(self) -> Iterator[Event]:
        self._check()
        return iter(decode_range(self._records, 0, self._n))

    def __reversed__(self) -> Iterator[Event]:
        self._check()
        return reversed(decode_range(self._records, 0, self._n))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, History):
            return NotImplemented
        n = self._n
        return n == other._n and self._kept == other._kept and self._records[:n] == other._records[:n]

    def __hash__(self) -> int:
        return hash(tuple(self._records[:self._n]))

    def __repr__(self) -> str:
        return f"History({self._n} events)" if self._kept else "History(not kept)"


@dataclass(slots=True, eq=True, init=False)
class View:
    # Not frozen: a frozen dataclass sets each field through object.__setattr__,
    # which doubles the cost of the view built at every decision. It is a
    # snapshot all the same: changing it changes nothing in the game.
    seat: int  # 0 Angela, 1 Jessah
    rules: RuleSet
    comps: Components
    round: int
    initiative: int
    # --- the board (public)
    jessah_city: int
    radars: tuple[int, ...]  # per continent: 0 none, 1 white, 2 black
    barriers: tuple[int, ...]  # per route: 0 none, 1 white, 2 black
    radar_supply: int
    barrier_supply: int
    # --- Angela's position: public belief, last sighting; her city only for her
    belief: int  # bitmask of the cities she can be in, from public events
    last_seen: tuple[int, int, int] | None  # (city or -1, continent, round)
    last_announcement: tuple[tuple[int, int], ...]  # (continent, city or -1) per trigger
    angela_city: int  # her true city in her own view; -1 in Jessah's
    # --- checks
    hand: tuple[int, ...]  # own hand (check ids)
    hand_sizes: tuple[int, int]
    cashed: tuple[tuple[int, ...], tuple[int, ...]]  # public, per seat
    cash_total: tuple[int, int]
    check_deck_size: int
    revealed_hand: tuple[int, tuple[int, ...]] | None  # Wiretap: (round, Angela's hand then)
    # --- Angela's other public facts
    security: int
    identities_up: tuple[str, ...]
    identities_down: tuple[str, ...]
    captures: int
    # --- upgrades (public)
    permanents: tuple[str, ...]
    upgrades_face_up: tuple[str, ...]
    upgrade_deck_size: int
    # --- this round's cards and tokens
    cards: tuple[int, ...]  # card ids in resolution order
    slots: tuple[tuple[tuple[int, int] | None, ...], ...]
    # ^ per card, per half: (owner seat, value) with value -1 while face down and not own
    my_tokens: tuple[int, ...]  # own tokens still to place this round
    my_pool: tuple[int, ...]  # own tokens not yet drawn this reset cycle
    spent: tuple[tuple[int, ...], tuple[int, ...]]  # revealed tokens this cycle, per seat
    # --- what is resolving now (public; Angela's own movement only in her view)
    resolving: int = -1  # round position of the card being resolved; -1 while placing or between rounds
    performances: tuple[tuple[int, int], ...] = ()  # its (seat, half) performances in order (R1-R3)
    performed: int = 0  # how many of them have started
    movement: tuple[int, int, int] | None = None  # (seat, steps, steps left) of the movement in progress
    # --- every event this seat has seen, oldest first (engine/history.py)
    history: History = field(default_factory=lambda: History([], 0))
    # --- for search players: samples of the hidden facts (never the real ones)
    worlds: Worlds | None = field(default=None, compare=False, repr=False)

    # Written out rather than generated by @dataclass: the generated __init__
    # is interpreted Python even when this module is compiled, and a view is
    # built at every decision (search's rollouts build millions). The fields
    # above are the one list; a test checks this signature against them.
    def __init__(
        self,
        seat: int,
        rules: RuleSet,
        comps: Components,
        round: int,
        initiative: int,
        jessah_city: int,
        radars: tuple[int, ...],
        barriers: tuple[int, ...],
        radar_supply: int,
        barrier_supply: int,
        belief: int,
        last_seen: tuple[int, int, int] | None,
        last_announcement: tuple[tuple[int, int], ...],
        angela_city: int,
        hand: tuple[int, ...],
        hand_sizes: tuple[int, int],
        cashed: tuple[tuple[int, ...], tuple[int, ...]],
        cash_total: tuple[int, int],
        check_deck_size: int,
        revealed_hand: tuple[int, tuple[int, ...]] | None,
        security: int,
        identities_up: tuple[str, ...],
        identities_down: tuple[str, ...],
        captures: int,
        permanents: tuple[str, ...],
        upgrades_face_up: tuple[str, ...],
        upgrade_deck_size: int,
        cards: tuple[int, ...],
        slots: tuple[tuple[tuple[int, int] | None, ...], ...],
        my_tokens: tuple[int, ...],
        my_pool: tuple[int, ...],
        spent: tuple[tuple[int, ...], tuple[int, ...]],
        resolving: int = -1,
        performances: tuple[tuple[int, int], ...] = (),
        performed: int = 0,
        movement: tuple[int, int, int] | None = None,
        history: History | None = None,
        worlds: Worlds | None = None,
    ) -> None:
        self.seat = seat
        self.rules = rules
        self.comps = comps
        self.round = round
        self.initiative = initiative
        self.jessah_city = jessah_city
        self.radars = radars
        self.barriers = barriers
        self.radar_supply = radar_supply
        self.barrier_supply = barrier_supply
        self.belief = belief
        self.last_seen = last_seen
        self.last_announcement = last_announcement
        self.angela_city = angela_city
        self.hand = hand
        self.hand_sizes = hand_sizes
        self.cashed = cashed
        self.cash_total = cash_total
        self.check_deck_size = check_deck_size
        self.revealed_hand = revealed_hand
        self.security = security
        self.identities_up = identities_up
        self.identities_down = identities_down
        self.captures = captures
        self.permanents = permanents
        self.upgrades_face_up = upgrades_face_up
        self.upgrade_deck_size = upgrade_deck_size
        self.cards = cards
        self.slots = slots
        self.my_tokens = my_tokens
        self.my_pool = my_pool
        self.spent = spent
        self.resolving = resolving
        self.performances = performances
        self.performed = performed
        self.movement = movement
        self.history = history if history is not None else History([], 0)
        self.worlds = worlds

    @property
    def me(self) -> int:
        return self.seat

    @property
    def opponent(self) -> int:
        return 1 - self.seat

    def opponent_tokens_left(self) -> tuple[int, ...]:
        """The opponent's tokens not yet revealed this cycle (public: R24)."""
        left = list(self.comps.tokens)
        for v in self.spent[self.opponent]:
            left.remove(v)
        return tuple(left)

    def my_city(self) -> int:
        return self.angela_city if self.seat == ANGELA else self.jessah_city


def _seen(s: tuple[int, int] | None, seat: int, revealed: bool) -> tuple[int, int] | None:
    """A slot as ``seat`` sees it: an opponent's face-down token shows no value."""
    if s is None or s[0] == seat or revealed:
        return s
    return (s[0], -1)


def build_view(state: GameState, seat: int) -> View:
    """The view of ``seat``. Only this function reads hidden state for a view."""
    comps = state.comps
    ids = comps.identity_ids
    cards = comps.upgrade_card_ids
    slots: list[tuple[tuple[int, int] | None, ...]] = []
    revealed = state.revealed
    for i, pair in enumerate(state.slots):
        rev = revealed[i]
        if len(pair) == 2:
            slots.append((_seen(pair[0], seat, rev), _seen(pair[1], seat, rev)))
        else:
            slots.append(tuple([_seen(s, seat, rev) for s in pair]))
    mine = seat == ANGELA
    v = View(
        seat=seat,
        rules=state.rules,
        comps=comps,
        round=state.round,
        initiative=state.initiative,
        jessah_city=state.jessah_city,
        radars=tuple(state.radars),
        barriers=tuple(state.barriers),
        radar_supply=comps.radar_supply - state.n_radars,
        barrier_supply=comps.barrier_supply - state.n_barriers,
        belief=state.belief,
        last_seen=state.last_seen,
        last_announcement=state.last_announcement,
        angela_city=state.angela_city if mine else -1,
        hand=tuple(state.hands[seat]),
        hand_sizes=(len(state.hands[ANGELA]), len(state.hands[JESSAH])),
        cashed=(tuple(state.cashed[0]), tuple(state.cashed[1])),
        cash_total=(state.cash_total[0], state.cash_total[1]),
        check_deck_size=len(state.deck),
        revealed_hand=state.revealed_hand,
        security=state.security,
        identities_up=tuple([ids[i] for i in state.identities_up]),
        identities_down=tuple([ids[i] for i in state.identities_down]),
        captures=state.captures,
        permanents=tuple([cards[u] for u in state.permanents]),
        upgrades_face_up=tuple([cards[u] for u in state.upgrades_face_up]),
        upgrade_deck_size=len(state.upgrade_deck),
        cards=tuple(state.round_cards),
        slots=tuple(slots),
        my_tokens=tuple(state.token_hand[seat]),
        my_pool=tuple(sorted(state.token_pool[seat])),
        spent=(tuple(state.spent[0]), tuple(state.spent[1])),
        history=History(state.history[seat], len(state.history[seat]), state.recording),
        worlds=Worlds(state, seat, state.pending),
    )
    # The few frames on top of the stack say what is resolving (cheap: the
    # stack is a handful of frames deep).
    top_move = True
    for f in reversed(state.stack):
        if isinstance(f, Move):
            if top_move and (f.seat == JESSAH or mine):
                v.movement = (f.seat, f.steps, f.left)
            top_move = False  # only the innermost movement is in progress (an escape inside a hunt)
        elif isinstance(f, Card):
            v.resolving = f.card
            v.performances = f.performances if f.performances is not None else ()
            v.performed = f.next
            break
    return v
