"""The effects' registry: the hooks the engine calls, and the effect
registered under each card's effect name.

The state (engine/state.py) looks a card's effect up here by the name its
component data give (``effect = "lawyer"``) and calls its hooks; the effects
themselves (engine/effects.py) subclass the two bases below, act on the state
they are handed, and register one instance each when they load (the engine
package loads them). So the state knows effects only by name and hook, and
the effects know the state: the dependency runs one way.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rnsim.games.red_notice.engine.decision import ANGELA
from rnsim.games.red_notice.engine.frames import M_ESCAPE
from rnsim.games.red_notice.rules.components import Identity

# What follows a cash, in order: ("bonus", seat, steps) the $100k bonus
# movement, ("upgrade", chooser, 0) Jessah's upgrade, ("move", seat, steps).
Later = list[tuple[str, int, int]]

# Handlers of the frames only one card pushes: name -> (step, answer or None).
FRAME_HANDLERS: dict[str, tuple[Callable[..., Any], Callable[..., Any] | None]] = {}


class IdentityEffect:
    """An identity: an escape movement of its ``moves`` steps. ``s`` is the
    engine's GameState (engine/effects.py types it so)."""

    NAME: ClassVar[str] = ""

    def on_escape(self, s: Any, ident: Identity) -> None:
        s._push_move(ANGELA, ident.moves, M_ESCAPE)


class UpgradeEffect:
    """An upgrade card of Jessah's. ``PERMANENT`` cards stay in front of her
    (their while-held hooks apply); the others apply once, on gain."""

    NAME: ClassVar[str] = ""
    PERMANENT: ClassVar[bool] = False

    def on_gain(self, s: Any) -> None:
        pass

    def on_destroy(self, s: Any) -> None:
        pass

    def movement_bonus(self, s: Any, seat: int, mode: int) -> int:
        return 0

    def on_cash(self, s: Any, seat: int, value: int, later: Later) -> None:
        pass

    def on_trigger(self, s: Any, continent: int, city: int, shown: int) -> int:
        return shown


#: the effect of each identity and upgrade, by name (filled by engine/effects.py)
IDENTITY_EFFECTS: dict[str, IdentityEffect] = {}
UPGRADE_EFFECTS: dict[str, UpgradeEffect] = {}
