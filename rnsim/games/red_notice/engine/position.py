"""Positions: a GameState saved as readable JSON, and loaded back.

A position names things the way the rulebook does: cities by name, continents
by id (``"AF"``), routes as ``"City|City"``, checks as ``{"colour", "value"}``,
identities and upgrades by id, action cards by their halves (``"B|M1"``),
tokens by value with ``"POW"`` for POW!. Decks are listed bottom first: the
last entry is the top card.

What a position holds is everything the engine needs to continue exactly
where it was saved: the pending resolution frames (``stack``) and the chance
stream (``rng``), so a loaded position plays on identically to the original
with the same strategies. A frame is saved as its kind and its fields in the
order of its class's ``FIELDS`` (rnsim/games/red_notice/engine/frames.py); a
hand-written position may give the fields as a table by name instead,
e.g. ``{"frame": "bank", "fields": {"seat": 0}}``. The pending decision itself is not stored: the
engine recomputes it from the top frame on load (step handlers are
idempotent once their frame is set up), and ``decision`` in the file is only
checked against it.

Checks alike (same colour and value) are interchangeable pieces: a loaded
position may number them differently from the state that was saved. No rule
depends on the numbering; a strategy that broke ties by check id could.

The history each seat has seen (``history``, engine/history.py) is saved
too, as two lists of events in the same names, one per seat: a position
cannot be replayed from its past, so the past is kept. A position written
before histories existed (or by hand without ``history``) loads with empty
histories: its views start their history at the position.

Designers use positions to study a situation; the tests build rule cases
from them (tests/games/red_notice/scenario.py).
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal

import msgspec
from msgspec import UNSET, Meta, UnsetType

from rnsim.errors import PositionError, RnsimError, did_you_mean
from rnsim.games.red_notice.engine.decision import SEATS
from rnsim.games.red_notice.engine.frames import KINDS, Frame, Move
from rnsim.games.red_notice.engine.history import FIELDS as EVENT_FIELDS
from rnsim.games.red_notice.engine.history import Record
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules.components import BLACK, POW, WHITE, Components
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.schema import Problem, SchemaError, Table, convert

FORMAT = "rnsim-position"
VERSION = 1

SIDES = {WHITE: "white", BLACK: "black"}
_SIDE_OF = {v: k for k, v in SIDES.items()}

# Frame classes by their name in a position (frames.KINDS), so a new frame
# kind needs no change here.
FRAMES: dict[str, type[Frame]] = {k.NAME: k for k in KINDS}

# Every slot of GameState, and how a position covers it. tests/games/red_notice/test_position.py
# fails when the engine gains a slot this module does not know about.
SAVED = frozenset({
    "rules", "seed", "angela_city", "jessah_city", "radars", "barriers", "radar_pending",
    "deck", "hands", "cashed", "security", "identities_up", "identities_down", "captures",
    "upgrade_deck", "upgrades_face_up", "permanents", "upgrades_gone", "round", "initiative",
    "action_deck", "round_cards", "token_pool", "token_hand", "slots", "revealed", "spent",
    "stack", "over", "winner", "end_reason", "belief", "last_seen", "last_announcement",
    "revealed_hand", "stats", "cash_by_round", "captures_by_round", "upgrade_rounds", "burnt", "rng",
    "history",
})
DERIVED = frozenset({"comps", "n_radars", "n_barriers", "cash_total", "pending", "log", "recording",
                     # the views' shared tuples (GameState.radars_tuple, public_sets), built on first use
                     "_radars_t", "_barriers_t", "_open_t", "_public_t", "_seat_t", "_deal_t"})


# ------------------------------------------------------------------- schema
# The file's tables (rnsim.schema): keys, types and the ranges that do not
# depend on the rules. A name (city, continent, route, check, identity,
# upgrade, card) is read by _Names, whose message lists the names the
# component set knows; counts, supplies and the rules' ranges are code below.

_WHOLE0 = Annotated[int, Meta(ge=0)]
_WHOLE1 = Annotated[int, Meta(ge=1)]
_TOKEN = Annotated[Annotated[int, Meta(ge=0, le=POW - 1)] | Literal["POW"], Meta(description='a whole number 0..999 or "POW"')]
_SIDE = Literal["white", "black"]


_ACTION_CARDS_LIST = Annotated[list[Any], Meta(description="a list of action cards")]
_CHECKS_LIST = Annotated[list[Any], Meta(description="a list of checks")]
_CITY_NAMES_LIST = Annotated[list[Any], Meta(description="a list of city names")]
_CONTINENT_IDS_LIST = Annotated[list[Any], Meta(description="a list of continent ids")]
_EVENTS_LIST = Annotated[list[Any], Meta(description="a list of events")]
_IDENTITY_IDS_LIST = Annotated[list[Any], Meta(description="a list of identity ids")]
_UPGRADES_LIST = Annotated[list[Any], Meta(description="a list of upgrades")]
_WHOLE_NUMBERS_LIST = Annotated[list[int], Meta(description="a list of whole numbers")]
_TOKENS_LIST = Annotated[list[_TOKEN], Meta(description='a list of token values (numbers or "POW")')]


class _Angela(Table):
    city: Any
    hand: _CHECKS_LIST = []
    cashed: _CHECKS_LIST = []
    security: int | UnsetType = UNSET  # 0..security_cap; left out: the rules' start
    identities_up: _IDENTITY_IDS_LIST = []
    identities_down: _IDENTITY_IDS_LIST = []
    burnt: _IDENTITY_IDS_LIST = []
    captures: _WHOLE0 = 0


class _Jessah(Table):
    city: Any
    hand: _CHECKS_LIST = []
    cashed: _CHECKS_LIST = []


class _Board(Table):
    radars: Annotated[dict[str, _SIDE], Meta(description='a table continent = "white"|"black"')] = {}
    barriers: Annotated[dict[str, _SIDE], Meta(description='a table "City|City" = "white"|"black"')] = {}
    radars_triggered: _CONTINENT_IDS_LIST = []


class _Upgrades(Table):
    deck: _UPGRADES_LIST = []
    face_up: _UPGRADES_LIST = []
    permanent: _UPGRADES_LIST = []
    gone: _UPGRADES_LIST = []
    gained_round: Annotated[dict[str, _WHOLE1], Meta(description="a table upgrade id = round")] = {}


class _ActionCards(Table):
    deck: _ACTION_CARDS_LIST = []
    round: _ACTION_CARDS_LIST = []
    # default: nothing on the round's cards, none revealed
    slots: Annotated[list[Any], Meta(description="one [half 0, half 1] pair per card of the round")] | UnsetType = UNSET
    revealed: Annotated[list[bool], Meta(description="one true/false per card")] | UnsetType = UNSET


class _SeatTokens(Table):
    pool: _TOKENS_LIST = []
    hand: _TOKENS_LIST = []
    spent: _TOKENS_LIST = []


class _Tokens(Table):
    angela: _SeatTokens = msgspec.field(default_factory=_SeatTokens)
    jessah: _SeatTokens = msgspec.field(default_factory=_SeatTokens)


class _LastSeen(Table):
    continent: Any
    round: _WHOLE0
    city: Any = None


class _Announced(Table):
    continent: Any
    city: Any = None


class _RevealedHand(Table):
    round: _WHOLE1
    hand: _CHECKS_LIST


class _Public(Table):
    belief: _CITY_NAMES_LIST | UnsetType = UNSET  # left out: every city
    last_seen: _LastSeen | None = None
    last_announcement: Annotated[list[_Announced], Meta(description="a list of {continent, city}")] = []
    revealed_hand: _RevealedHand | None = None


class _ByRound(Table):
    angela_cash: _WHOLE_NUMBERS_LIST = []
    jessah_cash: _WHOLE_NUMBERS_LIST = []
    captures: _WHOLE_NUMBERS_LIST = []


class _Placed(Table):
    """A token on a card half."""

    seat: Any
    value: _TOKEN


class _CheckName(Table):
    colour: Any
    value: _WHOLE1


class _Frame(Table):
    frame: Any
    fields: Any


class _History(Table):
    angela: _EVENTS_LIST = []
    jessah: _EVENTS_LIST = []


_RNG = Annotated[tuple[int, list[Annotated[int, Meta(ge=0, le=2**32 - 1)]],
                       Annotated[int | float | None, Meta(description="a number or null")]],
                 Meta(description="a random.Random state saved by rnsim: [version, [625 numbers], null]")]


class PositionFile(Table):
    """A position file's top level."""

    angela: _Angela
    jessah: _Jessah
    format: Any = FORMAT
    version: Any = VERSION
    rules: Annotated[dict[str, Any], Meta(description="a table of rule knobs")] = {}
    seed: _WHOLE0 = 0
    round: int = 1  # 1..max_rounds
    initiative: Any = "angela"
    over: bool = False
    winner: Any = None
    end_reason: Any = None
    decision: Any = None
    board: _Board = msgspec.field(default_factory=_Board)
    check_deck: _CHECKS_LIST = []
    upgrades: _Upgrades = msgspec.field(default_factory=_Upgrades)
    action_cards: _ActionCards = msgspec.field(default_factory=_ActionCards)
    tokens: _Tokens = msgspec.field(default_factory=_Tokens)
    public: _Public = msgspec.field(default_factory=_Public)
    stats: Annotated[dict[str, _WHOLE0], Meta(description="a table of counters")] = {}
    by_round: _ByRound = msgspec.field(default_factory=_ByRound)
    stack: Annotated[list[_Frame], Meta(description="a list of {frame, fields}")] = []
    rng: _RNG | UnsetType = UNSET  # left out: seeded from ``seed``
    history: _History = msgspec.field(default_factory=_History)


