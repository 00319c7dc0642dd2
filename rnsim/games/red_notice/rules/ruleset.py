"""The rule knobs: every number the rules use, named, documented and validated.

A variant is a RuleSet with some knobs changed; the engine reads knobs and
never compares variant names. Defaults are the rulebook's values.

Two kinds of knob:

- *numbers* (``money_target``, ``hand_limit``, ...), each with a range and a
  *notch*, the natural step a designer would try (``rnsim levers`` moves each
  one notch down and up);
- *component knobs* that change the component set a game is played with,
  without writing a new folder: ``upgrades_excluded``, ``upgrade_copies``,
  ``identities_excluded``, ``identities_plain``, ``token_values`` and
  ``check_values``. :meth:`RuleSet.load_components` returns the component set
  with them applied, so the engine (which reads only ``load_components()``)
  honours them unchanged.

Component knobs left at their defaults are omitted from :meth:`RuleSet.to_dict`
(and so from the rules hash, manifests and saved positions): a rule set that
does not use them hashes and prints as if they did not exist.
"""

from __future__ import annotations

import copy
import dataclasses
import difflib
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from rnsim.errors import RnsimError, RulesError
from rnsim.games.red_notice.rules.components import POW, Components, build_components, load_components


@dataclass(frozen=True, slots=True)
class Knob:
    default: Any
    lo: int | None
    hi: int | None
    doc: str
    #: the natural step a designer would try (numeric knobs); None for the others
    notch: int | None = None
    #: "number", "choice" or "components" (a knob that changes the component set)
    kind: str = "number"


#: The plain identity: Angela escapes with "up to 2 movements" and nothing else,
#: the part every printed identity but the Pilot shares and no special power.
#: ``identities_plain`` plays a listed identity as this one (same id, so games
#: stay paired on the identity pair), to value the identity's special power.
PLAIN_IDENTITY: dict[str, Any] = {"effect": "pilot", "moves": 2}

# name -> Knob. Bounds that depend on the component set are checked in
# RuleSet.validate_against().
KNOBS: dict[str, Knob] = {
    "money_target": Knob(1_000_000, 1, 100_000_000, "Angela wins the moment her cashed checks reach this total (dollars).", 100_000),
    "hand_limit": Knob(5, 1, 50, "Most checks a hand may hold; draws beyond it are lost.", 1),
    "starting_checks": Knob(3, 1, 10, "Checks dealt to each player at setup; one is shown to place the pawn.", 1),
    "security_start": Knob(2, 0, 50, "Angela's security points at setup.", 1),
    "security_cap": Knob(4, 0, 50, "Most security points Angela can hold; gains above are lost (R11).", 1),
    "security_removal_cost": Knob(2, 1, 50, "Security points Angela spends to remove one white radar or barrier.", 1),
    "cards_per_round": Knob(4, 1, 12, "Action cards drawn each round.", 1),
    "tokens_per_round": Knob(3, 1, 12, "Action tokens each player draws and places each round.", 1),
    "reset_every_rounds": Knob(3, 1, 12, "Tokens and action cards are reshuffled after this many rounds.", 1),
    "identities_per_game": Knob(2, 0, 6, "False identities Angela gets; Jessah needs one more capture than this to win.", 1),
    "radars_at_setup": Knob(2, 0, 6, "Radars Jessah places on distinct continents at setup.", 1),
    "upgrades_face_up": Knob(2, 1, 10, "Upgrade cards revealed to choose from.", 1),
    "max_rounds": Knob(60, 1, 1000, "Simulator round limit (R23): after this many rounds the game is a timeout.", 10),
    "bonus_move_check_value": Knob(100_000, 0, 10_000_000, "Cashing a check of exactly this value gives the casher a movement.", 100_000),
    "bonus_move_steps": Knob(1, 0, 5, "Steps of the bonus movement for a bonus-value check.", 1),
    "upgrade_check_value": Knob(200_000, 0, 10_000_000, "Cashing a check of exactly this value gives Jessah an upgrade (or R9).", 100_000),
    "initiative_first": Knob("angela", None, None, 'Who has the initiative in round 1: "angela" (rulebook) or "jessah".', None, "choice"),
    "upgrades_excluded": Knob(
        (), None, None, 'Upgrade ids left out of the deck, e.g. ["satellite_sweep"].', None, "components"),
    "upgrade_copies": Knob(
        (), None, None, "Copies of an upgrade in the deck, e.g. { wiretap = 2 } (0..10; 0 leaves it out).",
        None, "components"),
    "identities_excluded": Knob(
        (), None, None, 'Identity ids that are never dealt, e.g. ["pilot"].', None, "components"),
    "identities_plain": Knob(
        (), None, None, "Identity ids played as the plain identity: an escape of up to 2 movements and no "
        "special power (same id, so games stay paired).", None, "components"),
    "token_values": Knob(
        (), None, None, 'The action tokens of each player, e.g. [1, 2, 2, 3, 3, 4, 4, 5, "POW"] '
        "(default: the component set's).", None, "components"),
    "check_values": Knob(
        (), None, None, "Check values per colour, e.g. { red = [100000, 100000, 300000] } "
        "(a colour left out keeps the component set's).", None, "components"),
}

