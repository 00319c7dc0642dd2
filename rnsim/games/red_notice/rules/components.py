"""The physical components of a game (map, cards, tokens, checks, identities,
upgrades), loaded from a folder of TOML files and validated.

The classic set in ``rnsim/games/red_notice/data/classic`` is a reconstruction (the printed one
is not published); a designer swaps in another set by pointing
``[rules] components`` at a folder holding the same six files.

Everything is turned into small integers here so the engine can work on ints
and bitmasks: city ``c`` is bit ``1 << c``; continent ``k`` has colour ``k``.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rnsim.errors import ComponentError, did_you_mean, read_utf8, shown_path
from rnsim.games.red_notice.rules.effect_names import IDENTITY_EFFECTS, UPGRADE_PERMANENT

# Action kinds printed on card halves.
CHECK, BANK, SECURITY, MOVEMENT, JOKER = range(5)
ACTION_NAMES = ("check", "bank", "security", "movement", "joker")
_ACTION_LETTERS = {"C": CHECK, "B": BANK, "S": SECURITY, "M": MOVEMENT, "J": JOKER}

# The POW! token: beats any number, ties with POW! (R2). Stored as an int larger
# than any printed value so ordinary comparisons stay correct.
POW = 1000

# The two sides of a radar or barrier token; black ones come from Permanent Units.
WHITE, BLACK = 1, 2

FILES = ("map.toml", "cards.toml", "tokens.toml", "checks.toml", "identities.toml", "upgrades.toml")


@dataclass(frozen=True, slots=True)
class Continent:
    id: str
    name: str
    colour: str
    cities: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Half:
    action: int  # CHECK, BANK, SECURITY, MOVEMENT or JOKER
    icons: int  # 1 or 2 for C/S/M, 1 for B and J

    def label(self) -> str:
        if self.action in (BANK, JOKER):
            return "BJ"[self.action == JOKER]
        return "CBSMJ"[self.action] + str(self.icons)


@dataclass(frozen=True, slots=True)
class Check:
    continent: int  # the continent (= colour) where it is cashed
    value: int


@dataclass(frozen=True, slots=True)
class Identity:
    id: str
    name: str
    effect: str
    moves: int
    checks: int = 0


@dataclass(frozen=True, slots=True)
class Upgrade:
    id: str
    name: str
    kind: str  # "permanent" or "immediate"
    effect: str


@dataclass(frozen=True, eq=False)
class Components:
    """One validated component set. Immutable; shared by every game."""

    name: str
    continents: tuple[Continent, ...]
    cities: tuple[str, ...]
    city_continent: tuple[int, ...]
    routes: tuple[tuple[int, int], ...]
    cards: tuple[tuple[Half, Half], ...]
    tokens: tuple[int, ...]
    radar_supply: int
    barrier_supply: int
    checks: tuple[Check, ...]
    identities: tuple[Identity, ...]
    upgrade_cards: tuple[Upgrade, ...]  # the deck, copies expanded
    raw: dict[str, Any] = field(repr=False)
    # Set by the component knobs (RuleSet.load_components) so that a variant
    # deals game i as the set it derives from does: the engine draws from the
    # original set's identities and shuffles its upgrade deck, then maps each
    # through these (an index into ``identities`` / ``upgrade_cards``, -1 for
    # one left out; extra upgrade copies at the end). None: draw from this set.
    identity_draw: tuple[int, ...] | None = field(default=None, repr=False)
    upgrade_draw: tuple[int, ...] | None = field(default=None, repr=False)
    # derived lookups
    neighbours: tuple[tuple[tuple[int, int], ...], ...] = field(init=False, repr=False)
    neighbour_mask: tuple[int, ...] = field(init=False, repr=False)
    continent_mask: tuple[int, ...] = field(init=False, repr=False)
    route_index: dict[tuple[int, int], int] = field(init=False, repr=False)
    city_index: dict[str, int] = field(init=False, repr=False)
    upgrade_ids: tuple[str, ...] = field(init=False, repr=False)
    # the id of each identity, and of each upgrade card (copies repeated): what
    # a view shows of the indices the state keeps
    identity_ids: tuple[str, ...] = field(init=False, repr=False)
    upgrade_card_ids: tuple[str, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        n = len(self.cities)
        nb: list[list[tuple[int, int]]] = [[] for _ in range(n)]
        for r, (a, b) in enumerate(self.routes):
            nb[a].append((b, r))
            nb[b].append((a, r))
        masks = []
        for c in range(n):
            m = 0
            for d, _ in nb[c]:
                m |= 1 << d
            masks.append(m)
        cm = []
        for cont in self.continents:
            m = 0
            for c in cont.cities:
                m |= 1 << c
            cm.append(m)
        ri = {}
        for r, (a, b) in enumerate(self.routes):
            ri[(a, b)] = r
            ri[(b, a)] = r
        seen: list[str] = []
        for u in self.upgrade_cards:
            if u.id not in seen:
                seen.append(u.id)
        object.__setattr__(self, "neighbours", tuple(tuple(x) for x in nb))
        object.__setattr__(self, "neighbour_mask", tuple(masks))
        object.__setattr__(self, "continent_mask", tuple(cm))
        object.__setattr__(self, "route_index", ri)
        object.__setattr__(self, "city_index", {name: i for i, name in enumerate(self.cities)})
        object.__setattr__(self, "upgrade_ids", tuple(seen))
        object.__setattr__(self, "identity_ids", tuple(x.id for x in self.identities))
        object.__setattr__(self, "upgrade_card_ids", tuple(u.id for u in self.upgrade_cards))

    @property
    def n_cities(self) -> int:
        return len(self.cities)

    @property
    def n_continents(self) -> int:
        return len(self.continents)

    def city(self, name: str) -> int:
        try:
            return self.city_index[name]
        except KeyError:
            raise ComponentError(f"unknown city {name!r}; cities are: {', '.join(self.cities)}") from None

    def route(self, a: str | int, b: str | int) -> int:
        ia = self.city(a) if isinstance(a, str) else a
        ib = self.city(b) if isinstance(b, str) else b
        try:
            return self.route_index[(ia, ib)]
        except KeyError:
            raise ComponentError(f"no route between {self.cities[ia]} and {self.cities[ib]}") from None

    def continent_of_id(self, cid: str) -> int:
        for k, c in enumerate(self.continents):
            if c.id == cid:
                return k
        raise ComponentError(
            f"unknown continent {cid!r}; continents are: {', '.join(c.id for c in self.continents)}"
        )

    def route_name(self, r: int) -> str:
        a, b = self.routes[r]
        return f"{self.cities[a]}|{self.cities[b]}"

    def identity_index(self, ident: str) -> int:
        for i, x in enumerate(self.identities):
            if x.id == ident:
                return i
        raise ComponentError(
            f"unknown identity {ident!r}; identities are: {', '.join(x.id for x in self.identities)}"
        )

    def digest(self) -> str:
        """A stable hash of the component data (part of the rules hash)."""
        blob = json.dumps(self.raw, sort_keys=True, separators=(",", ":")).encode()
        return hashlib.sha256(blob).hexdigest()


# --------------------------------------------------------------------- loading

DATA_DIR = Path(__file__).resolve().parent.parent / "data"
_CACHE: dict[str, Components] = {}


def component_folder(source: str | Path) -> Path:
    """Where a component set lives. A bare name ("classic") is a built-in set
    first, so a folder of that name in the current directory (a run directory,
    say) never shadows it; anything that looks like a path is a path."""
    text = str(source)
    if isinstance(source, Path) or "/" in text or "\\" in text or text.startswith("."):
        return Path(text)
    builtin = DATA_DIR / text
    return builtin if builtin.is_dir() else Path(text)


def load_components(source: str | Path = "classic") -> Components:
    """Load a component set by name (a folder under ``rnsim/games/red_notice/data``) or path."""
    folder = component_folder(source)
    key = str(folder.resolve())
    if key in _CACHE:
        return _CACHE[key]
    if not folder.is_dir():
        known = sorted(d.name for d in DATA_DIR.iterdir() if d.is_dir())
        raise ComponentError(
            f"component set {str(source)!r} not found: not a folder, and not one of the "
            f"built-in sets ({', '.join(known)})"
        )
    raw: dict[str, Any] = {}
    for fname in FILES:
        f = folder / fname
        if not f.is_file():
            raise ComponentError(f"{shown_path(f)}: missing (a component set needs {', '.join(FILES)})")
        try:
            raw[fname] = tomllib.loads(read_utf8(f, ComponentError))
        except tomllib.TOMLDecodeError as e:
            raise ComponentError(f"{shown_path(f)}: not valid TOML: {e}") from None
    comps = build_components(raw, name=folder.name, folder=folder)
    _CACHE[key] = comps
    return comps


class _Ctx:
    def __init__(self, folder: Path | None, fname: str) -> None:
        self.path = shown_path(folder / fname) if folder else fname

    def err(self, key: str, msg: str) -> ComponentError:
        return ComponentError(f"{self.path}: {key}: {msg}")

    def keys(self, table: dict[str, Any], allowed: set[str], where: str, required: set[str]) -> None:
        for k in table:
            if k not in allowed:
                raise self.err(f"{where}{k}", f"unknown key{did_you_mean(k, allowed)}; allowed keys: "
                                              f"{', '.join(sorted(allowed))}")
        for k in sorted(required):
            if k not in table:
                raise self.err(f"{where}{k}", "missing")

    def typed(self, value: Any, typ: type | tuple[type, ...], key: str, what: str) -> Any:
        if not isinstance(value, typ) or (isinstance(value, bool) and typ is not bool):
            raise self.err(key, f"must be {what}, got {value!r}")
        return value


def build_components(raw: dict[str, Any], name: str = "custom", folder: Path | None = None) -> Components:
    """Validate the parsed TOML of the six files and build :class:`Components`."""
    continents, cities, city_cont, colours = _continents(_Ctx(folder, "map.toml"), raw["map.toml"])
    routes = _routes(_Ctx(folder, "map.toml"), raw["map.toml"], cities)
    cards = _cards(_Ctx(folder, "cards.toml"), raw["cards.toml"])
    tokens, radars, barriers = _tokens(_Ctx(folder, "tokens.toml"), raw["tokens.toml"], len(continents), len(routes))
    checks = _checks(_Ctx(folder, "checks.toml"), raw["checks.toml"], colours)
    idents = _identities(_Ctx(folder, "identities.toml"), raw["identities.toml"])
    deck = _upgrades(_Ctx(folder, "upgrades.toml"), raw["upgrades.toml"])
    return Components(
        name=name,
        continents=tuple(continents),
        cities=tuple(cities),
        city_continent=tuple(city_cont),
        routes=tuple(routes),
        cards=tuple(cards),
        tokens=tuple(tokens),
        radar_supply=radars,
        barrier_supply=barriers,
        checks=tuple(checks),
        identities=tuple(idents),
        upgrade_cards=tuple(deck),
        raw=raw,
    )


def _continents(cx: _Ctx, m: Any) -> tuple[list[Continent], list[str], list[int], dict[str, int]]:
    """map.toml's continents: each with its colour and cities (a city on one continent only)."""
    cx.keys(m, {"continents", "routes"}, "", {"continents", "routes"})
    conts_raw = cx.typed(m["continents"], list, "continents", "an array of tables")
    if not conts_raw:
        raise cx.err("continents", "needs at least one continent")
    cities: list[str] = []
    city_cont: list[int] = []
    continents: list[Continent] = []
    colours: dict[str, int] = {}
    for k, c in enumerate(conts_raw):
        where = f"continents[{k}]."
        cx.typed(c, dict, f"continents[{k}]", "a table")
        cx.keys(c, {"id", "name", "colour", "cities"}, where, {"id", "name", "colour", "cities"})
        cid = cx.typed(c["id"], str, where + "id", "a string")
        cname = cx.typed(c["name"], str, where + "name", "a string")
        colour = cx.typed(c["colour"], str, where + "colour", "a string")
        if any(x.id == cid for x in continents):
            raise cx.err(where + "id", f"duplicate continent id {cid!r}")
        if colour in colours:
            raise cx.err(where + "colour", f"colour {colour!r} is already the colour of another continent")
        colours[colour] = k
        idx = _cities_of(cx, c["cities"], where + "cities", cities)
        city_cont += [k] * len(idx)
        continents.append(Continent(cid, cname, colour, tuple(idx)))
    if len(cities) > 62:
        raise cx.err("continents", f"at most 62 cities are supported, got {len(cities)}")
    return continents, cities, city_cont, colours