# ------------------------------------------------------------------- saving


def save_position(game: GameState) -> dict[str, Any]:
    """The position of ``state`` as a JSON-ready dict (nothing is shared with the state)."""
    # GameState declares its fields as __slots__ only; read them untyped.
    state: Any = game
    comps = state.comps
    city = _city_namer(comps)
    chk = _check_namer(comps)
    conts = [c.id for c in comps.continents]
    cards = [_card_label(comps, i) for i in range(len(comps.cards))]
    ups = comps.upgrade_cards

    def seat_block(seat: int) -> dict[str, Any]:
        return {
            "city": city(state.angela_city if seat == 0 else state.jessah_city),
            "hand": [chk(c) for c in state.hands[seat]],
            "cashed": [chk(c) for c in state.cashed[seat]],
        }

    angela = seat_block(0)
    angela.update({
        "security": state.security,
        "identities_up": [comps.identities[i].id for i in state.identities_up],
        "identities_down": [comps.identities[i].id for i in state.identities_down],
        "burnt": list(state.burnt),
        "captures": state.captures,
    })
    last_seen = None
    if state.last_seen is not None:
        c, k, rnd = state.last_seen
        last_seen = {"city": city(c), "continent": conts[k], "round": rnd}
    revealed_hand = None
    if state.revealed_hand is not None:
        rnd, hand = state.revealed_hand
        revealed_hand = {"round": rnd, "hand": [chk(c) for c in hand]}
    d = state.pending
    out: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": state.rules.to_dict(),
        "seed": state.seed,
        "round": state.round,
        "initiative": SEATS[state.initiative],
        "over": state.over,
        "winner": None if state.winner is None else SEATS[state.winner],
        "end_reason": state.end_reason,
        "decision": None if d is None else {"seat": SEATS[d.seat], "kind": d.kind},
        "angela": angela,
        "jessah": seat_block(1),
        "board": {
            "radars": {conts[k]: SIDES[r] for k, r in enumerate(state.radars) if r},
            "barriers": {comps.route_name(r): SIDES[b] for r, b in enumerate(state.barriers) if b},
            # white radars triggered by the movement in progress, returned when it ends
            "radars_triggered": [conts[k] for k in range(len(conts)) if state.radar_pending >> k & 1],
        },
        "check_deck": [chk(c) for c in state.deck],
        "upgrades": {
            "deck": [ups[u].id for u in state.upgrade_deck],
            "face_up": [ups[u].id for u in state.upgrades_face_up],
            "permanent": [ups[u].id for u in state.permanents],
            "gone": [ups[u].id for u in state.upgrades_gone],
            "gained_round": dict(state.upgrade_rounds),
        },
        "action_cards": {
            "deck": [cards[c] for c in state.action_deck],
            "round": [cards[c] for c in state.round_cards],
            "slots": [[None if s is None else {"seat": SEATS[s[0]], "value": _token_out(s[1])} for s in pair]
                      for pair in state.slots],
            "revealed": list(state.revealed),
        },
        "tokens": {
            SEATS[seat]: {
                "pool": [_token_out(v) for v in state.token_pool[seat]],
                "hand": [_token_out(v) for v in state.token_hand[seat]],
                "spent": [_token_out(v) for v in state.spent[seat]],
            }
            for seat in (0, 1)
        },
        "public": {
            "belief": [comps.cities[c] for c in range(comps.n_cities) if state.belief >> c & 1],
            "last_seen": last_seen,
            "last_announcement": [{"continent": conts[k], "city": city(c)} for k, c in state.last_announcement],
            "revealed_hand": revealed_hand,
        },
        "stats": dict(state.stats),
        "by_round": {
            "angela_cash": list(state.cash_by_round[0]),
            "jessah_cash": list(state.cash_by_round[1]),
            "captures": list(state.captures_by_round),
        },
        "stack": [frame_out(f) for f in state.stack],
        "rng": _jsonable(state.rng.getstate()),
        "history": {SEATS[seat]: [_event_out(comps, e) for e in state.history[seat]] for seat in (0, 1)},
    }
    return out


