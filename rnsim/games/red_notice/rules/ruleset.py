"""The rule knobs: every number the rules use, named, documented and validated.

A variant is a RuleSet with some knobs changed; the engine reads knobs and
never compares variant names. Defaults are the rulebook's values.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import asdict, dataclass, fields
from typing import Any

from rnsim.errors import RulesError
from rnsim.games.red_notice.rules.components import Components, load_components


@dataclass(frozen=True, slots=True)
class Knob:
    default: Any
    lo: int | None
    hi: int | None
    doc: str


# name -> (default, min, max, doc). Bounds that depend on the component set are
# checked in RuleSet.validate_against().
KNOBS: dict[str, Knob] = {
    "money_target": Knob(1_000_000, 1, 100_000_000, "Angela wins the moment her cashed checks reach this total (dollars)."),
    "hand_limit": Knob(5, 1, 50, "Most checks a hand may hold; draws beyond it are lost."),
    "starting_checks": Knob(3, 1, 10, "Checks dealt to each player at setup; one is shown to place the pawn."),
    "security_start": Knob(2, 0, 50, "Angela's security points at setup."),
    "security_cap": Knob(4, 0, 50, "Most security points Angela can hold; gains above are lost (R11)."),
    "security_removal_cost": Knob(2, 1, 50, "Security points Angela spends to remove one white radar or barrier."),
    "cards_per_round": Knob(4, 1, 12, "Action cards drawn each round."),
    "tokens_per_round": Knob(3, 1, 12, "Action tokens each player draws and places each round."),
    "reset_every_rounds": Knob(3, 1, 12, "Tokens and action cards are reshuffled after this many rounds."),
    "identities_per_game": Knob(2, 0, 6, "False identities Angela gets; Jessah needs one more capture than this to win."),
    "radars_at_setup": Knob(2, 0, 6, "Radars Jessah places on distinct continents at setup."),
    "upgrades_face_up": Knob(2, 1, 10, "Upgrade cards revealed to choose from."),
    "max_rounds": Knob(60, 1, 1000, "Simulator round limit (R23): after this many rounds the game is a timeout."),
    "bonus_move_check_value": Knob(100_000, 0, 10_000_000, "Cashing a check of exactly this value gives the casher a movement."),
    "bonus_move_steps": Knob(1, 0, 5, "Steps of the bonus movement for a bonus-value check."),
    "upgrade_check_value": Knob(200_000, 0, 10_000_000, "Cashing a check of exactly this value gives Jessah an upgrade (or R9)."),
    "initiative_first": Knob("angela", None, None, 'Who has the initiative in round 1: "angela" (rulebook) or "jessah".'),
}


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
            values[key] = value
        rules = cls(**values)
        rules.validate(source)
        return rules

    def replace(self, **changes: Any) -> RuleSet:
        d = asdict(self)
        d.update(changes)
        return RuleSet.from_mapping(d)

    def validate(self, source: str = "rules") -> None:
        for name, knob in KNOBS.items():
            v = getattr(self, name)
            key = f"{source}: {name}"
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
        self.validate_against(self.load_components(), source)

    def load_components(self) -> Components:
        return load_components(self.components)

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
                f"{source}: identities_per_game: must be at most {len(comps.identities)} (identities in the set)"
            )
        lim = min(comps.radar_supply, comps.n_continents)
        if self.radars_at_setup > lim:
            raise RulesError(f"{source}: radars_at_setup: must be at most {lim} (radars in supply / continents)")
        if 2 * self.starting_checks > len(comps.checks):
            raise RulesError(
                f"{source}: starting_checks: 2 x {self.starting_checks} exceeds the {len(comps.checks)} checks"
            )

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def digest(self) -> str:
        """Hash of the resolved rules and the component data they use."""
        blob = json.dumps(
            {"rules": self.to_dict(), "components": self.load_components().digest()},
            sort_keys=True,
            separators=(",", ":"),
        ).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def knob_docs() -> str:
    """A Markdown table of every knob, for the README and `rnsim rules`."""
    lines = ["| knob | default | allowed | meaning |", "|---|---|---|---|"]
    for name, k in KNOBS.items():
        allowed = f"{k.lo}..{k.hi}" if k.lo is not None else '"angela" or "jessah"'
        lines.append(f"| `{name}` | {k.default!r} | {allowed} | {k.doc} |")
    lines.append('| `components` | "classic" | a built-in set name or a folder | The component set (map, cards, ...). |')
    return "\n".join(lines)
