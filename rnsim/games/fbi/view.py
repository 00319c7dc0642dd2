"""One seat's view of an FBI game: everything on the table plus the seat's own
secret field agents.

Hidden from a seat: the deck order, and the other players' chosen field
agents until they are played (F6). Everything else is open in the rulebook:
slammers, the table, the bids (F2), the played agents. The deck's
composition is public by counting (every card not on the table, in a slammer
or released is in the deck), so ``unseen()`` offers it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rnsim.games.fbi.components import Components
from rnsim.games.fbi.rules import FbiRules
from rnsim.games.fbi.state import NO_CARD, FbiState


@dataclass(slots=True, eq=True)
class FbiView:
    seat: int
    players: int
    rules: FbiRules
    comps: Components
    turn: int
    last_turn: bool  # the deck is empty: this turn is the last (F9)
    handcuffs: int
    first_handcuffs: int
    deck_size: int
    table: tuple[tuple[int, ...], ...]  # per colour: card ids in placement order (top last)
    slammers: tuple[tuple[int, ...], ...]  # per seat
    released: tuple[int, ...]
    bids: tuple[int, ...]  # per seat: -2 not yet, -1 no card, else the card id (F2: open)
    order: tuple[int, ...]  # seats in slammer order, once the bids are in
    phase: str  # "bid", "agents", "arrest", "over"
    step: int
    my_pair: tuple[str, ...] | None  # own chosen agents this turn
    my_agents: tuple[int, ...]  # own agents' colours not yet played
    played: tuple[tuple[int, ...], ...]  # per seat: colours played this turn
    arrests: tuple[tuple[int, int], ...]  # this turn's arrests so far: (seat, card id or -1 for a pass)

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
        table=tuple(map(tuple, state.table)),
        slammers=tuple(map(tuple, state.slammer)),
        released=tuple(state.released),
        bids=tuple(state.bids),
        order=tuple(state.order),
        phase=("bid", "agents", "arrest", "over")[state.phase],
        step=state.step,
        my_pair=mine,
        my_agents=tuple(state.agents[seat]) if state.agents else (),
        played=tuple(map(tuple, state.played)),
        arrests=tuple(state.arrests),
    )


__all__ = ["FbiView", "build_view", "NO_CARD"]