def to_json(state: GameState, path: str | Path) -> None:
    """Write the position of ``state`` to a JSON file."""
    Path(path).write_text(json.dumps(save_position(state), indent=1) + "\n")


def from_json(path: str | Path, rules: RuleSet | None = None, log: bool = False) -> GameState:
    """Load a position from a JSON file (see :func:`load_position`)."""
    p = Path(path)
    try:
        data = json.loads(p.read_text())
    except (OSError, ValueError) as e:
        raise PositionError(f"{p}: cannot read a JSON position: {e}") from None
    return load_position(data, rules=rules, log=log, source=str(p))


# ------------------------------------------------------------------ loading


def load_position(
    data: dict[str, Any], rules: RuleSet | None = None, log: bool = False, source: str = "position"
) -> GameState:
    """A GameState from a position dict, ready at its pending decision.

    ``rules`` overrides the rules stored in the position (the component set
    must name the same pieces). ``log=True`` starts an empty event log.
    A malformed position raises PositionError naming the key and the problem.
    """
    r = _Reader(source)
    doc: PositionFile = r.read(data, PositionFile)
    if doc.format != FORMAT:
        raise r.err("format", f"must be {FORMAT!r}, got {doc.format!r}")
    if doc.version != VERSION:
        raise r.err("version", f"this rnsim reads version {VERSION}, got {doc.version!r}")
    if rules is None:
        try:
            rules = RuleSet.from_mapping(doc.rules, source=f"{source}: rules")
        except RnsimError as e:
            raise PositionError(str(e)) from None
    comps = rules.load_components()
    s: Any = GameState()
    s.rules, s.comps = rules, comps
    s.log = [] if log else None
    s.seed = doc.seed
    s.round = r.int_(doc.round, "round", 1, rules.max_rounds)
    s.initiative = r.seat(doc.initiative, "initiative")
    ids = _Names(r, comps)
    checks = _pieces(s, r, ids, doc)
    _board(s, r, ids, doc.board)
    _upgrades(s, r, ids, doc.upgrades)
    _action_cards(s, r, ids, doc.action_cards)
    _tokens(s, r, doc.tokens)
    _public(s, ids, doc.public, checks)
    _results(s, r, ids, doc)
    _stack(s, r, doc)
    _resume(s, r, doc)
    result: GameState = s
    return result