#: numeric knobs, the ones with a notch
NUMERIC_KNOBS: tuple[str, ...] = tuple(k for k, v in KNOBS.items() if v.kind == "number")
COMPONENT_KNOBS: tuple[str, ...] = tuple(k for k, v in KNOBS.items() if v.kind == "components")


@dataclass(frozen=True, slots=True)
class RuleSet:
    """Frozen rule knobs plus the component set they apply to."""

    money_target: int = 1_000_000
    hand_limit: int = 5
    starting_checks: int = 3
    security_start: int = 2
    security_cap: int = 4
    security_removal_cost: int = 2
    cards_per_round: int = 4
    tokens_per_round: int = 3
    reset_every_rounds: int = 3
    identities_per_game: int = 2
    radars_at_setup: int = 2
    upgrades_face_up: int = 2
    max_rounds: int = 60
    bonus_move_check_value: int = 100_000
    bonus_move_steps: int = 1
    upgrade_check_value: int = 200_000
    initiative_first: str = "angela"
    components: str = "classic"
    # component knobs, stored as tuples so a RuleSet stays hashable; the TOML
    # forms (lists, tables) are converted by from_mapping
    upgrades_excluded: tuple[str, ...] = ()
    upgrade_copies: tuple[tuple[str, int], ...] = ()
    identities_excluded: tuple[str, ...] = ()
    identities_plain: tuple[str, ...] = ()
    token_values: tuple[int | str, ...] = ()
    check_values: tuple[tuple[str, tuple[int, ...]], ...] = ()

    @property
    def captures_to_win(self) -> int:
        """Jessah wins with the capture after Angela's last identity is gone."""
        return self.identities_per_game + 1

    @classmethod
    def from_mapping(cls, data: dict[str, Any], source: str = "rules") -> RuleSet:
        """Build from a TOML table, with errors naming ``source`` and the key."""
        allowed = [*KNOBS, "components"]
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in allowed:
                close = difflib.get_close_matches(key, allowed, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise RulesError(f"{source}: unknown rule knob {key!r}{hint}; knobs are: {', '.join(allowed)}")
            values[key] = _canonical(key, value, source) if key in COMPONENT_KNOBS else value
        rules = cls(**values)
        rules.validate(source)
        return rules

    def replace(self, **changes: Any) -> RuleSet:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d.update(changes)
        return RuleSet.from_mapping(d)

    def validate(self, source: str = "rules") -> None:
        for name, knob in KNOBS.items():
            v = getattr(self, name)
            key = f"{source}: {name}"
            if knob.kind == "components":
                continue  # checked against the component set in _derive_components
            if name == "initiative_first":
                if v not in ("angela", "jessah"):
                    raise RulesError(f'{key}: must be "angela" or "jessah", got {v!r}')
                continue
            if not isinstance(v, int) or isinstance(v, bool):
                raise RulesError(f"{key}: must be a whole number ({knob.lo}..{knob.hi}), got {v!r}")
            assert knob.lo is not None and knob.hi is not None
            if not knob.lo <= v <= knob.hi:
                raise RulesError(f"{key}: must be {knob.lo}..{knob.hi}, got {v}")
        if not isinstance(self.components, str) or not self.components:
            raise RulesError(f"{source}: components: must be a component set name or folder, got {self.components!r}")
        if self.security_start > self.security_cap:
            raise RulesError(f"{source}: security_start: must be at most security_cap ({self.security_cap}), got {self.security_start}")
        if self.tokens_per_round > self.cards_per_round:
            raise RulesError(
                f"{source}: tokens_per_round: must be at most cards_per_round ({self.cards_per_round}): "
                "a player places at most one token per card"
            )
        if self.starting_checks > self.hand_limit + 1:
            raise RulesError(f"{source}: starting_checks: must be at most hand_limit + 1 ({self.hand_limit + 1})")
        self.validate_against(self._components(source), source)

    def load_components(self) -> Components:
        """The component set the game is played with: ``components`` with the
        component knobs applied (the set itself when none is used)."""
        return self._components("rules")

    def _components(self, source: str) -> Components:
        base = load_components(self.components)
        over = self._component_overrides()
        if not over:
            return base
        key = (id(base), json.dumps(over, sort_keys=True))
        hit = _DERIVED.get(key)
        if hit is None or hit[0] is not base:
            hit = (base, _derive_components(base, over, source))
            _DERIVED[key] = hit
        return hit[1]

    def _component_overrides(self) -> dict[str, Any]:
        return {k: _plain_value(getattr(self, k)) for k in COMPONENT_KNOBS if getattr(self, k)}

    def validate_against(self, comps: Components, source: str = "rules") -> None:
        n_cards = len(comps.cards)
        if self.cards_per_round * self.reset_every_rounds > n_cards:
            raise RulesError(
                f"{source}: cards_per_round x reset_every_rounds = {self.cards_per_round * self.reset_every_rounds} "
                f"but the component set has only {n_cards} action cards"
            )
        n_tok = len(comps.tokens)
        if self.tokens_per_round * self.reset_every_rounds > n_tok:
            raise RulesError(
                f"{source}: tokens_per_round x reset_every_rounds = {self.tokens_per_round * self.reset_every_rounds} "
                f"but each player has only {n_tok} action tokens"
            )
        if self.identities_per_game > len(comps.identities):
            raise RulesError(
                f"{source}: identities_per_game: must be at most {len(comps.identities)} "
                "(identities in the set, after identities_excluded)"
            )
        lim = min(comps.radar_supply, comps.n_continents)
        if self.radars_at_setup > lim:
            raise RulesError(f"{source}: radars_at_setup: must be at most {lim} (radars in supply / continents)")
        if 2 * self.starting_checks > len(comps.checks):
            raise RulesError(
                f"{source}: starting_checks: 2 x {self.starting_checks} exceeds the {len(comps.checks)} checks"
            )

    def to_dict(self) -> dict[str, Any]:
        """The knobs as plain TOML/JSON values. Component knobs at their default
        (unused) are left out, so the rules hash of a rule set that does not use
        them is the one it had before they existed."""
        out = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in COMPONENT_KNOBS}
        out.update(self._component_overrides())
        return out

    def digest(self) -> str:
        """Hash of the resolved rules and the component data they use."""
        blob = json.dumps(
            {"rules": self.to_dict(), "components": self.load_components().digest()},
            sort_keys=True,
            separators=(",", ":"),
        ).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def knob_docs() -> str:
    """A Markdown table of every knob: docs/reference/rules.md holds it (tests/test_docs.py checks)."""
    lines = ["| knob | default | allowed | notch | meaning |", "|---|---|---|---|---|"]
    for name, k in KNOBS.items():
        if k.kind == "number":
            allowed = f"{k.lo}..{k.hi}"
        elif k.kind == "choice":
            allowed = '"angela" or "jessah"'
        else:
            allowed = "see meaning"
        default = "(none)" if k.kind == "components" else repr(k.default)
        notch = f"{k.notch:,}" if k.notch is not None else ""
        lines.append(f"| `{name}` | {default} | {allowed} | {notch} | {k.doc} |")
    lines.append('| `components` | "classic" | a built-in set name or a folder | | The component set (map, cards, ...). |')
    return "\n".join(lines)


