"""One seat's view of an FBI game: everything on the table plus the seat's own
secret field agents.

Hidden from a seat: the deck order, and the other players' chosen field
agents until they are played (F6). Everything else is open in the rulebook:
slammers, the table, the bids (F2), the played agents. The deck's
composition is public by counting (every card not on the table, in a slammer
or released is in the deck), so ``unseen()`` offers it.
"""

from __future__ import annotations

from typing import Any

from rnsim.games.fbi.components import Components
from rnsim.games.fbi.rules import FbiRules
from rnsim.games.fbi.state import NO_CARD, PHASES, FbiState

_FIELDS = ("seat", "players", "rules", "comps", "turn", "last_turn", "handcuffs", "first_handcuffs", "deck_size",
           "table", "slammers", "released", "bids", "order", "phase", "step", "my_pair", "my_agents", "played",
           "arrests")


class FbiView:
    """Built once per decision, so a plain class with a positional
    constructor rather than a dataclass: compiled (scripts/build_native.py),
    building it is a native call, not a generated __init__ run by the
    interpreter. Equal views have equal fields."""

    __slots__ = _FIELDS

    def __init__(self, seat: int, players: int, rules: FbiRules, comps: Components, turn: int, last_turn: bool,
                 handcuffs: int, first_handcuffs: int, deck_size: int, table: tuple[tuple[int, ...], ...],
                 slammers: tuple[tuple[int, ...], ...], released: tuple[int, ...], bids: tuple[int, ...],
                 order: tuple[int, ...], phase: str, step: int, my_pair: tuple[str, ...] | None,
                 my_agents: tuple[int, ...], played: tuple[tuple[int, ...], ...],
                 arrests: tuple[tuple[int, int], ...]) -> None:
        self.seat = seat
        self.players = players
        self.rules = rules
        self.comps = comps
        self.turn = turn
        self.last_turn = last_turn  # the deck is empty: this turn is the last (F9)
        self.handcuffs = handcuffs
        self.first_handcuffs = first_handcuffs
        self.deck_size = deck_size
        self.table = table  # per colour: card ids in placement order (top last)
        self.slammers = slammers  # per seat
        self.released = released
        self.bids = bids  # per seat: -2 not yet, -1 no card, else the card id (F2: open)
        self.order = order  # seats in slammer order, once the bids are in
        self.phase = phase  # "bid", "agents", "arrest", "over"
        self.step = step
        self.my_pair = my_pair  # own chosen agents this turn
        self.my_agents = my_agents  # own agents' colours not yet played
        self.played = played  # per seat: colours played this turn
        self.arrests = arrests  # this turn's arrests so far: (seat, card id or -1 for a pass)

    def _fields(self) -> tuple[object, ...]:
        return (self.seat, self.players, self.rules, self.comps, self.turn, self.last_turn, self.handcuffs,
                self.first_handcuffs, self.deck_size, self.table, self.slammers, self.released, self.bids,
                self.order, self.phase, self.step, self.my_pair, self.my_agents, self.played, self.arrests)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, FbiView) and self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it replaces

    def __repr__(self) -> str:
        return "FbiView(" + ", ".join(f"{k}={v!r}" for k, v in zip(_FIELDS, self._fields(), strict=True)) + ")"

    def unseen(self) -> list[int]:
        """Card ids of the coloured cards still in the deck (FR9: by counting; which
        copy of equal cards is arbitrary)."""
        gone: set[int] = set(self.released)
        for t in self.table:
            gone.update(t)
        for s in self.slammers:
            gone.update(s)
        return [c for c in self.comps.coloured if c not in gone]

    def value(self, card: int) -> int:
        return self.comps.card_value[card]

    def colour(self, card: int) -> int:
        return self.comps.card_colour[card]


def build_view(state: FbiState, seat: int) -> FbiView:
    mine = state.pairs[seat] if state.pairs else None
    # the public fields' tuples are the state's (FbiState.shown_*), built here
    # once after each change and handed to every view until the next one
    table = state.shown_table
    if table is None:
        table = state.shown_table = tuple([tuple(t) for t in state.table])
    slammers = state.shown_slammers
    if slammers is None:
        slammers = state.shown_slammers = tuple([tuple(t) for t in state.slammer])
    released = state.shown_released
    if released is None:
        released = state.shown_released = tuple(state.released)
    bids = state.shown_bids
    if bids is None:
        bids = state.shown_bids = tuple(state.bids)
    order = state.shown_order
    if order is None:
        order = state.shown_order = tuple(state.order)
    played = state.shown_played
    if played is None:
        played = state.shown_played = tuple([tuple(p) for p in state.played])
    arrests = state.shown_arrests
    if arrests is None:
        arrests = state.shown_arrests = tuple(state.arrests)
    return FbiView(
        seat=seat,
        players=state.n,
        rules=state.rules,
        comps=state.comps,
        turn=state.turn,
        last_turn=state.last_turn,
        handcuffs=state.handcuffs,
        first_handcuffs=state.first_handcuffs,
        deck_size=len(state.deck),
        table=table,
        slammers=slammers,
        released=released,
        bids=bids,
        order=order,
        phase=PHASES[state.phase],
        step=state.step,
        my_pair=mine,
        my_agents=tuple(state.agents[seat]) if state.agents else (),
        played=played,
        arrests=arrests,
    )


def play_decisions(state: FbiState, views: list[Any], chooses: list[Any], at: list[Any]) -> int:
    """rnsim.play's decision loop for an FBI state, compiled: each pending
    decision goes to ``chooses[seat]`` with the view ``views[seat]`` builds
    (None: no view; this module's build_view is called natively), and its
    answer to the state, until the game is over. Returns the number of
    decisions answered. ``at`` holds the decision playing and whether its
    answer is being applied, so that the caller can tell a strategy's
    failure from the engine's (rnsim.play.play_out)."""
    # per seat: 0 reads no view, 1 this module's builder, 2 another builder
    kinds = [0 if v is None else 1 if v is build_view else 2 for v in views]
    first = state.decisions  # the state counts every answer it applies
    while not state.over:
        d = state.pending
        assert d is not None
        seat = d.seat
        at[0], at[1] = d, False
        kind = kinds[seat]
        shown: object = build_view(state, seat) if kind == 1 else None if kind == 0 else views[seat](state, seat)
        answer = chooses[seat](shown, d)
        at[1] = True
        state.apply(answer)
    return state.decisions - first


__all__ = ["FbiView", "build_view", "play_decisions", "NO_CARD"]