def _pieces(s: Any, r: _Reader, ids: _Names, doc: PositionFile) -> _Allocator:
    """Both seats' cities, checks, security, identities and captures; the checks' allocator."""
    comps, rules = s.comps, s.rules
    a, j = doc.angela, doc.jessah
    s.angela_city = ids.city(a.city, "angela.city", allow_none=True)
    s.jessah_city = ids.city(j.city, "jessah.city", allow_none=True)
    checks = _Allocator(r, [comps.continents[c.continent].colour + f" ${c.value // 1000}k" for c in comps.checks],
                        "check")
    s.hands = [checks.many(a.hand, "angela.hand", ids.check_key), checks.many(j.hand, "jessah.hand", ids.check_key)]
    s.cashed = [checks.many(a.cashed, "angela.cashed", ids.check_key),
                checks.many(j.cashed, "jessah.cashed", ids.check_key)]
    for seat in (0, 1):
        if len(s.hands[seat]) > rules.hand_limit:
            raise r.err(f"{SEATS[seat]}.hand", f"holds {len(s.hands[seat])} checks; the hand limit is {rules.hand_limit}")
    s.deck = checks.many(doc.check_deck, "check_deck", ids.check_key)
    checks.require_all("check_deck")
    s.cash_total = [sum(comps.checks[c].value for c in s.cashed[0]), sum(comps.checks[c].value for c in s.cashed[1])]
    security = rules.security_start if a.security is UNSET else a.security
    s.security = r.int_(security, "angela.security", 0, rules.security_cap)
    s.identities_up = sorted(ids.identities(a.identities_up, "angela.identities_up"))
    s.identities_down = ids.identities(a.identities_down, "angela.identities_down")
    both = s.identities_up + s.identities_down
    if len(set(both)) != len(both):
        raise r.err("angela.identities_down", "an identity is both face up and face down, or listed twice")
    s.burnt = [comps.identities[i].id for i in ids.identities(a.burnt, "angela.burnt")]
    s.captures = a.captures
    # Each capture burns an identity; the one after the last is the arrest that ends the game (R22).
    most = rules.identities_per_game + (1 if doc.over else 0)
    if s.captures > most:
        raise r.err("angela.captures", f"at most {most} in a game {'that ended' if most > rules.identities_per_game else 'still going'} "
                    f"(one per identity, then the arrest, R22), got {s.captures}")
    return checks


def _board(s: Any, r: _Reader, ids: _Names, board: _Board) -> None:
    """Radars and barriers on the board, within Jessah's supplies."""
    comps = s.comps
    s.radars = [0] * comps.n_continents
    for key, side in board.radars.items():
        s.radars[ids.continent(key, f"board.radars.{key}")] = _SIDE_OF[side]
    s.barriers = [0] * len(comps.routes)
    for key, side in board.barriers.items():
        s.barriers[ids.route(key, f"board.barriers.{key}")] = _SIDE_OF[side]
    s.n_radars = sum(1 for x in s.radars if x)
    s.n_barriers = sum(1 for x in s.barriers if x)
    if s.n_radars > comps.radar_supply:
        raise r.err("board.radars", f"{s.n_radars} radars on the board; Jessah owns {comps.radar_supply}")
    if s.n_barriers > comps.barrier_supply:
        raise r.err("board.barriers", f"{s.n_barriers} barriers on the board; Jessah owns {comps.barrier_supply}")
    s.radar_pending = 0
    for i, key in enumerate(board.radars_triggered):
        k = ids.continent(key, f"board.radars_triggered[{i}]")
        if s.radars[k] != WHITE:
            raise r.err(f"board.radars_triggered[{i}]", f"no white radar on {key}")
        s.radar_pending |= 1 << k


def _upgrades(s: Any, r: _Reader, ids: _Names, up: _Upgrades) -> None:
    """Jessah's upgrade deck, the face-up, permanent and gone cards."""
    comps = s.comps
    ucards = _Allocator(r, [u.id for u in comps.upgrade_cards], "upgrade")
    s.upgrade_deck = ucards.many(up.deck, "upgrades.deck", ids.upgrade_key)
    s.upgrades_face_up = ucards.many(up.face_up, "upgrades.face_up", ids.upgrade_key)
    s.permanents = ucards.many(up.permanent, "upgrades.permanent", ids.upgrade_key)
    s.upgrades_gone = ucards.many(up.gone, "upgrades.gone", ids.upgrade_key)
    ucards.require_all("upgrades.gone")
    for i, u in enumerate(s.permanents):
        if comps.upgrade_cards[u].kind != "permanent":
            raise r.err(f"upgrades.permanent[{i}]", f"{comps.upgrade_cards[u].id!r} is not a permanent upgrade")
    s.upgrade_rounds = {}
    for key, rnd in up.gained_round.items():
        ids.upgrade_key(key, f"upgrades.gained_round.{key}")
        s.upgrade_rounds[key] = rnd


def _action_cards(s: Any, r: _Reader, ids: _Names, ac: _ActionCards) -> None:
    """The action deck, the round's cards and the tokens on their halves."""
    comps = s.comps
    labels = [_card_label(comps, i) for i in range(len(comps.cards))]
    acards = _Allocator(r, labels, "action card")
    s.action_deck = acards.many(ac.deck, "action_cards.deck", ids.card_key)
    s.round_cards = acards.many(ac.round, "action_cards.round", ids.card_key)
    n = len(s.round_cards)
    raw_slots = [[None, None]] * n if ac.slots is UNSET else ac.slots
    if len(raw_slots) != n:
        raise r.err("action_cards.slots", f"needs one pair per card of the round ({n}), got {len(raw_slots)}")
    s.slots = []
    for i, pair in enumerate(raw_slots):
        key = f"action_cards.slots[{i}]"
        if not isinstance(pair, list) or len(pair) != 2:
            raise r.err(key, f"must be a pair [half 0, half 1] of null or {{seat, value}}, got {pair!r}")
        row = [_token_on(r, sl, f"{key}[{h}]") for h, sl in enumerate(pair)]
        if row[0] is not None and row[1] is not None and row[0][0] == row[1][0]:
            raise r.err(key, "one player's tokens on both halves of a card (R1)")
        s.slots.append(row)
    rev = [False] * n if ac.revealed is UNSET else ac.revealed
    if len(rev) != n:
        raise r.err("action_cards.revealed", f"needs {n} true/false values, got {rev!r}")
    s.revealed = list(rev)