# ----------------------------------------------------------------- component knobs

_DERIVED: dict[tuple[int, str], tuple[Components, Components]] = {}


def _plain_value(v: Any) -> Any:
    """A component knob's tuple form as its TOML form (list or table)."""
    if v and all(isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) for x in v):
        return {k: list(x) if isinstance(x, tuple) else x for k, x in v}
    return list(v)


def _is_count(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _canonical(name: str, value: Any, source: str) -> Any:
    """Check a component knob's shape (not yet its ids) and make it a tuple."""
    if isinstance(value, tuple) and not value:
        return ()  # the stored default (RuleSet.replace passes fields through as they are)
    return _CANONICAL[name](value, f"{source}: {name}")


def _id_list(value: Any, key: str) -> tuple[str, ...]:
    if not isinstance(value, list | tuple) or not all(isinstance(x, str) for x in value):
        raise RulesError(f'{key}: must be a list of ids, e.g. ["pilot"], got {value!r}')
    dup = [x for i, x in enumerate(value) if x in value[:i]]
    if dup:
        raise RulesError(f"{key}: {dup[0]!r} is listed twice")
    return tuple(value)


def _upgrade_copies(value: Any, key: str) -> tuple[tuple[str, Any], ...]:
    items = _table_items(value, key, "{ wiretap = 2 }")
    for uid, n in items:
        if not _is_count(n) or not 0 <= n <= 10:
            raise RulesError(f"{key}: {uid}: copies must be a whole number 0..10, got {n!r}")
    return tuple(sorted(items))


def _token_values(value: Any, key: str) -> tuple[Any, ...]:
    if not isinstance(value, list | tuple) or not value:
        raise RulesError(f'{key}: must be a non-empty list of tokens, e.g. [1, 2, 3, "POW"], got {value!r}')
    for t in value:
        if t != "POW" and not (_is_count(t) and 0 <= t < POW):
            raise RulesError(f'{key}: a token is a whole number 0..{POW - 1} or "POW", got {t!r}')
    return tuple(value)


def _check_values(value: Any, key: str) -> tuple[tuple[str, tuple[int, ...]], ...]:
    out = []
    for colour, vals in _table_items(value, key, "{ red = [100000, 200000] }"):
        if not isinstance(vals, list | tuple) or not vals:
            raise RulesError(f"{key}: {colour}: must be a non-empty list of dollar values, got {vals!r}")
        for v in vals:
            if not _is_count(v) or v <= 0:
                raise RulesError(f"{key}: {colour}: a check value is a positive whole number of dollars, got {v!r}")
        out.append((colour, tuple(vals)))
    return tuple(sorted(out))


#: each component knob's check and canonical form
_CANONICAL: dict[str, Callable[[Any, str], Any]] = {
    "upgrades_excluded": _id_list, "identities_excluded": _id_list, "identities_plain": _id_list,
    "upgrade_copies": _upgrade_copies, "token_values": _token_values, "check_values": _check_values,
}


def _table_items(value: Any, key: str, example: str) -> list[tuple[str, Any]]:
    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, list | tuple) and all(isinstance(x, list | tuple) and len(x) == 2 for x in value):
        items = [(k, v) for k, v in value]
    else:
        raise RulesError(f"{key}: must be a table, e.g. {example}, got {value!r}")
    if not all(isinstance(k, str) for k, _ in items):
        raise RulesError(f"{key}: must be a table, e.g. {example}, got {value!r}")
    return items