def _cities_of(cx: _Ctx, cl: Any, key: str, cities: list[str]) -> list[int]:
    """A continent's cities, appended to ``cities``; their indices."""
    cx.typed(cl, list, key, "an array of city names")
    if not cl:
        raise cx.err(key, "a continent needs at least one city")
    idx = []
    for name_ in cl:
        cx.typed(name_, str, key, "an array of city names")
        if name_ in cities:
            raise cx.err(key, f"city {name_!r} is listed twice")
        idx.append(len(cities))
        cities.append(name_)
    return idx


def _routes(cx: _Ctx, m: Any, cities: list[str]) -> list[tuple[int, int]]:
    """map.toml's routes: "City|City" pairs, each once, joining every city."""
    index = {n: i for i, n in enumerate(cities)}
    routes: list[tuple[int, int]] = []
    for i, r in enumerate(cx.typed(m["routes"], list, "routes", 'an array of "City|City" strings')):
        key = f"routes[{i}]"
        cx.typed(r, str, key, 'a "City|City" string')
        parts = r.split("|")
        if len(parts) != 2:
            raise cx.err(key, f'{r!r} is not of the form "City|City"')
        a, b = (p.strip() for p in parts)
        for x in (a, b):
            if x not in index:
                raise cx.err(key, f"unknown city {x!r} in route {r!r}{did_you_mean(x, index)}")
        if a == b:
            raise cx.err(key, f"route {r!r} joins a city to itself")
        pair = (min(index[a], index[b]), max(index[a], index[b]))
        if pair in routes:
            raise cx.err(key, f"duplicate route {r!r}")
        routes.append(pair)
    lonely = _unreachable(len(cities), routes)
    if lonely:
        raise cx.err("routes", f"the map is not connected: cannot reach {', '.join(cities[i] for i in lonely)}")
    return routes