def _tokens(s: Any, r: _Reader, tok: _Tokens) -> None:
    """Each seat's tokens in pool, hand and spent: with those on the board, no more than the set holds."""
    comps = s.comps
    s.token_pool, s.token_hand, s.spent = [[], []], [[], []], [[], []]
    for seat, name in enumerate(SEATS):
        t: _SeatTokens = getattr(tok, name)
        s.token_pool[seat] = [_token_in(v) for v in t.pool]
        s.token_hand[seat] = [_token_in(v) for v in t.hand]
        s.spent[seat] = [_token_in(v) for v in t.spent]
        on_board = [sl[1] for i, pair in enumerate(s.slots) if not s.revealed[i] for sl in pair
                    if sl is not None and sl[0] == seat]
        every = s.token_pool[seat] + s.token_hand[seat] + s.spent[seat] + on_board
        left = list(comps.tokens)
        for v in every:
            if v not in left:
                raise r.err(f"tokens.{name}", f"more {_token_out(v)!r} tokens in pool, hand, spent and on the "
                                              f"board than the set holds ({sorted(comps.tokens)})")
            left.remove(v)


def _public(s: Any, ids: _Names, pub: _Public, checks: _Allocator) -> None:
    """What both seats know: the belief, the last sighting and announcement, a revealed hand."""
    comps = s.comps
    if pub.belief is UNSET:
        s.belief = (1 << comps.n_cities) - 1
    else:
        s.belief = 0
        for i, c in enumerate(pub.belief):
            s.belief |= 1 << ids.city(c, f"public.belief[{i}]")
    s.last_seen = None
    ls = pub.last_seen
    if ls is not None:
        s.last_seen = (ids.city(ls.city, "public.last_seen.city", allow_none=True),
                       ids.continent(ls.continent, "public.last_seen.continent"), ls.round)
    s.last_announcement = tuple(
        (ids.continent(x.continent, f"public.last_announcement[{i}].continent"),
         ids.city(x.city, f"public.last_announcement[{i}].city", allow_none=True))
        for i, x in enumerate(pub.last_announcement))
    s.revealed_hand = None
    rh = pub.revealed_hand
    if rh is not None:
        # The revealed hand is a record of what was shown; its cards may have moved since.
        shown = _Allocator(ids.r, checks.names, "check")
        s.revealed_hand = (rh.round, tuple(shown.many(rh.hand, "public.revealed_hand.hand", ids.check_key)))


def _results(s: Any, r: _Reader, ids: _Names, doc: PositionFile) -> None:
    """Counters, cash and captures by round, and each seat's history."""
    s.stats = {k: 0 for k in _stat_keys()}
    for k, v in doc.stats.items():
        if k not in s.stats:
            raise r.err(f"stats.{k}", f"unknown counter{did_you_mean(k, s.stats)}; counters are: {', '.join(s.stats)}")
        s.stats[k] = v
    br = doc.by_round
    s.cash_by_round = [list(br.angela_cash), list(br.jessah_cash)]
    s.captures_by_round = list(br.captures)
    s.history = [[], []]
    s.recording = True
    for seat, name in enumerate(SEATS):
        events = getattr(doc.history, name)
        s.history[seat] = [_event_in(r, ids, e, f"history.{name}[{i}]") for i, e in enumerate(events)]


def _stack(s: Any, r: _Reader, doc: PositionFile) -> None:
    """Whether the game is over, and the pending frames."""
    s.over = doc.over
    s.winner = None if doc.winner is None else r.seat(doc.winner, "winner")
    end_reason = doc.end_reason
    if s.over and end_reason not in ("million", "arrest", "timeout"):
        raise r.err("end_reason", f'a finished game ends by "million", "arrest" or "timeout", got {end_reason!r}')
    if end_reason not in (None, "million", "arrest", "timeout"):
        raise r.err("end_reason", f'null in a game still going, or "million", "arrest" or "timeout", got {end_reason!r}')
    s.end_reason = end_reason
    s.stack = [_frame(r, f, i) for i, f in enumerate(doc.stack)]


def _frame(r: _Reader, f: _Frame, i: int) -> Frame:
    """Pending frame ``i``: its kind, and its fields as a list (or a table by name)."""
    kind = f.frame
    if not isinstance(kind, str) or kind not in FRAMES:
        raise r.err(f"stack[{i}].frame", f"unknown frame {kind!r}; frames are: {', '.join(FRAMES)}")
    names = FRAMES[kind].FIELDS
    if isinstance(f.fields, dict):
        # A hand-written position may name the fields (saved ones list them in FIELDS order).
        r.read(f.fields, _frame_schema(kind), f"stack[{i}].fields")
        fields = [f.fields[n] for n in names]
        keys = [f"stack[{i}].fields.{n}" for n in names]
    else:
        fields = r.typed(f.fields, list, f"stack[{i}].fields", "a list, or a table of the frame's fields by name")
        keys = [f"stack[{i}].fields[{j}]" for j in range(len(fields))]
    for key, x in zip(keys, fields, strict=True):
        if not _frame_field_ok(x):
            raise r.err(key, f"a frame field is a whole number, null or a list of them, got {x!r}")
    if len(fields) != len(names):
        raise r.err(f"stack[{i}].fields", f"the pending frames do not fit: a {kind!r} frame has "
                                          f"{len(names)} fields ({', '.join(names) or 'none'}), got {fields!r}")
    try:
        return frame_in(kind, **{n: _frozen(x) for n, x in zip(names, fields, strict=True)})
    except TypeError as e:  # the compiled engine checks field types here
        raise r.err(f"stack[{i}].fields", f"the pending frames do not fit: {e}") from None


@functools.cache
def _frame_schema(kind: str) -> Any:
    """A frame's fields by name: every one required."""
    return msgspec.defstruct(f"Frame_{kind}", [(n, Any) for n in FRAMES[kind].FIELDS], bases=(Table,))


