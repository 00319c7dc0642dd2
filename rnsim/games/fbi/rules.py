"""FBI's rule knobs: defaults are the rulebook's values and the rulings'
(F1..F16, docs/reference/rulings.md); a variant is a rule set with some knobs changed."""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import asdict, dataclass, fields
from typing import Any

from rnsim.errors import RulesError
from rnsim.game import Knob
from rnsim.games.fbi.components import Components, load_components

KNOBS: tuple[Knob, ...] = (
    Knob("stacked", False,
         "The rulebook's variant (F15): cards are stacked per colour in the order placed, and an arrest "
         "takes the top card of the colour instead of the most valuable one.",
         choices=(False, True)),
    Knob("cards_per_player", 2,
         "Character cards placed each turn per player (rulebook: twice as many cards as players, F9).",
         low=1, high=4, notch=1),
    Knob("bonus_needs_positive", True,
         "A bonus card goes only to a colour total above 0 (F11); false: the highest total wins it even "
         "if it is 0 or negative (still none on a tie).",
         choices=(True, False)),
    Knob("bid_cards", "any",
         'Which slammer cards may be moved in the bid for the order of arrests: "any" (F3), "purple" '
         '(only the setup cards), or "none" (no bidding: seat order from the handcuffs holder, FR3).',
         choices=("any", "purple", "none")),
    Knob("doubler", True,
         "Each player has the 2x field agent (rulebook); false removes it (FR4).",
         choices=(True, False)),
)
KNOB_BY_NAME = {k.name: k for k in KNOBS}


@dataclass(frozen=True, slots=True)
class FbiRules:
    stacked: bool = False
    cards_per_player: int = 2
    bonus_needs_positive: bool = True
    bid_cards: str = "any"
    doubler: bool = True
    components: str = "classic"

    @classmethod
    def from_mapping(cls, data: Any, source: str = "rules") -> FbiRules:
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise RulesError(f"{source}: must be a table of rule knobs, got {data!r}")
        allowed = [*KNOB_BY_NAME, "components"]
        for key in data:
            if key not in allowed:
                close = difflib.get_close_matches(str(key), allowed, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise RulesError(f"{source}: unknown FBI rule knob {key!r}{hint}; knobs are: {', '.join(allowed)}")
        rules = cls(**data)
        rules.validate(source)
        return rules

    def replace(self, **changes: Any) -> FbiRules:
        d = asdict(self)
        d.update(changes)
        return FbiRules.from_mapping(d)

    def validate(self, source: str = "rules") -> None:
        for knob in KNOBS:
            v = getattr(self, knob.name)
            key = f"{source}: {knob.name}"
            if knob.choices is not None:
                # True == 1 in Python, so a bool knob must get a real bool
                if v not in knob.choices or isinstance(knob.default, bool) != isinstance(v, bool):
                    allowed = " or ".join(json.dumps(c) for c in knob.choices)
                    raise RulesError(f"{key}: must be {allowed}, got {v!r}")
            else:
                if not isinstance(v, int) or isinstance(v, bool):
                    raise RulesError(f"{key}: must be a whole number ({knob.low:g}..{knob.high:g}), got {v!r}")
                assert knob.low is not None and knob.high is not None
                if not knob.low <= v <= knob.high:
                    raise RulesError(f"{key}: must be {knob.low:g}..{knob.high:g}, got {v}")
        if not isinstance(self.components, str) or not self.components:
            raise RulesError(f"{source}: components: must be a component set name or folder, got {self.components!r}")
        self.load_components()

    def load_components(self) -> Components:
        return load_components(self.components)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def digest(self) -> str:
        """Hash of the resolved rules and the component data they use."""
        blob = json.dumps(
            {"game": "fbi", "rules": self.to_dict(), "components": self.load_components().digest()},
            sort_keys=True,
            separators=(",", ":"),
        ).encode()
        return hashlib.sha256(blob).hexdigest()[:16]


def knob_docs() -> str:
    """A Markdown table of every knob, for docs/games/fbi.md."""
    lines = ["| knob | default | allowed | meaning |", "|---|---|---|---|"]
    for k in KNOBS:
        allowed = " / ".join(json.dumps(c) for c in k.choices) if k.choices else f"{k.low:g}..{k.high:g}"
        lines.append(f"| `{k.name}` | {json.dumps(k.default)} | {allowed} | {k.doc} |")
    lines.append('| `components` | "classic" | a built-in set name or a folder | The component set (F14). |')
    return "\n".join(lines)
