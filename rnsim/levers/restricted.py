"""Restricted play: a strategy that plays exactly like another one, except that
it never chooses one option while another is offered. A game declares its
restricted-play levers (``rnsim.game.Lever`` with ``never``); Red Notice's are
its upgrades, and since the casher of a $200k check chooses the upgrade Jessah
gets (Angela when she cashes it), ``rnsim levers --restricted`` wraps every
seat: Jessah gains the upgrade only when it is the only one left to choose.

The watched seat's rate with and without the restriction, paired on the game
index, is the value of that option: unlike an association (games where it was
taken vs games where it was not) it is not confounded by when the option comes
up. A game in which the option is never offered is played move for move as
without the restriction, so those games cancel exactly.

    [strategies]
    angela = { ref = "rnsim.levers.restricted:Restricted", params = { inner = "expert", never = "satellite_sweep" } }
    jessah = { ref = "rnsim.levers.restricted:Restricted", params = { inner = "expert", never = "satellite_sweep" } }

``kind`` (optional) limits the restriction to decisions of that kind.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rnsim.strategy import Strategy, load_strategy


class Restricted(Strategy):
    """``inner``'s play, with the option ``never`` taken only when it is the only choice."""

    name: ClassVar[str] = "restricted"
    PARAMS: ClassVar[dict[str, Any]] = {"inner": "expert", "never": "", "inner_params": {}, "kind": ""}

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        from rnsim.errors import ConfigError

        if not isinstance(self.params["never"], str) or not self.params["never"]:
            raise ConfigError("strategy Restricted: param 'never' must name the option never chosen, "
                              "e.g. \"satellite_sweep\"")
        if not isinstance(self.params["kind"], str):
            raise ConfigError("strategy Restricted: param 'kind' must be a decision kind (a string) or left out")
        self.inner = load_strategy(self.params["inner"], self.params["inner_params"] or None)
        self.uses_view = self.inner.uses_view  # type: ignore[misc]

    def reads_history(self) -> bool:
        return self.inner.reads_history()

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        self.inner.new_game(seat, rng)

    def choose(self, view: Any, decision: Any) -> Any:
        never = self.params["never"]
        kind = self.params["kind"]
        if (not kind or decision.kind == kind) and len(decision.options) > 1 and never in decision.options:
            opts = [o for o in decision.options if o != never]
            decision = type(decision)(decision.seat, decision.kind, opts, getattr(decision, "info", None))
        return self.inner.choose(view, decision)