def _resume(s: Any, r: _Reader, doc: PositionFile) -> None:
    """The chance stream, and the game advanced to its pending decision (the one asked for, if named)."""
    comps = s.comps
    if not s.over and not s.stack:
        raise r.err("stack", "a game in progress needs at least one pending frame (e.g. the round)")
    moving = any(isinstance(f, Move) and f.seat == 0 for f in s.stack)
    # During one of Angela's movements the belief is still the one from its
    # start; it is brought up to date when the movement ends.
    if s.angela_city >= 0 and not moving and not s.belief >> s.angela_city & 1:
        raise r.err("public.belief", f"does not contain Angela's city {comps.cities[s.angela_city]!r}")
    s.rng = random.Random()
    if doc.rng is UNSET:
        s.rng.seed(s.seed)
    else:
        version, state, gauss = doc.rng
        try:
            s.rng.setstate((version, tuple(state), gauss))
        except (TypeError, ValueError) as e:
            raise r.err("rng", f"not a random.Random state saved by rnsim: {e}") from None
    s.pending = None
    if not s.over:
        try:
            s._advance()
        except (IndexError, KeyError, TypeError, ValueError, AssertionError) as e:
            raise r.err("stack", f"the pending frames do not fit this position ({type(e).__name__}: {e})") from None
        want = doc.decision
        if want is not None and s.pending is not None:
            got = {"seat": SEATS[s.pending.seat], "kind": s.pending.kind}
            if want != got:
                raise r.err("decision", f"the position resumes at {got}, not {want}")


# ------------------------------------------------------------------- frames


def frame_out(frame: Frame) -> dict[str, Any]:
    """A frame in position form: its kind's name and its fields in the
    order of ``FIELDS`` (ints, null, lists for the engine's tuples)."""
    return {"frame": frame.NAME, "fields": [_jsonable(getattr(frame, n)) for n in frame.FIELDS]}


def frame_in(kind: str, **fields: Any) -> Frame:
    """The frame of kind ``kind`` (its position name) with the named fields."""
    frame: Frame = FRAMES[kind](**fields)
    return frame


def frame_fields(kind: str, **fields: Any) -> list[Any]:
    """A frame's ``fields`` list for a position, from its fields by name
    (every field of the kind, see frames.py)."""
    names = FRAMES[kind].FIELDS
    if set(fields) != set(names):
        raise ValueError(f"a {kind!r} frame has the fields {', '.join(names) or 'none'}, got {', '.join(fields)}")
    return [_jsonable(fields[n]) for n in names]


# ------------------------------------------------------------------ history

# An event is written as a table of its kind's fields (history.FIELDS), in
# the names used above: a city by name, a continent by id, a route as
# "City|City", a check as {colour, value}, a token by value or "POW"; a field
# hidden from the seat (or unused) is null, the seat is left out when none.
# The card an event belongs to is derived (history.card_at), not saved.


def _event_out(comps: Components, e: Record) -> dict[str, Any]:
    kind, rnd, seat, *abc, items = e
    out: dict[str, Any] = {"kind": kind, "round": rnd}
    if seat >= 0:
        out["seat"] = SEATS[seat]
    for name, x in zip(EVENT_FIELDS[kind], abc, strict=True):
        if name is not None:
            out[name] = _field_out(comps, kind, name, x)
    if items:
        out["items"] = _items_out(comps, kind, items)
    return out


def _field_out(comps: Components, kind: str, name: str, x: Any) -> Any:
    if name in ("found", "name", "half", "card") or (name == "value" and kind != "token_placed"):
        return x
    if isinstance(x, int) and x < 0:
        return None  # hidden from this seat, or none
    if name == "city":
        return comps.cities[x]
    if name == "continent":
        return comps.continents[x].id
    if name in ("route", "from_route"):
        return comps.route_name(x)
    if name == "check":
        return _check_namer(comps)(x)
    return _token_out(x)  # a token placed


def _items_out(comps: Components, kind: str, items: tuple[Any, ...]) -> list[Any]:
    if kind in ("deal", "draw", "wiretap"):
        chk = _check_namer(comps)
        return [chk(c) for c in items]
    if kind == "round_start":
        return [_card_label(comps, c) for c in items]
    if kind == "card":
        return [None if x is None else {"seat": SEATS[x[0]], "value": _token_out(x[1])} for x in items]
    if kind == "announce":
        return [{"continent": comps.continents[k].id, "city": None if c < 0 else comps.cities[c]} for k, c in items]
    return list(items)  # upgrade ids


def _event_in(r: _Reader, ids: _Names, e: Any, key: str) -> Record:
    kind = e.get("kind") if isinstance(e, dict) else None
    if not isinstance(kind, str) or kind not in EVENT_FIELDS:
        raise r.err(f"{key}.kind", f"unknown event kind {kind!r}; kinds are: {', '.join(EVENT_FIELDS)}")
    names = EVENT_FIELDS[kind]
    event = r.read(e, _event_schema(kind), key)
    seat = -1 if event.seat is None else r.seat(event.seat, f"{key}.seat")
    abc = [_event_field(r, ids, kind, name, getattr(event, name) if name is not None else None, f"{key}.{name}")
           for name in names]
    items = _event_items(r, ids, kind, event.items, key)
    return (kind, event.round, seat, abc[0], abc[1], abc[2], items)