def _unreachable(n: int, routes: list[tuple[int, int]]) -> list[int]:
    """The cities no route path joins to the first (breadth-first)."""
    adj: list[list[int]] = [[] for _ in range(n)]
    for a_, b_ in routes:
        adj[a_].append(b_)
        adj[b_].append(a_)
    seen = {0}
    q = deque([0])
    while q:
        x = q.popleft()
        for y in adj[x]:
            if y not in seen:
                seen.add(y)
                q.append(y)
    return [i for i in range(n) if i not in seen]


def _cards(cx: _Ctx, cr: Any) -> list[tuple[Half, Half]]:
    cx.keys(cr, {"cards"}, "", {"cards"})
    cards: list[tuple[Half, Half]] = []
    for i, card in enumerate(cx.typed(cr["cards"], list, "cards", "an array of [half, half] pairs")):
        key = f"cards[{i}]"
        if not isinstance(card, list) or len(card) != 2:
            raise cx.err(key, f"a card has exactly two halves, got {card!r}")
        cards.append((_parse_half(cx, f"{key}[0]", card[0]), _parse_half(cx, f"{key}[1]", card[1])))
    if not cards:
        raise cx.err("cards", "needs at least one card")
    return cards


def _tokens(cx: _Ctx, tr: Any, n_continents: int, n_routes: int) -> tuple[list[int], int, int]:
    """tokens.toml: the action tokens, and the radar and barrier supplies."""
    cx.keys(tr, {"action_tokens", "radars", "barriers"}, "", {"action_tokens", "radars", "barriers"})
    tokens: list[int] = []
    for i, t in enumerate(cx.typed(tr["action_tokens"], list, "action_tokens", "an array")):
        if t == "POW":
            tokens.append(POW)
        elif isinstance(t, int) and not isinstance(t, bool) and 0 <= t < POW:
            tokens.append(t)
        else:
            raise cx.err(f"action_tokens[{i}]", f'a token is a whole number 0..{POW - 1} or "POW", got {t!r}')
    if not tokens:
        raise cx.err("action_tokens", "needs at least one token")
    radars = cx.typed(tr["radars"], int, "radars", "a whole number")
    barriers = cx.typed(tr["barriers"], int, "barriers", "a whole number")
    if not 0 <= radars <= n_continents:
        raise cx.err("radars", f"must be 0..{n_continents} (one radar space per continent), got {radars}")
    if not 0 <= barriers <= n_routes:
        raise cx.err("barriers", f"must be 0..{n_routes} (one barrier per route), got {barriers}")
    return tokens, radars, barriers


