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
from typing import Annotated, Any, Literal

from msgspec import Meta

from rnsim.errors import ComponentError, did_you_mean, read_utf8, shown_path
from rnsim.games.red_notice.rules.effect_names import IDENTITY_EFFECTS, UPGRADE_PERMANENT
from rnsim.schema import Problem, SchemaError, Table, convert

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


# ------------------------------------------------------------------ schemas
# Each file's tables (rnsim.schema): keys, types and ranges. What a schema
# cannot say (names that must exist, ids seen once, a connected map, a
# card's halves) is checked in the functions after.

_TABLES = Meta(description="an array of tables")


class _Continent(Table):
    id: str
    name: str
    colour: str
    cities: Annotated[list[Annotated[str, Meta(description="a city name")]], Meta(description="an array of city names")]


class MapFile(Table):
    continents: Annotated[list[_Continent], _TABLES]
    routes: Annotated[list[Annotated[str, Meta(description='a "City|City" string')]],
                      Meta(description='an array of "City|City" strings')]


class CardsFile(Table):
    cards: Annotated[list[Any], Meta(description="an array of [half, half] pairs")]


class TokensFile(Table):
    action_tokens: list[Annotated[int, Meta(ge=0, le=POW - 1)] | Literal["POW"]]
    radars: int
    barriers: int


class ChecksFile(Table):
    values: Annotated[
        dict[str, Annotated[list[Annotated[int, Meta(ge=1, description="a positive whole number of dollars")]],
                            Meta(description="an array of dollar values")]],
        Meta(description="a table of colour = [values]"),
    ]


_COUNT = Annotated[int, Meta(ge=0, le=10)]


class _Identity(Table):
    id: str
    name: str
    effect: str
    moves: _COUNT
    checks: _COUNT = 0


class IdentitiesFile(Table):
    identities: Annotated[list[_Identity], _TABLES]


class _Upgrade(Table):
    id: str
    name: str
    kind: str
    effect: str
    copies: Annotated[int, Meta(ge=1, le=10)] = 1


class UpgradesFile(Table):
    upgrades: Annotated[list[_Upgrade], _TABLES]


SCHEMAS: dict[str, type[Table]] = {
    "map.toml": MapFile, "cards.toml": CardsFile, "tokens.toml": TokensFile, "checks.toml": ChecksFile,
    "identities.toml": IdentitiesFile, "upgrades.toml": UpgradesFile,
}


class _Ctx:
    def __init__(self, folder: Path | None, fname: str) -> None:
        self.path = shown_path(folder / fname) if folder else fname

    def err(self, key: str, msg: str) -> ComponentError:
        return ComponentError(f"{self.path}: {key}: {msg}")

    def read(self, raw: Any, schema: type[Any]) -> Any:
        """The file's tables as its schema reads them; a one-line error at the first problem."""
        try:
            return convert(raw, schema)
        except SchemaError as e:
            raise self.refused(e.problem) from None

    def refused(self, p: Problem) -> ComponentError:
        if p.kind == "unknown":
            return self.err(p.at(), f"unknown key{did_you_mean(p.key, p.allowed)}; allowed keys: "
                                    f"{', '.join(sorted(p.allowed))}")
        if p.kind == "missing":
            return self.err(p.at(), "missing")
        if p.kind == "range" and not p.described:
            return self.err(p.where(), f"must be {p.bounds}, got {p.value}")
        return self.err(p.where(), f"must be {p.expected}, got {p.value!r}")


def build_components(raw: dict[str, Any], name: str = "custom", folder: Path | None = None) -> Components:
    """Validate the parsed TOML of the six files and build :class:`Components`."""
    files = {f: _Ctx(folder, f) for f in FILES}
    t = {f: files[f].read(raw[f], SCHEMAS[f]) for f in FILES}
    continents, cities, city_cont, colours = _continents(files["map.toml"], t["map.toml"])
    routes = _routes(files["map.toml"], t["map.toml"], cities)
    cards = _cards(files["cards.toml"], t["cards.toml"])
    tokens, radars, barriers = _tokens(files["tokens.toml"], t["tokens.toml"], len(continents), len(routes))
    checks = _checks(files["checks.toml"], t["checks.toml"], colours)
    idents = _identities(files["identities.toml"], t["identities.toml"])
    deck = _upgrades(files["upgrades.toml"], t["upgrades.toml"])
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


def _continents(cx: _Ctx, m: MapFile) -> tuple[list[Continent], list[str], list[int], dict[str, int]]:
    """map.toml's continents: each with its colour and cities (a city on one continent only)."""
    if not m.continents:
        raise cx.err("continents", "needs at least one continent")
    cities: list[str] = []
    city_cont: list[int] = []
    continents: list[Continent] = []
    colours: dict[str, int] = {}
    for k, c in enumerate(m.continents):
        where = f"continents[{k}]."
        if any(x.id == c.id for x in continents):
            raise cx.err(where + "id", f"duplicate continent id {c.id!r}")
        if c.colour in colours:
            raise cx.err(where + "colour", f"colour {c.colour!r} is already the colour of another continent")
        colours[c.colour] = k
        idx = _cities_of(cx, c.cities, where + "cities", cities)
        city_cont += [k] * len(idx)
        continents.append(Continent(c.id, c.name, c.colour, tuple(idx)))
    if len(cities) > 62:
        raise cx.err("continents", f"at most 62 cities are supported, got {len(cities)}")
    return continents, cities, city_cont, colours