@functools.cache
def _event_schema(kind: str) -> Any:
    """An event of ``kind``: its round, seat, items and its kind's fields
    (history.FIELDS; the card and half of a token placed are required)."""
    names = [n for n in EVENT_FIELDS[kind] if n is not None]
    return msgspec.defstruct(f"Event_{kind}", [
        ("kind", str), ("round", _WHOLE1), ("seat", Any, None),
        ("items", Annotated[list[Any], Meta(description="a list")], []),
        *((n, Any) if n in ("card", "half") else (n, Any, None) for n in names)], bases=(Table,), kw_only=True)


def _event_field(r: _Reader, ids: _Names, kind: str, name: str | None, x: Any, k: str) -> Any:
    """One of an event's fields (``x``, named ``name`` in history.FIELDS), read
    as the engine holds it: -1 for one hidden, unused or none."""
    if name is None:
        return -1
    if name == "found":
        return r.typed(x if x is not None else False, bool, k, "true or false")
    if name == "name":
        return r.typed(x if x is not None else "", str, k, "a name")
    if name == "half":
        return r.int_(x, k, 0, 1)
    if name == "card":
        return r.int_(x, k, 0, None)  # a round position
    if name == "value" and kind != "token_placed":
        return r.int_(x if x is not None else -1, k, -1, None)
    if x is None:
        return -1
    if name == "city":
        return ids.city(x, k)
    if name == "continent":
        return ids.continent(x, k)
    if name in ("route", "from_route"):
        return ids.route(x, k)
    if name == "check":
        return _check_id(ids, x, k)
    return r.token(x, k)


def _event_items(r: _Reader, ids: _Names, kind: str, raw: list[Any], key: str) -> tuple[Any, ...]:
    """An event's items: checks (a deal, a draw, a wiretap), the round's
    action cards, a revealed card's halves, an announcement's radar triggers,
    or upgrade ids."""
    comps = ids.comps
    if kind in ("deal", "draw", "wiretap"):
        return tuple(_check_id(ids, x, f"{key}.items[{i}]") for i, x in enumerate(raw))
    if kind == "round_start":
        labels = [_card_label(comps, i) for i in range(len(comps.cards))]
        for i, x in enumerate(raw):
            if x not in labels:
                raise r.err(f"{key}.items[{i}]", f"unknown action card {x!r}; cards are: {', '.join(sorted(set(labels)))}")
        return tuple(labels.index(x) for x in raw)
    if kind == "card":
        return _card_halves(r, raw, key)
    if kind == "announce":
        trig = []
        for i, x in enumerate(raw):
            a: _Announced = r.read(x, _Announced, f"{key}.items[{i}]")
            trig.append((ids.continent(a.continent, f"{key}.items[{i}].continent"),
                         ids.city(a.city, f"{key}.items[{i}].city", allow_none=True)))
        return tuple(trig)
    return tuple(ids.upgrade_key(x, f"{key}.items[{i}]") for i, x in enumerate(raw))


def _card_halves(r: _Reader, raw: list[Any], key: str) -> tuple[tuple[int, int] | None, ...]:
    """A revealed card's two halves: null or the token on it (seat, value)."""
    if len(raw) != 2:
        raise r.err(f"{key}.items", f"a revealed card lists its 2 halves (null or {{seat, value}}), got {raw!r}")
    return tuple(_token_on(r, x, f"{key}.items[{h}]") for h, x in enumerate(raw))


def _token_on(r: _Reader, x: Any, key: str) -> tuple[int, int] | None:
    """A card half: null, or the token on it as (seat, value)."""
    if x is None:
        return None
    placed: _Placed = r.read(x, _Placed, key)
    return r.seat(placed.seat, f"{key}.seat"), _token_in(placed.value)


def _check_id(ids: _Names, v: Any, key: str) -> int:
    # Checks alike are interchangeable (module doc): an event names the first of its kind.
    name = ids.check_key(v, key)
    comps = ids.comps
    for i, c in enumerate(comps.checks):
        if comps.continents[c.continent].colour + f" ${c.value // 1000}k" == name:
            return i
    raise ids.r.err(key, f"no check {name!r} in the component set")


# ------------------------------------------------------------------ helpers


@functools.cache
def _stat_keys() -> tuple[str, ...]:
    # The counters a new game starts with, read from GameState.new so they are
    # defined in one place only.
    g: Any = GameState.new(RuleSet(), random.Random(0))
    return tuple(g.stats)


def _card_label(comps: Components, i: int) -> str:
    a, b = comps.cards[i]
    return f"{a.label()}|{b.label()}"


def _token_out(v: int) -> int | str:
    return "POW" if v == POW else v


def _token_in(v: int | str) -> int:
    """A token value as the schema read it (a number or "POW") as the engine holds it."""
    return POW if v == "POW" else int(v)


def _city_namer(comps: Components) -> Callable[[int], str | None]:
    return lambda c: None if c < 0 else comps.cities[c]


def _check_namer(comps: Components) -> Callable[[int], dict[str, Any]]:
    def name(c: int) -> dict[str, Any]:
        ch = comps.checks[c]
        return {"colour": comps.continents[ch.continent].colour, "value": ch.value}
    return name


def _jsonable(x: Any) -> Any:
    if isinstance(x, (tuple, list)):
        return [_jsonable(y) for y in x]
    return x


def _frame_field_ok(x: Any) -> bool:
    if x is None or (isinstance(x, int) and not isinstance(x, bool)):
        return True
    return isinstance(x, list) and all(_frame_field_ok(y) for y in x)


def _frozen(x: Any) -> Any:
    # Frame fields are immutable (the engine clones frames shallowly): every
    # nested sequence is a tuple.
    if isinstance(x, list):
        return tuple(_frozen(y) for y in x)
    return x


