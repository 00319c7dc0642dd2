"""One seat's view of the game: public facts plus that seat's own hidden facts.

A strategy receives a View, never the GameState (R24, R25). The View is a
snapshot: changing the game changes nothing in it. Fields holding the
opponent's hidden facts are simply absent (``angela_city`` is -1 in Jessah's
view unless Angela is standing on a revealed city right now), and nothing
reachable from a view holds one: its search handle (Worlds) keeps public and
own facts only, and the conformance suite walks every object a view reaches.
The one thing it shares with the state is the seat's own append-only history
list, read only up to its length at the view's decision (History), so a view
costs the same however long the game has run.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, overload

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH, Decision
from rnsim.games.red_notice.engine.frames import Card, Frame, Move
from rnsim.games.red_notice.engine.history import Event, Record, _card_after, card_at, decode, decode_range
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules.components import Components
from rnsim.games.red_notice.rules.ruleset import RuleSet


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

    def since(self, start: int, skip: frozenset[str]) -> list[Event]:
        """``self[start:]`` without the events whose kind is in ``skip``
        (never decoded): for a reader that follows the game and ignores
        some kinds (Jessah's dossier)."""
        self._check()
        if start >= self._n:
            return []
        return decode_range(self._records, start, self._n, skip)

    def raw(self, start: int) -> tuple[list[Record], int]:
        """The records ``start`` onwards as the engine stores them
        (engine/history.py ``Record``), undecoded, and the card in resolution
        before the first of them (-1: none; ``card_at``): for a reader that
        follows the game and reads the records' fields itself (Jessah's
        dossier), the events of ``self[start:]`` without building them."""
        self._check()
        if start >= self._n:
            return [], -1
        records = self._records
        return records[start:self._n], _card_after(records, start - 1) if start > 0 else -1

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


class WorldFacts:
    """What a sample of the view's decision needs besides the view: the frames
    resolving (copies), and of what the seat cannot see only sizes and
    unordered contents. Built with the view of the seat whose decision is
    pending; it holds no hidden fact (engine/determinize.py draws them)."""

    __slots__ = ("decision", "angela_city", "radar_pending", "upgrades_face_up", "permanents", "upgrades_gone",
                 "action_left", "revealed", "opponent_pool", "opponent_tokens", "stack")

    def __init__(self, decision: Decision, angela_city: int, radar_pending: int, upgrades_face_up: tuple[int, ...],
                 permanents: tuple[int, ...], upgrades_gone: tuple[int, ...], action_left: int, revealed: int,
                 opponent_pool: int, opponent_tokens: int, stack: list[Frame]) -> None:
        self.decision = decision  # the pending decision, the seat's own
        self.angela_city = angela_city  # hers in her view; in Jessah's -1 before her start, else 0 (drawn)
        self.radar_pending = radar_pending  # white radars her movement in progress triggered (hers)
        self.upgrades_face_up = upgrades_face_up  # as card indices (the view shows ids; copies share one)
        self.permanents = permanents
        self.upgrades_gone = upgrades_gone
        self.action_left = action_left  # bit c: action card c is in the deck (its order is hidden)
        self.revealed = revealed  # bit i: the tokens on this round's card i are revealed
        self.opponent_pool = opponent_pool  # the sizes of the opponent's token pool and hand
        self.opponent_tokens = opponent_tokens
        self.stack = stack  # the engine's frames, copies of those that change; never changed


class Worlds:
    """Samples of full game states consistent with one seat's view, for search.

    A search player needs whole states to play forward, but may not read the
    real one, and there is none to read: a Worlds holds the view, and the view
    holds only what its seat may know (WorldFacts adds the engine's frames and
    the sizes or unordered contents of what is hidden, never its order).
    ``sample`` builds a game from them and draws every hidden fact from
    ``rng`` (engine/determinize.py), in a canonical order, so a sample depends
    on the seat's view and ``rng`` only. A conformance test walks every object
    a view reaches; and a view kept for later samples the world of its own
    decision, never the game as it has moved on.
    """

    __slots__ = ("view",)

    def __init__(self, view: View) -> None:
        self.view = view

    def sample(self, rng: random.Random, weights: Sequence[float] | None = None,
               angela: tuple[int, Sequence[int]] | None = None, history: bool = True) -> GameState:
        """A full state the seat cannot tell from the real one, drawn from ``rng``
        (Angela's city from ``weights`` over cities if given, else uniform over
        the public belief; for Jessah, ``angela`` = (city, hand) sets both
        from a model of the caller's own). Draw ``rng`` from the seat's own stream.
        ``history=False``: a game that records no history, for players that
        read none (the same draws)."""
        return _SAMPLER[0](self.view, rng, weights, angela, history)


#: the sampler Worlds.sample draws with: engine/determinize.py's sample_world,
#: which registers itself when it loads (the engine package loads it), so the
#: sampler depends on the view and not the other way round
_SAMPLER: list[Callable[[View, random.Random, Sequence[float] | None, tuple[int, Sequence[int]] | None, bool],
                        GameState]] = []


def register_sampler(sampler: Callable[[View, random.Random, Sequence[float] | None,
                                        tuple[int, Sequence[int]] | None, bool], GameState]) -> None:
    """Set the sampler of View.worlds (engine/determinize.py calls it once)."""
    _SAMPLER[:] = [sampler]


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
    # --- for search players (``worlds``, below), at the seat's own decision
    _world: WorldFacts | None = field(default=None, compare=False, repr=False)

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
        _world: WorldFacts | None = None,
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
        self._world = _world

    @property
    def worlds(self) -> Worlds | None:
        """Games drawn from what this seat may know, the hidden facts re-drawn
        (Worlds), at its own pending decision; None otherwise, and for Jessah
        while Angela's movement is in progress (the radars she triggers are
        announced only when it ends, R15)."""
        return Worlds(self) if self._world is not None else None

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


class _Fixed:
    """What a view reads of its (frozen) component set, read once per set:
    the set's class is not compiled, so each of its fields is a Python
    attribute lookup, two per view."""

    __slots__ = ("comps", "radar_supply", "barrier_supply")

    def __init__(self, comps: Components) -> None:
        self.comps = comps
        self.radar_supply = comps.radar_supply
        self.barrier_supply = comps.barrier_supply


# The _Fixed of the component set of the last view built (a game's views
# share one set; Final: compiled code reads it as a constant).
_FIXED: Final[list[_Fixed]] = []


def _fixed(comps: Components) -> _Fixed:
    if _FIXED:
        f = _FIXED[0]
        if f.comps is comps:
            return f
        f = _FIXED[0] = _Fixed(comps)
        return f
    f = _Fixed(comps)
    _FIXED.append(f)
    return f


def build_view(state: GameState, seat: int, worlds: bool = True) -> View:
    """The view of ``seat``. Only this function reads hidden state for a view.
    ``worlds=False``: a view without worlds (``View.worlds`` None), for players
    that never sample them (search's rollout players): the rest is the same."""
    comps = state.comps
    fixed = _fixed(comps)
    # the public tuples the state keeps for its views (shared until they change)
    public = state.public_sets()
    # this round's cards and tokens as the seat sees them (shared likewise)
    own = state.seat_sets(seat)
    mine = seat == ANGELA
    v = View(
        seat=seat,
        rules=state.rules,
        comps=comps,
        round=state.round,
        initiative=state.initiative,
        jessah_city=state.jessah_city,
        radars=state.radars_tuple(),  # shared with the state and other views until a change
        barriers=state.barriers_tuple(),
        radar_supply=fixed.radar_supply - state.n_radars,
        barrier_supply=fixed.barrier_supply - state.n_barriers,
        belief=state.belief,
        last_seen=state.last_seen,
        last_announcement=state.last_announcement,
        angela_city=state.angela_city if mine else -1,
        hand=tuple(state.hands[seat]),
        hand_sizes=(len(state.hands[ANGELA]), len(state.hands[JESSAH])),
        cashed=public.cashed,
        cash_total=(state.cash_total[0], state.cash_total[1]),
        check_deck_size=len(state.deck),
        revealed_hand=state.revealed_hand,
        security=state.security,
        identities_up=public.identities_up,
        identities_down=public.identities_down,
        captures=state.captures,
        permanents=public.permanents,
        upgrades_face_up=public.upgrades_face_up,
        upgrade_deck_size=len(state.upgrade_deck),
        cards=own.cards,
        slots=own.slots,
        my_tokens=own.tokens,
        my_pool=own.pool,
        spent=own.spent,
        history=History(state.history[seat], len(state.history[seat]), state.recording),
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
    d = state.pending
    if worlds and d is not None and d.seat == seat:
        v._world = _world_facts(state, d, mine, own.shown)
    return v


def build_view_alone(state: GameState, seat: int) -> View:
    """The view of ``seat`` without worlds (``View.worlds`` None): the view a
    strategy that never samples them is handed (``Strategy.samples_worlds``)."""
    return build_view(state, seat, False)


def play_decisions(state: GameState, views: list[Any], chooses: list[Any], at: list[Any]) -> int:
    """rnsim.play's decision loop for a Red Notice state, compiled: each
    pending decision is shown to its seat's ``chooses[seat]`` with the view
    ``views[seat]`` builds (None: no view; this module's builders are called
    natively) and its answer applied, until the game is over. Returns the
    number of decisions answered. Before each decision ``at`` holds the
    decision and False, True once its answer is being applied, so that the
    caller can tell a strategy's failure from the engine's when one raises."""
    modes: list[int] = []
    for v in views:
        modes.append(0 if v is None else 1 if v is build_view else 2 if v is build_view_alone else 3)
    decisions = 0
    while not state.over:
        d = state.pending
        assert d is not None
        seat = d.seat
        at[0] = d
        at[1] = False
        mode = modes[seat]
        view: object = None  # a builder of mode 3 may give any object
        if mode == 1:
            view = build_view(state, seat, True)
        elif mode == 2:
            view = build_view(state, seat, False)
        elif mode == 3:
            view = views[seat](state, seat)
        opt = chooses[seat](view, d)
        at[1] = True
        state.apply(opt)
        decisions += 1
    return decisions


def _world_facts(state: GameState, d: Decision, mine: bool, revealed: int) -> WorldFacts | None:
    """What a sample of the pending decision needs besides the view (None: no
    sample, for Jessah while Angela moves)."""
    stack: list[Frame] = []
    for f in state.stack:
        if not mine and isinstance(f, Move) and f.seat == ANGELA:
            return None  # her steps and the radars they trigger are hers until she announces them
        stack.append(f.copy())
    action_left = 0
    for c in state.action_deck:
        action_left |= 1 << c
    other = JESSAH if mine else ANGELA
    return WorldFacts(d, state.angela_city if mine or state.angela_city < 0 else 0, state.radar_pending,
                      tuple(state.upgrades_face_up), tuple(state.permanents), tuple(state.upgrades_gone),
                      action_left, revealed, len(state.token_pool[other]), len(state.token_hand[other]), stack)