def _checks(cx: _Ctx, chr_: Any, colours: dict[str, int]) -> list[Check]:
    """checks.toml: the dollar values of each continent colour's checks."""
    cx.keys(chr_, {"values"}, "", {"values"})
    vals = cx.typed(chr_["values"], dict, "values", "a table of colour = [values]")
    checks: list[Check] = []
    for colour, lst in vals.items():
        key = f"values.{colour}"
        if colour not in colours:
            raise cx.err(key, f"colour {colour!r} has no continent{did_you_mean(colour, colours)}; map colours "
                              f"are: {', '.join(colours)}")
        cx.typed(lst, list, key, "an array of dollar values")
        for v in lst:
            if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
                raise cx.err(key, f"a check value is a positive whole number of dollars, got {v!r}")
            checks.append(Check(colours[colour], v))
    if not checks:
        raise cx.err("values", "needs at least one check")
    return checks


def _effect(cx: _Ctx, d: Any, where: str, known: Any) -> str:
    """A card's effect: one of the rules' vocabulary (rules/effect_names.py)."""
    eff = cx.typed(d["effect"], str, where + "effect", "a string")
    if eff not in known:
        raise cx.err(where + "effect", f"unknown effect {eff!r}{did_you_mean(eff, known)}; known "
                                       f"effects: {', '.join(known)}")
    return str(eff)