def _known(key: str, what: str, name: str, known: list[str]) -> None:
    if name not in known:
        close = difflib.get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise RulesError(f"{key}: unknown {what} {name!r}{hint}; {what}s are: {', '.join(known)}")


def _derive_components(base: Components, over: dict[str, Any], source: str) -> Components:
    """``base`` with the component knobs ``over`` applied (validated first, so
    errors name the knob rather than a component file)."""
    raw = copy.deepcopy(base.raw)
    upgrades = raw["upgrades.toml"]["upgrades"]
    uids = [u["id"] for u in upgrades]
    excluded = over.get("upgrades_excluded", [])
    for u in excluded:
        _known(f"{source}: upgrades_excluded", "upgrade", u, uids)
    copies = over.get("upgrade_copies", {})
    for u in copies:
        _known(f"{source}: upgrade_copies", "upgrade", u, uids)
        if u in excluded:
            raise RulesError(f"{source}: upgrade_copies: {u!r} is also in upgrades_excluded; keep one of the two")
    kept = []
    for u in upgrades:
        n = 0 if u["id"] in excluded else copies.get(u["id"], u.get("copies", 1))
        if n > 0:
            kept.append({**u, "copies": n})
    raw["upgrades.toml"]["upgrades"] = kept

    idents = raw["identities.toml"]["identities"]
    iids = [i["id"] for i in idents]
    for name in ("identities_excluded", "identities_plain"):
        for i in over.get(name, []):
            _known(f"{source}: {name}", "identity", i, iids)
    out_ids = []
    for d in idents:
        if d["id"] in over.get("identities_excluded", []):
            continue
        if d["id"] in over.get("identities_plain", []):
            d = {"id": d["id"], "name": f"{d['name']} (plain)", **PLAIN_IDENTITY}
        out_ids.append(d)
    raw["identities.toml"]["identities"] = out_ids

    if "token_values" in over:
        raw["tokens.toml"]["action_tokens"] = list(over["token_values"])
    if "check_values" in over:
        colours = [c["colour"] for c in raw["map.toml"]["continents"]]
        for colour, vals in over["check_values"].items():
            _known(f"{source}: check_values", "colour", colour, colours)
            raw["checks.toml"]["values"][colour] = list(vals)
    try:
        comps = build_components(raw, name=f"{base.name}+knobs")
    except RnsimError as e:
        raise RulesError(f"{source}: the component knobs make an invalid component set: {e}") from None
    return dataclasses.replace(comps, identity_draw=_identity_draw(base, comps),
                               upgrade_draw=_upgrade_draw(base, comps))


def _identity_draw(base: Components, comps: Components) -> tuple[int, ...]:
    """Each identity of ``base``, as its index in ``comps`` (-1: excluded)."""
    index = {d.id: i for i, d in enumerate(comps.identities)}
    return tuple(index.get(d.id, -1) for d in base.identities)


def _upgrade_draw(base: Components, comps: Components) -> tuple[int, ...]:
    """Each card of ``base``'s upgrade deck, as the index of the same card
    (the same id, the same copy) in ``comps``'s deck (-1: left out), then
    ``comps``'s copies beyond ``base``'s."""
    free: dict[str, list[int]] = {}
    for i, u in enumerate(comps.upgrade_cards):
        free.setdefault(u.id, []).append(i)
    out = [free[u.id].pop(0) if free.get(u.id) else -1 for u in base.upgrade_cards]
    out += sorted(i for left in free.values() for i in left)
    return tuple(out)

