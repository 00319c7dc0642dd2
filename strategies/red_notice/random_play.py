"""Uniformly random legal play, for both seats: the floor of the strength ladder."""

from __future__ import annotations

from rnsim_strategies.red_notice.base import RedNoticeStrategy as Strategy

from rnsim.games.red_notice.engine.decision import Decision, Option
from rnsim.games.red_notice.engine.view import View


class RandomStrategy(Strategy):
    """Every decision: a uniformly random legal option from the seat's stream."""

    name = "random"
    uses_view = False

    def choose(self, view: View, decision: Decision) -> Option:
        opts = decision.options
        # random() * n rather than randrange(n): several times cheaper, and the
        # bias (n / 2**53) is far below anything a tournament can measure.
        return opts[int(self.rng.random() * len(opts))]