class _Reader:
    """Typed access to a position with errors that name the key."""

    def __init__(self, source: str) -> None:
        self.source = source

    def err(self, key: str, msg: str) -> PositionError:
        return PositionError(f"{self.source}: {key}: {msg}")

    def read(self, raw: Any, schema: Any, where: str = "") -> Any:
        """``raw`` (the table at ``where``) as its schema reads it; a one-line error at the first problem."""
        try:
            return convert(raw, schema)
        except SchemaError as e:
            raise self.refused(e.problem, where) from None

    def refused(self, p: Problem, where: str) -> PositionError:
        if p.kind == "unknown":
            return self.err(p.at(where), f"unknown key{did_you_mean(p.key, p.allowed)}; allowed keys: "
                                         f"{', '.join(sorted(p.allowed))}")
        if p.kind == "missing":
            return self.err(p.at(where), "missing")
        key = p.where(where) or "position"
        if p.kind == "range" and not p.described:
            return self.err(key, f"must be {p.bounds}, got {p.value}")
        return self.err(key, f"must be {p.expected}, got {p.value!r}")

    def typed(self, v: Any, typ: type, key: str, what: str) -> Any:
        if not isinstance(v, typ) or (isinstance(v, bool) and typ is not bool):
            raise self.err(key, f"must be {what}, got {v!r}")
        return v

    def int_(self, v: Any, key: str, lo: int | None, hi: int | None) -> int:
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.err(key, f"must be a whole number, got {v!r}")
        if (lo is not None and v < lo) or (hi is not None and v > hi):
            rng = f"{lo if lo is not None else '...'}..{hi if hi is not None else ''}"
            raise self.err(key, f"must be in {rng}, got {v}")
        return v

    def seat(self, v: Any, key: str) -> int:
        if v not in SEATS:
            raise self.err(key, f'must be "angela" or "jessah", got {v!r}')
        return SEATS.index(v)

    def token(self, v: Any, key: str) -> int:
        if v == "POW":
            return POW
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < POW:
            raise self.err(key, f'a token is a whole number or "POW", got {v!r}')
        return v



class _Names:
    """Names in the file -> the engine's small integers."""

    def __init__(self, r: _Reader, comps: Components) -> None:
        self.r, self.comps = r, comps
        self.colours = {c.colour: k for k, c in enumerate(comps.continents)}

    def city(self, v: Any, key: str, allow_none: bool = False) -> int:
        if v is None and allow_none:
            return -1
        if not isinstance(v, str) or v not in self.comps.city_index:
            raise self.r.err(key, f"unknown city {v!r}; cities are: {', '.join(self.comps.cities)}")
        return self.comps.city_index[v]

    def continent(self, v: Any, key: str) -> int:
        for k, c in enumerate(self.comps.continents):
            if c.id == v:
                return k
        raise self.r.err(key, f"unknown continent {v!r}; continents are: "
                              f"{', '.join(c.id for c in self.comps.continents)}")

    def route(self, v: Any, key: str) -> int:
        parts = v.split("|") if isinstance(v, str) else []
        if len(parts) != 2:
            raise self.r.err(key, f'a route is "City|City", got {v!r}')
        a, b = (self.city(p.strip(), key) for p in parts)
        r = self.comps.route_index.get((a, b))
        if r is None:
            raise self.r.err(key, f"no route between {parts[0]} and {parts[1]}")
        return r

    def check_key(self, v: Any, key: str) -> str:
        check: _CheckName = self.r.read(v, _CheckName, key)
        if not isinstance(check.colour, str) or check.colour not in self.colours:
            raise self.r.err(key + ".colour", f"unknown colour {check.colour!r}{did_you_mean(str(check.colour), self.colours)}; "
                                              f"colours are: {', '.join(self.colours)}")
        return f"{check.colour} ${check.value // 1000}k"

    def upgrade_key(self, v: Any, key: str) -> str:
        if not isinstance(v, str) or v not in self.comps.upgrade_ids:
            raise self.r.err(key, f"unknown upgrade {v!r}; upgrades are: {', '.join(self.comps.upgrade_ids)}")
        return str(v)

    def card_key(self, v: Any, key: str) -> str:
        return str(v)

    def identities(self, v: list[Any], key: str) -> list[int]:
        known = [x.id for x in self.comps.identities]
        out = []
        for i, x in enumerate(v):
            if x not in known:
                raise self.r.err(f"{key}[{i}]", f"unknown identity {x!r}; identities are: {', '.join(known)}")
            out.append(known.index(x))
        return out


class _Allocator:
    """Hands out the engine's ids for named pieces of which a set may hold
    several alike (two red $100k checks): each name takes the lowest unused id."""

    def __init__(self, r: _Reader, names: list[str], what: str) -> None:
        self.r, self.names, self.what = r, names, what
        self.used = [False] * len(names)

    def one(self, name: str, key: str) -> int:
        for i, n in enumerate(self.names):
            if n == name and not self.used[i]:
                self.used[i] = True
                return i
        total = self.names.count(name)
        if not total:
            known = sorted(set(self.names))
            raise self.r.err(key, f"no {self.what} {name!r} in the component set; there are: {', '.join(known)}")
        raise self.r.err(key, f"{self.what} {name!r} is listed more often than the set holds ({total})")

    def many(self, v: list[Any], key: str, to_name: Callable[[Any, str], str]) -> list[int]:
        return [self.one(to_name(x, f"{key}[{i}]"), f"{key}[{i}]") for i, x in enumerate(v)]

    def require_all(self, key: str) -> None:
        missing = [n for n, u in zip(self.names, self.used, strict=True) if not u]
        if missing:
            raise self.r.err(key, f"{len(missing)} {self.what}(s) are nowhere in the position: {', '.join(missing)} "
                                  "(every piece must be in a deck, a hand, on the table or gone)")
