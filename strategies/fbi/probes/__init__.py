"""FBI's probes: specialist players, each built to punish one habit of the
expert (``rnsim exploit --game fbi``, and the strength band of FBI's report).

Each is the expert with one opinion added (its base, ``expert``): it
predicts the other players with a copy of the expert sat in their chairs,
on the open table only (:mod:`rnsim_strategies.fbi.probes.readers`). FBI's
seats are alike in the rules (FR13), so a probe has no seat of its own:
``rnsim exploit`` plays it in every seat in turn, and the band in ``seat``
(Ann, the seat every player count has) with the seats rotated by the deal.
"""

from __future__ import annotations

from typing import NamedTuple


class Probe(NamedTuple):
    name: str
    seat: str  # the seat the band plays it in (exploit rotates it over every seat)
    ref: str  # strategy reference
    habit: str  # the habit of the expert it punishes


PROBES: tuple[Probe, ...] = (
    Probe("pair_reader", "ann", "rnsim_strategies.fbi.probes.readers:PairReader",
          "expert picks its field agents from odds it computes on the open table: the probe predicts each rival's "
          "pair with a copy of the expert (one draw from the same odds) and picks the pair that ends the turn best "
          "against them"),
    Probe("arrest_reader", "ann", "rnsim_strategies.fbi.probes.readers:ArrestReader",
          "expert arrests against the rivals' agents drawn from its odds of their pairs: the probe assumes the pair "
          "a copy of the expert predicts for him"),
    Probe("bid_reader", "ann", "rnsim_strategies.fbi.probes.readers:BidReader",
          "expert values its bid assuming later bidders dump their worst bystander: the probe predicts their "
          "bids with copies of the expert, in bidding order (F2)"),
)
