"""Uniformly random legal play: the floor of FBI's strength ladder."""

from __future__ import annotations

from typing import Any

from rnsim_strategies.fbi import FbiStrategy


class RandomStrategy(FbiStrategy):
    """Every decision: a uniformly random legal option from the seat's stream."""

    name = "random"
    uses_view = False

    def choose(self, view: Any, decision: Any) -> Any:
        opts = decision.options
        return opts[int(self.rng.random() * len(opts))]
