"""A rule-of-thumb FBI player: the rulebook's advice, and nothing about the others.

- Bid: release the worst innocent bystander in the slammer ("he should release
  him from the slammer quickly"), else move no card.
- Field agents: the pair whose two arrests are worth most on today's table
  (the 2x agent when one colour holds the two best cards).
- Arrest: the agent whose colour gives the most valuable card now.
"""

from __future__ import annotations

from typing import Any

from rnsim_strategies.fbi import FbiStrategy
from rnsim_strategies.fbi.model import greedy_colour, rule_pair, table_values


class RuleStrategy(FbiStrategy):
    name = "rule"

    def on_bid(self, view: Any, decision: Any) -> Any:
        val = view.comps.card_value
        cards = [o for o in decision.options if o != "none"]
        worst = min(cards, key=lambda c: val[c], default=None)
        return worst if worst is not None and val[worst] < 0 else "none"

    def on_agents(self, view: Any, decision: Any) -> Any:
        comps = view.comps
        return rule_pair(decision.options, table_values(view), view.rules.stacked, comps.colours, comps.doubler)

    def on_arrest(self, view: Any, decision: Any) -> Any:
        colours = view.comps.colours
        agents = [colours.index(o) for o in decision.options]
        return colours[greedy_colour(agents, table_values(view), view.rules.stacked)]
