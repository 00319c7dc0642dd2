"""Build FBI rule cases from readable positions."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rnsim.games.fbi.position import FORMAT, VERSION, load_position
from rnsim.games.fbi.rules import FbiRules
from rnsim.games.fbi.state import SEAT_NAMES, FbiState

CLASSIC = FbiRules()


def position(
    players: int = 4,
    handcuffs: str = "ann",
    slammers: dict[str, list[str]] | None = None,
    table: dict[str, list[int]] | None = None,
    deck: list[str] | None = None,
    rules: FbiRules = CLASSIC,
    phase: str = "bid",
    turn: int = 1,
    **extra: Any,
) -> dict[str, Any]:
    """A position at the start of a phase. Coloured cards not placed anywhere
    go to the deck (after ``deck``, which comes first), so every card is
    somewhere; ``deck=[]`` with ``last_turn`` makes it the last turn."""
    comps = rules.load_components()
    seats = SEAT_NAMES[:players]
    slammers = slammers or {s: [] for s in seats}
    table = table or {}
    used = Counter()
    for cards in slammers.values():
        used.update(c for c in cards if not c.startswith("purple"))
    for colour, values in table.items():
        used.update(f"{colour} {v}" for v in values)
    head = list(deck or [])
    used.update(head)
    rest = []
    for c in comps.coloured:
        name = comps.card_name(c)
        if used[name] > 0:
            used[name] -= 1
        else:
            rest.append(name)
    full_deck = head + ([] if extra.get("last_turn") else rest)
    released = extra.pop("released", []) + ([] if not extra.get("last_turn") else rest)
    data = {
        "format": FORMAT, "game": "fbi", "version": VERSION, "rules": rules.to_dict(), "players": players,
        "seed": 0, "turn": turn, "handcuffs": handcuffs, "first_handcuffs": extra.pop("first_handcuffs", handcuffs),
        "last_turn": extra.pop("last_turn", False), "deck": full_deck,
        "table": {c: table.get(c, []) for c in comps.colours},
        "slammers": {s: slammers.get(s, []) for s in seats}, "released": released,
        "phase": phase, "step": 0, "bids": {}, "order": [], "pairs": {}, "agents": {}, "played": {},
    }
    data.update(extra)
    return data


def state(log: bool = False, **kw: Any) -> FbiState:
    return load_position(position(**kw), log=log)


def arrests(s: FbiState, turn: int = 1) -> list[tuple[str, str | None]]:
    """(seat, card name or None for a pass) of a turn's arrests, from the log."""
    assert s.log is not None
    return [(e["seat"], e["card"]) for e in s.log if e["t"] == "arrest" and e["turn"] == turn]


def seat(name: str) -> int:
    return SEAT_NAMES.index(name)


def card(s: FbiState, name: str, owner: str | None = None) -> int:
    """The id of a card by name, in ``owner``'s slammer if given."""
    pool = s.slammer[seat(owner)] if owner else range(len(s.comps.card_value))
    for c in pool:
        if s.comps.card_name(c) == name:
            return c
    raise KeyError(name)