def _cities_of(cx: _Ctx, cl: list[str], key: str, cities: list[str]) -> list[int]:
    """A continent's cities, appended to ``cities``; their indices."""
    if not cl:
        raise cx.err(key, "a continent needs at least one city")
    idx = []
    for name_ in cl:
        if name_ in cities:
            raise cx.err(key, f"city {name_!r} is listed twice")
        idx.append(len(cities))
        cities.append(name_)
    return idx


def _routes(cx: _Ctx, m: MapFile, cities: list[str]) -> list[tuple[int, int]]:
    """map.toml's routes: "City|City" pairs, each once, joining every city."""
    index = {n: i for i, n in enumerate(cities)}
    routes: list[tuple[int, int]] = []
    for i, r in enumerate(m.routes):
        key = f"routes[{i}]"
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


def _cards(cx: _Ctx, cr: CardsFile) -> list[tuple[Half, Half]]:
    cards: list[tuple[Half, Half]] = []
    for i, card in enumerate(cr.cards):
        key = f"cards[{i}]"
        if not isinstance(card, list) or len(card) != 2:
            raise cx.err(key, f"a card has exactly two halves, got {card!r}")
        cards.append((_parse_half(cx, f"{key}[0]", card[0]), _parse_half(cx, f"{key}[1]", card[1])))
    if not cards:
        raise cx.err("cards", "needs at least one card")
    return cards


def _tokens(cx: _Ctx, tr: TokensFile, n_continents: int, n_routes: int) -> tuple[list[int], int, int]:
    """tokens.toml: the action tokens, and the radar and barrier supplies."""
    tokens = [POW if t == "POW" else t for t in tr.action_tokens]
    if not tokens:
        raise cx.err("action_tokens", "needs at least one token")
    if not 0 <= tr.radars <= n_continents:
        raise cx.err("radars", f"must be 0..{n_continents} (one radar space per continent), got {tr.radars}")
    if not 0 <= tr.barriers <= n_routes:
        raise cx.err("barriers", f"must be 0..{n_routes} (one barrier per route), got {tr.barriers}")
    return tokens, tr.radars, tr.barriers


def _checks(cx: _Ctx, chr_: ChecksFile, colours: dict[str, int]) -> list[Check]:
    """checks.toml: the dollar values of each continent colour's checks."""
    checks: list[Check] = []
    for colour, lst in chr_.values.items():
        if colour not in colours:
            raise cx.err(f"values.{colour}", f"colour {colour!r} has no continent{did_you_mean(colour, colours)}; "
                                             f"map colours are: {', '.join(colours)}")
        checks += [Check(colours[colour], v) for v in lst]
    if not checks:
        raise cx.err("values", "needs at least one check")
    return checks


def _effect(cx: _Ctx, eff: str, where: str, known: Any) -> str:
    """A card's effect: one of the rules' vocabulary (rules/effect_names.py)."""
    if eff not in known:
        raise cx.err(where + "effect", f"unknown effect {eff!r}{did_you_mean(eff, known)}; known "
                                       f"effects: {', '.join(known)}")
    return eff


def _identities(cx: _Ctx, ir: IdentitiesFile) -> list[Identity]:
    idents: list[Identity] = []
    for i, d in enumerate(ir.identities):
        where = f"identities[{i}]."
        if any(x.id == d.id for x in idents):
            raise cx.err(where + "id", f"duplicate identity id {d.id!r}")
        idents.append(Identity(d.id, d.name, _effect(cx, d.effect, where, IDENTITY_EFFECTS), d.moves, d.checks))
    return idents


def _upgrades(cx: _Ctx, ur: UpgradesFile) -> list[Upgrade]:
    """upgrades.toml: the deck, each card as many times as its copies."""
    deck: list[Upgrade] = []
    uids: set[str] = set()
    for i, d in enumerate(ur.upgrades):
        where = f"upgrades[{i}]."
        if d.id in uids:
            raise cx.err(where + "id", f"duplicate upgrade id {d.id!r}")
        if not d.id.replace("_", "").isalnum() or not d.id.islower():
            raise cx.err(where + "id", f"an id is lower-case letters, digits and _, got {d.id!r}")
        uids.add(d.id)
        eff = _effect(cx, d.effect, where, UPGRADE_PERMANENT)
        expected = "permanent" if UPGRADE_PERMANENT[eff] else "immediate"
        if d.kind != expected:
            raise cx.err(where + "kind", f"effect {eff!r} is {expected!r}, got {d.kind!r}")
        deck.extend([Upgrade(d.id, d.name, d.kind, eff)] * d.copies)
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
