"""The public history of a game, event by event, as each seat saw it.

The engine (state.py) records every event a player sees as a compact record
``(kind, round, seat, a, b, c, items)`` in one append-only list per
seat (``GameState.history[seat]``). A public event is the same record in both
lists. An event with a hidden part (Angela's start city, the value of a token
placed face down, which checks were drawn, a hand dealt) is recorded in full
for the seat that knows it and as :func:`mask` of it for the other seat;
Angela's steps are in her list only (the public learns a movement's outcome
from its announcement, R15). So a seat's list holds exactly what that seat
has seen (R24, R25), and nothing in it changes once recorded.

A strategy reads it as ``View.history``, a sequence of :class:`Event`
(see view.py): records are decoded into named fields only when read, so a
game whose strategies never look costs only the recording. What each field
means for each kind is documented in docs/strategies.md ("What a strategy
can know") and in ``FIELDS`` below.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

# A record as the engine stores it: (kind, round, seat, a, b, c, items). The
# card an event belongs to is not stored: it is the card of the last "card"
# record of the round (card_at), which keeps recording cheap.
Record = tuple[str, int, int, Any, Any, Any, tuple[Any, ...]]


class Event(NamedTuple):
    """One event of the game as one seat saw it. Unused fields keep their
    defaults (-1, False, "", ()). Cities, continents, routes and checks are
    the engine's indexes (``comps.cities[city]``, ``comps.continents[k].id``,
    ``comps.route_name(route)``, ``comps.checks[check]``); identities and
    upgrades are their ids."""

    round: int  # 0 during setup, then the round number
    kind: str  # one of FIELDS' keys
    seat: int  # who acts (0 Angela, 1 Jessah), -1 for nobody
    card: int  # round position of the card the event belongs to, -1 outside the cards
    city: int = -1
    continent: int = -1
    route: int = -1
    from_route: int = -1
    check: int = -1
    half: int = -1
    value: int = -1
    found: bool = False
    name: str = ""
    items: tuple[Any, ...] = ()


# kind -> the Event fields that the record's a, b, c fill (None: unused).
FIELDS: dict[str, tuple[str | None, str | None, str | None]] = {
    "deal": ("value", None, None),  # value: checks dealt; items: the hand (own seat only)
    "jessah_start": ("city", "check", None),  # the check shown (R19) and her city
    "setup_radar": ("continent", None, None),
    "angela_start": ("continent", "check", "city"),  # city: hers only (-1 for Jessah)
    "round_start": (None, None, None),  # seat: the initiative; items: the round's card ids
    "token_placed": ("card", "half", "value"),  # value: -1 for the opponent until the card is revealed
    "card": ("card", None, None),  # revealed: items = per half, (seat, value) or None
    "draw": ("value", None, None),  # value: how many; items: the checks (own seat only)
    "joker": ("name", None, None),  # name: "check", "bank", "security", "movement" or "pass"
    "cash": ("check", "city", None),  # Angela's cash reveals her city (R8)
    "radar": ("continent", None, None),
    "barrier": ("route", None, None),
    "barrier_moved": ("from_route", "route", None),
    "security_gain": ("value", None, None),  # value: her security after it
    "security_set": ("value", None, None),  # the Secret Agent's escape
    "security_spent": ("name", "continent", "route"),  # name: "radar" (continent) or "barrier" (route)
    "jessah_move": ("city", None, None),
    "inspect": ("city", "found", None),
    "angela_step": ("city", None, None),  # Angela's own list only
    "announce": ("value", "name", None),  # value: steps; name: "", "escape" or "journalist";
    # items: the triggers as (continent, city or -1) (R14, R15)
    "capture": ("city", "value", None),  # value: captures so far
    "identity": ("name", None, None),  # the identity burnt (R22)
    "upgrade": ("name", None, None),  # seat: who chose it; items: upgrade ids face up after
    "upgrade_destroyed": ("name", None, None),
    "no_upgrade_left": (None, None, None),  # R9
    "wiretap": (None, None, None),  # items: Angela's hand, shown
    "satellite_sweep": ("continent", None, None),
    "informant": ("city", "found", None),  # found: she is in the city or next to it
    "lawyer_discard": ("name", "continent", "route"),
    "black_radar": ("continent", None, None),
    "black_barrier": ("route", None, None),
    "black_removed": ("name", "continent", "route"),
    "round_end": (None, None, None),
}

# Kinds with a part hidden from the seat that did not act: what the other
# seat's copy hides (see mask).
SECRET: Final = frozenset({"deal", "angela_start", "token_placed", "draw", "angela_step"})

# Final: compiled code reads these as constants, not from the module's dict.
_INDEX = {name: i for i, name in enumerate(Event._fields)}
_DEFAULTS: Final = tuple(Event._field_defaults.get(n, -1) for n in Event._fields)
# kind -> ((a's position in Event, b's, c's), with -1 for unused)
_SLOTS: Final[dict[str, tuple[int, int, int]]] = {
    k: (-1 if a is None else _INDEX[a], -1 if b is None else _INDEX[b], -1 if c is None else _INDEX[c])
    for k, (a, b, c) in FIELDS.items()
}
_FOUND: Final = _INDEX["found"]
# kinds whose record stores ``found`` as 0/1
_FLAGGED: Final = frozenset(k for k, slots in _SLOTS.items() if _FOUND in slots)


# Kinds outside the cards of a round: their card is -1, and an event after
# one of them (and before a "card" record) belongs to no card.
_NO_CARD: Final = frozenset({"deal", "jessah_start", "setup_radar", "angela_start", "round_start", "token_placed",
                      "round_end"})


def card_at(records: list[Record], i: int) -> int:
    """The card record ``i`` belongs to (module doc)."""
    r = records[i]
    if r[0] == "card" or r[0] == "token_placed":
        return int(r[3])
    return _card_after(records, i)


def _card_after(records: list[Record], i: int) -> int:
    """The card in resolution once record ``i`` happened: that of the last
    "card" record at or before ``i`` in its round, else -1 (a few records
    back at most)."""
    for j in range(i, -1, -1):
        k = records[j][0]
        if k == "card":
            return int(records[j][3])
        if k in _NO_CARD:
            return -1
    return -1  # a position loaded without its history: unknown


_NEW_TUPLE: Final[Any] = tuple.__new__


def decode(r: Record, card: int) -> Event:
    """The Event of a record, which belongs to ``card``."""
    kind = r[0]
    out = list(_DEFAULTS)
    out[0] = r[1]
    out[1] = kind
    out[2] = r[2]
    out[3] = card
    a, b, c = _SLOTS[kind]
    if a >= 0:
        out[a] = r[3]
    if b >= 0:
        out[b] = r[4]
    if c >= 0:
        out[c] = r[5]
    if kind in _FLAGGED:
        out[_FOUND] = bool(out[_FOUND])
    out[-1] = r[6]
    # Event._make(out) without its Python-level frame and length check (out
    # has every field: it started as _DEFAULTS)
    ev: Event = _NEW_TUPLE(Event, out)
    return ev


def decode_range(records: list[Record], start: int, stop: int, skip: frozenset[str] | None = None) -> list[Event]:
    """Events ``start`` to ``stop`` (exclusive) of a record list, in order;
    with ``skip``, those of its kinds left out (never decoded)."""
    out: list[Event] = []
    card = _card_after(records, start - 1) if start > 0 else -1
    for i in range(start, stop):
        r = records[i]
        k = r[0]
        if k == "card":
            card = int(r[3])
        elif k in _NO_CARD:
            card = -1
        if skip is not None and k in skip:
            continue
        out.append(decode(r, int(r[3]) if k == "token_placed" else card))
    return out


def mask(r: Record) -> Record | None:
    """The record as the seat that did not act sees it (None: not at all).
    A public record is returned unchanged."""
    kind = r[0]
    if kind not in SECRET:
        return r
    if kind == "angela_step":
        return None
    if kind == "angela_start":
        return (kind, r[1], r[2], r[3], r[4], -1, ())
    if kind == "token_placed":
        return (kind, r[1], r[2], r[3], r[4], -1, ())
    return (kind, r[1], r[2], r[3], -1, -1, ())  # deal, draw: the count only


def public(records: list[Record], seat: int) -> list[Record]:
    """``seat``'s list with her own hidden parts masked and her steps left
    out: the events as anyone saw them. It is also what her opponent saw,
    short of his own hidden parts; samples and concealed copies give it to
    the opponent, so they carry no secret of his."""
    out: list[Record] = []
    for r in records:
        if r[0] in SECRET and r[2] == seat:
            m = mask(r)
            if m is not None:
                out.append(m)
        else:
            out.append(r)
    return out
