"""Restricted play: a strategy that plays exactly like another one, except that
it never chooses one upgrade while another is offered (causal
upgrade values). The casher of a $200k check chooses the upgrade Jessah gets
(Angela when she cashes it), so ``rnsim levers --restricted`` wraps both
seats: Jessah gains the upgrade only when it is the only one left to choose.

The forger's win rate with and without the restriction, paired on the game
index, is the value of the upgrade: unlike the report's association table
(games where she gained it vs games where she did not) it is not confounded by
when upgrades come (she gains one when Angela cashes a $200k check, that is,
when Angela is ahead). A game in which the upgrade is never offered is played
move for move as without the restriction, so those games cancel exactly.

    [strategies]
    angela = { ref = "rnsim.levers.restricted:Restricted", params = { inner = "expert", never = "satellite_sweep" } }
    jessah = { ref = "rnsim.levers.restricted:Restricted", params = { inner = "expert", never = "satellite_sweep" } }
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rnsim.strategy import Strategy, load_strategy


class Restricted(Strategy):
    """``inner``'s play, with the upgrade ``never`` taken only when it is the only choice."""

    name: ClassVar[str] = "restricted"
    PARAMS: ClassVar[dict[str, Any]] = {"inner": "expert", "never": "", "inner_params": {}}

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        from rnsim.errors import ConfigError

        if not isinstance(self.params["never"], str) or not self.params["never"]:
            raise ConfigError("strategy Restricted: param 'never' must name an upgrade id, e.g. \"satellite_sweep\"")
        self.inner = load_strategy(self.params["inner"], self.params["inner_params"] or None)
        self.uses_view = self.inner.uses_view  # type: ignore[misc]

    def reads_history(self) -> bool:
        return self.inner.reads_history()

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        self.inner.new_game(seat, rng)

    def choose(self, view: Any, decision: Any) -> Any:
        never = self.params["never"]
        if decision.kind == "upgrade" and never in decision.options and len(decision.options) > 1:
            opts = [o for o in decision.options if o != never]
            decision = type(decision)(decision.seat, decision.kind, opts, getattr(decision, "info", None))
        return self.inner.choose(view, decision)