def _count(cx: _Ctx, value: Any, key: str, lo: int) -> int:
    n = cx.typed(value, int, key, "a whole number")
    if not lo <= n <= 10:
        raise cx.err(key, f"must be {lo}..10, got {n}")
    return int(n)


def _identities(cx: _Ctx, ir: Any) -> list[Identity]:
    cx.keys(ir, {"identities"}, "", {"identities"})
    idents: list[Identity] = []
    for i, d in enumerate(cx.typed(ir["identities"], list, "identities", "an array of tables")):
        where = f"identities[{i}]."
        cx.typed(d, dict, f"identities[{i}]", "a table")
        cx.keys(d, {"id", "name", "effect", "moves", "checks"}, where, {"id", "name", "effect", "moves"})
        iid = cx.typed(d["id"], str, where + "id", "a string")
        if any(x.id == iid for x in idents):
            raise cx.err(where + "id", f"duplicate identity id {iid!r}")
        eff = _effect(cx, d, where, IDENTITY_EFFECTS)
        moves = _count(cx, d["moves"], where + "moves", 0)
        nchk = _count(cx, d.get("checks", 0), where + "checks", 0)
        idents.append(Identity(iid, cx.typed(d["name"], str, where + "name", "a string"), eff, moves, nchk))
    return idents


def _upgrades(cx: _Ctx, ur: Any) -> list[Upgrade]:
    """upgrades.toml: the deck, each card as many times as its copies."""
    cx.keys(ur, {"upgrades"}, "", {"upgrades"})
    deck: list[Upgrade] = []
    uids: set[str] = set()
    for i, d in enumerate(cx.typed(ur["upgrades"], list, "upgrades", "an array of tables")):
        where = f"upgrades[{i}]."
        cx.typed(d, dict, f"upgrades[{i}]", "a table")
        cx.keys(d, {"id", "name", "kind", "effect", "copies"}, where, {"id", "name", "kind", "effect"})
        uid = cx.typed(d["id"], str, where + "id", "a string")
        if uid in uids:
            raise cx.err(where + "id", f"duplicate upgrade id {uid!r}")
        if not uid.replace("_", "").isalnum() or not uid.islower():
            raise cx.err(where + "id", f"an id is lower-case letters, digits and _, got {uid!r}")
        uids.add(uid)
        eff = _effect(cx, d, where, UPGRADE_PERMANENT)
        kind = cx.typed(d["kind"], str, where + "kind", "a string")
        expected = "permanent" if UPGRADE_PERMANENT[eff] else "immediate"
        if kind != expected:
            raise cx.err(where + "kind", f"effect {eff!r} is {expected!r}, got {kind!r}")
        copies = _count(cx, d.get("copies", 1), where + "copies", 1)
        up = Upgrade(uid, cx.typed(d["name"], str, where + "name", "a string"), kind, eff)
        deck.extend([up] * copies)
    return deck


def _parse_half(cx: _Ctx, key: str, h: Any) -> Half:
    if not isinstance(h, str) or not h:
        raise cx.err(key, f'a half is a string like "M2", "C1", "S1", "B" or "J", got {h!r}')
    letter, digits = h[0], h[1:]
    if letter not in _ACTION_LETTERS:
        raise cx.err(key, f"unknown action {letter!r} in {h!r}; actions are M, C, S, B, J")
    action = _ACTION_LETTERS[letter]
    if action in (BANK, JOKER):
        if digits:
            raise cx.err(key, f"{h!r}: Bank and Joker halves have no icon count; write {letter!r}")
        return Half(action, 1)
    if digits not in ("1", "2"):
        raise cx.err(key, f"{h!r}: a card half shows 1 or 2 icons, got {digits or 'none'}")
    return Half(action, int(digits))
