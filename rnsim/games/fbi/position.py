"""FBI positions: a state saved as readable JSON and loaded back.

Cards are named as the rulebook shows them (``"red 4"``, ``"purple -3"``),
seats by name (``"ann"``), agents by colour (``"2x"`` for the doubler). The
deck is listed in draw order (the first entry is placed next). Equal cards
(same colour and value) are interchangeable: a loaded position may number
them differently; no rule depends on the numbering. The pending decision is
not stored: the engine recomputes it from ``phase`` and ``step``; the saved
``decision`` is checked against it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rnsim.errors import PositionError, RnsimError
from rnsim.games.fbi.components import PURPLE, Components
from rnsim.games.fbi.rules import FbiRules
from rnsim.games.fbi.state import NO_CARD, NOT_YET, PHASES, SEAT_NAMES, FbiState, check_players

FORMAT = "rnsim-position"
VERSION = 1


def save_position(state: FbiState) -> dict[str, Any]:
    comps = state.comps
    n = state.n
    seats = SEAT_NAMES[:n]

    def names(cards: list[int]) -> list[str]:
        return [comps.card_name(c) for c in cards]

    def bid(b: int) -> str | None:
        return None if b == NOT_YET else "none" if b == NO_CARD else comps.card_name(b)

    d = state.pending
    return {
        "format": FORMAT,
        "game": "fbi",
        "version": VERSION,
        "rules": state.rules.to_dict(),
        "players": n,
        "seed": state.seed,
        "turn": state.turn,
        "handcuffs": seats[state.handcuffs],
        "first_handcuffs": seats[state.first_handcuffs],
        "last_turn": state.last_turn,
        "deck": names(state.deck),
        "table": {comps.colours[c]: [comps.card_value[x] for x in t] for c, t in enumerate(state.table)},
        # A slammer (and the released pile) is a multiset: cards of the same
        # colour and value are interchangeable, so they are written in one
        # canonical order and a loaded position plays on exactly as the original.
        "slammers": {seats[s]: sorted(names(state.slammer[s])) for s in range(n)},
        "released": sorted(names(state.released)),
        "phase": PHASES[state.phase],
        "step": state.step,
        "bids": {seats[s]: bid(state.bids[s]) for s in range(n)} if state.bids else {},
        "order": [seats[s] for s in state.order],
        "pairs": {seats[s]: (list(p) if p else None) for s, p in enumerate(state.pairs)},
        "agents": {seats[s]: [comps.colours[c] for c in a] for s, a in enumerate(state.agents)},
        "played": {seats[s]: [comps.colours[c] for c in p] for s, p in enumerate(state.played)},
        "arrests": [[seats[s], None if c < 0 else comps.card_name(c)] for s, c in state.arrests],
        "decision": None if d is None else {"seat": seats[d.seat], "kind": d.kind},
    }


class _Loader:
    def __init__(self, comps: Components, source: str) -> None:
        self.comps = comps
        self.source = source
        self.pool: dict[tuple[int, int], list[int]] = {}
        for c in range(len(comps.card_value)):
            self.pool.setdefault((comps.card_colour[c], comps.card_value[c]), []).append(c)

    def err(self, key: str, msg: str) -> PositionError:
        return PositionError(f"{self.source}: {key}: {msg}")

    def card(self, name: Any, key: str) -> int:
        parts = str(name).split()
        comps = self.comps
        try:
            colour = PURPLE if parts[0] == "purple" else comps.colours.index(parts[0])
            value = int(parts[1])
            if len(parts) != 2:
                raise ValueError
        except (ValueError, IndexError):
            raise self.err(key, f"{name!r} is not a card (e.g. \"red 4\", \"purple -2\")") from None
        ids = self.pool.get((colour, value))
        if not ids:
            raise self.err(key, f"no {name} left in the component set (each card appears once)")
        return ids.pop(0)

    def cards(self, names: Any, key: str) -> list[int]:
        if not isinstance(names, list):
            raise self.err(key, "must be a list of cards")
        return [self.card(x, f"{key}[{i}]") for i, x in enumerate(names)]

    def seat(self, name: Any, n: int, key: str) -> int:
        if name not in SEAT_NAMES[:n]:
            raise self.err(key, f"must be one of {', '.join(SEAT_NAMES[:n])}, got {name!r}")
        return SEAT_NAMES.index(name)

    def colour(self, name: Any, key: str) -> int:
        if name not in self.comps.colours:
            raise self.err(key, f"must be a colour ({', '.join(self.comps.colours)}), got {name!r}")
        return self.comps.colours.index(name)


def load_position(data: Mapping[str, Any], rules: FbiRules | None = None, log: bool = False,
                  source: str = "position") -> FbiState:
    try:
        return _load(data, rules, log, source)
    except PositionError:
        raise
    except RnsimError as e:
        raise PositionError(f"{source}: {e}") from None
    except (KeyError, TypeError, ValueError) as e:
        raise PositionError(f"{source}: malformed FBI position ({type(e).__name__}: {e})") from None


def _load(data: Mapping[str, Any], rules: FbiRules | None, log: bool, source: str) -> FbiState:
    if not isinstance(data, Mapping) or data.get("format") != FORMAT or data.get("game") != "fbi":
        raise PositionError(f"{source}: not an FBI position (needs format {FORMAT!r} and game \"fbi\")")
    if data.get("version") != VERSION:
        raise PositionError(f"{source}: version: this rnsim reads FBI positions of version {VERSION}")
    if rules is None:
        rules = FbiRules.from_mapping(dict(data["rules"]), source=f"{source}: rules")
    comps = rules.load_components()
    n = check_players(data["players"], comps, f"{source}: players")
    ld = _Loader(comps, source)
    s = FbiState()
    s.bind(rules, comps)
    s.n = n
    s.seed = int(data.get("seed", 0))
    s.log = [] if log else None
    s.turn = int(data["turn"])
    s.handcuffs = ld.seat(data["handcuffs"], n, "handcuffs")
    s.first_handcuffs = ld.seat(data["first_handcuffs"], n, "first_handcuffs")
    s.last_turn = bool(data["last_turn"])
    s.deck = ld.cards(data["deck"], "deck")
    s.table = [[] for _ in comps.colours]
    table = data["table"]
    for cname, values in table.items():
        c = ld.colour(cname, f"table.{cname}")
        s.table[c] = [ld.card(f"{cname} {v}", f"table.{cname}") for v in values]
    seats = SEAT_NAMES[:n]
    s.slammer = [ld.cards(data["slammers"].get(name, []), f"slammers.{name}") for name in seats]
    s.released = ld.cards(data["released"], "released")
    unused = {c for ids in ld.pool.values() for c in ids}
    left = [c for c in comps.coloured if c in unused]
    if left:
        raise ld.err("deck", f"{len(left)} coloured cards are nowhere (deck, table, slammers, released), "
                     f"e.g. {comps.card_name(left[0])}: every coloured card must be somewhere")
    if data["phase"] not in PHASES:
        raise ld.err("phase", f"must be one of {', '.join(PHASES)}, got {data['phase']!r}")
    s.phase = PHASES.index(data["phase"])
    s.step = int(data["step"])
    bids = data.get("bids") or {}
    s.bids = [NOT_YET] * n
    for name, b in bids.items():
        seat = ld.seat(name, n, "bids")
        if b is None:
            continue
        # a bid card has already left the slammer once the order is set
        s.bids[seat] = NO_CARD if b == "none" else _bid_card(ld, s, seat, b)
    s.order = [ld.seat(x, n, "order") for x in data.get("order", [])]
    s.pairs = [None] * n
    s.agents = [[] for _ in range(n)]
    s.played = [[] for _ in range(n)]
    for name, p in (data.get("pairs") or {}).items():
        s.pairs[ld.seat(name, n, "pairs")] = None if p is None else tuple(p)
    for name, a in (data.get("agents") or {}).items():
        s.agents[ld.seat(name, n, "agents")] = [ld.colour(x, f"agents.{name}") for x in a]
    for name, p in (data.get("played") or {}).items():
        s.played[ld.seat(name, n, "played")] = [ld.colour(x, f"played.{name}") for x in p]
    s.arrests = []
    for i, (name, card) in enumerate(data.get("arrests") or []):
        seat = ld.seat(name, n, f"arrests[{i}]")
        s.arrests.append((seat, -1 if card is None else _owned(ld, s.slammer[seat], card, f"arrests[{i}]")))
    s.pending, s.over, s.scores, s.bonus_to, s.decisions = None, False, [], [], 0
    if s.phase == PHASES.index("over"):
        s._score()
    else:
        s._advance()
    saved = data.get("decision")
    d = s.pending
    now = None if d is None else {"seat": SEAT_NAMES[d.seat], "kind": d.kind}
    if saved is not None and saved != now:
        raise ld.err("decision", f"the position's pending decision is {now}, but the file says {saved}")
    return s


def _owned(ld: _Loader, cards: list[int], name: str, key: str) -> int:
    for c in cards:
        if ld.comps.card_name(c) == name:
            return c
    raise ld.err(key, f"{name!r} is not in that player's slammer")


def _bid_card(ld: _Loader, s: FbiState, seat: int, name: str) -> int:
    """The id of a bid card: in the bidder's slammer while bidding, among the
    released cards once the order is set."""
    comps = ld.comps
    where = s.slammer[seat] + s.released
    for c in where:
        if comps.card_name(c) == name:
            return c
    raise ld.err(f"bids.{SEAT_NAMES[seat]}", f"{name!r} is neither in the slammer nor released")
