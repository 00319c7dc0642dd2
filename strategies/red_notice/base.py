"""The base of Red Notice strategies: :class:`rnsim.strategy.Strategy` plus
sensible defaults for the decisions where uniformly random play is clearly
silly. Every other kind (start, setup_radar, place_token, upgrade, identity,
informant, ...) falls back to ``default``: a random legal option from the
seat's own stream."""

from __future__ import annotations

from typing import ClassVar

from rnsim.games.red_notice.engine.decision import (
    AngelaMoveOption,
    AngelaSecurityOption,
    BankOption,
    CheckOption,
    Decision,
    JessahMoveOption,
    JessahSecurityOption,
    JokerOption,
)
from rnsim.games.red_notice.engine.view import View
from rnsim.strategy import Strategy


class RedNoticeStrategy(Strategy):
    """Subclass this to write a Red Notice strategy; override only what you care about."""

    # the game these strategies play: rnsim refuses them in another game's seats
    game: ClassVar[str] = "red_notice"

    def on_check(self, view: View, decision: Decision[CheckOption]) -> CheckOption:
        return "draw"

    def on_angela_security(self, view: View, decision: Decision[AngelaSecurityOption]) -> AngelaSecurityOption:
        return "gain"

    def on_bank(self, view: View, decision: Decision[BankOption]) -> BankOption:
        """Cash the most valuable check that can be cashed here."""
        checks = view.comps.checks
        cashable = [o for o in decision.options if o != "pass"]
        return max(cashable, key=lambda c: (checks[c].value, -c))

    def on_joker(self, view: View, decision: Decision[JokerOption]) -> JokerOption:
        """Any action rather than none."""
        opts = [o for o in decision.options if o != "pass"]
        return opts[self.rng.randrange(len(opts))]

    def on_jessah_security(self, view: View, decision: Decision[JessahSecurityOption]) -> JessahSecurityOption:
        """Place something rather than nothing."""
        opts = [o for o in decision.options if o != "pass"] or decision.options
        return opts[self.rng.randrange(len(opts))]

    def on_angela_move(self, view: View, decision: Decision[AngelaMoveOption]) -> AngelaMoveOption:
        """A random step (or standing still); never spends security by default."""
        opts = [o for o in decision.options if o in ("stay", "stop") or o[0] == "move"]
        return opts[self.rng.randrange(len(opts))]

    def on_jessah_move(self, view: View, decision: Decision[JessahMoveOption]) -> JessahMoveOption:
        """A random step or inspection; never gives up the movement by default."""
        opts = [o for o in decision.options if o != "stop"]
        return opts[self.rng.randrange(len(opts))]
