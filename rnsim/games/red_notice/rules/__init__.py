"""Immutable rule data: components (map, cards, ...) and the rule knobs."""

from rnsim.games.red_notice.rules.components import (
    BANK,
    CHECK,
    JOKER,
    MOVEMENT,
    POW,
    SECURITY,
    Components,
    load_components,
)
from rnsim.games.red_notice.rules.ruleset import KNOBS, RuleSet

__all__ = [
    "BANK", "CHECK", "JOKER", "MOVEMENT", "POW", "SECURITY",
    "Components", "KNOBS", "RuleSet", "load_components",
]
